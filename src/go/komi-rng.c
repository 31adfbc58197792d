/* komi-rng.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include "komi-rng.h"

/* SplitMix64, as komi-rng.h writes it out. */
void
komi_rng_init (KomiRng *rng,
               guint64  seed)
{
  guint64 z = seed;

  g_return_if_fail (rng != NULL);

  for (guint i = 0; i < 4; i++)
    {
      guint64 t;

      z += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
      t = z;
      t = (t ^ (t >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
      t = (t ^ (t >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
      rng->s[i] = t ^ (t >> 31);
    }
}
