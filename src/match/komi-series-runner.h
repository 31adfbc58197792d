/* komi-series-runner.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-series.h"
#include "komi-series-pause.h"

G_BEGIN_DECLS

/* Plays a series' games on a pool of worker threads, @jobs at once, each
 * game owning its engine processes, every step recorded through a sink.
 * Games the sink reports finished are skipped; unfinished ones resume from
 * their last committed move. */

typedef struct
{
  guint   total;      /* games in the series */
  guint   done;       /* ended, in this run or an earlier one */
  guint   running;
  double  elapsed;    /* seconds since this run started, time paused not counted */
  double  eta;        /* seconds left, estimated; < 0 when unknown */
  double  cost;       /* US dollars spent on model calls in this run */
  guint   calls;      /* model call attempts in this run */
} KomiSeriesProgress;

/* Called from a worker thread (serialised: one call at a time) when a game
 * starts (@record NULL) and when it ends. */
typedef void (*KomiSeriesProgressFunc) (const KomiSeriesProgress *progress,
                                        const KomiPlannedGame    *game,
                                        const KomiGameRecord     *record,
                                        gpointer                  user_data);

typedef struct
{
  gint64     series_id;
  guint      played;       /* games played to their end in this run */
  guint      skipped;      /* already ended before this run */
  guint      resumed;      /* continued from committed moves */
  GPtrArray *records;      /* KomiGameRecord* of the games played in this run */
  double     cost;         /* US dollars spent on model calls in this run */
  guint      calls;        /* model call attempts in this run */
} KomiSeriesResult;

/* Runs the series to its end, or until @cancellable is cancelled (the
 * games in flight stop where they are and resume next time). An error
 * means play stopped: a player that cannot start, or a sink that cannot
 * record. */
KomiSeriesResult *komi_series_run          (const KomiSeries       *series,
                                            KomiSeriesSink         *sink,
                                            guint                   jobs,
                                            KomiSeriesProgressFunc  progress,
                                            gpointer                user_data,
                                            GCancellable           *cancellable,
                                            GError                **error);
/* The same, held between moves while @pause (may be NULL) is on. */
KomiSeriesResult *komi_series_run_pausable (const KomiSeries       *series,
                                            KomiSeriesSink         *sink,
                                            guint                   jobs,
                                            KomiSeriesProgressFunc  progress,
                                            gpointer                user_data,
                                            KomiSeriesPause        *pause,
                                            GCancellable           *cancellable,
                                            GError                **error);
void              komi_series_result_free  (KomiSeriesResult       *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiSeriesResult, komi_series_result_free)

G_END_DECLS
