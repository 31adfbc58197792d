/* komi-store-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "komi-store.h"

G_BEGIN_DECLS

/* "Komi" in ASCII: PRAGMA application_id of every library. */
#define KOMI_STORE_APPLICATION_ID 0x4b6f6d69

/* The writer's page cache, and the bulk path's (PRAGMA cache_size, in KiB
 * when negative). */
#define KOMI_STORE_CACHE_KIB      "-2048"
#define KOMI_STORE_BULK_CACHE_KIB "-65536"

/* The time of a row, written by SQLite itself: 2026-03-14T09:26:53.589Z */
#define KOMI_STORE_NOW "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

struct _KomiStore
{
  gint         ref_count;
  /* Every use of @db and of the cached statements holds this lock: worker
   * threads write at once, and SQLite connections are not to be shared
   * between threads mid-statement. */
  GMutex       mutex;
  sqlite3     *db;
  char        *path;
  gboolean     writer;
  GHashTable  *statements;   /* SQL text (a static string) -> sqlite3_stmt */
  /* game id -> its answered attempt not yet committed (komi-store-calls.c),
   * written by the game's next transaction; NULL until the first. */
  GHashTable  *completed;

  /* Group commit (komi-store-commit.c), under @sync_lock: commits are
   * counted, and a commit is durable once a sync begun after it ends. */
  GMutex       sync_lock;
  GCond        sync_cond;
  GThread     *flusher;
  int          wal_fd;          /* the write-ahead log, for fsync; -1 until opened */
  guint64      commits;         /* commits made by this connection */
  guint64      synced;          /* commits known to be on the disk */
  gint64       oldest_unsynced; /* monotonic time of the oldest commit not synced; 0: none */
  int          sync_errno;      /* the last failed sync's errno, reported by the next sync */
  gboolean     stopping;
};

/* A cached statement: reset, not finalised, when it goes out of scope, so
 * no read transaction is left open by a forgotten reset. */
typedef sqlite3_stmt KomiStoreStmt;

static inline void
_komi_store_stmt_release (KomiStoreStmt *stmt)
{
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiStoreStmt, _komi_store_stmt_release)

typedef struct
{
  guint       version;
  const char *sql;
} KomiStoreMigration;

typedef gboolean (*KomiStoreTxnFunc) (KomiStore  *self,
                                      gpointer    data,
                                      GError    **error);

/* komi-store.c */

/* The statement for @sql (which must be a static string), prepared once
 * per connection. The caller holds the lock. */
KomiStoreStmt *_komi_store_prepare        (KomiStore     *self,
                                           const char    *sql,
                                           GError       **error);
/* Steps a statement that returns no row. */
gboolean       _komi_store_step_done      (KomiStore     *self,
                                           KomiStoreStmt *stmt,
                                           GError       **error);
/* Sets @error from the connection's last error, prefixed with @what. */
void           _komi_store_set_error      (KomiStore     *self,
                                           int            rc,
                                           GError       **error,
                                           const char    *what);
/* A connection to @path (read-only unless @writer), nothing set on it yet. */
KomiStore     *_komi_store_open_connection (const char    *path,
                                            gboolean       writer,
                                            GError       **error);
/* The settings every connection needs (a reader's: query_only). */
gboolean       _komi_store_configure      (KomiStore     *self,
                                           GError       **error);
/* komi-store-foreign.c */

/* Sets SQLite's defences against a crafted file on @db: defensive mode,
 * no trust in the schema's functions, no extension loading. */
gboolean       _komi_store_defend         (sqlite3       *db);
/* NULL when @db's schema @schema ("main", "src") is exactly the one the
 * migrations make at its version, or what is wrong with it, in words. */
char          *_komi_store_schema_problem (sqlite3       *db,
                                           const char    *schema,
                                           guint          version);

/* komi-store-commit.c: transactions */

/* Runs @func under the lock, inside one transaction (BEGIN IMMEDIATE for
 * @write, a read snapshot otherwise), committed when it returns TRUE and
 * rolled back otherwise. */
gboolean       _komi_store_transaction    (KomiStore       *self,
                                           gboolean         write,
                                           KomiStoreTxnFunc func,
                                           gpointer         data,
                                           GError         **error);
gboolean       _komi_store_transaction_unsynced (KomiStore        *self,
                                                 KomiStoreTxnFunc  func,
                                                 gpointer          data,
                                                 GError          **error);
/* A write of @game_id's rows (KOMI_STORE_ALL_GAMES: of the whole library):
 * the same transaction first completes the game's answered attempt kept
 * by komi_store_complete_call(), so the two commit together. @synced as
 * _komi_store_transaction(), else as _komi_store_transaction_unsynced(). */
gboolean       _komi_store_game_transaction (KomiStore        *self,
                                             gint64            game_id,
                                             gboolean          synced,
                                             KomiStoreTxnFunc  func,
                                             gpointer          data,
                                             GError          **error);

/* komi-store-commit.c: group commit */

/* The longest a commit waits for its sync: what a power cut can take back. */
#define KOMI_STORE_SYNC_INTERVAL_US (G_USEC_PER_SEC / 2)

void           _komi_store_sync_init      (KomiStore     *self);
/* Starts the flusher of a writer; its log is synced by it from now on. */
void           _komi_store_sync_start     (KomiStore     *self);
/* A commit was made without a sync: the flusher syncs it within
 * KOMI_STORE_SYNC_INTERVAL_US. */
void           _komi_store_sync_note      (KomiStore     *self);
/* Syncs every commit made so far to the disk before it returns. Called
 * without the store's lock, so other threads write meanwhile. */
gboolean       _komi_store_sync_now       (KomiStore     *self,
                                           GError       **error);
/* Stops the flusher and syncs what is left (the store is closing). */
void           _komi_store_sync_stop      (KomiStore     *self);

/* komi-store-schema.c */

/* The migrations of this Komi, in order. */
const KomiStoreMigration *_komi_store_get_migrations (guint *n_migrations);
/* Brings @db (a writable connection) up to the last of @migrations, each
 * in a transaction of its own with its PRAGMA user_version. */
gboolean       _komi_store_migrate        (sqlite3                  *db,
                                           const char               *path,
                                           const KomiStoreMigration *migrations,
                                           guint                     n_migrations,
                                           GError                  **error);
/* Refuses a database of another program or of a newer Komi; @version
 * receives its schema version. */
gboolean       _komi_store_check_version  (sqlite3                  *db,
                                           const char               *path,
                                           guint                     newest,
                                           guint                    *version,
                                           GError                  **error);

/* komi-store-write.c */

#define KOMI_STORE_SEED_LEN 24

/* 64-bit seeds as decimal text: SQLite integers are signed. */
const char    *_komi_store_seed_text      (guint64        seed,
                                           char           buf[KOMI_STORE_SEED_LEN]);
guint64        _komi_store_seed_parse     (const char    *text);
/* Binds @text (copied), or NULL. */
void           _komi_store_bind_text      (KomiStoreStmt *stmt,
                                           int            index,
                                           const char    *text);

/* What every write needs to know of a game first. */
typedef struct
{
  KomiGameStatus status;
  guint          n_moves;       /* its last turn in the moves table */
  guint          size;
  char          *black_spec;
  char          *white_spec;
} KomiStoreGameRow;

void           _komi_store_game_row_clear (KomiStoreGameRow *row);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiStoreGameRow, _komi_store_game_row_clear)

gboolean       _komi_store_get_game_row   (KomiStore        *self,
                                           gint64            game_id,
                                           KomiStoreGameRow *row,
                                           GError          **error);
/* The stored moves of a game, in order, appended to @moves (KomiMove). */
gboolean       _komi_store_read_moves     (KomiStore   *self,
                                           gint64       game_id,
                                           guint        size,
                                           GArray      *moves,
                                           GError     **error);
/* Inserts one move row; the caller inserts turns in order from 1, so a
 * game's last turn stays its number of moves. */
gboolean       _komi_store_insert_move    (KomiStore      *self,
                                           gint64          game_id,
                                           guint           size,
                                           guint           turn,
                                           const KomiMove *move,
                                           GError        **error);
/* Inserts (or finds) the player of @spec with the label @label ("GNU Go
 * 3.8"); @kind NULL derives it from the spec. */
gboolean       _komi_store_upsert_player  (KomiStore   *self,
                                           const char  *spec,
                                           const char  *kind,
                                           const char  *label,
                                           gint64      *player_id,
                                           GError     **error);
/* @game_id 0: an event of the library itself. */
gboolean       _komi_store_insert_event   (KomiStore   *self,
                                           gint64       game_id,
                                           const char  *kind,
                                           const char  *detail,
                                           GError     **error);

/* komi-store-calls.c */

/* Writes the kept answered attempt of @game_id (of every game for
 * KOMI_STORE_ALL_GAMES), if any, into its row; the caller holds the
 * transaction and forgets them once it commits. */
gboolean       _komi_store_write_completed  (KomiStore  *self,
                                             gint64      game_id,
                                             GError    **error);
void           _komi_store_forget_completed (KomiStore  *self,
                                             gint64      game_id);

/* Says of each attempt of turns @first…@last of @game_id not yet settled
 * whether it decided the turn's move (calls.decided): a turn with a move
 * was decided by the accepted answer of each question it asked (the
 * latest, should a library written before schema 6 hold two; best_point
 * only when the move is not a pass); every other attempt of a turn that
 * is over decided nothing. The caller holds the transaction, and calls
 * this once the turn's move, or the game's end, is written. */
gboolean       _komi_store_settle_calls    (KomiStore  *self,
                                            gint64      game_id,
                                            guint       first,
                                            guint       last,
                                            GError    **error);

/* Marks the attempts left in flight in @series_id's games interrupted. */
gboolean       _komi_store_interrupt_calls (KomiStore  *self,
                                            gint64      series_id,
                                            GError    **error);

/* Text forms stored in the database. */
const char    *_komi_store_color_code     (KomiColor      color);   /* "B", "W", NULL */
KomiColor      _komi_store_color_parse    (const char    *code);
const char    *_komi_store_end_code       (KomiEndReason  reason);  /* "two-passes"… */
KomiEndReason  _komi_store_end_parse      (const char    *code);
gboolean       _komi_store_orientation_parse (const char      *text,
                                              KomiOrientation *orientation);
/* Protocol names separated by spaces, "" when none. */
char          *_komi_store_points_to_text (guint            size,
                                           const KomiPoint *points,
                                           guint            n_points);
gboolean       _komi_store_points_parse   (guint            size,
                                           const char      *text,
                                           GArray          *points);

G_END_DECLS
