/* test-app-run.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-app-test-util.h"
#include "komi-store-test-util.h"
#include "komi-test-util.h"
#include "komi-window.h"

/* Series run from the window, through its actions, into a real library
 * on disk: a first run creates the library; a run stopped half-way keeps
 * its games and the series' Continue finishes it; a bad definition is
 * refused in words; and the README's demo series plays to its end with
 * real GNU Go. */

typedef struct
{
  char       *dir;
  char       *path;
  KomiWindow *window;
} RunFixture;

static void
run_fixture_set_up (RunFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLibrary) library = NULL;

  f->dir = g_dir_make_tmp ("komi-app-run-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "library.db", NULL);
  library = komi_library_new (f->path);
  f->window = komi_window_new (NULL, library);
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (f->window));
}

static void
run_fixture_tear_down (RunFixture *f, gconstpointer data)
{
  if (f->window != NULL)   /* a test may have closed it */
    gtk_window_destroy (GTK_WINDOW (f->window));
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

/* Random against random, @pairs pairs, two games at once. */
static char *
write_series (RunFixture *f, const char *name, guint pairs)
{
  g_autofree char *text = g_strdup_printf ("{\"name\": \"%s\", \"protocol\": 1, "
                                           "\"subject\": \"random\", \"opponents\": "
                                           "[\"random\"], \"pairs\": %u, \"seed\": 9, "
                                           "\"referee\": \"none\", \"jobs\": 2}", name, pairs);
  char *path = g_build_filename (f->dir, "series.json", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static gboolean
job_over (gpointer window)
{
  KomiSeriesJob *job = komi_window_get_job (window);

  return job != NULL && !komi_series_job_get_running (job);
}

static gboolean
library_settled (gpointer window)
{
  return komi_library_get_state (komi_window_get_library (window)) != KOMI_LIBRARY_STATE_LOADING;
}

static gboolean
library_ready (gpointer window)
{
  return komi_library_get_state (komi_window_get_library (window)) == KOMI_LIBRARY_STATE_READY;
}

static gboolean
some_games_done (gpointer window)
{
  return komi_series_job_get_done (komi_window_get_job (window)) >= 2;
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
  job = komi_window_get_job (f->window);
  g_assert_nonnull (job);
  g_assert_true (komi_series_job_get_running (job));
  g_assert_true (app_test_wait (job_over, f->window));
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

static void
test_stop_and_continue (RunFixture *f, gconstpointer data)
{
  g_autofree char *series = write_series (f, "Stopped half-way", 12);
  g_autoptr(KomiSeriesItem) stopped = NULL;
  g_autoptr(KomiSeriesItem) finished = NULL;
  KomiSeriesJob *job;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait (some_games_done, f->window));
  /* One run at a time: the run actions are off while it goes. */
  job = komi_window_get_job (f->window);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-demo", NULL);
  g_assert_true (komi_window_get_job (f->window) == job);
  g_assert_true (komi_series_job_get_running (job));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.stop-series", NULL));
  g_assert_true (app_test_wait (job_over, f->window));
  g_assert_true (komi_series_job_get_stopped (job));
  g_assert_null (komi_series_job_get_error (job));

  stopped = only_series (f);
  g_assert_cmpuint (stopped->series->n_games, ==, 24);
  g_assert_cmpuint (stopped->series->n_finished, >=, 2);
  g_assert_cmpuint (stopped->series->n_unfinished, >, 0);

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.continue-series", "x",
                              stopped->series->id);
  g_assert_true (komi_window_get_job (f->window) != job);
  g_assert_true (app_test_wait_seconds (job_over, f->window, 120));
  g_assert_false (komi_series_job_get_stopped (komi_window_get_job (f->window)));
  finished = only_series (f);
  g_assert_cmpint (finished->series->id, ==, stopped->series->id);
  g_assert_cmpuint (finished->series->n_finished, ==, 24);
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

static void
test_bad_definition (RunFixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "bad.json", NULL);
  const GError *error;

  g_assert_true (g_file_set_contents (path, "{\"name\": \"No subject\", \"protocol\": 1}", -1,
                                      NULL));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", path);
  g_assert_true (app_test_wait (job_over, f->window));
  error = komi_series_job_get_error (komi_window_get_job (f->window));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "subject"));
  /* Nothing was written: a definition that does not parse creates no library. */
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
}

/* The README's demo, as a new user starts it from the first page. */
static void
test_demo_runs_to_completion (RunFixture *f, gconstpointer data)
{
  g_autoptr(KomiSeriesItem) item = NULL;
  g_autoptr(KomiResultItem) results = NULL;
  KomiSeriesJob *job;

  if (!have_gnugo ())
    return;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-demo", NULL));
  g_assert_true (app_test_wait_seconds (job_over, f->window, 240));
  job = komi_window_get_job (f->window);
  g_assert_null (komi_series_job_get_error (job));
  g_assert_cmpuint (komi_series_job_get_done (job), ==, 16);

  item = only_series (f);
  g_assert_cmpstr (item->series->name, ==,
                   "Demo: GNU Go level 1 against the seeded random player");
  g_assert_cmpuint (item->series->n_finished, ==, 16);
  results = g_list_model_get_item (G_LIST_MODEL (item->results), 0);
  g_assert_cmpstr (results->opponent, ==, "random");
  g_assert_cmpuint (results->games, ==, 16);
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/run/first-run-creates-library", RunFixture, NULL,
              run_fixture_set_up, test_first_run_creates_library, run_fixture_tear_down);
  g_test_add ("/komi/app/run/stop-and-continue", RunFixture, NULL,
              run_fixture_set_up, test_stop_and_continue, run_fixture_tear_down);
  g_test_add ("/komi/app/run/close-while-running", RunFixture, NULL,
              run_fixture_set_up, test_close_while_running, run_fixture_tear_down);
  g_test_add ("/komi/app/run/bad-definition", RunFixture, NULL,
              run_fixture_set_up, test_bad_definition, run_fixture_tear_down);
  g_test_add ("/komi/app/run/demo", RunFixture, NULL,
              run_fixture_set_up, test_demo_runs_to_completion, run_fixture_tear_down);
  return g_test_run ();
}
