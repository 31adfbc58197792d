/* komi-test-soup-server.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-test-soup-server.h"

typedef struct
{
  Server            *server;
  SoupServerMessage *message;
} Held;

const char example_diagram[] =
  "O . . O X X X X X\n"
  ". O . . X X X X X\n"
  "O . . . X X X X X\n"
  ". . . . O . . X O\n"
  ". . O . X X X X O\n"
  ". . . . . O O O .\n"
  ". . O . . O O . O\n"
  ". . . . . O . . .\n"
  ". . . . . . . O .\n";

char *test_key ;

const char chat_ok[] =
  "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-test-2026-01-01\","
  "\"system_fingerprint\":\"fp_1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
  "\"content\":\"{\\\"answer\\\":\\\"pass\\\"}\",\"refusal\":null},\"finish_reason\":\"stop\","
  "\"logprobs\":null}],\"usage\":{\"prompt_tokens\":500,\"completion_tokens\":7,\"total_tokens\":507,"
  "\"prompt_tokens_details\":{\"cached_tokens\":100},\"completion_tokens_details\":"
  "{\"reasoning_tokens\":0}}}";

const char responses_ok[] =
  "{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"model\":\"gpt-test-2026-01-01\","
  "\"output\":[{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[]},{\"type\":\"message\","
  "\"id\":\"msg_1\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
  "\"text\":\"{\\\"answer\\\":\\\"pass\\\"}\",\"annotations\":[]}]}],\"usage\":{\"input_tokens\":500,"
  "\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":40,\"output_tokens_details\":"
  "{\"reasoning_tokens\":32},\"total_tokens\":540}}";

const char anthropic_ok[] =
  "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test-20260101\","
  "\"content\":[{\"type\":\"text\",\"text\":\"{\\\"answer\\\":\\\"pass\\\"}\"}],\"stop_reason\":"
  "\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":500,\"output_tokens\":9,"
  "\"cache_read_input_tokens\":0}}";

const char gemini_ok[] =
  "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"pass\"}]},"
  "\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":500,"
  "\"candidatesTokenCount\":1,\"thoughtsTokenCount\":20,\"totalTokenCount\":521},"
  "\"modelVersion\":\"gemini-test-001\",\"responseId\":\"abc\"}";

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->path);
  soup_message_headers_unref (request->headers);
  g_free (request->body);
  g_free (request);
}

static void
reply_free (gpointer data)
{
  Reply *reply = data;

  g_free (reply->header);
  g_free (reply->body);
  g_free (reply);
}

static void
respond (SoupServerMessage *message, const Reply *reply)
{
  if (reply->header != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (reply->header, ": ", 2);

      soup_message_headers_append (soup_server_message_get_response_headers (message),
                                   parts[0], parts[1]);
    }
  soup_server_message_set_status (message, reply->status, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY,
                                    reply->body, strlen (reply->body));
}

static gboolean
release_held (gpointer data)
{
  Held *held = data;

  g_mutex_lock (&held->server->lock);
  held->server->in_flight--;
  g_mutex_unlock (&held->server->lock);
  soup_server_message_unpause (held->message);
  g_object_unref (held->message);
  g_free (held);
  return G_SOURCE_REMOVE;
}

static void
handle (SoupServer *soup, SoupServerMessage *message, const char *path, GHashTable *query,
        gpointer data)
{
  Server *server = data;
  Request *request = g_new0 (Request, 1);
  SoupMessageBody *body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  const Reply *reply;

  request->arrived = g_get_monotonic_time ();
  request->path = g_strdup (path);
  request->headers = soup_message_headers_ref (soup_server_message_get_request_headers (message));
  request->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_mutex_lock (&server->lock);
  g_ptr_array_add (server->requests, request);
  reply = g_queue_get_length (&server->replies) > 1 ? g_queue_pop_head (&server->replies)
    : g_queue_peek_head (&server->replies);
  respond (message, reply);
  if (reply->delay_ms > 0)
    {
      Held *held = g_new0 (Held, 1);
      GSource *source = g_timeout_source_new (reply->delay_ms);

      server->in_flight++;
      server->max_in_flight = MAX (server->max_in_flight, server->in_flight);
      held->server = server;
      held->message = g_object_ref (message);
      soup_server_message_pause (message);
      g_source_set_callback (source, release_held, held, NULL);
      g_source_attach (source, server->context);
      g_source_unref (source);
    }
  if (g_queue_peek_head (&server->replies) != reply)
    reply_free ((Reply *) reply);
  g_mutex_unlock (&server->lock);
}

static gpointer
server_thread (gpointer data)
{
  Server *server = data;

  g_main_context_push_thread_default (server->context);
  while (!g_atomic_int_get (&server->stopping))
    g_main_context_iteration (server->context, TRUE);
  soup_server_disconnect (server->server);
  g_main_context_pop_thread_default (server->context);
  return NULL;
}

void
server_add_reply (Server *server, guint status, const char *header, const char *body,
                  guint delay_ms)
{
  Reply *reply = g_new0 (Reply, 1);

  reply->status = status;
  reply->header = g_strdup (header);
  reply->body = g_strdup (body);
  reply->delay_ms = delay_ms;
  g_mutex_lock (&server->lock);
  g_queue_push_tail (&server->replies, reply);
  g_mutex_unlock (&server->lock);
}

Server *
server_new (void)
{
  Server *server = g_new0 (Server, 1);
  GError *error = NULL;
  GSList *uris;

  g_mutex_init (&server->lock);
  server->requests = g_ptr_array_new_with_free_func (request_free);
  server->context = g_main_context_new ();
  g_main_context_push_thread_default (server->context);
  server->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server->server, NULL, handle, server, NULL);
  soup_server_listen_local (server->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  g_main_context_pop_thread_default (server->context);
  uris = soup_server_get_uris (server->server);
  server->base = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  server->thread = g_thread_new ("test-server", server_thread, server);
  return server;
}

void
server_free (Server *server)
{
  /* A flag and a wakeup, not a source attached from this thread: GLib
   * guards the context's source table with a lock ThreadSanitizer cannot
   * see, so a cross-thread attach reads as a race inside GLib. */
  g_atomic_int_set (&server->stopping, TRUE);
  g_main_context_wakeup (server->context);
  g_thread_join (server->thread);
  g_object_unref (server->server);
  g_main_context_unref (server->context);
  g_queue_clear_full (&server->replies, reply_free);
  g_ptr_array_unref (server->requests);
  g_free (server->base);
  g_mutex_clear (&server->lock);
  g_free (server);
}

void
attempt_free (gpointer data)
{
  Attempt *a = data;

  g_free (a->url);
  g_free (a->request_headers);
  g_free (a->request_body);
  g_free (a->response_headers);
  g_free (a->error);
  g_free (a->model_version);
  g_free (a->answer);
  g_free (a->finish_reason);
  g_free (a->probabilities);
  g_free (a);
}

void
assert_no_key (const char *text)
{
  g_assert_true (text == NULL || strstr (text, test_key) == NULL);
}

gboolean
record_attempt (const KomiProviderAttempt *attempt, gpointer data, GError **error)
{
  GPtrArray *attempts = data;
  Attempt *a = g_new0 (Attempt, 1);
  gsize len = 0;
  const char *body = attempt->response_body != NULL
    ? g_bytes_get_data (attempt->response_body, &len) : NULL;

  g_assert_true (body == NULL || memmem (body, len, test_key, strlen (test_key)) == NULL);
  /* Before the request is sent: its half only, and never the key. The
   * attempt is kept when it is complete. */
  if (attempt->in_flight)
    {
      g_assert_cmpint (attempt->outcome, ==, KOMI_PROVIDER_OUTCOME_IN_FLIGHT);
      g_assert_nonnull (attempt->request_url);
      g_assert_nonnull (attempt->request_body);
      g_assert_nonnull (attempt->started);
      g_assert_cmpint (attempt->response_status, ==, 0);
      g_assert_null (attempt->response_body);
      assert_no_key (attempt->request_headers);
      g_free (a);
      return TRUE;
    }
  {
    const char *fields[] = { attempt->question, attempt->started, attempt->request_url,
                             attempt->request_headers, attempt->request_body,
                             attempt->response_headers, attempt->model_version,
                             attempt->finish_reason, attempt->answer, attempt->error,
                             attempt->system_fingerprint, attempt->response_id,
                             attempt->option_probabilities };

    for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
      assert_no_key (fields[i]);
  }
  a->url = g_strdup (attempt->request_url);
  a->request_headers = g_strdup (attempt->request_headers);
  a->request_body = g_strdup (attempt->request_body);
  a->response_headers = g_strdup (attempt->response_headers);
  a->error = g_strdup (attempt->error);
  a->model_version = g_strdup (attempt->model_version);
  a->answer = g_strdup (attempt->answer);
  a->finish_reason = g_strdup (attempt->finish_reason);
  a->probabilities = g_strdup (attempt->option_probabilities);
  a->status = attempt->response_status;
  a->tokens_input = attempt->tokens_input;
  a->tokens_output = attempt->tokens_output;
  a->tokens_reasoning = attempt->tokens_reasoning;
  a->tokens_cached = attempt->tokens_cached;
  a->outcome = attempt->outcome;
  a->mismatch = attempt->model_mismatch;
  a->number = attempt->attempt;
  g_ptr_array_add (attempts, a);
  return TRUE;
}

KomiProviderProfile *
profile_for (const Server *server, const char *api, const char *extra)
{
  g_autofree char *text = g_strdup_printf (
    "{\"name\": \"test\", \"api\": \"%s\", \"base_url\": \"%s%s\", \"model\": \"%s\","
    " \"key_env\": \"" KEY_ENV "\", \"retry_base_ms\": 1, \"retry_cap_ms\": 5,"
    " \"timeout_seconds\": 10%s%s}",
    api, server->base, g_str_has_prefix (api, "openai") ? "/v1" : "",
    g_str_has_prefix (api, "openai") ? "gpt-test" : strcmp (api, "anthropic") == 0
    ? "claude-test" : "gemini-test", extra != NULL ? ", " : "", extra != NULL ? extra : "");
  g_autoptr(JsonParser) parser = json_parser_new ();
  GError *error = NULL;
  KomiProviderProfile *profile;

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  profile = komi_provider_profile_new_from_json (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  return profile;
}

void
example_state (KomiProtocolState *state)
{
  g_autoptr(KomiGame) game = game_from_diagram (example_diagram, KOMI_BLACK);

  komi_protocol_state_init_from_game (state, game, KOMI_ORIENTATION_IDENTITY);
}

char *
ask (Server *server, const char *api, const char *extra, KomiProtocolQuestion question,
     GPtrArray *attempts, GError **error)
{
  g_autoptr(KomiProviderProfile) profile = profile_for (server, api, extra);
  g_autoptr(KomiProvider) provider = komi_provider_new (profile, NULL);
  KomiProtocolState state;
  char *answer = NULL;

  g_assert_nonnull (provider);
  example_state (&state);
  if (!komi_provider_ask (provider, &state, question, record_attempt, attempts, &answer, NULL,
                          error))
    return NULL;
  return answer;
}

void
test_key_init (void)
{
  test_key = g_strdup_printf ("sk-komi-test-%08x%08x", g_random_int (), g_random_int ());
  g_setenv (KEY_ENV, test_key, TRUE);
}
