/* komi-rate-sim.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-rate-plan.h"

G_BEGIN_DECLS

/* The gain of the adaptive plan, measured without any API: simulated
 * subjects of known rating play the frozen ladder's members with the
 * probabilities the Elo model gives them, and are rated pair by pair,
 * adaptively and by a fixed plan (round-robin over every member), until
 * the same stopping rule holds. */

typedef enum
{
  KOMI_RATE_SIM_ADAPTIVE,
  KOMI_RATE_SIM_FIXED,
} KomiRateSimPlan;

typedef struct
{
  guint   subjects;
  double  mean_games;
  double  median_games;
  guint   max_games;
  guint   covered;        /* subjects whose final 95% interval holds the true rating */
  double  coverage;       /* covered / subjects */
  guint   unfinished;     /* subjects stopped before the target: off the ladder or by
                           * max_pairs */
  double  mean_half_width; /* of the final intervals that are MLEs */
} KomiRateSimFigures;

/* Rates one simulated subject of true rating @truth; returns the games
 * it played, and its last decision in @last (may be NULL). */
guint       komi_rate_sim_subject      (const KomiLadder          *ladder,
                                        double                     truth,
                                        KomiRateSimPlan            plan,
                                        const KomiRatePlanOptions *options,
                                        GRand                     *rand,
                                        KomiRateDecision          *last);

/* @n_subjects with true ratings spread evenly (with jitter) from the
 * lowest member's rating to the highest's, each rated by both plans;
 * deterministic for a @seed. */
void        komi_rate_sim_run          (const KomiLadder          *ladder,
                                        guint                      n_subjects,
                                        guint32                    seed,
                                        const KomiRatePlanOptions *options,
                                        KomiRateSimFigures        *adaptive,
                                        KomiRateSimFigures        *fixed);

/* A ladder shaped like Protocol 1's: 14 members from 0 to 2500 Elo,
 * 150–250 apart, with standard errors that grow up the chain. */
KomiLadder *komi_rate_sim_test_ladder  (void);

G_END_DECLS
