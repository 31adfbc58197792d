/* komi-rate-sim.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <math.h>

#include "komi-rate-sim.h"
#include "komi-rating-private.h"

guint
komi_rate_sim_subject (const KomiLadder          *ladder,
                       double                     truth,
                       KomiRateSimPlan            plan,
                       const KomiRatePlanOptions *options,
                       GRand                     *rand,
                       KomiRateDecision          *last)
{
  guint k, games = 0;
  g_autofree KomiRatingCell *cells = NULL;
  KomiRateDecision decision;

  g_return_val_if_fail (ladder != NULL && ladder->members->len > 0, 0);
  g_return_val_if_fail (options != NULL && rand != NULL, 0);
  /* Without a limit a subject far off the ladder could play for ever. */
  g_return_val_if_fail (options->max_pairs > 0, 0);

  k = ladder->members->len;
  cells = g_new (KomiRatingCell, k);
  komi_rate_plan_cells (ladder, NULL, NULL, cells);
  for (;;)
    {
      guint rung;

      komi_rate_plan_decide (ladder, cells, options, &decision);
      if (decision.stop != KOMI_RATE_CONTINUE)
        break;
      rung = plan == KOMI_RATE_SIM_ADAPTIVE ? decision.rung
             : komi_rate_plan_round_robin (ladder, decision.pairs);
      /* A pair: two games with the same chance (colour is not modelled). */
      for (guint g = 0; g < 2; g++)
        {
          double p = komi_elo_expected (truth - cells[rung].rating);

          cells[rung].games += 1;
          cells[rung].score += g_rand_double (rand) < p ? 1 : 0;
          games++;
        }
    }
  if (last != NULL)
    *last = decision;
  return games;
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static void
figures_finish (KomiRateSimFigures *f, guint *games, guint n, double width_sum, guint n_mle)
{
  double sum = 0;

  qsort (games, n, sizeof *games, compare_uint);
  for (guint i = 0; i < n; i++)
    sum += games[i];
  f->subjects = n;
  f->mean_games = n > 0 ? sum / n : NAN;
  f->median_games = n == 0 ? NAN
                    : n % 2 ? games[n / 2] : (games[n / 2 - 1] + games[n / 2]) / 2.0;
  f->max_games = n > 0 ? games[n - 1] : 0;
  f->coverage = n > 0 ? (double) f->covered / n : NAN;
  f->mean_half_width = n_mle > 0 ? width_sum / n_mle : NAN;
}

void
komi_rate_sim_run (const KomiLadder          *ladder,
                   guint                      n_subjects,
                   guint32                    seed,
                   const KomiRatePlanOptions *options,
                   KomiRateSimFigures        *adaptive,
                   KomiRateSimFigures        *fixed)
{
  g_autoptr(GRand) truths = g_rand_new_with_seed (seed);
  g_autofree guint *games_adaptive = g_new (guint, MAX (n_subjects, 1));
  g_autofree guint *games_fixed = g_new (guint, MAX (n_subjects, 1));
  guint *games[2] = { games_adaptive, games_fixed };
  KomiRateSimFigures *figures[2] = { adaptive, fixed };
  double lo = INFINITY, hi = -INFINITY, width_sum[2] = { 0, 0 };
  guint n_mle[2] = { 0, 0 };

  g_return_if_fail (ladder != NULL && ladder->members->len > 0);
  g_return_if_fail (n_subjects > 0 && options != NULL && adaptive != NULL && fixed != NULL);

  for (guint i = 0; i < ladder->members->len; i++)
    {
      const KomiLadderMember *m = g_ptr_array_index (ladder->members, i);

      lo = MIN (lo, m->rating);
      hi = MAX (hi, m->rating);
    }
  *adaptive = *fixed = (KomiRateSimFigures) { 0, };

  for (guint s = 0; s < n_subjects; s++)
    {
      /* Stratified: one subject in each of n equal slices of the range. */
      double truth = lo + (hi - lo) * (s + g_rand_double (truths)) / n_subjects;
      guint32 subject_seed = g_rand_int (truths);

      for (guint plan = 0; plan < 2; plan++)
        {
          /* Each plan gets its own stream, the same for either order. */
          g_autoptr(GRand) rand = g_rand_new_with_seed (subject_seed ^ (plan ? 0x9e3779b9u : 0));
          KomiRateDecision last;

          games[plan][s] = komi_rate_sim_subject (ladder, truth, (KomiRateSimPlan) plan, options,
                                                  rand, &last);
          if (last.estimate.low <= truth && truth <= last.estimate.high)
            figures[plan]->covered++;
          if (last.stop != KOMI_RATE_PRECISE)
            figures[plan]->unfinished++;
          if (last.estimate.kind == KOMI_ESTIMATE_MLE)
            {
              width_sum[plan] += last.half_width;
              n_mle[plan]++;
            }
        }
    }
  for (guint plan = 0; plan < 2; plan++)
    figures_finish (figures[plan], games[plan], n_subjects, width_sum[plan], n_mle[plan]);
}

KomiLadder *
komi_rate_sim_test_ladder (void)
{
  static const struct { const char *label; double rating, se; } members[] = {
    { "random", 0, 0 },
    { "mix:0.9:gnugo:1", 180, 40 },
    { "mix:0.75:gnugo:1", 350, 50 },
    { "mix:0.5:gnugo:1", 560, 55 },
    { "mix:0.35:gnugo:1", 740, 60 },
    { "mix:0.2:gnugo:1", 900, 65 },
    { "gnugo:1", 1100, 70 },
    { "gnugo:5", 1280, 72 },
    { "gnugo:10", 1430, 75 },
    { "mix:0.5:katago:1", 1620, 80 },
    { "katago:1", 1800, 85 },
    { "katago:4", 2010, 90 },
    { "katago:16", 2250, 95 },
    { "katago:64", 2500, 100 },
  };
  KomiLadder *ladder = _komi_ladder_new ();

  ladder->protocol = 1;
  ladder->pinned = g_strdup ("random");
  ladder->date = g_strdup ("2026-12-01");
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    _komi_ladder_add (ladder, members[i].label, members[i].rating, members[i].se)->games = 100;
  return ladder;
}
