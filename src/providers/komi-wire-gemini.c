/* komi-wire-gemini.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-wire-common.h"

/* Google Gemini generateContent. The model is in the URL, not the body. */

static const char *filtered_reasons[] = {
  "SAFETY", "RECITATION", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII",
  "IMAGE_SAFETY", NULL
};

static void
add_text_parts (JsonBuilder *builder, const char *text)
{
  json_builder_set_member_name (builder, "parts");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  komi_wire_add_string (builder, "text", text);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
}

char *
komi_wire_build_gemini (const KomiWireQuestion *q)
{
  const KomiProviderProfile *p = q->profile;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *rules = g_strndup (q->rules, q->rules_len);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "systemInstruction");
  json_builder_begin_object (builder);
  add_text_parts (builder, rules);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "contents");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  komi_wire_add_string (builder, "role", "user");
  add_text_parts (builder, q->request);
  json_builder_end_object (builder);
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "generationConfig");
  json_builder_begin_object (builder);
  if (p->constrain == KOMI_PROVIDER_CONSTRAIN_JSON_SCHEMA)
    {
      /* text/x.enum: the reply is the option itself, no JSON around it. */
      komi_wire_add_string (builder, "responseMimeType", "text/x.enum");
      json_builder_set_member_name (builder, "responseSchema");
      json_builder_begin_object (builder);
      komi_wire_add_string (builder, "type", "STRING");
      komi_wire_add_options (builder, "enum", (const char *const *) q->options);
      json_builder_end_object (builder);
    }
  if (!isnan (p->temperature))
    {
      json_builder_set_member_name (builder, "temperature");
      json_builder_add_double_value (builder, p->temperature);
    }
  if (p->max_output_tokens > 0)
    {
      json_builder_set_member_name (builder, "maxOutputTokens");
      json_builder_add_int_value (builder, p->max_output_tokens);
    }
  if (q->logprobs)
    {
      json_builder_set_member_name (builder, "responseLogprobs");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_set_member_name (builder, "logprobs");
      json_builder_add_int_value (builder, MAX (p->top_logprobs, 1));
    }
  if (p->thinking_budget != 0 || p->reasoning_effort != NULL)
    {
      json_builder_set_member_name (builder, "thinkingConfig");
      json_builder_begin_object (builder);
      if (p->thinking_budget != 0)
        {
          json_builder_set_member_name (builder, "thinkingBudget");
          json_builder_add_int_value (builder, p->thinking_budget);
        }
      else
        {
          g_autofree char *level = g_ascii_strup (p->reasoning_effort, -1);

          komi_wire_add_string (builder, "thinkingLevel", level);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  return komi_wire_builder_to_string (builder);
}

static void
add_alternatives (KomiWireToken *token, JsonNode *list)
{
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return;
  for (guint j = 0; j < json_array_get_length (json_node_get_array (list)); j++)
    {
      JsonNode *alt = json_array_get_element (json_node_get_array (list), j);
      KomiWireAlternative entry;

      if (komi_wire_path_string (alt, "token") == NULL)
        continue;
      entry.token = g_strdup (komi_wire_path_string (alt, "token"));
      entry.logprob = komi_wire_path_number (alt, "logProbability", -9999);
      g_array_append_val (token->top, entry);
    }
}

/* logprobsResult: chosenCandidates[i] goes with topCandidates[i]. */
static void
decode_logprobs (JsonNode *result, GPtrArray *tokens)
{
  JsonNode *chosen = komi_wire_path (result, "chosenCandidates");

  if (chosen == NULL || !JSON_NODE_HOLDS_ARRAY (chosen))
    return;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (chosen)); i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (chosen), i);
      g_autofree char *path = g_strdup_printf ("topCandidates.%u.candidates", i);
      KomiWireToken *token;

      if (komi_wire_path_string (item, "token") == NULL)
        continue;
      token = komi_wire_token_new (komi_wire_path_string (item, "token"),
                                   komi_wire_path_number (item, "logProbability", -9999));
      add_alternatives (token, komi_wire_path (result, path));
      g_ptr_array_add (tokens, token);
    }
}

void
komi_wire_decode_gemini (JsonNode *root, KomiWireResponse *r)
{
  JsonNode *candidate = komi_wire_path (root, "candidates.0");
  JsonNode *parts = komi_wire_path (candidate, "content.parts");
  const char *block = komi_wire_path_string (root, "promptFeedback.blockReason");
  gint64 output, thoughts;

  komi_wire_take_string (&r->model, root, "modelVersion");
  komi_wire_take_string (&r->response_id, root, "responseId");
  r->tokens_input = komi_wire_path_int (root, "usageMetadata.promptTokenCount");
  output = komi_wire_path_int (root, "usageMetadata.candidatesTokenCount");
  thoughts = komi_wire_path_int (root, "usageMetadata.thoughtsTokenCount");
  /* Output counts what is billed as output: the answer and the thoughts. */
  r->tokens_output = output >= 0 && thoughts >= 0 ? output + thoughts : output;
  r->tokens_reasoning = thoughts;
  r->tokens_cached = komi_wire_path_int (root, "usageMetadata.cachedContentTokenCount");
  if (candidate == NULL)
    {
      r->outcome = block != NULL ? KOMI_PROVIDER_OUTCOME_FILTERED
        : KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR;
      r->finish_reason = g_strdup (block);
      r->error = block != NULL ? g_strdup_printf ("The prompt was blocked (%s)", block)
        : g_strdup ("The response has no candidates");
      return;
    }
  komi_wire_take_string (&r->finish_reason, candidate, "finishReason");
  if (parts != NULL && JSON_NODE_HOLDS_ARRAY (parts))
    {
      g_autoptr(GString) text = NULL;

      /* Thought summaries are not the answer. */
      for (guint i = 0; i < json_array_get_length (json_node_get_array (parts)); i++)
        {
          JsonNode *part = json_array_get_element (json_node_get_array (parts), i);
          JsonNode *thought = komi_wire_path (part, "thought");
          const char *piece = komi_wire_path_string (part, "text");

          if (piece == NULL || (thought != NULL && JSON_NODE_HOLDS_VALUE (thought)
                                && json_node_get_value_type (thought) == G_TYPE_BOOLEAN
                                && json_node_get_boolean (thought)))
            continue;
          if (text == NULL)
            text = g_string_new (NULL);
          g_string_append (text, piece);
        }
      if (text != NULL)
        r->text = g_string_free (g_steal_pointer (&text), FALSE);
    }
  decode_logprobs (komi_wire_path (candidate, "logprobsResult"), r->tokens);
  if (g_strcmp0 (r->finish_reason, "MAX_TOKENS") == 0)
    r->outcome = KOMI_PROVIDER_OUTCOME_TRUNCATED;
  else if (r->finish_reason != NULL && g_strv_contains (filtered_reasons, r->finish_reason))
    r->outcome = KOMI_PROVIDER_OUTCOME_FILTERED;
}
