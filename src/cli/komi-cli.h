/* komi-cli.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Each subcommand takes the arguments after its name (argv[0] is the
 * subcommand) and returns the process exit status. Errors go to stderr as
 * one sentence that says what to do. */
typedef int (*KomiCliCommand) (int argc, char **argv);

int  komi_cli_demo     (int argc, char **argv);
int  komi_cli_request  (int argc, char **argv);
int  komi_cli_play     (int argc, char **argv);
int  komi_cli_score    (int argc, char **argv);
int  komi_cli_bench    (int argc, char **argv);
int  komi_cli_run      (int argc, char **argv);
int  komi_cli_resume   (int argc, char **argv);
int  komi_cli_series   (int argc, char **argv);
int  komi_cli_merge    (int argc, char **argv);
int  komi_cli_status   (int argc, char **argv);
int  komi_cli_verify   (int argc, char **argv);
int  komi_cli_export   (int argc, char **argv);
int  komi_cli_analyse  (int argc, char **argv);
int  komi_cli_ratings  (int argc, char **argv);
int  komi_cli_ladder   (int argc, char **argv);
/* `ladder check` and `ladder record` (komi-cli-ladder-check.c). */
int  komi_cli_ladder_check  (int argc, char **argv);
int  komi_cli_ladder_record (int argc, char **argv);
int  komi_cli_rate     (int argc, char **argv);
int  komi_cli_import   (int argc, char **argv);
int  komi_cli_publish  (int argc, char **argv);
int  komi_cli_rehearse (int argc, char **argv);

/* Prints "komi-cli SUBCOMMAND: MESSAGE" to stderr and returns 1 (or 2 for
 * usage errors, by convention of the callers). */
int  komi_cli_fail     (const char *subcommand,
                        const GError *error);
/* Prints "komi-cli SUBCOMMAND: MESSAGE" to stderr, the message formatted
 * from @format (translated by the caller), and returns 2. */
int  komi_cli_usage    (const char *subcommand,
                        const char *format,
                        ...) G_GNUC_PRINTF (2, 3);
/* The same for a failure that is not a usage error; returns 1. */
int  komi_cli_error    (const char *subcommand,
                        const char *format,
                        ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
