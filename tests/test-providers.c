/* test-providers.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <libsoup/soup.h>
#include <string.h>

#include "komi-protocol-state.h"
#include "komi-provider.h"
#include "komi-test-util.h"
#include "komi-transport.h"

/* Every exchange goes to a loopback SoupServer running on a thread of its
 * own, answering from a queue of canned replies. */

#define KEY_ENV "KOMI_TEST_PROVIDER_KEY"

static const char *example_diagram =
  "O . . O X X X X X\n"
  ". O . . X X X X X\n"
  "O . . . X X X X X\n"
  ". . . . O . . X O\n"
  ". . O . X X X X O\n"
  ". . . . . O O O .\n"
  ". . O . . O O . O\n"
  ". . . . . O . . .\n"
  ". . . . . . . O .\n";

static char *test_key;

static const char *chat_ok =
  "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-test-2026-01-01\","
  "\"system_fingerprint\":\"fp_1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
  "\"content\":\"{\\\"answer\\\":\\\"pass\\\"}\",\"refusal\":null},\"finish_reason\":\"stop\","
  "\"logprobs\":null}],\"usage\":{\"prompt_tokens\":500,\"completion_tokens\":7,\"total_tokens\":507,"
  "\"prompt_tokens_details\":{\"cached_tokens\":100},\"completion_tokens_details\":"
  "{\"reasoning_tokens\":0}}}";
static const char *responses_ok =
  "{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"model\":\"gpt-test-2026-01-01\","
  "\"output\":[{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[]},{\"type\":\"message\","
  "\"id\":\"msg_1\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
  "\"text\":\"{\\\"answer\\\":\\\"pass\\\"}\",\"annotations\":[]}]}],\"usage\":{\"input_tokens\":500,"
  "\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":40,\"output_tokens_details\":"
  "{\"reasoning_tokens\":32},\"total_tokens\":540}}";
static const char *anthropic_ok =
  "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test-20260101\","
  "\"content\":[{\"type\":\"text\",\"text\":\"{\\\"answer\\\":\\\"pass\\\"}\"}],\"stop_reason\":"
  "\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":500,\"output_tokens\":9,"
  "\"cache_read_input_tokens\":0}}";
static const char *gemini_ok =
  "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"pass\"}]},"
  "\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":500,"
  "\"candidatesTokenCount\":1,\"thoughtsTokenCount\":20,\"totalTokenCount\":521},"
  "\"modelVersion\":\"gemini-test-001\",\"responseId\":\"abc\"}";

typedef struct
{
  guint  status;
  char  *header;      /* "name: value" or NULL */
  char  *body;
  guint  delay_ms;
} Reply;

typedef struct
{
  char        *path;
  SoupMessageHeaders *headers;
  char        *body;
} Request;

typedef struct
{
  GMutex       lock;
  GMainContext *context;
  GMainLoop   *loop;
  GThread     *thread;
  SoupServer  *server;
  char        *base;         /* http://127.0.0.1:PORT */
  GQueue       replies;      /* Reply*, used in order; the last one repeats */
  GPtrArray   *requests;     /* Request* */
  guint        in_flight;
  guint        max_in_flight;
} Server;

typedef struct
{
  Server            *server;
  SoupServerMessage *message;
} Held;

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
  g_main_loop_run (server->loop);
  g_main_context_pop_thread_default (server->context);
  return NULL;
}

static void
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

static Server *
server_new (void)
{
  Server *server = g_new0 (Server, 1);
  GError *error = NULL;
  GSList *uris;

  g_mutex_init (&server->lock);
  server->requests = g_ptr_array_new_with_free_func (request_free);
  server->context = g_main_context_new ();
  server->loop = g_main_loop_new (server->context, FALSE);
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

static gboolean
quit_loop (gpointer data)
{
  Server *server = data;

  soup_server_disconnect (server->server);
  g_main_loop_quit (server->loop);
  return G_SOURCE_REMOVE;
}

static void
server_free (Server *server)
{
  g_main_context_invoke (server->context, quit_loop, server);
  g_thread_join (server->thread);
  g_object_unref (server->server);
  g_main_loop_unref (server->loop);
  g_main_context_unref (server->context);
  g_queue_clear_full (&server->replies, reply_free);
  g_ptr_array_unref (server->requests);
  g_free (server->base);
  g_mutex_clear (&server->lock);
  g_free (server);
}

/* Attempts as recorded, copied; each is checked for the key on arrival. */
typedef struct
{
  char               *url, *request_headers, *request_body, *response_headers, *error;
  char               *model_version, *answer, *finish_reason, *probabilities;
  gint                status;
  gint64              tokens_input, tokens_output, tokens_reasoning, tokens_cached;
  KomiProviderOutcome outcome;
  gboolean            mismatch;
  guint               number;
} Attempt;

static void
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

static void
assert_no_key (const char *text)
{
  g_assert_true (text == NULL || strstr (text, test_key) == NULL);
}

static gboolean
record_attempt (const KomiProviderAttempt *attempt, gpointer data, GError **error)
{
  GPtrArray *attempts = data;
  Attempt *a = g_new0 (Attempt, 1);
  gsize len = 0;
  const char *body = attempt->response_body != NULL
    ? g_bytes_get_data (attempt->response_body, &len) : NULL;

  g_assert_true (body == NULL || memmem (body, len, test_key, strlen (test_key)) == NULL);
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

static KomiProviderProfile *
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

static void
example_state (KomiProtocolState *state)
{
  g_autoptr(KomiGame) game = game_from_diagram (example_diagram, KOMI_BLACK);

  komi_protocol_state_init_from_game (state, game, KOMI_ORIENTATION_IDENTITY);
}

/* One call of @question; returns the answer or NULL with @error set. */
static char *
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

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  GError *error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static const char *
string_at (JsonNode *root, const char *path)
{
  const char *value = komi_wire_path_string (root, path);

  if (value == NULL)
    g_error ("no string at %s", path);
  return value;
}

static char *
one_question_request (KomiProtocolQuestion question)
{
  KomiProtocolState state;
  GString *out = g_string_new (NULL);

  example_state (&state);
  komi_protocol_write_request_for_question (out, &state, question);
  return g_string_free (out, FALSE);
}

static void
test_request_for_question (void)
{
  KomiProtocolState state;
  g_autoptr(GString) full = g_string_new (NULL);
  g_autofree char *first = one_question_request (KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS);
  g_autofree char *second = one_question_request (KOMI_PROTOCOL_QUESTION_BEST_POINT);
  const char *split;
  g_autoptr(GString) expected_first = NULL, expected_second = NULL;
  g_autoptr(JsonNode) root = parse (second);

  example_state (&state);
  komi_protocol_write_request (full, &state);
  /* Each one-question form is the full request with the other question's
   * element (and the comma between them) cut out. */
  split = strstr (full->str, ",\n    {\n      \"id\": \"best_point\"");
  g_assert_nonnull (split);
  expected_first = g_string_new_len (full->str, split - full->str);
  g_string_append (expected_first, "\n  ]\n}\n");
  g_assert_cmpstr (first, ==, expected_first->str);
  expected_second = g_string_new_len (full->str, strstr (full->str, "    {\n") - full->str);
  g_string_append (expected_second, split + 2);
  g_assert_cmpstr (second, ==, expected_second->str);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (
                      komi_wire_path (root, "questions"))), ==, 1);
  g_assert_cmpstr (string_at (root, "questions.0.options.0"), ==, "B9");
}

static void
test_profile_errors (void)
{
  static const struct { const char *json, *message; } cases[] = {
    { "[]", "must be a JSON object" },
    { "{\"api\": \"gemini\", \"model\": \"m\"}", "“name”: missing" },
    { "{\"name\": \"n\", \"model\": \"m\"}", "“api”: missing" },
    { "{\"name\": \"n\", \"api\": \"bard\", \"model\": \"m\"}", "“api”: must be one of openai-chat" },
    { "{\"name\": \"n\", \"api\": \"gemini\"}", "“model”: missing" },
    { "{\"name\": \"n\", \"api\": \"gemini\", \"model\": \"m\", \"temprature\": 1}",
      "“temprature”: unknown field" },
    { "{\"name\": \"n\", \"api\": \"gemini\", \"model\": \"m\", \"temperature\": \"hot\"}",
      "“temperature”: must be a number from 0 to 2" },
    { "{\"name\": \"n\", \"api\": \"gemini\", \"model\": \"m\", \"max_concurrent\": 0}",
      "“max_concurrent”: must be a whole number from 1" },
    { "{\"name\": \"n\", \"api\": \"gemini\", \"model\": \"m\", \"key_env\": \"sk-12 34\"}",
      "“key_env”: must be the name of an environment variable" },
    { "{\"name\": \"n\", \"api\": \"gemini\", \"model\": \"m\", \"base_url\": \"ftp://x\"}",
      "“base_url”: must be an http" },
    { "{\"name\": \"n\", \"api\": \"anthropic\", \"model\": \"m\", \"logprobs\": true}",
      "“logprobs”: the anthropic API returns no logprobs" },
    { "{\"name\": \"n\", \"api\": \"anthropic\", \"model\": \"m\", \"anthropic_tool\": true,"
      " \"thinking_budget\": 2048}", "“anthropic_tool”: cannot be used with thinking_budget" },
    { "{\"name\": \"n\", \"api\": \"gemini\", \"model\": \"m\", \"constrain\": \"vllm_choice\"}",
      "“constrain”: vllm_choice needs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) root = parse (cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(KomiProviderProfile) profile = komi_provider_profile_new_from_json (root, &error);

      g_assert_null (profile);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("%s: got “%s”, expected “%s”", cases[i].json, error->message, cases[i].message);
    }
}

static void
test_missing_key (void)
{
  g_autoptr(JsonNode) root = parse ("{\"name\": \"n\", \"api\": \"openai-chat\", \"model\": \"m\","
                                    " \"key_env\": \"KOMI_TEST_NO_SUCH_KEY\"}");
  g_autoptr(KomiProviderProfile) profile = komi_provider_profile_new_from_json (root, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiProvider) provider = NULL;

  g_assert_null (g_getenv ("KOMI_TEST_NO_SUCH_KEY"));
  provider = komi_provider_new (profile, &error);
  g_assert_null (provider);
  g_assert_error (error, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_FATAL);
  g_assert_nonnull (strstr (error->message, "Set the environment variable KOMI_TEST_NO_SUCH_KEY"));
}

typedef struct
{
  const char *api;
  const char *path;           /* the request path on the wire */
  const char *auth_header;
  const char *auth_prefix;
  const char *reply;
  const char *system_path;    /* where the rules text is in the body */
  const char *user_path;      /* where the request is */
  const char *enum_path;      /* the constraint's option list */
  gint64      tokens[4];      /* input, output, reasoning, cached */
  const char *model_version;
} ApiCase;

static const ApiCase api_cases[] = {
  { "openai-chat", "/v1/chat/completions", "Authorization", "Bearer ", NULL, "messages.0.content",
    "messages.1.content", "response_format.json_schema.schema.properties.answer.enum",
    { 500, 7, 0, 100 }, "gpt-test-2026-01-01" },
  { "openai-responses", "/v1/responses", "Authorization", "Bearer ", NULL, "instructions",
    "input.0.content", "text.format.schema.properties.answer.enum", { 500, 40, 32, 0 },
    "gpt-test-2026-01-01" },
  { "anthropic", "/v1/messages", "x-api-key", "", NULL, "system", "messages.0.content",
    "output_config.format.schema.properties.answer.enum", { 500, 9, -1, 0 },
    "claude-test-20260101" },
  { "gemini", "/v1beta/models/gemini-test:generateContent", "x-goog-api-key", "", NULL,
    "systemInstruction.parts.0.text", "contents.0.parts.0.text",
    "generationConfig.responseSchema.enum", { 500, 21, 20, -1 }, "gemini-test-001" },
};

static const char *
ok_reply (const char *api)
{
  return strcmp (api, "openai-chat") == 0 ? chat_ok : strcmp (api, "openai-responses") == 0
    ? responses_ok : strcmp (api, "anthropic") == 0 ? anthropic_ok : gemini_ok;
}

static void
test_api (gconstpointer data)
{
  const ApiCase *c = data;
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL, *expected_auth = NULL, *request = NULL;
  g_autoptr(JsonNode) body = NULL, headers = NULL;
  const char *rules;
  gsize rules_len;
  Request *sent;
  Attempt *a;
  JsonNode *options;

  server_add_reply (server, 200, NULL, ok_reply (c->api), 0);
  answer = ask (server, c->api, NULL, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, attempts, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer, ==, "pass");

  /* On the wire: the real path, the key in the API's own header. */
  g_assert_cmpuint (server->requests->len, ==, 1);
  sent = g_ptr_array_index (server->requests, 0);
  g_assert_cmpstr (sent->path, ==, c->path);
  expected_auth = g_strconcat (c->auth_prefix, test_key, NULL);
  g_assert_cmpstr (soup_message_headers_get_one (sent->headers, c->auth_header), ==,
                   expected_auth);
  if (strcmp (c->api, "anthropic") == 0)
    g_assert_cmpstr (soup_message_headers_get_one (sent->headers, "anthropic-version"), ==,
                     "2023-06-01");

  /* The body: rules text byte for byte, the one-question request, the enum. */
  body = parse (sent->body);
  rules = komi_protocol_get_rules_text (1, &rules_len);
  g_assert_cmpstr (string_at (body, c->system_path), ==, rules);
  request = one_question_request (KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS);
  g_assert_cmpstr (string_at (body, c->user_path), ==, request);
  options = komi_wire_path (body, c->enum_path);
  g_assert_nonnull (options);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (options)), ==, 2);
  g_assert_cmpstr (komi_wire_path_string (options, "0"), ==, "place a stone");
  if (strcmp (c->api, "gemini") == 0)
    g_assert_cmpstr (string_at (body, "generationConfig.responseMimeType"), ==, "text/x.enum");
  else
    g_assert_cmpstr (string_at (body, "model"), ==, strcmp (c->api, "anthropic") == 0
                     ? "claude-test" : "gpt-test");

  /* The record: the same exchange, the key redacted, the response decoded. */
  g_assert_cmpuint (attempts->len, ==, 1);
  a = g_ptr_array_index (attempts, 0);
  g_assert_cmpstr (a->request_body, ==, sent->body);
  g_assert_true (g_str_has_suffix (a->url, c->path));
  headers = parse (a->request_headers);
  g_assert_cmpstr (string_at (headers, c->auth_header), ==, "[redacted]");
  g_assert_cmpint (a->status, ==, 200);
  g_assert_cmpint (a->outcome, ==, KOMI_PROVIDER_OUTCOME_ANSWER);
  g_assert_cmpstr (a->answer, ==, "pass");
  g_assert_cmpint (a->tokens_input, ==, c->tokens[0]);
  g_assert_cmpint (a->tokens_output, ==, c->tokens[1]);
  g_assert_cmpint (a->tokens_reasoning, ==, c->tokens[2]);
  g_assert_cmpint (a->tokens_cached, ==, c->tokens[3]);
  g_assert_cmpstr (a->model_version, ==, c->model_version);
  g_assert_false (a->mismatch);
  g_assert_nonnull (strstr (a->response_headers, "application/json"));
  server_free (server);
}

/* A model fault: the call fails with MODEL_FAULT after one attempt. */
static void
check_model_fault (const char *api, const char *extra, const char *reply,
                   KomiProviderOutcome outcome, const char *message)
{
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  Attempt *a;

  server_add_reply (server, 200, NULL, reply, 0);
  answer = ask (server, api, extra, KOMI_PROTOCOL_QUESTION_BEST_POINT, attempts, &error);
  g_assert_null (answer);
  g_assert_error (error, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_MODEL_FAULT);
  if (strstr (error->message, message) == NULL)
    g_error ("got “%s”, expected “%s”", error->message, message);
  g_assert_cmpuint (attempts->len, ==, 1);
  a = g_ptr_array_index (attempts, 0);
  g_assert_cmpint (a->outcome, ==, outcome);
  g_assert_null (a->answer);
  server_free (server);
}

static void
test_model_faults (void)
{
  check_model_fault ("openai-chat", NULL,
                     "{\"model\":\"gpt-test\",\"choices\":[{\"message\":{\"content\":null,"
                     "\"refusal\":\"I'm very sorry, but I can't assist with that.\"},"
                     "\"finish_reason\":\"stop\"}]}",
                     KOMI_PROVIDER_OUTCOME_REFUSAL, "The model refused: I'm very sorry");
  check_model_fault ("openai-chat", NULL,
                     "{\"model\":\"gpt-test\",\"choices\":[{\"message\":{\"content\":\"{\\\"\","
                     "\"refusal\":null},\"finish_reason\":\"length\"}]}",
                     KOMI_PROVIDER_OUTCOME_TRUNCATED, "cut short (length)");
  check_model_fault ("openai-chat", NULL,
                     "{\"model\":\"gpt-test\",\"choices\":[{\"message\":{\"content\":"
                     "\"{\\\"answer\\\":\\\"Z9\\\"}\"},\"finish_reason\":\"stop\"}]}",
                     KOMI_PROVIDER_OUTCOME_INVALID_OPTION, "“Z9” is not one of the options");
  check_model_fault ("openai-chat", "\"constrain\": \"none\"",
                     "{\"model\":\"gpt-test\",\"choices\":[{\"message\":{\"content\":\"  \"},"
                     "\"finish_reason\":\"stop\"}]}",
                     KOMI_PROVIDER_OUTCOME_INVALID_OPTION, "The answer is empty");
  check_model_fault ("anthropic", NULL,
                     "{\"type\":\"message\",\"model\":\"claude-test\",\"content\":[],"
                     "\"stop_reason\":\"refusal\",\"stop_details\":{\"type\":\"refusal\","
                     "\"category\":\"cyber\",\"explanation\":null}}",
                     KOMI_PROVIDER_OUTCOME_REFUSAL, "The model refused: cyber");
  check_model_fault ("openai-responses", NULL,
                     "{\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":"
                     "\"max_output_tokens\"},\"output\":[]}",
                     KOMI_PROVIDER_OUTCOME_TRUNCATED, "max_output_tokens");
  check_model_fault ("gemini", NULL,
                     "{\"candidates\":[{\"finishReason\":\"MAX_TOKENS\"}],"
                     "\"modelVersion\":\"gemini-test\"}",
                     KOMI_PROVIDER_OUTCOME_TRUNCATED, "MAX_TOKENS");
  check_model_fault ("gemini", NULL,
                     "{\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}",
                     KOMI_PROVIDER_OUTCOME_FILTERED, "blocked (SAFETY)");
}

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

static void
test_constraints (void)
{
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  g_autoptr(JsonNode) body = NULL, vllm = NULL;

  /* Anthropic's forced tool. */
  server_add_reply (server, 200, NULL, "{\"type\":\"message\",\"model\":\"claude-other\","
                    "\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"answer\","
                    "\"input\":{\"answer\":\"B9\"}}],\"stop_reason\":\"tool_use\"}", 0);
  answer = ask (server, "anthropic", "\"anthropic_tool\": true",
                KOMI_PROTOCOL_QUESTION_BEST_POINT, attempts, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer, ==, "B9");
  body = parse (((Request *) g_ptr_array_index (server->requests, 0))->body);
  g_assert_cmpstr (string_at (body, "tool_choice.type"), ==, "tool");
  g_assert_cmpstr (string_at (body, "tools.0.input_schema.properties.answer.enum.0"), ==, "B9");
  g_assert_null (komi_wire_path (body, "output_config"));
  g_assert_true (((Attempt *) g_ptr_array_index (attempts, 0))->mismatch);
  server_free (server);

  /* vLLM's choice, answered in plain text with quotes around it. */
  server = server_new ();
  g_clear_pointer (&answer, g_free);
  server_add_reply (server, 200, NULL, "{\"model\":\"gpt-test\",\"choices\":[{\"message\":"
                    "{\"content\":\" \\\"place a stone\\\"\\n\"},\"finish_reason\":\"stop\"}]}", 0);
  answer = ask (server, "openai-chat", "\"constrain\": \"vllm_choice\"",
                KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, attempts, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer, ==, "place a stone");
  vllm = parse (((Request *) g_ptr_array_index (server->requests, 0))->body);
  g_assert_cmpstr (string_at (vllm, "structured_outputs.choice.1"), ==, "pass");
  g_assert_null (komi_wire_path (vllm, "response_format"));
  server_free (server);
}

/* Probabilities assembled from the answer's tokens and alternatives. */
static void
test_logprobs (void)
{
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  g_autoptr(JsonNode) probs = NULL, body = NULL;
  Attempt *a;

  server_add_reply (server, 200, NULL,
    "{\"model\":\"gpt-test\",\"choices\":[{\"message\":{\"content\":\"{\\\"answer\\\":\\\"pass\\\"}\"},"
    "\"finish_reason\":\"stop\",\"logprobs\":{\"content\":["
    "{\"token\":\"{\\\"\",\"logprob\":0,\"top_logprobs\":[]},"
    "{\"token\":\"answer\",\"logprob\":0,\"top_logprobs\":[]},"
    "{\"token\":\"\\\":\\\"\",\"logprob\":0,\"top_logprobs\":[]},"
    "{\"token\":\"pass\",\"logprob\":-0.2231435513,\"top_logprobs\":["
    "{\"token\":\"pass\",\"logprob\":-0.2231435513},{\"token\":\"place\",\"logprob\":-1.6094379124}]},"
    "{\"token\":\"\\\"}\",\"logprob\":0,\"top_logprobs\":[]}]}}]}", 0);
  answer = ask (server, "openai-chat", "\"logprobs\": true, \"top_logprobs\": 2",
                KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, attempts, &error);
  g_assert_no_error (error);
  body = parse (((Request *) g_ptr_array_index (server->requests, 0))->body);
  g_assert_true (json_node_get_boolean (komi_wire_path (body, "logprobs")));
  g_assert_cmpint (json_node_get_int (komi_wire_path (body, "top_logprobs")), ==, 2);
  a = g_ptr_array_index (attempts, 0);
  g_assert_nonnull (a->probabilities);
  probs = parse (a->probabilities);
  g_assert_cmpfloat_with_epsilon (json_node_get_double (komi_wire_path (probs, "pass")), 0.8, 1e-4);
  g_assert_cmpfloat_with_epsilon (json_node_get_double (komi_wire_path (probs, "place a stone")),
                                  0.2, 1e-4);
  server_free (server);
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

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  /* A recognisable random key, checked against every recorded field. */
  test_key = g_strdup_printf ("sk-komi-test-%08x%08x", g_random_int (), g_random_int ());
  g_setenv (KEY_ENV, test_key, TRUE);

  g_test_add_func ("/komi/providers/request-for-question", test_request_for_question);
  g_test_add_func ("/komi/providers/profile/errors", test_profile_errors);
  g_test_add_func ("/komi/providers/profile/missing-key", test_missing_key);
  for (guint i = 0; i < G_N_ELEMENTS (api_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/komi/providers/api/%s", api_cases[i].api);

      g_test_add_data_func (path, &api_cases[i], test_api);
    }
  g_test_add_func ("/komi/providers/model-faults", test_model_faults);
  g_test_add_func ("/komi/providers/constraints", test_constraints);
  g_test_add_func ("/komi/providers/logprobs", test_logprobs);
  g_test_add_func ("/komi/providers/retry/429", test_retry_429);
  g_test_add_func ("/komi/providers/retry/budget", test_budget);
  g_test_add_func ("/komi/providers/retry/after", test_retry_after);
  g_test_add_func ("/komi/providers/fatal/401", test_fatal_401);
  g_test_add_func ("/komi/providers/fatal/quota", test_quota_fatal);
  g_test_add_func ("/komi/providers/concurrency", test_concurrency);
  return g_test_run ();
}
