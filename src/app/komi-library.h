/* komi-library.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-library-items.h"

G_BEGIN_DECLS

/* The user's library as the application sees it: list models of its
 * series (with per-opponent results and games), its players and the
 * ratings against the frozen ladder. Every read happens on a worker thread
 * on a reader connection of its own; the models change on the main
 * thread only, all at once when a read completes. */

#define KOMI_TYPE_LIBRARY (komi_library_get_type ())
G_DECLARE_FINAL_TYPE (KomiLibrary, komi_library, KOMI, LIBRARY, GObject)

typedef enum
{
  KOMI_LIBRARY_STATE_LOADING,
  KOMI_LIBRARY_STATE_READY,
  KOMI_LIBRARY_STATE_MISSING,   /* no file yet: nothing has been run */
  KOMI_LIBRARY_STATE_FAILED,    /* the message says why and what to do */
} KomiLibraryState;

/* One attempt of a model call, as the review shows it. */
typedef struct
{
  gint64  id;                   /* the library's row */
  guint   turn;                 /* the move being decided, from 1 */
  guint   attempt;
  char   *question;             /* "play_or_pass", "best_point" */
  double  latency_ms;
  gint64  tokens_input;         /* -1: not reported */
  gint64  tokens_output;
  gint64  tokens_reasoning;
  char   *answer;               /* the option chosen; NULL: none valid */
  char   *outcome;              /* "ok", "invalid", "transport", … */
  char   *model_version;
} KomiReplayCall;

/* A copy of @call, to free with komi_replay_call_free(). */
KomiReplayCall   *komi_replay_call_copy           (const KomiReplayCall *call);
void              komi_replay_call_free           (KomiReplayCall       *call);

/* A game loaded for review: its moves and the position after each. */
typedef struct
{
  KomiStoreGame *game;          /* loaded: moves, dead stones, area owners */
  GArray        *calls;         /* KomiReplayCall of a model's game, in turn order; or NULL */
  guint          size;
  guint          n_steps;       /* positions: the start and one per move */
  guint8        *colors;        /* n_steps * size * size */
  char          *summary;       /* the count in words, or why it did not count */
} KomiReplay;

KomiLibrary      *komi_library_new                (const char           *path);
const char       *komi_library_get_path           (KomiLibrary          *self);
KomiLibraryState  komi_library_get_state          (KomiLibrary          *self);
/* Why the library is missing or failed, in words that say what to do. */
const char       *komi_library_get_message        (KomiLibrary          *self);
/* Why there are no ratings (no ladder yet, or the fit failed); NULL when
 * there are. */
const char       *komi_library_get_ratings_message (KomiLibrary         *self);
/* "Elo on the Protocol 1 ladder shipped with Komi", or NULL: no ladder. */
const char       *komi_library_get_ratings_caption (KomiLibrary         *self);
/* TRUE while a read's rows replace the old ones: selection changes seen
 * then are the models', not the user's. */
gboolean          komi_library_is_replacing       (KomiLibrary          *self);
GListModel       *komi_library_get_series         (KomiLibrary          *self);
GListModel       *komi_library_get_players        (KomiLibrary          *self);
GListModel       *komi_library_get_ratings        (KomiLibrary          *self);
/* Every game started, ended or imported (KomiGameItem), in the store's
 * order; the rows are those of the series' games lists. */
GListModel       *komi_library_get_games          (KomiLibrary          *self);
/* A series whose last run died (the process killed or crashed, not
 * stopped) with games left, as of the last read: the latest such, or
 * NULL. A series running now in any process is never one. */
KomiSeriesItem   *komi_library_get_interrupted    (KomiLibrary          *self);
/* The user chose not to continue @series_id's dead run: recorded (a
 * "dismissed" run end) so that it is not offered again. */
void              komi_library_dismiss_interrupted_async  (KomiLibrary         *self,
                                                           gint64               series_id,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean          komi_library_dismiss_interrupted_finish (KomiLibrary         *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
/* Reads the library again, off the main thread; "state" is notified when
 * the read is done. */
void              komi_library_reload             (KomiLibrary          *self);

void              komi_library_load_game_async    (KomiLibrary          *self,
                                                   gint64                game_id,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
KomiReplay       *komi_library_load_game_finish   (KomiLibrary          *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

/* The same game, replayed from a loaded record (for tests and imports). */
KomiReplay       *komi_replay_new                 (KomiStoreGame        *game,
                                                   GError              **error);
const guint8     *komi_replay_get_colors          (const KomiReplay     *replay,
                                                   guint                 step);
/* The move number of each stone standing at @step into @numbers. */
void              komi_replay_get_numbers         (const KomiReplay     *replay,
                                                   guint                 step,
                                                   guint                *numbers);
/* The model calls made for move @turn, in words ("2 calls: …"); NULL when
 * none was made. Answers are named as the model gave them (in the frame
 * it was shown) and, where that differs, as on a board turned @shown
 * ("G2 (C8 on this board)"). */
char             *komi_replay_describe_calls      (const KomiReplay     *replay,
                                                   guint                 turn,
                                                   KomiOrientation       shown);
/* A model's answer @answer (a point's name in the model's frame, or any
 * other answer) as komi_replay_describe_calls() words it. */
char             *komi_replay_answer_text         (const KomiReplay     *replay,
                                                   const char           *answer,
                                                   KomiOrientation       shown);
/* The point of the move that led to @step; KOMI_NO_POINT at the start. */
KomiPoint         komi_replay_get_last_move       (const KomiReplay     *replay,
                                                   guint                 step);
/* Folds an attempt answered meanwhile into @replay's calls: the row with
 * its id gets its response, or it is added (numbered after the attempts
 * of its turn and question already there). */
void              komi_replay_merge_call          (KomiReplay           *replay,
                                                   const KomiReplayCall *call);
void              komi_replay_free                (KomiReplay           *replay);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiReplay, komi_replay_free)

G_END_DECLS
