/* komi-record-text.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "komi-score.h"

G_BEGIN_DECLS

/* What the library records is English and stays so (SGF comments, call
 * logs); these put its fixed vocabulary into the user's language when it
 * is shown. Free text (a void reason, an API's error) is shown as stored. */

/* The area count in the user's language, as komi_score_describe() gives it
 * for records; a new string. */
char       *komi_record_text_score   (const KomiScore *score);

/* A stored call outcome ("answer", "invalid-option", "in-flight"…) in the
 * user's language; an outcome this version does not know (or NULL) is
 * returned as is. */
const char *komi_record_text_outcome (const char      *outcome);

G_END_DECLS
