/* komi-rehearsal.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "komi-rehearsal-faults.h"

G_BEGIN_DECLS

/* The rehearsal provider: a loopback HTTP server that plays the model in
 * all four wire formats (OpenAI Chat Completions and Responses, Anthropic
 * Messages, Gemini generateContent) on their real paths, at zero cost.
 *
 * Threading: komi_rehearsal_new() starts a thread that owns a GMainContext
 * of its own and the SoupServer in it; it returns once the server listens,
 * so the caller may block (or send requests from any thread) right away.
 * Requests are handled on that thread; a delayed answer is a paused message
 * and a timeout source, so latency never serialises requests. The getters
 * are thread-safe. The last unref stops the thread (held requests are
 * dropped) and joins it. */
#define KOMI_TYPE_REHEARSAL (komi_rehearsal_get_type ())

G_DECLARE_FINAL_TYPE (KomiRehearsal, komi_rehearsal, KOMI, REHEARSAL, GObject)

typedef enum
{
  KOMI_REHEARSAL_POLICY_RANDOM,  /* seeded by the request body: same request, same answer */
  KOMI_REHEARSAL_POLICY_FIRST,   /* always the first option */
} KomiRehearsalPolicy;

/* What the server did with one request, for a log. */
typedef struct
{
  guint64             ordinal;   /* 1 for the first request on an API path */
  const char         *method;
  const char         *path;
  guint               status;
  const char         *answer;    /* the options chosen, comma-separated; NULL if none */
  KomiRehearsalFault  fault;
} KomiRehearsalEvent;

/* Called on the server's thread when a request's reply is decided. */
typedef void (*KomiRehearsalLogFunc) (const KomiRehearsalEvent *event,
                                      gpointer                  user_data);

typedef struct
{
  guint                port;            /* 0: any free port */
  guint                latency_ms;      /* each reply delayed by this much */
  KomiRehearsalPolicy  policy;
  guint64              seed;
  const char          *faults;          /* see komi_rehearsal_faults_parse(); NULL: none */
  const char          *api_key;         /* NULL: any key or none is accepted */
  guint                retry_after_ms;  /* advertised by 429 replies; 0: 1000 */
  guint                timeout_hold_ms; /* a "timeout" is held this long, then the
                                         * connection closed; 0: 600000 */
  /* A model without log probabilities: a request asking for them gets
   * the API's real 400 (OpenAI "Unsupported parameter: 'logprobs' …",
   * Gemini "Logprobs is not supported for this model."). */
  gboolean             reject_logprobs;
  KomiRehearsalLogFunc log_func;
  gpointer             log_data;
} KomiRehearsalOptions;

/* Starts the server on 127.0.0.1; @options NULL means all defaults. */
KomiRehearsal *komi_rehearsal_new                   (const KomiRehearsalOptions *options,
                                                     GError                    **error);
/* "http://127.0.0.1:PORT", no trailing slash. */
const char    *komi_rehearsal_get_base_url          (KomiRehearsal              *self);
/* Writes to @path the profile of the rehearsal model served at @base_url
 * (its OpenAI-compatible root, ".../v1"), built as JSON; no key (the
 * server takes any). @max_concurrent > 0 also lifts the rate cap (a
 * benchmark's load); 0 keeps the profile defaults. */
gboolean       komi_rehearsal_write_profile         (const char                 *path,
                                                     const char                 *name,
                                                     const char                 *base_url,
                                                     gboolean                    logprobs,
                                                     guint                       max_concurrent,
                                                     GError                    **error);
guint          komi_rehearsal_get_port              (KomiRehearsal              *self);

/* Counters for tests. @path NULL counts every request, answered or not. */
guint          komi_rehearsal_get_request_count     (KomiRehearsal              *self,
                                                     const char                 *path);
/* The most requests that were being handled (received, reply not yet
 * fully written) at one time. */
guint          komi_rehearsal_get_max_in_flight     (KomiRehearsal              *self);
char          *komi_rehearsal_dup_last_request_body (KomiRehearsal              *self);
/* Zeroes the counters and the ordinal that "KIND@N" faults count. */
void           komi_rehearsal_reset_counters        (KomiRehearsal              *self);

G_END_DECLS
