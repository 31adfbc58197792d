/* komi-ladder-fit.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "komi-ladder-ship.h"
#include "komi-rating.h"
#include "komi-resources.h"

/* The ladder's own evidence: its calibration games, compiled in beside
 * it, and how well its frozen ratings predict them. */

KomiResultList *
komi_ladder_shipped_games (guint    protocol,
                           GError **error)
{
  g_autofree char *path = g_strdup_printf ("/io/github/komigo/Komi/ladder/protocol-%u-games.csv",
                                           protocol);
  g_autofree char *name = g_strdup_printf ("protocol-%u-games.csv", protocol);
  g_autoptr(GBytes) bytes = g_resource_lookup_data (komi_get_resource (), path,
                                                    G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  gsize length = 0;
  const char *text;

  if (bytes == NULL)
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                   _("Komi ships no calibration games for Protocol %u; give the games with "
                     "--results FILE"), protocol);
      return NULL;
    }
  text = g_bytes_get_data (bytes, &length);
  return komi_result_list_parse (text, length, name, error);
}

static int
member_index (const KomiLadder *ladder, const char *label)
{
  for (guint m = 0; m < ladder->members->len; m++)
    if (strcmp (((KomiLadderMember *) ladder->members->pdata[m])->label, label) == 0)
      return (int) m;
  return -1;
}

char *
komi_ladder_fit_format_text (const KomiLadder     *ladder,
                             const KomiGameResult *results,
                             gsize                 n_results)
{
  const guint k = ladder->members->len;
  g_autofree double *games = g_new0 (double, k * k);
  g_autofree double *score = g_new0 (double, k * k);   /* the stronger one's points */
  double chi2[3] = { 0, }, pairs[3] = { 0, };
  GString *out = g_string_new (NULL);
  int width = 4;

  for (gsize g = 0; g < n_results; g++)
    {
      const KomiGameResult *r = &results[g];
      int b = member_index (ladder, r->black), w = member_index (ladder, r->white), lo, hi;

      if (b < 0 || w < 0 || r->outcome == KOMI_RESULT_VOID || r->protocol != ladder->protocol)
        continue;
      lo = MIN (b, w);
      hi = MAX (b, w);
      games[lo * k + hi] += 1;
      if (r->winner == KOMI_EMPTY)
        score[lo * k + hi] += 0.5;
      else if ((r->winner == KOMI_BLACK ? b : w) == hi)
        score[lo * k + hi] += 1;
    }
  for (guint i = 0; i < k; i++)
    for (guint j = i + 1; j < k; j++)
      if (games[i * k + j] > 0)
        width = MAX (width, (int) (g_utf8_strlen (((KomiLadderMember *)
                                                   ladder->members->pdata[j])->label, -1)
                                   + g_utf8_strlen (((KomiLadderMember *)
                                                     ladder->members->pdata[i])->label, -1)
                                   + 3));

  g_string_append_printf (out, "The ladder's fit to its games (Protocol %u): for every pair of "
                          "members that met, the stronger one's points and what the frozen "
                          "ratings predict\n", ladder->protocol);
  g_string_append_printf (out, "  %-*s %5s %6s %9s %9s %6s\n", width, "Pair", "Apart", "Games",
                          "Observed", "Predicted", "z");
  for (guint i = 0; i < k; i++)
    for (guint j = i + 1; j < k; j++)
      {
        const KomiLadderMember *weak = ladder->members->pdata[i];
        const KomiLadderMember *strong = ladder->members->pdata[j];
        double n = games[i * k + j], p, predicted, z;
        g_autofree char *pair = NULL;
        int pad, kind = j - i == 1 ? 0 : 1;

        if (n <= 0)
          continue;
        p = komi_elo_expected (strong->rating - weak->rating);
        predicted = n * p;
        z = p > 0 && p < 1 ? (score[i * k + j] - predicted) / sqrt (n * p * (1 - p)) : 0;
        chi2[kind] += z * z;
        pairs[kind] += 1;
        chi2[2] += z * z;
        pairs[2] += 1;
        pair = g_strdup_printf ("%s – %s", strong->label, weak->label);
        pad = width - (int) g_utf8_strlen (pair, -1);
        g_string_append_printf (out, "  %s%*s %5u %6.0f %9.1f %9.1f %+6.2f\n", pair,
                                MAX (pad, 0), "", j - i, n, score[i * k + j], predicted, z);
      }
  if (pairs[0] > 0)
    g_string_append_printf (out, "\n  Neighbours (1 step apart): Σz² %.1f on %.0f pairs.\n",
                            chi2[0], pairs[0]);
  if (pairs[1] > 0)
    g_string_append_printf (out, "  Further apart (2 steps or more, the check that the steps add "
                            "up): Σz² %.1f on %.0f pairs, p %.2g.\n", chi2[1], pairs[1],
                            komi_chi2_survival (chi2[1], (guint) pairs[1]));
  if (pairs[2] > k - 1)
    g_string_append_printf (out, "  All pairs: Σz² %.1f on %.0f pairs less %u fitted ratings = "
                            "%.0f degrees of freedom, p %.2g.\n", chi2[2], pairs[2], k - 1,
                            pairs[2] - (k - 1),
                            komi_chi2_survival (chi2[2], (guint) (pairs[2] - (k - 1))));
  else if (pairs[2] > 0)
    g_string_append (out, "  No more pairs than fitted ratings: these games cannot test the "
                          "fit.\n");
  else
    g_string_append (out, "  No two members met in these games.\n");
  return g_string_free (out, FALSE);
}
