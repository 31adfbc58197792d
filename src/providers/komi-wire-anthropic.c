/* komi-wire-anthropic.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-wire-common.h"

/* Anthropic Messages. max_tokens is required by the API. */
#define DEFAULT_MAX_TOKENS 1024
#define TOOL_NAME          "answer"

char *
komi_wire_build_anthropic (const KomiWireQuestion *q)
{
  const KomiProviderProfile *p = q->profile;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *rules = g_strndup (q->rules, q->rules_len);
  gint64 max_tokens = p->max_output_tokens > 0 ? p->max_output_tokens : DEFAULT_MAX_TOKENS;
  gboolean schema = p->constrain == KOMI_PROVIDER_CONSTRAIN_JSON_SCHEMA;

  json_builder_begin_object (builder);
  komi_wire_add_string (builder, "model", p->model);
  json_builder_set_member_name (builder, "max_tokens");
  /* budget_tokens must stay below max_tokens. */
  json_builder_add_int_value (builder, p->thinking_budget > 0
                              ? MAX (max_tokens, p->thinking_budget + DEFAULT_MAX_TOKENS)
                              : max_tokens);
  komi_wire_add_string (builder, "system", rules);
  json_builder_set_member_name (builder, "messages");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  komi_wire_add_string (builder, "role", "user");
  komi_wire_add_string (builder, "content", q->request);
  json_builder_end_object (builder);
  json_builder_end_array (builder);

  if (schema && p->anthropic_tool)
    {
      json_builder_set_member_name (builder, "tools");
      json_builder_begin_array (builder);
      json_builder_begin_object (builder);
      komi_wire_add_string (builder, "name", TOOL_NAME);
      komi_wire_add_string (builder, "description", "Answer the question with one option.");
      json_builder_set_member_name (builder, "input_schema");
      komi_wire_add_schema (builder, q->options);
      json_builder_end_object (builder);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "tool_choice");
      json_builder_begin_object (builder);
      komi_wire_add_string (builder, "type", "tool");
      komi_wire_add_string (builder, "name", TOOL_NAME);
      json_builder_set_member_name (builder, "disable_parallel_tool_use");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_end_object (builder);
    }
  if ((schema && !p->anthropic_tool) || p->reasoning_effort != NULL)
    {
      json_builder_set_member_name (builder, "output_config");
      json_builder_begin_object (builder);
      if (schema && !p->anthropic_tool)
        {
          json_builder_set_member_name (builder, "format");
          json_builder_begin_object (builder);
          komi_wire_add_string (builder, "type", "json_schema");
          json_builder_set_member_name (builder, "schema");
          komi_wire_add_schema (builder, q->options);
          json_builder_end_object (builder);
        }
      if (p->reasoning_effort != NULL)
        komi_wire_add_string (builder, "effort", p->reasoning_effort);
      json_builder_end_object (builder);
    }
  if (p->thinking_budget > 0)
    {
      json_builder_set_member_name (builder, "thinking");
      json_builder_begin_object (builder);
      komi_wire_add_string (builder, "type", "enabled");
      json_builder_set_member_name (builder, "budget_tokens");
      json_builder_add_int_value (builder, p->thinking_budget);
      json_builder_end_object (builder);
    }
  if (!isnan (p->temperature))
    {
      json_builder_set_member_name (builder, "temperature");
      json_builder_add_double_value (builder, p->temperature);
    }
  json_builder_end_object (builder);
  return komi_wire_builder_to_string (builder);
}

void
komi_wire_decode_anthropic (JsonNode *root, KomiWireResponse *r)
{
  JsonNode *content = komi_wire_path (root, "content");
  const char *reason;
  gint64 cache_read;

  komi_wire_take_string (&r->model, root, "model");
  komi_wire_take_string (&r->response_id, root, "id");
  komi_wire_take_string (&r->finish_reason, root, "stop_reason");
  r->tokens_input = komi_wire_path_int (root, "usage.input_tokens");
  r->tokens_output = komi_wire_path_int (root, "usage.output_tokens");
  cache_read = komi_wire_path_int (root, "usage.cache_read_input_tokens");
  r->tokens_cached = cache_read;
  reason = r->finish_reason;
  if (content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
    {
      r->outcome = KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR;
      r->error = g_strdup ("The response has no content");
      return;
    }
  for (guint i = 0; i < json_array_get_length (json_node_get_array (content)); i++)
    {
      JsonNode *block = json_array_get_element (json_node_get_array (content), i);
      const char *type = komi_wire_path_string (block, "type");

      if (r->text != NULL)
        break;
      if (g_strcmp0 (type, "text") == 0)
        komi_wire_take_string (&r->text, block, "text");
      else if (g_strcmp0 (type, "tool_use") == 0 && komi_wire_path (block, "input") != NULL)
        r->text = json_to_string (komi_wire_path (block, "input"), FALSE);
    }
  if (g_strcmp0 (reason, "refusal") == 0)
    {
      const char *explanation = komi_wire_path_string (root, "stop_details.explanation");
      const char *category = komi_wire_path_string (root, "stop_details.category");

      r->outcome = KOMI_PROVIDER_OUTCOME_REFUSAL;
      r->refusal = g_strdup (explanation != NULL ? explanation
                             : category != NULL ? category : "refusal");
    }
  else if (g_strcmp0 (reason, "max_tokens") == 0
           || g_strcmp0 (reason, "model_context_window_exceeded") == 0)
    r->outcome = KOMI_PROVIDER_OUTCOME_TRUNCATED;
}
