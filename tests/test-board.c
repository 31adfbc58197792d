/* test-board.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-test-util.h"

static void
test_capture_single (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". . . . .\n"
    ". . X . .\n"
    ". X O . .\n"
    ". . X . .\n"
    ". . . . .\n", KOMI_BLACK);

  play_all (game, "D3");
  assert_position (game,
    ". . . . .\n"
    ". . X . .\n"
    ". X . X .\n"
    ". . X . .\n"
    ". . . . .\n");
  g_assert_cmpuint (komi_board_count_stones (komi_game_get_board (game), KOMI_WHITE), ==, 0);
}

static void
test_capture_group_on_edge (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". . . . .\n"
    ". . . . .\n"
    "X X X . .\n"
    "O O O X .\n"
    "X X . . .\n", KOMI_BLACK);

  /* The white group has one liberty left, at C1. */
  g_assert_cmpuint (komi_board_get_liberties (komi_game_get_board (game), pt (5, "A2")), ==, 1);
  play_all (game, "C1");
  assert_position (game,
    ". . . . .\n"
    ". . . . .\n"
    "X X X . .\n"
    ". . . X .\n"
    "X X X . .\n");
}

static void
test_capture_two_groups_at_once (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". X . X .\n"
    "X O . O X\n"
    ". X . X .\n"
    ". . . . .\n"
    ". . . . .\n", KOMI_WHITE);

  /* Black C4 takes the last liberty of two separate white stones at once. */
  play_all (game, "E1 C5 C3 C4");
  assert_position (game,
    ". X X X .\n"
    "X . X . X\n"
    ". X O X .\n"
    ". . . . .\n"
    ". . . . O\n");
}

static void
test_snapback (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". . . . .\n"
    ". . . . .\n"
    "O O O O .\n"
    "X X X O .\n"
    ". . X O .\n", KOMI_WHITE);

  /* White throws in at B1; Black takes it at A1 and is taken back. */
  play_all (game, "B1 A1");
  assert_position (game,
    ". . . . .\n"
    ". . . . .\n"
    "O O O O .\n"
    "X X X O .\n"
    "X . X O .\n");
  g_assert_cmpint (komi_game_check (game, pt (5, "B1")), ==, KOMI_MOVE_OK);
  play_all (game, "B1");
  assert_position (game,
    ". . . . .\n"
    ". . . . .\n"
    "O O O O .\n"
    ". . . O .\n"
    ". O . O .\n");
}

static void
test_suicide_single (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". O . . .\n"
    "O . O . .\n"
    ". O . . .\n"
    ". . . . .\n"
    ". . . . .\n", KOMI_BLACK);
  GError *error = NULL;

  g_assert_cmpint (komi_game_check (game, pt (5, "B4")), ==, KOMI_MOVE_SUICIDE);
  g_assert_cmpint (komi_game_check (game, pt (5, "A5")), ==, KOMI_MOVE_SUICIDE);
  g_assert_false (komi_game_play (game, pt (5, "B4"), &error));
  g_assert_error (error, KOMI_GO_ERROR, KOMI_MOVE_SUICIDE);
  g_assert_nonnull (strstr (error->message, "B4"));
  g_clear_error (&error);
  /* White may fill its own eye. */
  play_all (game, "E1 B4");
}

static void
test_suicide_multi_stone (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". . . . .\n"
    ". . . . .\n"
    ". . . . .\n"
    "O O O . .\n"
    "X X . O .\n", KOMI_BLACK);

  /* C1 would leave A1-B1-C1 with no liberty and captures nothing. */
  g_assert_cmpint (komi_game_check (game, pt (5, "C1")), ==, KOMI_MOVE_SUICIDE);
  g_assert_cmpint (komi_game_check (game, pt (5, "B1")), ==, KOMI_MOVE_OCCUPIED);
}

static void
test_capture_is_not_suicide (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". . . . .\n"
    ". . . . .\n"
    "X . . . .\n"
    "O X . . .\n"
    ". O X . .\n", KOMI_BLACK);

  /* A1 has no empty neighbour but takes the last liberty of A2 and B1. */
  g_assert_cmpint (komi_game_check (game, pt (5, "A1")), ==, KOMI_MOVE_OK);
  play_all (game, "A1");
  assert_position (game,
    ". . . . .\n"
    ". . . . .\n"
    "X . . . .\n"
    ". X . . .\n"
    "X . X . .\n");
}

static void
test_diagram_errors (void)
{
  GError *error = NULL;

  g_assert_null (komi_board_new_from_diagram (". . .\n. . .\n. . .\n", &error));
  g_assert_error (error, KOMI_GO_ERROR, KOMI_GO_ERROR_BAD_SIZE);
  g_clear_error (&error);
  g_assert_null (komi_board_new_from_diagram (". . . . .\n. . Z . .\n", &error));
  g_assert_error (error, KOMI_GO_ERROR, KOMI_GO_ERROR_BAD_POINT);
  g_clear_error (&error);
}

/* A deliberately naive rules engine: flood fills and whole-board copies.
 * The fast board must agree with it on every move of many random games. */
typedef struct
{
  guint size;
  guint8 c[KOMI_MAX_POINTS];
} Naive;

static guint
naive_group (const Naive *n, KomiPoint p, gboolean *mark, gboolean *has_lib)
{
  KomiPoint stack[KOMI_MAX_POINTS];
  guint sp = 0, count = 0;
  guint8 col = n->c[p];

  *has_lib = FALSE;
  stack[sp++] = p;
  mark[p] = TRUE;
  while (sp > 0)
    {
      KomiPoint q = stack[--sp];
      guint x = (guint) q % n->size, y = (guint) q / n->size;
      KomiPoint nb[4];
      int k = 0;

      count++;
      if (x > 0) nb[k++] = q - 1;
      if (x + 1 < n->size) nb[k++] = q + 1;
      if (y > 0) nb[k++] = q - (int) n->size;
      if (y + 1 < n->size) nb[k++] = q + (int) n->size;
      for (int i = 0; i < k; i++)
        {
          if (n->c[nb[i]] == KOMI_EMPTY)
            *has_lib = TRUE;
          else if (n->c[nb[i]] == col && !mark[nb[i]])
            {
              mark[nb[i]] = TRUE;
              stack[sp++] = nb[i];
            }
        }
    }
  return count;
}

/* Plays into a copy; returns FALSE for suicide. */
static gboolean
naive_play (const Naive *in, KomiColor color, KomiPoint p, Naive *out)
{
  guint np = in->size * in->size;
  gboolean mark[KOMI_MAX_POINTS], lib;

  *out = *in;
  out->c[p] = color;
  for (guint q = 0; q < np; q++)
    if (out->c[q] == KOMI_OTHER (color))
      {
        memset (mark, 0, sizeof mark);
        naive_group (out, (KomiPoint) q, mark, &lib);
        if (!lib)
          for (guint r = 0; r < np; r++)
            if (mark[r])
              out->c[r] = KOMI_EMPTY;
      }
  memset (mark, 0, sizeof mark);
  naive_group (out, p, mark, &lib);
  return lib;
}

static void
test_random_games_agree_with_naive (void)
{
  static const guint sizes[] = { 5, 7, 9, 13, 19 };
  GRand *rand = g_rand_new_with_seed (20261129);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint g = 0; g < (sizes[s] >= 13 ? 2 : 30); g++)
      {
        guint size = sizes[s], np = size * size;
        g_autoptr(KomiGame) game = komi_game_new (size, 0);
        GArray *history = g_array_new (FALSE, FALSE, sizeof (Naive));
        Naive cur = { .size = size };

        g_array_append_val (history, cur);
        for (guint turn = 0; turn < MIN (np * 3, 400) && !komi_game_is_over (game); turn++)
          {
            KomiPoint fast[KOMI_MAX_POINTS], slow[KOMI_MAX_POINTS];
            guint n_fast = komi_game_legal_points (game, fast), n_slow = 0;
            KomiColor me = komi_game_get_to_move (game);
            guint8 got[KOMI_MAX_POINTS];

            for (guint p = 0; p < np; p++)
              {
                Naive next;
                gboolean repeat = FALSE;

                if (cur.c[p] != KOMI_EMPTY || !naive_play (&cur, me, (KomiPoint) p, &next))
                  continue;
                for (guint h = 0; h < history->len && !repeat; h++)
                  repeat = memcmp (g_array_index (history, Naive, h).c, next.c, np) == 0;
                if (!repeat)
                  slow[n_slow++] = (KomiPoint) p;
              }
            g_assert_cmpuint (n_fast, ==, n_slow);
            g_assert_cmpmem (fast, n_fast * sizeof (KomiPoint), slow, n_slow * sizeof (KomiPoint));

            /* Pass now and then; otherwise a random legal point. */
            if (n_fast == 0 || g_rand_int_range (rand, 0, 20) == 0)
              play_all (game, "pass");
            else
              {
                KomiPoint p = fast[g_rand_int_range (rand, 0, (int) n_fast)];
                g_assert_true (komi_game_play (game, p, NULL));
                naive_play (&cur, me, p, &cur);
                g_array_append_val (history, cur);
              }
            komi_board_get_colors (komi_game_get_board (game), got);
            g_assert_cmpmem (got, np, cur.c, np);
          }
        g_array_unref (history);
      }
  g_rand_free (rand);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/board/capture/single", test_capture_single);
  g_test_add_func ("/komi/board/capture/group-on-edge", test_capture_group_on_edge);
  g_test_add_func ("/komi/board/capture/two-groups-at-once", test_capture_two_groups_at_once);
  g_test_add_func ("/komi/board/capture/snapback", test_snapback);
  g_test_add_func ("/komi/board/suicide/single", test_suicide_single);
  g_test_add_func ("/komi/board/suicide/multi-stone", test_suicide_multi_stone);
  g_test_add_func ("/komi/board/suicide/capture-is-not-suicide", test_capture_is_not_suicide);
  g_test_add_func ("/komi/board/diagram-errors", test_diagram_errors);
  g_test_add_func ("/komi/board/random-games-agree-with-naive", test_random_games_agree_with_naive);

  return g_test_run ();
}
