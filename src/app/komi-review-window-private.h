/* komi-review-window-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-analysis-panel.h"
#include "komi-coords.h"
#include "komi-review-window.h"

G_BEGIN_DECLS

struct _KomiReviewWindow
{
  AdwWindow           parent_instance;

  AdwWindowTitle     *window_title;
  GtkButton          *mistake_button;
  GtkDropDown        *orientation_dropdown;
  AdwToastOverlay    *toast_overlay;
  KomiBoardView      *board_view;
  GtkLabel           *frame_label;      /* the board's frame: "As recorded" */
  GtkScale           *slider;
  GtkLabel           *move_label;
  GtkLabel           *status_label;
  GtkBox             *analysis_slot;
  KomiAnalysisPanel  *analysis_panel;   /* in analysis_slot */
  GtkListView        *moves_view;
  GtkLabel           *calls_title;
  GtkLabel           *heat_label;
  GtkBox             *calls_box;
  GtkBox             *content_box;      /* board, moves, side: a row, or a column */
  GtkWidget          *moves_scroller;
  GtkWidget          *side_box;
  GtkWidget          *calls_scroller;
  GtkWidget          *header_nav;       /* the moves' buttons in the header… */
  GtkActionBar       *bottom_bar;       /* …or, narrow, at the bottom */

  KomiLibrary        *library;
  gint64              game_id;
  GCancellable       *cancellable;    /* of the read; cancelled in dispose */
  KomiReview         *review;
  guint               step;
  KomiOrientation     orientation;
  GtkStringList      *moves;          /* one row per step, fields split by tabs */
  GtkSingleSelection *selection;
  gboolean            syncing;        /* the step is being shown: not the user's change */
  guint               focus_tick;     /* the focus goes to the step's row at the next frame */
  guint               layout;         /* komi-review-window-layout.c */
  guint               layout_source;  /* applies a layout after an allocation */
};

/* komi-review-window-actions.c: the review.* actions and their keys. */
void          _komi_review_window_class_init_actions (GtkWidgetClass   *widget_class);
void          _komi_review_window_add_shortcuts      (KomiReviewWindow *self);
/* What the analysis says of move @turn (GOOD without one). */
KomiMoveClass _komi_review_window_move_class         (KomiReviewWindow *self,
                                                      guint             turn);

/* How the game was turned for the model. */
KomiOrientation _komi_review_window_model_orientation (KomiReviewWindow *self);
/* The name of real @point on the board as shown now. */
void          _komi_review_window_shown_name         (KomiReviewWindow *self,
                                                      KomiPoint         point,
                                                      char              buf[KOMI_NAME_LEN + 1]);
/* The panel's analysis once it has read one (it may be newer: analysed
 * from the panel), else the one read with the game; NULL: none. */
const KomiStoreAnalysis *_komi_review_window_current_analysis (KomiReviewWindow *self);
/* komi-review-window-layout.c: the window fitted to its width, down to
 * a phone's 360 px. */
void          _komi_review_window_class_init_layout  (GtkWidgetClass   *widget_class);
void          _komi_review_window_init_layout        (KomiReviewWindow *self);
void          _komi_review_window_dispose_layout     (KomiReviewWindow *self);
/* "wide", "medium" or "narrow": the layout applied. */
const char   *_komi_review_window_get_layout         (KomiReviewWindow *self);
/* komi-review-window-calls.c: the side of the move shown. */
void          _komi_review_window_show_probabilities (KomiReviewWindow *self);
void          _komi_review_window_show_calls         (KomiReviewWindow *self);

G_END_DECLS
