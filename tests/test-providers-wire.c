/* test-providers-wire.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-test-soup-server.h"
#include "komi-untrusted.h"

/* What goes on the wire for each API kind, and how each reply is decoded:
 * request shapes, profile errors, model faults, constraints, logprobs. */


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

/* The process's key table (the keyring's keys in the app) comes before
 * the environment; cleared, the environment again; neither, the error. */
static void
test_key_table (void)
{
  Server *server = server_new ();
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(KomiProviderProfile) profile = profile_for (server, "openai-chat", NULL);
  g_autoptr(KomiProvider) provider = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *table_key = g_strdup_printf ("sk-komi-table-%08x", g_random_int ());
  g_autofree char *expected = NULL;
  g_autofree char *answer = NULL;
  guint serial = komi_provider_keys_get_serial ();
  Request *sent;

  komi_provider_keys_set (KEY_ENV, table_key);
  g_assert_true (komi_provider_keys_has (KEY_ENV));
  g_assert_cmpuint (komi_provider_keys_get_serial (), !=, serial);
  server_add_reply (server, 200, NULL, chat_ok, 0);
  server_add_reply (server, 200, NULL, chat_ok, 0);
  answer = ask (server, "openai-chat", NULL, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, attempts,
                &error);
  g_assert_no_error (error);
  sent = g_ptr_array_index (server->requests, 0);
  expected = g_strconcat ("Bearer ", table_key, NULL);
  g_assert_cmpstr (soup_message_headers_get_one (sent->headers, "Authorization"), ==, expected);
  /* The record never holds it. */
  g_assert_null (strstr (((Attempt *) g_ptr_array_index (attempts, 0))->request_headers,
                         table_key));

  komi_provider_keys_clear ();
  g_assert_false (komi_provider_keys_has (KEY_ENV));
  g_clear_pointer (&answer, g_free);
  answer = ask (server, "openai-chat", NULL, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, attempts,
                &error);
  g_assert_no_error (error);
  sent = g_ptr_array_index (server->requests, 1);
  g_clear_pointer (&expected, g_free);
  expected = g_strconcat ("Bearer ", test_key, NULL);
  g_assert_cmpstr (soup_message_headers_get_one (sent->headers, "Authorization"), ==, expected);

  /* An empty key removes; with the environment unset too, the clear error. */
  komi_provider_keys_set (KEY_ENV, table_key);
  komi_provider_keys_set (KEY_ENV, "");
  g_assert_false (komi_provider_keys_has (KEY_ENV));
  g_unsetenv (KEY_ENV);
  provider = komi_provider_new (profile, &error);
  g_assert_null (provider);
  g_assert_error (error, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_FATAL);
  g_assert_nonnull (strstr (error->message, "Set the environment variable " KEY_ENV));
  g_setenv (KEY_ENV, test_key, TRUE);
  server_free (server);
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

static char *
redacted (const KomiRedactor *redactor, const char *text)
{
  char *copy = g_strdup (text);

  komi_redactor_apply (redactor, &copy);
  return copy;
}

/* Each form a server may echo a key in is removed, and nothing else. */
static void
test_redactor (void)
{
  const char *key = "sk-proj-Abc123_xyz-9876543210";
  g_autoptr(KomiRedactor) redactor = komi_redactor_new (key);
  g_autofree char *b64 = g_base64_encode ((const guchar *) key, strlen (key));
  g_autofree char *shifted = g_strconcat ("Bearer ", key, NULL);
  g_autofree char *b64_shifted = g_base64_encode ((const guchar *) shifted, strlen (shifted));
  struct { const char *text, *expected; } cases[] = {
    { "key sk-proj-Abc123_xyz-9876543210 here", "key [redacted] here" },
    /* Mixed JSON escapes, either case of hex, and an escaped slash. */
    { "\"sk-\\u0070roj-\\u0041bc123_xyz-98765\\u003432\\u00310\"", "\"[redacted]\"" },
    { "k=sk%2Dproj%2dAbc123_xyz-9876543210&x", "k=[redacted]&x" },
    { "746b", "746b" },
    /* Twice, and its first part at the end of a cut-short body. */
    { "sk-proj-Abc123_xyz-9876543210sk-proj-Abc123_xyz-9876543210", "[redacted][redacted]" },
    { "...\"sk-proj-Abc12", "...\"[redacted]" },
    /* Short pieces of it are ordinary text. */
    { "sk-proj is a prefix", "sk-proj is a prefix" },
  };

  g_assert_null (komi_redactor_new (NULL));
  g_assert_null (komi_redactor_new (""));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = redacted (redactor, cases[i].text);

      g_assert_cmpstr (out, ==, cases[i].expected);
    }
  {
    g_autofree char *text = g_strdup_printf ("{\"b\":\"%s\",\"s\":\"%s\"}", b64, b64_shifted);
    g_autofree char *out = redacted (redactor, text);
    g_autofree char *hex = NULL;
    GString *h = g_string_new (NULL);

    g_assert_null (strstr (out, b64));
    /* Of the shifted form, what depends on the key alone is gone. */
    g_assert_null (strstr (out, b64_shifted + 12));
    g_assert_nonnull (strstr (out, "[redacted]"));
    for (const char *p = key; *p != '\0'; p++)
      g_string_append_printf (h, "%02X", (guchar) *p);
    hex = g_string_free (h, FALSE);
    g_free (out);
    out = redacted (redactor, hex);
    g_assert_cmpstr (out, ==, "[redacted]");
  }
  {
    g_autoptr(GBytes) bytes = g_bytes_new ("a\0sk-proj-Abc123_xyz-9876543210\0b", 33);
    gsize len;
    const char *data;

    g_assert_true (komi_redactor_apply_bytes (redactor, &bytes));
    data = g_bytes_get_data (bytes, &len);
    g_assert_cmpmem (data, len, "a\0[redacted]\0b", 14);
  }
}

/* JSON from a stranger: nesting bounded, NUL escapes visible, bytes that
 * are not text refused; text for a terminal written out. */
static void
test_untrusted_text (void)
{
  GString *deep = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *shown = NULL, *valid = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, ']');
  g_assert_null (komi_untrusted_parse_json (deep->str, (gssize) deep->len));
  g_assert_cmpstr (komi_untrusted_json_refusal (deep->str, deep->len), ==,
                   "nests deeper than 64 levels");
  g_string_free (deep, TRUE);
  /* Brackets inside strings are not nesting. */
  node = komi_untrusted_parse_json ("{\"a\":\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"}", -1);
  g_assert_nonnull (node);
  g_clear_pointer (&node, json_node_unref);
  node = komi_untrusted_parse_json ("{\"answer\":\"D4\\u0000<script>\",\"b\":\"\\\\u0000\"}", -1);
  g_assert_nonnull (node);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "answer"), ==,
                   "D4\xef\xbf\xbd<script>");
  /* An escaped backslash before u0000 is text, not an escape. */
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "b"), ==,
                   "\\u0000");
  g_assert_null (komi_untrusted_parse_json ("{\"a\":\"\xff\"}", -1));
  g_assert_null (komi_untrusted_parse_json ("{\"a\":\"x\0\"}", 10));
  g_assert_cmpstr (komi_untrusted_json_refusal ("{\"a\":\"x\0\"}", 10), ==, "holds a NUL byte");

  valid = komi_untrusted_valid_utf8 ("a\xff" "b\0c", 5);
  g_assert_cmpstr (valid, ==, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c");
  shown = komi_untrusted_visible ("\x1b]0;T\x07\x1b[2J ok\n\ttab \xc2\x9b \xe2\x80\xae \xff");
  g_assert_cmpstr (shown, ==, "\\x1b]0;T\\x07\\x1b[2J ok\n\ttab \\u009b \\u202e \xef\xbf\xbd");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_key_init ();

  g_test_add_func ("/komi/providers/request-for-question", test_request_for_question);
  g_test_add_func ("/komi/providers/profile/errors", test_profile_errors);
  g_test_add_func ("/komi/providers/profile/missing-key", test_missing_key);
  g_test_add_func ("/komi/providers/key-table", test_key_table);
  for (guint i = 0; i < G_N_ELEMENTS (api_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/komi/providers/api/%s", api_cases[i].api);

      g_test_add_data_func (path, &api_cases[i], test_api);
    }
  g_test_add_func ("/komi/providers/model-faults", test_model_faults);
  g_test_add_func ("/komi/providers/constraints", test_constraints);
  g_test_add_func ("/komi/providers/logprobs", test_logprobs);
  g_test_add_func ("/komi/providers/redactor", test_redactor);
  g_test_add_func ("/komi/providers/untrusted-text", test_untrusted_text);
  return g_test_run ();
}
