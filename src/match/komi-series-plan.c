/* komi-series-plan.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-match"

#include "config.h"

#include "komi-rng.h"
#include "komi-series.h"

/* The games a series plays, in play order, each with its seed and the
 * orientation its pair is shown in: derived from the series seed alone,
 * so that every run (and every shard) plans the very same games. */

guint
komi_series_count_games (const KomiSeries *series)
{
  guint n = 0;

  for (guint i = 0; i < series->opponents->len; i++)
    n += 2 * ((KomiSeriesOpponent *) g_ptr_array_index (series->opponents, i))->pairs;
  return n;
}

/* The first output of the generator seeded with the series seed mixed
 * with @key: independent streams for every game and every block. */
static guint64
derive (guint64 seed, guint64 key)
{
  KomiRng mix, rng;

  komi_rng_init (&mix, key);
  komi_rng_init (&rng, seed ^ komi_rng_next (&mix));
  return komi_rng_next (&rng);
}

/* The orientation of pair @p against opponent @o: a fresh shuffle of the
 * 8 orientations for every block of 8 pairs. */
static KomiOrientation
pair_orientation (guint64 seed, guint o, guint p)
{
  KomiOrientation order[KOMI_N_ORIENTATIONS];
  KomiRng rng;

  komi_rng_init (&rng, derive (seed, G_GUINT64_CONSTANT (1) << 63 | (guint64) o << 32
                                     | p / KOMI_N_ORIENTATIONS));
  for (guint i = 0; i < KOMI_N_ORIENTATIONS; i++)
    order[i] = (KomiOrientation) i;
  for (guint i = KOMI_N_ORIENTATIONS - 1; i > 0; i--)
    {
      guint j = (guint) komi_rng_uniform (&rng, i + 1);
      KomiOrientation t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  return order[p % KOMI_N_ORIENTATIONS];
}

static void
plan_pair (const KomiSeries *series, GArray *plan, guint o, guint p)
{
  const KomiSeriesOpponent *opponent = g_ptr_array_index (series->opponents, o);
  KomiOrientation orientation = pair_orientation (series->seed, o, p);

  for (guint g = 0; g < 2; g++)
    {
      KomiPlannedGame game = {
        .index = plan->len,
        .opponent = o,
        .pair = p,
        .game_in_pair = g,
        .black = g == 0 ? series->subject : opponent->player,
        .white = g == 0 ? opponent->player : series->subject,
        .seed = derive (series->seed, (guint64) o << 40 | (guint64) p << 8 | g),
        .orientation = orientation,
      };
      g_array_append_val (plan, game);
    }
}

GArray *
komi_series_plan (const KomiSeries *series)
{
  GArray *plan = g_array_sized_new (FALSE, TRUE, sizeof (KomiPlannedGame),
                                    komi_series_count_games (series));

  if (series->pair_order != NULL)
    {
      g_autofree guint *played = g_new0 (guint, series->opponents->len);

      for (guint i = 0; i < series->pair_order->len; i++)
        {
          guint o = g_array_index (series->pair_order, guint, i);

          plan_pair (series, plan, o, played[o]++);
        }
      return plan;
    }
  for (guint o = 0; o < series->opponents->len; o++)
    {
      const KomiSeriesOpponent *opponent = g_ptr_array_index (series->opponents, o);

      for (guint p = 0; p < opponent->pairs; p++)
        plan_pair (series, plan, o, p);
    }
  return plan;
}
