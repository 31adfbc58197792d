/* komi-export.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-public.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* Exports of the library for other tools and for publication: one SGF file
 * per game, the call log as JSON Lines, the results as CSV (RFC 4180).
 * The formats are described in docs/library.md. @series_id is a series,
 * or KOMI_STORE_ALL_GAMES for every game of the library (imported ones
 * included). Files are replaced whole: a failed export leaves the old file. */

/* A loaded game (komi_store_load_game) as SGF FF[4]: dead stones as MA,
 * the area as TB/TW recounted from the final position, the count and the
 * judge in the last comment. */
char     *komi_export_game_sgf      (const KomiStoreGame *game,
                                     GError             **error);
/* The same with @analysis (komi_store_load_analysis, may be NULL) written
 * in: BM[2] on blunders, BM[1] on mistakes, a comment "Blunder: lost 7.5
 * points, best was C3 (GNU Go estimate)", SBKS (Black's lead) on every
 * node for Sabaki's score graph. */
char     *komi_export_game_sgf_with_analysis (const KomiStoreGame     *game,
                                              const KomiStoreAnalysis *analysis,
                                              GError                 **error);
/* "series-3-game-0007-gnugo1-vs-random.sgf", "imported-12-alice-vs-bob.sgf" */
char     *komi_export_sgf_file_name (const KomiStoreGame *game);
/* Writes every game that has begun (pending games have nothing to show)
 * into @dir, created if needed. */
gboolean  komi_export_sgf           (KomiStore  *store,
                                     gint64      series_id,
                                     const char *dir,
                                     guint      *n_files,
                                     GError    **error);
/* One call attempt as one line of JSON, without the newline. */
char     *komi_export_call_to_json  (const KomiStoreCall *call);
/* @text (@length bytes, or up to its NUL when -1) as a JSON string at the
 * end of @s, escaped as the export's lines escape it; bytes that are not
 * UTF-8, and NUL, as U+FFFD. */
void      komi_export_append_json_string (GString    *s,
                                          const char *text,
                                          gssize      length);
gboolean  komi_export_calls         (KomiStore  *store,
                                     gint64      series_id,
                                     const char *path,
                                     guint      *n_lines,
                                     GError    **error);
gboolean  komi_export_csv           (KomiStore  *store,
                                     gint64      series_id,
                                     const char *path,
                                     guint      *n_rows,
                                     GError    **error);

/* The same for the public (`komi-cli export --public`): every game, call
 * and row as @pub gives it (komi-public.h), what `komi-cli publish` puts
 * on the site. */
gboolean  komi_export_sgf_public    (KomiStore  *store,
                                     gint64      series_id,
                                     const char *dir,
                                     KomiPublic *pub,
                                     guint      *n_files,
                                     GError    **error);
gboolean  komi_export_calls_public  (KomiStore  *store,
                                     gint64      series_id,
                                     const char *path,
                                     KomiPublic *pub,
                                     guint      *n_lines,
                                     GError    **error);
gboolean  komi_export_csv_public    (KomiStore  *store,
                                     gint64      series_id,
                                     const char *path,
                                     KomiPublic *pub,
                                     guint      *n_rows,
                                     GError    **error);

G_END_DECLS
