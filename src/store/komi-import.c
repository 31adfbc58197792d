/* komi-import.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-import.h"
#include "komi-sgf-record.h"
#include "komi-store-private.h"

typedef struct
{
  const char *path;        /* as absolute as we can make it */
  const char *digest;      /* SHA-256 of the file's bytes */
  GPtrArray  *records;     /* KomiSgfRecord* */
  GPtrArray  *games;       /* KomiGame*, replayed */
  GArray     *game_ids;
  gboolean    duplicate;
} ImportData;

/* The winner and margin an SGF result states: "B+3.5", "W+R", "0",
 * "Draw". Anything else ("Void", "?") states none. */
static void
parse_result (const char *result, const char **winner, double *margin)
{
  *winner = NULL;
  *margin = NAN;
  if (result == NULL)
    return;
  if (g_ascii_strcasecmp (result, "0") == 0 || g_ascii_strcasecmp (result, "Draw") == 0
      || g_ascii_strcasecmp (result, "Jigo") == 0)
    {
      *winner = "draw";
      *margin = 0;
      return;
    }
  if ((result[0] == 'B' || result[0] == 'W' || result[0] == 'b' || result[0] == 'w')
      && result[1] == '+')
    {
      char *end = NULL;
      double value = g_ascii_strtod (result + 2, &end);

      *winner = g_ascii_toupper (result[0]) == 'B' ? "B" : "W";
      if (end != result + 2 && *end == '\0' && value >= 0)
        *margin = value;
    }
}

static char *
setup_text (const KomiSgfRecord *r)
{
  char *text;
  guint n = r->size * r->size;

  if (r->setup_colors == NULL)
    return NULL;
  text = g_malloc (n + 1);
  for (guint i = 0; i < n; i++)
    text[i] = r->setup_colors[i] == KOMI_BLACK ? 'X' : r->setup_colors[i] == KOMI_WHITE ? 'O' : '.';
  text[n] = '\0';
  return text;
}

static gboolean
insert_game (KomiStore           *self,
             ImportData          *data,
             guint                index,
             const KomiSgfRecord *r,
             const KomiGame      *game,
             GError             **error)
{
  g_autofree char *setup = setup_text (r);
  g_autofree char *dead = _komi_store_points_to_text (r->size, (KomiPoint *) r->dead->data,
                                                      r->dead->len);
  const char *black = r->black_name != NULL ? r->black_name : "Black";
  const char *white = r->white_name != NULL ? r->white_name : "White";
  KomiStoreStmt *stmt;
  gint64 black_id = 0, white_id = 0, game_id;
  const char *winner;
  double margin;

  if (!_komi_store_upsert_player (self, "sgf", "imported", black, &black_id, error)
      || !_komi_store_upsert_player (self, "sgf", "imported", white, &white_id, error))
    return FALSE;
  parse_result (r->result, &winner, &margin);
  stmt = _komi_store_prepare (self,
    "INSERT INTO games (status, black_spec, white_spec, black_player, white_player, "
    "  black_name, white_name, size, komi, max_turns, setup, end_reason, result, winner, "
    "  margin, dead, date, event, ruleset, source, source_digest, source_index, started, "
    "  finished) "
    "VALUES ('imported', 'sgf', 'sgf', ?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, ?8, ?9, ?10, ?11, "
    "  ?12, ?13, ?14, ?15, ?16, ?17, ?18, " KOMI_STORE_NOW ", " KOMI_STORE_NOW ")", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, black_id);
  sqlite3_bind_int64 (stmt, 2, white_id);
  _komi_store_bind_text (stmt, 3, black);
  _komi_store_bind_text (stmt, 4, white);
  sqlite3_bind_int (stmt, 5, r->size);
  sqlite3_bind_double (stmt, 6, r->komi);
  _komi_store_bind_text (stmt, 7, setup);
  _komi_store_bind_text (stmt, 8, _komi_store_end_code (komi_game_get_end_reason (game)));
  _komi_store_bind_text (stmt, 9, r->result);
  _komi_store_bind_text (stmt, 10, winner);
  if (!isnan (margin))
    sqlite3_bind_double (stmt, 11, margin);
  _komi_store_bind_text (stmt, 12, dead);
  _komi_store_bind_text (stmt, 13, r->date);
  _komi_store_bind_text (stmt, 14, r->event);
  _komi_store_bind_text (stmt, 15, r->ruleset);
  _komi_store_bind_text (stmt, 16, data->path);
  _komi_store_bind_text (stmt, 17, data->digest);
  sqlite3_bind_int (stmt, 18, index);
  if (!_komi_store_step_done (self, stmt, error))
    return FALSE;
  game_id = sqlite3_last_insert_rowid (self->db);

  for (guint i = 0; i < r->moves->len; i++)
    if (!_komi_store_insert_move (self, game_id, r->size, i + 1,
                                  &g_array_index (r->moves, KomiMove, i), error))
      return FALSE;
  g_array_append_val (data->game_ids, game_id);
  return TRUE;
}

static gboolean
import_txn (KomiStore *self, gpointer user_data, GError **error)
{
  ImportData *data = user_data;
  g_autoptr(KomiStoreStmt) find = NULL;
  int rc;

  /* The same bytes imported before, under whatever name: skip them. */
  find = _komi_store_prepare (self, "SELECT id FROM games WHERE source_digest = ?1 "
                                    "ORDER BY source_index", error);
  if (find == NULL)
    return FALSE;
  _komi_store_bind_text (find, 1, data->digest);
  while ((rc = sqlite3_step (find)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (find, 0);

      data->duplicate = TRUE;
      g_array_append_val (data->game_ids, id);
    }
  if (rc != SQLITE_DONE)
    {
      _komi_store_set_error (self, rc, error, _("Cannot read the library"));
      return FALSE;
    }
  if (data->duplicate)
    return TRUE;

  for (guint i = 0; i < data->records->len; i++)
    if (!insert_game (self, data, i, g_ptr_array_index (data->records, i),
                      g_ptr_array_index (data->games, i), error))
      return FALSE;
  return TRUE;
}

/* Reads and replays every game of the file before anything is written. */
static gboolean
read_games (const char *path, const char *text, gsize length, ImportData *data,
            GError **error)
{
  g_autoptr(KomiSgfTree) tree = NULL;
  g_autofree char *name = g_filename_display_name (path);
  guint n_games;

  if ((tree = komi_sgf_parse (text, length, error)) == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return FALSE;
    }
  n_games = komi_sgf_tree_get_n_games (tree);
  for (guint i = 0; i < n_games; i++)
    {
      KomiSgfRecord *record = komi_sgf_record_from_tree (tree, i, error);
      KomiGame *game = record != NULL ? komi_sgf_record_replay (record, 0, error) : NULL;

      if (record != NULL)
        g_ptr_array_add (data->records, record);
      if (game == NULL)
        {
          if (n_games > 1)
            g_prefix_error (error, _("%s: game %u: "), name, i + 1);
          else
            g_prefix_error (error, "%s: ", name);
          return FALSE;
        }
      g_ptr_array_add (data->games, game);
    }
  if (n_games > 0)
    return TRUE;
  g_set_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_NO_GAME,
               _("%s: the file holds no game record"), name);
  return FALSE;
}

gboolean
komi_import_sgf_file (KomiStore   *store,
                      const char  *path,
                      GArray      *game_ids,
                      gboolean    *duplicate,
                      GError     **error)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                 komi_sgf_record_free);
  g_autoptr(GPtrArray) games = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_game_free);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *text = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *absolute = NULL;
  gsize length;
  ImportData data = { NULL, };

  g_return_val_if_fail (store != NULL && path != NULL, FALSE);

  if (!g_file_get_contents (path, &text, &length, error))
    return FALSE;
  digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) text, length);
  absolute = g_canonicalize_filename (path, NULL);
  data = (ImportData) { absolute, digest, records, games, ids, FALSE };
  if (!read_games (path, text, length, &data, error)
      || !_komi_store_transaction (store, TRUE, import_txn, &data, error))
    return FALSE;
  if (game_ids != NULL)
    g_array_append_vals (game_ids, ids->data, ids->len);
  if (duplicate != NULL)
    *duplicate = data.duplicate;
  return TRUE;
}
