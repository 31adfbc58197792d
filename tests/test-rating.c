/* test-rating.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-rating.h"

/* A ladder at 0, 400, 900, 1500 and a subject at 700 (the brief's case). */
static const char * const ladder_labels[] = { "random", "gnugo:1", "gnugo:10", "katago:100" };
static const double ladder_truth[] = { 0, 400, 900, 1500 };

static KomiLadder *
make_ladder (guint protocol, guint n, const char * const *labels, const double *ratings)
{
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  KomiLadder *ladder;

  g_string_append_printf (json, "{\"protocol\": %u, \"pinned\": \"%s\", \"date\": "
                          "\"2026-01-01\", \"games\": 1000, \"members\": [", protocol, labels[0]);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (json, "%s{\"label\": \"%s\", \"rating\": %.17g, \"se\": %d, "
                            "\"games\": 500}", i ? ", " : "", labels[i], ratings[i],
                            i ? 20 : 0);
  g_string_append (json, "]}");
  ladder = komi_ladder_new_from_json (json->str, -1, &error);
  g_assert_no_error (error);
  return ladder;
}

static KomiLadder *
standard_ladder (void)
{
  return make_ladder (1, 4, ladder_labels, ladder_truth);
}

/* Appends one game of "subject" against @opponent, seen from the subject:
 * @score 1, 0.5 or 0. */
static void
add_game (KomiResultList *list, const char *opponent, KomiColor color, double score,
          KomiResultOutcome outcome, KomiEndReason end, guint orientation)
{
  KomiGameResult r = {
    .protocol = 1,
    .black = color == KOMI_BLACK ? "subject" : opponent,
    .white = color == KOMI_BLACK ? opponent : "subject",
    .winner = score == 0.5 ? KOMI_EMPTY : score == 1 ? color : KOMI_OTHER (color),
    .end_reason = end,
    .outcome = outcome,
    .subject = color,
    .orientation = orientation,
  };

  komi_result_list_add (list, &r);
}

static void
add_games (KomiResultList *list, const char *opponent, guint wins, guint draws, guint losses)
{
  for (guint i = 0; i < wins + draws + losses; i++)
    add_game (list, opponent, i % 2 ? KOMI_WHITE : KOMI_BLACK,
              i < wins ? 1 : i < wins + draws ? 0.5 : 0, KOMI_RESULT_FINISHED,
              KOMI_END_TWO_PASSES, i % 8);
}

/* Rates the only subject in @list. */
static KomiSubjectRating *
rate_one (const KomiLadder *ladder, KomiResultList *list)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rated = NULL;

  rated = komi_rating_rate_subjects (ladder, komi_result_list_index (list, 0),
                                     list->results->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rated->len, ==, 1);
  return g_ptr_array_steal_index (rated, 0);
}

static KomiSubjectRating *
simulate_subject (const KomiLadder *ladder, double truth, guint per_opponent, GRand *rand)
{
  g_autoptr(KomiResultList) list = komi_result_list_new ();

  for (guint i = 0; i < G_N_ELEMENTS (ladder_labels); i++)
    komi_result_list_simulate (list, 1, "subject", truth, ladder_labels[i], ladder_truth[i],
                               per_opponent, TRUE, rand);
  return rate_one (ladder, list);
}

/* A single opponent at 0 and a score fraction p: the MLE is
 * 400·log10(p/(1−p)) exactly, and the interval ends lie 2.2226 below the
 * maximum of the log-likelihood: half the χ²₁ quantile of the 96.5% level
 * (z 2.1083584 squared over 2), the level of the Protocol 1 scale's 95%
 * interval (docs/ratings.md, "The interval's level"). */
#define Z_965 2.1083584   /* the normal quantile of 96.5%, two-sided */

static void
test_closed_form (void)
{
  KomiRatingCell cell = { .rating = 0, .games = 6, .score = 3.5 };  /* 3 W, 1 D, 2 L */
  double p = 3.5 / 6, top, c = G_LN10 / 400;
  KomiEstimate e;

  komi_rating_estimate (&cell, 1, &e);
  g_assert_cmpint (e.kind, ==, KOMI_ESTIMATE_MLE);
  g_assert_cmpfloat_with_epsilon (e.rating, 400 * log10 (p / (1 - p)), 1e-7);
  g_assert_cmpfloat_with_epsilon (e.se, 1 / (c * sqrt (6 * p * (1 - p))), 1e-7);
  top = komi_rating_loglik (&cell, 1, e.rating);
  g_assert_cmpfloat_with_epsilon (komi_rating_loglik (&cell, 1, e.low),
                                  top - Z_965 * Z_965 / 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (komi_rating_loglik (&cell, 1, e.high),
                                  top - Z_965 * Z_965 / 2, 1e-6);
  g_assert_cmpfloat (e.low, <, e.rating);
  g_assert_cmpfloat (e.rating, <, e.high);
  g_assert_true (isnan (e.bound));

  /* The same through games, against an opponent at 250. */
  {
    static const char * const labels[] = { "random", "anchor" };
    static const double ratings[] = { 0, 250 };
    g_autoptr(KomiLadder) ladder = make_ladder (1, 2, labels, ratings);
    g_autoptr(KomiResultList) list = komi_result_list_new ();
    g_autoptr(KomiSubjectRating) rated = NULL;

    add_games (list, "anchor", 3, 1, 2);
    rated = rate_one (ladder, list);
    g_assert_cmpfloat_with_epsilon (rated->estimate.rating,
                                    250 + 400 * log10 (p / (1 - p)), 1e-7);
    g_assert_cmpuint (rated->total.draws, ==, 1);
    g_assert_cmpfloat_with_epsilon (komi_score_row_score (&rated->total), p, 1e-12);
  }
}

/* Draws count half: four draws and two wins with two losses give the
 * same likelihood, and both put the subject level with the opponent. */
static void
test_draws_half (void)
{
  KomiRatingCell draws = { 250, 4, 2 }, split = { 250, 4, 2 }, mixed[] = {
    { 0, 10, 7.5 },   /* 7 W, 1 D, 2 L */
    { 0, 10, 7.5 },
  };
  KomiEstimate a, b, c, d;

  komi_rating_estimate (&draws, 1, &a);
  komi_rating_estimate (&split, 1, &b);
  g_assert_cmpfloat_with_epsilon (a.rating, 250, 1e-7);
  g_assert_cmpfloat_with_epsilon (a.low, b.low, 1e-9);
  komi_rating_estimate (mixed, 2, &c);
  komi_rating_estimate (mixed, 1, &d);
  g_assert_cmpfloat_with_epsilon (c.rating, 400 * log10 (0.75 / 0.25), 1e-7);
  g_assert_cmpfloat_with_epsilon (c.rating, d.rating, 1e-9);
  g_assert_cmpfloat (c.high - c.low, <, d.high - d.low);  /* twice the games, narrower */
}

/* Thousands of simulated games: the truth lies inside the interval. */
static void
test_recover (void)
{
  g_autoptr(KomiLadder) ladder = standard_ladder ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260101);
  g_autoptr(KomiSubjectRating) rated = simulate_subject (ladder, 700, 1000, rand);
  const KomiEstimate *e = &rated->estimate;

  g_test_message ("subject at 700: %.1f [%.1f, %.1f], SE %.1f", e->rating, e->low, e->high,
                  e->se);
  g_assert_cmpint (e->kind, ==, KOMI_ESTIMATE_MLE);
  g_assert_cmpfloat (e->low, <=, 700);
  g_assert_cmpfloat (700, <=, e->high);
  /* With this many games the likelihood is nearly normal: the interval is
   * ± z se with z the 96.5% quantile (test_closed_form). */
  g_assert_cmpfloat_with_epsilon ((e->high - e->low) / (2 * Z_965), e->se, 0.05 * e->se);
  g_assert_cmpuint (rated->opponents->len, ==, 4);
  g_assert_cmpuint (komi_score_row_games (&rated->total), ==, 4000);
}

/* Over 200 repeated simulations the 95% interval covers the truth close
 * to 95% of the time. */
static void
test_coverage (void)
{
  g_autoptr(KomiLadder) ladder = standard_ladder ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint covered = 0, runs = 200;

  for (guint i = 0; i < runs; i++)
    {
      g_autoptr(KomiSubjectRating) rated = simulate_subject (ladder, 700, 100, rand);

      g_assert_cmpint (rated->estimate.kind, ==, KOMI_ESTIMATE_MLE);
      covered += rated->estimate.low <= 700 && 700 <= rated->estimate.high;
    }
  g_test_message ("coverage of the 95%% interval: %u of %u", covered, runs);
  g_assert_cmpfloat ((double) covered / runs, >=, 0.90);
  g_assert_cmpfloat ((double) covered / runs, <=, 0.99);
}

/* A sweep has no estimate: the bound is where the sweep had probability
 * 5%, i.e. p^n = 0.05 against one opponent. */
static void
test_sweep (void)
{
  KomiRatingCell all_won = { 100, 10, 10 }, all_lost = { 100, 10, 0 };
  double p = pow (0.05, 1.0 / 10), edge = 400 * log10 (p / (1 - p));
  g_autofree char *text = NULL;
  KomiEstimate e;

  komi_rating_estimate (&all_won, 1, &e);
  g_assert_cmpint (e.kind, ==, KOMI_ESTIMATE_LOWER_BOUND);
  g_assert_true (isnan (e.rating) && isnan (e.se));
  g_assert_cmpfloat_with_epsilon (e.bound, 100 + edge, 1e-6);
  g_assert_cmpfloat (e.high, ==, INFINITY);
  text = komi_estimate_describe (&e);
  g_assert_true (g_str_has_prefix (text, "> "));

  komi_rating_estimate (&all_lost, 1, &e);
  g_assert_cmpint (e.kind, ==, KOMI_ESTIMATE_UPPER_BOUND);
  g_assert_true (isnan (e.rating));
  g_assert_cmpfloat_with_epsilon (e.bound, 100 - edge, 1e-6);
  g_assert_cmpfloat (e.low, ==, -INFINITY);

  /* No game: nothing. In JSON a bound never carries an "elo". */
  komi_rating_estimate (NULL, 0, &e);
  g_assert_cmpint (e.kind, ==, KOMI_ESTIMATE_NONE);
  {
    g_autoptr(JsonNode) node = NULL;

    komi_rating_estimate (&all_won, 1, &e);
    node = komi_estimate_to_json_node (&e);
    g_assert_false (json_object_has_member (json_node_get_object (node), "elo"));
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "kind"), ==,
                     "lower-bound");
  }
}

/* Forfeits are losses for the side that forfeited, and counted apart;
 * voids change nothing but their own count; turn-limit games count. */
static void
test_forfeit_void_turn_limit (void)
{
  static const char * const labels[] = { "random", "anchor" };
  static const double ratings[] = { 0, 100 };
  g_autoptr(KomiLadder) ladder = make_ladder (1, 2, labels, ratings);
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(KomiSubjectRating) rated = NULL;
  const KomiScoreRow *row;

  add_games (list, "anchor", 3, 0, 2);
  add_game (list, "anchor", KOMI_WHITE, 0, KOMI_RESULT_FORFEIT, KOMI_END_NONE, 0);
  add_game (list, "anchor", KOMI_BLACK, 1, KOMI_RESULT_FORFEIT, KOMI_END_NONE, 0);
  add_game (list, "anchor", KOMI_BLACK, 0, KOMI_RESULT_FINISHED, KOMI_END_TURN_LIMIT, 0);
  for (guint i = 0; i < 10; i++)
    add_game (list, "anchor", KOMI_BLACK, 1, KOMI_RESULT_VOID, KOMI_END_NONE, 0);
  rated = rate_one (ladder, list);

  row = &rated->total;
  g_assert_cmpuint (row->wins, ==, 4);
  g_assert_cmpuint (row->losses, ==, 4);
  g_assert_cmpuint (row->forfeits_lost, ==, 1);
  g_assert_cmpuint (row->forfeits_won, ==, 1);
  g_assert_cmpuint (row->turn_limit, ==, 1);
  g_assert_cmpuint (row->voids, ==, 10);
  g_assert_cmpuint (komi_score_row_games (row), ==, 8);
  /* 4 of 8 against an opponent at 100: level with it. */
  g_assert_cmpfloat_with_epsilon (rated->estimate.rating, 100, 1e-7);
  g_assert_cmpuint (g_array_index (rated->opponents, KomiScoreRow, 0).forfeits_lost, ==, 1);
}

/* Per-colour and per-orientation rows count the subject's side. */
static void
test_tables (void)
{
  g_autoptr(KomiLadder) ladder = standard_ladder ();
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(KomiSubjectRating) rated = NULL;

  add_game (list, "random", KOMI_BLACK, 1, KOMI_RESULT_FINISHED, KOMI_END_TWO_PASSES, 3);
  add_game (list, "random", KOMI_WHITE, 1, KOMI_RESULT_FINISHED, KOMI_END_TWO_PASSES, 3);
  add_game (list, "gnugo:10", KOMI_BLACK, 0, KOMI_RESULT_FINISHED, KOMI_END_TWO_PASSES, 5);
  add_game (list, "gnugo:10", KOMI_WHITE, 0.5, KOMI_RESULT_FINISHED, KOMI_END_TWO_PASSES, 5);
  add_game (list, "gnugo:10", KOMI_WHITE, 0, KOMI_RESULT_FINISHED, KOMI_END_TWO_PASSES, 0);
  rated = rate_one (ladder, list);

  g_assert_cmpuint (rated->opponents->len, ==, 2);   /* members it never met are left out */
  g_assert_cmpstr (g_array_index (rated->opponents, KomiScoreRow, 1).label, ==, "gnugo:10");
  g_assert_cmpfloat (g_array_index (rated->opponents, KomiScoreRow, 1).rating, ==, 900);
  g_assert_cmpstr (rated->colors[0].label, ==, "Black");
  g_assert_cmpuint (rated->colors[0].wins, ==, 1);
  g_assert_cmpuint (rated->colors[0].losses, ==, 1);
  g_assert_cmpuint (rated->colors[1].draws, ==, 1);
  g_assert_cmpfloat_with_epsilon (komi_score_row_score (&rated->colors[1]), 1.5 / 3, 1e-12);
  g_assert_cmpuint (komi_score_row_games (&rated->orientations[3]), ==, 2);
  g_assert_cmpfloat (komi_score_row_score (&rated->orientations[3]), ==, 1);
  g_assert_cmpfloat (komi_score_row_score (&rated->orientations[5]), ==, 0.25);
  g_assert_true (isnan (komi_score_row_score (&rated->orientations[1])));
  g_assert_cmpstr (rated->orientations[3].label, ==, "rotate-270");
}

/* Pools never mix protocols, and a subject's opponents must be on the
 * ladder. */
static void
test_refusals (void)
{
  g_autoptr(KomiLadder) ladder = standard_ladder ();
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rated = NULL;
  g_autoptr(KomiLadder) fitted = NULL;
  static const char * const labels[] = { "random", "anchor" };
  static const double ratings[] = { 0, 100 };
  g_autoptr(KomiLadder) p2 = make_ladder (2, 2, labels, ratings);

  add_games (list, "random", 2, 0, 1);
  komi_result_list_index (list, 1)->protocol = 2;
  rated = komi_rating_rate_subjects (ladder, komi_result_list_index (list, 0),
                                     list->results->len, &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_MIXED_PROTOCOLS);
  g_assert_null (rated);
  g_clear_error (&error);
  fitted = komi_ladder_calibrate (komi_result_list_index (list, 0), list->results->len,
                                  NULL, 0, &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_MIXED_PROTOCOLS);
  g_clear_error (&error);

  komi_result_list_index (list, 1)->protocol = 1;
  rated = komi_rating_rate_subjects (p2, komi_result_list_index (list, 0),
                                     list->results->len, &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_MIXED_PROTOCOLS);
  g_clear_error (&error);

  add_games (list, "gnugo:5", 1, 0, 0);
  rated = komi_rating_rate_subjects (ladder, komi_result_list_index (list, 0),
                                     list->results->len, &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NOT_ON_LADDER);
  g_assert_nonnull (strstr (error->message, "gnugo:5"));
}

/* A round robin among the ladder recovers its ratings, the pinned member
 * exactly; pinning another member only shifts the scale. */
static void
test_calibrate (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(KomiLadder) shifted = NULL;
  g_autoptr(GError) error = NULL;
  const KomiLadderMember *pin;

  for (guint i = 0; i < 4; i++)
    for (guint j = i + 1; j < 4; j++)
      komi_result_list_simulate (list, 1, ladder_labels[i], ladder_truth[i], ladder_labels[j],
                                 ladder_truth[j], 400, FALSE, rand);
  ladder = komi_ladder_calibrate (komi_result_list_index (list, 0), list->results->len, NULL, 0,
                                  &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ladder->members->len, ==, 4);
  g_assert_cmpuint (ladder->games, ==, 2400);
  g_assert_cmpstr (ladder->pinned, ==, "random");
  for (guint i = 0; i < 4; i++)
    {
      const KomiLadderMember *m = komi_ladder_lookup (ladder, ladder_labels[i]);

      g_test_message ("%s: %.1f [%.1f, %.1f]", m->label, m->rating, m->low, m->high);
      g_assert_true (m == ladder->members->pdata[i]);   /* weakest first */
      g_assert_cmpuint (m->games, ==, 1200);
      if (i == 0)
        {
          g_assert_cmpfloat (m->rating, ==, 0);
          g_assert_cmpfloat (m->se, ==, 0);
          continue;
        }
      g_assert_cmpfloat (m->low, <=, ladder_truth[i]);
      g_assert_cmpfloat (ladder_truth[i], <=, m->high);
    }

  shifted = komi_ladder_calibrate (komi_result_list_index (list, 0), list->results->len,
                                   "gnugo:1", 1000, &error);
  g_assert_no_error (error);
  pin = komi_ladder_lookup (shifted, "gnugo:1");
  g_assert_cmpfloat (pin->rating, ==, 1000);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat_with_epsilon (komi_ladder_lookup (shifted, ladder_labels[i])->rating,
                                    komi_ladder_lookup (ladder, ladder_labels[i])->rating
                                    + 1000 - komi_ladder_lookup (ladder, "gnugo:1")->rating,
                                    1e-6);
}

/* A wide ladder linked only through neighbours (2400 Elo end to end): the
 * Newton steps from all-equal ratings still converge to the truth. */
static void
test_calibrate_wide (void)
{
  static const char * const labels[] = { "random", "r1", "r2", "r3", "r4" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i + 1 < G_N_ELEMENTS (labels); i++)
    komi_result_list_simulate (list, 1, labels[i], 600.0 * i, labels[i + 1], 600.0 * (i + 1),
                               1000, FALSE, rand);
  ladder = komi_ladder_calibrate (komi_result_list_index (list, 0), list->results->len, NULL, 0,
                                  &error);
  g_assert_no_error (error);
  for (guint i = 1; i < G_N_ELEMENTS (labels); i++)
    {
      const KomiLadderMember *m = komi_ladder_lookup (ladder, labels[i]);

      g_test_message ("%s: %.1f [%.1f, %.1f]", m->label, m->rating, m->low, m->high);
      g_assert_cmpfloat (fabs (m->rating - 600.0 * i), <, 3 * m->se);
      g_assert_cmpfloat (m->se, >, 0);
    }
}

/* Members that won or lost everything against the rest cannot be placed:
 * an error names them, never a number. */
static void
test_unplaceable (void)
{
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GError) error = NULL;
  KomiGameResult r = { .protocol = 1, .end_reason = KOMI_END_TWO_PASSES };
  const struct { const char *black, *white; KomiColor winner; } games[] = {
    { "random", "gnugo:1", KOMI_WHITE }, { "gnugo:1", "random", KOMI_BLACK },
    { "random", "weak", KOMI_BLACK }, { "weak", "random", KOMI_BLACK },
    { "weak", "gnugo:1", KOMI_WHITE }, { "gnugo:1", "weak", KOMI_BLACK },
  };

  for (guint i = 0; i < G_N_ELEMENTS (games); i++)
    {
      r.black = games[i].black;
      r.white = games[i].white;
      r.winner = games[i].winner;
      komi_result_list_add (list, &r);
    }
  ladder = komi_ladder_calibrate (komi_result_list_index (list, 0), list->results->len, NULL, 0,
                                  &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_UNPLACEABLE);
  g_assert_null (ladder);
  g_assert_nonnull (strstr (error->message, "gnugo:1 won all 4 games against the other "
                                            "members"));
  g_assert_nonnull (strstr (error->message, "random, weak lost all 4 games"));
  g_clear_error (&error);

  ladder = komi_ladder_calibrate (komi_result_list_index (list, 0), 4, "gnugo:5", 0, &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "pin one of: random, gnugo:1"));
}

/* A ladder survives JSON; a broken one is refused naming the field. */
static void
test_ladder_json (void)
{
  g_autoptr(KomiLadder) ladder = standard_ladder ();
  g_autoptr(KomiLadder) again = NULL;
  g_autoptr(KomiLadder) bad = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = komi_ladder_to_json (ladder);

  again = komi_ladder_new_from_json (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->protocol, ==, 1);
  g_assert_cmpstr (again->pinned, ==, "random");
  g_assert_cmpstr (again->date, ==, "2026-01-01");
  g_assert_cmpuint (again->members->len, ==, 4);
  g_assert_cmpfloat (komi_ladder_lookup (again, "katago:100")->rating, ==, 1500);
  g_assert_cmpfloat_with_epsilon (komi_ladder_lookup (again, "katago:100")->low,
                                  1500 - 1.96 * 20, 0.1);

  bad = komi_ladder_new_from_json ("{\"protocol\": 1, \"pinned\": \"x\", \"members\": "
                                   "[{\"label\": \"x\"}]}", -1, &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "members[0]"));
  g_clear_error (&error);
  bad = komi_ladder_new_from_json ("{\"protocol\": 1, \"pinned\": \"y\", \"members\": "
                                   "[{\"label\": \"x\", \"rating\": 0}]}", -1, &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "pinned"));
}

/* A three-member ladder (0 pinned, 400, 800) with a covariance, as JSON;
 * @shift moves member @moved (NAN: none) for a finite difference. */
static KomiLadder *
tiny_ladder (int moved, double shift, gboolean with_covariance)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = g_strdup_printf (
    "{\"protocol\": 1, \"pinned\": \"random\", \"members\": ["
    "{\"label\": \"random\", \"rating\": %.17g, \"se\": 0},"
    "{\"label\": \"gnugo:1\", \"rating\": %.17g, \"se\": 20},"
    "{\"label\": \"gnugo:10\", \"rating\": %.17g, \"se\": 30}]%s}",
    moved == 0 ? shift : 0.0, 400 + (moved == 1 ? shift : 0), 800 + (moved == 2 ? shift : 0),
    with_covariance ? ", \"covariance\": [[0, 0, 0], [0, 400, 300], [0, 300, 900]]" : "");
  KomiLadder *ladder = komi_ladder_new_from_json (json, -1, &error);

  g_assert_no_error (error);
  return ladder;
}

/* The subject's interval with the ladder's uncertainty: the rating's
 * sensitivity to each member measured by moving the member and refitting
 * (a finite difference, not the formula), then gᵀΣg by hand; the interval
 * is wider on both sides by exactly that variance. A ladder without a
 * covariance refuses, saying why. */
static void
test_ladder_uncertainty (void)
{
  g_autoptr(KomiLadder) ladder = tiny_ladder (-1, 0, TRUE);
  g_autoptr(KomiLadder) bare = tiny_ladder (-1, 0, FALSE);
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(KomiSubjectRating) own = NULL;
  g_autoptr(GPtrArray) subjects = g_ptr_array_new_with_free_func (
    (GDestroyNotify) komi_subject_rating_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL, *described = NULL;
  g_autoptr(KomiLadder) again = NULL;
  const double cov[3][3] = { { 0, 0, 0 }, { 0, 400, 300 }, { 0, 300, 900 } };
  double g[3], variance = 0, below, above;
  KomiSubjectRating *widened;

  add_games (list, "gnugo:1", 14, 0, 6);
  add_games (list, "gnugo:10", 7, 1, 12);
  own = rate_one (ladder, list);
  g_assert_cmpint (own->estimate.kind, ==, KOMI_ESTIMATE_MLE);
  g_assert_cmpfloat (own->estimate.ladder_se, ==, 0);

  for (int m = 0; m < 3; m++)
    {
      g_autoptr(KomiLadder) up = tiny_ladder (m, 0.01, TRUE);
      g_autoptr(KomiLadder) down = tiny_ladder (m, -0.01, TRUE);
      g_autoptr(KomiSubjectRating) a = rate_one (up, list);
      g_autoptr(KomiSubjectRating) b = rate_one (down, list);

      g[m] = (a->estimate.rating - b->estimate.rating) / 0.02;
    }
  /* Moving every member together moves the subject with them. */
  g_assert_cmpfloat_with_epsilon (g[0] + g[1] + g[2], 1, 1e-6);
  g_assert_cmpfloat_with_epsilon (g[0], 0, 1e-9);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      variance += g[i] * cov[i][j] * g[j];
  g_test_message ("sensitivity %.4f %.4f, ladder SE %.2f Elo", g[1], g[2], sqrt (variance));

  g_ptr_array_add (subjects, rate_one (ladder, list));
  g_assert_true (komi_rating_add_ladder_uncertainty (ladder, subjects, &error));
  g_assert_no_error (error);
  widened = subjects->pdata[0];
  g_assert_cmpfloat (widened->estimate.rating, ==, own->estimate.rating);
  g_assert_cmpfloat_with_epsilon (widened->estimate.ladder_se, sqrt (variance), 1e-4);
  g_assert_cmpfloat_with_epsilon (widened->estimate.se,
                                  sqrt (own->estimate.se * own->estimate.se + variance), 1e-4);
  below = own->estimate.rating - own->estimate.low;
  above = own->estimate.high - own->estimate.rating;
  g_assert_cmpfloat (widened->estimate.low, <, own->estimate.low - 1);
  g_assert_cmpfloat (widened->estimate.high, >, own->estimate.high + 1);
  g_assert_cmpfloat_with_epsilon (widened->estimate.rating - widened->estimate.low,
                                  sqrt (below * below + 1.959964 * 1.959964 * variance), 1e-3);
  g_assert_cmpfloat_with_epsilon (widened->estimate.high - widened->estimate.rating,
                                  sqrt (above * above + 1.959964 * 1.959964 * variance), 1e-3);
  described = komi_estimate_describe (&widened->estimate);
  g_assert_nonnull (strstr (described, "with the ladder's uncertainty"));

  /* The covariance survives a save and load; a ladder without one, or a
   * broken one, is refused in words. */
  text = komi_ladder_to_json (ladder);
  again = komi_ladder_new_from_json (text, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (again->covariance);
  g_assert_cmpfloat (again->covariance[1 * 3 + 2], ==, 300);
  g_assert_false (komi_rating_add_ladder_uncertainty (bare, subjects, &error));
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "no covariance"));
  g_clear_error (&error);
  g_clear_pointer (&again, komi_ladder_free);
  again = komi_ladder_new_from_json ("{\"protocol\": 1, \"pinned\": \"x\", \"members\": "
                                     "[{\"label\": \"x\", \"rating\": 0}], "
                                     "\"covariance\": [[-1]]}", -1, &error);
  g_assert_null (again);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "covariance"));
}

/* Calibrating keeps the fit's covariance, in member order: its diagonal
 * is each member's squared error, and the neighbours' difference's error
 * follows from it. */
static void
test_calibrate_covariance (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(KomiResultList) list = komi_result_list_new ();
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GError) error = NULL;
  guint k;

  /* The strongest pair first: the fit's own order is not the ladder's. */
  for (guint i = G_N_ELEMENTS (ladder_labels) - 1; i > 0; i--)
    komi_result_list_simulate (list, 1, ladder_labels[i - 1], ladder_truth[i - 1],
                               ladder_labels[i], ladder_truth[i], 200, FALSE, rand);
  ladder = komi_ladder_calibrate (komi_result_list_index (list, 0), list->results->len, NULL, 0,
                                  &error);
  g_assert_no_error (error);
  g_assert_nonnull (ladder->covariance);
  k = ladder->members->len;
  for (guint i = 0; i < k; i++)
    {
      const KomiLadderMember *m = ladder->members->pdata[i];

      g_assert_cmpfloat_with_epsilon (sqrt (ladder->covariance[i * k + i]), m->se, 1e-9);
      if (i > 0)
        {
          double d = ladder->covariance[i * k + i] + ladder->covariance[(i - 1) * k + i - 1]
                     - 2 * ladder->covariance[i * k + i - 1];

          g_assert_cmpfloat_with_epsilon (sqrt (d), m->step_se, 1e-9);
        }
    }
}

/* 100,000 games rate in well under a second. */
static void
test_speed (void)
{
  double seconds = komi_rating_bench (100000, 1);

  g_test_message ("ratings over 100,000 games: %.1f ms", seconds * 1000);
  g_assert_cmpfloat (seconds, >=, 0);
  g_assert_cmpfloat (seconds, <, 1.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/rating/closed-form", test_closed_form);
  g_test_add_func ("/komi/rating/draws-half", test_draws_half);
  g_test_add_func ("/komi/rating/recover", test_recover);
  g_test_add_func ("/komi/rating/coverage", test_coverage);
  g_test_add_func ("/komi/rating/sweep", test_sweep);
  g_test_add_func ("/komi/rating/forfeit-void-turn-limit", test_forfeit_void_turn_limit);
  g_test_add_func ("/komi/rating/tables", test_tables);
  g_test_add_func ("/komi/rating/refusals", test_refusals);
  g_test_add_func ("/komi/rating/calibrate", test_calibrate);
  g_test_add_func ("/komi/rating/calibrate-wide", test_calibrate_wide);
  g_test_add_func ("/komi/rating/unplaceable", test_unplaceable);
  g_test_add_func ("/komi/rating/ladder-json", test_ladder_json);
  g_test_add_func ("/komi/rating/ladder-uncertainty", test_ladder_uncertainty);
  g_test_add_func ("/komi/rating/calibrate-covariance", test_calibrate_covariance);
  g_test_add_func ("/komi/rating/speed", test_speed);

  return g_test_run ();
}
