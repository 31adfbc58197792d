/* komi-protocol-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-protocol.h"

G_BEGIN_DECLS

/* @answer without surrounding whitespace, as it is validated. */
char *_komi_protocol_trim_answer  (const char *answer);
/* A short quoted form of a trimmed answer, fit for an error message: a
 * model's answer may be long or not even valid UTF-8. */
char *_komi_protocol_quote_answer (const char *trimmed);

G_END_DECLS
