/* komi-review-calls.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "komi-review-data.h"

G_BEGIN_DECLS

/* The call inspector's parts: an attempt as a widget, its request as
 * text a person reads, and as a curl command a person can run again. */

/* A request or raw response longer than this shows its start only, with
 * the whole a Copy All away. */
#define KOMI_REVIEW_TEXT_SHOWN (64 * 1024)

/* The request body pretty-printed, the protocol's rules text (@rules;
 * NULL: none) folded to a one-line placeholder, and long texts (the state
 * and questions) written out below it unescaped. */
char      *komi_review_format_request (const char           *body,
                                       const char           *rules);
/* A shell command that sends @call's request again. The recorded headers
 * are redacted; a redacted one gets "$VAR" (@key_env, or the API's usual
 * variable) so the key is read from the environment when it runs, and is
 * never in the text. */
char      *komi_review_call_to_curl   (const KomiStoreCall  *call,
                                       const char           *api,
                                       const char           *key_env);
/* What the copied command does about the key, for the toast: reads it
 * from a variable (which one, and whether the profile named it), or has
 * none because the request was sent without one. */
char      *komi_review_curl_note      (const KomiStoreCall  *call,
                                       const char           *api,
                                       const char           *key_env);
/* The environment variable a command reads the key from: @key_env, or
 * the usual one of @api ("OPENAI_API_KEY", …). */
const char *komi_review_key_variable  (const char           *api,
                                       const char           *key_env);
/* One attempt as the inspector shows it: its header (question, attempt,
 * outcome), the numbers, why it failed, the request (rules folded behind
 * an expander) and the raw response, and a "Copy as curl" button that
 * activates "review.copy-curl" with the attempt's row id. @answer_shown is
 * the answer named in the orientation the review shows (NULL: as given). */
GtkWidget *komi_review_call_widget    (const KomiStoreCall  *call,
                                       const char           *rules,
                                       const char           *answer_shown);

G_END_DECLS
