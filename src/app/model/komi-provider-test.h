/* komi-provider-test.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-provider-profile.h"

G_BEGIN_DECLS

/* "Test" for a provider profile: one real Protocol 1 request (best_point
 * on the empty 9x9 board, Black to play) on a worker thread, with what
 * the exchange reported. */

typedef struct
{
  char   *answer;          /* "E5" */
  char   *model_version;   /* as the response names it; NULL if it does not */
  double  latency_ms;      /* of the last exchange */
  gint64  tokens_input;    /* -1: not reported */
  gint64  tokens_output;
  guint   attempts;
  guint   status;          /* the last response's HTTP status; 0: none */
} KomiProviderTest;

/* @key: NULL or "" for none; copied, and wiped when the test is done. */
void              komi_provider_test_async    (const KomiProviderProfile *profile,
                                               const char                *key,
                                               GCancellable              *cancellable,
                                               GAsyncReadyCallback        callback,
                                               gpointer                   user_data);
KomiProviderTest *komi_provider_test_finish   (GAsyncResult              *result,
                                               GError                   **error);
/* "✓ E5 in 812 ms; 503 tokens in, 12 out; model gpt-4.1-mini-2025-04-14" */
char             *komi_provider_test_describe (const KomiProviderTest    *test);
void              komi_provider_test_free     (KomiProviderTest          *test);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiProviderTest, komi_provider_test_free)

G_END_DECLS
