/* komi-store-merge.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "komi-store-private.h"

/* Merging libraries: the games of a series played as shards in libraries
 * of their own (komi-cli run --shard K/N) brought into one. The source is
 * attached read-only to a connection of the merge's own on the
 * destination, and everything is copied in one transaction, so a merge
 * that fails leaves the destination as it was. Only ended games are
 * copied (finished, void, forfeit), with their moves, call attempts,
 * analysis and events: an ended game never changes again, so a game
 * already in the destination is skipped, and merging the same source
 * twice adds nothing. A game the source has not ended is counted and left
 * for a later merge. A source's runs (its run-start and run-end events)
 * come with its last games, once the source has ended them all and no
 * process runs it. Columns are copied by name, those both files have, so
 * a source of an older schema merges too. */

#define ENDED "('finished', 'void', 'forfeit')"

static gboolean
fail (sqlite3 *db, GError **error, const char *path, const char *what)
{
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_WRITE, "%s: %s (%s)", path, what,
               sqlite3_errmsg (db));
  return FALSE;
}

static gboolean
exec (sqlite3 *db, const char *sql, GError **error, const char *path)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) == SQLITE_OK)
    return TRUE;
  return fail (db, error, path, _("cannot merge into the library"));
}

/* The columns of @table that both schemas have, but @skip (a column the
 * caller maps itself, or the row id), as "a, b, c". */
static char *
shared_columns (sqlite3 *db, const char *table, const char * const *skip)
{
  g_autofree char *sql = g_strdup_printf ("SELECT name FROM pragma_table_info ('%s', 'main') "
                                          "WHERE name IN (SELECT name FROM pragma_table_info "
                                          "('%s', 'src')) ORDER BY cid", table, table);
  GString *list = g_string_new (NULL);
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK)
    while (sqlite3_step (stmt) == SQLITE_ROW)
      {
        const char *name = (const char *) sqlite3_column_text (stmt, 0);

        if (skip != NULL && g_strv_contains (skip, name))
          continue;
        g_string_append_printf (list, "%s%s", list->len > 0 ? ", " : "", name);
      }
  sqlite3_finalize (stmt);
  return g_string_free (list, FALSE);
}

typedef struct
{
  sqlite3      *db;
  const char   *path;        /* the destination's, for messages */
  GHashTable   *except;      /* source game ids left out (gint64*), or NULL */
  sqlite3_stmt *insert_game;
  /* Copy the rows of one game, old id ?2, under its new id ?1. */
  sqlite3_stmt *copy[5];
} Merge;

static void
merge_clear (Merge *m)
{
  g_clear_pointer (&m->insert_game, sqlite3_finalize);
  for (guint i = 0; i < G_N_ELEMENTS (m->copy); i++)
    g_clear_pointer (&m->copy[i], sqlite3_finalize);
}

static gboolean
prepare (Merge *m, const char *sql, sqlite3_stmt **stmt, GError **error)
{
  if (sqlite3_prepare_v2 (m->db, sql, -1, stmt, NULL) == SQLITE_OK)
    return TRUE;
  return fail (m->db, error, m->path, _("cannot merge into the library"));
}

static gboolean
prepare_copies (Merge *m, GError **error)
{
  static const char * const game_skip[] = { "id", "series_id", "black_player",
                                            "white_player", NULL };
  static const char * const id_skip[] = { "id", "game_id", NULL };
  static const char * const tables[] = { "moves", "calls", "analysis", "analysis_moves",
                                         "events" };
  /* Attempts and events keep their order; the others are keyed by turn. */
  static const char * const order[] = { "", " ORDER BY id", "", "", " ORDER BY id" };
  g_autofree char *games = shared_columns (m->db, "games", game_skip);
  g_autofree char *sql = NULL;

  /* A player is the same player in both files when spec, name and
   * version are: its row in the destination, made first if need be. */
  sql = g_strdup_printf ("INSERT INTO main.games (series_id, black_player, white_player, %s) "
                         "SELECT ?1, (SELECT d.id FROM main.players d JOIN src.players s "
                         "    ON s.spec = d.spec AND s.name = d.name AND s.version = d.version "
                         "    WHERE s.id = g.black_player), "
                         "  (SELECT d.id FROM main.players d JOIN src.players s "
                         "    ON s.spec = d.spec AND s.name = d.name AND s.version = d.version "
                         "    WHERE s.id = g.white_player), %s "
                         "FROM src.games g WHERE g.id = ?2", games, games);
  if (!prepare (m, sql, &m->insert_game, error))
    return FALSE;
  /* The analysis before its moves (a foreign key); events last. */
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *columns = shared_columns (m->db, tables[i], id_skip);
      g_autofree char *copy = g_strdup_printf ("INSERT INTO main.%s (game_id, %s) "
                                               "SELECT ?1, %s FROM src.%s WHERE game_id = ?2%s",
                                               tables[i], columns, columns, tables[i],
                                               order[i]);

      if (!prepare (m, copy, &m->copy[i], error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
step_done (Merge *m, sqlite3_stmt *stmt, GError **error)
{
  int rc = sqlite3_step (stmt);

  sqlite3_reset (stmt);
  if (rc == SQLITE_DONE)
    return TRUE;
  return fail (m->db, error, m->path, _("cannot merge into the library"));
}

static gboolean
copy_game (Merge *m, gint64 series_id, gint64 old_id, GError **error)
{
  gint64 new_id;

  sqlite3_bind_int64 (m->insert_game, 1, series_id);
  sqlite3_bind_int64 (m->insert_game, 2, old_id);
  if (!step_done (m, m->insert_game, error))
    return FALSE;
  new_id = sqlite3_last_insert_rowid (m->db);
  for (guint i = 0; i < G_N_ELEMENTS (m->copy); i++)
    {
      sqlite3_bind_int64 (m->copy[i], 1, new_id);
      sqlite3_bind_int64 (m->copy[i], 2, old_id);
      if (!step_done (m, m->copy[i], error))
        return FALSE;
    }
  return TRUE;
}

/* The destination's series of the source's series @src_id (same digest),
 * recorded as the source has it when the destination has none yet. */
static gboolean
find_series (Merge *m, gint64 src_id, gint64 *dest_id, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  *dest_id = 0;
  if (!prepare (m, "INSERT INTO main.series (name, protocol, digest, definition, seed, "
                   "  subject, referee, created, updated) "
                   "SELECT name, protocol, digest, definition, seed, subject, referee, "
                   "  created, updated FROM src.series WHERE id = ?1 "
                   "ON CONFLICT (digest) DO NOTHING", &stmt, error))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, src_id);
  ok = step_done (m, stmt, error);
  sqlite3_finalize (stmt);
  if (!ok || !prepare (m, "SELECT d.id FROM main.series d JOIN src.series s "
                          "ON s.digest = d.digest WHERE s.id = ?1", &stmt, error))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, src_id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    *dest_id = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return *dest_id > 0 || fail (m->db, error, m->path, _("cannot merge into the library"));
}

/* A run event of the source as the destination keeps it: its series
 * renumbered; its shard ("K/N") kept as "merged_shard", since the
 * destination itself is no shard. */
#define RENAMED "json_set (json_remove (s.detail, '$.shard'), '$.series', ?2, " \
                "'$.merged_shard', json_extract (s.detail, '$.shard'))"

/* The source's runs of series @src_id as runs of @dest_id, each once. A
 * run whose end is missing (a process that died after its last game)
 * gets an end, "merged": the destination offers no run to continue. */
static gboolean
copy_runs (Merge *m, gint64 src_id, gint64 dest_id, guint *events, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  if (!prepare (m, "INSERT INTO main.events (game_id, time, kind, detail) "
                   "SELECT NULL, s.time, s.kind, " RENAMED " "
                   "FROM src.events s WHERE s.game_id IS NULL "
                   "  AND s.kind IN ('run-start', 'run-end') AND json_valid (s.detail) "
                   "  AND json_extract (s.detail, '$.series') = ?1 "
                   "  AND NOT EXISTS (SELECT 1 FROM main.events d WHERE d.game_id IS NULL "
                   "    AND d.kind = s.kind AND d.time = s.time "
                   "    AND d.detail = " RENAMED ") "
                   "ORDER BY s.id", &stmt, error))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, src_id);
  sqlite3_bind_int64 (stmt, 2, dest_id);
  ok = step_done (m, stmt, error);
  sqlite3_finalize (stmt);
  if (!ok)
    return FALSE;
  *events += (guint) sqlite3_changes (m->db);

  if (!prepare (m, "INSERT INTO main.events (game_id, kind, detail) "
                   "SELECT NULL, 'run-end', json_object ('series', ?1, 'how', 'merged') "
                   "WHERE (SELECT kind FROM main.events WHERE game_id IS NULL "
                   "       AND kind IN ('run-start', 'run-end') AND json_valid (detail) "
                   "       AND json_extract (detail, '$.series') = ?1 "
                   "       ORDER BY id DESC LIMIT 1) = 'run-start'", &stmt, error))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, dest_id);
  ok = step_done (m, stmt, error);
  sqlite3_finalize (stmt);
  return ok;
}

static gboolean
merge_series (Merge                *m,
              gint64                src_id,
              gboolean              live,
              KomiStoreMergeReport *report,
              GError              **error)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3_stmt *stmt = NULL;
  gint64 dest_id;
  guint unfinished = 0;
  int rc;

  if (!find_series (m, src_id, &dest_id, error))
    return FALSE;
  if (report->series_id == 0)
    report->series_id = dest_id;

  /* A game the destination has not ended (it ran part of the series
   * itself) gives way to the ended one. */
  if (!prepare (m, "SELECT s.id, s.status IN " ENDED ", "
                   "  (SELECT d.status IN " ENDED " FROM main.games d "
                   "   WHERE d.series_id = ?2 AND d.plan_index = s.plan_index) "
                   "FROM src.games s WHERE s.series_id = ?1 ORDER BY s.plan_index",
                &stmt, error))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, src_id);
  sqlite3_bind_int64 (stmt, 2, dest_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);
      gboolean ended = sqlite3_column_int (stmt, 1);
      gboolean there = sqlite3_column_type (stmt, 2) != SQLITE_NULL;

      if (m->except != NULL && g_hash_table_contains (m->except, &id))
        report->refused++;
      else if (!ended)
        unfinished++;
      else if (there && sqlite3_column_int (stmt, 2))
        report->present++;
      else
        g_array_append_val (ids, id);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return fail (m->db, error, m->path, _("cannot merge into the library"));

  if (!prepare (m, "DELETE FROM main.games WHERE series_id = ?1 AND plan_index = "
                   "(SELECT plan_index FROM src.games WHERE id = ?2)", &stmt, error))
    return FALSE;
  for (guint i = 0; i < ids->len; i++)
    {
      sqlite3_bind_int64 (stmt, 1, dest_id);
      sqlite3_bind_int64 (stmt, 2, g_array_index (ids, gint64, i));
      if (!step_done (m, stmt, error))
        {
          sqlite3_finalize (stmt);
          return FALSE;
        }
    }
  sqlite3_finalize (stmt);
  for (guint i = 0; i < ids->len; i++)
    if (!copy_game (m, dest_id, g_array_index (ids, gint64, i), error))
      return FALSE;
  report->added += ids->len;
  report->unfinished += unfinished;

  if (unfinished == 0 && !live && !copy_runs (m, src_id, dest_id, &report->events, error))
    return FALSE;
  return TRUE;
}

static gboolean
same_file (const char *a, const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev
         && sa.st_ino == sb.st_ino;
}

gboolean
komi_store_merge (const char            *dest_path,
                  const char            *source_path,
                  KomiStoreMergeReport  *report,
                  GError               **error)
{
  return komi_store_merge_except (dest_path, source_path, NULL, report, error);
}

gboolean
komi_store_merge_except (const char            *dest_path,
                         const char            *source_path,
                         const GArray          *except,
                         KomiStoreMergeReport  *report,
                         GError               **error)
{
  g_autoptr(GHashTable) left_out = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(KomiStore) source = NULL;
  g_autoptr(KomiStore) dest = NULL;
  g_autoptr(GPtrArray) series = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *absolute = NULL;
  Merge m = { 0, };
  sqlite3 *db = NULL;
  gboolean ok = FALSE;
  guint i;

  g_return_val_if_fail (dest_path != NULL && source_path != NULL && report != NULL, FALSE);

  memset (report, 0, sizeof *report);
  if (same_file (dest_path, source_path))
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
                   _("%s is the library merged into: give the shards' libraries, and "
                     "another file with --db"), source_path);
      return FALSE;
    }
  /* The source is someone else's file: checked as a Komi library of a
   * known schema, with no trigger or view, read-only and never upgraded;
   * the destination made or migrated to this Komi's schema. */
  source = komi_store_open_foreign (source_path, error);
  if (source == NULL || (series = komi_store_list_series (source, error)) == NULL)
    return FALSE;
  dest = komi_store_open (dest_path, error);
  if (dest == NULL)
    return FALSE;

  /* A connection of the merge's own: ATTACH needs one outside any
   * transaction, which the store's connection cannot promise. */
  absolute = g_canonicalize_filename (source_path, NULL);
  uri = g_filename_to_uri (absolute, NULL, error);
  if (uri == NULL)
    return FALSE;
  if (sqlite3_open_v2 (dest_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL)
      != SQLITE_OK)
    {
      fail (db, error, dest_path, _("cannot open the library"));
      sqlite3_close (db);
      return FALSE;
    }
  m.db = db;
  m.path = dest_path;
  for (i = 0; except != NULL && i < except->len; i++)
    g_hash_table_add (left_out, &g_array_index (except, gint64, i));
  m.except = except != NULL ? left_out : NULL;
  sqlite3_busy_timeout (db, 10000);
  if (!_komi_store_defend (db))
    {
      fail (db, error, dest_path, _("cannot make the merge safe for a library from elsewhere"));
      goto out;
    }
  {
    char *sql = sqlite3_mprintf ("ATTACH '%q?mode=ro' AS src", uri);
    gboolean attached = exec (db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL",
                              error, dest_path)
                        && exec (db, sql, error, dest_path);
    g_autofree char *problem = NULL;

    sqlite3_free (sql);
    if (!attached)
      goto out;
    /* Checked again as attached: the file may have been replaced meanwhile. */
    problem = _komi_store_schema_problem (db, "src",
                                          komi_store_get_schema_version (source));
    if (problem != NULL)
      {
        g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                     _("%s is not a library as Komi writes it: it holds %s. Nothing was "
                       "merged"), source_path, problem);
        goto out;
      }
  }
  if (!exec (db, "BEGIN IMMEDIATE", error, dest_path))
    goto out;
  if (!prepare_copies (&m, error))
    goto rollback;
  if (!exec (db, "INSERT INTO main.players (spec, kind, name, version) "
                 "SELECT spec, kind, name, version FROM src.players WHERE true "
                 "ON CONFLICT (spec, name, version) DO NOTHING", error, dest_path))
    goto rollback;
  for (i = 0; i < series->len; i++)
    {
      KomiStoreSeries *s = g_ptr_array_index (series, i);
      gboolean live = komi_store_run_is_live (source, s->id);

      report->live |= live;
      if (!merge_series (&m, s->id, live, report, error))
        goto rollback;
    }
  merge_clear (&m);
  if (!exec (db, "COMMIT", error, dest_path))
    goto rollback;
  ok = TRUE;
  goto out;

rollback:
  merge_clear (&m);
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
out:
  sqlite3_exec (db, "DETACH src", NULL, NULL, NULL);
  sqlite3_close (db);
  return ok;
}
