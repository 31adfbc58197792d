/* komi-board.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-go-types.h"

G_BEGIN_DECLS

/* A position: stones, and groups with exact liberty sets. It knows
 * nothing of history; KomiGame adds that (positional superko compares
 * whole positions, never hashes). */

KomiBoard    *komi_board_new              (guint             size);
KomiBoard    *komi_board_copy             (const KomiBoard  *board);
void          komi_board_free             (KomiBoard        *board);

guint         komi_board_get_size         (const KomiBoard  *board);
guint         komi_board_get_n_points     (const KomiBoard  *board);
KomiColor     komi_board_get              (const KomiBoard  *board,
                                           KomiPoint         point);
/* Copies the colours of all points, in board order, into @out (n_points bytes). */
void          komi_board_get_colors       (const KomiBoard  *board,
                                           guint8           *out);
/* Replaces the whole position (setup stones); groups are rebuilt. Groups
 * without liberties are left as given (a diagram may be odd on purpose). */
void          komi_board_set_colors       (KomiBoard        *board,
                                           const guint8     *colors);
guint         komi_board_count_stones     (const KomiBoard  *board,
                                           KomiColor         color);
/* Liberties of the group at @point (0 for an empty point). */
guint         komi_board_get_liberties    (const KomiBoard  *board,
                                           KomiPoint         point);

/* Whether @color may place at @point, ignoring history: KOMI_MOVE_OK,
 * KOMI_MOVE_OFF_BOARD, KOMI_MOVE_OCCUPIED or KOMI_MOVE_SUICIDE. */
KomiMoveError komi_board_check            (const KomiBoard  *board,
                                           KomiColor         color,
                                           KomiPoint         point);
/* Colours of the position after the move (which must pass komi_board_check). */
void          komi_board_colors_after     (const KomiBoard  *board,
                                           KomiColor         color,
                                           KomiPoint         point,
                                           guint8           *out);
/* Places a stone that passed komi_board_check; returns the stones captured. */
guint         komi_board_play             (KomiBoard        *board,
                                           KomiColor         color,
                                           KomiPoint         point);
/* TRUE when every on-board neighbour of the empty @point is a @color stone. */
gboolean      komi_board_is_own_eye       (const KomiBoard  *board,
                                           KomiColor         color,
                                           KomiPoint         point);

/* A diagram: rows top to bottom, "X" black, "O" white, "." or "+" empty;
 * spaces are ignored. Returns NULL and sets @error when the text is not a
 * square board of a supported size. */
KomiBoard    *komi_board_new_from_diagram (const char       *diagram,
                                           GError          **error);
/* The position as rows of "X O ." separated by spaces, one line per row. */
char         *komi_board_to_diagram       (const KomiBoard  *board);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiBoard, komi_board_free)

G_END_DECLS
