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
#include "komi-untrusted.h"

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

/* Header values are bytes, not always UTF-8 (Latin-1 from old servers,
 * anything from a hostile one): the record's JSON text must stay valid. */
static void
add_header (const char *raw_name, const char *raw_value, gpointer data)
{
  g_autofree char *name = komi_untrusted_valid_utf8 (raw_name, -1);
  g_autofree char *value = komi_untrusted_valid_utf8 (raw_value, -1);
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

/* The deadlines of every exchange in flight, on one thread of their own:
 * the blocking sends run on the asking threads without a main loop, and
 * libsoup's own timeout is for inactivity only (a body trickled a byte at
 * a time never trips it). */
static gpointer
run_deadlines (gpointer data)
{
  GMainLoop *loop = g_main_loop_new (data, FALSE);

  g_main_loop_run (loop);
  return NULL;
}

static GMainContext *
deadlines (void)
{
  static GMainContext *context;

  if (g_once_init_enter (&context))
    {
      GMainContext *c = g_main_context_new ();

      g_thread_unref (g_thread_new ("komi-deadlines", run_deadlines, c));
      g_once_init_leave (&context, c);
    }
  return context;
}

static gboolean
deadline_passed (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
cancel_too (GCancellable *cancellable, gpointer data)
{
  g_cancellable_cancel (data);
}

/* soup_session_send_and_read() without its GMemoryOutputStream and
 * splice: the body is read straight into one buffer sized by
 * Content-Length, up to @max_bytes. perf put the splice's stream objects,
 * signals and closures at about 8% of Komi's CPU per call. Reading to the
 * end lets libsoup keep the connection for the next call. A body past
 * @max_bytes stops there: *@over is set and the buffer keeps its start. */
static GBytes *
send_and_read (SoupSession *session, SoupMessage *message, GCancellable *cancellable,
               guint64 max_bytes, guint64 *seen, gboolean *over, GInputStream **opened,
               GByteArray **partial, GError **error)
{
  g_autoptr(GInputStream) body = soup_session_send (session, message, cancellable, error);
  g_autoptr(GByteArray) buffer = NULL;
  goffset expected;
  gsize size, length = 0;

  if (body == NULL)
    return NULL;
  expected = soup_message_headers_get_content_length (soup_message_get_response_headers (message));
  /* One byte more than announced, so the read that meets the end has room. */
  size = expected > 0 && (guint64) expected < max_bytes ? (gsize) expected + 1 : 8192;
  /* Announced past the cap: only its start is read, to be kept. */
  if (expected > 0 && (guint64) expected > max_bytes)
    {
      *over = TRUE;
      max_bytes = KOMI_TRANSPORT_KEPT_BYTES;
    }
  buffer = g_byte_array_sized_new ((guint) size);
  g_byte_array_set_size (buffer, (guint) size);
  for (;;)
    {
      gssize n;

      if (buffer->len - length < 1024)
        g_byte_array_set_size (buffer, (guint) MIN ((guint64) buffer->len * 2, max_bytes + 1024));
      n = g_input_stream_read (body, buffer->data + length, buffer->len - length, cancellable,
                               error);
      if (n < 0)
        break;
      if (n == 0)
        break;
      length += (gsize) n;
      *seen = length;
      if (length > max_bytes || (*over && length >= max_bytes))
        {
          *over = TRUE;
          break;
        }
    }
  g_byte_array_set_size (buffer, (guint) length);
  if (*over || (error != NULL && *error != NULL))
    {
      /* Closing would read the rest of the body to keep the connection:
       * the caller closes it once the exchange is cancelled. */
      *opened = g_steal_pointer (&body);
      *partial = g_steal_pointer (&buffer);
      return NULL;
    }
  if (!g_input_stream_close (body, cancellable, error))
    {
      *partial = g_steal_pointer (&buffer);
      return NULL;
    }
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
                     const char *body, double timeout_seconds, guint64 max_bytes,
                     KomiTransportExchange *exchange,
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
  {
    g_autoptr(GCancellable) bounded = g_cancellable_new ();
    g_autoptr(GInputStream) opened = NULL;
    g_autoptr(GByteArray) partial = NULL;
    GSource *timer = g_timeout_source_new ((guint) MIN (timeout_seconds * 1000.0, G_MAXUINT));
    gulong chained = cancellable != NULL
      ? g_cancellable_connect (cancellable, G_CALLBACK (cancel_too), bounded, NULL) : 0;
    gboolean over = FALSE, timed_out;
    guint64 seen = 0;

    g_source_set_callback (timer, deadline_passed, g_object_ref (bounded), g_object_unref);
    g_source_attach (timer, deadlines ());
    response = send_and_read (session, message, bounded, max_bytes, &seen, &over, &opened,
                              &partial, &error);
    g_source_destroy (timer);
    g_source_unref (timer);
    if (chained != 0)
      g_cancellable_disconnect (cancellable, chained);
    timed_out = g_cancellable_is_cancelled (bounded) && !g_cancellable_is_cancelled (cancellable);
    if (opened != NULL)
      {
        /* Not read to its end: the connection goes, not drained. */
        g_cancellable_cancel (bounded);
        g_input_stream_close (opened, bounded, NULL);
      }
    exchange->latency_ms = (g_get_monotonic_time () - start) / 1000.0;
    exchange->bytes_seen = seen;
    if (response == NULL && (over || timed_out) && soup_message_get_status (message) != 0)
      {
        gsize kept = partial != NULL ? MIN (partial->len, KOMI_TRANSPORT_KEPT_BYTES) : 0;

        exchange->cut_short = TRUE;
        exchange->response_body = g_bytes_new (kept > 0 ? (const void *) partial->data : "", kept);
        goffset announced = soup_message_headers_get_content_length (
          soup_message_get_response_headers (message));
        g_autofree char *of = announced > 0
          ? g_strdup_printf (" of the %" G_GINT64_FORMAT " announced", (gint64) announced)
          : g_strdup ("");

        if (over && announced > 0 && (guint64) announced > max_bytes)
          exchange->error = g_strdup_printf ("The response passed the size cap, "
                                             "max_response_bytes %" G_GUINT64_FORMAT ": it "
                                             "announced %" G_GINT64_FORMAT " bytes; its first %"
                                             G_GSIZE_FORMAT " are kept", max_bytes,
                                             (gint64) announced, kept);
        else if (over)
          exchange->error = g_strdup_printf ("The response passed the size cap, "
                                             "max_response_bytes %" G_GUINT64_FORMAT ", at %"
                                             G_GUINT64_FORMAT " bytes; its first %" G_GSIZE_FORMAT
                                             " are kept", max_bytes, seen, kept);
        else
          exchange->error = g_strdup_printf ("No whole response within timeout_seconds (%g s): "
                                             "%" G_GUINT64_FORMAT " bytes%s had arrived; the "
                                             "first %" G_GSIZE_FORMAT " are kept",
                                             timeout_seconds, seen, of, kept);
      }
    else if (response == NULL)
      {
        exchange->cancelled = !timed_out && g_error_matches (error, G_IO_ERROR,
                                                             G_IO_ERROR_CANCELLED);
        exchange->error = timed_out
          ? g_strdup_printf ("No response within timeout_seconds (%g s)", timeout_seconds)
          : g_strdup (error != NULL ? error->message : "The exchange failed");
        return;
      }
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
  if (!exchange->cut_short)
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
