/* komi-board-view.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "komi-board-scene.h"

G_BEGIN_DECLS

#define KOMI_TYPE_BOARD_VIEW (komi_board_view_get_type ())

G_DECLARE_FINAL_TYPE (KomiBoardView, komi_board_view, KOMI, BOARD_VIEW, GtkWidget)

/* A Go board of 5–19 lines drawn with cairo: stones, the last-move mark,
 * move numbers, dead stones and territory. Focusable: the arrow keys move
 * a cursor over the points, and the accessible label names the point under
 * it and what stands there. */

GtkWidget            *komi_board_view_new                   (void);
/* Shows @colors (size * size KomiColor, board order; NULL: empty) with
 * @last_move marked (KOMI_NO_POINT or KOMI_PASS: none). Clears numbers and
 * marks of the previous position. */
void                  komi_board_view_set_position          (KomiBoardView    *self,
                                                             guint             size,
                                                             const guint8     *colors,
                                                             KomiPoint         last_move);
/* Move numbers per point (0: none); NULL clears them. */
void                  komi_board_view_set_numbers           (KomiBoardView    *self,
                                                             const guint      *numbers);
/* Dead stones and the owner of each point in the count (NULL: none). */
void                  komi_board_view_set_marks             (KomiBoardView    *self,
                                                             const KomiPoint  *dead,
                                                             guint             n_dead,
                                                             const guint8     *territory);
/* A value 0–1 per real point (size * size, < 0: none there) drawn as a
 * heat map over the empty points, in the view's orientation; NULL clears
 * it, and so does komi_board_view_set_position(). */
void                  komi_board_view_set_heat              (KomiBoardView    *self,
                                                             const double     *values);
/* The engine's better move at a mistake (a real point; KOMI_NO_POINT: no
 * mark), drawn as a green ring; komi_board_view_set_position() clears it. */
void                  komi_board_view_set_best_move         (KomiBoardView    *self,
                                                             KomiPoint         point);
guint                 komi_board_view_get_size              (KomiBoardView    *self);
gboolean              komi_board_view_get_show_coordinates  (KomiBoardView    *self);
void                  komi_board_view_set_show_coordinates  (KomiBoardView    *self,
                                                             gboolean          show);
gboolean              komi_board_view_get_show_numbers      (KomiBoardView    *self);
void                  komi_board_view_set_show_numbers      (KomiBoardView    *self,
                                                             gboolean          show);
/* One of the 8 symmetries the board is shown in; the position, marks and
 * last move stay given in real points. Coordinates name points as shown. */
KomiOrientation       komi_board_view_get_orientation       (KomiBoardView    *self);
void                  komi_board_view_set_orientation       (KomiBoardView    *self,
                                                             KomiOrientation   orientation);
/* The cursor and the points of describe_point() are points as shown. */
KomiPoint             komi_board_view_get_cursor            (KomiBoardView    *self);
void                  komi_board_view_set_cursor            (KomiBoardView    *self,
                                                             KomiPoint         point);
/* "E5, black stone, move 12, last move": what the accessible label says
 * of the point shown at @point. */
char                 *komi_board_view_describe_point        (KomiBoardView    *self,
                                                             KomiPoint         point);
const KomiBoardScene *komi_board_view_get_scene             (KomiBoardView    *self);
/* Whether the view paints in the dark palette (it follows the style
 * manager). */
gboolean              komi_board_view_get_dark              (KomiBoardView    *self);

G_END_DECLS
