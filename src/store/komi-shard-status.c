/* komi-shard-status.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include "komi-shard-status.h"

/* The progress of the series of several libraries, grouped by series:
 * what `komi-cli status` prints and the application shows. */

static void
shard_status_free (KomiShardStatus *shard)
{
  g_free (shard->path);
  komi_store_progress_clear (&shard->progress);
  g_free (shard);
}

void
komi_series_status_free (KomiSeriesStatus *status)
{
  if (status == NULL)
    return;
  komi_store_series_free (status->series);
  g_ptr_array_unref (status->shards);
  g_free (status);
}

/* The seconds a shard still needs at its pace so far; < 0: unknown or
 * not running. */
static double
shard_eta (const KomiStoreProgress *p)
{
  if (p->ended >= p->total)
    return 0;
  if (!p->live || p->ended == 0 || p->seconds <= 0)
    return -1;
  return p->seconds / p->ended * (p->total - p->ended);
}

/* How many games the whole plan of @s has (every shard's). */
static guint
plan_size (const KomiStoreSeries *s)
{
  g_autoptr(KomiSeries) series = komi_series_new_from_json (s->definition, -1, NULL);

  return series != NULL ? komi_series_count_games (series) : 0;
}

static void
sum_up (KomiSeriesStatus *status)
{
  guint total = 0;
  gboolean eta_known = TRUE;

  status->planned = plan_size (status->series);
  status->eta = 0;
  for (guint i = 0; i < status->shards->len; i++)
    {
      KomiShardStatus *shard = g_ptr_array_index (status->shards, i);

      shard->eta = shard_eta (&shard->progress);
      total += shard->progress.total;
      status->ended += shard->progress.ended;
      status->running += shard->progress.running;
      if (shard->eta < 0)
        eta_known = FALSE;
      status->eta = MAX (status->eta, shard->eta);
    }
  status->total = MAX (status->planned, total);
  status->missing = status->planned > total ? status->planned - total : 0;
  /* Games in no library: shards not started, or not given. */
  if (!eta_known || status->missing > 0)
    status->eta = -1;
}

GPtrArray *
komi_shard_status_read (const char * const *paths,
                        guint               n_paths,
                        GError            **error)
{
  g_autoptr(GPtrArray) result = g_ptr_array_new_with_free_func (
    (GDestroyNotify) komi_series_status_free);
  /* digest -> KomiSeriesStatus (owned by result) */
  g_autoptr(GHashTable) by_digest = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < n_paths; i++)
    {
      g_autoptr(KomiStore) store = komi_store_open_reader (paths[i], error);
      g_autoptr(GPtrArray) list = NULL;

      if (store == NULL || (list = komi_store_list_series (store, error)) == NULL)
        return NULL;
      for (guint j = 0; j < list->len; j++)
        {
          KomiStoreSeries *s = g_ptr_array_index (list, j);
          KomiShardStatus *shard = g_new0 (KomiShardStatus, 1);
          KomiSeriesStatus *status = g_hash_table_lookup (by_digest, s->digest);

          shard->path = g_strdup (paths[i]);
          if (!komi_store_get_progress (store, s->id, &shard->progress, error))
            {
              shard_status_free (shard);
              return NULL;
            }
          if (status == NULL)
            {
              status = g_new0 (KomiSeriesStatus, 1);
              status->shards = g_ptr_array_new_with_free_func ((GDestroyNotify) shard_status_free);
              status->series = g_ptr_array_steal_index (list, j--);
              g_ptr_array_add (result, status);
              g_hash_table_insert (by_digest, status->series->digest, status);
            }
          g_ptr_array_add (status->shards, shard);
        }
    }
  for (guint i = 0; i < result->len; i++)
    sum_up (g_ptr_array_index (result, i));
  return g_steal_pointer (&result);
}

char *
komi_shard_status_format_eta (double seconds)
{
  guint s = seconds < 0 ? 0 : (guint) (seconds + 0.5);

  if (seconds < 0)
    return g_strdup ("-");
  if (s >= 3600)
    return g_strdup_printf ("%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
  return g_strdup_printf ("%u:%02u", s / 60, s % 60);
}
