/* komi-wire-openai.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-wire-common.h"

/* OpenAI Chat Completions (and the servers that speak it: vLLM,
 * llama.cpp, Ollama, OpenRouter) and OpenAI Responses. */

static void
add_message (JsonBuilder *builder, const char *role, const char *text, gsize len)
{
  g_autofree char *copy = g_strndup (text, len);

  json_builder_begin_object (builder);
  komi_wire_add_string (builder, "role", role);
  komi_wire_add_string (builder, "content", copy);
  json_builder_end_object (builder);
}

char *
komi_wire_build_openai_chat (const KomiWireQuestion *q)
{
  const KomiProviderProfile *p = q->profile;
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  komi_wire_add_string (builder, "model", p->model);
  json_builder_set_member_name (builder, "messages");
  json_builder_begin_array (builder);
  add_message (builder, "system", q->rules, q->rules_len);
  add_message (builder, "user", q->request, strlen (q->request));
  json_builder_end_array (builder);
  if (p->constrain == KOMI_PROVIDER_CONSTRAIN_JSON_SCHEMA)
    {
      /* OpenAI's nested form; llama.cpp reads only this one too. */
      json_builder_set_member_name (builder, "response_format");
      json_builder_begin_object (builder);
      komi_wire_add_string (builder, "type", "json_schema");
      json_builder_set_member_name (builder, "json_schema");
      json_builder_begin_object (builder);
      komi_wire_add_string (builder, "name", q->question_id);
      json_builder_set_member_name (builder, "strict");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_set_member_name (builder, "schema");
      komi_wire_add_schema (builder, q->options);
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  else if (p->constrain == KOMI_PROVIDER_CONSTRAIN_VLLM_CHOICE)
    {
      json_builder_set_member_name (builder, "structured_outputs");
      json_builder_begin_object (builder);
      komi_wire_add_options (builder, "choice", (const char *const *) q->options);
      json_builder_end_object (builder);
    }
  if (!isnan (p->temperature))
    {
      json_builder_set_member_name (builder, "temperature");
      json_builder_add_double_value (builder, p->temperature);
    }
  if (p->max_output_tokens > 0)
    {
      json_builder_set_member_name (builder, "max_completion_tokens");
      json_builder_add_int_value (builder, p->max_output_tokens);
    }
  if (p->reasoning_effort != NULL)
    komi_wire_add_string (builder, "reasoning_effort", p->reasoning_effort);
  if (q->logprobs)
    {
      json_builder_set_member_name (builder, "logprobs");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_set_member_name (builder, "top_logprobs");
      json_builder_add_int_value (builder, p->top_logprobs);
    }
  json_builder_end_object (builder);
  return komi_wire_builder_to_string (builder);
}

char *
komi_wire_build_openai_responses (const KomiWireQuestion *q)
{
  const KomiProviderProfile *p = q->profile;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *rules = g_strndup (q->rules, q->rules_len);

  json_builder_begin_object (builder);
  komi_wire_add_string (builder, "model", p->model);
  komi_wire_add_string (builder, "instructions", rules);
  json_builder_set_member_name (builder, "input");
  json_builder_begin_array (builder);
  add_message (builder, "user", q->request, strlen (q->request));
  json_builder_end_array (builder);
  /* Nothing is kept at OpenAI: every call stands alone. */
  json_builder_set_member_name (builder, "store");
  json_builder_add_boolean_value (builder, FALSE);
  if (p->constrain == KOMI_PROVIDER_CONSTRAIN_JSON_SCHEMA)
    {
      json_builder_set_member_name (builder, "text");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "format");
      json_builder_begin_object (builder);
      komi_wire_add_string (builder, "type", "json_schema");
      komi_wire_add_string (builder, "name", q->question_id);
      json_builder_set_member_name (builder, "strict");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_set_member_name (builder, "schema");
      komi_wire_add_schema (builder, q->options);
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  if (!isnan (p->temperature))
    {
      json_builder_set_member_name (builder, "temperature");
      json_builder_add_double_value (builder, p->temperature);
    }
  if (p->max_output_tokens > 0)
    {
      json_builder_set_member_name (builder, "max_output_tokens");
      json_builder_add_int_value (builder, MAX (p->max_output_tokens, 16));
    }
  if (p->reasoning_effort != NULL)
    {
      json_builder_set_member_name (builder, "reasoning");
      json_builder_begin_object (builder);
      komi_wire_add_string (builder, "effort", p->reasoning_effort);
      json_builder_end_object (builder);
    }
  if (q->logprobs)
    {
      json_builder_set_member_name (builder, "include");
      json_builder_begin_array (builder);
      json_builder_add_string_value (builder, "message.output_text.logprobs");
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "top_logprobs");
      json_builder_add_int_value (builder, p->top_logprobs);
    }
  json_builder_end_object (builder);
  return komi_wire_builder_to_string (builder);
}

/* [{token, logprob, top_logprobs: [{token, logprob}]}], the same shape in
 * both APIs. */
static void
decode_logprobs (JsonNode *list, GPtrArray *tokens)
{
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (list)); i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (list), i);
      JsonNode *top = komi_wire_path (item, "top_logprobs");
      KomiWireToken *token;

      if (komi_wire_path_string (item, "token") == NULL)
        continue;
      token = komi_wire_token_new (komi_wire_path_string (item, "token"),
                                   komi_wire_path_number (item, "logprob", -9999));
      g_ptr_array_add (tokens, token);
      if (top == NULL || !JSON_NODE_HOLDS_ARRAY (top))
        continue;
      for (guint j = 0; j < json_array_get_length (json_node_get_array (top)); j++)
        {
          JsonNode *alt = json_array_get_element (json_node_get_array (top), j);
          KomiWireAlternative entry;

          if (komi_wire_path_string (alt, "token") == NULL)
            continue;
          entry.token = g_strdup (komi_wire_path_string (alt, "token"));
          entry.logprob = komi_wire_path_number (alt, "logprob", -9999);
          g_array_append_val (token->top, entry);
        }
    }
}

void
komi_wire_decode_openai_chat (JsonNode *root, KomiWireResponse *r)
{
  JsonNode *choice = komi_wire_path (root, "choices.0");

  komi_wire_take_string (&r->model, root, "model");
  komi_wire_take_string (&r->fingerprint, root, "system_fingerprint");
  komi_wire_take_string (&r->response_id, root, "id");
  r->tokens_input = komi_wire_path_int (root, "usage.prompt_tokens");
  r->tokens_output = komi_wire_path_int (root, "usage.completion_tokens");
  r->tokens_reasoning = komi_wire_path_int (root, "usage.completion_tokens_details.reasoning_tokens");
  r->tokens_cached = komi_wire_path_int (root, "usage.prompt_tokens_details.cached_tokens");
  if (choice == NULL || !JSON_NODE_HOLDS_OBJECT (choice))
    {
      r->outcome = KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR;
      r->error = g_strdup ("The response has no choices");
      return;
    }
  komi_wire_take_string (&r->finish_reason, choice, "finish_reason");
  komi_wire_take_string (&r->text, choice, "message.content");
  komi_wire_take_string (&r->refusal, choice, "message.refusal");
  decode_logprobs (komi_wire_path (choice, "logprobs.content"), r->tokens);
  if (r->refusal != NULL)
    r->outcome = KOMI_PROVIDER_OUTCOME_REFUSAL;
  else if (g_strcmp0 (r->finish_reason, "length") == 0)
    r->outcome = KOMI_PROVIDER_OUTCOME_TRUNCATED;
  else if (g_strcmp0 (r->finish_reason, "content_filter") == 0)
    r->outcome = KOMI_PROVIDER_OUTCOME_FILTERED;
}

void
komi_wire_decode_openai_responses (JsonNode *root, KomiWireResponse *r)
{
  JsonNode *output = komi_wire_path (root, "output");
  const char *status = komi_wire_path_string (root, "status");
  const char *reason = komi_wire_path_string (root, "incomplete_details.reason");

  komi_wire_take_string (&r->model, root, "model");
  komi_wire_take_string (&r->response_id, root, "id");
  r->tokens_input = komi_wire_path_int (root, "usage.input_tokens");
  r->tokens_output = komi_wire_path_int (root, "usage.output_tokens");
  r->tokens_reasoning = komi_wire_path_int (root, "usage.output_tokens_details.reasoning_tokens");
  r->tokens_cached = komi_wire_path_int (root, "usage.input_tokens_details.cached_tokens");
  r->finish_reason = g_strdup (reason != NULL ? reason : status);
  if (g_strcmp0 (status, "failed") == 0 || output == NULL || !JSON_NODE_HOLDS_ARRAY (output))
    {
      r->outcome = KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR;
      r->error = g_strdup_printf ("The response failed (status %s)", status ? status : "none");
      return;
    }
  /* Reasoning items may come first: only message parts count. */
  for (guint i = 0; i < json_array_get_length (json_node_get_array (output)); i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (output), i);
      JsonNode *content = komi_wire_path (item, "content");

      if (g_strcmp0 (komi_wire_path_string (item, "type"), "message") != 0
          || content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
        continue;
      for (guint j = 0; j < json_array_get_length (json_node_get_array (content)); j++)
        {
          JsonNode *part = json_array_get_element (json_node_get_array (content), j);
          const char *type = komi_wire_path_string (part, "type");

          if (g_strcmp0 (type, "output_text") == 0 && r->text == NULL)
            {
              komi_wire_take_string (&r->text, part, "text");
              decode_logprobs (komi_wire_path (part, "logprobs"), r->tokens);
            }
          else if (g_strcmp0 (type, "refusal") == 0 && r->refusal == NULL)
            komi_wire_take_string (&r->refusal, part, "refusal");
        }
    }
  if (r->refusal != NULL)
    r->outcome = KOMI_PROVIDER_OUTCOME_REFUSAL;
  else if (g_strcmp0 (reason, "max_output_tokens") == 0 || g_strcmp0 (reason, "max_tokens") == 0)
    r->outcome = KOMI_PROVIDER_OUTCOME_TRUNCATED;
  else if (g_strcmp0 (reason, "content_filter") == 0)
    r->outcome = KOMI_PROVIDER_OUTCOME_FILTERED;
  else if (g_strcmp0 (status, "incomplete") == 0)
    r->outcome = KOMI_PROVIDER_OUTCOME_TRUNCATED;
}
