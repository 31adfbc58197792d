/* komi-ladder.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-ladder.h"
#include "komi-rating-private.h"

/* Beyond this a "ladder" is not a handful of reference players, and the
 * dense k×k fit would be the wrong tool. */
#define MAX_MEMBERS 256

/* The log-likelihood at @theta (natural units), its gradient and the
 * Fisher information over the free members (@free_of[i] = row, or -1 for
 * the pinned one). Each pair contributes s log p + s' log (1-p). */
static double
fit_terms (guint k, const double *games, const double *score, const double *theta,
           const int *free_of, guint m, double *grad, double *info)
{
  double loglik = 0;

  if (grad != NULL)
    {
      memset (grad, 0, m * sizeof *grad);
      memset (info, 0, (gsize) m * m * sizeof *info);
    }
  for (guint i = 0; i < k; i++)
    for (guint j = i + 1; j < k; j++)
      {
        double n = games[i * k + j], s = score[i * k + j], d, p, w;
        int a = free_of[i], b = free_of[j];

        if (n <= 0)
          continue;
        d = theta[i] - theta[j];
        loglik += s * _komi_log_sigmoid (d) + (n - s) * _komi_log_sigmoid (-d);
        if (grad == NULL)
          continue;
        p = 1.0 / (1.0 + exp (-d));
        w = n * p * (1 - p);
        if (a >= 0)
          {
            grad[a] += s - n * p;
            info[a * m + a] += w;
          }
        if (b >= 0)
          {
            grad[b] -= s - n * p;
            info[b * m + b] += w;
          }
        if (a >= 0 && b >= 0)
          {
            info[a * m + b] -= w;
            info[b * m + a] -= w;
          }
      }
  return loglik;
}

/* In-place Cholesky factor (lower triangle) of the m×m matrix @a;
 * FALSE unless it is positive definite. */
static gboolean
cholesky (double *a, guint m)
{
  for (guint j = 0; j < m; j++)
    {
      double d = a[j * m + j];

      for (guint q = 0; q < j; q++)
        d -= a[j * m + q] * a[j * m + q];
      if (!(d > 1e-300))
        return FALSE;
      a[j * m + j] = sqrt (d);
      for (guint i = j + 1; i < m; i++)
        {
          double v = a[i * m + j];

          for (guint q = 0; q < j; q++)
            v -= a[i * m + q] * a[j * m + q];
          a[i * m + j] = v / a[j * m + j];
        }
    }
  return TRUE;
}

/* Solves L Lᵀ x = b in place with the factor from cholesky(). */
static void
cholesky_solve (const double *l, guint m, double *x)
{
  for (guint i = 0; i < m; i++)
    {
      for (guint q = 0; q < i; q++)
        x[i] -= l[i * m + q] * x[q];
      x[i] /= l[i * m + i];
    }
  for (guint i = m; i-- > 0;)
    {
      for (guint q = i + 1; q < m; q++)
        x[i] -= l[q * m + i] * x[q];
      x[i] /= l[i * m + i];
    }
}

/* The maximum-likelihood estimate exists exactly when every member can be
 * reached from every other along "took points from" edges (Zermelo, Ford).
 * Otherwise names the groups that won or lost everything against the rest. */
static gboolean
check_placeable (guint k, const double *games, const double *score,
                 const char * const *labels, GError **error)
{
  g_autofree gboolean *reach = g_new0 (gboolean, (gsize) k * k);
  g_autoptr(GString) groups = g_string_new (NULL);
  g_autofree gboolean *seen = g_new0 (gboolean, k);
  gboolean strongly_connected = TRUE;

  for (guint i = 0; i < k; i++)
    for (guint j = 0; j < k; j++)
      reach[i * k + j] = i == j || (games[i * k + j] > 0 && score[i * k + j] > 0);
  for (guint q = 0; q < k; q++)
    for (guint i = 0; i < k; i++)
      if (reach[i * k + q])
        for (guint j = 0; j < k; j++)
          reach[i * k + j] |= reach[q * k + j];
  for (guint j = 0; j < k; j++)
    strongly_connected &= reach[j] && reach[j * k];
  if (strongly_connected)
    return TRUE;

  /* Each group (strongly connected component) that nobody outside took a
   * point from, or that took none from outside, is named. */
  for (guint i = 0; i < k; i++)
    {
      g_autoptr(GString) names = g_string_new (NULL);
      double given = 0, taken = 0, n = 0;

      if (seen[i])
        continue;
      for (guint a = 0; a < k; a++)
        {
          if (!(reach[i * k + a] && reach[a * k + i]))
            continue;
          seen[a] = TRUE;
          g_string_append_printf (names, "%s%s", names->len ? ", " : "", labels[a]);
          for (guint b = 0; b < k; b++)
            if (!(reach[i * k + b] && reach[b * k + i]))
              {
                n += games[a * k + b];
                taken += score[a * k + b];
                given += games[a * k + b] - score[a * k + b];
              }
        }
      if (n > 0 && given > 0 && taken > 0)
        continue;
      g_string_append_printf (groups, "%s%s ", groups->len ? "; " : "", names->str);
      if (n == 0)
        g_string_append (groups, _("played no game against the other members"));
      else
        g_string_append_printf (groups,
                                given == 0 ? _("won all %g games against the other members")
                                           : _("lost all %g games against the other members"),
                                n);
    }

  g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_UNPLACEABLE,
               /* Translators: %s lists the members that cannot be placed, with why. */
               _("the ladder cannot be calibrated: %s. A rating exists only when every member "
                 "both took and gave up points across the ladder: add games between "
                 "neighbouring members, or a member of intermediate strength"), groups->str);
  return FALSE;
}

gboolean
komi_ladder_fit (guint               k,
                 const double       *games,
                 const double       *score,
                 guint               pinned,
                 double              pinned_rating,
                 const char * const *labels,
                 double             *ratings,
                 double             *se,
                 GError            **error)
{
  return komi_ladder_fit_cov (k, games, score, pinned, pinned_rating, labels, ratings, se,
                              NULL, error);
}

gboolean
komi_ladder_fit_cov (guint               k,
                     const double       *games,
                     const double       *score,
                     guint               pinned,
                     double              pinned_rating,
                     const char * const *labels,
                     double             *ratings,
                     double             *se,
                     double             *cov,
                     GError            **error)
{
  const guint m = k - 1;
  g_autofree double *theta = g_new (double, k);
  g_autofree double *trial = g_new (double, k);
  g_autofree int *free_of = g_new (int, k);
  g_autofree double *grad = g_new (double, MAX (m, 1));
  g_autofree double *info = g_new (double, (gsize) MAX (m, 1) * MAX (m, 1));
  g_autofree double *unit = g_new (double, MAX (m, 1));
  double loglik, step = INFINITY;
  guint iter;

  g_return_val_if_fail (k >= 2 && pinned < k && games && score && labels, FALSE);

  if (!check_placeable (k, games, score, labels, error))
    return FALSE;
  for (guint i = 0, row = 0; i < k; i++)
    {
      free_of[i] = i == pinned ? -1 : (int) row++;
      theta[i] = pinned_rating * KOMI_ELO_SCALE;
    }

  /* Newton on the concave log-likelihood, halving steps that do not
   * raise it; stops when no rating moves by more than ~1e-8 Elo. */
  loglik = fit_terms (k, games, score, theta, free_of, m, grad, info);
  for (iter = 0; iter < 200 && step > 1e-10; iter++)
    {
      double t = 1, next = -INFINITY;

      if (!cholesky (info, m))
        break;
      cholesky_solve (info, m, grad);
      for (; t > 1e-12; t /= 2)
        {
          for (guint i = 0; i < k; i++)
            trial[i] = theta[i] + (free_of[i] >= 0 ? t * grad[free_of[i]] : 0);
          next = fit_terms (k, games, score, trial, free_of, m, NULL, NULL);
          if (next >= loglik - 1e-12 * fabs (loglik))
            break;
        }
      step = 0;
      for (guint i = 0; i < k; i++)
        step = MAX (step, fabs (trial[i] - theta[i]));
      memcpy (theta, trial, k * sizeof *theta);
      loglik = fit_terms (k, games, score, theta, free_of, m, grad, info);
    }
  if (step > 1e-10 || !cholesky (info, m))
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_UNPLACEABLE,
                   _("the ladder fit did not converge after %u steps; check the calibration "
                     "games for members with almost no results against the rest"), iter);
      return FALSE;
    }

  /* Standard errors: the diagonal of the inverse Fisher information, the
   * pinned member held fixed (so its error is 0 and the others' are
   * relative to it). */
  if (cov != NULL)
    memset (cov, 0, (gsize) k * k * sizeof *cov);
  for (guint i = 0; i < k; i++)
    {
      ratings[i] = theta[i] / KOMI_ELO_SCALE;
      se[i] = 0;
      if (free_of[i] < 0)
        continue;
      memset (unit, 0, m * sizeof *unit);
      unit[free_of[i]] = 1;
      cholesky_solve (info, m, unit);
      se[i] = sqrt (unit[free_of[i]]) / KOMI_ELO_SCALE;
      for (guint j = 0; cov != NULL && j < k; j++)
        if (free_of[j] >= 0)
          cov[i * k + j] = unit[free_of[j]] / (KOMI_ELO_SCALE * KOMI_ELO_SCALE);
    }
  ratings[pinned] = pinned_rating;
  return TRUE;
}

static int
compare_members (gconstpointer a, gconstpointer b)
{
  const KomiLadderMember *x = *(KomiLadderMember * const *) a;
  const KomiLadderMember *y = *(KomiLadderMember * const *) b;

  return x->rating < y->rating ? -1 : x->rating > y->rating ? 1 : strcmp (x->label, y->label);
}

static void
member_free (gpointer data)
{
  KomiLadderMember *member = data;

  g_free (member->label);
  g_clear_pointer (&member->pins, json_node_unref);
  g_free (member);
}

KomiLadder *
_komi_ladder_new (void)
{
  KomiLadder *ladder = g_new0 (KomiLadder, 1);

  ladder->members = g_ptr_array_new_with_free_func (member_free);
  return ladder;
}

KomiLadderMember *
_komi_ladder_add (KomiLadder *ladder, const char *label, double rating, double se)
{
  KomiLadderMember *member = g_new0 (KomiLadderMember, 1);

  member->label = g_strdup (label);
  member->step = NAN;
  member->step_se = NAN;
  member->rating = rating;
  member->se = se;
  member->low = rating - KOMI_Z95 * se;
  member->high = rating + KOMI_Z95 * se;
  g_ptr_array_add (ladder->members, member);
  return member;
}

KomiLadder *
komi_ladder_calibrate (const KomiGameResult *results,
                       gsize                 n_results,
                       const char           *pinned,
                       double                pinned_rating,
                       GError              **error)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  g_autoptr(GArray) points = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree double *games = NULL, *score = NULL, *ratings = NULL, *se = NULL, *cov = NULL;
  g_autofree guint *played = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  gpointer found;
  guint protocol, k, n_rated = 0;

  g_return_val_if_fail (results != NULL || n_results == 0, NULL);

  if (pinned == NULL)
    pinned = KOMI_LADDER_DEFAULT_PINNED;
  if (!komi_game_results_protocol (results, n_results, &protocol, error))
    return NULL;

  /* First pass: members and each rated game's pair and points for Black. */
  for (gsize g = 0; g < n_results; g++)
    {
      const KomiGameResult *r = &results[g];
      guint pair[2];
      double black_points;

      if (!komi_game_result_check (r, error))
        {
          g_prefix_error (error, _("result %zu: "), g + 1);
          return NULL;
        }
      if (r->outcome == KOMI_RESULT_VOID)
        continue;
      for (int side = 0; side < 2; side++)
        {
          const char *label = side == 0 ? r->black : r->white;

          if (!g_hash_table_lookup_extended (index, label, NULL, &found))
            {
              found = GUINT_TO_POINTER (labels->len);
              g_hash_table_insert (index, (char *) label, found);
              g_ptr_array_add (labels, (char *) label);
            }
          pair[side] = GPOINTER_TO_UINT (found);
        }
      black_points = r->winner == KOMI_BLACK ? 1 : r->winner == KOMI_WHITE ? 0 : 0.5;
      g_array_append_val (pairs, pair);
      g_array_append_val (points, black_points);
    }
  k = labels->len;
  if (k < 2)
    {
      g_set_error_literal (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                           _("calibration needs rated games between ladder members, and these "
                             "results have none (void games are never rated)"));
      return NULL;
    }
  if (k > MAX_MEMBERS)
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                   _("the calibration games involve %u players; a ladder holds at most %d: "
                     "calibrate from the ladder members' games only"), k, MAX_MEMBERS);
      return NULL;
    }
  if (!g_hash_table_lookup_extended (index, pinned, NULL, &found))
    {
      g_autofree char *all = NULL;

      g_ptr_array_add (labels, NULL);
      all = g_strjoinv (", ", (char **) labels->pdata);
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                   _("the member to pin, '%s', played no calibration game; pin one of: %s"),
                   pinned, all);
      return NULL;
    }

  /* Aggregate into k×k counts: the fit never looks at single games. */
  games = g_new0 (double, (gsize) k * k);
  score = g_new0 (double, (gsize) k * k);
  played = g_new0 (guint, k);
  for (guint g = 0; g < pairs->len; g++)
    {
      const guint *pair = &g_array_index (pairs, guint, 2 * g);
      double b = g_array_index (points, double, g);

      games[pair[0] * k + pair[1]] += 1;
      games[pair[1] * k + pair[0]] += 1;
      score[pair[0] * k + pair[1]] += b;
      score[pair[1] * k + pair[0]] += 1 - b;
      played[pair[0]]++;
      played[pair[1]]++;
      n_rated++;
    }

  ratings = g_new (double, k);
  se = g_new (double, k);
  cov = g_new (double, (gsize) k * k);
  if (!komi_ladder_fit_cov (k, games, score, GPOINTER_TO_UINT (found), pinned_rating,
                            (const char * const *) labels->pdata, ratings, se, cov, error))
    return NULL;

  ladder = _komi_ladder_new ();
  ladder->protocol = protocol;
  ladder->pinned = g_strdup (pinned);
  ladder->date = g_date_time_format (now, "%Y-%m-%d");
  ladder->games = n_rated;
  for (guint i = 0; i < k; i++)
    _komi_ladder_add (ladder, labels->pdata[i], ratings[i], se[i])->games = played[i];
  g_ptr_array_sort (ladder->members, compare_members);
  /* The covariance in the sorted order, for the subjects' intervals with
   * the ladder's uncertainty (komi_rating_ladder_variance()). */
  ladder->covariance = g_new (double, (gsize) k * k);
  for (guint i = 0; i < k; i++)
    for (guint j = 0; j < k; j++)
      {
        guint a = GPOINTER_TO_UINT (g_hash_table_lookup (
          index, ((KomiLadderMember *) ladder->members->pdata[i])->label));
        guint b = GPOINTER_TO_UINT (g_hash_table_lookup (
          index, ((KomiLadderMember *) ladder->members->pdata[j])->label));

        ladder->covariance[i * k + j] = cov[a * k + b];
      }
  /* Each member's rating above the one below it, and how well the games
   * know that difference: Var(a − b) = Var a + Var b − 2 Cov(a, b). */
  for (guint i = 1; i < ladder->members->len; i++)
    {
      KomiLadderMember *member = ladder->members->pdata[i];
      const KomiLadderMember *below = ladder->members->pdata[i - 1];
      guint a = GPOINTER_TO_UINT (g_hash_table_lookup (index, member->label));
      guint b = GPOINTER_TO_UINT (g_hash_table_lookup (index, below->label));

      member->step = member->rating - below->rating;
      member->step_se = sqrt (MAX (0.0, cov[a * k + a] + cov[b * k + b] - 2 * cov[a * k + b]));
    }
  return g_steal_pointer (&ladder);
}

void
komi_ladder_free (KomiLadder *ladder)
{
  if (ladder == NULL)
    return;
  g_free (ladder->pinned);
  g_free (ladder->date);
  g_free (ladder->referee);
  g_free (ladder->made_by);
  g_clear_pointer (&ladder->calibration, json_node_unref);
  g_free (ladder->covariance);
  g_ptr_array_unref (ladder->members);
  g_free (ladder);
}

const KomiLadderMember *
komi_ladder_lookup (const KomiLadder *ladder, const char *label)
{
  g_return_val_if_fail (ladder != NULL && label != NULL, NULL);

  for (guint i = 0; i < ladder->members->len; i++)
    {
      const KomiLadderMember *member = ladder->members->pdata[i];

      if (strcmp (member->label, label) == 0)
        return member;
    }
  return NULL;
}
