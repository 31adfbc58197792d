/* test-review.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gstdio.h>

#include "komi-coords.h"
#include "komi-export.h"
#include "komi-game.h"
#include "komi-player-spec.h"
#include "komi-review.h"
#include "komi-store-test-review.h"

/* Engine review: the answers of both engines read, the analysis kept in
 * the library, and real GNU Go finding a known blunder, in the blunder
 * game of komi-store-test-review.h. */

#define BLUNDER_TURN 27
#define CAPTURE_TURN 28
#define QUIET_TURN   29

typedef struct
{
  char       *dir;
  char       *path;
  KomiStore  *store;
  TestSeries *series;
  gint64      series_id;
  gint64      game_ids[2];
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("komi-review-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = test_db_path (f->dir);
  f->store = komi_store_open (f->path, &error);
  g_assert_no_error (error);
  /* Both games of the pair are the same record: the series path must
   * give both the same analysis. */
  f->series = test_blunder_series (f->store, 2, &f->series_id, f->game_ids);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_clear_pointer (&f->store, komi_store_unref);
  remove_test_dir (f->dir);
  g_clear_pointer (&f->series, test_series_free);
  g_free (f->path);
  g_free (f->dir);
}

G_GNUC_UNUSED static void
test_parse (void)
{
  double lead = 0;
  KomiPoint best = KOMI_NO_POINT, want;

  g_assert_true (komi_analysis_parse_gnugo_score ("B+6.0", &lead));
  g_assert_cmpfloat (lead, ==, 6);
  g_assert_true (komi_analysis_parse_gnugo_score ("W+2.5", &lead));
  g_assert_cmpfloat (lead, ==, -2.5);
  g_assert_true (komi_analysis_parse_gnugo_score ("0", &lead));
  g_assert_cmpfloat (lead, ==, 0);
  g_assert_false (komi_analysis_parse_gnugo_score ("?", &lead));
  g_assert_false (komi_analysis_parse_gnugo_score ("B+", &lead));

  /* As KataGo's docs show it, fields in another order, a field unknown
   * today, and the rootInfo preferred to the best move's line. */
  g_assert_true (komi_analysis_parse_katago (
    "info move E5 visits 80 scoreLead 1.5 order 0 pv E5 D4 futureField x "
    "info order 1 scoreLead -3.25 move D4 visits 12 pv D4\n"
    "rootInfo visits 93 winrate 0.55 scoreLead 1.25\nplay E5", 9, &lead, &best));
  g_assert_cmpfloat (lead, ==, 1.25);
  g_assert_true (komi_point_from_name (9, "E5", &want));
  g_assert_cmpint (best, ==, want);
  /* Without rootInfo (older KataGo), the best move's lead. */
  g_assert_true (komi_analysis_parse_katago (
    "info move C3 visits 2 scoreLead -4 order 1 pv C3 info move pass order 0 scoreLead 2.5 "
    "pv pass\nplay pass", 9, &lead, &best));
  g_assert_cmpfloat (lead, ==, 2.5);
  g_assert_cmpint (best, ==, KOMI_PASS);
  g_assert_true (komi_analysis_parse_katago ("rootInfo scoreLead -30\nplay resign", 9, &lead,
                                             &best));
  g_assert_cmpint (best, ==, KOMI_NO_POINT);
  g_assert_false (komi_analysis_parse_katago ("info move E5 visits 3\nplay E5", 9, &lead,
                                              &best));
  g_assert_false (komi_analysis_parse_katago ("rootInfo scoreLead 1", 9, &lead, &best));
}

static KomiStoreAnalysis *
fake_analysis (Fixture *f, gint64 game_id, double lead)
{
  g_autoptr(KomiStoreGame) game = komi_store_load_game (f->store, game_id, NULL);
  KomiStoreAnalysis *a = komi_store_analysis_new ();

  a->game_id = game_id;
  a->engine = g_strdup ("Fake");
  a->engine_version = g_strdup ("1");
  a->label = g_strdup ("Fake estimate");
  a->settings = g_strdup ("{\"level\":1}");
  for (guint i = 0; i < game->moves->len; i++)
    {
      const KomiMove *m = &g_array_index (game->moves, KomiMove, i);
      KomiStoreAnalysisMove am = { i + 1, m->color, m->point, lead, i == 2 ? NAN : lead - i,
                                   i, i % 2 ? KOMI_PASS : KOMI_NO_POINT };

      g_array_append_val (a->moves, am);
    }
  return a;
}

/* An analysis is kept per game, read back as written (unknown leads as
 * NAN, no best move as KOMI_NO_POINT), replaced by the next, and refused
 * when its moves are not the game's. */
G_GNUC_UNUSED static void
test_store (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStoreAnalysis) first = fake_analysis (f, f->game_ids[0], 1);
  g_autoptr(KomiStoreAnalysis) second = fake_analysis (f, f->game_ids[0], 5);
  g_autoptr(KomiStoreAnalysis) read = NULL;
  g_autoptr(KomiStoreAnalysis) wrong = fake_analysis (f, f->game_ids[0], 1);
  g_autoptr(KomiStore) reader = NULL;

  read = komi_store_load_analysis (f->store, f->game_ids[0], &error);
  g_assert_no_error (error);
  g_assert_null (read);

  g_assert_true (komi_store_put_analysis (f->store, first, &error));
  g_assert_no_error (error);
  g_assert_true (komi_store_put_analysis (f->store, second, &error));
  g_assert_no_error (error);
  reader = komi_store_open_reader (f->path, &error);
  g_assert_no_error (error);
  read = komi_store_load_analysis (reader, f->game_ids[0], &error);
  g_assert_no_error (error);
  g_assert_nonnull (read);
  g_assert_cmpstr (read->engine, ==, "Fake");
  g_assert_cmpstr (read->label, ==, "Fake estimate");
  g_assert_cmpstr (read->settings, ==, "{\"level\":1}");
  g_assert_nonnull (read->created);
  g_assert_cmpuint (read->moves->len, ==, second->moves->len);
  for (guint i = 0; i < read->moves->len; i++)
    {
      const KomiStoreAnalysisMove *a = &g_array_index (read->moves, KomiStoreAnalysisMove, i);
      const KomiStoreAnalysisMove *b = &g_array_index (second->moves, KomiStoreAnalysisMove, i);

      g_assert_cmpuint (a->turn, ==, b->turn);
      g_assert_cmpint (a->point, ==, b->point);
      g_assert_cmpint (a->best, ==, b->best);
      g_assert_cmpfloat (a->lead_before, ==, 5);
      if (i == 2)
        g_assert_true (isnan (a->lead_after));
      else
        g_assert_cmpfloat (a->lead_after, ==, b->lead_after);
      g_assert_cmpint (komi_store_analysis_classify (read, a), ==,
                       i >= 6 ? KOMI_MOVE_CLASS_BLUNDER
                       : i >= 3 ? KOMI_MOVE_CLASS_MISTAKE : KOMI_MOVE_CLASS_GOOD);
    }

  /* Another point at a turn: not this game's moves. */
  g_array_index (wrong->moves, KomiStoreAnalysisMove, 4).point = 0;
  g_assert_false (komi_store_put_analysis (f->store, wrong, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_clear_error (&error);
  g_array_set_size (wrong->moves, 3);
  g_assert_false (komi_store_put_analysis (f->store, wrong, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
}

static const KomiStoreAnalysisMove *
move_at (const KomiStoreAnalysis *a, guint turn)
{
  return &g_array_index (a->moves, KomiStoreAnalysisMove, turn - 1);
}

static void
on_progress (gint64 game_id, guint done, guint total, gpointer user_data)
{
  guint *calls = user_data;

  g_assert_cmpuint (done, <=, total);
  g_atomic_int_inc (calls);
}

/* A real engine (@data: its spec), as komi-cli analyse runs it, on both
 * games at once: GNU Go here, KataGo in test-review-katago. GNU Go plays
 * the positions out at level 0: the moves checked below get the same
 * numbers at levels 0, 1 and 5 (the default of komi-cli analyse and the
 * window), in a quarter of level 5's time. KataGo searches 25 visits a
 * position: the blunder loses 8 points with D5 best, as at 64 and 100. */
/* GNU Go reads the annotated SGF (BM, SBKS, comments) to the position the
 * library's moves give: the same stones of each colour, no more. */
static void
assert_gnugo_reads (const char *sgf, const KomiStoreGame *game)
{
  const char *gnugo = g_getenv ("KOMI_GNUGO") ? g_getenv ("KOMI_GNUGO") : "/usr/games/gnugo";
  g_autofree char *dir = g_dir_make_tmp ("komi-review-sgf-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "annotated.sgf", NULL);
  g_autofree char *input = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GSubprocess) gtp = NULL;
  g_autoptr(KomiGame) play = komi_game_new (game->size, 0);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const KomiColor colours[2] = { KOMI_BLACK, KOMI_WHITE };

  g_assert_true (g_file_set_contents (file, sgf, -1, &error));
  for (guint i = 0; i < game->moves->len; i++)
    g_assert_true (komi_game_play (play, g_array_index (game->moves, KomiMove, i).point, NULL));
  input = g_strdup_printf ("loadsgf %s\nlist_stones black\nlist_stones white\nquit\n", file);
  gtp = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                          &error, gnugo, "--mode", "gtp", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (gtp, input, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  /* Answers: loadsgf, then each list_stones, each "= …" and a blank line. */
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, 6);
  g_assert_true (g_str_has_prefix (lines[0], "= "));
  for (guint c = 0; c < 2; c++)
    {
      const char *answer = lines[2 + 2 * c];
      g_auto(GStrv) names = NULL;
      guint want = 0;

      g_assert_true (g_str_has_prefix (answer, "="));
      names = g_strsplit_set (answer + 1, " ", -1);
      for (KomiPoint p = 0; p < (KomiPoint) (game->size * game->size); p++)
        if (komi_board_get (komi_game_get_board (play), p) == colours[c])
          {
            char name[KOMI_NAME_LEN + 1];

            want++;
            g_assert_true (g_strv_contains ((const char *const *) names,
                                            komi_point_to_name (game->size, p, name)));
          }
      {
        guint got = 0;

        for (guint i = 0; names[i] != NULL; i++)
          got += names[i][0] != '\0';
        g_assert_cmpuint (got, ==, want);
      }
    }
  g_remove (file);
  g_rmdir (dir);
}

static void
test_engine_blunder (Fixture *f, gconstpointer data)
{
  const char *spec = data;
  gboolean katago = g_str_has_prefix (spec, "katago");
  KomiPlayerOptions opts = { .start_timeout_ms = 120000, .timeout_ms = 120000 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiGtpRecipe) recipe = komi_gtp_recipe_new_from_spec (spec, &opts, &error);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(KomiStoreAnalysis) a = NULL;
  g_autoptr(KomiStoreAnalysis) b = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autofree char *sgf = NULL;
  KomiReviewOptions options = { recipe, 0, 0, 2 };
  const KomiStoreAnalysisMove *blunder, *capture, *quiet;
  char name[KOMI_NAME_LEN + 1];
  guint progress_calls = 0;
  gint64 started = g_get_monotonic_time ();

  g_assert_no_error (error);
  g_array_append_vals (ids, f->game_ids, 2);
  g_assert_true (komi_review_analyse_games (f->store, ids, &options, on_progress,
                                            &progress_calls, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("two games of %u moves analysed on two threads in %.1f s",
                  (guint) TEST_BLUNDER_TURNS,
                  (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC);
  /* One call per position, the final one included. */
  g_assert_cmpuint (progress_calls, ==, 2 * (TEST_BLUNDER_TURNS + 1));

  a = komi_store_load_analysis (f->store, f->game_ids[0], &error);
  g_assert_no_error (error);
  b = komi_store_load_analysis (f->store, f->game_ids[1], &error);
  g_assert_no_error (error);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpstr (a->engine, ==, katago ? "KataGo" : "GNU Go");
  g_assert_cmpstr (a->label, ==, katago ? "KataGo" : "GNU Go estimate");
  g_assert_cmpfloat (a->mistake, ==, KOMI_REVIEW_DEFAULT_MISTAKE);
  g_assert_cmpfloat (a->blunder, ==, KOMI_REVIEW_DEFAULT_BLUNDER);
  g_assert_nonnull (strstr (a->settings, katago ? "kata-" : "\"level\":0"));
  g_assert_cmpuint (a->moves->len, ==, TEST_BLUNDER_TURNS);

  for (guint turn = 1; turn <= a->moves->len; turn++)
    {
      const KomiStoreAnalysisMove *m = move_at (a, turn);

      /* GNU Go's play-outs and KataGo's search are seeded: the same
       * game, the same numbers. */
      g_assert_cmpfloat (m->loss, ==, move_at (b, turn)->loss);
      g_assert_cmpint (m->best, ==, move_at (b, turn)->best);
      g_assert_true (isfinite (m->lead_before) && isfinite (m->lead_after));
      g_assert_cmpfloat (m->loss, >=, 0);
      /* One position, two views: after this move is before the next. */
      if (turn < a->moves->len)
        g_assert_cmpfloat (m->lead_after, ==, -move_at (a, turn + 1)->lead_before);
    }

  blunder = move_at (a, BLUNDER_TURN);
  g_test_message ("move %u (B B5): lead %+.1f before, %+.1f after, lost %.1f, best %s",
                  BLUNDER_TURN, blunder->lead_before, blunder->lead_after, blunder->loss,
                  komi_point_to_name (9, blunder->best, name));
  g_assert_cmpint (komi_store_analysis_classify (a, blunder), ==, KOMI_MOVE_CLASS_BLUNDER);
  g_assert_cmpstr (komi_point_to_name (9, blunder->best, name), ==, "D5");

  capture = move_at (a, CAPTURE_TURN);
  g_assert_cmpint (komi_store_analysis_classify (a, capture), ==, KOMI_MOVE_CLASS_GOOD);
  g_assert_cmpstr (komi_point_to_name (9, capture->best, name), ==, "D5");
  quiet = move_at (a, QUIET_TURN);
  g_test_message ("move %u (B A5): lost %.1f, best %s", QUIET_TURN, quiet->loss,
                  komi_point_to_name (9, quiet->best, name));
  g_assert_cmpint (komi_store_analysis_classify (a, quiet), ==, KOMI_MOVE_CLASS_GOOD);

  /* The export carries it. */
  game = komi_store_load_game (f->store, f->game_ids[0], &error);
  g_assert_no_error (error);
  sgf = komi_export_game_sgf_with_analysis (game, a, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (sgf, ";B[be]BM[2]SBKS["));
  g_assert_nonnull (strstr (sgf, "C[Blunder: lost "));
  g_assert_nonnull (strstr (sgf, katago ? " points, best was D5 (KataGo)]"
                                        : " points, best was D5 (GNU Go estimate)]"));
  g_assert_nonnull (strstr (sgf, ";W[de]SBKS["));
  assert_gnugo_reads (sgf, game);
}

static void
cancel_at_five (gint64 game_id, guint done, guint total, gpointer user_data)
{
  if (done == 5)
    g_cancellable_cancel (user_data);
}

/* Cancelling stops every thread's engine mid-game; nothing half-done is
 * stored and the error is the cancellation. */
G_GNUC_UNUSED static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiGtpRecipe) recipe = komi_gtp_recipe_new_from_spec ("gnugo:0", NULL, &error);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(KomiStoreAnalysis) a = NULL;
  KomiReviewOptions options = { recipe, 0, 0, 2 };

  g_assert_no_error (error);
  g_array_append_vals (ids, f->game_ids, 2);
  g_assert_false (komi_review_analyse_games (f->store, ids, &options, cancel_at_five,
                                             cancellable, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  for (guint i = 0; i < 2; i++)
    {
      g_clear_error (&error);
      a = komi_store_load_analysis (f->store, f->game_ids[i], &error);
      g_assert_no_error (error);
      g_assert_null (a);
    }
}

int
main (int argc, char *argv[])
{
#ifdef KOMI_TEST_KATAGO
  /* KataGo is not packaged for Debian 12: as test-katago, this runs when
   * KOMI_KATAGO (with _MODEL and _CONFIG) names one, and is counted as
   * skipped (exit status 77) otherwise. */
  if (g_getenv ("KOMI_KATAGO") == NULL)
    {
      g_printerr ("KOMI_KATAGO is not set: the KataGo review test is skipped\n");
      return 77;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/komi/review/katago-blunder", Fixture, "katago:25", fixture_set_up,
              test_engine_blunder, fixture_tear_down);
#else
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/review/parse", test_parse);
  g_test_add ("/komi/review/store", Fixture, NULL, fixture_set_up, test_store,
              fixture_tear_down);
  g_test_add ("/komi/review/gnugo-blunder", Fixture, "gnugo:0", fixture_set_up,
              test_engine_blunder, fixture_tear_down);
  g_test_add ("/komi/review/cancel", Fixture, NULL, fixture_set_up, test_cancel,
              fixture_tear_down);
#endif
  return g_test_run ();
}
