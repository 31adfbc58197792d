/* komi-rating-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <math.h>

#include "komi-ladder.h"

G_BEGIN_DECLS

/* Natural-log units per Elo point: p = 1/(1+10^(-d/400)) = σ(d·scale). */
#define KOMI_ELO_SCALE  (G_LN10 / 400.0)
/* The two-sided 95% normal quantile (the ladder members' Wald intervals).
 * A subject's profile-likelihood interval is where the log-likelihood is
 * within KOMI_PROFILE_DROP of its maximum: half the χ²₁ quantile of the
 * 96.5% level (z 2.1084), not of 95% (1.9207), because at 95% the intervals
 * of subjects rated by the adaptive plan held the true rating only 93.7–94.8%
 * of the time (the plan's stop and its choice of rungs make them a little
 * narrow); at 96.5% they hold it at least 95% of the time (docs/ratings.md,
 * "The interval's level"). Part of the Protocol 1 scale's definition. */
#define KOMI_Z95           1.959963984540054
#define KOMI_PROFILE_DROP  2.22258756967346

/* log σ(x) without overflow or cancellation at either end. */
static inline double
_komi_log_sigmoid (double x)
{
  return x >= 0 ? -log1p (exp (-x)) : x - log1p (exp (x));
}

/* Whether series @id is one of @series (0-ended; NULL: every series). */
static inline gboolean
_komi_rating_series_wanted (const gint64 *series, gint64 id)
{
  if (series == NULL)
    return TRUE;
  for (guint i = 0; series[i] != 0; i++)
    if (series[i] == id)
      return TRUE;
  return FALSE;
}

KomiLadder       *_komi_ladder_new (void);
/* Appends a member with a Wald interval rating ± 1.96 se. */
KomiLadderMember *_komi_ladder_add (KomiLadder *ladder,
                                    const char *label,
                                    double      rating,
                                    double      se);

G_END_DECLS
