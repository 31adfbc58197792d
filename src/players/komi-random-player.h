/* komi-random-player.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-player.h"

G_BEGIN_DECLS

/* A small, documented, stable generator: xoshiro256** seeded through
 * SplitMix64 (the exact algorithm is written out in komi-random-player.c).
 * Its output for a seed never changes between releases: recorded games and
 * per-game seeds derived by the match layer depend on it. */
typedef struct
{
  guint64 s[4];
} KomiRng;

void        komi_rng_init             (KomiRng        *rng,
                                       guint64         seed);
guint64     komi_rng_next             (KomiRng        *rng);
/* A uniform integer in [0, @n), @n > 0, without modulo bias. */
guint64     komi_rng_uniform          (KomiRng        *rng,
                                       guint64         n);

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
