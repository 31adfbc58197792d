/* komi-store-commit.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "komi-store-private.h"

/* Transactions, and when their commits reach the disk. */

/* BEGIN and COMMIT as cached statements: two or three transactions per
 * model call made parsing them a measurable part of a call's CPU. */
static gboolean
control (KomiStore *self, const char *sql, GError **error)
{
  KomiStoreStmt *stmt = _komi_store_prepare (self, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  rc = sqlite3_step (stmt);
  sqlite3_reset (stmt);
  if (rc == SQLITE_DONE)
    return TRUE;
  _komi_store_set_error (self, rc, error, self->writer ? _("Cannot write to the library")
                                                       : _("Cannot read the library"));
  return FALSE;
}

static gboolean transaction_locked (KomiStore        *self,
                                    gboolean          write,
                                    gint64            game_id,
                                    KomiStoreTxnFunc  func,
                                    gpointer          data,
                                    GError          **error);

/* A write here is durable when it returns: committed, then the log is
 * synced (outside the lock, so other games write meanwhile). */
gboolean
_komi_store_transaction (KomiStore        *self,
                         gboolean          write,
                         KomiStoreTxnFunc  func,
                         gpointer          data,
                         GError          **error)
{
  gboolean ok;

  g_mutex_lock (&self->mutex);
  ok = transaction_locked (self, write, 0, func, data, error);
  g_mutex_unlock (&self->mutex);
  if (!ok || !write)
    return ok;
  _komi_store_sync_note (self);
  return _komi_store_sync_now (self, error);
}

/* A move or a call attempt: committed (it survives the process being
 * killed at any moment) and synced by the flusher within half a second
 * (below), so a power cut takes back at most that much, which
 * resuming plays again. */
gboolean
_komi_store_transaction_unsynced (KomiStore        *self,
                                  KomiStoreTxnFunc  func,
                                  gpointer          data,
                                  GError          **error)
{
  gboolean ok;

  g_mutex_lock (&self->mutex);
  ok = transaction_locked (self, TRUE, 0, func, data, error);
  g_mutex_unlock (&self->mutex);
  if (ok)
    _komi_store_sync_note (self);
  return ok;
}

gboolean
_komi_store_game_transaction (KomiStore        *self,
                              gint64            game_id,
                              gboolean          synced,
                              KomiStoreTxnFunc  func,
                              gpointer          data,
                              GError          **error)
{
  gboolean ok;

  g_assert (game_id != 0);
  g_mutex_lock (&self->mutex);
  ok = transaction_locked (self, TRUE, game_id, func, data, error);
  g_mutex_unlock (&self->mutex);
  if (!ok)
    return FALSE;
  _komi_store_sync_note (self);
  return !synced || _komi_store_sync_now (self, error);
}

/* @game_id not 0: the game's answered attempt kept aside commits first,
 * in the same transaction, and is forgotten only once that commits. */
static gboolean
transaction_locked (KomiStore        *self,
                    gboolean          write,
                    gint64            game_id,
                    KomiStoreTxnFunc  func,
                    gpointer          data,
                    GError          **error)
{
  if (write && !self->writer)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_WRITE,
                   _("The library %s is open for reading only"), self->path);
      return FALSE;
    }
  /* IMMEDIATE takes the write lock first, so two writing processes wait
   * for each other instead of failing halfway through. */
  if (!control (self, write ? "BEGIN IMMEDIATE" : "BEGIN", error))
    return FALSE;
  if ((game_id == 0 || _komi_store_write_completed (self, game_id, error))
      && (func == NULL || func (self, data, error))
      && control (self, "COMMIT", error))
    {
      if (game_id != 0)
        _komi_store_forget_completed (self, game_id);
      return TRUE;
    }
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

gboolean
komi_store_sync (KomiStore *self, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return komi_store_flush_calls (self, KOMI_STORE_ALL_GAMES, error)
         && _komi_store_sync_now (self, error);
}

/* Group commit. The writer connection runs with synchronous=NORMAL in
 * WAL mode: a commit is written to the log (so kill -9 of the process
 * loses nothing committed) but not synced to the disk. Syncing every move
 * and every model call would cost more CPU than the rest of Komi and
 * block the game for a disk flush each time, so the log is synced here:
 *
 *  - by a flusher thread, at most KOMI_STORE_SYNC_INTERVAL_US after the
 *    oldest commit it has not synced (a power cut takes back at most the
 *    last half second of moves and call attempts);
 *  - at once, before the call returns, for the writes that close
 *    something (a series begun, a game started or finished, an event, an
 *    import) and when the store is closed (a run that ends, pauses or is
 *    interrupted).
 *
 * A sync is an fsync of the write-ahead log file (`PATH-wal`), made on a
 * descriptor of our own, outside the store's lock: SQLite holds no POSIX
 * lock on the log (its locks are on the database and `-shm` files), and
 * the log keeps its inode while the connection is open. Recovery after a
 * power cut replays the log's valid prefix of commits, so what survives
 * is always a consistent earlier state that resuming continues from. */

void
_komi_store_sync_init (KomiStore *self)
{
  g_mutex_init (&self->sync_lock);
  g_cond_init (&self->sync_cond);
  self->wal_fd = -1;
}

/* The caller holds sync_lock. */
static int
wal_fd_locked (KomiStore *self)
{
  if (self->wal_fd < 0)
    {
      g_autofree char *wal = g_strconcat (self->path, "-wal", NULL);

      self->wal_fd = g_open (wal, O_RDONLY | O_CLOEXEC, 0);
    }
  return self->wal_fd;
}

gboolean
_komi_store_sync_now (KomiStore *self, GError **error)
{
  guint64 upto;
  int fd, saved = 0;

  if (!self->writer)
    return TRUE;
  g_mutex_lock (&self->sync_lock);
  upto = self->commits;
  if (upto == self->synced && self->sync_errno == 0)
    {
      g_mutex_unlock (&self->sync_lock);
      return TRUE;
    }
  fd = wal_fd_locked (self);
  /* No log file: nothing was ever written to it, so nothing to sync. */
  if (fd < 0 && errno != ENOENT)
    saved = errno;
  g_mutex_unlock (&self->sync_lock);

  if (fd >= 0 && fsync (fd) != 0)
    saved = errno;

  g_mutex_lock (&self->sync_lock);
  if (saved == 0)
    {
      self->synced = MAX (self->synced, upto);
      self->sync_errno = 0;
      self->oldest_unsynced = self->synced == self->commits ? 0 : g_get_monotonic_time ();
    }
  else
    self->sync_errno = saved;
  g_mutex_unlock (&self->sync_lock);

  if (saved == 0)
    return TRUE;
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_WRITE,
               _("Cannot sync the library %s to the disk (%s): check the disk, then resume "
                 "the series"), self->path, g_strerror (saved));
  return FALSE;
}

void
_komi_store_sync_note (KomiStore *self)
{
  g_mutex_lock (&self->sync_lock);
  self->commits++;
  if (self->oldest_unsynced == 0)
    {
      self->oldest_unsynced = g_get_monotonic_time ();
      g_cond_signal (&self->sync_cond);
    }
  g_mutex_unlock (&self->sync_lock);
}

/* Sleeps until a commit is half a second old, syncs, and again. A failed
 * sync is kept in sync_errno: the next durable write reports it. */
static gpointer
flusher_main (gpointer data)
{
  KomiStore *self = data;

  g_mutex_lock (&self->sync_lock);
  while (!self->stopping)
    {
      gint64 due;

      if (self->oldest_unsynced == 0)
        {
          g_cond_wait (&self->sync_cond, &self->sync_lock);
          continue;
        }
      due = self->oldest_unsynced + KOMI_STORE_SYNC_INTERVAL_US;
      if (g_get_monotonic_time () < due)
        {
          g_cond_wait_until (&self->sync_cond, &self->sync_lock, due);
          continue;
        }
      g_mutex_unlock (&self->sync_lock);
      _komi_store_sync_now (self, NULL);
      g_mutex_lock (&self->sync_lock);
      /* A failed sync is retried at the next interval, not in a loop. */
      if (self->sync_errno != 0)
        self->oldest_unsynced = g_get_monotonic_time ();
    }
  g_mutex_unlock (&self->sync_lock);
  return NULL;
}

void
_komi_store_sync_start (KomiStore *self)
{
  g_assert (self->writer && self->flusher == NULL);
  self->flusher = g_thread_new ("komi-store-sync", flusher_main, self);
}

void
_komi_store_sync_stop (KomiStore *self)
{
  if (self->flusher != NULL)
    {
      g_mutex_lock (&self->sync_lock);
      self->stopping = TRUE;
      g_cond_signal (&self->sync_cond);
      g_mutex_unlock (&self->sync_lock);
      g_thread_join (g_steal_pointer (&self->flusher));
    }
  if (self->writer)
    _komi_store_sync_now (self, NULL);
  if (self->wal_fd >= 0)
    close (self->wal_fd);
  self->wal_fd = -1;
  g_mutex_clear (&self->sync_lock);
  g_cond_clear (&self->sync_cond);
}
