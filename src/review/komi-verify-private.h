/* komi-verify-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-provider-profile.h"
#include "komi-verify.h"

G_BEGIN_DECLS

/* What the parts of verify share: komi-verify.c walks a game's record
 * (moves, end, count, pins, dead stones), komi-verify-calls.c judges its
 * model attempts turn by turn, komi-verify-replay.c plays its engines
 * again. What they find is written in English, like the record it speaks
 * of and the JSON that scripts read (STYLE.md, "Words"). */

/* A model side of a game: its wire format, from its recorded settings. */
typedef struct
{
  KomiVerifiedGame *v;
  guint             size;
  KomiProviderApi   api;
} KomiVerifySide;

/* Records what does not hold of @v, found by @check. */
void       _komi_verify_problem    (KomiVerifiedGame *v,
                                    KomiVerifyCheck   check,
                                    const char       *format,
                                    ...) G_GNUC_PRINTF (3, 4);

/* komi-verify-calls.c */
/* Every attempt of game @g (KomiStoreCall copies, komi_store_call_copy(),
 * in the store's order). */
GPtrArray *_komi_verify_read_calls (KomiStore            *store,
                                    const KomiStoreGame  *g,
                                    GError              **error);
/* @side for the model playing @color of @g; FALSE (a problem recorded)
 * when its settings name no API. */
gboolean   _komi_verify_side_init  (KomiVerifySide       *side,
                                    KomiVerifiedGame     *v,
                                    const KomiStoreGame  *g,
                                    KomiColor             color);
/* The model's turn @turn (from 1) in @game, whose move is @move (NULL:
 * the game ended before it was played), against @calls, its attempts. */
void       _komi_verify_model_turn (KomiVerifySide       *side,
                                    const KomiGame       *game,
                                    KomiOrientation       orientation,
                                    guint                 turn,
                                    const KomiMove       *move,
                                    GPtrArray            *calls);

/* komi-verify-replay.c */
/* Plays @g's engines again from their recorded seeds and compares their
 * moves with the record's; adds to *@n_replayed the sides started again
 * and to *@n_unreplayed those that are engines but not replayed (gtp:
 * commands, which a record never gets to run); a side that would not
 * start is a problem of @v. FALSE only on cancellation. */
gboolean   _komi_verify_replay     (KomiVerifiedGame        *v,
                                    const KomiStoreGame     *g,
                                    const KomiPlayerOptions *engines,
                                    guint                   *n_replayed,
                                    guint                   *n_unreplayed,
                                    GCancellable            *cancellable,
                                    GError                 **error);

G_END_DECLS
