/* komi-game-result.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include <json-glib/json-glib.h>

#include "komi-game-result.h"
#include "komi-orientation.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-rating-error-quark, komi_rating_error)

double
komi_elo_expected (double diff)
{
  return 1.0 / (1.0 + pow (10.0, -diff / 400.0));
}

const char *
komi_game_result_opponent (const KomiGameResult *result)
{
  g_return_val_if_fail (result != NULL, NULL);

  if (result->subject == KOMI_BLACK)
    return result->white;
  if (result->subject == KOMI_WHITE)
    return result->black;
  return NULL;
}

const char *
komi_game_result_subject (const KomiGameResult *result)
{
  g_return_val_if_fail (result != NULL, NULL);

  if (result->subject == KOMI_BLACK)
    return result->black;
  if (result->subject == KOMI_WHITE)
    return result->white;
  return NULL;
}

gboolean
komi_game_result_check (const KomiGameResult *r, GError **error)
{
  const char *problem = NULL;

  g_return_val_if_fail (r != NULL, FALSE);

  if (r->protocol == 0)
    problem = _("the protocol number must be 1 or more");
  else if (r->black == NULL || r->black[0] == '\0' || r->white == NULL || r->white[0] == '\0')
    problem = _("both players need a label (columns black and white)");
  else if (strcmp (r->black, r->white) == 0)
    problem = _("black and white are the same player; games against oneself say nothing "
                "about a rating: remove them");
  else if (r->winner != KOMI_EMPTY && r->winner != KOMI_BLACK && r->winner != KOMI_WHITE)
    problem = _("the winner must be black, white or draw");
  else if (r->subject != KOMI_EMPTY && r->subject != KOMI_BLACK && r->subject != KOMI_WHITE)
    problem = _("the subject must be black, white or none");
  else if ((guint) r->outcome > KOMI_RESULT_FORFEIT)
    problem = _("the outcome must be finished, void or forfeit");
  else if (r->outcome == KOMI_RESULT_FORFEIT && r->winner == KOMI_EMPTY)
    problem = _("a forfeited game needs a winner (the side that did not forfeit)");
  else if ((guint) r->end_reason > KOMI_END_TURN_LIMIT)
    problem = _("the end reason must be two-passes or turn-limit");
  else if (r->orientation >= KOMI_N_ORIENTATIONS)
    problem = _("the orientation must be 0–7 or its name (identity, rotate-90, …)");

  if (problem != NULL)
    {
      g_set_error_literal (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT, problem);
      return FALSE;
    }
  return TRUE;
}

KomiResultList *
komi_result_list_new (void)
{
  KomiResultList *list = g_new0 (KomiResultList, 1);

  list->results = g_array_new (FALSE, FALSE, sizeof (KomiGameResult));
  list->labels = g_string_chunk_new (1024);
  return list;
}

void
komi_result_list_free (KomiResultList *list)
{
  if (list == NULL)
    return;
  g_array_unref (list->results);
  g_string_chunk_free (list->labels);
  g_free (list);
}

void
komi_result_list_add (KomiResultList *list, const KomiGameResult *result)
{
  KomiGameResult copy;

  g_return_if_fail (list != NULL && result != NULL);

  copy = *result;
  copy.black = result->black ? g_string_chunk_insert_const (list->labels, result->black) : NULL;
  copy.white = result->white ? g_string_chunk_insert_const (list->labels, result->white) : NULL;
  g_array_append_val (list->results, copy);
}

gboolean
komi_game_results_protocol (const KomiGameResult *results,
                            gsize                 n_results,
                            guint                *protocol,
                            GError              **error)
{
  g_return_val_if_fail (results != NULL || n_results == 0, FALSE);

  *protocol = n_results > 0 ? results[0].protocol : 0;
  for (gsize i = 1; i < n_results; i++)
    if (results[i].protocol != *protocol)
      {
        g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_MIXED_PROTOCOLS,
                     _("the results mix Protocol %u and Protocol %u games; a rating pool "
                       "holds one protocol only, so rate each protocol on its own"),
                     *protocol, results[i].protocol);
        return FALSE;
      }
  return TRUE;
}

void
komi_result_list_simulate (KomiResultList *list,
                           guint           protocol,
                           const char     *a,
                           double          rating_a,
                           const char     *b,
                           double          rating_b,
                           guint           n_games,
                           gboolean        a_is_subject,
                           GRand          *rand)
{
  double p = komi_elo_expected (rating_a - rating_b);
  KomiGameResult r = {
    .protocol = protocol,
    .end_reason = KOMI_END_TWO_PASSES,
    .outcome = KOMI_RESULT_FINISHED,
  };

  g_return_if_fail (list != NULL && a != NULL && b != NULL && rand != NULL);

  /* Intern once: adding 100,000 games must not hash their labels again. */
  a = g_string_chunk_insert_const (list->labels, a);
  b = g_string_chunk_insert_const (list->labels, b);
  for (guint i = 0; i < n_games; i++)
    {
      KomiColor color_a = i % 2 == 0 ? KOMI_BLACK : KOMI_WHITE;
      gboolean a_wins = g_rand_double (rand) < p;

      r.black = color_a == KOMI_BLACK ? a : b;
      r.white = color_a == KOMI_BLACK ? b : a;
      r.winner = a_wins ? color_a : KOMI_OTHER (color_a);
      r.subject = a_is_subject ? color_a : KOMI_EMPTY;
      r.orientation = (i / 2) % KOMI_N_ORIENTATIONS;
      g_array_append_val (list->results, r);
    }
}

/* ---- results files ---------------------------------------------------- */

typedef enum
{
  KEY_PROTOCOL, KEY_BLACK, KEY_WHITE, KEY_WINNER, KEY_OUTCOME, KEY_END_REASON,
  KEY_SUBJECT, KEY_ORIENTATION, KEY_OPPONENT, KEY_RESULT, N_KEYS
} Key;

static const char * const key_names[N_KEYS] = {
  "protocol", "black", "white", "winner", "outcome", "end_reason",
  "subject", "orientation", "opponent", "result",
};

/* One line of either format: the text of each known column, or NULL. */
typedef struct
{
  const char *values[N_KEYS];
} Row;

/* Lower case, '-' and ' ' as '_': "End reason", "end-reason" → "end_reason". */
static char *
normalize (const char *text)
{
  char *out = g_ascii_strdown (text, -1);

  g_strdelimit (g_strstrip (out), "- ", '_');
  return out;
}

static int
key_from_name (const char *name)
{
  g_autofree char *norm = normalize (name);

  for (int k = 0; k < N_KEYS; k++)
    if (strcmp (norm, key_names[k]) == 0)
      return k;
  return -1;
}

/* Colours as words or protocol letters; @empty_words name KOMI_EMPTY. */
static gboolean
parse_color (const char *text, const char * const *empty_words, KomiColor *out)
{
  g_autofree char *norm = normalize (text);

  if (strcmp (norm, "black") == 0 || strcmp (norm, "b") == 0 || strcmp (norm, "x") == 0)
    *out = KOMI_BLACK;
  else if (strcmp (norm, "white") == 0 || strcmp (norm, "w") == 0 || strcmp (norm, "o") == 0)
    *out = KOMI_WHITE;
  else if (norm[0] == '\0' || g_strv_contains (empty_words, norm))
    *out = KOMI_EMPTY;
  else
    return FALSE;
  return TRUE;
}

/* The SGF RE value: "B+3", "W+F", "0", "Draw", "Void". */
static gboolean
parse_sgf_result (const char *text, KomiColor *winner, KomiResultOutcome *outcome)
{
  g_autofree char *norm = normalize (text);

  *outcome = KOMI_RESULT_FINISHED;
  *winner = KOMI_EMPTY;
  if (strcmp (norm, "void") == 0)
    *outcome = KOMI_RESULT_VOID;
  else if (strcmp (norm, "0") == 0 || strcmp (norm, "draw") == 0 || strcmp (norm, "jigo") == 0)
    ;
  else if ((norm[0] == 'b' || norm[0] == 'w') && norm[1] == '+')
    {
      *winner = norm[0] == 'b' ? KOMI_BLACK : KOMI_WHITE;
      if (g_str_has_prefix (norm + 2, "f"))
        *outcome = KOMI_RESULT_FORFEIT;
    }
  else
    return FALSE;
  return TRUE;
}

static gboolean
row_error (GError **error, const char *name, guint line, Key key, const char *value,
           const char *expected)
{
  g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
               /* Translators: the file, the line, the column (black, winner…), its value
                * as read, then what it should be. */
               _("%s, line %u: %s is '%s'; expected %s"), name, line, key_names[key],
               value, expected);
  return FALSE;
}

/* Turns one row into a result appended to @list. */
static gboolean
add_row (KomiResultList *list, const Row *row, const char *name, guint line, GError **error)
{
  static const char * const draw_words[] = { "draw", "0", "jigo", "none", NULL };
  static const char * const none_words[] = { "none", "no", NULL };
  const char * const *v = row->values;
  KomiGameResult r = { .protocol = 1, .end_reason = KOMI_END_TWO_PASSES };
  g_autoptr(GError) local = NULL;

  r.black = v[KEY_BLACK];
  r.white = v[KEY_WHITE];
  if (v[KEY_RESULT] != NULL && !parse_sgf_result (v[KEY_RESULT], &r.winner, &r.outcome))
    return row_error (error, name, line, KEY_RESULT, v[KEY_RESULT],
                      _("an SGF result such as B+3, W+F, 0 or Void"));
  if (v[KEY_WINNER] == NULL && v[KEY_RESULT] == NULL)
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                   _("%s, line %u: no winner; give winner (black/white/draw) or result (B+3)"),
                   name, line);
      return FALSE;
    }
  /* An empty winner beside a result defers to the result. */
  if (v[KEY_WINNER] != NULL && (v[KEY_WINNER][0] != '\0' || v[KEY_RESULT] == NULL)
      && !parse_color (v[KEY_WINNER], draw_words, &r.winner))
    return row_error (error, name, line, KEY_WINNER, v[KEY_WINNER], "black, white or draw");
  if (v[KEY_OUTCOME] != NULL)
    {
      g_autofree char *o = normalize (v[KEY_OUTCOME]);

      if (strcmp (o, "finished") == 0)
        r.outcome = KOMI_RESULT_FINISHED;
      else if (strcmp (o, "void") == 0)
        r.outcome = KOMI_RESULT_VOID;
      else if (strcmp (o, "forfeit") == 0)
        r.outcome = KOMI_RESULT_FORFEIT;
      else
        return row_error (error, name, line, KEY_OUTCOME, v[KEY_OUTCOME],
                          "finished, void or forfeit");
    }
  if (v[KEY_END_REASON] != NULL)
    {
      g_autofree char *e = normalize (v[KEY_END_REASON]);

      if (strcmp (e, "two_passes") == 0 || strcmp (e, "passes") == 0)
        r.end_reason = KOMI_END_TWO_PASSES;
      else if (strcmp (e, "turn_limit") == 0)
        r.end_reason = KOMI_END_TURN_LIMIT;
      else if (e[0] == '\0' || strcmp (e, "forfeit") == 0 || strcmp (e, "void") == 0
               || strcmp (e, "none") == 0)
        r.end_reason = KOMI_END_NONE;
      else
        return row_error (error, name, line, KEY_END_REASON, v[KEY_END_REASON],
                          "two-passes or turn-limit");
    }
  if (v[KEY_SUBJECT] != NULL && !parse_color (v[KEY_SUBJECT], none_words, &r.subject))
    return row_error (error, name, line, KEY_SUBJECT, v[KEY_SUBJECT],
                      _("black, white or none (empty for a ladder game)"));
  if (v[KEY_PROTOCOL] != NULL)
    {
      guint64 p = 0;

      if (!g_ascii_string_to_unsigned (v[KEY_PROTOCOL], 10, 1, G_MAXUINT, &p, NULL))
        return row_error (error, name, line, KEY_PROTOCOL, v[KEY_PROTOCOL],
                          _("a number such as 1"));
      r.protocol = (guint) p;
    }
  if (v[KEY_ORIENTATION] != NULL && v[KEY_ORIENTATION][0] != '\0')
    {
      guint64 o = KOMI_N_ORIENTATIONS;

      if (!g_ascii_string_to_unsigned (v[KEY_ORIENTATION], 10, 0, KOMI_N_ORIENTATIONS - 1,
                                       &o, NULL))
        for (guint k = 0; k < KOMI_N_ORIENTATIONS; k++)
          if (g_ascii_strcasecmp (v[KEY_ORIENTATION], komi_orientation_to_string (k)) == 0)
            o = k;
      if (o >= KOMI_N_ORIENTATIONS)
        return row_error (error, name, line, KEY_ORIENTATION, v[KEY_ORIENTATION],
                          _("0–7 or a name such as identity or rotate-90"));
      r.orientation = (guint) o;
    }
  if (!komi_game_result_check (&r, &local))
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT, "%s, line %u: %s",
                   name, line, local->message);
      return FALSE;
    }
  if (v[KEY_OPPONENT] != NULL && v[KEY_OPPONENT][0] != '\0' && r.subject != KOMI_EMPTY
      && strcmp (v[KEY_OPPONENT], komi_game_result_opponent (&r)) != 0)
    return row_error (error, name, line, KEY_OPPONENT, v[KEY_OPPONENT],
                      _("the label of the side that is not the subject"));
  komi_result_list_add (list, &r);
  return TRUE;
}

/* Splits one CSV line (RFC 4180 quoting, no line breaks inside fields). */
static GPtrArray *
split_csv (const char *line, gboolean *ok)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  const char *p = line;

  *ok = TRUE;
  for (;;)
    {
      g_string_truncate (field, 0);
      if (*p == '"')
        {
          for (p++; *p != '\0' && !(*p == '"' && p[1] != '"'); p++)
            {
              if (*p == '"')
                p++;
              g_string_append_c (field, *p);
            }
          if (*p != '"')
            *ok = FALSE;
          else
            p++;
        }
      while (*p != '\0' && *p != ',')
        g_string_append_c (field, *p++);
      g_ptr_array_add (fields, g_strdup (g_strstrip (field->str)));
      if (*p != ',')
        break;
      p++;
    }
  g_string_free (field, TRUE);
  return fields;
}

static gboolean
parse_csv (KomiResultList *list, char **lines, const char *name, GError **error)
{
  g_autoptr(GPtrArray) header = NULL;
  int column_of[N_KEYS];
  guint header_line = 0;
  gboolean ok;

  while (lines[header_line] != NULL && g_strstrip (lines[header_line])[0] == '\0')
    header_line++;
  header = split_csv (lines[header_line], &ok);
  for (int k = 0; k < N_KEYS; k++)
    column_of[k] = -1;
  for (guint c = 0; c < header->len; c++)
    {
      int k = key_from_name (header->pdata[c]);

      if (k >= 0 && column_of[k] < 0)
        column_of[k] = (int) c;
    }
  if (column_of[KEY_BLACK] < 0 || column_of[KEY_WHITE] < 0
      || (column_of[KEY_WINNER] < 0 && column_of[KEY_RESULT] < 0))
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                   _("%s, line %u: the header must name the columns black, white and winner "
                     "(or result); it reads '%s'"), name, header_line + 1, lines[header_line]);
      return FALSE;
    }

  for (guint i = header_line + 1; lines[i] != NULL; i++)
    {
      g_autoptr(GPtrArray) fields = NULL;
      Row row = { { NULL, } };

      if (g_strstrip (lines[i])[0] == '\0')
        continue;
      fields = split_csv (lines[i], &ok);
      if (!ok)
        {
          g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                       _("%s, line %u: a quoted field is not closed"), name, i + 1);
          return FALSE;
        }
      for (int k = 0; k < N_KEYS; k++)
        if (column_of[k] >= 0 && (guint) column_of[k] < fields->len)
          row.values[k] = fields->pdata[column_of[k]];
      if (!add_row (list, &row, name, i + 1, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
parse_jsonl (KomiResultList *list, char **lines, const char *name, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GError) local = NULL;
      char numbers[N_KEYS][G_ASCII_DTOSTR_BUF_SIZE];
      JsonObject *object;
      Row row = { { NULL, } };

      if (g_strstrip (lines[i])[0] == '\0')
        continue;
      if (!json_parser_load_from_data (parser, lines[i], -1, &local)
          || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        {
          g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                       _("%s, line %u: not a JSON object (%s)"), name, i + 1,
                       local ? local->message : _("one object per line is expected"));
          return FALSE;
        }
      object = json_node_get_object (json_parser_get_root (parser));
      for (int k = 0; k < N_KEYS; k++)
        {
          JsonNode *node = json_object_get_member (object, key_names[k]);

          if (node == NULL || JSON_NODE_HOLDS_NULL (node))
            continue;
          if (json_node_get_value_type (node) == G_TYPE_STRING)
            row.values[k] = json_node_get_string (node);
          else if (json_node_get_value_type (node) == G_TYPE_INT64)
            {
              g_snprintf (numbers[k], sizeof numbers[k], "%" G_GINT64_FORMAT,
                          json_node_get_int (node));
              row.values[k] = numbers[k];
            }
          else
            return row_error (error, name, i + 1, k, _("not a string or a whole number"),
                              _("a string (or a number for protocol and orientation)"));
        }
      if (row.values[KEY_BLACK] == NULL || row.values[KEY_WHITE] == NULL)
        return row_error (error, name, i + 1, KEY_BLACK, "", _("keys black and white"));
      if (!add_row (list, &row, name, i + 1, error))
        return FALSE;
    }
  return TRUE;
}

KomiResultList *
komi_result_list_parse (const char  *text,
                        gsize        length,
                        const char  *name,
                        GError     **error)
{
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autofree char *copy = g_strndup (text, length);
  g_auto(GStrv) lines = NULL;
  const char *first = copy;
  gboolean ok;

  g_return_val_if_fail (text != NULL, NULL);

  if (name == NULL)
    name = "results";
  g_strdelimit (copy, "\r", ' ');
  while (g_ascii_isspace (*first))
    first++;
  if (*first == '\0')
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                   _("%s is empty; it needs one game per line (CSV with a header, or JSON Lines)"),
                   name);
      return NULL;
    }
  lines = g_strsplit (copy, "\n", -1);
  ok = *first == '{' ? parse_jsonl (list, lines, name, error)
                     : parse_csv (list, lines, name, error);
  return ok ? g_steal_pointer (&list) : NULL;
}

KomiResultList *
komi_result_list_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  return komi_result_list_parse (text, length, path, error);
}
