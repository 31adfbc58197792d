/* komi-series-job.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <math.h>

#include "komi-ladder-ship.h"
#include "komi-library.h"
#include "komi-library-load.h"
#include "komi-live-run.h"
#include "komi-rate-run.h"
#include "komi-series-job.h"
#include "komi-series-runner.h"
#include "komi-settings.h"
#include "komi-store-sink.h"

struct _KomiSeriesJob
{
  GObject       parent_instance;

  char         *library_path;
  char         *definition_path;   /* one of the two */
  char         *definition;
  char         *engine_paths[4];   /* gnugo, katago binary, model, config; NULL: the environment */
  GMainContext *context;           /* where progress is delivered */
  GCancellable *cancellable;
  KomiSeriesPause *pause;          /* shared with the runner's workers */

  gboolean      running;
  gboolean      paused;
  gboolean      stopped;
  GError       *error;
  char         *name;
  gint64        series_id;
  guint         done;
  guint         total;
  double        eta;
  double        cost;
  guint         calls;
};

G_DEFINE_FINAL_TYPE (KomiSeriesJob, komi_series_job, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_NAME,
  PROP_DONE,
  PROP_TOTAL,
  PROP_PAUSED,
  PROP_SERIES_ID,
  PROP_CALLS,
  N_PROPS
};

enum {
  EVENT,
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* What a worker thread tells the main thread. */
typedef struct
{
  KomiSeriesJob *self;
  char          *name;        /* set once, when the definition is read */
  gint64         series_id;
  guint          done;
  guint          total;
  double         eta;
  gboolean       before;      /* the calls and cost of the series' earlier runs, once */
  guint          calls_before;
  double         cost_before;
  KomiLiveEvent *event;      /* or progress */
} Update;

static void
update_free (gpointer data)
{
  Update *u = data;

  g_object_unref (u->self);
  g_free (u->name);
  komi_live_event_free (u->event);
  g_free (u);
}

static void
set_uint (KomiSeriesJob *self, guint *field, guint value, guint prop)
{
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static gboolean
apply_update (gpointer data)
{
  Update *u = data;
  KomiSeriesJob *self = u->self;

  if (u->event != NULL)
    {
      /* The bar's count of calls and their cost is the events' own. */
      if (u->event->kind == KOMI_RUN_EVENT_CALL_ANSWERED)
        self->cost += MAX (u->event->cost_usd, 0);
      if (u->event->kind == KOMI_RUN_EVENT_CALL_ANSWERED)
        set_uint (self, &self->calls, self->calls + 1, PROP_CALLS);
      g_signal_emit (self, signals[EVENT], 0, u->event);
      return G_SOURCE_REMOVE;
    }
  /* Continued, the count goes on from the earlier runs' (before any call
   * of this run: told with the first game's start). */
  if (u->before)
    {
      self->cost += u->cost_before;
      set_uint (self, &self->calls, self->calls + u->calls_before, PROP_CALLS);
    }
  if (u->name != NULL && g_strcmp0 (u->name, self->name) != 0)
    {
      g_free (self->name);
      self->name = g_strdup (u->name);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
    }
  if (u->series_id > 0 && u->series_id != self->series_id)
    {
      self->series_id = u->series_id;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERIES_ID]);
    }
  self->eta = u->eta;
  set_uint (self, &self->total, u->total, PROP_TOTAL);
  set_uint (self, &self->done, u->done, PROP_DONE);
  return G_SOURCE_REMOVE;
}

/* Always through a source of the job's context: g_main_context_invoke()
 * would run the update on the worker itself whenever it could acquire the
 * (default) context, as between two iterations of a test's loop. */
static void
post (KomiSeriesJob *self, Update *u)
{
  GSource *source = g_idle_source_new ();

  u->self = g_object_ref (self);
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, apply_update, u, update_free);
  g_source_set_static_name (source, "[komi] series job update");
  g_source_attach (source, self->context);
  g_source_unref (source);
}

typedef struct
{
  KomiSeriesJob  *self;
  KomiSeriesSink *sink;
  gboolean        counted;   /* the earlier runs' calls were told */
} RunContext;

/* The calls recorded for @series_id's games, and their cost, from a
 * reader of its own; 0 when it cannot be read (the count then starts
 * with this run, as before). */
static void
count_calls_before (const char *library, gint64 series_id, guint *calls, double *cost)
{
  g_autoptr(KomiStore) store = komi_store_open_reader (library, NULL);
  g_autoptr(GPtrArray) games = store != NULL ? komi_store_list_games (store, series_id, NULL)
                                             : NULL;

  *calls = 0;
  *cost = 0;
  for (guint i = 0; games != NULL && i < games->len; i++)
    {
      const KomiStoreGame *game = games->pdata[i];

      *calls += game->n_calls;
      if (!isnan (game->cost_usd))
        *cost += MAX (game->cost_usd, 0);
    }
}

/* On a worker thread, one call at a time. */
static void
on_progress (const KomiSeriesProgress *progress,
             const KomiPlannedGame    *game,
             const KomiGameRecord     *record,
             gpointer                  user_data)
{
  RunContext *run = user_data;
  Update *u = g_new0 (Update, 1);

  u->series_id = komi_store_sink_get_series_id (run->sink);
  /* The first report comes with the first game's start, before any call
   * of this run is recorded: what is in the library is the earlier runs'. */
  if (!run->counted && u->series_id > 0)
    {
      run->counted = TRUE;
      u->before = TRUE;
      count_calls_before (run->self->library_path, u->series_id, &u->calls_before,
                          &u->cost_before);
    }
  u->done = progress->done;
  u->total = progress->total;
  u->eta = progress->eta;
  post (run->self, u);
}

/* On a worker thread: the sink's every event, copied, goes to the main
 * context in the order told; nothing here waits on the disk. */
static void
post_event (KomiSeriesJob *self, KomiLiveEvent *event)
{
  Update *u = g_new0 (Update, 1);

  u->event = event;
  post (self, u);
}

static void
on_event (const KomiRunEvent *event,
          gpointer            user_data)
{
  post_event (((RunContext *) user_data)->self, komi_live_event_new_from_run (event));
}

/* An adaptive series (pair_order) is a rating: its pairs are chosen one
 * by one against the ladder frozen beside the library, to ±105 Elo. */
static gboolean
run_rating (KomiSeriesJob *self, const KomiSeries *series, KomiStore *store, RunContext *run,
            GCancellable *cancellable, GError **error)
{
  g_autoptr(KomiLadder) ladder = komi_ladder_resolve (komi_settings_rating_ladder (),
                                                      self->library_path, series->protocol,
                                                      error);
  KomiRateRunOptions options;

  if (ladder == NULL)
    return FALSE;
  komi_rate_run_options_init (&options, series->subject);
  options.name = series->name;
  options.budget_usd = series->budget_usd;
  options.seed = series->seed;
  options.referee = series->referee;
  options.jobs = series->jobs;
  options.engines = &series->engines;
  options.progress_func = on_progress;
  options.progress_data = run;
  options.pause = self->pause;
  return komi_rate_run (ladder, &options, store, run->sink, cancellable, NULL, error);
}

static void
run_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  KomiSeriesJob *self = source;
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiSeriesResult) result = NULL;
  GError *error = NULL;
  RunContext run = { self, NULL };
  Update *u;
  KomiPlayerOptions engines = {
    .gnugo_path = self->engine_paths[0],
    .katago_binary = self->engine_paths[1],
    .katago_model = self->engine_paths[2],
    .katago_config = self->engine_paths[3],
  };

  if (self->definition_path != NULL)
    series = komi_series_load_with_engines (self->definition_path, &engines, &error);
  else
    series = komi_series_new_from_json_with_engines (self->definition, -1, &engines, &error);
  if (series == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  u = g_new0 (Update, 1);
  u->name = g_strdup (series->name);
  u->total = komi_series_count_games (series);
  u->eta = -1;
  post (self, u);

  /* The library is created on the first run, as komi-cli does. */
  store = komi_store_open (self->library_path, &error);
  /* A shard's library (komi-cli run --shard) goes on with its shard. */
  if (store == NULL || !komi_store_keep_shard (store, series, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  run.sink = komi_store_new_sink (store);
  komi_store_sink_set_observer (run.sink, on_event, &run);
  if (series->pair_order != NULL)
    {
      gboolean ok = run_rating (self, series, store, &run, cancellable, &error);

      komi_store_sink_free (run.sink);
      if (ok)
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, error);
      return;
    }
  result = komi_series_run_pausable (series, run.sink, series->jobs, on_progress, &run,
                                     self->pause, cancellable, &error);
  komi_store_sink_free (run.sink);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_finished (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  KomiSeriesJob *self = KOMI_SERIES_JOB (source);
  g_autoptr(KomiLiveEvent) over = NULL;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->stopped = TRUE;
          g_clear_error (&error);
        }
      else
        self->error = error;
    }
  self->running = FALSE;
  komi_series_job_set_paused (self, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  over = komi_live_event_new (KOMI_RUN_EVENT_RUN_STOPPED, 0);
  g_signal_emit (self, signals[EVENT], 0, over);
  g_signal_emit (self, signals[FINISHED], 0);
}

void
komi_series_job_start (KomiSeriesJob *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KOMI_IS_SERIES_JOB (self));
  g_return_if_fail (!self->running && self->cancellable == NULL);

  self->cancellable = g_cancellable_new ();
  self->context = g_main_context_ref_thread_default ();
  /* The task waits for its thread: a stopped run ends through
   * on_finished only once the games in flight have stopped. */
  task = g_task_new (self, self->cancellable, on_finished, NULL);
  g_task_set_source_tag (task, komi_series_job_start);
  self->running = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  g_task_run_in_thread (task, run_thread);
}

void
komi_series_job_set_engines (KomiSeriesJob           *self,
                             const KomiPlayerOptions *engines)
{
  const char *paths[] = {
    engines->gnugo_path, engines->katago_binary, engines->katago_model, engines->katago_config,
  };

  g_return_if_fail (KOMI_IS_SERIES_JOB (self));
  g_return_if_fail (!self->running && self->cancellable == NULL);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_free (self->engine_paths[i]);
      self->engine_paths[i] = paths[i] != NULL && paths[i][0] != '\0' ? g_strdup (paths[i])
                                                                       : NULL;
    }
}

const char *
komi_series_job_get_engine_path (KomiSeriesJob *self,
                                 guint          index)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), NULL);
  g_return_val_if_fail (index < G_N_ELEMENTS (self->engine_paths), NULL);
  return self->engine_paths[index];
}

void
komi_series_job_stop (KomiSeriesJob *self)
{
  g_return_if_fail (KOMI_IS_SERIES_JOB (self));

  g_cancellable_cancel (self->cancellable);
}

void
komi_series_job_set_paused (KomiSeriesJob *self,
                            gboolean       paused)
{
  g_return_if_fail (KOMI_IS_SERIES_JOB (self));

  paused = !!paused;
  if (self->paused == paused)
    return;
  self->paused = paused;
  komi_series_pause_set (self->pause, paused);
  /* In the stream, after the events the workers told before it. */
  if (self->running)
    post_event (self, komi_live_event_new (paused ? KOMI_RUN_EVENT_RUN_PAUSED
                                                  : KOMI_RUN_EVENT_RUN_RESUMED, 0));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

gboolean
komi_series_job_get_paused (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), FALSE);
  return self->paused;
}

guint
komi_series_job_get_waiting (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), 0);
  return komi_series_pause_get_waiting (self->pause);
}

gboolean
komi_series_job_get_running (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), FALSE);
  return self->running;
}

const char *
komi_series_job_get_name (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), NULL);
  return self->name;
}

gint64
komi_series_job_get_series_id (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), 0);
  return self->series_id;
}

guint
komi_series_job_get_done (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), 0);
  return self->done;
}

guint
komi_series_job_get_total (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), 0);
  return self->total;
}

double
komi_series_job_get_eta (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), -1);
  return self->eta;
}

double
komi_series_job_get_cost (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), 0);
  return self->cost;
}

guint
komi_series_job_get_calls (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), 0);
  return self->calls;
}

const GError *
komi_series_job_get_error (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), NULL);
  return self->error;
}

gboolean
komi_series_job_get_stopped (KomiSeriesJob *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_JOB (self), FALSE);
  return self->stopped;
}

static KomiSeriesJob *
job_new (const char *library_path, const char *definition_path, const char *definition)
{
  KomiSeriesJob *self = g_object_new (KOMI_TYPE_SERIES_JOB, NULL);

  self->library_path = g_strdup (library_path);
  self->definition_path = g_strdup (definition_path);
  self->definition = g_strdup (definition);
  return self;
}

KomiSeriesJob *
komi_series_job_new_for_file (const char *library_path,
                              const char *definition_path)
{
  g_return_val_if_fail (library_path != NULL && definition_path != NULL, NULL);
  return job_new (library_path, definition_path, NULL);
}

KomiSeriesJob *
komi_series_job_new_for_definition (const char *library_path,
                                    const char *definition)
{
  g_return_val_if_fail (library_path != NULL && definition != NULL, NULL);
  return job_new (library_path, NULL, definition);
}

static void
komi_series_job_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KomiSeriesJob *self = KOMI_SERIES_JOB (object);

  switch (prop_id)
    {
    case PROP_RUNNING: g_value_set_boolean (value, self->running); break;
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_DONE: g_value_set_uint (value, self->done); break;
    case PROP_TOTAL: g_value_set_uint (value, self->total); break;
    case PROP_PAUSED: g_value_set_boolean (value, self->paused); break;
    case PROP_SERIES_ID: g_value_set_int64 (value, self->series_id); break;
    case PROP_CALLS: g_value_set_uint (value, self->calls); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_series_job_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  KomiSeriesJob *self = KOMI_SERIES_JOB (object);

  switch (prop_id)
    {
    case PROP_PAUSED: komi_series_job_set_paused (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_series_job_dispose (GObject *object)
{
  KomiSeriesJob *self = KOMI_SERIES_JOB (object);

  /* A running job is kept alive by its task: only a finished one gets here. */
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  G_OBJECT_CLASS (komi_series_job_parent_class)->dispose (object);
}

static void
komi_series_job_finalize (GObject *object)
{
  KomiSeriesJob *self = KOMI_SERIES_JOB (object);

  g_free (self->library_path);
  g_free (self->definition_path);
  g_free (self->definition);
  for (guint i = 0; i < G_N_ELEMENTS (self->engine_paths); i++)
    g_free (self->engine_paths[i]);
  g_free (self->name);
  g_clear_error (&self->error);
  komi_series_pause_unref (self->pause);
  G_OBJECT_CLASS (komi_series_job_parent_class)->finalize (object);
}

static void
komi_series_job_class_init (KomiSeriesJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->get_property = komi_series_job_get_property;
  object_class->set_property = komi_series_job_set_property;
  object_class->dispose = komi_series_job_dispose;
  object_class->finalize = komi_series_job_finalize;

  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE, ro);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, ro);
  properties[PROP_DONE] = g_param_spec_uint ("done", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_TOTAL] = g_param_spec_uint ("total", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The library's id of the series run, once it is begun; 0 before. */
  properties[PROP_SERIES_ID] =
    g_param_spec_int64 ("series-id", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Answered calls so far (with their cost): notified after each. */
  properties[PROP_CALLS] = g_param_spec_uint ("calls", NULL, NULL, 0, G_MAXUINT, 0, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* One event of the run (const KomiLiveEvent *, valid during the
   * emission), in order, on the main thread; the last, RUN_STOPPED, comes
   * just before "finished". */
  signals[EVENT] = g_signal_new ("event", G_TYPE_FROM_CLASS (klass),
                                 G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* The run is over: finished, stopped, or failed (see get_error). */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass),
                                    G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 0);
}

static void
komi_series_job_init (KomiSeriesJob *self)
{
  self->eta = -1;
  self->pause = komi_series_pause_new ();
}
