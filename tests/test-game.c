/* test-game.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-test-util.h"

static void
test_simple_ko (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". . . . .\n"
    ". X O . .\n"
    "X O . O .\n"
    ". X O . .\n"
    ". . . . .\n", KOMI_BLACK);
  KomiPoint forbidden[KOMI_MAX_POINTS];

  g_assert_cmpuint (komi_game_superko_points (game, forbidden), ==, 0);
  play_all (game, "C3");            /* Black takes the ko */
  assert_position (game,
    ". . . . .\n"
    ". X O . .\n"
    "X . X O .\n"
    ". X O . .\n"
    ". . . . .\n");
  /* Retaking at once would repeat the start position. */
  g_assert_cmpint (komi_game_check (game, pt (5, "B3")), ==, KOMI_MOVE_SUPERKO);
  g_assert_cmpuint (komi_game_superko_points (game, forbidden), ==, 1);
  g_assert_cmpint (forbidden[0], ==, pt (5, "B3"));
  /* After a threat and answer elsewhere the ko may be taken back. */
  play_all (game, "E5 E4 B3");
  g_assert_cmpint (komi_board_get (komi_game_get_board (game), pt (5, "C3")), ==, KOMI_EMPTY);
}

/* Three kos: each is ". X O ." / "X a b O" / ". X O ." with a white
 * stone at a (Black takes at b) or a black one at b (White takes at a).
 * Taking in turn returns to the start after six moves: simple ko allows
 * the sixth, positional superko forbids it. */
static void
test_triple_ko_cycle (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". X O . . . . . .\n"
    "X O . O . . . . .\n"
    ". X O . . . . . .\n"
    ". X O . . . . . .\n"
    "X . X O . . . . .\n"
    ". X O . . . . . .\n"
    ". X O . . . . . .\n"
    "X O . O . . . . .\n"
    ". X O . . . . . .\n", KOMI_BLACK);
  KomiPoint forbidden[KOMI_MAX_POINTS];
  GError *error = NULL;

  play_all (game, "C8 B5 C2 B8 C5");
  g_assert_cmpint (komi_game_check (game, pt (9, "B2")), ==, KOMI_MOVE_SUPERKO);
  /* B5 is the plain ko just taken; B2 closes the six-move cycle. */
  g_assert_cmpuint (komi_game_superko_points (game, forbidden), ==, 2);
  g_assert_cmpint (forbidden[0], ==, pt (9, "B5"));
  g_assert_cmpint (forbidden[1], ==, pt (9, "B2"));
  g_assert_cmpint (komi_game_check (game, pt (9, "B8")), ==, KOMI_MOVE_OCCUPIED);
  g_assert_false (komi_game_play (game, pt (9, "B2"), &error));
  g_assert_error (error, KOMI_GO_ERROR, KOMI_MOVE_SUPERKO);
  g_clear_error (&error);
  /* The same capture is fine once the cycle is broken by a new stone. */
  play_all (game, "J9 J1 B2");
}

static void
test_passes_end_game (void)
{
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);

  g_assert_false (komi_game_get_opponent_just_passed (game));
  play_all (game, "E5 pass");
  g_assert_true (komi_game_get_opponent_just_passed (game));
  g_assert_false (komi_game_is_over (game));
  play_all (game, "C3");
  g_assert_false (komi_game_get_opponent_just_passed (game));
  play_all (game, "pass pass");
  g_assert_true (komi_game_is_over (game));
  g_assert_cmpint (komi_game_get_end_reason (game), ==, KOMI_END_TWO_PASSES);
  g_assert_cmpint (komi_game_check (game, pt (9, "A1")), ==, KOMI_MOVE_GAME_OVER);
  g_assert_cmpuint (komi_game_get_turns_played (game), ==, 5);
  g_assert_cmpuint (komi_game_get_turns_left (game), ==, 0);
}

static void
test_turn_limit (void)
{
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  KomiPoint legal[KOMI_MAX_POINTS];

  g_assert_cmpuint (komi_game_get_turns_left (game), ==, 120);
  g_assert_cmpint (komi_game_get_to_move (game), ==, KOMI_BLACK);
  for (guint turn = 0; turn < 119; turn++)
    {
      /* Alternate stones and single passes, never two passes in a row. */
      guint n = komi_game_legal_points (game, legal);
      KomiPoint move = turn % 3 == 2 || n == 0 ? KOMI_PASS : legal[(turn * 7) % n];

      g_assert_cmpuint (komi_game_get_turns_left (game), ==, 120 - turn);
      if (move == KOMI_PASS && komi_game_get_opponent_just_passed (game))
        move = legal[0];
      g_assert_true (komi_game_play (game, move, NULL));
    }
  g_assert_false (komi_game_is_over (game));
  g_assert_cmpuint (komi_game_get_turns_left (game), ==, 1);
  play_all (game, "pass");
  g_assert_true (komi_game_is_over (game));
  g_assert_cmpint (komi_game_get_end_reason (game), ==, KOMI_END_TURN_LIMIT);
  g_assert_cmpuint (komi_game_legal_points (game, legal), ==, 0);
}

static void
test_legal_points_board_order (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". O . . .\n"
    "O . O . .\n"
    ". O X . .\n"
    ". . . . .\n"
    "X X X X X\n", KOMI_BLACK);
  KomiPoint legal[KOMI_MAX_POINTS];
  guint n = komi_game_legal_points (game, legal);

  /* B4 and A5 are suicide for Black; occupied points are left out. */
  g_assert_cmpuint (n, ==, 25 - 10 - 2);
  g_assert_cmpint (legal[0], ==, pt (5, "C5"));
  g_assert_cmpint (legal[1], ==, pt (5, "D5"));
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (legal[i - 1], <, legal[i]);
}

static void
test_copy_is_independent (void)
{
  g_autoptr(KomiGame) game = komi_game_new (9, 0);
  g_autoptr(KomiGame) copy = NULL;

  play_all (game, "E5 D5");
  copy = komi_game_copy (game);
  play_all (copy, "C3");
  g_assert_cmpuint (komi_game_get_turns_played (game), ==, 2);
  g_assert_cmpuint (komi_game_get_turns_played (copy), ==, 3);
  g_assert_cmpint (komi_board_get (komi_game_get_board (game), pt (9, "C3")), ==, KOMI_EMPTY);
}

/* The legal set (what the random player draws from) holds the points of
 * komi_game_legal_points in the same order, and knows the mover's own
 * eyes, on every board size and through captures and superko. */
static void
test_legal_set_matches_list (void)
{
  static const guint sizes[] = { 5, 7, 9, 13, 19 };
  GRand *rand = g_rand_new_with_seed (20261202);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint g = 0; g < (sizes[s] >= 13 ? 3 : 20); g++)
      {
        g_autoptr(KomiGame) game = komi_game_new (sizes[s], 0);

        for (guint turn = 0; turn < 600 && !komi_game_is_over (game); turn++)
          {
            const KomiBoard *board = komi_game_get_board (game);
            KomiPoint list[KOMI_MAX_POINTS], from_set[KOMI_MAX_POINTS];
            guint n = komi_game_legal_points (game, list);
            KomiPointSet set;

            komi_game_legal_set (game, &set);
            g_assert_cmpuint (set.n, ==, n);
            g_assert_cmpuint (komi_point_set_to_points (&set, from_set), ==, n);
            g_assert_cmpmem (from_set, n * sizeof (KomiPoint), list, n * sizeof (KomiPoint));
            for (guint i = 0; i < n; i++)
              {
                gboolean eye = -1;

                g_assert_cmpint (komi_point_set_nth (&set, i, &eye), ==, list[i]);
                g_assert_cmpint (eye, ==, komi_board_is_own_eye (board, komi_game_get_to_move (game),
                                                                 list[i]));
              }
            g_assert_true (komi_game_play (game, n == 0 || g_rand_int_range (rand, 0, 30) == 0
                                                 ? KOMI_PASS
                                                 : list[g_rand_int_range (rand, 0, (int) n)],
                                           NULL));
          }
      }
  g_rand_free (rand);
}

/* komi_game_check answers the same before and after the legal points of
 * the turn are computed (which leave a note in the game that the check
 * trusts), for every point, through captures, superko and passes; and a
 * copy's note is its own. */
static void
test_check_same_with_note (void)
{
  GRand *rand = g_rand_new_with_seed (17);

  for (guint g = 0; g < 40; g++)
    {
      guint size = g % 2 ? 9 : 5;
      guint n_points = size * size;
      g_autoptr(KomiGame) game = komi_game_new (size, 0);

      for (guint turn = 0; turn < 300 && !komi_game_is_over (game); turn++)
        {
          KomiMoveError before[KOMI_MAX_POINTS];
          KomiPoint list[KOMI_MAX_POINTS];
          guint n;

          /* The note of the turn before is still in the game here. */
          for (guint p = 0; p < n_points; p++)
            before[p] = komi_game_check (game, (KomiPoint) p);
          n = komi_game_legal_points (game, list);
          for (guint p = 0; p < n_points; p++)
            g_assert_cmpint (komi_game_check (game, (KomiPoint) p), ==, before[p]);
          for (guint i = 0; i < n; i++)
            g_assert_cmpint (before[list[i]], ==, KOMI_MOVE_OK);
          if (n > 0 && g_rand_int_range (rand, 0, 8) == 0)
            {
              g_autoptr(KomiGame) copy = komi_game_copy (game);

              g_assert_true (komi_game_play (copy, list[0], NULL));
              g_assert_cmpint (komi_game_check (copy, list[0]), ==, KOMI_MOVE_OCCUPIED);
              g_assert_cmpint (komi_game_check (game, list[0]), ==, KOMI_MOVE_OK);
            }
          g_assert_true (komi_game_play (game, n == 0 || g_rand_int_range (rand, 0, 30) == 0
                                               ? KOMI_PASS
                                               : list[g_rand_int_range (rand, 0, (int) n)],
                                         NULL));
        }
    }
  g_rand_free (rand);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/game/simple-ko", test_simple_ko);
  g_test_add_func ("/komi/game/superko/triple-ko-cycle", test_triple_ko_cycle);
  g_test_add_func ("/komi/game/two-passes", test_passes_end_game);
  g_test_add_func ("/komi/game/turn-limit", test_turn_limit);
  g_test_add_func ("/komi/game/legal-points-board-order", test_legal_points_board_order);
  g_test_add_func ("/komi/game/copy", test_copy_is_independent);
  g_test_add_func ("/komi/game/legal-set", test_legal_set_matches_list);
  g_test_add_func ("/komi/game/check-same-with-note", test_check_same_with_note);

  return g_test_run ();
}
