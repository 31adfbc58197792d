/* test-app-opponent-dialog.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "komi-app-test-dialog.h"
#include "komi-opponent-dialog.h"
#include "komi-series-dialog.h"
#include "komi-settings.h"
#include "komi-test-util.h"

/* The opponent dialog, built from its template and presented: a spec the
 * spec parser refuses is marked at its field; Test starts real GNU Go
 * and reports its name and a move, and reports /bin/false in words; Add
 * puts the spec into the New Series dialog's opponents. */

typedef struct
{
  GtkWidget          *window;   /* where the series would run */
  GtkWidget          *series;   /* a New Series dialog, the target of Add */
  KomiOpponentDialog *dialog;
} DialogFixture;

static void
fixture_set_up (DialogFixture *f, gconstpointer data)
{
  app_test_unset_katago ();
  f->window = gtk_window_new ();
  f->series = GTK_WIDGET (komi_series_dialog_new (GTK_WINDOW (f->window), NULL));
  gtk_window_present (GTK_WINDOW (f->series));
  app_test_open_opponent_dialog (KOMI_SERIES_DIALOG (f->series), (gpointer *) &f->dialog, 0);
}

static void
fixture_tear_down (DialogFixture *f, gconstpointer data)
{
  if (f->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (f->dialog));
  gtk_window_destroy (GTK_WINDOW (f->series));
  gtk_window_destroy (GTK_WINDOW (f->window));
}

static GtkWidget *
child (DialogFixture *f, const char *name)
{
  return app_test_child (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, name);
}

static void
set_text (DialogFixture *f, const char *row, const char *text)
{
  app_test_set_text (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, row, text);
}

static void
set_kind (DialogFixture *f, guint kind)
{
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "kind_row")), kind);
}

static const char *rows[] = {
  "level_row", "binary_row", "model_row", "config_row", "visits_row", "command_row", "mix_row",
};

static const char *
error_under (DialogFixture *f, const char *row)
{
  return app_test_error_under (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, row);
}

/* Refused at @row only, its words under it. */
static void
assert_refused_at (DialogFixture *f, const char *row, const char *expected)
{
  const char *wrong[] = { row, expected, NULL };

  g_assert_null (komi_opponent_dialog_get_spec (f->dialog));
  app_test_assert_row_errors (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, rows, G_N_ELEMENTS (rows),
                              wrong);
  if (gtk_widget_get_visible (child (f, "error_label")))
    g_error ("above the form: %s", gtk_label_get_text (GTK_LABEL (child (f, "error_label"))));
  /* Nothing to say above the form: no empty place for it either. */
  g_assert_false (gtk_widget_get_visible (child (f, "status_group")));
  g_assert_true (gtk_widget_get_visible (child (f, row)));
}

static void
assert_spec (DialogFixture *f, const char *spec)
{
  g_assert_cmpstr (komi_opponent_dialog_get_spec (f->dialog), ==, spec);
  app_test_assert_rows_quiet (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, rows, G_N_ELEMENTS (rows));
  if (gtk_widget_get_visible (child (f, "error_label")))
    g_error ("above the form: %s", gtk_label_get_text (GTK_LABEL (child (f, "error_label"))));
  g_assert_true (gtk_widget_get_visible (child (f, "status_group")));
  g_assert_true (gtk_widget_get_visible (child (f, "spec_label")));
}

/* @spec is good but the series has it already: said above the form, and
 * Add is off (an opponent is listed once). */
static void
assert_listed (DialogFixture *f, const char *spec)
{
  g_autofree char *words = g_strdup_printf ("The series already has %s", spec);

  g_assert_cmpstr (komi_opponent_dialog_get_spec (f->dialog), ==, spec);
  g_assert_true (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))),
                                   words));
  g_assert_false (gtk_widget_is_sensitive (child (f, "add_button")));
}

static void
test_refuses_bad_fields (DialogFixture *f, gconstpointer data)
{
  g_autofree char *here = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests",
                                            "test-app-opponent-dialog.c", NULL);

  if (have_gnugo ())
    {
      assert_spec (f, "gnugo:1");   /* as it opens */
      set_text (f, "level_row", "7");
      assert_spec (f, "gnugo:7");
    }
  set_kind (f, 0);
  assert_listed (f, "random");

  /* A kind whose field is empty: nothing said until Add is pressed. */
  set_kind (f, 3);
  g_assert_null (komi_opponent_dialog_get_spec (f->dialog));
  g_assert_null (error_under (f, "command_row"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.add", NULL));
  g_assert_nonnull (f->dialog);
  assert_refused_at (f, "command_row", "Give the command that starts the program");
  set_text (f, "command_row", "/nonexistent/engine --mode gtp");
  assert_refused_at (f, "command_row", "/nonexistent/engine");
  /* In the words of the dialog, which has no “gtp:” to write after. */
  assert_refused_at (f, "command_row", "give its full path, or choose it with the button");
  g_assert_null (strstr (error_under (f, "command_row"), "gtp:"));
  set_text (f, "command_row", "'/bin/true");
  assert_refused_at (f, "command_row", "cannot be read");
  set_text (f, "command_row", "/bin/true --mode gtp");
  assert_spec (f, "gtp:/bin/true --mode gtp");

  /* KataGo: each missing file at its own field. Any existing regular file
   * passes the check, which starts nothing. */
  set_kind (f, 2);
  set_text (f, "binary_row", "/bin/true");
  set_text (f, "model_row", "/nonexistent/model.bin.gz");
  set_text (f, "config_row", here);
  assert_refused_at (f, "model_row", "There is no file at /nonexistent/model.bin.gz");
  set_text (f, "model_row", here);
  set_text (f, "config_row", "/nonexistent/gtp.cfg");
  assert_refused_at (f, "config_row", "There is no file at /nonexistent/gtp.cfg");
  set_text (f, "config_row", here);
  set_text (f, "visits_row", "0");
  assert_refused_at (f, "visits_row", "Visits per move must be a whole number from 1 to");
  set_text (f, "visits_row", "many");
  assert_refused_at (f, "visits_row", "Visits per move");
  set_text (f, "visits_row", "400");
  assert_spec (f, "katago:400");
}

/* What the spec parser refuses once every field passes the form's own
 * check (GNU Go missing, a program missing, a command line that cannot be
 * read), said under the field the error's code names: in English and in
 * German alike, since the code is no word of the message. */
enum { GNUGO_MISSING, PROGRAM_MISSING, UNREADABLE, N_WORDS };

typedef struct
{
  const char *language;
  const char *words[N_WORDS];   /* what is said, by the enum above */
} ParserWords;

static const ParserWords english = {
  "C", { "GNU Go not found at /nonexistent/gnugo", "The program /nonexistent/engine was not found",
         "cannot be read" },
};
static const ParserWords german = {
  "de", { "GNU Go wurde unter /nonexistent/gnugo nicht gefunden",
          "Das Programm /nonexistent/engine wurde nicht gefunden",
          "Die Befehlszeile kann nicht gelesen werden" },
};

/* The messages in @language ("C": untranslated). gettext reads LANGUAGE
 * again once setlocale() has run, and ignores it in the plain "C" locale;
 * textdomain() forgets the translations it has looked up. */
static void
use_language (const char *language)
{
  gboolean english_only = g_str_equal (language, "C");

  if (english_only)
    g_unsetenv ("LANGUAGE");
  else
    g_setenv ("LANGUAGE", language, TRUE);
  setlocale (LC_MESSAGES, english_only ? "C" : "C.UTF-8");
  textdomain (textdomain (NULL));
}

static void
test_parser_errors_at_fields (DialogFixture *f, gconstpointer data)
{
  /* With GNU Go missing, the GNU Go kind; then a GTP program, last as the
   * engine of a bridging rung. GNU Go's program has no field of its own:
   * its error goes under the kind's, the level. */
  static const struct { guint kind; const char *row, *text, *refused_at; int said; } steps[] = {
    { 1, "level_row", "2", "level_row", GNUGO_MISSING },
    { 1, "mix_row", "0.5", "level_row", GNUGO_MISSING },
    { 3, "mix_row", "", NULL, 0 },
    { 3, "command_row", "/nonexistent/engine --mode gtp", "command_row", PROGRAM_MISSING },
    { 3, "command_row", "'/bin/true", "command_row", UNREADABLE },
    { 3, "mix_row", "0.25", "command_row", UNREADABLE },
    { 3, "command_row", "/nonexistent/engine", "command_row", PROGRAM_MISSING },
  };
  const ParserWords *words = data;
  g_autofree char *gnugo = g_strdup (g_getenv ("KOMI_GNUGO"));
  guint kind = 0;

  use_language (words->language);
  g_setenv ("KOMI_GNUGO", "/nonexistent/gnugo", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      if (steps[i].kind != kind && kind == 1)
        {
          if (gnugo != NULL)
            g_setenv ("KOMI_GNUGO", gnugo, TRUE);
          else
            g_unsetenv ("KOMI_GNUGO");
        }
      if (steps[i].kind != kind)
        set_kind (f, kind = steps[i].kind);
      set_text (f, steps[i].row, steps[i].text);
      if (steps[i].refused_at != NULL)
        assert_refused_at (f, steps[i].refused_at, words->words[steps[i].said]);
    }
  set_text (f, "command_row", "/bin/true");
  assert_spec (f, "mix:0.25:gtp:/bin/true");
  use_language ("C");
}

/* The ladder's bridging rung, mix:P:ENGINE, is built here too: an engine
 * and the chance of a random move, refused with the range when out of it. */
/* The series has the opponent the dialog proposes as it opens: nothing is
 * said against a choice nobody made (Add is off); once the user chooses
 * it, the dialog says why Add is off. */
static void
test_proposal_listed (DialogFixture *f, gconstpointer data)
{
  GtkWidget *opponents = app_test_child (f->series, KOMI_TYPE_SERIES_DIALOG, "opponents_row");

  if (!have_gnugo ())
    return;
  gtk_window_destroy (GTK_WINDOW (f->dialog));
  gtk_editable_set_text (GTK_EDITABLE (opponents), "random, gnugo:1");
  app_test_open_opponent_dialog (KOMI_SERIES_DIALOG (f->series), (gpointer *) &f->dialog, 0);
  g_assert_cmpstr (komi_opponent_dialog_get_spec (f->dialog), ==, "gnugo:1");
  g_assert_false (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_false (gtk_widget_is_sensitive (child (f, "add_button")));
  set_text (f, "level_row", "2");
  set_text (f, "level_row", "1");
  assert_listed (f, "gnugo:1");
}

static void
test_mix_rung (DialogFixture *f, gconstpointer data)
{
  if (!have_gnugo ())
    {
      g_test_skip ("no GNU Go");
      return;
    }
  set_kind (f, 1);
  assert_spec (f, "gnugo:1");
  g_assert_true (gtk_widget_get_visible (child (f, "mix_row")));
  set_text (f, "mix_row", "0.25");
  assert_spec (f, "mix:0.25:gnugo:1");
  set_text (f, "mix_row", "2");
  assert_refused_at (f, "mix_row", "The chance of a random move must be a number from 0 to 1");
  set_text (f, "mix_row", "0.5");
  set_text (f, "level_row", "3");
  assert_spec (f, "mix:0.5:gnugo:3");
  set_text (f, "mix_row", "");
  assert_spec (f, "gnugo:3");
  /* Random is random: no chance to set. */
  set_kind (f, 0);
  g_assert_false (gtk_widget_get_visible (child (f, "mix_row")));
  assert_listed (f, "random");
}

static const char *
run_test (DialogFixture *f)
{
  return app_test_run_check (f->dialog, KOMI_TYPE_OPPONENT_DIALOG, "opponent.test",
                             "test_label", 60);
}

static void
test_engines_tested (DialogFixture *f, gconstpointer data)
{
  const char *text;

  if (!have_gnugo ())
    {
      g_test_skip ("GNU Go is not installed (Debian package gnugo)");
      return;
    }
  assert_spec (f, "gnugo:1");
  text = run_test (f);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "✓ GNU Go 3.8 played "));

  set_kind (f, 3);
  set_text (f, "command_row", "/bin/false");
  /* A change of fields drops the old result. */
  g_assert_false (gtk_widget_get_visible (child (f, "test_label")));
  assert_spec (f, "gtp:/bin/false");
  text = run_test (f);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "✗ "));
  g_assert_null (strstr (text, "played"));
}

/* A GTP program that never answers its move: Test stops it after a
 * test's short wait (15 s), not a series' minute, and says so. */
static void
test_silent_engine (DialogFixture *f, gconstpointer data)
{
  g_autofree char *engine = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "tests",
                                              "fake-gtp-engine", NULL);
  g_autofree char *command = g_strdup_printf ("%s --hang-after 0", engine);
  const char *text;

  if (!g_file_test (engine, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("the fake GTP engine is not built");
      return;
    }
  set_kind (f, 3);
  set_text (f, "command_row", command);
  text = run_test (f);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "✗ "));
  g_assert_nonnull (strstr (text, "within 15.0 s"));
  g_assert_null (strstr (text, "pauses"));
}

/* A process whose command line holds @needle is running. */
static gboolean
process_running (const char *needle)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *cmdline = NULL;
      gsize length = 0;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &cmdline, &length, NULL))
        continue;
      for (gsize i = 0; i + 1 < length; i++)
        if (cmdline[i] == '\0')
          cmdline[i] = ' ';
      if (strstr (cmdline, needle) != NULL)
        return TRUE;
    }
  return FALSE;
}

static gboolean
engine_asked_move (gpointer log)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (log, &text, NULL, NULL) && strstr (text, "genmove") != NULL;
}

static gboolean
engine_gone (gpointer log)
{
  return !process_running (log);
}

/* While a Test runs, a spinner and Cancel Test show beside Test, which
 * waits; Cancel Test stops the engine and says so, and no late result
 * (the 15 s timeout's) takes its place. */
static void
test_cancel_test (DialogFixture *f, gconstpointer data)
{
  g_autofree char *engine = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "tests",
                                              "fake-gtp-engine", NULL);
  g_autofree char *dir = g_dir_make_tmp ("komi-cancel-test-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "engine.log", NULL);
  g_autofree char *command = g_strdup_printf ("%s --hang-after 0 --log %s", engine, log);
  GtkWidget *label = child (f, "test_label");
  GtkWidget *spinner = child (f, "test_spinner");
  GtkWidget *cancel = child (f, "cancel_test_button");
  AppTestRefs watch = { G_OBJECT (f->dialog), 0 };

  if (!g_file_test (engine, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("the fake GTP engine is not built");
      return;
    }
  set_kind (f, 3);
  set_text (f, "command_row", command);
  app_test_assert_check_idle (f->dialog, KOMI_TYPE_OPPONENT_DIALOG);
  watch.refs = G_OBJECT (f->dialog)->ref_count;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.test", NULL));
  /* Test waits for the one in flight. */
  app_test_assert_check_running (f->dialog, KOMI_TYPE_OPPONENT_DIALOG);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "Starting the engine…");

  /* The engine has its move to think about, and never answers it. */
  g_assert_true (app_test_wait_seconds (engine_asked_move, log, 60));
  g_assert_true (process_running (log));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.cancel-test",
                                             NULL));
  app_test_assert_check_idle (f->dialog, KOMI_TYPE_OPPONENT_DIALOG);
  g_assert_false (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                   "Test cancelled: the engine was stopped.");
  /* The check ends (the engine stopped), and what it reports is the
   * cancel, not the 15 s timeout that would have ended it otherwise. */
  g_assert_true (app_test_wait_seconds (engine_gone, log, 60));
  g_assert_true (app_test_wait_seconds (app_test_refs_back, &watch, 60));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                   "Test cancelled: the engine was stopped.");
  g_assert_true (gtk_widget_get_sensitive (child (f, "test_button")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.test", NULL));
  g_assert_true (gtk_widget_get_visible (cancel));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.cancel-test",
                                             NULL));
  g_assert_true (app_test_wait_seconds (engine_gone, log, 60));
  g_unlink (log);
  g_rmdir (dir);
}

/* Test with a real KataGo: it starts from the fields, plays, and says so. */
static void
test_katago_tested (DialogFixture *f, gconstpointer data)
{
  /* The KataGo the test run names, kept before the fixture unset it. */
  const char * const *katago = app_test_katago ();
  const char *text;

  if (katago == NULL)
    {
      g_test_skip ("KOMI_KATAGO is not set");
      return;
    }
  set_kind (f, 2);
  set_text (f, "binary_row", katago[0]);
  set_text (f, "model_row", katago[1]);
  set_text (f, "config_row", katago[2]);
  set_text (f, "visits_row", "4");
  assert_spec (f, "katago:4");
  text = run_test (f);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "✓ KataGo "));
  g_assert_nonnull (strstr (text, "played"));
}

static void
test_add_to_series (DialogFixture *f, gconstpointer data)
{
  GObject *opponents = gtk_widget_get_template_child (f->series, KOMI_TYPE_SERIES_DIALOG,
                                                      "opponents_row");

  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (opponents)), ==, "random");
  set_kind (f, 3);
  set_text (f, "command_row", "/bin/true");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.add", NULL));
  g_assert_null (f->dialog);   /* closed */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (opponents)), ==,
                   "random, gtp:/bin/true");
  g_assert_nonnull (komi_series_dialog_get_definition (KOMI_SERIES_DIALOG (f->series)));
}

/* Add keeps KataGo's files in settings, where the New Series dialog (and
 * a series run from the window) finds them with no KOMI_KATAGO* set, and
 * the next Opponent dialog starts from them. */
static void
test_katago_saved (DialogFixture *f, gconstpointer data)
{
  g_autofree char *here = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests",
                                            "test-app-opponent-dialog.c", NULL);
  g_autoptr(GSettings) settings = komi_settings_new ();
  GObject *opponents = gtk_widget_get_template_child (f->series, KOMI_TYPE_SERIES_DIALOG,
                                                      "opponents_row");
  g_autofree char *binary = NULL;
  KomiOpponentDialog *again;

  g_assert_nonnull (settings);
  set_kind (f, 2);
  set_text (f, "binary_row", "/bin/true");
  set_text (f, "model_row", here);
  set_text (f, "config_row", here);
  set_text (f, "visits_row", "50");
  assert_spec (f, "katago:50");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.add", NULL));
  g_assert_null (f->dialog);

  binary = g_settings_get_string (settings, "katago-binary");
  g_assert_cmpstr (binary, ==, "/bin/true");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (opponents)), ==, "random, katago:50");
  g_assert_nonnull (komi_series_dialog_get_definition (KOMI_SERIES_DIALOG (f->series)));

  again = komi_opponent_dialog_new (GTK_WINDOW (f->series), NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (
                     app_test_child (again, KOMI_TYPE_OPPONENT_DIALOG, "model_row"))), ==, here);
  gtk_window_destroy (GTK_WINDOW (again));

  g_settings_reset (settings, "katago-binary");
  g_settings_reset (settings, "katago-model");
  g_settings_reset (settings, "katago-config");
}

/* The buttons beside the path rows open a file chooser (under Xvfb, no
 * portal: GTK's own dialog) whose choice fills the row; for a GTP
 * command, the program replaces the first word and the arguments stay. */
static void
test_file_choosers (DialogFixture *f, gconstpointer data)
{
  g_autofree char *here = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests",
                                            "test-app-opponent-dialog.c", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (here);
  GtkWidget *chooser = NULL;

  set_kind (f, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.choose-file",
                                             "s", "config"));
  g_assert_true (app_test_wait (app_test_find_chooser, &chooser));
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), file, NULL));
  /* The folder loads before the file is selected in it. */
  g_assert_true (app_test_wait (app_test_chooser_has_file, chooser));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "config_row"))), ==, here);

  set_kind (f, 3);
  set_text (f, "command_row", "/nonexistent/engine --mode gtp");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "opponent.choose-file",
                                             "s", "command"));
  chooser = NULL;
  g_assert_true (app_test_wait (app_test_find_chooser, &chooser));
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), file, NULL));
  /* The folder loads before the file is selected in it. */
  g_assert_true (app_test_wait (app_test_chooser_has_file, chooser));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  {
    g_autofree char *expected = g_strconcat (here, " --mode gtp", NULL);

    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "command_row"))), ==,
                     expected);
  }
}

int
main (int argc, char *argv[])
{
  app_test_katago_keep ();
  /* The build's catalogues, for the German case; in the "C" locale the
   * other cases stay English. */
  bindtextdomain (GETTEXT_PACKAGE, KOMI_BUILD_LOCALE_DIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/dialog/opponent/refuses-bad-fields", DialogFixture, NULL,
              fixture_set_up, test_refuses_bad_fields, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/parser-errors-at-fields", DialogFixture, &english,
              fixture_set_up, test_parser_errors_at_fields, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/parser-errors-at-fields-german", DialogFixture, &german,
              fixture_set_up, test_parser_errors_at_fields, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/proposal-listed", DialogFixture, NULL,
              fixture_set_up, test_proposal_listed, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/mix-rung", DialogFixture, NULL,
              fixture_set_up, test_mix_rung, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/silent-engine", DialogFixture, NULL,
              fixture_set_up, test_silent_engine, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/cancel-test", DialogFixture, NULL,
              fixture_set_up, test_cancel_test, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/engines-tested", DialogFixture, NULL,
              fixture_set_up, test_engines_tested, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/katago-tested", DialogFixture, NULL,
              fixture_set_up, test_katago_tested, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/add-to-series", DialogFixture, NULL,
              fixture_set_up, test_add_to_series, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/katago-saved", DialogFixture, NULL,
              fixture_set_up, test_katago_saved, fixture_tear_down);
  g_test_add ("/komi/app/dialog/opponent/file-choosers", DialogFixture, NULL,
              fixture_set_up, test_file_choosers, fixture_tear_down);
  return g_test_run ();
}
