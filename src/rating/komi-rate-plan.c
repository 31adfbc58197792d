/* komi-rate-plan.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "komi-rate-plan.h"
#include "komi-rating-private.h"

/* The belief about the subject is the likelihood on a grid under a flat
 * prior reaching this far past the ladder's ends: wide enough that a
 * subject who beats the top rung is believed above it, narrow enough that
 * a sweep does not send the belief to infinity. */
#define GRID_MARGIN  800.0
#define GRID_STEP    10.0

void
komi_rate_plan_options_init (KomiRatePlanOptions *options)
{
  g_return_if_fail (options != NULL);

  *options = (KomiRatePlanOptions) KOMI_RATE_PLAN_OPTIONS_INIT;
}

void
komi_rate_plan_cells (const KomiLadder *ladder,
                      const double     *games_vs,
                      const double     *score_vs,
                      KomiRatingCell   *cells)
{
  g_return_if_fail (ladder != NULL && cells != NULL);

  for (guint i = 0; i < ladder->members->len; i++)
    {
      const KomiLadderMember *m = g_ptr_array_index (ladder->members, i);

      cells[i].rating = m->rating;
      cells[i].games = games_vs != NULL ? games_vs[i] : 0;
      cells[i].score = score_vs != NULL ? score_vs[i] : 0;
    }
}

/* How much the member's own uncertainty flattens its logistic curve: a
 * logistic averaged over a normal of standard deviation @se (Elo) is close
 * to a logistic with its slope times this (the probit approximation). */
static double
flattening (double se)
{
  double s = (isfinite (se) && se > 0 ? se : 0) * KOMI_ELO_SCALE;

  return 1 / sqrt (1 + G_PI * s * s / 8);
}

double
komi_rate_plan_information (const KomiLadder *ladder,
                            guint             rung,
                            const double     *ratings,
                            const double     *weights,
                            gsize             n)
{
  const KomiLadderMember *m;
  double k, info = 0;

  g_return_val_if_fail (ladder != NULL && rung < ladder->members->len, 0);
  g_return_val_if_fail (n == 0 || (ratings != NULL && weights != NULL), 0);

  m = g_ptr_array_index (ladder->members, rung);
  k = flattening (m->se) * KOMI_ELO_SCALE;
  for (gsize i = 0; i < n; i++)
    {
      double p = 1 / (1 + exp (-k * (ratings[i] - m->rating)));

      /* The information in one game about the subject: (dp/dθ)² / p(1-p). */
      info += weights[i] * k * k * p * (1 - p);
    }
  return info;
}

/* The belief over the grid: the likelihood of @cells at each point,
 * normalised. Returns the number of points. */
static gsize
belief (const KomiLadder *ladder, const KomiRatingCell *cells, double **ratings,
        double **weights)
{
  double lo = INFINITY, hi = -INFINITY, top = -INFINITY, sum = 0;
  guint k = ladder->members->len;
  gsize n;

  for (guint i = 0; i < k; i++)
    {
      lo = MIN (lo, cells[i].rating);
      hi = MAX (hi, cells[i].rating);
    }
  lo -= GRID_MARGIN;
  hi += GRID_MARGIN;
  n = (gsize) ((hi - lo) / GRID_STEP) + 1;
  *ratings = g_new (double, n);
  *weights = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    {
      (*ratings)[i] = lo + i * GRID_STEP;
      (*weights)[i] = komi_rating_loglik (cells, k, (*ratings)[i]);
      top = MAX (top, (*weights)[i]);
    }
  for (gsize i = 0; i < n; i++)
    sum += (*weights)[i] = exp ((*weights)[i] - top);
  for (gsize i = 0; i < n; i++)
    (*weights)[i] /= sum;
  return n;
}

void
komi_rate_plan_decide (const KomiLadder          *ladder,
                       const KomiRatingCell      *cells,
                       const KomiRatePlanOptions *options,
                       KomiRateDecision          *decision)
{
  g_autofree double *ratings = NULL;
  g_autofree double *weights = NULL;
  double games = 0, best = -1, lowest = INFINITY, highest = -INFINITY;
  guint k;
  gsize n;

  g_return_if_fail (ladder != NULL && ladder->members->len > 0);
  g_return_if_fail (cells != NULL && options != NULL && decision != NULL);
  g_return_if_fail (options->target > 0);

  k = ladder->members->len;
  *decision = (KomiRateDecision) { KOMI_RATE_CONTINUE, 0, 0, 0, 0, { 0 }, INFINITY };
  for (guint i = 0; i < k; i++)
    games += cells[i].games;
  decision->games = games;
  decision->pairs = (guint) (games / 2);
  komi_rating_estimate (cells, k, &decision->estimate);
  if (decision->estimate.kind == KOMI_ESTIMATE_MLE)
    decision->half_width = (decision->estimate.high - decision->estimate.low) / 2;

  if (decision->estimate.kind == KOMI_ESTIMATE_MLE && decision->half_width <= options->target
      && decision->pairs >= options->min_pairs)
    {
      decision->stop = KOMI_RATE_PRECISE;
      return;
    }
  /* A sweep whose bound is past the last rung: more games against the
   * end rung only push the bound further out. */
  for (guint i = 0; i < k; i++)
    {
      lowest = MIN (lowest, cells[i].rating);
      highest = MAX (highest, cells[i].rating);
    }
  if (decision->pairs >= options->min_pairs
      && ((decision->estimate.kind == KOMI_ESTIMATE_UPPER_BOUND
           && decision->estimate.bound < lowest)
          || (decision->estimate.kind == KOMI_ESTIMATE_LOWER_BOUND
              && decision->estimate.bound > highest)))
    {
      decision->stop = KOMI_RATE_OFF_LADDER;
      return;
    }
  if (options->max_pairs > 0 && decision->pairs >= options->max_pairs)
    {
      decision->stop = KOMI_RATE_MAX_PAIRS;
      return;
    }

  n = belief (ladder, cells, &ratings, &weights);
  for (guint i = 0; i < k; i++)
    {
      double info = komi_rate_plan_information (ladder, i, ratings, weights, n);

      /* A relative margin keeps ties (a symmetric belief) on the lower
       * rung on every machine. */
      if (info > best * (1 + 1e-9))
        {
          best = info;
          decision->rung = i;
          decision->info = info;
        }
    }
}

guint
komi_rate_plan_round_robin (const KomiLadder *ladder, guint pairs_played)
{
  g_return_val_if_fail (ladder != NULL && ladder->members->len > 0, 0);

  return pairs_played % ladder->members->len;
}

const char *
komi_rate_stop_describe (KomiRateStop stop)
{
  switch (stop)
    {
    case KOMI_RATE_CONTINUE:
      return _("not finished");
    case KOMI_RATE_PRECISE:
      /* xgettext:no-c-format */
      return _("the 95% interval is within the target");
    case KOMI_RATE_MAX_PAIRS:
      return _("the pairs allowed are played");
    case KOMI_RATE_BUDGET:
      return _("another pair could overspend the budget");
    case KOMI_RATE_OFF_LADDER:
      /* xgettext:no-c-format */
      return _("the subject is off the ladder: its 95% bound lies beyond the weakest or the strongest member");
    default:
      g_return_val_if_reached (NULL);
    }
}
