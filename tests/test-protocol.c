/* test-protocol.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include "komi-protocol-state.h"
#include "komi-test-util.h"

/* The position of the specification's example request, X to move. */
static const char *example_diagram =
  "O . . O X X X X X\n"
  ". O . . X X X X X\n"
  "O . . . X X X X X\n"
  ". . . . O . . X O\n"
  ". . O . X X X X O\n"
  ". . . . . O O O .\n"
  ". . O . . O O . O\n"
  ". . . . . O . . .\n"
  ". . . . . . . O .\n";

static char *
write_request (const KomiProtocolState *state)
{
  GString *out = g_string_new (NULL);

  komi_protocol_write_request (out, state);
  return g_string_free (out, FALSE);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  GError *error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_rules_text (void)
{
  const char *srcdir = g_getenv ("KOMI_SOURCE_DIR");
  g_autofree char *data_path = NULL, *shared_path = NULL, *expected = NULL, *shared = NULL;
  g_autoptr(GBytes) bytes = komi_protocol_dup_rules (1);
  const char *text;
  gsize len, expected_len, shared_len;

  g_assert_nonnull (srcdir);
  data_path = g_build_filename (srcdir, "data", "protocol-1", "rules.txt", NULL);
  g_assert_true (g_file_get_contents (data_path, &expected, &expected_len, NULL));

  text = komi_protocol_get_rules_text (1, &len);
  g_assert_cmpmem (text, len, expected, expected_len);
  g_assert_cmpuint (strlen (text), ==, len);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), text, len);

  shared_path = g_build_filename (srcdir, "..", "shared", "protocol-1", "rules.txt", NULL);
  if (g_file_test (shared_path, G_FILE_TEST_EXISTS))
    {
      g_assert_true (g_file_get_contents (shared_path, &shared, &shared_len, NULL));
      g_assert_cmpmem (text, len, shared, shared_len);
    }
  else
    g_test_message ("%s not found; compared with the copy in data/ only", shared_path);

  g_assert_true (komi_protocol_is_known (KOMI_PROTOCOL_LATEST));
  g_assert_false (komi_protocol_is_known (2));
  g_assert_null (komi_protocol_dup_rules (2));
}

/* The example with its shortened best_point list replaced by @options. */
static char *
expected_example (char **options)
{
  const char *srcdir = g_getenv ("KOMI_SOURCE_DIR");
  const char *shortened = "[\"B9\", \"C9\", \"C8\", \"D8\", \"…\", \"G1\", \"J1\"]";
  g_autofree char *path = g_build_filename (srcdir, "tests", "example-request.json", NULL);
  g_autofree char *example = NULL;
  g_autofree char *joined = g_strjoinv ("\", \"", options);
  g_autofree char *list = g_strdup_printf ("[\"%s\"]", joined);
  g_auto(GStrv) parts = NULL;

  g_assert_true (g_file_get_contents (path, &example, NULL, NULL));
  parts = g_strsplit (example, shortened, -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  return g_strjoinv (list, parts);
}

static void
test_example_request (void)
{
  g_autoptr(KomiBoard) board = diagram (example_diagram);
  g_autoptr(KomiGame) game = komi_game_new_from_board (board, KOMI_BLACK,
                                                       KOMI_PROTOCOL_MAX_TURNS);
  KomiPoint legal[KOMI_MAX_POINTS];
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *expected = NULL, *got = NULL, *ends = NULL;
  g_auto(GStrv) options = NULL;
  KomiProtocolState state;
  guint n;

  komi_protocol_state_init_from_game (&state, game, KOMI_ORIENTATION_IDENTITY);
  g_assert_cmpuint (state.turns_left, ==, 120);
  /* The example was taken after 40 turns; the board alone cannot say so. */
  state.turns_left = 80;
  g_assert_true (komi_protocol_state_has_questions (&state));

  /* The full list, named independently of the protocol code. */
  n = komi_game_legal_points (game, legal);
  g_assert_cmpuint (n, ==, 43);
  for (guint i = 0; i < n; i++)
    {
      char name[KOMI_NAME_LEN + 1];

      g_ptr_array_add (names, g_strdup (komi_point_to_name (9, legal[i], name)));
    }
  g_ptr_array_add (names, NULL);
  options = komi_protocol_state_dup_options (&state, KOMI_PROTOCOL_QUESTION_BEST_POINT);
  g_assert_cmpstrv (options, (char **) names->pdata);
  ends = g_strjoin (" ", options[0], options[1], options[2], options[3], "…",
                    options[41], options[42], NULL);
  g_assert_cmpstr (ends, ==, "B9 C9 C8 D8 … G1 J1");

  expected = expected_example (options);
  got = write_request (&state);
  g_assert_cmpstr (got, ==, expected);
}

/* Parsing the written text gives the node. */
static void
assert_node_matches_text (const KomiProtocolState *state)
{
  g_autofree char *text = write_request (state);
  g_autoptr(JsonNode) parsed = parse (text);
  g_autoptr(JsonNode) built = komi_protocol_state_to_json (state);

  g_assert_true (json_node_equal (parsed, built));
}

/* The questions, the facts, and the whole message a model receives:
 * rules, a blank line, request. */
static void
test_question_text (void)
{
  g_autofree char *x = komi_protocol_dup_question_text (KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS,
                                                        KOMI_BLACK);
  g_autofree char *o = komi_protocol_dup_question_text (KOMI_PROTOCOL_QUESTION_BEST_POINT,
                                                        KOMI_WHITE);
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(GString) out = g_string_new ("left over");
  g_autofree char *text = NULL;
  KomiProtocolState state;
  gsize len;
  const char *rules = komi_protocol_get_rules_text (1, &len);

  g_assert_cmpstr (x, ==, "Should X place a stone now or pass, to win the game under the "
                          "rules given?");
  g_assert_cmpstr (o, ==, "If O places a stone now, which point should it be, to win the "
                          "game under the rules given?");

  /* After E5 and a pass by White: X to move, a pass would end the game. */
  play_all (game, "E5 pass");
  komi_protocol_state_init_from_game (&state, game, KOMI_ORIENTATION_IDENTITY);
  text = write_request (&state);
  g_assert_nonnull (strstr (text, "\"to_move\": \"X\""));
  g_assert_nonnull (strstr (text, "\"turns_left\": 118,\n"));
  g_assert_nonnull (strstr (text, "\"opponent_just_passed\": true,\n"));
  g_assert_nonnull (strstr (text, "\"options\": [\"A9\", \"B9\", \"C9\","));
  g_assert_null (strstr (text, "\"E5\""));

  g_string_truncate (out, 0);
  komi_protocol_write_prompt (out, &state);
  g_assert_cmpuint (out->len, ==, len + 2 + strlen (text));
  g_assert_cmpmem (out->str, len, rules, len);
  g_assert_cmpmem (out->str + len, 2, "\n\n", 2);
  g_assert_cmpstr (out->str + len + 2, ==, text);

  state.to_move = KOMI_WHITE;
  assert_node_matches_text (&state);
}

/* The real point behind a name on the shown board. */
static KomiPoint
real_of_name (const KomiProtocolState *state, const char *name)
{
  return komi_orientation_unapply (state->orientation, state->size, pt (state->size, name));
}

/* Every check of one position in one orientation against the game. */
static void
check_oriented (const KomiGame *game, KomiOrientation orientation, guint *n_superko_seen)
{
  guint size = komi_game_get_size (game);
  const KomiBoard *board = komi_game_get_board (game);
  KomiPoint canon[KOMI_MAX_POINTS], superko[KOMI_MAX_POINTS];
  guint8 seen[KOMI_MAX_POINTS] = { 0 }, is_forbidden[KOMI_MAX_POINTS] = { 0 };
  guint n_canon = komi_game_legal_points (game, canon);
  guint n_superko = komi_game_superko_points (game, superko);
  guint label = size >= 10 ? 2 : 1;
  KomiProtocolState state;
  g_autoptr(JsonNode) node = NULL;
  g_auto(GStrv) options = NULL;
  JsonObject *fields;
  JsonArray *lines, *forbidden;
  KomiPoint last_shown = -1;

  komi_protocol_state_init_from_game (&state, game, orientation);
  node = komi_protocol_state_to_json (&state);
  fields = json_object_get_object_member (json_node_get_object (node), "state");

  /* Options map back to exactly the legal set, each once, in shown order. */
  options = komi_protocol_state_dup_options (&state, KOMI_PROTOCOL_QUESTION_BEST_POINT);
  g_assert_cmpuint (g_strv_length (options), ==, n_canon);
  g_assert_cmpint (komi_protocol_state_has_questions (&state), ==, n_canon > 0);
  for (guint i = 0; options[i] != NULL; i++)
    {
      GError *error = NULL;
      KomiPoint real = KOMI_NO_POINT;
      KomiPoint shown = pt (size, options[i]);

      g_assert_cmpint (shown, >, last_shown);
      last_shown = shown;
      g_assert_true (komi_protocol_map_answer (&state, options[i], &real, &error));
      g_assert_no_error (error);
      g_assert_cmpint (real, ==, real_of_name (&state, options[i]));
      g_assert_cmpint (komi_game_check (game, real), ==, KOMI_MOVE_OK);
      g_assert_false (seen[real]);
      seen[real] = TRUE;
    }
  for (guint i = 0; i < n_canon; i++)
    g_assert_true (seen[canon[i]]);

  /* Each point's character sits where the orientation shows it. */
  lines = json_object_get_array_member (fields, "board");
  g_assert_cmpuint (json_array_get_length (lines), ==, size + 1);
  for (KomiPoint p = 0; (guint) p < size * size; p++)
    {
      KomiPoint shown = komi_orientation_apply (orientation, size, p);
      const char *line = json_array_get_string_element (lines, komi_point_y (size, shown) + 1);
      KomiColor color = komi_board_get (board, p);

      g_assert_cmpuint (strlen (line), ==, label + 2 * size);
      g_assert_cmpint (line[label + 1 + 2 * komi_point_x (size, shown)], ==,
                       color == KOMI_BLACK ? 'X' : color == KOMI_WHITE ? 'O' : '.');
    }

  /* The superko list, mapped back, is the game's, and never an option. */
  for (guint i = 0; i < n_superko; i++)
    is_forbidden[superko[i]] = TRUE;
  forbidden = json_object_get_array_member (fields, "points_forbidden_by_superko");
  g_assert_cmpuint (json_array_get_length (forbidden), ==, n_superko);
  last_shown = -1;
  for (guint i = 0; i < n_superko; i++)
    {
      const char *name = json_array_get_string_element (forbidden, i);
      g_autoptr(GError) error = NULL;
      KomiPoint real = KOMI_NO_POINT;

      g_assert_cmpint (pt (size, name), >, last_shown);
      last_shown = pt (size, name);
      g_assert_true (is_forbidden[real_of_name (&state, name)]);
      g_assert_false (komi_protocol_map_answer (&state, name, &real, &error));
      g_assert_error (error, KOMI_PROTOCOL_ERROR,
                      (n_canon > 0 ? KOMI_PROTOCOL_ERROR_INVALID_OPTION
                                   : KOMI_PROTOCOL_ERROR_NO_QUESTION));
    }
  *n_superko_seen += n_superko > 0;
}

/* Random legal games (seeded), every position checked in all eight
 * orientations. Small boards are in the mix because they have more kos. */
static void
test_orientations_random (void)
{
  static const guint sizes[] = { 5, 7, 9, 9, 9, 13, 19 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260930);
  KomiProtocolState state;
  guint n_positions = 0, n_superko_seen = 0;

  for (guint g = 0; g < 28; g++)
    {
      guint size = sizes[g % G_N_ELEMENTS (sizes)];
      g_autoptr(KomiGame) game = komi_game_new (size, KOMI_PROTOCOL_MAX_TURNS);

      while (!komi_game_is_over (game))
        {
          KomiPoint legal[KOMI_MAX_POINTS];
          guint n = komi_game_legal_points (game, legal);
          KomiPoint move = KOMI_PASS;

          for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
            check_oriented (game, o, &n_superko_seen);
          /* Parsing is slow; one orientation in turn is enough for this. */
          komi_protocol_state_init_from_game (&state, game, n_positions % KOMI_N_ORIENTATIONS);
          assert_node_matches_text (&state);
          n_positions++;
          if (n > 0 && g_rand_int_range (rand, 0, 40) != 0)
            move = legal[g_rand_int_range (rand, 0, (gint32) n)];
          komi_game_play (game, move, NULL);
        }
    }
  g_test_message ("%u positions, %u of them with points forbidden by superko",
                  n_positions, n_superko_seen / KOMI_N_ORIENTATIONS);
  g_assert_cmpuint (n_superko_seen, >, 0);
}

/* A ko just taken, in every orientation: B3 is listed under the name it
 * has on the shown board and is not an option. */
static void
test_orientations_ko (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". . . . .\n"
    ". X O . .\n"
    "X O . O .\n"
    ". X O . .\n"
    ". . . . .\n", KOMI_BLACK);
  guint n_superko_seen = 0;

  play_all (game, "C3");
  for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
    {
      KomiProtocolState state;
      g_autofree char *text = NULL, *listed = NULL;
      char name[KOMI_NAME_LEN + 1];

      check_oriented (game, o, &n_superko_seen);
      komi_protocol_state_init_from_game (&state, game, o);
      komi_point_to_name (5, komi_orientation_apply (o, 5, pt (5, "B3")), name);
      listed = g_strdup_printf ("\"points_forbidden_by_superko\": [\"%s\"]\n", name);
      text = write_request (&state);
      g_assert_nonnull (strstr (text, listed));
    }
  g_assert_cmpuint (n_superko_seen, ==, KOMI_N_ORIENTATIONS);
}

/* O's five eyes leave X only suicides: no question is asked. */
static void
test_no_legal_point (void)
{
  g_autoptr(KomiGame) game = game_from_diagram (
    ". O O O .\n"
    "O O O O O\n"
    "O O . O O\n"
    "O O O O O\n"
    ". O O O .\n", KOMI_BLACK);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) options = NULL;
  KomiProtocolState state;
  KomiPoint real = KOMI_NO_POINT;

  komi_protocol_state_init_from_game (&state, game, KOMI_ORIENTATION_ROTATE_90);
  g_assert_false (komi_protocol_state_has_questions (&state));
  options = komi_protocol_state_dup_options (&state, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS);
  g_assert_cmpuint (g_strv_length (options), ==, 0);
  text = write_request (&state);
  g_assert_true (g_str_has_suffix (text, "  },\n  \"questions\": []\n}\n"));
  assert_node_matches_text (&state);
  g_assert_false (komi_protocol_map_answer (&state, "C3", &real, &error));
  g_assert_error (error, KOMI_PROTOCOL_ERROR, KOMI_PROTOCOL_ERROR_NO_QUESTION);
  g_assert_cmpint (real, ==, KOMI_NO_POINT);
}

static void
assert_invalid_play_or_pass (const char *answer)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *quoted = g_strdup_printf ("“%s”", answer);
  gboolean place = 42;

  g_assert_false (komi_protocol_parse_play_or_pass (answer, &place, &error));
  g_assert_error (error, KOMI_PROTOCOL_ERROR, KOMI_PROTOCOL_ERROR_INVALID_OPTION);
  g_assert_nonnull (strstr (error->message, quoted));
  g_assert_cmpint (place, ==, 42);
}

static void
assert_invalid_point (const KomiProtocolState *state, const char *answer, const char *quoted)
{
  g_autoptr(GError) error = NULL;
  KomiPoint real = KOMI_NO_POINT;

  g_assert_false (komi_protocol_map_answer (state, answer, &real, &error));
  g_assert_error (error, KOMI_PROTOCOL_ERROR, KOMI_PROTOCOL_ERROR_INVALID_OPTION);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, quoted));
  g_assert_cmpint (real, ==, KOMI_NO_POINT);
}

/* Answers must be an option exactly; only surrounding whitespace goes. */
static void
test_answers (void)
{
  static const char *bad_choices[] = { "Pass", "\"pass\"", "place stone", "", "pass." };
  /* E5 is occupied; the rest are not options as written. */
  static const char *bad_points[] = { "E5", "c3", "C03", "I5", "K5", "C10", "pass",
                                      "\"C3\"", "C3 D4" };
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autofree char *long_answer = g_strnfill (500, 'a');
  KomiProtocolState state;
  KomiPoint real = KOMI_NO_POINT;
  gboolean place = FALSE;
  GError *error = NULL;

  g_assert_true (komi_protocol_parse_play_or_pass ("place a stone", &place, &error));
  g_assert_true (place);
  g_assert_true (komi_protocol_parse_play_or_pass (" \tpass\n", &place, &error));
  g_assert_false (place);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (bad_choices); i++)
    assert_invalid_play_or_pass (bad_choices[i]);

  /* Rotated 90° clockwise: the real A9 is shown at J9, the real E5 stays. */
  play_all (game, "E5");
  komi_protocol_state_init_from_game (&state, game, KOMI_ORIENTATION_ROTATE_90);
  g_assert_true (komi_protocol_map_answer (&state, "J9", &real, &error));
  g_assert_cmpint (real, ==, pt (9, "A9"));
  g_assert_true (komi_protocol_map_answer (&state, "  C3\n", &real, &error));
  g_assert_cmpint (real, ==, komi_orientation_unapply (1, 9, pt (9, "C3")));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (bad_points); i++)
    {
      g_autofree char *quoted = g_strdup_printf ("“%s”", bad_points[i]);

      assert_invalid_point (&state, bad_points[i], quoted);
    }
  assert_invalid_point (&state, "", "80 options");
  assert_invalid_point (&state, "\xff\xfe" "C3", "C3");
  /* A rambling answer is quoted in part. */
  assert_invalid_point (&state, long_answer, "aaa…”");
}

static void
test_wide_board (void)
{
  g_autoptr(KomiGame) game = komi_game_new (19, KOMI_PROTOCOL_MAX_TURNS);
  g_autofree char *text = NULL;
  KomiProtocolState state;

  play_all (game, "A19 T1 K10");
  komi_protocol_state_init_from_game (&state, game, KOMI_ORIENTATION_IDENTITY);
  text = write_request (&state);
  g_assert_nonnull (strstr (text,
    "      \"   A B C D E F G H J K L M N O P Q R S T\",\n"
    "      \"19 X . . . . . . . . . . . . . . . . . .\",\n"));
  g_assert_nonnull (strstr (text,
    "      \"10 . . . . . . . . . X . . . . . . . . .\",\n"
    "      \" 9 . . . . . . . . . . . . . . . . . . .\",\n"));
  g_assert_nonnull (strstr (text,
    "      \" 1 . . . . . . . . . . . . . . . . . . O\"\n    ],\n"));
  g_assert_nonnull (strstr (text, "\"options\": [\"B19\", \"C19\","));
  g_assert_nonnull (strstr (text, "\"S1\"]\n"));
  assert_node_matches_text (&state);
}

static void
test_json_string (void)
{
  const char *text = "a\"b\\c\nd\te\x01\x1f…/é";
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;

  komi_protocol_append_json_string (out, text, -1);
  g_assert_cmpstr (out->str, ==, "\"a\\\"b\\\\c\\nd\\te\\u0001\\u001f…/é\"");
  node = parse (out->str);
  g_assert_cmpstr (json_node_get_string (node), ==, text);

  g_string_truncate (out, 0);
  komi_protocol_append_json_string (out, "ab\0c", 4);
  g_assert_cmpstr (out->str, ==, "\"ab\\u0000c\"");
}

/* Runs the built komi-cli with @args; FALSE (test skipped) when it has not
 * been built, which it cannot be until every subcommand's file exists. */
static gboolean
run_cli (const char * const *args, char **out, char **err, int *status)
{
  const char *builddir = g_getenv ("KOMI_BUILD_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  GError *error = NULL;

  if (builddir != NULL)
    path = g_build_filename (builddir, "src", "cli", "komi-cli", NULL);
  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("komi-cli is not built yet (or KOMI_BUILD_DIR is not set)");
      return FALSE;
    }
  g_ptr_array_add (argv, path);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                out, err, status, &error);
  g_assert_no_error (error);
  return TRUE;
}

/* The text and the --json object of the request after E5 C3, as shown
 * turned 180° and mirrored in the A9-J1 diagonal. */
static void
test_cli_request (void)
{
  const char * const args[] = { "request", "--moves", "E5 C3", "--orientation", "2", NULL };
  const char * const json_args[] = { "request", "--moves", "e5 c3", "-o", "6", "--json", NULL };
  g_autofree char *out = NULL, *err = NULL, *json_out = NULL, *json_err = NULL;
  g_autofree char *request = NULL;
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(JsonNode) node = NULL, expected = NULL;
  const char *rules = komi_protocol_get_rules_text (1, NULL);
  KomiProtocolState state;
  JsonObject *object;
  gsize len = strlen (rules);
  int status;

  if (!run_cli (args, &out, &err, &status))
    return;
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpuint (strlen (out), >, len + 3);
  g_assert_cmpmem (out, len, rules, len);
  g_assert_cmpmem (out + len, 3, "\n\n{", 3);
  play_all (game, "E5 C3");
  komi_protocol_state_init_from_game (&state, game, KOMI_ORIENTATION_ROTATE_180);
  request = write_request (&state);
  g_assert_cmpstr (out + len + 2, ==, request);

  run_cli (json_args, &json_out, &json_err, &status);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  node = parse (json_out);
  object = json_node_get_object (node);
  g_assert_cmpint (json_object_get_int_member (object, "protocol"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (object, "orientation"), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (object, "rules"), ==, rules);
  state.orientation = KOMI_ORIENTATION_TRANSPOSE;
  expected = komi_protocol_state_to_json (&state);
  g_assert_true (json_node_equal (json_object_get_member (object, "request"), expected));
}

static void
assert_cli_fails (const char * const *args, int expected_status, const char *message)
{
  g_autofree char *out = NULL, *err = NULL;
  int status;

  if (!run_cli (args, &out, &err, &status))
    return;
  g_test_message ("%s", err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, expected_status);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, message));
}

static void
test_cli_request_errors (void)
{
  const char * const occupied[] = { "request", "--moves", "E5 C3 E5", NULL };
  const char * const malformed[] = { "request", "--moves", "E5 I5", NULL };
  const char * const over[] = { "request", "--moves", "pass pass", NULL };
  const char * const orientation[] = { "request", "--orientation", "8", NULL };

  assert_cli_fails (occupied, 1,
                    "komi-cli request: move 3 (E5): Black at E5 is not allowed: "
                    "the point is occupied\n");
  assert_cli_fails (malformed, 1, "komi-cli request: move 2 (I5): not a point on the 9x9");
  assert_cli_fails (over, 1, "the game is over");
  assert_cli_fails (orientation, 2, "0 to 7");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/protocol/rules-text", test_rules_text);
  g_test_add_func ("/komi/protocol/example-request", test_example_request);
  g_test_add_func ("/komi/protocol/question-text", test_question_text);
  g_test_add_func ("/komi/protocol/orientations/random", test_orientations_random);
  g_test_add_func ("/komi/protocol/orientations/ko", test_orientations_ko);
  g_test_add_func ("/komi/protocol/no-legal-point", test_no_legal_point);
  g_test_add_func ("/komi/protocol/answers", test_answers);
  g_test_add_func ("/komi/protocol/wide-board", test_wide_board);
  g_test_add_func ("/komi/protocol/json-string", test_json_string);
  g_test_add_func ("/komi/protocol/cli/request", test_cli_request);
  g_test_add_func ("/komi/protocol/cli/errors", test_cli_request_errors);

  return g_test_run ();
}
