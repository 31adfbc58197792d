/* komi-transport.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* The per-provider caps, shared by every thread that asks through one
 * provider: at most @max_concurrent exchanges in flight, and requests
 * spaced so that no minute holds more than @requests_per_minute (a token
 * bucket of depth one). */
typedef struct
{
  GMutex  lock;
  GCond   cond;
  guint   in_flight;
  guint   max_concurrent;
  double  requests_per_minute;   /* 0: no cap */
  double  tokens;
  gint64  refilled;              /* monotonic µs */
} KomiTransportLimiter;

void      komi_transport_limiter_init    (KomiTransportLimiter *limiter,
                                          guint                 max_concurrent,
                                          double                requests_per_minute);
void      komi_transport_limiter_clear   (KomiTransportLimiter *limiter);
/* Blocks until a slot and a token are free; FALSE when cancelled. */
gboolean  komi_transport_limiter_acquire (KomiTransportLimiter *limiter,
                                          GCancellable         *cancellable);
void      komi_transport_limiter_release (KomiTransportLimiter *limiter);

/* Sleeps @seconds unless cancelled first (then FALSE). */
gboolean  komi_transport_sleep           (double                seconds,
                                          GCancellable         *cancellable);

/* One HTTP exchange, as recorded. */
typedef struct
{
  guint    status;             /* 0: no response */
  char    *response_headers;   /* JSON object text; NULL without response */
  GBytes  *response_body;      /* NULL without response */
  double   latency_ms;
  char    *error;              /* why there is no response */
  gboolean cancelled;
  double   retry_after;        /* seconds asked by the server; -1: none */
  gint     should_retry;       /* x-should-retry: 1, 0, or -1 absent */
  gboolean cut_short;          /* a response came but was not read whole:
                                * past the deadline or the size cap; error
                                * says which, response_body holds its start */
  guint64  bytes_seen;         /* of the body, read or announced */
} KomiTransportExchange;

/* What a cut-short body keeps of its start. */
#define KOMI_TRANSPORT_KEPT_BYTES (64 * 1024)

void         komi_transport_exchange_clear (KomiTransportExchange *exchange);

/* A session for one provider. Configured here, before any request, on the
 * thread that creates it; afterwards only sends happen, from any thread
 * (libsoup ≥ 3.2). */
SoupSession *komi_transport_session_new    (guint                  max_concurrent,
                                            double                 timeout_seconds);
/* @headers (name, value, … pairs, NULL ended) as a JSON object text, the
 * values of Authorization, x-api-key and x-goog-api-key "[redacted]":
 * what the record keeps of them. */
char        *komi_transport_redact_headers (const char * const    *headers);
/* POSTs @body as JSON to @url with @headers and fills @exchange.
 * Blocking; never fails: a fault is in @exchange. The whole exchange,
 * from connecting to the body's last byte, takes at most
 * @timeout_seconds; a body of more than @max_bytes is not read further.
 * Either way the exchange is cut short: the start of the body is kept
 * (KOMI_TRANSPORT_KEPT_BYTES at most), with the size seen. */
void         komi_transport_post           (SoupSession           *session,
                                            const char            *url,
                                            const char * const    *headers,
                                            const char            *body,
                                            double                 timeout_seconds,
                                            guint64                max_bytes,
                                            KomiTransportExchange *exchange,
                                            GCancellable          *cancellable);

/* Whether @status (with x-should-retry) is a transport fault worth
 * retrying: 408, 409, 429, 5xx (529 included). */
gboolean     komi_transport_is_retryable   (guint                  status,
                                            gint                   should_retry);
/* The backoff before retry number @retry (from 1): @base_ms doubled each
 * time up to @cap_ms, less up to a quarter at random (jitter). Seconds. */
double       komi_transport_backoff        (guint                  retry,
                                            guint                  base_ms,
                                            guint                  cap_ms);
/* retry-after-ms, else Retry-After in seconds or as an HTTP date, in
 * seconds from now; -1 when absent or unreadable. */
double       komi_transport_retry_after    (SoupMessageHeaders    *headers);

G_END_DECLS

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiTransportExchange, komi_transport_exchange_clear)
