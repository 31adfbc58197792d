/* komi-store.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-series.h"

G_BEGIN_DECLS

/* The library: one SQLite file of series, players, games, moves, model
 * call attempts and events (docs/library.md has the schema). A store opened
 * for writing holds the one writer connection and serialises every call
 * from any thread; each write is one transaction, committed when the call
 * returns (it survives the process being killed) — but for a call's
 * response given to komi_store_complete_call(), which commits with the
 * game's next write. Moves and call attempts
 * are synced to the disk in groups, within half a second; everything else
 * (a series, a game's start and end, events, imports) is synced before
 * the call returns, and so is everything when the store is closed.
 * Readers open their own read-only connection and see every committed
 * write. */

/* The schema this Komi writes; older files are migrated on open. */
#define KOMI_STORE_SCHEMA_VERSION 6

/* Outcomes of call attempts that the store itself writes: a request
 * recorded before it is sent, and one whose process died before the
 * response came (marked when its series is resumed). */
#define KOMI_STORE_OUTCOME_IN_FLIGHT   "in-flight"
#define KOMI_STORE_OUTCOME_INTERRUPTED "interrupted"

#define KOMI_STORE_ERROR (komi_store_error_quark ())
GQuark komi_store_error_quark (void);

typedef enum
{
  KOMI_STORE_ERROR_OPEN,         /* the file or its folder cannot be created or opened */
  KOMI_STORE_ERROR_NOT_LIBRARY,  /* not SQLite, another program's database, or damaged */
  KOMI_STORE_ERROR_NEWER,        /* written by a newer Komi */
  KOMI_STORE_ERROR_BUSY,         /* another program held the write lock too long */
  KOMI_STORE_ERROR_WRITE,        /* a write failed: disk full, I/O error, read-only store */
  KOMI_STORE_ERROR_NOT_FOUND,    /* no such library, series or game */
  KOMI_STORE_ERROR_CONFLICT,     /* what was given disagrees with what is recorded */
  KOMI_STORE_ERROR_INVALID,      /* a stored or imported record does not replay */
} KomiStoreError;

typedef enum
{
  KOMI_GAME_STATUS_PENDING = 0,  /* planned, not started */
  KOMI_GAME_STATUS_RUNNING,      /* started; its committed moves are the resume point */
  KOMI_GAME_STATUS_FINISHED,     /* two passes or the turn limit, counted */
  KOMI_GAME_STATUS_VOID,
  KOMI_GAME_STATUS_FORFEIT,
  KOMI_GAME_STATUS_IMPORTED,     /* brought in from an SGF file, for review */
} KomiGameStatus;

/* "pending", "running", "finished", "void", "forfeit", "imported". */
const char *komi_game_status_to_string   (KomiGameStatus  status);
gboolean    komi_game_status_from_string (const char     *text,
                                          KomiGameStatus *status);

typedef struct _KomiStore KomiStore;

/* Filters of komi_store_list_games(). */
#define KOMI_STORE_ALL_GAMES      ((gint64) -1)
#define KOMI_STORE_IMPORTED_GAMES ((gint64) 0)

typedef struct
{
  gint64   id;
  char    *name;
  guint    protocol;
  char    *digest;
  char    *definition;     /* the canonical JSON */
  guint64  seed;
  char    *subject;        /* player spec */
  char    *referee;
  char    *created;        /* ISO 8601, UTC */
  char    *updated;
  guint    n_games;
  guint    n_unfinished;   /* pending or running */
  guint    n_finished;
  guint    n_void;
  guint    n_forfeit;
} KomiStoreSeries;

typedef struct
{
  gint64           id;
  gint64           series_id;      /* 0 for imported games */
  char            *series_name;
  guint            protocol;       /* 0 for imported games */
  gint             plan_index;     /* -1 for imported games */
  guint            opponent;
  guint            pair;
  guint            game_in_pair;
  KomiColor        subject;        /* KOMI_EMPTY for imported games */
  char            *black_spec;
  char            *white_spec;
  char            *black_name;     /* "GNU Go 3.8"; NULL until started */
  char            *white_name;
  guint64          seed;
  guint64          black_seed;
  guint64          white_seed;
  KomiOrientation  orientation;
  guint            size;
  double           komi;
  guint            max_turns;      /* 0: no limit (imported games) */
  KomiGameStatus   status;
  KomiEndReason    end_reason;
  char            *result;         /* SGF RE as recorded; NULL when none */
  gboolean         has_winner;     /* winner is known (a draw counts) */
  KomiColor        winner;         /* KOMI_EMPTY with has_winner: a draw */
  double           margin;         /* NAN when not known (resignation, forfeit) */
  gboolean         counted;        /* score holds the parts of our area count */
  KomiScore        score;          /* owner[] is filled by load only */
  char            *referee;
  char            *void_reason;
  KomiColor        faulty;
  char            *date;           /* YYYY-MM-DD */
  char            *started;        /* ISO 8601, UTC */
  char            *finished;
  double           seconds;
  guint            n_moves;
  char            *source;         /* imported: the file it came from */
  guint            n_calls;        /* model call attempts recorded for the game */
  double           cost_usd;       /* their cost at the profiles' prices; NAN when no call
                                    * of the game reported one */
  /* Filled by komi_store_load_game() only; NULL in listings. */
  char            *black_settings;
  char            *white_settings;
  char            *event;          /* imported: EV */
  char            *ruleset;        /* imported: RU */
  GArray          *moves;          /* KomiMove, in turn order */
  GArray          *dead;           /* KomiPoint */
  guint8          *setup;          /* size * size colours; NULL: empty board */
} KomiStoreGame;

/* One attempt of one call to a model: the one record of it after the
 * provider (KomiProviderAttempt). Strings are NULL when unknown; when
 * read back (komi_store_foreach_call) they point into the row and live
 * until the callback returns; a komi_store_call_copy() owns them. */
typedef struct
{
  gint64       id;                 /* filled on reading */
  gint64       game_id;            /* filled on reading */
  gint64       series_id;          /* filled on reading; 0: imported game */
  guint        turn;               /* the move number being decided, from 1 */
  const char  *question;           /* "play_or_pass", "best_point" */
  guint        attempt;            /* from 1; 0 on writing: the next number */
  const char  *started;            /* ISO 8601; NULL on writing: now */
  const char  *request_url;
  const char  *request_headers;    /* JSON object text, secrets redacted */
  const char  *request_body;
  gint         response_status;    /* 0: no response (transport fault) */
  const char  *response_headers;   /* JSON object text */
  GBytes      *response_body;      /* the raw bytes */
  double       latency_ms;
  gint64       tokens_input;       /* -1: not reported */
  gint64       tokens_output;
  gint64       tokens_reasoning;
  gint64       tokens_cached;
  const char  *model_version;
  const char  *finish_reason;
  const char  *answer;             /* the option chosen, as validated */
  const char  *outcome;            /* komi_provider_outcome_to_string(); NULL on writing: "ok" */
  const char  *error;
  /* Schema 2. Read back as NULL, FALSE and -1 from attempts of schema 1. */
  const char  *system_fingerprint;
  const char  *response_id;        /* the provider's id of its response */
  gboolean     model_mismatch;     /* model_version is not the pinned model */
  gboolean     logprobs_requested;
  const char  *option_probabilities;  /* JSON object text {"option": p, …} */
  double       retry_delay;        /* seconds waited before the next attempt; < 0: none */
  /* Schema 3. */
  double       cost_usd;           /* at the profile's prices when it was made; < 0: unknown */
  /* Schema 6; ignored on writing (the store settles it with the move). */
  gint         decided;            /* 1: its answer decided the move; 0: it decided nothing;
                                    * -1: not known yet (the turn is open) */
} KomiStoreCall;

/* A copy of @call that owns its strings and a copy of its response body,
 * to free with komi_store_call_free(): an attempt kept after the
 * callback that gave it returns. */
KomiStoreCall   *komi_store_call_copy        (const KomiStoreCall *call);
/* The same without the exchange itself (request URL, headers and body,
 * response headers and body, left NULL): what a list of attempts shows. */
KomiStoreCall   *komi_store_call_copy_brief  (const KomiStoreCall *call);
void             komi_store_call_free        (KomiStoreCall       *call);

typedef gboolean (*KomiStoreCallFunc) (const KomiStoreCall *call,
                                       gpointer             user_data,
                                       GError             **error);

/* Results against one opponent with the subject on one colour. Wins,
 * losses, draws and the mean margin (the subject's view) count games that
 * ended by two passes; the others are counted apart. */
typedef struct
{
  gint64     series_id;
  guint      opponent;
  char      *opponent_spec;
  KomiColor  subject;
  guint      games;
  guint      wins;
  guint      losses;
  guint      draws;
  double     mean_margin;          /* NAN when no game counts */
  guint      turn_limit;           /* counted games that reached the turn limit */
  guint      voids;
  guint      forfeits;
  guint      unfinished;
} KomiStoreSummary;

/* $XDG_DATA_HOME/komi/library.db */
char            *komi_store_default_path     (void);

/* Opens @path for writing (creating it and its folder), migrating an older
 * schema; refuses a file of a newer Komi or of another program. */
KomiStore       *komi_store_open             (const char        *path,
                                              GError           **error);
/* Opens an existing library read-only, on a connection of its own. */
KomiStore       *komi_store_open_reader      (const char        *path,
                                              GError           **error);
/* Opens a library that someone else made (a shard sent by another lab, a
 * published library) as untrusted input: read-only, with SQLite's
 * defensive settings, no trusted schema and no extension loading; refused
 * (KOMI_STORE_ERROR_NOT_LIBRARY, saying why) unless it passes SQLite's
 * quick check and its schema is exactly the one Komi writes at its version
 * (no trigger, no view, nothing changed). An older schema is opened as it
 * is, never upgraded: komi_store_get_schema_version() tells. */
KomiStore       *komi_store_open_foreign     (const char        *path,
                                              GError           **error);
/* PRAGMA user_version of the store's file. */
guint            komi_store_get_schema_version (KomiStore       *self);
KomiStore       *komi_store_ref              (KomiStore         *self);
void             komi_store_unref            (KomiStore         *self);
const char      *komi_store_get_path         (KomiStore         *self);
gboolean         komi_store_is_writer        (KomiStore         *self);

/* Writing. Each call is one transaction, committed when it returns. */

/* Records @series and every game of @plan as pending, or finds the series
 * recorded under the same digest (a resume) and checks its plan. */
gboolean         komi_store_begin_series     (KomiStore         *self,
                                              const KomiSeries  *series,
                                              const GArray      *plan,
                                              gint64            *series_id,
                                              GError           **error);
gboolean         komi_store_find_game        (KomiStore         *self,
                                              gint64             series_id,
                                              guint              plan_index,
                                              gint64            *game_id,
                                              GError           **error);
/* The game's status and, into @moves (KomiMove) when given, its committed
 * moves in order. */
gboolean         komi_store_get_game_state   (KomiStore         *self,
                                              gint64             game_id,
                                              KomiGameStatus    *status,
                                              GArray            *moves,
                                              GError           **error);
/* The players started: names, versions, settings and seeds of @record. */
gboolean         komi_store_start_game       (KomiStore         *self,
                                              gint64             game_id,
                                              const KomiGameRecord *record,
                                              GError           **error);
/* Move number @turn (the first move is 1); moves arrive in order, and a
 * move already recorded identically is accepted again (replays). */
gboolean         komi_store_add_move         (KomiStore         *self,
                                              gint64             game_id,
                                              guint              turn,
                                              const KomiMove    *move,
                                              GError           **error);
/* Everything of the finished, void or forfeited @record; moves not yet
 * recorded are added from it. */
gboolean         komi_store_finish_game      (KomiStore         *self,
                                              gint64             game_id,
                                              const KomiGameRecord *record,
                                              GError           **error);
/* @game_id 0: an event of the library itself. */
gboolean         komi_store_add_event        (KomiStore         *self,
                                              gint64             game_id,
                                              const char        *kind,
                                              const char        *detail,
                                              GError           **error);
/* A run of series @series_id begins in this process: it takes the
 * series' lock (KOMI_STORE_ERROR_BUSY when another process is running it
 * now) and records a "run-start" event. @lock_fd receives the lock, which
 * komi_store_end_run() gives back; the kernel drops it if the process dies. */
gboolean         komi_store_begin_run        (KomiStore         *self,
                                              gint64             series_id,
                                              int               *lock_fd,
                                              GError           **error);
/* The same for shard @shard (from 0) of @n_shards (> 1; otherwise the
 * whole series): the "run-start" event names it ("shard": "K/N"). */
gboolean         komi_store_begin_shard_run  (KomiStore         *self,
                                              gint64             series_id,
                                              guint              shard,
                                              guint              n_shards,
                                              int               *lock_fd,
                                              GError           **error);
/* A library that has run a shard of @series goes on with that shard:
 * when @series names no shard it takes the library's; a different shard
 * is KOMI_STORE_ERROR_CONFLICT (each shard has a library of its own). */
gboolean         komi_store_keep_shard       (KomiStore         *self,
                                              KomiSeries        *series,
                                              GError           **error);
/* Whether a process holds series @series_id's run lock right now. */
gboolean         komi_store_run_is_live      (KomiStore         *self,
                                              gint64             series_id);
/* How far a series of the library is: for a shard, how far the shard is. */
typedef struct
{
  guint     total;     /* games the library planned (a shard's: its own) */
  guint     ended;     /* finished, void or forfeit */
  guint     running;
  double    seconds;   /* from the first game's start to the last game's end; 0: none */
  char     *shard;     /* "K/N" of its last run, NULL: not a shard */
  gboolean  live;      /* a process is running it now */
} KomiStoreProgress;

gboolean         komi_store_get_progress     (KomiStore         *self,
                                              gint64             series_id,
                                              KomiStoreProgress *progress,
                                              GError           **error);
void             komi_store_progress_clear   (KomiStoreProgress *progress);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiStoreProgress, komi_store_progress_clear)

/* What komi_store_merge() did with one source library. */
typedef struct
{
  gint64   series_id;    /* the (first) series merged, in the destination */
  guint    added;        /* ended games brought in */
  guint    present;      /* ended games the destination had already */
  guint    unfinished;   /* games the source has not ended: left for a later merge */
  guint    events;       /* run events brought in */
  guint    refused;      /* ended games left out (komi_store_merge_except) */
  gboolean live;         /* a process is running a series of the source right now */
} KomiStoreMergeReport;

/* Brings the ended games of every series of the library @source_path
 * (shards: komi-cli run --shard) into the library @dest_path (made when
 * missing), with their moves, call attempts, analysis and events, in one
 * transaction: the series is found by its digest or recorded, players by
 * spec, name and version. A game the destination has ended already is
 * left as it is, so merging the same source again adds nothing; games the
 * source has not ended are counted and left for a later merge. The
 * source's run events come once it has ended every game and no process
 * runs it. Which series may be merged together is the caller's to check. */
gboolean         komi_store_merge            (const char            *dest_path,
                                              const char            *source_path,
                                              KomiStoreMergeReport  *report,
                                              GError               **error);
/* The same, leaving out the source's games whose ids are in @except
 * (gint64; may be NULL): merge --verify leaves out the games that do not
 * verify. They are counted in @report->refused, and they do not hold back
 * the source's run events. */
gboolean         komi_store_merge_except     (const char            *dest_path,
                                              const char            *source_path,
                                              const GArray          *except,
                                              KomiStoreMergeReport  *report,
                                              GError               **error);
/* The run ended in an orderly way, @how: "finished", "ended" (returned
 * with games unplayed), "stopped", "paused", "error", or "dismissed" (a
 * user chose not to continue a run that died). Records "run-end", then
 * closes @lock_fd (-1: none). */
gboolean         komi_store_end_run          (KomiStore         *self,
                                              gint64             series_id,
                                              int                lock_fd,
                                              const char        *how,
                                              GError           **error);
/* The series whose last run started and never ended (no "run-end") while
 * no process holds its lock: runs killed or crashed, to offer to continue.
 * Ids (gint64) in the order their runs first appear; any store, reader
 * included. Whether games are left is the caller's to check. */
GArray          *komi_store_list_interrupted (KomiStore         *self,
                                              GError           **error);
/* One attempt, request and response at once; with @call->attempt 0 the
 * store numbers it after those of the same game, turn and question
 * already recorded (a call resent after a crash keeps both). Moves and
 * attempts are committed when the call returns and synced within half a
 * second. */
gboolean         komi_store_add_call         (KomiStore         *self,
                                              gint64             game_id,
                                              const KomiStoreCall *call,
                                              GError           **error);
/* An attempt about to be sent: its request half (URL, headers, body,
 * started, logprobs_requested) with outcome KOMI_STORE_OUTCOME_IN_FLIGHT,
 * numbered as komi_store_add_call() does; @call_id receives its row. */
gboolean         komi_store_begin_call       (KomiStore         *self,
                                              gint64             game_id,
                                              const KomiStoreCall *call,
                                              gint64            *call_id,
                                              GError           **error);
/* Completes the row of komi_store_begin_call() with the response half of
 * @call (status onwards) and its outcome. */
gboolean         komi_store_finish_call      (KomiStore         *self,
                                              gint64             call_id,
                                              const KomiStoreCall *call,
                                              GError           **error);
/* Keeps the response half of @call for the row @call_id of @game_id in
 * flight, copied, and writes it in the same transaction as the game's
 * next write (komi_store_begin_call, komi_store_add_call,
 * komi_store_add_move, komi_store_start_game, komi_store_finish_game) or
 * komi_store_flush_calls(): one commit for the response and what follows
 * from it. Until then the library shows the row in flight, and a kill
 * leaves it so (resuming sends the call again). */
gboolean         komi_store_complete_call    (KomiStore         *self,
                                              gint64             game_id,
                                              gint64             call_id,
                                              const KomiStoreCall *call,
                                              GError           **error);
/* Commits the responses kept by komi_store_complete_call() for @game_id
 * (or KOMI_STORE_ALL_GAMES); no transaction when there are none. A game
 * that stops (paused, failed, cancelled) calls this; komi_store_sync()
 * and closing the store do it for every game. */
gboolean         komi_store_flush_calls      (KomiStore         *self,
                                              gint64             game_id,
                                              GError           **error);
/* What the library holds of @turn of @game_id, for a resumed game to
 * continue that turn: per question, the accepted answer and the model
 * faults (refusal, truncated, filtered, invalid option) recorded. */
gboolean         komi_store_load_turn        (KomiStore         *self,
                                              gint64             game_id,
                                              guint              turn,
                                              KomiModelTurn     *state,
                                              GError           **error);
/* Commits the kept responses, then syncs everything committed so far to
 * the disk before it returns (a pause, the end of a run; closing the
 * store does it too). */
gboolean         komi_store_sync             (KomiStore         *self,
                                              GError           **error);
/* Bulk path: the finished @records (KomiGameRecord*) of the games of
 * @plan (same order) of a begun series, in one transaction. */
gboolean         komi_store_add_records      (KomiStore         *self,
                                              gint64             series_id,
                                              const GArray      *plan,
                                              GPtrArray         *records,
                                              GError           **error);

/* Reading. */

GPtrArray       *komi_store_list_series      (KomiStore         *self,
                                              GError           **error);
KomiStoreSeries *komi_store_load_series      (KomiStore         *self,
                                              gint64             series_id,
                                              GError           **error);
/* Every game of @series_id (or KOMI_STORE_ALL_GAMES, or
 * KOMI_STORE_IMPORTED_GAMES) with its result, in plan order, by one query. */
GPtrArray       *komi_store_list_games       (KomiStore         *self,
                                              gint64             series_id,
                                              GError           **error);
/* Fills the players' recorded settings (black_settings, white_settings)
 * of the games of a listing, by one query: what the rating layer checks
 * against the shipped ladder's identity pins. */
gboolean         komi_store_fill_settings    (KomiStore         *self,
                                              GPtrArray         *games,
                                              GError           **error);
/* One game with its settings, moves, dead stones and area owners. */
KomiStoreGame   *komi_store_load_game        (KomiStore         *self,
                                              gint64             game_id,
                                              GError           **error);
/* Per opponent and subject colour, in opponent order. */
GArray          *komi_store_summarize        (KomiStore         *self,
                                              gint64             series_id,
                                              GError           **error);
/* Calls @func on every call attempt of @series_id (or all), in game, turn
 * and attempt order, streaming: nothing is kept in memory. */
gboolean         komi_store_foreach_call     (KomiStore         *self,
                                              gint64             series_id,
                                              KomiStoreCallFunc  func,
                                              gpointer           user_data,
                                              GError           **error);
/* The same for the attempts of one game, in turn and attempt order. */
gboolean         komi_store_foreach_game_call (KomiStore        *self,
                                              gint64             game_id,
                                              KomiStoreCallFunc  func,
                                              gpointer           user_data,
                                              GError           **error);

/* Engine review (schema 5): one analysis per game, replaced when the game
 * is analysed again. Leads are in points from the mover's view (positive:
 * the side that played the move leads); NAN when the engine gave none. */
typedef struct
{
  guint      turn;          /* from 1 */
  KomiColor  color;
  KomiPoint  point;         /* KOMI_PASS for a pass */
  double     lead_before;   /* the position before the move, mover to play */
  double     lead_after;    /* the position after it, the opponent to play */
  double     loss;          /* max (0, before - after); 0 for the engine's own choice */
  KomiPoint  best;          /* the engine's move before it; KOMI_NO_POINT: none given */
} KomiStoreAnalysisMove;

typedef struct
{
  gint64   game_id;
  char    *engine;          /* "GNU Go", "KataGo" */
  char    *engine_version;  /* "3.8" */
  char    *label;           /* shown with every number: "GNU Go estimate", "KataGo" */
  char    *settings;        /* JSON object text: level or visits, commands used */
  double   mistake;         /* thresholds in points of loss */
  double   blunder;
  char    *created;         /* ISO 8601, UTC; filled on reading */
  double   seconds;         /* how long the analysis took */
  GArray  *moves;           /* KomiStoreAnalysisMove, in turn order */
} KomiStoreAnalysis;

typedef enum
{
  KOMI_MOVE_CLASS_GOOD = 0,
  KOMI_MOVE_CLASS_MISTAKE,  /* lost at least the mistake threshold */
  KOMI_MOVE_CLASS_BLUNDER,  /* lost at least the blunder threshold */
} KomiMoveClass;

KomiStoreAnalysis *komi_store_analysis_new   (void);
void             komi_store_analysis_free    (KomiStoreAnalysis *analysis);
/* The class of @move under @analysis' thresholds. */
KomiMoveClass    komi_store_analysis_classify (const KomiStoreAnalysis     *analysis,
                                               const KomiStoreAnalysisMove *move);
/* "mistake", "blunder", "" */
const char      *komi_move_class_to_string   (KomiMoveClass      move_class);
/* Replaces the analysis of @analysis->game_id with @analysis; its moves
 * must be the game's recorded moves (KOMI_STORE_ERROR_CONFLICT otherwise). */
gboolean         komi_store_put_analysis     (KomiStore         *self,
                                              const KomiStoreAnalysis *analysis,
                                              GError           **error);
/* The stored analysis of @game_id, or NULL without an error when there is
 * none. */
KomiStoreAnalysis *komi_store_load_analysis  (KomiStore         *self,
                                              gint64             game_id,
                                              GError           **error);

/* A loaded game as a record again: the moves replayed under our rules, the
 * area recounted with the stored dead stones. */
KomiGameRecord  *komi_store_game_to_record   (const KomiStoreGame *game,
                                              GError           **error);

void             komi_store_series_free      (KomiStoreSeries   *series);
void             komi_store_game_free        (KomiStoreGame     *game);
void             komi_store_summary_clear    (KomiStoreSummary  *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiStore, komi_store_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiStoreSeries, komi_store_series_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiStoreGame, komi_store_game_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiStoreCall, komi_store_call_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiStoreAnalysis, komi_store_analysis_free)

G_END_DECLS
