/* komi-provider-profile.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define KOMI_PROVIDER_PROFILE_ERROR (komi_provider_profile_error_quark ())
GQuark komi_provider_profile_error_quark (void);

typedef enum
{
  KOMI_PROVIDER_PROFILE_ERROR_FILE,   /* unreadable or not JSON */
  KOMI_PROVIDER_PROFILE_ERROR_FIELD,  /* a field is missing, unknown or wrong */
} KomiProviderProfileError;

/* The wire format, named in profiles as "openai-chat", "openai-responses",
 * "anthropic" and "gemini". */
typedef enum
{
  KOMI_PROVIDER_API_OPENAI_CHAT,
  KOMI_PROVIDER_API_OPENAI_RESPONSES,
  KOMI_PROVIDER_API_ANTHROPIC,
  KOMI_PROVIDER_API_GEMINI,
  KOMI_PROVIDER_N_APIS
} KomiProviderApi;

/* How the answer is held to the options: "json_schema" (the API's own
 * structured output; Gemini's text/x.enum), "vllm_choice" (openai-chat
 * only) or "none" (plain text, validated afterwards). */
typedef enum
{
  KOMI_PROVIDER_CONSTRAIN_JSON_SCHEMA,
  KOMI_PROVIDER_CONSTRAIN_VLLM_CHOICE,
  KOMI_PROVIDER_CONSTRAIN_NONE,
} KomiProviderConstrain;

/* A provider profile as read from JSON. Optional numbers that are not
 * given are not sent (temperature NAN, max_output_tokens 0 except for
 * Anthropic, which requires it and gets 1024). The key itself is never
 * here: only the name of the environment variable that holds it. */
typedef struct
{
  char                  *name;
  KomiProviderApi        api;
  KomiProviderConstrain  constrain;
  char                  *base_url;           /* no trailing slash */
  char                  *model;              /* pinned model id */
  char                  *key_env;            /* NULL: no key (local servers) */
  double                 temperature;        /* NAN: not sent */
  gint64                 max_output_tokens;  /* 0: not sent */
  char                  *reasoning_effort;   /* NULL: not sent */
  gint64                 thinking_budget;    /* 0: not sent; Gemini allows -1 */
  gboolean               logprobs;
  guint                  top_logprobs;       /* 0..20 */
  gboolean               anthropic_tool;     /* forced tool instead of output_config */
  guint                  max_concurrent;     /* >= 1 */
  double                 requests_per_minute;  /* 0: no cap */
  double                 price_input;        /* per million tokens */
  double                 price_output;
  gboolean               priced;             /* both prices given (0 is a price) */
  double                 timeout_seconds;    /* the most one exchange takes, whole */
  guint64                max_response_bytes; /* a longer body is a transport fault */
  guint                  retry_attempts;     /* exchanges per call, first included */
  double                 retry_seconds;      /* wall-clock budget of one call */
  guint                  retry_base_ms;      /* first backoff, doubled each time */
  guint                  retry_cap_ms;       /* largest backoff */
  double                 typical_latency_seconds;  /* one call, as the user has seen it
                                                   * (New Series' time estimate); 0: not
                                                   * given */
  gboolean               shard_limits_each;  /* "shard_limits": "each": every shard of a
                                              * series gets the whole limits */
} KomiProviderProfile;

/* 4 MiB: a hundred times the longest answer a 9x9 question needs, with
 * reasoning and logprobs. */
#define KOMI_PROVIDER_DEFAULT_MAX_RESPONSE_BYTES (4 * 1024 * 1024)

KomiProviderProfile *komi_provider_profile_new_from_json (JsonNode                  *root,
                                                          GError                   **error);
KomiProviderProfile *komi_provider_profile_load          (const char                *path,
                                                          GError                   **error);
KomiProviderProfile *komi_provider_profile_copy          (const KomiProviderProfile *profile);
void                 komi_provider_profile_free          (KomiProviderProfile       *profile);

/* For one of @n_shards processes running a series' shards on the same
 * key: max_concurrent and requests_per_minute divided by @n_shards
 * (rounded down, max_concurrent at least 1), unless the profile says
 * "shard_limits": "each" (a key per shard, say). */
void                 komi_provider_profile_share         (KomiProviderProfile       *profile,
                                                          guint                      n_shards);

const char          *komi_provider_api_to_string         (KomiProviderApi            api);
/* The request URL of @profile's API for its model. */
char                *komi_provider_profile_dup_url       (const KomiProviderProfile *profile);
/* A model as it is named to people (records, lists, menus): the
 * profile's @name, and its @model id after it only when the id adds
 * something, "Work account (gpt-4o-2024-08-06)". An id that the name
 * holds, or that is the name and more ("rehearsal", "rehearsal-model"),
 * adds nothing: "rehearsal", never "rehearsal rehearsal-model". After a
 * name with its own parentheses the id follows a comma, never a second
 * pair: "rehearsal (openai-chat), rehearsal-model". */
char                *komi_provider_model_label           (const char                *name,
                                                          const char                *model);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiProviderProfile, komi_provider_profile_free)

G_END_DECLS
