/* komi-series.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-match-game.h"
#include "komi-player-spec.h"
#include "komi-model-player.h"
#include "komi-provider.h"

G_BEGIN_DECLS

/* A series: one subject player against one or more ladder opponents, N
 * pairs of games each (one game with each colour), each pair shown in one
 * orientation. Defined by a JSON file (see the README); planned into an
 * ordered list of games whose seeds and orientations all derive from the
 * series seed, so an engine-only series re-run reproduces every game. */

#define KOMI_SERIES_ERROR (komi_series_error_quark ())
GQuark komi_series_error_quark (void);

typedef enum
{
  KOMI_SERIES_ERROR_FILE,       /* cannot read the file, or it is not JSON */
  KOMI_SERIES_ERROR_FIELD,      /* a field is missing or wrong: the message names it */
  KOMI_SERIES_ERROR_STORE,      /* the sink could not record something: play stopped */
} KomiSeriesError;

typedef struct
{
  char  *player;     /* a player spec: "random", "gnugo:1", "katago:50", "gtp:…" */
  guint  pairs;
} KomiSeriesOpponent;

typedef struct
{
  char              *name;
  guint              protocol;    /* 1 */
  char              *subject;     /* a player spec */
  GPtrArray         *opponents;   /* KomiSeriesOpponent* */
  guint64            seed;
  char              *referee;     /* "gnugo", "katago", "none" */
  guint              jobs;        /* games at once */
  double             budget_usd;  /* model calls stop before exceeding it; 0: none */
  KomiPlayerOptions  engines;     /* paths of GNU Go and KataGo, timeouts */
  GArray            *pair_order;  /* guint: the opponent of each pair, in the order they
                                   * are played (an adaptive series, which grows by
                                   * appending); NULL: per opponent, as listed */
  guint              shard;       /* this process plays shard @shard of @n_shards */
  guint              n_shards;    /* 0 or 1: the whole plan. Neither is part of the
                                   * definition: every shard is the same series */
  char              *canonical;   /* the definition as normalised JSON */
  char              *digest;      /* SHA-256 of @canonical: the same series run again */
} KomiSeries;

/* Reads and checks a series definition. Nothing else is done: a wrong or
 * missing field is an error naming the field and what is expected. */
KomiSeries *komi_series_new_from_json (const char  *text,
                                       gssize       length,
                                       GError     **error);
KomiSeries *komi_series_load          (const char  *path,
                                       GError     **error);
/* The same, with where the engines live when the definition does not say
 * (the application's settings): a file the definition names wins, then
 * @defaults, then the environment. @defaults may be NULL; its fields are
 * copied, and NULL or "" ones are left to the environment. */
KomiSeries *komi_series_new_from_json_with_engines (const char               *text,
                                                    gssize                    length,
                                                    const KomiPlayerOptions  *defaults,
                                                    GError                  **error);
KomiSeries *komi_series_load_with_engines          (const char               *path,
                                                    const KomiPlayerOptions  *defaults,
                                                    GError                  **error);
void        komi_series_free          (KomiSeries  *series);

typedef struct
{
  guint            index;          /* position in the plan */
  guint            opponent;       /* index into series->opponents */
  guint            pair;
  guint            game_in_pair;   /* 0: subject is Black; 1: subject is White */
  const char      *black;          /* player specs (owned by the series) */
  const char      *white;
  guint64          seed;
  KomiOrientation  orientation;
} KomiPlannedGame;

/* Every game of the series in a fixed order: per opponent, per pair (or
 * pair by pair in pair_order, when the series has one), the subject as
 * Black then as White. A pair's games, seeds and orientation depend only
 * on (opponent, pair), whichever order they are played in. Over every 8 consecutive pairs against
 * an opponent each orientation is used once, in an order drawn from the
 * series seed. */
GArray     *komi_series_plan          (const KomiSeries *series);
guint       komi_series_count_games   (const KomiSeries *series);

/* Shards: the plan split into @n_shards parts that separate processes (or
 * machines) play into libraries of their own, merged afterwards. A game
 * belongs to shard (its pair's place in the plan) mod @n_shards: a pair's
 * two games (both colours) stay together, pairs against each opponent and
 * so the orientations of its blocks of 8 are dealt round in turn, and
 * shards differ by at most one pair. The split depends only on the plan,
 * so it is the same in every process and on every resume. */
guint       komi_series_shard_of      (const KomiPlannedGame *game,
                                       guint                  n_shards);
/* The games of the plan that @series plays: all of them, or those of its
 * shard when series->n_shards > 1 (indices stay those of the whole plan). */
GArray     *komi_series_plan_to_play  (const KomiSeries *series);
/* Parses "K/N" (1 <= K <= N <= 4096) into @shard (from 0) and @n_shards;
 * FALSE with a message in the user's words otherwise. */
gboolean    komi_series_parse_shard   (const char       *text,
                                       guint            *shard,
                                       guint            *n_shards,
                                       GError          **error);

/* Where a series' games are recorded (the library implements it). Every
 * call comes from a worker thread, several at once, and returns only once
 * what it was given is committed (safe from a crash of the process) —
 * except a call attempt's response, which may wait for the game's next
 * call (see call_attempt). */
typedef struct _KomiSeriesSink KomiSeriesSink;

typedef struct
{
  /* Records the series and its plan, or finds them from an earlier run
   * (same digest); returns the series' id. */
  gboolean (*begin_series)  (KomiSeriesSink        *sink,
                             const KomiSeries      *series,
                             const GArray          *plan,
                             gint64                *series_id,
                             GError               **error);
  /* What is recorded of a planned game: *finished when it has ended
   * (finished or void); otherwise its committed moves, to resume from. */
  gboolean (*game_state)    (KomiSeriesSink        *sink,
                             const KomiPlannedGame *game,
                             gboolean              *finished,
                             GArray                *moves,
                             GError               **error);
  /* The players started: names, versions and settings are known. */
  gboolean (*game_started)  (KomiSeriesSink        *sink,
                             const KomiPlannedGame *game,
                             const KomiGameRecord  *record,
                             GError               **error);
  /* A move was played; committed when this returns. */
  gboolean (*move_played)   (KomiSeriesSink        *sink,
                             const KomiPlannedGame *game,
                             guint                  turn,
                             const KomiMove        *move,
                             GError               **error);
  gboolean (*game_finished) (KomiSeriesSink        *sink,
                             const KomiPlannedGame *game,
                             const KomiGameRecord  *record,
                             GError               **error);
  /* One HTTP attempt of a model player of @game, deciding move @turn,
   * reported twice: in flight just before it is sent, committed when this
   * returns; then complete (KomiProviderAttempt), which a sink may commit
   * with the game's next call instead (that call is what acts on it) or
   * at game_left. Attempts are numbered by the sink, after those already
   * recorded for the same turn and question, so a call resent after a
   * crash keeps both. */
  gboolean (*call_attempt)  (KomiSeriesSink            *sink,
                             const KomiPlannedGame     *game,
                             guint                      turn,
                             const KomiProviderAttempt *attempt,
                             GError                   **error);
  /* Optional: what is recorded of move @turn of @game, the next one to
   * decide (a game stopped while deciding it continues it): fills @state
   * (see KomiModelTurn), @state->turn 0 when nothing is. */
  gboolean (*turn_state)    (KomiSeriesSink            *sink,
                             const KomiPlannedGame     *game,
                             guint                      turn,
                             KomiModelTurn             *state,
                             GError                   **error);
  /* Optional: the worker is done with @game, whether it finished, paused,
   * failed or was cancelled; whatever was given for it is committed when
   * this returns. */
  gboolean (*game_left)     (KomiSeriesSink            *sink,
                             const KomiPlannedGame     *game,
                             GError                   **error);
  /* Optional: the run that begin_series began is over in an orderly way,
   * @how being "finished" (every game ended), "ended" (games left),
   * "stopped" (cancelled), "paused" or "error". Called once for each
   * begin_series that succeeded, whatever happened after it: a run with
   * no end_run is one whose process died. */
  gboolean (*end_run)       (KomiSeriesSink            *sink,
                             const char                *how,
                             GError                   **error);
} KomiSeriesSinkClass;

struct _KomiSeriesSink
{
  const KomiSeriesSinkClass *klass;
};

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiSeries, komi_series_free)

G_END_DECLS
