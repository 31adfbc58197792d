/* komi-rehearsal-reply.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <string.h>

#include "komi-rehearsal-private.h"

/* The 200 reply in each API's shape. The shapes follow the real APIs member
 * for member, including members Komi's own client ignores (usage details,
 * fingerprints, annotations, ids of the right form): a client is rehearsed
 * against what it will meet, and one that trips on a real-world member
 * trips here first. The faults that still answer 200 (refusal, truncated)
 * are spelled the way each API spells them. */

#define REFUSAL_TEXT "I'm sorry, but I can't help with that."

/* Members of the object being built; m_str writes NULL as JSON null, which
 * is how the APIs send a member that has no value (not by leaving it out). */
static void
m_str (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
m_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
m_dbl (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

/* OpenAI sends each token's UTF-8 bytes, since a token may end inside a
 * character and its text alone cannot say so. */
static void
m_bytes (JsonBuilder *b, const char *text)
{
  json_builder_set_member_name (b, "bytes");
  json_builder_begin_array (b);
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    json_builder_add_int_value (b, *p);
  json_builder_end_array (b);
}

/* OpenAI's token logprob objects, in Chat and Responses alike. */
static void
add_openai_logprobs (JsonBuilder *b, const KomiRehearsalAnswer *a)
{
  json_builder_begin_array (b);
  for (guint i = 0; i < a->tokens->len; i++)
    {
      const KomiRehearsalToken *t = a->tokens->pdata[i];

      json_builder_begin_object (b);
      m_str (b, "token", t->text);
      m_dbl (b, "logprob", t->logprob);
      m_bytes (b, t->text);
      json_builder_set_member_name (b, "top_logprobs");
      json_builder_begin_array (b);
      for (guint k = 0; k < t->alt_text->len; k++)
        {
          json_builder_begin_object (b);
          m_str (b, "token", t->alt_text->pdata[k]);
          m_dbl (b, "logprob", g_array_index (t->alt_logprob, double, k));
          m_bytes (b, t->alt_text->pdata[k]);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* Chat Completions: a refusal has null content and the text in "refusal";
 * reasoning tokens count within completion_tokens, as OpenAI bills them. */
static void
build_chat (JsonBuilder *b, const KomiRehearsalRequest *r, const KomiRehearsalAnswer *a,
            const char *id, const char *version)
{
  gboolean refused = a->fault == KOMI_REHEARSAL_FAULT_REFUSAL;
  g_autofree char *fp = g_strdup_printf ("fp_%08" G_GINT64_MODIFIER "x", r->hash >> 36);

  m_str (b, "id", id);
  m_str (b, "object", "chat.completion");
  m_int (b, "created", g_get_real_time () / G_USEC_PER_SEC);
  m_str (b, "model", version);
  json_builder_set_member_name (b, "choices");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  m_int (b, "index", 0);
  json_builder_set_member_name (b, "message");
  json_builder_begin_object (b);
  m_str (b, "role", "assistant");
  m_str (b, "content", refused ? NULL : a->text->str);
  m_str (b, "refusal", refused ? REFUSAL_TEXT : NULL);
  json_builder_set_member_name (b, "annotations");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "logprobs");
  if (r->logprobs && !refused)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "content");
      add_openai_logprobs (b, a);
      m_str (b, "refusal", NULL);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  m_str (b, "finish_reason", a->fault == KOMI_REHEARSAL_FAULT_TRUNCATED ? "length" : "stop");
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "usage");
  json_builder_begin_object (b);
  m_int (b, "prompt_tokens", a->input_tokens);
  m_int (b, "completion_tokens", a->output_tokens + a->reasoning_tokens);
  m_int (b, "total_tokens", a->input_tokens + a->output_tokens + a->reasoning_tokens);
  json_builder_set_member_name (b, "prompt_tokens_details");
  json_builder_begin_object (b);
  m_int (b, "cached_tokens", 0);
  m_int (b, "audio_tokens", 0);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "completion_tokens_details");
  json_builder_begin_object (b);
  m_int (b, "reasoning_tokens", a->reasoning_tokens);
  m_int (b, "audio_tokens", 0);
  m_int (b, "accepted_prediction_tokens", 0);
  m_int (b, "rejected_prediction_tokens", 0);
  json_builder_end_object (b);
  json_builder_end_object (b);
  m_str (b, "service_tier", "default");
  m_str (b, "system_fingerprint", fp);
}

/* Responses: the answer is a "message" item of the output list, after a
 * reasoning item when reasoning was asked for, so a client must look for
 * the message rather than take output[0]. A cut answer is "incomplete". */
static void
build_responses (JsonBuilder *b, const KomiRehearsalRequest *r, const KomiRehearsalAnswer *a,
                 const char *id, const char *version)
{
  gboolean cut = a->fault == KOMI_REHEARSAL_FAULT_TRUNCATED;
  /* The items' ids share the response id's random part after "resp_". */
  g_autofree char *msg_id = g_strdup_printf ("msg_%s", id + 5);
  g_autofree char *rs_id = g_strdup_printf ("rs_%s", id + 5);

  m_str (b, "id", id);
  m_str (b, "object", "response");
  m_int (b, "created_at", g_get_real_time () / G_USEC_PER_SEC);
  m_str (b, "status", cut ? "incomplete" : "completed");
  m_str (b, "error", NULL);
  json_builder_set_member_name (b, "incomplete_details");
  if (cut)
    {
      json_builder_begin_object (b);
      m_str (b, "reason", "max_output_tokens");
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  m_str (b, "model", version);
  json_builder_set_member_name (b, "output");
  json_builder_begin_array (b);
  if (r->reasoning)
    {
      json_builder_begin_object (b);
      m_str (b, "id", rs_id);
      /* Reasoning stays hidden: no summary unless one is asked for. */
      m_str (b, "type", "reasoning");
      json_builder_set_member_name (b, "summary");
      json_builder_begin_array (b);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_begin_object (b);
  m_str (b, "id", msg_id);
  m_str (b, "type", "message");
  m_str (b, "status", cut ? "incomplete" : "completed");
  m_str (b, "role", "assistant");
  json_builder_set_member_name (b, "content");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  if (a->fault == KOMI_REHEARSAL_FAULT_REFUSAL)
    {
      m_str (b, "type", "refusal");
      m_str (b, "refusal", REFUSAL_TEXT);
    }
  else
    {
      m_str (b, "type", "output_text");
      m_str (b, "text", a->text->str);
      json_builder_set_member_name (b, "annotations");
      json_builder_begin_array (b);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "logprobs");
      if (r->logprobs)
        add_openai_logprobs (b, a);
      else
        {
          json_builder_begin_array (b);
          json_builder_end_array (b);
        }
    }
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "usage");
  json_builder_begin_object (b);
  m_int (b, "input_tokens", a->input_tokens);
  json_builder_set_member_name (b, "input_tokens_details");
  json_builder_begin_object (b);
  m_int (b, "cached_tokens", 0);
  json_builder_end_object (b);
  m_int (b, "output_tokens", a->output_tokens + a->reasoning_tokens);
  json_builder_set_member_name (b, "output_tokens_details");
  json_builder_begin_object (b);
  m_int (b, "reasoning_tokens", a->reasoning_tokens);
  json_builder_end_object (b);
  m_int (b, "total_tokens", a->input_tokens + a->output_tokens + a->reasoning_tokens);
  json_builder_end_object (b);
}

/* Messages: a forced tool answers with a tool_use block whose input is
 * already an object, not text; a refusal has no content at all, only
 * stop_reason "refusal" and its stop_details. Thinking comes first. */
static void
build_anthropic (JsonBuilder *b, const KomiRehearsalRequest *r, const KomiRehearsalAnswer *a,
                 const char *id, const char *version)
{
  gboolean refused = a->fault == KOMI_REHEARSAL_FAULT_REFUSAL;
  gboolean cut = a->fault == KOMI_REHEARSAL_FAULT_TRUNCATED;
  g_autofree char *tool_id = g_strdup_printf ("toolu_%s", id + 4);

  m_str (b, "id", id);
  m_str (b, "type", "message");
  m_str (b, "role", "assistant");
  m_str (b, "model", version);
  json_builder_set_member_name (b, "content");
  json_builder_begin_array (b);
  if (r->reasoning && !refused)
    {
      json_builder_begin_object (b);
      m_str (b, "type", "thinking");
      m_str (b, "thinking", "The rules are given; I pick one of the options.");
      /* The signature is opaque to clients; any stable string will do. */
      m_str (b, "signature", id);
      json_builder_end_object (b);
    }
  if (r->mode == KOMI_REHEARSAL_MODE_TOOL && !refused)
    {
      json_builder_begin_object (b);
      m_str (b, "type", "tool_use");
      m_str (b, "id", tool_id);
      m_str (b, "name", r->tool_name);
      json_builder_set_member_name (b, "input");
      json_builder_begin_object (b);
      /* max_tokens can cut a tool input; it then arrives empty here. */
      for (guint q = 0; q < a->answers->len && !cut; q++)
        m_str (b, r->ids->len > 1 ? r->ids->pdata[q] : r->property, a->answers->pdata[q]);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  else if (!refused)
    {
      json_builder_begin_object (b);
      m_str (b, "type", "text");
      m_str (b, "text", a->text->str);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  m_str (b, "stop_reason", refused ? "refusal" : cut ? "max_tokens"
                           : r->mode == KOMI_REHEARSAL_MODE_TOOL ? "tool_use" : "end_turn");
  m_str (b, "stop_sequence", NULL);
  if (refused)
    {
      json_builder_set_member_name (b, "stop_details");
      json_builder_begin_object (b);
      m_str (b, "type", "refusal");
      m_str (b, "category", "general_harms");
      m_str (b, "explanation", NULL);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "usage");
  json_builder_begin_object (b);
  m_int (b, "input_tokens", a->input_tokens);
  m_int (b, "cache_creation_input_tokens", 0);
  m_int (b, "cache_read_input_tokens", 0);
  m_int (b, "output_tokens", a->output_tokens + a->reasoning_tokens);
  m_str (b, "service_tier", "standard");
  json_builder_end_object (b);
}

/* Token ids are stable per token text, below 256000 (a Gemma-sized vocabulary). */
static void
gemini_candidate (JsonBuilder *b, const char *token, double logprob)
{
  json_builder_begin_object (b);
  m_str (b, "token", token);
  m_int (b, "tokenId", komi_rehearsal_mix64 (g_str_hash (token)) % 256000);
  m_dbl (b, "logProbability", logprob);
  json_builder_end_object (b);
}

/* generateContent: a refusal is a candidate without content, finishReason
 * SAFETY and a blocked rating. Logprobs come as two parallel lists (the
 * alternatives and the chosen token per step). Unlike OpenAI, thoughts are
 * counted apart from candidatesTokenCount, and only the total adds them. */
static void
build_gemini (JsonBuilder *b, const KomiRehearsalRequest *r, const KomiRehearsalAnswer *a,
              const char *id, const char *version)
{
  gboolean refused = a->fault == KOMI_REHEARSAL_FAULT_REFUSAL;
  double sum = 0;

  json_builder_set_member_name (b, "candidates");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  if (!refused)
    {
      json_builder_set_member_name (b, "content");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "parts");
      json_builder_begin_array (b);
      json_builder_begin_object (b);
      m_str (b, "text", a->text->str);
      json_builder_end_object (b);
      json_builder_end_array (b);
      m_str (b, "role", "model");
      json_builder_end_object (b);
    }
  m_str (b, "finishReason", refused ? "SAFETY"
                            : a->fault == KOMI_REHEARSAL_FAULT_TRUNCATED ? "MAX_TOKENS" : "STOP");
  if (refused)
    {
      json_builder_set_member_name (b, "safetyRatings");
      json_builder_begin_array (b);
      json_builder_begin_object (b);
      m_str (b, "category", "HARM_CATEGORY_DANGEROUS_CONTENT");
      m_str (b, "probability", "HIGH");
      json_builder_set_member_name (b, "blocked");
      json_builder_add_boolean_value (b, TRUE);
      json_builder_end_object (b);
      json_builder_end_array (b);
    }
  m_int (b, "index", 0);
  if (r->logprobs && !refused)
    {
      json_builder_set_member_name (b, "logprobsResult");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "topCandidates");
      json_builder_begin_array (b);
      for (guint i = 0; i < a->tokens->len; i++)
        {
          const KomiRehearsalToken *t = a->tokens->pdata[i];

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "candidates");
          json_builder_begin_array (b);
          for (guint k = 0; k < t->alt_text->len; k++)
            gemini_candidate (b, t->alt_text->pdata[k], g_array_index (t->alt_logprob, double, k));
          json_builder_end_array (b);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "chosenCandidates");
      json_builder_begin_array (b);
      for (guint i = 0; i < a->tokens->len; i++)
        {
          const KomiRehearsalToken *t = a->tokens->pdata[i];

          gemini_candidate (b, t->text, t->logprob);
          sum += t->logprob;
        }
      json_builder_end_array (b);
      m_dbl (b, "logProbabilitySum", sum);
      json_builder_end_object (b);
      m_dbl (b, "avgLogprobs", sum / MAX (a->tokens->len, 1));
    }
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "usageMetadata");
  json_builder_begin_object (b);
  m_int (b, "promptTokenCount", a->input_tokens);
  if (!refused)
    m_int (b, "candidatesTokenCount", a->output_tokens);
  if (r->reasoning)
    m_int (b, "thoughtsTokenCount", a->reasoning_tokens);
  m_int (b, "totalTokenCount", a->input_tokens + a->reasoning_tokens
                               + (refused ? 0 : a->output_tokens));
  json_builder_end_object (b);
  m_str (b, "modelVersion", version);
  m_str (b, "responseId", id);
}

/* The model id a provider would answer with: a pinned snapshot, in each
 * API's date or version style (in KomiRehearsalApi's order); a name that
 * already ends in one is returned as it is. */
static char *
model_version (const char *model, KomiRehearsalApi api)
{
  static const char * const suffix[] = { "-2026-01-01", "-2026-01-01", "-20260101", "-001" };

  if (g_regex_match_simple ("-(\\d{4}-\\d\\d-\\d\\d|\\d{8}|\\d{3})$", model, 0, 0))
    return g_strdup (model);
  return g_strconcat (model, suffix[api], NULL);
}

/* @prefix and @length random characters: an id of the real form. */
static char *
make_id (const char *prefix, guint64 x, guint length)
{
  static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  GString *s = g_string_new (prefix);

  for (guint i = 0; i < length; i++)
    g_string_append_c (s, alphabet[(x = komi_rehearsal_mix64 (x)) % (sizeof alphabet - 1)]);
  return g_string_free (s, FALSE);
}

/* The whole 200 reply; a "malformed" fault cuts it in the middle. The
 * ordinal goes into the ids so that a repeated request, answered alike,
 * still gets ids of its own, as real responses do. */
void
_komi_rehearsal_reply_answer (SoupServerMessage *msg, const KomiRehearsalRequest *r,
                              const KomiRehearsalAnswer *a, guint64 ordinal)
{
  static const char * const prefixes[] = { "chatcmpl-", "resp_", "msg_01", "" };
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *version = model_version (r->model, r->api);
  g_autofree char *id = make_id (prefixes[r->api], r->hash ^ ordinal,
                                 r->api == KOMI_REHEARSAL_API_RESPONSES ? 48 : 22);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  char *body;
  gsize len;

  json_builder_begin_object (b);
  if (r->api == KOMI_REHEARSAL_API_CHAT)
    build_chat (b, r, a, id, version);
  else if (r->api == KOMI_REHEARSAL_API_RESPONSES)
    build_responses (b, r, a, id, version);
  else if (r->api == KOMI_REHEARSAL_API_ANTHROPIC)
    {
      g_autofree char *request_id = make_id ("req_011C", r->hash ^ ~ordinal, 18);

      build_anthropic (b, r, a, id, version);
      soup_message_headers_replace (headers, "request-id", request_id);
      soup_message_headers_replace (headers, "anthropic-organization-id",
                                    "00000000-0000-4000-8000-00000000c0de");
    }
  else
    build_gemini (b, r, a, id, version);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  body = json_to_string (root, FALSE);
  len = strlen (body);
  /* Cut after serialising, so the body is what a dropped connection
   * leaves: valid JSON up to a point, then nothing, under a 200. */
  if (a->fault == KOMI_REHEARSAL_FAULT_MALFORMED)
    body[len /= 2] = '\0';
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, r->api == KOMI_REHEARSAL_API_GEMINI
                                    ? "application/json; charset=UTF-8" : "application/json",
                                    SOUP_MEMORY_TAKE, body, len);
}
