/* komi-store-read.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-store-private.h"

/* Queries for the CLI, the GUI and exports. Each is one read transaction
 * (a consistent snapshot) and a fixed number of statements whatever the
 * number of games: a listing never asks once per game. */

#define SERIES_SELECT \
  "SELECT s.id, s.name, s.protocol, s.digest, s.definition, s.seed, s.subject, s.referee, " \
  "  s.created, s.updated, count (g.id), " \
  "  coalesce (sum (g.status IN ('pending', 'running')), 0), " \
  "  coalesce (sum (g.status = 'finished'), 0), coalesce (sum (g.status = 'void'), 0), " \
  "  coalesce (sum (g.status = 'forfeit'), 0) " \
  "FROM series s LEFT JOIN games g ON g.series_id = s.id "

#define GAME_SELECT \
  "SELECT g.id, g.series_id, s.name, s.protocol, g.plan_index, g.opponent, g.pair, " \
  "  g.game_in_pair, g.subject_color, g.black_spec, g.white_spec, g.black_name, " \
  "  g.white_name, g.seed, g.black_seed, g.white_seed, g.orientation, g.size, g.komi, " \
  "  g.max_turns, g.status, g.end_reason, g.result, g.winner, g.margin, g.black_stones, " \
  "  g.white_stones, g.black_territory, g.white_territory, g.dame, g.black_dead, " \
  "  g.white_dead, g.black_total, g.white_total, g.referee, g.void_reason, g.faulty, " \
  "  g.date, g.started, g.finished, g.seconds, " \
  "  (SELECT max (m.turn) FROM moves m WHERE m.game_id = g.id), g.source, " \
  "  (SELECT count (*) FROM calls c WHERE c.game_id = g.id), " \
  "  (SELECT sum (c.cost_usd) FROM calls c WHERE c.game_id = g.id) "

/* Settings JSON, dead stones and setup are left to load_game: a listing
 * of 10,000 games carries only what a table of results shows. */
#define GAME_FROM " FROM games g LEFT JOIN series s ON s.id = g.series_id "
#define GAME_ORDER " ORDER BY g.series_id IS NULL, g.series_id, g.plan_index, g.id"

/* Column numbers of GAME_SELECT; load_game adds the detail columns after. */
enum
{
  C_ID, C_SERIES_ID, C_SERIES_NAME, C_PROTOCOL, C_PLAN_INDEX, C_OPPONENT, C_PAIR,
  C_GAME_IN_PAIR, C_SUBJECT, C_BLACK_SPEC, C_WHITE_SPEC, C_BLACK_NAME, C_WHITE_NAME,
  C_SEED, C_BLACK_SEED, C_WHITE_SEED, C_ORIENTATION, C_SIZE, C_KOMI, C_MAX_TURNS, C_STATUS,
  C_END_REASON, C_RESULT, C_WINNER, C_MARGIN, C_BLACK_STONES, C_WHITE_STONES,
  C_BLACK_TERRITORY, C_WHITE_TERRITORY, C_DAME, C_BLACK_DEAD, C_WHITE_DEAD, C_BLACK_TOTAL,
  C_WHITE_TOTAL, C_REFEREE, C_VOID_REASON, C_FAULTY, C_DATE, C_STARTED, C_FINISHED,
  C_SECONDS, C_N_MOVES, C_SOURCE, C_N_CALLS, C_COST,
  C_BLACK_SETTINGS, C_WHITE_SETTINGS, C_EVENT, C_RULESET, C_DEAD, C_SETUP,
};

static char *
dup_column (sqlite3_stmt *stmt, int column)
{
  return g_strdup ((const char *) sqlite3_column_text (stmt, column));
}

static const char *
text_column (sqlite3_stmt *stmt, int column)
{
  return (const char *) sqlite3_column_text (stmt, column);
}

static KomiStoreSeries *
series_from_row (sqlite3_stmt *stmt)
{
  KomiStoreSeries *s = g_new0 (KomiStoreSeries, 1);

  s->id = sqlite3_column_int64 (stmt, 0);
  s->name = dup_column (stmt, 1);
  s->protocol = sqlite3_column_int (stmt, 2);
  s->digest = dup_column (stmt, 3);
  s->definition = dup_column (stmt, 4);
  s->seed = _komi_store_seed_parse (text_column (stmt, 5));
  s->subject = dup_column (stmt, 6);
  s->referee = dup_column (stmt, 7);
  s->created = dup_column (stmt, 8);
  s->updated = dup_column (stmt, 9);
  s->n_games = sqlite3_column_int (stmt, 10);
  s->n_unfinished = sqlite3_column_int (stmt, 11);
  s->n_finished = sqlite3_column_int (stmt, 12);
  s->n_void = sqlite3_column_int (stmt, 13);
  s->n_forfeit = sqlite3_column_int (stmt, 14);
  return s;
}

/* A game from a row of GAME_SELECT; NULL columns become NULL, NAN, -1 or
 * KOMI_EMPTY, so "not known" is never mistaken for a value. */
static KomiStoreGame *
game_from_row (sqlite3_stmt *stmt)
{
  KomiStoreGame *g = g_new0 (KomiStoreGame, 1);
  const char *winner = text_column (stmt, C_WINNER);

  g->id = sqlite3_column_int64 (stmt, C_ID);
  g->series_id = sqlite3_column_int64 (stmt, C_SERIES_ID);
  g->series_name = dup_column (stmt, C_SERIES_NAME);
  g->protocol = sqlite3_column_int (stmt, C_PROTOCOL);
  g->plan_index = sqlite3_column_type (stmt, C_PLAN_INDEX) == SQLITE_NULL
                  ? -1 : sqlite3_column_int (stmt, C_PLAN_INDEX);
  g->opponent = sqlite3_column_int (stmt, C_OPPONENT);
  g->pair = sqlite3_column_int (stmt, C_PAIR);
  g->game_in_pair = sqlite3_column_int (stmt, C_GAME_IN_PAIR);
  g->subject = _komi_store_color_parse (text_column (stmt, C_SUBJECT));
  g->black_spec = dup_column (stmt, C_BLACK_SPEC);
  g->white_spec = dup_column (stmt, C_WHITE_SPEC);
  g->black_name = dup_column (stmt, C_BLACK_NAME);
  g->white_name = dup_column (stmt, C_WHITE_NAME);
  g->seed = _komi_store_seed_parse (text_column (stmt, C_SEED));
  g->black_seed = _komi_store_seed_parse (text_column (stmt, C_BLACK_SEED));
  g->white_seed = _komi_store_seed_parse (text_column (stmt, C_WHITE_SEED));
  _komi_store_orientation_parse (text_column (stmt, C_ORIENTATION), &g->orientation);
  g->size = sqlite3_column_int (stmt, C_SIZE);
  g->komi = sqlite3_column_double (stmt, C_KOMI);
  g->max_turns = sqlite3_column_int (stmt, C_MAX_TURNS);
  komi_game_status_from_string (text_column (stmt, C_STATUS), &g->status);
  g->end_reason = _komi_store_end_parse (text_column (stmt, C_END_REASON));
  g->result = dup_column (stmt, C_RESULT);
  g->has_winner = winner != NULL;
  g->winner = _komi_store_color_parse (winner);
  g->margin = sqlite3_column_type (stmt, C_MARGIN) == SQLITE_NULL
              ? NAN : sqlite3_column_double (stmt, C_MARGIN);
  g->counted = sqlite3_column_type (stmt, C_BLACK_STONES) != SQLITE_NULL;
  g->score.size = g->size;
  g->score.komi = g->komi;
  if (g->counted)
    {
      g->score.black_stones = sqlite3_column_int (stmt, C_BLACK_STONES);
      g->score.white_stones = sqlite3_column_int (stmt, C_WHITE_STONES);
      g->score.black_territory = sqlite3_column_int (stmt, C_BLACK_TERRITORY);
      g->score.white_territory = sqlite3_column_int (stmt, C_WHITE_TERRITORY);
      g->score.dame = sqlite3_column_int (stmt, C_DAME);
      g->score.black_dead = sqlite3_column_int (stmt, C_BLACK_DEAD);
      g->score.white_dead = sqlite3_column_int (stmt, C_WHITE_DEAD);
      g->score.black_total = sqlite3_column_double (stmt, C_BLACK_TOTAL);
      g->score.white_total = sqlite3_column_double (stmt, C_WHITE_TOTAL);
      g->score.winner = g->winner;
      g->score.margin = g->margin;
    }
  g->referee = dup_column (stmt, C_REFEREE);
  g->void_reason = dup_column (stmt, C_VOID_REASON);
  g->faulty = _komi_store_color_parse (text_column (stmt, C_FAULTY));
  g->date = dup_column (stmt, C_DATE);
  g->started = dup_column (stmt, C_STARTED);
  g->finished = dup_column (stmt, C_FINISHED);
  g->seconds = sqlite3_column_double (stmt, C_SECONDS);
  g->n_moves = sqlite3_column_int (stmt, C_N_MOVES);
  g->source = dup_column (stmt, C_SOURCE);
  /* The sum of the attempts' costs: a game's cost is always its calls'. */
  g->n_calls = sqlite3_column_int (stmt, C_N_CALLS);
  g->cost_usd = sqlite3_column_type (stmt, C_COST) == SQLITE_NULL
                ? NAN : sqlite3_column_double (stmt, C_COST);
  return g;
}

typedef struct
{
  gint64     id;
  GPtrArray *rows;
  gpointer   result;
} ReadData;

/* Every row of @stmt, turned into an element of @rows by @from_row. */
static gboolean
collect (KomiStore *self, KomiStoreStmt *stmt, gpointer (*from_row) (sqlite3_stmt *),
         GPtrArray *rows, GError **error)
{
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (rows, from_row (stmt));
  if (rc == SQLITE_DONE)
    return TRUE;
  _komi_store_set_error (self, rc, error, _("Cannot read the library"));
  return FALSE;
}

static gboolean
list_series_txn (KomiStore *self, gpointer user_data, GError **error)
{
  ReadData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;

  if (data->id > 0)
    stmt = _komi_store_prepare (self, SERIES_SELECT "WHERE s.id = ?1 GROUP BY s.id", error);
  else
    stmt = _komi_store_prepare (self, SERIES_SELECT "GROUP BY s.id ORDER BY s.id", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, data->id);
  return collect (self, stmt, (gpointer) series_from_row, data->rows, error);
}

GPtrArray *
komi_store_list_series (KomiStore *self, GError **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                              komi_store_series_free);
  ReadData data = { 0, rows, NULL };

  g_return_val_if_fail (self != NULL, NULL);
  if (!_komi_store_transaction (self, FALSE, list_series_txn, &data, error))
    return NULL;
  return g_steal_pointer (&rows);
}

KomiStoreSeries *
komi_store_load_series (KomiStore *self, gint64 series_id, GError **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                              komi_store_series_free);
  ReadData data = { series_id, rows, NULL };

  g_return_val_if_fail (self != NULL, NULL);
  if (series_id <= 0 || !_komi_store_transaction (self, FALSE, list_series_txn, &data, error)
      || rows->len == 0)
    {
      if (error == NULL || *error == NULL)
        g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                     _("There is no series %" PRId64 " in the library %s"),
                     series_id, self->path);
      return NULL;
    }
  return g_ptr_array_steal_index (rows, 0);
}

static gboolean
list_games_txn (KomiStore *self, gpointer user_data, GError **error)
{
  ReadData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;

  if (data->id == KOMI_STORE_ALL_GAMES)
    stmt = _komi_store_prepare (self, GAME_SELECT GAME_FROM GAME_ORDER, error);
  else if (data->id == KOMI_STORE_IMPORTED_GAMES)
    stmt = _komi_store_prepare (self, GAME_SELECT GAME_FROM "WHERE g.series_id IS NULL"
                                      GAME_ORDER, error);
  else
    stmt = _komi_store_prepare (self, GAME_SELECT GAME_FROM "WHERE g.series_id = ?1"
                                      GAME_ORDER, error);
  if (stmt == NULL)
    return FALSE;
  if (data->id > 0)
    sqlite3_bind_int64 (stmt, 1, data->id);
  return collect (self, stmt, (gpointer) game_from_row, data->rows, error);
}

GPtrArray *
komi_store_list_games (KomiStore *self, gint64 series_id, GError **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                              komi_store_game_free);
  ReadData data = { series_id, rows, NULL };

  g_return_val_if_fail (self != NULL, NULL);
  if (!_komi_store_transaction (self, FALSE, list_games_txn, &data, error))
    return NULL;
  return g_steal_pointer (&rows);
}

typedef struct
{
  GHashTable *by_id;   /* game id → KomiStoreGame of the listing (borrowed) */
} FillData;

static gboolean
fill_settings_txn (KomiStore *self, gpointer user_data, GError **error)
{
  FillData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;
  int rc;

  stmt = _komi_store_prepare (self, "SELECT id, black_settings, white_settings FROM games",
                              error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);
      KomiStoreGame *game = g_hash_table_lookup (data->by_id, &id);

      if (game == NULL)
        continue;
      g_free (game->black_settings);
      g_free (game->white_settings);
      game->black_settings = dup_column (stmt, 1);
      game->white_settings = dup_column (stmt, 2);
    }
  if (rc != SQLITE_DONE)
    {
      _komi_store_set_error (self, rc, error, _("Cannot read the library"));
      return FALSE;
    }
  return TRUE;
}

gboolean
komi_store_fill_settings (KomiStore  *self,
                          GPtrArray  *games,
                          GError    **error)
{
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  FillData data = { by_id };

  g_return_val_if_fail (self != NULL && games != NULL, FALSE);
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *game = g_ptr_array_index (games, i);

      g_hash_table_insert (by_id, &game->id, game);
    }
  return _komi_store_transaction (self, FALSE, fill_settings_txn, &data, error);
}

static gboolean
load_game_txn (KomiStore *self, gpointer user_data, GError **error)
{
  ReadData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  const char *setup;
  int rc;

  stmt = _komi_store_prepare (self, GAME_SELECT ", g.black_settings, g.white_settings, "
                                    "g.event, g.ruleset, g.dead, g.setup"
                                    GAME_FROM "WHERE g.id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, data->id);
  if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
    {
      if (rc == SQLITE_DONE)
        g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                     _("There is no game %" PRId64 " in the library %s"),
                     data->id, self->path);
      else
        _komi_store_set_error (self, rc, error, _("Cannot read the library"));
      return FALSE;
    }
  game = game_from_row (stmt);
  game->black_settings = dup_column (stmt, C_BLACK_SETTINGS);
  game->white_settings = dup_column (stmt, C_WHITE_SETTINGS);
  game->event = dup_column (stmt, C_EVENT);
  game->ruleset = dup_column (stmt, C_RULESET);
  game->dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  game->moves = g_array_sized_new (FALSE, FALSE, sizeof (KomiMove), game->n_moves);
  if (!_komi_store_points_parse (game->size, text_column (stmt, C_DEAD), game->dead))
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_INVALID,
                   _("The dead stones of game %" PRId64 " are damaged (%s); restore "
                     "the library from a backup"), game->id, text_column (stmt, C_DEAD));
      return FALSE;
    }
  /* A setup of the wrong length would be a damaged row: it is ignored and
   * the replay in game_to_record reports what does not fit. */
  setup = text_column (stmt, C_SETUP);
  if (setup != NULL && strlen (setup) == game->size * game->size)
    {
      game->setup = g_malloc (game->size * game->size);
      for (guint i = 0; i < game->size * game->size; i++)
        game->setup[i] = setup[i] == 'X' ? KOMI_BLACK : setup[i] == 'O' ? KOMI_WHITE : KOMI_EMPTY;
    }
  if (!_komi_store_read_moves (self, game->id, game->size, game->moves, error))
    return FALSE;
  data->result = g_steal_pointer (&game);
  return TRUE;
}

KomiStoreGame *
komi_store_load_game (KomiStore *self, gint64 game_id, GError **error)
{
  ReadData data = { game_id, NULL, NULL };
  KomiStoreGame *game;
  g_autoptr(KomiGameRecord) record = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  if (!_komi_store_transaction (self, FALSE, load_game_txn, &data, error))
    return NULL;
  game = data.result;
  /* The owners of the points come from a recount, not from the file. */
  if (game->counted && (record = komi_store_game_to_record (game, NULL)) != NULL)
    memcpy (game->score.owner, record->score.owner, sizeof game->score.owner);
  return game;
}

/* One GROUP BY over the series' games: the summary costs one query
 * however many games the series has. */
static gboolean
summarize_txn (KomiStore *self, gpointer user_data, GError **error)
{
  ReadData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;
  GArray *rows = data->result;
  int rc;

  /* Margins from the subject's side; wins, losses and draws count games
   * ended by two passes only. */
  stmt = _komi_store_prepare (self,
    "SELECT opponent, subject_color, "
    "  CASE subject_color WHEN 'B' THEN white_spec ELSE black_spec END, count (*), "
    "  sum (counted AND winner = subject_color), "
    "  sum (counted AND winner NOT IN (subject_color, 'draw')), "
    "  sum (counted AND winner = 'draw'), "
    "  avg (CASE WHEN counted THEN CASE winner WHEN subject_color THEN margin "
    "       WHEN 'draw' THEN 0 ELSE -margin END END), "
    "  sum (status = 'finished' AND end_reason = 'turn-limit'), sum (status = 'void'), "
    "  sum (status = 'forfeit'), sum (status IN ('pending', 'running')) "
    "FROM (SELECT *, status = 'finished' AND end_reason = 'two-passes' AS counted "
    "      FROM games WHERE series_id = ?1) "
    "GROUP BY opponent, subject_color ORDER BY opponent, subject_color", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, data->id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      KomiStoreSummary s = { 0, };

      s.series_id = data->id;
      s.opponent = sqlite3_column_int (stmt, 0);
      s.subject = _komi_store_color_parse (text_column (stmt, 1));
      s.opponent_spec = dup_column (stmt, 2);
      s.games = sqlite3_column_int (stmt, 3);
      s.wins = sqlite3_column_int (stmt, 4);
      s.losses = sqlite3_column_int (stmt, 5);
      s.draws = sqlite3_column_int (stmt, 6);
      s.mean_margin = sqlite3_column_type (stmt, 7) == SQLITE_NULL
                      ? NAN : sqlite3_column_double (stmt, 7);
      s.turn_limit = sqlite3_column_int (stmt, 8);
      s.voids = sqlite3_column_int (stmt, 9);
      s.forfeits = sqlite3_column_int (stmt, 10);
      s.unfinished = sqlite3_column_int (stmt, 11);
      g_array_append_val (rows, s);
    }
  if (rc == SQLITE_DONE)
    return TRUE;
  _komi_store_set_error (self, rc, error, _("Cannot read the library"));
  return FALSE;
}

GArray *
komi_store_summarize (KomiStore *self, gint64 series_id, GError **error)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (KomiStoreSummary));
  ReadData data = { series_id, NULL, rows };

  g_return_val_if_fail (self != NULL, NULL);
  g_array_set_clear_func (rows, (GDestroyNotify) komi_store_summary_clear);
  if (!_komi_store_transaction (self, FALSE, summarize_txn, &data, error))
    return NULL;
  return g_steal_pointer (&rows);
}
