/* test-series-order.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-series.h"

/* An adaptive series (pair_order): its pairs are played in the order it
 * lists, it stays the same series as pairs are appended, and each pair is
 * the very pair an ordinary series would play against that opponent. */

#define ORDERED "{\"name\":\"rate\",\"protocol\":1,\"subject\":\"random\"," \
                "\"opponents\":[\"random\",{\"player\":\"gnugo:1\"},\"mix:0.5:gnugo:1\"]," \
                "\"pair_order\":[%s],\"seed\":11,\"referee\":\"none\"}"
#define ORDINARY "{\"name\":\"rate\",\"protocol\":1,\"subject\":\"random\"," \
                 "\"opponents\":[\"random\",\"gnugo:1\",\"mix:0.5:gnugo:1\"]," \
                 "\"pairs\":10,\"seed\":11,\"referee\":\"none\"}"

static KomiSeries *
ordered (const char *order)
{
  g_autofree char *json = g_strdup_printf (ORDERED, order);
  g_autoptr(GError) error = NULL;
  KomiSeries *series = komi_series_new_from_json (json, -1, &error);

  g_assert_no_error (error);
  return series;
}

static const KomiPlannedGame *
find (GArray *plan, guint opponent, guint pair, guint game_in_pair)
{
  for (guint i = 0; i < plan->len; i++)
    {
      const KomiPlannedGame *g = &g_array_index (plan, KomiPlannedGame, i);

      if (g->opponent == opponent && g->pair == pair && g->game_in_pair == game_in_pair)
        return g;
    }
  g_assert_not_reached ();
}

static void
test_plan (void)
{
  g_autoptr(KomiSeries) empty = ordered ("");
  g_autoptr(KomiSeries) short_ = ordered ("1,1,0");
  g_autoptr(KomiSeries) series = ordered ("1,1,0,2,1,0,0,2,1,1,1,1,1,1,1");
  g_autoptr(KomiSeries) ordinary = NULL;
  g_autoptr(KomiSeries) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) plan = komi_series_plan (series);
  g_autoptr(GArray) short_plan = komi_series_plan (short_);
  g_autoptr(GArray) ordinary_plan = NULL;
  guint expect[] = { 1, 1, 0, 2, 1, 0, 0, 2, 1, 1, 1, 1, 1, 1, 1 }, pairs[3] = { 0 };

  ordinary = komi_series_new_from_json (ORDINARY, -1, &error);
  g_assert_no_error (error);
  ordinary_plan = komi_series_plan (ordinary);

  /* Appending pairs keeps the series (its digest); the order is kept in
   * the definition, which reads back as the same plan. */
  g_assert_cmpstr (empty->digest, ==, series->digest);
  g_assert_cmpstr (short_->digest, ==, series->digest);
  g_assert_cmpstr (ordinary->digest, !=, series->digest);
  g_assert_cmpuint (komi_series_count_games (empty), ==, 0);
  g_assert_cmpuint (komi_series_count_games (series), ==, 30);
  g_assert_nonnull (strstr (series->canonical, "pair_order"));
  again = komi_series_new_from_json (series->canonical, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->digest, ==, series->digest);
  g_assert_cmpuint (again->pair_order->len, ==, 15);

  g_assert_cmpuint (plan->len, ==, 30);
  for (guint i = 0; i < plan->len; i++)
    {
      const KomiPlannedGame *g = &g_array_index (plan, KomiPlannedGame, i);
      const KomiPlannedGame *same = find (ordinary_plan, g->opponent, g->pair, g->game_in_pair);

      g_assert_cmpuint (g->index, ==, i);
      g_assert_cmpuint (g->opponent, ==, expect[i / 2]);
      g_assert_cmpuint (g->pair, ==, pairs[g->opponent]);
      g_assert_cmpuint (g->game_in_pair, ==, i % 2);
      g_assert_cmpuint (g->seed, ==, same->seed);
      g_assert_cmpint (g->orientation, ==, same->orientation);
      g_assert_cmpstr (g->black, ==, same->black);
      g_assert_cmpstr (g->white, ==, same->white);
      if (i % 2 == 1)
        pairs[g->opponent]++;
      /* The shorter order is a prefix: a run that appended keeps every game. */
      if (i < short_plan->len)
        g_assert_cmpuint (g->seed, ==, g_array_index (short_plan, KomiPlannedGame, i).seed);
    }
  /* gnugo:1 got 10 pairs, over two blocks of orientations. */
  g_assert_cmpuint (pairs[1], ==, 10);
}

static void
test_errors (void)
{
  static const struct { const char *json; const char *says; } cases[] = {
    { "{\"name\":\"r\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pair_order\":[0,1],\"seed\":1}", "pair_order[1]" },
    { "{\"name\":\"r\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pair_order\":{\"a\":1},\"seed\":1}", "pair_order" },
    { "{\"name\":\"r\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pair_order\":[0],\"pairs\":2,\"seed\":1}", "“pairs”" },
    { "{\"name\":\"r\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[{\"player\":"
      "\"random\",\"pairs\":3}],\"pair_order\":[0],\"seed\":1}", "opponents[0].pairs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KomiSeries) series = komi_series_new_from_json (cases[i].json, -1, &error);

      g_assert_null (series);
      g_assert_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FIELD);
      if (strstr (error->message, cases[i].says) == NULL)
        g_error ("case %u: “%s” does not say “%s”", i, error->message, cases[i].says);
    }
}

/* An opponent is checked once it has a pair: a ladder whose top rungs
 * need an engine that is missing rates weaker subjects all the same. */
static void
test_lazy_check (void)
{
#define LAZY "{\"name\":\"r\",\"protocol\":1,\"subject\":\"random\"," \
             "\"opponents\":[\"random\",\"gtp:/nonexistent/engine\"],\"pair_order\":[%s]," \
             "\"seed\":1,\"referee\":\"none\"}"
  g_autofree char *without = g_strdup_printf (LAZY, "0,0");
  g_autofree char *with = g_strdup_printf (LAZY, "0,1");
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSeries) fine = komi_series_new_from_json (without, -1, &error);
  g_autoptr(KomiSeries) missing = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (fine);
  missing = komi_series_new_from_json (with, -1, &error);
  g_assert_null (missing);
  g_assert_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FIELD);
  g_assert_nonnull (strstr (error->message, "opponents[1]"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/series-order/plan", test_plan);
  g_test_add_func ("/komi/series-order/errors", test_errors);
  g_test_add_func ("/komi/series-order/lazy-check", test_lazy_check);
  return g_test_run ();
}
