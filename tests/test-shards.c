/* test-shards.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "komi-ladder-ship.h"
#include "komi-provider-profile.h"
#include "komi-series.h"
#include "komi-store.h"
#include "komi-store-test-util.h"
#include "komi-test-cli.h"
#include "komi-test-util.h"

/* A series as shards: `komi-cli run --shard K/N` in separate processes,
 * `komi-cli merge` into one library, which must equal the same series run
 * in one process, game by game and move by move, and rate the same. A
 * shard is merged while it runs, killed with SIGKILL, merged again,
 * resumed and merged: the result is the same again. */


/* Engine-only, on the shipped ladder (ratings reads it): 5 pairs, so the
 * 4 shards hold 2, 1, 1 and 1 pairs (4, 2, 2 and 2 games): shard 2, the
 * one killed below, has a game left to play after its first. Shard 2 is
 * played once, killed and resumed, and that library is the one merged
 * with the other three, both at once into a new library and step by
 * step while it runs (it used to be played a second time, uninterrupted,
 * for the first: 2 of the 22 games the test played, now 20). */
/* komi-cli's output unread, what it says on stderr kept for a failure. */
#define QUIET (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE)

static const char series_json[] =
  "{\"name\": \"shard test\", \"protocol\": 1, \"subject\": \"gnugo:2\","
  " \"opponents\": [{\"player\": \"random\", \"pairs\": 1},"
  "                {\"player\": \"mix:0.5:gnugo:1\", \"pairs\": 4}],"
  " \"seed\": 17, \"referee\": \"gnugo\", \"jobs\": 2}";

static gint64
count_rows (const char *db, const char *sql)
{
  sqlite3 *conn = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n = -1;

  g_assert_cmpint (sqlite3_open_v2 (db, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (conn, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (conn);
  return n;
}

/* The shipped ladder with GNU Go as its referee (the series' own, so
 * that no game is set apart), in @dir. */
static char *
ladder_file (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "ladder.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) shipped = komi_ladder_shipped (1, &error);

  g_assert_no_error (error);
  g_free (shipped->referee);
  shipped->referee = g_strdup ("GNU Go 3.8");
  g_assert_true (komi_ladder_save (shipped, path, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static char *
ratings_of (const char *db, const char *ladder)
{
  g_auto(KomiCliRun) run = { 0, };

  run.status = run_komi_cli (&run.out, &run.err, "ratings", "--db", db, "--ladder", ladder,
                             NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  return g_steal_pointer (&run.out);
}

static void
test_shards_merge (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-shards-XXXXXX", NULL);
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autofree char *whole = g_build_filename (dir, "whole.db", NULL);
  g_autofree char *lib = g_build_filename (dir, "lib.db", NULL);
  g_autofree char *killed_lib = g_build_filename (dir, "killed-lib.db", NULL);
  g_autoptr(GPtrArray) want = NULL, got = NULL;
  g_autofree char *want_ratings = NULL, *got_ratings = NULL;
  g_autofree char *ladder = NULL;
  char *shard_db[4];
  GSubprocess *procs[4] = { NULL, };

  if (!have_gnugo ())
    return;
  g_assert_true (g_file_set_contents (series, series_json, -1, NULL));

  /* One process, then shards 1, 3 and 4 at once, each a process of its
   * own. Shard 2 is played below, killed and resumed. */
  test_cli_run_ok (QUIET, "run", series, "--db", whole, NULL);
  want = test_library_text (whole);
  g_assert_cmpuint (want->len, ==, 10);
  for (guint k = 0; k < 4; k++)
    {
      g_autofree char *name = g_strdup_printf (k == 1 ? "shard-%u-killed.db" : "shard-%u.db",
                                               k + 1);
      g_autofree char *shard = g_strdup_printf ("%u/4", k + 1);

      shard_db[k] = g_build_filename (dir, name, NULL);
      if (k != 1)
        procs[k] = test_cli_start (QUIET, "run", series, "--shard", shard, "--db", shard_db[k],
                                   NULL);
    }
  for (guint k = 0; k < 4; k++)
    {
      if (k == 1)
        continue;
      test_cli_wait_ok (procs[k]);
      g_object_unref (procs[k]);
      /* Each shard played its own share of the plan: 2, 1, 1 pairs. */
      g_assert_cmpint (count_rows (shard_db[k], "SELECT count(*) FROM games"), ==,
                       k < 1 ? 4 : 2);
    }

  /* Shard 2 in a library of its own, one game at a time: merged while it
   * runs (its lock held), killed once a game has ended, merged, resumed
   * to its end and merged. */
  {
    const char *killed = shard_db[1];
    g_autoptr(GSubprocess) run = test_cli_start (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                 | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                                 "run", series, "--shard", "2/4", "--jobs", "1",
                                                 "--db", killed, NULL);
    g_autoptr(GDataInputStream) lines = g_data_input_stream_new (
      g_subprocess_get_stdout_pipe (run));
    g_auto(KomiCliRun) during = { 0, };
    g_auto(KomiCliRun) after = { 0, };
    g_auto(KomiCliRun) status = { 0, };
    g_auto(KomiCliRun) done = { 0, };
    g_auto(KomiCliRun) other = { 0, };
    char *line;

    /* "game N: …" is printed once game N has ended and is committed. */
    while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, NULL)) != NULL
           && !g_str_has_prefix (line, "game "))
      g_free (line);
    g_assert_nonnull (line);
    g_free (line);
    during.status = run_komi_cli (&during.out, &during.err, "merge", "--db", killed_lib,
                                  shard_db[0], killed, NULL);
    g_assert_cmpstr (during.err, ==, "");
    g_assert_cmpint (during.status, ==, 3);
    g_assert_nonnull (strstr (during.out, "not ended yet (its run is going on)"));
    status.status = run_komi_cli (&status.out, &status.err, "status", shard_db[0], killed,
                                  NULL);
    g_assert_cmpint (status.status, ==, 0);
    g_assert_nonnull (strstr (status.out, "Series “shard test” (protocol 1): "));
    g_assert_nonnull (strstr (status.out, "  2/4          2 "));
    g_assert_nonnull (strstr (status.out, "running"));
    g_assert_nonnull (strstr (status.out, "4 games of the plan are in none of these "
                                          "libraries"));

    g_subprocess_send_signal (run, SIGKILL);
    g_subprocess_wait (run, NULL, NULL);
    after.status = run_komi_cli (&after.out, &after.err, "merge", "--db", killed_lib, killed,
                                 NULL);
    g_assert_cmpint (after.status, ==, 3);
    g_assert_nonnull (strstr (after.out, "its run stopped or died"));
    /* Only ended games came: none of them half played. */
    g_assert_cmpint (count_rows (killed_lib, "SELECT count(*) FROM games WHERE status NOT IN "
                                             "('finished', 'void', 'forfeit')"), ==, 0);

    /* Another shard is refused; the same command without --shard (or
     * resume) goes on with the library's own shard, not the whole plan. */
    other.status = run_komi_cli (&other.out, &other.err, "run", series, "--shard", "3/4",
                                 "--db", killed, NULL);
    g_assert_cmpint (other.status, ==, 1);
    g_assert_nonnull (strstr (other.err, "holds shard 2/4 of this series, not shard 3/4"));
    test_cli_run_ok (QUIET, "run", series, "--db", killed, NULL);
    g_assert_cmpint (count_rows (killed, "SELECT count(*) FROM games"), ==, 2);
    done.status = run_komi_cli (&done.out, &done.err, "merge", "--db", killed_lib,
                                shard_db[0], killed, shard_db[2], shard_db[3], NULL);
    g_assert_cmpstr (done.err, ==, "");
    g_assert_cmpint (done.status, ==, 0);
    g_assert_nonnull (strstr (done.out, "10 of the 10 games of its plan ended"));
  }

  /* The 4 shards merged at once into a new library. */
  {
    g_auto(KomiCliRun) merge = { 0, };

    merge.status = run_komi_cli (&merge.out, &merge.err, "merge", "--db", lib, shard_db[0],
                                 shard_db[1], shard_db[2], shard_db[3], NULL);
    g_assert_cmpstr (merge.err, ==, "");
    g_assert_cmpint (merge.status, ==, 0);
    g_assert_nonnull (strstr (merge.out, "10 of the 10 games of its plan ended"));
  }
  got = test_library_text (lib);
  test_assert_same_games (got, want);
  g_assert_cmpint (count_rows (lib, "SELECT count(*) FROM series"), ==, 1);
  g_assert_cmpint (count_rows (lib, "SELECT count(*) FROM moves"), ==,
                   count_rows (whole, "SELECT count(*) FROM moves"));
  ladder = ladder_file (dir);
  want_ratings = ratings_of (whole, ladder);
  got_ratings = ratings_of (lib, ladder);
  g_assert_nonnull (strstr (want_ratings, "gnugo:2"));
  g_assert_cmpstr (got_ratings, ==, want_ratings);

  /* The same shards again: nothing added, not even an event. */
  {
    g_auto(KomiCliRun) again = { 0, };
    gint64 events = count_rows (lib, "SELECT count(*) FROM events");
    gint64 moves = count_rows (lib, "SELECT count(*) FROM moves");

    g_assert_cmpint (events, >=, 8);   /* each shard's run-start and run-end */
    again.status = run_komi_cli (&again.out, &again.err, "merge", "--db", lib, shard_db[2],
                                 shard_db[0], NULL);
    g_assert_cmpint (again.status, ==, 0);
    g_assert_nonnull (strstr (again.out, "shard-3.db: 0 games added, 2 already in the library"));
    g_assert_nonnull (strstr (again.out, "shard-1.db: 0 games added, 4 already in the library"));
    g_assert_cmpint (count_rows (lib, "SELECT count(*) FROM events"), ==, events);
    g_assert_cmpint (count_rows (lib, "SELECT count(*) FROM moves"), ==, moves);
    g_clear_pointer (&got, g_ptr_array_unref);
    got = test_library_text (lib);
    test_assert_same_games (got, want);
  }

  /* The library merged step by step while shard 2 ran, died and ended:
   * the same again. */
  g_clear_pointer (&got, g_ptr_array_unref);
  got = test_library_text (killed_lib);
  test_assert_same_games (got, want);
  g_free (got_ratings);
  got_ratings = ratings_of (killed_lib, ladder);
  g_assert_cmpstr (got_ratings, ==, want_ratings);
  /* No run left looking interrupted in either merged library. */
  {
    const char *merged[] = { killed_lib, lib };

    for (guint i = 0; i < G_N_ELEMENTS (merged); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(KomiStore) store = komi_store_open_reader (merged[i], &error);
        g_autoptr(GArray) interrupted = komi_store_list_interrupted (store, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (interrupted->len, ==, 0);
      }
  }

  for (guint k = 0; k < 4; k++)
    g_free (shard_db[k]);
  remove_test_dir (dir);
}

/* A shard of another series is refused before anything is written, with
 * what differs. */
static void
test_merge_refuses_other_series (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-shards-other-XXXXXX", NULL);
  g_autofree char *a_json = g_build_filename (dir, "a.json", NULL);
  g_autofree char *b_json = g_build_filename (dir, "b.json", NULL);
  g_autofree char *a = g_build_filename (dir, "a.db", NULL);
  g_autofree char *b = g_build_filename (dir, "b.db", NULL);
  g_autofree char *lib = g_build_filename (dir, "lib.db", NULL);
  g_auto(KomiCliRun) merge = { 0, };
  g_auto(KomiCliRun) same = { 0, };
  g_auto(KomiCliRun) bad = { 0, };

  g_assert_true (g_file_set_contents (a_json, "{\"name\": \"tiny\", \"protocol\": 1, "
                                      "\"subject\": \"random\", \"opponents\": [\"random\"], "
                                      "\"pairs\": 2, \"seed\": 1, \"referee\": \"none\"}",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (b_json, "{\"name\": \"tiny\", \"protocol\": 1, "
                                      "\"subject\": \"random\", \"opponents\": [\"random\"], "
                                      "\"pairs\": 2, \"seed\": 2, \"referee\": \"none\"}",
                                      -1, NULL));
  test_cli_run_ok (QUIET, "run", a_json, "--shard", "1/2", "--db", a, NULL);
  test_cli_run_ok (QUIET, "run", b_json, "--shard", "2/2", "--db", b, NULL);

  merge.status = run_komi_cli (&merge.out, &merge.err, "merge", "--db", lib, a, b, NULL);
  g_assert_cmpint (merge.status, ==, 1);
  g_assert_nonnull (strstr (merge.err, "holds another series than"));
  g_assert_nonnull (strstr (merge.err, "seed: 2, not 1"));
  g_assert_false (g_file_test (lib, G_FILE_TEST_EXISTS));

  same.status = run_komi_cli (&same.out, &same.err, "merge", "--db", a, a, NULL);
  g_assert_cmpint (same.status, ==, 1);
  g_assert_nonnull (strstr (same.err, "is the library merged into"));

  bad.status = run_komi_cli (&bad.out, &bad.err, "run", a_json, "--shard", "3/2", "--db", a,
                             NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "is not a shard: give K/N"));

  remove_test_dir (dir);
}

/* The split: every game in exactly one shard, a pair's two games
 * together, shards within one pair of each other, and each opponent's
 * pairs dealt round. */
static void
test_split (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSeries) series = komi_series_new_from_json (
    "{\"name\": \"split\", \"protocol\": 1, \"subject\": \"random\", "
    " \"opponents\": [{\"player\": \"random\", \"pairs\": 9}, "
    "                 {\"player\": \"gnugo:1\", \"pairs\": 4}], "
    " \"seed\": 3, \"referee\": \"none\"}", -1, &error);
  g_autoptr(GArray) whole = NULL;

  g_assert_no_error (error);
  whole = komi_series_plan_to_play (series);
  g_assert_cmpuint (whole->len, ==, 26);
  for (guint n = 1; n <= 7; n++)
    {
      g_autofree guint *owner = g_new0 (guint, whole->len);
      guint min = G_MAXUINT, max = 0;

      for (guint k = 0; k < n; k++)
        {
          g_autoptr(GArray) part = NULL;
          guint per_opponent[2] = { 0, 0 };

          series->shard = k;
          series->n_shards = n;
          part = komi_series_plan_to_play (series);
          for (guint i = 0; i < part->len; i++)
            {
              KomiPlannedGame *g = &g_array_index (part, KomiPlannedGame, i);
              KomiPlannedGame *w = &g_array_index (whole, KomiPlannedGame, g->index);

              g_assert_cmpuint (owner[g->index]++, ==, 0);
              g_assert_cmpuint (g->seed, ==, w->seed);
              g_assert_cmpint (g->orientation, ==, w->orientation);
              per_opponent[g->opponent]++;
              if (g->game_in_pair == 0)
                {
                  g_assert_cmpuint (i + 1, <, part->len);
                  g_assert_cmpuint (g_array_index (part, KomiPlannedGame, i + 1).index, ==,
                                    g->index + 1);
                }
            }
          /* Against each opponent: its pairs / n, rounded either way. */
          g_assert_cmpuint (per_opponent[0] / 2, <=, (9 + n - 1) / n);
          g_assert_cmpuint (per_opponent[0] / 2, >=, 9 / n);
          g_assert_cmpuint (per_opponent[1] / 2, <=, (4 + n - 1) / n);
          min = MIN (min, part->len);
          max = MAX (max, part->len);
        }
      for (guint i = 0; i < whole->len; i++)
        g_assert_cmpuint (owner[i], ==, 1);
      g_assert_cmpuint (max - min, <=, 2);
    }
}

/* N shards on one key: each gets the limits divided by N, unless the
 * profile says every shard gets them whole. */
static void
test_profile_share (void)
{
#define PROFILE(MORE) "{\"name\": \"p\", \"api\": \"openai-chat\", \"model\": \"m\", " \
                      "\"base_url\": \"http://127.0.0.1:1/v1\", \"max_concurrent\": 6, " \
                      "\"requests_per_minute\": 120" MORE "}"
  const char *divided_json = PROFILE ("");
  const char *each_json = PROFILE (", \"shard_limits\": \"each\"");
  const char *bad_json = PROFILE (", \"shard_limits\": \"half\"");
  g_autoptr(JsonNode) divided_node = json_from_string (divided_json, NULL);
  g_autoptr(JsonNode) each_node = json_from_string (each_json, NULL);
  g_autoptr(JsonNode) bad_node = json_from_string (bad_json, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiProviderProfile) divided = NULL;
  g_autoptr(KomiProviderProfile) each = NULL;
  g_autoptr(KomiProviderProfile) bad = NULL;

  divided = komi_provider_profile_new_from_json (divided_node, &error);
  g_assert_no_error (error);
  komi_provider_profile_share (divided, 4);
  g_assert_cmpuint (divided->max_concurrent, ==, 1);
  g_assert_cmpfloat (divided->requests_per_minute, ==, 30);
  komi_provider_profile_share (divided, 1);
  g_assert_cmpuint (divided->max_concurrent, ==, 1);

  each = komi_provider_profile_new_from_json (each_node, &error);
  g_assert_no_error (error);
  komi_provider_profile_share (each, 4);
  g_assert_cmpuint (each->max_concurrent, ==, 6);
  g_assert_cmpfloat (each->requests_per_minute, ==, 120);

  bad = komi_provider_profile_new_from_json (bad_node, &error);
  g_assert_null (bad);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "shard_limits"));
}

/* Right after a job array is submitted no shard has made its library:
 * `status OUT/shard-*.db` gets the pattern as it is, and says so. */
static void
test_status_before_any_shard (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-shards-XXXXXX", NULL);
  g_autofree char *pattern = g_build_filename (dir, "shard-*.db", NULL);
  g_auto(KomiCliRun) status = { 0, };

  status.status = run_komi_cli (&status.out, &status.err, "status", pattern, NULL);
  g_assert_cmpint (status.status, ==, 1);
  g_assert_nonnull (strstr (status.err, "no library matches"));
  g_assert_nonnull (strstr (status.err, "no shard has started"));
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/shards/split", test_split);
  g_test_add_func ("/komi/shards/profile-share", test_profile_share);
  g_test_add_func ("/komi/shards/refuse-other-series", test_merge_refuses_other_series);
  g_test_add_func ("/komi/shards/merge-equals-one-process", test_shards_merge);
  g_test_add_func ("/komi/shards/status-before-any-shard", test_status_before_any_shard);
  return g_test_run ();
}
