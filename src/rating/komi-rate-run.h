/* komi-rate-run.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-rate-plan.h"
#include "komi-series-runner.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* A subject rated against a frozen ladder at the least cost, played into
 * the library: one pair at a time against the rung the adaptive plan
 * chooses (komi-rate-plan.h), until it says stop. The games are an
 * ordinary series of the library whose pair_order grows pair by pair, so
 * a run killed at any moment continues, with the same games, when it is
 * run again with the same options. GTK-free and blocking: the CLI and the
 * application call it from a worker thread. */

typedef enum
{
  KOMI_RATE_RUN_CONTINUING,  /* an earlier run chose @pairs pairs */
  KOMI_RATE_RUN_CHOSEN,      /* pair @pairs goes to @rung */
  KOMI_RATE_RUN_RATED,       /* the pairs so far are played: @decision from them */
} KomiRateRunEventKind;

typedef struct
{
  KomiRateRunEventKind     kind;
  gint64                   series_id;  /* 0 before the series is in the library */
  guint                    pairs;      /* pairs chosen so far */
  guint                    rung;       /* with CHOSEN */
  const char              *label;      /* with CHOSEN: the rung's label */
  const KomiRateDecision  *decision;   /* with RATED */
  double                   spent;      /* US dollars the series' calls cost so far */
} KomiRateRunEvent;

/* Called on the thread that runs. */
typedef void (*KomiRateRunFunc) (const KomiRateRunEvent *event,
                                 gpointer                user_data);

/* The defaults of komi-cli rate and of a rating the application runs
 * (KOMI_RATE_RUN_OPTIONS_INIT): another seed is another series; two jobs
 * play a pair together. The plan's are KOMI_RATE_PLAN_OPTIONS_INIT's. */
#define KOMI_RATE_RUN_DEFAULT_SEED  1
#define KOMI_RATE_RUN_DEFAULT_JOBS  2

/* How to rate a subject. Only @subject must be set: every other field
 * has its default from KOMI_RATE_RUN_OPTIONS_INIT (NULL or 0 where none
 * is named). The callbacks and @pause are called or read on the thread
 * that runs; none is freed or kept past komi_rate_run(). */
typedef struct
{
  const char              *subject;        /* a player spec, e.g. "model:profile.json" */
  const char              *name;           /* the series' name; NULL: "Rating: SUBJECT
                                            * against …" */
  KomiRatePlanOptions      plan;           /* when to stop, which rung next */
  double                   budget_usd;     /* stop before a pair could spend more in all;
                                            * 0: none */
  guint64                  seed;           /* another seed is another series */
  const char              *referee;        /* NULL: the series' default */
  guint                    jobs;           /* games at once; 2 plays a pair together */
  const KomiPlayerOptions *engines;        /* where the engines live; NULL: the environment */
  KomiRateRunFunc          event_func;     /* or NULL: hears each choice and estimate */
  gpointer                 event_data;     /* for @event_func */
  KomiSeriesProgressFunc   progress_func;  /* or NULL: hears every game as the series
                                            * runner reports it */
  gpointer                 progress_data;  /* for @progress_func */
  KomiSeriesPause         *pause;          /* or NULL: holds play while on */
} KomiRateRunOptions;

/* The one initialiser of KomiRateRunOptions: every default above. */
#define KOMI_RATE_RUN_OPTIONS_INIT                                              \
  { .plan = KOMI_RATE_PLAN_OPTIONS_INIT, .seed = KOMI_RATE_RUN_DEFAULT_SEED,    \
    .jobs = KOMI_RATE_RUN_DEFAULT_JOBS }

/* Fills @options with KOMI_RATE_RUN_OPTIONS_INIT for @subject. */
void        komi_rate_run_options_init (KomiRateRunOptions       *options,
                                        const char               *subject);

/* How a rating ended. */
typedef struct
{
  KomiRateDecision last;       /* the last decision: why it stopped (KOMI_RATE_BUDGET when
                                * another pair could overspend the budget) and the
                                * estimate from every pair played */
  gint64           series_id;  /* the series in the library; 0: no pair was chosen */
  double           spent;      /* US dollars the series' calls cost, at the profiles' prices */
} KomiRateRunResult;

/* The series for @order (guint rungs, may be NULL: no pair yet), with a
 * budget of @budget_usd for its next run (0: none). Its digest does not
 * depend on @order. */
KomiSeries *komi_rate_run_series       (const KomiLadder         *ladder,
                                        const KomiRateRunOptions *options,
                                        const GArray             *order,
                                        double                    budget_usd,
                                        GError                  **error);

/* Rates @options->subject into @store through @sink until the plan stops,
 * then fills @result (may be NULL) and returns TRUE. FALSE with
 * G_IO_ERROR_CANCELLED when @cancellable was cancelled (the games in
 * flight keep their moves), or an error that stopped play; @result is
 * then left as it was. */
gboolean    komi_rate_run              (const KomiLadder         *ladder,
                                        const KomiRateRunOptions *options,
                                        KomiStore                *store,
                                        KomiSeriesSink           *sink,
                                        GCancellable             *cancellable,
                                        KomiRateRunResult        *result,
                                        GError                  **error);

G_END_DECLS
