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
 * Black leads, the edges labelled with the lead there ("B+10", "W+10"),
 * move numbers along the axis. The subject's blunders are dots on the
 * line, its mistakes short marks at the bottom edge; the position shown
 * is a vertical line. A click or a drag picks a position,
 * and so do Left, Right, Home and End with the focus:
 * "step-activated" (guint step), step 0 being the start. */

GtkWidget *komi_score_graph_new           (void);
/* @analysis (copied from, may be NULL: an empty graph) classified under
 * the @mistake and @blunder thresholds in points lost; only @subject's
 * moves are marked (KOMI_EMPTY: both sides', an imported game). */
void       komi_score_graph_set_analysis  (KomiScoreGraph          *self,
                                           const KomiStoreAnalysis *analysis,
                                           double                   mistake,
                                           double                   blunder,
                                           KomiColor                subject);
/* The moves marked @class (a blunder's dot, a mistake's mark). */
guint      komi_score_graph_count_marks   (KomiScoreGraph *self,
                                           KomiMoveClass   class);
/* The lead at the top and bottom edges (labelled B+N and W+N), in points. */
double     komi_score_graph_get_scale     (KomiScoreGraph *self);
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
