/* komi-analysis-panel.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-analysis-panel-private.h"
#include "komi-coords.h"
#include "komi-orientation.h"
#include "komi-score-graph.h"
#include "komi-settings.h"
#include "komi-ui-util.h"


G_DEFINE_FINAL_TYPE (KomiAnalysisPanel, komi_analysis_panel, ADW_TYPE_BIN)

enum {
  STEP_ACTIVATED,
  ANALYSIS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

KomiAnalysisPanel *
komi_analysis_panel_new (void)
{
  return g_object_new (KOMI_TYPE_ANALYSIS_PANEL, NULL);
}

static double
mistake_threshold (KomiAnalysisPanel *self)
{
  return gtk_spin_button_get_value (self->mistake_spin);
}

static double
blunder_threshold (KomiAnalysisPanel *self)
{
  return MAX (mistake_threshold (self), gtk_spin_button_get_value (self->blunder_spin));
}

static void
update_actions (KomiAnalysisPanel *self)
{
  gboolean running = self->job != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "analysis.analyse",
                                 !running && self->game != NULL && self->game->moves->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "analysis.analyse-series",
                                 !running && self->game != NULL && self->game->series_id > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "analysis.cancel", running);
  gtk_widget_set_visible (self->progress_box, running);
  /* The engine of a running review is the one it started with. */
  gtk_widget_set_sensitive (self->engine_box, !running);
}

static void
update_status (KomiAnalysisPanel *self)
{
  g_autofree char *text = NULL;

  if (self->message != NULL)
    text = g_strdup (self->message);
  else if (self->game == NULL)
    text = g_strdup ("");
  else if (self->analysis == NULL)
    text = g_strdup (self->game->moves->len == 0 ? _("No moves to analyse")
                                                 : _("Not analysed yet"));
  else
    /* TRANSLATORS: "GNU Go estimate (GNU Go 3.8), 39 s; Black leads above the line" */
    text = g_strdup_printf (_("%s (%s %s), %.0f s; Black leads above the line"),
                            self->analysis->label, self->analysis->engine,
                            self->analysis->engine_version != NULL
                            ? self->analysis->engine_version : "",
                            self->analysis->seconds);
  gtk_label_set_text (self->status_label, text);
}

/* "Move 23 D5: lost 7.5 points, best was C3 (GNU Go estimate)", the
 * points named on the board beside the panel (turned as it is). */
static char *
describe_move (KomiAnalysisPanel *self, const KomiStoreAnalysisMove *m)
{
  guint size = self->game->size;
  char point[KOMI_NAME_LEN + 1], best[KOMI_NAME_LEN + 1];

  komi_point_to_name (size, m->point < 0 ? m->point
                      : komi_orientation_apply (self->orientation, size, m->point), point);
  if (m->best == KOMI_NO_POINT)
    return g_strdup_printf (_("Move %u %s: lost %.1f points, best was to resign (%s)"),
                            m->turn, point, m->loss, self->analysis->label);
  komi_point_to_name (size, m->best < 0 ? m->best
                      : komi_orientation_apply (self->orientation, size, m->best), best);
  return g_strdup_printf (_("Move %u %s: lost %.1f points, best was %s (%s)"), m->turn,
                          point, m->loss, best, self->analysis->label);
}

/* The subject's mistakes and blunders (both sides' in an imported game),
 * under the thresholds set now. */
static void
fill_list (KomiAnalysisPanel *self)
{
  GtkWidget *child;
  KomiStoreAnalysis thresholds;
  guint n = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->moves_list))) != NULL)
    gtk_list_box_remove (self->moves_list, child);
  komi_score_graph_set_analysis (self->graph, self->analysis, mistake_threshold (self),
                                 blunder_threshold (self),
                                 self->game != NULL ? self->game->subject : KOMI_EMPTY);
  if (self->analysis == NULL || self->game == NULL)
    return;
  thresholds = *self->analysis;
  thresholds.mistake = mistake_threshold (self);
  thresholds.blunder = blunder_threshold (self);
  for (guint i = 0; i < self->analysis->moves->len; i++)
    {
      const KomiStoreAnalysisMove *m = &g_array_index (self->analysis->moves,
                                                       KomiStoreAnalysisMove, i);
      KomiMoveClass c = komi_store_analysis_classify (&thresholds, m);
      g_autofree char *text = NULL;
      GtkWidget *row, *box, *tag, *label;

      if (c == KOMI_MOVE_CLASS_GOOD
          || (self->game->subject != KOMI_EMPTY && m->color != self->game->subject))
        continue;
      text = describe_move (self, m);
      box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      tag = gtk_label_new (c == KOMI_MOVE_CLASS_BLUNDER ? _("Blunder") : _("Mistake"));
      gtk_widget_add_css_class (tag, c == KOMI_MOVE_CLASS_BLUNDER ? "error" : "warning");
      gtk_widget_add_css_class (tag, "caption-heading");
      gtk_widget_set_valign (tag, GTK_ALIGN_START);
      label = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), tag);
      gtk_box_append (GTK_BOX (box), label);
      gtk_widget_set_margin_top (box, 3);
      gtk_widget_set_margin_bottom (box, 3);
      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data (G_OBJECT (row), "komi-turn", GUINT_TO_POINTER (m->turn));
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      text, -1);
      gtk_list_box_append (self->moves_list, row);
      n++;
    }
  if (n == 0)
    {
      GtkWidget *none = gtk_label_new (self->game->subject != KOMI_EMPTY
                                       ? _("No mistake by the subject")
                                       : _("No mistake"));

      gtk_widget_add_css_class (none, "dim-label");
      gtk_widget_add_css_class (none, "caption");
      gtk_widget_set_margin_top (none, 6);
      gtk_list_box_append (self->moves_list, none);
      gtk_list_box_row_set_activatable (
        GTK_LIST_BOX_ROW (gtk_widget_get_parent (none)), FALSE);
    }
}

gboolean
komi_analysis_panel_lists_turn (KomiAnalysisPanel *self,
                                guint              turn)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_PANEL (self), FALSE);

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->moves_list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    if (turn > 0 && GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "komi-turn")) == turn)
      return TRUE;
  return FALSE;
}

static void
on_row_activated (KomiAnalysisPanel *self, GtkListBoxRow *row)
{
  guint turn = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "komi-turn"));

  if (turn == 0)
    return;
  komi_analysis_panel_set_step (self, turn);
  g_signal_emit (self, signals[STEP_ACTIVATED], 0, turn);
}

static void
on_graph_step (KomiAnalysisPanel *self, guint step)
{
  self->step = step;
  g_signal_emit (self, signals[STEP_ACTIVATED], 0, step);
}

/* Reading a game and its analysis, off the main thread. */

typedef struct
{
  KomiStoreGame     *game;
  KomiStoreAnalysis *analysis;
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_clear_pointer (&loaded->game, komi_store_game_free);
  g_clear_pointer (&loaded->analysis, komi_store_analysis_free);
  g_free (loaded);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(KomiStore) store = NULL;
  Loaded *loaded = g_new0 (Loaded, 1);
  GError *error = NULL;
  gint64 id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (task), "komi-game"));

  if ((store = komi_store_open_reader (path, &error)) == NULL
      || (loaded->game = komi_store_load_game (store, id, &error)) == NULL
      || ((loaded->analysis = komi_store_load_analysis (store, id, &error)) == NULL
          && error != NULL))
    {
      loaded_free (loaded);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, loaded, (GDestroyNotify) loaded_free);
}

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(GError) error = NULL;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), &error);
  KomiAnalysisPanel *self;

  if (loaded == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = KOMI_ANALYSIS_PANEL (source);
  g_clear_pointer (&self->game, komi_store_game_free);
  g_clear_pointer (&self->analysis, komi_store_analysis_free);
  if (loaded != NULL)
    {
      self->game = g_steal_pointer (&loaded->game);
      self->analysis = g_steal_pointer (&loaded->analysis);
      loaded_free (loaded);
    }
  else
    {
      g_free (self->message);
      self->message = g_strdup (error->message);
    }
  fill_list (self);
  komi_score_graph_set_step (self->graph, self->step);
  update_status (self);
  g_signal_emit (self, signals[ANALYSIS_CHANGED], 0);
  update_actions (self);
}

static void
load (KomiAnalysisPanel *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->library == NULL || self->game_id <= 0)
    return;
  self->load_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->load_cancellable, on_loaded, NULL);
  g_task_set_source_tag (task, load);
  g_task_set_task_data (task, g_strdup (komi_library_get_path (self->library)), g_free);
  g_object_set_data (G_OBJECT (task), "komi-game", GSIZE_TO_POINTER (self->game_id));
  g_task_run_in_thread (task, load_thread);
}

void
komi_analysis_panel_set_game (KomiAnalysisPanel *self,
                              KomiLibrary       *library,
                              gint64             game_id)
{
  g_return_if_fail (KOMI_IS_ANALYSIS_PANEL (self));
  g_return_if_fail (library == NULL || KOMI_IS_LIBRARY (library));

  if (self->library == library && self->game_id == game_id)
    return;
  g_set_object (&self->library, library);
  self->game_id = library != NULL ? game_id : 0;
  g_clear_pointer (&self->game, komi_store_game_free);
  g_clear_pointer (&self->analysis, komi_store_analysis_free);
  if (self->job == NULL)
    g_clear_pointer (&self->message, g_free);
  fill_list (self);
  update_status (self);
  update_actions (self);
  load (self);
}

void
komi_analysis_panel_set_step (KomiAnalysisPanel *self,
                              guint              step)
{
  g_return_if_fail (KOMI_IS_ANALYSIS_PANEL (self));

  self->step = step;
  komi_score_graph_set_step (self->graph, step);
}

void
komi_analysis_panel_set_orientation (KomiAnalysisPanel *self,
                                     KomiOrientation    orientation)
{
  g_return_if_fail (KOMI_IS_ANALYSIS_PANEL (self));
  g_return_if_fail (orientation < KOMI_N_ORIENTATIONS);

  if (orientation == self->orientation)
    return;
  self->orientation = orientation;
  fill_list (self);
}

KomiAnalysisJob *
komi_analysis_panel_get_job (KomiAnalysisPanel *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_PANEL (self), NULL);
  return self->job;
}

const KomiStoreAnalysis *
komi_analysis_panel_get_analysis (KomiAnalysisPanel *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_PANEL (self), NULL);
  return self->analysis;
}

/* Analysing */

static void
on_job_progress (KomiAnalysisPanel *self)
{
  guint done = komi_analysis_job_get_done (self->job);
  guint total = komi_analysis_job_get_total (self->job);
  gboolean games = komi_analysis_job_get_series_id (self->job) > 0;
  g_autofree char *text = NULL;

  if (total == 0)
    text = g_strdup (_("Starting the engine…"));
  else if (games)
    text = g_strdup_printf (_("%u of %u games"), done, total);
  else
    text = g_strdup_printf (_("%u of %u positions"), done, total);
  gtk_progress_bar_set_text (self->progress_bar, text);
  gtk_progress_bar_set_fraction (self->progress_bar, total > 0 ? (double) done / total : 0);
}

static void
on_job_finished (KomiAnalysisPanel *self, const GError *error, KomiAnalysisJob *job)
{
  g_free (self->message);
  self->message = error != NULL ? g_strdup (error->message)
                  : komi_analysis_job_get_cancelled (job)
                  ? g_strdup (_("Analysis cancelled; nothing half done was kept")) : NULL;
  g_signal_group_set_target (self->job_signals, NULL);
  g_clear_object (&self->job);
  update_actions (self);
  update_status (self);
  /* Read again whatever was stored meanwhile. */
  load (self);
}

static void
start_job (KomiAnalysisPanel *self, KomiAnalysisJob *job)
{
  g_autofree char *engine = _komi_analysis_panel_engine_spec (self);

  self->job = job;
  g_clear_pointer (&self->message, g_free);
  komi_analysis_job_set_engine (job, engine);
  komi_analysis_job_set_thresholds (job, mistake_threshold (self), blunder_threshold (self));
  g_signal_group_set_target (self->job_signals, job);
  komi_analysis_job_start (job);
  on_job_progress (self);
  update_actions (self);
  update_status (self);
}

static void
analysis_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  KomiAnalysisPanel *self = KOMI_ANALYSIS_PANEL (widget);
  g_autofree char *problem = NULL;
  const char *path;

  if (g_str_equal (action_name, "analysis.cancel"))
    {
      if (self->job != NULL)
        komi_analysis_job_cancel (self->job);
      return;
    }
  if (self->job != NULL || self->game == NULL || self->library == NULL)
    return;
  problem = _komi_analysis_panel_engine_problem (self);
  if (problem != NULL)
    {
      g_free (self->message);
      self->message = g_steal_pointer (&problem);
      update_status (self);
      return;
    }
  path = komi_library_get_path (self->library);
  if (g_str_equal (action_name, "analysis.analyse-series") && self->game->series_id > 0)
    {
      KomiAnalysisJob *job = komi_analysis_job_new_for_series (path, self->game->series_id);

      /* Two engines at once, as the jobs of a series default to. */
      komi_analysis_job_set_jobs (job, MIN (2, g_get_num_processors ()));
      start_job (self, job);
    }
  else if (g_str_equal (action_name, "analysis.analyse") && self->game->moves->len > 0)
    {
      g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));

      g_array_append_val (ids, self->game->id);
      start_job (self, komi_analysis_job_new (path, ids));
    }
}

static void
on_threshold_changed (KomiAnalysisPanel *self)
{
  fill_list (self);
}

static void
komi_analysis_panel_dispose (GObject *object)
{
  KomiAnalysisPanel *self = KOMI_ANALYSIS_PANEL (object);

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  /* A job lives on in its task until its engines stop; nothing is told
   * to this panel any more. */
  g_clear_object (&self->job_signals);
  if (self->job != NULL)
    {
      komi_analysis_job_cancel (self->job);
      g_clear_object (&self->job);
    }
  g_clear_object (&self->library);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->game, komi_store_game_free);
  g_clear_pointer (&self->analysis, komi_store_analysis_free);
  g_clear_pointer (&self->message, g_free);
  G_OBJECT_CLASS (komi_analysis_panel_parent_class)->dispose (object);
}

static void
komi_analysis_panel_class_init (KomiAnalysisPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_analysis_panel_dispose;

  /* The user picked position @step (after move @step) in the graph or the list. */
  signals[STEP_ACTIVATED] = g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, G_TYPE_UINT);
  /* The analysis shown was read (after set_game, or an Analyse that ended). */
  signals[ANALYSIS_CHANGED] = g_signal_new ("analysis-changed", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);

  g_type_ensure (KOMI_TYPE_SCORE_GRAPH);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-analysis-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, status_label);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, mistake_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, blunder_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel,
                                        threshold_refusal_label);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, analyse_button);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, progress_box);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, graph);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, moves_list);
  _komi_analysis_panel_class_init_engine (widget_class);

  gtk_widget_class_install_action (widget_class, "analysis.analyse", NULL, analysis_activated);
  gtk_widget_class_install_action (widget_class, "analysis.analyse-series", NULL,
                                   analysis_activated);
  gtk_widget_class_install_action (widget_class, "analysis.cancel", NULL, analysis_activated);
}

static void
komi_analysis_panel_init (KomiAnalysisPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->job_signals = g_signal_group_new (KOMI_TYPE_ANALYSIS_JOB);
  g_signal_group_connect_swapped (self->job_signals, "notify::done",
                                  G_CALLBACK (on_job_progress), self);
  g_signal_group_connect_swapped (self->job_signals, "notify::total",
                                  G_CALLBACK (on_job_progress), self);
  g_signal_group_connect_swapped (self->job_signals, "finished",
                                  G_CALLBACK (on_job_finished), self);

  self->settings = komi_settings_new ();
  if (self->settings != NULL)
    {
      g_settings_bind (self->settings, "mistake-threshold",
                       gtk_spin_button_get_adjustment (self->mistake_spin), "value",
                       G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "blunder-threshold",
                       gtk_spin_button_get_adjustment (self->blunder_spin), "value",
                       G_SETTINGS_BIND_DEFAULT);
    }
  /* A threshold out of range is refused with the range, under the two
   * (as Preferences' same thresholds are), not clamped: 500 is not 100. */
  komi_spin_button_refuse_out_of_range (self->mistake_spin, _("Mistake"),
                                        GTK_WIDGET (self->threshold_refusal_label));
  komi_spin_button_refuse_out_of_range (self->blunder_spin, _("Blunder"),
                                        GTK_WIDGET (self->threshold_refusal_label));
  _komi_analysis_panel_init_engine (self);
  g_signal_connect_swapped (self->mistake_spin, "value-changed",
                            G_CALLBACK (on_threshold_changed), self);
  g_signal_connect_swapped (self->blunder_spin, "value-changed",
                            G_CALLBACK (on_threshold_changed), self);
  g_signal_connect_swapped (self->graph, "step-activated", G_CALLBACK (on_graph_step), self);
  g_signal_connect_swapped (self->moves_list, "row-activated",
                            G_CALLBACK (on_row_activated), self);
  update_actions (self);
}
