/* komi-store-write.c
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

#include "komi-coords.h"
#include "komi-store-private.h"

/* Rows shared by every write, and the series' beginning. Everything here
 * runs inside _komi_store_transaction(): under the lock, in one BEGIN
 * IMMEDIATE … COMMIT, so each public call is all or nothing. */

const char *
_komi_store_seed_text (guint64 seed, char buf[KOMI_STORE_SEED_LEN])
{
  g_snprintf (buf, KOMI_STORE_SEED_LEN, "%" G_GUINT64_FORMAT, seed);
  return buf;
}

guint64
_komi_store_seed_parse (const char *text)
{
  return text != NULL ? g_ascii_strtoull (text, NULL, 10) : 0;
}

void
_komi_store_bind_text (KomiStoreStmt *stmt, int index, const char *text)
{
  if (text != NULL)
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, index);
}

void
_komi_store_game_row_clear (KomiStoreGameRow *row)
{
  g_clear_pointer (&row->black_spec, g_free);
  g_clear_pointer (&row->white_spec, g_free);
}

gboolean
_komi_store_get_game_row (KomiStore        *self,
                          gint64            game_id,
                          KomiStoreGameRow *row,
                          GError          **error)
{
  g_autoptr(KomiStoreStmt) stmt = NULL;
  int rc;

  /* The count is the last turn: moves are dense from 1, and max (turn)
   * under the key (game_id, turn) is one seek (NULL, read as 0: none). */
  stmt = _komi_store_prepare (self, "SELECT status, (SELECT max (turn) FROM moves "
                                    "  WHERE game_id = ?1), size, black_spec, white_spec "
                                    "FROM games WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game_id);
  if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
    {
      if (rc == SQLITE_DONE)
        g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                     _("There is no game %" PRId64 " in the library %s"),
                     game_id, self->path);
      else
        _komi_store_set_error (self, rc, error, _("Cannot read the library"));
      return FALSE;
    }
  komi_game_status_from_string ((const char *) sqlite3_column_text (stmt, 0), &row->status);
  row->n_moves = sqlite3_column_int (stmt, 1);
  row->size = sqlite3_column_int (stmt, 2);
  row->black_spec = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
  row->white_spec = g_strdup ((const char *) sqlite3_column_text (stmt, 4));
  return TRUE;
}

gboolean
_komi_store_read_moves (KomiStore *self,
                        gint64     game_id,
                        guint      size,
                        GArray    *moves,
                        GError   **error)
{
  g_autoptr(KomiStoreStmt) stmt = NULL;
  int rc;

  stmt = _komi_store_prepare (self, "SELECT color, point FROM moves WHERE game_id = ?1 "
                                    "ORDER BY turn", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      KomiMove m = { _komi_store_color_parse ((const char *) sqlite3_column_text (stmt, 0)),
                     KOMI_NO_POINT };

      if (!komi_point_from_name (size, (const char *) sqlite3_column_text (stmt, 1), &m.point)
          || m.color == KOMI_EMPTY)
        {
          g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_INVALID,
                       _("Move %u of game %" PRId64 " in the library is damaged (%s); "
                         "restore the library from a backup"), moves->len + 1, game_id,
                       (const char *) sqlite3_column_text (stmt, 1));
          return FALSE;
        }
      g_array_append_val (moves, m);
    }
  if (rc == SQLITE_DONE)
    return TRUE;
  _komi_store_set_error (self, rc, error, _("Cannot read the library"));
  return FALSE;
}

gboolean
_komi_store_insert_move (KomiStore      *self,
                         gint64          game_id,
                         guint           size,
                         guint           turn,
                         const KomiMove *move,
                         GError        **error)
{
  KomiStoreStmt *stmt;
  char name[KOMI_NAME_LEN + 1];

  stmt = _komi_store_prepare (self, "INSERT INTO moves (game_id, turn, color, point) "
                                    "VALUES (?1, ?2, ?3, ?4)", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game_id);
  sqlite3_bind_int (stmt, 2, turn);
  _komi_store_bind_text (stmt, 3, _komi_store_color_code (move->color));
  _komi_store_bind_text (stmt, 4, komi_point_to_name (size, move->point, name));
  return _komi_store_step_done (self, stmt, error);
}

gboolean
_komi_store_insert_event (KomiStore   *self,
                          gint64       game_id,
                          const char  *kind,
                          const char  *detail,
                          GError     **error)
{
  KomiStoreStmt *stmt = _komi_store_prepare (self, "INSERT INTO events (game_id, kind, detail) "
                                                   "VALUES (?1, ?2, ?3)", error);

  if (stmt == NULL)
    return FALSE;
  if (game_id > 0)
    sqlite3_bind_int64 (stmt, 1, game_id);
  _komi_store_bind_text (stmt, 2, kind);
  _komi_store_bind_text (stmt, 3, detail != NULL ? detail : "");
  return _komi_store_step_done (self, stmt, error);
}

/* "GNU Go 3.8" is name "GNU Go", version "3.8": players report both, but
 * the record carries them joined. */
static void
split_label (const char *label, char **name, char **version)
{
  const char *space = label != NULL ? strrchr (label, ' ') : NULL;

  if (space != NULL && g_ascii_isdigit (space[1]))
    {
      *name = g_strndup (label, space - label);
      *version = g_strdup (space + 1);
    }
  else
    {
      *name = g_strdup (label != NULL ? label : "");
      *version = g_strdup ("");
    }
}

gboolean
_komi_store_upsert_player (KomiStore   *self,
                           const char  *spec,
                           const char  *kind,
                           const char  *label,
                           gint64      *player_id,
                           GError     **error)
{
  g_autofree char *name = NULL;
  g_autofree char *version = NULL;
  g_autofree char *prefix = NULL;
  KomiStoreStmt *insert;
  g_autoptr(KomiStoreStmt) find = NULL;

  split_label (label != NULL ? label : spec, &name, &version);
  if (kind == NULL)
    {
      prefix = g_strndup (spec, strcspn (spec, ":"));
      kind = g_str_equal (prefix, "gnugo") || g_str_equal (prefix, "katago") ? "gtp" : prefix;
    }
  /* RETURNING gives nothing for DO NOTHING, hence the second query. */
  insert = _komi_store_prepare (self, "INSERT INTO players (spec, kind, name, version) "
                                      "VALUES (?1, ?2, ?3, ?4) "
                                      "ON CONFLICT (spec, name, version) DO NOTHING", error);
  find = _komi_store_prepare (self, "SELECT id FROM players WHERE spec = ?1 AND name = ?2 "
                                    "AND version = ?3", error);
  if (insert == NULL || find == NULL)
    return FALSE;
  _komi_store_bind_text (insert, 1, spec);
  _komi_store_bind_text (insert, 2, kind);
  _komi_store_bind_text (insert, 3, name);
  _komi_store_bind_text (insert, 4, version);
  if (!_komi_store_step_done (self, insert, error))
    return FALSE;
  _komi_store_bind_text (find, 1, spec);
  _komi_store_bind_text (find, 2, name);
  _komi_store_bind_text (find, 3, version);
  if (sqlite3_step (find) != SQLITE_ROW)
    {
      _komi_store_set_error (self, sqlite3_errcode (self->db), error, _("Cannot record a player"));
      return FALSE;
    }
  *player_id = sqlite3_column_int64 (find, 0);
  return TRUE;
}

/* Begin a series */

typedef struct
{
  const KomiSeries *series;
  const GArray     *plan;
  gint64            series_id;
} BeginData;

/* Inserts one planned game as pending, or checks that an earlier run
 * planned the same game at that index. */
static gboolean
plan_game (KomiStore *self, gint64 series_id, const KomiPlannedGame *g, GError **error)
{
  g_autoptr(KomiStoreStmt) check = NULL;
  KomiStoreStmt *insert;
  char seed[KOMI_STORE_SEED_LEN], black_seed[KOMI_STORE_SEED_LEN], white_seed[KOMI_STORE_SEED_LEN];
  const char *orientation = komi_orientation_to_string (g->orientation);

  insert = _komi_store_prepare (self,
    "INSERT INTO games (series_id, plan_index, opponent, pair, game_in_pair, subject_color, "
    "  black_spec, white_spec, seed, black_seed, white_seed, orientation, size, komi, "
    "  max_turns) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 9, 7, ?13) "
    "ON CONFLICT (series_id, plan_index) DO NOTHING", error);
  if (insert == NULL)
    return FALSE;
  sqlite3_bind_int64 (insert, 1, series_id);
  sqlite3_bind_int (insert, 2, g->index);
  sqlite3_bind_int (insert, 3, g->opponent);
  sqlite3_bind_int (insert, 4, g->pair);
  sqlite3_bind_int (insert, 5, g->game_in_pair);
  _komi_store_bind_text (insert, 6, g->game_in_pair == 0 ? "B" : "W");
  _komi_store_bind_text (insert, 7, g->black);
  _komi_store_bind_text (insert, 8, g->white);
  _komi_store_bind_text (insert, 9, _komi_store_seed_text (g->seed, seed));
  _komi_store_bind_text (insert, 10, _komi_store_seed_text (komi_match_player_seed (g->seed,
                                                                                   KOMI_BLACK),
                                                            black_seed));
  _komi_store_bind_text (insert, 11, _komi_store_seed_text (komi_match_player_seed (g->seed,
                                                                                   KOMI_WHITE),
                                                            white_seed));
  _komi_store_bind_text (insert, 12, orientation);
  /* Protocol 1's board; start_game records what was really played. */
  sqlite3_bind_int (insert, 13, KOMI_PROTOCOL_MAX_TURNS);
  if (!_komi_store_step_done (self, insert, error))
    return FALSE;
  if (sqlite3_changes (self->db) > 0)
    return TRUE;

  /* Already planned by an earlier run: it must be the same game. */
  check = _komi_store_prepare (self, "SELECT 1 FROM games WHERE series_id = ?1 "
                                     "AND plan_index = ?2 AND black_spec = ?3 "
                                     "AND white_spec = ?4 AND seed = ?5", error);
  if (check == NULL)
    return FALSE;
  sqlite3_bind_int64 (check, 1, series_id);
  sqlite3_bind_int (check, 2, g->index);
  _komi_store_bind_text (check, 3, g->black);
  _komi_store_bind_text (check, 4, g->white);
  _komi_store_bind_text (check, 5, seed);
  if (sqlite3_step (check) == SQLITE_ROW)
    return TRUE;
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
               _("Series %" PRId64 " in the library planned game %u differently "
                 "(another Komi version?); it cannot be resumed by this one. Rename the "
                 "series to start it afresh"), series_id, g->index + 1);
  return FALSE;
}

/* The series and its whole plan in one transaction: a crash between the
 * two would leave a series without its games, which resume cannot mend. */
static gboolean
begin_series_txn (KomiStore *self, gpointer user_data, GError **error)
{
  BeginData *data = user_data;
  const KomiSeries *s = data->series;
  g_autoptr(KomiStoreStmt) find = NULL;
  KomiStoreStmt *stmt;
  char seed[KOMI_STORE_SEED_LEN];

  find = _komi_store_prepare (self, "SELECT id FROM series WHERE digest = ?1", error);
  if (find == NULL)
    return FALSE;
  _komi_store_bind_text (find, 1, s->digest);
  if (sqlite3_step (find) == SQLITE_ROW)
    {
      data->series_id = sqlite3_column_int64 (find, 0);
      /* The same series (digest) may have grown since: an adaptive series
       * appends pairs to its pair_order, which a resume must then see. */
      stmt = _komi_store_prepare (self, "UPDATE series SET updated = " KOMI_STORE_NOW
                                        ", definition = ?2 WHERE id = ?1", error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, data->series_id);
      _komi_store_bind_text (stmt, 2, s->canonical);
      /* A resume: calls of the last run that never got their response. */
      if (!_komi_store_interrupt_calls (self, data->series_id, error))
        return FALSE;
    }
  else
    {
      stmt = _komi_store_prepare (self,
        "INSERT INTO series (name, protocol, digest, definition, seed, subject, referee, "
        "  created, updated) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, " KOMI_STORE_NOW ", " KOMI_STORE_NOW ")", error);
      if (stmt == NULL)
        return FALSE;
      _komi_store_bind_text (stmt, 1, s->name);
      sqlite3_bind_int (stmt, 2, s->protocol);
      _komi_store_bind_text (stmt, 3, s->digest);
      _komi_store_bind_text (stmt, 4, s->canonical);
      _komi_store_bind_text (stmt, 5, _komi_store_seed_text (s->seed, seed));
      _komi_store_bind_text (stmt, 6, s->subject);
      _komi_store_bind_text (stmt, 7, s->referee != NULL ? s->referee : "none");
    }
  if (!_komi_store_step_done (self, stmt, error))
    return FALSE;
  if (data->series_id == 0)
    data->series_id = sqlite3_last_insert_rowid (self->db);

  for (guint i = 0; i < data->plan->len; i++)
    if (!plan_game (self, data->series_id, &g_array_index (data->plan, KomiPlannedGame, i),
                    error))
      return FALSE;
  return TRUE;
}

gboolean
komi_store_begin_series (KomiStore         *self,
                         const KomiSeries  *series,
                         const GArray      *plan,
                         gint64            *series_id,
                         GError           **error)
{
  BeginData data = { series, plan, 0 };

  g_return_val_if_fail (self != NULL && series != NULL && plan != NULL, FALSE);
  g_return_val_if_fail (series->digest != NULL && series->canonical != NULL, FALSE);

  /* Responses still kept commit first: marking the rows left in flight
   * interrupted must not take one whose response is known. */
  if (!_komi_store_game_transaction (self, KOMI_STORE_ALL_GAMES, TRUE, begin_series_txn, &data,
                                     error))
    return FALSE;
  *series_id = data.series_id;
  return TRUE;
}


/* Events */

typedef struct
{
  gint64               game_id;
  const char          *kind;
  const char          *detail;
} NoteData;

static gboolean
add_event_txn (KomiStore *self, gpointer user_data, GError **error)
{
  NoteData *data = user_data;

  return _komi_store_insert_event (self, data->game_id, data->kind, data->detail, error);
}

gboolean
komi_store_add_event (KomiStore   *self,
                      gint64       game_id,
                      const char  *kind,
                      const char  *detail,
                      GError     **error)
{
  NoteData data = { game_id, kind, detail };

  g_return_val_if_fail (self != NULL && kind != NULL, FALSE);
  return _komi_store_transaction (self, TRUE, add_event_txn, &data, error);
}
