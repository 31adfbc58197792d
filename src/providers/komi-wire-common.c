/* komi-wire-common.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-wire-common.h"
#include "komi-untrusted.h"

static const char *outcome_names[] = {
  "answer", "refusal", "truncated", "filtered", "invalid-option", "transport-error",
  "http-error", "fatal", "cancelled", "in-flight",
};

const char *
komi_provider_outcome_to_string (KomiProviderOutcome outcome)
{
  g_return_val_if_fail (outcome <= KOMI_PROVIDER_OUTCOME_IN_FLIGHT, NULL);
  return outcome_names[outcome];
}

static void
token_free (gpointer data)
{
  KomiWireToken *token = data;

  g_free (token->token);
  for (guint i = 0; i < token->top->len; i++)
    g_free (g_array_index (token->top, KomiWireAlternative, i).token);
  g_array_unref (token->top);
  g_free (token);
}

KomiWireToken *
komi_wire_token_new (const char *token, double logprob)
{
  KomiWireToken *t = g_new0 (KomiWireToken, 1);

  t->token = g_strdup (token != NULL ? token : "");
  t->logprob = logprob;
  t->top = g_array_new (FALSE, FALSE, sizeof (KomiWireAlternative));
  return t;
}

void
komi_wire_response_init (KomiWireResponse *response)
{
  memset (response, 0, sizeof *response);
  response->tokens_input = response->tokens_output = -1;
  response->tokens_reasoning = response->tokens_cached = -1;
  response->retry_delay = -1;
  response->tokens = g_ptr_array_new_with_free_func (token_free);
}

void
komi_wire_response_clear (KomiWireResponse *response)
{
  g_clear_pointer (&response->text, g_free);
  g_clear_pointer (&response->answer, g_free);
  g_clear_pointer (&response->refusal, g_free);
  g_clear_pointer (&response->finish_reason, g_free);
  g_clear_pointer (&response->error, g_free);
  g_clear_pointer (&response->model, g_free);
  g_clear_pointer (&response->fingerprint, g_free);
  g_clear_pointer (&response->response_id, g_free);
  g_clear_pointer (&response->tokens, g_ptr_array_unref);
  g_clear_pointer (&response->error_code, g_free);
}

JsonNode *
komi_wire_parse (const char *data, gsize len)
{
  if (len > G_MAXSSIZE)
    return NULL;
  return komi_untrusted_parse_json (data, (gssize) len);
}

/* "choices.0.message.content": members by name, array elements by index;
 * NULL when any step is missing or of the wrong kind. */
JsonNode *
komi_wire_path (JsonNode *node, const char *path)
{
  g_auto(GStrv) steps = g_strsplit (path, ".", -1);

  for (guint i = 0; steps[i] != NULL && node != NULL; i++)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        node = json_object_get_member (json_node_get_object (node), steps[i]);
      else if (JSON_NODE_HOLDS_ARRAY (node) && g_ascii_isdigit (steps[i][0]))
        {
          JsonArray *array = json_node_get_array (node);
          guint64 index = g_ascii_strtoull (steps[i], NULL, 10);

          node = index < json_array_get_length (array)
            ? json_array_get_element (array, index) : NULL;
        }
      else
        node = NULL;
    }
  return node;
}

const char *
komi_wire_path_string (JsonNode *node, const char *path)
{
  node = komi_wire_path (node, path);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

gint64
komi_wire_path_int (JsonNode *node, const char *path)
{
  node = komi_wire_path (node, path);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_INT64)
    return -1;
  return json_node_get_int (node);
}

double
komi_wire_path_number (JsonNode *node, const char *path, double fallback)
{
  node = komi_wire_path (node, path);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || (json_node_get_value_type (node) != G_TYPE_DOUBLE
          && json_node_get_value_type (node) != G_TYPE_INT64))
    return fallback;
  return json_node_get_double (node);
}

/* Replaces *@field by a copy of the string at @path, or NULL. */
void
komi_wire_take_string (char **field, JsonNode *node, const char *path)
{
  g_free (*field);
  *field = g_strdup (komi_wire_path_string (node, path));
}

void
komi_wire_add_string (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

char *
komi_wire_builder_to_string (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  return json_to_string (root, FALSE);
}

/* {"type":"object","properties":{"answer":{"type":"string","enum":[…]}},
 *  "required":["answer"],"additionalProperties":false}: the strict form. */
/* "name": ["option", …], in the options' order. */
void
komi_wire_add_options (JsonBuilder *builder, const char *name, const char *const *options)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; options[i] != NULL; i++)
    json_builder_add_string_value (builder, options[i]);
  json_builder_end_array (builder);
}

void
komi_wire_add_schema (JsonBuilder *builder, const char *const *options)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "object");
  json_builder_set_member_name (builder, "properties");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "answer");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "string");
  komi_wire_add_options (builder, "enum", options);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "required");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "answer");
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "additionalProperties");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_end_object (builder);
}

char *
komi_wire_build_body (const KomiWireQuestion *question)
{
  g_return_val_if_fail (question != NULL && question->profile != NULL, NULL);

  switch (question->profile->api)
    {
    case KOMI_PROVIDER_API_OPENAI_CHAT:
      return komi_wire_build_openai_chat (question);
    case KOMI_PROVIDER_API_OPENAI_RESPONSES:
      return komi_wire_build_openai_responses (question);
    case KOMI_PROVIDER_API_ANTHROPIC:
      return komi_wire_build_anthropic (question);
    case KOMI_PROVIDER_API_GEMINI:
      return komi_wire_build_gemini (question);
    case KOMI_PROVIDER_N_APIS:
    default:
      g_return_val_if_reached (NULL);
    }
}

void
komi_wire_decode (KomiProviderApi api, gboolean tool, const char *data, gsize len,
                  KomiWireResponse *response)
{
  g_autoptr(JsonNode) root = komi_wire_parse (data, len);

  response->outcome = KOMI_PROVIDER_OUTCOME_ANSWER;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      response->outcome = KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR;
      const char *why = komi_untrusted_json_refusal (data, len);

      response->error = why != NULL ? g_strdup_printf ("The response body %s: not read", why)
        : g_strdup ("The response body is not a JSON object (cut short?)");
      return;
    }
  /* OpenRouter and Anthropic may report an error inside a 200. */
  if (komi_wire_path (root, "error") != NULL
      && !JSON_NODE_HOLDS_NULL (komi_wire_path (root, "error")))
    {
      komi_wire_decode_error (data, len, response);
      response->outcome = KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR;
      return;
    }
  switch (api)
    {
    case KOMI_PROVIDER_API_OPENAI_CHAT:
      komi_wire_decode_openai_chat (root, response);
      break;
    case KOMI_PROVIDER_API_OPENAI_RESPONSES:
      komi_wire_decode_openai_responses (root, response);
      break;
    case KOMI_PROVIDER_API_ANTHROPIC:
      komi_wire_decode_anthropic (root, response);
      break;
    case KOMI_PROVIDER_API_GEMINI:
      komi_wire_decode_gemini (root, response);
      break;
    case KOMI_PROVIDER_N_APIS:
    default:
      g_return_if_reached ();
    }
  if (response->outcome == KOMI_PROVIDER_OUTCOME_ANSWER && response->text == NULL)
    {
      response->outcome = KOMI_PROVIDER_OUTCOME_INVALID_OPTION;
      g_clear_pointer (&response->error, g_free);
      response->error = g_strdup ("The response holds no answer text");
    }
}

/* Gemini durations are "22s" or "1.5s". */
static double
parse_duration (const char *text)
{
  char *end = NULL;
  double seconds;

  if (text == NULL)
    return -1;
  seconds = g_ascii_strtod (text, &end);
  if (end == text || strcmp (end, "s") != 0 || !isfinite (seconds) || seconds < 0)
    return -1;
  return seconds;
}

void
komi_wire_decode_error (const char *data, gsize len, KomiWireResponse *response)
{
  g_autoptr(JsonNode) root = komi_wire_parse (data, len);
  JsonNode *error = root != NULL ? komi_wire_path (root, "error") : NULL;
  JsonNode *code, *details;
  const char *message;

  if (error == NULL || !JSON_NODE_HOLDS_OBJECT (error))
    return;
  message = komi_wire_path_string (error, "message");
  g_free (response->error);
  response->error = message != NULL ? g_strdup (message) : NULL;
  code = komi_wire_path (error, "code");
  g_clear_pointer (&response->error_code, g_free);
  if (code != NULL && JSON_NODE_HOLDS_VALUE (code)
      && json_node_get_value_type (code) == G_TYPE_STRING)
    response->error_code = g_strdup (json_node_get_string (code));
  else if (komi_wire_path_string (error, "status") != NULL)
    response->error_code = g_strdup (komi_wire_path_string (error, "status"));
  else if (komi_wire_path_string (error, "type") != NULL)
    response->error_code = g_strdup (komi_wire_path_string (error, "type"));

  details = komi_wire_path (error, "details");
  if (details != NULL && JSON_NODE_HOLDS_ARRAY (details))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (details)); i++)
      {
        JsonNode *detail = json_array_get_element (json_node_get_array (details), i);
        const char *type = komi_wire_path_string (detail, "@type");

        if (type != NULL && g_str_has_suffix (type, "google.rpc.RetryInfo"))
          response->retry_delay = parse_duration (komi_wire_path_string (detail, "retryDelay"));
      }
  /* Out of credits looks like a rate limit but never clears by waiting. */
  if (g_strcmp0 (response->error_code, "insufficient_quota") == 0
      || g_strcmp0 (komi_wire_path_string (error, "details.error_code"),
                    "enforced_spend_limit_reached") == 0
      || (message != NULL && (strstr (message, "exceeded your current quota") != NULL
                              || strstr (message, "credit balance is too low") != NULL
                              || strstr (message, "spend limit") != NULL)))
    response->quota = TRUE;
}

/* Trims whitespace and one pair of surrounding quotes. */
static char *
trim_answer (const char *text)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  gsize len = strlen (copy);

  if (len >= 2 && ((copy[0] == '"' && copy[len - 1] == '"')
                   || (copy[0] == '\'' && copy[len - 1] == '\'')))
    {
      copy[len - 1] = '\0';
      return g_strstrip (g_strdup (copy + 1));
    }
  return g_steal_pointer (&copy);
}

void
komi_wire_response_finish (KomiWireResponse *response, const char *const *options)
{
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *candidate = NULL;
  const char *inner;

  if (response->outcome != KOMI_PROVIDER_OUTCOME_ANSWER)
    return;
  root = komi_wire_parse (response->text, strlen (response->text));
  inner = root != NULL ? komi_wire_path_string (root, "answer") : NULL;
  candidate = trim_answer (inner != NULL ? inner : response->text);
  for (guint i = 0; options[i] != NULL; i++)
    if (strcmp (options[i], candidate) == 0)
      {
        response->answer = g_strdup (options[i]);
        return;
      }
  response->outcome = KOMI_PROVIDER_OUTCOME_INVALID_OPTION;
  g_free (response->error);
  response->error = candidate[0] == '\0' ? g_strdup ("The answer is empty")
    : g_strdup_printf ("The answer “%.80s” is not one of the options", candidate);
}
