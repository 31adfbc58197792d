/* komi-store-test-review.h: the games and analyses the review tests
 * share (engine review, the review window, its frames and shortcuts).
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-store-test-util.h"

/* The blunder game (Black's moves odd, White's even; row 9 at the top):
 *
 *     A B C D E F G H J           After move 26 (White J5), Black's four
 *   9 . . X . . . . . .  9        stones E5–H5 have one liberty, D5,
 *   8 . . X . O . O . .  8        where they would join the wall on C.
 *   7 . . X . . . . . .  7        Move 27 (Black B5) ignores it: the
 *   6 . . X . O O O O .  6        blunder; White captures at D5 (move
 *   5 . X X . X X X X O  5        28, GNU Go's own choice); Black A5
 *   4 . . X . O O O O .  4        (move 29) is a quiet move inside its
 *   3 . . X . . . . . .  3        own area; both pass after move 30.
 *   2 . . X . O . O . .  2
 *   1 . . X . . . . . .  1
 *     A B C D E F G H J
 *
 * TEST_BLUNDER_TURNS turns in all, the two passes included. */
#define TEST_BLUNDER_TURNS 32

/* The blunder game played for @planned (whichever colour the subject
 * has), over and counted. */
KomiGameRecord *
test_blunder_record (const KomiPlannedGame *planned);

/* A series "review" (seed 5, one pair) begun in @store, its first
 * @n_games games (1 or 2) played as the blunder game: the series' id in
 * @series_id, the first @n_games games' ids in @game_ids (in the
 * library's order). Returns the series (free it with test_series_free()). */
TestSeries *
test_blunder_series (KomiStore *store, guint n_games, gint64 *series_id, gint64 *game_ids);

/* An analysis of @game as the review tests write one by hand: engine,
 * version and label "test", settings "{}", a mistake from 3 points of
 * loss and a blunder from 6; every move losing nothing, its best move
 * the move played (@best_played) or none given (KOMI_NO_POINT). */
KomiStoreAnalysis *
test_analysis_new (const KomiStoreGame *game, gboolean best_played);

/* Move @turn (from 1) of @analysis loses @loss points (its lead after,
 * -@loss). */
void
test_analysis_set_loss (KomiStoreAnalysis *analysis, guint turn, double loss);
