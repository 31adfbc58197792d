/* komi-wire-common.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "komi-provider-profile.h"

G_BEGIN_DECLS

/* What became of one attempt. Only ANSWER carries a valid option. */
typedef enum
{
  KOMI_PROVIDER_OUTCOME_ANSWER,
  KOMI_PROVIDER_OUTCOME_REFUSAL,
  KOMI_PROVIDER_OUTCOME_TRUNCATED,
  KOMI_PROVIDER_OUTCOME_FILTERED,
  KOMI_PROVIDER_OUTCOME_INVALID_OPTION,   /* includes an empty answer */
  KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR,  /* retried: never the model's fault */
  KOMI_PROVIDER_OUTCOME_HTTP_ERROR,       /* a status retrying cannot fix (400…) */
  KOMI_PROVIDER_OUTCOME_FATAL,            /* 401, 403, 404, quota, spend limit */
  KOMI_PROVIDER_OUTCOME_CANCELLED,
  KOMI_PROVIDER_OUTCOME_IN_FLIGHT,        /* sent, no response yet (KomiProviderAttempt) */
} KomiProviderOutcome;

/* "answer", "refusal", "truncated", "filtered", "invalid-option",
 * "transport-error", "http-error", "fatal", "cancelled". */
const char *komi_provider_outcome_to_string (KomiProviderOutcome outcome);

/* One question as the wire layer sends it. */
typedef struct
{
  const KomiProviderProfile  *profile;
  const char                 *rules;        /* the system part, byte for byte */
  gsize                       rules_len;
  const char                 *request;      /* the one-question Protocol 1 JSON */
  const char                 *question_id;  /* "play_or_pass", "best_point" */
  const char *const          *options;
  gboolean                    logprobs;     /* may be off although the profile asks */
} KomiWireQuestion;

typedef struct
{
  char   *token;
  double  logprob;
  GArray *top;       /* KomiWireAlternative; may be empty */
} KomiWireToken;

typedef struct
{
  char   *token;
  double  logprob;
} KomiWireAlternative;

/* What a response body says, decoded without judging it against the
 * options (komi_wire_response_finish() does that). */
typedef struct
{
  KomiProviderOutcome  outcome;
  char                *text;            /* the answer text as returned */
  char                *answer;          /* the option it names, after finish */
  char                *refusal;
  char                *finish_reason;
  char                *error;           /* why outcome is not ANSWER */
  gint64               tokens_input;    /* -1: not reported */
  gint64               tokens_output;
  gint64               tokens_reasoning;
  gint64               tokens_cached;
  char                *model;           /* model / modelVersion */
  char                *fingerprint;     /* system_fingerprint */
  char                *response_id;     /* id / responseId */
  GPtrArray           *tokens;          /* KomiWireToken of the answer text, or NULL */
  /* From an error body. */
  char                *error_code;
  double               retry_delay;     /* seconds (Gemini RetryInfo); -1: none */
  gboolean             quota;           /* out of quota, credits or spend limit */
} KomiWireResponse;

void      komi_wire_response_init   (KomiWireResponse       *response);
void      komi_wire_response_clear  (KomiWireResponse       *response);

/* The request body for @question in @question->profile's API. */
char     *komi_wire_build_body      (const KomiWireQuestion *question);

/* Decodes a 2xx body of @api. A body that is not the API's response shape
 * (malformed, cut short, an error object) is a TRANSPORT_ERROR. Never
 * fails on any input. */
void      komi_wire_decode          (KomiProviderApi         api,
                                     gboolean                tool,
                                     const char             *data,
                                     gsize                   len,
                                     KomiWireResponse       *response);
/* Decodes an error body of any API: message, code, retry delay, quota. */
void      komi_wire_decode_error    (const char             *data,
                                     gsize                   len,
                                     KomiWireResponse       *response);
/* Validates an ANSWER against @options: the text, or its "answer" member
 * when it is a JSON object, trimmed of whitespace and one pair of quotes,
 * must equal an option; otherwise INVALID_OPTION. */
void      komi_wire_response_finish (KomiWireResponse       *response,
                                     const char *const      *options);
/* Best effort: a JSON object text {"option": probability, …} for the
 * options whose probability the returned tokens determine, or NULL. */
char     *komi_wire_option_probabilities (const KomiWireResponse *response,
                                          const char *const      *options);

/* Shared by the per-API files. */
JsonNode *komi_wire_parse           (const char *data, gsize len);
JsonNode *komi_wire_path            (JsonNode *node, const char *path);
const char *komi_wire_path_string   (JsonNode *node, const char *path);
gint64    komi_wire_path_int        (JsonNode *node, const char *path);
void      komi_wire_add_schema      (JsonBuilder *builder, const char *const *options);
double    komi_wire_path_number     (JsonNode *node, const char *path, double fallback);
void      komi_wire_take_string     (char **field, JsonNode *node, const char *path);
void      komi_wire_add_string      (JsonBuilder *builder, const char *name, const char *value);
void      komi_wire_add_options     (JsonBuilder *builder, const char *name,
                                     const char *const *options);
char     *komi_wire_builder_to_string (JsonBuilder *builder);
KomiWireToken *komi_wire_token_new  (const char *token, double logprob);

char     *komi_wire_build_openai_chat      (const KomiWireQuestion *question);
char     *komi_wire_build_openai_responses (const KomiWireQuestion *question);
char     *komi_wire_build_anthropic        (const KomiWireQuestion *question);
char     *komi_wire_build_gemini           (const KomiWireQuestion *question);
void      komi_wire_decode_openai_chat      (JsonNode *root, KomiWireResponse *response);
void      komi_wire_decode_openai_responses (JsonNode *root, KomiWireResponse *response);
void      komi_wire_decode_anthropic        (JsonNode *root, KomiWireResponse *response);
void      komi_wire_decode_gemini           (JsonNode *root, KomiWireResponse *response);

G_END_DECLS

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiWireResponse, komi_wire_response_clear)
