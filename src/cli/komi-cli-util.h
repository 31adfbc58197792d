/* komi-cli-util.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdio.h>

#include "komi-match-game.h"
#include "komi-player-spec.h"
#include "komi-series.h"

G_BEGIN_DECLS

/* A table's column heading, marked with N_(): printed after @gap spaces,
 * in @width columns as komi_cli_print_cell() does. */
typedef struct
{
  const char *text;
  int         width;
  guint       gap;
} KomiCliHeading;

/* Options every command that starts engines shares. */
typedef struct
{
  char *gnugo;
  char *katago_binary;
  char *katago_model;
  char *katago_config;
  int   timeout_s;
  char *referee;          /* "gnugo", "katago", "none"; NULL: katago when configured */
} KomiCliEngineOptions;

GOptionGroup *komi_cli_engine_option_group (KomiCliEngineOptions *options);
void          komi_cli_engine_options_get  (const KomiCliEngineOptions *options,
                                            KomiPlayerOptions          *out);
void          komi_cli_engine_options_clear (KomiCliEngineOptions *options);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiCliEngineOptions, komi_cli_engine_options_clear)
/* The referee the options name; NULL with no error for "none". */
KomiReferee  *komi_cli_referee_new          (const KomiCliEngineOptions *options,
                                             GError                    **error);

/* How a game ended, in words of the user's language. */
const char   *komi_cli_end_reason_text      (KomiEndReason reason);
/* Prints "Turn N: X (PLAYER) plays E5" (or passes) after a blank line. */
void          komi_cli_print_turn           (FILE           *out,
                                             guint           size,
                                             guint           turn,
                                             const KomiMove *move,
                                             const char     *player);
/* Prints the position with labels as in the protocol, the last move in
 * parentheses. */
void          komi_cli_print_board          (FILE           *out,
                                             const KomiGame *game,
                                             KomiPoint       last_move);
/* Prints the area count with its parts and the result. */
void          komi_cli_print_record_result  (FILE                 *out,
                                             const KomiGameRecord *record);
/* Prints the headings translated, then a new line. */
void          komi_cli_print_headings       (FILE                 *out,
                                             const KomiCliHeading *headings,
                                             guint                 n_headings);
/* --series ID… as library ids appended to @ids (gint64); an error names a
 * value that is not a series id. */
gboolean      komi_cli_parse_series         (char       **texts,
                                             GArray      *ids,
                                             GError     **error);
gboolean      komi_cli_write_file           (const char  *path,
                                             const char  *contents,
                                             GError     **error);
KomiSeries   *komi_cli_series_new           (const char  *name,
                                             const char  *subject,
                                             const char  *opponent,
                                             guint        pairs,
                                             guint64      seed,
                                             const char  *referee,
                                             guint        jobs,
                                             GError     **error);

G_END_DECLS
