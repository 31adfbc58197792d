/* test-sgf.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-sgf"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "komi-score.h"
#include "komi-sgf-test-util.h"

static void
test_write_format (void)
{
  KomiMove moves[] = { { KOMI_BLACK, 40 }, { KOMI_WHITE, 0 }, { KOMI_BLACK, KOMI_PASS },
                       { KOMI_WHITE, KOMI_PASS } };
  KomiPoint dead[] = { 0, 0 };
  KomiSgfGame game = {
    .size = 9, .komi = 7.0, .black_name = "GNU Go 3.8 (level 1)", .white_name = "model",
    .date = "2026-08-10", .event = "Bench", .round = "12 (game)", .result = "B+80",
    .rules_text = "area", .application = "Komi:0.1.0", .moves = moves, .n_moves = 4,
    .dead = dead, .n_dead = 2, .final_comment = "Dead: A9 (GNU Go)",
  };
  g_autofree char *text = komi_sgf_write (&game);

  g_assert_cmpstr (text, ==,
                   "(;FF[4]GM[1]CA[UTF-8]AP[Komi:0.1.0]SZ[9]KM[7]RU[Chinese]\n"
                   "PB[GNU Go 3.8 (level 1)]PW[model]DT[2026-08-10]EV[Bench]RO[12 (game)]RE[B+80]\n"
                   "GC[area]\n"
                   ";B[ee];W[aa];B[];W[]\n"
                   "MA[aa]\n"
                   "C[Dead: A9 (GNU Go)])\n");
}

/* An engine review: BM and SBKS (Black's lead, to hundredths, no "-0")
 * on move nodes, the lead before move 1 on the root, and the last move's
 * comment sharing the final node's one C with the count. */
static void
test_write_notes (void)
{
  KomiMove moves[] = { { KOMI_BLACK, 40 }, { KOMI_WHITE, 0 }, { KOMI_BLACK, KOMI_PASS } };
  KomiSgfMoveNote notes[] = {
    { NULL, 0, TRUE, 2.346 },
    { "Blunder: lost 7.5 points, best was C3 (GNU Go estimate)", 2, TRUE, -0.001 },
    { "Mistake: lost 3 points, best was A9 (KataGo)", 1, FALSE, 0 },
  };
  KomiSgfGame game = {
    .size = 9, .komi = 7.0, .moves = moves, .n_moves = 3, .notes = notes,
    .has_root_lead = TRUE, .root_black_lead = -7, .final_comment = "Count",
  };
  g_autofree char *text = komi_sgf_write (&game);

  g_assert_cmpstr (text, ==,
                   "(;FF[4]GM[1]CA[UTF-8]SZ[9]KM[7]RU[Chinese]SBKS[-7]\n"
                   ";B[ee]SBKS[2.35]\n"
                   ";W[aa]BM[2]SBKS[0]C[Blunder: lost 7.5 points, best was C3 (GNU Go estimate)]\n"
                   ";B[]BM[1]\n"
                   "C[Mistake: lost 3 points, best was A9 (KataGo)\n\nCount])\n");
}

static void
test_write_komi (void)
{
  const struct { double komi; const char *text; } cases[] = {
    { 7.0, "KM[7]" }, { 6.5, "KM[6.5]" }, { 0.0, "KM[0]" }, { -2.5, "KM[-2.5]" }, { 375, "KM[375]" },
    { 0.1, "KM[0.1]" }, { 1.0 / 3, "KM[0.33333333333333331]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      KomiSgfGame game = { .size = 9, .komi = cases[i].komi };
      g_autofree char *text = komi_sgf_write (&game);
      g_autoptr(KomiSgfRecord) record = read_text (text);

      g_assert_nonnull (strstr (text, cases[i].text));
      g_assert_cmpfloat (record->komi, ==, cases[i].komi);
    }
}

static void
test_write_escape (void)
{
  KomiSgfGame game = {
    .size = 9, .black_name = "a]b\\c", .white_name = "two\nlines",
    .root_comment = "keep\nthis]", .final_comment = "\\]",
  };
  g_autofree char *text = komi_sgf_write (&game);
  g_autoptr(KomiSgfRecord) record = read_text (text);

  g_assert_nonnull (strstr (text, "PB[a\\]b\\\\c]PW[two lines]"));
  g_assert_nonnull (strstr (text, "C[keep\nthis\\]]"));
  /* No move: the final comment gets a node of its own, not the root. */
  g_assert_nonnull (strstr (text, "\n;\nC[\\\\\\]])\n"));
  g_assert_cmpstr (record->black_name, ==, "a]b\\c");
  g_assert_cmpstr (record->white_name, ==, "two lines");
  g_assert_cmpstr (record->root_comment, ==, "keep\nthis]");
  g_assert_cmpstr (record->final_comment, ==, "\\]");
}

static void
test_write_lines (void)
{
  g_autoptr(KomiGame) played = play_sgf_points (9, game_moves);
  guint n_moves;
  const KomiMove *moves = komi_game_get_moves (played, &n_moves);
  guint8 owner[81];
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  for (guint i = 0; i < 81; i++)
    owner[i] = i % 2 ? KOMI_BLACK : KOMI_WHITE;
  text = komi_sgf_write (&(KomiSgfGame) { .size = 9, .moves = moves, .n_moves = n_moves,
                                          .owner = owner });
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    g_assert_cmpuint (strlen (lines[i]), <=, 100);
  g_assert_true (g_str_has_suffix (text, ")\n"));
}

/* Write a game with captures, passes, dead stones, area and awkward names;
 * read it back and replay it: everything must come back the same. */
static void
test_round_trip (void)
{
  g_autoptr(KomiGame) played = play_sgf_points (9, game_moves);
  const KomiBoard *board = komi_game_get_board (played);
  KomiPoint dead[] = { 0, 0 };
  KomiScore score;
  guint n_moves, n_placed = 0;
  const KomiMove *moves = komi_game_get_moves (played, &n_moves);
  g_autofree char *text = NULL;
  g_autoptr(KomiSgfRecord) record = NULL;
  g_autoptr(KomiGame) again = NULL;
  guint8 colors_a[81], colors_b[81];

  /* Two white stones, B1 and C1 (White's moves 24 and 34). */
  g_assert_true (komi_point_from_name (9, "B1", &dead[0]));
  g_assert_true (komi_point_from_name (9, "C1", &dead[1]));
  g_assert_cmpint (komi_board_get (board, dead[0]), ==, KOMI_WHITE);
  g_assert_cmpint (komi_board_get (board, dead[1]), ==, KOMI_WHITE);
  komi_score_area (board, dead, 2, 7.0, &score);
  for (guint i = 0; i < n_moves; i++)
    n_placed += moves[i].point != KOMI_PASS;
  g_assert_cmpuint (komi_board_count_stones (board, KOMI_BLACK) +
                    komi_board_count_stones (board, KOMI_WHITE), <, n_placed);

  text = komi_sgf_write (&(KomiSgfGame) {
    .size = 9, .komi = 7, .black_name = "GNU Go 3.8 [level 1] \\o/", .white_name = "x]",
    .date = "2026-08-10", .result = "W+3", .moves = moves, .n_moves = n_moves,
    .dead = dead, .n_dead = 2, .owner = score.owner, .final_comment = "Dead: B1 C1",
  });
  record = read_text (text);
  g_assert_cmpuint (record->size, ==, 9);
  g_assert_cmpfloat (record->komi, ==, 7.0);
  g_assert_cmpstr (record->black_name, ==, "GNU Go 3.8 [level 1] \\o/");
  g_assert_cmpstr (record->white_name, ==, "x]");
  g_assert_cmpstr (record->result, ==, "W+3");
  g_assert_cmpstr (record->ruleset, ==, "Chinese");
  g_assert_cmpstr (record->final_comment, ==, "Dead: B1 C1");
  g_assert_null (record->setup_colors);
  g_assert_cmpuint (record->moves->len, ==, n_moves);
  g_assert_cmpmem (record->moves->data, n_moves * sizeof (KomiMove), moves,
                   n_moves * sizeof (KomiMove));
  g_assert_cmpuint (record->dead->len, ==, 2);
  g_assert_cmpint (g_array_index (record->dead, KomiPoint, 0), ==, MIN (dead[0], dead[1]));
  g_assert_cmpint (g_array_index (record->dead, KomiPoint, 1), ==, MAX (dead[0], dead[1]));
  g_assert_nonnull (record->owner);
  g_assert_cmpmem (record->owner, 81, score.owner, 81);

  again = replay (record);
  komi_board_get_colors (komi_game_get_board (again), colors_a);
  komi_board_get_colors (board, colors_b);
  g_assert_cmpmem (colors_a, 81, colors_b, 81);
  g_assert_true (komi_game_is_over (again));
}

/* Rewriting a read file keeps its moves, setup and markup. */
static void
test_rewrite (void)
{
  const char *names[] = { "sabaki.sgf", "gogui.sgf", "kgs.sgf", "cgos.sgf",
                          "ff3-lowercase.sgf", "latin1.sgf" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(KomiSgfRecord) record = read_fixture (names[i]);
      g_autoptr(KomiSgfRecord) again = NULL;
      KomiSgfGame game;
      g_autofree char *text = NULL;

      komi_sgf_record_as_game (record, &game);
      text = komi_sgf_write (&game);
      again = read_text (text);
      g_assert_cmpuint (again->moves->len, ==, record->moves->len);
      g_assert_cmpmem (again->moves->data, again->moves->len * sizeof (KomiMove),
                       record->moves->data, record->moves->len * sizeof (KomiMove));
      g_assert_cmpint (again->first_to_move, ==, record->first_to_move);
      g_assert_cmpstr (again->black_name, ==, record->black_name);
      g_assert_cmpstr (again->root_comment, ==, record->root_comment);
      g_assert_true ((again->owner == NULL) == (record->owner == NULL));
      if (record->setup_colors != NULL)
        g_assert_cmpmem (again->setup_colors, 81, record->setup_colors, 81);
    }
}

/* GNU Go's own view of a file: stones of each colour and the side to move. */
static char **
gnugo_load (const char *gnugo, const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *input = g_strdup_printf ("loadsgf %s\nlist_stones black\nlist_stones white\n"
                                            "get_komi\nquit\n", path);
  g_autofree char *output = NULL;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                              G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                              gnugo, "--mode", "gtp", "--chinese-rules", "--positional-superko",
                              NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, input, NULL, &output, NULL, &error);
  g_assert_no_error (error);
  g_strchomp (output);
  return g_strsplit (output, "\n\n", -1);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

static char *
stones_of (const KomiBoard *board, KomiColor color)
{
  guint size = komi_board_get_size (board);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < size * size; i++)
    if (komi_board_get (board, (KomiPoint) i) == color)
      {
        char name[KOMI_NAME_LEN + 1];

        g_ptr_array_add (names, g_strdup (komi_point_to_name (size, (KomiPoint) i, name)));
      }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static char *
sorted_words (const char *gtp_answer)
{
  g_auto(GStrv) words = g_strsplit_set (gtp_answer + 1, " \n", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      g_ptr_array_add (kept, words[i]);
  g_ptr_array_sort (kept, compare_names);
  g_ptr_array_add (kept, NULL);
  return g_strjoinv (" ", (char **) kept->pdata);
}

static void
test_gnugo_reads_ours (void)
{
  const char *gnugo = g_getenv ("KOMI_GNUGO") != NULL ? g_getenv ("KOMI_GNUGO") : GNUGO_PATH;
  g_autofree char *dir = NULL;
  g_autoptr(KomiGame) played = play_sgf_points (9, game_moves);
  g_autoptr(KomiSgfRecord) setup = read_fixture ("ff3-lowercase.sgf");
  g_autoptr(KomiGame) from_setup = replay (setup);
  KomiSgfGame games[2] = {
    { .size = 9, .komi = 7, .black_name = "GNU Go 3.8 [x] \\", .white_name = "w]",
      .result = "B+2", .rules_text = "area scoring\npositional superko", .final_comment = "C]" },
  };
  const KomiGame *replayed[2] = { played, from_setup };
  KomiPoint dead[] = { 73, 74 };
  KomiScore score;

  if (!g_file_test (gnugo, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("GNU Go is not installed");
      return;
    }
  games[0].moves = komi_game_get_moves (played, &games[0].n_moves);
  games[0].dead = dead;
  games[0].n_dead = 2;
  /* A whole board of TB/TW, so GNU Go also meets point lists over lines. */
  komi_score_area (komi_game_get_board (played), dead, 2, 7, &score);
  games[0].owner = score.owner;
  komi_sgf_record_as_game (setup, &games[1]);

  dir = g_dir_make_tmp ("komi-sgf-XXXXXX", NULL);
  g_assert_nonnull (dir);
  for (guint g = 0; g < 2; g++)
    {
      g_autofree char *path = g_build_filename (dir, "game.sgf", NULL);
      g_autofree char *text = komi_sgf_write (&games[g]);
      const KomiBoard *board = komi_game_get_board (replayed[g]);
      g_auto(GStrv) answers = NULL;
      g_autofree char *black = NULL, *white = NULL, *want_black = NULL, *want_white = NULL;

      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      answers = gnugo_load (gnugo, path);
      g_assert_cmpuint (g_strv_length (answers), >=, 4);
      g_assert_cmpstr (answers[0], ==, komi_game_get_to_move (replayed[g]) == KOMI_BLACK
                                       ? "= black" : "= white");
      black = sorted_words (answers[1]);
      white = sorted_words (answers[2]);
      want_black = stones_of (board, KOMI_BLACK);
      want_white = stones_of (board, KOMI_WHITE);
      g_assert_cmpstr (black, ==, want_black);
      g_assert_cmpstr (white, ==, want_white);
      g_assert_true (g_str_has_prefix (answers[3], "= "));
      g_assert_cmpfloat (g_ascii_strtod (answers[3] + 2, NULL), ==, games[g].komi);
      g_unlink (path);
    }
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/sgf/write/format", test_write_format);
  g_test_add_func ("/komi/sgf/write/komi", test_write_komi);
  g_test_add_func ("/komi/sgf/write/notes", test_write_notes);
  g_test_add_func ("/komi/sgf/write/escape", test_write_escape);
  g_test_add_func ("/komi/sgf/write/lines", test_write_lines);
  g_test_add_func ("/komi/sgf/round-trip", test_round_trip);
  g_test_add_func ("/komi/sgf/rewrite", test_rewrite);
  g_test_add_func ("/komi/sgf/gnugo", test_gnugo_reads_ours);
  komi_test_sgf_reader_add ();

  return g_test_run ();
}
