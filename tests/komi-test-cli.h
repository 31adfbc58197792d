/* komi-test-cli.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdarg.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

/* Runs the built komi-cli with the NULL-terminated arguments, as a user
 * would: a real process, with LANGUAGE set to @language (unset when NULL).
 * Returns its exit status; @out and @err receive what it printed. */
int
run_komi_cli_language_va (const char *language, char **out, char **err, va_list ap);

/* The same in the language of the test's own environment. */
int
run_komi_cli_va (char **out, char **err, va_list ap);

int
run_komi_cli (char **out, char **err, ...);

/* run_komi_cli_language_va() with the arguments as a NULL-terminated
 * vector. */
int
run_komi_cli_argv (const char *language, const char * const *args, char **out, char **err);

/* What a komi-cli process printed, and its exit status. */
typedef struct
{
  int   status;
  char *out;
  char *err;
} KomiCliRun;

void
komi_cli_run_clear (KomiCliRun *run);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiCliRun, komi_cli_run_clear)

/* Removes a test's temporary folder and everything in it. */
void
remove_test_dir (const char *path);

/* The built komi-cli started with the NULL-terminated arguments and
 * @flags, left running: for the tests that kill it, run it beside others
 * or read its output as it comes. */
GSubprocess *
test_cli_start (GSubprocessFlags flags, ...) G_GNUC_NULL_TERMINATED;

/* The same, waited for with test_cli_wait_ok() and let go. */
void
test_cli_run_ok (GSubprocessFlags flags, ...) G_GNUC_NULL_TERMINATED;

/* Waits for @proc (started with G_SUBPROCESS_FLAGS_STDERR_PIPE) to end and
 * fails the test, with what it said, unless it succeeded. */
void
test_cli_wait_ok (GSubprocess *proc);
