/* komi-provider-profile.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-provider-profile.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-provider-profile-error-quark, komi_provider_profile_error)

static const char *api_names[] = { "openai-chat", "openai-responses", "anthropic", "gemini", NULL };
static const char *constrain_names[] = { "json_schema", "vllm_choice", "none", NULL };
static const char *shard_limits_names[] = { "divide", "each", NULL };
/* What each API's SDK calls its base URL: OpenAI's includes /v1. */
static const char *default_base_urls[] = {
  "https://api.openai.com/v1",
  "https://api.openai.com/v1",
  "https://api.anthropic.com",
  "https://generativelanguage.googleapis.com",
};

static const char *fields[] = {
  "name", "api", "constrain", "base_url", "model", "key_env", "temperature",
  "max_output_tokens", "reasoning_effort", "thinking_budget", "logprobs", "top_logprobs",
  "anthropic_tool", "max_concurrent", "requests_per_minute", "price_input_per_mtok",
  "price_output_per_mtok", "timeout_seconds", "retry_attempts", "retry_seconds",
  "retry_base_ms", "retry_cap_ms", "shard_limits", "typical_latency_seconds",
  "max_response_bytes", NULL
};

void
komi_provider_profile_free (KomiProviderProfile *profile)
{
  if (profile == NULL)
    return;
  g_free (profile->name);
  g_free (profile->base_url);
  g_free (profile->model);
  g_free (profile->key_env);
  g_free (profile->reasoning_effort);
  g_free (profile);
}

KomiProviderProfile *
komi_provider_profile_copy (const KomiProviderProfile *profile)
{
  KomiProviderProfile *copy = g_memdup2 (profile, sizeof *profile);

  copy->name = g_strdup (profile->name);
  copy->base_url = g_strdup (profile->base_url);
  copy->model = g_strdup (profile->model);
  copy->key_env = g_strdup (profile->key_env);
  copy->reasoning_effort = g_strdup (profile->reasoning_effort);
  return copy;
}

const char *
komi_provider_api_to_string (KomiProviderApi api)
{
  g_return_val_if_fail (api < KOMI_PROVIDER_N_APIS, NULL);
  return api_names[api];
}

static gboolean
field_error (GError **error, const char *field, const char *expected)
{
  /* Translators: a field of the profile, then what is wrong with it. */
  g_set_error (error, KOMI_PROVIDER_PROFILE_ERROR, KOMI_PROVIDER_PROFILE_ERROR_FIELD,
               _("“%s”: %s"), field, expected);
  return FALSE;
}

/* A non-empty string, or NULL in *out when absent and not required. */
static gboolean
get_string (JsonObject *object, const char *field, gboolean required, char **out,
            GError **error)
{
  JsonNode *node = json_object_get_member (object, field);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return required ? field_error (error, field, _("missing; it is required (a string)")) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING
      || json_node_get_string (node)[0] == '\0')
    return field_error (error, field, _("must be a non-empty string"));
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
get_enum (JsonObject *object, const char *field, const char **names, guint fallback,
          guint *out, GError **error)
{
  g_autofree char *value = NULL;

  if (!get_string (object, field, FALSE, &value, error))
    return FALSE;
  *out = fallback;
  if (value == NULL)
    return TRUE;
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (names[i], value) == 0)
      {
        *out = i;
        return TRUE;
      }
  {
    g_autofree char *list = g_strjoinv (", ", (char **) names);
    g_autofree char *expected = g_strdup_printf (_("must be one of %s"), list);

    return field_error (error, field, expected);
  }
}

/* A number within [min, max]; @fallback when absent. */
static gboolean
get_number (JsonObject *object, const char *field, double min, double max, gboolean whole,
            double fallback, double *out, GError **error)
{
  JsonNode *node = json_object_get_member (object, field);
  GType type;

  *out = fallback;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if ((type == G_TYPE_INT64 || (type == G_TYPE_DOUBLE && !whole))
      && json_node_get_double (node) >= min && json_node_get_double (node) <= max)
    {
      *out = json_node_get_double (node);
      return TRUE;
    }
  {
    g_autofree char *expected = g_strdup_printf (whole ? _("must be a whole number from %g to %g")
                                                       : _("must be a number from %g to %g"),
                                                 min, max);
    return field_error (error, field, expected);
  }
}

static gboolean
get_bool (JsonObject *object, const char *field, gboolean *out, GError **error)
{
  JsonNode *node = json_object_get_member (object, field);

  *out = FALSE;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return field_error (error, field, _("must be true or false"));
  *out = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
parse_fields (JsonObject *object, KomiProviderProfile *p, GError **error)
{
  guint api, constrain, shard_limits;
  double max_tokens, thinking, top, concurrent, attempts, base_ms, cap_ms, max_bytes;

  if (!get_string (object, "name", TRUE, &p->name, error)
      || !get_enum (object, "api", api_names, G_MAXUINT, &api, error))
    return FALSE;
  if (api == G_MAXUINT)
    return field_error (error, "api", _("missing; it is required (openai-chat, "
                        "openai-responses, anthropic or gemini)"));
  p->api = api;
  if (!get_enum (object, "constrain", constrain_names, KOMI_PROVIDER_CONSTRAIN_JSON_SCHEMA,
                 &constrain, error))
    return FALSE;
  p->constrain = constrain;
  if (!get_enum (object, "shard_limits", shard_limits_names, 0, &shard_limits, error))
    return FALSE;
  p->shard_limits_each = shard_limits == 1;
  if (p->constrain == KOMI_PROVIDER_CONSTRAIN_VLLM_CHOICE && p->api != KOMI_PROVIDER_API_OPENAI_CHAT)
    return field_error (error, "constrain", _("vllm_choice needs \"api\": \"openai-chat\""));

  if (!get_string (object, "base_url", FALSE, &p->base_url, error)
      || !get_string (object, "model", TRUE, &p->model, error)
      || !get_string (object, "key_env", FALSE, &p->key_env, error)
      || !get_string (object, "reasoning_effort", FALSE, &p->reasoning_effort, error))
    return FALSE;
  if (p->base_url == NULL)
    p->base_url = g_strdup (default_base_urls[p->api]);
  if (!g_str_has_prefix (p->base_url, "http://") && !g_str_has_prefix (p->base_url, "https://"))
    return field_error (error, "base_url", _("must be an http:// or https:// URL"));
  while (g_str_has_suffix (p->base_url, "/"))
    p->base_url[strlen (p->base_url) - 1] = '\0';
  if (p->key_env != NULL && strspn (p->key_env, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu"
                                    "vwxyz0123456789_") != strlen (p->key_env))
    return field_error (error, "key_env", _("must be the name of an environment variable "
                        "(letters, digits and _), not the key itself"));

  if (!get_number (object, "temperature", 0, 2, FALSE, NAN, &p->temperature, error)
      || !get_number (object, "max_output_tokens", 1, 1e7, TRUE, 0, &max_tokens, error)
      || !get_number (object, "thinking_budget", -1, 1e7, TRUE, 0, &thinking, error)
      || !get_bool (object, "logprobs", &p->logprobs, error)
      || !get_number (object, "top_logprobs", 0, 20, TRUE, 5, &top, error)
      || !get_bool (object, "anthropic_tool", &p->anthropic_tool, error)
      || !get_number (object, "max_concurrent", 1, 1024, TRUE, 4, &concurrent, error)
      || !get_number (object, "requests_per_minute", 0, 1e6, FALSE, 0, &p->requests_per_minute,
                      error)
      || !get_number (object, "price_input_per_mtok", 0, 1e6, FALSE, 0, &p->price_input, error)
      || !get_number (object, "price_output_per_mtok", 0, 1e6, FALSE, 0, &p->price_output, error)
      || !get_number (object, "timeout_seconds", 0.1, 3600, FALSE, 300, &p->timeout_seconds,
                      error)
      || !get_number (object, "retry_attempts", 1, 100, TRUE, 6, &attempts, error)
      || !get_number (object, "retry_seconds", 0, 86400, FALSE, 600, &p->retry_seconds, error)
      || !get_number (object, "retry_base_ms", 1, 600000, TRUE, 500, &base_ms, error)
      || !get_number (object, "retry_cap_ms", 1, 3600000, TRUE, 60000, &cap_ms, error)
      || !get_number (object, "typical_latency_seconds", 0.001, 3600, FALSE, 0,
                      &p->typical_latency_seconds, error)
      || !get_number (object, "max_response_bytes", 1024, 1024.0 * 1024 * 1024, TRUE,
                      KOMI_PROVIDER_DEFAULT_MAX_RESPONSE_BYTES, &max_bytes, error))
    return FALSE;
  p->max_response_bytes = (guint64) max_bytes;
  p->max_output_tokens = (gint64) max_tokens;
  /* Absent prices read as 0 but are unknown, not free: estimates say so. */
  p->priced = json_object_has_member (object, "price_input_per_mtok")
              && json_object_has_member (object, "price_output_per_mtok");
  p->thinking_budget = (gint64) thinking;
  p->top_logprobs = (guint) top;
  p->max_concurrent = (guint) concurrent;
  p->retry_attempts = (guint) attempts;
  p->retry_base_ms = (guint) base_ms;
  p->retry_cap_ms = (guint) cap_ms;

  if (p->api == KOMI_PROVIDER_API_ANTHROPIC && p->logprobs)
    return field_error (error, "logprobs", _("the anthropic API returns no logprobs; remove it"));
  if (p->anthropic_tool && p->api != KOMI_PROVIDER_API_ANTHROPIC)
    return field_error (error, "anthropic_tool", _("applies to \"api\": \"anthropic\" only"));
  /* The API rejects a forced tool while thinking is on. */
  if (p->anthropic_tool && p->thinking_budget != 0)
    return field_error (error, "anthropic_tool", _("cannot be used with thinking_budget; "
                        "remove one of them"));
  if (p->thinking_budget < 0 && p->api != KOMI_PROVIDER_API_GEMINI)
    return field_error (error, "thinking_budget", _("must be a whole number from 0 (-1, "
                        "automatic, is for gemini only)"));
  return TRUE;
}

KomiProviderProfile *
komi_provider_profile_new_from_json (JsonNode *root, GError **error)
{
  g_autoptr(KomiProviderProfile) profile = g_new0 (KomiProviderProfile, 1);
  JsonObject *object;

  g_return_val_if_fail (root != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, KOMI_PROVIDER_PROFILE_ERROR, KOMI_PROVIDER_PROFILE_ERROR_FILE,
                   _("A provider profile must be a JSON object"));
      return NULL;
    }
  object = json_node_get_object (root);
  {
    g_autoptr(GList) members = json_object_get_members (object);

    /* Typos must not pass silently: a misspelt cap would run uncapped. */
    for (GList *l = members; l != NULL; l = l->next)
      if (!g_strv_contains (fields, l->data))
        {
          g_autofree char *list = g_strjoinv (", ", (char **) fields);
          g_autofree char *expected = g_strdup_printf (_("unknown field; expected one of %s"),
                                                       list);

          field_error (error, l->data, expected);
          return NULL;
        }
  }
  if (!parse_fields (object, profile, error))
    return NULL;
  return g_steal_pointer (&profile);
}

KomiProviderProfile *
komi_provider_profile_load (const char *path, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  KomiProviderProfile *profile;

  g_return_val_if_fail (path != NULL, NULL);

  if (!json_parser_load_from_file (parser, path, &local))
    {
      g_set_error (error, KOMI_PROVIDER_PROFILE_ERROR, KOMI_PROVIDER_PROFILE_ERROR_FILE,
                   _("Cannot read provider profile %s: %s"), path, local->message);
      return NULL;
    }
  profile = komi_provider_profile_new_from_json (json_parser_get_root (parser), &local);
  if (profile == NULL)
    g_set_error (error, KOMI_PROVIDER_PROFILE_ERROR, local->code, "%s: %s", path,
                 local->message);
  return profile;
}

/* @text lowered, its letters and digits alone: "GPT-4o" and "gpt 4o"
 * are one name. */
static char *
folded (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isalnum (c))
        g_string_append_unichar (out, g_unichar_tolower (c));
    }
  return g_string_free (out, FALSE);
}

char *
komi_provider_model_label (const char *name,
                           const char *model)
{
  g_autofree char *n = NULL, *m = NULL;
  gsize len;

  if (name == NULL || *name == '\0')
    return g_strdup (model != NULL ? model : "?");
  if (model == NULL || *model == '\0')
    return g_strdup (name);
  n = folded (name);
  m = folded (model);
  if (*m == '\0' || strstr (n, m) != NULL || (*n != '\0' && g_str_has_prefix (m, n)))
    return g_strdup (name);
  /* Not translated: the label goes into records (SGF, the library),
   * which read the same whatever the locale of the run. */
  len = strlen (name);
  if (name[len - 1] == ')')
    return g_strdup_printf ("%s, %s", name, model);
  return g_strdup_printf ("%s (%s)", name, model);
}

char *
komi_provider_profile_dup_url (const KomiProviderProfile *profile)
{
  g_autofree char *model = NULL;

  g_return_val_if_fail (profile != NULL, NULL);

  switch (profile->api)
    {
    case KOMI_PROVIDER_API_OPENAI_CHAT:
      return g_strconcat (profile->base_url, "/chat/completions", NULL);
    case KOMI_PROVIDER_API_OPENAI_RESPONSES:
      return g_strconcat (profile->base_url, "/responses", NULL);
    case KOMI_PROVIDER_API_ANTHROPIC:
      return g_strconcat (profile->base_url, "/v1/messages", NULL);
    case KOMI_PROVIDER_API_GEMINI:
      model = g_uri_escape_string (profile->model, "-._~", FALSE);
      return g_strconcat (profile->base_url, "/v1beta/models/", model, ":generateContent", NULL);
    case KOMI_PROVIDER_N_APIS:
    default:
      g_assert_not_reached ();
    }
}

void
komi_provider_profile_share (KomiProviderProfile *profile, guint n_shards)
{
  g_return_if_fail (profile != NULL);

  if (n_shards <= 1 || profile->shard_limits_each)
    return;
  /* Rounded down, so that N shards together stay inside the limits; one
   * call at a time at the least. */
  profile->max_concurrent = MAX (profile->max_concurrent / n_shards, 1);
  profile->requests_per_minute /= n_shards;
}
