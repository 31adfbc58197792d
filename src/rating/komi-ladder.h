/* komi-ladder.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "komi-game-result.h"

G_BEGIN_DECLS

/* The ladder: reference players with Elo ratings fitted jointly from
 * their games against each other (Bradley–Terry on the Elo scale, one
 * member pinned), then frozen so that every subject is rated on the same
 * scale. */

#define KOMI_LADDER_DEFAULT_PINNED "random"

typedef struct
{
  char     *label;    /* "gnugo:1" */
  double    rating;   /* Elo */
  double    se;       /* standard error; 0 for the pinned member */
  double    low;      /* 95% interval: rating ± 1.96 se */
  double    high;
  guint     games;    /* calibration games it played */
  /* The rating above the member before it (NAN for the first), and the
   * standard error of that difference (from the fit's covariance). */
  double    step;
  double    step_se;
  JsonNode *pins;     /* identity pins (komi-ladder-pins.h), or NULL */
} KomiLadderMember;

/* Where a ladder comes from, which says whether its scale is shared. */
typedef enum
{
  KOMI_LADDER_ORIGIN_FILE = 0,  /* a file the user named */
  KOMI_LADDER_ORIGIN_SHIPPED,   /* the Protocol's ladder shipped with Komi: one scale for all */
  KOMI_LADDER_ORIGIN_LIBRARY,   /* a library's own calibration: its own scale */
} KomiLadderOrigin;

typedef struct
{
  guint             protocol;
  char             *pinned;     /* the member whose rating was fixed */
  char             *date;       /* YYYY-MM-DD of the calibration */
  guint             games;      /* rated calibration games */
  GPtrArray        *members;    /* KomiLadderMember*, weakest first */
  KomiLadderOrigin  origin;
  char             *referee;    /* the pinned referee ("KataGo 1.17.2+…"), or NULL */
  char             *made_by;    /* "Komi 0.1.0 (…)": what ran the calibration, or NULL */
  JsonNode         *calibration;  /* how it was calibrated (shipped ladders), or NULL */
  /* The covariance of the members' ratings from the fit (k×k, in member
   * order, Elo²; the pinned member's row and column 0), or NULL when the
   * file has none. */
  double           *covariance;
} KomiLadder;

/* Fits the members' ratings by maximum likelihood from @results (every
 * player in them is a member; voids are skipped), with @pinned (NULL:
 * "random") fixed at @pinned_rating. Fails, naming them, when some members
 * won or lost all their games against the rest: their ratings have no
 * finite estimate. */
KomiLadder             *komi_ladder_calibrate      (const KomiGameResult *results,
                                                    gsize                 n_results,
                                                    const char           *pinned,
                                                    double                pinned_rating,
                                                    GError              **error);
void                    komi_ladder_free           (KomiLadder           *ladder);
const KomiLadderMember *komi_ladder_lookup         (const KomiLadder     *ladder,
                                                    const char           *label);

/* The ladder as a JSON object: protocol, date, games, pinned, members
 * [{label, rating, se, low, high, games}]. */
JsonNode               *komi_ladder_to_json_node   (const KomiLadder     *ladder);
char                   *komi_ladder_to_json        (const KomiLadder     *ladder);
KomiLadder             *komi_ladder_new_from_json  (const char           *text,
                                                    gssize                length,
                                                    GError              **error);
KomiLadder             *komi_ladder_load           (const char           *path,
                                                    GError              **error);
gboolean                komi_ladder_save           (const KomiLadder     *ladder,
                                                    const char           *path,
                                                    GError              **error);

/* The same with the covariance of the ratings: @cov (k×k, may be NULL)
 * receives it in Elo², the pinned member's row and column 0. */
gboolean                komi_ladder_fit_cov        (guint                 k,
                                                    const double         *games,
                                                    const double         *score,
                                                    guint                 pinned,
                                                    double                pinned_rating,
                                                    const char * const   *labels,
                                                    double               *ratings,
                                                    double               *se,
                                                    double               *cov,
                                                    GError              **error);

/* The fit itself, on aggregated counts: @games[i*k+j] games between
 * members i and j, @score[i*k+j] the points i took from them (a draw is
 * half). Writes @ratings and @se (k each); @pinned keeps @pinned_rating.
 * FALSE when the estimate does not exist; @labels name the members in
 * the error. */
gboolean                komi_ladder_fit            (guint                 k,
                                                    const double         *games,
                                                    const double         *score,
                                                    guint                 pinned,
                                                    double                pinned_rating,
                                                    const char * const   *labels,
                                                    double               *ratings,
                                                    double               *se,
                                                    GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiLadder, komi_ladder_free)

G_END_DECLS
