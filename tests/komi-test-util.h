/* komi-test-util.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "komi-coords.h"
#include "komi-game.h"

/* Shared by the rules tests: positions are written as diagrams, moves as
 * protocol names. */

static inline KomiPoint
pt (guint size, const char *name)
{
  KomiPoint p = KOMI_NO_POINT;

  if (!komi_point_from_name (size, name, &p))
    g_error ("bad point name in test: %s", name);
  return p;
}

static inline KomiBoard *
diagram (const char *text)
{
  GError *error = NULL;
  KomiBoard *board = komi_board_new_from_diagram (text, &error);

  g_assert_no_error (error);
  return board;
}

static inline KomiGame *
game_from_diagram (const char *text, KomiColor to_move)
{
  g_autoptr(KomiBoard) board = diagram (text);

  return komi_game_new_from_board (board, to_move, 0);
}

/* GNU Go is a Debian package every machine of ours has; where it is
 * missing the test says so instead of failing. */
static inline gboolean
have_gnugo (void)
{
  const char *path = g_getenv ("KOMI_GNUGO");

  if (g_file_test (path != NULL ? path : GNUGO_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return TRUE;
  g_test_skip ("GNU Go is not installed (Debian package gnugo)");
  return FALSE;
}

/* Plays space-separated moves; each must be legal. */
static inline void
play_all (KomiGame *game, const char *moves)
{
  g_auto(GStrv) names = g_strsplit (moves, " ", -1);

  for (guint i = 0; names[i] != NULL; i++)
    {
      GError *error = NULL;

      if (names[i][0] == '\0')
        continue;
      komi_game_play (game, pt (komi_game_get_size (game), names[i]), &error);
      g_assert_no_error (error);
    }
}

/* Asserts that the position equals @expected (a diagram). */
static inline void
assert_position (const KomiGame *game, const char *expected)
{
  g_autoptr(KomiBoard) want = diagram (expected);
  g_autofree char *got = komi_board_to_diagram (komi_game_get_board (game));
  g_autofree char *wanted = komi_board_to_diagram (want);

  g_assert_cmpstr (got, ==, wanted);
}

/* The fake GTP engine meson builds: the test's first argument, else its
 * place in the build folder. */
static inline char *
fake_engine_path (int argc, char **argv)
{
  if (argc > 1)
    return g_strdup (argv[1]);
  const char *build = g_getenv ("KOMI_BUILD_DIR");

  return g_build_filename (build != NULL ? build : ".", "tests", "fake-gtp-engine", NULL);
}
