/* komi-rating-library.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-game-result.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* Fills @result from a game of the library, its labels pointing into
 * @game. FALSE when the game says nothing to a rating yet: not played in
 * a series, or still pending or running. Finished, void and forfeit games
 * are results; which of them count is the rating's business. */
gboolean komi_game_result_from_store_game (const KomiStoreGame *game,
                                           KomiGameResult      *result);

G_END_DECLS
