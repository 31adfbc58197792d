/* test-app-forms.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-app-test-dialog.h"
#include "komi-opponent-dialog.h"
#include "komi-series-dialog.h"
#include "komi-settings.h"
#include "komi-test-util.h"

/* Forms that speak human (issue 14 §5), driven through the real dialogs:
 * the opponent dialog's fields each say what is wrong under themselves,
 * all at once, and only once the user has typed or pressed Test or Add,
 * which brings the first into view; an opponent the series has already is
 * refused; New Series says how long the series takes. */

typedef struct
{
  char               *dir;
  GtkWidget          *window;   /* where the series would run */
  KomiSeriesDialog   *series;   /* the New Series dialog, the target of Add */
  KomiOpponentDialog *dialog;
} FormsFixture;

static const char *remembered[] = {
  "series-subject", "series-opponents", "series-pairs", "series-budget", "series-rate",
  "katago-binary", "katago-model", "katago-config", "rating-ladder",
};

static void
fixture_set_up (FormsFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("komi-app-forms-XXXXXX", &error);
  g_assert_no_error (error);
  app_test_unset_katago ();
  app_test_reset_settings (remembered, G_N_ELEMENTS (remembered));
  f->window = gtk_window_new ();
  f->series = komi_series_dialog_new (GTK_WINDOW (f->window), NULL);
  app_test_present_dialog (f->series, (gpointer *) &f->series, 0);
}

static void
fixture_tear_down (FormsFixture *f, gconstpointer data)
{
  if (f->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (f->dialog));
  if (f->series != NULL)
    gtk_window_destroy (GTK_WINDOW (f->series));
  gtk_window_destroy (GTK_WINDOW (f->window));
  remove_test_dir (f->dir);
  g_free (f->dir);
}

static GtkWidget *
series_child (FormsFixture *f, const char *name)
{
  return app_test_child (f->series, KOMI_TYPE_SERIES_DIALOG, name);
}

/* The opponent dialog over New Series, @height pixels tall. */
static void
open_opponent (FormsFixture *f, int height)
{
  app_test_open_opponent_dialog (f->series, (gpointer *) &f->dialog, height);
}

static GtkWidget *
child (FormsFixture *f, const char *name)
{
  return app_test_child (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, name);
}

static void
set_text (FormsFixture *f, const char *row, const char *text)
{
  app_test_set_text (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, row, text);
}

static const char *rows[] = {
  "level_row", "binary_row", "model_row", "config_row", "visits_row", "command_row", "mix_row",
};

static const char *
error_under (FormsFixture *f, const char *row)
{
  return app_test_error_under (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, row);
}

/* No field shows an error. */
static void
assert_quiet (FormsFixture *f)
{
  app_test_assert_rows_quiet (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, rows, G_N_ELEMENTS (rows));
}

/* KataGo with none of its files: nothing is said until Add is pressed;
 * then each missing file is said under its own field, at once, in words
 * that say what to do (not komi-cli's options), and the first of them
 * has the focus. Typing in one field shows that field's error only. */
static void
test_opponent_errors_at_once (FormsFixture *f, gconstpointer data)
{
  AppTestFocus watch;
  const char *text;

  open_opponent (f, 520);
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "kind_row")), 2);   /* KataGo */
  g_assert_null (komi_opponent_dialog_get_spec (f->dialog));
  assert_quiet (f);
  g_assert_true (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))), ==,
                   "Some fields need a change: press Test or Add to see which.");

  /* Typed in one field: its own error only. */
  set_text (f, "visits_row", "0");
  g_assert_cmpstr (error_under (f, "visits_row"), ==,
                   "Visits per move must be a whole number from 1 to 10,000,000");
  g_assert_null (error_under (f, "binary_row"));
  g_assert_null (error_under (f, "model_row"));
  set_text (f, "visits_row", "100");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.add", NULL));
  g_assert_nonnull (f->dialog);   /* refused: still open */
  g_assert_cmpstr (error_under (f, "binary_row"), ==,
                   "Choose the KataGo program (or set KOMI_KATAGO before starting Komi)");
  g_assert_cmpstr (error_under (f, "model_row"), ==,
                   "Choose KataGo’s network file, a .bin.gz (or set KOMI_KATAGO_MODEL before "
                   "starting Komi)");
  g_assert_cmpstr (error_under (f, "config_row"), ==,
                   "Choose KataGo’s GTP config file, a .cfg (or set KOMI_KATAGO_CONFIG before "
                   "starting Komi)");
  g_assert_null (error_under (f, "visits_row"));
  g_assert_false (gtk_widget_get_visible (child (f, "error_label")));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if ((text = error_under (f, rows[i])) != NULL)
      g_assert_null (strstr (text, "--katago"));
  watch.dialog = GTK_WIDGET (f->dialog);
  watch.row = child (f, "binary_row");
  g_assert_true (app_test_wait (app_test_focus_in, &watch));
  /* Nothing was added. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (series_child (f, "opponents_row"))),
                   ==, "random");

  /* Another kind starts clean. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "kind_row")), 3);   /* any GTP */
  assert_quiet (f);
}

/* The first field in error comes into view when Test is pressed, however
 * far down the form it is. */
static void
test_opponent_first_error_in_view (FormsFixture *f, gconstpointer data)
{
  GtkAdjustment *adjustment;
  AppTestFocus watch;

  if (!have_gnugo ())
    {
      g_test_skip ("no GNU Go");
      return;
    }
  open_opponent (f, 260);
  adjustment = gtk_scrolled_window_get_vadjustment (
    app_test_find_scroller (GTK_WIDGET (f->dialog)));
  set_text (f, "mix_row", "1.5");
  g_assert_cmpstr (error_under (f, "mix_row"), ==,
                   "The chance of a random move must be a number from 0 to 1, like 0.25 "
                   "(empty: none)");
  gtk_adjustment_set_value (adjustment, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.test", NULL));
  watch.dialog = GTK_WIDGET (f->dialog);
  watch.row = child (f, "mix_row");
  g_assert_true (app_test_wait (app_test_focus_in, &watch));
  g_assert_true (app_test_wait (app_test_scrolled, adjustment));
  /* No test was started for fields in error. */
  g_assert_false (gtk_widget_get_visible (child (f, "test_label")));
}

/* An opponent the series has already is refused with words, Add off; a
 * level out of range is refused, not corrected; a new opponent is added
 * after the others. */
static void
test_opponent_listed_once (FormsFixture *f, gconstpointer data)
{
  GtkEditable *opponents = GTK_EDITABLE (series_child (f, "opponents_row"));

  if (!have_gnugo ())
    {
      g_test_skip ("no GNU Go");
      return;
    }
  gtk_editable_set_text (opponents, "random, gnugo:1");
  open_opponent (f, 520);
  g_assert_cmpstr (komi_opponent_dialog_get_spec (f->dialog), ==, "gnugo:1");
  /* As it opens, its proposal is nobody's choice: Add is off, unsaid. */
  g_assert_false (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_false (gtk_widget_is_sensitive (child (f, "add_button")));
  gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.add", NULL);
  g_assert_cmpstr (gtk_editable_get_text (opponents), ==, "random, gnugo:1");
  /* Chosen, it is said. */
  set_text (f, "level_row", "1");
  g_assert_true (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))), ==,
                   "The series already has gnugo:1: list each opponent once (more pairs play it "
                   "more)");
  g_assert_false (gtk_widget_is_sensitive (child (f, "add_button")));

  /* A level out of range is refused with the range, never made 10. */
  set_text (f, "level_row", "15");
  g_assert_null (komi_opponent_dialog_get_spec (f->dialog));
  g_assert_cmpstr (error_under (f, "level_row"), ==,
                   "The GNU Go level must be a whole number from 0 (weakest) to 10 (strongest)");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "level_row"))), ==, "15");
  set_text (f, "level_row", "2");
  g_assert_null (error_under (f, "level_row"));
  g_assert_false (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_true (gtk_widget_is_sensitive (child (f, "add_button")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.add", NULL));
  g_assert_null (f->dialog);
  g_assert_cmpstr (gtk_editable_get_text (opponents), ==, "random, gnugo:1, gnugo:2");
}

/* The line above the form goes with what it says: KataGo without its
 * files says fields need a change; another kind (random, which the series
 * does not have) has none, and the line goes; a GNU Go level typed wrong and then right, and a successful
 * Test, leave no line either. */
static void
test_opponent_line_cleared (FormsFixture *f, gconstpointer data)
{
  GtkWidget *line;
  const char *text;

  if (!have_gnugo ())
    {
      g_test_skip ("no GNU Go");
      return;
    }
  /* A series without random, so that choosing it says nothing. */
  gtk_editable_set_text (GTK_EDITABLE (series_child (f, "opponents_row")), "gnugo:5");
  open_opponent (f, 520);
  line = child (f, "error_label");
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "kind_row")), 2);   /* KataGo */
  g_assert_true (gtk_widget_get_visible (line));
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "kind_row")), 0);   /* random */
  g_assert_false (gtk_widget_get_visible (line));
  g_assert_cmpstr (komi_opponent_dialog_get_spec (f->dialog), ==, "random");

  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "kind_row")), 2);   /* KataGo */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.test", NULL));
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "kind_row")), 1);   /* GNU Go */
  g_assert_false (gtk_widget_get_visible (line));
  assert_quiet (f);
  set_text (f, "level_row", "3");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.test", NULL));
  g_assert_true (app_test_wait_seconds (app_test_check_done, child (f, "test_label"), 60));
  text = gtk_label_get_text (GTK_LABEL (child (f, "test_label")));
  g_assert_true (g_str_has_prefix (text, "✓"));
  g_assert_false (gtk_widget_get_visible (line));
}

/* New Series */

static void
series_text (FormsFixture *f, const char *row, const char *text)
{
  app_test_set_text (f->series, KOMI_TYPE_SERIES_DIALOG, row, text);
}

static char *
write_profile (FormsFixture *f, const char *name, const char *extra)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *json = g_strdup_printf ("{\"name\": \"p\", \"api\": \"openai-chat\", "
                                           "\"model\": \"m\", \"max_output_tokens\": 50, "
                                           "\"price_input_per_mtok\": 0, "
                                           "\"price_output_per_mtok\": 10%s}", extra);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
  return g_strconcat ("model:", path, NULL);
}

/* The estimate's last line. */
static const char *
time_line (FormsFixture *f)
{
  const char *text = gtk_label_get_text (GTK_LABEL (series_child (f, "estimate_label")));
  const char *line = strrchr (text, '\n');

  g_assert_nonnull (komi_series_dialog_get_definition (f->series));
  g_assert_nonnull (line);
  return line + 1;
}

/* How long the series takes, with the estimate, from the profile's typical
 * answer time: a model side asks two questions a turn, 60 turns a game
 * (the figures the call count uses). */
static void
test_series_time (FormsFixture *f, gconstpointer data)
{
  g_autofree char *two = write_profile (f, "two.json", ", \"typical_latency_seconds\": 2");
  g_autofree char *capped = write_profile (f, "capped.json", ", \"typical_latency_seconds\": 0.1, "
                                           "\"requests_per_minute\": 60");
  g_autofree char *minute = write_profile (f, "minute.json", ", \"typical_latency_seconds\": 60");
  g_autofree char *unknown = write_profile (f, "unknown.json", "");

  series_text (f, "opponents_row", "random");
  series_text (f, "pairs_row", "1");
  series_text (f, "jobs_row", "1");
  adw_combo_row_set_selected (ADW_COMBO_ROW (series_child (f, "referee_row")), 2);   /* none */

  /* Two games of 120 calls of 2 s, one at a time: 480 s. */
  series_text (f, "subject_row", two);
  g_assert_cmpstr (time_line (f), ==, "Time: about 8 minutes.");
  /* Two at once: half. */
  series_text (f, "jobs_row", "2");
  g_assert_cmpstr (time_line (f), ==, "Time: about 4 minutes.");
  /* 240 calls at 60 a minute take 4 minutes however fast each is. */
  series_text (f, "subject_row", capped);
  g_assert_cmpstr (time_line (f), ==, "Time: about 4 minutes.");
  /* 200 games of 120 calls of a minute, two at once: 8.3 days; 200,000
   * games: 8,333 days, digits grouped. */
  series_text (f, "subject_row", minute);
  series_text (f, "pairs_row", "100");
  g_assert_cmpstr (time_line (f), ==, "Time: about 8 days.");
  series_text (f, "pairs_row", "100000");
  g_assert_cmpstr (time_line (f), ==, "Time: about 8,333 days.");
  series_text (f, "pairs_row", "1");
  series_text (f, "jobs_row", "1");
  /* 240 minutes: hours. */
  g_assert_cmpstr (time_line (f), ==, "Time: about 4 hours.");

  /* What is not known is said, with what to do. */
  series_text (f, "subject_row", unknown);
  /* The provider by its name ("p"), not its file's. */
  g_assert_cmpstr (time_line (f), ==, "Time: not known until the provider “p” gives a "
                   "typical answer time (its Test in Edit Model Provider… fills it in).");
  series_text (f, "subject_row", "random");
  series_text (f, "opponents_row", "gtp:/bin/true");
  g_assert_cmpstr (time_line (f), ==, "Time: not known for gtp:/bin/true, a program whose speed "
                   "Komi has not measured.");
  /* Engines by their measured speed: random against itself takes no time. */
  series_text (f, "opponents_row", "random");
  g_assert_cmpstr (time_line (f), ==, "Time: under a minute.");
}

/* The estimate follows the fields, its time line last. Input is free here
 * so that the figures need no request sizes: 16 games of 60 turns, two
 * calls each (three attempts at most), 10 tokens an answer (50 at most) at
 * $10 a million: 1920 × 10 × $10 / 1e6 = $0.192; 5760 × 50 × $10 / 1e6 =
 * $2.88. Calls of half a second, two games at once: 1920 × 0.5 / 2 = 480 s. */
static void
test_series_estimate (FormsFixture *f, gconstpointer data)
{
  g_autofree char *priced = write_profile (f, "priced.json", ", \"typical_latency_seconds\": 0.5");
  g_autofree char *unpriced = g_build_filename (f->dir, "unpriced.json", NULL);
  g_autofree char *unpriced_spec = g_strconcat ("model:", unpriced, NULL);
  GtkLabel *label = GTK_LABEL (series_child (f, "estimate_label"));

  g_assert_true (g_file_set_contents (unpriced, "{\"name\": \"u\", \"api\": \"openai-chat\", "
                                      "\"model\": \"m\", \"typical_latency_seconds\": 0.5}",
                                      -1, NULL));
  series_text (f, "jobs_row", "2");
  adw_combo_row_set_selected (ADW_COMBO_ROW (series_child (f, "referee_row")), 2);   /* none */
  series_text (f, "subject_row", priced);
  g_assert_nonnull (komi_series_dialog_get_definition (f->series));
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   "About 1,920 model calls (at most 5,760) · about $0.19, at most $2.88\n"
                   "Time: about 8 minutes.");

  /* Pairs change the figures at once: 4 games. */
  series_text (f, "pairs_row", "2");
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   "About 480 model calls (at most 1,440) · about $0.05, at most $0.72\n"
                   "Time: about 2 minutes.");
  series_text (f, "pairs_row", "8");

  /* A game costs $0.012 typically: $0.10 pays for 8 of them. */
  series_text (f, "budget_row", "0.10");
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   "About 1,920 model calls (at most 5,760) · about $0.19, at most $2.88\n"
                   "The budget of $0.10 stops the series after about 8 of 16 games; it can be "
                   "continued later.\nTime: about 8 minutes.");
  series_text (f, "budget_row", "1");
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   "About 1,920 model calls (at most 5,760) · about $0.19, at most $2.88\n"
                   "The budget of $1.00 may stop the series early.\nTime: about 8 minutes.");
  /* Refused, never corrected: the estimate goes. */
  series_text (f, "budget_row", "lots");
  g_assert_null (komi_series_dialog_get_definition (f->series));
  g_assert_true (gtk_widget_has_css_class (series_child (f, "budget_row"), "error"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (label)));
  series_text (f, "budget_row", "");

  series_text (f, "subject_row", unpriced_spec);
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   "About 1,920 model calls (at most 5,760) · price not set\n"
                   "Time: about 8 minutes.");
}

/* The count above New Series is of every field in error, not only those
 * whose error shows yet: with pairs "0" as the last series left them
 * (nothing said under the field before Run, as the dialog opens) and the
 * seed typed wrong, two fields need a change, not one; after Run both are
 * said under their fields. */
static void
test_series_count (FormsFixture *f, gconstpointer data)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  GtkLabel *label;

  g_settings_set_string (settings, "series-pairs", "0");
  gtk_window_destroy (GTK_WINDOW (f->series));
  f->series = komi_series_dialog_new (GTK_WINDOW (f->window), NULL);
  app_test_present_dialog (f->series, (gpointer *) &f->series, 0);
  label = GTK_LABEL (series_child (f, "error_label"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (series_child (f, "pairs_row"))), ==,
                   "0");
  g_assert_null (app_test_error_under (f->series, KOMI_TYPE_SERIES_DIALOG, "pairs_row"));
  series_text (f, "seed_row", "x");
  g_assert_nonnull (app_test_error_under (f->series, KOMI_TYPE_SERIES_DIALOG, "seed_row"));
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   "2 fields need a change: press Run to see which.");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->series), "series.run", NULL));
  g_assert_nonnull (app_test_error_under (f->series, KOMI_TYPE_SERIES_DIALOG, "pairs_row"));
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   "2 fields need a change, as said under each.");
  series_text (f, "seed_row", "7");
  g_assert_cmpstr (gtk_label_get_text (label), ==, "1 field needs a change, as said under it.");
}

/* A rating is against the ladder beside the library the dialog is given,
 * whatever window it opens over (here a plain one, not the main window):
 * none given, none to rate in. */
static void
test_series_rating_library (FormsFixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "komi.db", NULL);
  g_autofree char *ladder = g_build_filename (f->dir, "ladder-protocol-1.json", NULL);
  g_autoptr(GSettings) settings = komi_settings_new ();
  g_autoptr(KomiLibrary) library = komi_library_new (path);
  g_autoptr(GError) error = NULL;
  const char *definition;

  g_settings_set_string (settings, "rating-ladder", "library");
  gtk_switch_set_active (GTK_SWITCH (series_child (f, "rate_switch")), TRUE);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (series_child (f, "error_label"))), ==,
                   "No library to rate in.");
  g_assert_null (komi_series_dialog_get_definition (f->series));

  g_file_set_contents (ladder, "{\"protocol\": 1, \"pinned\": \"random\", \"date\": "
                       "\"2026-12-01\", \"games\": 40, \"members\": [{\"label\": "
                       "\"random\", \"rating\": 0, \"se\": 0, \"games\": 20}, {\"label\": "
                       "\"mix:0.9:random\", \"rating\": 130, \"se\": 100, \"games\": "
                       "20}]}", -1,
                       &error);
  g_assert_no_error (error);
  gtk_window_destroy (GTK_WINDOW (f->series));
  f->series = komi_series_dialog_new (GTK_WINDOW (f->window), library);
  app_test_present_dialog (f->series, (gpointer *) &f->series, 0);
  series_text (f, "name_row", "Rated over a plain window");
  series_text (f, "subject_row", "random");
  adw_combo_row_set_selected (ADW_COMBO_ROW (series_child (f, "referee_row")), 2);   /* none */
  gtk_switch_set_active (GTK_SWITCH (series_child (f, "rate_switch")), TRUE);
  definition = komi_series_dialog_get_definition (f->series);
  g_assert_nonnull (definition);
  g_assert_nonnull (strstr (definition, "\"mix:0.9:random\""));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (series_child (f, "summary_label"))), ==,
                   "Rated against the 2 members of the ladder, 2 games at once.");
}

int
main (int argc, char *argv[])
{
  /* The C locale's figures (grouped with ","), whatever runs the tests. */
  g_unsetenv ("LC_ALL");
  g_setenv ("LC_NUMERIC", "C", TRUE);
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/forms/opponent/errors-at-once", FormsFixture, NULL,
              fixture_set_up, test_opponent_errors_at_once, fixture_tear_down);
  g_test_add ("/komi/app/forms/opponent/first-error-in-view", FormsFixture, NULL,
              fixture_set_up, test_opponent_first_error_in_view, fixture_tear_down);
  g_test_add ("/komi/app/forms/opponent/listed-once", FormsFixture, NULL,
              fixture_set_up, test_opponent_listed_once, fixture_tear_down);
  g_test_add ("/komi/app/forms/opponent/line-cleared", FormsFixture, NULL,
              fixture_set_up, test_opponent_line_cleared, fixture_tear_down);
  g_test_add ("/komi/app/forms/series/estimate", FormsFixture, NULL,
              fixture_set_up, test_series_estimate, fixture_tear_down);
  g_test_add ("/komi/app/forms/series/count", FormsFixture, NULL,
              fixture_set_up, test_series_count, fixture_tear_down);
  g_test_add ("/komi/app/forms/series/time", FormsFixture, NULL,
              fixture_set_up, test_series_time, fixture_tear_down);
  g_test_add ("/komi/app/forms/series/rating-library", FormsFixture, NULL,
              fixture_set_up, test_series_rating_library, fixture_tear_down);
  return g_test_run ();
}
