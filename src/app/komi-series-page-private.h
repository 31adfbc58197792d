/* komi-series-page-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-analysis-panel.h"
#include "komi-series-page.h"

G_BEGIN_DECLS

struct _KomiSeriesPage
{
  AdwBin               parent_instance;

  KomiLibrary         *library;
  GSignalGroup        *library_signals;
  GtkSingleSelection  *series_selection;
  GtkSingleSelection  *games_selection;
  GCancellable        *game_cancellable;   /* the game being loaded */
  KomiReplay          *replay;
  guint                step;
  gint64               selected_id;        /* kept across reloads of the library */
  guint                selected_game;
  /* The run in the window as its events tell it, and the game it follows
   * (the user watches the run: at the latest move of a game in play, not
   * having stepped back or picked another game). */
  KomiLiveRun         *live;
  gboolean             moving_on;          /* the page, not the user, selects */
  /* Reads again a game in play that another process runs (no events). */
  guint                elsewhere_source;

  AdwFlap             *flap;
  gboolean             list_shown;         /* folded, the list is shown */
  gboolean             was_folded;         /* before the flap's latest change */
  GtkListView         *series_list;
  GtkStack            *detail_stack;
  AdwStatusPage       *empty_page;
  GtkLabel            *title_label;
  GtkLabel            *subtitle_label;
  GtkProgressBar      *progress_bar;
  GtkLabel            *progress_label;
  GtkButton           *continue_button;
  GtkColumnView       *results_view;
  GtkColumnView       *games_view;
  GtkGrid             *live_grid;
  GtkWidget           *games_frame;
  GtkWidget           *board_box;
  GtkWidget           *calls_frame;
  guint                layout;             /* a Layout */
  guint                layout_source;      /* applies a layout after an allocation */
  KomiBoardView       *board_view;
  GtkLabel            *move_label;
  GtkLabel            *played_label;       /* under it: "Black C4", "White passes" */
  GtkWidget           *step_box;           /* the buttons under the board */
  GtkWidget           *board_tools;        /* turn, numbers: in it, or under it */
  GtkLabel            *frame_label;        /* the board's frame: "As recorded" */
  GtkLabel            *summary_label;
  GtkStack            *side_stack;         /* the calls, or the engine review */
  KomiAnalysisPanel   *analysis_panel;
};

/* komi-series-page-layout.c: the game followed, laid out by the width. */
void _komi_series_page_class_init_layout (GtkWidgetClass *widget_class);
void _komi_series_page_init_layout       (KomiSeriesPage *self);

/* komi-series-page-game.c: the game shown, and the run followed. */
void     _komi_series_page_class_init_game  (GtkWidgetClass *widget_class);
void     _komi_series_page_init_game        (KomiSeriesPage *self);
void     _komi_series_page_show_step        (KomiSeriesPage *self,
                                             guint           step);
/* The games list's selection changed (or its rows were replaced). */
void     _komi_series_page_game_selected    (KomiSeriesPage *self);
/* Following the run: its game selected, once the list has it. */
void     _komi_series_page_select_followed  (KomiSeriesPage *self);
/* TRUE while the library's rows are being replaced. */
gboolean _komi_series_page_reloading        (KomiSeriesPage *self);
/* Emits "selection-changed". */
void     _komi_series_page_selection_changed (KomiSeriesPage *self);

/* komi-series-page-shortcuts.c: the keys of the game shown. */
void _komi_series_page_add_shortcuts     (KomiSeriesPage *self);

G_END_DECLS
