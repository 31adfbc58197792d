/* test-app-interrupted.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "komi-app-test-util.h"
#include "komi-store-test-util.h"
#include "komi-test-util.h"
#include "komi-window.h"

/* A run that died is offered for continuing when the window next opens
 * the library: `komi-cli run` SIGKILLed mid-series is, and Continue
 * finishes it; not while the process still runs it, and not once the user
 * stopped it (Ctrl-C) or it finished. */

#define PAIRS 100   /* 200 games of random against random: a few seconds */

typedef struct
{
  char        *dir;
  char        *path;
  char        *series;
  KomiWindow  *window;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strdup_printf ("{\"name\": \"Cut short\", \"protocol\": 1, "
                                           "\"subject\": \"random\", \"opponents\": "
                                           "[\"random\"], \"pairs\": %u, \"seed\": 3, "
                                           "\"referee\": \"none\", \"jobs\": 2}", PAIRS);

  f->dir = g_dir_make_tmp ("komi-app-interrupted-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "library.db", NULL);
  f->series = g_build_filename (f->dir, "series.json", NULL);
  g_assert_true (g_file_set_contents (f->series, text, -1, NULL));
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  remove_test_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_free (f->series);
}

/* Games of @status, read as the run writes them. */
static guint
count_games (Fixture *f, const char *status)
{
  g_autofree char *sql = g_strdup_printf ("SELECT COUNT(*) FROM games WHERE status = '%s'",
                                          status);

  return test_sql_count (f->path, sql);
}

/* `komi-cli run` in the background, until a few games have ended. */
static GSubprocess *
start_cli (Fixture *f)
{
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  g_autoptr(GError) error = NULL;
  GSubprocess *proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                        | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                                        cli, "run", f->series, "--db", f->path, NULL);
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_assert_no_error (error);
  while (count_games (f, "finished") < 4)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_assert_nonnull (g_subprocess_get_identifier (proc));   /* still running */
      g_usleep (5000);
    }
  return proc;
}

static gboolean
library_ready (gpointer window)
{
  return komi_library_get_state (komi_window_get_library (window)) == KOMI_LIBRARY_STATE_READY;
}

/* The window as Komi opens it at start, over the library. */
static void
open_window (Fixture *f)
{
  g_autoptr(KomiLibrary) library = komi_library_new (f->path);

  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  f->window = komi_window_new (NULL, library);
  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (f->window));
  /* The window decides on the offer as the library becomes ready
   * (komi-window.c, on_library_state): once ready, find_offer() sees the
   * decision, with no frame to wait for. */
  g_assert_true (app_test_wait (library_ready, f->window));
}

/* The offer shown over the window, or NULL. */
static AdwMessageDialog *
find_offer (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data)
        && strstr (adw_message_dialog_get_body (l->data), "was interrupted") != NULL)
      return l->data;
  return NULL;
}

static void
test_killed_is_offered (Fixture *f, gconstpointer data)
{
  g_autoptr(GSubprocess) proc = start_cli (f);
  g_autofree char *body = NULL;
  AdwMessageDialog *offer;
  guint ended;

  /* Held where it is (random games are quick): it still holds the run. */
  g_subprocess_send_signal (proc, SIGSTOP);
  /* Running in another process right now: not offered. */
  open_window (f);
  g_assert_null (find_offer ());
  g_assert_null (komi_library_dup_interrupted (komi_window_get_library (f->window)));

  g_subprocess_send_signal (proc, SIGKILL);
  g_subprocess_wait (proc, NULL, NULL);
  ended = count_games (f, "finished");
  g_assert_cmpuint (ended, <, 2 * PAIRS);

  /* The next start offers it, naming how far it got. */
  open_window (f);
  offer = find_offer ();
  g_assert_nonnull (offer);
  body = g_strdup_printf ("Series “Cut short” was interrupted after %u of %u games. Continue?",
                          ended, 2 * PAIRS);
  g_assert_cmpstr (adw_message_dialog_get_body (offer), ==, body);

  adw_message_dialog_response (offer, "continue");
  gtk_window_destroy (GTK_WINDOW (offer));
  /* The job starts once the series' model keys are looked up. */
  g_assert_true (app_test_wait_seconds (app_test_job_started, f->window, 60));
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 120));
  g_assert_null (komi_series_job_get_error (komi_window_get_job (f->window)));
  g_assert_cmpuint (count_games (f, "finished"), ==, 2 * PAIRS);

  /* Finished: never offered again. */
  open_window (f);
  g_assert_null (find_offer ());
}

static void
test_stopped_is_not_offered (Fixture *f, gconstpointer data)
{
  g_autoptr(GSubprocess) proc = start_cli (f);

  /* Ctrl-C: the user stops the run on purpose (komi-cli then exits 130). */
  g_subprocess_send_signal (proc, SIGINT);
  g_assert_true (g_subprocess_wait (proc, NULL, NULL));
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 130);
  g_assert_cmpuint (count_games (f, "finished"), <, 2 * PAIRS);

  open_window (f);
  g_assert_null (find_offer ());
  g_assert_null (komi_library_dup_interrupted (komi_window_get_library (f->window)));
}

static gboolean
dismissal_written (gpointer data)
{
  Fixture *f = data;
  g_autoptr(KomiStore) store = komi_store_open_reader (f->path, NULL);
  g_autoptr(GArray) ids = store ? komi_store_list_interrupted (store, NULL) : NULL;

  return ids != NULL && ids->len == 0;
}

/* Dismissed, a dead run is not offered again. */
static void
test_dismissed (Fixture *f, gconstpointer data)
{
  g_autoptr(GSubprocess) proc = start_cli (f);
  AdwMessageDialog *offer;

  g_subprocess_send_signal (proc, SIGSTOP);
  g_subprocess_send_signal (proc, SIGKILL);
  g_subprocess_wait (proc, NULL, NULL);
  open_window (f);
  offer = find_offer ();
  g_assert_nonnull (offer);
  adw_message_dialog_response (offer, "dismiss");
  gtk_window_destroy (GTK_WINDOW (offer));
  g_assert_null (komi_window_get_job (f->window));

  /* The dismissal is written off the main thread; the next start waits. */
  g_assert_true (app_test_wait (dismissal_written, f));
  open_window (f);
  g_assert_null (find_offer ());
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/interrupted/killed-is-offered", Fixture, NULL,
              fixture_set_up, test_killed_is_offered, fixture_tear_down);
  g_test_add ("/komi/app/interrupted/stopped-is-not-offered", Fixture, NULL,
              fixture_set_up, test_stopped_is_not_offered, fixture_tear_down);
  g_test_add ("/komi/app/interrupted/dismissed", Fixture, NULL,
              fixture_set_up, test_dismissed, fixture_tear_down);
  return g_test_run ();
}
