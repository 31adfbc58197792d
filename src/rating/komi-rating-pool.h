/* komi-rating-pool.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-ladder-ship.h"
#include "komi-rating.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* Which games rate whom: the one policy behind `komi-cli ratings`, `rate`,
 * `publish` and the application's Ladder page, so that all four show the
 * same numbers, the same games set apart and the same reasons.
 *
 * Against a frozen ladder, every game with a subject colour is a game of
 * that subject (a ladder member may be a subject too: it is rated against
 * the other members' frozen ratings); games without a subject are the
 * ladder's own kind and rate no one. A subject's game counts only when
 *  - it is under the ladder's protocol (pools never mix protocols),
 *  - its opponent is a member of the ladder (a player off the ladder has
 *    no known strength, so its games cannot place anyone),
 *  - the member's recorded identity and the game's referee match the
 *    ladder's pins.
 * The others are set apart, each with its reason in the user's words.
 * Of the games that count, the conventions of the scale apply
 * (docs/ratings.md): voids are never rated, draws count half, turn-limit
 * games are scored as they ended, forfeits count as a loss for the side
 * that forfeited; each is counted apart in the score rows. */

typedef struct
{
  const KomiLadder *ladder;        /* borrowed: outlives the pool */
  GPtrArray        *subjects;      /* KomiSubjectRating*, ranked: strongest first; a subject
                                    * with no rated game last, its why_unrated set */
  GPtrArray        *set_apart;     /* KomiSetApart*, in library order */
  guint             ladder_games;  /* games without a subject: rate no one here */
} KomiRatingPool;

/* The ranking key of an estimate: the MLE, or a bound where it lies;
 * -INFINITY with no rated game. */
double          komi_estimate_rank_key      (const KomiEstimate   *estimate);

/* Rates @results (e.g. from results files) against @ladder by the policy
 * above; @ids (may be NULL) are the games' ids for the set-apart list, and
 * @set_apart (may be NULL; taken) holds games already set apart for their
 * identity. Never fails for games that cannot count: they are set apart. */
KomiRatingPool *komi_rating_pool_new        (const KomiLadder     *ladder,
                                             const KomiGameResult *results,
                                             gsize                 n_results,
                                             const gint64         *ids,
                                             GPtrArray            *set_apart,
                                             GError              **error);

/* The same from the library @store: its ended games (only @series, a
 * NULL-terminated list of ids, when not NULL). */
KomiRatingPool *komi_rating_pool_read       (KomiStore            *store,
                                             const KomiLadder     *ladder,
                                             const gint64         *series,
                                             GError              **error);

void            komi_rating_pool_free       (KomiRatingPool       *pool);

/* The rating of @subject in @pool, or NULL when it played no game here. */
KomiSubjectRating *komi_rating_pool_lookup  (KomiRatingPool       *pool,
                                             const char           *subject);

/* The set-apart games as lines for people: per subject, opponent and
 * reason, a count and the first game ids. NULL when none. */
char           *komi_rating_pool_describe_set_apart (const KomiRatingPool *pool);

/* The whole pool for people (the ladder, every subject ranked with its
 * fit, the games set apart) and for programs. */
char           *komi_rating_pool_format_text (const KomiRatingPool *pool);
JsonNode       *komi_rating_pool_to_json_node (const KomiRatingPool *pool);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiRatingPool, komi_rating_pool_free)

G_END_DECLS
