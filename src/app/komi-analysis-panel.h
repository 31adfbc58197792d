/* komi-analysis-panel.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-analysis-job.h"
#include "komi-library.h"
#include "komi-orientation.h"

G_BEGIN_DECLS

#define KOMI_TYPE_ANALYSIS_PANEL (komi_analysis_panel_get_type ())
G_DECLARE_FINAL_TYPE (KomiAnalysisPanel, komi_analysis_panel, KOMI, ANALYSIS_PANEL, AdwBin)

/* The engine review of one game: Black's score lead as a graph, the
 * subject's mistakes and blunders with the engine's best move, and the
 * Analyse action (this game, or every game of its series, on worker
 * threads with a progress bar and Cancel). The thresholds are the
 * `mistake-threshold` and `blunder-threshold` settings. Picking a move in
 * the graph or the list emits "step-activated" (guint step); the owner
 * shows that position and calls set_step, which moves the graph's line. */

KomiAnalysisPanel *komi_analysis_panel_new      (void);
/* The game to show (read off the main thread); @game_id 0: none. */
void               komi_analysis_panel_set_game (KomiAnalysisPanel *self,
                                                 KomiLibrary       *library,
                                                 gint64             game_id);
/* The position shown by the owner: 0 the start, n after move n. */
void               komi_analysis_panel_set_step (KomiAnalysisPanel *self,
                                                 guint              step);
/* How the board beside the panel is turned: the list names points as
 * they stand on it. */
void               komi_analysis_panel_set_orientation (KomiAnalysisPanel *self,
                                                        KomiOrientation    orientation);
/* The analysis running from this panel, or NULL. */
KomiAnalysisJob   *komi_analysis_panel_get_job  (KomiAnalysisPanel *self);
/* The analysis shown, or NULL (none stored, or still being read). */
const KomiStoreAnalysis *komi_analysis_panel_get_analysis (KomiAnalysisPanel *self);
/* Move @turn (from 1) is in the panel's list of mistakes: the subject's
 * (both sides' in an imported game), at the thresholds set now. */
gboolean           komi_analysis_panel_lists_turn (KomiAnalysisPanel *self,
                                                   guint              turn);

G_END_DECLS
