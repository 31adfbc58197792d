/* komi-opponent-form.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The opponent dialog's fields judged one by one, in a user's words (never
 * a spec's syntax or an environment variable alone), so that each field
 * shows its own error under it, all at once. The player spec parser still
 * judges the whole opponent afterwards. */

/* The kinds, in the order of the dialog's kind row. */
typedef enum
{
  KOMI_OPPONENT_KIND_RANDOM,
  KOMI_OPPONENT_KIND_GNUGO,
  KOMI_OPPONENT_KIND_KATAGO,
  KOMI_OPPONENT_KIND_GTP,
} KomiOpponentKind;

/* The fields, in the dialog's order. */
typedef enum
{
  KOMI_OPPONENT_FIELD_LEVEL,
  KOMI_OPPONENT_FIELD_BINARY,
  KOMI_OPPONENT_FIELD_MODEL,
  KOMI_OPPONENT_FIELD_CONFIG,
  KOMI_OPPONENT_FIELD_VISITS,
  KOMI_OPPONENT_FIELD_COMMAND,
  KOMI_OPPONENT_FIELD_MIX,
  KOMI_OPPONENT_N_FIELDS
} KomiOpponentField;

#define KOMI_OPPONENT_FORM_MAX_VISITS 10000000

/* The fields as typed (spaces around them already stripped). */
typedef struct
{
  KomiOpponentKind  kind;
  const char       *text[KOMI_OPPONENT_N_FIELDS];
} KomiOpponentFields;

/* Whether @field is asked for @kind. */
gboolean komi_opponent_form_shows   (KomiOpponentKind          kind,
                                     KomiOpponentField         field);
/* The spec the fields make ("mix:0.25:gnugo:3"); a new string. */
char    *komi_opponent_form_spec    (const KomiOpponentFields *fields);
/* Each field's problem into @problems (KOMI_OPPONENT_N_FIELDS of them,
 * NULL on entry; left NULL when the field is good or not asked for).
 * Empty KataGo files are good when the variable komi-cli reads names
 * them. Returns TRUE when no field has one. */
gboolean komi_opponent_form_check   (const KomiOpponentFields *fields,
                                     char                    **problems);
/* @spec's place in @list (opponents separated by commas), or -1. */
int      komi_opponent_form_find    (const char               *list,
                                     const char               *spec);

G_END_DECLS
