/* komi-review-data.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-library.h"

G_BEGIN_DECLS

/* One attempt of a model call with everything the library keeps of it:
 * what the call inspector shows and what "Copy as curl" rebuilds. */
typedef struct
{
  gint64   id;
  guint    turn;
  guint    attempt;
  char    *question;
  char    *started;
  char    *request_url;
  char    *request_headers;    /* JSON object text, secrets already "[redacted]" */
  char    *request_body;
  gint     status;             /* 0: no response */
  GBytes  *response_body;
  double   latency_ms;
  gint64   tokens_input;       /* -1: not reported */
  gint64   tokens_output;
  gint64   tokens_reasoning;
  char    *model_version;
  char    *finish_reason;
  char    *answer;
  char    *outcome;
  char    *error;
  char    *probabilities;      /* JSON object text {"option": p}; NULL: none */
  gint     decided;            /* 1: its answer decided the move; 0: it decided nothing;
                                * -1: not known yet (the move is still being decided) */
} KomiReviewCall;

/* A game as the review window shows it: the replay, every attempt of its
 * model's calls (turn order, then the order they were made), the engine's
 * analysis if there is one, and where the model's key comes from. */
typedef struct
{
  KomiReplay        *replay;
  GPtrArray         *calls;      /* KomiReviewCall * */
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
GHashTable *komi_review_call_probabilities (const KomiReviewCall *call);

/* Reads game @game_id for review on a worker thread. */
void        komi_review_load_async         (KomiLibrary         *library,
                                            gint64               game_id,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
KomiReview *komi_review_load_finish        (GAsyncResult        *result,
                                            GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiReview, komi_review_free)

G_END_DECLS
