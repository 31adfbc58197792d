/* komi-sgf-test-util.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-sgf-test-util.h"

const char game_moves[] =
  "ee df ef dg de eg cc gc cf cg bf gf bg ff eb fb bh ch fa ga ea ec db bi "
  "dc ed fe ge fd gd fc gb ah ci ai ce be dd cd de - -";

char *
fixture_path (const char *name)
{
  return g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf", name, NULL);
}

KomiGame *
play_sgf_points (guint size, const char *points)
{
  g_auto(GStrv) names = g_strsplit (points, " ", -1);
  KomiGame *game = komi_game_new (size, 0);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      KomiPoint p = KOMI_PASS;

      if (strcmp (names[i], "-") != 0)
        g_assert_true (komi_point_from_sgf (size, names[i], &p));
      komi_game_play (game, p, &error);
      g_assert_no_error (error);
    }
  return game;
}

KomiSgfRecord *
read_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  KomiSgfRecord *record = komi_sgf_record_from_text (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (record);
  return record;
}

KomiSgfRecord *
read_fixture (const char *name)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GError) error = NULL;
  KomiSgfRecord *record = komi_sgf_record_load (path, &error);

  g_assert_no_error (error);
  return record;
}

KomiGame *
replay (const KomiSgfRecord *record)
{
  g_autoptr(GError) error = NULL;
  KomiGame *game = komi_sgf_record_replay (record, 0, &error);

  g_assert_no_error (error);
  g_assert_nonnull (game);
  return game;
}

KomiMove
move_at (const KomiSgfRecord *record, guint i)
{
  return g_array_index (record->moves, KomiMove, i);
}

void
assert_sgf_move (const KomiSgfRecord *record, guint i, KomiColor color, const char *sgf)
{
  KomiMove move = move_at (record, i);
  char buf[3];

  g_assert_cmpint (move.color, ==, color);
  g_assert_cmpstr (komi_point_to_sgf (record->size, move.point, buf), ==, sgf);
}
