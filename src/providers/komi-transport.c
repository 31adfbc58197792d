/* komi-transport.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "komi-transport.h"

static const char *secret_headers[] = { "authorization", "x-api-key", "x-goog-api-key", NULL };

void
komi_transport_limiter_init (KomiTransportLimiter *limiter, guint max_concurrent,
                             double requests_per_minute)
{
  memset (limiter, 0, sizeof *limiter);
  g_mutex_init (&limiter->lock);
  g_cond_init (&limiter->cond);
  limiter->max_concurrent = MAX (max_concurrent, 1);
  limiter->requests_per_minute = requests_per_minute;
  limiter->tokens = 1;
  limiter->refilled = g_get_monotonic_time ();
}

void
komi_transport_limiter_clear (KomiTransportLimiter *limiter)
{
  g_mutex_clear (&limiter->lock);
  g_cond_clear (&limiter->cond);
}

static void
wake_all (GCancellable *cancellable, gpointer data)
{
  KomiTransportLimiter *limiter = data;

  g_mutex_lock (&limiter->lock);
  g_cond_broadcast (&limiter->cond);
  g_mutex_unlock (&limiter->lock);
}

gboolean
komi_transport_limiter_acquire (KomiTransportLimiter *limiter, GCancellable *cancellable)
{
  gulong handler = 0;
  gboolean ok = FALSE;

  /* Connected outside the lock: the handler runs at once if already
   * cancelled, and takes the lock itself. */
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (wake_all), limiter, NULL);

  g_mutex_lock (&limiter->lock);
  for (;;)
    {
      gint64 now = g_get_monotonic_time (), until;

      if (g_cancellable_is_cancelled (cancellable))
        break;
      if (limiter->in_flight >= limiter->max_concurrent)
        {
          g_cond_wait (&limiter->cond, &limiter->lock);
          continue;
        }
      if (limiter->requests_per_minute <= 0)
        {
          ok = TRUE;
          break;
        }
      limiter->tokens = MIN (1.0, limiter->tokens + (now - limiter->refilled)
                             * limiter->requests_per_minute / (60.0 * G_USEC_PER_SEC));
      limiter->refilled = now;
      if (limiter->tokens >= 1.0)
        {
          limiter->tokens -= 1.0;
          ok = TRUE;
          break;
        }
      until = now + (gint64) ceil ((1.0 - limiter->tokens) * 60.0 * G_USEC_PER_SEC
                                   / limiter->requests_per_minute);
      g_cond_wait_until (&limiter->cond, &limiter->lock, until);
    }
  if (ok)
    limiter->in_flight++;
  g_mutex_unlock (&limiter->lock);

  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  return ok;
}

void
komi_transport_limiter_release (KomiTransportLimiter *limiter)
{
  g_mutex_lock (&limiter->lock);
  g_assert (limiter->in_flight > 0);
  limiter->in_flight--;
  g_cond_broadcast (&limiter->cond);
  g_mutex_unlock (&limiter->lock);
}

typedef struct
{
  GMutex lock;
  GCond  cond;
} Sleeper;

static void
wake_sleeper (GCancellable *cancellable, gpointer data)
{
  Sleeper *sleeper = data;

  g_mutex_lock (&sleeper->lock);
  g_cond_broadcast (&sleeper->cond);
  g_mutex_unlock (&sleeper->lock);
}

gboolean
komi_transport_sleep (double seconds, GCancellable *cancellable)
{
  Sleeper sleeper;
  gint64 until = g_get_monotonic_time () + (gint64) (MAX (seconds, 0) * G_USEC_PER_SEC);
  gulong handler = 0;
  gboolean cancelled;

  g_mutex_init (&sleeper.lock);
  g_cond_init (&sleeper.cond);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (wake_sleeper), &sleeper, NULL);
  g_mutex_lock (&sleeper.lock);
  while (!g_cancellable_is_cancelled (cancellable)
         && g_cond_wait_until (&sleeper.cond, &sleeper.lock, until))
    ;
  cancelled = g_cancellable_is_cancelled (cancellable);
  g_mutex_unlock (&sleeper.lock);
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  g_mutex_clear (&sleeper.lock);
  g_cond_clear (&sleeper.cond);
  return !cancelled;
}

void
komi_transport_exchange_clear (KomiTransportExchange *exchange)
{
  g_clear_pointer (&exchange->response_headers, g_free);
  g_clear_pointer (&exchange->response_body, g_bytes_unref);
  g_clear_pointer (&exchange->error, g_free);
}

/* Connections per host default to 2 in libsoup: raise it to the cap, or
 * the session would queue what the limiter lets through. The timeout is
 * libsoup's I/O inactivity timeout. */
SoupSession *
komi_transport_session_new (guint max_concurrent, double timeout_seconds)
{
  return soup_session_new_with_options ("max-conns", MAX (max_concurrent, 1) + 2,
                                        "max-conns-per-host", MAX (max_concurrent, 1),
                                        "timeout", (guint) ceil (timeout_seconds),
                                        "user-agent", "Komi/" PACKAGE_VERSION,
                                        NULL);
}

static void
add_header (const char *name, const char *value, gpointer data)
{
  JsonObject *object = data;
  const char *old = json_object_has_member (object, name)
    ? json_object_get_string_member (object, name) : NULL;
  g_autofree char *joined = old != NULL ? g_strconcat (old, ", ", value, NULL) : NULL;

  json_object_set_string_member (object, name, joined != NULL ? joined : value);
}

static char *
headers_to_json (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  return json_to_string (node, FALSE);
}

/* soup_session_send_and_read() without its GMemoryOutputStream and
 * splice: the body is read straight into one buffer sized by
 * Content-Length. perf put the splice's stream objects, signals and
 * closures at about 8% of Komi's CPU per call. Reading to the end lets
 * libsoup keep the connection for the next call. */
static GBytes *
send_and_read (SoupSession *session, SoupMessage *message, GCancellable *cancellable,
               GError **error)
{
  g_autoptr(GInputStream) body = soup_session_send (session, message, cancellable, error);
  g_autoptr(GByteArray) buffer = NULL;
  goffset expected;
  gsize size, length = 0;

  if (body == NULL)
    return NULL;
  expected = soup_message_headers_get_content_length (soup_message_get_response_headers (message));
  /* One byte more than announced, so the read that meets the end has room. */
  size = expected > 0 && expected < 64 * 1024 * 1024 ? (gsize) expected + 1 : 8192;
  buffer = g_byte_array_sized_new ((guint) size);
  g_byte_array_set_size (buffer, (guint) size);
  for (;;)
    {
      gssize n;

      if (buffer->len - length < 1024)
        g_byte_array_set_size (buffer, buffer->len * 2);
      n = g_input_stream_read (body, buffer->data + length, buffer->len - length, cancellable,
                               error);
      if (n < 0)
        return NULL;
      if (n == 0)
        break;
      length += (gsize) n;
    }
  if (!g_input_stream_close (body, cancellable, error))
    return NULL;
  g_byte_array_set_size (buffer, (guint) length);
  return g_byte_array_free_to_bytes (g_steal_pointer (&buffer));
}

char *
komi_transport_redact_headers (const char *const *headers)
{
  g_autoptr(JsonObject) sent = json_object_new ();

  for (guint i = 0; headers != NULL && headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    {
      g_autofree char *lower = g_ascii_strdown (headers[i], -1);

      add_header (headers[i], g_strv_contains (secret_headers, lower) ? "[redacted]"
                  : headers[i + 1], sent);
    }
  return headers_to_json (sent);
}

void
komi_transport_post (SoupSession *session, const char *url, const char *const *headers,
                     const char *body, KomiTransportExchange *exchange,
                     GCancellable *cancellable)
{
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) response = NULL;
  SoupMessageHeaders *request_headers;
  const char *retry;
  gint64 start;

  memset (exchange, 0, sizeof *exchange);
  exchange->retry_after = -1;
  exchange->should_retry = -1;
  message = soup_message_new (SOUP_METHOD_POST, url);
  if (message == NULL)
    {
      exchange->error = g_strdup_printf ("Not a valid URL: %s", url);
      return;
    }
  /* libsoup keeps a connection alive for the next request only for
   * idempotent ones; a model call is a POST, so without this every call
   * opened a new connection (a third of Komi's CPU per call, measured).
   * The cost: a request whose reused connection turns out closed before
   * it was sent is sent again on a new one, as the vendors' SDKs do. */
  soup_message_add_flags (message, SOUP_MESSAGE_IDEMPOTENT);
  request_headers = soup_message_get_request_headers (message);
  for (guint i = 0; headers != NULL && headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    soup_message_headers_append (request_headers, headers[i], headers[i + 1]);
  request = g_bytes_new (body, strlen (body));
  soup_message_set_request_body_from_bytes (message, "application/json", request);

  start = g_get_monotonic_time ();
  response = send_and_read (session, message, cancellable, &error);
  exchange->latency_ms = (g_get_monotonic_time () - start) / 1000.0;
  if (response == NULL)
    {
      exchange->cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      exchange->error = g_strdup (error->message);
      return;
    }
  {
    g_autoptr(JsonObject) received = json_object_new ();
    SoupMessageHeaders *response_headers = soup_message_get_response_headers (message);

    soup_message_headers_foreach (response_headers, add_header, received);
    exchange->response_headers = headers_to_json (received);
    exchange->retry_after = komi_transport_retry_after (response_headers);
    retry = soup_message_headers_get_one (response_headers, "x-should-retry");
    if (retry != NULL)
      exchange->should_retry = g_ascii_strcasecmp (retry, "true") == 0;
  }
  exchange->status = soup_message_get_status (message);
  exchange->response_body = g_steal_pointer (&response);
}

gboolean
komi_transport_is_retryable (guint status, gint should_retry)
{
  if (should_retry >= 0)
    return should_retry;
  return status == 408 || status == 409 || status == 429 || (status >= 500 && status < 600);
}

double
komi_transport_backoff (guint retry, guint base_ms, guint cap_ms)
{
  double delay = base_ms * pow (2.0, MIN (retry, 31) - 1.0);

  delay = MIN (delay, (double) cap_ms);
  return delay * (1.0 - 0.25 * g_random_double ()) / 1000.0;
}

double
komi_transport_retry_after (SoupMessageHeaders *headers)
{
  const char *ms = soup_message_headers_get_one (headers, "retry-after-ms");
  const char *after = soup_message_headers_get_one (headers, "retry-after");
  char *end = NULL;
  double value;

  if (ms != NULL)
    {
      value = g_ascii_strtod (ms, &end);
      if (end != ms && *end == '\0' && isfinite (value) && value >= 0)
        return value / 1000.0;
    }
  if (after == NULL)
    return -1;
  value = g_ascii_strtod (after, &end);
  if (end != after && *end == '\0' && isfinite (value) && value >= 0)
    return value;
  {
    g_autoptr(GDateTime) date = soup_date_time_new_from_http_string (after);
    g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

    if (date == NULL)
      return -1;
    return MAX (0.0, g_date_time_difference (date, now) / (double) G_USEC_PER_SEC);
  }
}
