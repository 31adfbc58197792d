/* komi-analysis-panel-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-analysis-panel.h"
#include "komi-score-graph.h"

G_BEGIN_DECLS

struct _KomiAnalysisPanel
{
  AdwBin             parent_instance;

  KomiLibrary       *library;
  gint64             game_id;
  GCancellable      *load_cancellable;
  KomiStoreGame     *game;          /* with moves; NULL until read */
  KomiStoreAnalysis *analysis;      /* NULL: none stored */
  KomiAnalysisJob   *job;           /* running from this panel */
  GSignalGroup      *job_signals;   /* the panel's handlers on it */
  char              *message;       /* how the last analysis ended, when it did not */
  GSettings         *settings;      /* NULL without the schema: the spin buttons alone */
  guint              step;
  KomiOrientation    orientation;   /* of the board beside the panel */

  GtkLabel          *status_label;
  GtkSpinButton     *mistake_spin;
  GtkSpinButton     *blunder_spin;
  GtkLabel          *threshold_refusal_label;   /* a threshold out of range, and the range */
  GtkWidget         *analyse_button;
  GtkWidget         *engine_box;    /* the engine chosen in the window, and its strength */
  GtkDropDown       *engine_drop;
  GtkSpinButton     *visits_spin;
  GtkWidget         *visits_label;
  GtkSpinButton     *level_spin;
  GtkLabel          *refusal_label;   /* a level or visits out of range, and the range */
  GtkWidget         *level_label;
  GtkWidget         *progress_box;
  GtkProgressBar    *progress_bar;
  KomiScoreGraph    *graph;
  GtkListBox        *moves_list;
};

/* komi-analysis-panel-engine.c: the engine the panel analyses with, as the
 * user chose it in the panel (kept in the settings). */
void  _komi_analysis_panel_class_init_engine (GtkWidgetClass    *widget_class);
void  _komi_analysis_panel_init_engine       (KomiAnalysisPanel *self);
/* "katago:VISITS" or "gnugo:LEVEL", as komi-cli analyse --engine takes it. */
char *_komi_analysis_panel_engine_spec       (KomiAnalysisPanel *self);
/* Why the engine chosen cannot analyse (KataGo chosen, not set up), or NULL. */
char *_komi_analysis_panel_engine_problem    (KomiAnalysisPanel *self);

G_END_DECLS
