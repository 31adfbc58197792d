/* komi-rehearsal-faults.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

#define KOMI_REHEARSAL_ERROR (komi_rehearsal_error_quark ())

typedef enum
{
  KOMI_REHEARSAL_ERROR_FAULT_SPEC,   /* the fault spec does not parse */
  KOMI_REHEARSAL_ERROR_LISTEN,       /* the server could not listen (port in use…) */
} KomiRehearsalError;

GQuark komi_rehearsal_error_quark (void);

/* The four wire formats the rehearsal server speaks. */
typedef enum
{
  KOMI_REHEARSAL_API_CHAT,           /* OpenAI Chat Completions */
  KOMI_REHEARSAL_API_RESPONSES,      /* OpenAI Responses */
  KOMI_REHEARSAL_API_ANTHROPIC,      /* Anthropic Messages */
  KOMI_REHEARSAL_API_GEMINI,         /* Gemini generateContent */
} KomiRehearsalApi;

/* What can go wrong with one request, by the name the fault spec uses. */
typedef enum
{
  KOMI_REHEARSAL_FAULT_NONE,
  KOMI_REHEARSAL_FAULT_RATE_LIMIT,   /* "429": with retry-after, retry-after-ms */
  KOMI_REHEARSAL_FAULT_SERVER_ERROR, /* "500" */
  KOMI_REHEARSAL_FAULT_OVERLOADED,   /* "529": Anthropic's 529, 503 elsewhere */
  KOMI_REHEARSAL_FAULT_TIMEOUT,      /* "timeout": held, then the connection closed */
  KOMI_REHEARSAL_FAULT_MALFORMED,    /* "malformed": 200 with a body that is not JSON */
  KOMI_REHEARSAL_FAULT_TRUNCATED,    /* "truncated": cut answer, length finish reason */
  KOMI_REHEARSAL_FAULT_REFUSAL,      /* "refusal": the API's refusal shape */
  KOMI_REHEARSAL_FAULT_INVALID,      /* "invalid": an answer not among the options */
  KOMI_REHEARSAL_N_FAULTS
} KomiRehearsalFault;

/* Error responses the server sends, each in every API's own shape. */
typedef enum
{
  KOMI_REHEARSAL_REPLY_BAD_REQUEST,  /* 400 */
  KOMI_REHEARSAL_REPLY_UNAUTHORIZED, /* 401 */
  KOMI_REHEARSAL_REPLY_NOT_FOUND,    /* 404 */
  KOMI_REHEARSAL_REPLY_RATE_LIMIT,   /* 429 */
  KOMI_REHEARSAL_REPLY_SERVER_ERROR, /* 500 */
  KOMI_REHEARSAL_REPLY_OVERLOADED,   /* 529 (Anthropic) or 503 */
} KomiRehearsalReply;

typedef struct _KomiRehearsalFaults KomiRehearsalFaults;

/* Parses "429:0.1,500:0.05,timeout:0.01" (per-request probabilities) and
 * "429@3" (exactly the 3rd request), mixed freely; NULL or "" is no fault. */
KomiRehearsalFaults *komi_rehearsal_faults_parse     (const char                *spec,
                                                      GError                   **error);
void                 komi_rehearsal_faults_free      (KomiRehearsalFaults       *faults);
/* The fault of the @ordinal-th request (from 1): the "@" entries first,
 * then one seeded draw against the probabilities. */
KomiRehearsalFault   komi_rehearsal_faults_pick      (const KomiRehearsalFaults *faults,
                                                      guint64                    seed,
                                                      guint64                    ordinal);
const char          *komi_rehearsal_fault_to_string  (KomiRehearsalFault         fault);

/* SplitMix64's finaliser: the one hash every seeded choice goes through. */
guint64              komi_rehearsal_mix64            (guint64                    x);

/* Sets status, headers and body of an error reply in @api's shape;
 * @retry_after_ms is used by KOMI_REHEARSAL_REPLY_RATE_LIMIT only. */
void                 komi_rehearsal_reply_error      (SoupServerMessage         *msg,
                                                      KomiRehearsalApi           api,
                                                      KomiRehearsalReply         reply,
                                                      const char                *detail,
                                                      guint                      retry_after_ms);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiRehearsalFaults, komi_rehearsal_faults_free)

G_END_DECLS
