/* komi-replay.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "komi-go-types.h"
#include "komi-orientation.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* A game loaded for review: its moves and the position after each. */
typedef struct
{
  KomiStoreGame *game;          /* loaded: moves, dead stones, area owners */
  GPtrArray     *calls;         /* KomiStoreCall * (owned copies) of a model's game, in turn
                                 * order, then in the order they were made; or NULL */
  guint          size;
  guint          n_steps;       /* positions: the start and one per move */
  guint8        *colors;        /* n_steps * size * size */
  char          *summary;       /* the count in words, or why it did not count */
  gboolean       run_gone;      /* marked running, but no run holds its series (killed,
                                 * stopped): no move is being decided */
} KomiReplay;

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
                                                   const KomiStoreCall  *call);
/* A game marked running whose series no process runs (komi_store_run_is_live()):
 * its calls still out will never be answered, and are said to be
 * interrupted, as continuing the series records them. Sets run_gone. */
void              komi_replay_mark_run_gone       (KomiReplay           *replay);
/* The same test for a game just read from @store. */
gboolean          komi_replay_run_is_gone         (KomiStore            *store,
                                                   const KomiStoreGame  *game);
void              komi_replay_free                (KomiReplay           *replay);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiReplay, komi_replay_free)

G_END_DECLS
