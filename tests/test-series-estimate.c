/* test-series-estimate.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-series-estimate.h"
#include "komi-store-test-util.h"
#include "komi-test-util.h"

/* The estimate shown before a series starts. The arithmetic is checked
 * against figures worked out by hand from call figures set by hand; the
 * call figures themselves against real profiles and request bodies. */

#define PROFILE "model:/test/profile.json"

/* 400 and 600 tokens a request (800 for the empty board's best_point),
 * 10 tokens an answer (100 at most), $2 and $8 a million tokens. */
static const KomiCallEstimate hand = {
  .input_tokens = { 400, 600 },
  .input_tokens_max = { 400, 800 },
  .output_tokens = 10,
  .output_tokens_max = 100,
  .transport_attempts = 6,
  .priced = TRUE,
  .price_input = 2.0,
  .price_output = 8.0,
};

/* The series' players are checked when it is parsed, so a model subject
 * needs a real profile file; the estimate itself gets the figures above. */
static KomiSeries *
series_with (const char *subject, const char *opponent, const char *budget)
{
  g_autofree char *json = g_strdup_printf ("{\"name\": \"e\", \"protocol\": 1, "
                                           "\"subject\": \"%s\", \"opponents\": [\"%s\", "
                                           "{\"player\": \"random\", \"pairs\": 1}], "
                                           "\"pairs\": 2, \"seed\": 5%s%s}",
                                           subject, opponent, budget ? ", \"budget_usd\": " : "",
                                           budget ? budget : "");
  g_autoptr(GError) error = NULL;
  KomiSeries *series = komi_series_new_from_json (json, -1, &error);

  g_assert_no_error (error);
  return series;
}

static char *
write_profile (const char *dir, const char *name, const char *json)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
  return g_strconcat ("model:", path, NULL);
}

/* A model subject against random: 2 + 2 + 1 + 1 = 6 games. */
static void
test_by_hand (void)
{
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(GHashTable) calls = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *dir = g_dir_make_tmp ("komi-estimate-XXXXXX", NULL);
  g_autofree char *spec = write_profile (dir, "p.json", "{\"name\": \"p\", \"api\": "
                                         "\"openai-chat\", \"model\": \"m\"}");
  KomiSeriesEstimate e;

  series = series_with (spec, "random", NULL);
  g_hash_table_insert (calls, spec, (gpointer) &hand);
  komi_series_estimate_with (&e, series, calls);
  g_assert_cmpuint (e.games, ==, 6);
  g_assert_cmpuint (e.model_games, ==, 6);
  /* 60 turns, two questions each: 120 calls a game. */
  g_assert_cmpuint (e.calls, ==, 720);
  /* Each question asked up to 3 times: 360 a game. */
  g_assert_cmpuint (e.calls_max, ==, 2160);
  /* Each of those up to 6 exchanges. */
  g_assert_cmpuint (e.requests_max, ==, 12960);
  g_assert_true (e.priced);
  /* A game: 60 × ((400 + 600) × $2 + 2 × 10 × $8) / 1e6 = $0.1296. */
  g_assert_cmpfloat_with_epsilon (e.cost, 6 * 0.1296, 1e-9);
  /* At most: 180 × ((400 + 800) × $2 + 2 × 100 × $8) / 1e6 = $0.72 a game. */
  g_assert_cmpfloat_with_epsilon (e.cost_max, 6 * 0.72, 1e-9);
  g_assert_cmpuint (e.games_in_budget, ==, 6);
  g_assert_false (e.budget_may_stop);
  g_clear_pointer (&series, komi_series_free);

  /* $0.50 pays for 3 typical games ($0.3888; a 4th makes $0.5184). */
  series = series_with (spec, "random", "0.5");
  komi_series_estimate_with (&e, series, calls);
  g_assert_cmpuint (e.games_in_budget, ==, 3);
  g_assert_true (e.budget_may_stop);
  g_assert_cmpfloat_with_epsilon (e.cost_max, 6 * 0.72, 1e-9);
  g_clear_pointer (&series, komi_series_free);

  /* $1 pays for the typical $0.7776 but not for the most, $4.32. */
  series = series_with (spec, "random", "1");
  komi_series_estimate_with (&e, series, calls);
  g_assert_cmpuint (e.games_in_budget, ==, 6);
  g_assert_true (e.budget_may_stop);
  g_clear_pointer (&series, komi_series_free);

  /* $5 covers even the most. */
  series = series_with (spec, "random", "5");
  komi_series_estimate_with (&e, series, calls);
  g_assert_cmpuint (e.games_in_budget, ==, 6);
  g_assert_false (e.budget_may_stop);
  g_clear_pointer (&series, komi_series_free);

  /* A model opponent too: its 4 games count both sides. */
  series = series_with (spec, spec, NULL);
  komi_series_estimate_with (&e, series, calls);
  g_assert_cmpuint (e.calls, ==, 720 + 4 * 120);
  g_assert_cmpfloat_with_epsilon (e.cost, 10 * 0.1296, 1e-9);
  g_clear_pointer (&series, komi_series_free);

  /* No model: nothing is called and nothing is paid. */
  series = series_with ("random", "random", NULL);
  komi_series_estimate_with (&e, series, calls);
  g_assert_cmpuint (e.games, ==, 6);
  g_assert_cmpuint (e.model_games, ==, 0);
  g_assert_cmpuint (e.calls, ==, 0);
  g_assert_cmpuint (e.calls_max, ==, 0);
  g_assert_cmpfloat (e.cost, ==, 0);
  g_assert_cmpfloat (e.cost_max, ==, 0);
  remove_test_dir (dir);
}

/* Real profiles: the request bodies are Protocol 1's, so their size is at
 * least the rules text's (1,291 bytes: 323 tokens), best_point's list of
 * points makes it longer, and the empty board's the longest. */
static void
test_from_profiles (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-estimate-XXXXXX", NULL);
  g_autofree char *priced = write_profile (dir, "priced.json",
                                           "{\"name\": \"p\", \"api\": \"openai-chat\", "
                                           "\"model\": \"m\", \"max_output_tokens\": 50, "
                                           "\"price_input_per_mtok\": 2.5, "
                                           "\"price_output_per_mtok\": 10}");
  g_autofree char *unpriced = write_profile (dir, "unpriced.json",
                                             "{\"name\": \"u\", \"api\": \"anthropic\", "
                                             "\"model\": \"m\"}");
  g_autofree char *uncapped = write_profile (dir, "uncapped.json",
                                             "{\"name\": \"t\", \"api\": \"gemini\", "
                                             "\"model\": \"m\", \"reasoning_effort\": \"low\", "
                                             "\"price_input_per_mtok\": 1, "
                                             "\"price_output_per_mtok\": 4}");
  g_autoptr(KomiProviderProfile) profile = NULL;
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(GError) error = NULL;
  KomiCallEstimate c;
  KomiSeriesEstimate e;

  profile = komi_provider_profile_load (priced + strlen ("model:"), &error);
  g_assert_no_error (error);
  komi_call_estimate_init (&c, profile);
  g_test_message ("tokens: play_or_pass %u, best_point %u (at most %u)",
                  c.input_tokens[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS],
                  c.input_tokens[KOMI_PROTOCOL_QUESTION_BEST_POINT],
                  c.input_tokens_max[KOMI_PROTOCOL_QUESTION_BEST_POINT]);
  g_assert_cmpuint (c.input_tokens[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS], >, 323);
  g_assert_cmpuint (c.input_tokens[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS], <, 1000);
  g_assert_cmpuint (c.input_tokens[KOMI_PROTOCOL_QUESTION_BEST_POINT], >,
                    c.input_tokens[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS]);
  g_assert_cmpuint (c.input_tokens_max[KOMI_PROTOCOL_QUESTION_BEST_POINT], >,
                    c.input_tokens[KOMI_PROTOCOL_QUESTION_BEST_POINT]);
  g_assert_cmpuint (c.output_tokens, ==, 10);
  g_assert_cmpuint (c.output_tokens_max, ==, 50);
  g_assert_cmpuint (c.transport_attempts, ==, 6);
  g_assert_true (c.priced);

  series = series_with (priced, "random", NULL);
  g_assert_true (komi_series_estimate (&e, series, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.calls, ==, 720);
  g_assert_cmpfloat_with_epsilon (e.cost, 6 * 60 * ((c.input_tokens[0] + c.input_tokens[1])
                                                    * 2.5 + 2 * 10 * 10.0) / 1e6, 1e-9);
  g_clear_pointer (&series, komi_series_free);
  g_clear_pointer (&profile, komi_provider_profile_free);

  /* No prices: not free but unknown. Anthropic caps answers at 1,024. */
  profile = komi_provider_profile_load (unpriced + strlen ("model:"), &error);
  g_assert_no_error (error);
  komi_call_estimate_init (&c, profile);
  g_assert_false (c.priced);
  g_assert_cmpuint (c.output_tokens_max, ==, 1024);
  series = series_with (unpriced, "random", NULL);
  g_assert_true (komi_series_estimate (&e, series, &error));
  g_assert_false (e.priced);
  g_clear_pointer (&series, komi_series_free);

  /* Reasoning with no cap on the output: no upper bound; a budget may stop it. */
  series = series_with (uncapped, "random", NULL);
  g_assert_true (komi_series_estimate (&e, series, &error));
  g_assert_cmpfloat (e.cost_max, <, 0);
  g_assert_cmpfloat (e.cost, >, 6 * 60 * 2 * 1024 * 4.0 / 1e6);
  g_clear_pointer (&series, komi_series_free);
  series = series_with (uncapped, "random", "3");
  g_assert_true (komi_series_estimate (&e, series, &error));
  g_assert_true (e.budget_may_stop);
  g_assert_cmpfloat (e.cost_max, <, 0);

  remove_test_dir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/series/estimate/by-hand", test_by_hand);
  g_test_add_func ("/komi/series/estimate/from-profiles", test_from_profiles);
  return g_test_run ();
}
