/* bench-publish.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-bench"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>

#include "komi-protocol.h"
#include "komi-protocol-state.h"
#include "komi-publish.h"
#include "komi-store-test-util.h"

/* Figures, not a test: `komi-cli publish` over a library of N random games
 * (10,000 by default), one of which is a model game of 120 turns whose
 * every model move took 3 attempts per question (two invalid answers,
 * then a valid one): 2 x 3 attempts x 60 moves, each with a Chat
 * Completions request of the real Protocol 1 shape (the rules text, the
 * board, the options) and a response with log probabilities. With
 * --model, every game is a model game: Black's every move asked with both
 * questions, one attempt each (the heavy game as above). Prints the time
 * of the first publish and of publishing again, the size of the site and
 * of that game's page.
 *
 * --library PATH keeps the library there, and uses it as it is when it
 * is already there (making 10,000 model games takes longer than
 * publishing them; a profiler can then watch `komi-cli publish` alone).
 *
 * --threads N makes N game pages at once (default: one per processor).
 *
 *   _build/tests/bench-publish [N] [--model] [--library PATH] [--threads N] */

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *
request_body (const KomiGame *game, KomiOrientation orientation)
{
  KomiProtocolState state;
  g_autoptr(GString) prompt = g_string_new (NULL);
  GString *body = g_string_new ("{\"model\":\"bench-model\",\"messages\":[{\"role\":\"system\","
                                "\"content\":");

  komi_protocol_state_init_from_game (&state, game, orientation);
  komi_protocol_write_prompt (prompt, &state);
  komi_protocol_append_json_string (body, komi_protocol_get_rules_text (1, NULL), -1);
  g_string_append (body, "},{\"role\":\"user\",\"content\":");
  komi_protocol_append_json_string (body, prompt->str, -1);
  g_string_append (body, "}],\"logprobs\":true,\"top_logprobs\":5}");
  return g_string_free (body, FALSE);
}

/* A Chat Completions response with five top log probabilities. */
static char *
response_body (GRand *rand, const char *answer)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "{\"id\":\"chatcmpl-%08x%08x\",\"object\":\"chat.completion\","
                             "\"created\":%u,\"model\":\"bench-model-2026-01-01\",\"choices\":"
                             "[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
                             "\"{\\\"answer\\\":\\\"%s\\\"}\"},\"logprobs\":{\"content\":[",
                          g_rand_int (rand), g_rand_int (rand), 1796000000 + g_rand_int (rand) % 99999,
                          answer);
  for (guint i = 0; i < 5; i++)
    g_string_append_printf (s, "%s{\"token\":\"%c%u\",\"logprob\":%.16f,\"bytes\":[%u,%u]}",
                            i ? "," : "", 'A' + g_rand_int_range (rand, 0, 8),
                            g_rand_int_range (rand, 1, 10), -g_rand_double_range (rand, 0, 5),
                            65 + g_rand_int_range (rand, 0, 8), 49 + g_rand_int_range (rand, 0, 9));
  g_string_append_printf (s, "]},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":%u,"
                             "\"completion_tokens\":6,\"total_tokens\":%u},"
                             "\"system_fingerprint\":\"fp_%08x\"}",
                          800 + g_rand_int_range (rand, 0, 100), 900, g_rand_int (rand));
  return g_string_free (s, FALSE);
}

/* Black's every move in @game_id: two questions, @attempts attempts each
 * (all but the last invalid). */
static void
add_model_calls (KomiStore *store, gint64 game_id, const KomiGameRecord *record,
                 guint attempts)
{
  guint n = 0;
  const KomiMove *moves = komi_game_get_moves (record->game, &n);
  g_autoptr(KomiGame) replay = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GError) error = NULL;

  for (guint t = 0; t < n; t++)
    {
      static const char *const questions[] = { "play_or_pass", "best_point" };
      g_autofree char *request = request_body (replay, record->orientation);

      for (guint q = 0; moves[t].color == KOMI_BLACK && q < 2; q++)
        for (guint a = 1; a <= attempts; a++)
          {
            const char *answer = a < attempts ? "Z0" : q == 0 ? "place a stone" : "E5";
            KomiStoreCall call = {
              .turn = t + 1, .question = questions[q], .attempt = a,
              .request_url = "https://api.example.com/v1/chat/completions",
              .request_headers = "{\"authorization\":\"[redacted]\"}",
              .request_body = request, .response_status = 200,
              .response_headers = "{\"content-type\":\"application/json\"}",
              .latency_ms = 800 + a, .tokens_input = 850, .tokens_output = 6,
              .tokens_reasoning = -1, .tokens_cached = -1, .model_version = "bench-model",
              .finish_reason = "stop", .answer = a < attempts ? NULL : answer,
              .outcome = a < attempts ? "invalid-option" : "answer",
              .option_probabilities = "{\"E5\": 0.41, \"D4\": 0.2, \"C3\": 0.1}",
              .retry_delay = -1, .cost_usd = 0.0021,
            };

            g_autofree char *text = response_body (rand, answer);

            call.response_body = g_bytes_new (text, strlen (text));
            if (!komi_store_add_call (store, game_id, &call, &error))
              g_error ("%s", error->message);
            g_bytes_unref (call.response_body);
          }
      g_assert_true (komi_game_play (replay, moves[t].point, NULL));
    }
}

static guint threads;

static void
publish (const char *db, const char *site, const char *what)
{
  KomiPublishOptions options = { .threads = threads };
  KomiPublishStats stats = { 0, };
  g_autoptr(GError) error = NULL;
  g_autofree char *threads_text = threads > 0 ? g_strdup_printf ("%u thread%s", threads, threads == 1 ? "" : "s")
                                                : g_strdup_printf ("%u threads, one per processor",
                                                                   g_get_num_processors ());
  double cpu = cpu_seconds ();
  gint64 wall = g_get_monotonic_time ();

  if (!komi_publish_site (db, site, &options, &stats, &error))
    g_error ("%s", error->message);
  printf ("%s (%s): %u games, %.1f s CPU, %.1f s wall; %u files written, %u unchanged, %.0f MB\n",
          what, threads_text, stats.games, cpu_seconds () - cpu, (g_get_monotonic_time () - wall) / 1e6,
          stats.written, stats.unchanged, stats.bytes / 1e6);
  komi_publish_stats_clear (&stats);
}

/* A kept library: publish it twice and say so. */
static int
publish_existing (const char *db, const char *site, const char *dir)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
  GStatBuf lib;

  g_assert_cmpint (g_stat (db, &lib), ==, 0);
  printf ("library: %s as it is, %.0f MB\n", db, lib.st_size / 1e6);
  publish (db, site, "publish");
  publish (db, site, "publish again");
  return system (cmd);
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 10000;
  gboolean model = FALSE, reuse = FALSE;
  g_autofree char *dir = g_dir_make_tmp ("komi-bench-publish-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *site = g_build_filename (dir, "site", NULL);
  g_autofree char *page = NULL;
  g_autofree char *cmd = NULL;
  g_autoptr(TestSeries) t = test_series_new ("bench", 11, MAX (n / 2, 1));
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_game_record_free);
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GError) error = NULL;
  gint64 series_id = 0, heavy = 0;
  guint heavy_turns = 0;
  GStatBuf st;

  for (int i = 2; i < argc; i++)
    if (strcmp (argv[i], "--model") == 0)
      model = TRUE;
    else if (strcmp (argv[i], "--library") == 0 && i + 1 < argc)
      {
        g_free (db);
        db = g_strdup (argv[++i]);
        reuse = g_file_test (db, G_FILE_TEST_EXISTS);
      }
    else if (strcmp (argv[i], "--threads") == 0 && i + 1 < argc)
      threads = (guint) g_ascii_strtoull (argv[++i], NULL, 10);
    else
      g_error ("usage: bench-publish [N] [--model] [--library PATH] [--threads N]");
  if (reuse)
    return publish_existing (db, site, dir);
  store = komi_store_open (db, NULL);
  g_assert_nonnull (store);
  if (!komi_store_begin_series (store, &t->series, t->plan, &series_id, &error))
    g_error ("%s", error->message);
  for (guint i = 0; i < t->plan->len; i++)
    g_ptr_array_add (records, test_random_record (test_planned (t, i)));
  if (!komi_store_add_records (store, series_id, t->plan, records, &error))
    g_error ("%s", error->message);
  /* The model game: the first game of 120 turns. */
  games = komi_store_list_games (store, series_id, &error);
  for (guint i = 0; i < games->len && heavy == 0; i++)
    if (((KomiStoreGame *) games->pdata[i])->n_moves == KOMI_PROTOCOL_MAX_TURNS)
      {
        heavy = ((KomiStoreGame *) games->pdata[i])->id;
        heavy_turns = ((KomiStoreGame *) games->pdata[i])->n_moves;
        add_model_calls (store, heavy, records->pdata[i], 3);
      }
  g_assert_cmpint (heavy, >, 0);
  for (guint i = 0; model && i < games->len; i++)
    if (((KomiStoreGame *) games->pdata[i])->id != heavy)
      {
        add_model_calls (store, ((KomiStoreGame *) games->pdata[i])->id, records->pdata[i], 1);
        if (i % 1000 == 999)
          fprintf (stderr, "%u model games made\n", i + 1);
      }

  komi_store_sync (store, NULL);
  g_clear_pointer (&store, komi_store_unref);
  g_clear_pointer (&records, g_ptr_array_unref);

  {
    GStatBuf lib;

    g_assert_cmpint (g_stat (db, &lib), ==, 0);
    printf ("library: %u games%s, %.0f MB\n", games->len,
            model ? ", every one a model game" : "", lib.st_size / 1e6);
  }
  publish (db, site, "publish");
  publish (db, site, "publish again");
  page = g_strdup_printf ("%s/games/game-%" G_GINT64_FORMAT ".html", site, heavy);
  g_assert_cmpint (g_stat (page, &st), ==, 0);
  printf ("a %u-turn model game, 3 attempts per question (360 calls): page with its data "
          "%.0f KB\n", heavy_turns, st.st_size / 1e3);
  cmd = g_strdup_printf ("rm -rf '%s'", dir);
  return system (cmd);
}
