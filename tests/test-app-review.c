/* test-app-review.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "komi-analysis-panel.h"
#include "komi-app-test-util.h"
#include "komi-sgf-record.h"
#include "komi-import.h"
#include "komi-board.h"
#include "komi-coords.h"
#include "komi-game.h"
#include "komi-rehearsal.h"
#include "komi-review-calls.h"
#include "komi-review-window.h"
#include "komi-store-test-review.h"
#include "komi-store.h"
#include "komi-test-cli.h"
#include "komi-test-model-series.h"
#include "test-app-review.h"
#include "komi-window.h"

/* The review window on a real library: the rehearsal model (in this
 * process, with a 429 and an invalid answer injected) against random,
 * played by `komi-cli run`. Keys step through the game, n and N go from
 * mistake to mistake, the window opens from the series page, and an
 * imported game opens too; the call inspector's tests, on the same
 * library, are in test-app-review-calls.c. */

char *review_dir;
char *review_db;
KomiRehearsal *review_server;
KomiLibrary *review_library;
gint64 review_game_id;

KomiReviewWindow *
review_test_open (gint64 id)
{
  return app_test_open_review (NULL, review_library, id);
}

/* Presses @keys as the window's shortcut controller hears them. */
void
review_test_press (KomiReviewWindow *window, const char *keys)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  g_autoptr(GtkShortcutTrigger) wanted = gtk_shortcut_trigger_parse_string (keys);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c)
          || g_strcmp0 (gtk_event_controller_get_name (GTK_EVENT_CONTROLLER (c)),
                        "komi-review-keys") != 0)
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (c)); j++)
        {
          g_autoptr(GtkShortcut) s = g_list_model_get_item (G_LIST_MODEL (c), j);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (s), wanted))
            {
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (s), 0,
                                                           GTK_WIDGET (window), NULL));
              return;
            }
        }
    }
  g_error ("no shortcut %s", keys);
}

/* A label under @widget whose text starts with @prefix, or NULL. */
static gboolean
label_starts_with (GtkWidget *widget, gpointer prefix)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)),
                                                    prefix);
}

GtkWidget *
review_test_find_label (GtkWidget *widget, const char *prefix)
{
  return app_test_find_widget (widget, label_starts_with, (gpointer) prefix);
}

/* The board shown equals the recorded moves played afresh to @step. */
static void
assert_board_at (KomiReviewWindow *window, guint step)
{
  g_autoptr(KomiStore) store = komi_store_open_reader (review_db, NULL);
  g_autoptr(KomiStoreGame) game = komi_store_load_game (store, review_game_id, NULL);
  g_autoptr(KomiGame) play = komi_game_new (game->size, 0);
  const KomiBoardScene *scene = komi_board_view_get_scene (
    komi_review_window_get_board_view (window));
  guint8 colors[KOMI_MAX_POINTS];

  g_assert_cmpuint (komi_review_window_get_step (window), ==, step);
  for (guint i = 0; i < step; i++)
    g_assert_true (komi_game_play (play, g_array_index (game->moves, KomiMove, i).point, NULL));
  komi_board_get_colors (komi_game_get_board (play), colors);
  g_assert_cmpmem (scene->colors, game->size * game->size, colors, game->size * game->size);
}

static void
test_keyboard (void)
{
  KomiReviewWindow *window = review_test_open (review_game_id);
  guint last = komi_review_window_get_review (window)->replay->n_steps - 1;

  g_assert_cmpuint (last, >, 12);
  review_test_press (window, "Home");
  assert_board_at (window, 0);
  for (guint i = 1; i <= 12; i++)
    {
      review_test_press (window, "Right");
      assert_board_at (window, i);
    }
  review_test_press (window, "Left");
  assert_board_at (window, 11);
  review_test_press (window, "End");
  assert_board_at (window, last);
  /* The end says how the game was counted, or why it was not. */
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (app_test_child (
                                                  window, KOMI_TYPE_REVIEW_WINDOW,
                                                  "status_label"))),
                            komi_review_window_get_review (window)->replay->summary));
  review_test_press (window, "Home");
  assert_board_at (window, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Without an analysis there is no mistake to go to, and the button says
 * why; with one, n goes to the next mistake and N back. */
static gboolean
panel_has_analysis (gpointer panel)
{
  return komi_analysis_panel_get_analysis (panel) != NULL;
}

static void
test_next_mistake (void)
{
  KomiReviewWindow *window = review_test_open (review_game_id);
  GtkWidget *button = app_test_child (window, KOMI_TYPE_REVIEW_WINDOW, "mistake_button");
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(KomiStoreAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (gtk_widget_is_sensitive (button));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Analyse the game first");
  gtk_window_destroy (GTK_WINDOW (window));

  /* An analysis with a mistake at move 5 and a blunder at move 9. */
  store = komi_store_open (review_db, &error);
  g_assert_no_error (error);
  game = komi_store_load_game (store, review_game_id, &error);
  g_assert_no_error (error);
  analysis = test_analysis_new (game, FALSE);
  test_analysis_set_loss (analysis, 5, 4);
  test_analysis_set_loss (analysis, 9, 8);
  g_assert_true (komi_store_put_analysis (store, analysis, &error));
  g_assert_no_error (error);

  window = review_test_open (review_game_id);
  button = app_test_child (window, KOMI_TYPE_REVIEW_WINDOW, "mistake_button");
  g_assert_true (gtk_widget_is_sensitive (button));
  review_test_press (window, "Home");
  review_test_press (window, "n");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 5);
  review_test_press (window, "<Control>Down");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 9);
  review_test_press (window, "<Shift>n");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 5);
  /* Past either end it goes round, and says so. */
  review_test_press (window, "<Shift>n");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 9);
  g_assert_nonnull (review_test_find_label (GTK_WIDGET (window), "Before the first mistake: on to the last"));
  review_test_press (window, "n");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 5);
  review_test_press (window, "Home");
  review_test_press (window, "<Shift>n");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 9);
  review_test_press (window, "End");
  review_test_press (window, "n");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 5);
  review_test_press (window, "n");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 9);
  {
    g_autofree char *row = komi_review_window_dup_move_text (window, 9);

    g_assert_true (g_str_has_suffix (row, "??"));
  }
  /* The engine review page holds the panel over the same game: picking
   * a move there steps the board. */
  {
    GtkWidget *panel = gtk_widget_get_first_child (
      GTK_WIDGET (komi_review_window_get_analysis_slot (window)));

    g_assert_true (KOMI_IS_ANALYSIS_PANEL (panel));
    g_assert_true (app_test_wait (panel_has_analysis, panel));
    g_signal_emit_by_name (panel, "step-activated", 9u);
    g_assert_cmpuint (komi_review_window_get_step (window), ==, 9);
    g_signal_emit_by_name (panel, "step-activated", 2u);
    g_assert_cmpuint (komi_review_window_get_step (window), ==, 2);
  }
  gtk_window_destroy (GTK_WINDOW (window));

  /* A game the engine finds no fault with: n stays, and says why. */
  for (guint i = 0; i < analysis->moves->len; i++)
    {
      KomiStoreAnalysisMove *am = &g_array_index (analysis->moves, KomiStoreAnalysisMove, i);

      am->loss = 0;
      am->lead_after = 0;
    }
  g_assert_true (komi_store_put_analysis (store, analysis, &error));
  g_assert_no_error (error);
  window = review_test_open (review_game_id);
  review_test_press (window, "Home");
  review_test_press (window, "n");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 0);
  g_assert_nonnull (review_test_find_label (GTK_WIDGET (window),
                                "No move of this game is a mistake at the review’s thresholds"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static KomiReviewWindow *
find_review_window (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (KOMI_IS_REVIEW_WINDOW (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

static gboolean
page_loaded (gpointer page)
{
  return komi_series_page_get_replay (page, NULL) != NULL;
}

/* The main window opens a game's review by win.review-game (another
 * page's way in) and from the series page's Review button. */
static void
test_opened_from_window (void)
{
  KomiWindow *window = g_object_ref_sink (komi_window_new (NULL, review_library));
  KomiSeriesPage *page = komi_window_get_series_page (window);
  KomiReviewWindow *review;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_null (find_review_window ());
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.review-game", "x",
                                             review_game_id));
  review = find_review_window ();
  g_assert_nonnull (review);
  g_assert_cmpint (komi_review_window_get_game_id (review), ==, review_game_id);
  g_assert_true (app_test_wait (app_test_review_loaded, review));
  gtk_window_destroy (GTK_WINDOW (review));

  g_assert_true (komi_series_page_select (page, 0, 1));
  g_assert_true (app_test_wait (page_loaded, page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "review.open", NULL));
  review = find_review_window ();
  g_assert_nonnull (review);
  g_assert_cmpint (komi_review_window_get_game_id (review), ==,
                   komi_series_page_get_replay (page, NULL)->game->id);
  g_assert_cmpint (komi_review_window_get_game_id (review), !=, review_game_id);
  g_assert_true (app_test_wait (app_test_review_loaded, review));
  gtk_window_destroy (GTK_WINDOW (review));
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

static gboolean
library_ready (gpointer data)
{
  return komi_library_get_state (review_library) != KOMI_LIBRARY_STATE_LOADING;
}

/* The rehearsal model's games against random, recorded by komi-cli. */
static void
make_library (void)
{
  KomiRehearsalOptions options = {
    .seed = 11, .api_key = REVIEW_KEY, .retry_after_ms = 10, .faults = "429@3,invalid@7",
  };
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GError) error = NULL;

  review_server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  test_run_model_series (review_dir, review_db, "Review", komi_rehearsal_get_base_url (review_server), REVIEW_KEY_ENV, REVIEW_KEY,
                         TRUE);

  store = komi_store_open_reader (review_db, &error);
  g_assert_no_error (error);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  review_game_id = ((KomiStoreGame *) games->pdata[0])->id;
  review_library = komi_library_new (review_db);
  komi_library_reload (review_library);
  g_assert_true (app_test_wait (library_ready, NULL));
}

/* An imported game (no series, no calls, moves from another program's
 * SGF) opens too: its last position is the file's moves replayed. */
static void
test_imported_game (void)
{
  g_autofree char *sgf = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf",
                                           "gogui.sgf", NULL);
  g_autoptr(KomiStore) store = komi_store_open (review_db, NULL);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(KomiSgfRecord) record = NULL;
  g_autoptr(KomiGame) play = NULL;
  g_autoptr(GError) error = NULL;
  gboolean duplicate = FALSE;
  KomiReviewWindow *window;
  const KomiBoardScene *scene;
  guint8 colors[KOMI_MAX_POINTS];
  guint last;

  g_assert_true (komi_import_sgf_file (store, sgf, ids, &duplicate, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ids->len, >=, 1);
  g_clear_pointer (&store, komi_store_unref);

  window = review_test_open (g_array_index (ids, gint64, 0));
  record = komi_sgf_record_load (sgf, &error);
  g_assert_no_error (error);
  play = komi_sgf_record_replay (record, 0, &error);
  g_assert_no_error (error);
  last = komi_review_window_get_review (window)->replay->n_steps - 1;
  g_assert_cmpuint (last, ==, record->moves->len);
  review_test_press (window, "End");
  scene = komi_board_view_get_scene (komi_review_window_get_board_view (window));
  komi_board_get_colors (komi_game_get_board (play), colors);
  g_assert_cmpmem (scene->colors, record->size * record->size, colors,
                   record->size * record->size);
  review_test_press (window, "Home");
  g_assert_cmpuint (komi_review_window_get_step (window), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  int status;

  app_test_init (&argc, &argv);
  review_dir = g_dir_make_tmp ("komi-review-XXXXXX", NULL);
  review_db = g_build_filename (review_dir, "library.db", NULL);
  make_library ();

  g_test_add_func ("/komi/app/review/keyboard", test_keyboard);
  review_test_add_calls ();
  g_test_add_func ("/komi/app/review/next-mistake", test_next_mistake);
  g_test_add_func ("/komi/app/review/opened-from-window", test_opened_from_window);
  g_test_add_func ("/komi/app/review/imported-game", test_imported_game);
  status = g_test_run ();

  g_clear_object (&review_library);
  g_clear_object (&review_server);
  remove_test_dir (review_dir);
  g_free (review_db);
  g_free (review_dir);
  return status;
}
