/* komi-store-sink.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-store.h"

G_BEGIN_DECLS

/* The library as the series runner's sink (KomiSeriesSink in
 * komi-series.h): every call is one transaction of the store's writer,
 * committed when it returns (moves and call attempts synced to the disk
 * within half a second, the rest at once), safe from several worker
 * threads at once — except a call attempt's response, which commits with
 * the game's next write or game_left (komi_store_complete_call). One
 * sink records one series, the one its begin_series named; running the
 * same series again (same digest) continues it. Turns are move numbers:
 * the first move of a game is turn 1. */

/* @store must be open for writing; the sink keeps a reference. */
KomiSeriesSink *komi_store_new_sink            (KomiStore      *store);
void            komi_store_sink_free           (KomiSeriesSink *sink);
/* The series begin_series recorded or found; 0 before it. */
gint64          komi_store_sink_get_series_id  (KomiSeriesSink *sink);
KomiStore      *komi_store_sink_get_store      (KomiSeriesSink *sink);

/* Told of each answered attempt on the game's worker thread, as soon as
 * the store has it (it commits with the game's next write): @call_id is
 * its row, in flight in the library until then; @call's strings live
 * until the function returns. For a live view of the calls that adds no
 * commit (and no sync) of its own. */
typedef void    (*KomiStoreSinkCallFunc)        (gint64               game_id,
                                                 gint64               call_id,
                                                 const KomiStoreCall *call,
                                                 gpointer             user_data);
/* Set before the run starts. */
void            komi_store_sink_set_call_func  (KomiSeriesSink        *sink,
                                                KomiStoreSinkCallFunc  func,
                                                gpointer               user_data);

G_END_DECLS
