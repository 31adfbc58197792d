/* test-app-review-engine.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-analysis-panel.h"
#include "komi-app-test-util.h"
#include "komi-coords.h"
#include "komi-review-window.h"
#include "komi-settings.h"
#include "komi-store-test-review.h"

/* The engine review in the review window, with real engines: the engine
 * is chosen in the window (GNU Go at a level, KataGo with its visits),
 * the analysis is made by the one chosen, and the move list shows its
 * marks as soon as it ends, without opening the window again; Next
 * Mistake then goes to a marked move. The game is the blunder game of
 * komi-store-test-review.h: Black's move 27 (B5) is a blunder. */

/* The KataGo the test run names (KOMI_KATAGO*) is kept and cleared in
 * main(): the window's default is then GNU Go, and KataGo is reached by
 * choosing it. */
static char *dir;
static char *db;
static gint64 game_id;
static KomiLibrary *library;

static void
make_library (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  gint64 series_id;

  dir = g_dir_make_tmp ("komi-app-review-engine-XXXXXX", &error);
  g_assert_no_error (error);
  db = test_db_path (dir);
  store = komi_store_open (db, &error);
  g_assert_no_error (error);
  test_series_free (test_blunder_series (store, 1, &series_id, &game_id));
  library = komi_library_new (db);
}

static KomiAnalysisPanel *
panel_of (KomiReviewWindow *window)
{
  GtkWidget *panel = gtk_widget_get_first_child (
    GTK_WIDGET (komi_review_window_get_analysis_slot (window)));

  g_assert_true (KOMI_IS_ANALYSIS_PANEL (panel));
  return KOMI_ANALYSIS_PANEL (panel);
}

static gpointer
child (KomiAnalysisPanel *panel, const char *name)
{
  return app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL, name);
}

static gboolean
panel_ready (gpointer panel)
{
  /* The game read: the status says whether it was analysed. */
  return komi_analysis_panel_get_job (panel) == NULL
         && gtk_label_get_text (child (panel, "status_label"))[0] != '\0';
}

typedef struct
{
  KomiAnalysisPanel *panel;
  const char        *label;
} Expected;

/* The analysis by @label read back once the job is over. */
static gboolean
analysed (gpointer data)
{
  Expected *e = data;
  const KomiStoreAnalysis *a = komi_analysis_panel_get_analysis (e->panel);

  return komi_analysis_panel_get_job (e->panel) == NULL && a != NULL
         && g_str_equal (a->label, e->label);
}

/* Analyse from the panel, as its button does, and wait for the analysis
 * labelled @label to be read. */
static void
analyse (KomiAnalysisPanel *panel, const char *label)
{
  gint64 started = g_get_monotonic_time ();
  Expected e = { panel, label };

  gtk_widget_activate_action (GTK_WIDGET (panel), "analysis.analyse", NULL);
  g_assert_nonnull (komi_analysis_panel_get_job (panel));
  /* The engine is not changed under a running review. */
  g_assert_false (gtk_widget_is_sensitive (child (panel, "engine_drop")));
  g_assert_true (app_test_wait_seconds (analysed, &e, 240));
  g_test_message ("30 moves analysed in %.1f s",
                  (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC);
  g_assert_true (gtk_widget_is_sensitive (child (panel, "engine_drop")));
}

/* Every row of the move list carries the mark of the analysis shown, now;
 * returns how many rows are marked. */
static guint
assert_marks (KomiReviewWindow *window, const KomiStoreAnalysis *a)
{
  guint marked = 0;

  for (guint i = 0; i < a->moves->len; i++)
    {
      const KomiStoreAnalysisMove *m = &g_array_index (a->moves, KomiStoreAnalysisMove, i);
      KomiMoveClass c = komi_store_analysis_classify (a, m);
      g_autofree char *row = komi_review_window_dup_move_text (window, m->turn);

      if (c == KOMI_MOVE_CLASS_BLUNDER)
        g_assert_true (g_str_has_suffix (row, "??"));
      else if (c == KOMI_MOVE_CLASS_MISTAKE)
        g_assert_true (g_str_has_suffix (row, " ?"));
      else
        g_assert_false (g_str_has_suffix (row, "?"));
      marked += c != KOMI_MOVE_CLASS_GOOD;
    }
  return marked;
}

/* GNU Go chosen in the window at level 1: the analysis is GNU Go's at
 * that level, the list is marked at once, Next Mistake goes to a mark;
 * the choice is kept. KataGo chosen where none is set up: the panel says
 * how to set it up. */
static void
test_gnugo_chosen (void)
{
  KomiReviewWindow *window = app_test_open_review (NULL, library, game_id);
  KomiAnalysisPanel *panel = panel_of (window);
  GtkDropDown *engine = child (panel, "engine_drop");
  GtkSpinButton *level = child (panel, "level_spin");
  GtkWidget *visits = child (panel, "visits_spin");
  g_autoptr(GSettings) settings = komi_settings_new ();
  const KomiStoreAnalysis *a;
  g_autofree char *row = NULL;
  guint marked;

  g_assert_true (app_test_wait (panel_ready, panel));
  g_assert_null (komi_analysis_panel_get_analysis (panel));
  /* No KataGo set up: GNU Go, with its level. */
  g_assert_cmpuint (gtk_drop_down_get_selected (engine), ==, 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (level)));
  g_assert_false (gtk_widget_get_visible (visits));

  /* KataGo chosen: its visits instead; Analyse says what is missing. */
  gtk_drop_down_set_selected (engine, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (level)));
  g_assert_true (gtk_widget_get_visible (visits));
  gtk_widget_activate_action (GTK_WIDGET (panel), "analysis.analyse", NULL);
  g_assert_true (app_test_wait (panel_ready, panel));
  g_test_message ("%s", gtk_label_get_text (child (panel, "status_label")));
  g_assert_nonnull (strstr (gtk_label_get_text (child (panel, "status_label")),
                            "KataGo is not set up: give its binary, network and GTP config in "
                            "Preferences"));
  g_assert_null (komi_analysis_panel_get_analysis (panel));

  gtk_drop_down_set_selected (engine, 1);
  gtk_spin_button_set_value (level, 1);
  analyse (panel, "GNU Go estimate");
  a = komi_analysis_panel_get_analysis (panel);
  g_test_message ("settings: %s", a->settings);
  g_assert_nonnull (strstr (a->settings, "\"level\":1"));
  g_assert_cmpuint (a->moves->len, ==, TEST_BLUNDER_TURNS);

  /* The marks, at once, in the window that analysed. */
  marked = assert_marks (window, a);
  g_test_message ("%u moves marked", marked);
  g_assert_cmpuint (marked, >, 0);
  row = komi_review_window_dup_move_text (window, 27);
  g_assert_true (g_str_has_suffix (row, "?"));
  komi_review_window_show_step (window, 0);
  gtk_widget_activate_action (GTK_WIDGET (window), "review.next-mistake", NULL);
  g_assert_cmpuint (komi_review_window_get_step (window), >, 0);
  g_free (row);
  row = komi_review_window_dup_move_text (window, komi_review_window_get_step (window));
  g_assert_true (g_str_has_suffix (row, "?"));

  /* Kept for the next review. */
  if (settings != NULL)
    {
      g_autofree char *kept = g_settings_get_string (settings, "analysis-engine");

      g_assert_cmpstr (kept, ==, "gnugo");
      g_assert_cmpint (g_settings_get_int (settings, "analysis-level"), ==, 1);
    }
  gtk_window_destroy (GTK_WINDOW (window));
  window = app_test_open_review (NULL, library, game_id);
  panel = panel_of (window);
  g_assert_cmpuint (gtk_drop_down_get_selected (child (panel, "engine_drop")), ==, 1);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (child (panel, "level_spin")), ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* KataGo chosen in the window, with 8 visits: the analysis is KataGo's
 * at 8 visits, and the list is marked at once. */
static void
test_katago_chosen (void)
{
  KomiReviewWindow *window;
  KomiAnalysisPanel *panel;
  const KomiStoreAnalysis *a;

  if (!app_test_katago_restore ())
    return;
  window = app_test_open_review (NULL, library, game_id);
  panel = panel_of (window);
  g_assert_true (app_test_wait (panel_ready, panel));
  gtk_drop_down_set_selected (child (panel, "engine_drop"), 0);
  gtk_spin_button_set_value (child (panel, "visits_spin"), 8);
  analyse (panel, "KataGo");
  a = komi_analysis_panel_get_analysis (panel);
  g_test_message ("settings: %s", a->settings);
  g_assert_nonnull (strstr (a->settings, "\"visits\":8"));
  g_test_message ("%u moves marked", assert_marks (window, a));
  gtk_window_destroy (GTK_WINDOW (window));
  app_test_unset_katago ();
}

int
main (int argc, char *argv[])
{
  int status;

  app_test_katago_keep ();
  app_test_unset_katago ();
  app_test_init (&argc, &argv);
  make_library ();
  g_test_add_func ("/komi/app/review-engine/gnugo-chosen", test_gnugo_chosen);
  g_test_add_func ("/komi/app/review-engine/katago-chosen", test_katago_chosen);
  status = g_test_run ();
  g_object_unref (library);
  remove_test_dir (dir);
  g_free (db);
  g_free (dir);
  return status;
}
