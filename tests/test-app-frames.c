/* test-app-frames.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-analysis-panel.h"
#include "komi-app-test-util.h"
#include "komi-coords.h"
#include "komi-orientation.h"
#include "komi-rehearsal.h"
#include "komi-review-window.h"
#include "komi-series-page.h"
#include "komi-ui-util.h"
#include "komi-store-test-review.h"
#include "komi-store.h"
#include "komi-test-cli.h"
#include "komi-test-model-series.h"
#include "komi-window.h"

/* One coordinate frame, always named: every point name beside a board is
 * in that board's frame, the frame is said above the board, and a name
 * the model gave in its own frame is shown in both. The model's
 * probabilities are drawn on the position it decided on, and the
 * engine's better move is marked at a mistake. On a real library: the
 * rehearsal model (with logprobs) against random, played by komi-cli,
 * its game turned for the model; an engine review of it stored with a
 * mistake at move 5. */

#define KEY "sk-komi-frames-planted-0b7d93"
#define KEY_ENV "KOMI_TEST_FRAMES_KEY"
#define MISTAKE 5

static char *dir;
static char *db;
static KomiLibrary *library;
static gint64 game_id;
static KomiPoint best;   /* the analysis' better move at MISTAKE, a real point */

static gboolean
library_ready (gpointer data)
{
  return komi_library_get_state (library) != KOMI_LIBRARY_STATE_LOADING;
}

static void
make_library (void)
{
  KomiRehearsalOptions options = { .seed = 11, .api_key = KEY };
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(KomiStoreAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;

  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  test_run_model_series (dir, db, "Frames", komi_rehearsal_get_base_url (server), KEY_ENV, KEY,
                         FALSE);

  store = komi_store_open (db, &error);
  g_assert_no_error (error);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  game_id = ((KomiStoreGame *) games->pdata[0])->id;
  game = komi_store_load_game (store, game_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (game->moves->len, >, MISTAKE + 1);
  /* The better move: where move MISTAKE + 1 went, empty at MISTAKE. */
  best = g_array_index (game->moves, KomiMove, MISTAKE).point;
  g_assert_cmpint (best, >=, 0);
  analysis = test_analysis_new (game, TRUE);
  test_analysis_set_loss (analysis, MISTAKE, 4);
  g_array_index (analysis->moves, KomiStoreAnalysisMove, MISTAKE - 1).best = best;
  g_assert_true (komi_store_put_analysis (store, analysis, &error));
  g_assert_no_error (error);

  library = komi_library_new (db);
  komi_library_reload (library);
  g_assert_true (app_test_wait (library_ready, NULL));
}

/* Every label's text under @widget, one a line. */
static void
collect_text (GtkWidget *widget, GString *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_text (c, text);
}

static char *
text_of (gpointer widget)
{
  GString *text = g_string_new (NULL);

  collect_text (widget, text);
  return g_string_free (text, FALSE);
}

static char *
point_name (guint size, KomiOrientation orientation, KomiPoint real)
{
  char name[KOMI_NAME_LEN + 1];

  return g_strdup (komi_point_to_name (size, komi_orientation_apply (orientation, size, real),
                                       name));
}

static gboolean
panel_analysed (gpointer panel)
{
  return komi_analysis_panel_get_analysis (panel) != NULL;
}

/* "Move 5 A2: lost 4.0 points, best was C6" beside the board names both
 * points as the board shows them, however it is turned. */
static void
assert_mistake_named (gpointer panel, guint size, KomiOrientation orientation,
                      KomiPoint played)
{
  g_autofree char *text = text_of (panel);
  g_autofree char *move = point_name (size, orientation, played);
  g_autofree char *better = point_name (size, orientation, best);
  g_autofree char *want = g_strdup_printf ("Move %u %s: lost 4.0 points, best was %s (test)",
                                           MISTAKE, move, better);

  if (strstr (text, want) == NULL)
    g_error ("the engine review says\n%s\nnot “%s”", text, want);
}

static void
test_review_window (void)
{
  KomiReviewWindow *window = app_test_open_review (NULL, library, game_id);
  const KomiReview *review;
  const KomiStoreGame *game;
  const KomiBoardScene *scene;
  const KomiStoreCall *call = NULL;
  GtkWidget *panel, *frame, *heat_label;
  g_autoptr(GHashTable) table = NULL;
  g_autofree char *frame_text = NULL;
  KomiPoint answer;
  double *p;

  review = komi_review_window_get_review (window);
  game = review->replay->game;
  scene = komi_board_view_get_scene (komi_review_window_get_board_view (window));
  frame = app_test_child (window, KOMI_TYPE_REVIEW_WINDOW, "frame_label");
  heat_label = app_test_child (window, KOMI_TYPE_REVIEW_WINDOW, "heat_label");
  panel = gtk_widget_get_first_child (GTK_WIDGET (komi_review_window_get_analysis_slot (window)));
  g_assert_true (app_test_wait (panel_analysed, panel));

  /* Opened as the model saw it, and said so above the board. */
  g_assert_cmpint (game->orientation, !=, KOMI_ORIENTATION_IDENTITY);
  g_assert_cmpint (komi_review_window_get_orientation (window), ==, game->orientation);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (frame)),
                                   "As the model saw it ("));
  assert_mistake_named (panel, game->size, game->orientation,
                        g_array_index (game->moves, KomiMove, MISTAKE - 1).point);
  /* At the mistake the engine's better move is on the board; not before. */
  komi_review_window_show_step (window, MISTAKE);
  g_assert_cmpint (scene->best_move, ==, best);
  komi_review_window_show_step (window, MISTAKE - 1);
  g_assert_cmpint (scene->best_move, ==, KOMI_NO_POINT);

  /* Upright: the frame says so, and the engine review renames its points. */
  komi_review_window_set_orientation (window, KOMI_ORIENTATION_IDENTITY);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (frame)), ==, "As recorded");
  assert_mistake_named (panel, game->size, KOMI_ORIENTATION_IDENTITY,
                        g_array_index (game->moves, KomiMove, MISTAKE - 1).point);
  frame_text = g_strdup (gtk_label_get_text (GTK_LABEL (frame)));
  komi_review_window_set_orientation (window, KOMI_ORIENTATION_FLIP_HORIZONTAL);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (frame)), !=, frame_text);

  /* The probabilities of the model's choice at a move are drawn on the
   * position before it, where the point was still empty. */
  for (guint i = 0; i < review->calls->len && call == NULL; i++)
    {
      const KomiStoreCall *c = review->calls->pdata[i];

      if (c->turn > 6 && c->decided > 0 && g_strcmp0 (c->question, "best_point") == 0
          && c->answer != NULL && c->option_probabilities != NULL)
        call = c;
    }
  if (call == NULL)
    g_error ("the model answered no point with probabilities after move 6");
  table = komi_review_call_probabilities (call);
  p = g_hash_table_lookup (table, call->answer);
  g_assert_nonnull (p);
  g_assert_true (komi_point_from_name (game->size, call->answer, &answer));
  answer = komi_orientation_unapply (game->orientation, game->size, answer);
  komi_review_window_show_step (window, call->turn - 1);
  g_assert_true (scene->show_heat);
  g_assert_cmpint (scene->colors[answer], ==, KOMI_EMPTY);
  g_assert_cmpfloat_with_epsilon (scene->heat[answer], *p, 1e-6);
  {
    g_autofree char *want = g_strdup_printf ("Move %u", call->turn);

    g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (heat_label)), want));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
page_loaded (gpointer page)
{
  return komi_series_page_get_replay (page, NULL) != NULL;
}

/* The Series page: its calls name the model's answer in both frames when
 * the board is turned otherwise, and the frame is said above the board. */
static void
test_series_page (void)
{
  KomiWindow *window = g_object_ref_sink (komi_window_new (NULL, library));
  KomiSeriesPage *page = komi_window_get_series_page (window);
  KomiBoardView *board = komi_series_page_get_board_view (page);
  const KomiReplay *replay;
  const KomiStoreCall *call = NULL;
  GtkWidget *summary, *frame;
  g_autofree char *model_name = NULL, *shown = NULL, *both = NULL, *once = NULL;
  KomiPoint answer;

  gtk_window_set_default_size (GTK_WINDOW (window), 1366, 740);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (komi_series_page_select (page, 0, 0));
  g_assert_true (app_test_wait (page_loaded, page));
  replay = komi_series_page_get_replay (page, NULL);
  if (replay->game->id != game_id)
    {
      g_assert_true (komi_series_page_select (page, 0, 1));
      g_assert_true (app_test_wait (page_loaded, page));
      replay = komi_series_page_get_replay (page, NULL);
    }
  summary = app_test_child (page, KOMI_TYPE_SERIES_PAGE, "summary_label");
  frame = app_test_child (page, KOMI_TYPE_SERIES_PAGE, "frame_label");
  for (guint i = 0; replay->calls != NULL && i < replay->calls->len && call == NULL; i++)
    {
      const KomiStoreCall *c = g_ptr_array_index (replay->calls, i);
      KomiPoint p;

      g_autofree char *upright = NULL;

      if (g_strcmp0 (c->question, "best_point") != 0 || c->answer == NULL
          || !komi_point_from_name (replay->size, c->answer, &p) || p < 0)
        continue;
      p = komi_orientation_unapply (replay->game->orientation, replay->size, p);
      upright = point_name (replay->size, KOMI_ORIENTATION_IDENTITY, p);
      if (g_ascii_strcasecmp (upright, c->answer) != 0)
        call = c;
    }
  if (call == NULL)
    g_error ("no answer of the model is named otherwise upright");
  g_assert_true (komi_point_from_name (replay->size, call->answer, &answer));
  answer = komi_orientation_unapply (replay->game->orientation, replay->size, answer);
  model_name = g_strdup (call->answer);
  shown = point_name (replay->size, KOMI_ORIENTATION_IDENTITY, answer);

  /* As recorded (upright): both names. */
  komi_board_view_set_orientation (board, KOMI_ORIENTATION_IDENTITY);
  gtk_widget_activate_action (GTK_WIDGET (page), "review.first-move", NULL);
  for (guint t = 0; t < call->turn; t++)
    gtk_widget_activate_action (GTK_WIDGET (page), "review.next-move", NULL);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (frame)), ==, "As recorded");
  both = g_strdup_printf ("answered %s (%s on this board)", model_name, shown);
  if (strstr (gtk_label_get_text (GTK_LABEL (summary)), both) == NULL)
    g_error ("the calls say “%s”, not “%s”", gtk_label_get_text (GTK_LABEL (summary)), both);
  assert_mistake_named (komi_series_page_get_analysis_panel (page), replay->size,
                        KOMI_ORIENTATION_IDENTITY,
                        g_array_index (replay->game->moves, KomiMove, MISTAKE - 1).point);

  /* The players' view: the model's own name, once, and the frame says so. */
  gtk_widget_activate_action (GTK_WIDGET (page), "review.players-view", NULL);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (frame)),
                                   "As the model saw it ("));
  once = g_strdup_printf ("answered %s", model_name);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (summary)), once));
  g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (summary)), "on this board"));
  assert_mistake_named (komi_series_page_get_analysis_panel (page), replay->size,
                        replay->game->orientation,
                        g_array_index (replay->game->moves, KomiMove, MISTAKE - 1).point);
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

/* One name for each orientation: the series page's menu, the review
 * window's list and the frame over a board say the same words; a game no
 * model played is never "as the model saw it". */
static void
test_one_vocabulary (void)
{
  KomiSeriesPage *page = g_object_ref_sink (g_object_new (KOMI_TYPE_SERIES_PAGE, NULL));
  GtkWidget *tools = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                                KOMI_TYPE_SERIES_PAGE,
                                                                "board_tools"));
  GMenuModel *menu = gtk_menu_button_get_menu_model (
    GTK_MENU_BUTTON (gtk_widget_get_first_child (tools)));
  GMenuModel *section = g_menu_model_get_item_link (menu, 1, G_MENU_LINK_SECTION);
  guint named = 0;

  g_assert_cmpint (g_menu_model_get_n_items (section), ==, KOMI_N_ORIENTATIONS);
  for (int i = 0; i < g_menu_model_get_n_items (section); i++)
    {
      g_autofree char *label = NULL;
      g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (section, i, "target",
                                                                          G_VARIANT_TYPE_UINT32);

      g_assert_true (g_menu_model_get_item_attribute (section, i, "label", "s", &label));
      g_assert_cmpstr (label, ==,
                       komi_orientation_display_name (g_variant_get_uint32 (target)));
      named++;
    }
  g_assert_cmpuint (named, ==, KOMI_N_ORIENTATIONS);
  for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
    {
      g_autofree char *engines = komi_frame_text (o, o, FALSE);
      g_autofree char *model = komi_frame_text (o, o, TRUE);
      g_autofree char *lower = g_utf8_strdown (model, -1);

      g_assert_null (strstr (engines, "model"));
      g_assert_nonnull (strstr (lower, "as the model saw it"));
      g_assert_nonnull (strstr (engines, komi_orientation_display_name (o)));
      g_assert_nonnull (strstr (model, komi_orientation_display_name (o)));
    }
  g_object_unref (section);
  g_object_unref (page);
}

int
main (int argc, char *argv[])
{
  int status;

  app_test_init (&argc, &argv);
  g_setenv ("LANGUAGE", "C", TRUE);
  dir = g_dir_make_tmp ("komi-frames-XXXXXX", NULL);
  db = g_build_filename (dir, "library.db", NULL);
  make_library ();

  g_test_add_func ("/komi/app/frames/review-window", test_review_window);
  g_test_add_func ("/komi/app/frames/series-page", test_series_page);
  g_test_add_func ("/komi/app/frames/one-vocabulary", test_one_vocabulary);
  status = g_test_run ();

  g_clear_object (&library);
  remove_test_dir (dir);
  g_free (db);
  g_free (dir);
  return status;
}
