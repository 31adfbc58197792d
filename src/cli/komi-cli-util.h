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
/* How a command's --help speaks of an option it does not know. */
typedef enum
{
  KOMI_CLI_HINT_NONE,         /* "komi-cli COMMAND: Unknown option --x" */
  KOMI_CLI_HINT_SEE_HELP,     /* … "Unknown option --x (see 'komi-cli COMMAND --help')" */
  KOMI_CLI_HINT_FOR_OPTIONS,  /* … "Unknown option --x; run 'komi-cli COMMAND --help' for
                               * the options" */
} KomiCliHint;

/* How many arguments a command takes after its options. */
typedef enum
{
  KOMI_CLI_ARGS_ANY,   /* any number: the command counts them itself, if at all */
  KOMI_CLI_ARGS_NONE,  /* none */
  KOMI_CLI_ARGS_ONE,   /* exactly one */
  KOMI_CLI_ARGS_SOME,  /* one or more */
} KomiCliArgs;

/* A command's options, what its --help says and how many arguments it
 * takes after them. The texts are marked with N_() and translated when
 * printed (GETTEXT_PACKAGE). @command and @parameters come first and are
 * always given (in that order: a call site names them positionally, then
 * the others it sets by name); every other field may be left out (0 or
 * NULL). */
typedef struct
{
  const char           *command;      /* "run": names every error, "komi-cli run: …" */
  const char           *parameters;   /* the usage line after [OPTION…]: "FILE - what it does" */
  const char           *summary;      /* or NULL: above the options */
  const char           *description;  /* or NULL: below them */
  const GOptionEntry   *entries;      /* NULL-terminated, or NULL for none */
  KomiCliEngineOptions *engines;      /* or NULL: when set, the engine options too */
  KomiCliHint           hint;         /* what an error in the options adds */
  KomiCliArgs           args;         /* the arguments it takes; unless ANY, with… */
  const char           *wrong_args;   /* … the usage error when their count is another */
} KomiCliOptions;

/* Parses the options @spec describes out of @argc and @argv (argv[0] is
 * the command), leaving the arguments after them, sets @status to 0 and
 * returns TRUE. --help prints the help and exits with 0, as GOptionContext
 * does. Otherwise (an option GLib refuses, or a count of arguments
 * @spec->args refuses) it prints "komi-cli COMMAND: MESSAGE" to stderr,
 * sets @status to the exit status of a usage error (2) for the command to
 * return, and returns FALSE. @spec->engines keeps what was parsed either
 * way: its owner clears it. */
gboolean      komi_cli_parse_options        (const KomiCliOptions *spec,
                                             int                  *argc,
                                             char               ***argv,
                                             int                  *status);
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
