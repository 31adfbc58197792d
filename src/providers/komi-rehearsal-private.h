/* komi-rehearsal-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "komi-rehearsal.h"

G_BEGIN_DECLS

/* What the files of the rehearsal server share. A request goes one way:
 * komi-rehearsal.c routes it and checks the key, komi-rehearsal-request.c
 * reads it, komi-rehearsal-model.c decides the answer and its tokens, and
 * komi-rehearsal-reply.c writes the 200 reply in the API's shape. All of it
 * runs on the server thread; nothing here is locked or shared across
 * requests. */

/* The form the client constrained the answer to, which decides how the
 * answer text is spelled. */
typedef enum
{
  KOMI_REHEARSAL_MODE_TEXT,          /* no constraint: the option, or an object for several */
  KOMI_REHEARSAL_MODE_BARE,          /* an enum constraint: the option alone, one a line */
  KOMI_REHEARSAL_MODE_JSON,          /* a JSON object with one member per answer */
  KOMI_REHEARSAL_MODE_JSON_STRING,   /* Gemini's schema without properties: a JSON string */
  KOMI_REHEARSAL_MODE_TOOL,          /* Anthropic's forced tool call */
} KomiRehearsalMode;

/* A request as the model reads it. */
typedef struct
{
  KomiRehearsalApi  api;
  JsonNode         *node;            /* the whole body; the strings below are copies */
  char             *model;
  GPtrArray        *ids;             /* of char*, one per question */
  GPtrArray        *options;         /* of GStrv, one per question, none empty */
  KomiRehearsalMode mode;
  char             *property;        /* JSON or tool input member for the answer */
  char             *tool_name;
  gboolean          logprobs;
  guint             top_logprobs;    /* clamped to 0..20 */
  gboolean          reasoning;
  gsize             body_len;
  guint64           hash;            /* of the body and the seed; set by the server */
} KomiRehearsalRequest;

/* One token of the answer text with its log probability and alternatives. */
typedef struct
{
  char      *text;
  double     logprob;
  GPtrArray *alt_text;               /* at most top_logprobs, most likely first */
  GArray    *alt_logprob;            /* of double, parallel to alt_text */
} KomiRehearsalToken;

/* What the model says: the text, its tokens and the chosen options. The
 * tokens concatenate to the text, also after a "truncated" cut. */
typedef struct
{
  GString           *text;
  GPtrArray         *tokens;         /* of KomiRehearsalToken* */
  GPtrArray         *answers;        /* of char*, one per question */
  char              *answer_log;     /* for KomiRehearsalEvent.answer */
  KomiRehearsalFault fault;
  guint              input_tokens, output_tokens, reasoning_tokens;
} KomiRehearsalAnswer;

/* Fills @r from @body; @path_model is the model named in a Gemini path.
 * Returns NULL, or a message for a 400 reply; either way the caller clears
 * @r, which may be half filled. */
char    *_komi_rehearsal_request_parse (KomiRehearsalRequest       *r,
                                        KomiRehearsalApi            api,
                                        const char                 *path_model,
                                        GBytes                     *body);
void     _komi_rehearsal_request_clear (KomiRehearsalRequest       *r);

/* The hash that seeds every random choice for one request. */
guint64  _komi_rehearsal_hash_body     (GBytes                     *body,
                                        guint64                     seed);
/* Chooses the answers and spells them as the request's mode asks. */
void     _komi_rehearsal_answer_init   (KomiRehearsalAnswer        *a,
                                        KomiRehearsalPolicy         policy,
                                        const KomiRehearsalRequest *r,
                                        KomiRehearsalFault          fault);
void     _komi_rehearsal_answer_clear  (KomiRehearsalAnswer        *a);

/* Sets the 200 reply of @msg in @r's API shape; @ordinal varies the ids. */
void     _komi_rehearsal_reply_answer  (SoupServerMessage          *msg,
                                        const KomiRehearsalRequest *r,
                                        const KomiRehearsalAnswer  *a,
                                        guint64                     ordinal);

G_END_DECLS
