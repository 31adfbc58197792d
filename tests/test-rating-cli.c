/* test-rating-cli.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "komi-rating.h"

/* Results files and the `ratings` command, which is compiled in from
 * src/cli/komi-cli-ratings.c until komi-cli wires it. */
int komi_cli_ratings (int argc, char **argv);

/* Results files: CSV by column name (quotes, SGF results, orientation
 * names, extra columns) and JSON Lines; errors give the line. */
static void
test_parse (void)
{
  const char *csv =
    "series,protocol,black,white,result,end_reason,subject,orientation,opponent\n"
    "1,1,\"model, large\",random,B+12,two-passes,black,rotate-90,random\n"
    "1,1,random,\"model, large\",W+F,,white,3,random\n"
    "\n"
    "1,1,random,gnugo:1,Void,,,,\n"
    "1,1,gnugo:1,random,0,turn-limit,none,identity,\n";
  const char *jsonl =
    "{\"black\": \"a\", \"white\": \"b\", \"winner\": \"X\", \"subject\": \"white\", "
    "\"orientation\": 7, \"protocol\": 1, \"outcome\": \"finished\"}\n"
    "{\"black\": \"b\", \"white\": \"a\", \"winner\": \"draw\", \"subject\": null}\n";
  g_autoptr(KomiResultList) list = NULL;
  g_autoptr(GError) error = NULL;
  const KomiGameResult *r;

  list = komi_result_list_parse (csv, strlen (csv), "t.csv", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->results->len, ==, 4);
  r = komi_result_list_index (list, 0);
  g_assert_cmpstr (r->black, ==, "model, large");
  g_assert_cmpint (r->winner, ==, KOMI_BLACK);
  g_assert_cmpuint (r->orientation, ==, 1);
  r = komi_result_list_index (list, 1);
  g_assert_cmpint (r->outcome, ==, KOMI_RESULT_FORFEIT);
  g_assert_cmpint (r->winner, ==, KOMI_WHITE);
  g_assert_cmpuint (r->orientation, ==, 3);
  g_assert_cmpint (komi_result_list_index (list, 2)->outcome, ==, KOMI_RESULT_VOID);
  r = komi_result_list_index (list, 3);
  g_assert_cmpint (r->winner, ==, KOMI_EMPTY);
  g_assert_cmpint (r->end_reason, ==, KOMI_END_TURN_LIMIT);
  g_assert_cmpint (r->subject, ==, KOMI_EMPTY);
  g_clear_pointer (&list, komi_result_list_free);

  list = komi_result_list_parse (jsonl, strlen (jsonl), "t.jsonl", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->results->len, ==, 2);
  g_assert_cmpuint (komi_result_list_index (list, 0)->orientation, ==, 7);
  g_assert_cmpstr (komi_game_result_opponent (komi_result_list_index (list, 0)), ==, "a");
  g_clear_pointer (&list, komi_result_list_free);

  list = komi_result_list_parse ("black,white,winner\na,b,black\na,b,purple\n", 40, "x.csv",
                                 &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "x.csv, line 3: winner is 'purple'"));
  g_clear_error (&error);
  list = komi_result_list_parse ("black,white\na,b\n", 16, "y.csv", &error);
  g_assert_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "y.csv, line 1"));
}

/* Output of a file descriptor redirected to a temporary file. */
typedef struct
{
  int   fd;
  int   saved;
  char *path;
} Capture;

static void
capture_begin (Capture *c, int fd)
{
  g_autoptr(GError) error = NULL;

  c->fd = g_file_open_tmp ("komi-rating-XXXXXX", &c->path, &error);
  g_assert_no_error (error);
  c->saved = dup (fd);
  dup2 (c->fd, fd);
}

static char *
capture_end (Capture *c, int fd)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  dup2 (c->saved, fd);
  close (c->saved);
  close (c->fd);
  g_file_get_contents (c->path, &text, NULL, &error);
  g_assert_no_error (error);
  g_unlink (c->path);
  g_free (c->path);
  return text;
}

/* Runs `ratings ARGS…` in this process; returns its stdout, and its
 * stderr in @err. */
static char *
run_cli (int *status, char **err, ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autofree char **argv = NULL;
  g_autofree char *errors = NULL;
  Capture out_capture, err_capture;
  const char *arg;
  char *text;
  va_list ap;

  g_ptr_array_add (args, g_strdup ("ratings"));
  va_start (ap, err);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, g_strdup (arg));
  va_end (ap);
  /* Option parsing rearranges argv: hand it a copy of the pointers. */
  argv = g_memdup2 (args->pdata, (args->len + 1) * sizeof (char *));
  argv[args->len] = NULL;

  fflush (stdout);
  fflush (stderr);
  capture_begin (&out_capture, STDOUT_FILENO);
  capture_begin (&err_capture, STDERR_FILENO);
  *status = komi_cli_ratings (args->len, argv);
  fflush (stdout);
  fflush (stderr);
  text = capture_end (&out_capture, STDOUT_FILENO);
  errors = capture_end (&err_capture, STDERR_FILENO);
  if (err != NULL)
    *err = g_steal_pointer (&errors);
  return text;
}

static const char cli_csv[] =
  "protocol,black,white,winner,outcome,end_reason,subject,orientation\n"
  "1,model-x,random,black,finished,two-passes,black,0\n"
  "1,random,model-x,white,finished,two-passes,white,0\n"
  "1,model-x,random,black,finished,turn-limit,black,1\n"
  "1,random,model-x,black,finished,two-passes,white,1\n"
  "1,model-x,gnugo:1,white,finished,two-passes,black,2\n"
  "1,gnugo:1,model-x,draw,finished,two-passes,white,2\n"
  "1,model-x,gnugo:1,white,forfeit,,black,3\n"
  "1,gnugo:1,model-x,white,finished,two-passes,white,3\n"
  "1,model-x,gnugo:1,,void,,black,4\n";

static const char cli_ladder[] =
  "{\"protocol\": 1, \"pinned\": \"random\", \"date\": \"2026-01-01\", \"games\": 800,"
  " \"members\": [{\"label\": \"random\", \"rating\": 0, \"games\": 400},"
  " {\"label\": \"gnugo:1\", \"rating\": 400, \"se\": 25, \"games\": 400}]}";

static const char cli_expected[] =
  "Ladder (Protocol 1): random pinned at 0; calibrated 2026-01-01 from 800 games\n"
  "  Member        Elo  95% interval      Games\n"
  "  random          0  (pinned)            400\n"
  "  gnugo:1       400  351 to 449          400\n"
  "\n"
  "Ranking, strongest first (a bound placed where it lies):\n"
  "  Rank Subject  Rating                    Games  Fit\n"
  "  1    model-x  260 (-46 to 575)              8  Σz² 0.2 on 1 dof, p 0.653\n"
  "\n"
  "Subject model-x (Protocol 1)\n"
  "  Rating: 260 (95% CI -46 to 575, profile likelihood; SE 144)\n"
  "\n"
  "  Opponent           Elo  Games   Won  Lost Drawn   Score  Turn lim  Forfeited Won by FF  Void\n"
  "  random               0      4     3     1     0   75.0%         1          0         0     0\n"
  "  gnugo:1            400      4     1     2     1   37.5%         0          1         0     1\n"
  "  all                         8     4     3     1   56.2%         1          1         0     1\n"
  "\n"
  "  Fit                Elo  Games  Observed Predicted      z\n"
  "  random               0      4       3.0       3.3  -0.34\n"
  "  gnugo:1            400      4       1.5       1.2  +0.29\n"
  "  Σz² 0.2 on 1 degrees of freedom, p 0.65: consistent with one Elo.\n"
  "\n"
  "  Colour             Elo  Games   Won  Lost Drawn   Score  Turn lim  Forfeited Won by FF  Void\n"
  "  Black                       4     2     2     0   50.0%         1          1         0     1\n"
  "  White                       4     2     1     1   62.5%         0          0         0     0\n"
  "\n"
  "  Orientation        Elo  Games   Won  Lost Drawn   Score  Turn lim  Forfeited Won by FF  Void\n"
  "  identity                    2     2     0     0  100.0%         0          0         0     0\n"
  "  rotate-90                   2     1     1     0   50.0%         1          0         0     0\n"
  "  rotate-180                  2     0     1     1   25.0%         0          0         0     0\n"
  "  rotate-270                  2     1     1     0   50.0%         0          1         0     0\n"
  "  flip-horizontal             0     0     0     0       -         0          0         0     1\n"
  "  flip-vertical               0     0     0     0       -         0          0         0     0\n"
  "  transpose                   0     0     0     0       -         0          0         0     0\n"
  "  anti-transpose              0     0     0     0       -         0          0         0     0\n"
  "\n"
  "  Turn limit: 1 of the 8 rated games (scored as usual).\n"
  "  Forfeits: 1 by the subject (counted as losses), 0 by its opponents (as wins).\n"
  "  Void: 1 (never rated).\n";

/* The command on a small CSV: the expected table, JSON that parses, and
 * a calibrated ladder written to a file. */
static void
test_cli (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-rating-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "results.csv", NULL);
  g_autofree char *ladder = g_build_filename (dir, "ladder.json", NULL);
  g_autofree char *written = g_build_filename (dir, "written.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL, *json = NULL, *calibrated = NULL, *none = NULL, *err = NULL;
  JsonObject *subject;
  int status;

  g_assert_true (g_file_set_contents (csv, cli_csv, -1, NULL));
  g_assert_true (g_file_set_contents (ladder, cli_ladder, -1, NULL));

  text = run_cli (&status, NULL, "--results", csv, "--ladder", ladder, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (text, ==, cli_expected);

  json = run_cli (&status, NULL, "--results", csv, "--ladder", ladder, "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  subject = json_array_get_object_element (json_object_get_array_member (
              json_node_get_object (json_parser_get_root (parser)), "subjects"), 0);
  g_assert_cmpstr (json_object_get_string_member (subject, "subject"), ==, "model-x");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (subject,
                                                                                 "rating"),
                                                  "kind"), ==, "estimate");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (subject,
                                                                              "total"),
                                               "forfeits_lost"), ==, 1);

  /* --ladder fit fits the ladder from games without a subject, and this
   * file has none: the error says what to do. `calibrate` fits every
   * game, which puts model-x on the ladder. */
  none = run_cli (&status, &err, "--results", csv, "--ladder", "fit", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (none, ==, "");
  g_assert_true (g_str_has_prefix (err, "komi-cli ratings: no ladder to rate against: "
                                        "--ladder fit needs"));
  g_clear_pointer (&err, g_free);
  calibrated = run_cli (&status, &err, "calibrate", "--results", csv, "--output", written,
                        NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (calibrated, "random pinned at 0"));
  g_assert_nonnull (strstr (calibrated, "model-x"));
  g_assert_true (g_file_test (written, G_FILE_TEST_EXISTS));
  g_assert_nonnull (strstr (err, "The ladder is written to"));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&calibrated, g_free);
  g_unlink (written);

  /* A calibration that cannot be fitted (random lost every game) writes
   * nothing and does not say it did. */
  g_assert_true (g_file_set_contents (csv,
                                      "protocol,black,white,winner,outcome,end_reason\n"
                                      "1,random,gnugo:1,white,finished,two-passes\n"
                                      "1,gnugo:1,random,black,finished,two-passes\n", -1, NULL));
  calibrated = run_cli (&status, &err, "calibrate", "--results", csv, "--output", written,
                        NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "random"));
  g_assert_null (strstr (err, "written"));
  g_assert_false (g_file_test (written, G_FILE_TEST_EXISTS));

  g_unlink (csv);
  g_unlink (ladder);
  g_unlink (written);
  g_rmdir (dir);
}

/* --with-ladder-uncertainty: refused in words on a ladder file without a
 * covariance; with one (gnugo:1 known to ±25, the pinned random exactly),
 * model-x carries gnugo:1's error in the share its games against gnugo:1
 * hold of its information, computed here by hand, and its interval is
 * wider. */
static void
test_cli_ladder_uncertainty (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-rating-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "results.csv", NULL);
  g_autofree char *ladder = g_build_filename (dir, "ladder.json", NULL);
  g_autofree char *plain = NULL, *wide = NULL, *err = NULL;
  g_autoptr(GString) with_cov = g_string_new (cli_ladder);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) parser_wide = json_parser_new ();
  JsonObject *own, *widened;
  int status;

  g_assert_true (g_file_set_contents (csv, cli_csv, -1, NULL));
  g_assert_true (g_file_set_contents (ladder, cli_ladder, -1, NULL));
  wide = run_cli (&status, &err, "--results", csv, "--ladder", ladder,
                  "--with-ladder-uncertainty", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "no covariance"));
  g_clear_pointer (&wide, g_free);
  g_clear_pointer (&err, g_free);

  g_string_truncate (with_cov, with_cov->len - 1);
  g_string_append (with_cov, ", \"covariance\": [[0, 0], [0, 625]]}");
  g_assert_true (g_file_set_contents (ladder, with_cov->str, -1, NULL));
  plain = run_cli (&status, NULL, "--results", csv, "--ladder", ladder, "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  wide = run_cli (&status, NULL, "--results", csv, "--ladder", ladder, "--json",
                  "--with-ladder-uncertainty", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, plain, -1, NULL));
  g_assert_true (json_parser_load_from_data (parser_wide, wide, -1, NULL));
  own = json_object_get_object_member (json_array_get_object_element (
          json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "subjects"), 0), "rating");
  widened = json_object_get_object_member (json_array_get_object_element (
              json_object_get_array_member (json_node_get_object (
                                              json_parser_get_root (parser_wide)),
                                            "subjects"), 0), "rating");
  g_assert_cmpfloat (json_object_get_double_member (widened, "elo"), ==,
                     json_object_get_double_member (own, "elo"));
  /* By hand: the rating moves with gnugo:1 by w_g / (w_r + w_g), w = n p(1 − p). */
  {
    JsonArray *opponents = json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (
        json_node_get_object (json_parser_get_root (parser)), "subjects"), 0), "opponents");
    double elo = json_object_get_double_member (own, "elo"), w[2] = { 0, 0 };

    for (guint i = 0; i < json_array_get_length (opponents); i++)
      {
        JsonObject *row = json_array_get_object_element (opponents, i);
        gboolean gnugo = g_strcmp0 (json_object_get_string_member (row, "label"), "gnugo:1") == 0;
        double p = 1 / (1 + pow (10, -(elo - (gnugo ? 400 : 0)) / 400));

        w[gnugo] += json_object_get_int_member (row, "games") * p * (1 - p);
      }
    g_assert_cmpfloat (w[0], >, 0);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (widened, "ladder_se"),
                                    25 * w[1] / (w[0] + w[1]), 0.2);
  }
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (widened, "se"),
                                  hypot (json_object_get_double_member (own, "se"),
                                         json_object_get_double_member (widened, "ladder_se")),
                                  0.2);
  g_assert_cmpfloat (json_object_get_double_member (widened, "low"), <,
                     json_object_get_double_member (own, "low"));
  g_assert_cmpfloat (json_object_get_double_member (widened, "high"), >,
                     json_object_get_double_member (own, "high"));
  g_clear_pointer (&wide, g_free);
  wide = run_cli (&status, NULL, "--results", csv, "--ladder", ladder,
                  "--with-ladder-uncertainty", NULL);
  g_assert_nonnull (strstr (wide, "with the ladder's uncertainty"));

  g_unlink (csv);
  g_unlink (ladder);
  g_rmdir (dir);
}

/* Games of another protocol are set apart with the reason, never mixed
 * in; --protocol and --subject
 * choose the pool; bad input names the file and line. */
static void
test_cli_choices (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-rating-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "mixed.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.csv", NULL);
  g_autofree char *ladder = g_build_filename (dir, "ladder.json", NULL);
  g_autofree char *contents = g_strconcat (cli_csv, "2,other,random,black,finished,,black,0\n",
                                           NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_assert_true (g_file_set_contents (csv, contents, -1, NULL));
  g_assert_true (g_file_set_contents (bad, "black,white,winner\na,b,c\n", -1, NULL));
  g_assert_true (g_file_set_contents (ladder, cli_ladder, -1, NULL));

  out = run_cli (&status, &err, "--results", csv, "--ladder", ladder, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "Rating: 260 (95% CI -46 to 575"));
  g_assert_nonnull (strstr (out, "Set apart, not rated: 1 game (the line says why)\n"
                                 "  other against random: 1 game: played under Protocol 2, and "
                                 "the ladder measures Protocol 1 games: a rating never mixes "
                                 "protocols\n"));
  g_assert_nonnull (strstr (out, "Subject other (Protocol 1)\n  Rating: not rated: 1 game "
                                 "was set apart (against random: played under Protocol 2"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, NULL, "--results", csv, "--ladder", ladder, "--protocol", "1", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "Subject model-x"));
  g_assert_null (strstr (out, "other"));
  g_clear_pointer (&out, g_free);

  out = run_cli (&status, &err, "--results", csv, "--ladder", ladder, "--subject", "nobody",
                 "--protocol", "1", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "no game of the subject 'nobody'"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "--results", bad, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "bad.csv, line 2: winner is 'c'"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Without --results the games come from the library. */
  out = run_cli (&status, &err, "--ladder", ladder, "--db", "/nonexistent/library.db", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "/nonexistent/library.db"));

  g_unlink (csv);
  g_unlink (bad);
  g_unlink (ladder);
  g_rmdir (dir);
}

/* Results with @wins and @losses of @subject against @member, colours
 * alternating. */
static void
append_games (GString *csv, const char *subject, const char *member, guint wins, guint losses)
{
  for (guint i = 0; i < wins + losses; i++)
    {
      gboolean black = i % 2 == 0, won = i < wins;

      g_string_append_printf (csv, "1,%s,%s,%s,finished,two-passes,%s,0\n",
                              black ? subject : member, black ? member : subject,
                              won == black ? "black" : "white", black ? "black" : "white");
    }
}

/* The fit: a subject that loses to the weakest rung and beats the
 * strongest is flagged, its rating a summary; one whose results follow
 * one Elo is not; both are ranked by rating. The χ² tail is the
 * textbook's. */
static void
test_fit (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-rating-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "fit.csv", NULL);
  g_autofree char *ladder = g_build_filename (dir, "ladder.json", NULL);
  g_autoptr(GString) games = g_string_new ("protocol,black,white,winner,outcome,end_reason,"
                                           "subject,orientation\n");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *json = NULL;
  JsonArray *subjects;
  JsonObject *fit;
  int status;

  g_assert_cmpfloat (fabs (komi_chi2_survival (3.841459, 1) - 0.05), <, 1e-6);
  g_assert_cmpfloat (fabs (komi_chi2_survival (5.991465, 2) - 0.05), <, 1e-6);
  g_assert_cmpfloat (fabs (komi_chi2_survival (23.209251, 10) - 0.01), <, 1e-6);
  g_assert_cmpfloat (fabs (komi_chi2_survival (0.5, 3) - 0.918891), <, 1e-5);

  append_games (games, "contrarian", "random", 1, 7);
  append_games (games, "contrarian", "gnugo:1", 4, 4);
  append_games (games, "contrarian", "gnugo:5", 7, 1);
  append_games (games, "steady", "random", 7, 1);
  append_games (games, "steady", "gnugo:1", 4, 4);
  append_games (games, "steady", "gnugo:5", 1, 7);
  append_games (games, "strong", "random", 8, 0);
  append_games (games, "strong", "gnugo:5", 5, 3);
  g_assert_true (g_file_set_contents (csv, games->str, -1, NULL));
  g_assert_true (g_file_set_contents (ladder,
    "{\"protocol\": 1, \"pinned\": \"random\", \"date\": \"2026-01-01\", \"games\": 900,"
    " \"members\": [{\"label\": \"random\", \"rating\": 0, \"games\": 300},"
    " {\"label\": \"gnugo:1\", \"rating\": 400, \"se\": 25, \"games\": 300},"
    " {\"label\": \"gnugo:5\", \"rating\": 800, \"se\": 25, \"games\": 300}]}", -1, NULL));

  out = run_cli (&status, NULL, "--results", csv, "--ladder", ladder, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "Subject contrarian (Protocol 1)"));
  g_assert_nonnull (strstr (out, "INCONSISTENT. The results against different members do not "
                                 "fit one Elo; the rating is a summary, not a measurement."));
  /* Only the contrarian is flagged (its ranking line and its fit), and
   * the table says what it did. */
  {
    g_auto(GStrv) parts = g_strsplit (out, "INCONSISTENT", -1);

    g_assert_cmpuint (g_strv_length (parts), ==, 3);
    g_assert_nonnull (strstr (out, "  2    contrarian  400 (198 to 602)             24  Σz² 119.0 "
                                   "on 2 dof, p 1.43e-26  INCONSISTENT\n"));
  }
  g_assert_nonnull (strstr (out, "  random               0      8       1.0"));
  g_assert_nonnull (strstr (out, "consistent with one Elo."));
  g_assert_nonnull (strstr (out, "Ranking, strongest first"));
  g_assert_true (strstr (out, "  1    strong") != NULL);

  json = run_cli (&status, NULL, "--results", csv, "--ladder", ladder, "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  subjects = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                           "subjects");
  g_assert_cmpuint (json_array_get_length (subjects), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (subjects, 0),
                                                  "subject"), ==, "strong");
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *s = json_array_get_object_element (subjects, i);
      const char *name = json_object_get_string_member (s, "subject");

      fit = json_object_get_object_member (s, "fit");
      g_assert_cmpint (json_object_get_int_member (fit, "dof"), ==,
                       g_str_equal (name, "strong") ? 1 : 2);
      g_assert_cmpint (json_object_get_boolean_member (fit, "inconsistent"), ==,
                       g_str_equal (name, "contrarian"));
      if (g_str_equal (name, "contrarian"))
        g_assert_cmpfloat (json_object_get_double_member (fit, "p"), <, 0.001);
      else
        g_assert_cmpfloat (json_object_get_double_member (fit, "p"), >, 0.05);
    }

  /* An interrupted pair leaves the colours unbalanced: the report says by
   * how much White's advantage leans the rating. */
  g_string_assign (games, "protocol,black,white,winner,outcome,end_reason,subject,"
                          "orientation\n");
  append_games (games, "lopsided", "random", 2, 1);
  g_assert_true (g_file_set_contents (csv, games->str, -1, NULL));
  g_clear_pointer (&out, g_free);
  out = run_cli (&status, NULL, "--results", csv, "--ladder", ladder, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "  Colours unbalanced: 2 rated games as Black, 1 as White. The "
                                 "scale leaves White's advantage (+17 Elo at komi 7) to colour "
                                 "balance, so this rating leans by about -5.7 Elo.\n"));

  g_unlink (csv);
  g_unlink (ladder);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/rating/parse", test_parse);
  g_test_add_func ("/komi/rating/cli", test_cli);
  g_test_add_func ("/komi/rating/cli-ladder-uncertainty", test_cli_ladder_uncertainty);
  g_test_add_func ("/komi/rating/cli-choices", test_cli_choices);
  g_test_add_func ("/komi/rating/fit", test_fit);

  return g_test_run ();
}
