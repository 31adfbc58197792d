/* komi-game.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-board.h"

G_BEGIN_DECLS

/* A game: a position plus its whole history. Enforces captures, no suicide,
 * positional superko against every earlier whole-board position (the start
 * included), and the end after two passes in a row or @max_turns turns. */

#define KOMI_PROTOCOL_MAX_TURNS 120

KomiGame     *komi_game_new                   (guint            size,
                                               guint            max_turns);
/* A game that starts from a set-up position (SGF AB/AW, test diagrams). */
KomiGame     *komi_game_new_from_board        (const KomiBoard *board,
                                               KomiColor        to_move,
                                               guint            max_turns);
KomiGame     *komi_game_copy                  (const KomiGame  *game);
void          komi_game_free                  (KomiGame        *game);

const KomiBoard *komi_game_get_board          (const KomiGame  *game);
guint         komi_game_get_size              (const KomiGame  *game);
KomiColor     komi_game_get_to_move           (const KomiGame  *game);
/* 0 means no turn limit. */
guint         komi_game_get_max_turns         (const KomiGame  *game);
guint         komi_game_get_turns_played      (const KomiGame  *game);
/* Turns until the limit, the one being played now included; 0 when over
 * or when there is no limit. */
guint         komi_game_get_turns_left        (const KomiGame  *game);
gboolean      komi_game_get_opponent_just_passed (const KomiGame *game);
gboolean      komi_game_is_over               (const KomiGame  *game);
KomiEndReason komi_game_get_end_reason        (const KomiGame  *game);
/* The moves played so far (passes included), in order. */
const KomiMove *komi_game_get_moves           (const KomiGame  *game,
                                               guint           *n_moves);

/* Whether the side to move may place at @point now, and if not, why. */
KomiMoveError komi_game_check                 (const KomiGame  *game,
                                               KomiPoint        point);
/* Plays @point (or KOMI_PASS) for the side to move. */
gboolean      komi_game_play                  (KomiGame        *game,
                                               KomiPoint        point,
                                               GError         **error);
/* Every point the side to move may place a stone on, in board order.
 * @out must hold n_points entries; returns how many were written. */
guint         komi_game_legal_points          (const KomiGame  *game,
                                               KomiPoint       *out);
/* Empty points, in board order, where a stone would be legal but for
 * positional superko. */
guint         komi_game_superko_points        (const KomiGame  *game,
                                               KomiPoint       *out);

/* The legal points that are not the mover's own eyes (every on-board
 * neighbour its own stone): the random player's choices. Board order. */
guint         komi_game_random_candidates     (const KomiGame  *game,
                                               KomiPoint       *out);

/* The legal points as a set, for a caller that wants one of them by its
 * rank in board order without the whole list (the random player). */
typedef struct
{
  guint            n;                   /* legal points in the set */
  /*< private >*/
  const KomiBoard *board;
  guint64          bits[8];
  guint64          own_eyes[8];         /* the mover's own eyes among them */
} KomiPointSet;

/* The points komi_game_legal_points lists, as a set (valid while the
 * game's position does not change). */
void          komi_game_legal_set             (const KomiGame  *game,
                                               KomiPointSet    *set);
/* The @i-th point of @set in board order, @i < set->n. When @own_eye is
 * given, it receives whether the point is an own eye of the side to move
 * (komi_board_is_own_eye). */
KomiPoint     komi_point_set_nth              (const KomiPointSet *set,
                                               guint            i,
                                               gboolean        *own_eye);
/* Every point of @set in board order (@out holds set->n); returns set->n. */
guint         komi_point_set_to_points        (const KomiPointSet *set,
                                               KomiPoint       *out);
/* The same, and in @own_eye (set->n entries) whether each point is an own
 * eye of the side to move (komi_board_is_own_eye). */
guint         komi_point_set_to_points_and_eyes (const KomiPointSet *set,
                                                 KomiPoint          *out,
                                                 guint8             *own_eye);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiGame, komi_game_free)

G_END_DECLS
