/* komi-protocol.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "komi-go-types.h"

G_BEGIN_DECLS

/* A protocol is numbered and frozen: what a model is sent never changes
 * under a number, a change gets a new one, and results are never mixed
 * across numbers. Protocol 1 is the only one so far. */
#define KOMI_PROTOCOL_LATEST 1

#define KOMI_PROTOCOL_ERROR (komi_protocol_error_quark ())
GQuark komi_protocol_error_quark (void);

typedef enum
{
  /* An answer that is not exactly one of the options offered. */
  KOMI_PROTOCOL_ERROR_INVALID_OPTION,
  /* An answer to a question that was not asked (no legal point is left). */
  KOMI_PROTOCOL_ERROR_NO_QUESTION,
} KomiProtocolError;

/* The two questions of Protocol 1, in the order they are sent. */
typedef enum
{
  KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS,
  KOMI_PROTOCOL_QUESTION_BEST_POINT,
  KOMI_PROTOCOL_N_QUESTIONS
} KomiProtocolQuestion;

/* The options of play_or_pass, exactly as sent. */
#define KOMI_PROTOCOL_OPTION_PLACE_STONE "place a stone"
#define KOMI_PROTOCOL_OPTION_PASS        "pass"

gboolean    komi_protocol_is_known           (guint                 protocol);
/* The rules text sent with every request, byte for byte as frozen (no
 * trailing newline). NULL for an unknown protocol. */
GBytes     *komi_protocol_dup_rules          (guint                 protocol);
/* The same text as a NUL-terminated string that lives as long as the
 * process; @length (may be NULL) receives its length in bytes. */
const char *komi_protocol_get_rules_text     (guint                 protocol,
                                              gsize                *length);

/* "play_or_pass" / "best_point". */
const char *komi_protocol_question_id        (KomiProtocolQuestion  question);
/* The question as sent when @to_move is to play: "Should X place …". */
char       *komi_protocol_dup_question_text  (KomiProtocolQuestion  question,
                                              KomiColor             to_move);
/* Appends the question text to @out, JSON-escaped but without quotes. */
void        komi_protocol_append_question    (GString              *out,
                                              KomiProtocolQuestion  question,
                                              KomiColor             to_move);

/* Validates an answer to play_or_pass. Surrounding whitespace is ignored;
 * otherwise the answer must be an option exactly (case included), so that
 * what is recorded is what was offered. Providers strip JSON quoting. */
gboolean    komi_protocol_parse_play_or_pass (const char           *answer,
                                              gboolean             *place_stone,
                                              GError              **error);

/* Appends @text (valid UTF-8; @length -1 for NUL-terminated) to @out as a
 * JSON string with quotes. Only '"', '\\' and control characters are
 * escaped; other characters, "…" included, are written as they are. */
void        komi_protocol_append_json_string (GString              *out,
                                              const char           *text,
                                              gssize                length);

G_END_DECLS
