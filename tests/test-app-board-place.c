/* test-app-board-place.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-app-test-util.h"
#include "komi-series-page.h"
#include "komi-store-test-util.h"
#include "komi-window.h"

/* The series page's board and its buttons stay where they are, under the
 * pointer (issue 14 §4): as the list of series opens and closes, and as
 * the moves go by, a pass too, whose step label is shown whole. On a
 * library of one series, GNU Go level 3 against the random player. */

static char        *dir;
static KomiLibrary *library;

static gboolean
settled (gpointer data)
{
  return komi_library_get_state (data) != KOMI_LIBRARY_STATE_LOADING;
}

typedef struct
{
  GtkWidget *window;
  int        width;
} Fit;

static gboolean
fitted (gpointer data)
{
  Fit *fit = data;
  int width = gtk_widget_get_width (fit->window);

  return width > 0 && width <= fit->width && width > fit->width - 40;
}

/* A main window @width wide (a screen's), on the series page. */
static KomiWindow *
open_window (int width)
{
  KomiWindow *window = komi_window_new (NULL, library);
  Fit fit = { GTK_WIDGET (window), width };

  gtk_window_set_default_size (GTK_WINDOW (window), width, 740);
  gtk_window_present (GTK_WINDOW (window));
  komi_window_show_page (window, "series");
  if (!app_test_wait (fitted, &fit))
    g_error ("the window is %d px wide, not %d", gtk_widget_get_width (fit.window), width);
  return window;
}

/* Where the board of the series page is, in the window. */
typedef struct
{
  GtkWidget       *window;
  GtkWidget       *board;
  AdwFlap         *flap;
  graphene_rect_t  at;        /* where it was when the list was touched */
  guint            frames;    /* drawn since */
  guint            moved;     /* of them, with the board elsewhere */
} BoardWatch;

static graphene_rect_t
board_bounds (BoardWatch *w)
{
  graphene_rect_t rect;

  g_assert_true (gtk_widget_compute_bounds (w->board, w->window, &rect));
  return rect;
}

static gboolean
on_board_frame (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  BoardWatch *w = data;
  graphene_rect_t now = board_bounds (w);

  w->frames++;
  if (!graphene_rect_equal (&now, &w->at))
    {
      g_test_message ("frame %u: the board at %g,%g %gx%g, not %g,%g %gx%g", w->frames,
                      now.origin.x, now.origin.y, now.size.width, now.size.height,
                      w->at.origin.x, w->at.origin.y, w->at.size.width, w->at.size.height);
      w->moved++;
    }
  return G_SOURCE_CONTINUE;
}

/* Three frames: one laid out after the last allocation's layout change. */
static gboolean
frames_drawn (gpointer data)
{
  return ((BoardWatch *) data)->frames >= 3;
}

/* The flap's slide over, and a frame drawn after it. */
static gboolean
list_settled (gpointer data)
{
  BoardWatch *w = data;
  double progress = adw_flap_get_reveal_progress (w->flap);

  return w->frames > 0 && progress == (adw_flap_get_reveal_flap (w->flap) ? 1 : 0);
}

static gboolean
game_on_board (gpointer data)
{
  BoardWatch *w = data;

  return komi_series_page_get_replay (KOMI_SERIES_PAGE (gtk_widget_get_ancestor (
           w->board, KOMI_TYPE_SERIES_PAGE)), NULL) != NULL
         && gtk_widget_get_width (w->board) > 0;
}

/* Opens (@reveal) or closes the list of series, as its toggle does, and
 * checks that no frame drawn meanwhile has the board elsewhere. */
static void
touch_list (BoardWatch *w, gboolean reveal)
{
  w->at = board_bounds (w);
  w->frames = 0;
  w->moved = 0;
  adw_flap_set_reveal_flap (w->flap, reveal);
  g_assert_true (app_test_wait (list_settled, w));
  g_test_message ("%s the list: %u frames, the board elsewhere in %u", reveal ? "opening"
                  : "closing", w->frames, w->moved);
  g_assert_cmpuint (w->moved, ==, 0);
}

/* The board and its buttons never move under the pointer as the list of
 * series opens or closes: on a wide window the list stays beside the page
 * (closing it would widen the page and slide the board); on a narrow one
 * it slides over the page. */
static void
test_list_keeps_board (void)
{
  static const int widths[] = { 1366, 800 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      KomiWindow *window = open_window (widths[i]);
      KomiSeriesPage *page = komi_window_get_series_page (window);
      BoardWatch w = { GTK_WIDGET (window), NULL, NULL };
      guint tick;

      w.board = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (page), KOMI_TYPE_SERIES_PAGE,
                                               "board_view");
      w.flap = ADW_FLAP (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                        KOMI_TYPE_SERIES_PAGE, "flap"));
      g_assert_true (komi_series_page_select (page, 0, 0));
      g_assert_true (app_test_wait (game_on_board, &w));
      tick = gtk_widget_add_tick_callback (w.board, on_board_frame, &w, NULL);
      /* Frames drawn, the page laid out for its width and the list where
       * it was put meanwhile. */
      w.frames = 0;
      g_assert_true (app_test_wait (frames_drawn, &w));
      g_assert_true (app_test_wait (list_settled, &w));
      g_test_message ("%d px: the list %s", widths[i],
                      adw_flap_get_folded (w.flap) ? "folded" : "beside the page");
      if (adw_flap_get_folded (w.flap))
        {
          touch_list (&w, TRUE);
          touch_list (&w, FALSE);
        }
      else
        {
          /* Beside the page it stays. */
          touch_list (&w, FALSE);
          g_assert_true (adw_flap_get_reveal_flap (w.flap));
          g_assert_false (adw_flap_get_folded (w.flap));
        }
      gtk_widget_remove_tick_callback (w.board, tick);
      gtk_window_destroy (GTK_WINDOW (window));
    }
}


static gboolean
page_in_place (gpointer window)
{
  AdwLeaflet *leaflet = ADW_LEAFLET (gtk_widget_get_template_child (window, KOMI_TYPE_WINDOW,
                                                                    "leaflet"));

  return !adw_leaflet_get_child_transition_running (leaflet);
}

/* The step label under the series page's board says the position and the
 * move that made it, a pass too, whole and without moving the board or
 * the buttons beside it, wide and narrow. */
static void
test_step_label (void)
{
  static const int widths[] = { 1366, 360 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      KomiWindow *window = open_window (widths[i]);
      KomiSeriesPage *page = komi_window_get_series_page (window);
      BoardWatch w = { GTK_WIDGET (window), NULL, NULL };
      GtkLabel *move, *played;
      GtkWidget *buttons;
      const KomiReplay *replay;
      graphene_rect_t board, row;
      guint pass = 0, step;

      w.board = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (page),
                                                             KOMI_TYPE_SERIES_PAGE, "board_view");
      w.flap = ADW_FLAP (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                        KOMI_TYPE_SERIES_PAGE, "flap"));
      move = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), KOMI_TYPE_SERIES_PAGE,
                                                       "move_label"));
      played = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                         KOMI_TYPE_SERIES_PAGE, "played_label"));
      buttons = gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (move)));
      g_assert_true (komi_series_page_select (page, 0, 0));
      g_assert_true (app_test_wait (game_on_board, &w));
      replay = komi_series_page_get_replay (page, NULL);
      for (guint m = 0; m < replay->game->moves->len && pass == 0; m++)
        if (g_array_index (replay->game->moves, KomiMove, m).point == KOMI_PASS)
          pass = m + 1;
      g_assert_cmpuint (pass, >, 1);

      gtk_widget_activate_action (GTK_WIDGET (page), "review.first-move", NULL);
      gtk_widget_activate_action (GTK_WIDGET (page), "review.next-move", NULL);
      g_assert_true (app_test_wait (app_test_has_size, move));
      /* The page done sliding in (narrow, the sidebar gives way to it),
       * and laid out for its width: a frame drawn after a layout chosen. */
      g_assert_true (app_test_wait (page_in_place, window));
      {
        guint tick = gtk_widget_add_tick_callback (w.board, on_board_frame, &w, NULL);

        w.frames = 0;
        g_assert_true (app_test_wait (frames_drawn, &w));
        gtk_widget_remove_tick_callback (w.board, tick);
        w.moved = 0;
      }
      board = board_bounds (&w);
      g_assert_true (gtk_widget_compute_bounds (buttons, GTK_WIDGET (window), &row));
      for (step = 1; step < pass; step++)
        gtk_widget_activate_action (GTK_WIDGET (page), "review.next-move", NULL);
      komi_series_page_get_replay (page, &step);
      g_assert_cmpuint (step, ==, pass);
      /* Laid out again, and drawn. */
      w.frames = 0;
      w.at = board;
      {
        guint tick = gtk_widget_add_tick_callback (w.board, on_board_frame, &w, NULL);
        graphene_rect_t now;

        g_assert_true (app_test_wait (list_settled, &w));
        gtk_widget_remove_tick_callback (w.board, tick);
        g_test_message ("%d px: “%s” / “%s”", widths[i], gtk_label_get_text (move),
                        gtk_label_get_text (played));
        g_assert_true (g_str_has_suffix (gtk_label_get_text (played), " passes"));
        g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (move)));
        g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (played)));
        g_assert_cmpuint (w.moved, ==, 0);
        g_assert_true (gtk_widget_compute_bounds (buttons, GTK_WIDGET (window), &now));
        if (!graphene_rect_equal (&row, &now))
          g_error ("%d px: the buttons moved from %g,%g %gx%g to %g,%g %gx%g", widths[i],
                   row.origin.x, row.origin.y, row.size.width, row.size.height,
                   now.origin.x, now.origin.y, now.size.width, now.size.height);
      }
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  app_test_init (&argc, &argv);
  dir = g_dir_make_tmp ("komi-board-place-XXXXXX", &error);
  g_assert_no_error (error);
  {
    g_autofree char *path = g_build_filename (dir, "library.db", NULL);
    g_autoptr(KomiStore) store = test_open_store (path);

    test_add_series (store, "Placed", 11, "gnugo:3", "random", 1, FALSE);
    library = komi_library_new (path);
  }
  komi_library_reload (library);
  g_assert_true (app_test_wait (settled, library));
  g_test_add_func ("/komi/app/board-place/list-keeps-board", test_list_keeps_board);
  g_test_add_func ("/komi/app/board-place/step-label", test_step_label);
  status = g_test_run ();
  g_object_unref (library);
  remove_test_dir (dir);
  g_free (dir);
  return status;
}
