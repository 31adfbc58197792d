/* test-app-window.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "komi-app-test-util.h"
#include "komi-application.h"
#include "komi-ladder-page.h"
#include "komi-ladder.h"
#include "komi-players-page.h"
#include "komi-provider-dialog.h"
#include "komi-series-page.h"
#include "komi-settings.h"
#include "komi-store-sink.h"
#include "komi-store-test-util.h"
#include "komi-window.h"

/* The main window, built from its template and presented, over a real
 * library (SQLite, written through the store as the series runner writes
 * it): series with progress and results, a game stepped through on the
 * board, players, the ladder and ratings; and the states a user meets
 * first: no library yet, a file that is not a library; and a second
 * library opened, which the window and its pages then listen to alone. */

#define N_PAIRS 2

typedef struct
{
  char *dir;
  char *path;
} WindowFixture;

/* Three series: "gtp:subject" against "random" (finished, @N_PAIRS pairs),
 * one not started, and one against "gtp:stranger", a player the ladder
 * lacks; and a ladder of "random" and "gnugo:1" frozen beside the
 * library. The subject is not on the ladder, so its games rate it. */
static void
make_library (const char *dir, const char *path)
{
  g_autoptr(KomiStore) store = test_open_store (path);
  g_autoptr(TestSeries) pending = test_series_new ("Series not started", 12, 3);
  g_autoptr(KomiResultList) calibration = komi_result_list_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(KomiLadder) ladder = NULL;
  g_autofree char *ladder_path = g_build_filename (dir, "ladder-protocol-1.json", NULL);
  g_autoptr(GError) error = NULL;
  gint64 id;

  test_add_series (store, "Finished series", 11, "gtp:subject", "random", N_PAIRS, FALSE);
  g_assert_true (komi_store_begin_series (store, &pending->series, pending->plan, &id, &error));
  g_assert_no_error (error);
  test_add_series (store, "Against a stranger", 13, "gtp:subject", "gtp:stranger", 1, FALSE);

  komi_result_list_simulate (calibration, 1, "random", 0, "gnugo:1", 400, 60, FALSE, rand);
  ladder = komi_ladder_calibrate (komi_result_list_index (calibration, 0),
                                  calibration->results->len, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_true (komi_ladder_save (ladder, ladder_path, &error));
  g_assert_no_error (error);
}

static void
window_fixture_set_up (WindowFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("komi-app-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "library.db", NULL);
}

static void
window_fixture_tear_down (WindowFixture *f, gconstpointer data)
{
  remove_test_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static gboolean
library_settled (gpointer library)
{
  return komi_library_get_state (library) != KOMI_LIBRARY_STATE_LOADING;
}

static gboolean
replay_at_end (gpointer page)
{
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (page, &step);

  return replay != NULL && step + 1 == replay->n_steps;
}

static KomiWindow *
open_window (const char *path)
{
  g_autoptr(KomiLibrary) library = komi_library_new (path);
  KomiWindow *window = komi_window_new (NULL, library);

  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (library_settled, library));
  g_assert_true (app_test_wait (app_test_has_size, window));
  return window;
}

/* The Ladder page draws each rated row of its table on the scale, with the
 * table's numbers in the row's tooltip, and saves it as an image. */
static void
assert_scale_matches_table (KomiWindow *window, KomiLibrary *library)
{
  KomiLadderPage *page = KOMI_LADDER_PAGE (app_test_child (window, KOMI_TYPE_WINDOW,
                                                           "ladder_page"));
  KomiLadderScaleView *view = komi_ladder_page_get_scale_view (page);
  const KomiScale *scale = komi_ladder_scale_view_get_scale (view);
  GListModel *items = komi_library_get_ratings (library);
  g_autofree char *dir = g_dir_make_tmp ("komi-ladder-image-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "ladder.svg", NULL);
  g_autoptr(GError) error = NULL;
  guint rated = 0;

  g_assert_nonnull (scale);
  g_assert_true (app_test_wait (app_test_has_size, view));
  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr(KomiRatingItem) item = g_list_model_get_item (items, i);
      g_autofree char *tip = NULL;
      guint row;

      if (isnan (item->elo))
        continue;
      rated++;
      for (row = 0; row < komi_scale_get_n_marks (scale); row++)
        if (g_str_equal (komi_scale_get_mark (scale, row)->label, item->label))
          break;
      g_assert_cmpuint (row, <, komi_scale_get_n_marks (scale));
      g_assert_cmpint (komi_scale_get_mark (scale, row)->role, ==,
                       item->kind == KOMI_RATING_ITEM_SUBJECT ? KOMI_SCALE_SUBJECT
                       : item->pinned ? KOMI_SCALE_PINNED : KOMI_SCALE_MEMBER);
      tip = komi_ladder_scale_view_tooltip (view, 50, komi_scale_row_y (scale, row));
      g_assert_nonnull (tip);
      g_assert_true (g_str_has_prefix (tip, item->label));
      /* The Elo the table shows, and the interval's ends. */
      g_assert_nonnull (strstr (tip, item->rating));
      if (!item->pinned && isfinite (item->low) && isfinite (item->high))
        {
          g_autofree char *ends = g_strdup_printf ("%.0f to %.0f", item->low, item->high);

          g_assert_nonnull (strstr (tip, ends));
        }
    }
  g_assert_cmpuint (rated, >=, 2);
  g_assert_cmpuint (komi_scale_get_n_marks (scale), ==, rated);
  g_assert_true (komi_ladder_page_save_image (page, svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  g_unlink (svg);
  g_rmdir (dir);
}

static void
test_shows_library (WindowFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(KomiGameRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSeriesItem) series = NULL;
  g_autoptr(KomiSeriesItem) later = NULL;
  g_autoptr(KomiResultItem) results = NULL;
  g_autoptr(KomiPlayerItem) player = NULL;
  g_autoptr(KomiRatingItem) subject = NULL;
  g_autoptr(KomiRatingItem) ladder_top = NULL;
  double previous_elo = INFINITY;
  g_autoptr(KomiGameItem) first = NULL;
  g_autoptr(GSettings) settings = NULL;
  KomiWindow *window;
  KomiLibrary *library;
  KomiSeriesPage *page;
  KomiBoardView *board;
  const KomiBoardScene *scene;
  const KomiReplay *replay;
  guint8 colors[KOMI_MAX_POINTS];
  guint step;
  gint64 third;

  make_library (f->dir, f->path);
  window = open_window (f->path);
  library = komi_window_get_library (window);
  g_assert_cmpint (komi_library_get_state (library), ==, KOMI_LIBRARY_STATE_READY);
  g_assert_cmpstr (komi_window_get_page (window), ==, "series");

  /* Series, their progress and the subject's results per opponent. */
  g_assert_cmpuint (g_list_model_get_n_items (komi_library_get_series (library)), ==, 3);
  series = g_list_model_get_item (komi_library_get_series (library), 0);
  later = g_list_model_get_item (komi_library_get_series (library), 1);
  g_assert_cmpstr (series->series->name, ==, "Finished series");
  g_assert_cmpfloat (komi_series_item_get_fraction (series), ==, 1.0);
  g_assert_cmpfloat (komi_series_item_get_fraction (later), ==, 0.0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (series->games)), ==, 2 * N_PAIRS);
  results = g_list_model_get_item (G_LIST_MODEL (series->results), 0);
  g_assert_cmpstr (results->opponent, ==, "random");
  g_assert_cmpuint (results->wins + results->losses + results->draws + results->voids
                    + results->forfeits, ==, results->games);
  g_assert_cmpuint (results->games, ==, 2 * N_PAIRS);
  g_assert_cmpuint (results->wins_as[0] + results->wins_as[1], ==, results->wins);

  /* The first game, reviewed: its final position with the count's marks,
   * then its start and its first move. */
  page = komi_window_get_series_page (window);
  board = komi_series_page_get_board_view (page);
  g_assert_true (komi_series_page_select (page, 0, 0));
  g_assert_true (app_test_wait (replay_at_end, page));
  first = g_list_model_get_item (G_LIST_MODEL (series->games), 0);
  store = komi_store_open_reader (f->path, &error);
  g_assert_no_error (error);
  game = komi_store_load_game (store, first->game->id, &error);
  g_assert_no_error (error);
  record = komi_store_game_to_record (game, &error);
  g_assert_no_error (error);
  komi_board_get_colors (komi_game_get_board (record->game), colors);
  scene = komi_board_view_get_scene (board);
  g_assert_cmpuint (scene->size, ==, 9);
  g_assert_cmpmem (scene->colors, 81, colors, 81);
  g_assert_cmpmem (scene->territory, 81, game->score.owner, 81);

  gtk_widget_activate_action (GTK_WIDGET (page), "review.first-move", NULL);
  replay = komi_series_page_get_replay (page, &step);
  g_assert_cmpuint (step, ==, 0);
  g_assert_cmpuint (replay->n_steps, ==, game->moves->len + 1);
  for (guint i = 0; i < 81; i++)
    g_assert_cmpint (scene->colors[i], ==, KOMI_EMPTY);
  gtk_widget_activate_action (GTK_WIDGET (page), "review.next-move", NULL);
  replay = komi_series_page_get_replay (page, &step);
  g_assert_cmpuint (step, ==, 1);
  g_assert_cmpint (scene->last_move, ==, g_array_index (game->moves, KomiMove, 0).point);
  g_assert_cmpint (scene->colors[scene->last_move], ==, KOMI_BLACK);
  g_assert_cmpuint (scene->numbers[scene->last_move], ==, 1);
  g_assert_cmpint (scene->territory[scene->last_move], ==, KOMI_EMPTY);   /* not the end */

  /* A reload (as each game of a running series ends) keeps the series and
   * the game the user chose. */
  g_assert_true (komi_series_page_select (page, 0, 2));
  g_assert_true (app_test_wait (replay_at_end, page));
  third = komi_series_page_get_replay (page, NULL)->game->id;
  /* The players' view turns the board as this game was shown to them. */
  gtk_widget_activate_action (GTK_WIDGET (page), "review.players-view", NULL);
  g_assert_cmpint (komi_board_view_get_orientation (board), ==,
                   komi_series_page_get_replay (page, NULL)->game->orientation);
  g_assert_cmpint (komi_board_view_get_orientation (board), !=, KOMI_ORIENTATION_IDENTITY);
  /* The menu turns it through any of the 8; the position stays the real one. */
  gtk_widget_activate_action (GTK_WIDGET (page), "review.orientation", "u",
                              (guint32) KOMI_ORIENTATION_FLIP_HORIZONTAL);
  g_assert_cmpint (komi_board_view_get_orientation (board), ==, KOMI_ORIENTATION_FLIP_HORIZONTAL);
  komi_library_reload (library);
  g_assert_true (app_test_wait (library_settled, library));
  g_assert_true (app_test_wait (replay_at_end, page));
  g_assert_cmpint (komi_series_page_get_replay (page, NULL)->game->id, ==, third);

  /* Players and the ladder, through the window's actions. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "players");
  g_assert_cmpstr (komi_window_get_page (window), ==, "players");
  g_assert_cmpuint (g_list_model_get_n_items (komi_library_get_players (library)), ==, 3);
  player = g_list_model_get_item (komi_library_get_players (library), 0);
  g_assert_cmpstr (player->spec, ==, "gtp:subject");
  g_assert_cmpuint (player->games, ==, 2 * N_PAIRS + 2);
  g_assert_cmpuint (player->series, ==, 2);
  g_assert_cmpstr (player->settings, ==, "{}");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "ladder");
  g_assert_cmpstr (komi_window_get_page (window), ==, "ladder");
  /* By default subjects are rated on the shipped ladder, and the page says
   * which scale it is. */
  g_assert_true (g_str_has_prefix (komi_library_get_ratings_message (library),
                                   "Rated against the Protocol 1 ladder shipped with Komi"));
  /* Its games set apart (not played as the ladder's were): the page says
   * what would rate them, not only why they are not. */
  g_assert_nonnull (strstr (komi_library_get_ratings_message (library), "set apart"));
  g_assert_nonnull (strstr (komi_library_get_ratings_message (library),
                            "To be rated, a game must be played as the ladder's were"));
  /* The library's own calibration when the preferences say so, labelled as
   * its own scale; games against a player off the ladder are left out, and
   * said so. */
  settings = komi_settings_new ();
  g_settings_set_string (settings, "rating-ladder", "library");
  komi_library_reload (library);
  g_assert_true (app_test_wait (library_settled, library));
  g_assert_cmpstr (komi_library_get_ratings_message (library), ==,
                   "Rated against this library’s own calibration: its own scale, not "
                   "comparable with other libraries’ ratings. 2 games against players not on "
                   "the ladder (gtp:stranger) are not rated.");
  g_assert_cmpuint (g_list_model_get_n_items (komi_library_get_ratings (library)), ==, 3);
  /* Ranked by rating, strongest first, members and subjects alike. */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(KomiRatingItem) item = g_list_model_get_item (komi_library_get_ratings (library),
                                                              i);

      if (i > 0)
        g_assert_cmpfloat (item->elo, <=, previous_elo);
      previous_elo = item->elo;
      if (item->kind == KOMI_RATING_ITEM_SUBJECT)
        subject = g_object_ref (item);
      else if (g_str_equal (item->label, "gnugo:1"))
        ladder_top = g_object_ref (item);
    }
  g_assert_nonnull (ladder_top);
  g_assert_cmpint (ladder_top->kind, ==, KOMI_RATING_ITEM_LADDER);
  g_assert_nonnull (subject);
  g_assert_cmpstr (subject->label, ==, "gtp:subject");
  g_assert_cmpuint (subject->games, ==, 2 * N_PAIRS);
  assert_scale_matches_table (window, library);
  g_settings_reset (settings, "rating-ladder");

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
is_label_with (GtkWidget *widget, gpointer text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

static gboolean
file_chooser_shown (gpointer data)
{
  return app_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG) != NULL;
}

typedef struct
{
  KomiSeriesPage *page;
  gint64          game_id;
} GameShown;

static gboolean
game_shown (gpointer data)
{
  GameShown *g = data;
  const KomiReplay *replay = komi_series_page_get_replay (g->page, NULL);

  return replay != NULL && replay->game->id == g->game_id;
}

/* The exports of the main menu are greyed out with nothing to export (a
 * game not begun, a series none of whose games began), as GNOME apps do,
 * instead of a toast; with a game shown they are not, and Export the Game
 * opens the file chooser. */
static void
test_exports_greyed (WindowFixture *f, gconstpointer data)
{
  static const char *exports[] = {
    "Export the _Game as SGF…", "Open the Game in _Sabaki", "Export the Series as S_GF Files…",
    "Export the Series’ _Call Log…",
  };
  g_autoptr(KomiSeriesItem) pending = NULL;
  g_autoptr(KomiGameItem) game = NULL;
  KomiWindow *window;
  KomiSeriesPage *page;
  GameShown shown;

  make_library (f->dir, f->path);
  window = open_window (f->path);
  page = komi_window_get_series_page (window);
  pending = g_list_model_get_item (komi_library_get_series (komi_window_get_library (window)), 1);
  g_assert_cmpstr (pending->series->name, ==, "Series not started");
  game = g_list_model_get_item (G_LIST_MODEL (pending->games), 0);
  g_assert_true (komi_series_page_select (page, 1, 0));
  shown = (GameShown) { page, game->game->id };
  g_assert_true (app_test_wait (game_shown, &shown));
  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    if (app_test_item_sensitive (GTK_WIDGET (window), exports[i]))
      g_error ("%s is not greyed out with nothing to export", exports[i]);

  g_assert_true (komi_series_page_select (page, 0, 0));
  g_assert_true (app_test_wait (replay_at_end, page));
  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    g_assert_true (app_test_item_sensitive (GTK_WIDGET (window), exports[i]));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.export-game", "x", (gint64) 0);
  g_assert_true (app_test_wait (file_chooser_shown, NULL));
  gtk_window_destroy (app_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* @series made a model's against random, one colour each game, begun in
 * @store: its id. */
static gint64
begin_model_series (KomiStore *store, TestSeries *series)
{
  g_autoptr(GError) error = NULL;
  gint64 id;

  g_free (series->series.subject);
  series->series.subject = g_strdup ("model:profile.json");
  for (guint i = 0; i < series->plan->len; i++)
    {
      KomiPlannedGame *g = &g_array_index (series->plan, KomiPlannedGame, i);

      g->black = i % 2 == 0 ? series->series.subject : "random";
      g->white = i % 2 == 0 ? "random" : series->series.subject;
    }
  g_assert_true (komi_store_begin_series (store, &series->series, series->plan, &id, &error));
  g_assert_no_error (error);
  return id;
}

static gboolean
shows_calls (gpointer page)
{
  const KomiReplay *replay = komi_series_page_get_replay (page, NULL);

  return replay != NULL && replay->calls != NULL && replay->calls->len > 0;
}

/* A model's game whose run was killed (kill -9: the game still marked
 * running, a request still "in flight", no process holding the run):
 * read again, nothing says "waiting for the answer…" or "Now deciding",
 * on the series page or in the review window; the call is interrupted. */
static void
test_killed_run_not_waiting (WindowFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("Killed", 31, 1);
  g_autoptr(KomiGameRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  KomiStoreCall asked = { .turn = 1, .question = "best_point", .attempt = 1,
                          .request_url = "http://127.0.0.1:1/v1/chat/completions",
                          .request_body = "{}", .latency_ms = -1, .tokens_input = -1,
                          .tokens_output = -1, .tokens_reasoning = -1, .tokens_cached = -1,
                          .outcome = KOMI_STORE_OUTCOME_IN_FLIGHT, .retry_delay = -1,
                          .cost_usd = -1 };
  KomiReviewWindow *review;
  KomiWindow *window;
  KomiSeriesPage *page;
  GtkLabel *summary;
  gint64 id, game_id, call_id;

  id = begin_model_series (store, series);
  g_assert_true (komi_store_find_game (store, id, 0, &game_id, &error));
  record = test_random_record (test_planned (series, 0));
  g_assert_true (komi_store_start_game (store, game_id, record, &error));
  g_assert_true (komi_store_begin_call (store, game_id, &asked, &call_id, &error));
  g_assert_no_error (error);
  g_clear_pointer (&store, komi_store_unref);

  window = open_window (f->path);
  page = komi_window_get_series_page (window);
  summary = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), KOMI_TYPE_SERIES_PAGE,
                                                      "summary_label"));
  g_assert_true (komi_series_page_select (page, 0, 0));
  g_assert_true (app_test_wait (shows_calls, page));
  g_assert_cmpint (komi_series_page_get_replay (page, NULL)->game->status, ==,
                   KOMI_GAME_STATUS_RUNNING);
  /* The page, which reads a followed game each second, keeps its
   * attempts brief: the same loader as the review's, without the
   * exchange (the review below has it in full). */
  {
    const KomiStoreCall *kept = komi_series_page_get_replay (page, NULL)->calls->pdata[0];

    g_assert_cmpstr (kept->question, ==, "best_point");
    g_assert_null (kept->request_url);
    g_assert_null (kept->request_body);
  }
  if (strstr (gtk_label_get_text (summary), "waiting") != NULL
      || strstr (gtk_label_get_text (summary), "Now deciding") != NULL)
    g_error ("a killed run's call is still awaited: %s", gtk_label_get_text (summary));

  review = app_test_open_review (GTK_WINDOW (window), komi_window_get_library (window), game_id);
  g_assert_cmpuint (komi_review_window_get_review (review)->calls->len, ==, 1);
  g_assert_cmpstr (((KomiStoreCall *)
                    komi_review_window_get_review (review)->calls->pdata[0])->outcome, ==,
                   KOMI_STORE_OUTCOME_INTERRUPTED);
  g_assert_cmpstr (((KomiStoreCall *)
                    komi_review_window_get_review (review)->calls->pdata[0])->request_body, ==,
                   "{}");
  g_assert_cmpstr (((KomiStoreCall *)
                    komi_review_window_get_review (review)->calls->pdata[0])->request_url, ==,
                   asked.request_url);
  if (app_test_find_widget (GTK_WIDGET (review), is_label_with, "waiting") != NULL)
    g_error ("the review window still awaits a killed run's call");
  gtk_window_destroy (GTK_WINDOW (review));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A new user: no library yet. The window says where it looked and how to
 * make one. */
static void
test_missing_library (WindowFixture *f, gconstpointer data)
{
  KomiWindow *window = open_window (f->path);
  KomiLibrary *library = komi_window_get_library (window);

  g_assert_cmpint (komi_library_get_state (library), ==, KOMI_LIBRARY_STATE_MISSING);
  g_assert_nonnull (strstr (komi_library_get_message (library), f->path));
  g_assert_nonnull (strstr (komi_library_get_message (library), "demo series"));
  g_assert_cmpuint (g_list_model_get_n_items (komi_library_get_series (library)), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_damaged_library (WindowFixture *f, gconstpointer data)
{
  KomiWindow *window;
  KomiLibrary *library;

  g_assert_true (g_file_set_contents (f->path, "this is not a database, it is a note\n", -1,
                                      NULL));
  window = open_window (f->path);
  library = komi_window_get_library (window);
  g_assert_cmpint (komi_library_get_state (library), ==, KOMI_LIBRARY_STATE_FAILED);
  g_assert_cmpstr (komi_library_get_message (library), !=, "");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether anything still listens to @library's state. */
static gboolean
state_watched (KomiLibrary *library)
{
  return g_signal_has_handler_pending (library, g_signal_lookup ("notify", G_TYPE_OBJECT),
                                       g_quark_from_static_string ("state"), TRUE);
}

/* Another library opened while the pages show one: the window and every
 * page (series, players, ladder, games) listen to the new one only, so a
 * read of the old one tells them nothing. */
static void
test_second_library (WindowFixture *f, gconstpointer data)
{
  g_autofree char *other_path = g_build_filename (f->dir, "other.db", NULL);
  g_autoptr(KomiLibrary) first = NULL;
  g_autoptr(KomiLibrary) second = komi_library_new (other_path);
  KomiWindow *window;

  make_library (f->dir, f->path);
  window = open_window (f->path);
  first = g_object_ref (komi_window_get_library (window));
  g_assert_cmpint (komi_library_get_state (first), ==, KOMI_LIBRARY_STATE_READY);
  g_assert_true (state_watched (first));
  g_assert_false (state_watched (second));

  komi_window_set_library (window, second);
  komi_library_reload (second);
  g_assert_true (app_test_wait (library_settled, second));
  g_assert_true (komi_window_get_library (window) == second);
  g_assert_true (komi_series_page_get_library (komi_window_get_series_page (window)) == second);
  g_assert_false (state_watched (first));
  g_assert_true (state_watched (second));
  g_assert_cmpint (komi_library_get_state (second), ==, KOMI_LIBRARY_STATE_MISSING);

  /* The old library read again leaves the window on the new one's state. */
  komi_library_reload (first);
  g_assert_true (app_test_wait (library_settled, first));
  g_assert_cmpint (komi_library_get_state (first), ==, KOMI_LIBRARY_STATE_READY);
  g_assert_false (state_watched (first));
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_false (state_watched (second));
}

static gboolean
shows_moves (gpointer data)
{
  gpointer *args = data;
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (args[0], &step);

  return replay != NULL && step == GPOINTER_TO_UINT (args[1]);
}

/* A game still being played (as a series running elsewhere writes it) is
 * followed on the board: moves committed later show up by themselves. */
static void
test_follows_game_in_progress (WindowFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("In progress", 21, 1);
  KomiSeriesSink *sink = komi_store_new_sink (store);
  g_autoptr(GError) error = NULL;
  KomiWindow *window;
  KomiSeriesPage *page;
  const KomiBoardScene *scene;
  gpointer args[2];
  gint64 id;

  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &id, &error));
  g_assert_no_error (error);
  g_assert_null (sink_play_game (sink, test_planned (series, 0), 7));

  window = open_window (f->path);
  page = komi_window_get_series_page (window);
  g_assert_true (komi_series_page_select (page, 0, 0));
  args[0] = page;
  args[1] = GUINT_TO_POINTER (7);
  g_assert_true (app_test_wait (shows_moves, args));

  /* Five more moves are committed; the board follows within seconds. */
  g_assert_null (sink_play_game (sink, test_planned (series, 0), 12));
  args[1] = GUINT_TO_POINTER (12);
  g_assert_true (app_test_wait (shows_moves, args));
  scene = komi_board_view_get_scene (komi_series_page_get_board_view (page));
  if (scene->last_move >= 0)   /* move 12 was not a pass */
    g_assert_cmpint (scene->colors[scene->last_move], ==, KOMI_WHITE);

  gtk_window_destroy (GTK_WINDOW (window));
  komi_store_sink_free (sink);
}

static gboolean
flap_folded (gpointer flap)
{
  return adw_flap_get_folded (flap);
}

/* On a narrow window the list of series folds away over the detail; once
 * brought out, choosing a series puts it away again. */
static void
test_narrow_window_folds_list (WindowFixture *f, gconstpointer data)
{
  KomiWindow *window;
  GtkWidget *page;
  AdwFlap *flap;

  make_library (f->dir, f->path);
  window = open_window (f->path);
  page = GTK_WIDGET (komi_window_get_series_page (window));
  flap = ADW_FLAP (gtk_widget_get_template_child (page, KOMI_TYPE_SERIES_PAGE, "flap"));
  g_assert_false (adw_flap_get_folded (flap));   /* 1200 px: side by side */
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 700);
  g_assert_true (app_test_wait (flap_folded, flap));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <, 800);
  adw_flap_set_reveal_flap (flap, TRUE);
  g_assert_true (komi_series_page_select (komi_window_get_series_page (window), 1, 0));
  g_assert_false (adw_flap_get_reveal_flap (flap));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
replay_at_step (gpointer data)
{
  gpointer *args = data;
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (args[0], &step);

  return replay != NULL && replay->calls != NULL && step == GPOINTER_TO_UINT (args[1]);
}

/* A model's game: stepping to a move shows the calls made for it, each
 * attempt with its time, tokens, outcome and answer. */
static void
test_model_calls (WindowFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("A model", 31, 1);
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                 komi_game_record_free);
  g_autoptr(GError) error = NULL;
  KomiStoreCall refused = { .turn = 1, .question = "best_point", .latency_ms = 812,
                            .tokens_input = 345, .tokens_output = 12, .tokens_reasoning = -1,
                            .outcome = "invalid", .retry_delay = -1 };
  KomiStoreCall answered = refused;
  KomiWindow *window;
  KomiSeriesPage *page;
  GtkLabel *summary;
  gpointer args[2];
  gint64 id, game_id;

  id = begin_model_series (store, series);
  for (guint i = 0; i < series->plan->len; i++)
    g_ptr_array_add (records, test_random_record (test_planned (series, i)));
  g_assert_true (komi_store_add_records (store, id, series->plan, records, &error));
  g_assert_true (komi_store_find_game (store, id, 0, &game_id, &error));
  g_assert_no_error (error);
  answered.latency_ms = 640;
  answered.outcome = "ok";
  answered.answer = "E5";
  answered.model_version = "rehearsal-model-2026";
  g_assert_true (komi_store_add_call (store, game_id, &refused, &error));
  g_assert_true (komi_store_add_call (store, game_id, &answered, &error));
  g_assert_no_error (error);

  window = open_window (f->path);
  page = komi_window_get_series_page (window);
  summary = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), KOMI_TYPE_SERIES_PAGE,
                                                      "summary_label"));
  g_assert_true (komi_series_page_select (page, 0, 0));
  args[0] = page;
  /* The final position first: as many steps as the game had moves. */
  args[1] = GUINT_TO_POINTER (komi_game_get_turns_played (
                                ((KomiGameRecord *) records->pdata[0])->game));
  g_assert_true (app_test_wait (replay_at_step, args));
  g_assert_cmpuint (komi_series_page_get_replay (page, NULL)->calls->len, ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (page), "review.first-move", NULL);
  gtk_widget_activate_action (GTK_WIDGET (page), "review.next-move", NULL);
  g_assert_cmpstr (gtk_label_get_text (summary), ==,
                   "Move 1: 2 model calls\n"
                   "best_point #1: 812 ms, 345 + 12 tokens, invalid\n"
                   "best_point #2: 640 ms, 345 + 12 tokens, answered E5, "
                   "model rehearsal-model-2026");
  gtk_widget_activate_action (GTK_WIDGET (page), "review.next-move", NULL);
  g_assert_cmpstr (gtk_label_get_text (summary), ==, "");   /* none for move 2 */
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GApplication *app;
  char         *path;
  gboolean      seen;
  gboolean      about;       /* presented from app.about */
  gboolean      shortcuts;   /* presented from win.show-help-overlay */
} AppCheck;

static gboolean
find_toplevel (GType type)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type) && gtk_widget_get_visible (l->data))
      return TRUE;
  return FALSE;
}

/* Every accelerator the application sets is listed in its shortcuts
 * window, so the window cannot fall behind the code. */
static void
assert_shortcuts_listed (GtkApplication *app)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/komigo/Komi/gtk/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  g_autoptr(GPtrArray) listed = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (app);

  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *accelerator = NULL;
        g_auto(GStrv) parts = NULL;

        g_object_get (l->data, "accelerator", &accelerator, NULL);
        parts = g_strsplit (accelerator != NULL ? accelerator : "", " ", -1);
        for (guint i = 0; parts[i] != NULL; i++)
          g_ptr_array_add (listed, g_strdup (parts[i]));
      }
  g_assert_cmpuint (g_strv_length (actions), >, 10);
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        if (!g_ptr_array_find_with_equal_func (listed, accels[j], g_str_equal, NULL))
          g_error ("%s (%s) is not in the shortcuts window", accels[j], actions[i]);
    }
}

static gboolean
check_app_window (gpointer data)
{
  AppCheck *check = data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (check->app));

  if (windows == NULL)
    return G_SOURCE_CONTINUE;
  check->seen = KOMI_IS_WINDOW (windows->data)
                && g_strcmp0 (komi_library_get_path (komi_window_get_library (windows->data)),
                              check->path) == 0
                && gtk_widget_get_visible (windows->data);
  /* The About and Shortcuts windows open from their actions. */
  g_action_group_activate_action (G_ACTION_GROUP (check->app), "about", NULL);
  gtk_widget_activate_action (windows->data, "win.show-help-overlay", NULL);
  check->about = find_toplevel (ADW_TYPE_ABOUT_WINDOW);
  check->shortcuts = find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);
  g_application_quit (check->app);
  return G_SOURCE_REMOVE;
}

/* `komi --db PATH` opens a window on that library, with the shortcuts. */
static void
test_application_db_option (WindowFixture *f, gconstpointer data)
{
  g_autoptr(KomiApplication) app = komi_application_new ();
  char *argv[] = { "komi", "--db", f->path, NULL };
  g_auto(GStrv) accels = NULL;
  AppCheck check = { G_APPLICATION (app), f->path, FALSE };

  make_library (f->dir, f->path);
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app))
                           | G_APPLICATION_NON_UNIQUE);
  g_timeout_add (200, check_app_window, &check);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 3, argv), ==, 0);
  g_assert_true (check.seen);
  g_assert_true (check.about);
  g_assert_true (check.shortcuts);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "review.next-move");
  g_assert_cmpstr (accels[0], ==, "<Alt>Right");
  assert_shortcuts_listed (GTK_APPLICATION (app));
}

static gboolean
window_gone (gpointer weak)
{
  return *(gpointer *) weak == NULL;
}

/* Closing the window keeps its size in the settings; the next window
 * opens at that size. */
static void
test_window_remembers_size (WindowFixture *f, gconstpointer data)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  KomiWindow *window;
  gpointer weak;
  int width, height;

  g_assert_nonnull (settings);
  make_library (f->dir, f->path);
  window = open_window (f->path);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1200);   /* the schema's default */
  g_assert_cmpint (height, ==, 700);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 610);
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (app_test_wait (window_gone, &weak));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 610);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  window = open_window (f->path);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 610);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <, 1000);   /* not 1200 */
  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

/* The Series page's flap in a new window of @width px, its list folded. */
static KomiWindow *
open_folded (WindowFixture *f, int width, AdwFlap **flap)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  KomiWindow *window;

  g_settings_set_int (settings, "window-width", width);
  window = open_window (f->path);
  komi_window_show_page (window, "series");
  *flap = ADW_FLAP (app_test_child (komi_window_get_series_page (window), KOMI_TYPE_SERIES_PAGE,
                                    "flap"));
  g_assert_true (app_test_wait (flap_folded, *flap));
  return window;
}

/* On a window too narrow for the list of series beside the Series page,
 * the list is shown over it or not as the user left it, after a restart
 * too (it was hidden whatever it had been). */
static void
test_window_remembers_list (WindowFixture *f, gconstpointer data)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  KomiWindow *window;
  AdwFlap *flap;
  gpointer weak;

  g_assert_nonnull (settings);
  make_library (f->dir, f->path);
  window = open_folded (f, 640, &flap);
  g_assert_false (adw_flap_get_reveal_flap (flap));
  /* Shown by its toggle, as the user does. */
  adw_flap_set_reveal_flap (flap, TRUE);
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (app_test_wait (window_gone, &weak));
  g_assert_true (g_settings_get_boolean (settings, "series-list-shown"));

  window = open_folded (f, 640, &flap);
  g_assert_true (adw_flap_get_reveal_flap (flap));
  /* Hidden again: so it stays. */
  adw_flap_set_reveal_flap (flap, FALSE);
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (app_test_wait (window_gone, &weak));
  g_assert_false (g_settings_get_boolean (settings, "series-list-shown"));
  window = open_folded (f, 640, &flap);
  g_assert_false (adw_flap_get_reveal_flap (flap));
  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "series-list-shown");
}

/* A model player's row on the Players page opens its provider profile
 * for editing; an engine's opens nothing. */
static void
test_players_edit_profile (WindowFixture *f, gconstpointer data)
{
  g_autofree char *profile = g_build_filename (f->dir, "profile.json", NULL);
  g_autofree char *spec = g_strconcat ("model:", profile, NULL);
  KomiWindow *window;
  GListModel *players;
  GtkWidget *page, *view;
  g_autoptr(GList) toplevels = NULL;
  KomiProviderDialog *dialog = NULL;

  g_assert_true (g_file_set_contents (profile, "{\"name\": \"Mini\", \"api\": "
                                      "\"openai-chat\", \"model\": \"gpt-mini\"}", -1, NULL));
  {
    g_autoptr(KomiStore) store = test_open_store (f->path);

    test_add_series (store, "A model's series", 21, "gtp:subject", spec, 1, FALSE);
  }
  window = open_window (f->path);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "players");
  page = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), KOMI_TYPE_WINDOW,
                                                    "players_page"));
  view = GTK_WIDGET (komi_list_page_get_view (KOMI_LIST_PAGE (page)));
  players = komi_library_get_players (komi_window_get_library (window));
  /* Every row, as a double-click would: the model's and random's. */
  g_assert_cmpuint (g_list_model_get_n_items (players), >=, 2);
  for (guint i = 0; i < g_list_model_get_n_items (players); i++)
    g_signal_emit_by_name (view, "activate", i);

  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (KOMI_IS_PROVIDER_DIALOG (l->data))
      {
        g_assert_null (dialog);   /* one: the engine's row opened none */
        dialog = l->data;
      }
  g_assert_nonnull (dialog);
  g_assert_cmpstr (komi_provider_dialog_get_edit_path (dialog), ==, profile);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (gtk_widget_get_template_child (
                     GTK_WIDGET (dialog), KOMI_TYPE_PROVIDER_DIALOG, "model_row"))), ==,
                   "gpt-mini");
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/window/shows-library", WindowFixture, NULL,
              window_fixture_set_up, test_shows_library, window_fixture_tear_down);
  g_test_add ("/komi/app/window/exports-greyed", WindowFixture, NULL,
              window_fixture_set_up, test_exports_greyed, window_fixture_tear_down);
  g_test_add ("/komi/app/window/killed-run-not-waiting", WindowFixture, NULL,
              window_fixture_set_up, test_killed_run_not_waiting, window_fixture_tear_down);
  g_test_add ("/komi/app/window/missing-library", WindowFixture, NULL,
              window_fixture_set_up, test_missing_library, window_fixture_tear_down);
  g_test_add ("/komi/app/window/damaged-library", WindowFixture, NULL,
              window_fixture_set_up, test_damaged_library, window_fixture_tear_down);
  g_test_add ("/komi/app/window/second-library", WindowFixture, NULL,
              window_fixture_set_up, test_second_library, window_fixture_tear_down);
  g_test_add ("/komi/app/window/follows-game-in-progress", WindowFixture, NULL,
              window_fixture_set_up, test_follows_game_in_progress, window_fixture_tear_down);
  g_test_add ("/komi/app/window/narrow-window-folds-list", WindowFixture, NULL,
              window_fixture_set_up, test_narrow_window_folds_list, window_fixture_tear_down);
  g_test_add ("/komi/app/window/model-calls", WindowFixture, NULL,
              window_fixture_set_up, test_model_calls, window_fixture_tear_down);
  g_test_add ("/komi/app/window/players-edit-profile", WindowFixture, NULL,
              window_fixture_set_up, test_players_edit_profile, window_fixture_tear_down);
  g_test_add ("/komi/app/window/remembers-size", WindowFixture, NULL,
              window_fixture_set_up, test_window_remembers_size, window_fixture_tear_down);
  g_test_add ("/komi/app/window/remembers-list", WindowFixture, NULL,
              window_fixture_set_up, test_window_remembers_list, window_fixture_tear_down);
  g_test_add ("/komi/app/application/db-option", WindowFixture, NULL,
              window_fixture_set_up, test_application_db_option, window_fixture_tear_down);
  return g_test_run ();
}
