/* komi-rate-plan.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-ladder.h"
#include "komi-rating.h"

G_BEGIN_DECLS

/* Rating at the least cost: which rung of the frozen ladder the subject
 * should play its next pair against, and when to stop. Each pair goes to
 * the rung whose games say the most about the subject's rating now (the
 * Fisher information p(1-p), averaged over what is known of the rating),
 * until the 95% profile-likelihood interval (komi-rating.h) is narrow
 * enough. */

typedef enum
{
  KOMI_RATE_CONTINUE = 0,  /* play another pair, against @rung */
  KOMI_RATE_PRECISE,       /* the interval is within the target */
  KOMI_RATE_MAX_PAIRS,     /* the pairs allowed are played */
  KOMI_RATE_BUDGET,        /* another pair could overspend the budget */
  KOMI_RATE_OFF_LADDER,    /* won or lost every game, and its 95% bound lies past the
                            * ladder's end: no rung can place it */
} KomiRateStop;

typedef struct
{
  double target;     /* stop when the 95% interval is within ± this (Elo); > 0 */
  guint  min_pairs;  /* never stop for precision before this many pairs */
  guint  max_pairs;  /* stop after this many pairs; 0: no limit */
} KomiRatePlanOptions;

#define KOMI_RATE_DEFAULT_TARGET     105.0
/* Below a few pairs the profile interval of a lucky subject can be
 * narrow by chance; the benchmark measures the coverage this keeps. */
#define KOMI_RATE_DEFAULT_MIN_PAIRS  4
/* The one initialiser of KomiRatePlanOptions: the defaults above, no
 * limit on pairs. */
#define KOMI_RATE_PLAN_OPTIONS_INIT \
  { .target = KOMI_RATE_DEFAULT_TARGET, .min_pairs = KOMI_RATE_DEFAULT_MIN_PAIRS, .max_pairs = 0 }

typedef struct
{
  KomiRateStop stop;
  guint        rung;        /* index into ladder->members; valid with KOMI_RATE_CONTINUE */
  double       info;        /* its expected information per game, Elo⁻² */
  guint        pairs;       /* pairs played so far (games / 2, rounded down) */
  double       games;       /* rated games so far */
  KomiEstimate estimate;    /* the subject's rating from them */
  double       half_width;  /* of the 95% interval; INFINITY unless an MLE */
} KomiRateDecision;

/* Fills @options with KOMI_RATE_PLAN_OPTIONS_INIT: target 105, 4 pairs at
 * least, no limit. min_pairs holds back the off-ladder stop too. */
void     komi_rate_plan_options_init (KomiRatePlanOptions       *options);

/* The cells of a subject's results against @ladder so far: @cells must
 * hold one per member, in ladder order; @games_vs[i] and @score_vs[i]
 * (may be NULL: none yet) are its games and points against member i. */
void     komi_rate_plan_cells        (const KomiLadder          *ladder,
                                      const double              *games_vs,
                                      const double              *score_vs,
                                      KomiRatingCell            *cells);

/* The next step for a subject with @cells (one per member, from
 * komi_rate_plan_cells()). Deterministic: ties go to the lower rung. */
void     komi_rate_plan_decide       (const KomiLadder          *ladder,
                                      const KomiRatingCell      *cells,
                                      const KomiRatePlanOptions *options,
                                      KomiRateDecision          *decision);

/* Expected information per game about the subject's rating from member
 * @rung of @ladder, for a subject believed to be at the grid points
 * @ratings with weights @weights (summing to 1). The member's own
 * standard error flattens its expected scores (a rung known only roughly
 * says less). */
double   komi_rate_plan_information  (const KomiLadder          *ladder,
                                      guint                      rung,
                                      const double              *ratings,
                                      const double              *weights,
                                      gsize                      n);

/* A fixed plan for comparison: pairs round-robin over every member. */
guint    komi_rate_plan_round_robin  (const KomiLadder          *ladder,
                                      guint                      pairs_played);

/* "within ±105 Elo", "25 pairs played" …: why the rating stopped, for people. */
const char *komi_rate_stop_describe  (KomiRateStop               stop);

G_END_DECLS
