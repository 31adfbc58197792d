/* komi-json-text.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* @number as short as it reads back the same: 0.15, not json-glib's
 * 0.14999999999999999. A new string. */
char *komi_json_number_text (double      number);

/* @node as a file holds it, indented by two spaces, its numbers as
 * komi_json_number_text() writes them: what a person typed (0.15) is
 * what the file says. A new string, without a final newline. */
char *komi_json_to_text     (JsonNode   *node);

/* A member as an entry shows it: strings as they are, numbers as
 * komi_json_number_text() writes them, anything else as JSON. */
char *komi_json_member_text (JsonNode   *node);

G_END_DECLS
