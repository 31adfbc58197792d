/* bench-games-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <time.h>

#include "komi-app-test-util.h"
#include "komi-games-page.h"
#include "komi-store-test-util.h"
#include "komi-window.h"

/* Figures, not a test: the Games page over a library of N games (10,000 by
 * default), in the main window at 1366x768 under Xvfb. Times the library's
 * read into the page, then a filter and two sorts, each until the frame
 * that shows it is painted; and counts the widgets the view made.
 *
 *   xvfb-run -a -s "-screen 0 1366x768x24" _build/tests/bench-games-page [N] */

#define N_SERIES 5

static guint painted;
static double cpu_start;

/* CPU time of the calling (main) thread, in ms: steadier than the wall
 * clock on a busy machine. */
static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#define START() (cpu_start = thread_cpu_ms (), g_get_monotonic_time ())

static void
on_after_paint (GdkFrameClock *clock, gpointer data)
{
  painted++;
}

static gboolean
settled (gpointer library)
{
  return komi_library_get_state (library) == KOMI_LIBRARY_STATE_READY;
}

static gboolean
repainted (gpointer since)
{
  return painted > GPOINTER_TO_UINT (since);
}

/* Milliseconds since @start, once the next frame has been painted; the
 * wall time until then in @sync_ms, and the main thread's CPU time for the
 * change itself (before the frame) in @cpu_ms. */
static double
ms_to_frame (GtkWidget *widget, gint64 start, double *sync_ms, double *cpu_ms)
{
  guint before = painted;

  *sync_ms = (g_get_monotonic_time () - start) / 1e3;
  *cpu_ms = thread_cpu_ms () - cpu_start;
  gtk_widget_queue_draw (widget);
  g_assert_true (app_test_wait (repainted, GUINT_TO_POINTER (before)));
  return (g_get_monotonic_time () - start) / 1e3;
}

static guint
count_widgets (GtkWidget *widget)
{
  guint n = 1;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    n += count_widgets (c);
  return n;
}

/* N_SERIES series of random games under made-up subjects and opponents,
 * so that the filters have something to choose between. */
static void
make_library (const char *path, guint n_games)
{
  const char *subjects[] = { "gtp:model-a", "gtp:model-b" };
  const char *opponents[] = { "random", "gnugo:1", "gnugo:5", "katago:b6:1", "gtp:other" };
  g_autoptr(KomiStore) store = test_open_store (path);
  gint64 start = g_get_monotonic_time ();

  for (guint s = 0; s < N_SERIES; s++)
    {
      g_autofree char *name = g_strdup_printf ("Bench series %u", s + 1);
      test_add_series (store, name, 100 + s, subjects[s % 2], opponents[s],
                       MAX (n_games / N_SERIES / 2, 1), FALSE);
    }
  printf ("library: %u games written in %.0f ms\n", n_games,
          (g_get_monotonic_time () - start) / 1e3);
}

int
main (int argc, char *argv[])
{
  guint n_games = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 10000;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("komi-bench-games-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "library.db", NULL);
  g_autoptr(KomiLibrary) library = NULL;
  KomiWindow *window;
  KomiGamesPage *page;
  GtkColumnView *view;
  g_autoptr(GtkColumnViewColumn) margin = NULL;
  g_autoptr(GtkColumnViewColumn) moves = NULL;
  double sync_ms, cpu_ms, frame_ms;
  gint64 start;

  app_test_init (&argc, &argv);
  make_library (path, n_games);

  library = komi_library_new (path);
  window = komi_window_new (NULL, library);
  gtk_window_set_default_size (GTK_WINDOW (window), 1366, 768);
  gtk_window_present (GTK_WINDOW (window));
  komi_window_show_page (window, "games");
  g_assert_true (app_test_wait (app_test_has_size, window));
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (on_after_paint), NULL);
  page = KOMI_GAMES_PAGE (gtk_widget_get_template_child (GTK_WIDGET (window), KOMI_TYPE_WINDOW,
                                                         "games_page"));
  view = GTK_COLUMN_VIEW (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                         KOMI_TYPE_GAMES_PAGE, "view"));
  margin = g_list_model_get_item (gtk_column_view_get_columns (view), 7);
  moves = g_list_model_get_item (gtk_column_view_get_columns (view), 8);

  /* The read runs on a worker thread; the main thread only swaps the rows
   * in, filters, sorts and draws. */
  start = START ();
  komi_library_reload (library);
  g_assert_true (app_test_wait_seconds (settled, library, 120));
  frame_ms = ms_to_frame (GTK_WIDGET (page), start, &sync_ms, &cpu_ms);
  printf ("load: %u rows shown; library read %.0f ms (the main thread's part: CPU %.0f ms), "
          "first frame at %.0f ms\n",
          g_list_model_get_n_items (komi_games_page_get_rows (page)), sync_ms, cpu_ms, frame_ms);
  printf ("widgets in the page: %u (the view makes rows for the screen only)\n",
          count_widgets (GTK_WIDGET (page)));

  start = START ();
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gtk_widget_get_template_child (
                                GTK_WIDGET (page), KOMI_TYPE_GAMES_PAGE, "colour_drop")), 1);
  frame_ms = ms_to_frame (GTK_WIDGET (page), start, &sync_ms, &cpu_ms);
  printf ("filter (as Black): %u rows; main thread %.1f ms (CPU %.1f ms), frame at %.1f ms\n",
          g_list_model_get_n_items (komi_games_page_get_rows (page)), sync_ms, cpu_ms, frame_ms);

  start = START ();
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gtk_widget_get_template_child (
                                GTK_WIDGET (page), KOMI_TYPE_GAMES_PAGE, "opponent_drop")), 2);
  frame_ms = ms_to_frame (GTK_WIDGET (page), start, &sync_ms, &cpu_ms);
  printf ("filter (and one opponent): %u rows; main thread %.1f ms (CPU %.1f ms), "
          "frame at %.1f ms\n",
          g_list_model_get_n_items (komi_games_page_get_rows (page)), sync_ms, cpu_ms, frame_ms);

  start = START ();
  komi_games_page_clear_filters (page);
  frame_ms = ms_to_frame (GTK_WIDGET (page), start, &sync_ms, &cpu_ms);
  printf ("clear filters: %u rows; main thread %.1f ms (CPU %.1f ms), frame at %.1f ms\n",
          g_list_model_get_n_items (komi_games_page_get_rows (page)), sync_ms, cpu_ms, frame_ms);

  start = START ();
  gtk_column_view_sort_by_column (view, margin, GTK_SORT_DESCENDING);
  frame_ms = ms_to_frame (GTK_WIDGET (page), start, &sync_ms, &cpu_ms);
  printf ("sort by margin: main thread %.1f ms (CPU %.1f ms), frame at %.1f ms\n",
          sync_ms, cpu_ms, frame_ms);

  start = START ();
  gtk_column_view_sort_by_column (view, moves, GTK_SORT_ASCENDING);
  frame_ms = ms_to_frame (GTK_WIDGET (page), start, &sync_ms, &cpu_ms);
  printf ("sort by moves: main thread %.1f ms (CPU %.1f ms), frame at %.1f ms\n",
          sync_ms, cpu_ms, frame_ms);
  printf ("widgets in the page: %u\n", count_widgets (GTK_WIDGET (page)));

  gtk_window_destroy (GTK_WINDOW (window));
  remove_test_dir (dir);
  return 0;
}
