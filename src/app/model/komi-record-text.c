/* komi-record-text.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "komi-record-text.h"

/* A total or komi as the user's locale writes numbers (7,5 in German). */
static char *
number (double v)
{
  return g_strdup_printf ("%.10g", v);
}

char *
komi_record_text_score (const KomiScore *score)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *black_total = number (score->black_total);
  g_autofree char *white_total = number (score->white_total);
  g_autofree char *komi = number (score->komi);
  g_autofree char *margin = number (score->margin);

  g_return_val_if_fail (score != NULL, NULL);

  /* Translators: Black's area count: its stones, its territory, the sum. */
  g_ptr_array_add (parts, g_strdup_printf (_("Black: %u stones + %u territory = %s"),
                                           score->black_stones, score->black_territory,
                                           black_total));
  /* Translators: White's area count: its stones, its territory, the komi,
   * the sum. */
  g_ptr_array_add (parts, g_strdup_printf (_("White: %u stones + %u territory + komi %s = %s"),
                                           score->white_stones, score->white_territory,
                                           komi, white_total));
  if (score->winner == KOMI_EMPTY)
    g_ptr_array_add (parts, g_strdup (_("a draw")));
  else if (score->winner == KOMI_BLACK)
    g_ptr_array_add (parts, g_strdup_printf (_("Black wins by %s"), margin));
  else
    g_ptr_array_add (parts, g_strdup_printf (_("White wins by %s"), margin));
  if (score->black_dead + score->white_dead > 0)
    g_ptr_array_add (parts, g_strdup_printf (_("dead stones removed: %u black, %u white"),
                                             score->black_dead, score->white_dead));
  g_ptr_array_add (parts, NULL);
  /* Translators: what separates the parts of the count ("Black: …; White: …"). */
  return g_strjoinv (_("; "), (char **) parts->pdata);
}

/* The outcomes the store and the providers write, in the order of
 * KomiProviderOutcome, then the store's own. */
static const struct
{
  const char *outcome;
  const char *label;
} outcome_labels[] = {
  { "ok", NC_("call outcome", "answer") },
  { "answer", NC_("call outcome", "answer") },
  { "refusal", NC_("call outcome", "refusal") },
  { "truncated", NC_("call outcome", "truncated") },
  { "filtered", NC_("call outcome", "filtered") },
  { "invalid-option", NC_("call outcome", "invalid option") },
  { "transport-error", NC_("call outcome", "transport error") },
  { "http-error", NC_("call outcome", "HTTP error") },
  { "fatal", NC_("call outcome", "fatal error") },
  { "cancelled", NC_("call outcome", "cancelled") },
  { "in-flight", NC_("call outcome", "waiting for the answer") },
  { "interrupted", NC_("call outcome", "interrupted") },
};

const char *
komi_record_text_outcome (const char *outcome)
{
  if (outcome == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (outcome_labels); i++)
    if (strcmp (outcome, outcome_labels[i].outcome) == 0)
      return g_dpgettext2 (NULL, "call outcome", outcome_labels[i].label);
  return outcome;
}
