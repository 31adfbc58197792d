/* komi-untrusted.h: bytes Komi does not control, read bounded and shown safe
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A model server's body, a foreign library's record: any byte may be
 * hostile. The store keeps such bytes exactly; whatever reads them for a
 * parser, a screen, a terminal or an export goes through these. */

/* Deeper JSON than this is refused before json-glib sees it: its parser
 * recurses once per level, and 100,000 levels overflow the stack. No API
 * answer nests deeper than about ten. */
#define KOMI_UNTRUSTED_JSON_MAX_DEPTH 64

/* Parses @len bytes (-1: up to the NUL) as JSON; NULL when they are not
 * valid UTF-8, hold a NUL, nest deeper than KOMI_UNTRUSTED_JSON_MAX_DEPTH
 * or are not JSON. A \u0000 escape reads as U+FFFD (json-glib would end
 * the string there, hiding what follows it). */
JsonNode *komi_untrusted_parse_json (const char *data,
                                     gssize      len);

/* Why komi_untrusted_parse_json() refused @data, in words for a record:
 * "not valid UTF-8", "holds a NUL byte", "nests deeper than 64 levels",
 * or NULL (it is JSON, or broken JSON). */
const char *komi_untrusted_json_refusal (const char *data,
                                         gsize       len);

/* @len bytes (-1: up to the NUL) as valid UTF-8: each invalid byte and
 * each NUL becomes U+FFFD, visibly. */
char     *komi_untrusted_valid_utf8 (const char *data,
                                     gssize      len);

/* @text made safe for a terminal or a one-line label: valid UTF-8 (as
 * above), and control characters other than newline and tab written out
 * ("\x1b", "\u009b"), as are the bidirectional overrides. */
char     *komi_untrusted_visible    (const char *text);

/* At most about @max_bytes of @text, cut at a character boundary; NULL
 * when @text is already that short. */
char     *komi_untrusted_head       (const char *text,
                                     gsize       max_bytes);

/* Removes one secret (an API key) from what a server sent back, in the
 * forms a server may echo it: as is, with JSON \u escapes or %XX
 * escapes for any of its characters, base64 (either alphabet, any
 * alignment), hex, and its first part at the end of a cut-short text. */
typedef struct _KomiRedactor KomiRedactor;

KomiRedactor *komi_redactor_new        (const char         *secret);
void          komi_redactor_free       (KomiRedactor       *redactor);
/* Replace each occurrence in *@text / *@bytes with "[redacted]"; TRUE
 * when something was. NULL @redactor or NULL contents: nothing to do. */
gboolean      komi_redactor_apply      (const KomiRedactor *redactor,
                                        char              **text);
gboolean      komi_redactor_apply_bytes (const KomiRedactor *redactor,
                                         GBytes            **bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiRedactor, komi_redactor_free)

G_END_DECLS
