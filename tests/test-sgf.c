/* test-sgf.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-sgf"

#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "komi-coords.h"
#include "komi-score.h"
#include "komi-sgf-record.h"

/* A real 9x9 game (GNU Go level 1 against itself) with captures and two
 * final passes, as SGF points; "-" is a pass. */
static const char game_moves[] =
  "ee df ef dg de eg cc gc cf cg bf gf bg ff eb fb bh ch fa ga ea ec db bi "
  "dc ed fe ge fd gd fc gb ah ci ai ce be dd cd de - -";

static KomiGame *
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

static KomiSgfRecord *
read_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  KomiSgfRecord *record = komi_sgf_record_from_text (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (record);
  return record;
}

static KomiSgfRecord *
read_fixture (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf",
                                            name, NULL);
  g_autoptr(GError) error = NULL;
  KomiSgfRecord *record = komi_sgf_record_load (path, &error);

  g_assert_no_error (error);
  return record;
}

static KomiGame *
replay (const KomiSgfRecord *record)
{
  g_autoptr(GError) error = NULL;
  KomiGame *game = komi_sgf_record_replay (record, 0, &error);

  g_assert_no_error (error);
  g_assert_nonnull (game);
  return game;
}

static KomiMove
move_at (const KomiSgfRecord *record, guint i)
{
  return g_array_index (record->moves, KomiMove, i);
}

static void
assert_sgf_move (const KomiSgfRecord *record, guint i, KomiColor color, const char *sgf)
{
  KomiMove move = move_at (record, i);
  char buf[3];

  g_assert_cmpint (move.color, ==, color);
  g_assert_cmpstr (komi_point_to_sgf (record->size, move.point, buf), ==, sgf);
}

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

static void
test_read_sabaki (void)
{
  g_autoptr(KomiSgfRecord) record = read_fixture ("sabaki.sgf");
  g_autoptr(KomiGame) game = replay (record);

  g_assert_cmpuint (record->moves->len, ==, 42);
  g_assert_cmpfloat (record->komi, ==, 6.5);
  g_assert_cmpstr (record->black_name, ==, "Alice [4k]");
  g_assert_cmpstr (record->white_name, ==, "Bob\\Bot 1.0");
  g_assert_cmpstr (record->application, ==, "Sabaki:0.52.2");
  /* The main line is the first variation: B[ef], not B[cc]. */
  assert_sgf_move (record, 2, KOMI_BLACK, "ef");
  assert_sgf_move (record, 41, KOMI_WHITE, "");
  g_assert_null (record->final_comment);
  g_assert_true (komi_game_is_over (game));
}

static void
test_read_tree (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf",
                                            "sabaki.sgf", NULL);
  g_autofree char *text = NULL;
  gsize length;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSgfTree) tree = NULL;
  KomiSgfNode *root, *second, *branch;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  tree = komi_sgf_parse (text, length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (komi_sgf_tree_get_n_games (tree), ==, 1);
  g_assert_cmpuint (komi_sgf_tree_get_n_nodes (tree), ==, 1 + 2 + 40 + 2);
  root = komi_sgf_tree_get_game (tree, 0);
  second = komi_sgf_node_get_main_child (komi_sgf_node_get_main_child (root));
  /* Escaped ']' and a soft line break (backslash-newline) that vanishes. */
  g_assert_cmpstr (komi_sgf_node_get_value (second, "C"), ==,
                   "A comment with a soft line break and an escaped ] bracket.");
  g_assert_cmpuint (second->line, ==, 4);
  g_assert_cmpuint (komi_sgf_node_get_n_children (second), ==, 2);
  branch = komi_sgf_node_get_child (second, 1);
  g_assert_cmpstr (komi_sgf_node_get_value (branch, "B"), ==, "cc");
  g_assert_cmpstr (komi_sgf_node_get_value (komi_sgf_node_get_main_child (branch), "C"), ==,
                   "Variation");
}

static void
test_read_gogui (void)
{
  g_autoptr(KomiSgfRecord) record = read_fixture ("gogui.sgf");
  g_autoptr(KomiGame) game = replay (record);

  g_assert_cmpuint (record->moves->len, ==, 46);
  g_assert_cmpstr (record->black_name, ==, "GNU Go:3.8");
  /* CRLF line ends become "\n" in Text values. */
  g_assert_true (g_str_has_prefix (record->root_comment,
                                   "Black command: gnugo --mode gtp --level 1 --seed 2\n"
                                   "White command:"));
  g_assert_nonnull (record->owner);
  g_assert_cmpint (record->owner[0], ==, KOMI_BLACK);
  g_assert_cmpint (record->owner[1], ==, KOMI_BLACK);
  g_assert_cmpint (record->owner[2], ==, KOMI_EMPTY);
  g_assert_cmpint (record->owner[79], ==, KOMI_WHITE);
  g_assert_cmpint (record->owner[80], ==, KOMI_WHITE);
  assert_sgf_move (record, 42, KOMI_BLACK, "");
  assert_sgf_move (record, 43, KOMI_WHITE, "cf");
}

static void
test_read_kgs (void)
{
  g_autoptr(KomiSgfRecord) record = read_fixture ("kgs.sgf");
  g_autoptr(KomiGame) game = replay (record);

  g_assert_cmpuint (record->moves->len, ==, 48);
  g_assert_cmpfloat (record->komi, ==, 6.5);
  g_assert_cmpstr (record->ruleset, ==, "Japanese");
  g_assert_cmpstr (record->result, ==, "B+Resign");
  g_assert_cmpstr (record->black_rank, ==, "3k");
  g_assert_cmpstr (record->place, ==, "The KGS Go Server at http://www.gokgs.com/");
  assert_sgf_move (record, 0, KOMI_BLACK, "fd");
}

static void
test_read_cgos (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf",
                                            "cgos.sgf", NULL);
  g_autofree char *text = NULL;
  gsize length;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSgfTree) tree = NULL;
  g_autoptr(KomiSgfRecord) first = NULL, second = NULL, none = NULL;
  g_autoptr(KomiGame) game = NULL;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  tree = komi_sgf_parse (text, length, &error);
  g_assert_no_error (error);
  first = komi_sgf_record_from_tree (tree, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (first->n_games, ==, 2);
  g_assert_cmpuint (first->moves->len, ==, 42);
  /* "tt" is a pass on boards up to 19x19. */
  g_assert_cmpint (move_at (first, 40).point, ==, KOMI_PASS);
  g_assert_cmpint (move_at (first, 41).point, ==, KOMI_PASS);
  game = replay (first);
  g_assert_true (komi_game_is_over (game));

  second = komi_sgf_record_from_tree (tree, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (second->black_name, ==, "second");
  g_assert_cmpuint (second->moves->len, ==, 2);
  none = komi_sgf_record_from_tree (tree, 2, &error);
  g_assert_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_NO_GAME);
  g_assert_null (none);
}

static void
test_read_ff3 (void)
{
  g_autoptr(KomiSgfRecord) record = read_fixture ("ff3-lowercase.sgf");
  g_autoptr(KomiGame) game = replay (record);
  g_autoptr(KomiBoard) expected = komi_board_new_from_diagram (
    ". . . . . . . . .\n"
    ". . . . . . . . .\n"
    ". . X . . . X . .\n"
    ". . . . . . . . .\n"
    ". . X . O . O . .\n"
    ". . . . . . . . .\n"
    ". . O . . . O . .\n"
    ". . . . . . . . .\n"
    ". . . . . . . . .\n", NULL);
  g_autofree char *got = komi_board_to_diagram (komi_game_get_board (game));
  g_autofree char *want = komi_board_to_diagram (expected);

  g_assert_cmpstr (record->black_name, ==, "Old Timer");
  g_assert_cmpfloat (record->komi, ==, 5.5);
  g_assert_cmpstr (record->root_comment, ==, "An FF[3] file\nwith long identifiers.");
  g_assert_cmpint (record->first_to_move, ==, KOMI_WHITE);
  g_assert_cmpuint (record->moves->len, ==, 3);
  g_assert_cmpstr (got, ==, want);
  g_assert_cmpint (komi_game_get_to_move (game), ==, KOMI_BLACK);
}

static void
test_read_latin1 (void)
{
  g_autoptr(KomiSgfRecord) record = read_fixture ("latin1.sgf");

  g_assert_cmpstr (record->black_name, ==, "Jos\xc3\xa9");
  g_assert_cmpstr (record->white_name, ==, "M\xc3\xbcller");
  g_assert_cmpstr (record->root_comment, ==, "Caf\xc3\xa9 au lait");
}

static void
test_read_setup (void)
{
  /* A compressed rectangle, an AE that clears one of its points, PL. */
  g_autoptr(KomiSgfRecord) record = read_text (
    " junk before (;FF[4]SZ[5]AB[aa:bb]AW[ee]\n ;AE[ab] PL [ W ]\n)\n trailing junk");
  g_autoptr(KomiGame) game = replay (record);

  g_assert_cmpuint (record->size, ==, 5);
  g_assert_nonnull (record->setup_colors);
  g_assert_cmpint (record->setup_colors[0], ==, KOMI_BLACK);
  g_assert_cmpint (record->setup_colors[1], ==, KOMI_BLACK);
  g_assert_cmpint (record->setup_colors[5], ==, KOMI_EMPTY);
  g_assert_cmpint (record->setup_colors[6], ==, KOMI_BLACK);
  g_assert_cmpint (record->setup_colors[24], ==, KOMI_WHITE);
  g_assert_cmpint (record->first_to_move, ==, KOMI_WHITE);
  g_assert_cmpuint (komi_board_count_stones (komi_game_get_board (game), KOMI_BLACK), ==, 3);
  g_assert_cmpint (komi_game_get_to_move (game), ==, KOMI_WHITE);
}

static void
test_read_whitespace (void)
{
  /* Whitespace between every token, an empty SZ default (19), "tt". */
  g_autoptr(KomiSgfRecord) record = read_text ("\xef\xbb\xbf ( \n ; \t GM [1] \r\n ; B [pd] ; W\n[tt] )");

  g_assert_cmpuint (record->size, ==, 19);
  g_assert_cmpuint (record->moves->len, ==, 2);
  assert_sgf_move (record, 0, KOMI_BLACK, "pd");
  g_assert_cmpint (move_at (record, 1).point, ==, KOMI_PASS);
}

/* Nesting as deep as the input allows, parsed without recursion. */
static void
test_read_deep (void)
{
  const guint depth = 100000;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSgfRecord) record = NULL;

  g_string_append (text, "(;SZ[9]");
  for (guint i = 0; i < depth; i++)
    g_string_append (text, i % 2 ? "(;W[])" : "(;B[])");
  /* Opened, never closed: an error at the end, not a crash. */
  record = komi_sgf_record_from_text (text->str, text->len, &error);
  g_assert_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_SYNTAX);
  g_assert_null (record);
  g_clear_error (&error);

  g_string_truncate (text, 0);
  g_string_append (text, "(;SZ[9]");
  for (guint i = 0; i < depth; i++)
    g_string_append (text, i % 2 ? "(;W[]" : "(;B[]");
  for (guint i = 0; i <= depth; i++)
    g_string_append_c (text, ')');
  record = komi_sgf_record_from_text (text->str, text->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (record->moves->len, ==, depth);
}

typedef struct
{
  const char *text;
  int         code;
  const char *message;   /* a prefix of the error message */
} Malformed;

static void
test_malformed (void)
{
  g_autofree char *parens = g_strnfill (100000, '(');
  g_autofree char *opens = NULL;
  const Malformed cases[] = {
    { "(;FF[4]\nSZ[9]\n;B[ee]C[oops)", KOMI_SGF_ERROR_SYNTAX,
      "line 3, column 8: unterminated property value: C[" },
    { ";FF[4]SZ[9];B[ee])", KOMI_SGF_ERROR_NO_GAME, "line 1, column 1: no game tree" },
    { "\n  hello world", KOMI_SGF_ERROR_NO_GAME, "line 2, column 3: no game tree" },
    { "", KOMI_SGF_ERROR_NO_GAME, "line 1, column 1: empty file" },
    { parens, KOMI_SGF_ERROR_NO_GAME, "line 1, column 1: no game tree" },
    { "(;FF[4]SZ[9];B[ee]", KOMI_SGF_ERROR_SYNTAX,
      "line 1, column 19: unexpected end of file: the game tree opened at line 1, column 1" },
    { "(;FF[4] # )", KOMI_SGF_ERROR_SYNTAX, "line 1, column 9: unexpected '#'" },
    { "(;FF[4] é )", KOMI_SGF_ERROR_SYNTAX, "line 1, column 9: unexpected 'é'" },
    { "(;SZ[9]B ;)", KOMI_SGF_ERROR_SYNTAX, "line 1, column 10: expected '[' after property B" },
    { "(;SZ[9]size[9])", KOMI_SGF_ERROR_SYNTAX, "line 1, column 8: property identifier" },
    { "(;SZ[9] ( ;B[aa]) ;W[bb])", KOMI_SGF_ERROR_SYNTAX,
      "line 1, column 19: a node cannot follow a variation" },
    { "(;\n SZ[25])", KOMI_SGF_ERROR_UNSUPPORTED,
      "line 2, column 2: SZ[25]: board size 25 is not supported" },
    { "(;SZ[9:7])", KOMI_SGF_ERROR_UNSUPPORTED, "line 1, column 3: SZ[9:7]: rectangular" },
    { "(;SZ[nine])", KOMI_SGF_ERROR_BAD_VALUE, "line 1, column 3: SZ[nine] is not" },
    { "(;SZ[])", KOMI_SGF_ERROR_BAD_VALUE, "line 1, column 3: SZ[] is not a board size" },
    { "(;GM[2])", KOMI_SGF_ERROR_UNSUPPORTED, "line 1, column 3: GM[2]: this is not a game of Go" },
    { "(;SZ[9]KM[seven])", KOMI_SGF_ERROR_BAD_VALUE, "line 1, column 8: KM[seven] is not a komi" },
    { "(;SZ[9];B[ee];W[zz])", KOMI_SGF_ERROR_BAD_VALUE,
      "line 1, column 15: move 2: W[zz] is not a point on a 9x9 board" },
    { "(;SZ[9];B[ee]W[ce])", KOMI_SGF_ERROR_BAD_VALUE, "line 1, column 14: move 1: a node" },
    { "(;SZ[9];B[ee];W[cc];AB[dd])", KOMI_SGF_ERROR_UNSUPPORTED,
      "line 1, column 21: setup stones (AB) after move 2" },
    { "(;SZ[9]AB[aj])", KOMI_SGF_ERROR_BAD_VALUE, "line 1, column 8: AB[aj] is not a point" },
    { "(;SZ[9];B[ee];W[ee])", KOMI_SGF_ERROR_ILLEGAL_MOVE,
      "move 2, White E5 [ee]: the point is occupied" },
    { "(;SZ[9]AB[ba][ab];W[aa])", KOMI_SGF_ERROR_ILLEGAL_MOVE,
      "move 1, White A9 [aa]: suicide is illegal" },
    /* A simple ko: White's immediate recapture repeats the start position. */
    { "(;SZ[9]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb])", KOMI_SGF_ERROR_ILLEGAL_MOVE,
      "move 2, White B8 [bb]: it would repeat an earlier position" },
    { "(;SZ[9];B[ee];B[ce])", KOMI_SGF_ERROR_ILLEGAL_MOVE,
      "move 2: Black plays twice in a row; Komi replays only alternating games" },
    { "(;SZ[9];B[];W[];B[ee])", KOMI_SGF_ERROR_ILLEGAL_MOVE,
      "move 3, Black E5 [ee]: the game is already over (two passes)" },
  };

  opens = g_strnfill (2 * 1000, ';');
  for (guint i = 0; i < 1000; i++)
    opens[2 * i] = '(';

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KomiSgfRecord) record = NULL;
      g_autoptr(KomiGame) game = NULL;

      record = komi_sgf_record_from_text (cases[i].text, strlen (cases[i].text), &error);
      if (record != NULL)
        game = komi_sgf_record_replay (record, 0, &error);
      g_test_message ("case %u: %s", i, error != NULL ? error->message : "(no error)");
      g_assert_null (game);
      g_assert_error (error, KOMI_SGF_ERROR, cases[i].code);
      g_assert_true (g_str_has_prefix (error->message, cases[i].message));
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KomiSgfTree) tree = komi_sgf_parse ("(;C[a\0b])", 9, &error);

    g_assert_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_ENCODING);
    g_assert_cmpstr (error->message, ==,
                     "line 1, column 6: NUL byte: this is not an SGF text file");
    g_assert_null (tree);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KomiSgfTree) tree = komi_sgf_parse (opens, strlen (opens), &error);

    g_assert_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_SYNTAX);
    g_assert_true (g_str_has_prefix (error->message, "line 1, column 2001: unexpected end"));
    g_assert_null (tree);
  }
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
  g_test_add_func ("/komi/sgf/write/escape", test_write_escape);
  g_test_add_func ("/komi/sgf/write/lines", test_write_lines);
  g_test_add_func ("/komi/sgf/round-trip", test_round_trip);
  g_test_add_func ("/komi/sgf/read/sabaki", test_read_sabaki);
  g_test_add_func ("/komi/sgf/read/tree", test_read_tree);
  g_test_add_func ("/komi/sgf/read/gogui", test_read_gogui);
  g_test_add_func ("/komi/sgf/read/kgs", test_read_kgs);
  g_test_add_func ("/komi/sgf/read/cgos", test_read_cgos);
  g_test_add_func ("/komi/sgf/read/ff3-lowercase", test_read_ff3);
  g_test_add_func ("/komi/sgf/read/latin1", test_read_latin1);
  g_test_add_func ("/komi/sgf/read/setup", test_read_setup);
  g_test_add_func ("/komi/sgf/read/whitespace", test_read_whitespace);
  g_test_add_func ("/komi/sgf/read/deep", test_read_deep);
  g_test_add_func ("/komi/sgf/malformed", test_malformed);
  g_test_add_func ("/komi/sgf/rewrite", test_rewrite);
  g_test_add_func ("/komi/sgf/gnugo", test_gnugo_reads_ours);

  return g_test_run ();
}
