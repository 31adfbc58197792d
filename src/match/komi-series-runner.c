/* komi-series-runner.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-match"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "komi-model-player.h"
#include "komi-provider.h"
#include "komi-series-runner.h"

/* One run of a series. Workers share only this struct, under @lock. */
typedef struct
{
  const KomiSeries       *series;
  KomiSeriesSink         *sink;
  KomiSeriesProgressFunc  progress;
  gpointer                user_data;
  GCancellable           *cancellable;   /* cancelled by the caller or by a failure */
  KomiSeriesPause        *pause;         /* NULL: the run is never paused */
  gint64                  started;
  gint64                  paused_before;  /* the pause's time when the run started */

  GMutex                  lock;
  KomiSeriesProgress      counts;
  double                  done_here;     /* games' worth played in this run: the ETA's
                                          * basis (a resumed game counts the share of
                                          * its moves played here) */
  GError                 *error;         /* the first failure */
  KomiSeriesResult       *result;
  double                  max_call_cost;  /* the dearest attempt so far: the budget's margin */
} Run;

typedef struct
{
  Run                   *run;
  const KomiPlannedGame *game;
} Job;

void
komi_series_result_free (KomiSeriesResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->records, g_ptr_array_unref);
  g_free (result);
}

/* Keeps the first failure and stops everything else. */
static void
run_fail (Run *run, GError *error)
{
  g_mutex_lock (&run->lock);
  if (run->error == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    run->error = g_steal_pointer (&error);
  g_mutex_unlock (&run->lock);
  g_clear_error (&error);
  g_cancellable_cancel (run->cancellable);
}

static void
report (Run *run, const KomiPlannedGame *game, const KomiGameRecord *record)
{
  gint64 paused = run->pause != NULL
                  ? komi_series_pause_get_time (run->pause) - run->paused_before : 0;

  /* Under the lock: progress lines never interleave. Time paused is not
   * time the games took, so the ETA leaves it out too. */
  run->counts.elapsed = (g_get_monotonic_time () - run->started - paused) / 1e6;
  run->counts.eta = -1;
  /* Wall time per game ended in this run already reflects the parallelism. */
  if (run->done_here > 0)
    run->counts.eta = run->counts.elapsed / run->done_here
                      * (run->counts.total - run->counts.done);
  if (run->progress != NULL)
    run->progress (&run->counts, game, record, run->user_data);
}

typedef struct
{
  Run                   *run;
  const KomiPlannedGame *game;
} Hooks;

/* A game's start is reported once the sink has it: a reader of the
 * library told of it finds the game in play. */
static gboolean
hook_start (const KomiGameRecord *record, gpointer user_data, GError **error)
{
  Hooks *h = user_data;

  if (!h->run->sink->klass->game_started (h->run->sink, h->game, record, error))
    return FALSE;
  g_mutex_lock (&h->run->lock);
  report (h->run, h->game, NULL);
  g_mutex_unlock (&h->run->lock);
  return TRUE;
}

/* Between moves: a paused run holds its games here, engines up. */
static gboolean
hook_before_turn (gpointer user_data, gint64 *waited, GCancellable *cancellable, GError **error)
{
  Hooks *h = user_data;

  return komi_series_pause_wait (h->run->pause, cancellable, waited, error);
}

static gboolean
hook_move (const KomiGame *game, const KomiMove *move, gpointer user_data, GError **error)
{
  Hooks *h = user_data;

  return h->run->sink->klass->move_played (h->run->sink, h->game,
                                           komi_game_get_turns_played (game), move, error);
}

/* A model's every HTTP attempt reaches the library before it is sent,
 * and again with its response before its answer is played. */
static gboolean
hook_call (guint                      turn,
           const KomiProviderAttempt *attempt,
           gpointer                   user_data,
           GError                   **error)
{
  Hooks *h = user_data;
  Run *run = h->run;
  g_autoptr(GError) local = NULL;

  if (!attempt->in_flight)
    {
      double cost = MAX (attempt->cost_usd, 0);

      g_mutex_lock (&run->lock);
      run->counts.cost += cost;
      run->counts.calls++;
      run->max_call_cost = MAX (run->max_call_cost, cost);
      g_mutex_unlock (&run->lock);
    }

  if (run->sink->klass->call_attempt == NULL
      || run->sink->klass->call_attempt (run->sink, h->game, turn, attempt, &local))
    return TRUE;
  /* A call the library cannot record stops the run, as a move does: the
   * game is nobody's fault and stays open to resume. Passed on as is, the
   * library's message (in the user's language) would void the game and
   * be stored as its reason. The run reports the library's own error. */
  g_set_error_literal (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_FATAL, local->message);
  run_fail (run, g_steal_pointer (&local));
  return FALSE;
}

/* A new call is made only if even the dearest call so far would still fit
 * in the budget: the budget is never knowingly overrun. */
static gboolean
budget_gate (gpointer user_data, GError **error)
{
  Hooks *h = user_data;
  Run *run = h->run;
  double budget = run->series->budget_usd;
  gboolean ok;
  double spent;

  if (budget <= 0)
    return TRUE;
  g_mutex_lock (&run->lock);
  spent = run->counts.cost;
  ok = spent + run->max_call_cost <= budget;
  g_mutex_unlock (&run->lock);
  if (!ok)
    {
      g_autofree char *budget_text = komi_cost_text (budget);
      g_autofree char *spent_text = komi_cost_text (spent);

      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PAUSED,
                   _("the series budget of %s would be exceeded (%s spent in this run); "
                     "raise budget_usd in the series file and run it again to continue"),
                   budget_text, spent_text);
    }
  return ok;
}

static void
play_one (gpointer data, gpointer user_data)
{
  g_autofree Job *job = data;
  Run *run = job->run;
  const KomiPlannedGame *planned = job->game;
  const KomiSeries *series = run->series;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  g_autoptr(KomiPlayer) black = NULL;
  g_autoptr(KomiPlayer) white = NULL;
  g_autoptr(KomiReferee) referee = NULL;
  KomiGameRecord *record = NULL;
  gboolean finished = FALSE;
  Hooks hooks = { run, planned };
  KomiMatchSettings settings = { 0, };

  /* A paused run starts no game; a cancelled one none either. */
  if (run->pause != NULL && !komi_series_pause_wait (run->pause, run->cancellable, NULL, NULL))
    return;
  if (g_cancellable_is_cancelled (run->cancellable))
    return;
  if (!run->sink->klass->game_state (run->sink, planned, &finished, moves, &error))
    {
      run_fail (run, g_steal_pointer (&error));
      return;
    }
  if (finished)
    return;   /* counted before the pool started */

  /* Each game owns its engines: processes never cross games or threads. */
  black = komi_player_new_from_any_spec (planned->black, &series->engines, &error);
  if (black != NULL)
    white = komi_player_new_from_any_spec (planned->white, &series->engines, &error);
  if (white != NULL && g_strcmp0 (series->referee, "none") != 0)
    referee = komi_referee_new (series->referee, &series->engines, &error);
  if (error != NULL)
    {
      run_fail (run, g_steal_pointer (&error));
      return;
    }

  if (komi_player_is_model (black))
    komi_model_player_set_recorder (black, hook_call, budget_gate, &hooks);
  if (komi_player_is_model (white))
    komi_model_player_set_recorder (white, hook_call, budget_gate, &hooks);
  /* A game stopped while a model decided its next move continues that
   * turn where it stopped: what the model answered is kept, not asked
   * again. Both players are told; only the one to move has that turn. */
  if ((komi_player_is_model (black) || komi_player_is_model (white))
      && run->sink->klass->turn_state != NULL)
    {
      g_auto(KomiModelTurn) turn = { 0, };

      if (!run->sink->klass->turn_state (run->sink, planned, moves->len + 1, &turn, &error))
        {
          run_fail (run, g_steal_pointer (&error));
          return;
        }
      if (komi_player_is_model (black))
        komi_model_player_continue_turn (black, &turn);
      if (komi_player_is_model (white))
        komi_model_player_continue_turn (white, &turn);
    }

  g_mutex_lock (&run->lock);
  run->counts.running++;
  if (moves->len > 0)
    run->result->resumed++;
  g_mutex_unlock (&run->lock);

  settings.black = black;
  settings.white = white;
  settings.referee = referee;
  settings.size = 9;
  settings.komi = 7;
  settings.max_turns = KOMI_PROTOCOL_MAX_TURNS;
  settings.seed = planned->seed;
  settings.orientation = planned->orientation;
  settings.on_start = hook_start;
  settings.on_move = hook_move;
  if (run->pause != NULL)
    settings.before_turn = hook_before_turn;
  settings.user_data = &hooks;
  settings.resume_moves = (const KomiMove *) moves->data;
  settings.n_resume_moves = moves->len;

  record = komi_match_play_game (&settings, run->cancellable, &error);
  if (record != NULL
      && !run->sink->klass->game_finished (run->sink, planned, record, &error))
    g_clear_pointer (&record, komi_game_record_free);
  /* A game stopped by a pause, a fault or a cancel still has its last
   * answered attempt to commit (a finished one committed it with its end). */
  if (run->sink->klass->game_left != NULL)
    {
      g_autoptr(GError) left = NULL;

      if (!run->sink->klass->game_left (run->sink, planned, &left))
        {
          g_clear_pointer (&record, komi_game_record_free);
          if (error == NULL)
            error = g_steal_pointer (&left);
        }
    }

  g_mutex_lock (&run->lock);
  run->counts.running--;
  if (record != NULL)
    {
      guint n_moves = 0;

      komi_game_get_moves (record->game, &n_moves);
      run->counts.done++;
      /* A game resumed near its end took a moment: counted whole, the
       * estimate said "0:02 left" with whole games to go. */
      run->done_here += n_moves > moves->len ? (double) (n_moves - moves->len) / n_moves
                                             : n_moves == 0 ? 1.0 : 0.0;
      run->result->played++;
      report (run, planned, record);
      g_ptr_array_add (run->result->records, record);
    }
  g_mutex_unlock (&run->lock);

  if (error != NULL)
    run_fail (run, g_steal_pointer (&error));
}

static void
forward_cancel (GCancellable *caller, gpointer own)
{
  g_cancellable_cancel (own);
}

/* The games of a run whose series the sink has begun. */
static gboolean
play_series (const KomiSeries       *series,
             KomiSeriesSink         *sink,
             GArray                 *plan,
             guint                   jobs,
             KomiSeriesProgressFunc  progress,
             gpointer                user_data,
             KomiSeriesPause        *pause,
             GCancellable           *cancellable,
             KomiSeriesResult       *result,
             GError                **error)
{
  g_autoptr(GCancellable) own = g_cancellable_new ();
  GThreadPool *pool;
  gulong handler = 0;
  GPollFD pollfd;
  Run run = { 0, };

  run.series = series;
  run.sink = sink;
  run.progress = progress;
  run.user_data = user_data;
  run.cancellable = own;
  run.pause = pause;
  run.paused_before = pause != NULL ? komi_series_pause_get_time (pause) : 0;
  run.started = g_get_monotonic_time ();
  run.result = result;
  run.counts.total = plan->len;
  g_mutex_init (&run.lock);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel),
                                     g_object_ref (own), g_object_unref);

  /* Ended games are counted first, so the progress line starts true. */
  for (guint i = 0; i < plan->len; i++)
    {
      gboolean finished = FALSE;
      g_autoptr(GArray) moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));

      if (!sink->klass->game_state (sink, &g_array_index (plan, KomiPlannedGame, i),
                                    &finished, moves, error))
        {
          g_cancellable_disconnect (cancellable, handler);
          g_mutex_clear (&run.lock);
          return FALSE;
        }
      if (finished)
        result->skipped++;
    }
  run.counts.done = result->skipped;

  /* Every blocking socket wait of every model call polls the cancellable's
   * fd, which GLib creates and closes per wait (an eventfd2 and a close
   * per HTTP attempt in strace) unless someone holds it: the run does. */
  g_cancellable_make_pollfd (own, &pollfd);
  pool = g_thread_pool_new (play_one, NULL, (int) MAX (jobs, 1), FALSE, NULL);
  for (guint i = 0; i < plan->len; i++)
    {
      Job *job = g_new (Job, 1);

      job->run = &run;
      job->game = &g_array_index (plan, KomiPlannedGame, i);
      g_thread_pool_push (pool, job, NULL);
    }
  /* Waits for every queued game; a cancelled run drains the queue quickly
   * because each job checks the cancellable first. */
  g_thread_pool_free (pool, FALSE, TRUE);
  g_cancellable_release_fd (own);

  g_cancellable_disconnect (cancellable, handler);
  g_mutex_clear (&run.lock);
  result->cost = run.counts.cost;
  result->calls = run.counts.calls;
  if (run.error != NULL)
    {
      g_propagate_error (error, run.error);
      return FALSE;
    }
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* Tells the sink how the run ended: what the library needs to tell a
 * stopped run from one that died. @failure: the run's error, if any. */
static gboolean
end_run (KomiSeriesSink *sink,
         const GError   *failure,
         gboolean        all_ended,
         GError        **error)
{
  g_autoptr(GError) local = NULL;
  const char *how;

  if (sink->klass->end_run == NULL)
    return TRUE;
  if (failure == NULL)
    how = all_ended ? "finished" : "ended";
  else if (g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    how = "stopped";
  else if (g_error_matches (failure, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PAUSED))
    how = "paused";
  else
    how = "error";
  /* After a failure, its error is the one reported: this one is dropped. */
  return sink->klass->end_run (sink, how, error != NULL ? error : &local);
}

KomiSeriesResult *
komi_series_run (const KomiSeries       *series,
                 KomiSeriesSink         *sink,
                 guint                   jobs,
                 KomiSeriesProgressFunc  progress,
                 gpointer                user_data,
                 GCancellable           *cancellable,
                 GError                **error)
{
  return komi_series_run_pausable (series, sink, jobs, progress, user_data, NULL, cancellable,
                                   error);
}

KomiSeriesResult *
komi_series_run_pausable (const KomiSeries       *series,
                          KomiSeriesSink         *sink,
                          guint                   jobs,
                          KomiSeriesProgressFunc  progress,
                          gpointer                user_data,
                          KomiSeriesPause        *pause,
                          GCancellable           *cancellable,
                          GError                **error)
{
  g_autoptr(GArray) plan = NULL;
  g_autoptr(KomiSeriesResult) result = NULL;
  g_autoptr(GError) failure = NULL;
  gboolean ended;

  g_return_val_if_fail (series != NULL && sink != NULL, NULL);

  /* A shard begins and plays only its own games of the plan. */
  plan = komi_series_plan_to_play (series);
  result = g_new0 (KomiSeriesResult, 1);
  result->records = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_game_record_free);
  if (!sink->klass->begin_series (sink, series, plan, &result->series_id, error))
    return NULL;
  play_series (series, sink, plan, jobs, progress, user_data, pause, cancellable, result,
               &failure);
  ended = result->skipped + result->played == plan->len;
  if (!end_run (sink, failure, ended, failure != NULL ? NULL : error) || failure != NULL)
    {
      if (failure != NULL)
        g_propagate_error (error, g_steal_pointer (&failure));
      return NULL;
    }
  return g_steal_pointer (&result);
}
