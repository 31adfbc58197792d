/* test-app-run.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-app-test-run.h"
#include "komi-app-test-util.h"
#include "komi-demo.h"
#include "komi-rehearsal.h"
#include "komi-store-test-util.h"
#include "komi-test-util.h"
#include "komi-window.h"

/* Series run from the window, through its actions, into a real library
 * on disk: a first run creates the library; a second run's job is the
 * only one the window listens to; a run stopped half-way keeps
 * its games and the series' Continue finishes it; a bad definition is
 * refused in words; a paused run makes no move and then finishes; and the
 * demo series (the rehearsal model over
 * loopback HTTP against random and real GNU Go) plays to its end, and
 * continues after the application, and so its server, started again. */

typedef struct
{
  KomiWindow    *window;
  KomiSeriesJob *old;
} JobChange;

static gboolean
job_replaced (gpointer data)
{
  JobChange *change = data;

  return komi_window_get_job (change->window) != change->old;
}

static gboolean
some_games_done (gpointer window)
{
  KomiSeriesJob *job = komi_window_get_job (window);

  return job != NULL && komi_series_job_get_done (job) >= 2;
}

/* The library's one series, read again after the run. */
static KomiSeriesItem *
only_series (RunFixture *f)
{
  KomiLibrary *library = komi_window_get_library (f->window);

  komi_library_reload (library);
  g_assert_true (app_test_wait (library_ready, f->window));
  g_assert_cmpuint (g_list_model_get_n_items (komi_library_get_series (library)), ==, 1);
  return g_list_model_get_item (komi_library_get_series (library), 0);
}

static void
test_first_run_creates_library (RunFixture *f, gconstpointer data)
{
  g_autofree char *series = write_series (f, "First run", 3);
  g_autoptr(KomiSeriesItem) item = NULL;
  KomiSeriesJob *job;

  g_assert_true (app_test_wait (library_settled, f->window));
  g_assert_cmpint (komi_library_get_state (komi_window_get_library (f->window)), ==,
                   KOMI_LIBRARY_STATE_MISSING);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait (app_test_job_started, f->window));
  job = komi_window_get_job (f->window);
  g_assert_true (komi_series_job_get_running (job));
  g_assert_true (app_test_wait (app_test_job_over, f->window));
  g_assert_null (komi_series_job_get_error (job));
  g_assert_false (komi_series_job_get_stopped (job));
  g_assert_cmpstr (komi_series_job_get_name (job), ==, "First run");
  g_assert_cmpuint (komi_series_job_get_done (job), ==, 6);
  g_assert_cmpuint (komi_series_job_get_total (job), ==, 6);

  item = only_series (f);
  g_assert_cmpstr (item->series->name, ==, "First run");
  g_assert_cmpuint (item->series->n_games, ==, 6);
  g_assert_cmpuint (item->series->n_finished, ==, 6);
  g_assert_cmpint (item->series->id, ==, komi_series_job_get_series_id (job));
}

/* Whether anything still listens to @job's progress, events or end. */
static gboolean
job_watched (KomiSeriesJob *job)
{
  return g_signal_has_handler_pending (job, g_signal_lookup ("notify", G_TYPE_OBJECT),
                                       g_quark_from_static_string ("done"), TRUE)
         || g_signal_has_handler_pending (job, g_signal_lookup ("event", KOMI_TYPE_SERIES_JOB),
                                          0, TRUE)
         || g_signal_has_handler_pending (job, g_signal_lookup ("finished",
                                                                KOMI_TYPE_SERIES_JOB),
                                          0, TRUE);
}

/* A second run replaces the first one's job: the window listens to the new
 * job only, and the old one, though alive, tells it nothing. */
static void
test_second_run (RunFixture *f, gconstpointer data)
{
  g_autofree char *first_series = write_series (f, "First of two", 1);
  g_autofree char *second_series = NULL;
  g_autoptr(KomiSeriesJob) first = NULL;
  KomiSeriesJob *second;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", first_series);
  g_assert_true (app_test_wait (app_test_job_started, f->window));
  first = g_object_ref (komi_window_get_job (f->window));
  g_assert_true (job_watched (first));
  g_assert_true (app_test_wait (app_test_job_over, f->window));
  g_assert_true (job_watched (first));   /* the last run's, until the next */

  second_series = write_series (f, "Second of two", 1);   /* the same file, rewritten */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", second_series);
  g_assert_true (app_test_wait (job_replaced, &(JobChange) { f->window, first }));
  second = komi_window_get_job (f->window);
  g_assert_false (job_watched (first));
  g_assert_true (job_watched (second));
  g_assert_true (app_test_wait (app_test_job_over, f->window));
  g_assert_cmpstr (komi_series_job_get_name (second), ==, "Second of two");
  g_assert_null (komi_series_job_get_error (second));
}

static void
test_stop_and_continue (RunFixture *f, gconstpointer data)
{
  /* GNU Go's seconds a game, not random's milliseconds: under load the
   * main loop may lag that long, and a series of random games could end
   * before Stop is pressed. */
  g_autofree char *series = write_series_against (f, "Stopped half-way", "gnugo:1", 4, 2);
  g_autoptr(KomiSeriesItem) stopped = NULL;
  g_autoptr(KomiSeriesItem) finished = NULL;
  KomiSeriesJob *job;

  if (!have_gnugo ())
    return;
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait (some_games_done, f->window));
  /* One run at a time: the run actions are off while it goes. */
  job = komi_window_get_job (f->window);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-demo", NULL);
  g_assert_true (komi_window_get_job (f->window) == job);
  g_assert_true (komi_series_job_get_running (job));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.stop-series", NULL));
  g_assert_true (app_test_wait (app_test_job_over, f->window));
  g_assert_true (komi_series_job_get_stopped (job));
  g_assert_null (komi_series_job_get_error (job));

  stopped = only_series (f);
  g_assert_cmpuint (stopped->series->n_games, ==, 8);
  g_assert_cmpuint (stopped->series->n_finished, >=, 2);
  g_assert_cmpuint (stopped->series->n_unfinished, >, 0);

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.continue-series", "x",
                              stopped->series->id);
  g_assert_true (app_test_wait (job_replaced, &(JobChange) { f->window, job }));
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 120));
  g_assert_false (komi_series_job_get_stopped (komi_window_get_job (f->window)));
  finished = only_series (f);
  g_assert_cmpint (finished->series->id, ==, stopped->series->id);
  g_assert_cmpuint (finished->series->n_finished, ==, 8);
}

/* The question asked on closing during a run, answered with @response. */
static gboolean
answer_close_question (const char *response)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();
  gboolean asked = FALSE;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data))
      {
        asked = TRUE;
        adw_message_dialog_response (l->data, response);
        gtk_window_destroy (l->data);
      }
  return asked;
}

static gboolean
window_gone (gpointer data)
{
  RunFixture *f = data;

  return f->window == NULL;
}

/* Closing the window during a run asks first: keeping it running keeps the
 * window; stopping lets the games in flight stop, then closes it. */
static void
test_close_while_running (RunFixture *f, gconstpointer data)
{
  g_autofree char *series = write_series (f, "Closed while running", 12);
  g_autoptr(KomiSeriesJob) job = NULL;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait (app_test_job_started, f->window));
  job = g_object_ref (komi_window_get_job (f->window));
  gtk_window_close (GTK_WINDOW (f->window));
  g_assert_true (answer_close_question ("cancel"));
  g_assert_nonnull (f->window);
  g_assert_true (komi_series_job_get_running (job));

  gtk_window_close (GTK_WINDOW (f->window));
  g_assert_true (answer_close_question ("stop"));
  g_assert_true (app_test_wait (window_gone, f));
  g_assert_false (komi_series_job_get_running (job));
  g_assert_null (komi_series_job_get_error (job));
}

/* The message dialogs open (with @heading, or any). */
static guint
count_messages (const char *heading)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();
  guint n = 0;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data)
        && (heading == NULL
            || g_strcmp0 (adw_message_dialog_get_heading (l->data), heading) == 0))
      n++;
  return n;
}

static void
test_bad_definition (RunFixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "bad.json", NULL);
  const GError *error;

  g_assert_true (g_file_set_contents (path, "{\"name\": \"No subject\", \"protocol\": 1}", -1,
                                      NULL));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", path);
  g_assert_true (app_test_wait (app_test_job_over, f->window));
  error = komi_series_job_get_error (komi_window_get_job (f->window));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "subject"));
  /* Nothing was written: a definition that does not parse creates no library. */
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
  /* It did not stop, it never started; a second try's message takes the
   * place of the first's. */
  g_assert_cmpuint (count_messages ("The Series Did Not Start"), ==, 1);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", path);
  g_assert_true (app_test_wait (app_test_job_over, f->window));
  g_assert_cmpuint (count_messages (NULL), ==, 1);
  g_assert_cmpuint (count_messages ("The Series Did Not Start"), ==, 1);
}

/* The demo's calls in the library: with @port non-zero, only those sent to
 * that port. */
static guint
count_calls (RunFixture *f, const char *outcome, guint port)
{
  g_autofree char *port_text = port != 0 ? g_strdup_printf ("%u", port) : g_strdup ("%");
  g_autofree char *sql =
    g_strdup_printf ("SELECT COUNT(*) FROM calls WHERE outcome = '%s'"
                     " AND request_url LIKE 'http://127.0.0.1:%s/v1/%%'", outcome, port_text);

  return sql_count (f, sql);
}

static char *
read_profile (RunFixture *f)
{
  g_autofree char *path = komi_demo_profile_path (f->path);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static gboolean
profile_names_port (RunFixture *f, guint port)
{
  g_autofree char *text = read_profile (f);
  g_autofree char *url = g_strdup_printf ("\"http://127.0.0.1:%u/v1\"", port);

  return strstr (text, url) != NULL;
}

/* The demo, as a new user starts it from the first page: the rehearsal
 * model, served in this process on loopback, plays random and GNU Go level
 * 1 over real HTTP, every call recorded. */
static gboolean
a_game_done (gpointer window)
{
  KomiSeriesJob *job = komi_window_get_job (window);

  return job != NULL && komi_series_job_get_done (job) >= 1;
}

static gboolean
demo_greyed (gpointer window)
{
  return !app_test_item_sensitive (window, "Run the _Demo Series");
}

static void
test_demo_runs_to_completion (RunFixture *f, gconstpointer data)
{
  g_autoptr(KomiSeriesItem) item = NULL;
  KomiSeriesJob *job;
  guint port;

  if (!have_gnugo ())
    return;
  /* The model answers at once: nothing here follows the board. */
  komi_demo_set_latency (0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-demo", NULL));
  /* The server starts and the profile is written off the UI thread; the
   * job follows. */
  g_assert_null (komi_window_get_job (f->window));
  /* Once a game has ended, the bar says what the calls cost so far: the
   * rehearsal model is free, and says so: "$0", not "$0.0000". */
  g_assert_true (app_test_wait_seconds (a_game_done, f->window, 280));
  {
    const char *bar = gtk_label_get_text (GTK_LABEL (window_child (f, "run_label")));

    if (strstr (bar, " calls, $0 spent") == NULL)
      g_error ("the bar does not show the calls' cost: %s", bar);
  }
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 280));
  job = komi_window_get_job (f->window);
  g_assert_cmpuint (komi_series_job_get_calls (job), >=, 40);
  g_assert_null (komi_series_job_get_error (job));
  g_assert_cmpuint (komi_series_job_get_done (job), ==, 4);
  g_assert_cmpfloat (komi_series_job_get_cost (job), ==, 0);

  port = komi_demo_get_port ();
  g_assert_cmpuint (port, >, 0);
  g_assert_true (profile_names_port (f, port));
  item = only_series (f);
  g_assert_cmpstr (item->series->name, ==,
                   "Demo: the rehearsal model against random and GNU Go level 1");
  g_assert_cmpuint (item->series->n_finished, ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (item->results)), ==, 2);
  g_assert_cmpuint (count_games (f, "status = 'finished' AND winner IS NOT NULL"), ==, 4);
  /* The model played each of its games: one colour each, both opponents. */
  g_assert_cmpuint (count_games (f, "black_spec LIKE 'model:%' AND white_spec = 'random'"),
                    ==, 1);
  g_assert_cmpuint (count_games (f, "white_spec LIKE 'model:%' AND black_spec = 'gnugo:1'"),
                    ==, 1);
  /* Every model move came from an answered call to this server. */
  g_assert_cmpuint (count_calls (f, "answer", port), >=, 40);
  g_assert_cmpuint (count_calls (f, "answer", 0), ==, count_calls (f, "answer", port));
  /* Finished, Run the Demo Series would play nothing: it is greyed out
   * once the library is read again, not left to toast "finished". */
  g_assert_true (app_test_wait (demo_greyed, f->window));
  komi_demo_shutdown ();
}

static gboolean
model_has_answered (gpointer data)
{
  RunFixture *f = data;

  return count_calls (f, "answer", 0) >= 10;
}

/* The series page shows a game of the run stopped, read again after the
 * stop, and says of no move "Now deciding". */
static gboolean
nothing_deciding (gpointer window)
{
  KomiSeriesPage *page = komi_window_get_series_page (window);
  GtkWidget *summary = app_test_child (page, KOMI_TYPE_SERIES_PAGE, "summary_label");

  return komi_series_page_get_replay (page, NULL) != NULL
         && komi_library_get_state (komi_window_get_library (window)) == KOMI_LIBRARY_STATE_READY
         && strstr (gtk_label_get_text (GTK_LABEL (summary)), "Now deciding") == NULL;
}

/* A demo stopped half-way, the application closed (its server stopped)
 * and started again: Continue starts a server on a new port, writes the
 * profile again, and the model's games resume against it. */
static void
test_demo_continues_after_restart (RunFixture *f, gconstpointer data)
{
  g_autoptr(KomiSeriesItem) stopped = NULL;
  g_autoptr(KomiSeriesItem) finished = NULL;
  g_autoptr(KomiLibrary) library = NULL;
  g_autofree char *profile = komi_demo_profile_path (f->path);
  g_autofree char *stale = NULL;
  guint first_port, second_port, before;
  KomiSeriesJob *job;

  if (!have_gnugo ())
    return;
  /* Over 200 replies at 30 ms: the demo lasts seconds after the tenth,
   * however late the main loop sees it, so Stop finds it running. */
  komi_demo_set_latency (30);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-demo", NULL));
  g_assert_true (app_test_wait_seconds (model_has_answered, f, 120));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.stop-series", NULL));
  g_assert_true (app_test_wait (app_test_job_over, f->window));
  g_assert_true (komi_series_job_get_stopped (komi_window_get_job (f->window)));
  /* Stopped, no move is being decided: the page read again says none. */
  g_assert_true (app_test_wait (nothing_deciding, f->window));
  first_port = komi_demo_get_port ();
  g_assert_true (profile_names_port (f, first_port));
  stopped = only_series (f);
  g_assert_cmpuint (stopped->series->n_finished, <, 4);

  /* The application quits: its window goes, then its server. A profile
   * naming the old port is what the next start finds. */
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_null (f->window);
  komi_demo_shutdown ();
  g_assert_cmpuint (komi_demo_get_port (), ==, 0);
  stale = read_profile (f);
  /* Only the Stop above needed the model slow; the new server answers
   * at once. */
  komi_demo_set_latency (0);

  library = komi_library_new (f->path);
  f->window = komi_window_new (NULL, library);
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (app_test_wait (library_ready, f->window));
  before = count_calls (f, "answer", 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.continue-series",
                                             "x", stopped->series->id));
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 280));
  job = komi_window_get_job (f->window);
  g_assert_no_error ((GError *) komi_series_job_get_error (job));
  g_assert_false (komi_series_job_get_stopped (job));

  second_port = komi_demo_get_port ();
  g_assert_cmpuint (second_port, >, 0);
  g_assert_true (profile_names_port (f, second_port));
  if (second_port != first_port)   /* the system may, rarely, give the same port */
    {
      g_autofree char *fresh = read_profile (f);

      g_assert_cmpstr (stale, !=, fresh);
    }
  finished = only_series (f);
  g_assert_cmpint (finished->series->id, ==, stopped->series->id);
  g_assert_cmpuint (finished->series->n_finished, ==, 4);
  g_assert_cmpuint (count_games (f, "status = 'finished' AND winner IS NOT NULL"), ==, 4);
  /* The rest of the model's moves were answered by the new server. */
  g_assert_cmpuint (count_calls (f, "answer", second_port), >, 0);
  g_assert_cmpuint (count_calls (f, "answer", 0), >, before);
  /* The bar's count went on from the first run's, not from 0. */
  g_assert_cmpuint (komi_series_job_get_calls (job), >=, count_calls (f, "answer", 0));
  komi_demo_shutdown ();
}

static gboolean
some_moves (gpointer data)
{
  return count_moves (data) >= 10;
}


/* Every game in flight is held at the pause. */
static gboolean
all_held (gpointer data)
{
  RunFixture *f = data;
  guint waiting = komi_series_job_get_waiting (komi_window_get_job (f->window));

  return waiting > 0 && waiting == sql_count (f, "SELECT COUNT(*) FROM games "
                                                 "WHERE status = 'running'");
}

/* Pause through the window: the bar says so, no move is made while the
 * games are held (engines stay up: the games go on from where they were), and
 * Resume lets the series finish. */
static void
test_pause_and_resume (RunFixture *f, gconstpointer data)
{
  g_autofree char *path = write_series_against (f, "Paused", "gnugo:1", 2, 2);
  g_autoptr(KomiSeriesItem) item = NULL;
  GtkLabel *label;
  KomiSeriesJob *job;
  guint moves;

  if (!have_gnugo ())
    return;
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", path);
  g_assert_true (app_test_wait (app_test_job_started, f->window));
  job = komi_window_get_job (f->window);
  g_assert_true (app_test_wait_seconds (some_moves, f, 60));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.pause-series", NULL));
  g_assert_true (komi_series_job_get_paused (job));
  label = GTK_LABEL (window_child (f, "run_label"));
  g_assert_nonnull (strstr (gtk_label_get_text (label), "Paused"));
  g_assert_null (strstr (gtk_label_get_text (label), "left"));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (window_child (f, "pause_button"))), ==,
                   "_Resume");
  /* The move under way in each game completes and every game in flight
   * waits: held, blocked in the pause (no wait proves it), each move
   * already committed. What the main loop has pending changes nothing. */
  g_assert_true (app_test_wait_seconds (all_held, f, 60));
  moves = count_moves (f);
  for (guint i = 0; i < 100 && g_main_context_iteration (NULL, FALSE); i++)
    ;
  g_assert_true (all_held (f));
  g_assert_cmpuint (count_moves (f), ==, moves);
  g_assert_true (komi_series_job_get_running (job));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.pause-series", NULL));
  g_assert_false (komi_series_job_get_paused (job));
  g_assert_nonnull (strstr (gtk_label_get_text (label), "Running"));
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 120));
  g_assert_null (komi_series_job_get_error (job));
  g_assert_false (komi_series_job_get_stopped (job));
  g_assert_cmpuint (count_moves (f), >, moves);
  item = only_series (f);
  g_assert_cmpuint (item->series->n_finished, ==, 4);
}

/* Some game, or a job before its first, is held at the pause. */
static gboolean
some_waiting (gpointer data)
{
  RunFixture *f = data;

  return komi_series_job_get_waiting (komi_window_get_job (f->window)) > 0;
}

/* Stop works while paused: the waiting games wake and stop. */
static void
test_stop_while_paused (RunFixture *f, gconstpointer data)
{
  g_autofree char *series = write_series (f, "Stopped while paused", 40);
  KomiSeriesJob *job;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait (app_test_job_started, f->window));
  job = komi_window_get_job (f->window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.pause-series", NULL));
  g_assert_true (app_test_wait_seconds (some_waiting, f, 60));
  g_assert_true (komi_series_job_get_running (job));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.stop-series", NULL));
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 60));
  g_assert_true (komi_series_job_get_stopped (job));
  g_assert_false (komi_series_job_get_paused (job));
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/run/first-run-creates-library", RunFixture, NULL,
              run_fixture_set_up, test_first_run_creates_library, run_fixture_tear_down);
  g_test_add ("/komi/app/run/second-run", RunFixture, NULL,
              run_fixture_set_up, test_second_run, run_fixture_tear_down);
  g_test_add ("/komi/app/run/stop-and-continue", RunFixture, NULL,
              run_fixture_set_up, test_stop_and_continue, run_fixture_tear_down);
  g_test_add ("/komi/app/run/close-while-running", RunFixture, NULL,
              run_fixture_set_up, test_close_while_running, run_fixture_tear_down);
  g_test_add ("/komi/app/run/bad-definition", RunFixture, NULL,
              run_fixture_set_up, test_bad_definition, run_fixture_tear_down);
  g_test_add ("/komi/app/run/pause-and-resume", RunFixture, NULL,
              run_fixture_set_up, test_pause_and_resume, run_fixture_tear_down);
  g_test_add ("/komi/app/run/stop-while-paused", RunFixture, NULL,
              run_fixture_set_up, test_stop_while_paused, run_fixture_tear_down);
  g_test_add ("/komi/app/run/demo", RunFixture, NULL,
              run_fixture_set_up, test_demo_runs_to_completion, run_fixture_tear_down);
  g_test_add ("/komi/app/run/demo-continues-after-restart", RunFixture, NULL,
              run_fixture_set_up, test_demo_continues_after_restart, run_fixture_tear_down);
  return g_test_run ();
}
