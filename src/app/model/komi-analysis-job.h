/* komi-analysis-job.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define KOMI_TYPE_ANALYSIS_JOB (komi_analysis_job_get_type ())
G_DECLARE_FINAL_TYPE (KomiAnalysisJob, komi_analysis_job, KOMI, ANALYSIS_JOB, GObject)

/* Engine review from the window: one game or a whole series analysed by
 * src/review on worker threads and stored in the library (each analysis
 * whole, as it is done). The engine is the one set, else KataGo when the
 * settings or the environment configure it, else GNU Go ("GNU Go estimate"). Progress
 * reaches the main context as "done" of "total" (positions for one game,
 * games for several); "finished" says how it ended. */

/* @game_ids: gint64 ids of games with moves, in the library at @library_path. */
KomiAnalysisJob *komi_analysis_job_new            (const char      *library_path,
                                                   const GArray    *game_ids);
/* Every game of series @series_id with moves, listed when it starts. */
KomiAnalysisJob *komi_analysis_job_new_for_series (const char      *library_path,
                                                   gint64           series_id);
/* The series of a job made for one; 0 otherwise. */
gint64           komi_analysis_job_get_series_id  (KomiAnalysisJob *self);
/* Thresholds in points of loss (0: the review's defaults); before the start. */
void             komi_analysis_job_set_thresholds (KomiAnalysisJob *self,
                                                   double           mistake,
                                                   double           blunder);
/* The engine, as komi-cli analyse --engine takes it ("katago:200",
 * "gnugo:5"); NULL: the default above. Before the start. */
void             komi_analysis_job_set_engine     (KomiAnalysisJob *self,
                                                   const char      *spec);
/* Games analysed at once, each by an engine of its own; before the start. */
void             komi_analysis_job_set_jobs       (KomiAnalysisJob *self,
                                                   guint            jobs);
void             komi_analysis_job_start          (KomiAnalysisJob *self);
/* Stops the engines; no half-analysed game is stored. "finished" follows. */
void             komi_analysis_job_cancel         (KomiAnalysisJob *self);
gboolean         komi_analysis_job_get_running    (KomiAnalysisJob *self);
guint            komi_analysis_job_get_done       (KomiAnalysisJob *self);
guint            komi_analysis_job_get_total      (KomiAnalysisJob *self);
/* The games of the job (a series': once it has ended). */
const GArray    *komi_analysis_job_get_game_ids   (KomiAnalysisJob *self);
/* "KataGo" or "GNU Go estimate" once the engine is chosen (at the start). */
const char      *komi_analysis_job_get_label      (KomiAnalysisJob *self);
/* Why it failed; NULL while running, after success or a cancel. */
const GError    *komi_analysis_job_get_error      (KomiAnalysisJob *self);
gboolean         komi_analysis_job_get_cancelled  (KomiAnalysisJob *self);

G_END_DECLS
