/* komi-store-sink.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "komi-store-sink.h"

typedef struct
{
  KomiSeriesSink  parent;
  KomiStore      *store;
  /* Guards the two fields below; the store has its own lock for the
   * database, taken after this one is released. */
  GMutex          lock;
  gint64          series_id;
  GHashTable     *game_ids;    /* plan index -> game id, filled on first use */
  /* plan index -> row of the game's attempt in flight. A game asks one
   * question at a time, so it has at most one. */
  GHashTable     *in_flight;
  int             run_fd;      /* the run's lock (komi_store_begin_run); -1: none */
  KomiRunEventFunc  observer;     /* set before the run: read without the lock */
  gpointer          observer_data;
} KomiStoreSink;

static const KomiSeriesSinkClass store_sink_class;

/* Only sinks made by komi_store_new_sink() come here. */
static KomiStoreSink *
store_sink (KomiSeriesSink *sink)
{
  g_assert (sink != NULL && sink->klass == &store_sink_class);
  return (KomiStoreSink *) sink;
}

/* The observer told of a game's event, once the store has it. */
static void
tell (KomiStoreSink         *self,
      KomiRunEvent          *event,
      const KomiPlannedGame *game,
      gint64                 game_id)
{
  if (self->observer == NULL)
    return;
  event->series_id = komi_store_sink_get_series_id (&self->parent);
  event->game_id = game_id;
  event->plan_index = game->index;
  self->observer (event, self->observer_data);
}

/* The library's id of a planned game of the sink's series. */
static gboolean
game_id_of (KomiStoreSink         *self,
            const KomiPlannedGame *game,
            gint64                *game_id,
            GError               **error)
{
  gint64 series_id;
  gpointer cached;

  g_mutex_lock (&self->lock);
  series_id = self->series_id;
  cached = g_hash_table_lookup (self->game_ids, GUINT_TO_POINTER (game->index));
  g_mutex_unlock (&self->lock);

  if (series_id == 0)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                   _("The series was not begun in the library before its games"));
      return FALSE;
    }
  if (cached != NULL)
    {
      *game_id = *(gint64 *) cached;
      return TRUE;
    }
  if (!komi_store_find_game (self->store, series_id, game->index, game_id, error))
    return FALSE;

  g_mutex_lock (&self->lock);
  g_hash_table_insert (self->game_ids, GUINT_TO_POINTER (game->index),
                       g_memdup2 (game_id, sizeof *game_id));
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
sink_begin_series (KomiSeriesSink    *sink,
                   const KomiSeries  *series,
                   const GArray      *plan,
                   gint64            *series_id,
                   GError           **error)
{
  KomiStoreSink *self = store_sink (sink);

  if (!komi_store_begin_series (self->store, series, plan, series_id, error))
    return FALSE;
  /* Refused while another process runs the same series; recorded, so a
   * run that dies is told from one that was stopped. */
  if (self->run_fd >= 0)
    close (self->run_fd);
  self->run_fd = -1;
  if (!komi_store_begin_shard_run (self->store, *series_id, series->shard, series->n_shards,
                                   &self->run_fd, error))
    return FALSE;
  g_mutex_lock (&self->lock);
  if (self->series_id != *series_id)
    g_hash_table_remove_all (self->game_ids);
  self->series_id = *series_id;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
sink_game_state (KomiSeriesSink         *sink,
                 const KomiPlannedGame  *game,
                 gboolean               *finished,
                 GArray                 *moves,
                 GError                **error)
{
  KomiStoreSink *self = store_sink (sink);
  g_autoptr(GArray) stored = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  KomiGameStatus status;
  gint64 game_id;

  if (!game_id_of (self, game, &game_id, error)
      || !komi_store_get_game_state (self->store, game_id, &status, stored, error))
    return FALSE;
  *finished = status == KOMI_GAME_STATUS_FINISHED || status == KOMI_GAME_STATUS_VOID
              || status == KOMI_GAME_STATUS_FORFEIT;
  /* A finished game is not replayed, so its moves are not handed out. */
  if (!*finished && moves != NULL)
    g_array_append_vals (moves, stored->data, stored->len);
  return TRUE;
}

static gboolean
sink_game_started (KomiSeriesSink         *sink,
                   const KomiPlannedGame  *game,
                   const KomiGameRecord   *record,
                   GError                **error)
{
  KomiStoreSink *self = store_sink (sink);
  KomiRunEvent event = { .kind = KOMI_RUN_EVENT_GAME_STARTED, .record = record };
  gint64 game_id;

  if (!game_id_of (self, game, &game_id, error)
      || !komi_store_start_game (self->store, game_id, record, error))
    return FALSE;
  tell (self, &event, game, game_id);
  return TRUE;
}

static gboolean
sink_move_played (KomiSeriesSink         *sink,
                  const KomiPlannedGame  *game,
                  guint                   turn,
                  const KomiMove         *move,
                  GError                **error)
{
  KomiStoreSink *self = store_sink (sink);
  KomiRunEvent event = { .kind = KOMI_RUN_EVENT_MOVE_PLAYED, .turn = turn, .move = move };
  gint64 game_id;

  if (!game_id_of (self, game, &game_id, error)
      || !komi_store_add_move (self->store, game_id, turn, move, error))
    return FALSE;
  tell (self, &event, game, game_id);
  return TRUE;
}

static gboolean
sink_game_finished (KomiSeriesSink         *sink,
                    const KomiPlannedGame  *game,
                    const KomiGameRecord   *record,
                    GError                **error)
{
  KomiStoreSink *self = store_sink (sink);
  KomiRunEvent event = { .kind = KOMI_RUN_EVENT_GAME_FINISHED, .record = record };
  gint64 game_id;

  if (!game_id_of (self, game, &game_id, error)
      || !komi_store_finish_game (self->store, game_id, record, error))
    return FALSE;
  tell (self, &event, game, game_id);
  return TRUE;
}

/* A model call's attempt, the provider's record (KomiProviderAttempt)
 * laid into the store's (KomiStoreCall: the one mapping between them; a
 * kept attempt is a komi_store_call_copy() of it) and numbered by the
 * store: its request as a row in flight before it is sent, committed at
 * once; its response (or fault) kept by the store and committed with the
 * game's next write, which is what acts on it (the next request, the
 * move, the game's end) or with game_left. Not synced on their own (the
 * store's group commit syncs them within half a second). */
static gboolean
sink_call_attempt (KomiSeriesSink             *sink,
                   const KomiPlannedGame      *game,
                   guint                       turn,
                   const KomiProviderAttempt  *a,
                   GError                    **error)
{
  KomiStoreSink *self = store_sink (sink);
  gpointer key = GUINT_TO_POINTER (game->index);
  KomiStoreCall call;
  gint64 game_id, call_id = 0;
  gpointer open;

  g_return_val_if_fail (a != NULL && a->question != NULL && turn >= 1, FALSE);

  call = (KomiStoreCall) {
    .turn = turn,
    .question = a->question,
    .attempt = 0,
    .started = a->started,
    .request_url = a->request_url,
    .request_headers = a->request_headers,
    .request_body = a->request_body,
    .response_status = a->response_status,
    .response_headers = a->response_headers,
    .response_body = a->response_body,
    .latency_ms = a->latency_ms,
    .tokens_input = a->tokens_input,
    .tokens_output = a->tokens_output,
    .tokens_reasoning = a->tokens_reasoning,
    .tokens_cached = a->tokens_cached,
    .model_version = a->model_version,
    .finish_reason = a->finish_reason,
    .answer = a->answer,
    .outcome = komi_provider_outcome_to_string (a->outcome),
    .error = a->error,
    .system_fingerprint = a->system_fingerprint,
    .response_id = a->response_id,
    .model_mismatch = a->model_mismatch,
    .logprobs_requested = a->logprobs_requested,
    .option_probabilities = a->option_probabilities,
    .retry_delay = a->retry_delay,
    .cost_usd = a->cost_usd,
    .decided = -1,   /* the move it may decide is not played yet */
  };
  if (!game_id_of (self, game, &game_id, error))
    return FALSE;

  if (a->in_flight)
    {
      if (!komi_store_begin_call (self->store, game_id, &call, &call_id, error))
        return FALSE;
      g_mutex_lock (&self->lock);
      g_hash_table_insert (self->in_flight, key, g_memdup2 (&call_id, sizeof call_id));
      g_mutex_unlock (&self->lock);
      return TRUE;
    }

  g_mutex_lock (&self->lock);
  if ((open = g_hash_table_lookup (self->in_flight, key)) != NULL)
    call_id = *(gint64 *) open;
  g_hash_table_remove (self->in_flight, key);
  g_mutex_unlock (&self->lock);
  if (call_id > 0 ? !komi_store_complete_call (self->store, game_id, call_id, &call, error)
                  : !komi_store_add_call (self->store, game_id, &call, error))
    return FALSE;
  {
    KomiRunEvent event = {
      .kind = KOMI_RUN_EVENT_CALL_ANSWERED, .turn = turn, .call_id = call_id, .call = &call,
    };

    tell (self, &event, game, game_id);
  }
  return TRUE;
}

static gboolean
sink_turn_state (KomiSeriesSink         *sink,
                 const KomiPlannedGame  *game,
                 guint                   turn,
                 KomiModelTurn          *state,
                 GError                **error)
{
  KomiStoreSink *self = store_sink (sink);
  gint64 game_id;

  return game_id_of (self, game, &game_id, error)
         && komi_store_load_turn (self->store, game_id, turn, state, error);
}

/* The game's worker stopped with it, however it ended: its last response
 * is committed now. */
static gboolean
sink_game_left (KomiSeriesSink         *sink,
                const KomiPlannedGame  *game,
                GError                **error)
{
  KomiStoreSink *self = store_sink (sink);
  gint64 game_id;

  return game_id_of (self, game, &game_id, error)
         && komi_store_flush_calls (self->store, game_id, error);
}

static gboolean
sink_end_run (KomiSeriesSink  *sink,
              const char      *how,
              GError         **error)
{
  KomiStoreSink *self = store_sink (sink);
  int fd = self->run_fd;

  self->run_fd = -1;
  return komi_store_end_run (self->store, komi_store_sink_get_series_id (sink), fd, how, error);
}

static const KomiSeriesSinkClass store_sink_class = {
  .begin_series = sink_begin_series,
  .game_state = sink_game_state,
  .game_started = sink_game_started,
  .move_played = sink_move_played,
  .game_finished = sink_game_finished,
  .call_attempt = sink_call_attempt,
  .turn_state = sink_turn_state,
  .game_left = sink_game_left,
  .end_run = sink_end_run,
};

KomiSeriesSink *
komi_store_new_sink (KomiStore *store)
{
  KomiStoreSink *self;

  g_return_val_if_fail (store != NULL && komi_store_is_writer (store), NULL);

  self = g_new0 (KomiStoreSink, 1);
  self->parent.klass = &store_sink_class;
  self->store = komi_store_ref (store);
  g_mutex_init (&self->lock);
  self->game_ids = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  self->in_flight = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  self->run_fd = -1;
  return &self->parent;
}

void
komi_store_sink_free (KomiSeriesSink *sink)
{
  KomiStoreSink *self;

  if (sink == NULL)
    return;
  self = store_sink (sink);
  /* Only a run the runner never ended: its lock goes, and with no end
   * recorded it looks like the crash it nearly was. */
  if (self->run_fd >= 0)
    close (self->run_fd);
  g_hash_table_destroy (self->game_ids);
  g_hash_table_destroy (self->in_flight);
  g_mutex_clear (&self->lock);
  komi_store_unref (self->store);
  g_free (self);
}

gint64
komi_store_sink_get_series_id (KomiSeriesSink *sink)
{
  KomiStoreSink *self = store_sink (sink);
  gint64 id;

  g_mutex_lock (&self->lock);
  id = self->series_id;
  g_mutex_unlock (&self->lock);
  return id;
}

KomiStore *
komi_store_sink_get_store (KomiSeriesSink *sink)
{
  return store_sink (sink)->store;
}

void
komi_store_sink_set_observer (KomiSeriesSink   *sink,
                              KomiRunEventFunc  func,
                              gpointer          user_data)
{
  KomiStoreSink *self = store_sink (sink);

  self->observer = func;
  self->observer_data = user_data;
}
