/* test-verify.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "komi-coords.h"
#include "komi-rehearsal.h"
#include "komi-store-test-util.h"
#include "komi-test-cli.h"
#include "komi-test-model-series.h"

/* `komi-cli verify`: an honest library (engine games; the rehearsal model's
 * games with every call, once with faults retried) and the site published
 * from it verify, exit 0;
 * a copy with one thing altered fails, exit 1, naming what: a move, a
 * result, a request byte, an answer that does not map to its move, an
 * engine's pinned identity, an attempt removed, a site file. `merge
 * --verify` brings in only the games that verify. --replay-engines passes
 * on real series against random, GNU Go and a mix: rung (and KataGo, when
 * KOMI_KATAGO is set), and catches two
 * of GNU Go's stones swapped (every move still legal, the same end). A
 * library of an older schema is refused, saying how to merge it, and
 * verifies once merged so. */

#define QUIET (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE)

static char *dir;
static char *engines;   /* random against random, 1 pair, no referee */
static char *model;     /* the rehearsal model against random, 1 pair, every call */
static char *faulty;    /* the same with a 429, an invalid answer and a refusal on the way */
static char *gnugo;     /* random against GNU Go level 0 and its mix:0.5 rung, 1 pair each */

#define KEY "sk-komi-verify-planted-5c1d7e90a4"
#define KEY_ENV "KOMI_TEST_VERIFY_KEY"

static const char gnugo_json[] =
  "{\"name\": \"replay\", \"protocol\": 1, \"subject\": \"random\","
  " \"opponents\": [{\"player\": \"gnugo:0\", \"pairs\": 1},"
  "                {\"player\": \"mix:0.5:gnugo:0\", \"pairs\": 1}],"
  " \"seed\": 29, \"referee\": \"none\", \"jobs\": 2}";

static const char series_json[] =
  "{\"name\": \"verify\", \"protocol\": 1, \"subject\": \"random\","
  " \"opponents\": [{\"player\": \"random\", \"pairs\": 1}],"
  " \"seed\": 11, \"referee\": \"none\", \"jobs\": 1}";

/* A copy of @library named @name, with @sql run on it as anyone could. */
static char *
tampered (const char *library, const char *name, const char *sql)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *contents = NULL;
  sqlite3 *db = NULL;
  char *message = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (library, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("tampering with %s: %s", name, message);
  g_assert_cmpint (sqlite3_changes (db), >, 0);
  sqlite3_close (db);
  return g_steal_pointer (&path);
}

/* Runs verify on @target and checks that it fails, saying @expected. */
static void
assert_fails (const char *target, const char *expected)
{
  g_auto(KomiCliRun) run = { 0, };

  run.status = run_komi_cli (&run.out, &run.err, "verify", target, NULL);
  if (run.status != 1 || strstr (run.out, expected) == NULL)
    g_error ("verify %s: status %d, expected 1 and “%s”; it said:\n%s%s", target, run.status,
             expected, run.out, run.err);
  g_assert_null (strstr (run.out, " 0 failed"));
}

static void
test_honest (void)
{
  const char *libraries[] = { engines, model, faulty };

  /* The faults happened, and were retried: attempts beyond the first. */
  g_assert_cmpint (test_sql_count (faulty, "SELECT count(*) FROM calls "
                                           "WHERE outcome NOT IN ('answer', 'ok')"), >=, 3);
  g_assert_cmpint (test_sql_count (faulty, "SELECT count(*) FROM calls WHERE attempt > 1"),
                   >=, 2);

  for (guint i = 0; i < G_N_ELEMENTS (libraries); i++)
    {
      g_auto(KomiCliRun) run = { 0, };
      g_auto(KomiCliRun) json = { 0, };

      run.status = run_komi_cli (&run.out, &run.err, "verify", libraries[i], NULL);
      if (run.status != 0)
        g_error ("verify %s: %s%s", libraries[i], run.out, run.err);
      g_assert_nonnull (strstr (run.out, "2 of 2 games verified, 0 failed"));
      json.status = run_komi_cli (&json.out, &json.err, "verify", "--json", libraries[i], NULL);
      g_assert_cmpint (json.status, ==, 0);
      g_assert_nonnull (strstr (json.out, "\"ok\" : true"));
      g_assert_nonnull (strstr (json.out, "\"failures\" : [ ]")
                        ?: strstr (json.out, "\"failures\" : []"));
    }
}

/* Move 3 of an engine game moved onto the stone of move 1. */
static void
test_altered_move (void)
{
  g_autofree char *copy = tampered (engines, "move.db",
                                    "UPDATE moves SET point = (SELECT point FROM moves "
                                    "  WHERE game_id = 1 AND turn = 1) "
                                    "WHERE game_id = 1 AND turn = 3");

  assert_fails (copy, "move 3 (Black ");
  assert_fails (copy, "is illegal");
}

static void
test_altered_result (void)
{
  g_autofree char *copy = tampered (engines, "result.db",
                                    "UPDATE games SET result = 'W+99', winner = 'W', "
                                    "  margin = 99 WHERE id = 1");

  assert_fails (copy, "but the result recorded is W+99");
}

/* One byte of the Protocol 1 request of the first attempt: the board's
 * column letters as shown. */
static void
test_altered_request (void)
{
  g_autofree char *copy = tampered (model, "request.db",
                                    "UPDATE calls SET request_body = replace (request_body, "
                                    "  'A B C D E F G H J', 'A B C D E F G H I') "
                                    "WHERE id = (SELECT min (id) FROM calls)");

  assert_fails (copy, "the request is not the Protocol 1 request Komi builds");
}

/* The accepted play_or_pass of a turn that placed a stone made "pass",
 * in the response and the record alike: consistent, but not the move. */
static void
test_answer_not_the_move (void)
{
  g_autofree char *copy = tampered (model, "answer.db",
                                    "UPDATE calls SET answer = 'pass', response_body = "
                                    "  CAST (replace (CAST (response_body AS TEXT), "
                                    "    'place a stone', 'pass') AS BLOB) "
                                    "WHERE id = (SELECT c.id FROM calls c JOIN moves m "
                                    "  ON m.game_id = c.game_id AND m.turn = c.turn "
                                    "  WHERE c.question = 'play_or_pass' AND c.decided = 1 "
                                    "  AND m.point <> 'pass' ORDER BY c.id LIMIT 1)");

  assert_fails (copy, "the accepted answers map through orientation");
  assert_fails (copy, "to pass, but ");
}

/* The answer recorded differs from what the response says. */
static void
test_answer_not_the_response (void)
{
  g_autofree char *copy = tampered (model, "recorded.db",
                                    "UPDATE calls SET answer = 'pass' WHERE id = "
                                    "  (SELECT min (id) FROM calls WHERE question = "
                                    "   'play_or_pass' AND answer = 'place a stone')");

  assert_fails (copy, "the response answers “place a stone”, recorded as “pass”");
}

static void
test_changed_pin (void)
{
  g_autofree char *copy = tampered (engines, "pin.db",
                                    "UPDATE games SET black_settings = json_set "
                                    "  (black_settings, '$.generator', 'a better one') "
                                    "WHERE id = 1");

  assert_fails (copy, "Black (random) is not the engine the ladder pins");
}

/* The accepted best_point of a turn deleted; and attempt 1 of another
 * question deleted, its attempt 2 left (renumbered as a retry would be). */
static void
test_removed_attempt (void)
{
  g_autofree char *gone = tampered (model, "removed.db",
                                    "DELETE FROM calls WHERE id = (SELECT min (id) FROM calls "
                                    "  WHERE question = 'best_point' AND decided = 1)");
  g_autofree char *gap = tampered (model, "gap.db",
                                   "UPDATE calls SET attempt = 2 WHERE id = "
                                   "  (SELECT min (id) FROM calls WHERE question = "
                                   "   'play_or_pass')");

  assert_fails (gone, "has no accepted answer to best_point");
  assert_fails (gap, "attempt 2 recorded where attempt 1 was due");
}

/* --rejudge: GNU Go judges each finished game's dead stones again; the
 * honest library agrees, and a dead stone written into a record is caught
 * (the count then disagrees too). */
static void
test_rejudge (void)
{
  g_autofree char *copy = tampered (engines, "dead.db",
                                    "UPDATE games SET dead = (SELECT point FROM moves "
                                    "  WHERE game_id = 1 AND turn = 1) WHERE id = 1");
  g_auto(KomiCliRun) run = { 0, };
  g_auto(KomiCliRun) bad = { 0, };

  run.status = run_komi_cli (&run.out, &run.err, "verify", "--rejudge", "--referee", "gnugo",
                             engines, NULL);
  if (run.status != 0)
    g_error ("verify --rejudge %s: %s%s", engines, run.out, run.err);
  bad.status = run_komi_cli (&bad.out, &bad.err, "verify", "--rejudge", "--referee", "gnugo",
                             copy, NULL);
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_nonnull (strstr (bad.out, "judged again by GNU Go"));
  g_assert_nonnull (strstr (bad.out, "the record has "));
}

/* The site published from the model's library verifies, with the library;
 * a page changed by one byte, or a file added, does not. */
static void
test_site (void)
{
  g_autofree char *site = g_build_filename (dir, "site", NULL);
  g_autofree char *page = g_build_filename (site, "index.html", NULL);
  g_autofree char *manifest = g_build_filename (site, "MANIFEST.sha256", NULL);
  g_autofree char *contents = NULL;
  g_auto(KomiCliRun) run = { 0, };
  gsize len = 0;

  test_cli_run_ok (QUIET, "publish", "--db", model, "--out", site, NULL);
  g_assert_true (g_file_test (manifest, G_FILE_TEST_EXISTS));
  run.status = run_komi_cli (&run.out, &run.err, "verify", site, "--db", model, NULL);
  if (run.status != 0)
    g_error ("verify %s: %s%s", site, run.out, run.err);
  g_assert_nonnull (strstr (run.out, "2 games against the library: 0 problems"));

  g_assert_true (g_file_get_contents (page, &contents, &len, NULL));
  contents[len / 2] ^= 0x01;
  g_assert_true (g_file_set_contents (page, contents, (gssize) len, NULL));
  assert_fails (site, "index.html does not match the manifest");
}

/* merge --verify: of a source with one game tampered, the other comes in. */
static void
test_merge_verify (void)
{
  g_autofree char *copy = tampered (engines, "merge-source.db",
                                    "UPDATE games SET result = 'W+99', winner = 'W', "
                                    "  margin = 99 WHERE id = 1");
  g_autofree char *dest = g_build_filename (dir, "merged.db", NULL);
  g_auto(KomiCliRun) run = { 0, };

  run.status = run_komi_cli (&run.out, &run.err, "merge", "--verify", "--db", dest, copy, NULL);
  g_assert_cmpint (run.status, ==, 3);
  g_assert_nonnull (strstr (run.out, "1 game added"));
  g_assert_nonnull (strstr (run.out, "1 game left out: it does not verify"));
  g_assert_cmpint (test_sql_count (dest, "SELECT count(*) FROM games"), ==, 1);
  g_assert_cmpint (test_sql_count (dest, "SELECT count(*) FROM games WHERE result = 'W+99'"),
                   ==, 0);
}

/* --replay-engines on honest libraries: every engine side (random, GNU
 * Go, its mix: rung) chooses again, from its recorded seed, every move the
 * record has. */
static void
test_replay_honest (void)
{
  const char *libraries[] = { engines, gnugo };
  const char *sides[] = { "4 sides played again move by move, 0 not",
                          "8 sides played again move by move, 0 not" };

  for (guint i = 0; i < G_N_ELEMENTS (libraries); i++)
    {
      g_auto(KomiCliRun) run = { 0, };

      run.status = run_komi_cli (&run.out, &run.err, "verify", "--replay-engines",
                                 libraries[i], NULL);
      if (run.status != 0)
        g_error ("verify --replay-engines %s: %s%s", libraries[i], run.out, run.err);
      g_assert_nonnull (strstr (run.out, sides[i]));
      g_assert_nonnull (strstr (run.out, " 0 failed"));
    }
}

/* KataGo (when KOMI_KATAGO is set: `build-aux/dev test` sets it) at one
 * visit a move, seeded, on one thread: its games replay move for move. */
static void
test_replay_katago (void)
{
  g_autofree char *path = g_build_filename (dir, "katago.json", NULL);
  g_autofree char *library = g_build_filename (dir, "katago.db", NULL);
  g_auto(KomiCliRun) run = { 0, };

  if (g_getenv ("KOMI_KATAGO") == NULL)
    {
      g_test_skip ("KOMI_KATAGO is not set");
      return;
    }
  g_assert_true (g_file_set_contents (path,
                                      "{\"name\": \"katago\", \"protocol\": 1, \"subject\": "
                                      "\"random\", \"opponents\": [{\"player\": \"katago:1\", "
                                      "\"pairs\": 1}], \"seed\": 31, \"referee\": \"none\", "
                                      "\"jobs\": 2}", -1, NULL));
  test_cli_run_ok (QUIET, "run", path, "--db", library, NULL);
  run.status = run_komi_cli (&run.out, &run.err, "verify", "--replay-engines", library, NULL);
  if (run.status != 0)
    g_error ("verify --replay-engines %s: %s%s", library, run.out, run.err);
  g_assert_nonnull (strstr (run.out, "4 sides played again move by move, 0 not"));
}

/* Whether @g's moves, with those of turns @i and @j (from 1) swapped, are
 * each legal and end in the same position, the same way. */
static gboolean
swap_keeps_game (const KomiStoreGame *g, guint i, guint j)
{
  g_autoptr(KomiGame) a = komi_game_new (g->size, g->max_turns);
  g_autoptr(KomiGame) b = komi_game_new (g->size, g->max_turns);
  g_autofree char *before = NULL, *after = NULL;

  for (guint t = 1; t <= g->moves->len; t++)
    {
      guint from = t == i ? j : t == j ? i : t;

      g_assert_true (komi_game_play (a, g_array_index (g->moves, KomiMove, t - 1).point, NULL));
      if (!komi_game_play (b, g_array_index (g->moves, KomiMove, from - 1).point, NULL))
        return FALSE;
    }
  before = komi_board_to_diagram (komi_game_get_board (a));
  after = komi_board_to_diagram (komi_game_get_board (b));
  return g_str_equal (before, after) && komi_game_is_over (a) == komi_game_is_over (b)
         && komi_game_get_end_reason (a) == komi_game_get_end_reason (b);
}

/* Two of GNU Go's stones in a game swapped in the record: every move is
 * still legal and the game ends in the same position, so the record holds
 * together and plain verify passes; GNU Go played again from its seed
 * chooses otherwise at the first of them. */
static void
test_replay_changed_move (void)
{
  g_autoptr(KomiStore) store = komi_store_open_reader (gnugo, NULL);
  g_autoptr(GPtrArray) games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, NULL);
  g_autofree char *sql = NULL, *copy = NULL, *expected = NULL;
  g_auto(KomiCliRun) plain = { 0, };

  for (guint k = 0; k < games->len && sql == NULL; k++)
    {
      const KomiStoreGame *listed = g_ptr_array_index (games, k);
      g_autoptr(KomiStoreGame) g = komi_store_load_game (store, listed->id, NULL);
      KomiColor engine = g_str_equal (g->black_spec, "gnugo:0") ? KOMI_BLACK
                         : g_str_equal (g->white_spec, "gnugo:0") ? KOMI_WHITE : KOMI_EMPTY;

      /* From the end: the last stone GNU Go placed, and one before it. */
      for (guint j = g->moves->len; engine != KOMI_EMPTY && j >= 1 && sql == NULL; j--)
        for (guint i = j - 1; i >= 1 && sql == NULL; i--)
          {
            const KomiMove *mi = &g_array_index (g->moves, KomiMove, i - 1);
            const KomiMove *mj = &g_array_index (g->moves, KomiMove, j - 1);
            char ni[KOMI_NAME_LEN + 1], nj[KOMI_NAME_LEN + 1];

            if (mi->color != engine || mj->color != engine || mi->point == KOMI_PASS
                || mj->point == KOMI_PASS || !swap_keeps_game (g, i, j))
              continue;
            komi_point_to_name (g->size, mi->point, ni);
            komi_point_to_name (g->size, mj->point, nj);
            /* The other games gone, so that one game is played again. */
            sql = g_strdup_printf ("UPDATE moves SET point = CASE turn WHEN %u THEN '%s' "
                                   "ELSE '%s' END WHERE game_id = %" G_GINT64_FORMAT
                                   " AND turn IN (%u, %u); DELETE FROM games WHERE id <> %"
                                   G_GINT64_FORMAT, i, nj, ni, g->id, i, j, g->id);
            expected = g_strdup_printf ("move %u: %s (gnugo:0), played again from seed", i,
                                        komi_color_to_name (engine));
          }
    }
  g_assert_nonnull (sql);
  copy = tampered (gnugo, "replay.db", sql);

  plain.status = run_komi_cli (&plain.out, &plain.err, "verify", copy, NULL);
  if (plain.status != 0)
    g_error ("the swap should keep the record whole: %s%s", plain.out, plain.err);
  {
    g_auto(KomiCliRun) run = { 0, };

    run.status = run_komi_cli (&run.out, &run.err, "verify", "--replay-engines", copy, NULL);
    if (run.status != 1 || strstr (run.out, expected) == NULL)
      g_error ("verify --replay-engines: status %d, expected 1 and “%s”:\n%s%s", run.status,
               expected, run.out, run.err);
    g_assert_nonnull (strstr (run.out, "; the record has "));
  }
}

/* A library of an older schema: verify says what to do, and once it is
 * merged into a new library as said, that one verifies. */
static void
test_older_schema (void)
{
  g_autofree char *old = g_build_filename (dir, "old.db", NULL);
  g_autofree char *merged = g_build_filename (dir, "old-merged.db", NULL);
  g_autofree char *contents = NULL;
  g_auto(KomiCliRun) run = { 0, };
  g_auto(KomiCliRun) again = { 0, };
  gsize len = 0;

  g_assert_true (g_file_get_contents (engines, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (old, contents, (gssize) len, NULL));
  /* Schema 6 back to 5: its one column dropped, its number set back. */
  g_free (sql_text (old, "ALTER TABLE calls DROP COLUMN decided"));
  g_free (sql_text (old, "PRAGMA user_version = 5"));

  run.status = run_komi_cli (&run.out, &run.err, "verify", old, NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_null (strstr (run.out, "verified"));   /* nothing was */
  g_assert_nonnull (strstr (run.err, "was written by an older Komi (schema 5; this one "
                                     "verifies schema 6)"));
  g_assert_nonnull (strstr (run.err, "komi-cli merge --db NEW.db "));
  g_assert_cmpint (test_sql_count (old, "PRAGMA user_version"), ==, 5);

  test_cli_run_ok (QUIET, "merge", "--db", merged, old, NULL);
  again.status = run_komi_cli (&again.out, &again.err, "verify", merged, NULL);
  if (again.status != 0)
    g_error ("verify %s: %s%s", merged, again.out, again.err);
  g_assert_nonnull (strstr (again.out, "2 of 2 games verified, 0 failed"));
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *series = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("komi-verify-XXXXXX", &error);
  g_assert_no_error (error);
  series = g_build_filename (dir, "series.json", NULL);
  g_assert_true (g_file_set_contents (series, series_json, -1, &error));
  engines = g_build_filename (dir, "engines.db", NULL);
  model = g_build_filename (dir, "model.db", NULL);
  test_cli_run_ok (QUIET, "run", series, "--db", engines, NULL);
  gnugo = g_build_filename (dir, "gnugo.db", NULL);
  {
    g_autofree char *path = g_build_filename (dir, "gnugo.json", NULL);

    g_assert_true (g_file_set_contents (path, gnugo_json, -1, &error));
    test_cli_run_ok (QUIET, "run", path, "--db", gnugo, NULL);
  }
  test_cli_run_ok (QUIET, "demo", "--opponent", "random", "--latency-ms", "0", "--quiet",
                   "--db", model, NULL);
  faulty = g_build_filename (dir, "faulty.db", NULL);
  {
    KomiRehearsalOptions options = {
      .seed = 23, .api_key = KEY, .retry_after_ms = 10,
      .faults = "429@3,invalid@7,refusal@12,truncated@20",
    };
    g_autoptr(KomiRehearsal) server = komi_rehearsal_new (&options, &error);
    g_autofree char *model_dir = g_build_filename (dir, "faulty", NULL);

    g_assert_no_error (error);
    g_assert_cmpint (g_mkdir (model_dir, 0700), ==, 0);
    test_run_model_series (model_dir, faulty, "Faulty", komi_rehearsal_get_base_url (server),
                           KEY_ENV, KEY, TRUE);
  }

  g_test_add_func ("/komi/verify/honest", test_honest);
  g_test_add_func ("/komi/verify/altered-move", test_altered_move);
  g_test_add_func ("/komi/verify/altered-result", test_altered_result);
  g_test_add_func ("/komi/verify/altered-request", test_altered_request);
  g_test_add_func ("/komi/verify/answer-not-the-move", test_answer_not_the_move);
  g_test_add_func ("/komi/verify/answer-not-the-response", test_answer_not_the_response);
  g_test_add_func ("/komi/verify/changed-pin", test_changed_pin);
  g_test_add_func ("/komi/verify/removed-attempt", test_removed_attempt);
  g_test_add_func ("/komi/verify/rejudge", test_rejudge);
  g_test_add_func ("/komi/verify/site", test_site);
  g_test_add_func ("/komi/verify/merge-verify", test_merge_verify);
  g_test_add_func ("/komi/verify/replay-honest", test_replay_honest);
  g_test_add_func ("/komi/verify/replay-changed-move", test_replay_changed_move);
  g_test_add_func ("/komi/verify/replay-katago", test_replay_katago);
  g_test_add_func ("/komi/verify/older-schema", test_older_schema);
  status = g_test_run ();
  remove_test_dir (dir);
  g_free (dir);
  g_free (engines);
  g_free (model);
  g_free (faulty);
  g_free (gnugo);
  return status;
}
