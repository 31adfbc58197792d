/* komi-store.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "komi-coords.h"
#include "komi-store-private.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-store-error-quark, komi_store_error)

/* Long enough for another process's transaction of a few moves, short
 * enough that a stuck lock is reported instead of hanging a series. */
#define BUSY_TIMEOUT_MS 10000

static const char * const status_names[] = {
  "pending", "running", "finished", "void", "forfeit", "imported",
};

const char *
komi_game_status_to_string (KomiGameStatus status)
{
  g_return_val_if_fail (status <= KOMI_GAME_STATUS_IMPORTED, "pending");
  return status_names[status];
}

gboolean
komi_game_status_from_string (const char *text, KomiGameStatus *status)
{
  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (status_names); i++)
    if (strcmp (text, status_names[i]) == 0)
      {
        *status = (KomiGameStatus) i;
        return TRUE;
      }
  return FALSE;
}

char *
komi_store_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "komi", "library.db", NULL);
}

void
_komi_store_set_error (KomiStore *self, int rc, GError **error, const char *what)
{
  const char *detail = self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);
  int code;
  const char *hint;

  switch (rc & 0xff)
    {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      code = KOMI_STORE_ERROR_BUSY;
      hint = _("another program is writing to this library; wait for it to finish or "
               "choose another library with --db");
      break;
    case SQLITE_FULL:
      code = KOMI_STORE_ERROR_WRITE;
      hint = _("the disk is full; free some space, then resume the series");
      break;
    case SQLITE_READONLY:
    case SQLITE_PERM:
      code = KOMI_STORE_ERROR_WRITE;
      hint = _("the library cannot be written; check the file's permissions");
      break;
    case SQLITE_IOERR:
      code = KOMI_STORE_ERROR_WRITE;
      hint = _("the disk reported an error; check it, then resume the series");
      break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      code = KOMI_STORE_ERROR_NOT_LIBRARY;
      hint = _("the file is damaged or not a Komi library; restore it from a backup");
      break;
    case SQLITE_CANTOPEN:
      code = KOMI_STORE_ERROR_OPEN;
      hint = _("check that the folder exists and can be written, or choose another with --db");
      break;
    case SQLITE_CONSTRAINT:
      code = KOMI_STORE_ERROR_CONFLICT;
      hint = _("the record disagrees with what the library holds");
      break;
    default:
      code = KOMI_STORE_ERROR_WRITE;
      hint = NULL;
      break;
    }
  g_set_error (error, KOMI_STORE_ERROR, code, "%s (%s)%s%s", what, detail,
               hint != NULL ? ": " : "", hint != NULL ? hint : "");
}

KomiStoreStmt *
_komi_store_prepare (KomiStore *self, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = g_hash_table_lookup (self->statements, sql);
  int rc;

  if (stmt != NULL)
    {
      /* Nothing of the last use may leak into this one. */
      sqlite3_reset (stmt);
      sqlite3_clear_bindings (stmt);
      return stmt;
    }
  rc = sqlite3_prepare_v3 (self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      /* Our SQL is fixed, so this is a schema that is not ours. */
      _komi_store_set_error (self, rc, error, _("Cannot read the library"));
      return NULL;
    }
  g_hash_table_insert (self->statements, (gpointer) sql, stmt);
  return stmt;
}

gboolean
_komi_store_step_done (KomiStore *self, KomiStoreStmt *stmt, GError **error)
{
  int rc = sqlite3_step (stmt);

  sqlite3_reset (stmt);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW)
    return TRUE;
  _komi_store_set_error (self, rc, error, _("Cannot write to the library"));
  return FALSE;
}

static gboolean
exec (KomiStore *self, const char *sql, GError **error)
{
  int rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);

  if (rc == SQLITE_OK)
    return TRUE;
  _komi_store_set_error (self, rc, error, self->writer ? _("Cannot write to the library")
                                                       : _("Cannot read the library"));
  return FALSE;
}

static void
statement_free (gpointer stmt)
{
  sqlite3_finalize (stmt);
}

static KomiStore *
store_new (const char *path, gboolean writer)
{
  KomiStore *self = g_new0 (KomiStore, 1);

  self->ref_count = 1;
  g_mutex_init (&self->mutex);
  self->path = g_strdup (path);
  self->writer = writer;
  self->statements = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, statement_free);
  _komi_store_sync_init (self);
  return self;
}

/* Reads a pragma's one value as text. */
static gboolean
pragma_text (KomiStore *self, const char *sql, char **value, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);

  if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    *value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  if (rc == SQLITE_ROW || rc == SQLITE_DONE)
    return TRUE;
  _komi_store_set_error (self, rc, error, _("Cannot open the library"));
  return FALSE;
}

/* The settings every connection needs: durability, integrity, patience. */
gboolean
_komi_store_configure (KomiStore *self, GError **error)
{
  g_autofree char *mode = NULL;

  if (!exec (self, "PRAGMA foreign_keys = ON", error))
    return FALSE;
  if (!self->writer)
    return exec (self, "PRAGMA query_only = ON", error);
  /* WAL lets readers see committed moves while the writer goes on;
   * NORMAL does not sync at each commit: komi-store-commit.c syncs the log
   * in groups, and at once for the writes that must be durable. */
  if (!pragma_text (self, "PRAGMA journal_mode = WAL", &mode, error))
    return FALSE;
  if (g_ascii_strcasecmp (mode != NULL ? mode : "", "wal") != 0)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_OPEN,
                   _("the library cannot use write-ahead logging on this file system; "
                     "put it on a local disk (--db)"));
      return FALSE;
    }
  if (!exec (self, "PRAGMA synchronous = NORMAL", error))
    return FALSE;
  /* SQLite's default cache of 2 MiB: a model call's row fills a page of its
   * own, written once and never read again, so a larger cache only grew the
   * heap page by page (malloc, page faults: 17% of a call's CPU measured
   * with 64 MiB). The bulk path raises it for its one transaction
   * (komi-store-game.c); statement journals stay in memory. */
  return exec (self, "PRAGMA cache_size = " KOMI_STORE_CACHE_KIB "; PRAGMA temp_store = MEMORY",
               error);
}

KomiStore *
_komi_store_open_connection (const char *path, gboolean writer, GError **error)
{
  g_autoptr(KomiStore) self = store_new (path, writer);
  int flags = writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  int rc;

  rc = sqlite3_open_v2 (path, &self->db, flags | SQLITE_OPEN_FULLMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      if (!writer && !g_file_test (path, G_FILE_TEST_EXISTS))
        g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                     _("There is no library at %s yet: run a series or import games first, "
                       "or name another library with --db"), path);
      else
        _komi_store_set_error (self, rc, error, _("Cannot open the library"));
      return NULL;
    }
  sqlite3_busy_timeout (self->db, BUSY_TIMEOUT_MS);
  sqlite3_extended_result_codes (self->db, TRUE);
  return g_steal_pointer (&self);
}

KomiStore *
komi_store_open (const char *path, GError **error)
{
  g_autoptr(KomiStore) self = NULL;
  g_autofree char *dir = NULL;
  const KomiStoreMigration *migrations;
  guint n_migrations, version = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_OPEN,
                   _("Cannot create the folder %s for the library: %s; choose another "
                     "place with --db"), dir, g_strerror (saved));
      return NULL;
    }
  /* The file is checked before anything is set on it: a database of
   * another program is refused untouched. */
  migrations = _komi_store_get_migrations (&n_migrations);
  if ((self = _komi_store_open_connection (path, TRUE, error)) == NULL
      || !_komi_store_check_version (self->db, path, migrations[n_migrations - 1].version,
                                     &version, error))
    return NULL;
  if (!_komi_store_configure (self, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  if (!_komi_store_migrate (self->db, path, migrations, n_migrations, error))
    return NULL;
  /* A new file's tables go to the disk with the first sync. */
  _komi_store_sync_note (self);
  _komi_store_sync_start (self);
  return g_steal_pointer (&self);
}

KomiStore *
komi_store_open_reader (const char *path, GError **error)
{
  g_autoptr(KomiStore) self = NULL;
  guint version = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((self = _komi_store_open_connection (path, FALSE, error)) == NULL
      || !_komi_store_check_version (self->db, path, KOMI_STORE_SCHEMA_VERSION, &version, error))
    return NULL;
  if (!_komi_store_configure (self, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  if (version == 0)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                   _("%s is an empty file, not a Komi library yet: run a series or import "
                     "games into it first"), path);
      return NULL;
    }
  if (version < KOMI_STORE_SCHEMA_VERSION)
    {
      /* Written by an older Komi: upgrade it once through a writer. */
      g_autoptr(KomiStore) writer = komi_store_open (path, error);

      if (writer == NULL)
        return NULL;
    }
  return g_steal_pointer (&self);
}

KomiStore *
komi_store_ref (KomiStore *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
komi_store_unref (KomiStore *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  /* A normal exit loses no answered attempt: the kept ones commit now. */
  if (self->writer)
    {
      g_autoptr(GError) error = NULL;

      if (!komi_store_flush_calls (self, KOMI_STORE_ALL_GAMES, &error))
        g_warning ("Closing the library %s: %s", self->path, error->message);
    }
  g_clear_pointer (&self->completed, g_hash_table_destroy);
  g_hash_table_destroy (self->statements);
  _komi_store_sync_stop (self);
  /* Closing the last connection checkpoints the log into the file. */
  sqlite3_close_v2 (self->db);
  g_mutex_clear (&self->mutex);
  g_free (self->path);
  g_free (self);
}

const char *
komi_store_get_path (KomiStore *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

gboolean
komi_store_is_writer (KomiStore *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->writer;
}

/* Text forms. Stored as words, not numbers, so the file reads on its own. */

const char *
_komi_store_color_code (KomiColor color)
{
  return color == KOMI_BLACK ? "B" : color == KOMI_WHITE ? "W" : NULL;
}

KomiColor
_komi_store_color_parse (const char *code)
{
  if (g_strcmp0 (code, "B") == 0)
    return KOMI_BLACK;
  if (g_strcmp0 (code, "W") == 0)
    return KOMI_WHITE;
  return KOMI_EMPTY;
}

static const char * const end_codes[] = { "none", "two-passes", "turn-limit" };

const char *
_komi_store_end_code (KomiEndReason reason)
{
  return reason < G_N_ELEMENTS (end_codes) ? end_codes[reason] : "none";
}

KomiEndReason
_komi_store_end_parse (const char *code)
{
  for (guint i = 0; code != NULL && i < G_N_ELEMENTS (end_codes); i++)
    if (strcmp (code, end_codes[i]) == 0)
      return (KomiEndReason) i;
  return KOMI_END_NONE;
}

gboolean
_komi_store_orientation_parse (const char *text, KomiOrientation *orientation)
{
  for (guint i = 0; text != NULL && i < KOMI_N_ORIENTATIONS; i++)
    if (strcmp (text, komi_orientation_to_string ((KomiOrientation) i)) == 0)
      {
        *orientation = (KomiOrientation) i;
        return TRUE;
      }
  return FALSE;
}

char *
_komi_store_points_to_text (guint size, const KomiPoint *points, guint n_points)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n_points; i++)
    {
      char name[KOMI_NAME_LEN + 1];

      if (i > 0)
        g_string_append_c (s, ' ');
      g_string_append (s, komi_point_to_name (size, points[i], name));
    }
  return g_string_free (s, FALSE);
}

gboolean
_komi_store_points_parse (guint size, const char *text, GArray *points)
{
  g_auto(GStrv) names = g_strsplit (text != NULL ? text : "", " ", -1);

  for (guint i = 0; names[i] != NULL; i++)
    {
      KomiPoint p;

      if (names[i][0] == '\0')
        continue;
      if (!komi_point_from_name (size, names[i], &p))
        return FALSE;
      g_array_append_val (points, p);
    }
  return TRUE;
}

void
komi_store_series_free (KomiStoreSeries *series)
{
  if (series == NULL)
    return;
  g_free (series->name);
  g_free (series->digest);
  g_free (series->definition);
  g_free (series->subject);
  g_free (series->referee);
  g_free (series->created);
  g_free (series->updated);
  g_free (series);
}

void
komi_store_game_free (KomiStoreGame *game)
{
  if (game == NULL)
    return;
  g_free (game->series_name);
  g_free (game->black_spec);
  g_free (game->white_spec);
  g_free (game->black_name);
  g_free (game->white_name);
  g_free (game->result);
  g_free (game->referee);
  g_free (game->void_reason);
  g_free (game->date);
  g_free (game->started);
  g_free (game->finished);
  g_free (game->source);
  g_free (game->black_settings);
  g_free (game->white_settings);
  g_free (game->event);
  g_free (game->ruleset);
  g_clear_pointer (&game->moves, g_array_unref);
  g_clear_pointer (&game->dead, g_array_unref);
  g_free (game->setup);
  g_free (game);
}

void
komi_store_summary_clear (KomiStoreSummary *summary)
{
  g_clear_pointer (&summary->opponent_spec, g_free);
}
