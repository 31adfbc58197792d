/* test-app-shards.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "komi-app-test-util.h"
#include "komi-application.h"
#include "komi-shards-window.h"
#include "komi-test-cli.h"
#include "komi-test-util.h"

/* Watch Shards: the window over the libraries of real `komi-cli run
 * --shard K/2` processes, read while they write them: a shard seen
 * running, then every game ended, the figures those of `komi-cli status`
 * for the same files; the shards' runs unhindered by the window's reads;
 * the merged library watched the same way; `komi --watch FILE…` opening
 * the window. */

#define N_SHARDS 2

/* Engine-only and short: 2 pairs against random, one game at a time, so
 * that each shard runs for a few seconds (2 games, read every second). */
static const char series_json[] =
  "{\"name\": \"watched\", \"protocol\": 1, \"subject\": \"gnugo:1\","
  " \"opponents\": [{\"player\": \"random\", \"pairs\": 2}], \"seed\": 23, \"jobs\": 1}";

/* Every GtkLabel text under @widget named @name, in order. */
static void
collect (GtkWidget *widget, const char *name, GPtrArray *texts)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_widget_get_name (widget), name) == 0
      && gtk_widget_get_visible (widget))
    g_ptr_array_add (texts, (char *) gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, name, texts);
}

static GPtrArray *
labels (gpointer window, const char *name)
{
  GPtrArray *texts = g_ptr_array_new ();

  collect (GTK_WIDGET (window), name, texts);
  return texts;
}

/* The titles of the shard rows ("Shard 1/2"), in order. */
static void
collect_rows (GtkWidget *widget, GPtrArray *titles)
{
  if (ADW_IS_ACTION_ROW (widget) && g_strcmp0 (gtk_widget_get_name (widget), "shard-row") == 0)
    g_ptr_array_add (titles, (char *) adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_rows (child, titles);
}

typedef struct
{
  KomiShardsWindow *window;
  guint             reads;
} Watch;

/* A read shown since the last look, with a shard running and games left. */
static gboolean
seen_running (gpointer data)
{
  Watch *w = data;
  g_autoptr(GPtrArray) figures = NULL;

  if (komi_shards_window_get_reads (w->window) == w->reads)
    return FALSE;
  w->reads = komi_shards_window_get_reads (w->window);
  figures = labels (w->window, "shard-figures");
  for (guint i = 0; i < figures->len; i++)
    if (strstr (g_ptr_array_index (figures, i), "running, ETA") != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
procs_done (gpointer data)
{
  return *(guint *) data == N_SHARDS;
}

/* A read begun after the processes ended has been shown. */
static gboolean
read_after (gpointer data)
{
  Watch *w = data;

  return komi_shards_window_get_reads (w->window) >= w->reads + 2;
}

static void
on_exited (GObject *source, GAsyncResult *result, gpointer data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  (*(guint *) data)++;
}

/* What `komi-cli status FILES…` says of the series: "N/M games ended, R
 * running, ETA E", from its first line. */
static char *
status_summary (const char * const *paths)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  const char *start;

  g_ptr_array_add (argv, cli);
  g_ptr_array_add (argv, "status");
  for (guint i = 0; paths[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) paths[i]);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char * const *) argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                            &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (proc));
  start = strstr (out, "): ");
  g_assert_nonnull (start);
  return g_strndup (start + 3, strcspn (start + 3, "\n"));
}

static void
test_watch_shards (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-app-shards-XXXXXX", NULL);
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  g_autofree char *merged = g_build_filename (dir, "library.db", NULL);
  char *paths[N_SHARDS + 1] = { NULL, };
  const char *merged_paths[] = { merged, NULL };
  GSubprocess *procs[N_SHARDS];
  g_autoptr(GPtrArray) summary = NULL, figures = NULL, missing = NULL, rows = NULL;
  g_autofree char *expected = NULL;
  g_auto(KomiCliRun) merge = { 0, };
  Watch w = { 0, };
  guint exited = 0;

  if (!have_gnugo ())
    return;
  g_assert_true (g_file_set_contents (series, series_json, -1, NULL));
  for (guint k = 0; k < N_SHARDS; k++)
    {
      g_autofree char *shard = g_strdup_printf ("%u/%u", k + 1, N_SHARDS);
      g_autoptr(GError) error = NULL;

      paths[k] = g_strdup_printf ("%s/shard-%u.db", dir, k + 1);
      procs[k] = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, cli, "run",
                                   series, "--shard", shard, "--db", paths[k], NULL);
      g_assert_no_error (error);
      g_subprocess_wait_async (procs[k], NULL, on_exited, &exited);
    }

  /* Opened as a user would once the shards' libraries are there. */
  for (guint k = 0; k < N_SHARDS; k++)
    while (!g_file_test (paths[k], G_FILE_TEST_EXISTS))
      g_main_context_iteration (NULL, TRUE);
  w.window = komi_shards_window_new (NULL, (const char * const *) paths, 1);
  gtk_window_present (GTK_WINDOW (w.window));
  g_assert_true (app_test_wait (app_test_has_size, w.window));

  /* Read while they run: a shard is seen running, its games not all ended. */
  g_assert_true (app_test_wait_seconds (seen_running, &w, 300));
  summary = labels (w.window, "series-summary");
  g_assert_cmpuint (summary->len, ==, 1);
  g_assert_null (strstr (g_ptr_array_index (summary, 0), "4/4 games ended"));
  g_clear_pointer (&summary, g_ptr_array_unref);

  /* Both runs end well: the window's reads never held them up. */
  g_assert_true (app_test_wait_seconds (procs_done, &exited, 600));
  for (guint k = 0; k < N_SHARDS; k++)
    {
      g_assert_true (g_subprocess_get_successful (procs[k]));
      g_object_unref (procs[k]);
    }
  w.reads = komi_shards_window_get_reads (w.window);
  g_assert_true (app_test_wait_seconds (read_after, &w, 60));

  expected = status_summary ((const char * const *) paths);
  g_assert_cmpstr (expected, ==, "4/4 games ended, 0 running, ETA 0:00");
  summary = labels (w.window, "series-summary");
  g_assert_cmpuint (summary->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (summary, 0), ==, expected);
  figures = labels (w.window, "shard-figures");
  g_assert_cmpuint (figures->len, ==, N_SHARDS);
  g_assert_cmpstr (g_ptr_array_index (figures, 0), ==, "2/2 ended");
  g_assert_cmpstr (g_ptr_array_index (figures, 1), ==, "2/2 ended");
  missing = labels (w.window, "series-missing");
  g_assert_cmpuint (missing->len, ==, 0);
  rows = g_ptr_array_new ();
  collect_rows (GTK_WIDGET (w.window), rows);
  g_assert_cmpuint (rows->len, ==, N_SHARDS);
  g_assert_cmpstr (g_ptr_array_index (rows, 0), ==, "Shard 1/2");
  g_assert_cmpstr (g_ptr_array_index (rows, 1), ==, "Shard 2/2");
  gtk_window_destroy (GTK_WINDOW (w.window));

  /* One shard alone: the other's games are in none of the libraries. */
  {
    const char *one[] = { paths[0], NULL };
    g_autoptr(GPtrArray) texts = NULL;

    w.window = komi_shards_window_new (NULL, one, 1);
    w.reads = 0;
    gtk_window_present (GTK_WINDOW (w.window));
    g_assert_true (app_test_wait_seconds (read_after, &w, 60));
    texts = labels (w.window, "series-summary");
    g_assert_cmpstr (g_ptr_array_index (texts, 0), ==, "2/4 games ended, 0 running, ETA -");
    g_ptr_array_unref (texts);
    texts = labels (w.window, "series-missing");
    g_assert_cmpuint (texts->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (texts, 0), "2 games of the plan are in none"));
    gtk_window_destroy (GTK_WINDOW (w.window));
  }

  /* The library merged into: one row, the whole series. */
  merge.status = run_komi_cli (&merge.out, &merge.err, "merge", "--db", merged, paths[0],
                               paths[1], NULL);
  g_assert_cmpint (merge.status, ==, 0);
  w.window = komi_shards_window_new (NULL, merged_paths, 1);
  w.reads = 0;
  gtk_window_present (GTK_WINDOW (w.window));
  g_assert_true (app_test_wait_seconds (read_after, &w, 60));
  g_clear_pointer (&summary, g_ptr_array_unref);
  summary = labels (w.window, "series-summary");
  g_assert_cmpstr (g_ptr_array_index (summary, 0), ==, expected);
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = g_ptr_array_new ();
  collect_rows (GTK_WIDGET (w.window), rows);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (rows, 0), ==, "library.db");
  gtk_window_destroy (GTK_WINDOW (w.window));

  for (guint k = 0; k < N_SHARDS; k++)
    g_free (paths[k]);
  remove_test_dir (dir);
}

/* A file that is no library: the window says so in its words. */
static gboolean
error_shown (gpointer data)
{
  Watch *w = data;
  g_autoptr(GPtrArray) texts = NULL;

  if (komi_shards_window_get_reads (w->window) == 0)
    return FALSE;
  texts = labels (w->window, "shards-error");
  return texts->len == 1;
}

static void
test_not_a_library (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-app-shards-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "shard-1.db", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr(GPtrArray) texts = NULL;
  Watch w = { 0, };

  g_assert_true (g_file_set_contents (path, "not sqlite at all, just text", -1, NULL));
  w.window = komi_shards_window_new (NULL, paths, 1);
  gtk_window_present (GTK_WINDOW (w.window));
  g_assert_true (app_test_wait_seconds (error_shown, &w, 60));
  texts = labels (w.window, "shards-error");
  g_assert_nonnull (strstr (g_ptr_array_index (texts, 0), path));
  gtk_window_destroy (GTK_WINDOW (w.window));
  remove_test_dir (dir);
}

/* `komi --watch FILE…` opens the window over those files beside the
 * library's. */
typedef struct
{
  GApplication *app;
  gboolean      seen;
} AppCheck;

static gboolean
check_app (gpointer data)
{
  AppCheck *check = data;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (check->app)); l != NULL;
       l = l->next)
    if (KOMI_IS_SHARDS_WINDOW (l->data)
        && komi_shards_window_get_reads (l->data) > 0)
      {
        g_autoptr(GPtrArray) texts = labels (l->data, "series-summary");

        check->seen = texts->len == 1
                      && g_str_equal (g_ptr_array_index (texts, 0),
                                     "4/8 games ended, 0 running, ETA -");
        g_application_quit (check->app);
        return G_SOURCE_REMOVE;
      }
  return G_SOURCE_CONTINUE;
}

static void
test_watch_option (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-app-shards-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *shard = g_build_filename (dir, "shard-1.db", NULL);
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autoptr(KomiApplication) app = komi_application_new ();
  char *argv[] = { "komi", "--db", db, "--watch", shard, NULL };
  AppCheck check = { G_APPLICATION (app), FALSE };
  g_auto(KomiCliRun) run = { 0, };

  /* Shard 1 of 2 of a short series, run to its end. */
  g_assert_true (g_file_set_contents (series,
                                      "{\"name\": \"opt\", \"protocol\": 1, \"subject\": "
                                      "\"random\", \"opponents\": [{\"player\": \"random\", "
                                      "\"pairs\": 4}], \"seed\": 3, \"jobs\": 1}", -1, NULL));
  run.status = run_komi_cli (&run.out, &run.err, "run", series, "--shard", "1/2", "--db",
                             shard, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_application_set_flags (G_APPLICATION (app), g_application_get_flags (G_APPLICATION (app))
                                                | G_APPLICATION_NON_UNIQUE);
  g_timeout_add (200, check_app, &check);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 5, argv), ==, 0);
  g_assert_true (check.seen);

  /* Files without --watch, --watch without files: refused, nothing opens. */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(KomiApplication) other = komi_application_new ();
      char *files[] = { "komi", "--db", db, shard, NULL };
      char *none[] = { "komi", "--db", db, "--watch", NULL };

      g_application_set_flags (G_APPLICATION (other),
                               g_application_get_flags (G_APPLICATION (other))
                               | G_APPLICATION_NON_UNIQUE);
      g_assert_cmpint (g_application_run (G_APPLICATION (other), 4, i == 0 ? files : none),
                       ==, 2);
      g_assert_null (gtk_application_get_windows (GTK_APPLICATION (other)));
    }
  remove_test_dir (dir);
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/komi/app/shards/watch", test_watch_shards);
  g_test_add_func ("/komi/app/shards/not-a-library", test_not_a_library);
  g_test_add_func ("/komi/app/shards/watch-option", test_watch_option);
  return g_test_run ();
}
