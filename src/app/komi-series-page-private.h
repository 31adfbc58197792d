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
  GtkSingleSelection  *series_selection;
  GtkSingleSelection  *games_selection;
  GCancellable        *game_cancellable;   /* the game being loaded */
  guint                follow_source;      /* reloads a game in progress */
  KomiReplay          *replay;
  guint                step;
  gint64               selected_id;        /* kept across reloads of the library */
  guint                selected_game;
  /* The user watches the run: at the latest move of a game in play, not
   * having stepped back or picked another game. When that game ends, the
   * page moves on to the next game in play. */
  gboolean             follow_run;
  gboolean             moving_on;          /* the page, not the user, selects */
  gint64               next_deadline;      /* waiting for a game to start, until */
  /* Calls of the game shown answered since it was read: the library has
   * them only with the game's next write. */
  gint64               live_game;
  GPtrArray           *live_calls;         /* KomiReplayCall */

  AdwFlap             *flap;
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
  GtkLabel            *frame_label;        /* the board's frame: "As recorded" */
  GtkLabel            *summary_label;
  GtkStack            *side_stack;         /* the calls, or the engine review */
  KomiAnalysisPanel   *analysis_panel;
};

/* komi-series-page-layout.c: the game followed, laid out by the width. */
void _komi_series_page_class_init_layout (GtkWidgetClass *widget_class);
void _komi_series_page_init_layout       (KomiSeriesPage *self);

/* komi-series-page-shortcuts.c: the keys of the game shown. */
void _komi_series_page_add_shortcuts     (KomiSeriesPage *self);

G_END_DECLS
