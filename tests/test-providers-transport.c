/* test-providers-transport.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-test-soup-server.h"
#include "komi-transport.h"

/* How a call survives the network: retries and their budget, fatal errors,
 * the per-provider caps, cancellation, and the key kept out of records. */


static void
test_retry_429 (void)
{
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  Attempt *a;

  server_add_reply (server, 429, "retry-after-ms: 10",
                    "{\"error\":{\"message\":\"Rate limit reached for requests\","
                    "\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}", 0);
  server_add_reply (server, 200, NULL, chat_ok, 0);
  answer = ask (server, "openai-chat", NULL, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, attempts,
                &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer, ==, "pass");
  g_assert_cmpuint (attempts->len, ==, 2);
  a = g_ptr_array_index (attempts, 0);
  g_assert_cmpint (a->outcome, ==, KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR);
  g_assert_cmpint (a->status, ==, 429);
  g_assert_nonnull (strstr (a->error, "Rate limit reached"));
  g_assert_nonnull (strstr (a->response_headers, "retry-after-ms"));
  a = g_ptr_array_index (attempts, 1);
  g_assert_cmpint (a->outcome, ==, KOMI_PROVIDER_OUTCOME_ANSWER);
  g_assert_cmpuint (a->number, ==, 2);
  server_free (server);
}

/* 401 is fatal at once; the server echoes the key, the record must not. */
static void
test_fatal_401 (void)
{
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *body = g_strdup_printf ("{\"error\":{\"message\":\"Incorrect API key "
                                           "provided: %s\",\"type\":\"invalid_request_error\","
                                           "\"code\":\"invalid_api_key\"}}", test_key);
  g_autofree char *answer = NULL;

  server_add_reply (server, 401, NULL, body, 0);
  answer = ask (server, "openai-chat", NULL, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, attempts,
                &error);
  g_assert_null (answer);
  g_assert_error (error, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_FATAL);
  g_assert_nonnull (strstr (error->message, KEY_ENV));
  g_assert_null (strstr (error->message, test_key));
  g_assert_cmpuint (attempts->len, ==, 1);
  g_assert_cmpint (((Attempt *) g_ptr_array_index (attempts, 0))->outcome, ==,
                   KOMI_PROVIDER_OUTCOME_FATAL);
  g_assert_cmpuint (server->requests->len, ==, 1);
  server_free (server);
}

static void
test_quota_fatal (void)
{
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;

  server_add_reply (server, 429, NULL, "{\"type\":\"error\",\"error\":{\"type\":"
                    "\"rate_limit_error\",\"message\":\"limit\",\"details\":{\"error_code\":"
                    "\"enforced_spend_limit_reached\"}}}", 0);
  answer = ask (server, "anthropic", NULL, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, attempts,
                &error);
  g_assert_error (error, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_FATAL);
  g_assert_nonnull (strstr (error->message, "spend limit"));
  g_assert_cmpuint (attempts->len, ==, 1);
  server_free (server);
}

static void
test_budget (void)
{
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;

  /* Gemini's RetryInfo asks for 10 ms each time. */
  server_add_reply (server, 503, NULL, "{\"error\":{\"code\":503,\"message\":\"The model is "
                    "overloaded.\",\"status\":\"UNAVAILABLE\",\"details\":[{\"@type\":"
                    "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"0.01s\"}]}}", 0);
  answer = ask (server, "gemini", "\"retry_attempts\": 3", KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS,
                attempts, &error);
  g_assert_null (answer);
  g_assert_error (error, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_TRANSPORT_BUDGET);
  g_assert_cmpuint (attempts->len, ==, 3);
  for (guint i = 0; i < attempts->len; i++)
    g_assert_cmpint (((Attempt *) g_ptr_array_index (attempts, i))->outcome, ==,
                     KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR);
  server_free (server);

  /* A server that is not there: connection errors, within the budget. */
  {
    Server *gone = server_new ();
    g_autoptr(KomiProviderProfile) profile = profile_for (gone, "openai-chat",
                                                          "\"retry_attempts\": 2");
    g_autoptr(KomiProvider) provider = NULL;
    KomiProtocolState state;

    server_free (gone);
    g_clear_error (&error);
    g_ptr_array_set_size (attempts, 0);
    provider = komi_provider_new (profile, NULL);
    example_state (&state);
    g_assert_false (komi_provider_ask (provider, &state, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS,
                                       record_attempt, attempts, &answer, NULL, &error));
    g_assert_error (error, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_TRANSPORT_BUDGET);
    g_assert_cmpuint (attempts->len, ==, 2);
    g_assert_cmpint (((Attempt *) g_ptr_array_index (attempts, 0))->status, ==, 0);
  }
}

typedef struct
{
  KomiProvider *provider;
  GPtrArray    *attempts;
  GMutex       *lock;
} Worker;

static gboolean
record_locked (const KomiProviderAttempt *attempt, gpointer data, GError **error)
{
  Worker *worker = data;
  gboolean ok;

  g_mutex_lock (worker->lock);
  ok = record_attempt (attempt, worker->attempts, error);
  g_mutex_unlock (worker->lock);
  return ok;
}

static gpointer
worker_run (gpointer data)
{
  Worker *worker = data;
  KomiProtocolState state;
  g_autofree char *answer = NULL;
  GError *error = NULL;

  example_state (&state);
  komi_provider_ask (worker->provider, &state, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS,
                     record_locked, worker, &answer, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer, ==, "pass");
  return NULL;
}

/* Eight threads share one provider capped at 2: the server never holds
 * more than 2 requests at once. */
static void
test_concurrency (void)
{
  Server *server = server_new ();
  g_autoptr(KomiProviderProfile) profile = profile_for (server, "openai-chat",
                                                        "\"max_concurrent\": 2");
  g_autoptr(KomiProvider) provider = komi_provider_new (profile, NULL);
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  GThread *threads[8];
  GMutex lock;
  Worker worker = { provider, attempts, &lock };

  g_mutex_init (&lock);
  server_add_reply (server, 200, NULL, chat_ok, 40);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("asker", worker_run, &worker);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  g_assert_cmpuint (attempts->len, ==, 8);
  g_assert_cmpuint (server->requests->len, ==, 8);
  g_assert_cmpuint (server->max_in_flight, ==, 2);
  g_mutex_clear (&lock);
  server_free (server);
}

static void
test_retry_after (void)
{
  g_autoptr(SoupMessageHeaders) headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) later = g_date_time_add_seconds (now, 30);
  g_autofree char *date = soup_date_time_to_string (later, SOUP_DATE_HTTP);

  g_assert_cmpfloat (komi_transport_retry_after (headers), ==, -1);
  soup_message_headers_replace (headers, "Retry-After", "7");
  g_assert_cmpfloat (komi_transport_retry_after (headers), ==, 7);
  soup_message_headers_replace (headers, "Retry-After", date);
  g_assert_cmpfloat (komi_transport_retry_after (headers), >, 25);
  g_assert_cmpfloat (komi_transport_retry_after (headers), <=, 30);
  soup_message_headers_replace (headers, "retry-after-ms", "250");
  g_assert_cmpfloat (komi_transport_retry_after (headers), ==, 0.25);
  for (guint retry = 1; retry < 10; retry++)
    {
      double delay = komi_transport_backoff (retry, 500, 8000);
      double full = MIN (500 * (1 << (retry - 1)), 8000) / 1000.0;

      g_assert_cmpfloat (delay, <=, full);
      g_assert_cmpfloat (delay, >=, 0.75 * full);
    }
  g_assert_true (komi_transport_is_retryable (529, -1));
  g_assert_true (komi_transport_is_retryable (409, -1));
  g_assert_false (komi_transport_is_retryable (400, -1));
  g_assert_true (komi_transport_is_retryable (400, 1));
  g_assert_false (komi_transport_is_retryable (500, 0));
}

/* At 600 requests a minute the token bucket lets one call through every
 * 100 ms: the server sees the five over at least ~400 ms. The span from
 * the first to the last is checked, not each gap: on a loaded machine one
 * request may reach the server late after its token and the next one on
 * time, which shortens one gap (80 ms was seen) but not the whole. Only a
 * lower bound: a slow machine may space them further. */
static void
test_requests_per_minute (void)
{
  Server *server = server_new ();
  g_autoptr(KomiProviderProfile) profile = profile_for (server, "openai-chat",
                                                        "\"requests_per_minute\": 600");
  g_autoptr(KomiProvider) provider = komi_provider_new (profile, NULL);
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  KomiProtocolState state;

  server_add_reply (server, 200, NULL, chat_ok, 0);
  example_state (&state);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *answer = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (komi_provider_ask (provider, &state, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS,
                                        record_attempt, attempts, &answer, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (answer, ==, "pass");
    }
  g_assert_cmpuint (attempts->len, ==, 5);
  g_assert_cmpuint (server->requests->len, ==, 5);
  {
    const Request *first = g_ptr_array_index (server->requests, 0);
    const Request *last = g_ptr_array_index (server->requests, 4);

    g_assert_cmpint (last->arrived - first->arrived, >=, 360 * G_TIME_SPAN_MILLISECOND);
  }
  server_free (server);
}

typedef struct
{
  GMutex        lock;
  GCond         cond;
  GPtrArray    *attempts;
  GCancellable *cancellable;
} Canceller;

static gboolean
record_and_signal (const KomiProviderAttempt *attempt, gpointer data, GError **error)
{
  Canceller *canceller = data;
  gboolean ok;

  g_mutex_lock (&canceller->lock);
  ok = record_attempt (attempt, canceller->attempts, error);
  g_cond_broadcast (&canceller->cond);
  g_mutex_unlock (&canceller->lock);
  return ok;
}

/* Cancels ~100 ms after the first attempt is reported, that is once the
 * caller has gone into its backoff sleep (or is about to). */
static gpointer
cancel_in_backoff (gpointer data)
{
  Canceller *canceller = data;
  gint64 until = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  g_mutex_lock (&canceller->lock);
  while (canceller->attempts->len == 0
         && g_cond_wait_until (&canceller->cond, &canceller->lock, until))
    ;
  g_mutex_unlock (&canceller->lock);
  g_usleep (100 * G_TIME_SPAN_MILLISECOND);
  g_cancellable_cancel (canceller->cancellable);
  return NULL;
}

/* A 429 asking for 30 s: cancelling during that wait ends the call with
 * G_IO_ERROR_CANCELLED, long before the server would be asked again. */
static void
test_retry_cancel (void)
{
  Server *server = server_new ();
  g_autoptr(KomiProviderProfile) profile = profile_for (server, "openai-chat", NULL);
  g_autoptr(KomiProvider) provider = komi_provider_new (profile, NULL);
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  Canceller canceller = { .attempts = attempts, .cancellable = cancellable };
  KomiProtocolState state;
  GThread *thread;
  gint64 started, elapsed;
  gboolean ok;
  Attempt *a;

  g_mutex_init (&canceller.lock);
  g_cond_init (&canceller.cond);
  server_add_reply (server, 429, "retry-after: 30",
                    "{\"error\":{\"message\":\"Rate limit reached for requests\","
                    "\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}", 0);
  example_state (&state);
  thread = g_thread_new ("canceller", cancel_in_backoff, &canceller);
  started = g_get_monotonic_time ();
  ok = komi_provider_ask (provider, &state, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS,
                          record_and_signal, &canceller, &answer, cancellable, &error);
  elapsed = g_get_monotonic_time () - started;
  g_thread_join (thread);

  g_assert_false (ok);
  g_assert_null (answer);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* The backoff ended by the cancellation, not by its 30 s: a bound that
   * only a wait through the whole backoff reaches, however loaded the
   * machine (the cancellation comes ~0.1 s in). */
  g_assert_cmpint (elapsed, <, 25 * G_TIME_SPAN_SECOND);
  g_mutex_lock (&server->lock);
  g_assert_cmpuint (server->requests->len, <, 2);
  g_mutex_unlock (&server->lock);
  g_assert_cmpuint (attempts->len, ==, 1);
  a = g_ptr_array_index (attempts, 0);
  g_assert_cmpint (a->outcome, ==, KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR);
  g_assert_cmpint (a->status, ==, 429);
  g_mutex_clear (&canceller.lock);
  g_cond_clear (&canceller.cond);
  server_free (server);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_key_init ();

  g_test_add_func ("/komi/providers/retry/429", test_retry_429);
  g_test_add_func ("/komi/providers/retry/budget", test_budget);
  g_test_add_func ("/komi/providers/retry/after", test_retry_after);
  g_test_add_func ("/komi/providers/retry/cancel", test_retry_cancel);
  g_test_add_func ("/komi/providers/fatal/401", test_fatal_401);
  g_test_add_func ("/komi/providers/fatal/quota", test_quota_fatal);
  g_test_add_func ("/komi/providers/concurrency", test_concurrency);
  g_test_add_func ("/komi/providers/requests-per-minute", test_requests_per_minute);
  return g_test_run ();
}
