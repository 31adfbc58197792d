/* komi-rating.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-game-result.h"
#include "komi-ladder.h"

G_BEGIN_DECLS

/* A subject's rating: the maximum-likelihood Elo against the frozen
 * ladder, with a 95% profile-likelihood interval (the likelihood's 96.5%
 * level, which holds the true rating 95% of the time: KOMI_PROFILE_DROP);
 * a one-sided bound when the subject won or lost every rated game. */

typedef enum
{
  KOMI_ESTIMATE_NONE = 0,     /* no rated game */
  KOMI_ESTIMATE_MLE,          /* rating, se, low, high are set */
  KOMI_ESTIMATE_LOWER_BOUND,  /* won every rated game: rating > bound (95%) */
  KOMI_ESTIMATE_UPPER_BOUND,  /* lost every rated game: rating < bound (95%) */
} KomiEstimateKind;

typedef struct
{
  KomiEstimateKind kind;
  double           rating;  /* the MLE; NAN unless kind is KOMI_ESTIMATE_MLE */
  double           se;      /* Fisher standard error at the MLE; NAN otherwise */
  double           low;     /* 95% interval: profile likelihood for an MLE; for a */
  double           high;    /* bound, the bound and ∓INFINITY on the open side */
  double           bound;   /* the one-sided bound; NAN for an MLE */
  /* With the ladder's uncertainty included (komi_estimate_add_ladder()):
   * its share of the error, Elo, already inside se, low and high; 0 when
   * the interval is on the frozen ladder's scale alone. */
  double           ladder_se;
} KomiEstimate;

/* Games against one opponent of known rating (aggregated). */
typedef struct
{
  double rating;   /* the opponent's Elo */
  double games;
  double score;    /* wins + draws / 2 */
} KomiRatingCell;

/* The 1-D fit over aggregated cells: always succeeds, the kind saying
 * what could be estimated. */
void        komi_rating_estimate (const KomiRatingCell *cells,
                                  gsize                 n_cells,
                                  KomiEstimate         *out);
/* The log-likelihood of a subject rated @rating over @cells. */
double      komi_rating_loglik   (const KomiRatingCell *cells,
                                  gsize                 n_cells,
                                  double                rating);

/* A line of a score table. Forfeits are inside wins/losses too. */
typedef struct
{
  const char *label;          /* opponent, "Black", "identity", "all" (not owned) */
  double      rating;         /* the opponent's ladder rating; NAN in other tables */
  guint       wins;           /* rated games only */
  guint       losses;
  guint       draws;
  guint       forfeits_lost;  /* the subject forfeited */
  guint       forfeits_won;   /* the opponent forfeited */
  guint       turn_limit;     /* rated games ended by the turn limit */
  guint       voids;          /* never rated */
  /* In a subject's opponents table, once it has an estimate: the points
   * its rating predicts against this member, and the standardised
   * difference (observed − predicted) / √(Σ p(1−p)); NAN otherwise. */
  double      predicted;
  double      z;
} KomiScoreRow;

guint       komi_score_row_games (const KomiScoreRow *row);
/* Points per rated game, 0–1 (a draw is half); NAN with no rated game. */
double      komi_score_row_score (const KomiScoreRow *row);

/* White's advantage at komi 7, measured over the calibration (+17 ± 12.5
 * Elo, docs/ratings.md): the scale leaves it to colour balance, so a
 * subject that played White in a share w of its rated games leans by
 * about (2w − 1) × this; the reports say so when its colours differ. */
#define KOMI_WHITE_ADVANTAGE_ELO 17.0

/* Whether one Elo explains a subject's results against every member it
 * played: Σz² over those members (KomiScoreRow.z), with one degree of
 * freedom fewer than members (the rating is fitted), and the chance of a
 * Σz² at least this large if it did. Below KOMI_FIT_P_FLAG the subject is
 * flagged: its rating is then a summary, not a measurement. */
#define KOMI_FIT_P_FLAG 0.01

typedef struct
{
  double   chi2;          /* NAN without an estimate */
  guint    dof;
  double   p;             /* NAN when dof is 0 */
  gboolean inconsistent;  /* p < KOMI_FIT_P_FLAG */
} KomiSubjectFit;

/* P(χ² with @dof degrees of freedom ≥ @x). */
double      komi_chi2_survival   (double x,
                                  guint  dof);

typedef struct
{
  char         *subject;
  guint         protocol;
  KomiEstimate  estimate;
  KomiSubjectFit fit;
  char         *why_unrated;     /* NULL when rated; else why not, in the user's words */
  guint         set_apart;       /* its games set apart (komi-rating-pool.h) */
  KomiScoreRow  total;
  GArray       *opponents;       /* KomiScoreRow, in ladder order */
  KomiScoreRow  colors[2];       /* the subject as Black, as White */
  KomiScoreRow  orientations[8]; /* by KomiOrientation */
} KomiSubjectRating;

/* Rates each subject in @results (games with a subject colour; ladder
 * games are skipped) against the frozen @ladder; a GPtrArray of
 * KomiSubjectRating in order of first appearance. Fails when protocols
 * differ (among the results or from the ladder's), when a subject met an
 * opponent the ladder lacks, or when there is no subject game. */
GPtrArray  *komi_rating_rate_subjects (const KomiLadder     *ladder,
                                       const KomiGameResult *results,
                                       gsize                 n_results,
                                       GError              **error);
void        komi_subject_rating_free  (KomiSubjectRating    *rating);
/* The lean of @rating's estimate from its colours' imbalance, in Elo
 * (positive: it played White more); 0 when balanced. */
double      komi_subject_colour_lean (const KomiSubjectRating *rating);


/* The ladder's uncertainty in a subject's rating. The MLE solves
 * Σᵢ nᵢ p(θ − rᵢ) = Σᵢ sᵢ over the members i it played, so a member's
 * rating moving by δrᵢ moves it by gᵢ δrᵢ with gᵢ = wᵢ / Σ w, wᵢ =
 * nᵢ p(1 − p) at the MLE (the fit's sensitivity); the variance is gᵀ Σ g
 * with Σ the members' covariance (KomiLadder.covariance). @games_vs[i]
 * are the games against member i of @ladder. NAN when the ladder has no
 * covariance; relative to the pinned member, like every member's rating. */
double      komi_rating_ladder_variance (const KomiLadder     *ladder,
                                         const double         *games_vs,
                                         double                rating);
/* Widens @estimate (an MLE; others are left alone) by the ladder's
 * variance @variance: se² + variance, and each side of the interval
 * √(side² + (1.96)² variance); sets ladder_se. */
void        komi_estimate_add_ladder  (KomiEstimate         *estimate,
                                       double                variance);
/* The same for every subject of @subjects (KomiSubjectRating) rated on
 * @ladder (`--with-ladder-uncertainty`). Fails when the ladder file holds
 * no covariance. */
gboolean    komi_rating_add_ladder_uncertainty (const KomiLadder *ladder,
                                                GPtrArray        *subjects,
                                                GError          **error);

/* For the benchmark: simulates @n_games of one subject against a ladder
 * of four, then times komi_rating_rate_subjects() over them alone.
 * Returns the seconds taken, or a negative value on failure. */
double      komi_rating_bench         (guint                 n_games,
                                       guint32               seed);

/* Output for people and for programs. @ladder may be NULL; @subjects
 * holds KomiSubjectRating (may be NULL or empty). */
char       *komi_rating_format_text   (const KomiLadder     *ladder,
                                       GPtrArray            *subjects);
JsonNode   *komi_rating_to_json_node  (const KomiLadder     *ladder,
                                       GPtrArray            *subjects);
JsonNode   *komi_estimate_to_json_node (const KomiEstimate  *estimate);
/* "734 (95% CI 689 to 781, SE 23)", "> 1612 (95% bound; won every game)" */
char       *komi_estimate_describe    (const KomiEstimate   *estimate);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiSubjectRating, komi_subject_rating_free)

G_END_DECLS
