/* test-ladder-check.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-test-cli.h"

/* `komi-cli ladder check` plays the shipped recorded calibration games again
 * with the real engines and compares every move: the engines as the ladder
 * had them pass; an engine that reports the same name and settings but
 * plays otherwise (GNU Go behind a wrapper at another level, KataGo with
 * other visits or another config that keeps the network) is caught, and
 * the message names the member, the game and the move. One member at a
 * time (--member) keeps it fast; the whole check is measured in
 * docs/performance.md. Run with --katago, the KataGo cases, which exit 77
 * (a skip that meson counts) without KOMI_KATAGO and its model and config. */

static char *
write_script (const char *dir, const char *name, const char *text)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* The line `check` prints for @member, or NULL. */
static char *
member_line (const char *out, const char *member)
{
  g_autofree char *start = g_strdup_printf ("\n  %-20s ", member);
  const char *line = strstr (out, start);

  return line != NULL ? g_strndup (line + 3, strcspn (line + 3, "\n")) : NULL;
}

/* GNU Go only: a GNU Go mix (no KataGo in its games), with the ladder's
 * referee when KataGo is set up, else moves alone. */
static void
test_gnugo (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-ladder-check-XXXXXX", NULL);
  g_autofree char *wrapper = NULL, *line = NULL, *got = NULL;
  const char *referee = g_getenv ("KOMI_KATAGO") != NULL ? "katago" : "none";
  g_auto(KomiCliRun) same = { 0, };
  g_auto(KomiCliRun) level = { 0, };
  g_auto(KomiCliRun) unknown = { 0, };

  same.status = run_komi_cli (&same.out, &same.err, "ladder", "check", "--member",
                              "mix:0.5:gnugo:1", "--referee", referee, NULL);
  g_test_message ("%s", same.out);
  g_assert_cmpint (same.status, ==, 0);
  line = member_line (same.out, "mix:0.5:gnugo:1");
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "mix:0.5:gnugo:1      plays as recorded: 6 games, "));
  g_assert_nonnull (strstr (same.out, "Replaying 6 recorded calibration games"));
  g_assert_nonnull (strstr (same.out, "Every member checked plays its recorded games move for "
                                      "move"));
  g_assert_nonnull (strstr (same.out, "Replayed 6 games in "));

  /* GNU Go 3.8 as before, Komi's own --level 1 on its command line, but
   * level 5 after it, which GNU Go takes. */
  wrapper = write_script (dir, "gnugo", "#!/bin/sh\nexec /usr/games/gnugo \"$@\" --level 5\n");
  level.status = run_komi_cli (&level.out, &level.err, "ladder", "check", "--member",
                               "mix:0.5:gnugo:1", "--referee", referee, "--gnugo", wrapper,
                               NULL);
  g_test_message ("%s", level.out);
  g_assert_cmpint (level.status, ==, 1);
  g_clear_pointer (&line, g_free);
  line = member_line (level.out, "mix:0.5:gnugo:1");
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "mix:0.5:gnugo:1      differs: game "));
  g_assert_true (g_regex_match_simple ("differs: game [0-9]+ \\(mix:0\\.[456]2?:gnugo:1 against "
                                       "mix:0\\.[456]2?:gnugo:1, seed [0-9]+\\), move [0-9]+ "
                                       "\\((Black|White)\\): expected ([A-HJ][1-9]|pass), got "
                                       "([A-HJ][1-9]|pass)$", line, 0, 0));
  /* Its opponents use the same GNU Go, and are named too. */
  g_assert_nonnull (strstr (level.out, "3 members do not match the ladder's"));

  unknown.status = run_komi_cli (&unknown.out, &unknown.err, "ladder", "check", "--member",
                                 "gnugo:2", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "“gnugo:2” is not a member of the ladder; its members "
                                         "are random, mix:0.9:gnugo:1,"));
  remove_test_dir (dir);
}

/* `ladder record` plays a calibration game again (judged by the ladder's
 * referee, KataGo) and writes the moves the shipped recording has; a line
 * whose result is not the calibration's is refused, nothing written. */
static void
test_record (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-ladder-check-XXXXXX", NULL);
  g_autofree char *picks = g_build_filename (dir, "picks.csv", NULL);
  g_autofree char *wrong = g_build_filename (dir, "wrong.csv", NULL);
  g_autofree char *out = g_build_filename (dir, "replays.json", NULL);
  g_autofree char *none = g_build_filename (dir, "none.json", NULL);
  g_autofree char *shipped_path = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "data",
                                                    "ladder", "protocol-1-replays.json", NULL);
  g_autofree char *shipped = NULL, *recorded = NULL, *line = NULL;
  const char *header = "protocol,black,white,seed,orientation,result,end_reason\n";
  const char *game = "1,mix:0.9:gnugo:1,random,15997987587228754556,6,W+18,two-passes\n";
  g_autofree char *good = g_strconcat (header, game, NULL);
  g_autofree char *bad = g_strconcat (header, "1,mix:0.9:gnugo:1,random,15997987587228754556,6,"
                                      "B+18,two-passes\n", NULL);
  const char *moves;
  g_auto(KomiCliRun) run = { 0, };
  g_auto(KomiCliRun) refused = { 0, };

  g_assert_true (g_file_set_contents (picks, good, -1, NULL));
  g_assert_true (g_file_set_contents (wrong, bad, -1, NULL));
  run.status = run_komi_cli (&run.out, &run.err, "ladder", "record", "--games", picks, "--out",
                             out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "game 1: mix:0.9:gnugo:1 against random, "));
  g_assert_true (g_file_get_contents (out, &recorded, NULL, NULL));
  g_assert_true (g_file_get_contents (shipped_path, &shipped, NULL, NULL));
  /* The same moves as the shipped recording of that game. */
  moves = strstr (recorded, "\"moves\" : \"");
  g_assert_nonnull (moves);
  line = g_strndup (moves, strcspn (moves + 12, "\"") + 13);
  g_assert_nonnull (strstr (shipped, line));
  g_assert_nonnull (strstr (recorded, "\"result\" : \"W+18\""));

  refused.status = run_komi_cli (&refused.out, &refused.err, "ladder", "record", "--games",
                                 wrong, "--out", none, NULL);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.err, "ended W+18 by two-passes where the calibration game "
                                         "ended B+18 by two-passes"));
  g_assert_nonnull (strstr (refused.err, "1 game did not replay as the calibration played it; "
                                         "nothing is written"));
  g_assert_false (g_file_test (none, G_FILE_TEST_EXISTS));
  remove_test_dir (dir);
}

/* KataGo: the member as the ladder had it; a wrapper that gives KataGo 8
 * visits whatever Komi asks (the same version, network and settings on
 * record); and a config that keeps the network but searches otherwise.
 * A config that only sets another maxVisits changes nothing, since Komi
 * sets maxVisits itself: it passes, as it should. */
static void
test_katago (void)
{
  g_autofree char *dir = NULL, *wrapper = NULL, *script = NULL, *line = NULL;
  g_autofree char *config = NULL, *visits = NULL, *text = NULL, *changed = NULL;
  g_auto(KomiCliRun) same = { 0, };
  g_auto(KomiCliRun) other_visits = { 0, };
  g_auto(KomiCliRun) other_config = { 0, };
  g_auto(KomiCliRun) visits_config = { 0, };
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) visits_line = g_regex_new ("^maxVisits *=.*$", G_REGEX_MULTILINE, 0, NULL);

  dir = g_dir_make_tmp ("komi-ladder-check-XXXXXX", NULL);
  same.status = run_komi_cli (&same.out, &same.err, "ladder", "check", "--member",
                              "mix:0.05:katago:1", NULL);
  g_test_message ("%s", same.out);
  g_assert_cmpint (same.status, ==, 0);
  line = member_line (same.out, "mix:0.05:katago:1");
  g_assert_true (g_str_has_prefix (line, "mix:0.05:katago:1    plays as recorded: 4 games, "));

  script = g_strdup_printf ("#!/bin/sh\n"
                            "for a in \"$@\"; do\n"
                            "  shift\n"
                            "  case \"$a\" in maxVisits=*) a=\"maxVisits=8,${a#*,}\";; esac\n"
                            "  set -- \"$@\" \"$a\"\n"
                            "done\n"
                            "exec '%s' \"$@\"\n", g_getenv ("KOMI_KATAGO"));
  wrapper = write_script (dir, "katago", script);
  other_visits.status = run_komi_cli (&other_visits.out, &other_visits.err, "ladder", "check",
                                      "--member", "katago:4", "--katago-binary", wrapper, NULL);
  g_test_message ("%s", other_visits.out);
  g_assert_cmpint (other_visits.status, ==, 1);
  g_clear_pointer (&line, g_free);
  line = member_line (other_visits.out, "katago:4");
  g_assert_true (g_regex_match_simple ("^katago:4 +differs: game [0-9]+ \\(katago:[0-9]+ "
                                       "against katago:[0-9]+, seed [0-9]+\\), move [0-9]+ "
                                       "\\((Black|White)\\): expected ([A-HJ][1-9]|pass), got "
                                       "([A-HJ][1-9]|pass)$", line, 0, 0));

  /* The same network and visits, a search that explores otherwise. */
  g_assert_true (g_file_get_contents (g_getenv ("KOMI_KATAGO_CONFIG"), &text, NULL, &error));
  changed = g_strconcat (text, "\ncpuctExploration = 3.0\n", NULL);
  config = write_script (dir, "cpuct.cfg", changed);
  other_config.status = run_komi_cli (&other_config.out, &other_config.err, "ladder", "check",
                                      "--member", "katago:4", "--katago-config", config, NULL);
  g_test_message ("%s", other_config.out);
  g_assert_cmpint (other_config.status, ==, 1);
  g_clear_pointer (&line, g_free);
  line = member_line (other_config.out, "katago:4");
  g_assert_true (g_regex_match_simple ("^katago:4 +differs: game [0-9]+ .*, move [0-9]+ "
                                       "\\((Black|White)\\): expected ([A-HJ][1-9]|pass), got "
                                       "([A-HJ][1-9]|pass)$", line, 0, 0));

  /* maxVisits in the config: overridden by Komi's, the same play. */
  g_clear_pointer (&changed, g_free);
  changed = g_regex_replace (visits_line, text, -1, 0, "maxVisits = 2", 0, NULL);
  g_assert_nonnull (strstr (changed, "\nmaxVisits = 2\n"));
  visits = write_script (dir, "visits.cfg", changed);
  visits_config.status = run_komi_cli (&visits_config.out, &visits_config.err, "ladder",
                                       "check", "--member", "mix:0.05:katago:1",
                                       "--katago-config", visits, NULL);
  g_test_message ("%s", visits_config.out);
  g_assert_cmpint (visits_config.status, ==, 0);
  remove_test_dir (dir);
}

int
main (int argc, char *argv[])
{
  gboolean katago = argc > 1 && strcmp (argv[1], "--katago") == 0;

  if (katago)
    {
      argv[1] = argv[0];
      argc--;
      argv++;
    }
  g_test_init (&argc, &argv, NULL);
  if (!katago)
    g_test_add_func ("/komi/ladder-check/gnugo", test_gnugo);
  else if (g_getenv ("KOMI_KATAGO") == NULL || g_getenv ("KOMI_KATAGO_MODEL") == NULL
           || g_getenv ("KOMI_KATAGO_CONFIG") == NULL)
    {
      g_printerr ("KOMI_KATAGO, KOMI_KATAGO_MODEL and KOMI_KATAGO_CONFIG are not all set: "
                  "skipped\n");
      return 77;
    }
  else
    {
      g_test_add_func ("/komi/ladder-check/katago", test_katago);
      g_test_add_func ("/komi/ladder-check/record", test_record);
    }
  return g_test_run ();
}
