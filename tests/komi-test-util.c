/* komi-test-util.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-test-util.h"

KomiPoint
pt (guint size, const char *name)
{
  KomiPoint p = KOMI_NO_POINT;

  if (!komi_point_from_name (size, name, &p))
    g_error ("bad point name in test: %s", name);
  return p;
}

KomiBoard *
diagram (const char *text)
{
  GError *error = NULL;
  KomiBoard *board = komi_board_new_from_diagram (text, &error);

  g_assert_no_error (error);
  return board;
}

KomiGame *
game_from_diagram (const char *text, KomiColor to_move)
{
  g_autoptr(KomiBoard) board = diagram (text);

  return komi_game_new_from_board (board, to_move, 0);
}

gboolean
have_gnugo (void)
{
  const char *path = g_getenv ("KOMI_GNUGO");

  if (g_file_test (path != NULL ? path : GNUGO_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return TRUE;
  g_test_skip ("GNU Go is not installed (Debian package gnugo)");
  return FALSE;
}

void
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

void
assert_position (const KomiGame *game, const char *expected)
{
  g_autoptr(KomiBoard) want = diagram (expected);
  g_autofree char *got = komi_board_to_diagram (komi_game_get_board (game));
  g_autofree char *wanted = komi_board_to_diagram (want);

  g_assert_cmpstr (got, ==, wanted);
}

char *
fake_engine_path (int argc, char **argv)
{
  if (argc > 1)
    return g_strdup (argv[1]);
  const char *build = g_getenv ("KOMI_BUILD_DIR");

  return g_build_filename (build != NULL ? build : ".", "tests", "fake-gtp-engine", NULL);
}
