/* komi-store-runs.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "komi-store-private.h"

/* Runs of a series, told apart from crashes. A run records a "run-start"
 * event when it begins and a "run-end" when it ends in any orderly way
 * (finished, stopped, paused, failed); a process killed in between leaves
 * a start with no end. While it runs, the process holds a lock on one
 * byte (at the series' id) of LIBRARY.runs, an open file description lock
 * that the kernel drops when the process dies, in whatever way: a start
 * with no end whose byte nobody holds is a run that died. Every Komi
 * process on the same machine sees the locks (pid namespaces, Flatpak's
 * included, do not matter: the file is what is locked). */

#define RUN_START "run-start"
#define RUN_END   "run-end"

static char *
runs_path (KomiStore *self)
{
  return g_strconcat (self->path, ".runs", NULL);
}

static void
byte_of (struct flock *lock, short type, gint64 series_id)
{
  memset (lock, 0, sizeof *lock);
  lock->l_type = type;
  lock->l_whence = SEEK_SET;
  lock->l_start = (off_t) series_id;
  lock->l_len = 1;
}

/* A run event's detail: {"series": ID, MEMBER: TEXT or NUMBER[, "shard":
 * "K/N"]}, built as JSON so that what a caller passes in @text cannot
 * break it. */
static char *
run_detail (gint64 series_id, const char *member, const char *text, gint64 number,
            guint shard, guint n_shards)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "series");
  json_builder_add_int_value (b, series_id);
  json_builder_set_member_name (b, member);
  if (text != NULL)
    json_builder_add_string_value (b, text);
  else
    json_builder_add_int_value (b, number);
  if (n_shards > 1)
    {
      g_autofree char *k_of_n = g_strdup_printf ("%u/%u", shard + 1, n_shards);

      json_builder_set_member_name (b, "shard");
      json_builder_add_string_value (b, k_of_n);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

gboolean
komi_store_begin_run (KomiStore   *self,
                      gint64       series_id,
                      int         *lock_fd,
                      GError     **error)
{
  return komi_store_begin_shard_run (self, series_id, 0, 0, lock_fd, error);
}

gboolean
komi_store_begin_shard_run (KomiStore   *self,
                            gint64       series_id,
                            guint        shard,
                            guint        n_shards,
                            int         *lock_fd,
                            GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *detail = NULL;
  struct flock lock;
  int fd;

  g_return_val_if_fail (self != NULL && self->writer && series_id > 0, FALSE);
  g_return_val_if_fail (lock_fd != NULL, FALSE);

  path = runs_path (self);
  fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_OPEN,
                   _("Cannot open %s, which marks the series being run: %s"), path,
                   g_strerror (saved));
      return FALSE;
    }
  byte_of (&lock, F_WRLCK, series_id);
  if (fcntl (fd, F_OFD_SETLK, &lock) != 0)
    {
      int saved = errno;

      close (fd);
      if (saved == EAGAIN || saved == EACCES)
        g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_BUSY,
                     _("Series %" PRId64 " is being run by another process right now; "
                       "wait for it to end or stop it there"), series_id);
      else
        g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_OPEN,
                     _("Cannot lock %s: %s"), path, g_strerror (saved));
      return FALSE;
    }
  detail = run_detail (series_id, "pid", NULL, getpid (), shard, n_shards);
  if (!komi_store_add_event (self, 0, RUN_START, detail, error))
    {
      close (fd);
      return FALSE;
    }
  *lock_fd = fd;
  return TRUE;
}

gboolean
komi_store_end_run (KomiStore   *self,
                    gint64       series_id,
                    int          lock_fd,
                    const char  *how,
                    GError     **error)
{
  g_autofree char *detail = NULL;
  gboolean ok;

  g_return_val_if_fail (self != NULL && how != NULL, FALSE);

  detail = run_detail (series_id, "how", how, 0, 0, 0);
  ok = komi_store_add_event (self, 0, RUN_END, detail, error);
  /* The lock goes only once the end is recorded: no one sees a gap. */
  if (lock_fd >= 0)
    close (lock_fd);
  return ok;
}

/* Whether a process holds @series_id's byte of LIBRARY.runs; FALSE when
 * the file is missing (no run has locked it since it was made). */
static gboolean run_is_live (int fd, gint64 series_id);

gboolean
komi_store_run_is_live (KomiStore *self, gint64 series_id)
{
  g_autofree char *path = runs_path (self);
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  gboolean live = run_is_live (fd, series_id);

  if (fd >= 0)
    close (fd);
  return live;
}

static gboolean
run_is_live (int fd, gint64 series_id)
{
  struct flock lock;

  if (fd < 0)
    return FALSE;
  byte_of (&lock, F_WRLCK, series_id);
  /* Unsure (an error): live, so nothing is offered twice. */
  if (fcntl (fd, F_OFD_GETLK, &lock) != 0)
    return TRUE;
  return lock.l_type != F_UNLCK;
}

typedef struct
{
  GArray *ids;
} ListData;

static gboolean
list_interrupted_txn (KomiStore *self, gpointer user_data, GError **error)
{
  ListData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;
  g_autoptr(GHashTable) last = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (gint64));
  int rc;

  stmt = _komi_store_prepare (self, "SELECT json_extract (detail, '$.series'), kind = '"
                                    RUN_START "' FROM events WHERE game_id IS NULL AND kind IN "
                                    "('" RUN_START "', '" RUN_END "') AND json_valid (detail) "
                                    "ORDER BY id", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);
      gboolean started = sqlite3_column_int (stmt, 1);

      if (id <= 0)
        continue;
      if (!g_hash_table_contains (last, &id))
        g_array_append_val (order, id);
      g_hash_table_replace (last, g_memdup2 (&id, sizeof id), GINT_TO_POINTER (started));
    }
  if (rc != SQLITE_DONE)
    {
      _komi_store_set_error (self, rc, error, _("Cannot read the library's runs"));
      return FALSE;
    }
  for (guint i = 0; i < order->len; i++)
    {
      gint64 id = g_array_index (order, gint64, i);

      if (GPOINTER_TO_INT (g_hash_table_lookup (last, &id)))
        g_array_append_val (data->ids, id);
    }
  return TRUE;
}

GArray *
komi_store_list_interrupted (KomiStore *self, GError **error)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *path = NULL;
  ListData data = { ids };
  int fd;

  g_return_val_if_fail (self != NULL, NULL);

  if (!_komi_store_transaction (self, FALSE, list_interrupted_txn, &data, error))
    return NULL;
  if (ids->len == 0)
    return g_steal_pointer (&dead);
  path = runs_path (self);
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  for (guint i = 0; i < ids->len; i++)
    if (!run_is_live (fd, g_array_index (ids, gint64, i)))
      g_array_append_val (dead, g_array_index (ids, gint64, i));
  if (fd >= 0)
    close (fd);
  return g_steal_pointer (&dead);
}

typedef struct
{
  gint64             series_id;
  KomiStoreProgress *progress;
} ProgressData;

static gboolean
progress_txn (KomiStore *self, gpointer user_data, GError **error)
{
  ProgressData *data = user_data;
  KomiStoreProgress *p = data->progress;
  g_autoptr(KomiStoreStmt) games = NULL;
  g_autoptr(KomiStoreStmt) shard = NULL;
  int rc;

  games = _komi_store_prepare (self, "SELECT count(*), "
                                     "  count(*) FILTER (WHERE status IN ('finished', 'void', "
                                     "    'forfeit')), "
                                     "  count(*) FILTER (WHERE status = 'running'), "
                                     "  (julianday (max (finished)) - julianday (min (started)))"
                                     "    * 86400 "
                                     "FROM games WHERE series_id = ?1", error);
  if (games == NULL)
    return FALSE;
  sqlite3_bind_int64 (games, 1, data->series_id);
  if ((rc = sqlite3_step (games)) != SQLITE_ROW)
    {
      _komi_store_set_error (self, rc, error, _("Cannot read the series' progress"));
      return FALSE;
    }
  p->total = (guint) sqlite3_column_int (games, 0);
  p->ended = (guint) sqlite3_column_int (games, 1);
  p->running = (guint) sqlite3_column_int (games, 2);
  p->seconds = sqlite3_column_type (games, 3) == SQLITE_NULL
               ? 0 : sqlite3_column_double (games, 3);

  shard = _komi_store_prepare (self, "SELECT json_extract (detail, '$.shard') FROM events "
                                     "WHERE game_id IS NULL AND kind = '" RUN_START "' "
                                     "AND json_valid (detail) "
                                     "AND json_extract (detail, '$.series') = ?1 "
                                     "ORDER BY id DESC LIMIT 1", error);
  if (shard == NULL)
    return FALSE;
  sqlite3_bind_int64 (shard, 1, data->series_id);
  if (sqlite3_step (shard) == SQLITE_ROW && sqlite3_column_type (shard, 0) == SQLITE_TEXT)
    p->shard = g_strdup ((const char *) sqlite3_column_text (shard, 0));
  return TRUE;
}

gboolean
komi_store_get_progress (KomiStore          *self,
                         gint64              series_id,
                         KomiStoreProgress  *progress,
                         GError            **error)
{
  ProgressData data = { series_id, progress };

  g_return_val_if_fail (self != NULL && progress != NULL, FALSE);

  memset (progress, 0, sizeof *progress);
  if (!_komi_store_transaction (self, FALSE, progress_txn, &data, error))
    {
      komi_store_progress_clear (progress);
      return FALSE;
    }
  progress->live = komi_store_run_is_live (self, series_id);
  return TRUE;
}

void
komi_store_progress_clear (KomiStoreProgress *progress)
{
  g_clear_pointer (&progress->shard, g_free);
}

typedef struct
{
  const char *digest;
  char       *shard;
} ShardData;

static gboolean
find_shard_txn (KomiStore *self, gpointer user_data, GError **error)
{
  ShardData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;

  stmt = _komi_store_prepare (self, "SELECT json_extract (e.detail, '$.shard') FROM events e "
                                    "JOIN series s ON s.id = json_extract (e.detail, "
                                    "'$.series') WHERE s.digest = ?1 AND e.game_id IS NULL "
                                    "AND e.kind = '" RUN_START "' AND json_valid (e.detail) "
                                    "ORDER BY e.id DESC LIMIT 1", error);
  if (stmt == NULL)
    return FALSE;
  _komi_store_bind_text (stmt, 1, data->digest);
  if (sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_type (stmt, 0) == SQLITE_TEXT)
    data->shard = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  return TRUE;
}

gboolean
komi_store_keep_shard (KomiStore   *self,
                       KomiSeries  *series,
                       GError     **error)
{
  ShardData data = { series->digest, NULL };
  g_autofree char *shard = NULL;
  guint k = 0, n = 0;

  g_return_val_if_fail (self != NULL && series != NULL, FALSE);

  if (!_komi_store_transaction (self, FALSE, find_shard_txn, &data, error))
    return FALSE;
  shard = data.shard;
  if (shard == NULL || !komi_series_parse_shard (shard, &k, &n, NULL))
    return TRUE;
  if (series->n_shards <= 1)
    {
      series->shard = k;
      series->n_shards = n;
      return TRUE;
    }
  if (series->shard == k && series->n_shards == n)
    return TRUE;
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
               _("%s holds shard %s of this series, not shard %u/%u: give each shard a "
                 "library of its own (--db)"), self->path, shard, series->shard + 1,
               series->n_shards);
  return FALSE;
}
