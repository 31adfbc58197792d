/* test-kill.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "komi-store-test-util.h"
#include "komi-test-cli.h"
#include "komi-test-util.h"

/* The library survives anything: `komi-cli run` is killed with SIGKILL at
 * random moments, run again each time, and the finished library must equal
 * that of an uninterrupted run of the same engine-only series, game by game
 * and move by move. The first games, those most often cut, are against a
 * bridging rung, whose coin and random moves must be drawn again in step
 * on resume. One pair against each opponent: two more pairs against
 * random doubled the test's time and added no other kind of game. A
 * third opponent, gnugo:0, went too (a quarter of the test's CPU): a GTP
 * engine opponent resumes as the subject does in every game and as the
 * bridging rung's engine does, and its pair, played last, was not
 * reached by the kills in runs on a busy 2-core machine (they fell in the
 * first pair's games) but played whole by the last run. */


static const char series_json[] =
  "{\"name\": \"kill test\", \"protocol\": 1, \"subject\": \"gnugo:1\","
  " \"opponents\": [\"mix:0.5:gnugo:1\", \"random\"],"
  " \"pairs\": 1, \"seed\": 77, \"referee\": \"gnugo\", \"jobs\": 2}";

static GSubprocess *
start_run (const char *series, const char *db)
{
  return test_cli_start (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                         "run", series, "--db", db, NULL);
}

static void
run_to_end (const char *series, const char *db)
{
  g_autoptr(GSubprocess) proc = start_run (series, db);

  test_cli_wait_ok (proc);
}

static void
test_kill_and_resume (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-kill-XXXXXX", NULL);
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autofree char *whole_db = g_build_filename (dir, "whole.db", NULL);
  g_autofree char *killed_db = g_build_filename (dir, "killed.db", NULL);
  g_autoptr(GPtrArray) want = NULL, got = NULL;
  GRand *rand = g_rand_new_with_seed (20261129);
  guint kills = 0;

  if (!have_gnugo ())
    return;
  g_assert_true (g_file_set_contents (series, series_json, -1, NULL));
  run_to_end (series, whole_db);
  want = test_library_text (whole_db);
  g_assert_cmpuint (want->len, ==, 4);

  /* Kill at random moments, from the very start to well into the run. */
  for (guint round = 0; round < 6; round++)
    {
      g_autoptr(GSubprocess) proc = start_run (series, killed_db);
      guint delay_ms = (guint) g_rand_int_range (rand, 0, 1500);

      g_usleep (delay_ms * 1000);
      /* No identifier: the run already ended on its own. */
      if (g_subprocess_get_identifier (proc) == NULL)
        {
          g_subprocess_wait (proc, NULL, NULL);
          break;
        }
      g_subprocess_send_signal (proc, SIGKILL);
      g_subprocess_wait (proc, NULL, NULL);
      kills++;
      g_test_message ("killed after %u ms", delay_ms);
    }
  g_assert_cmpuint (kills, >, 0);
  run_to_end (series, killed_db);
  got = test_library_text (killed_db);
  test_assert_same_games (got, want);

  g_rand_free (rand);
  /* The engines of a killed run must not outlive it for long; leave the
   * folder to the system's temp cleaner if any file is still held. */
  g_unlink (series);

  /* Nor does a killed run leave files of its own in the temp folder
   * (the engines' stderr files are unlinked as soon as they are open). */
  {
    const char *folder = g_getenv ("TMPDIR");
    g_autoptr(GDir) tmp = g_dir_open (folder, 0, NULL);
    const char *name;

    g_assert_nonnull (tmp);
    while ((name = g_dir_read_name (tmp)) != NULL)
      if (g_str_has_prefix (name, "komi-gtp-"))
        g_error ("a killed run left %s in %s", name, folder);
  }
}

int
main (int argc, char *argv[])
{
  g_autofree char *tmp = g_build_filename (g_get_tmp_dir (), "komi-kill-tmp-XXXXXX", NULL);
  int status;

  /* A temp folder of the test's own (set in TMPDIR) for the runs it
   * starts: the suite's other tests write theirs in the machine's. */
  g_assert_nonnull (g_mkdtemp (tmp));
  g_setenv ("TMPDIR", tmp, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/library/kill-and-resume", test_kill_and_resume);

  status = g_test_run ();
  g_rmdir (tmp);
  return status;
}
