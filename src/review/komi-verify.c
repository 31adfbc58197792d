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

#include <glib/gi18n-lib.h>

#include "komi-coords.h"
#include "komi-ladder-pins.h"
#include "komi-ladder-ship.h"
#include "komi-score.h"
#include "komi-verify-private.h"

/* A game's record walked move by move (its model turns judged on the way
 * by komi-verify-calls.c), then its end, count, pins and, when asked, its
 * dead stones judged again and its engines replayed
 * (komi-verify-replay.c); and a library opened as untrusted input and
 * verified whole. */

#define problem(v, check, ...) _komi_verify_problem (v, KOMI_VERIFY_##check, __VA_ARGS__)

void
_komi_verify_problem (KomiVerifiedGame *v, KomiVerifyCheck check, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (v->problems, g_strdup_vprintf (format, args));
  va_end (args);
  g_array_append_val (v->checks, check);
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
    problem (v, PIN, "%s (%s) is not the engine the ladder pins: %s", color, spec,
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
    problem (v, RESULT, "the game is recorded as finished, but its moves end neither by two "
             "passes nor at the turn limit");
  else if (g->end_reason != KOMI_END_NONE && komi_game_get_end_reason (game) != g->end_reason)
    problem (v, RESULT, "the game is recorded as ended by %s, but its moves end by %s",
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
    problem (v, RESULT, "the area count of the final position with the recorded dead stones is "
             "%s (Black %g, White %g), but the result recorded is %s (Black %g, White %g)",
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
      problem (v, DEAD, "the dead stones cannot be judged again: %s", local->message);
      return;
    }
  ours = points_text (g->size, dead);
  theirs = points_text (g->size, recorded);
  if (strcmp (ours, theirs) != 0)
    problem (v, DEAD, "judged again by %s, the dead stones are %s; the record has %s (judged "
             "by %s)",
             engine != NULL ? engine : "the referee", ours, theirs,
             g->referee != NULL ? g->referee : "no referee");
}

static KomiVerifiedGame *
verify_loaded (KomiStore *store, const KomiVerifyOptions *options, const KomiStoreGame *g,
               KomiVerifyReport *report, GCancellable *cancellable, GError **error)
{
  g_autoptr(KomiVerifiedGame) v = g_new0 (KomiVerifiedGame, 1);
  g_autoptr(GPtrArray) calls = NULL;
  g_autoptr(GPtrArray) turn_calls = g_ptr_array_new ();
  g_autoptr(KomiGame) game = NULL;
  KomiVerifySide sides[2] = { { 0, }, { 0, } };
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
  v->checks = g_array_new (FALSE, FALSE, sizeof (KomiVerifyCheck));

  model[0] = g_str_has_prefix (g->black_spec, "model:");
  model[1] = g_str_has_prefix (g->white_spec, "model:");
  for (guint s = 0; s < 2; s++)
    if (model[s])
      _komi_verify_side_init (&sides[s], v, g, s == 0 ? KOMI_BLACK : KOMI_WHITE);
  if (model[0] || model[1] || g->n_calls > 0)
    {
      if ((calls = _komi_verify_read_calls (store, g, error)) == NULL)
        return NULL;
    }
  else
    calls = g_ptr_array_new ();
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
      const KomiStoreCall *c;

      if (m == NULL && komi_game_is_over (game))
        break;
      g_ptr_array_set_size (turn_calls, 0);
      while (next < calls->len && (c = g_ptr_array_index (calls, next))->turn < turn)
        {
          problem (v, ATTEMPTS, "attempts recorded for turn %u out of order", c->turn);
          next++;
        }
      while (next < calls->len && (c = g_ptr_array_index (calls, next))->turn == turn)
        {
          g_ptr_array_add (turn_calls, (gpointer) c);
          next++;
        }
      if (model[s] && g->series_id != 0)
        _komi_verify_model_turn (&sides[s], game, g->orientation, turn, m, turn_calls);
      else if (turn_calls->len > 0)
        problem (v, ATTEMPTS, "turn %u: model attempts recorded for %s, which is no model", turn,
                 komi_color_to_name (to_move));
      if (m == NULL)
        break;
      if (m->color != to_move)
        {
          problem (v, MOVES, "move %u is out of turn", turn);
          return g_steal_pointer (&v);
        }
      if (!komi_game_play (game, m->point, &local))
        {
          problem (v, MOVES, "move %u (%s %s) is illegal: %s", turn, komi_color_to_name (m->color),
                   komi_point_to_name (g->size, m->point, name), local->message);
          return g_steal_pointer (&v);
        }
    }
  if (next < calls->len)
    problem (v, ATTEMPTS, "attempts recorded for turn %u, after the game's last move",
             ((KomiStoreCall *) g_ptr_array_index (calls, next))->turn);
  check_result (v, g, game);
  if (options->rejudge != NULL)
    check_dead (v, options->rejudge, g, game);
  check_pins (v, options->ladder, "Black", g->black_spec, g->black_name, g->black_settings);
  check_pins (v, options->ladder, "White", g->white_spec, g->white_name, g->white_settings);
  /* The moves replay under the rules: the engines may be asked for them. */
  if (options->replay_engines
      && !_komi_verify_replay (v, g, options->engines, &report->n_replayed,
                               &report->n_unreplayed, cancellable, error))
    return NULL;
  return g_steal_pointer (&v);
}

static KomiVerifiedGame *
verify_game (KomiStore *store, const KomiVerifyOptions *options, gint64 game_id,
             KomiVerifyReport *report, GCancellable *cancellable, GError **error)
{
  g_autoptr(KomiStoreGame) g = NULL;

  if ((g = komi_store_load_game (store, game_id, error)) == NULL)
    return NULL;
  return verify_loaded (store, options, g, report, cancellable, error);
}

KomiVerifiedGame *
komi_verify_game (KomiStore               *store,
                  const KomiVerifyOptions *options,
                  gint64                   game_id,
                  GCancellable            *cancellable,
                  GError                 **error)
{
  KomiVerifyReport counts = { 0, };
  const KomiVerifyOptions none = { 0, };

  g_return_val_if_fail (store != NULL, NULL);
  return verify_game (store, options != NULL ? options : &none, game_id, &counts, cancellable,
                      error);
}

KomiVerifyReport *
komi_verify_library (KomiStore               *store,
                     const KomiVerifyOptions *options,
                     KomiVerifyProgressFunc   progress,
                     gpointer                 user_data,
                     GCancellable            *cancellable,
                     GError                 **error)
{
  g_autoptr(KomiVerifyReport) report = g_new0 (KomiVerifyReport, 1);
  g_autoptr(GPtrArray) games = NULL;
  const KomiVerifyOptions none = { 0, };

  g_return_val_if_fail (store != NULL, NULL);

  if (options == NULL)
    options = &none;
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
        report->n_skipped++;
      else if ((v = verify_game (store, options, listed->id, report, cancellable, error)) == NULL)
        return NULL;
      else
        {
          report->n_failed += v->problems->len > 0;
          report->n_calls += v->n_calls;
          g_ptr_array_add (report->games, v);
        }
      if (progress != NULL)
        progress (i + 1, games->len, user_data);
    }
  return g_steal_pointer (&report);
}

KomiVerifyReport *
komi_verify_library_at (const char              *path,
                        const KomiVerifyOptions *options,
                        KomiVerifyProgressFunc   progress,
                        gpointer                 user_data,
                        GCancellable            *cancellable,
                        GError                 **error)
{
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiLadder) shipped = NULL;
  g_autoptr(GPtrArray) series = NULL;
  KomiVerifyOptions with_ladder = { 0, };
  guint protocol = 1, version;

  g_return_val_if_fail (path != NULL, NULL);

  if ((store = komi_store_open_foreign (path, error)) == NULL)
    return NULL;
  /* An older library is opened as it is, never upgraded in place (a
   * stranger's file is not written to); merge copies it into a library of
   * this schema, which verify reads. */
  version = komi_store_get_schema_version (store);
  if (version < KOMI_STORE_SCHEMA_VERSION)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                   _("%s was written by an older Komi (schema %u; this one verifies schema "
                     "%u). Merge it into a new library first (komi-cli merge --db NEW.db %s), "
                     "which copies it as it is, and verify that"), path, version,
                   KOMI_STORE_SCHEMA_VERSION, path);
      return NULL;
    }
  if (options != NULL)
    with_ladder = *options;
  if (with_ladder.ladder == NULL)
    {
      if ((series = komi_store_list_series (store, error)) == NULL)
        return NULL;
      if (series->len > 0)
        protocol = ((KomiStoreSeries *) g_ptr_array_index (series, 0))->protocol;
      if ((shipped = komi_ladder_shipped (protocol, error)) == NULL)
        return NULL;
      with_ladder.ladder = shipped;
    }
  return komi_verify_library (store, &with_ladder, progress, user_data, cancellable, error);
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
  json_builder_set_member_name (b, "replayed");
  json_builder_add_int_value (b, report->n_replayed);
  json_builder_set_member_name (b, "not_replayed");
  json_builder_add_int_value (b, report->n_unreplayed);
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
  g_clear_pointer (&game->checks, g_array_unref);
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
