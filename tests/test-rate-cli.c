/* test-rate-cli.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "komi-rate-run.h"
#include "komi-rehearsal.h"
#include "komi-store.h"
#include "komi-test-cli.h"
#include "komi-test-util.h"

/* `komi-cli rate` as a user runs it: a ladder frozen by `ratings
 * calibrate`, an engine subject and the rehearsal model rated pair by
 * pair into a library, killed and continued. */

/* A ladder of four made from neighbour games in the shape of the shipped
 * ladder's calibration (docs/ratings.md): random, mix:0.5:gnugo:1, gnugo:1
 * and, at the top, gnugo:2 (whose games cost a quarter of gnugo:5's: the
 * members' names and the games' results make the ladder, not the
 * engines' real strength). */
static char *
make_ladder (const char *dir)
{
  static const struct { const char *a, *b; guint wins, losses; } pairs[] = {
    { "random", "mix:0.5:gnugo:1", 3, 13 },
    { "mix:0.5:gnugo:1", "gnugo:1", 3, 13 },
    { "gnugo:1", "gnugo:2", 5, 11 },
  };
  g_autoptr(GString) csv = g_string_new ("black,white,winner,outcome,end_reason,subject\n");
  g_autofree char *results = g_build_filename (dir, "calibration.csv", NULL);
  char *ladder = g_build_filename (dir, "ladder.json", NULL);
  g_auto(KomiCliRun) run = { 0, };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    for (guint g = 0; g < pairs[i].wins + pairs[i].losses; g++)
      g_string_append_printf (csv, "%s,%s,%s,finished,two-passes,none\n", pairs[i].a,
                              pairs[i].b, g < pairs[i].wins ? "black" : "white");
  g_assert_true (g_file_set_contents (results, csv->str, -1, NULL));
  run.status = run_komi_cli (&run.out, &run.err, "ratings", "calibrate", "--results", results,
                             "--output", ladder, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_test (ladder, G_FILE_TEST_EXISTS));
  return ladder;
}

/* The series' games, in plan order. */
static GPtrArray *
list_games (const char *db)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = komi_store_open_reader (db, &error);
  GPtrArray *games;

  g_assert_no_error (error);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  return games;
}

/* The same while another process may still be creating the library:
 * NULL until it is one. */
static GPtrArray *
try_list_games (const char *db)
{
  g_autoptr(KomiStore) store = komi_store_open_reader (db, NULL);

  return store != NULL ? komi_store_list_games (store, KOMI_STORE_ALL_GAMES, NULL) : NULL;
}

/* The last "after N pairs" line's estimate, e.g. "507 (95% CI 218 to 790, …)". */
static char *
last_estimate (const char *out)
{
  const char *line = g_strrstr (out, "pairs (");
  const char *start, *end;

  g_assert_nonnull (line);
  start = strstr (line, "): ") + 3;
  end = strchr (start, '\n');
  return g_strndup (start, end - start);
}

/* A copy of the library @from at @to, made by SQLite (VACUUM INTO), as a
 * user would copy a library no run is writing. */
static void
copy_library (const char *from, const char *to)
{
  sqlite3 *conn = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (from, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (conn, "VACUUM INTO ?", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_bind_text (stmt, 1, to, -1, SQLITE_STATIC), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  sqlite3_close (conn);
}

/* The engine subject rated in two commands (1 pair, then up to 3): the
 * second continues the series. The library after the first pair is
 * copied and the copy continued too, killed while its second pair is in
 * play and run again: it must end as the run that was never killed.
 * (The killed run used to play the first pair again, against random and
 * the longest, 86 and 95 moves, and a fourth pair checked the
 * continuation: 14 games in all, now 10.) */
static void
test_engine_subject (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-rate-XXXXXX", NULL);
  g_autofree char *ladder = make_ladder (dir);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *killed_db = g_build_filename (dir, "killed.db", NULL);
  g_autofree char *estimate = NULL;
  g_autoptr(GPtrArray) first = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_auto(KomiCliRun) start = { 0, };
  g_auto(KomiCliRun) run = { 0, };
  g_auto(KomiCliRun) ratings = { 0, };
  g_auto(KomiCliRun) resumed = { 0, };
  guint rungs_used = 0;

  if (!have_gnugo ())
    return;
  start.status = run_komi_cli (&start.out, &start.err, "rate", "gnugo:3", "--ladder", ladder,
                               "--db", db, "--max-pairs", "1", NULL);
  if (start.status != 0)
    g_error ("komi-cli rate failed (%d): %s", start.status, start.err);
  g_assert_nonnull (strstr (start.out, "pair 1: against "));
  g_assert_nonnull (strstr (start.out, "after 1 pair (2 games): "));
  g_assert_nonnull (strstr (start.out, "Stopped after 1 pair: the pairs allowed are played"));
  first = list_games (db);
  g_assert_cmpuint (first->len, ==, 2);
  copy_library (db, killed_db);

  /* The same command with more pairs allowed continues the series. */
  run.status = run_komi_cli (&run.out, &run.err, "rate", "gnugo:3", "--ladder", ladder, "--db",
                             db, "--max-pairs", "3", NULL);
  if (run.status != 0)
    g_error ("komi-cli rate failed (%d): %s", run.status, run.err);
  g_assert_nonnull (strstr (run.out, "Continuing series 1: 1 pair chosen so far"));
  g_assert_null (strstr (run.out, "pair 1: against "));
  g_assert_nonnull (strstr (run.out, "pair 2: against "));
  g_assert_nonnull (strstr (run.out, "after 3 pairs (6 games): "));
  g_assert_nonnull (strstr (run.out, "Stopped after 3 pairs: the pairs allowed are played"));
  games = list_games (db);
  g_assert_cmpuint (games->len, ==, 6);
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *g = g_ptr_array_index (games, i);

      g_assert_cmpint (g->status, ==, KOMI_GAME_STATUS_FINISHED);
      g_assert_cmpint (g->plan_index, ==, i);
      g_assert_cmpint (g->subject, ==, i % 2 == 0 ? KOMI_BLACK : KOMI_WHITE);
      rungs_used |= 1u << g->opponent;
    }
  for (guint i = 0; i < first->len; i++)
    g_assert_cmpint (((KomiStoreGame *) games->pdata[i])->id, ==,
                     ((KomiStoreGame *) first->pdata[i])->id);
  /* GNU Go 3 beats random at once: the plan moves up the ladder. */
  g_assert_cmpuint (rungs_used & ~1u, !=, 0);

  /* The ratings command says what rate said, from the same library. */
  estimate = last_estimate (run.out);
  ratings.status = run_komi_cli (&ratings.out, &ratings.err, "ratings", "--db", db, "--ladder",
                                 ladder, NULL);
  g_assert_cmpint (ratings.status, ==, 0);
  if (strstr (ratings.out, estimate) == NULL)
    g_error ("ratings does not say “%s”:\n%s", estimate, ratings.out);

  /* --with-ladder-uncertainty: the same command again plays nothing more
   * and gives the interval widened by the ladder's covariance, which is
   * what `ratings --with-ladder-uncertainty` says of the same library. */
  {
    g_auto(KomiCliRun) wide = { 0, };
    g_auto(KomiCliRun) wide_ratings = { 0, };
    g_autofree char *widened = NULL;
    const char *line;

    wide.status = run_komi_cli (&wide.out, &wide.err, "rate", "gnugo:3", "--ladder", ladder,
                                "--db", db, "--max-pairs", "3", "--with-ladder-uncertainty",
                                NULL);
    g_assert_cmpint (wide.status, ==, 0);
    line = strstr (wide.out, "With the ladder's uncertainty: ");
    g_assert_nonnull (line);
    line += strlen ("With the ladder's uncertainty: ");
    widened = g_strndup (line, strcspn (line, "\n"));
    g_assert_nonnull (strstr (widened, "with the ladder's uncertainty"));
    g_assert_cmpstr (widened, !=, estimate);
    wide_ratings.status = run_komi_cli (&wide_ratings.out, &wide_ratings.err, "ratings", "--db",
                                        db, "--ladder", ladder, "--with-ladder-uncertainty",
                                        NULL);
    g_assert_cmpint (wide_ratings.status, ==, 0);
    if (strstr (wide_ratings.out, widened) == NULL)
      g_error ("ratings does not say “%s”:\n%s", widened, wide_ratings.out);
  }

  /* The copy continued, killed while its second pair is in play, then
   * run again: the same games, moves and estimate as the run that was
   * never killed. */
  {
    g_autoptr(GSubprocess) proc = NULL;
    g_autoptr(GPtrArray) killed = NULL;

    proc = test_cli_start (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, "rate", "gnugo:3", "--ladder",
                           ladder, "--db", killed_db, "--max-pairs", "3", NULL);
    /* Until a game of the second pair has moves in the library. */
    for (guint tries = 0;; tries++)
      {
        g_autoptr(GPtrArray) now = NULL;

        g_assert_cmpuint (tries, <, 6000);
        g_usleep (50000);
        now = try_list_games (killed_db);
        if (now != NULL && now->len >= 4 && ((KomiStoreGame *) now->pdata[2])->n_moves > 0)
          break;
      }
    g_subprocess_send_signal (proc, SIGKILL);
    g_subprocess_wait (proc, NULL, NULL);
    killed = list_games (killed_db);
    g_assert_cmpuint (killed->len, ==, 4);

    resumed.status = run_komi_cli (&resumed.out, &resumed.err, "rate", "gnugo:3", "--ladder",
                                   ladder, "--db", killed_db, "--max-pairs", "3", NULL);
    g_assert_cmpint (resumed.status, ==, 0);
    g_assert_nonnull (strstr (resumed.out, "Continuing series 1: 2 pairs chosen so far"));
    g_clear_pointer (&killed, g_ptr_array_unref);
    killed = list_games (killed_db);
    g_assert_cmpuint (killed->len, ==, 6);
    for (guint i = 0; i < killed->len; i++)
      {
        KomiStoreGame *a = g_ptr_array_index (games, i), *b = g_ptr_array_index (killed, i);

        g_assert_cmpuint (a->opponent, ==, b->opponent);
        g_assert_cmpstr (a->result, ==, b->result);
        g_assert_cmpuint (a->n_moves, ==, b->n_moves);
      }
    g_assert_nonnull (strstr (resumed.out, estimate));
  }
  remove_test_dir (dir);
}

static void
test_model_subject (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-rate-XXXXXX", NULL);
  g_autofree char *ladder = make_ladder (dir);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *profile = g_build_filename (dir, "profile.json", NULL);
  g_autofree char *subject = g_strconcat ("model:", profile, NULL);
  g_autofree char *json = NULL;
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_auto(KomiCliRun) run = { 0, };
  g_auto(KomiCliRun) broke = { 0, };
  KomiRehearsalOptions options = { .seed = 3 };
  double spent = 0;
  const char *line;

  if (!have_gnugo ())
    return;
  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  /* Priced, so that a budget means something: a dollar per million tokens. */
  json = g_strdup_printf ("{\"name\": \"rehearsal\", \"api\": \"openai-chat\", \"base_url\": "
                          "\"%s/v1\", \"model\": \"rehearsal-model\", \"max_concurrent\": 4, "
                          "\"price_input_per_mtok\": 1, \"price_output_per_mtok\": 1}",
                          komi_rehearsal_get_base_url (server));
  g_assert_true (g_file_set_contents (profile, json, -1, NULL));

  run.status = run_komi_cli (&run.out, &run.err, "rate", subject, "--ladder", ladder, "--db", db,
                             "--max-pairs", "2", NULL);
  if (run.status != 0)
    g_error ("komi-cli rate failed (%d): %s", run.status, run.err);
  g_assert_nonnull (strstr (run.out, "after 2 pairs (4 games): "));
  line = strstr (run.out, "Stopped after 2 pairs: the pairs allowed are played; $");
  g_assert_nonnull (line);
  spent = g_ascii_strtod (strchr (line, '$') + 1, NULL);
  g_assert_cmpfloat (spent, >, 0);
  games = list_games (db);
  g_assert_cmpuint (games->len, ==, 4);
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, "/v1/chat/completions"), >, 0);

  /* A budget that the next pair could overspend stops it before it starts. */
  {
    g_autofree char *budget = g_strdup_printf ("%.6f", spent * 1.01);

    broke.status = run_komi_cli (&broke.out, &broke.err, "rate", subject, "--ladder", ladder,
                                 "--db", db, "--max-pairs", "5", "--budget-usd", budget, NULL);
    g_assert_cmpint (broke.status, ==, 0);
    g_assert_nonnull (strstr (broke.out, "Stopped after 2 pairs: another pair could overspend "
                                         "the budget"));
    g_clear_pointer (&games, g_ptr_array_unref);
    games = list_games (db);
    g_assert_cmpuint (games->len, ==, 4);
  }
  remove_test_dir (dir);
}

/* A subject that is a member never plays itself (such a game is not
 * rated): its pairs go to the other rungs. */
static void
test_subject_on_ladder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-rate-XXXXXX", NULL);
  g_autofree char *ladder = make_ladder (dir);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autoptr(GPtrArray) games = NULL;
  g_auto(KomiCliRun) run = { 0, };

  if (!have_gnugo ())
    return;
  run.status = run_komi_cli (&run.out, &run.err, "rate", "random", "--ladder", ladder, "--db",
                             db, "--max-pairs", "2", NULL);
  if (run.status != 0)
    g_error ("komi-cli rate failed (%d): %s", run.status, run.err);
  games = list_games (db);
  g_assert_cmpuint (games->len, ==, 4);
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *g = g_ptr_array_index (games, i);

      g_assert_cmpuint (g->opponent, !=, 0);
      g_assert_cmpstr (g->black_spec, !=, g->white_spec);
    }
  remove_test_dir (dir);
}

/* A ladder whose games were judged by KataGo; the subject's games here are
 * judged by GNU Go, so none of them can count on it. `rate` stops after
 * the first pair and says why, rather than paying for pairs it can never
 * rate. */
static void
test_stops_on_set_apart (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-rate-XXXXXX", NULL);
  g_autofree char *ladder = make_ladder (dir);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(KomiCliRun) run = { 0, };

  if (!have_gnugo ())
    return;
  g_assert_true (json_parser_load_from_file (parser, ladder, &error));
  json_object_set_string_member (json_node_get_object (json_parser_get_root (parser)),
                                 "referee", "KataGo 1.17.2+g170-b6c96-s175M");
  json_generator_set_root (generator, json_parser_get_root (parser));
  g_assert_true (json_generator_to_file (generator, ladder, &error));

  run.status = run_komi_cli (&run.out, &run.err, "rate", "gnugo:3", "--ladder", ladder, "--db",
                             db, "--referee", "gnugo", "--max-pairs", "3", NULL);
  g_assert_cmpint (run.status, ==, 1);
  if (strstr (run.err, "cannot be rated on this ladder: dead stones judged by GNU Go") == NULL
      || strstr (run.err, "not by the ladder's referee KataGo 1.17.2") == NULL
      || strstr (run.err, "komi-cli ladder check") == NULL)
    g_error ("rate does not say why it stopped:\n%s", run.err);
  g_assert_nonnull (strstr (run.out, "pair 1: against "));
  g_assert_null (strstr (run.out, "pair 2: against "));
  games = list_games (db);
  g_assert_cmpuint (games->len, ==, 2);
  for (guint i = 0; i < games->len; i++)
    g_assert_cmpint (((KomiStoreGame *) g_ptr_array_index (games, i))->status, ==,
                     KOMI_GAME_STATUS_FINISHED);
  remove_test_dir (dir);
}

static void
test_errors (void)
{
  g_auto(KomiCliRun) run = { 0, };
  g_auto(KomiCliRun) usage = { 0, };

  run.status = run_komi_cli (&run.out, &run.err, "rate", "gnugo:3", "--ladder",
                             "/nonexistent/ladder.json", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "/nonexistent/ladder.json"));
  usage.status = run_komi_cli (&usage.out, &usage.err, "rate", "gnugo:3", "--target", "0", NULL);
  g_assert_cmpint (usage.status, ==, 2);

  /* --with-ladder-uncertainty on a ladder file without a covariance is
   * refused in words before any game is played (no library is made). */
  {
    g_autofree char *dir = g_dir_make_tmp ("komi-rate-XXXXXX", NULL);
    g_autofree char *ladder = g_build_filename (dir, "bare.json", NULL);
    g_autofree char *db = g_build_filename (dir, "library.db", NULL);
    g_auto(KomiCliRun) bare = { 0, };

    g_assert_true (g_file_set_contents (ladder,
                                        "{\"protocol\": 1, \"pinned\": \"random\", "
                                        "\"members\": [{\"label\": \"random\", \"rating\": 0}, "
                                        "{\"label\": \"gnugo:1\", \"rating\": 900, \"se\": 40}]}",
                                        -1, NULL));
    bare.status = run_komi_cli (&bare.out, &bare.err, "rate", "gnugo:3", "--ladder", ladder,
                                "--db", db, "--with-ladder-uncertainty", NULL);
    g_assert_cmpint (bare.status, ==, 1);
    g_assert_nonnull (strstr (bare.err, "no covariance"));
    g_assert_false (g_file_test (db, G_FILE_TEST_EXISTS));
    remove_test_dir (dir);
  }
}

/* komi-cli rate and the application rate with one set of defaults
 * (KOMI_RATE_RUN_OPTIONS_INIT), and rate --help says what they are. */
static void
test_defaults (void)
{
  static const char *const help[] = { "rate", "--help", NULL };
  const KomiRateRunOptions named = KOMI_RATE_RUN_OPTIONS_INIT;
  KomiRateRunOptions options;
  g_auto(KomiCliRun) run = { 0, };
  g_autofree char *target = g_strdup_printf ("(default %.0f)", KOMI_RATE_DEFAULT_TARGET);
  g_autofree char *min_pairs = g_strdup_printf ("(default %d)", KOMI_RATE_DEFAULT_MIN_PAIRS);
  g_autofree char *seed = g_strdup_printf ("(default %d;", KOMI_RATE_RUN_DEFAULT_SEED);
  g_autofree char *jobs = g_strdup_printf ("(default %d: a pair)", KOMI_RATE_RUN_DEFAULT_JOBS);

  komi_rate_run_options_init (&options, "gnugo:3");
  g_assert_cmpstr (options.subject, ==, "gnugo:3");
  g_assert_cmpfloat (options.plan.target, ==, KOMI_RATE_DEFAULT_TARGET);
  g_assert_cmpuint (options.plan.min_pairs, ==, KOMI_RATE_DEFAULT_MIN_PAIRS);
  g_assert_cmpuint (options.plan.max_pairs, ==, 0);
  g_assert_cmpuint (options.seed, ==, KOMI_RATE_RUN_DEFAULT_SEED);
  g_assert_cmpuint (options.jobs, ==, KOMI_RATE_RUN_DEFAULT_JOBS);
  g_assert_cmpfloat (options.budget_usd, ==, 0);
  g_assert_true (options.name == NULL && options.referee == NULL && options.engines == NULL);
  g_assert_true (options.event_func == NULL && options.progress_func == NULL
                 && options.pause == NULL);
  /* The initialiser the CLI starts from is the same. */
  g_assert_null (named.subject);
  g_assert_cmpfloat (named.plan.target, ==, options.plan.target);
  g_assert_cmpuint (named.plan.min_pairs, ==, options.plan.min_pairs);
  g_assert_cmpuint (named.seed, ==, options.seed);
  g_assert_cmpuint (named.jobs, ==, options.jobs);

  run.status = run_komi_cli_argv (NULL, help, &run.out, &run.err);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, target));
  g_assert_nonnull (strstr (run.out, min_pairs));
  g_assert_nonnull (strstr (run.out, seed));
  g_assert_nonnull (strstr (run.out, jobs));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/rate-cli/errors", test_errors);
  g_test_add_func ("/komi/rate-cli/defaults", test_defaults);
  g_test_add_func ("/komi/rate-cli/engine-subject", test_engine_subject);
  g_test_add_func ("/komi/rate-cli/model-subject", test_model_subject);
  g_test_add_func ("/komi/rate-cli/subject-on-ladder", test_subject_on_ladder);
  g_test_add_func ("/komi/rate-cli/stops-on-set-apart", test_stops_on_set_apart);
  return g_test_run ();
}
