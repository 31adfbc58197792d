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

/* What happened in a run, as its observer is told. The sink tells of the
 * games' events, on the game's worker thread, each once the store has it
 * (a call's response is kept and commits with the game's next write):
 * the rest are told by what runs the series (the window's job). */
typedef enum
{
  KOMI_RUN_EVENT_GAME_STARTED,    /* @record: the players' names and settings */
  KOMI_RUN_EVENT_MOVE_PLAYED,     /* @turn (from 1) and @move */
  KOMI_RUN_EVENT_CALL_ANSWERED,   /* @turn, @call_id and @call: one answered attempt */
  KOMI_RUN_EVENT_GAME_FINISHED,   /* @record: how it ended */
  KOMI_RUN_EVENT_RUN_PAUSED,
  KOMI_RUN_EVENT_RUN_RESUMED,
  KOMI_RUN_EVENT_RUN_STOPPED,     /* over: finished, stopped or failed */
} KomiRunEventKind;

typedef struct
{
  KomiRunEventKind       kind;
  gint64                 series_id;   /* the library's ids */
  gint64                 game_id;     /* 0 for the run's own events */
  guint                  plan_index;
  guint                  turn;
  const KomiMove        *move;
  gint64                 call_id;     /* the attempt's row, in flight until it commits */
  const KomiStoreCall   *call;
  const KomiGameRecord  *record;
} KomiRunEvent;

/* @event and what it points to live until the function returns. */
typedef void    (*KomiRunEventFunc)             (const KomiRunEvent  *event,
                                                 gpointer             user_data);
/* The one observer of the sink's events; set before the run starts. It
 * adds no commit (and no sync) of its own. */
void            komi_store_sink_set_observer   (KomiSeriesSink      *sink,
                                                KomiRunEventFunc     func,
                                                gpointer             user_data);

G_END_DECLS
