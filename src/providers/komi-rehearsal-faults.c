/* komi-rehearsal-faults.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "komi-rehearsal-faults.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-rehearsal-error-quark, komi_rehearsal_error)

static const char * const fault_names[KOMI_REHEARSAL_N_FAULTS] = {
  "none", "429", "500", "529", "timeout", "malformed", "truncated", "refusal", "invalid",
};

typedef struct
{
  KomiRehearsalFault fault;
  double             probability;  /* for "KIND:P" entries */
  guint64            ordinal;      /* for "KIND@N" entries; 0 otherwise */
} FaultEntry;

struct _KomiRehearsalFaults
{
  GArray *entries;                 /* of FaultEntry, in spec order */
};

guint64
komi_rehearsal_mix64 (guint64 x)
{
  x += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return x ^ (x >> 31);
}

const char *
komi_rehearsal_fault_to_string (KomiRehearsalFault fault)
{
  g_return_val_if_fail (fault < KOMI_REHEARSAL_N_FAULTS, "none");
  return fault_names[fault];
}

static gboolean
fault_from_string (const char *name, KomiRehearsalFault *out)
{
  for (guint i = KOMI_REHEARSAL_FAULT_RATE_LIMIT; i < KOMI_REHEARSAL_N_FAULTS; i++)
    if (g_ascii_strcasecmp (name, fault_names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

void
komi_rehearsal_faults_free (KomiRehearsalFaults *faults)
{
  if (faults == NULL)
    return;
  g_array_unref (faults->entries);
  g_free (faults);
}

KomiRehearsalFaults *
komi_rehearsal_faults_parse (const char *spec, GError **error)
{
  g_autoptr(KomiRehearsalFaults) faults = g_new0 (KomiRehearsalFaults, 1);
  g_auto(GStrv) items = NULL;
  double total = 0;

  faults->entries = g_array_new (FALSE, FALSE, sizeof (FaultEntry));
  if (spec == NULL)
    return g_steal_pointer (&faults);

  items = g_strsplit (spec, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      g_autofree char *item = g_strstrip (g_strdup (items[i]));
      FaultEntry entry = { 0, };
      char *sep, *end = NULL;

      if (*item == '\0')
        continue;
      sep = strpbrk (item, ":@");
      if (sep == NULL)
        goto bad;
      if (*sep == '@')
        {
          entry.ordinal = g_ascii_strtoull (sep + 1, &end, 10);
          if (entry.ordinal == 0)
            goto bad;
        }
      else
        {
          entry.probability = g_ascii_strtod (sep + 1, &end);
          if (!(entry.probability >= 0 && entry.probability <= 1))
            goto bad;
          total += entry.probability;
        }
      *sep = '\0';
      if (end == sep + 1 || *end != '\0' || !fault_from_string (item, &entry.fault))
        goto bad;
      g_array_append_val (faults->entries, entry);
      continue;

    bad:
      g_set_error (error, KOMI_REHEARSAL_ERROR, KOMI_REHEARSAL_ERROR_FAULT_SPEC,
                   _("bad fault '%s': write KIND:PROBABILITY (e.g. 429:0.1) or KIND@N "
                     "(e.g. 500@3), KIND one of 429, 500, 529, timeout, malformed, "
                     "truncated, refusal, invalid"), g_strstrip (items[i]));
      return NULL;
    }
  if (total > 1 + 1e-9)
    {
      g_set_error (error, KOMI_REHEARSAL_ERROR, KOMI_REHEARSAL_ERROR_FAULT_SPEC,
                   _("the fault probabilities add up to %.3g; keep their sum at most 1"), total);
      return NULL;
    }
  return g_steal_pointer (&faults);
}

KomiRehearsalFault
komi_rehearsal_faults_pick (const KomiRehearsalFaults *faults, guint64 seed, guint64 ordinal)
{
  double u, acc = 0;

  g_return_val_if_fail (faults != NULL, KOMI_REHEARSAL_FAULT_NONE);

  for (guint i = 0; i < faults->entries->len; i++)
    {
      const FaultEntry *e = &g_array_index (faults->entries, FaultEntry, i);

      if (e->ordinal == ordinal)
        return e->fault;
    }
  /* One uniform draw in [0, 1) per request, from the seed and the ordinal
   * only: the same series of requests meets the same faults. */
  u = (komi_rehearsal_mix64 (seed ^ komi_rehearsal_mix64 (ordinal)) >> 11) * 0x1.0p-53;
  for (guint i = 0; i < faults->entries->len; i++)
    {
      const FaultEntry *e = &g_array_index (faults->entries, FaultEntry, i);

      if (e->ordinal != 0)
        continue;
      acc += e->probability;
      if (u < acc)
        return e->fault;
    }
  return KOMI_REHEARSAL_FAULT_NONE;
}

/* The error replies ------------------------------------------------------ */

static char *
random_id (const char *prefix, guint length)
{
  static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  GString *s = g_string_new (prefix);

  for (guint i = 0; i < length; i++)
    g_string_append_c (s, alphabet[g_random_int_range (0, sizeof alphabet - 1)]);
  return g_string_free (s, FALSE);
}

static void
set_json (SoupServerMessage *msg, guint status, const char *reason, JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *body = json_to_string (root, FALSE);
  gsize len = strlen (body);

  /* libsoup 3.2 knows no phrase for these two. */
  if (reason == NULL && status == 429)
    reason = "Too Many Requests";
  soup_server_message_set_status (msg, status, reason);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE,
                                    g_steal_pointer (&body), len);
}

static void
reply_openai (SoupServerMessage *msg, KomiRehearsalReply reply, const char *detail,
              guint retry_after_ms)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *text = NULL;
  const char *type = "invalid_request_error", *code = NULL, *param = NULL;
  guint status = 400;

  switch (reply)
    {
    case KOMI_REHEARSAL_REPLY_BAD_REQUEST:
      text = g_strdup (detail);
      /* OpenAI names the parameter it does not take. */
      if (detail != NULL && g_str_has_prefix (detail, "Unsupported parameter: 'logprobs'"))
        param = "logprobs", code = "unsupported_parameter";
      break;
    case KOMI_REHEARSAL_REPLY_UNAUTHORIZED:
      status = 401;
      if (detail == NULL)
        text = g_strdup ("You didn't provide an API key. You need to provide your API key in "
                         "an Authorization header using Bearer auth (i.e. Authorization: "
                         "Bearer YOUR_KEY).");
      else
        {
          text = g_strdup_printf ("Incorrect API key provided: %s. You can find your API key "
                                  "at https://platform.openai.com/account/api-keys.", detail);
          code = "invalid_api_key";
        }
      break;
    case KOMI_REHEARSAL_REPLY_NOT_FOUND:
      status = 404;
      text = g_strdup_printf ("Unknown request URL: %s. Please check the URL for typos, or "
                              "see the docs at https://platform.openai.com/docs/api-reference/.",
                              detail);
      code = "unknown_url";
      break;
    case KOMI_REHEARSAL_REPLY_RATE_LIMIT:
      status = 429;
      text = g_strdup_printf ("Rate limit reached for requests (RPM): Limit 500, Used 500. "
                              "Please try again in %ums.", retry_after_ms);
      type = "requests";
      code = "rate_limit_exceeded";
      break;
    case KOMI_REHEARSAL_REPLY_SERVER_ERROR:
      status = 500;
      text = g_strdup ("The server had an error while processing your request. "
                       "Sorry about that!");
      type = "server_error";
      break;
    case KOMI_REHEARSAL_REPLY_OVERLOADED:
    default:
      status = 503;
      text = g_strdup ("The server is overloaded or not ready yet.");
      type = "server_error";
      break;
    }

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "error");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, text);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, type);
  json_builder_set_member_name (b, "param");
  if (param != NULL)
    json_builder_add_string_value (b, param);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "code");
  if (code != NULL)
    json_builder_add_string_value (b, code);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  json_builder_end_object (b);
  set_json (msg, status, NULL, b);
}

static void
reply_anthropic (SoupServerMessage *msg, KomiRehearsalReply reply, const char *detail)
{
  static const struct { guint status; const char *type, *message; } table[] = {
    [KOMI_REHEARSAL_REPLY_BAD_REQUEST]  = { 400, "invalid_request_error", NULL },
    [KOMI_REHEARSAL_REPLY_UNAUTHORIZED] = { 401, "authentication_error", "invalid x-api-key" },
    [KOMI_REHEARSAL_REPLY_NOT_FOUND]    = { 404, "not_found_error", "Not found" },
    [KOMI_REHEARSAL_REPLY_RATE_LIMIT]   = { 429, "rate_limit_error",
                                            "This request would exceed the rate limit for "
                                            "your organization of 50 requests per minute. "
                                            "Please try again later." },
    [KOMI_REHEARSAL_REPLY_SERVER_ERROR] = { 500, "api_error", "Internal server error" },
    [KOMI_REHEARSAL_REPLY_OVERLOADED]   = { 529, "overloaded_error", "Overloaded" },
  };
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *request_id = random_id ("req_011C", 18);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  const char *message = table[reply].message;

  if (reply == KOMI_REHEARSAL_REPLY_BAD_REQUEST)
    message = detail;
  else if (reply == KOMI_REHEARSAL_REPLY_UNAUTHORIZED && detail == NULL)
    message = "x-api-key header is required";

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "error");
  json_builder_set_member_name (b, "error");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, table[reply].type);
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, message);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "request_id");
  json_builder_add_string_value (b, request_id);
  json_builder_end_object (b);

  soup_message_headers_replace (headers, "request-id", request_id);
  soup_message_headers_replace (headers, "x-should-retry",
                                table[reply].status >= 429 ? "true" : "false");
  set_json (msg, table[reply].status,
            reply == KOMI_REHEARSAL_REPLY_OVERLOADED ? "Overloaded" : NULL, b);
}

static void
reply_gemini (SoupServerMessage *msg, KomiRehearsalReply reply, const char *detail,
              guint retry_after_ms)
{
  static const struct { guint status; const char *code, *message; } table[] = {
    [KOMI_REHEARSAL_REPLY_BAD_REQUEST]  = { 400, "INVALID_ARGUMENT", NULL },
    [KOMI_REHEARSAL_REPLY_UNAUTHORIZED] = { 401, "UNAUTHENTICATED",
                                            "API key not valid. Please pass a valid API key." },
    [KOMI_REHEARSAL_REPLY_NOT_FOUND]    = { 404, "NOT_FOUND", NULL },
    [KOMI_REHEARSAL_REPLY_RATE_LIMIT]   = { 429, "RESOURCE_EXHAUSTED",
                                            "You exceeded your current quota, please check "
                                            "your plan and billing details." },
    [KOMI_REHEARSAL_REPLY_SERVER_ERROR] = { 500, "INTERNAL",
                                            "An internal error has occurred. Please retry or "
                                            "report in https://developers.generativeai.google"
                                            "/guide/troubleshooting" },
    [KOMI_REHEARSAL_REPLY_OVERLOADED]   = { 503, "UNAVAILABLE",
                                            "The model is overloaded. Please try again later." },
  };
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *not_found = g_strdup_printf ("Requested entity was not found: %s", detail);
  const char *message = table[reply].message;

  if (reply == KOMI_REHEARSAL_REPLY_BAD_REQUEST)
    message = detail;
  else if (reply == KOMI_REHEARSAL_REPLY_NOT_FOUND)
    message = not_found;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "error");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "code");
  json_builder_add_int_value (b, table[reply].status);
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, message);
  json_builder_set_member_name (b, "status");
  json_builder_add_string_value (b, table[reply].code);
  if (reply == KOMI_REHEARSAL_REPLY_RATE_LIMIT)
    {
      /* google.protobuf.Duration in JSON: seconds with up to 9 decimals. */
      g_autofree char *delay = retry_after_ms % 1000 == 0
        ? g_strdup_printf ("%us", retry_after_ms / 1000)
        : g_strdup_printf ("%u.%03us", retry_after_ms / 1000, retry_after_ms % 1000);

      json_builder_set_member_name (b, "details");
      json_builder_begin_array (b);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "@type");
      json_builder_add_string_value (b, "type.googleapis.com/google.rpc.RetryInfo");
      json_builder_set_member_name (b, "retryDelay");
      json_builder_add_string_value (b, delay);
      json_builder_end_object (b);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  set_json (msg, table[reply].status, NULL, b);
}

void
komi_rehearsal_reply_error (SoupServerMessage *msg, KomiRehearsalApi api,
                            KomiRehearsalReply reply, const char *detail,
                            guint retry_after_ms)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  g_return_if_fail (SOUP_IS_SERVER_MESSAGE (msg));

  if (reply == KOMI_REHEARSAL_REPLY_RATE_LIMIT)
    {
      g_autofree char *ms = g_strdup_printf ("%u", retry_after_ms);
      g_autofree char *s = g_strdup_printf ("%u", (retry_after_ms + 999) / 1000);

      soup_message_headers_replace (headers, "retry-after", s);
      soup_message_headers_replace (headers, "retry-after-ms", ms);
    }

  if (api == KOMI_REHEARSAL_API_ANTHROPIC)
    reply_anthropic (msg, reply, detail);
  else if (api == KOMI_REHEARSAL_API_GEMINI)
    reply_gemini (msg, reply, detail, retry_after_ms);
  else
    {
      if (reply == KOMI_REHEARSAL_REPLY_RATE_LIMIT)
        {
          g_autofree char *reset = g_strdup_printf ("%ums", retry_after_ms);

          soup_message_headers_replace (headers, "x-ratelimit-limit-requests", "500");
          soup_message_headers_replace (headers, "x-ratelimit-remaining-requests", "0");
          soup_message_headers_replace (headers, "x-ratelimit-reset-requests", reset);
        }
      reply_openai (msg, reply, detail, retry_after_ms);
    }
}
