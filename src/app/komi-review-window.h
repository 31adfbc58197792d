/* komi-review-window.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-board-view.h"
#include "komi-library.h"
#include "komi-review-data.h"

G_BEGIN_DECLS

#define KOMI_TYPE_REVIEW_WINDOW (komi_review_window_get_type ())
G_DECLARE_FINAL_TYPE (KomiReviewWindow, komi_review_window, KOMI, REVIEW_WINDOW, AdwWindow)

/* One game replayed: the board with a move list and a slider, the eight
 * orientations (one of them the model's), and every model call attempt of
 * the move shown in the call inspector. Stepped by the `review.*`
 * actions: Left/Right, Home/End, n/N (Ctrl+Down/Up) for mistakes, o to
 * turn the board. */

KomiReviewWindow *komi_review_window_new               (GtkWindow        *parent,
                                                        KomiLibrary      *library,
                                                        gint64            game_id);
gint64            komi_review_window_get_game_id       (KomiReviewWindow *self);
/* The game once it is read (NULL before). */
const KomiReview *komi_review_window_get_review        (KomiReviewWindow *self);
guint             komi_review_window_get_step          (KomiReviewWindow *self);
/* Shows the position after move @step (0: the start), clamped. */
void              komi_review_window_show_step         (KomiReviewWindow *self,
                                                        guint             step);
KomiOrientation   komi_review_window_get_orientation   (KomiReviewWindow *self);
void              komi_review_window_set_orientation   (KomiReviewWindow *self,
                                                        KomiOrientation   orientation);
KomiBoardView    *komi_review_window_get_board_view    (KomiReviewWindow *self);
/* The row of move @step in the move list as it reads ("12 ● C4 13%"). */
char             *komi_review_window_dup_move_text     (KomiReviewWindow *self,
                                                        guint             step);
/* An empty box under the board for the engine analysis panel. */
GtkBox           *komi_review_window_get_analysis_slot (KomiReviewWindow *self);

G_END_DECLS
