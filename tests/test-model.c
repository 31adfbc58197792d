/* test-model.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "komi-provider-profile.h"
#include "komi-rehearsal.h"
#include "komi-series.h"
#include "komi-store.h"
#include "komi-test-cli.h"
#include "komi-test-util.h"

/* A model as a player, end to end: the rehearsal server on loopback in
 * this process, `komi-cli run` in another, a series of the rehearsal model
 * against GNU Go recorded in a real library, exported; the API key appears
 * nowhere. */

#define KEY "sk-komi-test-7f3a9c41e2b8d605"

static const char *apis[] = { "openai-chat", "openai-responses", "anthropic", "gemini" };

static char *
write_profile (const char *dir, const char *api, const char *base_url)
{
  g_autofree char *name = g_strdup_printf ("%s.json", api);
  char *path = g_build_filename (dir, name, NULL);
  /* OpenAI's base URLs end in /v1, as in its SDKs and compatible servers. */
  g_autofree char *base = g_str_has_prefix (api, "openai") ? g_strconcat (base_url, "/v1", NULL)
                                                             : g_strdup (base_url);
  g_autofree char *json = g_strdup_printf (
    "{\"name\": \"rehearsal %s\", \"api\": \"%s\", \"base_url\": \"%s\","
    " \"model\": \"rehearsal-model\", \"key_env\": \"KOMI_TEST_MODEL_KEY\","
    " \"max_concurrent\": 4, \"retry_base_ms\": 10, \"retry_cap_ms\": 50}",
    api, api, base);

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  return path;
}

/* Searches the whole file, binary ones too: g_strstr_len() would stop at
 * the first NUL byte, the 16th of an SQLite file. */
static gboolean
file_contains (const char *path, const char *needle)
{
  g_autofree char *text = NULL;
  gsize length;

  if (!g_file_get_contents (path, &text, &length, NULL))
    return FALSE;
  return memmem (text, length, needle, strlen (needle)) != NULL;
}

static void
test_series_over_loopback (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-model-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *calls = g_build_filename (dir, "calls.jsonl", NULL);
  g_autofree char *csv = g_build_filename (dir, "results.csv", NULL);
  g_autofree char *sgf_dir = g_build_filename (dir, "sgf", NULL);
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) games = NULL;
  KomiRehearsalOptions options = {
    .seed = 5, .api_key = KEY, .retry_after_ms = 10,
    /* An overload and an invalid answer along the way. */
    .faults = "429@3,invalid@7",
  };

  if (!have_gnugo ())
    return;
  g_setenv ("KOMI_TEST_MODEL_KEY", KEY, TRUE);
  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    {
      g_autofree char *profile = write_profile (dir, apis[i], komi_rehearsal_get_base_url (server));
      g_autofree char *series = g_build_filename (dir, "series.json", NULL);
      g_autofree char *json = g_strdup_printf (
        "{\"name\": \"rehearsal %s vs GNU Go\", \"protocol\": 1, \"subject\": \"model:%s\","
        " \"opponents\": [\"gnugo:0\"], \"pairs\": 1, \"seed\": %u, \"referee\": \"gnugo\","
        " \"jobs\": 2}", apis[i], profile, i + 1);
      g_autofree char *out = NULL, *err = NULL;
      int status;

      g_assert_true (g_file_set_contents (series, json, -1, NULL));
      status = run_komi_cli (&out, &err, "run", series, "--db", db, NULL);
      if (status != 0)
        g_error ("%s: komi-cli run failed (%d): %s", apis[i], status, err);
      g_assert_null (strstr (out, KEY));
      g_assert_null (strstr (err, KEY));
    }

  /* Every game ended (two passes, the limit, or a forfeit), every call is
   * in the library, the requests reached each API's path. */
  store = komi_store_open_reader (db, &error);
  g_assert_no_error (error);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (games->len, ==, 8);
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *g = g_ptr_array_index (games, i);

      g_assert_true (g->status == KOMI_GAME_STATUS_FINISHED
                     || g->status == KOMI_GAME_STATUS_FORFEIT);
      g_assert_true (g_str_has_prefix (g->subject == KOMI_BLACK ? g->black_name : g->white_name,
                                       "rehearsal"));
    }
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, "/v1/chat/completions"), >, 0);
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, "/v1/responses"), >, 0);
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, "/v1/messages"), >, 0);

  {
    g_autofree char *out = NULL, *err = NULL;
    int status = run_komi_cli (&out, &err, "export", "--db", db, "--sgf", sgf_dir,
                               "--calls", calls, "--csv", csv, NULL);

    g_assert_cmpint (status, ==, 0);
    g_assert_true (file_contains (calls, "\"transport-error\"")
                   || file_contains (calls, "transport"));
    g_assert_true (file_contains (calls, "rehearsal-model"));
    g_assert_false (file_contains (calls, KEY));
    g_assert_false (file_contains (csv, KEY));
  }
  /* Nor in the library file itself, its log included. */
  g_assert_false (file_contains (db, KEY));
  {
    g_autofree char *wal = g_strconcat (db, "-wal", NULL);
    g_assert_false (file_contains (wal, KEY));
  }
  g_unsetenv ("KOMI_TEST_MODEL_KEY");
  g_clear_pointer (&store, komi_store_unref);
  remove_test_dir (dir);
}

typedef struct
{
  guint  attempts;
  double cost;
} CostSum;

/* Every attempt's recorded cost is its tokens at the profile's prices
 * ($1000 per million either way). */
static gboolean
sum_cost (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  CostSum *sum = user_data;

  sum->attempts++;
  g_assert_cmpfloat (call->cost_usd, >=, 0);
  g_assert_cmpfloat_with_epsilon (call->cost_usd,
                                  (MAX (call->tokens_input, 0) + MAX (call->tokens_output, 0))
                                  * 1000 / 1e6, 1e-12);
  sum->cost += call->cost_usd;
  return TRUE;
}

/* A series budget stops new calls before it would be exceeded; the same
 * series with more money continues where it stopped. */
static void
test_budget (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-budget-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *profile = g_build_filename (dir, "dear.json", NULL);
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(GError) error = NULL;
  KomiRehearsalOptions options = { .seed = 9 };
  g_autofree char *json = NULL;
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  int status;

  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  json = g_strdup_printf ("{\"name\": \"dear\", \"api\": \"openai-chat\", \"base_url\": "
                          "\"%s/v1\", \"model\": \"m\", \"price_input_per_mtok\": 1000, "
                          "\"price_output_per_mtok\": 1000}",
                          komi_rehearsal_get_base_url (server));
  g_assert_true (g_file_set_contents (profile, json, -1, NULL));
  g_free (json);
  /* About $0.6 a call: a dollar and a half buys two calls. */
  json = g_strdup_printf ("{\"name\": \"budget\", \"protocol\": 1, \"subject\": "
                          "\"model:%s\", \"opponents\": [\"random\"], \"pairs\": 1, "
                          "\"seed\": 1, \"referee\": \"none\", \"budget_usd\": 1.5}", profile);
  g_assert_true (g_file_set_contents (series, json, -1, NULL));

  status = run_komi_cli (&out, &err, "run", series, "--db", db, "--jobs", "1", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "budget"));
  g_assert_nonnull (strstr (err, "raise budget_usd"));
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, NULL), >=, 1);
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, NULL), <=, 3);

  /* The same series with a larger budget: nothing played twice. */
  g_free (json);
  json = g_strdup_printf ("{\"name\": \"budget\", \"protocol\": 1, \"subject\": "
                          "\"model:%s\", \"opponents\": [\"random\"], \"pairs\": 1, "
                          "\"seed\": 1, \"referee\": \"none\", \"budget_usd\": 100000}",
                          profile);
  g_assert_true (g_file_set_contents (series, json, -1, NULL));
  status = run_komi_cli (&out2, &err2, "run", series, "--db", db, "--jobs", "1", NULL);
  if (status != 0)
    g_error ("second run failed: %s", err2);
  g_assert_nonnull (strstr (out2, "Played 2 games in this run (1 resumed)"));
  g_assert_nonnull (strstr (out2, "Model calls in this run:"));

  /* The costs add up: each attempt's tokens at the profile's prices, each
   * game's the sum of its attempts', and the two runs' printed totals the
   * sum of all. */
  {
    g_autoptr(KomiStore) store = komi_store_open_reader (db, &error);
    g_autoptr(GPtrArray) games = NULL;
    CostSum sum = { 0, };
    double printed = 0, games_total = 0;
    const char *spent = strstr (err, "($");

    g_assert_no_error (error);
    g_assert_true (komi_store_foreach_call (store, KOMI_STORE_ALL_GAMES, sum_cost, &sum,
                                            &error));
    g_assert_no_error (error);
    g_assert_cmpuint (sum.attempts, >, 0);
    games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < games->len; i++)
      {
        KomiStoreGame *g = g_ptr_array_index (games, i);

        g_assert_cmpuint (g->n_calls, >, 0);
        games_total += g->cost_usd;
      }
    g_assert_cmpfloat_with_epsilon (games_total, sum.cost, 1e-9);
    /* The first run stopped on its budget and says what it spent; the
     * second prints its total in the summary. */
    g_assert_nonnull (spent);
    printed = g_ascii_strtod (spent + 2, NULL)
              + g_ascii_strtod (strstr (out2, " attempts, $") + strlen (" attempts, $"), NULL);
    g_assert_cmpfloat_with_epsilon (printed, sum.cost, 0.0002);
  }
  remove_test_dir (dir);
}

/* A cost as every part of Komi writes it: nothing spent is "$0" (a free
 * or rehearsal model), not "$0.0000"; what the last digit cannot show
 * is not said to be nothing. */
static void
test_cost_text (void)
{
  static const struct
  {
    double      usd;
    const char *text;
  } cases[] = {
    { 0, "$0" }, { 0.00001, "< $0.0001" }, { 0.0001, "$0.0001" }, { 0.0123, "$0.0123" },
    { 1.5, "$1.5000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = komi_cost_text (cases[i].usd);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* A model named once: its profile's name, its model id after it only
 * when the id adds something, and never a second pair of parentheses. */
static void
test_model_label (void)
{
  static const struct
  {
    const char *name, *model, *label;
  } cases[] = {
    { "rehearsal", "rehearsal-model", "rehearsal" },
    { "GPT-4o", "gpt-4o", "GPT-4o" },
    { "Claude Sonnet 4.5 (work)", "claude-sonnet-4-5", "Claude Sonnet 4.5 (work)" },
    { "Work account", "gpt-4o-2024-08-06", "Work account (gpt-4o-2024-08-06)" },
    { "rehearsal (openai-chat)", "rehearsal-model", "rehearsal (openai-chat), rehearsal-model" },
    { "", "m", "m" },
    { "only a name", NULL, "only a name" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *label = komi_provider_model_label (cases[i].name, cases[i].model);

      g_assert_cmpstr (label, ==, cases[i].label);
    }
}

/* The call log of a library as text lines "game turn question attempt
 * outcome", in order, and the request body of each. */
typedef struct
{
  GPtrArray *lines;
  GPtrArray *bodies;
} CallLog;

static gboolean
log_call (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  CallLog *log = user_data;

  g_ptr_array_add (log->lines, g_strdup_printf ("%" G_GINT64_FORMAT " %u %s %u %s",
                                                call->game_id, call->turn, call->question,
                                                call->attempt, call->outcome));
  g_ptr_array_add (log->bodies, g_strdup (call->request_body));
  return TRUE;
}

static void
read_call_log (const char *db, CallLog *log)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = komi_store_open_reader (db, &error);

  g_assert_no_error (error);
  log->lines = g_ptr_array_new_with_free_func (g_free);
  log->bodies = g_ptr_array_new_with_free_func (g_free);
  g_assert_true (komi_store_foreach_call (store, KOMI_STORE_ALL_GAMES, log_call, log, &error));
  g_assert_no_error (error);
}

/* Moves and result of every game, one line each. */
static char *
games_text (const char *db)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = komi_store_open_reader (db, &error);
  g_autoptr(GPtrArray) games = NULL;
  GString *s = g_string_new (NULL);

  g_assert_no_error (error);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < games->len; i++)
    {
      g_autoptr(KomiStoreGame) g = komi_store_load_game (store, ((KomiStoreGame *)
                                                                 games->pdata[i])->id, &error);

      g_assert_no_error (error);
      g_string_append_printf (s, "%d %s %s:", g->plan_index, komi_game_status_to_string (g->status),
                              g->result);
      for (guint m = 0; m < g->moves->len; m++)
        g_string_append_printf (s, " %d", g_array_index (g->moves, KomiMove, m).point);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

/* komi-cli is killed (SIGKILL) while a model call is in flight: the
 * rehearsal server answers the first two requests at once and holds the
 * third without a word (its "timeout@3" fault), so the request it has
 * just received is surely unanswered. Run again against a server without
 * faults on the same port, the series finishes; the library keeps the
 * killed attempt as "interrupted" and the same request sent again as the
 * next attempt of the same turn and question; and the games equal those
 * of a run that was never interrupted (no move lost or doubled), played
 * beside the resumed one. */
static void
test_kill_mid_call (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-midcall-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "killed.db", NULL);
  g_autofree char *whole = g_build_filename (dir, "whole.db", NULL);
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autofree char *calls = g_build_filename (dir, "calls.jsonl", NULL);
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  g_autofree char *profile = NULL, *json = NULL, *jsonl = NULL;
  g_autofree char *want = NULL, *got = NULL;
  g_autoptr(KomiRehearsal) slow = NULL, fast = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  KomiRehearsalOptions options = { .seed = 3, .faults = "timeout@3" };
  CallLog log = { 0, };
  gint64 deadline;
  guint port, interrupted = G_MAXUINT;

  if (!have_gnugo ())
    return;
  g_setenv ("KOMI_TEST_MODEL_KEY", KEY, TRUE);
  slow = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  port = komi_rehearsal_get_port (slow);
  profile = write_profile (dir, "openai-chat", komi_rehearsal_get_base_url (slow));
  json = g_strdup_printf ("{\"name\": \"killed mid-call\", \"protocol\": 1, "
                          "\"subject\": \"model:%s\", \"opponents\": [\"gnugo:1\"], "
                          "\"pairs\": 1, \"seed\": 21, \"referee\": \"gnugo\", "
                          "\"jobs\": 1}", profile);
  g_assert_true (g_file_set_contents (series, json, -1, NULL));

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                           &error, cli, "run", series, "--db", db, NULL);
  g_assert_no_error (error);
  /* Two calls answered, the third received and held. */
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (komi_rehearsal_get_request_count (slow, NULL) < 3)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_assert_nonnull (g_subprocess_get_identifier (proc));   /* still running */
      g_usleep (10000);
    }
  g_subprocess_send_signal (proc, SIGKILL);
  g_subprocess_wait (proc, NULL, NULL);
  g_assert_cmpuint (komi_rehearsal_get_request_count (slow, NULL), ==, 3);
  g_clear_object (&slow);

  /* The same model, answering every request, where the profile points;
   * the uninterrupted run, in a library of its own, goes beside the
   * resumed one. */
  options.faults = NULL;
  options.port = port;
  fast = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GSubprocess) uninterrupted = test_cli_start (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                                           | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                                           "run", series, "--db", whole, NULL);
    g_autofree char *out = NULL, *err = NULL;
    int status = run_komi_cli (&out, &err, "run", series, "--db", db, NULL);

    if (status != 0)
      g_error ("resumed run failed (%d): %s", status, err);
    g_assert_nonnull (strstr (out, "1 resumed"));
    test_cli_wait_ok (uninterrupted);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    status = run_komi_cli (&out, &err, "export", "--db", db, "--calls", calls, NULL);
    g_assert_cmpint (status, ==, 0);
  }

  /* Exactly one attempt was interrupted: the third request; the next
   * attempt of its game, turn and question is the same request again. */
  read_call_log (db, &log);
  for (guint i = 0; i < log.lines->len; i++)
    if (g_str_has_suffix (g_ptr_array_index (log.lines, i), " interrupted"))
      {
        g_assert_cmpuint (interrupted, ==, G_MAXUINT);
        interrupted = i;
      }
  g_assert_cmpuint (interrupted, ==, 2);
  {
    g_auto(GStrv) lost = g_strsplit (g_ptr_array_index (log.lines, 2), " ", -1);
    g_auto(GStrv) resent = g_strsplit (g_ptr_array_index (log.lines, 3), " ", -1);

    g_assert_cmpstr (resent[0], ==, lost[0]);   /* game */
    g_assert_cmpstr (resent[1], ==, lost[1]);   /* turn */
    g_assert_cmpstr (resent[2], ==, lost[2]);   /* question */
    g_assert_cmpuint (atoi (resent[3]), ==, atoi (lost[3]) + 1);
    g_assert_cmpstr (resent[4], ==, "answer");
    g_assert_cmpstr (g_ptr_array_index (log.bodies, 3), ==, g_ptr_array_index (log.bodies, 2));
  }
  /* Nothing else is left in flight, and the export shows both. */
  for (guint i = 0; i < log.lines->len; i++)
    g_assert_false (g_str_has_suffix (g_ptr_array_index (log.lines, i), " in-flight"));
  g_assert_true (g_file_get_contents (calls, &jsonl, NULL, NULL));
  g_assert_nonnull (strstr (jsonl, "\"outcome\":\"interrupted\""));

  want = games_text (whole);
  got = games_text (db);
  g_assert_cmpstr (got, ==, want);
  g_assert_nonnull (strstr (got, "0 finished"));
  g_assert_nonnull (strstr (got, "1 finished"));

  g_ptr_array_unref (log.lines);
  g_ptr_array_unref (log.bodies);
  g_unsetenv ("KOMI_TEST_MODEL_KEY");
  remove_test_dir (dir);
}

typedef struct
{
  GString *text;    /* "turn question attempt outcome status logprobs;" per attempt */
  guint    rejected;
} LogprobsLog;

static gboolean
log_logprobs (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  LogprobsLog *log = user_data;
  gsize len = 0;
  const char *body = call->response_body != NULL ? g_bytes_get_data (call->response_body, &len)
                                                 : NULL;

  g_string_append_printf (log->text, "%u %s %u %s %d %d;", call->turn, call->question,
                          call->attempt, call->outcome, call->response_status,
                          call->logprobs_requested);
  /* The rejection as the API words it, kept whole in the record. */
  if (call->response_status == 400)
    {
      g_assert_nonnull (body);
      g_assert_true (g_strstr_len (body, len, "ogprobs") != NULL);
      log->rejected++;
    }
  /* Asked without them from then on: not even in the request body. */
  if (!call->logprobs_requested)
    g_assert_null (strstr (call->request_body, "logprobs"));
  return TRUE;
}

/* A model that rejects logprobs (the rehearsal server answering 400 as
 * OpenAI and Gemini do) is asked again at once without them, and never
 * with them again; the record keeps the rejected attempt and says which
 * attempts asked for them. */
static void
test_logprobs_rejected (void)
{
  static const char *kinds[] = { "openai-chat", "gemini" };
  g_autofree char *dir = g_dir_make_tmp ("komi-logprobs-XXXXXX", NULL);
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(GError) error = NULL;
  KomiRehearsalOptions options = { .seed = 4, .reject_logprobs = TRUE };

  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-logprobs.json", kinds[i]);
      g_autofree char *profile = g_build_filename (dir, name, NULL);
      g_autofree char *series = g_build_filename (dir, "series.json", NULL);
      g_autofree char *db = g_strdup_printf ("%s/%s.db", dir, kinds[i]);
      g_autofree char *base = g_str_has_prefix (kinds[i], "openai")
        ? g_strconcat (komi_rehearsal_get_base_url (server), "/v1", NULL)
        : g_strdup (komi_rehearsal_get_base_url (server));
      g_autofree char *json = g_strdup_printf (
        "{\"name\": \"no logprobs\", \"api\": \"%s\", \"base_url\": \"%s\", "
        "\"model\": \"rehearsal-model\", \"logprobs\": true}", kinds[i], base);
      g_autofree char *out = NULL, *err = NULL;
      g_autoptr(KomiStore) store = NULL;
      g_autoptr(GPtrArray) games = NULL;
      LogprobsLog log = { g_string_new (NULL), 0 };
      int status;

      g_assert_true (g_file_set_contents (profile, json, -1, NULL));
      g_free (json);
      json = g_strdup_printf ("{\"name\": \"logprobs %s\", \"protocol\": 1, "
                              "\"subject\": \"model:%s\", \"opponents\": [\"random\"], "
                              "\"pairs\": 1, \"seed\": 8, \"referee\": \"none\", "
                              "\"jobs\": 1}", kinds[i], profile);
      g_assert_true (g_file_set_contents (series, json, -1, NULL));
      status = run_komi_cli (&out, &err, "run", series, "--db", db, NULL);
      if (status != 0)
        g_error ("%s: komi-cli run failed (%d): %s", kinds[i], status, err);

      store = komi_store_open_reader (db, &error);
      g_assert_no_error (error);
      g_assert_true (komi_store_foreach_call (store, KOMI_STORE_ALL_GAMES, log_logprobs, &log,
                                              &error));
      g_assert_no_error (error);
      g_test_message ("%s: %.200s", kinds[i], log.text->str);
      /* The first request asked and was refused; the same question went
       * again at once, without, and was answered. */
      g_assert_true (g_str_has_prefix (log.text->str, "1 play_or_pass 1 http-error 400 1;"
                                                      "1 play_or_pass 2 answer 200 0;"));
      g_assert_cmpuint (log.rejected, ==, 1);
      /* No later attempt asked (the logprobs flag ends each entry). */
      g_assert_null (strstr (strchr (log.text->str, ';') + 1, " 1;"));
      games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (games->len, ==, 2);
      for (guint g = 0; g < games->len; g++)
        g_assert_cmpint (((KomiStoreGame *) games->pdata[g])->status, ==,
                         KOMI_GAME_STATUS_FINISHED);
      g_string_free (log.text, TRUE);
    }
  remove_test_dir (dir);
}

/* The example profiles and series docs/models.md points to are valid. */
static void
test_example_profiles (void)
{
  const char *source = g_getenv ("KOMI_SOURCE_DIR");
  g_autofree char *series_path = g_build_filename (source, "data", "examples",
                                                   "rehearsal-series.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    {
      g_autofree char *name = g_strdup_printf ("rehearsal-%s.json", apis[i]);
      g_autofree char *path = g_build_filename (source, "data", "examples", name, NULL);
      g_autoptr(KomiProviderProfile) profile = komi_provider_profile_load (path, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (komi_provider_api_to_string (profile->api), ==, apis[i]);
      g_assert_null (profile->key_env);
    }
  /* The series names its profile relative to the checkout, as
   * docs/models.md runs it. */
  g_assert_true (g_file_get_contents (series_path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"model:data/examples/rehearsal-openai-chat.json\""));
  g_assert_cmpint (g_chdir (source), ==, 0);
  {
    g_autoptr(KomiSeries) series = komi_series_load (series_path, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (komi_series_count_games (series), ==, 8);
  }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/model/series-over-loopback", test_series_over_loopback);
  g_test_add_func ("/komi/model/example-profiles", test_example_profiles);
  g_test_add_func ("/komi/model/budget", test_budget);
  g_test_add_func ("/komi/model/cost-text", test_cost_text);
  g_test_add_func ("/komi/model/label", test_model_label);
  g_test_add_func ("/komi/model/kill-mid-call", test_kill_mid_call);
  g_test_add_func ("/komi/model/logprobs-rejected", test_logprobs_rejected);

  return g_test_run ();
}
