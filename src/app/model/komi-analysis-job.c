/* komi-analysis-job.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include "komi-analysis-job.h"
#include "komi-player-spec.h"
#include "komi-review.h"
#include "komi-settings.h"

/* GNU Go's play-outs at level 5: seven times faster than level 10 on 9x9
 * and no noisier (as komi-cli analyse measured it). */
#define GNUGO_REVIEW_SPEC "gnugo:5"

struct _KomiAnalysisJob
{
  GObject        parent_instance;

  char          *library_path;
  GArray        *game_ids;       /* gint64; a series' are listed by the worker */
  gint64         series_id;      /* 0: the games given */
  double         mistake;
  double         blunder;
  guint          jobs;
  char          *engine;         /* the spec set, or NULL */
  KomiGtpRecipe *recipe;         /* chosen at the start, read by the workers */
  char          *label;
  GMainContext  *context;        /* where progress is delivered */
  GCancellable  *cancellable;
  gint           games_done;     /* atomic: the workers count finished games */

  gboolean       running;
  gboolean       cancelled;
  GError        *error;
  guint          done;
  guint          total;
};

G_DEFINE_FINAL_TYPE (KomiAnalysisJob, komi_analysis_job, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_DONE,
  PROP_TOTAL,
  PROP_LABEL,
  N_PROPS
};

enum {
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

typedef struct
{
  KomiAnalysisJob *self;
  guint            done;
  guint            total;
} Update;

static void
update_free (gpointer data)
{
  Update *u = data;

  g_object_unref (u->self);
  g_free (u);
}

static void
set_progress (KomiAnalysisJob *self, guint done, guint total)
{
  if (total != self->total)
    {
      self->total = total;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL]);
    }
  if (done != self->done)
    {
      self->done = done;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DONE]);
    }
}

static gboolean
apply_update (gpointer data)
{
  Update *u = data;

  /* A late update after the end would move the bar back. */
  if (u->self->running)
    set_progress (u->self, u->done, u->total);
  return G_SOURCE_REMOVE;
}

/* On any worker thread. Updates go through a source of the job's context,
 * never g_main_context_invoke(), which could run them on the worker (see
 * komi-series-job.c). One game: its positions; several: games finished. */
static void
on_progress (gint64 game_id, guint done, guint total, gpointer user_data)
{
  KomiAnalysisJob *self = user_data;
  Update *u;
  GSource *source;

  if (self->series_id > 0 || self->game_ids->len > 1)
    {
      if (done != total && game_id != 0)
        return;
      u = g_new0 (Update, 1);
      u->done = game_id == 0 ? 0 : (guint) g_atomic_int_add (&self->games_done, 1) + 1;
      u->total = self->game_ids->len;
    }
  else
    {
      u = g_new0 (Update, 1);
      u->done = done;
      u->total = total;
    }
  u->self = g_object_ref (self);
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, apply_update, u, update_free);
  g_source_set_static_name (source, "[komi] analysis job update");
  g_source_attach (source, self->context);
  g_source_unref (source);
}

static void
run_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  KomiAnalysisJob *self = source;
  g_autoptr(KomiStore) store = NULL;
  GError *error = NULL;
  KomiReviewOptions options = {
    .recipe = self->recipe,
    .mistake = self->mistake,
    .blunder = self->blunder,
    .jobs = self->jobs,
  };

  /* A writer of its own, as a series job has: SQLite serialises the two. */
  store = komi_store_open (self->library_path, &error);
  if (store != NULL && self->series_id > 0)
    {
      g_autoptr(GPtrArray) games = komi_store_list_games (store, self->series_id, &error);

      /* Every game with moves; the main thread reads the ids only after the end. */
      for (guint i = 0; games != NULL && i < games->len; i++)
        {
          const KomiStoreGame *g = g_ptr_array_index (games, i);

          if (g->status != KOMI_GAME_STATUS_PENDING && g->n_moves > 0)
            g_array_append_val (self->game_ids, g->id);
        }
      if (games == NULL)
        g_clear_object (&store);
      else
        on_progress (0, 0, 1, self);   /* the total, with nothing done */
    }
  if (store == NULL
      || !komi_review_analyse_games (store, self->game_ids, &options, on_progress, self,
                                     cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
finish (KomiAnalysisJob *self, GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      self->cancelled = TRUE;
      g_clear_error (&error);
    }
  self->error = error;
  self->running = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  g_signal_emit (self, signals[FINISHED], 0, self->error);
}

static void
on_finished (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  KomiAnalysisJob *self = KOMI_ANALYSIS_JOB (source);
  GError *error = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    set_progress (self, self->total, self->total);
  finish (self, error);
}

/* KataGo when configured (the settings, else the environment komi-cli
 * reads), else GNU Go; the recipe checks that the files exist. */
static KomiGtpRecipe *
choose_engine (const char *engine, GError **error)
{
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions opts = { 0, };

  komi_settings_engine_options (&opts, strs);
  if (engine == NULL)
    engine = opts.katago_binary != NULL || g_getenv ("KOMI_KATAGO") != NULL
             ? "katago" : GNUGO_REVIEW_SPEC;
  return komi_gtp_recipe_new_from_spec (engine, &opts, error);
}

void
komi_analysis_job_start (KomiAnalysisJob *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (KOMI_IS_ANALYSIS_JOB (self));
  g_return_if_fail (!self->running && self->cancellable == NULL);

  self->cancellable = g_cancellable_new ();
  self->context = g_main_context_ref_thread_default ();
  self->running = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  set_progress (self, 0, self->game_ids->len > 1 ? self->game_ids->len : 0);
  self->games_done = 0;
  task = g_task_new (self, self->cancellable, on_finished, NULL);
  g_task_set_source_tag (task, komi_analysis_job_start);

  self->recipe = choose_engine (self->engine, &error);
  if (self->recipe == NULL)
    {
      /* Returned in the iteration that made it, the task calls back from
       * an idle: "finished" never comes from inside start. */
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  self->label = g_strdup (self->recipe->flavor == KOMI_GTP_KATAGO ? "KataGo"
                                                                 : "GNU Go estimate");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABEL]);
  /* The task waits for its threads: the job ends once every engine stopped. */
  g_task_run_in_thread (task, run_thread);
}

void
komi_analysis_job_cancel (KomiAnalysisJob *self)
{
  g_return_if_fail (KOMI_IS_ANALYSIS_JOB (self));
  g_cancellable_cancel (self->cancellable);
}

void
komi_analysis_job_set_thresholds (KomiAnalysisJob *self,
                                  double           mistake,
                                  double           blunder)
{
  g_return_if_fail (KOMI_IS_ANALYSIS_JOB (self));
  g_return_if_fail (!self->running);
  self->mistake = mistake;
  self->blunder = blunder;
}

void
komi_analysis_job_set_engine (KomiAnalysisJob *self,
                              const char      *spec)
{
  g_return_if_fail (KOMI_IS_ANALYSIS_JOB (self));
  g_return_if_fail (!self->running);
  g_free (self->engine);
  self->engine = g_strdup (spec);
}

void
komi_analysis_job_set_jobs (KomiAnalysisJob *self,
                            guint            jobs)
{
  g_return_if_fail (KOMI_IS_ANALYSIS_JOB (self));
  g_return_if_fail (!self->running);
  self->jobs = MAX (jobs, 1);
}

gboolean
komi_analysis_job_get_running (KomiAnalysisJob *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_JOB (self), FALSE);
  return self->running;
}

guint
komi_analysis_job_get_done (KomiAnalysisJob *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_JOB (self), 0);
  return self->done;
}

guint
komi_analysis_job_get_total (KomiAnalysisJob *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_JOB (self), 0);
  return self->total;
}

const GArray *
komi_analysis_job_get_game_ids (KomiAnalysisJob *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_JOB (self), NULL);
  return self->game_ids;
}

const char *
komi_analysis_job_get_label (KomiAnalysisJob *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_JOB (self), NULL);
  return self->label;
}

const GError *
komi_analysis_job_get_error (KomiAnalysisJob *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_JOB (self), NULL);
  return self->error;
}

gboolean
komi_analysis_job_get_cancelled (KomiAnalysisJob *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_JOB (self), FALSE);
  return self->cancelled;
}

KomiAnalysisJob *
komi_analysis_job_new_for_series (const char *library_path,
                                  gint64      series_id)
{
  KomiAnalysisJob *self;

  g_return_val_if_fail (library_path != NULL && series_id > 0, NULL);

  self = g_object_new (KOMI_TYPE_ANALYSIS_JOB, NULL);
  self->library_path = g_strdup (library_path);
  self->series_id = series_id;
  self->game_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  return self;
}

gint64
komi_analysis_job_get_series_id (KomiAnalysisJob *self)
{
  g_return_val_if_fail (KOMI_IS_ANALYSIS_JOB (self), 0);
  return self->series_id;
}

KomiAnalysisJob *
komi_analysis_job_new (const char   *library_path,
                       const GArray *game_ids)
{
  KomiAnalysisJob *self;

  g_return_val_if_fail (library_path != NULL, NULL);
  g_return_val_if_fail (game_ids != NULL && game_ids->len > 0, NULL);

  self = g_object_new (KOMI_TYPE_ANALYSIS_JOB, NULL);
  self->library_path = g_strdup (library_path);
  self->game_ids = g_array_sized_new (FALSE, FALSE, sizeof (gint64), game_ids->len);
  g_array_append_vals (self->game_ids, game_ids->data, game_ids->len);
  return self;
}

static void
komi_analysis_job_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  KomiAnalysisJob *self = KOMI_ANALYSIS_JOB (object);

  switch (prop_id)
    {
    case PROP_RUNNING: g_value_set_boolean (value, self->running); break;
    case PROP_DONE: g_value_set_uint (value, self->done); break;
    case PROP_TOTAL: g_value_set_uint (value, self->total); break;
    case PROP_LABEL: g_value_set_string (value, self->label); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_analysis_job_dispose (GObject *object)
{
  KomiAnalysisJob *self = KOMI_ANALYSIS_JOB (object);

  /* A running job is kept alive by its task: only a finished one gets here. */
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  G_OBJECT_CLASS (komi_analysis_job_parent_class)->dispose (object);
}

static void
komi_analysis_job_finalize (GObject *object)
{
  KomiAnalysisJob *self = KOMI_ANALYSIS_JOB (object);

  g_free (self->library_path);
  g_array_unref (self->game_ids);
  g_clear_pointer (&self->recipe, komi_gtp_recipe_free);
  g_free (self->label);
  g_free (self->engine);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (komi_analysis_job_parent_class)->finalize (object);
}

static void
komi_analysis_job_class_init (KomiAnalysisJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->get_property = komi_analysis_job_get_property;
  object_class->dispose = komi_analysis_job_dispose;
  object_class->finalize = komi_analysis_job_finalize;

  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE, ro);
  properties[PROP_DONE] = g_param_spec_uint ("done", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_TOTAL] = g_param_spec_uint ("total", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Over: done, cancelled (NULL error, get_cancelled), or failed (the
   * error, a const GError * valid during the emission). */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass),
                                    G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
komi_analysis_job_init (KomiAnalysisJob *self)
{
  self->jobs = 1;
}
