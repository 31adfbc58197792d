/* test-app-follow.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-app-test-run.h"
#include "komi-rehearsal.h"
#include "komi-store-test-util.h"
#include "komi-test-util.h"

/* A run followed in the window as it goes: the series page shows its games
 * one after another, each move on the board and in the list's Moves column
 * as it is played, the board staying put; a model's answer is on the page
 * (and counted in the run bar) before its move is played. */

typedef struct
{
  KomiSeriesPage *page;
  gint64          first;   /* the first game the page showed */
  guint           moves;   /* shows_moves: this many at least */
} Watch;

static gboolean
shows_a_game (gpointer data)
{
  Watch *w = data;
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (w->page, &step);

  if (replay == NULL)
    return FALSE;
  w->first = replay->game->id;
  return TRUE;
}

static gboolean
shows_a_later_game (gpointer data)
{
  Watch *w = data;
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (w->page, &step);

  return replay != NULL && replay->game->id != w->first;
}

/* The selected row of the games list (a row widget of the column view). */
static GtkWidget *
selected_row (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row;

      if (gtk_widget_get_state_flags (child) & GTK_STATE_FLAG_SELECTED)
        return child;
      if ((row = selected_row (child)) != NULL)
        return row;
    }
  return NULL;
}

/* The last label under @widget: a row's last cell, Moves. */
static GtkWidget *
last_label (GtkWidget *widget)
{
  GtkWidget *found = GTK_IS_LABEL (widget) ? widget : NULL;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *label = last_label (child);

      if (label != NULL)
        found = label;
    }
  return found;
}

/* What the games list's Moves column says of the game selected. */
static const char *
moves_cell (KomiSeriesPage *page)
{
  GtkWidget *row = selected_row (app_test_child (page, KOMI_TYPE_SERIES_PAGE, "games_view"));
  GtkWidget *label = row != NULL ? last_label (row) : NULL;

  return label != NULL ? gtk_label_get_text (GTK_LABEL (label)) : "";
}

/* The first game followed, at its latest move, with @moves moves or more. */
static gboolean
shows_moves (gpointer data)
{
  Watch *w = data;
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (w->page, &step);

  AdwFlap *flap = ADW_FLAP (app_test_child (w->page, KOMI_TYPE_SERIES_PAGE, "flap"));

  /* Laid out, and the list of series done sliding away (the page's
   * choice of the series closes it). */
  return replay != NULL && replay->game->id == w->first && step + 1 == replay->n_steps
         && step >= w->moves
         && gtk_widget_get_width (app_test_child (w->page, KOMI_TYPE_SERIES_PAGE,
                                                  "board_view")) > 0
         && adw_flap_get_reveal_progress (flap) == (adw_flap_get_reveal_flap (flap) ? 1 : 0);
}

static graphene_rect_t
bounds_of (KomiSeriesPage *page, const char *name)
{
  graphene_rect_t rect;

  g_assert_true (gtk_widget_compute_bounds (app_test_child (page, KOMI_TYPE_SERIES_PAGE, name),
                                            GTK_WIDGET (page), &rect));
  return rect;
}

/* Watching a run, the page shows its series and follows its games one
 * after another (these last a second or so: the page may show one just
 * before it starts or after it ends); a game the user picks stays shown. */
static void
test_page_follows_run (RunFixture *f, gconstpointer data)
{
  g_autofree char *series = write_series_against (f, "Followed", "gnugo:1", 3, 1);
  Watch w = { komi_window_get_series_page (f->window), 0 };
  guint step;
  const KomiReplay *replay;

  if (!have_gnugo ())
    return;
  /* The engine review left open from before: a new run shows its calls. */
  gtk_stack_set_visible_child_name (GTK_STACK (app_test_child (w.page, KOMI_TYPE_SERIES_PAGE,
                                                               "side_stack")), "analysis");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait_seconds (shows_a_game, &w, 60));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (
                     app_test_child (w.page, KOMI_TYPE_SERIES_PAGE, "side_stack"))), ==, "calls");

  /* Followed move by move: the list's Moves column counts the moves the
   * board shows, and the board and the step label stay where they were. */
  w.moves = 2;
  g_assert_true (app_test_wait_seconds (shows_moves, &w, 60));
  {
    g_autofree char *want = NULL;
    graphene_rect_t board = bounds_of (w.page, "board_view");
    graphene_rect_t label = bounds_of (w.page, "move_label");
    graphene_rect_t later_board, later_label;

    replay = komi_series_page_get_replay (w.page, &step);
    want = g_strdup_printf ("%u", step);
    g_assert_cmpstr (moves_cell (w.page), ==, want);
    w.moves = step + 8;
    g_assert_true (app_test_wait_seconds (shows_moves, &w, 60));
    replay = komi_series_page_get_replay (w.page, &step);
    g_free (want);
    want = g_strdup_printf ("%u", step);
    g_assert_cmpstr (moves_cell (w.page), ==, want);
    later_board = bounds_of (w.page, "board_view");
    later_label = bounds_of (w.page, "move_label");
    if (!graphene_rect_equal (&board, &later_board))
      g_error ("the board moved from %g,%g %gx%g to %g,%g %gx%g", board.origin.x, board.origin.y,
               board.size.width, board.size.height, later_board.origin.x, later_board.origin.y,
               later_board.size.width, later_board.size.height);
    g_assert_true (graphene_rect_equal (&label, &later_label));
  }
  g_assert_true (app_test_wait_seconds (shows_a_later_game, &w, 120));

  /* The user picks the first game, which has ended: it stays shown. */
  g_assert_true (komi_series_page_select (w.page, 0, 0));
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 180));
  g_assert_null (komi_series_job_get_error (komi_window_get_job (f->window)));
  g_assert_true (app_test_wait (library_settled, f->window));
  replay = komi_series_page_get_replay (w.page, &step);
  g_assert_nonnull (replay);
  g_assert_cmpint (replay->game->id, ==, w.first);
}

typedef struct
{
  RunFixture *f;
  gboolean    watching;   /* the game is shown: calls from now on count */
  guint       turn;       /* of the first play_or_pass answered since; 0: none yet */
  guint       moves;      /* moves in the library when it was answered */
  gboolean    at_once;    /* the page showed it when the job told of it */
  guint       calls;      /* answered calls told of */
  gboolean    bar_counts; /* the run bar counted each as it came */
} LiveWatch;

static gboolean page_shows (gpointer data);

/* Connected after the window's own handler, so the page has had the news
 * when this runs: it shows the call at once, not at its next read. */
static void
on_job_event (KomiSeriesJob *job, const KomiLiveEvent *event, LiveWatch *w)
{
  const KomiStoreCall *call = event->call;

  if (event->kind != KOMI_RUN_EVENT_CALL_ANSWERED)
    return;
  /* The bar says how many calls were made, after each (no game has
   * ended yet). */
  {
    const char *bar = gtk_label_get_text (GTK_LABEL (window_child (w->f, "run_label")));
    guint n = komi_series_job_get_calls (job);
    g_autofree char *want = g_strdup_printf (" · %u call%s, $", n, n == 1 ? "" : "s");

    w->calls++;

    if (strstr (bar, want) == NULL)
      {
        g_test_message ("call %u not counted in the bar: %s", n, bar);
        w->bar_counts = FALSE;
      }
  }
  if (w->watching && w->turn == 0 && g_strcmp0 (call->question, "play_or_pass") == 0)
    {
      w->turn = call->turn;
      w->moves = count_moves (w->f);
      w->at_once = page_shows (w);
    }
}

static gboolean
answered (gpointer data)
{
  return ((LiveWatch *) data)->turn > 0;
}

static gboolean
game_loaded (gpointer page)
{
  return komi_series_page_get_replay (page, NULL) != NULL;
}

static gboolean
game_running (gpointer data)
{
  return count_games (data, "status = 'running'") > 0 && count_moves (data) >= 1;
}

static gboolean
page_shows (gpointer data)
{
  LiveWatch *w = data;
  KomiSeriesPage *page = komi_window_get_series_page (w->f->window);
  const char *text = gtk_label_get_text (GTK_LABEL (app_test_child (page, KOMI_TYPE_SERIES_PAGE,
                                                                    "summary_label")));
  g_autofree char *head = g_strdup_printf ("Move %u: ", w->turn);
  const char *at = strstr (text, head);

  return at != NULL && strstr (at, "play_or_pass #1: ") != NULL
         && strstr (at, ", answered ") != NULL;
}

/* The model's answer is on the page as soon as it comes: its first
 * question of a move is shown while the library has not even its move
 * yet (the second question takes the rehearsal model's latency), let
 * alone the slow opponent's reply. */
static void
test_live_calls (RunFixture *f, gconstpointer data)
{
  KomiRehearsalOptions options = { .latency_ms = 900, .policy = KOMI_REHEARSAL_POLICY_FIRST };
  g_autoptr(KomiRehearsal) server = komi_rehearsal_new (&options, NULL);
  g_autofree char *profile = g_build_filename (f->dir, "rehearsal.json", NULL);
  g_autofree char *profile_text = NULL;
  g_autofree char *engine = fake_engine_path (1, NULL);
  g_autofree char *definition = NULL;
  KomiSeriesPage *page = komi_window_get_series_page (f->window);
  LiveWatch w = { f, .bar_counts = TRUE };
  KomiSeriesJob *job;

  g_assert_nonnull (server);
  profile_text = g_strdup_printf ("{\"name\": \"rehearsal\", \"api\": \"openai-chat\", "
                                  "\"base_url\": \"%s/v1\", \"model\": \"rehearsal-model\"}",
                                  komi_rehearsal_get_base_url (server));
  g_assert_true (g_file_set_contents (profile, profile_text, -1, NULL));
  definition = g_strdup_printf ("{\"name\": \"Live\", \"protocol\": 1, \"subject\": "
                                "\"model:%s\", \"opponents\": [\"gtp:%s --delay 2500\"], "
                                "\"pairs\": 1, \"seed\": 3, \"referee\": \"none\", "
                                "\"jobs\": 1}", profile, engine);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-definition", "s", definition);
  g_assert_true (app_test_wait (app_test_job_started, f->window));
  job = komi_window_get_job (f->window);
  g_signal_connect (job, "event", G_CALLBACK (on_job_event), &w);

  /* The user opens the game being played. */
  g_assert_true (app_test_wait_seconds (game_running, f, 60));
  komi_library_reload (komi_window_get_library (f->window));
  g_assert_true (app_test_wait (library_ready, f->window));
  g_assert_true (komi_series_page_select (page, 0, 0));
  g_assert_true (app_test_wait (game_loaded, page));
  w.watching = TRUE;

  g_assert_true (app_test_wait_seconds (answered, &w, 60));
  g_assert_true (w.at_once);
  g_assert_cmpuint (w.calls, >=, 1);
  g_assert_true (w.bar_counts);
  if (!app_test_wait_seconds (page_shows, &w, 60))
    g_error ("turn %u not shown: “%s”", w.turn,
             gtk_label_get_text (GTK_LABEL (app_test_child (page, KOMI_TYPE_SERIES_PAGE,
                                                            "summary_label"))));
  /* Shown before the model's own move reached the library. */
  g_assert_cmpuint (count_moves (f), <, w.turn);
  g_assert_cmpuint (w.moves, <, w.turn);

  g_signal_handlers_disconnect_by_data (job, &w);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.stop-series", NULL));
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 60));
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/run/page-follows-run", RunFixture, NULL, run_fixture_set_up,
              test_page_follows_run, run_fixture_tear_down);
  g_test_add ("/komi/app/run/live-calls", RunFixture, NULL,
              run_fixture_set_up, test_live_calls, run_fixture_tear_down);
  return g_test_run ();
}
