/* komi-window-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-games-page.h"
#include "komi-ladder-page.h"
#include "komi-players-page.h"
#include "komi-series-job.h"
#include "komi-series-page.h"
#include "komi-window.h"

G_BEGIN_DECLS

struct _KomiWindow
{
  AdwApplicationWindow  parent_instance;

  KomiLibrary          *library;
  GSignalGroup         *library_signals;  /* the window's handlers on the library */
  gboolean              toast_on_load;   /* the user asked for this read */
  AdwToast             *reload_toast;    /* "Library reloaded" while it shows */

  AdwLeaflet           *leaflet;
  GtkListBox           *sidebar;
  GtkListBoxRow        *series_row;
  AdwWindowTitle       *content_title;
  AdwToastOverlay      *toast_overlay;
  GtkStack             *state_stack;
  AdwStatusPage        *problem_page;
  GtkStack             *page_stack;
  KomiSeriesPage       *series_page;
  KomiPlayersPage      *players_page;
  KomiLadderPage       *ladder_page;
  KomiGamesPage        *games_page;

  /* komi-window-run.c */
  KomiSeriesJob        *job;             /* the series running, or the last one run */
  GSignalGroup         *job_signals;     /* the window's handlers on the job */
  gboolean              close_after_stop;
  gboolean              quit_after_stop;   /* app.quit goes on once it closed */
  GCancellable         *demo_prepare;    /* the demo's server and profile, being readied */
  GCancellable         *keys_prepare;    /* a series' API keys, being looked up */
  GtkRevealer          *run_revealer;
  GtkBox               *run_bar;
  GtkBox               *run_buttons;
  GtkBox               *sidebar_box;     /* the run bar's place beside the page */
  GtkBox               *content_box;     /* its place over the page, folded */
  GtkLabel             *run_label;
  GtkProgressBar       *run_progress;
  gboolean              interrupted_offered;  /* this library's dead run was offered */
  GtkButton            *pause_button;
  gint64                followed_series; /* the run's series, once shown */
  GtkWidget            *error_dialog;    /* the last run's message, while it shows */
};


/* komi-window-run.c: running a series from the window. */
void     _komi_window_class_init_run (GtkWidgetClass *widget_class);
void     _komi_window_init_run       (KomiWindow     *self);
void     _komi_window_dispose_run    (KomiWindow     *self);
void     _komi_window_update_run_actions (KomiWindow *self);
/* Once per library opened: offers to continue a run that died. */
void     _komi_window_offer_interrupted (KomiWindow  *self);
/* A run is going, or about to start (komi-window-run.c). */
gboolean _komi_window_run_busy          (KomiWindow  *self);

/* komi-window-publish.c: Publish… (the static web site). */
void     _komi_window_class_init_publish (GtkWidgetClass *widget_class);
/* Publishes series @ids (none: every series) into @folder, as the dialog
 * does once a folder is chosen; returns the progress dialog (for tests). */
AdwMessageDialog *_komi_window_publish_to (KomiWindow     *self,
                                           const gint64   *ids,
                                           guint           n_ids,
                                           const char     *folder);

/* komi-window-export.c: SGF, call log, Open in Sabaki. */
void     _komi_window_class_init_export (GtkWidgetClass *widget_class);
void     _komi_window_init_export       (KomiWindow     *self);
/* Exports game @game_id as SGF to @path, as the chooser does (for tests). */
/* A selection of games as SGF files in @folder, as win.export-games
 * writes them once a folder is chosen (for tests). */
void     _komi_window_export_games_to   (KomiWindow     *self,
                                         const gint64   *ids,
                                         guint           n_ids,
                                         const char     *folder);
void     _komi_window_export_game_to    (KomiWindow     *self,
                                         gint64          game_id,
                                         const char     *path);

G_END_DECLS
