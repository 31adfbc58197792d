/* komi-publish-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-publish.h"
#include "komi-public.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* The site's format: a game page whose stamp (its game, the analysis, this
 * number and Komi's version) has not changed is left as it is without
 * being made again. Add one whenever what a game's files hold changes. */
#define KOMI_PUBLISH_FORMAT 2

/* A subject's calls over the published games, for the leaderboard. */
typedef struct
{
  guint   games;       /* games with at least one call */
  guint   moves;       /* turns with at least one call */
  guint   questions;   /* questions asked (a turn's play_or_pass, best_point) */
  guint   invalid;     /* attempts the model answered wrongly: refusal, empty,
                        * truncated, filtered, not an option */
  guint   transport;   /* transport faults, never counted against the model */
  guint64 tokens;      /* input and output tokens, where reported */
  guint   token_calls; /* attempts that reported tokens */
  double  ms;          /* latency of every attempt */
  double  cost;        /* at the profiles' prices, where known */
  guint   cost_calls;
} KomiPublishUsage;

void     _komi_publish_usage_add    (KomiPublishUsage       *to,
                                     const KomiPublishUsage *usage);

/* Where the site is written, and what was written so far. */
typedef struct
{
  char             *dir;
  KomiPublishStats *stats;
  KomiPublic       *pub;    /* what may be shown (komi-public.h) */
  GHashTable       *usage;  /* subject spec → KomiPublishUsage, summed in
                             * the games' order once every page is made */
  const char       *salt;   /* what every page depends on besides its game:
                             * Komi's version, the site's format, the options */
  GHashTable       *digests; /* relpath → sha256 of the bytes written or found
                              * unchanged, for the manifest; or NULL */
} KomiPublishOut;

/* Writes @data to @relpath under the site (folders made as needed) unless
 * the file already holds exactly these bytes; counts either way. */
gboolean _komi_publish_write        (KomiPublishOut      *out,
                                     const char          *relpath,
                                     const char          *data,
                                     gsize                length,
                                     GError             **error);

/* MANIFEST.sha256 over every file now in the site (komi-publish-manifest.c). */
gboolean _komi_publish_write_manifest (KomiPublishOut     *out,
                                       GError            **error);

/* HTML: text with &, <, >, " and ' escaped. */
void     _komi_html_append          (GString             *s,
                                     const char          *text);
void     _komi_html_append_printf   (GString             *s,
                                     const char          *format,
                                     ...) G_GNUC_PRINTF (2, 3);
/* The page's head (title, the stylesheet under @root, e.g. "../") and its
 * top navigation; _komi_publish_page_end closes it. */
void     _komi_publish_page_start   (GString             *s,
                                     const char          *title,
                                     const char          *root);
void     _komi_publish_page_end     (GString             *s);

/* How a player is shown: its name when started ("GNU Go 3.8", a model's
 * profile name and model id), else its spec; any local path cut to its
 * file name (komi_public_text). Free with g_free. */
char    *_komi_publish_player_label (const char          *spec,
                                     const char          *name);
/* "B+7", "W+R", "void", "forfeit", "unfinished". */
char    *_komi_publish_result_text  (const KomiStoreGame *game);
/* "games/game-7.html" */
char    *_komi_publish_game_path    (gint64               game_id);

/* series-N.html for @series and its @games (KomiStoreGame*, listed). */
gboolean _komi_publish_series_page  (KomiPublishOut         *out,
                                     KomiStore              *store,
                                     const KomiStoreSeries  *series,
                                     GPtrArray              *games,
                                     GError                **error);
/* methodology.html: the protocol whole, the ladder, the definitions. */
gboolean _komi_publish_methodology_page (KomiPublishOut     *out,
                                         guint               protocol,
                                         GError            **error);
/* games/game-N.html, .sgf and -calls.jsonl.gz of the listed @game;
 * @usage receives the game's calls as the leaderboard counts them (zero
 * for a game without a subject). Safe to call from several threads at
 * once, each with an @out and a @store of its own (@out's pub and salt
 * may be shared: they are only read). */
gboolean _komi_publish_game_page    (KomiPublishOut         *out,
                                     KomiStore              *store,
                                     const KomiStoreGame    *game,
                                     KomiPublishUsage       *usage,
                                     GError                **error);

G_END_DECLS
