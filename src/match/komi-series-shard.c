/* komi-series-shard.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-match"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "komi-series.h"

/* A series' plan split into shards that separate processes play into
 * libraries of their own (komi-cli run --shard K/N; komi-cli merge brings
 * them together). komi-series.h says how games are dealt. */

guint
komi_series_shard_of (const KomiPlannedGame *game, guint n_shards)
{
  /* The plan holds each pair's two games side by side: index / 2 is the
   * pair's place in the plan. */
  return n_shards > 1 ? game->index / 2 % n_shards : 0;
}

GArray *
komi_series_plan_to_play (const KomiSeries *series)
{
  GArray *plan = komi_series_plan (series);
  guint kept = 0;

  if (series->n_shards <= 1)
    return plan;
  for (guint i = 0; i < plan->len; i++)
    {
      KomiPlannedGame *g = &g_array_index (plan, KomiPlannedGame, i);

      if (komi_series_shard_of (g, series->n_shards) == series->shard)
        g_array_index (plan, KomiPlannedGame, kept++) = *g;
    }
  g_array_set_size (plan, kept);
  return plan;
}

gboolean
komi_series_parse_shard (const char  *text,
                         guint       *shard,
                         guint       *n_shards,
                         GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (text != NULL ? text : "", "/", 3);
  guint64 k = 0, n = 0;

  if (g_strv_length (parts) != 2
      || !g_ascii_string_to_unsigned (parts[1], 10, 1, 4096, &n, NULL)
      || !g_ascii_string_to_unsigned (parts[0], 10, 1, n, &k, NULL))
    {
      g_set_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FIELD,
                   _("“%s” is not a shard: give K/N, shard K of N, with K from 1 to N and N "
                     "at most 4096 (e.g. --shard 2/4)"), text != NULL ? text : "");
      return FALSE;
    }
  *shard = (guint) k - 1;
  *n_shards = (guint) n;
  return TRUE;
}
