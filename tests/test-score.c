/* test-score.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-score.h"
#include "komi-test-util.h"

static void
score_of (const char *text, const char *dead_names, KomiScore *score)
{
  g_autoptr(KomiBoard) board = diagram (text);
  g_auto(GStrv) names = g_strsplit (dead_names, " ", -1);
  KomiPoint dead[KOMI_MAX_POINTS];
  guint n = 0;

  for (guint i = 0; names[i] != NULL; i++)
    if (names[i][0] != '\0')
      dead[n++] = pt (komi_board_get_size (board), names[i]);
  komi_score_area (board, dead, n, 7, score);
}

static void
test_empty_board_scores_nobody (void)
{
  KomiScore s;
  g_autofree char *result = NULL;

  score_of (". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n", "", &s);
  g_assert_cmpuint (s.dame, ==, 25);
  g_assert_cmpfloat (s.black_total, ==, 0);
  g_assert_cmpfloat (s.white_total, ==, 7);
  g_assert_cmpint (s.winner, ==, KOMI_WHITE);
  result = komi_score_to_result (&s);
  g_assert_cmpstr (result, ==, "W+7");
}

static void
test_area_with_dame (void)
{
  KomiScore s;
  g_autofree char *text = NULL;

  /* Column C is dame: each of its empty points touches both colours. */
  score_of (
    ". X . O .\n"
    ". X . O .\n"
    ". X . O .\n"
    ". X . O .\n"
    ". X . O .\n", "", &s);
  g_assert_cmpuint (s.black_stones, ==, 5);
  g_assert_cmpuint (s.black_territory, ==, 5);
  g_assert_cmpuint (s.white_stones, ==, 5);
  g_assert_cmpuint (s.white_territory, ==, 5);
  g_assert_cmpuint (s.dame, ==, 5);
  g_assert_cmpfloat (s.black_total, ==, 10);
  g_assert_cmpfloat (s.white_total, ==, 17);
  g_assert_cmpint (s.owner[pt (5, "C3") ], ==, KOMI_EMPTY);
  g_assert_cmpint (s.owner[pt (5, "A3") ], ==, KOMI_BLACK);
  g_assert_cmpint (s.owner[pt (5, "E3") ], ==, KOMI_WHITE);
  text = komi_score_describe (&s);
  g_assert_cmpstr (text, ==,
                   "X: 5 stones + 5 territory = 10; O: 5 stones + 5 territory + komi 7 = 17; "
                   "O wins by 7");
}

static void
test_seki_shared_liberties (void)
{
  KomiScore s;

  /* A seki in the corner: the two shared liberties A1 and B2... are
   * bordered by both colours and count for nobody, while each side's
   * living stones count. */
  score_of (
    ". O X . .\n"
    "O O X . .\n"
    "X X X . .\n"
    "O O . . .\n"
    ". . . . .\n", "", &s);
  g_assert_cmpint (s.owner[pt (5, "A5")], ==, KOMI_WHITE);
  /* The big region touches X and O: nobody's. */
  g_assert_cmpint (s.owner[pt (5, "D3")], ==, KOMI_EMPTY);
  g_assert_cmpuint (s.black_territory, ==, 0);
  g_assert_cmpuint (s.white_territory, ==, 1);
}

static void
test_dead_stones_removed (void)
{
  KomiScore s;
  g_autofree char *result = NULL;

  /* The white stone at C3 is dead inside Black's area. */
  score_of (
    ". X . . .\n"
    ". X . . .\n"
    ". X . O .\n"
    ". X . . .\n"
    ". X . . .\n", "D3", &s);
  g_assert_cmpuint (s.white_dead, ==, 1);
  g_assert_cmpuint (s.white_stones, ==, 0);
  g_assert_cmpuint (s.black_stones, ==, 5);
  g_assert_cmpuint (s.black_territory, ==, 20);
  g_assert_cmpfloat (s.black_total, ==, 25);
  g_assert_cmpint (s.winner, ==, KOMI_BLACK);
  g_assert_cmpfloat (s.margin, ==, 18);
  result = komi_score_to_result (&s);
  g_assert_cmpstr (result, ==, "B+18");

  /* Without removal the region touches both colours. */
  score_of (
    ". X . . .\n"
    ". X . . .\n"
    ". X . O .\n"
    ". X . . .\n"
    ". X . . .\n", "", &s);
  g_assert_cmpuint (s.black_territory, ==, 5);
  g_assert_cmpuint (s.dame, ==, 14);
}

static void
test_draw (void)
{
  KomiScore s;
  g_autofree char *result = NULL;

  /* Black owns 44 points, White 37 + komi 7 = 44. */
  score_of (
    ". . . X O . . . .\n"
    ". . . . X O . . .\n"
    ". . . . X O . . .\n"
    ". . . . X O . . .\n"
    ". . . . X O . . .\n"
    ". . . . X O . . .\n"
    ". . . . X O . . .\n"
    ". . . . X O . . .\n"
    ". . . . X O . . .\n", "", &s);
  g_assert_cmpfloat (s.black_total, ==, 44);
  g_assert_cmpfloat (s.white_total, ==, 44);
  g_assert_cmpint (s.winner, ==, KOMI_EMPTY);
  g_assert_cmpfloat (s.margin, ==, 0);
  result = komi_score_to_result (&s);
  g_assert_cmpstr (result, ==, "0");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/score/empty-board", test_empty_board_scores_nobody);
  g_test_add_func ("/komi/score/dame", test_area_with_dame);
  g_test_add_func ("/komi/score/seki-shared-liberties", test_seki_shared_liberties);
  g_test_add_func ("/komi/score/dead-stones-removed", test_dead_stones_removed);
  g_test_add_func ("/komi/score/draw", test_draw);

  return g_test_run ();
}
