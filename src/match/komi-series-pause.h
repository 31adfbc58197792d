/* komi-series-pause.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A run's pause switch, thrown from any thread. While it is on, each game
 * waits between moves (the move or model call under way completes first;
 * the engines stay up) and no game starts; cancelling the run still ends
 * it at once. Paused time counts in neither a game's seconds nor the
 * run's elapsed time and ETA. */
typedef struct _KomiSeriesPause KomiSeriesPause;

KomiSeriesPause  *komi_series_pause_new      (void);
KomiSeriesPause  *komi_series_pause_ref      (KomiSeriesPause        *pause);
void              komi_series_pause_unref    (KomiSeriesPause        *pause);
void              komi_series_pause_set      (KomiSeriesPause        *pause,
                                              gboolean                paused);
gboolean          komi_series_pause_get      (KomiSeriesPause        *pause);
/* Microseconds spent paused since @pause was made, a pause under way
 * included. */
gint64            komi_series_pause_get_time (KomiSeriesPause        *pause);
/* How many threads are held in komi_series_pause_wait() now: a run of N
 * jobs is wholly still once N are. */
guint             komi_series_pause_get_waiting (KomiSeriesPause     *pause);
/* Blocks while @pause is on: TRUE once it is off (*@waited: the
 * microseconds waited), FALSE with G_IO_ERROR_CANCELLED as soon as
 * @cancellable is cancelled. */
gboolean          komi_series_pause_wait     (KomiSeriesPause        *pause,
                                              GCancellable           *cancellable,
                                              gint64                 *waited,
                                              GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiSeriesPause, komi_series_pause_unref)

G_END_DECLS
