/* komi-series-form.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "komi-player-spec.h"
#include "komi-series.h"
#include "komi-series-estimate.h"

G_BEGIN_DECLS

/* The New Series dialog's fields judged one by one, in a user's words
 * (never a definition file's field name or a JSON example), so that each
 * field shows its own error under it, all at once. The series parser
 * still judges the whole definition afterwards. */

typedef enum
{
  KOMI_SERIES_FIELD_NAME,
  KOMI_SERIES_FIELD_SUBJECT,
  KOMI_SERIES_FIELD_OPPONENTS,
  KOMI_SERIES_FIELD_PAIRS,
  KOMI_SERIES_FIELD_SEED,
  KOMI_SERIES_FIELD_JOBS,
  KOMI_SERIES_FIELD_BUDGET,
  KOMI_SERIES_N_FIELDS
} KomiSeriesField;

#define KOMI_SERIES_FORM_MAX_PAIRS 100000
#define KOMI_SERIES_FORM_MAX_JOBS  64

/* What is wrong with @text in @field, or NULL when it is good. Players are
 * started as the series would (@engines); @key_error, when not NULL, is
 * what to do about a model's missing key. A new string. */
char *komi_series_form_check           (KomiSeriesField           field,
                                        const char               *text,
                                        const KomiPlayerOptions  *engines,
                                        const char               *key_error);
/* A whole number from @min to @max written in @text (spaces around
 * allowed); FALSE for anything else, never a number corrected into range. */
gboolean komi_series_form_parse_uint   (const char               *text,
                                        guint64                   min,
                                        guint64                   max,
                                        guint64                  *out);
/* @n with its digits grouped as the locale groups them (",": C). */
char *komi_series_form_group_digits    (guint64                   n);
/* "16 games against 1 opponent, 2 at once." */
char *komi_series_form_describe        (const KomiSeries         *series);
/* "about 25 minutes", "about 2 h 35 min", "about 3 days". */
char *komi_series_form_describe_duration (double                 seconds);
/* "About 1,920 model calls (at most 5,760) · about $0.19, at most $2.88",
 * what the budget does, and how long the series takes ("Time: about 25
 * minutes."), or why that is not known. */
char *komi_series_form_describe_estimate (const KomiSeriesEstimate *e);

G_END_DECLS
