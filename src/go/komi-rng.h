/* komi-rng.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A small, documented, stable generator: xoshiro256** seeded through
 * SplitMix64, written out exactly below. Its output for a seed never
 * changes between releases: recorded games, the random player's moves
 * (komi-random-player.c) and the seeds, colours and orders the match layer
 * derives for each game (komi-series-plan.c, komi-match-game.c) depend on
 * it, and tests/test-random-player.c freezes it.
 *
 * The generator, exactly (all arithmetic on unsigned 64-bit integers,
 * wrapping modulo 2^64; rotl(x, k) = (x << k) | (x >> (64 - k))):
 *
 * Seeding (SplitMix64): let z = seed. Four times, for i = 0..3:
 *     z = z + 0x9E3779B97F4A7C15
 *     t = z
 *     t = (t ^ (t >> 30)) * 0xBF58476D1CE4E5B9
 *     t = (t ^ (t >> 27)) * 0x94D049BB133111EB
 *     s[i] = t ^ (t >> 31)
 * (SplitMix64 is a bijection of z, so the state is never all zero.)
 *
 * Next (xoshiro256**, Blackman and Vigna 2018):
 *     result = rotl(s[1] * 5, 7) * 9
 *     t = s[1] << 17
 *     s[2] ^= s[0];  s[3] ^= s[1];  s[1] ^= s[2];  s[0] ^= s[3]
 *     s[2] ^= t;     s[3] = rotl(s[3], 45)
 *     return result
 *
 * Uniform index in [0, n), n >= 1 (rejection sampling):
 *     threshold = (2^64 - n) mod n        (that is, 2^64 mod n)
 *     repeat r = next() until r >= threshold
 *     return r mod n
 * The accepted range [threshold, 2^64) holds a multiple of n values, so
 * every index is equally likely. */
typedef struct
{
  guint64 s[4];
} KomiRng;

void komi_rng_init (KomiRng *rng,
                    guint64  seed);

/* Inline: the random player draws on every move, and tens of thousands of
 * games a second go through here (docs/performance.md). */
static inline guint64
_komi_rng_rotl (guint64 x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
komi_rng_next (KomiRng *rng)
{
  guint64 *s = rng->s;
  const guint64 result = _komi_rng_rotl (s[1] * 5, 7) * 9;
  const guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = _komi_rng_rotl (s[3], 45);

  return result;
}

/* A uniform integer in [0, @n), @n > 0, without modulo bias. */
static inline guint64
komi_rng_uniform (KomiRng *rng,
                  guint64  n)
{
  guint64 threshold, r;

  g_return_val_if_fail (n > 0, 0);

  /* The threshold (2^64 mod n) is below n, so a draw of n or more is
   * accepted without computing it: one division instead of two, and the
   * same draws. -n in unsigned arithmetic is 2^64 - n. */
  r = komi_rng_next (rng);
  if (r < n)
    {
      threshold = (0 - n) % n;
      while (r < threshold)
        r = komi_rng_next (rng);
    }

  return r % n;
}

G_END_DECLS
