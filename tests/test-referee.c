/* test-referee.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-referee"

#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "komi-coords.h"
#include "komi-referee.h"
#include "komi-test-util.h"

static char *fake_path;

/* A game from the empty board; NULL ends the list of moves. */
static KomiGame *
game_from_moves (const char * const *moves)
{
  KomiGame *game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);

  for (guint i = 0; moves[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      KomiPoint p;

      g_assert_true (komi_point_from_name (9, moves[i], &p));
      g_assert_true (komi_game_play (game, p, &error));
      g_assert_no_error (error);
    }
  return game;
}

/* A black ring C3–G7 around a lone white stone at E5; white passes while
 * black builds it, then both pass. 14 passes in the middle, 2 closing. */
static const char * const lone_stone[] = {
  "C3", "E5", "D3", "pass", "E3", "pass", "F3", "pass", "G3", "pass",
  "G4", "pass", "G5", "pass", "G6", "pass", "G7", "pass", "F7", "pass",
  "E7", "pass", "D7", "pass", "C7", "pass", "C6", "pass", "C5", "pass",
  "C4", "pass", "pass", NULL
};

/* Black holds columns A–E, white F–J; each side has a lone stone in the
 * other's area: B5 (white) and H5 (black). */
static const char * const two_areas[] = {
  "E1", "F1", "E2", "F2", "E3", "F3", "E4", "F4", "E5", "F5", "E6", "F6",
  "E7", "F7", "E8", "F8", "E9", "F9", "H5", "B5", "pass", "pass", NULL
};

static char *
dead_names (GArray *dead)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < dead->len; i++)
    {
      char name[KOMI_NAME_LEN + 1];
      g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                              komi_point_to_name (9, g_array_index (dead, KomiPoint, i), name));
    }
  return g_string_free (out, FALSE);
}

/* Judges @game with @spec and returns the dead stones as names. */
static char *
judge (KomiReferee    *referee,
       const KomiGame *game,
       char          **description)
{
  g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  g_autoptr(GError) error = NULL;

  g_assert_true (komi_referee_dead_stones (referee, game, dead, description, NULL, &error));
  g_assert_no_error (error);
  return dead_names (dead);
}

static KomiReferee *
new_referee (const char *spec)
{
  KomiPlayerOptions opts = { .timeout_ms = 30000, .start_timeout_ms = 10000 };
  g_autoptr(GError) error = NULL;
  KomiReferee *referee = komi_referee_new (spec, &opts, &error);

  g_assert_no_error (error);
  return referee;
}

static char *
fake_spec (const char *args)
{
  g_autofree char *quoted = g_shell_quote (fake_path);
  return g_strdup_printf ("gtp:%s %s", quoted, args);
}

/* GNU Go --------------------------------------------------------------------- */

static void
test_gnugo_lone_stone (void)
{
  g_autoptr(KomiReferee) referee = NULL;
  g_autoptr(KomiGame) game = game_from_moves (lone_stone);
  g_autofree char *description = NULL;
  g_autofree char *dead = NULL;
  g_autofree char *seed = NULL;

  if (!have_gnugo ())
    return;
  g_assert_true (komi_game_is_over (game));
  referee = new_referee ("gnugo");
  dead = judge (referee, game, &description);
  g_assert_cmpstr (dead, ==, "E5");
  g_assert_cmpstr (description, ==, "GNU Go 3.8");
  seed = g_strdup_printf ("\"--seed\",\"%d\"", komi_gtp_gnugo_seed (KOMI_REFEREE_SEED));
  g_assert_nonnull (strstr (komi_referee_get_settings (referee), seed));
}

static void
test_gnugo_two_areas (void)
{
  g_autoptr(KomiReferee) referee = NULL;
  g_autoptr(KomiGame) game = game_from_moves (two_areas);
  g_autoptr(KomiGame) other = game_from_moves (lone_stone);
  g_autofree char *dead = NULL;
  g_autofree char *again = NULL;

  if (!have_gnugo ())
    return;
  referee = new_referee ("gnugo");
  dead = judge (referee, game, NULL);
  g_assert_cmpstr (dead, ==, "B5 H5");
  /* The running engine is reused for the next game, and again after. */
  again = judge (referee, other, NULL);
  g_assert_cmpstr (again, ==, "E5");
}

/* A game set up from a diagram is placed stone by stone. */
static void
test_gnugo_setup_position (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiBoard) board = komi_board_new_from_diagram (". . . . X O . . .\n"
                                                            ". . . . X O . . .\n"
                                                            ". . O . X O . . .\n"
                                                            ". . . . X O . X .\n"
                                                            ". . . . X O . . .\n"
                                                            ". . . . X O . . .\n"
                                                            ". . . . X O . . .\n"
                                                            ". . . . X O . . .\n"
                                                            ". . . . X O . . .\n", &error);
  g_autoptr(KomiGame) game = NULL;
  g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  g_autofree char *names = NULL;
  KomiPlayerOptions opts = { .timeout_ms = 30000 };

  g_assert_no_error (error);
  if (!have_gnugo ())
    return;
  game = komi_game_new_from_board (board, KOMI_BLACK, 0);
  g_assert_true (komi_game_play (game, KOMI_PASS, NULL));
  g_assert_true (komi_game_play (game, KOMI_PASS, NULL));

  g_assert_true (komi_referee_dead_stones_once ("gnugo", &opts, game, dead, NULL, NULL, &error));
  g_assert_no_error (error);
  names = dead_names (dead);
  g_assert_cmpstr (names, ==, "C7 H6");
}

/* The fake engine ------------------------------------------------------------ */

static char *
temp_log (void)
{
  char *path = NULL;
  int fd = g_file_open_tmp ("komi-test-referee-XXXXXX.log", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  return path;
}

/* The commands sent, without their ids. */
static GPtrArray *
read_log (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *commands = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *c = lines[i];
      while (g_ascii_isdigit (*c))
        c++;
      if (*g_strchug ((char *) c) != '\0')
        g_ptr_array_add (commands, g_strdup (c));
    }
  return commands;
}

static void
test_fake_no_closing_passes (void)
{
  g_autofree char *log_path = temp_log ();
  g_autofree char *args = g_strdup_printf ("--dead E5 --log %s", log_path);
  g_autofree char *spec = fake_spec (args);
  g_autoptr(KomiReferee) referee = new_referee (spec);
  g_autoptr(KomiGame) game = game_from_moves (lone_stone);
  g_autoptr(GPtrArray) commands = NULL;
  g_autofree char *dead = NULL;
  guint n_plays = 0, n_passes = 0, last_play = 0, status = 0;

  dead = judge (referee, game, NULL);
  g_assert_cmpstr (dead, ==, "E5");

  commands = read_log (log_path);
  for (guint i = 0; i < commands->len; i++)
    {
      const char *c = commands->pdata[i];
      if (g_str_has_prefix (c, "play "))
        {
          n_plays++;
          n_passes += g_str_has_suffix (c, " pass");
          last_play = i;
        }
      if (g_str_equal (c, "final_status_list dead"))
        status = i;
    }
  /* 33 moves minus the 2 closing passes; the 14 passes in between stay. */
  g_assert_cmpuint (n_plays, ==, 31);
  g_assert_cmpuint (n_passes, ==, 14);
  g_assert_cmpstr (commands->pdata[last_play], ==, "play b C4");
  g_assert_cmpuint (status, ==, last_play + 1);
  g_assert_true (g_ptr_array_find_with_equal_func (commands, "komi 7", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (commands, "clear_board", g_str_equal, NULL));
  g_unlink (log_path);
}

/* GNU Go lists strings one per line, KataGo all on one line. */
static void
test_fake_parse (void)
{
  static const struct { const char *args; const char *dead; } cases[] = {
    { "--dead E5/C3' 'D3", "E5 C3 D3" },
    { "--dead 'd3 c3 e5'", "E5 C3 D3" },
    { "--dead ''", "" },
    { "--dead 'E5/E5 C3'", "E5 C3" },
  };
  g_autoptr(KomiGame) game = game_from_moves (lone_stone);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *spec = fake_spec (cases[i].args);
      g_autoptr(KomiReferee) referee = new_referee (spec);
      g_autofree char *dead = judge (referee, game, NULL);

      g_assert_cmpstr (dead, ==, cases[i].dead);
    }

  /* Not a point, or no stone there: the engine's board is not ours. */
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *spec = fake_spec (i == 0 ? "--dead Z99" : "--dead E4");
      g_autoptr(KomiReferee) referee = new_referee (spec);
      g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
      g_autoptr(GError) error = NULL;

      g_assert_false (komi_referee_dead_stones (referee, game, dead, NULL, NULL, &error));
      g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PROTOCOL);
    }
}

/* An engine that died between two games is started again. */
static void
test_fake_restart (void)
{
  g_autofree char *spec = fake_spec ("--dead E5");
  g_autoptr(KomiReferee) referee = new_referee (spec);
  g_autoptr(KomiGame) game = game_from_moves (lone_stone);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  GPid pid;

  first = judge (referee, game, NULL);
  pid = komi_gtp_engine_get_pid (komi_referee_get_engine (referee));
  g_assert_cmpint (pid, >, 0);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  second = judge (referee, game, NULL);
  g_assert_cmpstr (second, ==, first);
  g_assert_cmpint (komi_gtp_engine_get_pid (komi_referee_get_engine (referee)), !=, pid);
}

static void
test_missing (void)
{
  KomiPlayerOptions opts = { .gnugo_path = "/nonexistent/gnugo" };
  g_autoptr(GError) error = NULL;

  g_assert_null (komi_referee_new ("gnugo", &opts, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_BINARY);
  g_clear_error (&error);
  g_assert_null (komi_referee_new ("random", &opts, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_KIND);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  fake_path = fake_engine_path (argc, argv);

  g_test_add_func ("/komi/referee/gnugo/lone-stone", test_gnugo_lone_stone);
  g_test_add_func ("/komi/referee/gnugo/two-areas", test_gnugo_two_areas);
  g_test_add_func ("/komi/referee/gnugo/setup-position", test_gnugo_setup_position);
  g_test_add_func ("/komi/referee/fake/no-closing-passes", test_fake_no_closing_passes);
  g_test_add_func ("/komi/referee/fake/parse", test_fake_parse);
  g_test_add_func ("/komi/referee/fake/restart", test_fake_restart);
  g_test_add_func ("/komi/referee/missing", test_missing);

  return g_test_run ();
}
