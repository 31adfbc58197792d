/* komi-score-graph.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "komi-store.h"

G_BEGIN_DECLS

#define KOMI_TYPE_SCORE_GRAPH (komi_score_graph_get_type ())
G_DECLARE_FINAL_TYPE (KomiScoreGraph, komi_score_graph, KOMI, SCORE_GRAPH, GtkWidget)

/* Black's score lead over a game, from an engine review: above the axis
 * Black leads. Mistakes and blunders are marked on their moves and the
 * position shown is a vertical line. A click or a drag picks a position,
 * and so do Left, Right, Home and End with the focus:
 * "step-activated" (guint step), step 0 being the start. */

GtkWidget *komi_score_graph_new           (void);
/* @analysis (copied from, may be NULL: an empty graph) classified under
 * the @mistake and @blunder thresholds in points lost. */
void       komi_score_graph_set_analysis  (KomiScoreGraph          *self,
                                           const KomiStoreAnalysis *analysis,
                                           double                   mistake,
                                           double                   blunder);
void       komi_score_graph_set_step      (KomiScoreGraph *self,
                                           guint           step);
guint      komi_score_graph_get_step      (KomiScoreGraph *self);
/* Positions drawn: the moves + 1, or 0. */
guint      komi_score_graph_get_n_steps   (KomiScoreGraph *self);
/* The position under @x in widget coordinates. */
guint      komi_score_graph_step_at       (KomiScoreGraph *self,
                                           double          x);
/* Where position @step is drawn, in widget coordinates. */
double     komi_score_graph_step_x        (KomiScoreGraph *self,
                                           guint           step);

G_END_DECLS
