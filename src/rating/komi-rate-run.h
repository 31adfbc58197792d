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

typedef struct
{
  const char              *subject;    /* a player spec, e.g. "model:profile.json" */
  const char              *name;       /* the series' name; NULL: "Rating: SUBJECT against …" */
  KomiRatePlanOptions      plan;
  double                   budget_usd; /* stop before a pair could spend more in all; 0: none */
  guint64                  seed;       /* another seed is another series */
  const char              *referee;    /* NULL: the series' default */
  guint                    jobs;       /* games at once; 2 plays a pair together */
  const KomiPlayerOptions *engines;    /* where the engines live; NULL: the environment */
} KomiRateRunOptions;

/* Fills @options for @subject: the plan's defaults, seed 1, 2 jobs. */
void        komi_rate_run_options_init (KomiRateRunOptions       *options,
                                        const char               *subject);

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

/* The series for @order (guint rungs, may be NULL: no pair yet), with a
 * budget of @budget_usd for its next run (0: none). Its digest does not
 * depend on @order. */
KomiSeries *komi_rate_run_series       (const KomiLadder         *ladder,
                                        const KomiRateRunOptions *options,
                                        const GArray             *order,
                                        double                    budget_usd,
                                        GError                  **error);

/* Rates the subject into @store through @sink until the plan stops
 * (@last says why and what the estimate is; KOMI_RATE_BUDGET when another
 * pair could overspend the budget). @progress (may be NULL) hears every
 * game as the series runner reports it; @pause (may be NULL) holds play.
 * FALSE with G_IO_ERROR_CANCELLED when @cancellable was cancelled (the
 * games in flight keep their moves), or an error that stopped play. */
gboolean    komi_rate_run              (const KomiLadder         *ladder,
                                        const KomiRateRunOptions *options,
                                        KomiStore                *store,
                                        KomiSeriesSink           *sink,
                                        KomiRateRunFunc           func,
                                        gpointer                  user_data,
                                        KomiSeriesProgressFunc    progress,
                                        gpointer                  progress_data,
                                        KomiSeriesPause          *pause,
                                        GCancellable             *cancellable,
                                        KomiRateDecision         *last,
                                        gint64                   *series_id,
                                        double                   *spent,
                                        GError                  **error);

G_END_DECLS
