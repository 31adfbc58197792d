/* test-sgf-reader.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-sgf"

#include "config.h"

#include "komi-sgf-test-util.h"

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
  g_autofree char *path = fixture_path ("sabaki.sgf");
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
  g_autofree char *path = fixture_path ("cgos.sgf");
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
    /* Columns count characters: "é" is two bytes but one column. */
    { "(;C[é] é )", KOMI_SGF_ERROR_SYNTAX, "line 1, column 8: unexpected 'é'" },
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

void
komi_test_sgf_reader_add (void)
{
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
}
