/* komi-cli-bench-rating.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "komi-cli-bench.h"
#include "komi-rate-sim.h"

/* `bench --rating`: the adaptive plan against a fixed round-robin, on
 * simulated subjects of known strength (no API, no engine): games needed
 * to reach the target, and how often the final 95% interval holds the
 * true rating. */

/* The Wilson 95% interval of a proportion: coverage over a few hundred
 * subjects is itself uncertain by a couple of points. */
static void
wilson (guint k, guint n, double *low, double *high)
{
  double z = 1.959963984540054, p = (double) k / n, d = 1 + z * z / n;
  double centre = (p + z * z / (2.0 * n)) / d;
  double half = z * sqrt (p * (1 - p) / n + z * z / (4.0 * n * n)) / d;

  *low = centre - half;
  *high = centre + half;
}

static void
print_figures (const char *plan, const KomiRateSimFigures *f)
{
  double low, high;

  wilson (f->covered, f->subjects, &low, &high);
  /* Translators: "adaptive: mean 52.3 games, median 50, most 120; coverage 94.5% …" */
  printf (_("%-9s mean %.1f games, median %.1f, most %u; coverage %.1f%% (%u of %u, 95%% CI "
            "%.1f–%.1f%%); mean half-width %.1f Elo; %u stopped before the target\n"),
          plan, f->mean_games, f->median_games, f->max_games, 100 * f->coverage, f->covered,
          f->subjects, 100 * low, 100 * high, f->mean_half_width, f->unfinished);
}

int
_komi_cli_bench_rating (const char *ladder_path,
                        guint       subjects,
                        guint32     seed,
                        double      target,
                        guint       min_pairs)
{
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GError) error = NULL;
  KomiRatePlanOptions options;
  KomiRateSimFigures adaptive, fixed;
  const KomiLadderMember *first, *last;
  gint64 start;

  if (ladder_path != NULL)
    {
      ladder = komi_ladder_load (ladder_path, &error);
      if (ladder == NULL)
        {
          fprintf (stderr, "komi-cli bench: %s\n", error->message);
          return 1;
        }
    }
  else
    ladder = komi_rate_sim_test_ladder ();
  if (ladder->members->len == 0)
    {
      fprintf (stderr, "komi-cli bench: %s\n", _("the ladder has no members"));
      return 1;
    }

  komi_rate_plan_options_init (&options);
  options.target = target;
  options.min_pairs = min_pairs;
  /* Far more than the fixed plan ever needs on a ladder of this shape;
   * the figures say how many subjects it stopped. */
  options.max_pairs = 1000;
  first = g_ptr_array_index (ladder->members, 0);
  last = g_ptr_array_index (ladder->members, ladder->members->len - 1);
  printf (_("Rating at the least cost: %u simulated subjects, true ratings spread from %.0f to "
            "%.0f, seed %u\n"), subjects, first->rating, last->rating, seed);
  printf (_("Ladder: %s, %u members; stop when the 95%% interval is within ±%.0f Elo, after "
            "%u pairs at least\n"),
          ladder_path != NULL ? ladder_path : _("the built-in test ladder"),
          ladder->members->len, target, min_pairs);

  start = g_get_monotonic_time ();
  komi_rate_sim_run (ladder, subjects, seed, &options, &adaptive, &fixed);
  print_figures (_("adaptive:"), &adaptive);
  print_figures (_("fixed:"), &fixed);
  printf (_("games, adaptive / fixed: %.2f (mean), %.2f (median)\n"),
          adaptive.mean_games / fixed.mean_games, adaptive.median_games / fixed.median_games);
  printf (_("simulated in %.1f s\n"), _komi_cli_bench_ms_since (start) / 1000);
  return 0;
}
