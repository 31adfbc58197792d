/* test-app-shortcuts.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-app-test-util.h"
#include "komi-app-xdotool.h"
#include "komi-application.h"
#include "komi-coords.h"
#include "komi-orientation.h"
#include "komi-preferences-window.h"
#include "komi-review-window.h"
#include "komi-series-dialog.h"
#include "komi-store-test-review.h"
#include "komi-window.h"

/* Every key the shortcuts window lists, pressed as a user presses it: the
 * application runs as `komi --db PATH`, and xdotool types each key through
 * the X server (XTEST) into the window that has the focus under Xvfb, so
 * the key goes the whole way: the window's shortcut controllers, the
 * application's accelerators, the focused widget. Each press is checked
 * by its effect (the page shown, the move shown, the window opened), and
 * at the end every accelerator in help-overlay.ui must have been pressed.
 * Skipped, visibly, without xdotool (Debian package xdotool). */

typedef struct
{
  char         *dir;
  char         *path;
  KomiApplication *app;
  KomiWindow   *window;
  GHashTable   *pressed;   /* accelerators pressed, as help-overlay.ui writes them */
  guint         reloads;   /* the library went to LOADING */
  gint64        game_id;   /* the first game of the finished series */
  gboolean      done;
} Keys;

/* Presses @accelerator and waits for @cond to hold. */
static void
press (Keys *k, const char *accelerator, AppTestCondition cond, gpointer data)
{
  g_autofree char *keys = xdotool_keys (accelerator);

  g_test_message ("pressing %s", accelerator);
  xdotool_run ((const char *[]) { "key", keys, NULL });
  g_hash_table_add (k->pressed, g_strdup (accelerator));
  if (!app_test_wait (cond, data))
    {
      GtkWidget *focused = gtk_root_get_focus (GTK_ROOT (k->window));

      g_error ("%s had no effect (the focus on %s)", accelerator,
               focused != NULL ? G_OBJECT_TYPE_NAME (focused) : "nothing");
    }
}

/* Conditions */

typedef struct
{
  KomiWindow *window;
  const char *page;
} PageShown;

static gboolean
page_shown (gpointer data)
{
  PageShown *p = data;

  return g_strcmp0 (komi_window_get_page (p->window), p->page) == 0;
}

typedef struct
{
  KomiSeriesPage *page;
  guint           step;
} PageStep;

static gboolean
page_at_step (gpointer data)
{
  PageStep *s = data;
  guint step;

  return komi_series_page_get_replay (s->page, &step) != NULL && step == s->step;
}

static gboolean
page_has_game (gpointer page)
{
  return komi_series_page_get_replay (page, NULL) != NULL;
}

typedef struct
{
  KomiReviewWindow *window;
  guint             step;
} ReviewStep;

static gboolean
review_at_step (gpointer data)
{
  ReviewStep *s = data;

  return komi_review_window_get_review (s->window) != NULL
         && komi_review_window_get_step (s->window) == s->step;
}

typedef struct
{
  KomiBoardView *board;
  guint          orientation;
  gboolean       numbers;
  KomiPoint      cursor;
} BoardState;

static gboolean
board_turned (gpointer data)
{
  BoardState *b = data;

  return komi_board_view_get_orientation (b->board) == b->orientation;
}

static gboolean
board_numbers (gpointer data)
{
  BoardState *b = data;
  gboolean shown;

  g_object_get (b->board, "show-numbers", &shown, NULL);
  return shown == b->numbers;
}

static gboolean
board_cursor (gpointer data)
{
  BoardState *b = data;

  return komi_board_view_get_scene (b->board)->cursor == b->cursor;
}

static gboolean
shown (gpointer type)
{
  return app_test_find_toplevel (GPOINTER_TO_SIZE (type)) != NULL;
}

static gboolean
gone (gpointer type)
{
  return app_test_find_toplevel (GPOINTER_TO_SIZE (type)) == NULL;
}

static gboolean
reloaded (gpointer data)
{
  Keys *k = data;

  return k->reloads > 0
    && komi_library_get_state (komi_window_get_library (k->window)) != KOMI_LIBRARY_STATE_LOADING;
}

static gboolean
paused (gpointer window)
{
  KomiSeriesJob *job = komi_window_get_job (window);

  return job != NULL && komi_series_job_get_paused (job);
}

static gboolean
running (gpointer window)
{
  KomiSeriesJob *job = komi_window_get_job (window);

  return job != NULL && !komi_series_job_get_paused (job) && komi_series_job_get_running (job);
}

static gboolean
no_windows (gpointer app)
{
  return gtk_application_get_windows (app) == NULL;
}

static gboolean
library_ready (gpointer window)
{
  return komi_library_get_state (komi_window_get_library (window)) == KOMI_LIBRARY_STATE_READY
         && app_test_has_size (window);
}

/* How many toasts show under @widget (one going away included). */
static guint
count_toasts (GtkWidget *widget)
{
  guint n = 0;

  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "AdwToastWidget"))
    return 1;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    n += count_toasts (c);
  return n;
}

static gboolean
no_toast (gpointer window)
{
  return count_toasts (window) == 0;
}

static gboolean
one_toast (gpointer window)
{
  return count_toasts (window) == 1;
}

static gboolean
is_toast_close (GtkWidget *widget, gpointer data)
{
  return GTK_IS_BUTTON (widget)
         && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)),
                       "window-close-symbolic") == 0
         && gtk_widget_get_ancestor (widget, g_type_from_name ("AdwToastWidget")) != NULL;
}

/* The close button of the toast showing under @widget, or NULL. */
static GtkWidget *
toast_close_button (GtkWidget *widget)
{
  return app_test_find_widget (widget, is_toast_close, NULL);
}

static void
on_state (KomiLibrary *library, GParamSpec *pspec, Keys *k)
{
  if (komi_library_get_state (library) == KOMI_LIBRARY_STATE_LOADING)
    k->reloads++;
}

/* Closes @type's window (not a key of ours) and gives the main window the
 * focus again. */
static void
close_toplevel (Keys *k, GType type)
{
  gtk_window_destroy (app_test_find_toplevel (type));
  g_assert_true (app_test_wait (gone, GSIZE_TO_POINTER (type)));
  xdotool_focus (k->window);
}

/* The steps */

static void
press_sections (Keys *k)
{
  static const char *keys[][2] = {
    /* The sidebar's order: Series, Players, Games, Ladder. */
    { "<Alt>3", "games" }, { "<Alt>4", "ladder" }, { "<Alt>2", "players" },
    { "<Alt>1", "series" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      PageShown p = { k->window, keys[i][1] };

      press (k, keys[i][0], page_shown, &p);
    }
}

/* The game shown on the Series page: the Alt keys step it, "o" turns the
 * board, "#" numbers the stones, the arrows move the board's cursor. */
static void
press_series_page (Keys *k)
{
  KomiSeriesPage *page = komi_window_get_series_page (k->window);
  KomiBoardView *board = komi_series_page_get_board_view (page);
  const KomiReplay *replay;
  PageStep s = { page, 0 };
  BoardState b = { board, 0, FALSE, KOMI_NO_POINT };
  static const struct { const char *key; int dx, dy; } arrows[] = {
    { "Left", -1, 0 }, { "Up", 0, -1 }, { "Right", 1, 0 }, { "Down", 0, 1 },
  };
  guint last, x, y;

  g_assert_true (komi_series_page_select (page, 0, 0));
  g_assert_true (app_test_wait (page_has_game, page));
  replay = komi_series_page_get_replay (page, NULL);
  last = replay->n_steps - 1;
  g_assert_cmpuint (last, >, 3);
  s.step = last;
  g_assert_true (app_test_wait (page_at_step, &s));
  /* Wherever the focus is on the page: here the games list. */
  gtk_widget_grab_focus (GTK_WIDGET (app_test_child (page, KOMI_TYPE_SERIES_PAGE, "games_view")));

  s.step = 0;
  press (k, "<Alt>Home", page_at_step, &s);
  s.step = 1;
  press (k, "<Alt>Right", page_at_step, &s);
  s.step = 2;
  press (k, "<Alt>Right", page_at_step, &s);
  s.step = 1;
  press (k, "<Alt>Left", page_at_step, &s);
  s.step = last;
  press (k, "<Alt>End", page_at_step, &s);

  b.orientation = (komi_board_view_get_orientation (board) + 1) % KOMI_N_ORIENTATIONS;
  press (k, "o", board_turned, &b);
  g_object_get (board, "show-numbers", &b.numbers, NULL);
  b.numbers = !b.numbers;
  press (k, "numbersign", board_numbers, &b);
  b.numbers = !b.numbers;
  press (k, "numbersign", board_numbers, &b);

  /* The arrows move the cursor of the focused board: the first one puts
   * it on the last move (as shown), then each moves it a point. */
  gtk_widget_grab_focus (GTK_WIDGET (board));
  g_assert_cmpint (komi_board_view_get_scene (board)->cursor, ==, KOMI_NO_POINT);
  b.cursor = komi_board_view_get_scene (board)->last_move >= 0
             ? komi_orientation_apply (komi_board_view_get_orientation (board), 9,
                                       komi_board_view_get_scene (board)->last_move)
             : komi_point_from_xy (9, 4, 4);
  press (k, "Right", board_cursor, &b);
  x = komi_point_x (9, b.cursor);
  y = komi_point_y (9, b.cursor);
  /* Away from the edge first, so every arrow moves it. */
  x = CLAMP (x, 1, 7);
  y = CLAMP (y, 1, 7);
  komi_board_view_set_cursor (board, komi_point_from_xy (9, x, y));
  for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
    {
      x += arrows[i].dx;
      y += arrows[i].dy;
      b.cursor = komi_point_from_xy (9, x, y);
      press (k, arrows[i].key, board_cursor, &b);
    }
}

static void
press_general (Keys *k)
{
  g_signal_connect (komi_window_get_library (k->window), "notify::state",
                    G_CALLBACK (on_state), k);
  k->reloads = 0;
  press (k, "<Control>r", reloaded, k);
  k->reloads = 0;
  press (k, "F5", reloaded, k);
  g_signal_handlers_disconnect_by_func (komi_window_get_library (k->window), on_state, k);
  /* "Library reloaded" is closed, and has gone, before other windows open
   * over this one: with the toast still up through the steps below, runs
   * under MALLOC_PERTURB_ crashed in libadwaita 1.2 (valgrind: a toast
   * overlay's animation, at its end, reads the toast's record it has
   * just freed). The second reload keeps the first one's toast (replacing
   * it crashed so about once in 25 runs): exactly one shows, and one
   * click on its close button leaves none queued. */
  g_assert_true (app_test_wait (one_toast, k->window));
  g_assert_nonnull (toast_close_button (GTK_WIDGET (k->window)));
  g_assert_true (gtk_widget_activate (toast_close_button (GTK_WIDGET (k->window))));
  g_assert_true (app_test_wait (no_toast, k->window));

  press (k, "<Control>comma", shown, GSIZE_TO_POINTER (KOMI_TYPE_PREFERENCES_WINDOW));
  close_toplevel (k, KOMI_TYPE_PREFERENCES_WINDOW);
  press (k, "<Control>question", shown, GSIZE_TO_POINTER (GTK_TYPE_SHORTCUTS_WINDOW));
  close_toplevel (k, GTK_TYPE_SHORTCUTS_WINDOW);
  press (k, "<Control>n", shown, GSIZE_TO_POINTER (KOMI_TYPE_SERIES_DIALOG));
  close_toplevel (k, KOMI_TYPE_SERIES_DIALOG);
  /* The chooser (GTK's own dialog: no portal here) closes on Escape. */
  press (k, "<Control>o", shown, GSIZE_TO_POINTER (GTK_TYPE_FILE_CHOOSER_DIALOG));
  xdotool_focus (app_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG));
  xdotool_run ((const char *[]) { "key", "Escape", NULL });
  g_assert_true (app_test_wait (gone, GSIZE_TO_POINTER (GTK_TYPE_FILE_CHOOSER_DIALOG)));
  xdotool_focus (k->window);
}

/* The review window: the plain keys step the game and find its mistakes,
 * the application's Alt keys work there too, Ctrl+W closes it. */
static void
press_review_window (Keys *k)
{
  KomiReviewWindow *review;
  ReviewStep s;
  BoardState b;
  guint last;

  gtk_widget_activate_action (GTK_WIDGET (k->window), "win.review-game", "x", k->game_id);
  g_assert_true (app_test_wait (shown, GSIZE_TO_POINTER (KOMI_TYPE_REVIEW_WINDOW)));
  review = KOMI_REVIEW_WINDOW (app_test_find_toplevel (KOMI_TYPE_REVIEW_WINDOW));
  g_assert_true (app_test_wait (app_test_review_loaded, review));
  xdotool_focus (review);
  s.window = review;
  last = komi_review_window_get_review (review)->replay->n_steps - 1;

  s.step = 0;
  press (k, "Home", review_at_step, &s);
  s.step = 1;
  press (k, "Right", review_at_step, &s);
  s.step = 2;
  press (k, "Right", review_at_step, &s);
  s.step = 1;
  press (k, "Left", review_at_step, &s);
  s.step = last;
  press (k, "End", review_at_step, &s);

  /* The analysis has a mistake at move 5 and a blunder at move 9. */
  s.step = 0;
  press (k, "<Alt>Home", review_at_step, &s);
  s.step = 5;
  press (k, "n", review_at_step, &s);
  /* Past the opponent's blunder at move 8: not in the list of mistakes. */
  s.step = 9;
  press (k, "<Control>Down", review_at_step, &s);
  s.step = 5;
  press (k, "<Shift>n", review_at_step, &s);
  s.step = 9;
  press (k, "n", review_at_step, &s);
  s.step = 5;
  press (k, "<Control>Up", review_at_step, &s);
  s.step = 6;
  press (k, "<Alt>Right", review_at_step, &s);
  s.step = 5;
  press (k, "<Alt>Left", review_at_step, &s);
  s.step = last;
  press (k, "<Alt>End", review_at_step, &s);

  b.board = komi_review_window_get_board_view (review);
  b.orientation = (komi_board_view_get_orientation (b.board) + 1) % KOMI_N_ORIENTATIONS;
  press (k, "o", board_turned, &b);
  g_object_get (b.board, "show-numbers", &b.numbers, NULL);
  b.numbers = !b.numbers;
  press (k, "numbersign", board_numbers, &b);

  /* The move list: after Left and Right stepped the game, Up and Down go
   * on from the move shown, not from the row that had the focus. */
  s.step = 0;
  press (k, "Home", review_at_step, &s);
  gtk_widget_grab_focus (app_test_child (review, KOMI_TYPE_REVIEW_WINDOW, "moves_view"));
  s.step = 1;
  press (k, "Right", review_at_step, &s);
  s.step = 2;
  press (k, "Right", review_at_step, &s);
  s.step = 3;
  press (k, "Down", review_at_step, &s);
  s.step = 2;
  press (k, "Up", review_at_step, &s);

  /* Ctrl+? here too, over the review window. */
  press (k, "<Control>question", shown, GSIZE_TO_POINTER (GTK_TYPE_SHORTCUTS_WINDOW));
  g_assert_true (gtk_window_get_transient_for (
                   app_test_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW)) == GTK_WINDOW (review));
  gtk_window_destroy (app_test_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW));
  g_assert_true (app_test_wait (gone, GSIZE_TO_POINTER (GTK_TYPE_SHORTCUTS_WINDOW)));
  xdotool_focus (review);

  press (k, "<Control>w", gone, GSIZE_TO_POINTER (KOMI_TYPE_REVIEW_WINDOW));
  xdotool_focus (k->window);
}

/* Ctrl+P pauses the run and resumes it. The series is long enough to be
 * running still when the Ctrl+Q question below has been answered: 1,000
 * games of random players were over by then in a CI run on a free
 * machine. */
static void
press_pause (Keys *k)
{
  g_autofree char *series = g_build_filename (k->dir, "series.json", NULL);

  g_assert_true (g_file_set_contents (series,
                                      "{\"name\": \"Paused by a key\", \"protocol\": 1,"
                                      " \"subject\": \"random\", \"opponents\": [\"random\"],"
                                      " \"pairs\": 20000, \"seed\": 4, \"referee\": \"none\"}",
                                      -1, NULL));
  gtk_widget_activate_action (GTK_WIDGET (k->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait (running, k->window));
  press (k, "<Control>p", paused, k->window);
  press (k, "<Control>p", running, k->window);

  /* Ctrl+Q during the run asks before any window closes; Keep Running
   * (Escape) leaves them all, the review window too. */
  gtk_widget_activate_action (GTK_WIDGET (k->window), "win.review-game", "x", k->game_id);
  g_assert_true (app_test_wait (shown, GSIZE_TO_POINTER (KOMI_TYPE_REVIEW_WINDOW)));
  xdotool_focus (app_test_find_toplevel (KOMI_TYPE_REVIEW_WINDOW));
  press (k, "<Control>q", shown, GSIZE_TO_POINTER (ADW_TYPE_MESSAGE_DIALOG));
  g_assert_nonnull (app_test_find_toplevel (KOMI_TYPE_REVIEW_WINDOW));
  xdotool_focus (app_test_find_toplevel (ADW_TYPE_MESSAGE_DIALOG));
  xdotool_run ((const char *[]) { "key", "Escape", NULL });
  g_assert_true (app_test_wait (gone, GSIZE_TO_POINTER (ADW_TYPE_MESSAGE_DIALOG)));
  g_assert_nonnull (app_test_find_toplevel (KOMI_TYPE_REVIEW_WINDOW));
  g_assert_true (running (k->window));
  gtk_window_destroy (app_test_find_toplevel (KOMI_TYPE_REVIEW_WINDOW));
  xdotool_focus (k->window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (k->window), "win.stop-series", NULL));
  g_assert_true (app_test_wait_seconds (app_test_job_over, k->window, 60));
}

/* Every accelerator help-overlay.ui lists was pressed above. */
static void
assert_all_pressed (Keys *k)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/komigo/Komi/gtk/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  guint listed = 0;

  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *accelerator = NULL;
        g_auto(GStrv) parts = NULL;

        g_object_get (l->data, "accelerator", &accelerator, NULL);
        parts = g_strsplit (accelerator, " ", -1);
        for (guint i = 0; parts[i] != NULL; i++, listed++)
          if (!g_hash_table_contains (k->pressed, parts[i]))
            g_error ("%s is in the shortcuts window but no test pressed it", parts[i]);
      }
  g_assert_cmpuint (listed, >=, 25);
}

static gboolean
run_script (gpointer data)
{
  Keys *k = data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (k->app));

  if (windows == NULL)
    return G_SOURCE_CONTINUE;
  k->window = windows->data;
  g_assert_true (app_test_wait (library_ready, k->window));
  xdotool_focus (k->window);

  press_sections (k);
  press_series_page (k);
  press_general (k);
  press_review_window (k);
  press_pause (k);

  /* Ctrl+Q last: the application ends with its window. */
  press (k, "<Control>q", no_windows, k->app);
  assert_all_pressed (k);
  k->done = TRUE;
  return G_SOURCE_REMOVE;
}

/* A finished series of random games, and an analysis of its first game
 * with a mistake at move 5 and a blunder at move 9 by the subject (Black),
 * and a blunder at move 8 by its opponent. */
static gint64
make_library (const char *path)
{
  g_autoptr(KomiStore) store = test_open_store (path);
  g_autoptr(KomiStoreAnalysis) analysis = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  gint64 id;

  test_add_series (store, "Finished series", 11, "random", "random", 1, FALSE);
  first = sql_text (path, "SELECT MIN(id) FROM games");
  id = g_ascii_strtoll (first, NULL, 10);
  game = komi_store_load_game (store, id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (game->moves->len, >, 12);
  analysis = test_analysis_new (game, FALSE);
  test_analysis_set_loss (analysis, 5, 4);
  test_analysis_set_loss (analysis, 9, 8);
  /* The opponent's (White's) blunder: not listed, n passes it by. */
  g_assert_cmpint (game->subject, ==, KOMI_BLACK);
  test_analysis_set_loss (analysis, 8, 9);
  g_assert_true (komi_store_put_analysis (store, analysis, &error));
  g_assert_no_error (error);
  return id;
}

static void
test_every_listed_key (void)
{
  Keys k = { 0, };
  g_autoptr(GError) error = NULL;
  char *argv[] = { "komi", "--db", NULL, NULL };

  if (xdotool == NULL)
    {
      g_test_skip ("xdotool is not installed (Debian package xdotool): no key is pressed");
      return;
    }
  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      g_test_skip ("not an X11 display: xdotool cannot type into it");
      return;
    }
  k.dir = g_dir_make_tmp ("komi-app-shortcuts-XXXXXX", &error);
  g_assert_no_error (error);
  k.path = g_build_filename (k.dir, "library.db", NULL);
  k.game_id = make_library (k.path);
  k.pressed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  k.app = komi_application_new ();
  g_application_set_flags (G_APPLICATION (k.app),
                           g_application_get_flags (G_APPLICATION (k.app))
                           | G_APPLICATION_NON_UNIQUE);
  argv[2] = k.path;
  g_timeout_add (100, run_script, &k);
  g_assert_cmpint (g_application_run (G_APPLICATION (k.app), 3, argv), ==, 0);
  g_assert_true (k.done);

  g_object_unref (k.app);
  g_hash_table_unref (k.pressed);
  remove_test_dir (k.dir);
  g_free (k.dir);
  g_free (k.path);
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);
  xdotool = g_find_program_in_path ("xdotool");
  g_test_add_func ("/komi/app/shortcuts/every-listed-key", test_every_listed_key);
  return g_test_run ();
}
