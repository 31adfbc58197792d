/* komi-random-player.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-player.h"
#include "komi-rng.h"

G_BEGIN_DECLS

/* The seeded random player ("random"): uniform among the legal points of
 * the side to move that are not its own eyes; passes when none is left.
 * Seeded by KomiGameSetup.seed at each start_game. */
KomiPlayer *komi_random_player_new    (void);

/* The random player's choice without a player object, for benchmarks: @buf
 * must hold KOMI_MAX_POINTS entries and is reused; nothing is allocated. */
KomiPoint   komi_random_choose        (KomiRng        *rng,
                                       const KomiGame *game,
                                       KomiPoint      *buf);

G_END_DECLS
