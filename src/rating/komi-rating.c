/* komi-rating.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-orientation.h"
#include "komi-rating.h"
#include "komi-rating-private.h"

/* ---- the 1-D fit ------------------------------------------------------ */

double
komi_rating_loglik (const KomiRatingCell *cells, gsize n_cells, double rating)
{
  double loglik = 0;

  for (gsize i = 0; i < n_cells; i++)
    {
      double d = (rating - cells[i].rating) * KOMI_ELO_SCALE;

      if (cells[i].score > 0)
        loglik += cells[i].score * _komi_log_sigmoid (d);
      if (cells[i].games > cells[i].score)
        loglik += (cells[i].games - cells[i].score) * _komi_log_sigmoid (-d);
    }
  return loglik;
}

/* First and second derivative of the log-likelihood in Elo units. */
static void
derivatives (const KomiRatingCell *cells, gsize n_cells, double rating, double *d1, double *d2)
{
  *d1 = *d2 = 0;
  for (gsize i = 0; i < n_cells; i++)
    {
      double p = komi_elo_expected (rating - cells[i].rating);

      *d1 += cells[i].score - cells[i].games * p;
      *d2 -= cells[i].games * p * (1 - p);
    }
  *d1 *= KOMI_ELO_SCALE;
  *d2 *= KOMI_ELO_SCALE * KOMI_ELO_SCALE;
}

/* The rating on side @dir (+1, -1) of @from where the log-likelihood falls
 * to @target, given that it is above @target at @from and falls
 * monotonically in that direction. Bisection: slow but cannot fail. */
static double
find_level (const KomiRatingCell *cells, gsize n_cells, double from, int dir, double target)
{
  double near = from, far = from, step = 50;

  for (;;)
    {
      far = from + dir * step;
      if (komi_rating_loglik (cells, n_cells, far) <= target)
        break;
      near = far;
      step *= 2;
      if (step > 1e9)
        return dir * INFINITY;
    }
  for (int i = 0; i < 200 && fabs (far - near) > 1e-9; i++)
    {
      double mid = (near + far) / 2;

      if (komi_rating_loglik (cells, n_cells, mid) > target)
        near = mid;
      else
        far = mid;
    }
  return (near + far) / 2;
}

/* The root of the score equation Σ n p = Σ s, which exists when
 * 0 < Σ s < Σ n: safeguarded Newton inside a bracket that always holds it. */
static double
solve_mle (const KomiRatingCell *cells, gsize n_cells, double lo, double hi)
{
  double x = (lo + hi) / 2, d1, d2;

  for (double step = 400; derivatives (cells, n_cells, lo, &d1, &d2), d1 <= 0; step *= 2)
    lo -= step;
  for (double step = 400; derivatives (cells, n_cells, hi, &d1, &d2), d1 >= 0; step *= 2)
    hi += step;
  for (int i = 0; i < 200; i++)
    {
      double next;

      derivatives (cells, n_cells, x, &d1, &d2);
      if (d1 > 0)
        lo = x;
      else
        hi = x;
      next = d2 < 0 ? x - d1 / d2 : (lo + hi) / 2;
      if (!(next > lo && next < hi))
        next = (lo + hi) / 2;
      if (fabs (next - x) < 1e-10 || hi - lo < 1e-10)
        return next;
      x = next;
    }
  return x;
}

void
komi_rating_estimate (const KomiRatingCell *cells, gsize n_cells, KomiEstimate *out)
{
  double games = 0, score = 0, lo = INFINITY, hi = -INFINITY, d1, d2, top;

  g_return_if_fail (out != NULL);
  g_return_if_fail (cells != NULL || n_cells == 0);

  *out = (KomiEstimate) { KOMI_ESTIMATE_NONE, NAN, NAN, NAN, NAN, NAN };
  for (gsize i = 0; i < n_cells; i++)
    if (cells[i].games > 0)
      {
        games += cells[i].games;
        score += cells[i].score;
        lo = MIN (lo, cells[i].rating - 400);
        hi = MAX (hi, cells[i].rating + 400);
      }
  if (games <= 0)
    return;

  if (score <= 0 || score >= games)
    {
      /* A sweep: the likelihood rises without limit toward ±∞, so there is
       * no estimate. The bound is where the sweep had probability 5%: the
       * log-likelihood of a sweep *is* the log of its probability. */
      gboolean won = score >= games;
      double from = won ? hi : lo;

      while (komi_rating_loglik (cells, n_cells, from) <= log (0.05))
        from += won ? 400 : -400;
      out->kind = won ? KOMI_ESTIMATE_LOWER_BOUND : KOMI_ESTIMATE_UPPER_BOUND;
      out->bound = find_level (cells, n_cells, from, won ? -1 : 1, log (0.05));
      out->low = won ? out->bound : -INFINITY;
      out->high = won ? INFINITY : out->bound;
      return;
    }

  out->kind = KOMI_ESTIMATE_MLE;
  out->rating = solve_mle (cells, n_cells, lo, hi);
  derivatives (cells, n_cells, out->rating, &d1, &d2);
  out->se = 1 / sqrt (-d2);
  top = komi_rating_loglik (cells, n_cells, out->rating);
  out->low = find_level (cells, n_cells, out->rating, -1, top - KOMI_PROFILE_DROP);
  out->high = find_level (cells, n_cells, out->rating, 1, top - KOMI_PROFILE_DROP);
}

/* ---- the ladder's uncertainty ---------------------------------------- */

double
komi_rating_ladder_variance (const KomiLadder *ladder, const double *games_vs, double rating)
{
  const guint k = ladder->members->len;
  g_autofree double *g = NULL;
  double total = 0, variance = 0;

  g_return_val_if_fail (ladder != NULL && games_vs != NULL, NAN);

  if (ladder->covariance == NULL || !isfinite (rating))
    return NAN;
  g = g_new0 (double, k);
  for (guint i = 0; i < k; i++)
    {
      double p = komi_elo_expected (rating - ((KomiLadderMember *) ladder->members->pdata[i])->rating);

      total += g[i] = games_vs[i] * p * (1 - p);
    }
  if (total <= 0)
    return NAN;
  for (guint i = 0; i < k; i++)
    for (guint j = 0; j < k; j++)
      variance += g[i] / total * ladder->covariance[i * k + j] * g[j] / total;
  return MAX (variance, 0);
}

void
komi_estimate_add_ladder (KomiEstimate *estimate, double variance)
{
  double below, above, extra;

  g_return_if_fail (estimate != NULL);

  if (estimate->kind != KOMI_ESTIMATE_MLE || !(variance >= 0))
    return;
  below = estimate->rating - estimate->low;
  above = estimate->high - estimate->rating;
  extra = KOMI_Z95 * KOMI_Z95 * variance;
  estimate->low = estimate->rating - sqrt (below * below + extra);
  estimate->high = estimate->rating + sqrt (above * above + extra);
  estimate->se = sqrt (estimate->se * estimate->se + variance);
  estimate->ladder_se = sqrt (variance);
}

gboolean
komi_rating_add_ladder_uncertainty (const KomiLadder *ladder,
                                    GPtrArray        *subjects,
                                    GError          **error)
{
  const guint k = ladder->members->len;
  g_autofree double *games_vs = g_new0 (double, MAX (k, 1));

  g_return_val_if_fail (ladder != NULL && subjects != NULL, FALSE);

  if (ladder->covariance == NULL)
    {
      g_set_error_literal (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                           _("this ladder file holds no covariance of its members' ratings, "
                             "so the ladder's uncertainty cannot be added; refit it with "
                             "'komi-cli ratings calibrate', which writes one"));
      return FALSE;
    }
  for (guint s = 0; s < subjects->len; s++)
    {
      KomiSubjectRating *rating = subjects->pdata[s];

      memset (games_vs, 0, k * sizeof *games_vs);
      for (guint i = 0; rating->opponents != NULL && i < rating->opponents->len; i++)
        {
          const KomiScoreRow *row = &g_array_index (rating->opponents, KomiScoreRow, i);

          for (guint m = 0; m < k; m++)
            if (g_strcmp0 (((KomiLadderMember *) ladder->members->pdata[m])->label,
                           row->label) == 0)
              games_vs[m] = komi_score_row_games (row);
        }
      komi_estimate_add_ladder (&rating->estimate,
                                komi_rating_ladder_variance (ladder, games_vs,
                                                             rating->estimate.rating));
    }
  return TRUE;
}

/* ---- the fit ---------------------------------------------------------- */

/* The regularised upper incomplete gamma Q(a, x): a series below a + 1, a
 * continued fraction (modified Lentz) above, as in every numerical
 * library. */
static double
gamma_q (double a, double x)
{
  double gln = lgamma (a);

  if (x <= 0)
    return 1;
  if (x < a + 1)
    {
      double ap = a, sum = 1 / a, del = sum;

      for (int n = 0; n < 1000 && fabs (del) > fabs (sum) * 1e-15; n++)
        {
          ap += 1;
          del *= x / ap;
          sum += del;
        }
      return 1 - sum * exp (-x + a * log (x) - gln);
    }
  else
    {
      double b = x + 1 - a, c = 1 / 1e-300, d = 1 / b, h = d;

      for (int i = 1; i < 1000; i++)
        {
          double an = -i * (i - a), del;

          b += 2;
          d = an * d + b;
          if (fabs (d) < 1e-300)
            d = 1e-300;
          c = b + an / c;
          if (fabs (c) < 1e-300)
            c = 1e-300;
          d = 1 / d;
          del = d * c;
          h *= del;
          if (fabs (del - 1) < 1e-15)
            break;
        }
      return exp (-x + a * log (x) - gln) * h;
    }
}

double
komi_chi2_survival (double x, guint dof)
{
  if (dof == 0 || isnan (x))
    return NAN;
  return gamma_q (dof / 2.0, x / 2.0);
}

/* Observed against predicted per member, at the estimate; rows without a
 * rated game, and subjects without an estimate, have no fit. */
static void
subject_fit (KomiSubjectRating *rating)
{
  KomiSubjectFit *fit = &rating->fit;
  guint played = 0;

  *fit = (KomiSubjectFit) { NAN, 0, NAN, FALSE };
  for (guint i = 0; i < rating->opponents->len; i++)
    {
      KomiScoreRow *row = &g_array_index (rating->opponents, KomiScoreRow, i);
      guint games = komi_score_row_games (row);
      double p, var;

      row->predicted = row->z = NAN;
      if (games == 0 || rating->estimate.kind != KOMI_ESTIMATE_MLE)
        continue;
      p = komi_elo_expected (rating->estimate.rating - row->rating);
      var = games * p * (1 - p);
      row->predicted = games * p;
      row->z = var > 0 ? (row->wins + row->draws / 2.0 - row->predicted) / sqrt (var) : 0;
      fit->chi2 = (played == 0 ? 0 : fit->chi2) + row->z * row->z;
      played++;
    }
  if (played == 0)
    return;
  fit->dof = played - 1;
  fit->p = komi_chi2_survival (fit->chi2, fit->dof);
  fit->inconsistent = fit->dof > 0 && fit->p < KOMI_FIT_P_FLAG;
}

double
komi_subject_colour_lean (const KomiSubjectRating *rating)
{
  guint black = komi_score_row_games (&rating->colors[0]);
  guint white = komi_score_row_games (&rating->colors[1]);

  if (black + white == 0 || black == white)
    return 0;
  return KOMI_WHITE_ADVANTAGE_ELO * ((double) white - black) / (white + black);
}

/* ---- score tables ----------------------------------------------------- */

guint
komi_score_row_games (const KomiScoreRow *row)
{
  return row->wins + row->losses + row->draws;
}

double
komi_score_row_score (const KomiScoreRow *row)
{
  guint games = komi_score_row_games (row);

  return games > 0 ? (row->wins + row->draws / 2.0) / games : NAN;
}

/* Counts one game, seen from the subject's side. */
static void
row_count (KomiScoreRow *row, const KomiGameResult *r)
{
  gboolean forfeit = r->outcome == KOMI_RESULT_FORFEIT;

  if (r->outcome == KOMI_RESULT_VOID)
    {
      row->voids++;
      return;
    }
  if (r->winner == KOMI_EMPTY)
    row->draws++;
  else if (r->winner == r->subject)
    {
      row->wins++;
      row->forfeits_won += forfeit;
    }
  else
    {
      row->losses++;
      row->forfeits_lost += forfeit;
    }
  row->turn_limit += r->end_reason == KOMI_END_TURN_LIMIT;
}

static void
row_add (KomiScoreRow *into, const KomiScoreRow *row)
{
  into->wins += row->wins;
  into->losses += row->losses;
  into->draws += row->draws;
  into->forfeits_lost += row->forfeits_lost;
  into->forfeits_won += row->forfeits_won;
  into->turn_limit += row->turn_limit;
  into->voids += row->voids;
}

/* While counting: one row per (ladder member, subject colour). */
typedef struct
{
  KomiSubjectRating *rating;   /* owned by the output array */
  KomiScoreRow      *cells;
} Tally;

static void
tally_clear (gpointer data)
{
  g_free (((Tally *) data)->cells);
}

static void
opponent_row_clear (gpointer data)
{
  KomiScoreRow *row = data;

  g_free ((char *) row->label);
}

void
komi_subject_rating_free (KomiSubjectRating *rating)
{
  if (rating == NULL)
    return;
  g_free (rating->subject);
  g_free (rating->why_unrated);
  g_clear_pointer (&rating->opponents, g_array_unref);
  g_free (rating);
}

GPtrArray *
komi_rating_rate_subjects (const KomiLadder     *ladder,
                           const KomiGameResult *results,
                           gsize                 n_results,
                           GError              **error)
{
  g_autoptr(GHashTable) members = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) subjects = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) out = NULL;
  g_autoptr(GArray) tallies = g_array_new (FALSE, FALSE, sizeof (Tally));
  const guint k = ladder ? ladder->members->len : 0;
  g_autofree KomiRatingCell *cells = g_new0 (KomiRatingCell, MAX (k, 1));
  gpointer found;
  guint protocol;

  g_return_val_if_fail (ladder != NULL, NULL);
  g_return_val_if_fail (results != NULL || n_results == 0, NULL);

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_subject_rating_free);
  g_array_set_clear_func (tallies, tally_clear);
  if (!komi_game_results_protocol (results, n_results, &protocol, error))
    return NULL;
  if (n_results > 0 && protocol != ladder->protocol)
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_MIXED_PROTOCOLS,
                   _("the ladder was calibrated under Protocol %u but these are Protocol %u "
                     "games; rate them against a Protocol %u ladder"),
                   ladder->protocol, protocol, protocol);
      return NULL;
    }
  for (guint i = 0; i < k; i++)
    g_hash_table_insert (members, ((KomiLadderMember *) ladder->members->pdata[i])->label,
                         GUINT_TO_POINTER (i));

  /* One pass over the games into (subject, member, colour) counts; all
   * later work is on at most k×2 cells per subject. */
  for (gsize g = 0; g < n_results; g++)
    {
      const KomiGameResult *r = &results[g];
      const char *subject, *opponent;
      Tally *tally;
      guint member;

      if (r->subject == KOMI_EMPTY)
        continue;
      if (!komi_game_result_check (r, error))
        {
          g_prefix_error (error, _("result %zu: "), g + 1);
          return NULL;
        }
      subject = komi_game_result_subject (r);
      opponent = komi_game_result_opponent (r);
      if (!g_hash_table_lookup_extended (members, opponent, NULL, &found))
        {
          g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NOT_ON_LADDER,
                       _("%s played %s, which is not on the ladder; calibrate a ladder that "
                         "includes it, or leave those games out"), subject, opponent);
          return NULL;
        }
      member = GPOINTER_TO_UINT (found);
      if (!g_hash_table_lookup_extended (subjects, subject, NULL, &found))
        {
          Tally fresh = { g_new0 (KomiSubjectRating, 1), g_new0 (KomiScoreRow, 2 * MAX (k, 1)) };

          fresh.rating->subject = g_strdup (subject);
          fresh.rating->protocol = protocol;
          found = GUINT_TO_POINTER (tallies->len);
          g_hash_table_insert (subjects, fresh.rating->subject, found);
          g_array_append_val (tallies, fresh);
          g_ptr_array_add (out, fresh.rating);
        }
      tally = &g_array_index (tallies, Tally, GPOINTER_TO_UINT (found));
      row_count (&tally->cells[2 * member + (r->subject == KOMI_WHITE)], r);
      row_count (&tally->rating->orientations[r->orientation], r);
    }

  for (guint s = 0; s < tallies->len; s++)
    {
      Tally *tally = &g_array_index (tallies, Tally, s);
      KomiSubjectRating *rating = tally->rating;

      rating->opponents = g_array_new (FALSE, TRUE, sizeof (KomiScoreRow));
      g_array_set_clear_func (rating->opponents, opponent_row_clear);
      for (guint i = 0; i < k; i++)
        {
          const KomiLadderMember *member = ladder->members->pdata[i];
          KomiScoreRow row = { .label = NULL, .rating = member->rating };

          row_add (&row, &tally->cells[2 * i]);
          row_add (&row, &tally->cells[2 * i + 1]);
          row_add (&rating->colors[0], &tally->cells[2 * i]);
          row_add (&rating->colors[1], &tally->cells[2 * i + 1]);
          row_add (&rating->total, &row);
          cells[i] = (KomiRatingCell) { member->rating, komi_score_row_games (&row),
                                        row.wins + row.draws / 2.0 };
          if (komi_score_row_games (&row) + row.voids == 0)
            continue;
          row.label = g_strdup (member->label);
          g_array_append_val (rating->opponents, row);
        }
      rating->total.label = "all";
      rating->total.rating = NAN;
      for (int c = 0; c < 2; c++)
        {
          rating->colors[c].label = c == 0 ? "Black" : "White";
          rating->colors[c].rating = NAN;
        }
      for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
        {
          rating->orientations[o].label = komi_orientation_to_string (o);
          rating->orientations[o].rating = NAN;
        }
      komi_rating_estimate (cells, k, &rating->estimate);
      rating->total.predicted = rating->total.z = NAN;
      for (int c = 0; c < 2; c++)
        rating->colors[c].predicted = rating->colors[c].z = NAN;
      for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
        rating->orientations[o].predicted = rating->orientations[o].z = NAN;
      subject_fit (rating);
    }

  if (out->len == 0)
    {
      g_set_error_literal (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                           _("no game has a subject to rate (every game is a ladder game); "
                             "mark the subject's colour in each of its games"));
      return NULL;
    }
  return g_steal_pointer (&out);
}

double
komi_rating_bench (guint n_games, guint32 seed)
{
  static const char * const labels[] = { "random", "gnugo:1", "gnugo:10", "katago:100" };
  static const double truth[] = { 0, 400, 900, 1500 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(KomiLadder) ladder = _komi_ladder_new ();
  g_autoptr(GPtrArray) rated = NULL;
  gint64 start;

  ladder->protocol = 1;
  ladder->pinned = g_strdup (labels[0]);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      _komi_ladder_add (ladder, labels[i], truth[i], 0);
      komi_result_list_simulate (list, 1, "subject", 700, labels[i], truth[i],
                                 n_games / 4 + (i < n_games % 4), TRUE, rand);
    }

  start = g_get_monotonic_time ();
  rated = komi_rating_rate_subjects (ladder, (KomiGameResult *) (void *) list->results->data,
                                     list->results->len, NULL);
  return rated != NULL ? (g_get_monotonic_time () - start) / 1e6 : -1;
}
