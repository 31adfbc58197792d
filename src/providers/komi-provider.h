/* komi-provider.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-protocol-state.h"
#include "komi-provider-keys.h"
#include "komi-provider-profile.h"
#include "komi-wire-common.h"

G_BEGIN_DECLS

#define KOMI_PROVIDER_ERROR (komi_provider_error_quark ())
GQuark komi_provider_error_quark (void);

/* Faults are kept apart: each code tells the caller what to do next.
 * Cancellation is G_IO_ERROR_CANCELLED. */
typedef enum
{
  /* Refusal, empty, truncated, filtered or invalid answer: ask again (up
   * to 3 attempts in all), then the game ends by forfeit. */
  KOMI_PROVIDER_ERROR_MODEL_FAULT,
  /* Transport faults past the retry budget: pause the series, resume later. */
  KOMI_PROVIDER_ERROR_TRANSPORT_BUDGET,
  /* Retrying cannot fix it (key, model, quota, bad request): stop and fix. */
  KOMI_PROVIDER_ERROR_FATAL,
} KomiProviderError;

/* One HTTP exchange of a call, mirroring KomiStoreCall field by field so
 * that recording it is a copy. Strings are NULL when unknown and live
 * until the callback returns. No field ever holds the key. Each attempt
 * is reported twice: with @in_flight just before its request is sent
 * (only the request half, @started and @logprobs_requested are set;
 * outcome KOMI_PROVIDER_OUTCOME_IN_FLIGHT), then complete once the
 * response or the fault is known. */
typedef struct
{
  gboolean             in_flight;
  const char          *question;          /* "play_or_pass", "best_point" */
  guint                attempt;           /* within this call, from 1 */
  const char          *started;           /* ISO 8601, UTC */
  const char          *request_url;
  const char          *request_headers;   /* JSON object text, secrets redacted */
  const char          *request_body;
  gint                 response_status;   /* 0: no response */
  const char          *response_headers;  /* JSON object text */
  GBytes              *response_body;     /* the raw bytes */
  double               latency_ms;
  gint64               tokens_input;      /* -1: not reported */
  gint64               tokens_output;     /* reasoning included, as billed */
  gint64               tokens_reasoning;
  gint64               tokens_cached;
  const char          *model_version;     /* model / modelVersion from the body */
  const char          *finish_reason;
  const char          *answer;            /* the valid option, or NULL */
  KomiProviderOutcome  outcome;
  const char          *error;
  /* Beyond KomiStoreCall. */
  const char          *system_fingerprint;
  const char          *response_id;
  gboolean             model_mismatch;    /* model_version is not the pinned model */
  gboolean             logprobs_requested;
  const char          *option_probabilities;  /* JSON {"option": p, …} or NULL */
  double               retry_delay;       /* seconds waited before the next attempt; -1 none */
  double               cost_usd;          /* the tokens at the profile's prices; -1: unknown */
} KomiProviderAttempt;

/* Called on the asking thread before each request is sent and after its
 * exchange, before it is acted on. Returning FALSE (e.g. the record could
 * not be written) ends the call with that error; before the request, it
 * is then never sent. */
typedef gboolean (*KomiProviderAttemptFunc) (const KomiProviderAttempt *attempt,
                                             gpointer                   user_data,
                                             GError                   **error);

typedef struct _KomiProvider KomiProvider;

/* Reads the key filed under the profile's key_env in the process's table
 * (komi-provider-keys.h), else the environment variable of that name, now. */
KomiProvider              *komi_provider_new         (const KomiProviderProfile  *profile,
                                                      GError                    **error);
/* The same with @key given (NULL or "": none), whatever the environment
 * holds: for a key read from the keyring or typed in a dialog. */
KomiProvider              *komi_provider_new_with_key (const KomiProviderProfile  *profile,
                                                       const char                 *key,
                                                       GError                    **error);
KomiProvider              *komi_provider_ref         (KomiProvider               *self);
void                       komi_provider_unref       (KomiProvider               *self);
const KomiProviderProfile *komi_provider_get_profile (KomiProvider               *self);

/* Asks @question about @state in one call (thread-safe; blocking), with
 * transport faults retried within the profile's budget. Returns a valid
 * option in @answer, or FALSE with a KOMI_PROVIDER_ERROR. */
gboolean                   komi_provider_ask         (KomiProvider               *self,
                                                      const KomiProtocolState    *state,
                                                      KomiProtocolQuestion        question,
                                                      KomiProviderAttemptFunc     on_attempt,
                                                      gpointer                    user_data,
                                                      char                      **answer,
                                                      GCancellable               *cancellable,
                                                      GError                    **error);

/* The cost of an attempt's tokens at the profile's prices (counts not
 * reported count 0). */
double                     komi_provider_attempt_cost (const KomiProviderProfile *profile,
                                                       const KomiProviderAttempt *attempt);

/* A cost in US dollars as every part of Komi writes it: "$0" when
 * nothing was spent (a rehearsal, a free model), "$0.0123" otherwise, and
 * "< $0.0001" for less than the last digit shows. @usd is known
 * (not NAN) and not negative. */
char                      *komi_cost_text             (double usd);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiProvider, komi_provider_unref)

G_END_DECLS
