/* komi-series-job.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-player-spec.h"

G_BEGIN_DECLS

#define KOMI_TYPE_SERIES_JOB (komi_series_job_get_type ())
G_DECLARE_FINAL_TYPE (KomiSeriesJob, komi_series_job, KOMI, SERIES_JOB, GObject)

/* One run of a series from the window: the definition is read, the library
 * opened for writing and the games played by the series runner, all on a
 * worker thread; progress reaches the main thread as property changes, and
 * the run's every event (game started, move played, call answered, game
 * finished, run paused, resumed, stopped: a KomiLiveEvent, see
 * komi-live-run.h) as the one "event" signal, in order, each once the
 * library has it (a call's answer the moment it arrives: the library
 * commits it with the game's next write); "finished" says how it ended.
 * Stopping keeps every committed move: running the same definition again
 * continues. */

/* A series definition file, or the definition recorded in the library. */
KomiSeriesJob *komi_series_job_new_for_file       (const char     *library_path,
                                                   const char     *definition_path);
KomiSeriesJob *komi_series_job_new_for_definition (const char     *library_path,
                                                   const char     *definition);
/* Where the engines live when the definition does not say (the window's
 * settings; copied, NULL or "" fields leave the environment's); before
 * the start. */
void           komi_series_job_set_engines        (KomiSeriesJob           *self,
                                                   const KomiPlayerOptions *engines);
/* The engine paths it runs with: the gnugo, KataGo binary, model and
 * config (index 0–3) given by komi_series_job_set_engines(), or NULL. */
const char    *komi_series_job_get_engine_path    (KomiSeriesJob           *self,
                                                   guint                    index);
void           komi_series_job_start              (KomiSeriesJob  *self);
/* Asks the games in flight to stop; "finished" follows. Works paused too. */
void           komi_series_job_stop               (KomiSeriesJob  *self);
/* Holds the games between moves (engines kept up, no game started) or
 * lets them go on; the "paused" property. A run that ends is not paused. */
void           komi_series_job_set_paused         (KomiSeriesJob  *self,
                                                   gboolean        paused);
gboolean       komi_series_job_get_paused         (KomiSeriesJob  *self);
/* How many games are held at the pause now (a paused game finishes the
 * move under way first). Any thread. */
guint          komi_series_job_get_waiting        (KomiSeriesJob  *self);
gboolean       komi_series_job_get_running        (KomiSeriesJob  *self);
/* The series' name once its definition is read; NULL before. */
const char    *komi_series_job_get_name           (KomiSeriesJob  *self);
gint64         komi_series_job_get_series_id      (KomiSeriesJob  *self);
guint          komi_series_job_get_done           (KomiSeriesJob  *self);
guint          komi_series_job_get_total          (KomiSeriesJob  *self);
/* Seconds left, estimated; < 0 when not known yet. */
double         komi_series_job_get_eta            (KomiSeriesJob  *self);
/* US dollars spent on model calls in this run. */
double         komi_series_job_get_cost           (KomiSeriesJob  *self);
/* Model call attempts answered in this run, and their cost in "cost":
 * the "calls" property, notified after each. */
guint          komi_series_job_get_calls          (KomiSeriesJob  *self);
/* Why the run ended early; NULL while running, after success, or when it
 * was stopped. */
const GError  *komi_series_job_get_error          (KomiSeriesJob  *self);
gboolean       komi_series_job_get_stopped        (KomiSeriesJob  *self);

G_END_DECLS
