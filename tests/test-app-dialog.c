/* test-app-dialog.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-app-test-dialog.h"
#include "komi-app-test-run.h"
#include "komi-series-dialog.h"
#include "komi-settings.h"
#include "komi-store-test-util.h"
#include "komi-test-util.h"
#include "komi-window.h"

/* The series dialog, built from its template and presented over the main
 * window: each bad field is refused at the field, with what is expected,
 * and Run is off; good fields run the series into the library. */

typedef struct
{
  AppWindowFixture  app;      /* the main window, on a library of its own */
  KomiSeriesDialog *dialog;
} DialogFixture;

static const char *remembered[] = {
  "series-subject", "series-opponents", "series-pairs", "series-budget", "series-rate",
};

static void
dialog_fixture_set_up (DialogFixture *f, gconstpointer data)
{
  /* Each test starts from the defaults, not the last test's series. */
  app_test_reset_settings (remembered, G_N_ELEMENTS (remembered));
  app_window_fixture_open (&f->app, "komi-app-dialog-XXXXXX");
  f->dialog = komi_series_dialog_new (GTK_WINDOW (f->app.window),
                                      komi_window_get_library (f->app.window));
  app_test_present_dialog (f->dialog, (gpointer *) &f->dialog, 0);
}

static void
dialog_fixture_tear_down (DialogFixture *f, gconstpointer data)
{
  if (f->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (f->dialog));
  app_window_fixture_close (&f->app);
}

static GtkWidget *
child (DialogFixture *f, const char *name)
{
  return app_test_child (f->dialog, KOMI_TYPE_SERIES_DIALOG, name);
}

static void
set_text (DialogFixture *f, const char *row, const char *text)
{
  app_test_set_text (f->dialog, KOMI_TYPE_SERIES_DIALOG, row, text);
}

static const char *rows[] = {
  "name_row", "subject_row", "opponents_row", "pairs_row", "seed_row", "jobs_row", "budget_row",
};

static const char *
error_under (DialogFixture *f, const char *row)
{
  return app_test_error_under (f->dialog, KOMI_TYPE_SERIES_DIALOG, row);
}

/* Asserts that the fields are refused at @row and at each further row
 * given (NULL-terminated pairs of row and words), each with its own words
 * under it, and nowhere else; Run is refused. */
static void
assert_refused (DialogFixture *f, const char *row, const char *expected, ...)
{
  const char *wrong[2 * G_N_ELEMENTS (rows) + 1] = { row, expected };
  guint n = 2;
  va_list args;

  va_start (args, expected);
  while (n < 2 * G_N_ELEMENTS (rows) && (wrong[n] = va_arg (args, const char *)) != NULL)
    {
      wrong[n + 1] = va_arg (args, const char *);
      n += 2;
    }
  va_end (args);
  wrong[n] = NULL;
  g_assert_null (komi_series_dialog_get_definition (f->dialog));
  app_test_assert_row_errors (f->dialog, KOMI_TYPE_SERIES_DIALOG, rows, G_N_ELEMENTS (rows),
                              wrong);
  /* The user's words, not a definition file's. */
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const char *shown = error_under (f, rows[i]);

      if (shown != NULL)
        g_assert_null (strstr (shown, "_usd"));
    }
}

#define assert_refused_at(f, row, expected) assert_refused (f, row, expected, NULL)

static void
assert_accepted (DialogFixture *f)
{
  g_assert_nonnull (komi_series_dialog_get_definition (f->dialog));
  app_test_assert_rows_quiet (f->dialog, KOMI_TYPE_SERIES_DIALOG, rows, G_N_ELEMENTS (rows));
  g_assert_false (gtk_widget_get_visible (child (f, "error_label")));
}

static void
test_defaults_are_valid (DialogFixture *f, gconstpointer data)
{
  assert_accepted (f);
  /* 8 pairs against one opponent, two at once. */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (f, "summary_label"))), ==,
                   "16 games against 1 opponent, 2 at once.");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (f, "estimate_label"))), ==,
                   "No model calls: nothing to pay.\nTime: under a minute.");
}

static void
write_profile (DialogFixture *f, const char *name, const char *json)
{
  g_autofree char *path = g_build_filename (f->app.dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
}

static void
test_refuses_bad_fields (DialogFixture *f, gconstpointer data)
{
  set_text (f, "subject_row", "gnugo:11");
  assert_refused_at (f, "subject_row", "gnugo:11");
  set_text (f, "subject_row", "gnugo:3");
  assert_accepted (f);

  set_text (f, "opponents_row", " , ");
  assert_refused_at (f, "opponents_row", "Add at least one opponent");
  set_text (f, "opponents_row", "random, chess-engine");
  assert_refused_at (f, "opponents_row", "chess-engine");
  /* The forms a player is written in, a model's among them. */
  assert_refused_at (f, "opponents_row", "or model:PROFILE.json");
  /* An opponent twice is refused, not played twice as often. */
  set_text (f, "opponents_row", "random, gnugo:0, random");
  assert_refused_at (f, "opponents_row", "“random” is listed twice");
  set_text (f, "opponents_row", "random, gnugo:0");
  assert_accepted (f);

  set_text (f, "seed_row", "twelve");
  assert_refused_at (f, "seed_row", "The seed must be a whole number");
  set_text (f, "seed_row", "18446744073709551615");   /* 2^64 - 1, kept whole */
  assert_accepted (f);

  set_text (f, "name_row", "   ");
  assert_refused_at (f, "name_row", "Give the series a name");
  set_text (f, "name_row", "Level 3 against the ladder");
  assert_accepted (f);
  g_assert_nonnull (strstr (komi_series_dialog_get_definition (f->dialog),
                            "\"18446744073709551615\""));

  /* A model whose provider profile is missing is refused, naming the file. */
  set_text (f, "subject_row", "model:/nonexistent/profile.json");
  assert_refused_at (f, "subject_row", "profile.json");
}

/* Every wrong field says so under itself at once; numbers out of range
 * are refused with the range, never corrected into it. */
static void
test_errors_at_once (DialogFixture *f, gconstpointer data)
{
  set_text (f, "name_row", "");
  set_text (f, "pairs_row", "-3");
  set_text (f, "jobs_row", "65");
  set_text (f, "budget_row", "lots");
  assert_refused (f, "name_row", "Give the series a name",
                  "pairs_row", "Pairs per opponent must be a whole number from 1 to 100,000",
                  "jobs_row", "Games at once must be a whole number from 1 to 64",
                  "budget_row", "Budget must be a positive amount in US dollars", NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "pairs_row"))), ==, "-3");
  set_text (f, "pairs_row", "999999");
  assert_refused (f, "name_row", "Give the series a name",
                  "pairs_row", "from 1 to 100,000",
                  "jobs_row", "from 1 to 64",
                  "budget_row", "US dollars", NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "pairs_row"))), ==, "999999");
  set_text (f, "name_row", "Fixed");
  set_text (f, "pairs_row", "100000");
  set_text (f, "jobs_row", "64");
  set_text (f, "budget_row", "");
  assert_accepted (f);
  g_assert_nonnull (strstr (komi_series_dialog_get_definition (f->dialog),
                            "\"pairs\" : 100000"));
}

/* A field set wrong before the user typed (a remembered subject whose
 * profile is gone) shows nothing at first; Run shows every error and
 * brings the first field in error into view, while the estimate stays in
 * sight below the scrolling form. */
static void
test_errors_on_run (DialogFixture *f, gconstpointer data)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  GtkAdjustment *adjustment;

  gtk_window_destroy (GTK_WINDOW (f->dialog));
  g_settings_set_string (settings, "series-budget", "lots");
  f->dialog = komi_series_dialog_new (GTK_WINDOW (f->app.window),
                                      komi_window_get_library (f->app.window));
  app_test_present_dialog (f->dialog, (gpointer *) &f->dialog, 360);
  adjustment = gtk_scrolled_window_get_vadjustment (app_test_find_scroller (child (f, "page")));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0);

  /* Nothing typed: no field shows an error; Run is what to press. */
  g_assert_null (komi_series_dialog_get_definition (f->dialog));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_assert_null (error_under (f, rows[i]));
  g_assert_true (gtk_widget_get_visible (child (f, "error_label")));

  gtk_widget_activate_action (GTK_WIDGET (f->dialog), "series.run", NULL);
  g_assert_nonnull (f->dialog);
  assert_refused_at (f, "budget_row", "Budget must be a positive amount in US dollars");
  g_assert_true (app_test_wait (app_test_focus_in,
                                &(AppTestFocus) { GTK_WIDGET (f->dialog),
                                                  child (f, "budget_row") }));
  g_assert_true (app_test_wait (app_test_scrolled, adjustment));
  /* The footer is outside the scrolled form. */
  g_assert_false (gtk_widget_is_ancestor (child (f, "estimate_label"), child (f, "page")));
  g_settings_reset (settings, "series-budget");
}

/* The subject's menu lists the saved provider profiles by name and model
 * (read as it opens; a file that is no profile is left out), and choosing
 * one makes it the subject; with none, it says where profiles come from. */
static void
test_subject_from_profiles (DialogFixture *f, gconstpointer data)
{
  g_autofree char *folder = g_build_filename (f->app.dir, "providers", NULL);
  g_autofree char *alpha = g_build_filename (folder, "alpha.json", NULL);
  GtkMenuButton *button = GTK_MENU_BUTTON (child (f, "profiles_button"));
  GMenuModel *menu;
  g_autofree char *label = NULL;
  g_autofree char *action = NULL;
  g_autoptr(GVariant) target = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  komi_series_dialog_set_profiles_folder (f->dialog, folder);
  gtk_menu_button_popup (button);
  menu = gtk_menu_button_get_menu_model (button);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 1);
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_true (g_str_has_prefix (label, "No saved provider profile"));
  g_assert_false (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_ACTION, "s",
                                                   &action));
  gtk_menu_button_popdown (button);
  g_clear_pointer (&label, g_free);

  g_assert_true (g_file_set_contents (alpha, "{\"name\": \"Alpha\", \"api\": \"openai-chat\", "
                                      "\"model\": \"m1\"}", -1, NULL));
  write_profile (f, "providers/beta.json", "{\"name\": \"Beta\", \"api\": \"anthropic\", "
                 "\"model\": \"m2\"}");
  write_profile (f, "providers/notes.json", "not a profile");
  gtk_menu_button_popup (button);
  menu = gtk_menu_button_get_menu_model (button);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 2);
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, "Alpha (m1)");
  g_clear_pointer (&label, g_free);
  g_assert_true (g_menu_model_get_item_attribute (menu, 1, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, "Beta (m2)");
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_ACTION, "s",
                                                  &action));
  target = g_menu_model_get_item_attribute_value (menu, 0, G_MENU_ATTRIBUTE_TARGET, NULL);
  gtk_menu_button_popdown (button);
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (f->dialog), action, target));
  {
    g_autofree char *expected = g_strconcat ("model:", alpha, NULL);

    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "subject_row"))), ==,
                     expected);
  }
}

/* Run remembers the subject, the opponents, the pairs and the budget for
 * the next New Series. */
static void
test_remembers (DialogFixture *f, gconstpointer data)
{
  set_text (f, "subject_row", "gnugo:2");
  set_text (f, "opponents_row", "random, gnugo:0");
  set_text (f, "pairs_row", "1");
  set_text (f, "budget_row", "2.50");
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "referee_row")), 2);   /* none */
  assert_accepted (f);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "series.run", NULL));
  g_assert_null (f->dialog);
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->app.window, 120));

  f->dialog = komi_series_dialog_new (GTK_WINDOW (f->app.window),
                                      komi_window_get_library (f->app.window));
  g_object_add_weak_pointer (G_OBJECT (f->dialog), (gpointer *) &f->dialog);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "subject_row"))), ==,
                   "gnugo:2");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "opponents_row"))), ==,
                   "random, gnugo:0");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "pairs_row"))), ==, "1");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "budget_row"))), ==, "2.50");
}

/* Test starts each player and asks it for a move: real GNU Go answers
 * with its name and version; a program that is no GTP engine is reported
 * in words. */
static void
test_players_tested (DialogFixture *f, gconstpointer data)
{
  g_auto(GStrv) lines = NULL;

  if (!have_gnugo ())
    return;
  set_text (f, "subject_row", "gnugo:1");
  set_text (f, "opponents_row", "random, gtp:/bin/false");
  assert_accepted (f);
  lines = g_strsplit (app_test_run_check (f->dialog, KOMI_TYPE_SERIES_DIALOG, "series.test",
                                          "check_label", 60), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_true (g_str_has_prefix (lines[0], "✓ gnugo:1: GNU Go 3.8 played "));
  g_assert_true (g_str_has_prefix (lines[1], "✓ random: "));
  g_assert_true (g_str_has_prefix (lines[2], "✗ gtp:/bin/false: "));
  g_test_message ("%s", lines[2]);

  /* Changing the players drops the results of the old ones. */
  set_text (f, "opponents_row", "random");
  g_assert_false (gtk_widget_get_visible (child (f, "check_label")));
}

static void
test_run_records_series (DialogFixture *f, gconstpointer data)
{
  g_autoptr(KomiSeriesItem) item = NULL;
  KomiLibrary *library = komi_window_get_library (f->app.window);

  set_text (f, "name_row", "From the dialog");
  set_text (f, "subject_row", "random");
  set_text (f, "opponents_row", "random");
  set_text (f, "pairs_row", "2");
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "referee_row")), 2);   /* none */
  assert_accepted (f);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "series.run", NULL));
  g_assert_null (f->dialog);   /* closed */

  g_assert_true (app_test_wait (app_test_job_over, f->app.window));
  g_assert_null (komi_series_job_get_error (komi_window_get_job (f->app.window)));
  komi_library_reload (library);
  g_assert_true (app_test_wait (library_ready, f->app.window));
  item = g_list_model_get_item (komi_library_get_series (library), 0);
  g_assert_cmpstr (item->series->name, ==, "From the dialog");
  g_assert_cmpstr (item->series->referee, ==, "none");
  g_assert_cmpuint (item->series->n_finished, ==, 4);
}

/* Rating against the ladder beside the library: refused until there is
 * one, then every member is an opponent and the pairs are chosen as the
 * run goes, until the interval is narrow enough. */
static void
test_rating (DialogFixture *f, gconstpointer data)
{
  g_autofree char *ladder = g_build_filename (f->app.dir, "ladder-protocol-1.json", NULL);
  g_autoptr(KomiSeriesItem) item = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettings) settings = NULL;
  KomiLibrary *library = komi_window_get_library (f->app.window);
  GtkSwitch *rate = GTK_SWITCH (child (f, "rate_switch"));
  const char *definition;

  if (!have_gnugo ())
    return;
  /* By default the shipped ladder: there is always one to rate against. */
  gtk_switch_set_active (rate, TRUE);
  g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))),
                         "No ladder to rate against"));
  gtk_switch_set_active (rate, FALSE);
  /* This library's own calibration, when the preferences say so. */
  settings = komi_settings_new ();
  g_settings_set_string (settings, "rating-ladder", "library");
  gtk_switch_set_active (rate, TRUE);
  g_assert_null (komi_series_dialog_get_definition (f->dialog));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))),
                            "ratings calibrate"));
  g_assert_false (gtk_widget_get_visible (child (f, "opponents_row")));
  /* Run does nothing: the dialog stays. */
  gtk_widget_activate_action (GTK_WIDGET (f->dialog), "series.run", NULL);
  g_assert_nonnull (f->dialog);

  g_file_set_contents (ladder, "{\"protocol\": 1, \"pinned\": \"random\", \"date\": "
                       "\"2026-12-01\", \"games\": 40, \"members\": [{\"label\": "
                       "\"random\", \"rating\": 0, \"se\": 0, \"games\": 20}, {\"label\": "
                       "\"mix:0.9:gnugo:1\", \"rating\": 130, \"se\": 100, \"games\": "
                       "20}]}", -1,
                       &error);
  g_assert_no_error (error);
  gtk_switch_set_active (rate, FALSE);
  g_assert_true (gtk_widget_get_visible (child (f, "opponents_row")));
  gtk_switch_set_active (rate, TRUE);
  set_text (f, "name_row", "Rated from the dialog");
  set_text (f, "subject_row", "gnugo:0");
  /* GNU Go judges the dead stones: without a referee random's dead stones
   * would count and the games be close to even. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "referee_row")), 0);   /* gnugo */
  definition = komi_series_dialog_get_definition (f->dialog);
  g_assert_nonnull (definition);
  g_assert_nonnull (strstr (definition, "\"pair_order\""));
  g_assert_nonnull (strstr (definition, "\"mix:0.9:gnugo:1\""));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (f, "summary_label"))), ==,
                   "Rated against the 2 members of the ladder, 2 games at once.");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "series.run", NULL));
  g_assert_null (f->dialog);

  /* GNU Go beats both rungs every time: above the ladder, it stops at the
   * fewest pairs (4), its bound past the top. */
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->app.window, 240));
  if (komi_series_job_get_error (komi_window_get_job (f->app.window)) != NULL)
    g_error ("%s", komi_series_job_get_error (komi_window_get_job (f->app.window))->message);
  komi_library_reload (library);
  g_assert_true (app_test_wait (library_ready, f->app.window));
  item = g_list_model_get_item (komi_library_get_series (library), 0);
  g_assert_cmpstr (item->series->name, ==, "Rated from the dialog");
  g_assert_cmpuint (item->series->n_finished, ==, item->series->n_games);
  g_assert_cmpuint (item->series->n_games, ==, 8);
  g_assert_nonnull (strstr (item->series->definition, "\"pair_order\""));
  g_settings_reset (settings, "rating-ladder");
}

int
main (int argc, char *argv[])
{
  /* The C locale's figures (grouped with ","), whatever runs the tests. */
  g_unsetenv ("LC_ALL");
  g_setenv ("LC_NUMERIC", "C", TRUE);
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/dialog/series/defaults-are-valid", DialogFixture, NULL,
              dialog_fixture_set_up, test_defaults_are_valid, dialog_fixture_tear_down);
  g_test_add ("/komi/app/dialog/series/refuses-bad-fields", DialogFixture, NULL,
              dialog_fixture_set_up, test_refuses_bad_fields, dialog_fixture_tear_down);
  g_test_add ("/komi/app/dialog/series/errors-at-once", DialogFixture, NULL,
              dialog_fixture_set_up, test_errors_at_once, dialog_fixture_tear_down);
  g_test_add ("/komi/app/dialog/series/errors-on-run", DialogFixture, NULL,
              dialog_fixture_set_up, test_errors_on_run, dialog_fixture_tear_down);
  g_test_add ("/komi/app/dialog/series/subject-from-profiles", DialogFixture, NULL,
              dialog_fixture_set_up, test_subject_from_profiles, dialog_fixture_tear_down);
  g_test_add ("/komi/app/dialog/series/remembers", DialogFixture, NULL,
              dialog_fixture_set_up, test_remembers, dialog_fixture_tear_down);
  g_test_add ("/komi/app/dialog/series/players-tested", DialogFixture, NULL,
              dialog_fixture_set_up, test_players_tested, dialog_fixture_tear_down);
  g_test_add ("/komi/app/dialog/series/run-records-series", DialogFixture, NULL,
              dialog_fixture_set_up, test_run_records_series, dialog_fixture_tear_down);
  g_test_add ("/komi/app/dialog/series/rating", DialogFixture, NULL,
              dialog_fixture_set_up, test_rating, dialog_fixture_tear_down);
  return g_test_run ();
}
