/* test-app-preferences.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "komi-analysis-panel.h"
#include "komi-app-test-util.h"
#include "komi-preferences-window.h"
#include "komi-series-dialog.h"
#include "komi-settings.h"

/* The preferences window on the settings (GSETTINGS_BACKEND=memory, the
 * schema from the build): rows and keys follow each other both ways, the
 * theme key drives AdwStyleManager, and New Series starts from the
 * defaults chosen here. */

typedef struct
{
  GSettings             *settings;
  KomiPreferencesWindow *window;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->settings = komi_settings_new ();
  g_assert_nonnull (f->settings);
  f->window = komi_preferences_window_new (NULL);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (app_test_wait (app_test_has_size, f->window));
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  /* The memory backend outlives a test. */
  g_settings_reset (f->settings, "default-jobs");
  g_settings_reset (f->settings, "default-referee");
  g_settings_reset (f->settings, "color-scheme");
  g_settings_reset (f->settings, "gnugo-path");
  g_settings_reset (f->settings, "katago-binary");
  g_settings_reset (f->settings, "mistake-threshold");
  g_settings_reset (f->settings, "blunder-threshold");
  g_clear_object (&f->settings);
}

static GtkWidget *
child (Fixture *f, const char *name)
{
  return app_test_child (f->window, KOMI_TYPE_PREFERENCES_WINDOW, name);
}

static void
test_rows_follow_keys (Fixture *f, gconstpointer data)
{
  GtkSpinButton *jobs = GTK_SPIN_BUTTON (child (f, "jobs_spin"));
  AdwComboRow *referee = ADW_COMBO_ROW (child (f, "referee_row"));
  g_autofree char *value = NULL;

  /* Row → key */
  gtk_spin_button_set_value (jobs, 5);
  g_assert_cmpint (g_settings_get_int (f->settings, "default-jobs"), ==, 5);
  adw_combo_row_set_selected (referee, 1);
  value = g_settings_get_string (f->settings, "default-referee");
  g_assert_cmpstr (value, ==, "katago");

  /* Key → row */
  g_settings_set_int (f->settings, "default-jobs", 7);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (jobs), ==, 7);
  g_settings_set_string (f->settings, "default-referee", "none");
  g_assert_cmpuint (adw_combo_row_get_selected (referee), ==, 2);
}

/* The engine review's thresholds, which mark mistakes and blunders. */
static void
test_review_thresholds (Fixture *f, gconstpointer data)
{
  GtkSpinButton *mistake = GTK_SPIN_BUTTON (child (f, "mistake_spin"));
  GtkSpinButton *blunder = GTK_SPIN_BUTTON (child (f, "blunder_spin"));

  g_assert_cmpfloat (gtk_spin_button_get_value (mistake), ==, 3.0);   /* the schema's */
  g_assert_cmpfloat (gtk_spin_button_get_value (blunder), ==, 6.0);
  gtk_spin_button_set_value (mistake, 2.5);
  gtk_spin_button_set_value (blunder, 8.0);
  g_assert_cmpfloat (g_settings_get_double (f->settings, "mistake-threshold"), ==, 2.5);
  g_assert_cmpfloat (g_settings_get_double (f->settings, "blunder-threshold"), ==, 8.0);
  g_settings_set_double (f->settings, "mistake-threshold", 4.5);
  g_assert_cmpfloat (gtk_spin_button_get_value (mistake), ==, 4.5);
  /* Their rows say in words what the marks are, not in SGF's terms
   * ("BM[1] in exported SGF"). */
  for (guint i = 0; i < 2; i++)
    {
      AdwActionRow *row = ADW_ACTION_ROW (gtk_widget_get_ancestor (
        GTK_WIDGET (i == 0 ? mistake : blunder), ADW_TYPE_ACTION_ROW));
      const char *subtitle = adw_action_row_get_subtitle (row);

      g_assert_null (strstr (subtitle, "BM["));
      g_assert_nonnull (strstr (subtitle, "in the move list and in exported SGF"));
    }
}

/* The path rows are built in C; each is named after its key. */
static gboolean
is_path_row (GtkWidget *widget, gpointer key)
{
  return ADW_IS_ACTION_ROW (widget) && g_strcmp0 (gtk_widget_get_name (widget), key) == 0;
}

static AdwActionRow *
path_row (GtkWidget *widget, const char *key)
{
  return ADW_ACTION_ROW (app_test_find_widget (widget, is_path_row, (gpointer) key));
}

static void
test_path_rows (Fixture *f, gconstpointer data)
{
  AdwActionRow *row = path_row (GTK_WIDGET (f->window), "gnugo-path");

  g_assert_nonnull (row);
  g_settings_set_string (f->settings, "gnugo-path", "/opt/gnugo/bin/gnugo");
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "/opt/gnugo/bin/gnugo");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "prefs.reset", "u", 1);
  g_assert_false (g_settings_get_user_value (f->settings, "gnugo-path") != NULL);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), !=, "/opt/gnugo/bin/gnugo");

  /* Empty, a row shows the path used all the same, never a variable's
   * name standing for it; with no path at all, what to do. */
  {
    g_autofree char *kept = g_strdup (g_getenv ("KOMI_KATAGO"));
    AdwActionRow *katago = path_row (GTK_WIDGET (f->window), "katago-binary");

    g_setenv ("KOMI_KATAGO", "/opt/katago/bin/katago", TRUE);
    g_settings_set_string (f->settings, "katago-binary", "/elsewhere/katago");
    g_settings_reset (f->settings, "katago-binary");
    g_assert_cmpstr (adw_action_row_get_subtitle (katago), ==,
                     "Default: /opt/katago/bin/katago (from KOMI_KATAGO)");
    g_unsetenv ("KOMI_KATAGO");
    g_settings_set_string (f->settings, "katago-binary", "/elsewhere/katago");
    g_settings_reset (f->settings, "katago-binary");
    g_assert_cmpstr (adw_action_row_get_subtitle (katago), ==,
                     "Not set: choose the file here, or set KOMI_KATAGO before starting Komi");
    if (kept != NULL)
      g_setenv ("KOMI_KATAGO", kept, TRUE);
    g_assert_null (strstr (adw_action_row_get_subtitle (path_row (GTK_WIDGET (f->window),
                                                                  "library-path")), "$"));
  }
}

/* @spin given @text as typed, then Enter. */
static void
type_figure (GtkWidget *spin, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (spin), text);
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
}

/* A figure out of range is refused with the range, not clamped: Games at
 * once 99 stays what it was (not 64), and the row says why; the review's
 * level 99 stays too (not 10), said under it. */
static void
test_spin_refuses (Fixture *f, gconstpointer data)
{
  GtkWidget *jobs = child (f, "jobs_spin");
  AdwActionRow *row = ADW_ACTION_ROW (gtk_widget_get_ancestor (jobs, ADW_TYPE_ACTION_ROW));
  g_autofree char *subtitle = g_strdup (adw_action_row_get_subtitle (row));
  KomiAnalysisPanel *panel = g_object_ref_sink (g_object_new (KOMI_TYPE_ANALYSIS_PANEL, NULL));
  GtkWidget *level = app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL, "level_spin");
  GtkWidget *under = app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL, "refusal_label");
  double kept;

  type_figure (jobs, "3");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (jobs)), ==, 3);
  type_figure (jobs, "99");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (jobs)), ==, 3);
  g_assert_cmpint (g_settings_get_int (f->settings, "default-jobs"), ==, 3);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==,
                   "Games at once must be from 1 to 64, not 99");
  g_assert_true (gtk_widget_has_css_class (jobs, "error"));
  type_figure (jobs, "5");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (jobs)), ==, 5);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, subtitle);
  g_assert_false (gtk_widget_has_css_class (jobs, "error"));

  kept = gtk_spin_button_get_value (GTK_SPIN_BUTTON (level));
  type_figure (level, "99");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (level)), ==, kept);
  g_assert_true (gtk_widget_get_visible (under));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (under)), ==,
                   "Level must be from 0 to 10, not 99");
  type_figure (level, "4");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (level)), ==, 4);
  g_assert_false (gtk_widget_get_visible (under));

  /* The review's own mistake and blunder thresholds (its menu beside
   * Analyse): 500 stays what it was (not 100), said under them, and the
   * setting keeps its value. */
  {
    GtkWidget *mistake = app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL, "mistake_spin");
    GtkWidget *blunder = app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL, "blunder_spin");
    GtkWidget *said = app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL,
                                      "threshold_refusal_label");

    type_figure (mistake, "2.5");
    g_assert_cmpfloat (g_settings_get_double (f->settings, "mistake-threshold"), ==, 2.5);
    type_figure (mistake, "500");
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (mistake)), ==, 2.5);
    g_assert_cmpfloat (g_settings_get_double (f->settings, "mistake-threshold"), ==, 2.5);
    g_assert_true (gtk_widget_get_visible (said));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (said)), ==,
                     "Mistake must be from 0.5 to 100.0, not 500");
    g_assert_true (gtk_widget_has_css_class (mistake, "error"));
    type_figure (mistake, "3");
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (mistake)), ==, 3);
    g_assert_false (gtk_widget_get_visible (said));
    g_assert_false (gtk_widget_has_css_class (mistake, "error"));

    kept = gtk_spin_button_get_value (GTK_SPIN_BUTTON (blunder));
    type_figure (blunder, "0");
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (blunder)), ==, kept);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (said)), ==,
                     "Blunder must be from 0.5 to 100.0, not 0");
    g_assert_true (gtk_widget_get_visible (said));
  }
  g_object_unref (panel);
}

static void
test_theme (Fixture *f, gconstpointer data)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  AdwComboRow *theme = ADW_COMBO_ROW (child (f, "theme_row"));
  g_autofree char *value = NULL;

  komi_preferences_follow_theme (f->settings);
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_DEFAULT);
  adw_combo_row_set_selected (theme, 2);
  value = g_settings_get_string (f->settings, "color-scheme");
  g_assert_cmpstr (value, ==, "dark");
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_FORCE_DARK);
  g_settings_set_string (f->settings, "color-scheme", "light");
  g_assert_cmpuint (adw_combo_row_get_selected (theme), ==, 1);
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_settings_reset (f->settings, "color-scheme");
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_DEFAULT);
}

static void
test_series_dialog_defaults (Fixture *f, gconstpointer data)
{
  KomiSeriesDialog *dialog;
  GtkStringObject *referee;

  g_settings_set_int (f->settings, "default-jobs", 9);
  g_settings_set_string (f->settings, "default-referee", "none");
  dialog = g_object_new (KOMI_TYPE_SERIES_DIALOG, NULL);
  g_assert_cmpstr (gtk_editable_get_text (
                     GTK_EDITABLE (app_test_child (dialog, KOMI_TYPE_SERIES_DIALOG,
                                                   "jobs_row"))), ==, "9");
  referee = adw_combo_row_get_selected_item (
    ADW_COMBO_ROW (app_test_child (dialog, KOMI_TYPE_SERIES_DIALOG, "referee_row")));
  g_assert_cmpstr (gtk_string_object_get_string (referee), ==, "none");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static gboolean
version_shown (gpointer row)
{
  const char *subtitle = adw_action_row_get_subtitle (row);

  return g_object_get_data (row, "komi-checked") != NULL
         || (subtitle != NULL && g_str_has_prefix (subtitle, "✗"));
}

/* Check starts GNU Go as a series would and shows its version. */
static void
test_gnugo_version (Fixture *f, gconstpointer data)
{
  GtkWidget *row;

  if (!g_file_test (GNUGO_PATH, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("GNU Go is not installed (Debian package gnugo)");
      return;
    }
  gtk_widget_activate_action (GTK_WIDGET (f->window), "prefs.check", "s", "gnugo");
  row = GTK_WIDGET (path_row (GTK_WIDGET (f->window), "gnugo-version"));
  g_assert_true (ADW_IS_ACTION_ROW (row));
  g_assert_true (gtk_widget_get_visible (row));
  g_assert_true (app_test_wait (version_shown, row));
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                                   "GNU Go "));
}

/* A check under way can be cancelled, by the same button: an engine that
 * never answers (here a GNU Go that reads and says nothing) does not hold
 * the row at "Starting the engine…". */
static void
test_check_cancel (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("komi-prefs-XXXXXX", &error);
  g_autofree char *mute = g_build_filename (dir, "mute-gnugo", NULL);
  GtkButton *button = GTK_BUTTON (child (f, "gnugo_check"));
  GtkWidget *row;

  g_assert_no_error (error);
  /* It reads its commands until Komi goes (its pipe closes), answering none. */
  g_assert_true (g_file_set_contents (mute, "#!/bin/sh\nexec cat >/dev/null\n", -1, NULL));
  g_assert_cmpint (g_chmod (mute, 0755), ==, 0);
  g_settings_set_string (f->settings, "gnugo-path", mute);
  g_assert_cmpstr (gtk_button_get_label (button), ==, "_Check");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "prefs.check", "s", "gnugo");
  row = GTK_WIDGET (path_row (GTK_WIDGET (f->window), "gnugo-version"));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==,
                   "Starting the engine…");
  g_assert_cmpstr (gtk_button_get_label (button), ==, "_Cancel");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "prefs.check", "s", "gnugo");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "Check cancelled");
  g_assert_cmpstr (gtk_button_get_label (button), ==, "_Check");
  g_assert_null (g_object_get_data (G_OBJECT (row), "komi-checked"));
  g_unlink (mute);
  g_rmdir (dir);
}

/* With a KataGo file missing, Check says which way out there is, in the
 * window's terms, without starting anything. */
static void
test_katago_missing (Fixture *f, gconstpointer data)
{
  GtkWidget *row;

  app_test_unset_katago ();
  g_settings_set_string (f->settings, "katago-binary", "/opt/katago/katago");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "prefs.check", "s", "katago");
  row = GTK_WIDGET (path_row (GTK_WIDGET (f->window), "katago-version"));
  g_assert_true (gtk_widget_get_visible (row));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                            "choose the missing ones above"));
  g_assert_null (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "--katago"));
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/preferences/rows-follow-keys", Fixture, NULL, fixture_set_up,
              test_rows_follow_keys, fixture_tear_down);
  g_test_add ("/komi/app/preferences/review-thresholds", Fixture, NULL, fixture_set_up,
              test_review_thresholds, fixture_tear_down);
  g_test_add ("/komi/app/preferences/katago-missing", Fixture, NULL, fixture_set_up,
              test_katago_missing, fixture_tear_down);
  g_test_add ("/komi/app/preferences/path-rows", Fixture, NULL, fixture_set_up,
              test_path_rows, fixture_tear_down);
  g_test_add ("/komi/app/preferences/spin-refuses", Fixture, NULL, fixture_set_up,
              test_spin_refuses, fixture_tear_down);
  g_test_add ("/komi/app/preferences/theme", Fixture, NULL, fixture_set_up, test_theme,
              fixture_tear_down);
  g_test_add ("/komi/app/preferences/series-dialog-defaults", Fixture, NULL, fixture_set_up,
              test_series_dialog_defaults, fixture_tear_down);
  g_test_add ("/komi/app/preferences/check-cancel", Fixture, NULL, fixture_set_up,
              test_check_cancel, fixture_tear_down);
  g_test_add ("/komi/app/preferences/gnugo-version", Fixture, NULL, fixture_set_up,
              test_gnugo_version, fixture_tear_down);
  return g_test_run ();
}
