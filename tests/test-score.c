/* test-score.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-game.h"
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

/* The count without dead stones floods the board's sets; with a dead
 * list it floods point by point. An empty point given as dead changes
 * nothing, so both ways must give the same count, owners included, on
 * positions of games of random legal moves on five sizes. */
static void
test_sets_agree_with_flood (void)
{
  static const guint sizes[] = { 5, 7, 9, 13, 19 };
  guint64 seed = 12345;
  guint compared = 0;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint g = 0; g < 60; g++)
      {
        g_autoptr(KomiGame) game = komi_game_new (sizes[s], sizes[s] * sizes[s] * 3);
        KomiPoint legal[KOMI_MAX_POINTS], empty = KOMI_NO_POINT;
        const KomiBoard *board = komi_game_get_board (game);
        guint turns = g * 5, n = sizes[s] * sizes[s];
        KomiScore by_sets, by_points;

        while (!komi_game_is_over (game) && komi_game_get_turns_played (game) < turns)
          {
            guint n_legal = komi_game_legal_points (game, legal);

            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            g_assert_true (komi_game_play (game, n_legal == 0 ? KOMI_PASS
                                           : legal[(seed >> 33) % n_legal], NULL));
          }
        for (guint p = 0; p < n && empty == KOMI_NO_POINT; p++)
          if (komi_board_get (board, (KomiPoint) p) == KOMI_EMPTY)
            empty = (KomiPoint) p;
        if (empty == KOMI_NO_POINT)
          continue;
        memset (&by_sets, 0xAA, sizeof by_sets);
        memset (&by_points, 0x55, sizeof by_points);
        komi_score_area (board, NULL, 0, 7, &by_sets);
        komi_score_area (board, &empty, 1, 7, &by_points);
        g_assert_cmpuint (by_sets.black_territory, ==, by_points.black_territory);
        g_assert_cmpuint (by_sets.white_territory, ==, by_points.white_territory);
        g_assert_cmpuint (by_sets.dame, ==, by_points.dame);
        g_assert_cmpuint (by_sets.black_stones, ==, by_points.black_stones);
        g_assert_cmpuint (by_sets.white_stones, ==, by_points.white_stones);
        g_assert_cmpfloat (by_sets.black_total, ==, by_points.black_total);
        g_assert_cmpint (by_sets.winner, ==, by_points.winner);
        g_assert_cmpmem (by_sets.owner, n, by_points.owner, n);
        compared++;
      }
  g_assert_cmpuint (compared, >, 250);
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
  g_test_add_func ("/komi/score/sets-agree-with-flood", test_sets_agree_with_flood);

  return g_test_run ();
}
