/* komi-live-run.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-library.h"
#include "komi-store-sink.h"

G_BEGIN_DECLS

/* The live state of the run in the window, kept from its events alone (no
 * read of the library): the games played in it, the moves and answered
 * calls each got since it started in this run, and which game the user
 * follows. GTK-free, so its logic is tested without a display; the
 * series page and its lists draw it. Main thread only. */

/* One event as the job hands it to the main thread: a copy of the
 * sink's KomiRunEvent that owns what it holds. */
typedef struct
{
  KomiRunEventKind  kind;
  gint64            series_id;
  gint64            game_id;
  guint             plan_index;
  guint             turn;        /* MOVE_PLAYED, CALL_ANSWERED; GAME_STARTED: moves resumed */
  KomiMove          move;        /* MOVE_PLAYED */
  KomiStoreCall    *call;        /* CALL_ANSWERED, brief (komi_store_call_copy_brief);
                                  * its id is the library's row */
  double            cost_usd;    /* CALL_ANSWERED: < 0 when unknown */
  char             *result;      /* GAME_FINISHED: "B+3.5" */
} KomiLiveEvent;

KomiLiveEvent *komi_live_event_new  (KomiRunEventKind  kind,
                                     gint64            game_id);
/* A copy of the sink's @event (any thread). */
KomiLiveEvent *komi_live_event_new_from_run (const KomiRunEvent *event);
void           komi_live_event_free (KomiLiveEvent    *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiLiveEvent, komi_live_event_free)

/* A game played in this run. */
typedef struct
{
  gint64      id;
  guint       plan_index;
  gboolean    playing;          /* started and not finished in this run */
  guint       first_turn;       /* the turn of moves[0]: the moves before were resumed */
  GArray     *moves;            /* KomiMove told since it started, in turn order */
  GPtrArray  *calls;            /* KomiStoreCall answered since it started */
  char       *result;           /* once finished */
} KomiLiveGame;

#define KOMI_TYPE_LIVE_RUN (komi_live_run_get_type ())
G_DECLARE_FINAL_TYPE (KomiLiveRun, komi_live_run, KOMI, LIVE_RUN, GObject)

KomiLiveRun        *komi_live_run_new            (void);
/* A new run begins: the games of the last one are forgotten; following
 * stays as it was. */
void                komi_live_run_reset          (KomiLiveRun          *self);
/* Takes the event in: "game-changed" (game id, KomiRunEventKind) for a
 * game's event, "notify::paused"/"notify::over" for the run's, and
 * "notify::followed" when the game to follow changes. */
void                komi_live_run_apply          (KomiLiveRun          *self,
                                                  const KomiLiveEvent  *event);
/* The game @game_id as played in this run; NULL: not played in it. */
const KomiLiveGame *komi_live_run_get_game       (KomiLiveRun          *self,
                                                  gint64                game_id);
/* The moves of @game_id known to the run (resumed ones and those played
 * since), or @stored when the run knows fewer (or nothing) of the game. */
guint               komi_live_run_count_moves    (KomiLiveRun          *self,
                                                  gint64                game_id,
                                                  guint                 stored);
/* Games in play now. */
guint               komi_live_run_get_n_playing  (KomiLiveRun          *self);
gboolean            komi_live_run_get_paused     (KomiLiveRun          *self);
gboolean            komi_live_run_get_over       (KomiLiveRun          *self);

/* Following the run: the page shows the game followed and moves on with
 * the run. While following, a game that starts is followed when the one
 * followed is no longer in play; a followed game that ends gives way to
 * the game in play that started first, or stays until the next starts. */
void                komi_live_run_set_following  (KomiLiveRun          *self,
                                                  gboolean              following);
gboolean            komi_live_run_get_following  (KomiLiveRun          *self);
/* Follows @game_id (a game the user chose at its latest move). */
void                komi_live_run_follow_game    (KomiLiveRun          *self,
                                                  gint64                game_id);
/* The game to show while following; 0: none yet. */
gint64              komi_live_run_get_followed   (KomiLiveRun          *self);

/* Brings @replay (a read of game @game_id, however old) up to the run:
 * the moves played since its read are added (in place: its pointers to
 * colours change) and the calls answered laid over it, by their rows.
 * FALSE with @error when a move does not replay. */
gboolean            komi_live_run_update_replay  (KomiLiveRun          *self,
                                                  KomiReplay           *replay,
                                                  GError              **error);

G_END_DECLS
