/* komi-shard-status.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-store.h"

G_BEGIN_DECLS

/* How far the series of one or more libraries are, over all their shards
 * (komi-cli run --shard K/N, a library each), as `komi-cli status` prints
 * it and the application's Watch Shards window shows it. Libraries are
 * only read (komi_store_open_reader), so processes writing them go on. */

typedef struct
{
  char              *path;      /* the library */
  KomiStoreProgress  progress;  /* its series: the shard's games */
  double             eta;       /* seconds left at its pace so far; 0: ended;
                                 * < 0: unknown (not running, or none ended) */
} KomiShardStatus;

typedef struct
{
  KomiStoreSeries *series;    /* as the first library holding it has it */
  GPtrArray       *shards;    /* KomiShardStatus, in the order of the paths */
  guint            planned;   /* games of the whole plan (every shard's) */
  guint            total;     /* MAX (planned, the libraries' games) */
  guint            ended;
  guint            running;
  guint            missing;   /* games of the plan in none of the libraries */
  double           eta;       /* the slowest shard's; < 0: unknown (a shard's, or
                               * games in none of the libraries) */
} KomiSeriesStatus;

/* Every series of the libraries @paths (@n_paths of them), one
 * KomiSeriesStatus each (its shards grouped by the series' digest), in
 * the order they first appear; NULL with the library that failed. */
GPtrArray *komi_shard_status_read   (const char * const *paths,
                                     guint               n_paths,
                                     GError            **error);
void       komi_series_status_free  (KomiSeriesStatus   *status);
/* @seconds as "M:SS" or "H:MM:SS", "-" when < 0 (unknown). */
char      *komi_shard_status_format_eta (double seconds);

G_END_DECLS
