/* komi-review.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-analysis-engine.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* Engine review of stored games: the lead before and after every move,
 * the points each move lost, mistakes and blunders, the engine's best
 * move. Blocking calls for worker threads; nothing here touches GTK. */

#define KOMI_REVIEW_DEFAULT_MISTAKE 3.0
#define KOMI_REVIEW_DEFAULT_BLUNDER 6.0

typedef struct
{
  const KomiGtpRecipe *recipe;    /* the analysis engine */
  double               mistake;   /* 0: KOMI_REVIEW_DEFAULT_MISTAKE */
  double               blunder;   /* 0: KOMI_REVIEW_DEFAULT_BLUNDER */
  guint                jobs;      /* games analysed at once by komi_review_analyse_games; 0: 1 */
} KomiReviewOptions;

/* Called after each position of a game (@done of @total, the final
 * position included), from the thread doing the work. */
typedef void (*KomiReviewProgress) (gint64   game_id,
                                    guint    done,
                                    guint    total,
                                    gpointer user_data);

/* Analyses @game (komi_store_load_game) with @engine: one evaluation per
 * position, the position after the last move included. */
KomiStoreAnalysis *komi_review_analyse_game  (KomiAnalysisEngine      *engine,
                                              const KomiStoreGame     *game,
                                              const KomiReviewOptions *options,
                                              KomiReviewProgress       progress,
                                              gpointer                 user_data,
                                              GCancellable            *cancellable,
                                              GError                 **error);
/* Analyses the games @game_ids (gint64) of @store (a writer: the
 * application's own, shared with its other work, as the store serialises
 * its connection) on @options->jobs threads, each with an engine of its
 * own, and stores each analysis as it is done (replacing an older one).
 * Blocks until all are done: call it from a worker thread. @progress may
 * be called from any of the threads. Stops at the first failure. */
gboolean           komi_review_analyse_games (KomiStore               *store,
                                              const GArray            *game_ids,
                                              const KomiReviewOptions *options,
                                              KomiReviewProgress       progress,
                                              gpointer                 user_data,
                                              GCancellable            *cancellable,
                                              GError                 **error);

G_END_DECLS
