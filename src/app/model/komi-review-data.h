/* komi-review-data.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-library.h"

G_BEGIN_DECLS

/* A game as the review window and the series page show it: the replay,
 * every attempt of its model's calls (turn order, then the order they
 * were made), the engine's analysis if there is one, and where the
 * model's key comes from. */
typedef struct
{
  KomiReplay        *replay;
  GPtrArray         *calls;      /* KomiStoreCall *: the replay's calls (the same
                                  * array), empty when the game has none */
  KomiStoreAnalysis *analysis;   /* NULL: not analysed */
  char              *api;        /* the model's wire format: "openai-chat", …; NULL */
  char              *key_env;    /* the variable its key is read from; NULL: none */
  guint             *captures;   /* n_steps * 2: stones taken so far by black, white */
} KomiReview;

void        komi_review_free               (KomiReview          *review);
/* Stones taken by @color up to @step. */
guint       komi_review_get_captures       (const KomiReview    *review,
                                            guint                step,
                                            KomiColor            color);
/* The option probabilities of @call, parsed; NULL when none were recorded. */
GHashTable *komi_review_call_probabilities (const KomiStoreCall *call);

typedef enum
{
  KOMI_REVIEW_LOAD_DEFAULT = 0,
  /* Each attempt with its exchange (request and response, headers and
   * bodies), as the call inspector shows it and "Copy as curl" rebuilds
   * it; without it, attempts are brief (komi_store_call_copy_brief), for
   * a page that reads a followed game again each second. */
  KOMI_REVIEW_LOAD_CALLS_IN_FULL = 1 << 0,
} KomiReviewLoadFlags;

/* Reads game @game_id on a worker thread: the one loader of a game, for
 * the review window (calls in full) and the series page. */
void        komi_review_load_async         (KomiLibrary         *library,
                                            gint64               game_id,
                                            KomiReviewLoadFlags  flags,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
KomiReview *komi_review_load_finish        (GAsyncResult        *result,
                                            GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiReview, komi_review_free)

G_END_DECLS
