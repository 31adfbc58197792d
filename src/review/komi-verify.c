/* komi-verify.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "komi-coords.h"
#include "komi-ladder-pins.h"
#include "komi-model-player.h"
#include "komi-protocol-state.h"
#include "komi-score.h"
#include "komi-verify.h"
#include "komi-wire-common.h"

/* What verify finds is written in English, like the record it speaks of
 * and the JSON that scripts read (STYLE.md, "Words"); only the command's
 * summary is translated. */

typedef struct
{
  guint    turn;
  char    *question;
  guint    attempt;
  char    *request_body;
  gint     status;
  GBytes  *response_body;
  char    *answer;
  char    *outcome;
  gint     decided;
} Call;

static void
call_free (gpointer data)
{
  Call *c = data;

  g_free (c->question);
  g_free (c->request_body);
  g_clear_pointer (&c->response_body, g_bytes_unref);
  g_free (c->answer);
  g_free (c->outcome);
  g_free (c);
}

static gboolean
collect_call (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  GPtrArray *calls = user_data;
  Call *c = g_new0 (Call, 1);

  c->turn = call->turn;
  c->question = g_strdup (call->question);
  c->attempt = call->attempt;
  c->request_body = g_strdup (call->request_body);
  c->status = call->response_status;
  /* Copied: the store's bytes may live only as long as its row. */
  if (call->response_body != NULL)
    {
      gsize len = 0;
      gconstpointer data = g_bytes_get_data (call->response_body, &len);

      c->response_body = g_bytes_new (data, len);
    }
  c->answer = g_strdup (call->answer);
  c->outcome = g_strdup (call->outcome);
  c->decided = call->decided;
  g_ptr_array_add (calls, c);
  return TRUE;
}

static void
problem (KomiVerifiedGame *v, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
problem (KomiVerifiedGame *v, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (v->problems, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Whether some string in @node equals @text exactly. */
static gboolean
holds_string (JsonNode *node, const char *text, gsize len)
{
  if (node == NULL)
    return FALSE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);

      return strlen (s) == len && memcmp (s, text, len) == 0;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (a); i++)
        if (holds_string (json_array_get_element (a, i), text, len))
          return TRUE;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (o);

      for (GList *l = members; l != NULL; l = l->next)
        if (holds_string (json_object_get_member (o, l->data), text, len))
          return TRUE;
    }
  return FALSE;
}

static gboolean
question_of (const char *id, KomiProtocolQuestion *question)
{
  for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
    if (g_strcmp0 (id, komi_protocol_question_id ((KomiProtocolQuestion) q)) == 0)
      {
        *question = (KomiProtocolQuestion) q;
        return TRUE;
      }
  return FALSE;
}

/* The model side's wire format, from its recorded settings. */
static gboolean
api_of (const char *settings, KomiProviderApi *api)
{
  g_autoptr(JsonNode) root = settings != NULL ? json_from_string (settings, NULL) : NULL;
  const char *name;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  name = json_object_get_string_member_with_default (json_node_get_object (root), "api", "");
  for (guint a = 0; a <= KOMI_PROVIDER_API_GEMINI; a++)
    if (g_strcmp0 (name, komi_provider_api_to_string ((KomiProviderApi) a)) == 0)
      {
        *api = (KomiProviderApi) a;
        return TRUE;
      }
  return FALSE;
}

typedef struct
{
  KomiVerifiedGame *v;
  guint             size;
  KomiProviderApi   api;
} Side;

/* One attempt against the position it was made in: the request as Komi
 * builds it, the response read again to the recorded outcome and answer. */
static void
check_call (Side *side, const KomiProtocolState *state, const Call *c)
{
  KomiVerifiedGame *v = side->v;
  KomiProtocolQuestion question;
  g_autoptr(GString) request = g_string_new (NULL);
  g_autoptr(JsonNode) body = NULL;
  g_auto(GStrv) options = NULL;
  const char *rules;
  gsize rules_len = 0;
  gboolean tool = FALSE;

  if (!question_of (c->question, &question))
    {
      problem (v, "turn %u: attempt %u asks “%s”, not a question of Protocol 1", c->turn,
               c->attempt, c->question);
      return;
    }
  options = komi_protocol_state_dup_options (state, question);
  komi_protocol_write_request_for_question (request, state, question);
  rules = komi_protocol_get_rules_text (state->protocol, &rules_len);
  body = c->request_body != NULL ? json_from_string (c->request_body, NULL) : NULL;
  if (body == NULL)
    problem (v, "turn %u, %s, attempt %u: the request body is not JSON", c->turn, c->question,
             c->attempt);
  else
    {
      if (!holds_string (body, rules, rules_len))
        problem (v, "turn %u, %s, attempt %u: the request does not carry Protocol %u's rules "
                 "text byte for byte", c->turn, c->question, c->attempt, state->protocol);
      if (!holds_string (body, request->str, request->len))
        problem (v, "turn %u, %s, attempt %u: the request is not the Protocol %u request Komi "
                 "builds for this position, orientation and question", c->turn, c->question,
                 c->attempt, state->protocol);
      tool = JSON_NODE_HOLDS_OBJECT (body)
             && json_object_has_member (json_node_get_object (body), "tool_choice");
    }

  /* A response that came back is read again as Komi read it. */
  if (c->status >= 200 && c->status < 300 && c->response_body != NULL)
    {
      g_auto(KomiWireResponse) r;
      gsize len = 0;
      const char *data = g_bytes_get_data (c->response_body, &len);
      const char *outcome;

      komi_wire_response_init (&r);
      komi_wire_decode (side->api, tool, data != NULL ? data : "", len, &r);
      komi_wire_response_finish (&r, (const char *const *) options);
      outcome = komi_provider_outcome_to_string (r.outcome);
      if (g_strcmp0 (outcome, g_strcmp0 (c->outcome, "ok") == 0 ? "answer" : c->outcome) != 0)
        problem (v, "turn %u, %s, attempt %u: the response reads as %s, recorded as %s",
                 c->turn, c->question, c->attempt, outcome, c->outcome);
      else if (r.outcome == KOMI_PROVIDER_OUTCOME_ANSWER && g_strcmp0 (r.answer, c->answer) != 0)
        problem (v, "turn %u, %s, attempt %u: the response answers “%s”, recorded as “%s”",
                 c->turn, c->question, c->attempt, r.answer, c->answer ? c->answer : "");
    }
}

/* The accepted answer of @question at @turn among @calls (those of the
 * turn): the one that decided it, else the last answer. */
static const Call *
accepted (GPtrArray *calls, const char *question)
{
  const Call *found = NULL;

  for (guint i = 0; i < calls->len; i++)
    {
      const Call *c = g_ptr_array_index (calls, i);

      if (g_strcmp0 (c->question, question) != 0 || c->answer == NULL
          || (g_strcmp0 (c->outcome, "answer") != 0 && g_strcmp0 (c->outcome, "ok") != 0))
        continue;
      if (c->decided == 1)
        return c;
      if (c->decided != 0)
        found = c;
    }
  return found;
}

/* Attempts 1, 2, … of each question, and no more model faults than a turn
 * allows before its answer. */
static void
check_numbering (KomiVerifiedGame *v, guint turn, GPtrArray *calls)
{
  for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
    {
      const char *id = komi_protocol_question_id ((KomiProtocolQuestion) q);
      guint expected = 1, faults = 0;

      for (guint i = 0; i < calls->len; i++)
        {
          const Call *c = g_ptr_array_index (calls, i);

          if (g_strcmp0 (c->question, id) != 0)
            continue;
          if (c->attempt != expected)
            problem (v, "turn %u, %s: attempt %u recorded where attempt %u was due (an attempt "
                     "is missing)", turn, id, c->attempt, expected);
          expected = c->attempt + 1;
          faults += g_strcmp0 (c->outcome, "refusal") == 0
                    || g_strcmp0 (c->outcome, "truncated") == 0
                    || g_strcmp0 (c->outcome, "filtered") == 0
                    || g_strcmp0 (c->outcome, "invalid-option") == 0;
        }
      if (faults > KOMI_MODEL_MAX_ATTEMPTS)
        problem (v, "turn %u, %s: %u model faults recorded, where a turn allows %d", turn, id,
                 faults, KOMI_MODEL_MAX_ATTEMPTS);
    }
}

/* The model's turn @turn (from 1) in @game, whose move is @move (NULL: the
 * game ended before it was played). */
static void
check_model_turn (Side *side, const KomiGame *game, KomiOrientation orientation, guint turn,
                  const KomiMove *move, GPtrArray *calls)
{
  KomiVerifiedGame *v = side->v;
  KomiProtocolState state;
  const Call *choice, *point;
  char name[KOMI_NAME_LEN + 1];
  gboolean place = FALSE;
  KomiPoint mapped = KOMI_PASS;

  komi_protocol_state_init_from_game (&state, game, orientation);
  for (guint i = 0; i < calls->len; i++)
    check_call (side, &state, g_ptr_array_index (calls, i));
  check_numbering (v, turn, calls);
  if (move == NULL)
    return;
  if (!komi_protocol_state_has_questions (&state))
    {
      if (calls->len > 0)
        problem (v, "turn %u: attempts recorded where no legal point was left to ask about",
                 turn);
      if (move->point != KOMI_PASS)
        problem (v, "turn %u: a stone at %s where no legal point was left", turn,
                 komi_point_to_name (side->size, move->point, name));
      return;
    }
  choice = accepted (calls, komi_protocol_question_id (KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS));
  if (choice == NULL || !komi_protocol_parse_play_or_pass (choice->answer, &place, NULL))
    {
      problem (v, "turn %u: the move %s has no accepted answer to play_or_pass", turn,
               komi_point_to_name (side->size, move->point, name));
      return;
    }
  if (place)
    {
      point = accepted (calls, komi_protocol_question_id (KOMI_PROTOCOL_QUESTION_BEST_POINT));
      if (point == NULL)
        {
          problem (v, "turn %u: the move %s has no accepted answer to best_point", turn,
                   komi_point_to_name (side->size, move->point, name));
          return;
        }
      if (!komi_protocol_map_answer (&state, point->answer, &mapped, NULL))
        {
          problem (v, "turn %u: the accepted answer “%s” is not an option of that position",
                   turn, point->answer);
          return;
        }
    }
  if (mapped != move->point)
    {
      char played[KOMI_NAME_LEN + 1];

      problem (v, "turn %u: the accepted answers map through orientation %s to %s, but %s "
               "was played", turn, komi_orientation_to_string (orientation),
               komi_point_to_name (side->size, mapped, name),
               komi_point_to_name (side->size, move->point, played));
    }
}

static void
check_pins (KomiVerifiedGame *v, const KomiLadder *ladder, const char *color, const char *spec,
            const char *name, const char *settings)
{
  const KomiLadderMember *member = ladder != NULL ? komi_ladder_lookup (ladder, spec) : NULL;
  g_autofree char *reason = NULL;

  if (member == NULL || member->pins == NULL || name == NULL)
    return;
  if (!komi_ladder_pins_match (member->pins, name, settings, &reason))
    problem (v, "%s (%s) is not the engine the ladder pins: %s", color, spec,
             reason != NULL ? reason : "");
}

/* The game's area count and result as recorded. */
static void
check_result (KomiVerifiedGame *v, const KomiStoreGame *g, const KomiGame *game)
{
  g_autofree char *result = NULL;
  KomiScore score;

  if (g->status != KOMI_GAME_STATUS_FINISHED)
    return;
  if (!komi_game_is_over (game))
    problem (v, "the game is recorded as finished, but its moves end neither by two passes "
             "nor at the turn limit");
  else if (g->end_reason != KOMI_END_NONE && komi_game_get_end_reason (game) != g->end_reason)
    problem (v, "the game is recorded as ended by %s, but its moves end by %s",
             g->end_reason == KOMI_END_TWO_PASSES ? "two passes" : "the turn limit",
             komi_game_get_end_reason (game) == KOMI_END_TWO_PASSES ? "two passes"
                                                                     : "the turn limit");
  if (!g->counted)
    return;
  komi_score_area (komi_game_get_board (game), (const KomiPoint *) g->dead->data, g->dead->len,
                   g->komi, &score);
  result = komi_score_to_result (&score);
  if (score.black_total != g->score.black_total || score.white_total != g->score.white_total
      || (g->has_winner && score.winner != g->winner)
      || (!isnan (g->margin) && fabs (score.margin - g->margin) > 1e-9)
      || g_strcmp0 (result, g->result) != 0)
    problem (v, "the area count of the final position with the recorded dead stones is %s "
             "(Black %g, White %g), but the result recorded is %s (Black %g, White %g)",
             result, score.black_total, score.white_total, g->result ? g->result : "none",
             g->score.black_total, g->score.white_total);
}

static int
compare_points (gconstpointer a, gconstpointer b)
{
  return *(const KomiPoint *) a - *(const KomiPoint *) b;
}

static char *
points_text (guint size, GArray *points)
{
  GString *text = g_string_new (NULL);

  g_array_sort (points, compare_points);
  for (guint i = 0; i < points->len; i++)
    {
      char name[KOMI_NAME_LEN + 1];

      g_string_append_printf (text, "%s%s", i > 0 ? " " : "",
                              komi_point_to_name (size, g_array_index (points, KomiPoint, i),
                                                  name));
    }
  if (text->len == 0)
    g_string_append (text, "none");
  return g_string_free (text, FALSE);
}

/* A finished game's dead stones judged again on its final position. */
static void
check_dead (KomiVerifiedGame *v, KomiReferee *rejudge, const KomiStoreGame *g,
            const KomiGame *game)
{
  g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  g_autoptr(GArray) recorded = g_array_copy (g->dead);
  g_autoptr(GError) local = NULL;
  g_autofree char *engine = NULL;
  g_autofree char *theirs = NULL, *ours = NULL;

  if (g->status != KOMI_GAME_STATUS_FINISHED || !komi_game_is_over (game))
    return;
  if (!komi_referee_dead_stones (rejudge, game, dead, &engine, NULL, &local))
    {
      problem (v, "the dead stones cannot be judged again: %s", local->message);
      return;
    }
  ours = points_text (g->size, dead);
  theirs = points_text (g->size, recorded);
  if (strcmp (ours, theirs) != 0)
    problem (v, "judged again by %s, the dead stones are %s; the record has %s (judged by %s)",
             engine != NULL ? engine : "the referee", ours, theirs,
             g->referee != NULL ? g->referee : "no referee");
}

static KomiVerifiedGame *
verify_loaded (KomiStore *store, const KomiLadder *ladder, KomiReferee *rejudge,
               const KomiStoreGame *g, GError **error)
{
  g_autoptr(KomiVerifiedGame) v = g_new0 (KomiVerifiedGame, 1);
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func (call_free);
  g_autoptr(GPtrArray) turn_calls = g_ptr_array_new ();
  g_autoptr(KomiGame) game = NULL;
  Side sides[2] = { { 0, }, { 0, } };
  gboolean model[2];
  guint next = 0;

  v->game_id = g->id;
  v->series_id = g->series_id;
  v->series_name = g_strdup (g->series_name);
  v->plan_index = g->plan_index;
  v->black = g_strdup (g->black_name != NULL ? g->black_name : g->black_spec);
  v->white = g_strdup (g->white_name != NULL ? g->white_name : g->white_spec);
  v->result = g_strdup (g->result);
  v->n_moves = g->moves->len;
  v->problems = g_ptr_array_new_with_free_func (g_free);

  model[0] = g_str_has_prefix (g->black_spec, "model:");
  model[1] = g_str_has_prefix (g->white_spec, "model:");
  for (guint s = 0; s < 2; s++)
    {
      sides[s].v = v;
      sides[s].size = g->size;
      if (model[s] && !api_of (s == 0 ? g->black_settings : g->white_settings, &sides[s].api))
        problem (v, "%s is a model whose recorded settings name no API", s == 0 ? "Black"
                                                                                : "White");
    }
  if ((model[0] || model[1] || g->n_calls > 0)
      && !komi_store_foreach_game_call (store, g->id, collect_call, calls, error))
    return NULL;
  v->n_calls = calls->len;

  if (g->setup != NULL)
    {
      g_autoptr(KomiBoard) board = komi_board_new (g->size);

      komi_board_set_colors (board, g->setup);
      game = komi_game_new_from_board (board, g->moves->len > 0
                                              ? g_array_index (g->moves, KomiMove, 0).color
                                              : KOMI_BLACK, g->max_turns);
    }
  else
    game = komi_game_new (g->size, g->max_turns);

  for (guint turn = 1; turn <= g->moves->len + 1; turn++)
    {
      const KomiMove *m = turn <= g->moves->len ? &g_array_index (g->moves, KomiMove, turn - 1)
                                                : NULL;
      KomiColor to_move = komi_game_get_to_move (game);
      guint s = to_move == KOMI_BLACK ? 0 : 1;
      g_autoptr(GError) local = NULL;
      char name[KOMI_NAME_LEN + 1];

      if (m == NULL && komi_game_is_over (game))
        break;
      g_ptr_array_set_size (turn_calls, 0);
      while (next < calls->len && ((Call *) g_ptr_array_index (calls, next))->turn < turn)
        {
          problem (v, "attempts recorded for turn %u out of order",
                   ((Call *) g_ptr_array_index (calls, next))->turn);
          next++;
        }
      while (next < calls->len && ((Call *) g_ptr_array_index (calls, next))->turn == turn)
        g_ptr_array_add (turn_calls, g_ptr_array_index (calls, next++));
      if (model[s] && g->series_id != 0)
        check_model_turn (&sides[s], game, g->orientation, turn, m, turn_calls);
      else if (turn_calls->len > 0)
        problem (v, "turn %u: model attempts recorded for %s, which is no model", turn,
                 komi_color_to_name (to_move));
      if (m == NULL)
        break;
      if (m->color != to_move)
        {
          problem (v, "move %u is out of turn", turn);
          return g_steal_pointer (&v);
        }
      if (!komi_game_play (game, m->point, &local))
        {
          problem (v, "move %u (%s %s) is illegal: %s", turn, komi_color_to_name (m->color),
                   komi_point_to_name (g->size, m->point, name), local->message);
          return g_steal_pointer (&v);
        }
    }
  if (next < calls->len)
    problem (v, "attempts recorded for turn %u, after the game's last move",
             ((Call *) g_ptr_array_index (calls, next))->turn);
  check_result (v, g, game);
  if (rejudge != NULL)
    check_dead (v, rejudge, g, game);
  check_pins (v, ladder, "Black", g->black_spec, g->black_name, g->black_settings);
  check_pins (v, ladder, "White", g->white_spec, g->white_name, g->white_settings);
  return g_steal_pointer (&v);
}

KomiVerifiedGame *
komi_verify_game (KomiStore        *store,
                  const KomiLadder *ladder,
                  KomiReferee      *rejudge,
                  gint64            game_id,
                  GError          **error)
{
  g_autoptr(KomiStoreGame) g = NULL;

  g_return_val_if_fail (store != NULL, NULL);
  if ((g = komi_store_load_game (store, game_id, error)) == NULL)
    return NULL;
  return verify_loaded (store, ladder, rejudge, g, error);
}

KomiVerifyReport *
komi_verify_library (KomiStore              *store,
                     const KomiLadder       *ladder,
                     KomiReferee            *rejudge,
                     KomiVerifyProgressFunc  progress,
                     gpointer                user_data,
                     GCancellable           *cancellable,
                     GError                **error)
{
  g_autoptr(KomiVerifyReport) report = g_new0 (KomiVerifyReport, 1);
  g_autoptr(GPtrArray) games = NULL;

  g_return_val_if_fail (store != NULL, NULL);

  report->games = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_verified_game_free);
  if ((games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, error)) == NULL)
    return NULL;
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *listed = g_ptr_array_index (games, i);
      KomiVerifiedGame *v;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (listed->status == KOMI_GAME_STATUS_PENDING || listed->status == KOMI_GAME_STATUS_RUNNING)
        {
          report->n_skipped++;
          continue;
        }
      if ((v = komi_verify_game (store, ladder, rejudge, listed->id, error)) == NULL)
        return NULL;
      report->n_failed += v->problems->len > 0;
      report->n_calls += v->n_calls;
      g_ptr_array_add (report->games, v);
      if (progress != NULL)
        progress (i + 1, games->len, user_data);
    }
  return g_steal_pointer (&report);
}

JsonNode *
komi_verify_report_to_json (const KomiVerifyReport *report)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "games");
  json_builder_add_int_value (b, report->games->len);
  json_builder_set_member_name (b, "verified");
  json_builder_add_int_value (b, report->games->len - report->n_failed);
  json_builder_set_member_name (b, "failed");
  json_builder_add_int_value (b, report->n_failed);
  json_builder_set_member_name (b, "skipped");
  json_builder_add_int_value (b, report->n_skipped);
  json_builder_set_member_name (b, "calls");
  json_builder_add_int_value (b, report->n_calls);
  json_builder_set_member_name (b, "failures");
  json_builder_begin_array (b);
  for (guint i = 0; i < report->games->len; i++)
    {
      const KomiVerifiedGame *v = g_ptr_array_index (report->games, i);

      if (v->problems->len == 0)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "game");
      json_builder_add_int_value (b, v->game_id);
      json_builder_set_member_name (b, "series");
      if (v->series_name != NULL)
        json_builder_add_string_value (b, v->series_name);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "plan_index");
      json_builder_add_int_value (b, v->plan_index);
      json_builder_set_member_name (b, "black");
      json_builder_add_string_value (b, v->black);
      json_builder_set_member_name (b, "white");
      json_builder_add_string_value (b, v->white);
      json_builder_set_member_name (b, "problems");
      json_builder_begin_array (b);
      for (guint k = 0; k < v->problems->len; k++)
        json_builder_add_string_value (b, g_ptr_array_index (v->problems, k));
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

void
komi_verified_game_free (KomiVerifiedGame *game)
{
  if (game == NULL)
    return;
  g_free (game->series_name);
  g_free (game->black);
  g_free (game->white);
  g_free (game->result);
  g_clear_pointer (&game->problems, g_ptr_array_unref);
  g_free (game);
}

void
komi_verify_report_free (KomiVerifyReport *report)
{
  if (report == NULL)
    return;
  g_clear_pointer (&report->games, g_ptr_array_unref);
  g_free (report);
}
