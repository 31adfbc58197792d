/* test-app-publish.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-test"

#include "config.h"

#include <string.h>

#include "komi-app-test-util.h"
#include "komi-library.h"
#include "komi-test-cli.h"
#include "komi-window-private.h"

/* Publish… in the window: the dialog lists the library's series, all of
 * them ticked; publishing shows its progress and ends with Open in
 * Browser enabled and the site written, the series chosen only. */

static char *dir;
static char *db;

static void
run_series (const char *name, guint seed)
{
  g_autofree char *path = g_build_filename (dir, "series.json", NULL);
  g_autofree char *json = g_strdup_printf ("{\"name\": \"%s\", \"protocol\": 1, \"subject\": "
                                           "\"random\", \"opponents\": [\"random\"], \"pairs\": "
                                           "1, \"seed\": %u, \"referee\": \"none\"}", name, seed);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  if (run_komi_cli (&out, &err, "run", path, "--db", db, NULL) != 0)
    g_error ("komi-cli run: %s", err);
}

static gboolean
series_listed (gpointer library)
{
  GListModel *series = komi_library_get_series (library);

  return series != NULL && g_list_model_get_n_items (series) == 2;
}

static gboolean
open_enabled (gpointer dialog)
{
  return adw_message_dialog_get_response_enabled (dialog, "open");
}

/* The dialog of win.publish, among the toplevels. */
static AdwMessageDialog *
find_pick_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();  /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (w),
                                                                        "choose"))
        return ADW_MESSAGE_DIALOG (w);
    }
  return NULL;
}

static guint
count_checks (GtkWidget *widget, guint *active)
{
  guint n = 0;

  if (GTK_IS_CHECK_BUTTON (widget))
    {
      *active += gtk_check_button_get_active (GTK_CHECK_BUTTON (widget));
      return 1;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    n += count_checks (c, active);
  return n;
}

static void
test_publish (void)
{
  g_autoptr(KomiLibrary) library = komi_library_new (db);
  g_autofree char *site = g_build_filename (dir, "site", NULL);
  g_autofree char *index = g_build_filename (site, "index.html", NULL);
  g_autofree char *series1 = g_build_filename (site, "series-1.html", NULL);
  g_autofree char *series2 = g_build_filename (site, "series-2.html", NULL);
  g_autofree char *text = NULL;
  KomiWindow *window = komi_window_new (NULL, library);
  AdwMessageDialog *pick, *progress;
  const gint64 only[] = { 2 };
  guint active = 0;

  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (series_listed, library));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.publish", NULL));
  pick = find_pick_dialog ();
  g_assert_nonnull (pick);
  g_assert_cmpuint (count_checks (GTK_WIDGET (pick), &active), ==, 2);
  g_assert_cmpuint (active, ==, 2);
  adw_message_dialog_response (pick, "cancel");

  /* What the chooser does with a folder: series 2 only. */
  progress = _komi_window_publish_to (window, only, 1, site);
  g_object_ref (progress);
  g_assert_false (adw_message_dialog_get_response_enabled (progress, "open"));
  g_assert_true (app_test_wait (open_enabled, progress));
  g_assert_cmpstr (adw_message_dialog_get_heading (progress), ==, "Library Published");
  g_assert_true (g_file_get_contents (index, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "series-2.html"));
  g_assert_null (strstr (text, "series-1.html"));
  g_assert_true (g_file_test (series2, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (series1, G_FILE_TEST_EXISTS));
  adw_message_dialog_response (progress, "close");
  g_object_unref (progress);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  int status;

  app_test_init (&argc, &argv);
  dir = g_dir_make_tmp ("komi-app-publish-XXXXXX", NULL);
  db = g_build_filename (dir, "library.db", NULL);
  run_series ("One", 1);
  run_series ("Two", 2);

  g_test_add_func ("/komi/app/publish/dialog-and-progress", test_publish);
  status = g_test_run ();

  remove_test_dir (dir);
  g_free (db);
  g_free (dir);
  return status;
}
