/* test-app-analysis.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <unistd.h>

#include "komi-analysis-job.h"
#include "komi-app-test-util.h"
#include "komi-coords.h"
#include "komi-score-graph.h"
#include "komi-settings.h"
#include "komi-sgf-record.h"
#include "komi-store-test-review.h"
#include "komi-window-private.h"

/* The engine review in the window, with real GNU Go: the series page's
 * review panel analyses the blunder game of komi-store-test-review.h,
 * whose move 27 (Black B5) is a blunder, lists it with "best was D5", and
 * its graph steps the board; the thresholds change the list; a cancelled
 * series analysis stores no half game; the exports write what komi's SGF
 * reader reads back; Open in Sabaki without a handler says so. The graph
 * is drawn as tests/board-references/score-graph-light.png shows
 * (KOMI_UPDATE_REFERENCES=1 writes it anew). */

#define BLUNDER_TURN 27

typedef struct
{
  char        *dir;
  char        *path;
  gint64       series_id;
  gint64       game_ids[2];   /* the subject Black, then White */
  KomiLibrary *library;
  KomiWindow  *window;
} Fixture;

static gboolean
settled (gpointer library)
{
  return komi_library_get_state (library) == KOMI_LIBRARY_STATE_READY;
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiStoreGame) first = NULL;

  f->dir = g_dir_make_tmp ("komi-app-analysis-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = test_db_path (f->dir);
  store = komi_store_open (f->path, &error);
  g_assert_no_error (error);
  test_series_free (test_blunder_series (store, 2, &f->series_id, f->game_ids));
  first = komi_store_load_game (store, f->game_ids[0], &error);
  g_assert_no_error (error);
  g_assert_cmpint (first->subject, ==, KOMI_BLACK);
  g_clear_pointer (&store, komi_store_unref);

  f->library = komi_library_new (f->path);
  f->window = g_object_ref_sink (komi_window_new (NULL, f->library));
  komi_library_reload (f->library);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (app_test_wait (settled, f->library));
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->window);
  g_clear_object (&f->library);
  remove_test_dir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static KomiAnalysisPanel *
panel_of (Fixture *f)
{
  return komi_series_page_get_analysis_panel (komi_window_get_series_page (f->window));
}

static gboolean
panel_ready (gpointer panel)
{
  GtkLabel *status = GTK_LABEL (app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL,
                                                "status_label"));

  /* The game read: the status says whether it was analysed. */
  return komi_analysis_panel_get_job (panel) == NULL
         && gtk_label_get_text (status)[0] != '\0';
}

static gboolean
analysed (gpointer panel)
{
  return komi_analysis_panel_get_job (panel) == NULL
         && komi_analysis_panel_get_analysis (panel) != NULL;
}

/* Every label's text under @widget, one per line. */
static void
collect_text (GtkWidget *widget, GString *out)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_text (c, out);
}

static gboolean shows_text (GtkWidget *widget, const char *needle);
static gboolean export_toast (gpointer data);

static char *
list_text (KomiAnalysisPanel *panel)
{
  GString *out = g_string_new (NULL);

  collect_text (app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL, "moves_list"), out);
  return g_string_free (out, FALSE);
}

static void
on_step (KomiAnalysisPanel *panel, guint step, guint *out)
{
  *out = step;
}

/* Selects game @index of the series and waits for the panel to read it. */
static KomiAnalysisPanel *
show_game (Fixture *f, guint index)
{
  KomiSeriesPage *page = komi_window_get_series_page (f->window);
  KomiAnalysisPanel *panel = panel_of (f);
  GtkStack *stack = GTK_STACK (app_test_child (page, KOMI_TYPE_SERIES_PAGE, "side_stack"));

  g_assert_true (komi_series_page_select (page, 0, index));
  gtk_stack_set_visible_child_name (stack, "analysis");
  g_assert_true (app_test_wait (panel_ready, panel));
  return panel;
}

/* Whether anything still listens to @job's progress or end. */
static gboolean
job_watched (KomiAnalysisJob *job)
{
  return g_signal_has_handler_pending (job, g_signal_lookup ("notify", G_TYPE_OBJECT),
                                       g_quark_from_static_string ("done"), TRUE)
         || g_signal_has_handler_pending (job, g_signal_lookup ("finished",
                                                                KOMI_TYPE_ANALYSIS_JOB),
                                          0, TRUE);
}

/* Analyses the shown game from the panel; the job, once over, is let go
 * of: it tells the panel nothing more. */
static void
analyse_shown (KomiAnalysisPanel *panel)
{
  gint64 started = g_get_monotonic_time ();
  g_autoptr(KomiAnalysisJob) job = NULL;

  gtk_widget_activate_action (GTK_WIDGET (panel), "analysis.analyse", NULL);
  g_assert_nonnull (komi_analysis_panel_get_job (panel));
  job = g_object_ref (komi_analysis_panel_get_job (panel));
  g_assert_true (job_watched (job));
  g_assert_true (app_test_wait_seconds (analysed, panel, 240));
  g_assert_false (job_watched (job));
  g_test_message ("30 moves analysed from the panel in %.1f s",
                  (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC);
}

/* The KataGo the test run names (KOMI_KATAGO*): main() keeps it and
 * clears KOMI_KATAGO, so the other tests review with GNU Go as written. */

/* Analyse with a real KataGo from the panel: its review is labelled as
 * KataGo's, and it finds the subject's blunder at move 27 too. */
static void
test_panel_katago (Fixture *f, gconstpointer data)
{
  KomiAnalysisPanel *panel;
  g_autofree char *text = NULL;
  const KomiStoreAnalysis *a;

  if (!app_test_katago_restore ())
    return;
  panel = show_game (f, 0);
  analyse_shown (panel);
  a = komi_analysis_panel_get_analysis (panel);
  g_assert_cmpstr (a->label, ==, "KataGo");
  g_assert_cmpuint (a->moves->len, ==, TEST_BLUNDER_TURNS);
  text = list_text (panel);
  g_test_message ("listed:\n%s", text);
  g_assert_nonnull (strstr (text, "Move 27 B5: lost "));
  g_assert_nonnull (strstr (text, "(KataGo)"));
  app_test_unset_katago ();
}

static void
test_panel_blunder (Fixture *f, gconstpointer data)
{
  KomiAnalysisPanel *panel = show_game (f, 0);
  KomiSeriesPage *page = komi_window_get_series_page (f->window);
  KomiScoreGraph *graph = KOMI_SCORE_GRAPH (app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL,
                                                            "graph"));
  GtkSpinButton *mistake = GTK_SPIN_BUTTON (app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL,
                                                            "mistake_spin"));
  GtkSpinButton *blunder = GTK_SPIN_BUTTON (app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL,
                                                            "blunder_spin"));
  g_autoptr(GListModel) controllers = NULL;
  g_autofree char *text = NULL;
  g_autofree char *strict = NULL;
  g_autofree char *loose = NULL;
  guint picked = G_MAXUINT, step = 0;
  GtkGesture *drag = NULL;
  const KomiStoreAnalysis *a;

  analyse_shown (panel);
  a = komi_analysis_panel_get_analysis (panel);
  g_assert_cmpstr (a->label, ==, "GNU Go estimate");
  g_assert_cmpuint (a->moves->len, ==, TEST_BLUNDER_TURNS);

  /* The subject is Black: its blunder is listed, White's moves are not. */
  text = list_text (panel);
  g_test_message ("listed:\n%s", text);
  g_assert_nonnull (strstr (text, "Blunder\nMove 27 B5: lost "));
  g_assert_nonnull (strstr (text, "best was D5 (GNU Go estimate)"));
  g_assert_null (strstr (text, "Move 28 "));

  /* The graph: a click at move 27's place picks it, and the board steps. */
  g_signal_connect (panel, "step-activated", G_CALLBACK (on_step), &picked);
  g_assert_true (app_test_wait (app_test_has_size, graph));
  g_assert_cmpuint (komi_score_graph_get_n_steps (graph), ==, a->moves->len + 1);
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (graph));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && drag == NULL; i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_DRAG (c))
        drag = GTK_GESTURE (c);
    }
  g_assert_nonnull (drag);
  g_signal_emit_by_name (drag, "drag-begin",
                         komi_score_graph_step_x (graph, BLUNDER_TURN) + 0.4, 20.0);
  g_assert_cmpuint (picked, ==, BLUNDER_TURN);
  komi_series_page_get_replay (page, &step);
  g_assert_cmpuint (step, ==, BLUNDER_TURN);
  g_assert_cmpuint (komi_score_graph_get_step (graph), ==, BLUNDER_TURN);
  /* The keyboard: Right is one position on, End the last. */
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      gboolean handled = FALSE;

      if (!GTK_IS_EVENT_CONTROLLER_KEY (c))
        continue;
      g_signal_emit_by_name (c, "key-pressed", GDK_KEY_Right, 0, 0, &handled);
      g_assert_true (handled);
      g_assert_cmpuint (picked, ==, BLUNDER_TURN + 1);
      g_signal_emit_by_name (c, "key-pressed", GDK_KEY_End, 0, 0, &handled);
      g_assert_cmpuint (picked, ==, a->moves->len);
      g_signal_emit_by_name (c, "key-pressed", GDK_KEY_Left, 0, 0, &handled);
      g_assert_cmpuint (picked, ==, a->moves->len - 1);
      komi_series_page_get_replay (page, &step);
      g_assert_cmpuint (step, ==, a->moves->len - 1);
      picked = G_MAXUINT;
    }
  g_assert_cmpuint (picked, ==, G_MAXUINT);   /* the key controller was there */
  g_signal_emit_by_name (drag, "drag-begin",
                         komi_score_graph_step_x (graph, BLUNDER_TURN) + 0.4, 20.0);
  g_assert_cmpuint (komi_score_graph_step_at (graph, komi_score_graph_step_x (graph, 3)), ==, 3);
  /* The page's own stepping moves the graph's line. */
  gtk_widget_activate_action (GTK_WIDGET (page), "review.previous-move", NULL);
  g_assert_cmpuint (komi_score_graph_get_step (graph), ==, BLUNDER_TURN - 1);

  /* Thresholds: above every loss, nothing; low, more than before. */
  gtk_spin_button_set_value (blunder, 99);
  gtk_spin_button_set_value (mistake, 98);
  strict = list_text (panel);
  g_assert_null (strstr (strict, "Move 27"));
  g_assert_nonnull (strstr (strict, "No mistake by the subject"));
  gtk_spin_button_set_value (mistake, 0.5);
  gtk_spin_button_set_value (blunder, 6);
  loose = list_text (panel);
  g_assert_nonnull (strstr (loose, "Move 27 B5"));
  g_assert_cmpuint (strlen (loose), >=, strlen (text));
  {
    g_autoptr(GSettings) settings = komi_settings_new ();

    /* Kept in the settings. */
    if (settings != NULL)
      g_assert_cmpfloat (g_settings_get_double (settings, "mistake-threshold"), ==, 0.5);
    if (settings != NULL)
      g_settings_reset (settings, "mistake-threshold");
  }

  /* Export: the file komi's SGF reader reads back to the same moves, with
   * the blunder marked and Sabaki's score leads. */
  {
    g_autofree char *out = g_build_filename (f->dir, "game.sgf", NULL);
    g_autofree char *sgf = NULL;
    g_autoptr(KomiSgfRecord) record = NULL;
    g_autoptr(GError) error = NULL;
    gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

    _komi_window_export_game_to (f->window, f->game_ids[0], out);
    while (!g_file_test (out, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, FALSE);
    g_assert_true (g_file_get_contents (out, &sgf, NULL, &error));
    g_assert_nonnull (strstr (sgf, "BM[2]"));
    g_assert_nonnull (strstr (sgf, "SBKS["));
    g_assert_nonnull (strstr (sgf, "best was D5"));
    record = komi_sgf_record_load (out, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (record->moves->len, ==, a->moves->len);
    for (guint i = 0; i < a->moves->len; i++)
      g_assert_cmpint (g_array_index (record->moves, KomiMove, i).point, ==,
                       g_array_index (a->moves, KomiStoreAnalysisMove, i).point);
    /* The toast says the folder in full and offers it (issue 30). */
    g_assert_true (app_test_wait (export_toast, f));
  }
}

/* The export's toast: the file, its folder in full, and Open Folder. */
static gboolean
export_toast (gpointer data)
{
  Fixture *f = data;
  g_autofree char *said = g_strdup_printf ("game.sgf in %s", f->dir);

  return shows_text (GTK_WIDGET (f->window), said)
         && shows_text (GTK_WIDGET (f->window), "Open Folder");
}

static void
on_finished (KomiAnalysisJob *job, const GError *error, gboolean *done)
{
  g_assert_null (error);
  *done = TRUE;
}

static gboolean
is_true (gpointer flag)
{
  return *(gboolean *) flag;
}

static gboolean
job_has_total (gpointer job)
{
  return komi_analysis_job_get_total (job) > 0;
}

/* A series analysis cancelled while its first game is under way: nothing
 * of it is stored. */
static void
test_cancel_series (Fixture *f, gconstpointer data)
{
  g_autoptr(KomiAnalysisJob) job = komi_analysis_job_new_for_series (f->path, f->series_id);
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GError) error = NULL;
  gboolean done = FALSE;

  g_signal_connect (job, "finished", G_CALLBACK (on_finished), &done);
  komi_analysis_job_start (job);
  g_assert_true (komi_analysis_job_get_running (job));
  /* The workers report the total as they begin the first game. */
  g_assert_true (app_test_wait (job_has_total, job));
  g_assert_cmpuint (komi_analysis_job_get_total (job), ==, 2);
  komi_analysis_job_cancel (job);
  g_assert_true (app_test_wait (is_true, &done));
  g_assert_true (komi_analysis_job_get_cancelled (job));
  g_assert_false (komi_analysis_job_get_running (job));

  store = komi_store_open_reader (f->path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(KomiStoreAnalysis) a = komi_store_load_analysis (store, f->game_ids[i], &error);

      g_assert_no_error (error);
      /* None, or a whole one (a fast machine may finish a game). */
      if (a != NULL)
        g_assert_cmpuint (a->moves->len, ==, TEST_BLUNDER_TURNS);
      else
        g_test_message ("game %u: no analysis stored", i);
    }
}

static void
on_failed (KomiAnalysisJob *job, const GError *error, char **message)
{
  g_assert_nonnull (error);
  *message = g_strdup (error->message);
}

static gboolean
is_set (gpointer message)
{
  return *(char **) message != NULL;
}

/* KataGo named but missing: the job fails at once, from the main loop,
 * with a reason, and the panel shows it. */
static void
test_missing_engine (Fixture *f, gconstpointer data)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(KomiAnalysisJob) job = NULL;
  g_autofree char *message = NULL;
  KomiAnalysisPanel *panel;
  GtkLabel *status;

  g_setenv ("KOMI_KATAGO", "/nonexistent/katago", TRUE);
  g_array_append_val (ids, f->game_ids[0]);
  job = komi_analysis_job_new (f->path, ids);
  g_signal_connect (job, "finished", G_CALLBACK (on_failed), &message);
  komi_analysis_job_start (job);
  g_assert_null (message);
  g_assert_true (app_test_wait (is_set, &message));
  g_test_message ("%s", message);
  g_assert_false (komi_analysis_job_get_running (job));

  panel = show_game (f, 0);
  status = GTK_LABEL (app_test_child (panel, KOMI_TYPE_ANALYSIS_PANEL, "status_label"));
  gtk_widget_activate_action (GTK_WIDGET (panel), "analysis.analyse", NULL);
  g_assert_true (app_test_wait (panel_ready, panel));
  g_assert_cmpstr (gtk_label_get_text (status), ==, message);
  g_unsetenv ("KOMI_KATAGO");
}

static gboolean
shows_text (GtkWidget *widget, const char *needle)
{
  g_autoptr(GString) text = g_string_new (NULL);

  collect_text (widget, text);
  return strstr (text->str, needle) != NULL;
}

static gboolean
game_loaded (gpointer window)
{
  return komi_series_page_get_replay (komi_window_get_series_page (window), NULL) != NULL;
}

static gboolean
no_handler_toast (gpointer window)
{
  return shows_text (window, "No application to open SGF files is set up");
}

/* XDG_DATA_DIRS and XDG_DATA_HOME point at an empty folder (see main):
 * no application handles SGF, so the toast says so and where the file is. */
static void
test_sabaki_no_handler (Fixture *f, gconstpointer data)
{
  g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "komi", "sgf", NULL);

  /* The game shown on the series page, as the menus open it (with none
   * shown the item is greyed out). */
  g_assert_true (komi_series_page_select (komi_window_get_series_page (f->window), 0, 1));
  g_assert_true (app_test_wait (game_loaded, f->window));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open-in-sabaki", "x", (gint64) 0);
  g_assert_true (app_test_wait (no_handler_toast, f->window));
  g_assert_true (shows_text (GTK_WIDGET (f->window), cache));
}

/* A made-up analysis (Black's lead per position): Black ahead, a mistake
 * at move 3 (7 to 2), a blunder at move 7 (4 to -5), both Black's, and a
 * mistake of White's at move 10 (-7 to -3). */
static void
test_graph_reference (void)
{
  static const double leads[] = { 6, 5, 7, 2, 3, 3, 4, -5, -5, -7, -3, -4 };
  g_autoptr(KomiStoreAnalysis) a = komi_store_analysis_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *graph = komi_score_graph_new ();
  g_autofree char *path = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests",
                                            "board-references", "score-graph-light.png", NULL);
  cairo_surface_t *s, *reference;
  double whole, tile;

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_LIGHT);
  a->label = g_strdup ("GNU Go estimate");
  for (guint i = 0; i + 1 < G_N_ELEMENTS (leads); i++)
    {
      KomiColor color = i % 2 == 0 ? KOMI_BLACK : KOMI_WHITE;
      double sign = color == KOMI_BLACK ? 1 : -1;
      KomiStoreAnalysisMove m = {
        .turn = i + 1, .color = color, .point = (KomiPoint) (20 + i),
        .lead_before = sign * leads[i], .lead_after = sign * leads[i + 1],
        .best = KOMI_PASS,
      };

      m.loss = MAX (0, m.lead_before - m.lead_after);
      g_array_append_val (a->moves, m);
    }
  /* Both sides' moves classified: White's mistake at move 10 as well. */
  komi_score_graph_set_analysis (KOMI_SCORE_GRAPH (graph), a, 3, 6, KOMI_EMPTY);
  g_assert_cmpuint (komi_score_graph_count_marks (KOMI_SCORE_GRAPH (graph),
                                                  KOMI_MOVE_CLASS_MISTAKE), ==, 2);
  /* The subject's (Black's) only, as the list beside shows them. */
  komi_score_graph_set_analysis (KOMI_SCORE_GRAPH (graph), a, 3, 6, KOMI_BLACK);
  g_assert_cmpuint (komi_score_graph_count_marks (KOMI_SCORE_GRAPH (graph),
                                                  KOMI_MOVE_CLASS_MISTAKE), ==, 1);
  g_assert_cmpuint (komi_score_graph_count_marks (KOMI_SCORE_GRAPH (graph),
                                                  KOMI_MOVE_CLASS_BLUNDER), ==, 1);
  /* The edges' lead, labelled B+10 and W+10: the largest, 7, rounded up. */
  g_assert_cmpfloat (komi_score_graph_get_scale (KOMI_SCORE_GRAPH (graph)), ==, 10);
  komi_score_graph_set_step (KOMI_SCORE_GRAPH (graph), 4);
  gtk_widget_set_size_request (graph, 300, 90);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, graph));
  s = app_test_render (graph);
  if (g_getenv ("KOMI_UPDATE_REFERENCES") != NULL)
    g_assert_cmpint (cairo_surface_write_to_png (s, path), ==, CAIRO_STATUS_SUCCESS);
  reference = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (reference), ==, CAIRO_STATUS_SUCCESS);
  app_test_compare (s, reference, 8, &whole, &tile);
  if (whole > 0.002 || tile > 0.05)
    g_error ("the score graph differs from %s in %.2f%% of pixels", path, 100 * whole);
  /* Dark: another drawing of the same. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  {
    cairo_surface_t *dark = app_test_render (graph);

    app_test_compare (dark, reference, 8, &whole, &tile);
    g_assert_cmpfloat (whole, >, 0.01);
    cairo_surface_destroy (dark);
  }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);
  cairo_surface_destroy (reference);
  cairo_surface_destroy (s);
  gtk_window_destroy (GTK_WINDOW (window));
}

static const char * const kept[] = { "glib-2.0", "mime", "icons" };

int
main (int argc, char *argv[])
{
  g_autofree char *empty = g_dir_make_tmp ("komi-no-apps-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (empty, "cache", NULL);

  /* No application: Open in Sabaki finds no handler for an SGF file. The
   * settings schemas, the MIME database and the icons stay (GTK needs
   * them), as links. The cache is the test's own. */
  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    {
      g_autofree char *from = g_build_filename ("/usr/share", kept[i], NULL);
      g_autofree char *to = g_build_filename (empty, kept[i], NULL);

      if (g_file_test (from, G_FILE_TEST_IS_DIR))
        g_assert_cmpint (symlink (from, to), ==, 0);
    }
  g_setenv ("XDG_DATA_DIRS", empty, TRUE);
  g_setenv ("XDG_DATA_HOME", empty, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  app_test_katago_keep ();
  g_unsetenv ("KOMI_KATAGO");
  app_test_init (&argc, &argv);
  /* GNU Go plays the positions out at level 0 rather than the users'
   * default 5, and KataGo searches 25 visits rather than 100: move 27
   * loses 8 points with D5 best at both (test-review.c, komi-cli analyse),
   * in a quarter of the time. */
  {
    g_autoptr(GSettings) settings = komi_settings_new ();

    if (settings != NULL)
      {
        g_settings_set_int (settings, "analysis-level", 0);
        g_settings_set_int (settings, "analysis-visits", 25);
      }
  }
  g_test_add_func ("/komi/app/analysis/graph-reference", test_graph_reference);
  g_test_add ("/komi/app/analysis/panel-katago", Fixture, NULL, fixture_set_up,
              test_panel_katago, fixture_tear_down);
  g_test_add ("/komi/app/analysis/panel-blunder", Fixture, NULL, fixture_set_up,
              test_panel_blunder, fixture_tear_down);
  g_test_add ("/komi/app/analysis/cancel-series", Fixture, NULL, fixture_set_up,
              test_cancel_series, fixture_tear_down);
  g_test_add ("/komi/app/analysis/missing-engine", Fixture, NULL, fixture_set_up,
              test_missing_engine, fixture_tear_down);
  g_test_add ("/komi/app/analysis/sabaki-no-handler", Fixture, NULL, fixture_set_up,
              test_sabaki_no_handler, fixture_tear_down);
  {
    int status = g_test_run ();

    /* The links, not what they point at. */
    for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
      {
        g_autofree char *link = g_build_filename (empty, kept[i], NULL);

        g_unlink (link);
      }
    remove_test_dir (cache);
    remove_test_dir (empty);
    return status;
  }
}
