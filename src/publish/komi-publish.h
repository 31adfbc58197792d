/* komi-publish.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-store.h"

G_BEGIN_DECLS

/* The static web replay: a folder of HTML pages that a browser opens from
 * file:// or any static host, with no network and no server at view time.
 * index.html is the leaderboard, series-N.html a series' results and
 * games, games/game-N.html a game's replay with every call (its SGF and
 * its calls as JSON Lines beside it). docs/publish.md describes the site. */

#define KOMI_PUBLISH_ERROR (komi_publish_error_quark ())
GQuark komi_publish_error_quark (void);

typedef enum
{
  KOMI_PUBLISH_ERROR_NO_SERIES,  /* a series asked for is not in the library */
  KOMI_PUBLISH_ERROR_WRITE,      /* the folder or a file cannot be written */
} KomiPublishError;

/* Called after each game page: @done of @total games. */
typedef void (*KomiPublishProgressFunc) (guint    done,
                                         guint    total,
                                         gpointer user_data);

typedef struct
{
  const gint64            *series;     /* the series to publish; NULL: all of them */
  guint                    n_series;
  const char              *ladder;     /* "library" (its own calibration), a ladder
                                        * file, or NULL ("shipped"): the shipped one */
  gboolean                 keep_request_ids; /* the providers' request id headers */
  KomiPublishProgressFunc  progress;
  gpointer                 progress_data;
  GCancellable            *cancellable;
  guint                    threads;    /* game pages made at once; 0: one per processor */
} KomiPublishOptions;

typedef struct
{
  guint   series;      /* series pages */
  guint   games;       /* game pages */
  guint   written;     /* files written because they are new or changed */
  guint   unchanged;   /* files left as they were */
  guint64 bytes;       /* the size of every file of the site */
  char   *rating_note; /* why there are no ratings, or NULL */
} KomiPublishStats;

/* Publishes the library at @db into @dir (created if needed). A file whose
 * content has not changed is not written again. */
gboolean komi_publish_site         (const char               *db,
                                    const char               *dir,
                                    const KomiPublishOptions *options,
                                    KomiPublishStats         *stats,
                                    GError                  **error);
void     komi_publish_stats_clear  (KomiPublishStats         *stats);

/* The site's manifest (MANIFEST.sha256, written by komi_publish_site()
 * last: the sha256 of every file, as `sha256sum` writes it) checked
 * against the files of @dir: one line in @problems (char*, English) per
 * file changed, missing or not listed; @n_files receives how many the
 * manifest lists. Fails only when there is no manifest. */
gboolean komi_publish_check_manifest (const char *dir,
                                      GPtrArray  *problems,
                                      guint      *n_files,
                                      GError    **error);
/* The site's games (games/game-N.sgf) against game N of @store: the same
 * moves and result, one line in @problems for each that differs or is not
 * in the library. Fails only when the library cannot be read. */
gboolean komi_publish_check_games    (const char *dir,
                                      KomiStore  *store,
                                      GPtrArray  *problems,
                                      guint      *n_games,
                                      GError    **error);

G_END_DECLS
