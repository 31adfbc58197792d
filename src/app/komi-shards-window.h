/* komi-shards-window.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KOMI_TYPE_SHARDS_WINDOW (komi_shards_window_get_type ())

G_DECLARE_FINAL_TYPE (KomiShardsWindow, komi_shards_window, KOMI, SHARDS_WINDOW, AdwWindow)

/* Watch Shards (win.watch-shards): how far the series of the libraries
 * @paths are over all their shards — games ended of the plan, running,
 * ETA, and each shard's own — the figures of `komi-cli status`, read
 * again every @interval_seconds on a worker thread, read-only, while
 * other processes (komi-cli run --shard, a merge) write them. */
KomiShardsWindow *komi_shards_window_new            (GtkWindow          *parent,
                                                     const char * const *paths,
                                                     guint               interval_seconds);
/* How many reads have been shown so far (tests wait on it). */
guint             komi_shards_window_get_reads      (KomiShardsWindow   *self);

G_END_DECLS
