/* komi-series-pause.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-match"

#include "config.h"

#include "komi-series-pause.h"

struct _KomiSeriesPause
{
  gatomicrefcount  ref_count;
  /* Read without the lock on every turn of every game: the common case,
   * not paused, costs one atomic load and nothing else. */
  gint             paused;
  GMutex           lock;
  GCond            cond;           /* broadcast on resume and on cancellation */
  gint64           since;          /* when the pause under way began; under @lock */
  gint64           total;          /* microseconds of pauses that ended; under @lock */
  guint            waiting;        /* threads in komi_series_pause_wait(); under @lock */
};

KomiSeriesPause *
komi_series_pause_new (void)
{
  KomiSeriesPause *self = g_new0 (KomiSeriesPause, 1);

  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  return self;
}

KomiSeriesPause *
komi_series_pause_ref (KomiSeriesPause *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
komi_series_pause_unref (KomiSeriesPause *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

void
komi_series_pause_set (KomiSeriesPause *self,
                       gboolean         paused)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  if (paused && !g_atomic_int_get (&self->paused))
    self->since = g_get_monotonic_time ();
  else if (!paused && g_atomic_int_get (&self->paused))
    self->total += g_get_monotonic_time () - self->since;
  g_atomic_int_set (&self->paused, paused ? 1 : 0);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

gboolean
komi_series_pause_get (KomiSeriesPause *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return g_atomic_int_get (&self->paused) != 0;
}

gint64
komi_series_pause_get_time (KomiSeriesPause *self)
{
  gint64 total;

  g_return_val_if_fail (self != NULL, 0);

  g_mutex_lock (&self->lock);
  total = self->total;
  if (g_atomic_int_get (&self->paused))
    total += g_get_monotonic_time () - self->since;
  g_mutex_unlock (&self->lock);
  return total;
}

/* On the cancelling thread: the lock makes sure a waiter is either not yet
 * checking (and will see the cancellation) or already waiting (and wakes). */
guint
komi_series_pause_get_waiting (KomiSeriesPause *self)
{
  guint waiting;

  g_return_val_if_fail (self != NULL, 0);

  g_mutex_lock (&self->lock);
  waiting = self->waiting;
  g_mutex_unlock (&self->lock);
  return waiting;
}

static void
wake (GCancellable *cancellable, KomiSeriesPause *self)
{
  g_mutex_lock (&self->lock);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

gboolean
komi_series_pause_wait (KomiSeriesPause  *self,
                        GCancellable     *cancellable,
                        gint64           *waited,
                        GError          **error)
{
  gint64 began;
  gulong handler = 0;
  gboolean cancelled;

  g_return_val_if_fail (self != NULL, FALSE);

  if (waited != NULL)
    *waited = 0;
  if (!g_atomic_int_get (&self->paused))
    return !g_cancellable_set_error_if_cancelled (cancellable, error);

  began = g_get_monotonic_time ();
  /* Connected before the lock is taken: connecting to a cancelled
   * cancellable runs wake() at once, which takes the lock. */
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (wake), self, NULL);
  g_mutex_lock (&self->lock);
  self->waiting++;
  while (g_atomic_int_get (&self->paused) && !g_cancellable_is_cancelled (cancellable))
    g_cond_wait (&self->cond, &self->lock);
  self->waiting--;
  g_mutex_unlock (&self->lock);
  /* Outside the lock: disconnecting waits for a wake() under way. */
  g_cancellable_disconnect (cancellable, handler);

  if (waited != NULL)
    *waited = g_get_monotonic_time () - began;
  cancelled = g_cancellable_set_error_if_cancelled (cancellable, error);
  return !cancelled;
}
