/* komi-mixed-player.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-gtp-player.h"
#include "komi-player.h"

G_BEGIN_DECLS

/* A bridging rung of the ladder ("mix:P:ENGINE"): a GTP engine that, on
 * each of its turns, plays the seeded random player's move instead with
 * probability @p. Everything derives from the per-game seed:
 *
 *   - the random moves come from a KomiRng seeded with the seed itself,
 *     drawn only on the turns that are random, so at @p = 1 the moves are
 *     exactly those of the random player with that seed;
 *   - the coin is a second KomiRng seeded with seed XOR KOMI_MIXED_COIN_SALT,
 *     one draw u = (next () >> 11) / 2^53 per own turn, random when u < @p;
 *   - the engine is started with the seed as a plain engine player would
 *     be, so at @p = 0 the moves are exactly the engine's.
 *
 * The engine is told every move on the board, the random ones included
 * (with "play"); when it is brought back into a resumed or restarted game
 * it is asked again only for the moves it chose itself, and the coin and
 * the random moves are drawn again in the same order. */

#define KOMI_MIXED_COIN_SALT G_GUINT64_CONSTANT (0x636f696e2d6d6978)  /* "coin-mix" */

KomiPlayer *komi_mixed_player_new (const char          *spec,
                                   double               p,
                                   const char          *engine_spec,
                                   const KomiGtpRecipe *recipe);
/* The GTP player inside, which holds every move of the game (tests). */
KomiPlayer *komi_mixed_player_get_engine   (KomiPlayer *player);
/* Own turns of the current game so far given to the random move (tests). */
guint       komi_mixed_player_get_n_random (KomiPlayer *player);
/* Own turns of the current game so far (tests). */
guint       komi_mixed_player_get_n_turns  (KomiPlayer *player);

G_END_DECLS
