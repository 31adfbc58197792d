/* test-export.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "komi-coords.h"
#include "komi-export.h"
#include "komi-import.h"
#include "komi-sgf-record.h"
#include "komi-store-test-util.h"
#include "komi-test-cli.h"
#include "komi-untrusted.h"

/* Exports read back by our SGF reader, by GNU Go and by a JSON parser, and
 * imports of our files and of other tools'. Every test starts from a
 * library with one series of two pairs: game 1 finished with dead stones,
 * game 2 finished, game 3 stopped after five moves, game 4 pending. */

typedef struct
{
  char            *dir;
  char            *path;
  KomiStore       *store;
  TestSeries      *series;
  gint64           series_id;
  KomiGameRecord  *records[2];
} Fixture;

static char *
tmp_path (Fixture *f, const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  KomiSeriesSink *sink;
  KomiGameRecord *r;

  f->dir = g_dir_make_tmp ("komi-export-XXXXXX", &error);
  f->path = test_db_path (f->dir);
  f->store = komi_store_open (f->path, &error);
  g_assert_no_error (error);
  f->series = test_series_new ("export, \"quoted\"", 3, 2);
  g_assert_true (komi_store_begin_series (f->store, &f->series->series, f->series->plan,
                                          &f->series_id, &error));

  /* Game 1: the first two White stones of the final position are judged
   * dead, so MA, TB/TW and the count have something to show. */
  r = f->records[0] = test_random_record (test_planned (f->series, 0));
  for (KomiPoint p = 0; p < 81 && r->dead->len < 2; p++)
    if (komi_board_get (komi_game_get_board (r->game), p) == KOMI_WHITE)
      g_array_append_val (r->dead, p);
  r->referee = g_strdup ("GNU Go 3.8");
  test_record_count (r);
  g_assert_cmpuint (r->score.white_dead, ==, 2);
  r = f->records[1] = test_random_record (test_planned (f->series, 1));
  g_free (r->black_name);
  r->black_name = g_strdup ("Bob, \"the\" Bot 2");
  g_ptr_array_add (records, f->records[0]);
  g_ptr_array_add (records, f->records[1]);
  g_assert_true (komi_store_add_records (f->store, f->series_id, f->series->plan, records,
                                         &error));
  g_assert_no_error (error);

  sink = komi_store_new_sink (f->store);
  g_assert_true (sink->klass->begin_series (sink, &f->series->series, f->series->plan,
                                            &f->series_id, &error));
  g_assert_null (sink_play_game (sink, test_planned (f->series, 2), 5));
  komi_store_sink_free (sink);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  komi_store_unref (f->store);
  test_series_free (f->series);
  komi_game_record_free (f->records[0]);
  komi_game_record_free (f->records[1]);
  remove_test_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

#define TEST(path, func) \
  g_test_add ("/komi/store/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

static gint
compare_points (gconstpointer a, gconstpointer b)
{
  return *(const KomiPoint *) a - *(const KomiPoint *) b;
}

static char *
exported_sgf (Fixture *f, guint number)
{
  g_autofree char *name = g_strdup_printf ("series-%" G_GINT64_FORMAT "-game-%04u-random-vs-"
                                           "random.sgf", f->series_id, number);

  return g_build_filename (f->dir, "sgf", name, NULL);
}

/* SGF */

/* A file name a person reads: a model by its profile's name, a GTP program
 * by its program, not the whole path cut at 32 characters. */
static void
test_sgf_file_name (void)
{
  KomiStoreGame game = {
    .id = 9, .series_id = 3, .plan_index = 6, .status = KOMI_GAME_STATUS_FINISHED,
    .black_spec = (char *) "model:/home/ada/.config/komi/providers/gpt-4o-mini.json",
    .white_spec = (char *) "gnugo:1",
  };
  g_autofree char *name = komi_export_sgf_file_name (&game);
  g_autofree char *gtp = NULL;

  g_assert_cmpstr (name, ==, "series-3-game-0007-gpt-4o-mini-vs-gnugo1.sgf");
  game.black_spec = (char *) "gtp:'/opt/engines/leela-zero/leelaz' --gtp -w net.gz";
  game.white_spec = (char *) "mix:0.25:gnugo:3";
  gtp = komi_export_sgf_file_name (&game);
  g_assert_cmpstr (gtp, ==, "series-3-game-0007-leelaz-vs-mix0-25-gnugo3.sgf");
}

/* The game's name (GN) names a model by the name it played under, never
 * by its profile's path; an engine by its spec, level and all. */
static void
test_sgf_game_name (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-export-gn-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *out = g_build_filename (dir, "sgf", NULL);
  g_autoptr(KomiStore) store = test_open_store (db);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) files = NULL;
  const char *file;
  guint n_files = 0, n_read = 0;

  test_add_series (store, "Names", 5, "model:/home/ada/.config/komi/providers/ada.json",
                   "gnugo:1", 1, FALSE);
  g_assert_true (komi_export_sgf (store, 1, out, &n_files, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_files, ==, 2);
  files = g_dir_open (out, 0, &error);
  g_assert_no_error (error);
  while ((file = g_dir_read_name (files)) != NULL)
    {
      g_autofree char *path = g_build_filename (out, file, NULL);
      g_autoptr(KomiSgfRecord) sgf = komi_sgf_record_load (path, &error);

      g_assert_no_error (error);
      g_test_message ("GN[%s]", sgf->game_name);
      g_assert_null (strstr (sgf->game_name, "/home/ada"));
      g_assert_null (strstr (sgf->game_name, "model:"));
      g_assert_true (strstr (sgf->game_name, "Random 1 vs gnugo:1") != NULL
                     || strstr (sgf->game_name, "gnugo:1 vs Random 1") != NULL);
      n_read++;
    }
  g_assert_cmpuint (n_read, ==, 2);
  remove_test_dir (dir);
}

static void
test_sgf_round_trip (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = tmp_path (f, "sgf");
  g_autofree char *first = exported_sgf (f, 1);
  g_autofree char *third = exported_sgf (f, 3);
  g_autofree char *fourth = exported_sgf (f, 4);
  g_autoptr(KomiSgfRecord) sgf = NULL;
  g_autoptr(KomiSgfRecord) unfinished = NULL;
  g_autoptr(KomiGame) replayed = NULL;
  g_autoptr(GError) error = NULL;
  const KomiGameRecord *want = f->records[0];
  guint n_moves, n_files = 0;
  const KomiMove *moves = komi_game_get_moves (want->game, &n_moves);

  g_assert_true (komi_export_sgf (f->store, f->series_id, dir, &n_files, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_files, ==, 3);      /* the pending game has nothing to show */
  g_assert_false (g_file_test (fourth, G_FILE_TEST_EXISTS));

  sgf = komi_sgf_record_load (first, &error);
  g_assert_no_error (error);
  replayed = komi_sgf_record_replay (sgf, KOMI_PROTOCOL_MAX_TURNS, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sgf->moves->len, ==, n_moves);
  g_assert_cmpmem (sgf->moves->data, n_moves * sizeof (KomiMove), moves,
                   n_moves * sizeof (KomiMove));
  g_assert_cmpstr (sgf->result, ==, want->result);
  g_assert_cmpstr (sgf->black_name, ==, "Random 1");
  g_assert_cmpfloat (sgf->komi, ==, 7);
  g_assert_cmpstr (sgf->event, ==, "export, \"quoted\"");
  g_assert_nonnull (sgf->rules_text);
  /* The rules text says KataGo judges; GNU Go did here, and a note says so. */
  g_assert_nonnull (strstr (sgf->rules_text, "as judged by the KataGo engine"));
  g_assert_nonnull (strstr (sgf->rules_text, "the dead stones were judged by GNU Go 3.8, the "
                                             "series' referee, not by KataGo"));
  g_array_sort (sgf->dead, compare_points);
  g_assert_cmpmem (sgf->dead->data, sgf->dead->len * sizeof (KomiPoint),
                   want->dead->data, want->dead->len * sizeof (KomiPoint));
  g_assert_nonnull (sgf->owner);
  g_assert_cmpmem (sgf->owner, 81, want->score.owner, 81);
  g_assert_nonnull (strstr (sgf->final_comment, "GNU Go 3.8"));

  unfinished = komi_sgf_record_load (third, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (unfinished->moves->len, ==, 5);
  g_assert_null (unfinished->result);
  g_assert_nonnull (strstr (unfinished->final_comment, "Unfinished: play stopped after move 5;"));
}

/* GNU Go reads the file and finds the same stones on the board. */
static void
test_sgf_gnugo (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = tmp_path (f, "sgf");
  g_autofree char *file = exported_sgf (f, 1);
  const char *gnugo = g_getenv ("KOMI_GNUGO") != NULL ? g_getenv ("KOMI_GNUGO") : GNUGO_PATH;
  g_autoptr(GSubprocess) score = NULL;
  g_autoptr(GSubprocess) gtp = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *stones = NULL;
  g_autofree char *input = NULL;
  g_autoptr(GString) want = g_string_new ("= ");
  const KomiBoard *board = komi_game_get_board (f->records[0]->game);

  if (!g_file_test (gnugo, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("GNU Go is not installed (Debian package gnugo)");
      return;
    }
  g_assert_true (komi_export_sgf (f->store, f->series_id, dir, NULL, &error));

  score = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE,
                            &error, gnugo, "--infile", file, "--score", "aftermath",
                            "--chinese-rules", "--level", "1", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (score, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (score));
  g_assert_true (strstr (out, "wins by") != NULL || strstr (out, "jigo") != NULL);

  input = g_strdup_printf ("loadsgf %s\nlist_stones black\nquit\n", file);
  gtp = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                          &error, gnugo, "--mode", "gtp", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (gtp, input, NULL, &stones, NULL, &error);
  g_assert_no_error (error);
  /* loadsgf answers with the colour to move; list_stones in its own order. */
  g_assert_true (g_str_has_prefix (stones, "= "));
  for (KomiPoint p = 0; p < 81; p++)
    if (komi_board_get (board, p) == KOMI_BLACK)
      {
        char name[KOMI_NAME_LEN + 1];
        g_autofree char *needle = g_strdup_printf (" %s", komi_point_to_name (9, p, name));

        g_assert_nonnull (strstr (strchr (stones, '\n'), needle));
      }
}

/* JSON Lines */

static void
test_calls_jsonl (Fixture *f, gconstpointer data)
{
  g_autofree char *path = tmp_path (f, "calls.jsonl");
  g_autofree char *text = NULL;
  g_autoptr(GBytes) binary = g_bytes_new ("\xff\x00\x01", 3);
  g_autoptr(GBytes) body = g_bytes_new_static ("{\"choice\":\"pass\"}", 17);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  KomiStoreCall call = {
    .turn = 3, .question = "play_or_pass", .attempt = 1,
    .request_url = "https://api.example/v1/chat",
    .request_headers = "{\"authorization\":\"[redacted]\"}",
    .request_body = "{\"model\":\"m\"}", .response_status = 200,
    .response_headers = "{\"x-request-id\":\"abc\"}", .response_body = body,
    .latency_ms = 812.5, .tokens_input = 900, .tokens_output = 5, .tokens_reasoning = -1,
    .tokens_cached = 0, .model_version = "m-2026-01-01", .finish_reason = "stop",
    .answer = "pass", .outcome = "answer", .system_fingerprint = "fp_44709d6fcb",
    .response_id = "resp-1", .model_mismatch = TRUE, .logprobs_requested = TRUE,
    .option_probabilities = "{\"pass\":0.875,\"play\":0.125}", .retry_delay = -1,
    .cost_usd = 0.00915,
  };
  gint64 game_id;
  guint n = 99;

  /* Engine games made no call: an empty file, still written. */
  g_assert_true (komi_export_calls (f->store, f->series_id, path, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 0);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "");

  g_assert_true (komi_store_find_game (f->store, f->series_id, 0, &game_id, &error));
  g_assert_true (komi_store_add_call (f->store, game_id, &call, &error));
  call.attempt = 2;
  call.response_body = binary;
  call.outcome = "transport-error";
  call.model_mismatch = FALSE;
  call.option_probabilities = NULL;
  call.retry_delay = 1.5;
  call.cost_usd = 0;
  g_assert_true (komi_store_add_call (f->store, game_id, &call, &error));
  g_assert_no_error (error);
  g_assert_true (komi_export_calls (f->store, KOMI_STORE_ALL_GAMES, path, &n, &error));
  g_assert_cmpuint (n, ==, 2);
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_suffix (text, "}\n"));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *o, *request, *response, *tokens;

      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, &error));
      o = json_node_get_object (json_parser_get_root (parser));
      request = json_object_get_object_member (o, "request");
      response = json_object_get_object_member (o, "response");
      tokens = json_object_get_object_member (o, "tokens");
      g_assert_cmpint (json_object_get_int_member (o, "series_id"), ==, f->series_id);
      g_assert_cmpint (json_object_get_int_member (o, "game_id"), ==, game_id);
      g_assert_cmpint (json_object_get_int_member (o, "turn"), ==, 3);
      g_assert_cmpint (json_object_get_int_member (o, "attempt"), ==, i + 1);
      g_assert_cmpstr (json_object_get_string_member (o, "question"), ==, "play_or_pass");
      g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member
                                                        (request, "headers"),
                                                      "authorization"), ==, "[redacted]");
      g_assert_cmpint (json_object_get_int_member (response, "status"), ==, 200);
      g_assert_true (json_object_get_null_member (tokens, "reasoning"));
      g_assert_cmpint (json_object_get_int_member (tokens, "input"), ==, 900);
      g_assert_cmpstr (json_object_get_string_member (o, "system_fingerprint"), ==,
                       "fp_44709d6fcb");
      g_assert_cmpstr (json_object_get_string_member (o, "response_id"), ==, "resp-1");
      g_assert_true (json_object_get_boolean_member (o, "logprobs_requested"));
      if (i == 0)
        {
          JsonObject *probabilities = json_object_get_object_member (o,
                                                                     "option_probabilities");

          g_assert_cmpstr (json_object_get_string_member (response, "body"), ==,
                           "{\"choice\":\"pass\"}");
          g_assert_cmpstr (json_object_get_string_member (o, "outcome"), ==, "answer");
          g_assert_true (json_object_get_boolean_member (o, "model_mismatch"));
          g_assert_cmpfloat (json_object_get_double_member (probabilities, "pass"), ==, 0.875);
          g_assert_true (json_object_get_null_member (o, "retry_delay"));
          g_assert_cmpfloat (json_object_get_double_member (o, "cost_usd"), ==, 0.00915);
        }
      else
        {
          g_assert_cmpstr (json_object_get_string_member (response, "body_base64"), ==, "/wAB");
          g_assert_cmpstr (json_object_get_string_member (o, "outcome"), ==, "transport-error");
          g_assert_false (json_object_get_boolean_member (o, "model_mismatch"));
          g_assert_true (json_object_get_null_member (o, "option_probabilities"));
          g_assert_cmpfloat (json_object_get_double_member (o, "retry_delay"), ==, 1.5);
          g_assert_cmpfloat (json_object_get_double_member (o, "cost_usd"), ==, 0);
        }
    }
}

/* CSV */

static void
test_results_csv (Fixture *f, gconstpointer data)
{
  g_autofree char *path = tmp_path (f, "results.csv");
  g_autofree char *text = NULL;
  g_autofree char *first = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) rows = NULL;
  guint n = 0;

  KomiStoreCall call = { .turn = 1, .question = "play_or_pass", .outcome = "answer",
                         .tokens_input = 1000, .tokens_output = 10, .tokens_reasoning = -1,
                         .tokens_cached = -1, .retry_delay = -1, .cost_usd = 0.0091 };
  g_autoptr(KomiStoreGame) game = NULL;
  g_autofree char *sgf = NULL;
  gint64 game_id;

  /* The first game made two calls: its row and its SGF carry their sum. */
  g_assert_true (komi_store_find_game (f->store, f->series_id, 0, &game_id, &error));
  g_assert_true (komi_store_add_call (f->store, game_id, &call, &error));
  call.question = "best_point";
  call.cost_usd = 0.0009;
  g_assert_true (komi_store_add_call (f->store, game_id, &call, &error));
  g_assert_no_error (error);
  game = komi_store_load_game (f->store, game_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (game->n_calls, ==, 2);
  g_assert_cmpfloat_with_epsilon (game->cost_usd, 0.01, 1e-12);
  sgf = komi_export_game_sgf (game, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (sgf, "model calls: 2 attempts costing $0.010000 at the profiles' "
                                 "prices"));

  g_assert_true (komi_export_csv (f->store, f->series_id, path, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 4);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  rows = g_strsplit (text, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (rows), ==, 6);     /* header, 4 rows, "" after the last CRLF */
  g_assert_cmpstr (rows[0], ==, "series_id,series,game_id,game,opponent,pair,game_in_pair,"
                   "black,white,black_spec,white_spec,subject,orientation,seed,black_seed,"
                   "white_seed,status,result,winner,margin,end_reason,turns,seconds,referee,"
                   "void_reason,date,source,calls,cost_usd");
  g_assert_cmpstr (rows[5], ==, "");
  first = g_strdup_printf ("%" G_GINT64_FORMAT ",\"export, \"\"quoted\"\"\",", f->series_id);
  g_assert_true (g_str_has_prefix (rows[1], first));
  g_assert_nonnull (strstr (rows[1], f->records[0]->result));
  g_assert_nonnull (strstr (rows[1], ",finished,"));
  g_assert_nonnull (strstr (rows[1], ",GNU Go 3.8,"));
  g_assert_nonnull (strstr (rows[2], ",\"Bob, \"\"the\"\" Bot 2\",Random 1,"));
  g_assert_nonnull (strstr (rows[3], ",running,,,,,5,,"));
  g_assert_nonnull (strstr (rows[4], ",pending,"));
  g_assert_true (g_str_has_suffix (rows[1], ",2,0.010000"));
  for (guint i = 2; i <= 4; i++)
    g_assert_true (g_str_has_suffix (rows[i], ",,"));
}

/* Imports */

static guint
count_imported (Fixture *f)
{
  g_autoptr(GPtrArray) games = komi_store_list_games (f->store, KOMI_STORE_IMPORTED_GAMES, NULL);

  g_assert (games != NULL);
  return games->len;
}

static gint64
import_one (Fixture *f, const char *path, gboolean *duplicate)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GError) error = NULL;

  g_assert_true (komi_import_sgf_file (f->store, path, ids, duplicate, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ids->len, >=, 1);
  return g_array_index (ids, gint64, 0);
}

static void
test_import_ours (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = tmp_path (f, "sgf");
  g_autofree char *file = exported_sgf (f, 1);
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(GPtrArray) imported = NULL;
  g_autoptr(GError) error = NULL;
  const KomiGameRecord *want = f->records[0];
  gboolean duplicate = TRUE;
  guint n_moves;
  const KomiMove *moves = komi_game_get_moves (want->game, &n_moves);

  g_assert_true (komi_export_sgf (f->store, f->series_id, dir, NULL, &error));
  game = komi_store_load_game (f->store, import_one (f, file, &duplicate), &error);
  g_assert_no_error (error);
  g_assert_false (duplicate);
  g_assert_cmpint (game->status, ==, KOMI_GAME_STATUS_IMPORTED);
  g_assert_cmpint (game->series_id, ==, 0);
  g_assert_cmpstr (game->result, ==, want->result);
  g_assert_cmpstr (game->black_name, ==, "Random 1");
  g_assert_true (g_str_has_suffix (game->source, "-game-0001-random-vs-random.sgf"));
  g_assert_cmpuint (game->moves->len, ==, n_moves);
  g_assert_cmpmem (game->moves->data, n_moves * sizeof (KomiMove), moves,
                   n_moves * sizeof (KomiMove));
  g_array_sort (game->dead, compare_points);
  g_assert_cmpmem (game->dead->data, game->dead->len * sizeof (KomiPoint),
                   want->dead->data, want->dead->len * sizeof (KomiPoint));
  g_assert_true (game->has_winner);
  g_assert_cmpint (game->winner, ==, want->score.winner);
  imported = komi_store_list_games (f->store, KOMI_STORE_IMPORTED_GAMES, &error);
  g_assert_cmpuint (imported->len, ==, 1);
}

static void
test_import_fixtures (Fixture *f, gconstpointer data)
{
  static const char * const names[] = { "sabaki.sgf", "gogui.sgf", "kgs.sgf", "cgos.sgf" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf",
                                                names[i], NULL);
      g_autoptr(KomiSgfRecord) want = komi_sgf_record_load (path, NULL);
      g_autoptr(KomiStoreGame) game = NULL;
      g_autoptr(KomiGameRecord) record = NULL;
      g_autoptr(GError) error = NULL;
      gboolean duplicate;

      game = komi_store_load_game (f->store, import_one (f, path, &duplicate), &error);
      g_assert_no_error (error);
      g_assert_cmpstr (game->black_name, ==, want->black_name);
      g_assert_cmpstr (game->white_name, ==, want->white_name);
      g_assert_cmpstr (game->result, ==, want->result);
      g_assert_cmpstr (game->date, ==, want->date);
      g_assert_cmpfloat (game->komi, ==, want->komi);
      g_assert_cmpuint (game->moves->len, ==, want->moves->len);
      g_assert_cmpmem (game->moves->data, game->moves->len * sizeof (KomiMove),
                       want->moves->data, want->moves->len * sizeof (KomiMove));
      record = komi_store_game_to_record (game, &error);
      g_assert_no_error (error);
    }
  /* cgos.sgf holds two games: both are in. */
  g_assert_cmpuint (count_imported (f),
                    ==, 5);
}

static void
test_import_duplicate (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf",
                                            "cgos.sgf", NULL);
  g_autofree char *copy = tmp_path (f, "renamed.sgf");
  g_autofree char *text = NULL;
  gboolean duplicate = TRUE;
  gint64 first, again;

  first = import_one (f, path, &duplicate);
  g_assert_false (duplicate);
  again = import_one (f, path, &duplicate);
  g_assert_true (duplicate);
  g_assert_cmpint (again, ==, first);
  /* The content decides, not the name. */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (copy, text, -1, NULL));
  g_assert_cmpint (import_one (f, copy, &duplicate), ==, first);
  g_assert_true (duplicate);
  g_assert_cmpuint (count_imported (f),
                    ==, 2);
}

static void
test_import_refused (Fixture *f, gconstpointer data)
{
  g_autofree char *broken = tmp_path (f, "broken.sgf");
  g_autofree char *illegal = tmp_path (f, "illegal.sgf");
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (broken, "(;GM[1]SZ[9];B[ee]", -1, NULL));
  g_assert_false (komi_import_sgf_file (f->store, broken, NULL, NULL, &error));
  g_assert_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, broken));
  g_assert_nonnull (strstr (error->message, "broken.sgf: line 1, column 19: "));
  g_clear_error (&error);

  /* E5 is taken when White plays there again at move 2. */
  g_assert_true (g_file_set_contents (illegal, "(;GM[1]FF[4]SZ[9];B[ee];W[ee])", -1, NULL));
  g_assert_false (komi_import_sgf_file (f->store, illegal, NULL, NULL, &error));
  g_assert_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_ILLEGAL_MOVE);
  g_assert_true (g_str_has_prefix (error->message, illegal));
  g_assert_nonnull (strstr (error->message, "move 2"));
  g_assert_cmpuint (count_imported (f),
                    ==, 0);
}

/* komi-cli, as a user runs it */

#define run_cli run_komi_cli

static void
forget (char **out, char **err)
{
  g_clear_pointer (out, g_free);
  g_clear_pointer (err, g_free);
}

static void
test_cli (Fixture *f, gconstpointer data)
{
  g_autofree char *kgs = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf",
                                           "kgs.sgf", NULL);
  g_autofree char *sgf = tmp_path (f, "cli-sgf");
  g_autofree char *csv = tmp_path (f, "cli.csv");
  g_autofree char *calls = tmp_path (f, "cli.jsonl");
  g_autofree char *missing = tmp_path (f, "missing.db");
  g_autofree char *series = g_strdup_printf ("%" G_GINT64_FORMAT, f->series_id);
  char *out = NULL, *err = NULL;

  if (g_getenv ("KOMI_BUILD_DIR") == NULL)
    {
      g_test_skip ("KOMI_BUILD_DIR is not set: run this test with meson test");
      return;
    }
  g_assert_cmpint (run_cli (&out, &err, "import", "--db", f->path, kgs, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "Imported "));
  forget (&out, &err);
  g_assert_cmpint (run_cli (&out, &err, "import", "--db", f->path, kgs, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "Skipped "));
  forget (&out, &err);

  g_assert_cmpint (run_cli (&out, &err, "export", "--db", f->path, "--series", series,
                            "--sgf", sgf, "--csv", csv, "--calls", calls, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Wrote 3 SGF files"));
  g_assert_nonnull (strstr (out, "Wrote 4 games"));
  g_assert_true (g_file_test (calls, G_FILE_TEST_IS_REGULAR));
  forget (&out, &err);
  g_assert_cmpint (run_cli (&out, &err, "export", "--db", f->path, "--sgf", sgf, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Wrote 4 SGF files"));     /* the imported game too */
  forget (&out, &err);

  g_assert_cmpint (run_cli (&out, &err, "export", "--db", f->path, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--sgf DIR"));
  forget (&out, &err);
  g_assert_cmpint (run_cli (&out, &err, "export", "--db", f->path, "--series", "99",
                            "--csv", csv, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "no series 99"));
  g_assert_nonnull (strstr (err, "it holds series 1"));
  forget (&out, &err);
  g_assert_cmpint (run_cli (&out, &err, "export", "--db", missing, "--csv", csv, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "There is no library"));
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  forget (&out, &err);
}

/* The call's JSON line as json-glib 1.6's builder and generator make it:
 * what komi_export_call_to_json() wrote before it wrote its lines itself,
 * kept here as the reference that the faster writer must equal byte for
 * byte. */
static void
oracle_string (JsonBuilder *b, const char *member, const char *text, gssize length)
{
  json_builder_set_member_name (b, member);
  if (text == NULL)
    json_builder_add_null_value (b);
  else
    {
      gsize n = length >= 0 ? (gsize) length : strlen (text);
      g_autofree char *valid = g_utf8_validate_len (text, n, NULL) && memchr (text, 0, n) == NULL
                               ? g_strndup (text, n) : komi_untrusted_valid_utf8 (text, (gssize) n);

      json_builder_add_string_value (b, valid);
    }
}

static void
oracle_json_or_text (JsonBuilder *b, const char *member, const char *text)
{
  g_autoptr(JsonNode) root = komi_untrusted_parse_json (text, -1);

  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    {
      json_builder_set_member_name (b, member);
      json_builder_add_value (b, g_steal_pointer (&root));
    }
  else
    oracle_string (b, member, text, -1);
}

static void
oracle_count (JsonBuilder *b, const char *member, gint64 value)
{
  json_builder_set_member_name (b, member);
  if (value >= 0)
    json_builder_add_int_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
oracle_number (JsonBuilder *b, const char *member, double value)
{
  json_builder_set_member_name (b, member);
  if (value >= 0)
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

static char *
oracle_call_line (const KomiStoreCall *c)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  gsize size = 0;
  const char *data = c->response_body ? g_bytes_get_data (c->response_body, &size) : NULL;

  json_builder_begin_object (b);
  oracle_count (b, "series_id", c->series_id > 0 ? c->series_id : -1);
  oracle_count (b, "game_id", c->game_id);
  oracle_count (b, "turn", c->turn);
  oracle_string (b, "question", c->question, -1);
  oracle_count (b, "attempt", c->attempt);
  oracle_string (b, "started", c->started, -1);
  json_builder_set_member_name (b, "request");
  json_builder_begin_object (b);
  oracle_string (b, "url", c->request_url, -1);
  oracle_json_or_text (b, "headers", c->request_headers);
  oracle_string (b, "body", c->request_body, -1);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "response");
  json_builder_begin_object (b);
  oracle_count (b, "status", c->response_status > 0 ? c->response_status : -1);
  oracle_json_or_text (b, "headers", c->response_headers);
  oracle_string (b, "body", data, (gssize) size);
  if (data != NULL && size > 0 && (!g_utf8_validate_len (data, size, NULL)
                                   || memchr (data, 0, size) != NULL))
    {
      g_autofree char *encoded = g_base64_encode ((const guchar *) data, size);

      oracle_string (b, "body_base64", encoded, -1);
    }
  json_builder_end_object (b);
  oracle_number (b, "latency_ms", c->latency_ms);
  json_builder_set_member_name (b, "tokens");
  json_builder_begin_object (b);
  oracle_count (b, "input", c->tokens_input);
  oracle_count (b, "output", c->tokens_output);
  oracle_count (b, "reasoning", c->tokens_reasoning);
  oracle_count (b, "cached", c->tokens_cached);
  json_builder_end_object (b);
  oracle_string (b, "model_version", c->model_version, -1);
  json_builder_set_member_name (b, "model_mismatch");
  json_builder_add_boolean_value (b, c->model_mismatch);
  oracle_string (b, "system_fingerprint", c->system_fingerprint, -1);
  oracle_string (b, "response_id", c->response_id, -1);
  oracle_string (b, "finish_reason", c->finish_reason, -1);
  oracle_string (b, "answer", c->answer, -1);
  json_builder_set_member_name (b, "logprobs_requested");
  json_builder_add_boolean_value (b, c->logprobs_requested);
  oracle_json_or_text (b, "option_probabilities", c->option_probabilities);
  oracle_string (b, "outcome", c->outcome, -1);
  oracle_string (b, "error", c->error, -1);
  oracle_number (b, "retry_delay", c->retry_delay);
  oracle_number (b, "cost_usd", c->cost_usd);
  json_builder_set_member_name (b, "decided");
  if (c->decided < 0)
    json_builder_add_null_value (b);
  else
    json_builder_add_boolean_value (b, c->decided > 0);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

/* Text of every kind a server or a foreign library may hold: each byte
 * from 0x01 to 0xff (so invalid UTF-8 too), multi-byte characters,
 * quotes and backslashes, JSON objects and what only looks like one. */
static char *
random_text (GRand *rand, gboolean allow_nul)
{
  static const char *const pieces[] = {
    "é", "\u2028", "𝄞", "\"", "\\", "/", "{\"a\":1}", "{\"a\":[1.5,2e3,-0,{}],\"b\":\"\\u00e9\"}",
    "{\"x\":\"\\u001f\\u007f\\n\"}", "{\"content-type\":\"application/json\"}", "[1,2]",
    "{\"deep\":[[[[[[[[1]]]]]]]]}", "{\"dup\":1,\"dup\":2}", "{bad", "\xff\xfe", "\xc3",
    "\xed\xa0\x80", "\xc0\x80", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xe2\x82",
    "\xef\xbf\xbf", "\xf0\x9f\x98", "\xe0\x80\xaf", "\xc2\x80", "\xf4\x8f\xbf\xbf",
    "0123456789abcdef0123456789", "\"0123456\\", "\x7f\x7e\x20\x21",
    "\x1f\x1e\x7f\t\r\n\b\f", "1e400", "{\"big\":123456789012345678901234567890}",
  };
  GString *s = g_string_new (NULL);
  guint n = g_rand_int_range (rand, 0, 12);

  for (guint i = 0; i < n; i++)
    if (g_rand_boolean (rand))
      g_string_append (s, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
    else
      {
        guint8 c = (guint8) g_rand_int_range (rand, allow_nul ? 0 : 1, 256);

        g_string_append_c (s, (char) c);
      }
  return g_string_free (s, FALSE);
}

static double
random_number (GRand *rand)
{
  static const double values[] = { 0, 0.0021, 800, 801.5, 1e-7, 1e20, 0.1 + 0.2, 5e-324,
                                   1e300, 0.41, 2.5e-5, 1234567.0, -1, -0.5, 123456789012.5 };

  return g_rand_boolean (rand) ? values[g_rand_int_range (rand, 0, G_N_ELEMENTS (values))]
                               : g_rand_double_range (rand, -10, 1e6);
}

/* The JSON line writer against json-glib's, on 3,000 calls of random
 * shapes: the same bytes, so that a published calls file or an export is
 * what it was when json-glib wrote it (and parses as JSON). */
static void
test_call_line_as_json_glib (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);

  for (guint i = 0; i < 3000; i++)
    {
      char *texts[12];
      g_autofree char *body = random_text (rand, TRUE);
      g_autoptr(GBytes) bytes = NULL;
      KomiStoreCall c = { 0, };
      g_autofree char *ours = NULL, *theirs = NULL;

      for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
        texts[k] = g_rand_int_range (rand, 0, 6) == 0 ? NULL : random_text (rand, FALSE);
      bytes = g_rand_int_range (rand, 0, 6) == 0 ? NULL
              : g_bytes_new (body, g_rand_boolean (rand) ? strlen (body) : 0);
      c = (KomiStoreCall) {
        .series_id = g_rand_int_range (rand, -1, 3), .game_id = g_rand_int_range (rand, -1, 99),
        .turn = g_rand_int_range (rand, -1, 121), .question = texts[0],
        .attempt = g_rand_int_range (rand, -1, 7), .started = texts[1],
        .request_url = texts[2], .request_headers = texts[3], .request_body = texts[4],
        .response_status = g_rand_int_range (rand, -1, 600), .response_headers = texts[5],
        .response_body = bytes, .latency_ms = random_number (rand),
        .tokens_input = g_rand_int_range (rand, -1, 100000),
        .tokens_output = g_rand_int_range (rand, -1, 99), .tokens_reasoning = -1,
        .tokens_cached = g_rand_int_range (rand, -1, 2), .model_version = texts[6],
        .model_mismatch = g_rand_boolean (rand), .system_fingerprint = texts[7],
        .response_id = texts[8], .finish_reason = texts[9],
        .answer = g_rand_boolean (rand) ? NULL : "E5",
        .logprobs_requested = g_rand_boolean (rand), .option_probabilities = texts[10],
        .outcome = "answer", .error = texts[11], .retry_delay = random_number (rand),
        .cost_usd = random_number (rand), .decided = g_rand_int_range (rand, -1, 2),
      };
      ours = komi_export_call_to_json (&c);
      theirs = oracle_call_line (&c);
      g_assert_cmpstr (ours, ==, theirs);
      for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
        g_free (texts[k]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/store/export/sgf-file-name", test_sgf_file_name);
  g_test_add_func ("/komi/store/export/sgf-game-name", test_sgf_game_name);
  TEST ("export/sgf-round-trip", test_sgf_round_trip);
  TEST ("export/sgf-gnugo", test_sgf_gnugo);
  TEST ("export/calls-jsonl", test_calls_jsonl);
  g_test_add_func ("/komi/store/export/call-line-as-json-glib", test_call_line_as_json_glib);
  TEST ("export/results-csv", test_results_csv);
  TEST ("import/ours", test_import_ours);
  TEST ("import/fixtures", test_import_fixtures);
  TEST ("import/duplicate", test_import_duplicate);
  TEST ("import/refused", test_import_refused);
  TEST ("export/cli", test_cli);
  return g_test_run ();
}
