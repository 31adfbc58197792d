/* komi-analysis-engine.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-gtp-recipe.h"

G_BEGIN_DECLS

#define KOMI_REVIEW_ERROR (komi_review_error_quark ())
GQuark komi_review_error_quark (void);

typedef enum
{
  KOMI_REVIEW_ERROR_ENGINE,       /* the engine cannot analyse (generic GTP, no such command) */
  KOMI_REVIEW_ERROR_UNSUPPORTED,  /* a game the review cannot replay (setup stones) */
  KOMI_REVIEW_ERROR_ANSWER,       /* an analysis answer we cannot read */
} KomiReviewError;

/* One analysis engine over GTP: KataGo when configured, else GNU Go, whose
 * numbers are labelled "GNU Go estimate" everywhere they are shown. It is
 * spoken to from one thread; every call blocks and takes a cancellable. */
typedef struct _KomiAnalysisEngine KomiAnalysisEngine;

/* Starts the engine of @recipe (GNU Go or KataGo; a generic GTP program
 * has no score to give and is KOMI_REVIEW_ERROR_ENGINE). */
KomiAnalysisEngine *komi_analysis_engine_new      (const KomiGtpRecipe *recipe,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
/* An empty board of @size with @komi. */
gboolean     komi_analysis_engine_reset           (KomiAnalysisEngine  *self,
                                                   guint                size,
                                                   double               komi,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
gboolean     komi_analysis_engine_play            (KomiAnalysisEngine  *self,
                                                   guint                size,
                                                   const KomiMove      *move,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
/* The current position with @to_move to play: *@lead is @to_move's lead
 * in points, *@best the engine's move (KOMI_PASS, or KOMI_NO_POINT when it
 * would resign). The board is left as it was. */
gboolean     komi_analysis_engine_evaluate        (KomiAnalysisEngine  *self,
                                                   guint                size,
                                                   KomiColor            to_move,
                                                   double              *lead,
                                                   KomiPoint           *best,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
const char  *komi_analysis_engine_get_name        (KomiAnalysisEngine  *self);
const char  *komi_analysis_engine_get_version     (KomiAnalysisEngine  *self);
/* "GNU Go estimate" or "KataGo": what every shown number is labelled. */
const char  *komi_analysis_engine_get_label       (KomiAnalysisEngine  *self);
/* The engine's settings and the commands used, as JSON object text. */
char        *komi_analysis_engine_dup_settings    (KomiAnalysisEngine  *self);
void         komi_analysis_engine_free            (KomiAnalysisEngine  *self);

/* Parsers, public for tests. */
/* GNU Go's "B+6.0", "W+2.0", "0": Black's lead. */
gboolean     komi_analysis_parse_gnugo_score      (const char          *text,
                                                   double              *black_lead);
/* A kata-search_analyze answer: the side to move's lead from the last
 * rootInfo (or the best info line), and the move after "play". */
gboolean     komi_analysis_parse_katago           (const char          *text,
                                                   guint                size,
                                                   double              *lead,
                                                   KomiPoint           *best);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiAnalysisEngine, komi_analysis_engine_free)

G_END_DECLS
