/* komi-review.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <glib/gi18n-lib.h>

#include "komi-game.h"
#include "komi-review.h"

static double
option_or (double value, double fallback)
{
  return value > 0 ? value : fallback;
}

KomiStoreAnalysis *
komi_review_analyse_game (KomiAnalysisEngine      *engine,
                          const KomiStoreGame     *game,
                          const KomiReviewOptions *options,
                          KomiReviewProgress       progress,
                          gpointer                 user_data,
                          GCancellable            *cancellable,
                          GError                 **error)
{
  g_autoptr(KomiStoreAnalysis) analysis = NULL;
  g_autoptr(KomiGame) replay = NULL;
  g_autofree double *leads = NULL;    /* per position: the side to move's lead */
  g_autofree KomiPoint *bests = NULL;
  const KomiMove *moves;
  gint64 started = g_get_monotonic_time ();
  guint n;

  g_return_val_if_fail (engine != NULL && game != NULL && options != NULL, NULL);
  g_return_val_if_fail (game->moves != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (game->setup != NULL)
    {
      g_set_error (error, KOMI_REVIEW_ERROR, KOMI_REVIEW_ERROR_UNSUPPORTED,
                   _("Game %" PRId64 " starts from setup stones, which the review "
                     "cannot give the engine; it was not analysed"), game->id);
      return NULL;
    }
  n = game->moves->len;
  moves = (const KomiMove *) game->moves->data;

  /* The record is replayed under our rules first: a damaged one fails
   * here with a reason, not halfway through in the engine. */
  replay = komi_game_new (game->size, MAX (game->max_turns, n));
  for (guint i = 0; i < n; i++)
    if (!komi_game_play (replay, moves[i].point, error))
      return NULL;

  if (!komi_analysis_engine_reset (engine, game->size, game->komi, cancellable, error))
    return NULL;
  leads = g_new (double, n + 1);
  bests = g_new (KomiPoint, n + 1);
  for (guint i = 0; i <= n; i++)
    {
      /* After the last move the other side is to play. */
      KomiColor to_move = KOMI_BLACK;

      if (i < n)
        to_move = moves[i].color;
      else if (n > 0)
        to_move = moves[n - 1].color == KOMI_BLACK ? KOMI_WHITE : KOMI_BLACK;

      if (!komi_analysis_engine_evaluate (engine, game->size, to_move, &leads[i], &bests[i],
                                          cancellable, error))
        return NULL;
      if (i < n && !komi_analysis_engine_play (engine, game->size, &moves[i], cancellable, error))
        return NULL;
      if (progress != NULL)
        progress (game->id, i + 1, n + 1, user_data);
    }

  analysis = komi_store_analysis_new ();
  analysis->game_id = game->id;
  analysis->engine = g_strdup (komi_analysis_engine_get_name (engine));
  analysis->engine_version = g_strdup (komi_analysis_engine_get_version (engine));
  analysis->label = g_strdup (komi_analysis_engine_get_label (engine));
  analysis->settings = komi_analysis_engine_dup_settings (engine);
  analysis->mistake = option_or (options->mistake, KOMI_REVIEW_DEFAULT_MISTAKE);
  analysis->blunder = MAX (analysis->mistake,
                           option_or (options->blunder, KOMI_REVIEW_DEFAULT_BLUNDER));
  for (guint i = 0; i < n; i++)
    {
      KomiStoreAnalysisMove m = {
        .turn = i + 1,
        .color = moves[i].color,
        .point = moves[i].point,
        .lead_before = leads[i],
        /* The next position is the opponent's to play: negate its lead. */
        .lead_after = -leads[i + 1],
        .best = bests[i],
      };

      /* By the engine's own judgement its choice loses nothing; without
       * this, GNU Go's play-out noise would mark some of its own moves. */
      m.loss = m.point == m.best ? 0 : MAX (0, m.lead_before - m.lead_after);
      g_array_append_val (analysis->moves, m);
    }
  analysis->seconds = (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC;
  return g_steal_pointer (&analysis);
}

/* The series path: @jobs threads take the next game until none is left or
 * one fails; the first failure cancels the rest. */
typedef struct
{
  KomiStore               *store;
  const GArray            *game_ids;
  const KomiReviewOptions *options;
  KomiReviewProgress       progress;
  gpointer                 user_data;
  GCancellable            *cancellable;  /* ours, cancelled by the caller's or a failure */
  gint                     next;
  GMutex                   lock;
  GError                  *error;
} Batch;

static void
batch_fail (Batch *batch, GError *error)
{
  g_mutex_lock (&batch->lock);
  /* A failure outranks the cancellations it causes in the other threads. */
  if (batch->error == NULL
      || (g_error_matches (batch->error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    {
      g_clear_error (&batch->error);
      batch->error = error;
    }
  else
    g_error_free (error);
  g_mutex_unlock (&batch->lock);
  g_cancellable_cancel (batch->cancellable);
}

static gboolean
is_engine_fault (const GError *error)
{
  return g_error_matches (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED)
         || g_error_matches (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_TIMEOUT)
         || g_error_matches (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PROTOCOL);
}

static gpointer
batch_worker (gpointer data)
{
  Batch *batch = data;
  g_autoptr(KomiAnalysisEngine) engine = NULL;
  GError *error = NULL;
  gint index;

  while (error == NULL
         && (index = g_atomic_int_add (&batch->next, 1)) < (gint) batch->game_ids->len)
    {
      gint64 id = g_array_index (batch->game_ids, gint64, index);
      g_autoptr(KomiStoreGame) game = NULL;
      g_autoptr(KomiStoreAnalysis) analysis = NULL;

      if ((game = komi_store_load_game (batch->store, id, &error)) == NULL)
        break;
      for (guint attempt = 0; analysis == NULL && error == NULL; attempt++)
        {
          /* One engine per thread, started with its first game. */
          if (engine == NULL
              && (engine = komi_analysis_engine_new (batch->options->recipe,
                                                     batch->cancellable, &error)) == NULL)
            break;
          analysis = komi_review_analyse_game (engine, game, batch->options, batch->progress,
                                               batch->user_data, batch->cancellable, &error);
          /* An engine fault (it died, hung, or answered garbage) restarts
           * the engine and replays the game once, as a series does. */
          if (analysis == NULL && attempt == 0 && is_engine_fault (error)
              && !g_cancellable_is_cancelled (batch->cancellable))
            {
              g_debug ("Analysis engine fault on game %" G_GINT64_FORMAT " (%s); restarting it",
                       id, error->message);
              g_clear_error (&error);
              g_clear_pointer (&engine, komi_analysis_engine_free);
            }
        }
      if (analysis == NULL || !komi_store_put_analysis (batch->store, analysis, &error))
        break;
    }
  if (error != NULL)
    batch_fail (batch, error);
  return NULL;
}

static void
forward_cancel (GCancellable *caller, gpointer ours)
{
  g_cancellable_cancel (ours);
}

gboolean
komi_review_analyse_games (KomiStore               *store,
                           const GArray            *game_ids,
                           const KomiReviewOptions *options,
                           KomiReviewProgress       progress,
                           gpointer                 user_data,
                           GCancellable            *cancellable,
                           GError                 **error)
{
  g_autoptr(GCancellable) ours = g_cancellable_new ();
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  Batch batch = { 0, };
  gulong handler = 0;
  guint jobs;

  g_return_val_if_fail (store != NULL && komi_store_is_writer (store), FALSE);
  g_return_val_if_fail (game_ids != NULL && options != NULL && options->recipe != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel), ours, NULL);

  batch.store = store;
  batch.game_ids = game_ids;
  batch.options = options;
  batch.progress = progress;
  batch.user_data = user_data;
  batch.cancellable = ours;
  g_mutex_init (&batch.lock);

  /* The store serialises its connection, so every thread writes through
   * the one writer; each thread owns its engine process. */
  jobs = CLAMP (options->jobs, 1, MAX (game_ids->len, 1));
  for (guint i = 0; i < jobs; i++)
    g_ptr_array_add (threads, g_thread_new ("komi-review", batch_worker, &batch));
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));

  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, handler);
  g_mutex_clear (&batch.lock);
  if (batch.error != NULL)
    {
      g_propagate_error (error, batch.error);
      return FALSE;
    }
  return komi_store_sync (store, error);
}
