/* test-app-layout.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-analysis-panel.h"
#include "komi-app-test-util.h"
#include "komi-store-test-review.h"
#include "komi-coords.h"
#include "komi-games-page.h"
#include "komi-ladder-page.h"
#include "komi-list-page.h"
#include "komi-review-window-private.h"
#include "komi-review-window.h"
#include "komi-series-page.h"
#include "komi-window.h"
#include "komi-store-test-util.h"

/* How the application names players and fits its windows: players by
 * their names (a model by its profile's `name`, an engine by what it is),
 * never by a file path, which the tooltip keeps. */

#define PROFILE_NAME "Planted Profile Name"

typedef struct
{
  char          *dir;
  char          *path;
  char          *profile;    /* the model's profile file */
  char          *model_spec; /* "model:" + profile */
  KomiLibrary   *library;
  GtkWindow     *window;
  KomiGamesPage *page;
} LayoutFixture;

static gboolean
settled (gpointer library)
{
  return komi_library_get_state (library) != KOMI_LIBRARY_STATE_LOADING;
}

/* A library in a new folder with one series (@name, @seed, @pairs pairs):
 * a model whose profile, @file in the folder, has the name @profile_name,
 * against @opponent. */
static void
make_library (LayoutFixture *f, const char *file, const char *profile_name, const char *name,
              guint64 seed, const char *opponent, guint pairs)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = g_strdup_printf ("{\"name\": \"%s\", \"api\": \"openai-chat\", "
                                           "\"base_url\": \"http://127.0.0.1:9/v1\", "
                                           "\"model\": \"m\"}", profile_name);

  f->dir = g_dir_make_tmp ("komi-layout-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "library.db", NULL);
  f->profile = g_build_filename (f->dir, file, NULL);
  f->model_spec = g_strconcat ("model:", f->profile, NULL);
  g_assert_true (g_file_set_contents (f->profile, json, -1, &error));
  g_assert_no_error (error);
  {
    g_autoptr(KomiStore) store = test_open_store (f->path);

    test_add_series (store, name, seed, f->model_spec, opponent, pairs, FALSE);
  }
  f->library = komi_library_new (f->path);
}

/* One series: a model (its profile in the test's folder) against GNU Go
 * level 3; the Games page alone in a window. */
static void
layout_set_up (LayoutFixture *f, gconstpointer data)
{
  make_library (f, "planted-profile.json", PROFILE_NAME, "Named players", 11, "gnugo:3", 1);
  f->page = g_object_new (KOMI_TYPE_GAMES_PAGE, NULL);
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 1200, 700);
  gtk_window_set_child (f->window, GTK_WIDGET (f->page));
  komi_games_page_set_library (f->page, f->library);
  komi_library_reload (f->library);
  gtk_window_present (f->window);
  g_assert_true (app_test_wait (settled, f->library));
  g_assert_true (app_test_wait (app_test_has_size, f->window));
}

static void
layout_tear_down (LayoutFixture *f, gconstpointer data)
{
  if (f->window != NULL)
    gtk_window_destroy (f->window);
  g_object_unref (f->library);
  remove_test_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_free (f->profile);
  g_free (f->model_spec);
}

/* Every label under @widget, mapped or not. */
static void
collect_labels (GtkWidget *widget, GPtrArray *labels)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (labels, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_labels (c, labels);
}

/* A label showing @text in a list's cell (the drop-downs' choices are
 * labels too). */
static GtkLabel *
find_label (GPtrArray *labels, const char *text)
{
  for (guint i = 0; i < labels->len; i++)
    if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), text)
        && gtk_widget_get_ancestor (g_ptr_array_index (labels, i), GTK_TYPE_COLUMN_VIEW) != NULL)
      return g_ptr_array_index (labels, i);
  return NULL;
}

static gboolean
rows_drawn (gpointer data)
{
  LayoutFixture *f = data;
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect_labels (GTK_WIDGET (f->page), labels);
  return find_label (labels, PROFILE_NAME) != NULL;
}

static gboolean
loaded (gpointer window)
{
  return komi_review_window_get_review (window) != NULL;
}

static void
test_player_names (LayoutFixture *f, gconstpointer data)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  GtkDropDown *players = GTK_DROP_DOWN (gtk_widget_get_template_child (
    GTK_WIDGET (f->page), KOMI_TYPE_GAMES_PAGE, "player_drop"));
  GtkDropDown *opponents = GTK_DROP_DOWN (gtk_widget_get_template_child (
    GTK_WIDGET (f->page), KOMI_TYPE_GAMES_PAGE, "opponent_drop"));
  GListModel *choices;
  GListModel *rows = komi_games_page_get_rows (f->page);
  g_autoptr(KomiGameItem) first = NULL;
  KomiReviewWindow *review;
  GtkLabel *name;

  /* The list: names in the cells, the spec (with the profile's path)
   * kept for the tooltip; no cell shows a path or a spec. */
  g_assert_true (app_test_wait (rows_drawn, f));
  collect_labels (GTK_WIDGET (f->page), labels);
  name = find_label (labels, PROFILE_NAME);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (name), "komi-player-spec"), ==, f->model_spec);
  g_assert_nonnull (find_label (labels, "GNU Go level 3"));
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (g_ptr_array_index (labels, i));

      g_assert_null (strstr (text, f->dir));
      g_assert_null (strstr (text, "gnugo:3"));
    }

  /* The filters: names shown, the games filtered by the player chosen. */
  choices = gtk_drop_down_get_model (players);
  g_assert_cmpuint (g_list_model_get_n_items (choices), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (choices), 1), ==, PROFILE_NAME);
  choices = gtk_drop_down_get_model (opponents);
  g_assert_cmpuint (g_list_model_get_n_items (choices), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (choices), 1), ==,
                   "GNU Go level 3");
  gtk_drop_down_set_selected (opponents, 1);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);

  /* The review window's title. */
  first = g_list_model_get_item (rows, 0);
  review = komi_review_window_new (NULL, f->library, first->game->id);
  gtk_window_present (GTK_WINDOW (review));
  g_assert_true (app_test_wait (loaded, review));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (review)), PROFILE_NAME));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (review)), "GNU Go level 3"));
  g_assert_null (strstr (gtk_window_get_title (GTK_WINDOW (review)), f->dir));
  gtk_window_destroy (GTK_WINDOW (review));
}

/* Every label's text under @widget, one a line. */
static void
collect_text (GtkWidget *widget, GString *text)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_text (c, text);
}

/* The text of the review's side panel at @step. */
static char *
side_text (KomiReviewWindow *review, guint step)
{
  GString *text = g_string_new (NULL);

  komi_review_window_show_step (review, step);
  collect_text (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (review),
                                                           KOMI_TYPE_REVIEW_WINDOW,
                                                           "calls_box")), text);
  return g_string_free (text, FALSE);
}

/* A move no model made: the panel says who played what, and the engine
 * review's view of it once there is one. */
static void
test_engine_move (LayoutFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = komi_store_open (f->path, &error);
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(KomiStoreAnalysis) analysis = NULL;
  KomiStoreAnalysisMove *am;
  KomiReviewWindow *review;
  const KomiMove *second, *third;
  char played[KOMI_NAME_LEN + 1], best[KOMI_NAME_LEN + 1];
  g_autofree char *before = NULL, *after = NULL, *expected = NULL, *start = NULL;
  GtkWidget *graph;

  g_assert_no_error (error);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  game = komi_store_load_game (store, ((KomiStoreGame *) games->pdata[0])->id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (game->moves->len, >, 3);
  second = &g_array_index (game->moves, KomiMove, 1);
  third = &g_array_index (game->moves, KomiMove, 2);
  g_assert_cmpint (second->point, >=, 0);
  g_assert_cmpint (third->point, >=, 0);
  komi_point_to_name (9, second->point, played);
  komi_point_to_name (9, third->point, best);

  review = komi_review_window_new (NULL, f->library, game->id);
  gtk_window_present (GTK_WINDOW (review));
  g_assert_true (app_test_wait (loaded, review));
  /* At the start no move was made. */
  start = side_text (review, 0);
  g_assert_null (strstr (start, "played"));
  /* The records here have no calls: move 2 is a move no model made. */
  before = side_text (review, 2);
  expected = g_strdup_printf ("%s (%s) played %s",
                              second->color == KOMI_BLACK ? "Black" : "White",
                              second->color == game->subject ? PROFILE_NAME : "GNU Go level 3",
                              played);
  g_assert_nonnull (strstr (before, expected));
  g_assert_nonnull (strstr (before, "No engine review of this game yet"));
  gtk_window_destroy (GTK_WINDOW (review));

  /* An analysis: move 2 lost 4 points (a mistake), the engine's choice
   * was where move 3 went. */
  analysis = test_analysis_new (game, TRUE);
  g_free (analysis->label);
  analysis->label = g_strdup ("planted estimate");
  for (guint i = 0; i < analysis->moves->len; i++)
    {
      am = &g_array_index (analysis->moves, KomiStoreAnalysisMove, i);
      am->lead_before = am->lead_after = 2.5;
    }
  am = &g_array_index (analysis->moves, KomiStoreAnalysisMove, 1);
  am->loss = 4;
  am->lead_after = 2.5 - 4;
  am->best = third->point;
  g_assert_true (komi_store_put_analysis (store, analysis, &error));
  g_assert_no_error (error);
  review = komi_review_window_new (NULL, f->library, game->id);
  gtk_window_present (GTK_WINDOW (review));
  g_assert_true (app_test_wait (loaded, review));
  after = side_text (review, 2);
  g_assert_nonnull (strstr (after, expected));
  g_assert_nonnull (strstr (after, "planted estimate"));
  g_assert_nonnull (strstr (after, "is ahead by 2.5 points"));
  g_assert_nonnull (strstr (after, "is behind by 1.5 points"));
  g_assert_nonnull (strstr (after, "A mistake: 4.0 points lost"));
  g_free (expected);
  expected = g_strdup_printf ("The engine would have played %s.", best);
  g_assert_nonnull (strstr (after, expected));
  g_assert_null (strstr (after, "No engine review"));
  /* The score graph beside it has a height to read it by. */
  gtk_window_set_default_size (GTK_WINDOW (review), 1366, 740);
  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_ancestor (
    GTK_WIDGET (komi_review_window_get_analysis_slot (review)), GTK_TYPE_STACK)), "analysis");
  graph = GTK_WIDGET (gtk_widget_get_template_child (
    gtk_widget_get_first_child (GTK_WIDGET (komi_review_window_get_analysis_slot (review))),
    KOMI_TYPE_ANALYSIS_PANEL, "graph"));
  g_assert_true (app_test_wait (app_test_has_size, graph));
  g_assert_cmpint (gtk_widget_get_height (graph), >=, 120);
  gtk_window_destroy (GTK_WINDOW (review));
}

typedef struct
{
  GtkWidget  *window;
  int         width;
  const char *layout;   /* the review window's, or NULL */
} Fit;

static gboolean
fitted (gpointer data)
{
  Fit *fit = data;
  int width = gtk_widget_get_width (fit->window);

  return width > 0 && width <= fit->width && width > fit->width - 40
         && (fit->layout == NULL
             || g_str_equal (_komi_review_window_get_layout (KOMI_REVIEW_WINDOW (fit->window)),
                             fit->layout));
}

/* @window brought to @width (a screen's), and no wider than that. */
static void
resize (GtkWidget *window, int width, const char *layout)
{
  Fit fit = { window, width, layout };

  gtk_window_set_default_size (GTK_WINDOW (window), width, 700);
  if (!app_test_wait (fitted, &fit))
    g_error ("%s is %d px wide, not %d", G_OBJECT_TYPE_NAME (window),
             gtk_widget_get_width (window), width);
}

static int
min_width (GtkWidget *window)
{
  int min;

  gtk_widget_measure (window, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  return min;
}

/* The main window on every page and the review window go down to a
 * phone's width, 360 px, and back; the review window lays itself out for
 * each width. */
static const struct
{
  int         width;
  const char *layout;
} review_widths[] = {
  { 1366, "wide" }, { 800, "medium" }, { 360, "narrow" },
};

static void
test_narrow_windows (LayoutFixture *f, gconstpointer data)
{
  const char *pages[] = { "series", "players", "games", "ladder" };
  KomiWindow *window = komi_window_new (NULL, f->library);
  GListModel *rows = komi_games_page_get_rows (f->page);
  g_autoptr(KomiGameItem) first = g_list_model_get_item (rows, 0);
  KomiReviewWindow *review;
  GtkWidget *moves, *bottom, *nav;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      komi_window_show_page (window, pages[i]);
      resize (GTK_WIDGET (window), 1366, NULL);
      resize (GTK_WIDGET (window), 360, NULL);
      g_assert_cmpint (gtk_widget_get_width (gtk_window_get_child (GTK_WINDOW (window))), <=,
                       360);
      g_assert_cmpint (min_width (gtk_window_get_child (GTK_WINDOW (window))), <=, 360);
    }
  gtk_window_destroy (GTK_WINDOW (window));

  for (guint i = 0; i < G_N_ELEMENTS (review_widths); i++)
    {
      gboolean narrow = review_widths[i].width == 360;

      review = komi_review_window_new (NULL, f->library, first->game->id);
      gtk_window_set_default_size (GTK_WINDOW (review), review_widths[i].width, 700);
      gtk_window_present (GTK_WINDOW (review));
      g_assert_true (app_test_wait (loaded, review));
      resize (GTK_WIDGET (review), review_widths[i].width, review_widths[i].layout);
      moves = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (review),
                                                           KOMI_TYPE_REVIEW_WINDOW,
                                                           "moves_scroller");
      bottom = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (review),
                                                            KOMI_TYPE_REVIEW_WINDOW,
                                                            "bottom_bar");
      nav = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (review),
                                                         KOMI_TYPE_REVIEW_WINDOW, "header_nav");
      g_assert_cmpint (min_width (gtk_window_get_child (GTK_WINDOW (review))), <=,
                       review_widths[i].width);
      g_assert_cmpint (gtk_widget_get_visible (moves), ==, review_widths[i].width >= 1366);
      g_assert_cmpint (gtk_widget_get_visible (nav), ==, !narrow);
      g_assert_cmpint (gtk_action_bar_get_revealed (GTK_ACTION_BAR (bottom)), ==, narrow);
      if (narrow)
        {
          /* The bar's buttons step the game. */
          komi_review_window_show_step (review, 3);
          gtk_widget_activate_action (bottom, "review.previous-move", NULL);
          g_assert_cmpuint (komi_review_window_get_step (review), ==, 2);
        }
      gtk_window_destroy (GTK_WINDOW (review));
    }
}

/* Walks @widget's tree, printing each child's minimum width when
 * KOMI_TEST_DUMP is set: the way to find what holds a window wide. */
static void
dump_minimums (GtkWidget *widget, int depth)
{
  int min, nat;

  if (!gtk_widget_get_visible (widget))
    return;
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
  if (min > 200)
    g_printerr ("%*s%s %s min %d nat %d width %d\n", depth, "", G_OBJECT_TYPE_NAME (widget),
                GTK_IS_LABEL (widget) ? gtk_label_get_text (GTK_LABEL (widget)) : "", min, nat,
                gtk_widget_get_width (widget));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    dump_minimums (c, depth + 1);
}

/* The same for the least heights, each at the width it has. */
static void
dump_heights (GtkWidget *widget, int depth)
{
  int min, nat;

  if (!gtk_widget_get_visible (widget) || depth > 9)
    return;
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (widget), &min, &nat, NULL, NULL);
  if (min > 30)
    g_printerr ("%*s%s min height %d nat %d, %dx%d\n", depth, "", G_OBJECT_TYPE_NAME (widget), min, nat,
                gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    dump_heights (c, depth + 1);
}

/* A library whose games name long players (the random player, a model
 * with a long profile name): the main window still goes down to 360 px on
 * the series page, and the row of buttons under the board fits inside
 * the page. */
#define LONG_PROFILE_NAME "A Rather Long Model Profile Name For A Narrow Window"

static void
long_set_up (LayoutFixture *f, gconstpointer data)
{
  make_library (f, "long-profile.json", LONG_PROFILE_NAME, "Long names", 12, "random", 1);
  komi_library_reload (f->library);
  g_assert_true (app_test_wait (settled, f->library));
}

static gboolean
series_game_shown (gpointer data)
{
  GtkLabel *move = data;

  return gtk_widget_get_mapped (GTK_WIDGET (move)) && *gtk_label_get_text (move) != '\0';
}

typedef struct
{
  GtkWidget *row;
  GtkWidget *page;
} RowFit;

/* @row whole inside @page (the layout follows the width a frame later). */
static gboolean
row_fits (gpointer data)
{
  RowFit *fit = data;
  graphene_rect_t bounds;

  return gtk_widget_get_mapped (fit->row)
         && gtk_widget_compute_bounds (fit->row, fit->page, &bounds)
         && bounds.origin.x >= 0
         && bounds.origin.x + bounds.size.width <= gtk_widget_get_width (fit->page);
}

static void
test_narrow_long_names (LayoutFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  KomiSeriesPage *page = komi_window_get_series_page (window);
  GtkWidget *row = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                              KOMI_TYPE_SERIES_PAGE,
                                                              "step_box"));
  GtkWidget *move = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                               KOMI_TYPE_SERIES_PAGE,
                                                               "move_label"));
  graphene_rect_t bounds;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  komi_window_show_page (window, "series");
  resize (GTK_WIDGET (window), 1366, NULL);
  g_assert_true (app_test_wait (series_game_shown, move));
  resize (GTK_WIDGET (window), 360, NULL);
  app_test_wait (row_fits, &(RowFit) { row, GTK_WIDGET (page) });
  if (g_getenv ("KOMI_TEST_DUMP") != NULL)
    dump_minimums (GTK_WIDGET (window), 0);
  g_assert_cmpint (min_width (gtk_window_get_child (GTK_WINDOW (window))), <=, 360);
  /* The row of buttons under the board, whole inside the page. */
  g_assert_true (gtk_widget_get_mapped (row));
  g_assert_true (gtk_widget_compute_bounds (row, GTK_WIDGET (page), &bounds));
  g_assert_cmpfloat (bounds.origin.x, >=, 0);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=,
                     gtk_widget_get_width (GTK_WIDGET (page)));
  g_assert_cmpint (gtk_widget_get_width (row), >=, min_width (row));
  /* The board's tools (turn, numbers) still there, under the steps. */
  g_assert_true (row_fits (&(RowFit) { GTK_WIDGET (gtk_widget_get_template_child (
    GTK_WIDGET (page), KOMI_TYPE_SERIES_PAGE, "board_tools")), GTK_WIDGET (page) }));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A library of one long series (12 pairs against GNU Go level 3, the
 * last game selected) for the main window at its default size. */
static void
many_set_up (LayoutFixture *f, gconstpointer data)
{
  make_library (f, "many-profile.json", PROFILE_NAME, "Many games", 13, "gnugo:3", 12);
  komi_library_reload (f->library);
  g_assert_true (app_test_wait (settled, f->library));
}

static gboolean
game_on_board (gpointer page)
{
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (page, &step);

  return replay != NULL && step + 1 == replay->n_steps
         && gtk_widget_get_mapped (GTK_WIDGET (komi_series_page_get_board_view (page)));
}

/* @widget's bounds in @ancestor's coordinates. */
static graphene_rect_t
bounds_in (GtkWidget *widget, GtkWidget *ancestor)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, ancestor, &bounds));
  return bounds;
}

static void
settle (void)
{
  for (guint i = 0; i < 3; i++)
    {
      gint64 end = g_get_monotonic_time () + 60000;

      while (g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, FALSE);
    }
}

/* A series with games left (Continue beside its progress) while a run
 * shows its bar: the count on one line at 1920 px, and the main window
 * still goes down to a phone's 360 px. */
static void
test_narrow_games_left (LayoutFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  KomiSeriesPage *page = komi_window_get_series_page (window);
  GtkWidget *content;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  komi_window_show_page (window, "series");
  g_assert_true (komi_series_page_select (page, 0, 0));
  settle ();
  gtk_widget_set_visible (app_test_child (page, KOMI_TYPE_SERIES_PAGE, "continue_button"), TRUE);
  gtk_label_set_text (GTK_LABEL (app_test_child (window, KOMI_TYPE_WINDOW, "run_label")),
                      "Running \u201cNamed players\u201d: 1 of 2 games \u00b7 0:47 left");
  gtk_revealer_set_reveal_child (GTK_REVEALER (app_test_child (window, KOMI_TYPE_WINDOW,
                                                               "run_revealer")), TRUE);
  /* On a large screen the count keeps to one line beside Continue. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1920, 1000);
  settle ();
  g_assert_cmpint (pango_layout_get_line_count (gtk_label_get_layout (GTK_LABEL (
    app_test_child (page, KOMI_TYPE_SERIES_PAGE, "progress_label")))), ==, 1);
  /* Straight from a large screen's width to a phone's. */
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 700);
  settle ();
  content = gtk_window_get_child (GTK_WINDOW (window));
  if (g_getenv ("KOMI_TEST_DUMP") != NULL)
    dump_minimums (GTK_WIDGET (window), 0);
  g_assert_cmpint (min_width (content), <=, 360);
  g_assert_cmpint (gtk_widget_get_width (content), <=, 360);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The series page at the window's default 1200x700, the run bar shown:
 * the games list shows five rows or more, and the game selected is one of
 * them; the board and the row of steps under it are in view without
 * scrolling the page, and stay where they are when the Engine Review tab
 * is chosen. */
static void
test_series_default_size (LayoutFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  KomiSeriesPage *page = komi_window_get_series_page (window);
  GtkWidget *steps = app_test_child (page, KOMI_TYPE_SERIES_PAGE, "step_box");
  GtkWidget *board = GTK_WIDGET (komi_series_page_get_board_view (page));
  GtkWidget *games = app_test_child (page, KOMI_TYPE_SERIES_PAGE, "games_view");
  GtkWidget *games_scroller = gtk_widget_get_parent (games);
  GtkWidget *page_scroller = gtk_widget_get_ancestor (gtk_widget_get_parent (games_scroller),
                                                      GTK_TYPE_SCROLLED_WINDOW);
  GtkStack *side = GTK_STACK (app_test_child (page, KOMI_TYPE_SERIES_PAGE, "side_stack"));
  GtkAdjustment *games_adj, *page_adj;
  graphene_rect_t board_calls, steps_calls, board_engine, steps_engine, row;
  guint n_games, last;
  double row_height;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_revealer_set_reveal_child (GTK_REVEALER (app_test_child (window, KOMI_TYPE_WINDOW,
                                                               "run_revealer")), TRUE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  komi_window_show_page (window, "series");
  n_games = 24;
  last = n_games - 1;
  g_assert_true (komi_series_page_select (page, 0, last));
  g_assert_true (app_test_wait (game_on_board, page));
  settle ();

  /* Five rows of games or more (the header apart). */
  games_adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (games));
  row_height = gtk_adjustment_get_upper (games_adj) / n_games;
  if (g_getenv ("KOMI_TEST_DUMP") != NULL)
    g_printerr ("games list %d px high, rows %.1f px, page %d px of %.0f\n",
                gtk_widget_get_height (games_scroller), row_height,
                gtk_widget_get_height (page_scroller),
                gtk_adjustment_get_upper (gtk_scrolled_window_get_vadjustment (
                                            GTK_SCROLLED_WINDOW (page_scroller))));
  g_assert_cmpfloat (gtk_adjustment_get_page_size (games_adj), >=, 5 * row_height);
  /* The game selected in view. */
  row.origin.y = last * row_height - gtk_adjustment_get_value (games_adj);
  g_assert_cmpfloat (row.origin.y, >=, 0);
  g_assert_cmpfloat (row.origin.y + row_height, <=,
                     gtk_adjustment_get_page_size (games_adj) + 0.5);

  /* The page not scrolled, the steps in view, with the calls and with
   * the engine review beside the board. */
  page_adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (page_scroller));
  g_assert_cmpfloat (gtk_adjustment_get_value (page_adj), ==, 0);
  gtk_stack_set_visible_child_name (side, "calls");
  settle ();
  board_calls = bounds_in (board, GTK_WIDGET (window));
  steps_calls = bounds_in (steps, page_scroller);
  g_assert_cmpfloat (steps_calls.origin.y + steps_calls.size.height, <=,
                     gtk_widget_get_height (page_scroller));
  gtk_stack_set_visible_child_name (side, "analysis");
  settle ();
  board_engine = bounds_in (board, GTK_WIDGET (window));
  steps_engine = bounds_in (steps, page_scroller);
  g_assert_cmpfloat (gtk_adjustment_get_value (page_adj), ==, 0);
  g_assert_cmpfloat (steps_engine.origin.y + steps_engine.size.height, <=,
                     gtk_widget_get_height (page_scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (page_adj), <=,
                     gtk_adjustment_get_page_size (page_adj));
  g_assert_true (graphene_rect_equal (&board_calls, &board_engine));
  g_assert_true (graphene_rect_equal (&steps_calls, &steps_engine));
  g_assert_cmpfloat (gtk_adjustment_get_page_size (games_adj), >=, 5 * row_height);
  gtk_window_destroy (GTK_WINDOW (window));
}

static int
natural_width (GtkWidget *widget)
{
  int nat;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &nat, NULL, NULL);
  return nat;
}

static gboolean
revealed_as_asked (gpointer revealer)
{
  return gtk_revealer_get_child_revealed (revealer) == gtk_revealer_get_reveal_child (revealer);
}

/* The board's and the steps' places in the window at 1200x700 with the
 * tab @side chosen, the run bar shown (@running) or not. */
static void
place_of_board (KomiWindow *window, const char *side, gboolean running,
                graphene_rect_t *board, graphene_rect_t *steps)
{
  KomiSeriesPage *page = komi_window_get_series_page (window);
  GtkRevealer *bar = GTK_REVEALER (app_test_child (window, KOMI_TYPE_WINDOW, "run_revealer"));
  GtkWidget *content = gtk_window_get_child (GTK_WINDOW (window));

  gtk_revealer_set_reveal_child (bar, running);
  gtk_stack_set_visible_child_name (GTK_STACK (app_test_child (page, KOMI_TYPE_SERIES_PAGE,
                                                               "side_stack")), side);
  g_assert_true (app_test_wait (revealed_as_asked, bar));
  settle ();
  *board = bounds_in (GTK_WIDGET (komi_series_page_get_board_view (page)), content);
  *steps = bounds_in (app_test_child (page, KOMI_TYPE_SERIES_PAGE, "step_box"), content);
  if (g_getenv ("KOMI_TEST_DUMP") != NULL)
    g_printerr ("%s, run bar %s: board %gx%g at %g,%g; steps %gx%g at %g,%g; window %dx%d\n",
                side, running ? "shown" : "hidden", board->size.width, board->size.height,
                board->origin.x, board->origin.y, steps->size.width, steps->size.height,
                steps->origin.x, steps->origin.y, gtk_widget_get_width (content),
                gtk_widget_get_height (content));
  /* The steps whole inside the window, which stays 1200x700. */
  g_assert_cmpint (gtk_widget_get_height (content), <=, 700);
  g_assert_cmpint (gtk_widget_get_width (content), <=, 1200);
  g_assert_cmpfloat (steps->origin.y, >=, 0);
  g_assert_cmpfloat (steps->origin.y + steps->size.height, <=, gtk_widget_get_height (content));
  g_assert_cmpfloat (steps->origin.x + steps->size.width, <=, gtk_widget_get_width (content));
}

/* The series page at 1200x700 as a run starts: the run bar goes under the
 * sidebar's sections, not over the page, so that the board and the steps
 * under it stay where they were, on either tab beside the board, and the
 * steps stay inside the window. */
static void
test_run_bar_keeps_board (LayoutFixture *f, gconstpointer data)
{
  const char *sides[] = { "calls", "analysis" };
  const char *pages[] = { "series", "players", "games", "ladder" };
  KomiWindow *window = komi_window_new (NULL, f->library);
  KomiSeriesPage *page = komi_window_get_series_page (window);
  GtkLabel *label = GTK_LABEL (app_test_child (window, KOMI_TYPE_WINDOW, "run_label"));
  GtkWidget *bar = app_test_child (window, KOMI_TYPE_WINDOW, "run_revealer");
  GtkButton *pause = GTK_BUTTON (app_test_child (window, KOMI_TYPE_WINDOW, "pause_button"));

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  komi_window_show_page (window, "series");
  g_assert_true (komi_series_page_select (page, 0, 23));
  g_assert_true (app_test_wait (game_on_board, page));
  /* What the bar says while the demo runs. */
  gtk_label_set_text (label, "Running \u201cDemo: the rehearsal model against random and GNU Go "
                             "level 1\u201d: 1 of 4 games \u00b7 0:47 left \u00b7 149 calls, "
                             "$0 spent");
  for (guint i = 0; i < G_N_ELEMENTS (sides); i++)
    {
      graphene_rect_t board_before, steps_before, board_after, steps_after;

      place_of_board (window, sides[i], FALSE, &board_before, &steps_before);
      place_of_board (window, sides[i], TRUE, &board_after, &steps_after);
      g_assert_true (graphene_rect_equal (&board_before, &board_after));
      g_assert_true (graphene_rect_equal (&steps_before, &steps_after));
      /* Paused, its button says Resume: nothing moves either. */
      gtk_button_set_label (pause, i == 0 ? "_Resume" : "_Pause");
      place_of_board (window, sides[i], TRUE, &board_after, &steps_after);
      g_assert_true (graphene_rect_equal (&board_before, &board_after));
      g_assert_true (graphene_rect_equal (&steps_before, &steps_after));
    }
  /* On every page the sidebar is as wide as it asks, the bar in it or not. */
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      GtkWidget *sidebar = app_test_child (window, KOMI_TYPE_WINDOW, "sidebar_box");

      komi_window_show_page (window, pages[i]);
      settle ();
      if (gtk_widget_get_width (sidebar) != natural_width (sidebar))
        g_error ("on the %s page the sidebar is %d px wide, not the %d it asks for", pages[i],
                 gtk_widget_get_width (sidebar), natural_width (sidebar));
    }
  /* Folded, the sidebar away: over the page, and back under the sections. */
  g_assert_true (gtk_widget_is_ancestor (bar, app_test_child (window, KOMI_TYPE_WINDOW,
                                                             "sidebar_box")));
  resize (GTK_WIDGET (window), 360, NULL);
  settle ();
  g_assert_true (gtk_widget_is_ancestor (bar, app_test_child (window, KOMI_TYPE_WINDOW,
                                                             "content_box")));
  resize (GTK_WIDGET (window), 1200, NULL);
  settle ();
  g_assert_true (gtk_widget_is_ancestor (bar, app_test_child (window, KOMI_TYPE_WINDOW,
                                                             "sidebar_box")));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A button whose tooltip is @tip. */
static gboolean
is_button_tipped (GtkWidget *widget, gpointer tip)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), tip) == 0;
}

static gboolean
scrolls (GtkWidget *scroller, GtkOrientation orientation)
{
  GtkPolicyType h, v;

  gtk_scrolled_window_get_policy (GTK_SCROLLED_WINDOW (scroller), &h, &v);
  return (orientation == GTK_ORIENTATION_HORIZONTAL ? h : v) != GTK_POLICY_NEVER;
}

/* The scrolled windows under @widget on the screen that scroll up and
 * down; an error for one inside another that scrolls the same way. */
static guint
vertical_scrollers (GtkWidget *widget)
{
  guint n = 0;

  if (GTK_IS_SCROLLED_WINDOW (widget) && gtk_widget_get_mapped (widget))
    {
      for (GtkWidget *up = gtk_widget_get_ancestor (gtk_widget_get_parent (widget),
                                                    GTK_TYPE_SCROLLED_WINDOW);
           up != NULL; up = gtk_widget_get_ancestor (gtk_widget_get_parent (up),
                                                      GTK_TYPE_SCROLLED_WINDOW))
        for (guint o = 0; o < 2; o++)
          if (scrolls (widget, o) && scrolls (up, o))
            g_error ("a %s scrolls %s inside a %s that does",
                     G_OBJECT_TYPE_NAME (gtk_scrolled_window_get_child (
                                           GTK_SCROLLED_WINDOW (widget))),
                     o == GTK_ORIENTATION_HORIZONTAL ? "sideways" : "up and down",
                     G_OBJECT_TYPE_NAME (gtk_scrolled_window_get_child (
                                           GTK_SCROLLED_WINDOW (up))));
      n = scrolls (widget, GTK_ORIENTATION_VERTICAL);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    n += vertical_scrollers (c);
  return n;
}

/* The Ladder page at the window's 1200x700 and at a phone's 360 px: one
 * scroller up and down for the page, the scale and the table at their
 * whole heights in it (they were two, the scale cut at 300 px over a table
 * that scrolled on its own), and no scroller inside another that scrolls
 * the same way (the table scrolls only sideways, on a phone). */
static void
test_ladder_one_scroller (LayoutFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  GtkWidget *ladder = app_test_child (window, KOMI_TYPE_WINDOW, "ladder_page");

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  komi_window_show_page (window, "ladder");
  settle ();
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (komi_ladder_page_get_scale_view (
    KOMI_LADDER_PAGE (ladder)))));
  g_assert_cmpuint (vertical_scrollers (ladder), ==, 1);
  resize (GTK_WIDGET (window), 360, NULL);
  settle ();
  g_assert_cmpuint (vertical_scrollers (ladder), ==, 1);
  g_assert_cmpint (min_width (gtk_window_get_child (GTK_WINDOW (window))), <=, 360);
  /* Copy and Save beside the scale's name, not over its legend. */
  {
    GtkWidget *scale = GTK_WIDGET (komi_ladder_page_get_scale_view (KOMI_LADDER_PAGE (ladder)));
    GtkWidget *copy = app_test_find_widget (ladder, is_button_tipped, (gpointer) "Copy Image");
    graphene_rect_t s = bounds_in (scale, ladder), c = bounds_in (copy, ladder);

    g_assert_false (graphene_rect_intersection (&s, &c, NULL));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The first label under @widget whose text starts with @prefix. */
static GtkWidget *
label_starting (GtkWidget *widget, const char *prefix)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect_labels (widget, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_has_prefix (gtk_label_get_text (labels->pdata[i]), prefix)
        && gtk_widget_get_mapped (labels->pdata[i]))
      return labels->pdata[i];
  return NULL;
}

/* Each label on the Ladder page at 1200x700 whole: none cut to "…", none
 * given less width than its text needs, and every column of the table in
 * view (issue 30: "kata…", "La…", the Games column gone when no subject
 * was rated). */
static void
test_ladder_labels_whole (LayoutFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  GtkWidget *ladder = app_test_child (window, KOMI_TYPE_WINDOW, "ladder_page");
  GtkColumnView *view = komi_list_page_get_view (KOMI_LIST_PAGE (ladder));
  GListModel *columns = gtk_column_view_get_columns (view);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  guint checked = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  komi_window_show_page (window, "ladder");
  settle ();
  collect_labels (ladder, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);
      int nat;

      if (!gtk_widget_get_mapped (label) || *gtk_label_get_text (GTK_LABEL (label)) == '\0')
        continue;
      checked++;
      gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &nat, NULL, NULL);
      if (g_getenv ("KOMI_TEST_DUMP") != NULL)
        g_printerr ("\"%s\": %d px of %d\n", gtk_label_get_text (GTK_LABEL (label)),
                    gtk_widget_get_width (label), nat);
      if (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label)))
          || (!gtk_label_get_wrap (GTK_LABEL (label)) && gtk_widget_get_width (label) < nat))
        g_error ("the ladder's \"%s\" has %d px of the %d it needs",
                 gtk_label_get_text (GTK_LABEL (label)), gtk_widget_get_width (label), nat);
    }
  g_assert_cmpuint (checked, >, 10);
  /* The model subject by its profile's name, its path only in the tooltip. */
  {
    GtkWidget *model = label_starting (GTK_WIDGET (view), PROFILE_NAME);

    g_assert_nonnull (model);
    g_assert_true (strstr (g_object_get_data (G_OBJECT (model), "komi-cell-tooltip"),
                           "many-profile.json") != NULL);
    for (guint i = 0; i < labels->len; i++)
      g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (labels->pdata[i])), ".json"));
  }
  /* The subject not rated: said short, why in the cell's tooltip. */
  {
    GtkWidget *unrated = label_starting (GTK_WIDGET (view), "not rated");

    g_assert_nonnull (unrated);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (unrated)), ==, "not rated");
    g_assert_true (g_str_has_prefix (g_object_get_data (G_OBJECT (unrated), "komi-cell-tooltip"),
                                     "not rated: "));
  }
  /* Every column's title shown, inside the table. */
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      GtkWidget *title = label_starting (GTK_WIDGET (view),
                                         gtk_column_view_column_get_title (column));
      graphene_rect_t b;

      if (title == NULL)
        g_error ("the ladder's column %s is not shown", gtk_column_view_column_get_title (column));
      b = bounds_in (title, GTK_WIDGET (view));
      g_assert_cmpfloat (b.origin.x + b.size.width, <=, gtk_widget_get_width (GTK_WIDGET (view)));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The series page's games list as results arrive: a game's Result cell
 * asks for the same width whether it says "Pending" or a score, so the
 * Opponent column beside it keeps its width. */
static void
test_series_results_width (LayoutFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  KomiSeriesPage *page = komi_window_get_series_page (window);
  GtkWidget *games = app_test_child (page, KOMI_TYPE_SERIES_PAGE, "games_view");
  GtkWidget *result, *opponent;
  const char *texts[] = { "Pending", "Started", "B+R", "W+128.5", "Draw" };
  int width, opponent_width;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  komi_window_show_page (window, "series");
  g_assert_true (komi_series_page_select (page, 0, 0));
  settle ();
  result = label_starting (games, "B+");
  if (result == NULL)
    result = label_starting (games, "W+");
  opponent = label_starting (games, "GNU Go level 3");
  g_assert_nonnull (result);
  g_assert_nonnull (opponent);
  width = natural_width (result);
  opponent_width = gtk_widget_get_width (opponent);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      gtk_label_set_text (GTK_LABEL (result), texts[i]);
      settle ();
      if (natural_width (result) != width)
        g_error ("the result \"%s\" asks for %d px, another %d px", texts[i],
                 natural_width (result), width);
      g_assert_cmpint (gtk_widget_get_width (opponent), ==, opponent_width);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* No figure of the ladder's table (right-aligned cells: Elo, games,
 * record) is cut to "…". */
static void
assert_figures_whole (GtkWidget *ladder)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  guint figures = 0;

  collect_labels (ladder, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkLabel *label = g_ptr_array_index (labels, i);

      if (gtk_widget_get_ancestor (GTK_WIDGET (label), GTK_TYPE_COLUMN_VIEW) == NULL
          || gtk_label_get_xalign (label) != 1.0f || !gtk_widget_get_mapped (GTK_WIDGET (label))
          || *gtk_label_get_text (label) == '\0')
        continue;
      figures++;
      if (pango_layout_is_ellipsized (gtk_label_get_layout (label)))
        g_error ("the ladder's \"%s\" is cut to %d px", gtk_label_get_text (label),
                 gtk_widget_get_width (GTK_WIDGET (label)));
    }
  g_assert_cmpuint (figures, >, 0);
}

/* After the window has been as wide as a large screen, it goes down to a
 * phone's width again on every page, switching pages there keeps it so,
 * and the games list's columns give back the width they were given. */
static void
test_wide_then_narrow (LayoutFixture *f, gconstpointer data)
{
  const char *pages[] = { "series", "games", "players", "ladder", "series" };
  KomiWindow *window = komi_window_new (NULL, f->library);
  KomiSeriesPage *page = komi_window_get_series_page (window);
  GListModel *monitors = gdk_display_get_monitors (gdk_display_get_default ());
  g_autoptr(GdkMonitor) monitor = g_list_model_get_item (monitors, 0);
  GdkRectangle screen;
  int wide;

  /* As wide as the screen allows, 1920 px at most (the suite runs this
   * test on a screen of 1920x1080: the series page lays its parts out in
   * a row only beyond 1366 px). */
  gdk_monitor_get_geometry (monitor, &screen);
  wide = MIN (screen.width, 1920);
  gtk_window_set_default_size (GTK_WINDOW (window), wide, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  komi_window_show_page (window, "series");
  g_assert_true (komi_series_page_select (page, 0, 23));
  g_assert_true (app_test_wait (game_on_board, page));
  for (guint i = 0; i < G_N_ELEMENTS (pages) - 1; i++)
    {
      komi_window_show_page (window, pages[i]);
      resize (GTK_WIDGET (window), wide, NULL);
      settle ();
      g_test_message ("page %s", pages[i]);
      resize (GTK_WIDGET (window), 365, NULL);
      settle ();
      if (g_getenv ("KOMI_TEST_DUMP") != NULL)
        dump_minimums (GTK_WIDGET (window), 0);
      g_assert_cmpint (min_width (gtk_window_get_child (GTK_WINDOW (window))), <=, 365);
      if (g_str_equal (pages[i], "ladder"))
        assert_figures_whole (app_test_child (window, KOMI_TYPE_WINDOW, "ladder_page"));
      /* The next page, at that width: the window stays as it is. */
      komi_window_show_page (window, pages[i + 1]);
      settle ();
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 365);
      g_assert_cmpint (min_width (gtk_window_get_child (GTK_WINDOW (window))), <=, 365);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The review window of the library's first game at its final position,
 * whose count is the longest line under the board. */
static KomiReviewWindow *
open_final (LayoutFixture *f, int width, int height)
{
  GListModel *rows = komi_games_page_get_rows (f->page);
  g_autoptr(KomiGameItem) first = g_list_model_get_item (rows, 0);
  KomiReviewWindow *review = komi_review_window_new (NULL, f->library, first->game->id);

  gtk_window_set_default_size (GTK_WINDOW (review), width, height);
  gtk_window_present (GTK_WINDOW (review));
  g_assert_true (app_test_wait (loaded, review));
  komi_review_window_show_step (review, komi_review_window_get_review (review)->replay->n_steps - 1);
  settle ();
  return review;
}

/* @name of the review window whole inside it. */
static void
assert_inside (KomiReviewWindow *review, const char *name)
{
  GtkWidget *widget = app_test_child (review, KOMI_TYPE_REVIEW_WINDOW, name);
  GtkWidget *content = gtk_window_get_child (GTK_WINDOW (review));
  graphene_rect_t b = bounds_in (widget, content);

  if (b.origin.y + b.size.height > gtk_widget_get_height (content) + 0.5
      || b.origin.x + b.size.width > gtk_widget_get_width (content) + 0.5)
    g_error ("the review window's %s ends at %gx%g, outside its %dx%d", name,
             b.origin.x + b.size.width, b.origin.y + b.size.height,
             gtk_widget_get_width (content), gtk_widget_get_height (content));
}

/* The review window at small sizes: at 800x517 the final count wraps and
 * the slider, the count and the calls stay inside the window; at a
 * phone's 360 px it asks for no more height than a phone has (740 px). */
static void
test_review_small (LayoutFixture *f, gconstpointer data)
{
  KomiReviewWindow *review = open_final (f, 800, 517);
  GtkLabel *status = GTK_LABEL (app_test_child (review, KOMI_TYPE_REVIEW_WINDOW, "status_label"));
  int min, nat;

  g_assert_nonnull (strstr (gtk_label_get_text (status), "territory"));
  if (g_getenv ("KOMI_TEST_DUMP") != NULL)
    g_printerr ("800: window %dx%d, count %d px wide: %s\n",
                gtk_widget_get_width (GTK_WIDGET (review)),
                gtk_widget_get_height (GTK_WIDGET (review)),
                gtk_widget_get_width (GTK_WIDGET (status)), gtk_label_get_text (status));
  if (g_getenv ("KOMI_TEST_DUMP") != NULL)
    dump_minimums (GTK_WIDGET (review), 0);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (review)), <=, 517);
  assert_inside (review, "slider");
  assert_inside (review, "status_label");
  assert_inside (review, "side_box");
  gtk_window_destroy (GTK_WINDOW (review));

  review = open_final (f, 360, 740);
  gtk_widget_measure (gtk_window_get_child (GTK_WINDOW (review)), GTK_ORIENTATION_VERTICAL,
                      360, &min, &nat, NULL, NULL);
  if (g_getenv ("KOMI_TEST_DUMP") != NULL)
    dump_heights (GTK_WIDGET (review), 0);
  if (g_getenv ("KOMI_TEST_DUMP") != NULL)
    g_printerr ("360: least height %d, window %dx%d\n", min,
                gtk_widget_get_width (GTK_WIDGET (review)),
                gtk_widget_get_height (GTK_WIDGET (review)));
  g_assert_cmpint (min, <=, 740);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (review)), <=, 740);
  assert_inside (review, "slider");
  gtk_window_destroy (GTK_WINDOW (review));
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add ("/komi/app/layout/player-names", LayoutFixture, NULL, layout_set_up,
              test_player_names, layout_tear_down);
  g_test_add ("/komi/app/layout/engine-move", LayoutFixture, NULL, layout_set_up,
              test_engine_move, layout_tear_down);
  g_test_add ("/komi/app/layout/narrow-windows", LayoutFixture, NULL, layout_set_up,
              test_narrow_windows, layout_tear_down);
  g_test_add ("/komi/app/layout/narrow-long-names", LayoutFixture, NULL, long_set_up,
              test_narrow_long_names, layout_tear_down);
  g_test_add ("/komi/app/layout/narrow-games-left", LayoutFixture, NULL, layout_set_up,
              test_narrow_games_left, layout_tear_down);
  g_test_add ("/komi/app/layout/review-small", LayoutFixture, NULL, layout_set_up,
              test_review_small, layout_tear_down);
  g_test_add ("/komi/app/layout/wide-then-narrow", LayoutFixture, NULL, many_set_up,
              test_wide_then_narrow, layout_tear_down);
  g_test_add ("/komi/app/layout/series-default-size", LayoutFixture, NULL, many_set_up,
              test_series_default_size, layout_tear_down);
  g_test_add ("/komi/app/layout/run-bar-keeps-board", LayoutFixture, NULL, many_set_up,
              test_run_bar_keeps_board, layout_tear_down);
  g_test_add ("/komi/app/layout/ladder-one-scroller", LayoutFixture, NULL, many_set_up,
              test_ladder_one_scroller, layout_tear_down);
  g_test_add ("/komi/app/layout/ladder-labels-whole", LayoutFixture, NULL, many_set_up,
              test_ladder_labels_whole, layout_tear_down);
  g_test_add ("/komi/app/layout/series-results-width", LayoutFixture, NULL, many_set_up,
              test_series_results_width, layout_tear_down);
  return g_test_run ();
}
