/* komi-gtp-process.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A child process with its stdin and stdout on pipes and its stderr in a
 * file, started with posix_spawn and reaped by its owner. It replaces
 * GSubprocess for engines because a series starts two engines a game:
 * posix_spawn does not copy our address space (fork does, and every page
 * we then write is copied again until the child has exec'd), and no
 * thread of GLib's has to watch for SIGCHLD. Every method is called from
 * the owner's thread. */

typedef struct _KomiGtpProcess KomiGtpProcess;

/* Starts @argv (argv[0] a path or a program in PATH) with the caller's
 * environment and default signal dispositions; only fds 0, 1 and 2 are
 * passed on. Stderr goes to @stderr_fd (the caller's file, which should
 * be close-on-exec), or nowhere when it is -1. Errors are G_IO_ERROR from errno (G_IO_ERROR_NOT_FOUND when
 * there is no such program). */
KomiGtpProcess *komi_gtp_process_spawn         (const char * const *argv,
                                                int                 stderr_fd,
                                                GError            **error);
/* Our end of its stdin, or -1 once closed. */
int             komi_gtp_process_get_stdin_fd  (KomiGtpProcess     *self);
/* Our end of its stdout; open until the process is freed. */
int             komi_gtp_process_get_stdout_fd (KomiGtpProcess     *self);
/* Closes our end of its stdin: a GTP engine sees end of input and exits. */
void            komi_gtp_process_close_stdin   (KomiGtpProcess     *self);
/* The process id, 0 once the process has been reaped. */
GPid            komi_gtp_process_get_pid       (KomiGtpProcess     *self);
/* Waits up to @timeout_ms for the process to exit and reaps it; TRUE
 * when it has been reaped (now or before). */
gboolean        komi_gtp_process_wait          (KomiGtpProcess     *self,
                                                guint               timeout_ms);
/* Kills the process if it still runs and reaps it; idempotent. */
void            komi_gtp_process_kill          (KomiGtpProcess     *self);
/* How a reaped process ended: "exited with status 3", "was killed by
 * signal 9 (Killed)"; NULL while it has not been reaped. */
char           *komi_gtp_process_describe_exit (KomiGtpProcess     *self);
/* Kills and reaps a process still running, closes the pipes, frees. */
void            komi_gtp_process_free          (KomiGtpProcess     *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiGtpProcess, komi_gtp_process_free)

G_END_DECLS
