/* komi-store-game.c
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

/* One game's life in the library: pending → running (players started) →
 * one committed row per move → finished, void or forfeit. The moves table
 * is the resume point and the count: turns run 1, 2, … without a gap, so
 * a game's last turn is its number of moves. Nothing else is written per
 * move. */

typedef struct
{
  gint64                series_id;
  guint                 plan_index;
  gint64                game_id;
  const KomiGameRecord *record;
  guint                 turn;
  const KomiMove       *move;
  KomiGameStatus        status;
  GArray               *moves;
  const GArray         *plan;
  GPtrArray            *records;
} GameData;

static gboolean
find_game_locked (KomiStore *self, gint64 series_id, guint plan_index, gint64 *game_id,
                  GError **error)
{
  g_autoptr(KomiStoreStmt) stmt = NULL;
  int rc;

  stmt = _komi_store_prepare (self, "SELECT id FROM games WHERE series_id = ?1 "
                                    "AND plan_index = ?2", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, series_id);
  sqlite3_bind_int (stmt, 2, plan_index);
  if ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      *game_id = sqlite3_column_int64 (stmt, 0);
      return TRUE;
    }
  if (rc == SQLITE_DONE)
    g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                 _("Series %" PRId64 " has no game %u in the library %s"),
                 series_id, plan_index + 1, self->path);
  else
    _komi_store_set_error (self, rc, error, _("Cannot read the library"));
  return FALSE;
}

static gboolean
find_game_txn (KomiStore *self, gpointer user_data, GError **error)
{
  GameData *data = user_data;

  return find_game_locked (self, data->series_id, data->plan_index, &data->game_id, error);
}

gboolean
komi_store_find_game (KomiStore  *self,
                      gint64      series_id,
                      guint       plan_index,
                      gint64     *game_id,
                      GError    **error)
{
  GameData data = { .series_id = series_id, .plan_index = plan_index };

  g_return_val_if_fail (self != NULL && game_id != NULL, FALSE);
  if (!_komi_store_transaction (self, FALSE, find_game_txn, &data, error))
    return FALSE;
  *game_id = data.game_id;
  return TRUE;
}

static gboolean
game_state_txn (KomiStore *self, gpointer user_data, GError **error)
{
  GameData *data = user_data;
  g_auto(KomiStoreGameRow) row = { 0, };

  if (!_komi_store_get_game_row (self, data->game_id, &row, error))
    return FALSE;
  data->status = row.status;
  return data->moves == NULL
         || _komi_store_read_moves (self, data->game_id, row.size, data->moves, error);
}

gboolean
komi_store_get_game_state (KomiStore       *self,
                           gint64           game_id,
                           KomiGameStatus  *status,
                           GArray          *moves,
                           GError         **error)
{
  GameData data = { .game_id = game_id, .moves = moves };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (moves == NULL || g_array_get_element_size (moves) == sizeof (KomiMove),
                        FALSE);
  if (!_komi_store_transaction (self, FALSE, game_state_txn, &data, error))
    return FALSE;
  if (status != NULL)
    *status = data.status;
  return TRUE;
}

static gboolean
check_playable (gint64 game_id, const KomiStoreGameRow *row, GError **error)
{
  if (row->status == KOMI_GAME_STATUS_PENDING || row->status == KOMI_GAME_STATUS_RUNNING)
    return TRUE;
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
               /* Translators: %s is the game's status as stored: "finished", "void"… */
               _("Game %" PRId64 " is already %s in the library; a game is never "
                 "played twice"), game_id, komi_game_status_to_string (row->status));
  return FALSE;
}

/* Records the players (names, versions, settings, seeds) and marks the
 * game running; the first start's time is kept across resumes. */
static gboolean
start_locked (KomiStore              *self,
              gint64                  game_id,
              const KomiStoreGameRow *row,
              const KomiGameRecord   *r,
              GError                **error)
{
  KomiStoreStmt *stmt;
  gint64 black = 0, white = 0;
  char seed[KOMI_STORE_SEED_LEN], black_seed[KOMI_STORE_SEED_LEN];
  char white_seed[KOMI_STORE_SEED_LEN];

  if (!_komi_store_upsert_player (self, row->black_spec, NULL, r->black_name, &black, error)
      || !_komi_store_upsert_player (self, row->white_spec, NULL, r->white_name, &white, error))
    return FALSE;
  stmt = _komi_store_prepare (self,
    "UPDATE games SET status = 'running', black_player = ?2, white_player = ?3, "
    "  black_name = ?4, white_name = ?5, black_settings = ?6, white_settings = ?7, "
    "  seed = ?8, black_seed = ?9, white_seed = ?10, orientation = ?11, size = ?12, "
    "  komi = ?13, max_turns = ?14, date = ?15, "
    "  started = coalesce (started, " KOMI_STORE_NOW ") "
    "WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game_id);
  sqlite3_bind_int64 (stmt, 2, black);
  sqlite3_bind_int64 (stmt, 3, white);
  _komi_store_bind_text (stmt, 4, r->black_name);
  _komi_store_bind_text (stmt, 5, r->white_name);
  _komi_store_bind_text (stmt, 6, r->black_settings);
  _komi_store_bind_text (stmt, 7, r->white_settings);
  _komi_store_bind_text (stmt, 8, _komi_store_seed_text (r->seed, seed));
  _komi_store_bind_text (stmt, 9, _komi_store_seed_text (r->black_seed, black_seed));
  _komi_store_bind_text (stmt, 10, _komi_store_seed_text (r->white_seed, white_seed));
  _komi_store_bind_text (stmt, 11, komi_orientation_to_string (r->orientation));
  sqlite3_bind_int (stmt, 12, komi_game_get_size (r->game));
  sqlite3_bind_double (stmt, 13, r->score.komi);
  sqlite3_bind_int (stmt, 14, komi_game_get_max_turns (r->game));
  _komi_store_bind_text (stmt, 15, r->date);
  return _komi_store_step_done (self, stmt, error);
}

static gboolean
start_game_txn (KomiStore *self, gpointer user_data, GError **error)
{
  GameData *data = user_data;
  g_auto(KomiStoreGameRow) row = { 0, };

  g_autofree char *detail = NULL;

  if (!_komi_store_get_game_row (self, data->game_id, &row, error)
      || !check_playable (data->game_id, &row, error)
      || !start_locked (self, data->game_id, &row, data->record, error))
    return FALSE;
  if (row.n_moves == 0)
    return TRUE;
  detail = g_strdup_printf ("resumed after move %u", row.n_moves);
  return _komi_store_insert_event (self, data->game_id, "resume", detail, error);
}

gboolean
komi_store_start_game (KomiStore             *self,
                       gint64                 game_id,
                       const KomiGameRecord  *record,
                       GError               **error)
{
  GameData data = { .game_id = game_id, .record = record };

  g_return_val_if_fail (self != NULL && record != NULL && record->game != NULL, FALSE);
  /* Like a move, a start is in flight until the game's end is synced: a
   * power cut before that leaves the game to be played again on resume. */
  return _komi_store_game_transaction (self, game_id, FALSE, start_game_txn, &data, error);
}

static gboolean
same_move (const KomiMove *a, const KomiMove *b)
{
  return a->color == b->color && a->point == b->point;
}

/* What a move needs of its game: a read of the game's row and one seek
 * to its last move, so the move's INSERT is the commit's only change. */
static gboolean
get_move_state (KomiStore *self, gint64 game_id, KomiStoreGameRow *row, GError **error)
{
  g_autoptr(KomiStoreStmt) stmt = NULL;
  int rc;

  stmt = _komi_store_prepare (self, "SELECT status, size, (SELECT max (turn) FROM moves "
                                    "  WHERE game_id = ?1) FROM games WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game_id);
  if ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      komi_game_status_from_string ((const char *) sqlite3_column_text (stmt, 0),
                                    &row->status);
      row->size = sqlite3_column_int (stmt, 1);
      row->n_moves = sqlite3_column_int (stmt, 2);
      return TRUE;
    }
  if (rc == SQLITE_DONE)
    g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                 _("There is no game %" PRId64 " in the library %s"),
                 game_id, self->path);
  else
    _komi_store_set_error (self, rc, error, _("Cannot read the library"));
  return FALSE;
}

/* The next move is inserted; an earlier turn must be the move already
 * recorded (a resumed game replays into its engines); a gap is refused,
 * since the moves table must stay the exact prefix of the game. */
static gboolean
add_move_txn (KomiStore *self, gpointer user_data, GError **error)
{
  GameData *data = user_data;
  g_auto(KomiStoreGameRow) row = { 0, };
  g_autoptr(GArray) stored = NULL;

  if (!get_move_state (self, data->game_id, &row, error)
      || !check_playable (data->game_id, &row, error))
    return FALSE;
  /* The move and the answers that decided it, in one commit. */
  if (data->turn == row.n_moves + 1)
    return _komi_store_insert_move (self, data->game_id, row.size, data->turn, data->move,
                                    error)
           && _komi_store_settle_calls (self, data->game_id, data->turn, data->turn, error);
  if (data->turn > row.n_moves + 1)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
                   _("Move %u of game %" PRId64 " arrived before move %u; moves are "
                     "recorded in order"), data->turn, data->game_id, row.n_moves + 1);
      return FALSE;
    }
  /* A move replayed into a resumed game: it must be the one recorded. */
  stored = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  if (!_komi_store_read_moves (self, data->game_id, row.size, stored, error))
    return FALSE;
  if (same_move (&g_array_index (stored, KomiMove, data->turn - 1), data->move))
    return TRUE;
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
               _("Move %u of game %" PRId64 " is already recorded as another move; "
                 "the game did not replay as recorded"), data->turn, data->game_id);
  return FALSE;
}

gboolean
komi_store_add_move (KomiStore       *self,
                     gint64           game_id,
                     guint            turn,
                     const KomiMove  *move,
                     GError         **error)
{
  GameData data = { .game_id = game_id, .turn = turn, .move = move };

  g_return_val_if_fail (self != NULL && move != NULL && turn >= 1, FALSE);
  g_return_val_if_fail (move->color == KOMI_BLACK || move->color == KOMI_WHITE, FALSE);
  return _komi_store_game_transaction (self, game_id, FALSE, add_move_txn, &data, error);
}

/* The record's moves after those already stored; the stored ones must be
 * its first moves. */
static gboolean
complete_moves (KomiStore              *self,
                gint64                  game_id,
                const KomiStoreGameRow *row,
                const KomiGameRecord   *r,
                GError                **error)
{
  guint n_moves;
  const KomiMove *moves = komi_game_get_moves (r->game, &n_moves);

  if (row->n_moves > 0)
    {
      g_autoptr(GArray) stored = g_array_new (FALSE, FALSE, sizeof (KomiMove));

      if (!_komi_store_read_moves (self, game_id, row->size, stored, error))
        return FALSE;
      for (guint i = 0; i < stored->len; i++)
        if (i >= n_moves || !same_move (&g_array_index (stored, KomiMove, i), &moves[i]))
          {
            g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
                         _("The record of game %" PRId64 " differs from its recorded "
                           "moves at move %u; it was not stored"), game_id, i + 1);
            return FALSE;
          }
    }
  for (guint i = row->n_moves; i < n_moves; i++)
    if (!_komi_store_insert_move (self, game_id, row->size, i + 1, &moves[i], error))
      return FALSE;
  return TRUE;
}

/* Writes everything of the record: status, result, count, dead stones,
 * referee, void reason; the caller holds the transaction. */
static gboolean
finish_locked (KomiStore *self, gint64 game_id, const KomiGameRecord *r, GError **error)
{
  static const char * const statuses[] = { "finished", "void", "forfeit" };
  g_auto(KomiStoreGameRow) row = { 0, };
  g_autofree char *dead = NULL;
  KomiStoreStmt *stmt;
  const KomiScore *s = &r->score;
  guint size;

  if (!_komi_store_get_game_row (self, game_id, &row, error)
      || !check_playable (game_id, &row, error))
    return FALSE;
  size = komi_game_get_size (r->game);
  if (size != row.size && row.n_moves > 0)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
                   _("Game %" PRId64 " was recorded on a %ux%u board, not %ux%u"),
                   game_id, row.size, row.size, size, size);
      return FALSE;
    }
  /* The bulk path comes here without a start. */
  if (row.status == KOMI_GAME_STATUS_PENDING && !start_locked (self, game_id, &row, r, error))
    return FALSE;
  row.size = size;
  /* Every turn is over: an attempt of one without a move (a forfeit)
   * decided nothing. */
  if (!complete_moves (self, game_id, &row, r, error)
      || !_komi_store_settle_calls (self, game_id, 1, G_MAXUINT, error))
    return FALSE;

  stmt = _komi_store_prepare (self,
    "UPDATE games SET status = ?2, end_reason = ?3, result = ?4, winner = ?5, margin = ?6, "
    "  black_stones = ?7, white_stones = ?8, black_territory = ?9, white_territory = ?10, "
    "  dame = ?11, black_dead = ?12, white_dead = ?13, black_total = ?14, "
    "  white_total = ?15, dead = ?16, referee = ?17, void_reason = ?18, faulty = ?19, "
    "  seconds = ?20, finished = " KOMI_STORE_NOW " "
    "WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game_id);
  _komi_store_bind_text (stmt, 2, statuses[MIN (r->outcome, KOMI_OUTCOME_FORFEIT)]);
  _komi_store_bind_text (stmt, 3, _komi_store_end_code (r->end_reason));
  _komi_store_bind_text (stmt, 4, r->result);
  if (r->outcome == KOMI_OUTCOME_FINISHED)
    {
      /* Only a counted game has parts; a void game has no result at all. */
      _komi_store_bind_text (stmt, 5, s->winner == KOMI_EMPTY ? "draw"
                                      : _komi_store_color_code (s->winner));
      sqlite3_bind_double (stmt, 6, s->margin);
      sqlite3_bind_int (stmt, 7, s->black_stones);
      sqlite3_bind_int (stmt, 8, s->white_stones);
      sqlite3_bind_int (stmt, 9, s->black_territory);
      sqlite3_bind_int (stmt, 10, s->white_territory);
      sqlite3_bind_int (stmt, 11, s->dame);
      sqlite3_bind_int (stmt, 12, s->black_dead);
      sqlite3_bind_int (stmt, 13, s->white_dead);
      sqlite3_bind_double (stmt, 14, s->black_total);
      sqlite3_bind_double (stmt, 15, s->white_total);
      dead = _komi_store_points_to_text (size, r->dead != NULL ? (KomiPoint *) r->dead->data
                                                               : NULL,
                                         r->dead != NULL ? r->dead->len : 0);
      _komi_store_bind_text (stmt, 16, dead);
    }
  else if (r->outcome == KOMI_OUTCOME_FORFEIT)
    _komi_store_bind_text (stmt, 5, _komi_store_color_code (KOMI_OTHER (r->faulty)));
  _komi_store_bind_text (stmt, 17, r->referee);
  _komi_store_bind_text (stmt, 18, r->void_reason);
  _komi_store_bind_text (stmt, 19, _komi_store_color_code (r->faulty));
  sqlite3_bind_double (stmt, 20, r->seconds);
  if (!_komi_store_step_done (self, stmt, error))
    return FALSE;
  /* Engine faults and forfeits are events too, so a review can list them. */
  if (r->outcome != KOMI_OUTCOME_FINISHED)
    return _komi_store_insert_event (self, game_id,
                                     statuses[MIN (r->outcome, KOMI_OUTCOME_FORFEIT)],
                                     r->void_reason, error);
  return TRUE;
}

static gboolean
finish_game_txn (KomiStore *self, gpointer user_data, GError **error)
{
  GameData *data = user_data;

  return finish_locked (self, data->game_id, data->record, error);
}

gboolean
komi_store_finish_game (KomiStore             *self,
                        gint64                 game_id,
                        const KomiGameRecord  *record,
                        GError               **error)
{
  GameData data = { .game_id = game_id, .record = record };

  g_return_val_if_fail (self != NULL && record != NULL && record->game != NULL, FALSE);
  return _komi_store_game_transaction (self, game_id, TRUE, finish_game_txn, &data, error);
}

/* The bulk path: one transaction for all the records, so 10,000 games
 * cost one sync, not a million; a 64 MiB cache for it alone makes it three
 * times faster (the pages it writes are read again for the next games). */
static gboolean
add_records_txn (KomiStore *self, gpointer user_data, GError **error)
{
  GameData *data = user_data;
  gboolean ok = TRUE;

  sqlite3_exec (self->db, "PRAGMA cache_size = " KOMI_STORE_BULK_CACHE_KIB, NULL, NULL, NULL);
  for (guint i = 0; ok && i < data->records->len; i++)
    {
      const KomiPlannedGame *g = &g_array_index (data->plan, KomiPlannedGame, i);
      gint64 game_id = 0;

      ok = find_game_locked (self, data->series_id, g->index, &game_id, error)
           && finish_locked (self, game_id, g_ptr_array_index (data->records, i), error);
    }
  sqlite3_exec (self->db, "PRAGMA cache_size = " KOMI_STORE_CACHE_KIB, NULL, NULL, NULL);
  return ok;
}

gboolean
komi_store_add_records (KomiStore     *self,
                        gint64         series_id,
                        const GArray  *plan,
                        GPtrArray     *records,
                        GError       **error)
{
  GameData data = { .series_id = series_id, .plan = plan, .records = records };

  g_return_val_if_fail (self != NULL && plan != NULL && records != NULL, FALSE);
  g_return_val_if_fail (records->len <= plan->len, FALSE);
  return _komi_store_transaction (self, TRUE, add_records_txn, &data, error);
}
