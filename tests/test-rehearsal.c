/* test-rehearsal.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-test"

#include "config.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "komi-rehearsal.h"

/* The rehearsal server against a plain libsoup client: every API's shape,
 * the policies, every fault, the key and the counters. */

#define RULES "Go on a 9x9 board. X moves first; O moves second."
#define OPTIONS "[\"B9\",\"C9\",\"C8\",\"D8\",\"G1\",\"J1\"]"
#define SCHEMA(prop) "{\"type\":\"object\",\"properties\":{\"" prop "\":{\"type\":\"string\"," \
                     "\"enum\":" OPTIONS "}},\"required\":[\"" prop "\"]," \
                     "\"additionalProperties\":false}"

static const char * const points[] = { "B9", "C9", "C8", "D8", "G1", "J1", NULL };
static const KomiRehearsalApi apis[] = {
  KOMI_REHEARSAL_API_CHAT, KOMI_REHEARSAL_API_RESPONSES,
  KOMI_REHEARSAL_API_ANTHROPIC, KOMI_REHEARSAL_API_GEMINI,
};

typedef struct
{
  guint               status;
  char               *body;
  SoupMessageHeaders *headers;
  GError             *error;
  JsonNode           *json;
} Response;

static void
response_free (Response *r)
{
  g_free (r->body);
  g_clear_pointer (&r->headers, soup_message_headers_unref);
  g_clear_error (&r->error);
  g_clear_pointer (&r->json, json_node_unref);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Response, response_free)

static char *
quote (const char *s)
{
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), s);

  return json_to_string (node, FALSE);
}

/* A one-question Protocol 1 request; @turns varies the body. */
static char *
user_content (int turns)
{
  return g_strdup_printf ("{\"state\":{\"to_move\":\"X\",\"board\":[\"  A B C D E F G H J\"],"
                          "\"turns_left\":%d,\"opponent_just_passed\":false,"
                          "\"points_forbidden_by_superko\":[]},\"questions\":[{\"id\":"
                          "\"best_point\",\"question\":\"If X places a stone now, which point "
                          "should it be?\",\"options\":" OPTIONS "}]}", turns);
}

static const char *
api_path (KomiRehearsalApi api)
{
  static const char * const paths[] = {
    "/v1/chat/completions", "/v1/responses", "/v1/messages",
    "/v1beta/models/gemini-rehearsal:generateContent",
  };
  return paths[api];
}

/* Each API's request, constrained to the options as our client asks. */
static char *
api_body (KomiRehearsalApi api, int turns)
{
  g_autofree char *user = user_content (turns);
  g_autofree char *q = quote (user);

  switch (api)
    {
    case KOMI_REHEARSAL_API_CHAT:
      return g_strdup_printf ("{\"model\":\"gpt-rehearsal\",\"messages\":[{\"role\":\"system\","
                              "\"content\":\"" RULES "\"},{\"role\":\"user\",\"content\":%s}],"
                              "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":"
                              "{\"name\":\"answer\",\"strict\":true,\"schema\":" SCHEMA ("point")
                              "}},\"logprobs\":true,\"top_logprobs\":3,"
                              "\"reasoning_effort\":\"low\"}", q);
    case KOMI_REHEARSAL_API_RESPONSES:
      return g_strdup_printf ("{\"model\":\"gpt-rehearsal\",\"instructions\":\"" RULES "\","
                              "\"input\":[{\"role\":\"user\",\"content\":[{\"type\":"
                              "\"input_text\",\"text\":%s}]}],\"text\":{\"format\":{\"type\":"
                              "\"json_schema\",\"name\":\"answer\",\"strict\":true,\"schema\":"
                              SCHEMA ("answer") "}},\"include\":[\"message.output_text."
                              "logprobs\"],\"top_logprobs\":2,\"reasoning\":{\"effort\":\"low\"}}",
                              q);
    case KOMI_REHEARSAL_API_ANTHROPIC:
      return g_strdup_printf ("{\"model\":\"claude-rehearsal\",\"max_tokens\":256,\"system\":\""
                              RULES "\",\"messages\":[{\"role\":\"user\",\"content\":%s}],"
                              "\"output_config\":{\"format\":{\"type\":\"json_schema\","
                              "\"schema\":" SCHEMA ("point") "}}}", q);
    case KOMI_REHEARSAL_API_GEMINI:
    default:
      return g_strdup_printf ("{\"systemInstruction\":{\"parts\":[{\"text\":\"" RULES "\"}]},"
                              "\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":%s}]}],"
                              "\"generationConfig\":{\"responseMimeType\":\"text/x.enum\","
                              "\"responseSchema\":{\"type\":\"STRING\",\"enum\":" OPTIONS "},"
                              "\"responseLogprobs\":true,\"logprobs\":3}}", q);
    }
}

static Response *
post (KomiRehearsal *server, const char *path, const char *body, const char *header,
      const char *value)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *url = g_strconcat (komi_rehearsal_get_base_url (server), path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
  g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  Response *r = g_new0 (Response, 1);

  soup_message_set_request_body_from_bytes (msg, "application/json", request);
  if (header != NULL)
    soup_message_headers_append (soup_message_get_request_headers (msg), header, value);
  bytes = soup_session_send_and_read (session, msg, NULL, &r->error);
  if (bytes == NULL)
    return r;
  r->status = soup_message_get_status (msg);
  r->headers = soup_message_headers_ref (soup_message_get_response_headers (msg));
  r->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (json_parser_load_from_data (parser, r->body, -1, NULL))
    r->json = json_node_ref (json_parser_get_root (parser));
  return r;
}

static Response *
post_api (KomiRehearsal *server, KomiRehearsalApi api, int turns)
{
  g_autofree char *body = api_body (api, turns);

  return post (server, api_path (api), body, NULL, NULL);
}

/* "a/0/b": members and array indices. */
static JsonNode *
at (JsonNode *node, const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = 0; parts[i] != NULL && node != NULL; i++)
    if (JSON_NODE_HOLDS_ARRAY (node))
      {
        guint k = atoi (parts[i]);
        JsonArray *a = json_node_get_array (node);
        node = k < json_array_get_length (a) ? json_array_get_element (a, k) : NULL;
      }
    else if (JSON_NODE_HOLDS_OBJECT (node))
      node = json_object_get_member (json_node_get_object (node), parts[i]);
    else
      node = NULL;
  return node;
}

static const char *
str_at (JsonNode *node, const char *path)
{
  JsonNode *n = at (node, path);

  if (n == NULL || json_node_get_value_type (n) != G_TYPE_STRING)
    g_error ("no string at %s", path);
  return json_node_get_string (n);
}

static gint64
int_at (JsonNode *node, const char *path)
{
  JsonNode *n = at (node, path);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    g_error ("no number at %s", path);
  return json_node_get_int (n);
}

static char *
member_of_json (const char *text, const char *member)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  GError *error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return g_strdup (str_at (json_parser_get_root (parser), member));
}

/* The answer, read where each API puts it (the request forms above). */
static char *
answer_of (KomiRehearsalApi api, JsonNode *root)
{
  switch (api)
    {
    case KOMI_REHEARSAL_API_CHAT:
      return member_of_json (str_at (root, "choices/0/message/content"), "point");
    case KOMI_REHEARSAL_API_RESPONSES:
      for (guint i = 0; at (root, "output") != NULL
                        && i < json_array_get_length (json_node_get_array (at (root, "output")));
           i++)
        {
          g_autofree char *item = g_strdup_printf ("output/%u", i);
          JsonNode *node = at (root, item);

          if (g_str_equal (str_at (node, "type"), "message"))
            {
              g_assert_cmpstr (str_at (node, "content/0/type"), ==, "output_text");
              return member_of_json (str_at (node, "content/0/text"), "answer");
            }
        }
      g_error ("no message in output");
    case KOMI_REHEARSAL_API_ANTHROPIC:
      return member_of_json (str_at (root, "content/0/text"), "point");
    case KOMI_REHEARSAL_API_GEMINI:
    default:
      return g_strdup (str_at (root, "candidates/0/content/parts/0/text"));
    }
}

static KomiRehearsal *
start (const KomiRehearsalOptions *options)
{
  GError *error = NULL;
  KomiRehearsal *server = komi_rehearsal_new (options, &error);

  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (komi_rehearsal_get_base_url (server), "http://127.0.0.1:"));
  return server;
}

/* Each API path answers with a valid option in its own shape. */
static void
test_shapes (void)
{
  g_autoptr(KomiRehearsal) server = start (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    {
      g_autofree char *body = api_body (apis[i], 80);
      g_autoptr(Response) r = post (server, api_path (apis[i]), body, NULL, NULL);
      g_autofree char *answer = NULL;
      g_autofree char *last = komi_rehearsal_dup_last_request_body (server);
      JsonNode *root;

      g_assert_no_error (r->error);
      g_assert_cmpuint (r->status, ==, 200);
      g_assert_nonnull (r->json);
      root = r->json;
      answer = answer_of (apis[i], root);
      g_assert_true (g_strv_contains (points, answer));
      g_assert_cmpstr (last, ==, body);
      g_assert_cmpuint (komi_rehearsal_get_request_count (server, api_path (apis[i])), ==, 1);

      switch (apis[i])
        {
        case KOMI_REHEARSAL_API_CHAT:
          {
            JsonNode *tokens = at (root, "choices/0/logprobs/content");
            g_autoptr(GString) joined = g_string_new (NULL);

            g_assert_cmpstr (str_at (root, "object"), ==, "chat.completion");
            g_assert_cmpstr (str_at (root, "model"), ==, "gpt-rehearsal-2026-01-01");
            g_assert_true (g_str_has_prefix (str_at (root, "id"), "chatcmpl-"));
            g_assert_true (g_str_has_prefix (str_at (root, "system_fingerprint"), "fp_"));
            g_assert_cmpstr (str_at (root, "choices/0/finish_reason"), ==, "stop");
            g_assert_true (JSON_NODE_HOLDS_NULL (at (root, "choices/0/message/refusal")));
            g_assert_cmpint (int_at (root, "usage/prompt_tokens"), ==, strlen (body) / 4);
            g_assert_cmpint (int_at (root, "usage/completion_tokens_details/reasoning_tokens"),
                             >, 0);
            g_assert_cmpint (int_at (root, "usage/prompt_tokens_details/cached_tokens"), ==, 0);
            g_assert_cmpint (int_at (root, "usage/total_tokens"), ==,
                             int_at (root, "usage/prompt_tokens")
                             + int_at (root, "usage/completion_tokens"));
            /* The tokens spell the content; the answer's token has 3
             * alternatives, the answer first. */
            for (guint k = 0; k < json_array_get_length (json_node_get_array (tokens)); k++)
              {
                g_autofree char *p = g_strdup_printf ("%u/token", k);
                g_string_append (joined, str_at (tokens, p));
              }
            g_assert_cmpstr (joined->str, ==, str_at (root, "choices/0/message/content"));
            g_assert_cmpstr (str_at (tokens, "3/token"), ==, answer);
            g_assert_cmpuint (json_array_get_length (json_node_get_array (at (tokens,
                                                                                "3/top_logprobs"))),
                              ==, 3);
            g_assert_cmpstr (str_at (tokens, "3/top_logprobs/0/token"), ==, answer);
            g_assert_cmpfloat (json_node_get_double (at (tokens, "3/logprob")), <, 0);
            break;
          }
        case KOMI_REHEARSAL_API_RESPONSES:
          g_assert_cmpstr (str_at (root, "object"), ==, "response");
          g_assert_cmpstr (str_at (root, "status"), ==, "completed");
          g_assert_cmpstr (str_at (root, "model"), ==, "gpt-rehearsal-2026-01-01");
          g_assert_cmpstr (str_at (root, "output/0/type"), ==, "reasoning");
          g_assert_cmpstr (str_at (root, "output/1/content/0/logprobs/3/token"), ==, answer);
          g_assert_nonnull (at (root, "output/1/content/0/logprobs/3/top_logprobs/1/logprob"));
          g_assert_cmpint (int_at (root, "usage/output_tokens_details/reasoning_tokens"), >, 0);
          g_assert_cmpint (int_at (root, "usage/input_tokens_details/cached_tokens"), ==, 0);
          break;
        case KOMI_REHEARSAL_API_ANTHROPIC:
          g_assert_cmpstr (str_at (root, "type"), ==, "message");
          g_assert_cmpstr (str_at (root, "model"), ==, "claude-rehearsal-20260101");
          g_assert_cmpstr (str_at (root, "stop_reason"), ==, "end_turn");
          g_assert_true (g_str_has_prefix (str_at (root, "id"), "msg_01"));
          g_assert_cmpint (int_at (root, "usage/input_tokens"), >, 50);
          g_assert_nonnull (soup_message_headers_get_one (r->headers, "request-id"));
          break;
        case KOMI_REHEARSAL_API_GEMINI:
          g_assert_cmpstr (str_at (root, "candidates/0/finishReason"), ==, "STOP");
          g_assert_cmpstr (str_at (root, "modelVersion"), ==, "gemini-rehearsal-001");
          g_assert_nonnull (at (root, "responseId"));
          g_assert_cmpstr (str_at (root, "candidates/0/logprobsResult/chosenCandidates/0/token"),
                           ==, answer);
          g_assert_cmpstr (str_at (root, "candidates/0/logprobsResult/topCandidates/0/"
                                         "candidates/0/token"), ==, answer);
          g_assert_nonnull (at (root, "candidates/0/logprobsResult/topCandidates/0/"
                                      "candidates/2"));
          g_assert_nonnull (at (root, "candidates/0/avgLogprobs"));
          g_assert_cmpint (int_at (root, "usageMetadata/promptTokenCount"), >, 50);
          g_assert_null (at (root, "usageMetadata/thoughtsTokenCount"));
          break;
        }
    }
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, NULL), ==, 4);
}

/* The other ways to ask: plain text, vLLM's choice, a forced Anthropic
 * tool, Gemini JSON, and two questions in one request. */
static void
test_request_forms (void)
{
  g_autoptr(KomiRehearsal) server = start (NULL);
  g_autofree char *user = user_content (70);
  g_autofree char *q = quote (user);
  g_autofree char *two = g_strdup_printf ("{\"state\":{},\"questions\":[{\"id\":\"play_or_pass\","
                                          "\"options\":[\"place a stone\",\"pass\"]},{\"id\":"
                                          "\"best_point\",\"options\":" OPTIONS "}]}");
  g_autofree char *q2 = quote (two);
  g_autofree char *plain = g_strdup_printf ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                                            "\"content\":%s}]}", q);
  g_autofree char *choice = g_strdup_printf ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                                             "\"content\":[{\"type\":\"text\",\"text\":%s}]}],"
                                             "\"structured_outputs\":{\"choice\":" OPTIONS "}}",
                                             q);
  g_autofree char *tool = g_strdup_printf ("{\"model\":\"claude-x\",\"max_tokens\":64,"
                                           "\"messages\":[{\"role\":\"user\",\"content\":%s}],"
                                           "\"tools\":[{\"name\":\"choose\",\"input_schema\":"
                                           SCHEMA ("move") "}],\"tool_choice\":{\"type\":"
                                           "\"tool\",\"name\":\"choose\"},\"thinking\":{\"type\":"
                                           "\"enabled\",\"budget_tokens\":1024}}", q);
  g_autofree char *gemini = g_strdup_printf ("{\"contents\":[{\"parts\":[{\"text\":%s}]}],"
                                             "\"generationConfig\":{\"responseMimeType\":"
                                             "\"application/json\",\"responseSchema\":"
                                             SCHEMA ("point") ",\"thinkingConfig\":{"
                                             "\"thinkingBudget\":128}}}", q);
  g_autofree char *both = g_strdup_printf ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                                           "\"content\":%s}]}", q2);
  g_autoptr(Response) r1 = post (server, "/v1/chat/completions", plain, NULL, NULL);
  g_autoptr(Response) r2 = post (server, "/v1/chat/completions", choice, NULL, NULL);
  g_autoptr(Response) r3 = post (server, "/v1/messages", tool, NULL, NULL);
  g_autoptr(Response) r4 = post (server, "/v1beta/models/gemini-2.5-flash:generateContent",
                                 gemini, NULL, NULL);
  g_autoptr(Response) r5 = post (server, "/v1/chat/completions", both, NULL, NULL);
  g_autofree char *point = NULL, *ask = NULL;

  g_assert_true (g_strv_contains (points, str_at (r1->json, "choices/0/message/content")));
  g_assert_true (JSON_NODE_HOLDS_NULL (at (r1->json, "choices/0/logprobs")));
  g_assert_true (g_strv_contains (points, str_at (r2->json, "choices/0/message/content")));

  g_assert_cmpstr (str_at (r3->json, "content/0/type"), ==, "thinking");
  g_assert_cmpstr (str_at (r3->json, "content/1/type"), ==, "tool_use");
  g_assert_cmpstr (str_at (r3->json, "content/1/name"), ==, "choose");
  g_assert_true (g_strv_contains (points, str_at (r3->json, "content/1/input/move")));
  g_assert_cmpstr (str_at (r3->json, "stop_reason"), ==, "tool_use");

  point = member_of_json (str_at (r4->json, "candidates/0/content/parts/0/text"), "point");
  g_assert_true (g_strv_contains (points, point));
  g_assert_cmpint (int_at (r4->json, "usageMetadata/thoughtsTokenCount"), >, 0);
  g_assert_cmpint (int_at (r4->json, "usageMetadata/totalTokenCount"), ==,
                   int_at (r4->json, "usageMetadata/promptTokenCount")
                   + int_at (r4->json, "usageMetadata/candidatesTokenCount")
                   + int_at (r4->json, "usageMetadata/thoughtsTokenCount"));
  g_assert_cmpstr (str_at (r4->json, "modelVersion"), ==, "gemini-2.5-flash-001");

  ask = member_of_json (str_at (r5->json, "choices/0/message/content"), "play_or_pass");
  g_assert_true (g_str_equal (ask, "place a stone") || g_str_equal (ask, "pass"));
  g_free (point);
  point = member_of_json (str_at (r5->json, "choices/0/message/content"), "best_point");
  g_assert_true (g_strv_contains (points, point));
}

/* Same request, same answer; the seed changes the answers somewhere; the
 * "first" policy always gives the first option. */
static void
test_policies (void)
{
  KomiRehearsalOptions o1 = { .seed = 1 }, o2 = { .seed = 2 };
  KomiRehearsalOptions first = { .policy = KOMI_REHEARSAL_POLICY_FIRST };
  g_autoptr(KomiRehearsal) s1 = start (&o1);
  g_autoptr(KomiRehearsal) s2 = start (&o2);
  g_autoptr(KomiRehearsal) s3 = start (&first);
  guint differ = 0, varied = 0;
  g_autofree char *previous = NULL;

  for (int turns = 1; turns <= 24; turns++)
    {
      KomiRehearsalApi api = apis[turns % 4];
      g_autoptr(Response) a = post_api (s1, api, turns);
      g_autoptr(Response) again = post_api (s1, api, turns);
      g_autoptr(Response) b = post_api (s2, api, turns);
      g_autoptr(Response) f = post_api (s3, api, turns);
      g_autofree char *x = answer_of (api, a->json);
      g_autofree char *y = answer_of (api, again->json);
      g_autofree char *z = answer_of (api, b->json);
      g_autofree char *w = answer_of (api, f->json);

      g_assert_cmpstr (x, ==, y);
      g_assert_cmpstr (w, ==, "B9");
      differ += !g_str_equal (x, z);
      varied += previous != NULL && !g_str_equal (previous, x);
      g_free (previous);
      previous = g_steal_pointer (&x);
    }
  g_assert_cmpuint (differ, >, 0);
  g_assert_cmpuint (varied, >, 0);
}

static const char *
error_type (KomiRehearsalApi api, JsonNode *root)
{
  if (api == KOMI_REHEARSAL_API_ANTHROPIC)
    {
      g_assert_cmpstr (str_at (root, "type"), ==, "error");
      g_assert_true (g_str_has_prefix (str_at (root, "request_id"), "req_"));
      return str_at (root, "error/type");
    }
  if (api == KOMI_REHEARSAL_API_GEMINI)
    {
      g_assert_nonnull (at (root, "error/message"));
      return str_at (root, "error/status");
    }
  g_assert_nonnull (at (root, "error/message"));
  g_assert_nonnull (at (root, "error/param"));
  return str_at (root, "error/type");
}

/* Every fault kind, through every API, in the API's own shape. */
static void
test_faults (void)
{
  KomiRehearsalOptions o = {
    .faults = "429@1,500@2,529@3,malformed@4,truncated@5,refusal@6,invalid@7,timeout@8",
    .retry_after_ms = 1500, .timeout_hold_ms = 100,
  };
  g_autoptr(KomiRehearsal) server = start (&o);

  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    {
      KomiRehearsalApi api = apis[i];
      gboolean openai = api == KOMI_REHEARSAL_API_CHAT || api == KOMI_REHEARSAL_API_RESPONSES;
      g_autoptr(Response) r429 = (komi_rehearsal_reset_counters (server), post_api (server, api, 9));
      g_autoptr(Response) r500 = post_api (server, api, 9);
      g_autoptr(Response) r529 = post_api (server, api, 9);
      g_autoptr(Response) bad = post_api (server, api, 9);
      g_autoptr(Response) cut = post_api (server, api, 9);
      g_autoptr(Response) no = post_api (server, api, 9);
      g_autoptr(Response) inv = post_api (server, api, 9);
      g_autoptr(Response) late = post_api (server, api, 9);
      g_autoptr(Response) fine = post_api (server, api, 9);
      g_autofree char *invalid = answer_of (api, inv->json);
      g_autofree char *good = answer_of (api, fine->json);

      g_assert_cmpuint (r429->status, ==, 429);
      g_assert_cmpstr (soup_message_headers_get_one (r429->headers, "retry-after"), ==, "2");
      g_assert_cmpstr (soup_message_headers_get_one (r429->headers, "retry-after-ms"), ==, "1500");
      g_assert_cmpstr (error_type (api, r429->json), ==,
                       openai ? "requests" : api == KOMI_REHEARSAL_API_ANTHROPIC
                       ? "rate_limit_error" : "RESOURCE_EXHAUSTED");
      if (api == KOMI_REHEARSAL_API_GEMINI)
        g_assert_cmpstr (str_at (r429->json, "error/details/0/retryDelay"), ==, "1.500s");
      if (openai)
        g_assert_cmpstr (str_at (r429->json, "error/code"), ==, "rate_limit_exceeded");

      g_assert_cmpuint (r500->status, ==, 500);
      g_assert_cmpstr (error_type (api, r500->json), ==,
                       openai ? "server_error" : api == KOMI_REHEARSAL_API_ANTHROPIC
                       ? "api_error" : "INTERNAL");

      g_assert_cmpuint (r529->status, ==, api == KOMI_REHEARSAL_API_ANTHROPIC ? 529 : 503);
      g_assert_cmpstr (error_type (api, r529->json), ==,
                       openai ? "server_error" : api == KOMI_REHEARSAL_API_ANTHROPIC
                       ? "overloaded_error" : "UNAVAILABLE");
      if (api == KOMI_REHEARSAL_API_ANTHROPIC)
        g_assert_cmpstr (soup_message_headers_get_one (r529->headers, "x-should-retry"), ==,
                         "true");

      g_assert_cmpuint (bad->status, ==, 200);
      g_assert_null (bad->json);
      g_assert_cmpuint (strlen (bad->body), >, 10);

      g_assert_cmpuint (cut->status, ==, 200);
      switch (api)
        {
        case KOMI_REHEARSAL_API_CHAT:
          g_assert_cmpstr (str_at (cut->json, "choices/0/finish_reason"), ==, "length");
          g_assert_true (g_str_has_prefix ("{\"point\":\"", str_at (cut->json,
                                                                   "choices/0/message/content")));
          g_assert_true (JSON_NODE_HOLDS_NULL (at (no->json, "choices/0/message/content")));
          g_assert_nonnull (str_at (no->json, "choices/0/message/refusal"));
          break;
        case KOMI_REHEARSAL_API_RESPONSES:
          g_assert_cmpstr (str_at (cut->json, "status"), ==, "incomplete");
          g_assert_cmpstr (str_at (cut->json, "incomplete_details/reason"), ==,
                           "max_output_tokens");
          g_assert_cmpstr (str_at (no->json, "output/1/content/0/type"), ==, "refusal");
          break;
        case KOMI_REHEARSAL_API_ANTHROPIC:
          g_assert_cmpstr (str_at (cut->json, "stop_reason"), ==, "max_tokens");
          g_assert_cmpstr (str_at (no->json, "stop_reason"), ==, "refusal");
          g_assert_cmpstr (str_at (no->json, "stop_details/type"), ==, "refusal");
          break;
        case KOMI_REHEARSAL_API_GEMINI:
          g_assert_cmpstr (str_at (cut->json, "candidates/0/finishReason"), ==, "MAX_TOKENS");
          g_assert_cmpstr (str_at (cut->json, "candidates/0/content/parts/0/text"), ==, "");
          g_assert_cmpstr (str_at (no->json, "candidates/0/finishReason"), ==, "SAFETY");
          g_assert_null (at (no->json, "candidates/0/content"));
          break;
        }

      g_assert_false (g_strv_contains (points, invalid));
      g_assert_nonnull (late->error);
      g_assert_true (g_strv_contains (points, good));
    }
}

/* "429@2" hits the second request and no other; seeded probabilities
 * give the same faults for the same seed. */
static void
test_fault_schedule (void)
{
  KomiRehearsalOptions nth = { .faults = "429@2" };
  KomiRehearsalOptions p = { .faults = "500:0.5", .seed = 7 };
  g_autoptr(KomiRehearsal) s1 = start (&nth);
  g_autoptr(KomiRehearsal) s2 = start (&p);
  g_autoptr(KomiRehearsal) s3 = start (&p);
  guint errors = 0;

  for (int i = 1; i <= 5; i++)
    {
      g_autoptr(Response) r = post_api (s1, apis[i % 4], i);
      g_assert_cmpuint (r->status, ==, i == 2 ? 429 : 200);
    }
  for (int i = 1; i <= 20; i++)
    {
      g_autoptr(Response) a = post_api (s2, KOMI_REHEARSAL_API_CHAT, i);
      g_autoptr(Response) b = post_api (s3, KOMI_REHEARSAL_API_CHAT, 100 + i);

      g_assert_cmpuint (a->status, ==, b->status);
      errors += a->status == 500;
    }
  g_assert_cmpuint (errors, >, 0);
  g_assert_cmpuint (errors, <, 20);
}

static gpointer
concurrent_request (gpointer data)
{
  Response *r = post_api (data, KOMI_REHEARSAL_API_CHAT, 5);
  guint status = r->status;

  response_free (r);
  return GUINT_TO_POINTER (status);
}

/* Latency is applied per request without serialising them. */
static void
test_latency (void)
{
  KomiRehearsalOptions o = { .latency_ms = 200 };
  g_autoptr(KomiRehearsal) server = start (&o);
  GThread *threads[8];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("client", concurrent_request, server);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_cmpuint (GPOINTER_TO_UINT (g_thread_join (threads[i])), ==, 200);
  g_assert_cmpuint (komi_rehearsal_get_max_in_flight (server), ==, 8);
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, "/v1/chat/completions"), ==, 8);
}

/* A required key: each API's 401 without it or with a wrong one. */
static void
test_key (void)
{
  static const char * const headers[] = { "Authorization", "Authorization", "x-api-key",
                                          "x-goog-api-key" };
  KomiRehearsalOptions o = { .api_key = "sk-rehearsal-0123456789" };
  g_autoptr(KomiRehearsal) server = start (&o);

  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    {
      KomiRehearsalApi api = apis[i];
      g_autofree char *body = api_body (api, 3);
      gboolean bearer = g_str_equal (headers[i], "Authorization");
      g_autoptr(Response) none = post (server, api_path (api), body, NULL, NULL);
      g_autoptr(Response) wrong = post (server, api_path (api), body, headers[i],
                                        bearer ? "Bearer sk-wrong-key-000" : "sk-wrong-key-000");
      g_autoptr(Response) right = post (server, api_path (api), body, headers[i],
                                        bearer ? "Bearer sk-rehearsal-0123456789"
                                               : "sk-rehearsal-0123456789");

      g_assert_cmpuint (none->status, ==, 401);
      g_assert_cmpuint (wrong->status, ==, 401);
      g_assert_cmpuint (right->status, ==, 200);
      g_assert_cmpstr (error_type (api, none->json), ==,
                       api == KOMI_REHEARSAL_API_ANTHROPIC ? "authentication_error"
                       : api == KOMI_REHEARSAL_API_GEMINI ? "UNAUTHENTICATED"
                       : "invalid_request_error");
      if (bearer)
        g_assert_cmpstr (str_at (wrong->json, "error/code"), ==, "invalid_api_key");
      g_assert_null (strstr (wrong->body, "sk-wrong-key-000"));
    }
  {
    g_autofree char *body = api_body (KOMI_REHEARSAL_API_GEMINI, 3);
    g_autoptr(Response) query = post (server, "/v1beta/models/gemini-rehearsal:generateContent"
                                      "?key=sk-rehearsal-0123456789", body, NULL, NULL);
    g_assert_cmpuint (query->status, ==, 200);
  }
}

/* Unknown paths and bodies that are not requests. */
static void
test_errors (void)
{
  g_autoptr(KomiRehearsal) server = start (NULL);
  g_autoptr(Response) nf = post (server, "/v1/completions", "{}", NULL, NULL);
  g_autoptr(Response) gnf = post (server, "/v1beta/models/x:countTokens", "{}", NULL, NULL);
  g_autoptr(Response) junk = post (server, "/v1/chat/completions", "{\"model\":", NULL, NULL);
  g_autoptr(Response) prose = post (server, "/v1/messages", "{\"model\":\"c\",\"max_tokens\":9,"
                                    "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                                    NULL, NULL);

  g_assert_cmpuint (nf->status, ==, 404);
  g_assert_cmpstr (str_at (nf->json, "error/code"), ==, "unknown_url");
  g_assert_cmpuint (gnf->status, ==, 404);
  g_assert_cmpstr (str_at (gnf->json, "error/status"), ==, "NOT_FOUND");
  g_assert_cmpuint (junk->status, ==, 400);
  g_assert_cmpstr (str_at (junk->json, "error/type"), ==, "invalid_request_error");
  g_assert_cmpuint (prose->status, ==, 400);
  g_assert_cmpstr (str_at (prose->json, "error/type"), ==, "invalid_request_error");
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, "/v1/completions"), ==, 1);
}

static void
test_fault_spec (void)
{
  static const char * const good[] = { "", "429:0.1,500:0.05,529:0.02,timeout:0.01,"
                                       "malformed:0.02,truncated:0.02,refusal:0.02,invalid:0.05",
                                       "429@3", " 500@1 , refusal:1", NULL };
  static const char * const bad[] = { "429", "418:0.1", "429:1.5", "500:0.6,429:0.6", "429@0",
                                      "429@x", "timeout:", NULL };

  for (guint i = 0; good[i] != NULL; i++)
    {
      GError *error = NULL;
      g_autoptr(KomiRehearsalFaults) f = komi_rehearsal_faults_parse (good[i], &error);
      g_assert_no_error (error);
    }
  for (guint i = 0; bad[i] != NULL; i++)
    {
      GError *error = NULL;
      g_autoptr(KomiRehearsalFaults) f = komi_rehearsal_faults_parse (bad[i], &error);
      g_assert_error (error, KOMI_REHEARSAL_ERROR, KOMI_REHEARSAL_ERROR_FAULT_SPEC);
      g_assert_null (f);
      g_error_free (error);
    }
}

static void
test_port_in_use (void)
{
  g_autoptr(KomiRehearsal) server = start (NULL);
  KomiRehearsalOptions o = { .port = komi_rehearsal_get_port (server) };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiRehearsal) second = komi_rehearsal_new (&o, &error);

  g_assert_null (second);
  g_assert_error (error, KOMI_REHEARSAL_ERROR, KOMI_REHEARSAL_ERROR_LISTEN);
  g_assert_nonnull (strstr (error->message, "or 0 for any free one"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/rehearsal/shapes", test_shapes);
  g_test_add_func ("/komi/rehearsal/request-forms", test_request_forms);
  g_test_add_func ("/komi/rehearsal/policies", test_policies);
  g_test_add_func ("/komi/rehearsal/faults", test_faults);
  g_test_add_func ("/komi/rehearsal/fault-schedule", test_fault_schedule);
  g_test_add_func ("/komi/rehearsal/latency", test_latency);
  g_test_add_func ("/komi/rehearsal/key", test_key);
  g_test_add_func ("/komi/rehearsal/errors", test_errors);
  g_test_add_func ("/komi/rehearsal/fault-spec", test_fault_spec);
  g_test_add_func ("/komi/rehearsal/port-in-use", test_port_in_use);

  return g_test_run ();
}
