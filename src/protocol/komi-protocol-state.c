/* komi-protocol-state.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-protocol"

#include "config.h"

#include <string.h>

#include "komi-coords.h"
#include "komi-protocol-private.h"
#include "komi-protocol-state.h"

/* Longest board line: a two-character row label and 19 spaced points. */
#define MAX_LINE_LEN (2 + 2 * KOMI_MAX_SIZE)

static const char point_chars[] = { '.', 'X', 'O' };

void
komi_protocol_state_init_from_game (KomiProtocolState *state,
                                    const KomiGame    *game,
                                    KomiOrientation    orientation)
{
  KomiPoint points[KOMI_MAX_POINTS];
  guint n;

  g_return_if_fail (state != NULL);
  memset (state, 0, sizeof *state);
  g_return_if_fail (game != NULL);
  g_return_if_fail (orientation < KOMI_N_ORIENTATIONS);
  g_return_if_fail (!komi_game_is_over (game));

  state->protocol = KOMI_PROTOCOL_LATEST;
  state->size = komi_game_get_size (game);
  state->orientation = orientation;
  state->to_move = komi_game_get_to_move (game);
  state->turns_left = komi_game_get_turns_left (game);
  state->opponent_just_passed = komi_game_get_opponent_just_passed (game);
  komi_board_get_colors (komi_game_get_board (game), state->colors);

  n = komi_game_legal_points (game, points);
  for (guint i = 0; i < n; i++)
    state->legal[points[i]] = TRUE;
  n = komi_game_superko_points (game, points);
  for (guint i = 0; i < n; i++)
    state->superko[points[i]] = TRUE;
}

gboolean
komi_protocol_state_has_questions (const KomiProtocolState *state)
{
  g_return_val_if_fail (state != NULL, FALSE);

  for (guint p = 0; p < state->size * state->size; p++)
    if (state->legal[p])
      return TRUE;
  return FALSE;
}

/* The shown board: the state and, for each shown point, the real point
 * behind it, computed once per request rather than once per use. */
typedef struct
{
  const KomiProtocolState *state;
  guint                    size;
  KomiPoint                real[KOMI_MAX_POINTS];
} ShownBoard;

static void
shown_board_init (ShownBoard *board, const KomiProtocolState *state)
{
  board->state = state;
  board->size = state->size;
  for (KomiPoint p = 0; (guint) p < state->size * state->size; p++)
    board->real[p] = komi_orientation_unapply (state->orientation, state->size, p);
}

/* Writes line @y of the shown board into @buf, -1 being the column header,
 * and returns its length. Row labels are right-aligned to the widest, so
 * that the columns line up on boards wider than 9 (" 9" above "10"). */
static guint
board_line (const ShownBoard *board, int y, char buf[MAX_LINE_LEN])
{
  guint size = board->size;
  guint row;
  guint len = 0;

  if (y < 0)
    {
      buf[len++] = ' ';
      if (size >= 10)
        buf[len++] = ' ';
      for (guint x = 0; x < size; x++)
        {
          buf[len++] = ' ';
          buf[len++] = komi_column_letter (x);
        }
      return len;
    }

  row = size - (guint) y;
  if (size >= 10)
    buf[len++] = row >= 10 ? (char) ('0' + row / 10) : ' ';
  buf[len++] = (char) ('0' + row % 10);
  for (guint x = 0; x < size; x++)
    {
      KomiPoint real = board->real[komi_point_from_xy (size, x, (guint) y)];

      buf[len++] = ' ';
      buf[len++] = point_chars[board->state->colors[real]];
    }
  return len;
}

/* The protocol name of a shown point, NUL-terminated, and its length;
 * faster than komi_point_to_name(), which formats with printf. */
static guint
shown_name (guint size, KomiPoint shown, char buf[KOMI_NAME_LEN])
{
  guint row = size - komi_point_y (size, shown);
  guint len = 0;

  buf[len++] = komi_column_letter (komi_point_x (size, shown));
  if (row >= 10)
    buf[len++] = (char) ('0' + row / 10);
  buf[len++] = (char) ('0' + row % 10);
  buf[len] = '\0';
  return len;
}

/* Calls @func with the shown name of each point whose real point is set
 * in @flags, in the board order of the shown board (the order sent). */
static void
foreach_shown (const ShownBoard *board,
               const guint8     *flags,
               void            (*func) (const char *name, gpointer data),
               gpointer          data)
{
  for (KomiPoint shown = 0; (guint) shown < board->size * board->size; shown++)
    {
      char name[KOMI_NAME_LEN];

      if (!flags[board->real[shown]])
        continue;
      shown_name (board->size, shown, name);
      func (name, data);
    }
}

/* A one-line JSON array of the names flagged in @flags, built in a local
 * buffer and appended at once: GString appends are not inlined in 2.74. */
static void
write_name_list (GString *out, const ShownBoard *board, const guint8 *flags)
{
  /* Per name at most '"', three characters, '"', ", " and a NUL. */
  char buf[2 + KOMI_MAX_POINTS * 7 + 1];
  guint len = 0;

  buf[len++] = '[';
  for (KomiPoint shown = 0; (guint) shown < board->size * board->size; shown++)
    {
      if (!flags[board->real[shown]])
        continue;
      if (len > 1)
        {
          buf[len++] = ',';
          buf[len++] = ' ';
        }
      buf[len++] = '"';
      len += shown_name (board->size, shown, buf + len);
      buf[len++] = '"';
    }
  buf[len++] = ']';
  g_string_append_len (out, buf, len);
}

static void
add_array_item (const char *name, gpointer data)
{
  json_array_add_string_element (data, name);
}

static void
add_strv_item (const char *name, gpointer data)
{
  g_ptr_array_add (data, g_strdup (name));
}

static JsonArray *
name_array (const ShownBoard *board, const guint8 *flags)
{
  JsonArray *array = json_array_new ();

  foreach_shown (board, flags, add_array_item, array);
  return array;
}

char **
komi_protocol_state_dup_options (const KomiProtocolState *state,
                                 KomiProtocolQuestion     question)
{
  GPtrArray *options;
  ShownBoard board;

  g_return_val_if_fail (state != NULL, NULL);
  g_return_val_if_fail (question < KOMI_PROTOCOL_N_QUESTIONS, NULL);

  options = g_ptr_array_new ();
  if (question == KOMI_PROTOCOL_QUESTION_BEST_POINT)
    {
      shown_board_init (&board, state);
      foreach_shown (&board, state->legal, add_strv_item, options);
    }
  else if (komi_protocol_state_has_questions (state))
    {
      g_ptr_array_add (options, g_strdup (KOMI_PROTOCOL_OPTION_PLACE_STONE));
      g_ptr_array_add (options, g_strdup (KOMI_PROTOCOL_OPTION_PASS));
    }
  g_ptr_array_add (options, NULL);
  return (char **) g_ptr_array_free (options, FALSE);
}

static void
write_question (GString              *out,
                const ShownBoard     *board,
                KomiProtocolQuestion  question)
{
  const KomiProtocolState *state = board->state;

  g_string_append (out, "    {\n      \"id\": \"");
  g_string_append (out, komi_protocol_question_id (question));
  g_string_append (out, "\",\n      \"question\": \"");
  komi_protocol_append_question (out, question, state->to_move);
  g_string_append (out, "\",\n      \"options\": ");
  if (question == KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS)
    g_string_append (out, "[\"" KOMI_PROTOCOL_OPTION_PLACE_STONE "\", \""
                          KOMI_PROTOCOL_OPTION_PASS "\"]");
  else
    write_name_list (out, board, state->legal);
  g_string_append (out, "\n    }");
}

/* The layout is the specification's example, byte for byte: two-space
 * indents, one board line per row, arrays of names on one line. Every
 * string written here is from a fixed alphabet, so none needs escaping.
 * @only is a question, or KOMI_PROTOCOL_N_QUESTIONS for both. */
static void
write_request (GString *out, const KomiProtocolState *state, KomiProtocolQuestion only)
{
  ShownBoard board;
  char line[7 + MAX_LINE_LEN + 3];   /* indent and quote, line, quote, comma, newline */
  char num[16];

  g_return_if_fail (out != NULL);
  g_return_if_fail (state != NULL);
  g_return_if_fail (komi_protocol_is_known (state->protocol));
  g_return_if_fail (state->size >= KOMI_MIN_SIZE && state->size <= KOMI_MAX_SIZE);
  g_return_if_fail (state->orientation < KOMI_N_ORIENTATIONS);
  g_return_if_fail (state->to_move == KOMI_BLACK || state->to_move == KOMI_WHITE);

  shown_board_init (&board, state);
  g_string_append (out, "{\n  \"state\": {\n    \"to_move\": \"");
  g_string_append (out, komi_color_to_protocol (state->to_move));
  g_string_append (out, "\",\n    \"board\": [\n");
  memcpy (line, "      \"", 7);
  for (int y = -1; y < (int) state->size; y++)
    {
      guint len = 7 + board_line (&board, y, line + 7);

      line[len++] = '"';
      if (y + 1 < (int) state->size)
        line[len++] = ',';
      line[len++] = '\n';
      g_string_append_len (out, line, len);
    }
  g_string_append (out, "    ],\n    \"turns_left\": ");
  g_string_append_len (out, num, g_snprintf (num, sizeof num, "%u", state->turns_left));
  g_string_append (out, ",\n    \"opponent_just_passed\": ");
  g_string_append (out, state->opponent_just_passed ? "true" : "false");
  g_string_append (out, ",\n    \"points_forbidden_by_superko\": ");
  write_name_list (out, &board, state->superko);
  g_string_append (out, "\n  },\n  \"questions\": [");
  if (komi_protocol_state_has_questions (state))
    {
      g_string_append_c (out, '\n');
      if (only != KOMI_PROTOCOL_QUESTION_BEST_POINT)
        write_question (out, &board, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS);
      if (only == KOMI_PROTOCOL_N_QUESTIONS)
        g_string_append (out, ",\n");
      if (only != KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS)
        write_question (out, &board, KOMI_PROTOCOL_QUESTION_BEST_POINT);
      g_string_append (out, "\n  ");
    }
  g_string_append (out, "]\n}\n");
}

void
komi_protocol_write_request (GString *out, const KomiProtocolState *state)
{
  write_request (out, state, KOMI_PROTOCOL_N_QUESTIONS);
}

void
komi_protocol_write_request_for_question (GString                 *out,
                                          const KomiProtocolState *state,
                                          KomiProtocolQuestion     question)
{
  g_return_if_fail (question < KOMI_PROTOCOL_N_QUESTIONS);
  write_request (out, state, question);
}

void
komi_protocol_write_prompt (GString *out, const KomiProtocolState *state)
{
  const char *rules;
  gsize len;

  g_return_if_fail (state != NULL);
  g_return_if_fail (komi_protocol_is_known (state->protocol));

  rules = komi_protocol_get_rules_text (state->protocol, &len);
  g_string_append_len (out, rules, len);
  g_string_append_len (out, "\n\n", 2);
  komi_protocol_write_request (out, state);
}

static JsonObject *
question_object (const KomiProtocolState *state, KomiProtocolQuestion question)
{
  JsonObject *object = json_object_new ();
  JsonArray *options = json_array_new ();
  g_autofree char *text = komi_protocol_dup_question_text (question, state->to_move);
  g_auto(GStrv) names = komi_protocol_state_dup_options (state, question);

  json_object_set_string_member (object, "id", komi_protocol_question_id (question));
  json_object_set_string_member (object, "question", text);
  for (guint i = 0; names[i] != NULL; i++)
    json_array_add_string_element (options, names[i]);
  json_object_set_array_member (object, "options", options);
  return object;
}

JsonNode *
komi_protocol_state_to_json (const KomiProtocolState *state)
{
  JsonObject *root, *fields;
  JsonArray *lines, *questions;
  JsonNode *node;
  ShownBoard board;
  char line[MAX_LINE_LEN + 1];

  g_return_val_if_fail (state != NULL, NULL);
  g_return_val_if_fail (state->size >= KOMI_MIN_SIZE && state->size <= KOMI_MAX_SIZE, NULL);
  g_return_val_if_fail (state->orientation < KOMI_N_ORIENTATIONS, NULL);
  g_return_val_if_fail (state->to_move == KOMI_BLACK || state->to_move == KOMI_WHITE, NULL);

  shown_board_init (&board, state);
  fields = json_object_new ();
  json_object_set_string_member (fields, "to_move", komi_color_to_protocol (state->to_move));
  lines = json_array_new ();
  for (int y = -1; y < (int) state->size; y++)
    {
      line[board_line (&board, y, line)] = '\0';
      json_array_add_string_element (lines, line);
    }
  json_object_set_array_member (fields, "board", lines);
  json_object_set_int_member (fields, "turns_left", state->turns_left);
  json_object_set_boolean_member (fields, "opponent_just_passed", state->opponent_just_passed);
  json_object_set_array_member (fields, "points_forbidden_by_superko",
                                name_array (&board, state->superko));

  questions = json_array_new ();
  if (komi_protocol_state_has_questions (state))
    for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
      json_array_add_object_element (questions, question_object (state, q));

  root = json_object_new ();
  json_object_set_object_member (root, "state", fields);
  json_object_set_array_member (root, "questions", questions);
  node = json_node_init_object (json_node_alloc (), root);
  json_object_unref (root);
  return node;
}

gboolean
komi_protocol_map_answer (const KomiProtocolState *state,
                          const char              *answer,
                          KomiPoint               *real_point,
                          GError                 **error)
{
  g_autofree char *trimmed = NULL;
  g_autofree char *quoted = NULL;
  KomiPoint shown;
  guint n_options = 0;

  g_return_val_if_fail (state != NULL, FALSE);
  g_return_val_if_fail (answer != NULL, FALSE);
  g_return_val_if_fail (real_point != NULL, FALSE);

  trimmed = _komi_protocol_trim_answer (answer);
  if (!komi_protocol_state_has_questions (state))
    {
      quoted = _komi_protocol_quote_answer (trimmed);
      g_set_error (error, KOMI_PROTOCOL_ERROR, KOMI_PROTOCOL_ERROR_NO_QUESTION,
                   "The answer %s is to a question that was not asked: no legal point "
                   "is left, so the only move is a pass", quoted);
      return FALSE;
    }

  /* komi_point_from_name() is lenient (case, "pass"); the answer must be
   * an option as written, so it is compared with the name it parses to. */
  if (komi_point_from_name (state->size, trimmed, &shown) && shown >= 0)
    {
      char name[KOMI_NAME_LEN];
      KomiPoint real = komi_orientation_unapply (state->orientation, state->size, shown);

      shown_name (state->size, shown, name);
      if (strcmp (name, trimmed) == 0 && state->legal[real])
        {
          *real_point = real;
          return TRUE;
        }
    }

  for (guint p = 0; p < state->size * state->size; p++)
    n_options += state->legal[p] ? 1 : 0;
  quoted = _komi_protocol_quote_answer (trimmed);
  g_set_error (error, KOMI_PROTOCOL_ERROR, KOMI_PROTOCOL_ERROR_INVALID_OPTION,
               "The answer %s to best_point is not one of its %u options, the legal "
               "points named as on the board shown", quoted, n_options);
  return FALSE;
}
