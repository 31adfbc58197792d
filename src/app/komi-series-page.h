/* komi-series-page.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-analysis-panel.h"
#include "komi-board-view.h"
#include "komi-library.h"
#include "komi-live-run.h"

G_BEGIN_DECLS

#define KOMI_TYPE_SERIES_PAGE (komi_series_page_get_type ())
G_DECLARE_FINAL_TYPE (KomiSeriesPage, komi_series_page, KOMI, SERIES_PAGE, AdwBin)

/* The library's series: a list with each one's progress, and for the one
 * selected its results per opponent, its games, and the board of the game
 * selected, stepped through by the `review.*-move` actions. */

void              komi_series_page_set_library    (KomiSeriesPage *self,
                                                   KomiLibrary    *library);
KomiLibrary      *komi_series_page_get_library    (KomiSeriesPage *self);
KomiBoardView    *komi_series_page_get_board_view (KomiSeriesPage *self);
/* The game under review and the position shown (NULL until one loads). */
const KomiReplay *komi_series_page_get_replay     (KomiSeriesPage *self,
                                                   guint          *step);
/* The series selected; 0: none. */
gint64            komi_series_page_get_series_id  (KomiSeriesPage *self);
/* The series selected has a game that began (something to export). */
gboolean          komi_series_page_has_played     (KomiSeriesPage *self);
/* The engine review of the game shown (a page beside the calls). */
KomiAnalysisPanel *komi_series_page_get_analysis_panel (KomiSeriesPage *self);
/* Selects series @series and its game @game (positions in the lists);
 * FALSE when either is out of range. */
gboolean          komi_series_page_select         (KomiSeriesPage *self,
                                                   guint           series,
                                                   guint           game);
/* A run of series @series_id has begun: the page shows that series from
 * the library's next read, and follows its games in play, one after
 * another, until the user steps back or picks a game. */
void              komi_series_page_follow_series  (KomiSeriesPage *self,
                                                   gint64          series_id);
/* Whether the list of series is shown over the page when the page is
 * too narrow for it beside (folded): as the user left it, kept by the
 * window across restarts. Beside the page it is always shown. */
gboolean          komi_series_page_get_list_shown (KomiSeriesPage *self);
void              komi_series_page_set_list_shown (KomiSeriesPage *self,
                                                   gboolean        shown);
/* The live state of the run in the window, which the page draws: the
 * window hands it the run's events (komi_live_run_apply()). */
KomiLiveRun      *komi_series_page_get_live_run   (KomiSeriesPage *self);

G_END_DECLS
