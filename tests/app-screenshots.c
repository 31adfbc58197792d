/* app-screenshots.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "app-screenshots-dialogs.h"
#include "app-screenshots-shards.h"
#include "komi-app-test-util.h"
#include "komi-games-page.h"
#include "komi-list-page.h"
#include "komi-preferences-window.h"
#include "komi-review-window.h"
#include "komi-settings.h"
#include "komi-window-private.h"
#include "komi-window.h"

/* Screenshots of the main window for data/screenshots/: each section, light
 * and dark, on a 1366x768 screen, taken with ImageMagick's `import -window
 * root` as a person would see them. Not a test: run it by hand under Xvfb,
 *
 *   xvfb-run -a -s "-screen 0 1366x768x24" _build/tests/app-screenshots \
 *     --db LIBRARY.db [--only NAME] data/screenshots
 *
 * and look at every image it writes. running-demo-wide wants a large screen:
 * take it alone under -screen 0 1920x1080x24 (--only running-demo-w). */

typedef struct
{
  const char *name;
  const char *page;
  gboolean    dark;
  int         width;    /* 0: the window's default size */
  gboolean    missing;  /* a library that does not exist yet */
  gboolean    run_demo; /* a fresh library, the demo series running */
  const char *dialog;   /* the series dialog open, with this subject ("": as it opens;
                         * "@priced": a priced model profile and a budget) */
  const char *tested;   /* these opponents in the dialog, and its Test pressed */
  gboolean    list;     /* the folded list of series brought out */
  gboolean    calls;    /* the second series' first game at move 3, with its calls */
  const char *provider; /* the provider dialog: "refused", or "tested" (saved, then tested
                         * against the rehearsal server) */
  const char *opponent; /* the opponent dialog from New Series: "katago" (refused), or
                         * "gnugo" (tested) */
  gboolean    interrupted; /* a fresh library whose `komi-cli run` was killed mid-series */
  int         height;   /* with width: 0 is 700 */
  gboolean    review;   /* the review window on the library's first model game with a
                         * retried call, at that move */
  gboolean    analysis; /* the engine review of the first series' third game, analysed
                         * by GNU Go from the panel, at the subject's first blunder */
  gboolean    shards;   /* Watch Shards over 4 komi-cli run --shard processes */
  int         review_width; /* with review: the review window's width (0: 1366) */
  gboolean    board;    /* the series page scrolled down to the board's buttons */
  gboolean    final;    /* with review: at the game's final position, its count */
  gboolean    verify;   /* Verify Library run on a copy of the library with one game's
                         * result altered */
  gboolean    thresholds; /* with analysis: its thresholds' menu open, 500 refused */
  const char *extra;    /* "export": a game exported, its toast; "menu": the main menu
                         * open; "checking": Preferences checking a GNU Go that never
                         * answers; "shortcuts": with review, Ctrl+? over it; "graph":
                         * with review, its Engine Review (the score graph);
                         * "table": the Ladder page scrolled to its table */
} Shot;

static const Shot shots[] = {
  { "series-light", "series", FALSE, 0, FALSE },
  { "series-dark", "series", TRUE, 0, FALSE },
  { "players-light", "players", FALSE, 0, FALSE },
  { "ladder-light", "ladder", FALSE, 0, FALSE },
  { "ladder-dark", "ladder", TRUE, 0, FALSE },
  /* Scrolled down to the table: every column whole at 1200x700. */
  { "ladder-table", "ladder", FALSE, 0, .extra = "table" },
  { "games-light", "games", FALSE, 0, FALSE },
  { "games-no-match", "games", TRUE, 0, FALSE },   /* a search nothing matches */
  { "games-verified", "games", FALSE, 0, .verify = TRUE },
  { "games-verified-dark", "games", TRUE, 0, .verify = TRUE },
  { "series-folded", "series", FALSE, 640, FALSE },   /* as narrow as it goes */
  { "series-folded-list", "series", FALSE, 640, FALSE, FALSE, NULL, NULL, TRUE },
  { "review-model-calls", "series", FALSE, 0, FALSE, FALSE, NULL, NULL, FALSE, TRUE },
  { "first-start-dark", "series", TRUE, 0, TRUE },
  { "running-demo", "series", FALSE, 0, FALSE, TRUE },
  /* The live game on a large screen (run under -screen 0 1920x1080x24) and
   * on a narrow window. */
  { "running-demo-wide", "series", FALSE, 1920, FALSE, TRUE, .height = 1048 },
  { "running-demo-narrow", "series", FALSE, 800, FALSE, TRUE, .height = 700 },
  /* On a phone's width the sidebar folds away: the run bar over the page. */
  { "running-demo-360", "series", FALSE, 360, FALSE, TRUE, .height = 740 },
  { "series-dialog", "series", FALSE, 0, FALSE, FALSE, "" },
  { "series-dialog-estimate", "series", FALSE, 0, FALSE, FALSE, "@priced" },
  { "series-dialog-refused-dark", "series", TRUE, 0, FALSE, FALSE, "gnugo:11" },
  { "series-dialog-tested", "series", FALSE, 0, FALSE, FALSE, "gnugo:1",
    "random, gtp:/bin/false" },
  { "provider-dialog-refused", "series", FALSE, 0, FALSE, FALSE, NULL, NULL, FALSE, FALSE,
    "refused" },
  { "provider-dialog-tested-dark", "series", TRUE, 0, FALSE, FALSE, NULL, NULL, FALSE, FALSE,
    "tested" },
  { "provider-dialog-testing", "series", FALSE, 0, FALSE, FALSE, NULL, NULL, FALSE, FALSE,
    "testing" },
  { "opponent-dialog-tested", "series", FALSE, 0, FALSE, FALSE, NULL, NULL, FALSE, FALSE,
    NULL, "gnugo" },
  { "opponent-dialog-refused-dark", "series", TRUE, 0, FALSE, FALSE, NULL, NULL, FALSE, FALSE,
    NULL, "katago" },
  { "opponent-dialog-testing", "series", FALSE, 0, FALSE, FALSE, NULL, NULL, FALSE, FALSE,
    NULL, "testing" },
  /* The windows from a phone's width to a large screen's (issue 14): the
   * 1920 px ones alone under -screen 0 1920x1080x24 (--only width-1920). */
  { "width-360-series", "series", FALSE, 360, .height = 740 },
  { "width-360-board", "series", FALSE, 360, .height = 740, .board = TRUE },
  { "width-360-games", "games", FALSE, 360, .height = 740 },
  { "width-360-ladder", "ladder", FALSE, 360, .height = 740 },
  { "width-360-ladder-table", "ladder", FALSE, 360, .height = 740, .extra = "table" },
  { "width-360-review", "series", FALSE, 360, .height = 740, .review = TRUE, .review_width = 360 },
  { "width-800-series", "series", FALSE, 800, .height = 740 },
  { "width-800-review", "series", FALSE, 800, .height = 740, .review = TRUE, .review_width = 800 },
  /* A short window: the count wraps, the slider and the calls in it. */
  { "width-800-review-short", "series", FALSE, 800, .height = 517, .review = TRUE,
    .review_width = 800, .final = TRUE },
  { "width-1366-series", "series", FALSE, 1366, .height = 740 },
  { "width-1366-review", "series", TRUE, 1366, .height = 740, .review = TRUE,
    .review_width = 1366 },
  { "width-1920-series", "series", FALSE, 1920, .height = 1048 },
  { "width-1920-ladder", "ladder", FALSE, 1920, .height = 1048 },
  { "width-1920-review", "series", FALSE, 1920, .height = 1048, .review = TRUE,
    .review_width = 1920 },
  { "review-window-light", "series", FALSE, .review = TRUE },
  { "review-window-dark", "series", TRUE, .review = TRUE },
  /* On a library whose model series was killed while a best_point call
   * was out, then resumed: the turn's attempts and which decided the move. */
  { "review-resumed-turn", "series", FALSE, .review = TRUE },
  { "interrupted-offer", "series", FALSE, 0, FALSE, FALSE, NULL, NULL, FALSE, FALSE, NULL, NULL,
    TRUE },
  { "analysis-light", "series", FALSE, 0, .analysis = TRUE },
  { "analysis-dark", "series", TRUE, 0, .analysis = TRUE },
  { "analysis-thresholds-refused", "series", FALSE, 0, .analysis = TRUE, .thresholds = TRUE },
  { "shards-watch", "series", FALSE, 0, .shards = TRUE },
  /* Issue 30: the export's toast with its folder; nothing to export, the
   * items greyed out; Check's Cancel; the shortcuts over a review. */
  { "export-toast", "series", FALSE, 0, .extra = "export" },
  { "menu-nothing-to-export", "series", FALSE, 0, TRUE, .extra = "menu" },
  { "preferences-checking", "series", FALSE, 0, .extra = "checking" },
  { "review-shortcuts", "series", FALSE, .review = TRUE, .extra = "shortcuts" },
  { "review-window-engine", "series", FALSE, .review = TRUE, .extra = "graph" },
};

static gboolean
is_side_stack (GtkWidget *widget, gpointer data)
{
  return GTK_IS_STACK (widget) && gtk_stack_get_child_by_name (GTK_STACK (widget), "analysis");
}

static gboolean
is_engines_page (GtkWidget *widget, gpointer data)
{
  return ADW_IS_PREFERENCES_PAGE (widget)
         && g_strcmp0 (adw_preferences_page_get_title (ADW_PREFERENCES_PAGE (widget)),
                       "Engines") == 0;
}

/* The extras of a shot (Shot.extra). */
static void
take_extra (KomiWindow *window, const Shot *shot, const char *dir)
{
  if (g_str_equal (shot->extra, "export"))
    {
      const KomiReplay *replay = komi_series_page_get_replay (komi_window_get_series_page (window),
                                                               NULL);
      g_autofree char *out = g_build_filename (dir, "game.sgf", NULL);

      if (replay != NULL)
        _komi_window_export_game_to (window, replay->game->id, out);
      shot_pause_ms (1500);
    }
  else if (g_str_equal (shot->extra, "menu"))
    {
      GtkMenuButton *menu = NULL;

      for (GtkWidget *w = GTK_WIDGET (window); w != NULL;)
        {
          /* The header's primary menu: the first menu button with a model. */
          GtkWidget *next = gtk_widget_get_first_child (w);

          if (GTK_IS_MENU_BUTTON (w) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (w)))
            {
              menu = GTK_MENU_BUTTON (w);
              break;
            }
          while (next == NULL && w != NULL && w != GTK_WIDGET (window))
            {
              next = gtk_widget_get_next_sibling (w);
              if (next == NULL)
                w = gtk_widget_get_parent (w);
            }
          w = next;
        }
      if (menu != NULL)
        gtk_menu_button_popup (menu);
      shot_pause_ms (500);
    }
  else if (g_str_equal (shot->extra, "checking"))
    {
      g_autoptr(GSettings) settings = komi_settings_new ();
      g_autofree char *mute = g_build_filename (dir, "mute-gnugo", NULL);
      GtkWindow *prefs;

      /* A GNU Go that answers nothing for a while. */
      g_file_set_contents (mute, "#!/bin/sh\nexec sleep 20\n", -1, NULL);
      g_chmod (mute, 0755);
      if (settings != NULL)
        g_settings_set_string (settings, "gnugo-path", mute);
      prefs = GTK_WINDOW (komi_preferences_window_new (GTK_WINDOW (window)));
      gtk_window_present (prefs);
      app_test_wait (app_test_has_size, prefs);
      adw_preferences_window_set_visible_page (
        ADW_PREFERENCES_WINDOW (prefs),
        ADW_PREFERENCES_PAGE (app_test_find_widget (GTK_WIDGET (prefs), is_engines_page, NULL)));
      gtk_widget_activate_action (GTK_WIDGET (prefs), "prefs.check", "s", "gnugo");
      shot_pause_ms (700);
    }
  else if (g_str_equal (shot->extra, "graph"))
    {
      GtkWindow *review = app_test_find_toplevel (KOMI_TYPE_REVIEW_WINDOW);

      /* The engine review beside the board: its score graph and list. */
      if (review != NULL)
        gtk_stack_set_visible_child_name (
          GTK_STACK (app_test_find_widget (GTK_WIDGET (review), is_side_stack, NULL)),
          "analysis");
      shot_pause_ms (1500);
    }
  else if (g_str_equal (shot->extra, "table"))
    {
      /* The Ladder page scrolled down to its table. */
      GtkWidget *view = GTK_WIDGET (komi_list_page_get_view (KOMI_LIST_PAGE (
        gtk_widget_get_template_child (GTK_WIDGET (window), KOMI_TYPE_WINDOW, "ladder_page"))));
      GtkWidget *sideways = gtk_widget_get_ancestor (view, GTK_TYPE_SCROLLED_WINDOW);
      GtkWidget *page = gtk_widget_get_ancestor (gtk_widget_get_parent (sideways),
                                                 GTK_TYPE_SCROLLED_WINDOW);
      graphene_rect_t bounds;

      shot_pause_ms (300);
      if (gtk_widget_compute_bounds (sideways, gtk_scrolled_window_get_child (
                                       GTK_SCROLLED_WINDOW (page)), &bounds))
        gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (page)),
                                  bounds.origin.y - 12);
    }
  else if (g_str_equal (shot->extra, "shortcuts"))
    {
      GtkWindow *review = app_test_find_toplevel (KOMI_TYPE_REVIEW_WINDOW);

      if (review != NULL)
        gtk_widget_activate_action (GTK_WIDGET (review), "review.show-shortcuts", NULL);
      shot_pause_ms (700);
    }
}

static const char *cli_path;

/* The series page scrolled so that the buttons under the board (and the
 * board's tools, under them on a narrow page) end the view. */
static void
scroll_to_board (KomiSeriesPage *page)
{
  GtkWidget *tools = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                                KOMI_TYPE_SERIES_PAGE,
                                                                "board_tools"));
  GtkWidget *scroller;
  GtkAdjustment *adj;
  graphene_rect_t bounds;

  shot_pause_ms (300);   /* the layout for the width */
  scroller = gtk_widget_get_ancestor (tools, GTK_TYPE_SCROLLED_WINDOW);
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  if (gtk_widget_compute_bounds (tools, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller)),
                                 &bounds))
    gtk_adjustment_set_value (adj, bounds.origin.y + bounds.size.height + 12
                                   - gtk_adjustment_get_page_size (adj));
}

/* `komi-cli run` of the demo's engine series into @db, SIGKILLed once a
 * few games have ended: what a crash leaves. */
static gboolean
kill_a_run (const char *dir, const char *db, GError **error)
{
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autoptr(GSubprocess) proc = NULL;
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  if (!g_file_set_contents (series, "{\"name\": \"GNU Go level 1 against random\", "
                            "\"protocol\": 1, \"subject\": \"gnugo:1\", "
                            "\"opponents\": [\"random\"], \"pairs\": 8, \"seed\": 2026, "
                            "\"referee\": \"gnugo\", \"jobs\": 1}", -1, error))
    return FALSE;
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, error, cli_path, "run", series,
                           "--db", db, NULL);
  if (proc == NULL)
    return FALSE;
  /* Five games at about a second each. */
  while (g_get_monotonic_time () < end)
    {
      g_autoptr(KomiStore) store = komi_store_open_reader (db, NULL);
      g_autoptr(GPtrArray) games = store ? komi_store_list_series (store, NULL) : NULL;

      if (games != NULL && games->len > 0
          && ((KomiStoreSeries *) games->pdata[0])->n_finished >= 5)
        break;
      g_usleep (50000);
    }
  g_subprocess_send_signal (proc, SIGKILL);
  return g_subprocess_wait (proc, NULL, error);
}

static gboolean
flap_folded (gpointer flap)
{
  return adw_flap_get_folded (flap);
}

static gboolean
settled (gpointer library)
{
  return komi_library_get_state (library) != KOMI_LIBRARY_STATE_LOADING;
}

static gboolean
games_none_shown (gpointer page)
{
  return g_list_model_get_n_items (komi_games_page_get_rows (page)) == 0;
}

static gboolean
game_shown (gpointer page)
{
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (page, &step);

  return replay != NULL && step + 1 == replay->n_steps;
}

static gboolean
demo_going (gpointer window)
{
  KomiSeriesJob *job = komi_window_get_job (window);

  /* The first game over, the second (the model against random, with the
   * other colour) well under way. */
  return job != NULL && komi_series_job_get_done (job) >= 1;
}

static gboolean
demo_over (gpointer window)
{
  return !komi_series_job_get_running (komi_window_get_job (window));
}

/* The board at a move of the model's, its calls listed under it. */
static gboolean
model_move_shown (gpointer page)
{
  GtkLabel *label = GTK_LABEL (gtk_widget_get_template_child (page, KOMI_TYPE_SERIES_PAGE,
                                                              "summary_label"));

  return strstr (gtk_label_get_text (label), "model call") != NULL;
}

static gboolean
analysis_over (gpointer panel)
{
  return komi_analysis_panel_get_job (panel) == NULL
         && komi_analysis_panel_get_analysis (panel) != NULL;
}

/* The engine review page beside the board: analysed from the panel (again
 * replaces an analysis), then the first move of its list shown. */
static void
take_analysis (KomiWindow *window)
{
  KomiSeriesPage *page = komi_window_get_series_page (window);
  KomiAnalysisPanel *panel = komi_series_page_get_analysis_panel (page);
  GtkStack *stack = GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                              KOMI_TYPE_SERIES_PAGE,
                                                              "side_stack"));
  GtkListBox *list = GTK_LIST_BOX (gtk_widget_get_template_child (GTK_WIDGET (panel),
                                                                  KOMI_TYPE_ANALYSIS_PANEL,
                                                                  "moves_list"));
  GtkListBoxRow *row;

  gtk_stack_set_visible_child_name (stack, "analysis");
  shot_pause_ms (500);
  if (komi_analysis_panel_get_analysis (panel) == NULL)
    {
      gtk_widget_activate_action (GTK_WIDGET (panel), "analysis.analyse", NULL);
      app_test_wait_seconds (analysis_over, panel, 600);
    }
  row = gtk_list_box_get_row_at_index (list, 0);
  if (row != NULL)
    g_signal_emit_by_name (list, "row-activated", row);
}

/* The engine review's thresholds menu open, a mistake of 500 points
 * typed and refused with the range. */
static void
refuse_threshold (KomiWindow *window)
{
  KomiAnalysisPanel *panel = komi_series_page_get_analysis_panel (
    komi_window_get_series_page (window));
  GtkWidget *spin = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (panel),
                                                               KOMI_TYPE_ANALYSIS_PANEL,
                                                               "mistake_spin"));
  GtkWidget *popover = gtk_widget_get_ancestor (spin, GTK_TYPE_POPOVER);

  gtk_menu_button_popup (GTK_MENU_BUTTON (gtk_widget_get_parent (popover)));
  shot_pause_ms (300);
  gtk_editable_set_text (GTK_EDITABLE (spin), "500");
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
  gtk_widget_grab_focus (spin);
}

static gboolean
import_root (const char *out, GError **error)
{
  const char *argv[] = { "import", "-window", "root", out, NULL };
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                     &status, error)
      || !g_spawn_check_wait_status (status, error))
    return FALSE;
  printf ("%s\n", out);
  return TRUE;
}

/* The first model game of @db. */
static gint64
find_model_game (const char *db)
{
  g_autoptr(KomiStore) store = komi_store_open_reader (db, NULL);
  g_autoptr(GPtrArray) games = store ? komi_store_list_games (store, KOMI_STORE_ALL_GAMES, NULL)
                                     : NULL;

  for (guint i = 0; games != NULL && i < games->len; i++)
    if (((KomiStoreGame *) games->pdata[i])->n_calls > 0)
      return ((KomiStoreGame *) games->pdata[i])->id;
  return 0;
}

static void
take_review (KomiWindow *window, const Shot *shot, const char *db)
{
  guint turn = 0;
  gint64 id = find_model_game (db);
  KomiReviewWindow *review;
  const KomiReview *r;

  if (id == 0)
    return;
  review = komi_review_window_new (GTK_WINDOW (window), komi_window_get_library (window), id);
  gtk_window_set_default_size (GTK_WINDOW (review),
                               shot->review_width > 0 ? shot->review_width : 1366,
                               shot->review_width > 0 && shot->height > 0 ? shot->height : 740);
  gtk_window_present (GTK_WINDOW (review));
  app_test_wait (app_test_review_loaded, review);
  r = komi_review_window_get_review (review);
  /* A move resumed after a kill (its attempt interrupted, the answer
   * before it kept), else one with a retried attempt, else the model's
   * fifth. */
  for (guint i = 0; i < r->calls->len && turn == 0; i++)
    if (g_strcmp0 (((const KomiStoreCall *) r->calls->pdata[i])->outcome, "interrupted") == 0)
      turn = ((const KomiStoreCall *) r->calls->pdata[i])->turn;
  for (guint i = 1; i < r->calls->len && turn == 0; i++)
    {
      const KomiStoreCall *c = r->calls->pdata[i];

      if (c->attempt > 1 && c->option_probabilities != NULL)
        turn = c->turn;
    }
  komi_review_window_show_step (review, shot->final ? r->replay->n_steps - 1
                                                   : turn > 0 ? turn : 9);
  /* The last attempt's request opened, as a user reading it would. */
  {
    GtkWidget *calls = app_test_child (review, KOMI_TYPE_REVIEW_WINDOW, "calls_box");
    GtkWidget *last = gtk_widget_get_last_child (calls);

    for (GtkWidget *w = last ? gtk_widget_get_first_child (last) : NULL; w != NULL;
         w = gtk_widget_get_next_sibling (w))
      if (GTK_IS_EXPANDER (w) && g_str_equal (gtk_expander_get_label (GTK_EXPANDER (w)),
                                              "Request"))
        gtk_expander_set_expanded (GTK_EXPANDER (w), TRUE);
  }
}

static gboolean
job_paused (gpointer window)
{
  return komi_series_job_get_paused (komi_window_get_job (window));
}

/* The demo running in a fresh library; for running-demo, the same paused,
 * then the question asked when the window is closed during the run. */
static gboolean
take_running (KomiWindow *window, const Shot *shot, const char *dir, GError **error)
{
  g_autofree char *running = g_strdup_printf ("%s/%s.png", dir, shot->name);
  g_autofree char *paused = g_strdup_printf ("%s/running-paused.png", dir);
  g_autofree char *closing = g_strdup_printf ("%s/close-while-running.png", dir);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.run-demo", NULL);
  app_test_wait_seconds (demo_going, window, 120);
  /* Read the library once the next game has some moves, to find it. */
  shot_pause_ms (3000);
  komi_library_reload (komi_window_get_library (window));
  app_test_wait (settled, komi_window_get_library (window));
  /* Follow the game started last, still being played. */
  {
    GListModel *list = komi_library_get_series (komi_window_get_library (window));
    g_autoptr(KomiSeriesItem) item = g_list_model_get_item (list, 0);
    guint n = item != NULL ? g_list_model_get_n_items (G_LIST_MODEL (item->games)) : 0;

    for (guint i = n; i-- > 0;)
      {
        g_autoptr(KomiGameItem) game = g_list_model_get_item (G_LIST_MODEL (item->games), i);

        if (game->game->status == KOMI_GAME_STATUS_RUNNING)
          {
            komi_series_page_select (komi_window_get_series_page (window), 0, i);
            break;
          }
      }
  }
  /* At the latest position the calls of the move being decided show, as
   * they are answered; before the model's first, step back to its move. */
  shot_pause_ms (1500);
  if (!model_move_shown (komi_window_get_series_page (window)))
    gtk_widget_activate_action (GTK_WIDGET (komi_window_get_series_page (window)),
                                "review.previous-move", NULL);
  app_test_wait_seconds (model_move_shown, komi_window_get_series_page (window), 5);
  shot_pause_ms (300);
  if (!import_root (running, error))
    return FALSE;
  if (!g_str_equal (shot->name, "running-demo"))
    {
      gtk_widget_activate_action (GTK_WIDGET (window), "win.stop-series", NULL);
      app_test_wait_seconds (demo_over, window, 120);
      return TRUE;
    }
  /* Paused: the bar says so, the board and calls stay as they were. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.pause-series", NULL);
  app_test_wait (job_paused, window);
  shot_pause_ms (1500);
  if (!import_root (paused, error))
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (window), "win.pause-series", NULL);
  gtk_window_close (GTK_WINDOW (window));
  shot_pause_ms (800);
  if (!import_root (closing, error))
    return FALSE;
  /* Answer as the user would: stop, and the window closes once the games
   * in flight have stopped. */
  {
    g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

    for (GList *l = toplevels; l != NULL; l = l->next)
      if (ADW_IS_MESSAGE_DIALOG (l->data))
        adw_message_dialog_response (l->data, "stop");
  }
  app_test_wait_seconds (demo_over, window, 120);
  return TRUE;
}

static gboolean
verify_over (gpointer page)
{
  return !komi_games_page_get_verifying (page);
}

/* @db copied to @copy, the first finished game's result made another. */
static gboolean
altered_copy (const char *db, const char *copy, GError **error)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (db, &contents, &len, error)
      || !g_file_set_contents (copy, contents, (gssize) len, error))
    return FALSE;
  g_free (sql_text (copy, "UPDATE games SET result = 'W+99', winner = 'W', margin = 99 "
                          "WHERE id = (SELECT min (id) FROM games WHERE status = 'finished')"));
  return TRUE;
}

static gboolean
take (const Shot *shot, const char *db, const char *dir, GError **error)
{
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "komi-no-library",
                                               "library.db", NULL);
  g_autofree char *fresh_dir = g_dir_make_tmp ("komi-shot-XXXXXX", NULL);
  g_autofree char *fresh = g_build_filename (fresh_dir, "library.db", NULL);
  g_autoptr(KomiLibrary) library = NULL;
  g_autofree char *out = g_strdup_printf ("%s/%s.png", dir, shot->name);
  KomiWindow *window;

  if (shot->interrupted && !kill_a_run (fresh_dir, fresh, error))
    return FALSE;
  if (shot->verify && !altered_copy (db, fresh, error))
    return FALSE;
  library = komi_library_new (shot->missing ? missing
                              : shot->run_demo || shot->interrupted || shot->verify ? fresh
                                                                                    : db);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      shot->dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                 : ADW_COLOR_SCHEME_FORCE_LIGHT);
  window = g_object_ref_sink (komi_window_new (NULL, library));   /* outlives a close */
  if (shot->width > 0)
    gtk_window_set_default_size (GTK_WINDOW (window), shot->width,
                                 shot->height > 0 ? shot->height : 700);
  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (window));
  if (!app_test_wait (settled, library))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "the library did not load");
      return FALSE;
    }
  komi_window_show_page (window, shot->page);
  if (shot->run_demo)
    {
      gboolean ok = take_running (window, shot, dir, error);

      gtk_window_destroy (GTK_WINDOW (window));
      g_object_unref (window);
      return ok;
    }
  if (!shot->missing && g_str_equal (shot->page, "series")
      && komi_series_page_select (komi_window_get_series_page (window), 0, 2))
    app_test_wait (game_shown, komi_window_get_series_page (window));
  if (shot->calls)
    {
      KomiSeriesPage *page = komi_window_get_series_page (window);

      komi_series_page_select (page, 1, 0);
      app_test_wait (game_shown, page);
      gtk_widget_activate_action (GTK_WIDGET (page), "review.first-move", NULL);
      for (guint i = 0; i < 3; i++)
        gtk_widget_activate_action (GTK_WIDGET (page), "review.next-move", NULL);
    }
  if (g_str_equal (shot->name, "games-no-match"))
    {
      GtkWidget *page = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                   KOMI_TYPE_WINDOW,
                                                                   "games_page"));
      GtkEditable *search = GTK_EDITABLE (gtk_widget_get_template_child (
                                            page, KOMI_TYPE_GAMES_PAGE, "search_entry"));

      gtk_editable_set_text (search, "no such player");
      app_test_wait (games_none_shown, page);
    }
  if (shot->verify)
    {
      KomiGamesPage *page = KOMI_GAMES_PAGE (gtk_widget_get_template_child (
                                               GTK_WIDGET (window), KOMI_TYPE_WINDOW,
                                               "games_page"));

      gtk_widget_activate_action (GTK_WIDGET (window), "win.verify-library", NULL);
      app_test_wait (verify_over, page);
    }
  if (shot->analysis)
    take_analysis (window);
  if (shot->thresholds)
    refuse_threshold (window);
  if (shot->list)
    {
      AdwFlap *flap = ADW_FLAP (gtk_widget_get_template_child (
                                  GTK_WIDGET (komi_window_get_series_page (window)),
                                  KOMI_TYPE_SERIES_PAGE, "flap"));
      /* As a user would: once the list has folded away, bring it back. */
      app_test_wait (flap_folded, flap);
      adw_flap_set_reveal_flap (flap, TRUE);
    }
  if (shot->board)
    scroll_to_board (komi_window_get_series_page (window));
  if (shot->dialog != NULL)
    shot_series_dialog (GTK_WINDOW (window), shot->dialog, shot->tested, fresh_dir);
  if (shot->review)
    take_review (window, shot, db);
  if (shot->provider != NULL)
    shot_provider_dialog (GTK_WINDOW (window), shot->provider);
  if (shot->opponent != NULL)
    shot_opponent_dialog (GTK_WINDOW (window), shot->opponent);
  if (shot->extra != NULL)
    take_extra (window, shot, fresh_dir);
  shot_pause_ms (700);   /* the stack's crossfade and a frame */

  if (shot->shards)
    {
      gboolean ok = shards_shot_take (GTK_WINDOW (window), cli_path, fresh_dir, out,
                                      import_root, error);

      gtk_window_destroy (GTK_WINDOW (window));
      g_object_unref (window);
      return ok;
    }
  if (!import_root (out, error))
    return FALSE;
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
  shot_pause_ms (200);
  return TRUE;
}

int
main (int argc, char *argv[])
{
  g_autofree char *tests_dir = g_path_get_dirname (argv[0]);
  g_autofree char *cli = g_build_filename (tests_dir, "..", "src", "cli", "komi-cli", NULL);
  g_autofree char *db = NULL;
  g_autofree char *only = NULL;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "The library to show", "PATH" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, "Only the shots whose name starts so", "PREFIX" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("OUTPUT-FOLDER");
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || db == NULL || argc != 2)
    {
      fprintf (stderr, "usage: app-screenshots --db LIBRARY OUTPUT-FOLDER (under xvfb-run)\n");
      return 2;
    }
  cli_path = cli;
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  gtk_init ();
  adw_init ();
  /* No keyring: a screenshot's key must land in no real one. */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/komi-shot-bus", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (shots); i++)
    if ((only == NULL || g_str_has_prefix (shots[i].name, only))
        && !take (&shots[i], db, argv[1], &error))
      {
        fprintf (stderr, "app-screenshots: %s: %s\n", shots[i].name, error->message);
        return 1;
      }
  return 0;
}
