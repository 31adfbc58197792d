/* komi-store-record.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-coords.h"
#include "komi-store-private.h"

/* What is rebuilt from the rows rather than stored twice: the game record
 * (by replaying the moves under our rules, so a damaged row cannot pass as
 * a game) and the call log, streamed. */

static KomiOutcome
outcome_of (KomiGameStatus status)
{
  switch (status)
    {
    case KOMI_GAME_STATUS_VOID:    return KOMI_OUTCOME_VOID;
    case KOMI_GAME_STATUS_FORFEIT: return KOMI_OUTCOME_FORFEIT;
    default:                       return KOMI_OUTCOME_FINISHED;
    }
}

static KomiGame *
replay (const KomiStoreGame *g, GError **error)
{
  g_autoptr(KomiGame) game = NULL;

  if (g->setup != NULL)
    {
      g_autoptr(KomiBoard) board = komi_board_new (g->size);
      KomiColor first = g->moves->len > 0 ? g_array_index (g->moves, KomiMove, 0).color
                                          : KOMI_BLACK;

      komi_board_set_colors (board, g->setup);
      game = komi_game_new_from_board (board, first, g->max_turns);
    }
  else
    game = komi_game_new (g->size, g->max_turns);

  for (guint i = 0; i < g->moves->len; i++)
    {
      const KomiMove *m = &g_array_index (g->moves, KomiMove, i);
      g_autoptr(GError) local = NULL;
      char name[KOMI_NAME_LEN + 1];

      if (m->color != komi_game_get_to_move (game))
        {
          g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_INVALID,
                       _("Game %" PRId64 " in the library does not replay: move %u "
                         "is out of turn"), g->id, i + 1);
          return NULL;
        }
      if (!komi_game_play (game, m->point, &local))
        {
          g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_INVALID,
                       _("Game %" PRId64 " in the library does not replay: move %u "
                         "(%s %s): %s"), g->id, i + 1, komi_color_to_name (m->color),
                       komi_point_to_name (g->size, m->point, name), local->message);
          return NULL;
        }
    }
  return g_steal_pointer (&game);
}

KomiGameRecord *
komi_store_game_to_record (const KomiStoreGame *g, GError **error)
{
  g_autoptr(KomiGameRecord) r = NULL;

  g_return_val_if_fail (g != NULL, NULL);
  g_return_val_if_fail (g->moves != NULL && g->dead != NULL, NULL);

  r = g_new0 (KomiGameRecord, 1);
  if ((r->game = replay (g, error)) == NULL)
    return NULL;
  r->outcome = outcome_of (g->status);
  r->end_reason = g->end_reason != KOMI_END_NONE ? g->end_reason
                                                 : komi_game_get_end_reason (r->game);
  r->faulty = g->faulty;
  r->void_reason = g_strdup (g->void_reason);
  r->dead = g_array_copy (g->dead);
  r->referee = g_strdup (g->referee);
  r->result = g_strdup (g->result);
  r->black_name = g_strdup (g->black_name != NULL ? g->black_name : g->black_spec);
  r->white_name = g_strdup (g->white_name != NULL ? g->white_name : g->white_spec);
  r->black_settings = g_strdup (g->black_settings);
  r->white_settings = g_strdup (g->white_settings);
  r->seed = g->seed;
  r->black_seed = g->black_seed;
  r->white_seed = g->white_seed;
  r->orientation = g->orientation;
  r->date = g_strdup (g->date);
  r->seconds = g->seconds;
  r->score = g->score;
  if (g->counted)
    {
      /* The count is recomputed, not trusted: the same position and dead
       * stones must give the same parts. */
      komi_score_area (komi_game_get_board (r->game), (const KomiPoint *) r->dead->data,
                       r->dead->len, g->komi, &r->score);
      if (r->score.black_total != g->score.black_total
          || r->score.white_total != g->score.white_total)
        {
          g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_INVALID,
                       _("Game %" PRId64 " in the library does not recount to its "
                         "stored totals; restore the library from a backup"), g->id);
          return NULL;
        }
    }
  return g_steal_pointer (&r);
}

/* The call log */

typedef struct
{
  gint64             series_id;
  gint64             game_id;     /* > 0: that game's calls only, series_id unused */
  KomiStoreCallFunc  func;
  gpointer           user_data;
} CallsData;

static const char *
text_or_null (sqlite3_stmt *stmt, int column)
{
  return (const char *) sqlite3_column_text (stmt, column);
}

static gint64
count_or_unknown (sqlite3_stmt *stmt, int column)
{
  return sqlite3_column_type (stmt, column) == SQLITE_NULL ? -1
                                                           : sqlite3_column_int64 (stmt, column);
}

static gboolean
foreach_call_txn (KomiStore *self, gpointer user_data, GError **error)
{
  CallsData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;
  int rc;

#define CALL_COLUMNS \
    "SELECT c.id, c.game_id, g.series_id, c.turn, c.question, c.attempt, c.started, " \
    "  c.request_url, c.request_headers, c.request_body, c.response_status, " \
    "  c.response_headers, c.response_body, c.latency_ms, c.tokens_input, c.tokens_output, " \
    "  c.tokens_reasoning, c.tokens_cached, c.model_version, c.finish_reason, c.answer, " \
    "  c.outcome, c.error, c.system_fingerprint, c.response_id, c.model_mismatch, " \
    "  c.logprobs_requested, c.option_probabilities, c.retry_delay, c.cost_usd, " \
    "  c.decided " \
    "FROM calls c JOIN games g ON g.id = c.game_id "
  /* One game's through the (game_id, …) unique index, not its series'. */
  if (data->game_id > 0)
    stmt = _komi_store_prepare (self, CALL_COLUMNS "WHERE c.game_id = ?1 "
                                "ORDER BY c.turn, c.id", error);
  else
    stmt = _komi_store_prepare (self, CALL_COLUMNS
                                "WHERE ?1 < 0 OR g.series_id = ?1 "
                                "  OR (?1 = 0 AND g.series_id IS NULL) "
                                "ORDER BY c.game_id, c.turn, c.id", error);
#undef CALL_COLUMNS
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, data->game_id > 0 ? data->game_id : data->series_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GBytes) body = NULL;
      KomiStoreCall c = { 0, };

      c.id = sqlite3_column_int64 (stmt, 0);
      c.game_id = sqlite3_column_int64 (stmt, 1);
      c.series_id = sqlite3_column_int64 (stmt, 2);
      c.turn = sqlite3_column_int (stmt, 3);
      c.question = text_or_null (stmt, 4);
      c.attempt = sqlite3_column_int (stmt, 5);
      c.started = text_or_null (stmt, 6);
      c.request_url = text_or_null (stmt, 7);
      c.request_headers = text_or_null (stmt, 8);
      c.request_body = text_or_null (stmt, 9);
      c.response_status = sqlite3_column_int (stmt, 10);
      c.response_headers = text_or_null (stmt, 11);
      if (sqlite3_column_type (stmt, 12) != SQLITE_NULL)
        {
          /* Valid until the next step: the callback must copy what it keeps. */
          const void *bytes = sqlite3_column_blob (stmt, 12);

          body = g_bytes_new_static (bytes, sqlite3_column_bytes (stmt, 12));
          c.response_body = body;
        }
      c.latency_ms = sqlite3_column_type (stmt, 13) == SQLITE_NULL
                     ? -1 : sqlite3_column_double (stmt, 13);
      c.tokens_input = count_or_unknown (stmt, 14);
      c.tokens_output = count_or_unknown (stmt, 15);
      c.tokens_reasoning = count_or_unknown (stmt, 16);
      c.tokens_cached = count_or_unknown (stmt, 17);
      c.model_version = text_or_null (stmt, 18);
      c.finish_reason = text_or_null (stmt, 19);
      c.answer = text_or_null (stmt, 20);
      c.outcome = text_or_null (stmt, 21);
      c.error = text_or_null (stmt, 22);
      c.system_fingerprint = text_or_null (stmt, 23);
      c.response_id = text_or_null (stmt, 24);
      c.model_mismatch = sqlite3_column_int (stmt, 25) != 0;
      c.logprobs_requested = sqlite3_column_int (stmt, 26) != 0;
      c.option_probabilities = text_or_null (stmt, 27);
      c.retry_delay = sqlite3_column_type (stmt, 28) == SQLITE_NULL
                      ? -1 : sqlite3_column_double (stmt, 28);
      c.cost_usd = sqlite3_column_type (stmt, 29) == SQLITE_NULL
                   ? -1 : sqlite3_column_double (stmt, 29);
      c.decided = sqlite3_column_type (stmt, 30) == SQLITE_NULL
                  ? -1 : sqlite3_column_int (stmt, 30) != 0;
      if (!data->func (&c, data->user_data, error))
        return FALSE;
    }
  if (rc == SQLITE_DONE)
    return TRUE;
  _komi_store_set_error (self, rc, error, _("Cannot read the library"));
  return FALSE;
}

gboolean
komi_store_foreach_call (KomiStore          *self,
                         gint64              series_id,
                         KomiStoreCallFunc   func,
                         gpointer            user_data,
                         GError            **error)
{
  CallsData data = { series_id, 0, func, user_data };

  g_return_val_if_fail (self != NULL && func != NULL, FALSE);
  return _komi_store_transaction (self, FALSE, foreach_call_txn, &data, error);
}

gboolean
komi_store_foreach_game_call (KomiStore          *self,
                              gint64              game_id,
                              KomiStoreCallFunc   func,
                              gpointer            user_data,
                              GError            **error)
{
  CallsData data = { -1, game_id, func, user_data };

  g_return_val_if_fail (self != NULL && func != NULL && game_id > 0, FALSE);
  return _komi_store_transaction (self, FALSE, foreach_call_txn, &data, error);
}
