/* test-random-player.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-random-player"

#include "config.h"

#include <string.h>

#include "komi-coords.h"
#include "komi-player-spec.h"
#include "komi-random-player.h"
#include "komi-score.h"

/* Golden values: computed once from the algorithm written in
 * komi-rng.h (by an independent script) and then frozen. If one
 * of these fails, the generator changed and recorded seeds replay
 * differently: that is a protocol break, not a test to update. */
static void
test_rng_golden (void)
{
  static const struct { guint64 seed; guint64 out[4]; } cases[] = {
    { 0, { G_GUINT64_CONSTANT (0x99ec5f36cb75f2b4), G_GUINT64_CONSTANT (0xbf6e1f784956452a),
           G_GUINT64_CONSTANT (0x1a5f849d4933e6e0), G_GUINT64_CONSTANT (0x6aa594f1262d2d2c) } },
    { 42, { G_GUINT64_CONSTANT (0x15780b2e0c2ec716), G_GUINT64_CONSTANT (0x6104d9866d113a7e),
            G_GUINT64_CONSTANT (0xae17533239e499a1), G_GUINT64_CONSTANT (0xecb8ad4703b360a1) } },
    { G_MAXUINT64,
      { G_GUINT64_CONSTANT (0x8f5520d52a7ead08), G_GUINT64_CONSTANT (0xc476a018caa1802d),
        G_GUINT64_CONSTANT (0x81de31c0d260469e), G_GUINT64_CONSTANT (0xbf658d7e065f3c2f) } },
  };
  static const guint64 uniform81[] = { 23, 25, 48, 48, 72, 55, 68, 35, 51, 48 };
  static const guint64 uniform3[] = { 2, 1, 0, 0, 0, 1, 2, 2, 0, 0 };
  KomiRng rng;

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      komi_rng_init (&rng, cases[c].seed);
      for (guint i = 0; i < 4; i++)
        g_assert_cmphex (komi_rng_next (&rng), ==, cases[c].out[i]);
    }

  komi_rng_init (&rng, 2026);
  for (guint i = 0; i < G_N_ELEMENTS (uniform81); i++)
    g_assert_cmpuint (komi_rng_uniform (&rng, 81), ==, uniform81[i]);
  komi_rng_init (&rng, 2026);
  for (guint i = 0; i < G_N_ELEMENTS (uniform3); i++)
    g_assert_cmpuint (komi_rng_uniform (&rng, 3), ==, uniform3[i]);
}

static void
test_rng_range (void)
{
  static const guint64 sizes[] = { 1, 2, 3, 7, 81, 361, G_GUINT64_CONSTANT (0x8000000000000001) };
  KomiRng rng;

  komi_rng_init (&rng, 7);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < 2000; i++)
      g_assert_cmpuint (komi_rng_uniform (&rng, sizes[s]), <, sizes[s]);
}

/* Random against random from the empty board: the first moves of a fixed
 * pair of seeds, frozen like the values above. */
/* 400 whole games (seeds 1 to 400, one generator for both sides, as
 * `komi-cli bench` plays them): every move, every turn's superko-forbidden
 * points and the area count, folded into one FNV-1a hash. Frozen from the
 * rules core before its bitset rewrite (issue 16 §6): the same seeds must
 * keep giving the same games move by move. */
static void
test_random_golden_games (void)
{
  KomiPoint buf[KOMI_MAX_POINTS], superko[KOMI_MAX_POINTS];
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037);
  const guint64 prime = G_GUINT64_CONSTANT (1099511628211);
  guint turns = 0, n_superko = 0;

  for (guint seed = 1; seed <= 400; seed++)
    {
      g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
      KomiScore score;
      KomiRng rng;

      komi_rng_init (&rng, seed);
      while (!komi_game_is_over (game))
        {
          guint n = komi_game_superko_points (game, superko);
          KomiPoint move = komi_random_choose (&rng, game, buf);

          n_superko += n;
          for (guint i = 0; i < n; i++)
            hash = (hash ^ (guint64) (superko[i] + 1000)) * prime;
          hash = (hash ^ (guint64) (move + 2)) * prime;
          g_assert_true (komi_game_play (game, move, NULL));
        }
      komi_score_area (komi_game_get_board (game), NULL, 0, 7, &score);
      hash = (hash ^ (guint64) (score.black_total * 2)) * prime;
      turns += komi_game_get_turns_played (game);
    }
  g_assert_cmpuint (turns, ==, 43335);
  g_assert_cmpuint (n_superko, ==, 1657);
  g_assert_cmphex (hash, ==, G_GUINT64_CONSTANT (0x04d0ad07db524837));
}

static void
test_random_golden_moves (void)
{
  static const char * const golden[] = { "D6", "H7", "C7", "A4", "H8",
                                         "F2", "J7", "J4", "J1", "F3" };
  g_autoptr(KomiPlayer) black = komi_random_player_new ();
  g_autoptr(KomiPlayer) white = komi_random_player_new ();
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  KomiGameSetup setup = { 9, 7.0, KOMI_BLACK, 20260101, KOMI_PROTOCOL_MAX_TURNS };

  g_assert_true (komi_player_start_game (black, &setup, NULL, NULL));
  setup.color = KOMI_WHITE;
  setup.seed = 20260102;
  g_assert_true (komi_player_start_game (white, &setup, NULL, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (golden); i++)
    {
      KomiPlayer *player = komi_game_get_to_move (game) == KOMI_BLACK ? black : white;
      char name[KOMI_NAME_LEN + 1];
      KomiPoint move;

      g_assert_true (komi_player_genmove (player, game, &move, NULL, NULL));
      g_assert_cmpstr (komi_point_to_name (9, move, name), ==, golden[i]);
      g_assert_true (komi_game_play (game, move, NULL));
    }

  g_assert_nonnull (strstr (black->settings, "\"seed\":\"20260101\""));
  g_assert_cmpstr (black->name, ==, "Random");
  g_assert_cmpstr (komi_player_get_kind (black), ==, "random");
}

static double
chi_square (const guint *counts,
            guint        n_bins,
            guint        n_draws)
{
  double expected = (double) n_draws / n_bins;
  double sum = 0;

  for (guint i = 0; i < n_bins; i++)
    sum += (counts[i] - expected) * (counts[i] - expected) / expected;
  return sum;
}

static KomiGame *
game_from_diagram (const char *diagram,
                   KomiColor   to_move)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiBoard) board = komi_board_new_from_diagram (diagram, &error);

  g_assert_no_error (error);
  return komi_game_new_from_board (board, to_move, 0);
}

/* Draws @n_draws moves at the same position and counts them per point. */
static void
count_choices (KomiGame *game,
               guint64   seed,
               guint     n_draws,
               guint    *counts)
{
  KomiPoint buf[KOMI_MAX_POINTS];
  KomiRng rng;

  komi_rng_init (&rng, seed);
  for (guint i = 0; i < n_draws; i++)
    {
      KomiPoint p = komi_random_choose (&rng, game, buf);
      g_assert_cmpint (p, >=, 0);
      counts[p]++;
    }
}

/* Fixed seeds make these deterministic; the bounds are the chi-square
 * critical values at p = 0.001, so a biased index would fail them. */
static void
test_random_uniform (void)
{
  g_autoptr(KomiGame) empty = komi_game_new (9, 0);
  g_autoptr(KomiGame) small = NULL;
  guint counts[KOMI_MAX_POINTS] = { 0 };
  guint bins[5], n_bins = 0;

  count_choices (empty, 99, 81 * 200, counts);
  g_assert_cmpfloat (chi_square (counts, 81, 81 * 200), <, 124.84);   /* df 80 */

  /* Three candidates, C5 D5 E5; every other empty point is black's eye. */
  small = game_from_diagram ("X X X X X X X X X\n"
                             "X . X . X . X . X\n"
                             "X X X X X X X X X\n"
                             "X X X X X X X X X\n"
                             "X X . . . X X X X\n"
                             "X X X X X X X X X\n"
                             "X X X X X X X X X\n"
                             "X . X X X X X X X\n"
                             "X X X X X X X X .\n", KOMI_BLACK);
  memset (counts, 0, sizeof counts);
  count_choices (small, 5, 5 * 2000, counts);
  for (guint p = 0; p < 81; p++)
    if (counts[p] > 0)
      bins[n_bins++] = counts[p];
  g_assert_cmpuint (n_bins, ==, 3);
  g_assert_cmpfloat (chi_square (bins, n_bins, 5 * 2000), <, 13.82);   /* df 2 */
}

static void
test_random_own_eye (void)
{
  /* Black's own eyes: A9 and J1 (corners), C9 (edge), F7 and E5. E9, F9 and
   * G9 form a three-point space: none is an eye, so all stay candidates. */
  g_autoptr(KomiGame) game = game_from_diagram (". X . X . . . O O\n"
                                                "X X X X X X X O .\n"
                                                ". . . . X . X O O\n"
                                                ". . . . X X X . .\n"
                                                ". . . X . X . . .\n"
                                                ". . . . X . . . .\n"
                                                ". . . . . . . . .\n"
                                                ". . . . . . . . X\n"
                                                ". . . . . . . X .\n", KOMI_BLACK);
  static const char * const eyes[] = { "A9", "C9", "F7", "E5", "J1" };
  guint counts[KOMI_MAX_POINTS] = { 0 };
  KomiPoint legal[KOMI_MAX_POINTS];
  guint n_legal, n_chosen = 0;

  count_choices (game, 11, 20000, counts);
  for (guint i = 0; i < G_N_ELEMENTS (eyes); i++)
    {
      KomiPoint p;
      g_assert_true (komi_point_from_name (9, eyes[i], &p));
      g_assert_cmpuint (counts[p], ==, 0);
    }
  /* Every other legal point is chosen. */
  n_legal = komi_game_legal_points (game, legal);
  for (guint i = 0; i < n_legal; i++)
    if (counts[legal[i]] > 0)
      n_chosen++;
  g_assert_cmpuint (n_chosen, ==, n_legal - G_N_ELEMENTS (eyes));
}

static void
test_random_passes_only_when_nothing_left (void)
{
  /* Black: every empty point is its own eye → pass. White: every empty
   * point is suicide → no legal point → pass. */
  static const char full[] = "X X X X X X X X X\n"
                             "X . X X . X X . X\n"
                             "X X X X X X X X X\n"
                             "X X X X X X X X X\n"
                             "X . X X . X X . X\n"
                             "X X X X X X X X X\n"
                             "X X X X X X X X X\n"
                             "X . X X . X X . X\n"
                             "X X X X X X X X X\n";
  /* One two-point space (A9, B9): black must play there, never pass. */
  static const char almost[] = ". . X X X X X X X\n"
                               "X X X X . X X . X\n"
                               "X X X X X X X X X\n"
                               "X X X X X X X X X\n"
                               "X . X X . X X . X\n"
                               "X X X X X X X X X\n"
                               "X X X X X X X X X\n"
                               "X . X X . X X . X\n"
                               "X X X X X X X X X\n";
  KomiPoint buf[KOMI_MAX_POINTS];
  KomiRng rng;

  komi_rng_init (&rng, 3);
  for (KomiColor c = KOMI_BLACK; c <= KOMI_WHITE; c++)
    {
      g_autoptr(KomiGame) game = game_from_diagram (full, c);
      g_assert_cmpint (komi_random_choose (&rng, game, buf), ==, KOMI_PASS);
    }
  {
    g_autoptr(KomiGame) game = game_from_diagram (almost, KOMI_BLACK);
    for (guint i = 0; i < 200; i++)
      {
        KomiPoint p = komi_random_choose (&rng, game, buf);
        g_assert_true (p == 0 || p == 1);
      }
  }
}

/* Whole games: every move is legal and every game ends. */
static void
test_random_full_games (void)
{
  KomiPoint buf[KOMI_MAX_POINTS];
  KomiRng rng;
  gint64 start = g_get_monotonic_time ();
  guint n_games = 500, n_moves = 0;

  komi_rng_init (&rng, 123);
  for (guint g = 0; g < n_games; g++)
    {
      g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);

      while (!komi_game_is_over (game))
        {
          g_autoptr(GError) error = NULL;
          KomiPoint p = komi_random_choose (&rng, game, buf);

          g_assert_true (komi_game_play (game, p, &error));
          g_assert_no_error (error);
          n_moves++;
        }
    }
  g_test_message ("%u random games, %u moves, %.0f games/s", n_games, n_moves,
                  n_games / ((g_get_monotonic_time () - start) / 1e6));
}

static void
test_random_from_spec (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayer) player = komi_player_new_from_spec ("random", NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (komi_player_get_kind (player), ==, "random");
  g_assert_cmpstr (player->spec, ==, "random");
  g_assert_null (komi_player_new_from_spec ("random:3", NULL, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_KIND);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/rng/golden", test_rng_golden);
  g_test_add_func ("/komi/rng/range", test_rng_range);
  g_test_add_func ("/komi/random/golden-moves", test_random_golden_moves);
  g_test_add_func ("/komi/random/golden-games", test_random_golden_games);
  g_test_add_func ("/komi/random/uniform", test_random_uniform);
  g_test_add_func ("/komi/random/own-eye", test_random_own_eye);
  g_test_add_func ("/komi/random/passes-only-when-nothing-left",
                   test_random_passes_only_when_nothing_left);
  g_test_add_func ("/komi/random/full-games", test_random_full_games);
  g_test_add_func ("/komi/random/from-spec", test_random_from_spec);

  return g_test_run ();
}
