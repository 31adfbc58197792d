/* test-cli.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "komi-sgf-record.h"
#include "komi-store.h"
#include "komi-test-cli.h"
#include "komi-test-util.h"

/* komi-cli as a user runs it: a real process, real GNU Go, real files. */

/* Runs komi-cli with the NULL-terminated arguments. */
static void
run_cli (KomiCliRun *run, ...)
{
  va_list ap;

  va_start (ap, run);
  run->status = run_komi_cli_va (&run->out, &run->err, ap);
  va_end (ap);
}

/* The foundation's promise: a GNU Go vs random game played with `play`
 * gives an SGF our reader replays, whose result `score` confirms. */
static void
test_play_then_score (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "game.sgf", NULL);
  g_autoptr(KomiSgfRecord) record = NULL;
  g_autoptr(KomiGame) game = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *want = NULL;
  g_auto(KomiCliRun) play = { 0, };
  g_auto(KomiCliRun) score = { 0, };

  if (!have_gnugo ())
    return;
  run_cli (&play, "play", "--black", "gnugo:1", "--white", "random", "--seed", "42",
           "--sgf", path, NULL);
  g_assert_cmpstr (play.err, ==, "");
  g_assert_cmpint (play.status, ==, 0);
  g_assert_nonnull (strstr (play.out, "Result:"));

  record = komi_sgf_record_load (path, &error);
  g_assert_no_error (error);
  game = komi_sgf_record_replay (record, 120, &error);
  g_assert_no_error (error);
  g_assert_true (komi_game_is_over (game));
  g_assert_cmpuint (komi_game_get_turns_played (game), ==, record->moves->len);
  g_assert_true (g_str_has_prefix (record->black_name, "GNU Go"));

  run_cli (&score, "score", "--referee", "gnugo", path, NULL);
  g_assert_cmpint (score.status, ==, 0);
  want = g_strdup_printf ("(%s)\n", record->result);
  g_assert_nonnull (strstr (score.out, want));
  g_assert_null (strstr (score.out, "Note:"));
  g_assert_nonnull (strstr (score.out, "judged by GNU Go"));

  g_unlink (path);
  g_rmdir (dir);
}

/* The README's first command without a display (docs/manual.md): the rehearsal model against GNU Go level 1,
 * every call and board shown, the results at the end, recorded in a
 * library (temporary unless --db keeps it). The model answers at once
 * (--latency-ms 0: its 20 ms are for a person watching), and the kept
 * library's games are against random, as what is checked of them is the
 * library, not the opponent. */
static void
test_demo (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-cli-demo-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "demo.db", NULL);
  g_auto(KomiCliRun) run = { 0, };
  g_auto(KomiCliRun) kept = { 0, };
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GError) error = NULL;

  if (!have_gnugo ())
    return;
  run_cli (&run, "demo", "--delay", "0", "--latency-ms", "0", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "no key, no network"));
  g_assert_nonnull (strstr (run.out, "a temporary library"));
  /* The model's calls as they are answered, the board after every move. */
  /* The model by its profile's name, not that and its model id again
   * ("rehearsal rehearsal-model"). */
  g_assert_nonnull (strstr (run.out, "Turn 1: X (rehearsal) "));
  g_assert_nonnull (strstr (run.out, "  model calls: play_or_pass → "));
  g_assert_nonnull (strstr (run.out, "    A B C D E F G H J\n 9 "));
  g_assert_nonnull (strstr (run.out, "Game 2 of 2: X GNU Go 3.8 against O rehearsal"));
  g_assert_nonnull (strstr (run.out, "Result: "));
  g_assert_nonnull (strstr (run.out, "2 games played; the model made "));
  /* The rehearsal model is free: "$0", as the window says it. */
  g_assert_nonnull (strstr (run.out, "and raw response), costing $0.\n"));

  /* Kept: the library holds both games and every call. */
  run_cli (&kept, "demo", "--quiet", "--db", db, "--seed", "5", "--latency-ms", "0",
           "--opponent", "random", NULL);
  g_assert_cmpint (kept.status, ==, 0);
  g_assert_null (strstr (kept.out, "Turn 1:"));
  g_assert_nonnull (strstr (kept.out, "komi-cli export --db"));
  g_assert_nonnull (strstr (kept.out, "komi-cli publish --db"));
  store = komi_store_open_reader (db, &error);
  g_assert_no_error (error);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (games->len, ==, 2);
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *g = g_ptr_array_index (games, i);

      g_assert_true (g->status == KOMI_GAME_STATUS_FINISHED
                     || g->status == KOMI_GAME_STATUS_FORFEIT);
      g_assert_cmpuint (g->n_calls, >, 0);
      g_assert_cmpfloat (g->cost_usd, ==, 0);
    }
  g_clear_pointer (&store, komi_store_unref);
  remove_test_dir (dir);
}

static void
test_bad_input (void)
{
  g_auto(KomiCliRun) unknown = { 0, };
  g_auto(KomiCliRun) player = { 0, };
  g_auto(KomiCliRun) gnugo = { 0, };
  g_auto(KomiCliRun) seed = { 0, };
  g_auto(KomiCliRun) missing = { 0, };
  g_auto(KomiCliRun) referee = { 0, };

  run_cli (&unknown, "frobnicate", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "komi-cli --help"));

  run_cli (&player, "play", "--black", "gnugo:11", "--white", "random", NULL);
  g_assert_cmpint (player.status, ==, 1);
  g_assert_nonnull (strstr (player.err, "gnugo:11"));

  run_cli (&gnugo, "play", "--black", "gnugo:1", "--white", "random",
           "--gnugo", "/nonexistent/gnugo", NULL);
  g_assert_cmpint (gnugo.status, ==, 1);
  g_assert_nonnull (strstr (gnugo.err, "/nonexistent/gnugo"));
  g_assert_nonnull (strstr (gnugo.err, "gnugo"));

  run_cli (&seed, "play", "--black", "random", "--white", "random", "--seed", "-3", NULL);
  g_assert_cmpint (seed.status, ==, 1);
  g_assert_nonnull (strstr (seed.err, "--seed must be a whole number"));

  run_cli (&missing, "score", "/nonexistent/game.sgf", NULL);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, "/nonexistent/game.sgf"));

  run_cli (&referee, "play", "--black", "random", "--white", "random",
           "--referee", "magic", NULL);
  g_assert_cmpint (referee.status, ==, 1);
  g_assert_nonnull (strstr (referee.err, "--referee must be katago, gnugo or none"));
}

/* Runs komi-cli with @words (the command, and a subcommand), then @more:
 * both NULL-terminated. */
static void
run_cli_words (KomiCliRun *run, char **words, const char * const *more)
{
  g_autoptr(GStrvBuilder) args = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;

  g_strv_builder_addv (args, (const char **) words);
  g_strv_builder_addv (args, (const char **) more);
  argv = g_strv_builder_end (args);
  run->status = run_komi_cli_argv (g_getenv ("LANGUAGE"), (const char * const *) argv,
                                   &run->out, &run->err);
}

/* A usage error: nothing on stdout, one line "komi-cli COMMAND: …" on
 * stderr, exit status 2. */
static void
assert_usage_error (const KomiCliRun *run, const char *prefix)
{
  g_assert_cmpint (run->status, ==, 2);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_true (g_str_has_prefix (run->err, prefix));
  g_assert_true (strchr (run->err, '\n') == run->err + strlen (run->err) - 1);
}

/* Every command reads its options through one helper
 * (komi_cli_parse_options): an option it does not know, or arguments in a
 * number it does not take, is a usage error (2) that names the command,
 * and --help prints the command's usage line, with the engine options
 * where the command starts engines. Subcommands speak as their command
 * ("komi-cli ladder: …") and show their own name in the usage line, as
 * GOptionContext takes it from argv[0]. */
static void
test_every_command_options (void)
{
  /* Each command as typed, then after each "|" arguments (split at
   * spaces; "": none) in a number it refuses. demo, play, bench and status
   * take any number; after "ladder" a word is a subcommand. */
  static const char *const commands[] = {
    "demo", "request|x", "play", "score||a b", "bench", "run||a b", "resume||1 2", "series|x",
    "merge|", "verify||a b", "status", "ratings|x", "ratings calibrate|x", "ladder",
    "ladder show|x", "ladder check|x", "ladder record|x", "ladder freeze|x", "rate||a b",
    "analyse|x", "export|x", "publish|x", "import|", "rehearse|x",
  };
  static const char *const with_engines[] = {
    "play", "score", "verify", "ladder check", "ladder record", "analyse", NULL,
  };
  static const char *const unknown_option[] = { "--no-such-option", NULL };
  static const char *const help_option[] = { "--help", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(GStrv) parts = g_strsplit (commands[i], "|", -1);
      g_auto(GStrv) words = g_strsplit (parts[0], " ", -1);
      /* The usage line names the last word; request names itself in full. */
      const char *name = strcmp (parts[0], "request") == 0
                         ? "komi-cli request" : words[g_strv_length (words) - 1];
      g_autofree char *prefix = g_strdup_printf ("komi-cli %s: ", words[0]);
      g_autofree char *usage = g_strdup_printf ("Usage:\n  %s [OPTION", name);
      g_auto(KomiCliRun) unknown = { 0, };
      g_auto(KomiCliRun) help = { 0, };

      g_test_message ("komi-cli %s", parts[0]);
      run_cli_words (&unknown, words, unknown_option);
      assert_usage_error (&unknown, prefix);
      g_assert_nonnull (strstr (unknown.err, "--no-such-option"));

      run_cli_words (&help, words, help_option);
      g_assert_cmpint (help.status, ==, 0);
      g_assert_cmpstr (help.err, ==, "");
      g_assert_true (g_str_has_prefix (help.out, usage));
      g_assert_nonnull (strstr (help.out, "  -h, --help "));
      g_assert_cmpint (strstr (help.out, "--help-engines") != NULL, ==,
                       g_strv_contains (with_engines, parts[0]));

      for (guint k = 1; parts[k] != NULL; k++)
        {
          g_auto(GStrv) args = g_strsplit (parts[k], " ", -1);
          g_auto(KomiCliRun) wrong = { 0, };

          g_test_message ("komi-cli %s %s", parts[0], parts[k]);
          run_cli_words (&wrong, words, (const char * const *) args);
          assert_usage_error (&wrong, prefix);
        }
    }
}

static void
test_bench_prints_figures (void)
{
  g_auto(KomiCliRun) run = { 0, };

  run_cli (&run, "bench", "--seconds", "0.2", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_regex_match_simple ("\\n[^\\n]* [0-9]+ games/s", run.out, 0, 0));
  g_assert_true (g_regex_match_simple ("[0-9.]+ microseconds", run.out, 0, 0));
  g_assert_true (g_regex_match_simple (" [0-9]+ requests/s", run.out, 0, 0));
  g_assert_true (g_regex_match_simple ("peak memory: [0-9.]+ MiB", run.out, 0, 0));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/cli/play-then-score", test_play_then_score);
  g_test_add_func ("/komi/cli/demo", test_demo);
  g_test_add_func ("/komi/cli/bad-input", test_bad_input);
  g_test_add_func ("/komi/cli/every-command-options", test_every_command_options);
  g_test_add_func ("/komi/cli/bench", test_bench_prints_figures);

  return g_test_run ();
}
