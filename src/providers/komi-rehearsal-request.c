/* komi-rehearsal-request.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include "komi-rehearsal-private.h"
#include "komi-untrusted.h"

/* Reading a request: which form the client constrained the answer to, which
 * extras (logprobs, reasoning) it asked for, and the Protocol 1 request in
 * its last user turn. Each API spells these its own way, and only what the
 * reply depends on is read. A member of the wrong JSON type counts as
 * absent, never as an error: the 400s are kept to a body that is not a JSON
 * object, what every real API rejects (no model; no max_tokens for
 * Anthropic) and what the model cannot answer (no Protocol 1 request, or a
 * question without options). */

void
_komi_rehearsal_request_clear (KomiRehearsalRequest *r)
{
  g_clear_pointer (&r->node, json_node_unref);
  g_clear_pointer (&r->model, g_free);
  g_clear_pointer (&r->ids, g_ptr_array_unref);
  g_clear_pointer (&r->options, g_ptr_array_unref);
  g_clear_pointer (&r->property, g_free);
  g_clear_pointer (&r->tool_name, g_free);
}

/* Follows object members; NULL as soon as one is missing or not an object. */
static JsonNode *
path_get (JsonNode *node, const char *first, ...)
{
  va_list ap;

  va_start (ap, first);
  for (const char *m = first; m != NULL && node != NULL; m = va_arg (ap, const char *))
    node = JSON_NODE_HOLDS_OBJECT (node)
           ? json_object_get_member (json_node_get_object (node), m) : NULL;
  va_end (ap);
  return node;
}

/* The string of @node, or NULL for a missing node or any other type. */
static const char *
node_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
}

/* A message's text: a string, or the "text" of each part of an array. */
static void
append_text (JsonNode *content, GString *out)
{
  if (node_string (content) != NULL)
    g_string_append (out, node_string (content));
  else if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (content)); i++)
      {
        JsonNode *part = json_array_get_element (json_node_get_array (content), i);

        if (node_string (path_get (part, "text", NULL)) != NULL)
          g_string_append (out, node_string (path_get (part, "text", NULL)));
      }
}

/* The content of the last user turn of @turns (role missing counts). A bare
 * string stands for a single user turn, as Responses' "input" allows; earlier
 * turns are ignored because a client puts the current question last. */
static void
last_user_text (JsonNode *turns, const char *content_member, GString *out)
{
  if (node_string (turns) != NULL || turns == NULL || !JSON_NODE_HOLDS_ARRAY (turns))
    {
      append_text (turns, out);
      return;
    }
  for (guint i = json_array_get_length (json_node_get_array (turns)); i > 0; i--)
    {
      JsonNode *turn = json_array_get_element (json_node_get_array (turns), i - 1);
      const char *role = node_string (path_get (turn, "role", NULL));

      if (role == NULL || g_str_equal (role, "user"))
        {
          append_text (path_get (turn, content_member, NULL), out);
          return;
        }
    }
}

/* The first member of the schema's "properties": where the answer goes. */
static char *
first_property (JsonNode *schema)
{
  JsonNode *props = path_get (schema, "properties", NULL);
  g_autoptr(GList) names = NULL;

  if (props == NULL || !JSON_NODE_HOLDS_OBJECT (props))
    return NULL;
  names = json_object_get_members (json_node_get_object (props));
  return names != NULL ? g_strdup (names->data) : NULL;
}

/* The answer's form from the constraint each API carries: Chat's
 * response_format or vLLM's structured_outputs, Responses' text.format,
 * Anthropic's forced tool or output_config.format, Gemini's MIME type. */
static void
read_mode (KomiRehearsalRequest *r)
{
  JsonNode *root = r->node, *schema = NULL;
  const char *type;

  r->mode = KOMI_REHEARSAL_MODE_TEXT;
  switch (r->api)
    {
    case KOMI_REHEARSAL_API_CHAT:
      if (path_get (root, "structured_outputs", "choice", NULL) != NULL)
        r->mode = KOMI_REHEARSAL_MODE_BARE;
      else if ((type = node_string (path_get (root, "response_format", "type", NULL))) != NULL
               && g_str_has_prefix (type, "json_"))
        {
          r->mode = KOMI_REHEARSAL_MODE_JSON;
          schema = path_get (root, "response_format", "json_schema", "schema", NULL);
        }
      break;
    case KOMI_REHEARSAL_API_RESPONSES:
      if ((type = node_string (path_get (root, "text", "format", "type", NULL))) != NULL
          && g_str_has_prefix (type, "json_"))
        {
          r->mode = KOMI_REHEARSAL_MODE_JSON;
          schema = path_get (root, "text", "format", "schema", NULL);
        }
      break;
    case KOMI_REHEARSAL_API_ANTHROPIC:
      type = node_string (path_get (root, "tool_choice", "type", NULL));
      if (g_strcmp0 (type, "tool") == 0 || g_strcmp0 (type, "any") == 0)
        {
          JsonNode *tools = path_get (root, "tools", NULL);
          const char *name = node_string (path_get (root, "tool_choice", "name", NULL));

          /* The named tool, or with "any" the first one; a tool missing from
           * "tools" still gets a call, so the client sees its own name back. */
          r->mode = KOMI_REHEARSAL_MODE_TOOL;
          for (guint i = 0; tools != NULL && JSON_NODE_HOLDS_ARRAY (tools)
                            && i < json_array_get_length (json_node_get_array (tools)); i++)
            {
              JsonNode *tool = json_array_get_element (json_node_get_array (tools), i);
              const char *tname = node_string (path_get (tool, "name", NULL));

              if (name == NULL || g_strcmp0 (name, tname) == 0)
                {
                  r->tool_name = g_strdup (tname);
                  schema = path_get (tool, "input_schema", NULL);
                  break;
                }
            }
          if (r->tool_name == NULL)
            r->tool_name = g_strdup (name != NULL ? name : "answer");
        }
      else if (path_get (root, "output_config", "format", NULL) != NULL)
        {
          r->mode = KOMI_REHEARSAL_MODE_JSON;
          schema = path_get (root, "output_config", "format", "schema", NULL);
        }
      break;
    case KOMI_REHEARSAL_API_GEMINI:
    default:
      type = node_string (path_get (root, "generationConfig", "responseMimeType", NULL));
      if (g_strcmp0 (type, "text/x.enum") == 0)
        r->mode = KOMI_REHEARSAL_MODE_BARE;
      else if (g_strcmp0 (type, "application/json") == 0)
        {
          schema = path_get (root, "generationConfig", "responseSchema", NULL)
                   ?: path_get (root, "generationConfig", "responseJsonSchema", NULL);
          /* A schema without properties (an enum of strings) asks for a JSON
           * string; no schema at all gets the usual object. */
          r->mode = path_get (schema, "properties", NULL) != NULL || schema == NULL
                    ? KOMI_REHEARSAL_MODE_JSON : KOMI_REHEARSAL_MODE_JSON_STRING;
        }
      break;
    }
  if (r->mode == KOMI_REHEARSAL_MODE_JSON || r->mode == KOMI_REHEARSAL_MODE_TOOL)
    r->property = first_property (schema) ?: g_strdup ("answer");
}

static gboolean
node_true (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_BOOLEAN && json_node_get_boolean (node);
}

/* A number sent as a string ("3") is not parsed: it counts as absent, 0. */
static gint64
node_int (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) != G_TYPE_STRING ? json_node_get_int (node) : 0;
}

/* A reasoning effort other than "none" turns reasoning on. */
static gboolean
effort_asked (JsonNode *effort)
{
  return node_string (effort) != NULL && !g_str_equal (node_string (effort), "none");
}

/* Logprobs and reasoning. top_logprobs is clamped to the 0..20 the APIs
 * allow rather than refused; Anthropic has no logprobs at all. */
static void
read_flags (KomiRehearsalRequest *r)
{
  JsonNode *root = r->node, *include, *config, *budget;
  const char *thinking;

  switch (r->api)
    {
    case KOMI_REHEARSAL_API_CHAT:
      r->logprobs = node_true (path_get (root, "logprobs", NULL));
      r->top_logprobs = CLAMP (node_int (path_get (root, "top_logprobs", NULL)), 0, 20);
      r->reasoning = effort_asked (path_get (root, "reasoning_effort", NULL));
      break;
    case KOMI_REHEARSAL_API_RESPONSES:
      include = path_get (root, "include", NULL);
      for (guint i = 0; include != NULL && JSON_NODE_HOLDS_ARRAY (include)
                        && i < json_array_get_length (json_node_get_array (include)); i++)
        if (g_strcmp0 (node_string (json_array_get_element (json_node_get_array (include), i)),
                       "message.output_text.logprobs") == 0)
          r->logprobs = TRUE;
      r->top_logprobs = CLAMP (node_int (path_get (root, "top_logprobs", NULL)), 0, 20);
      r->reasoning = effort_asked (path_get (root, "reasoning", "effort", NULL));
      break;
    case KOMI_REHEARSAL_API_ANTHROPIC:
      thinking = node_string (path_get (root, "thinking", "type", NULL));
      r->reasoning = g_strcmp0 (thinking, "enabled") == 0 || g_strcmp0 (thinking, "adaptive") == 0
                     || effort_asked (path_get (root, "output_config", "effort", NULL));
      break;
    case KOMI_REHEARSAL_API_GEMINI:
    default:
      config = path_get (root, "generationConfig", NULL);
      r->logprobs = node_true (path_get (config, "responseLogprobs", NULL));
      r->top_logprobs = CLAMP (node_int (path_get (config, "logprobs", NULL)), 0, 20);
      budget = path_get (config, "thinkingConfig", "thinkingBudget", NULL);
      r->reasoning = (budget != NULL && node_int (budget) != 0)
                     || path_get (config, "thinkingConfig", "thinkingLevel", NULL) != NULL;
      break;
    }
}

/* Reads the API request and the Protocol 1 request inside it; on failure
 * returns a message for a 400 reply, the first problem found only. */
char *
_komi_rehearsal_request_parse (KomiRehearsalRequest *r, KomiRehearsalApi api,
                               const char *path_model, GBytes *body)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) inner = json_parser_new ();
  g_autoptr(GString) user = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize len;
  JsonNode *questions;

  r->api = api;
  data = g_bytes_get_data (body, &len);
  r->body_len = len;
  /* A client on loopback may send anything: its nesting is bounded first. */
  if (komi_untrusted_json_refusal (data, len) != NULL)
    return g_strdup_printf ("We could not parse the JSON body of your request (it %s).",
                            komi_untrusted_json_refusal (data, len));
  if (!json_parser_load_from_data (parser, data != NULL ? data : "", len, &error)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return g_strdup_printf ("We could not parse the JSON body of your request (%s).",
                            error != NULL ? error->message : "not an object");
  r->node = json_node_ref (json_parser_get_root (parser));
  /* Gemini names the model in the path, the others in the body. */
  r->model = g_strdup (path_model ?: node_string (path_get (r->node, "model", NULL)));
  if (r->model == NULL)
    return g_strdup ("model: Field required");
  if (api == KOMI_REHEARSAL_API_ANTHROPIC && path_get (r->node, "max_tokens", NULL) == NULL)
    return g_strdup ("max_tokens: Field required");

  if (api == KOMI_REHEARSAL_API_CHAT || api == KOMI_REHEARSAL_API_ANTHROPIC)
    last_user_text (path_get (r->node, "messages", NULL), "content", user);
  else if (api == KOMI_REHEARSAL_API_RESPONSES)
    last_user_text (path_get (r->node, "input", NULL), "content", user);
  else
    last_user_text (path_get (r->node, "contents", NULL), "parts", user);

  if (komi_untrusted_json_refusal (user->str, user->len) != NULL
      || !json_parser_load_from_data (inner, user->str, user->len, NULL)
      || (questions = path_get (json_parser_get_root (inner), "questions", NULL)) == NULL
      || !JSON_NODE_HOLDS_ARRAY (questions)
      || json_array_get_length (json_node_get_array (questions)) == 0)
    return g_strdup ("The user content is not a Protocol 1 request: a JSON object with "
                     "\"state\" and a non-empty \"questions\" array.");

  /* Only the ids and the options matter: the state is the client's business,
   * and a question without an id still gets an answer, under "answer". */
  r->ids = g_ptr_array_new_with_free_func (g_free);
  r->options = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint i = 0; i < json_array_get_length (json_node_get_array (questions)); i++)
    {
      JsonNode *q = json_array_get_element (json_node_get_array (questions), i);
      JsonNode *opts = path_get (q, "options", NULL);
      g_autoptr(GStrvBuilder) sb = g_strv_builder_new ();
      guint n = opts != NULL && JSON_NODE_HOLDS_ARRAY (opts)
                ? json_array_get_length (json_node_get_array (opts)) : 0;

      for (guint j = 0; j < n; j++)
        if (node_string (json_array_get_element (json_node_get_array (opts), j)) != NULL)
          g_strv_builder_add (sb, node_string (json_array_get_element (json_node_get_array (opts),
                                                                       j)));
      g_ptr_array_add (r->options, g_strv_builder_end (sb));
      if (g_strv_length (r->options->pdata[i]) == 0)
        return g_strdup_printf ("Question %u of the Protocol 1 request has no options.", i + 1);
      g_ptr_array_add (r->ids, g_strdup (node_string (path_get (q, "id", NULL)) ?: "answer"));
    }

  read_mode (r);
  read_flags (r);
  return NULL;
}
