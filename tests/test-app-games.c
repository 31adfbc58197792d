/* test-app-games.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "komi-app-test-dialog.h"
#include "komi-export.h"
#include "komi-games-page.h"
#include "komi-store-test-util.h"
#include "komi-review-window.h"
#include "komi-sgf-record.h"
#include "komi-window-private.h"
#include "komi-window.h"

/* The Games page over a real library written through the store: the games
 * it lists, each filter against the games the store lists, sorting, the
 * empty state, and a row's activation. Expectations are worked out here
 * from the store's own listing, not with the page's code. */

typedef struct
{
  char          *dir;
  char          *path;
  GPtrArray     *games;      /* KomiStoreGame: the store's listing, played ones */
  KomiLibrary   *library;
  GtkWindow     *window;
  KomiGamesPage *page;
  gint64         activated;  /* the id win.review-game got; 0: none */
} GamesFixture;

static gboolean
settled (gpointer library)
{
  return komi_library_get_state (library) != KOMI_LIBRARY_STATE_LOADING;
}

static void
review_game (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  ((GamesFixture *) data)->activated = g_variant_get_int64 (parameter);
}

/* Three series (one not started, whose games are not listed) and a second
 * subject; the page alone in a window whose "win" group has a
 * review-game action that records its parameter. */
static void
games_set_up (GamesFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) reader = NULL;
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) review = g_simple_action_new ("review-game", G_VARIANT_TYPE_INT64);
  GPtrArray *all;

  f->dir = g_dir_make_tmp ("komi-games-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "library.db", NULL);
  {
    g_autoptr(KomiStore) store = test_open_store (f->path);
    g_autoptr(TestSeries) pending = test_series_new ("Not started", 12, 2);
    gint64 id;

    test_add_series (store, "Against random", 11, "gtp:subject", "random", 3, FALSE);
    test_add_series (store, "Against a stranger", 13, "gtp:subject", "gtp:stranger", 1, TRUE);
    test_add_series (store, "Another subject", 17, "gtp:other", "random", 1, FALSE);
    g_assert_true (komi_store_begin_series (store, &pending->series, pending->plan, &id,
                                            &error));
    g_assert_no_error (error);
  }
  reader = komi_store_open_reader (f->path, &error);
  g_assert_no_error (error);
  all = komi_store_list_games (reader, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  f->games = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_store_game_free);
  for (guint i = 0; i < all->len; i++)
    if (((KomiStoreGame *) g_ptr_array_index (all, i))->status != KOMI_GAME_STATUS_PENDING)
      g_ptr_array_add (f->games, g_ptr_array_index (all, i));
    else
      komi_store_game_free (g_ptr_array_index (all, i));
  g_ptr_array_set_free_func (all, NULL);
  g_ptr_array_unref (all);
  g_assert_cmpuint (f->games->len, ==, 10);

  f->library = komi_library_new (f->path);
  f->page = g_object_new (KOMI_TYPE_GAMES_PAGE, NULL);
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 1200, 700);
  gtk_window_set_child (f->window, GTK_WIDGET (f->page));
  g_signal_connect (review, "activate", G_CALLBACK (review_game), f);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (review));
  gtk_widget_insert_action_group (GTK_WIDGET (f->window), "win", G_ACTION_GROUP (group));
  komi_games_page_set_library (f->page, f->library);
  komi_library_reload (f->library);
  gtk_window_present (f->window);
  g_assert_true (app_test_wait (settled, f->library));
  g_assert_true (app_test_wait (app_test_has_size, f->window));
}

static void
games_tear_down (GamesFixture *f, gconstpointer data)
{
  gtk_window_destroy (f->window);
  g_object_unref (f->library);
  g_ptr_array_unref (f->games);
  remove_test_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static gpointer
child (GamesFixture *f, const char *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (f->page), KOMI_TYPE_GAMES_PAGE, name);
}

static const char *
subject_spec (const KomiStoreGame *g)
{
  return g->subject == KOMI_BLACK ? g->black_spec : g->white_spec;
}

static const char *
opponent_spec (const KomiStoreGame *g)
{
  return g->subject == KOMI_BLACK ? g->white_spec : g->black_spec;
}

typedef gboolean (*GamePredicate) (const KomiStoreGame *g);

/* The page shows exactly the games @want holds for (as ids, in any order),
 * fewer than all of them. Returns how many. */
static guint
assert_rows (GamesFixture *f, GamePredicate want)
{
  GListModel *rows = komi_games_page_get_rows (f->page);
  g_autoptr(GHashTable) shown = g_hash_table_new (g_int64_hash, g_int64_equal);
  guint expected = 0;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(KomiGameItem) item = g_list_model_get_item (rows, i);

      g_hash_table_add (shown, &item->game->id);
    }
  for (guint i = 0; i < f->games->len; i++)
    {
      KomiStoreGame *g = g_ptr_array_index (f->games, i);

      g_assert_cmpint (g_hash_table_contains (shown, &g->id), ==, want (g));
      expected += want (g) ? 1 : 0;
    }
  g_assert_cmpuint (g_hash_table_size (shown), ==, expected);
  g_assert_cmpuint (expected, <, f->games->len);
  return expected;
}

static gboolean
in_first_series (const KomiStoreGame *g)
{
  return g_str_equal (g->series_name, "Against random");
}

static gboolean
by_other (const KomiStoreGame *g)
{
  return g_str_equal (subject_spec (g), "gtp:other");
}

static gboolean
vs_stranger (const KomiStoreGame *g)
{
  return g_str_equal (opponent_spec (g), "gtp:stranger");
}

static gboolean as_white (const KomiStoreGame *g) { return g->subject == KOMI_WHITE; }

static gboolean
won (const KomiStoreGame *g)
{
  return g->status == KOMI_GAME_STATUS_FINISHED && g->has_winner && g->winner == g->subject;
}

static gboolean
lost (const KomiStoreGame *g)
{
  return g->status == KOMI_GAME_STATUS_FINISHED && g->has_winner && g->winner != g->subject
         && g->winner != KOMI_EMPTY;
}

static gboolean
forfeited (const KomiStoreGame *g)
{
  return g->status == KOMI_GAME_STATUS_FORFEIT;
}

static gboolean voided (const KomiStoreGame *g) { return g->status == KOMI_GAME_STATUS_VOID; }

static gboolean
two_passes (const KomiStoreGame *g)
{
  return g->status == KOMI_GAME_STATUS_FINISHED && g->end_reason == KOMI_END_TWO_PASSES;
}

static gboolean
other_as_white (const KomiStoreGame *g)
{
  return by_other (g) && as_white (g);
}

static void
select_named (GamesFixture *f, const char *drop_name, const char *prefix)
{
  GtkDropDown *drop = child (f, drop_name);
  GListModel *model = gtk_drop_down_get_model (drop);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (g_str_has_prefix (gtk_string_list_get_string (GTK_STRING_LIST (model), i), prefix))
      {
        gtk_drop_down_set_selected (drop, i);
        return;
      }
  g_error ("no “%s…” in %s", prefix, drop_name);
}

static void
test_lists_games (GamesFixture *f, gconstpointer data)
{
  GListModel *rows = komi_games_page_get_rows (f->page);
  GListModel *all = komi_library_get_games (f->library);

  /* Every game played, of every series; none of the one not started. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, f->games->len);
  g_assert_cmpuint (g_list_model_get_n_items (all), ==, f->games->len);
  g_assert_cmpstr (gtk_label_get_text (child (f, "count_label")), ==, "10 games");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (child (f, "results_stack")), ==, "list");
  /* Newest first: dates never increase down the list. */
  for (guint i = 1; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(KomiGameItem) a = g_list_model_get_item (rows, i - 1);
      g_autoptr(KomiGameItem) b = g_list_model_get_item (rows, i);

      g_assert_cmpstr (a->game->started, >=, b->game->started);
    }
}

static gboolean
search_applied (gpointer data)
{
  return g_list_model_get_n_items (komi_games_page_get_rows (data)) == 2;
}

static void
test_filters (GamesFixture *f, gconstpointer data)
{
  guint n;

  select_named (f, "series_drop", "Against random");
  g_assert_cmpuint (assert_rows (f, in_first_series), ==, 6);
  komi_games_page_clear_filters (f->page);

  select_named (f, "player_drop", "other");
  g_assert_cmpuint (assert_rows (f, by_other), ==, 2);
  /* Filters combine. */
  gtk_drop_down_set_selected (child (f, "colour_drop"), 2);
  g_assert_cmpuint (assert_rows (f, other_as_white), ==, 1);
  g_assert_cmpstr (gtk_label_get_text (child (f, "count_label")), ==, "1 of 10 games");
  komi_games_page_clear_filters (f->page);

  select_named (f, "opponent_drop", "stranger");
  g_assert_cmpuint (assert_rows (f, vs_stranger), ==, 2);
  komi_games_page_clear_filters (f->page);

  gtk_drop_down_set_selected (child (f, "colour_drop"), 2);
  g_assert_cmpuint (assert_rows (f, as_white), ==, 5);
  komi_games_page_clear_filters (f->page);

  gtk_drop_down_set_selected (child (f, "result_drop"), 1);
  n = assert_rows (f, won);
  gtk_drop_down_set_selected (child (f, "result_drop"), 2);
  n += assert_rows (f, lost);
  g_assert_cmpuint (n, >, 0);   /* random games: some decided, forfeits and voids not */
  komi_games_page_clear_filters (f->page);

  gtk_drop_down_set_selected (child (f, "end_drop"), 1);
  assert_rows (f, two_passes);
  gtk_drop_down_set_selected (child (f, "end_drop"), 3);
  g_assert_cmpuint (assert_rows (f, forfeited), ==, 1);
  gtk_drop_down_set_selected (child (f, "end_drop"), 4);
  g_assert_cmpuint (assert_rows (f, voided), ==, 1);
  komi_games_page_clear_filters (f->page);

  /* The search entry reports after a short pause. */
  gtk_editable_set_text (GTK_EDITABLE (child (f, "search_entry")), "STRANGER");
  g_assert_true (app_test_wait (search_applied, f->page));
  assert_rows (f, vs_stranger);
}

/* The margin as the subject sees it; NAN when not known. */
static double
subject_margin (const KomiStoreGame *g)
{
  if (!g->has_winner || isnan (g->margin))
    return NAN;
  return g->winner == g->subject || g->winner == KOMI_EMPTY ? g->margin : -g->margin;
}

/* Margins in order, @sign 1 ascending and -1 descending; unknown margins
 * (forfeit, void) rank below every known one: first going up, last down. */
static void
assert_margin_order (GamesFixture *f, int sign)
{
  GListModel *rows = komi_games_page_get_rows (f->page);
  gboolean seen_known = FALSE, seen_unknown = FALSE;
  double last = 0;

  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, f->games->len);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(KomiGameItem) item = g_list_model_get_item (rows, i);
      double m = subject_margin (item->game);

      if (isnan (m))
        {
          g_assert_false (sign > 0 && seen_known);
          seen_unknown = TRUE;
          continue;
        }
      g_assert_false (sign < 0 && seen_unknown);
      if (seen_known)
        g_assert_cmpfloat (sign * m, >=, sign * last);
      seen_known = TRUE;
      last = m;
    }
  g_assert_true (seen_known && seen_unknown);
}

static void
test_sort_by_margin (GamesFixture *f, gconstpointer data)
{
  GtkColumnView *view = child (f, "view");
  g_autoptr(GtkColumnViewColumn) margin = NULL;
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns) && margin == NULL; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_str_equal (gtk_column_view_column_get_title (column), "Margin"))
        margin = g_steal_pointer (&column);
    }
  g_assert_nonnull (margin);
  gtk_column_view_sort_by_column (view, margin, GTK_SORT_ASCENDING);
  assert_margin_order (f, 1);
  gtk_column_view_sort_by_column (view, margin, GTK_SORT_DESCENDING);
  assert_margin_order (f, -1);
}

static gboolean
none_two_passes_vs_stranger (const KomiStoreGame *g)
{
  return FALSE;
}

static void
test_empty_state (GamesFixture *f, gconstpointer data)
{
  /* The stranger's games were forfeited and voided: none ended by passes. */
  select_named (f, "opponent_drop", "stranger");
  gtk_drop_down_set_selected (child (f, "end_drop"), 1);
  assert_rows (f, none_two_passes_vs_stranger);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (child (f, "results_stack")), ==, "empty");
  g_assert_true (gtk_widget_get_mapped (child (f, "clear_button")));

  g_signal_emit_by_name (child (f, "clear_button"), "clicked");
  g_assert_cmpuint (g_list_model_get_n_items (komi_games_page_get_rows (f->page)), ==,
                    f->games->len);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (child (f, "results_stack")), ==, "list");
  g_assert_cmpuint (gtk_drop_down_get_selected (child (f, "opponent_drop")), ==, 0);
  g_assert_cmpuint (gtk_drop_down_get_selected (child (f, "end_drop")), ==, 0);
}

static void
test_activate_row (GamesFixture *f, gconstpointer data)
{
  GListModel *rows = komi_games_page_get_rows (f->page);
  g_autoptr(KomiGameItem) third = g_list_model_get_item (rows, 2);

  /* As a double-click or Enter on the row does. */
  g_signal_emit_by_name (child (f, "view"), "activate", 2);
  g_assert_cmpint (f->activated, ==, third->game->id);
}

/* A game activated on the Games page opens in a review window of its own. */
static void
test_window_review_game (GamesFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  KomiStoreGame *game = g_ptr_array_index (f->games, 7);
  g_autoptr(GList) toplevels = NULL;
  KomiReviewWindow *review = NULL;

  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "games");
  g_assert_cmpstr (komi_window_get_page (window), ==, "games");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.review-game", "x", game->id);
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (KOMI_IS_REVIEW_WINDOW (l->data))
      review = l->data;
  g_assert_nonnull (review);
  g_assert_cmpint (komi_review_window_get_game_id (review), ==, game->id);
  g_assert_cmpstr (komi_window_get_page (window), ==, "games");
  gtk_window_destroy (GTK_WINDOW (review));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
page_has_rows (gpointer model)
{
  return g_list_model_get_n_items (G_LIST_MODEL (model)) >= 6;
}

static gboolean
folder_has_three (gpointer path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint n = 0;

  /* Finished files only: each is written beside itself under a temporary
   * name and then renamed, so an entry that is not yet a .sgf is one
   * still being written. */
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    n += g_str_has_suffix (name, ".sgf");
  return n == 3;
}

/* A selection of games goes out as one SGF file each, with the moves the
 * library has; the button counts them, and is off with none selected. */
static void
test_export_selection (GamesFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  GtkSelectionModel *model;
  GtkWidget *page;
  g_autoptr(GArray) ids = NULL;
  g_autofree char *out = g_build_filename (f->dir, "chosen", NULL);
  g_autoptr(KomiStore) reader = NULL;
  g_autoptr(GError) error = NULL;
  guint n_files = 0;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (settled, f->library));
  page = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), KOMI_TYPE_WINDOW,
                                                    "games_page"));
  model = gtk_column_view_get_model (GTK_COLUMN_VIEW (gtk_widget_get_template_child (
                                       page, KOMI_TYPE_GAMES_PAGE, "view")));
  g_assert_true (app_test_wait (page_has_rows, model));
  ids = komi_games_page_dup_selected_ids (KOMI_GAMES_PAGE (page));
  g_assert_cmpuint (ids->len, ==, 0);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (gtk_widget_get_template_child (
                    page, KOMI_TYPE_GAMES_PAGE, "export_button"))));
  g_clear_pointer (&ids, g_array_unref);

  g_assert_true (gtk_selection_model_select_item (model, 0, TRUE));
  g_assert_true (gtk_selection_model_select_item (model, 2, FALSE));
  g_assert_true (gtk_selection_model_select_item (model, 5, FALSE));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (gtk_widget_get_template_child (
                     page, KOMI_TYPE_GAMES_PAGE, "export_button"))), ==, "_Export 3 Games…");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (gtk_widget_get_template_child (
                   page, KOMI_TYPE_GAMES_PAGE, "export_button"))));
  ids = komi_games_page_dup_selected_ids (KOMI_GAMES_PAGE (page));
  g_assert_cmpuint (ids->len, ==, 3);

  _komi_window_export_games_to (window, (const gint64 *) ids->data, ids->len, out);
  g_assert_true (app_test_wait_seconds (folder_has_three, out, 60));

  reader = komi_store_open_reader (f->path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      g_autoptr(KomiStoreGame) game = komi_store_load_game (reader, id, &error);
      g_autofree char *name = NULL;
      g_autofree char *file = NULL;
      g_autoptr(KomiSgfRecord) record = NULL;

      g_assert_no_error (error);
      name = komi_export_sgf_file_name (game);
      file = g_build_filename (out, name, NULL);
      if (!g_file_test (file, G_FILE_TEST_EXISTS))
        {
          g_autofree char *unique = g_strdup_printf ("%" G_GINT64_FORMAT "-%s", id, name);

          g_free (file);
          file = g_build_filename (out, unique, NULL);
        }
      record = komi_sgf_record_load (file, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (record->moves->len, ==, game->moves->len);
      g_assert_cmpmem (record->moves->data, record->moves->len * sizeof (KomiMove),
                       game->moves->data, game->moves->len * sizeof (KomiMove));
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, 3);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static gboolean
has_folder (gpointer chooser)
{
  g_autoptr(GFile) folder = gtk_file_chooser_get_current_folder (chooser);

  return folder != NULL;
}

/* The folder the chooser shows, once it has one. */
static char *
chooser_folder (GtkWidget *chooser)
{
  g_assert_true (app_test_wait (has_folder, chooser));
  g_autoptr(GFile) folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (chooser));

  return folder != NULL ? g_file_get_path (folder) : NULL;
}

static gboolean
series_game_shown (gpointer window)
{
  return komi_series_page_get_replay (komi_window_get_series_page (window), NULL) != NULL;
}

/* Export Game proposes the game's own short name, and a folder a person
 * keeps files in (Documents, else home) until an export went elsewhere:
 * then that folder. Under Xvfb there is no portal: GTK's own dialog. */
static void
test_export_chooser (GamesFixture *f, gconstpointer data)
{
  KomiWindow *window = komi_window_new (NULL, f->library);
  const KomiStoreGame *game = f->games->pdata[0];
  g_autofree char *name = komi_export_sgf_file_name (game);
  g_autofree char *target = g_build_filename (f->dir, "mine.sgf", NULL);
  g_autoptr(GFile) dir = g_file_new_for_path (f->dir);
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  const char *expected = documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR)
                         ? documents : g_get_home_dir ();
  GtkWidget *chooser = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *current_name = NULL;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (settled, f->library));
  /* A game shown on the series page: with none, the export items are
   * greyed out (issue 30). */
  g_assert_true (komi_series_page_select (komi_window_get_series_page (window), 0, 0));
  g_assert_true (app_test_wait (series_game_shown, window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-game", "x",
                                             game->id));
  g_assert_true (app_test_wait (app_test_find_chooser, &chooser));
  current_name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser));
  g_assert_cmpstr (current_name, ==, name);
  g_assert_true (g_str_has_prefix (name, "series-"));
  folder = chooser_folder (chooser);
  g_assert_cmpstr (folder, ==, expected);

  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), dir, NULL));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "mine.sgf");
  g_assert_true (app_test_wait (app_test_chooser_has_file, chooser));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  g_assert_true (app_test_wait_seconds (file_exists, target, 60));

  /* The next one starts where that went. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-game", "x",
                                             game->id));
  chooser = NULL;
  g_assert_true (app_test_wait (app_test_find_chooser, &chooser));
  g_free (folder);
  folder = chooser_folder (chooser);
  g_assert_cmpstr (folder, ==, f->dir);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/games/lists-games", GamesFixture, NULL, games_set_up,
              test_lists_games, games_tear_down);
  g_test_add ("/komi/app/games/filters", GamesFixture, NULL, games_set_up,
              test_filters, games_tear_down);
  g_test_add ("/komi/app/games/sort-by-margin", GamesFixture, NULL, games_set_up,
              test_sort_by_margin, games_tear_down);
  g_test_add ("/komi/app/games/empty-state", GamesFixture, NULL, games_set_up,
              test_empty_state, games_tear_down);
  g_test_add ("/komi/app/games/activate-row", GamesFixture, NULL, games_set_up,
              test_activate_row, games_tear_down);
  g_test_add ("/komi/app/games/export-selection", GamesFixture, NULL, games_set_up,
              test_export_selection, games_tear_down);
  g_test_add ("/komi/app/games/export-chooser", GamesFixture, NULL, games_set_up,
              test_export_chooser, games_tear_down);
  g_test_add ("/komi/app/games/window-review-game", GamesFixture, NULL, games_set_up,
              test_window_review_game, games_tear_down);
  return g_test_run ();
}
