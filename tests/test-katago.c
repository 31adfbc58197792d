/* test-katago.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "komi-gtp-recipe.h"
#include "komi-match-game.h"
#include "komi-player-spec.h"
#include "komi-test-play.h"

/* KataGo is not packaged for Debian 12: these tests run when the user
 * gives a binary, network and config (KOMI_KATAGO, KOMI_KATAGO_MODEL,
 * KOMI_KATAGO_CONFIG) and are otherwise counted as skipped by meson (exit
 * status 77), so the skip shows in every summary. */

static KomiGameRecord *
play_katago (guint64 seed)
{
  KomiPlayerOptions opts = { .start_timeout_ms = 120000 };

  return play_game ("katago:8", "random", "katago", seed, &opts);
}

/* KataGo's game against random, played once for the two tests below in
 * a folder of its own as the current directory: the folder's name, once
 * the game is over, or NULL if KataGo left something in it. */
static KomiGameRecord *first_game;
static char *first_game_left;

static const KomiGameRecord *
katago_game (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *cwd = NULL;
  g_autoptr(GDir) left = NULL;
  g_autoptr(GError) error = NULL;

  if (first_game != NULL)
    return first_game;
  dir = g_dir_make_tmp ("komi-katago-XXXXXX", NULL);
  cwd = g_get_current_dir ();
  g_assert_cmpint (g_chdir (dir), ==, 0);
  first_game = play_katago (5);
  g_assert_cmpint (g_chdir (cwd), ==, 0);
  left = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  first_game_left = g_strdup (g_dir_read_name (left));
  g_clear_pointer (&left, g_dir_close);
  if (first_game_left == NULL)
    g_rmdir (dir);
  return first_game;
}

/* A whole game with KataGo playing and judging: its moves pass our rules,
 * its settings are recorded, and its dead stones are counted by us. */
static void
test_game_and_referee (void)
{
  const KomiGameRecord *a = katago_game ();
  g_autoptr(KomiGameRecord) b = play_katago (5);
  g_autofree char *ma = moves_text (a->game);
  g_autofree char *mb = moves_text (b->game);

  g_assert_cmpint (a->outcome, ==, KOMI_OUTCOME_FINISHED);
  g_assert_true (g_str_has_prefix (a->black_name, "KataGo"));
  g_assert_true (g_str_has_prefix (a->referee, "KataGo"));
  g_assert_nonnull (strstr (a->black_settings, "maxVisits=8"));
  g_assert_nonnull (strstr (a->black_settings, "nnRandSeed"));
  /* Fixed visits, one search thread and fixed seeds: the same game (the
   * one played in another current directory). */
  g_assert_cmpstr (ma, ==, mb);
  /* KataGo at 8 visits beats a random player on the count. */
  g_assert_cmpint (a->score.winner, ==, KOMI_BLACK);
}

/* What pins KataGo's strength is recorded (the network by its SHA-256,
 * wherever the file lives), and KataGo leaves no log folder behind in the
 * current directory, whatever its config says (the example config writes
 * gtp_logs/ there on every start). */
static void
test_pins_and_no_logs (void)
{
  const KomiGameRecord *record = katago_game ();
  g_autofree char *network = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *pin = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (g_getenv ("KOMI_KATAGO_MODEL"), &network, &length,
                                      &error));
  g_assert_no_error (error);
  expected = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) network, length);
  pin = g_strdup_printf ("\"model_sha256\":\"%s\"", expected);

  g_assert_nonnull (strstr (record->black_settings, pin));
  g_assert_cmpstr (first_game_left, ==, NULL);
}

/* KataGo's analysis config given where a GTP config belongs: KataGo aborts
 * on a missing key, and the error says which file to give instead. */
static void
test_analysis_config (void)
{
  g_autofree char *dir = g_path_get_dirname (g_getenv ("KOMI_KATAGO_CONFIG"));
  g_autofree char *analysis = g_build_filename (dir, "analysis.cfg", NULL);
  g_autoptr(KomiGtpRecipe) recipe = komi_gtp_recipe_new (KOMI_GTP_KATAGO,
                                                         g_getenv ("KOMI_KATAGO"));
  g_autoptr(KomiGtpEngine) engine = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_file_test (analysis, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no analysis.cfg beside KOMI_KATAGO_CONFIG");
      return;
    }
  recipe->model = g_strdup (g_getenv ("KOMI_KATAGO_MODEL"));
  recipe->config = g_strdup (analysis);
  recipe->visits = 1;
  engine = komi_gtp_recipe_launch (recipe, 1, NULL, &error);
  g_assert_null (engine);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "is not a GTP config for KataGo"));
  g_assert_nonnull (strstr (error->message, "gtp_example.cfg"));
}

int
main (int argc, char *argv[])
{
  int status;

  if (g_getenv ("KOMI_KATAGO") == NULL)
    {
      g_printerr ("KOMI_KATAGO is not set: KataGo tests skipped\n");
      return 77;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/katago/game-and-referee", test_game_and_referee);
  g_test_add_func ("/komi/katago/pins-and-no-logs", test_pins_and_no_logs);
  g_test_add_func ("/komi/katago/analysis-config", test_analysis_config);
  status = g_test_run ();
  g_clear_pointer (&first_game, komi_game_record_free);
  g_free (first_game_left);
  return status;
}
