/* komi-gtp-engine.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-player.h"

G_BEGIN_DECLS

/* One GTP program running as a child process, spoken to synchronously: a
 * command is written, and the calling thread blocks until the answer, the
 * timeout, the cancellable or the end of the process. On a timeout or a
 * cancellation the process is killed (its state is unknown), so an answer
 * never arrives late for the next command. Errors are KOMI_PLAYER_ERROR
 * (TIMEOUT, DIED, GTP, PROTOCOL, START) or G_IO_ERROR_CANCELLED. The child
 * is always reaped: when a command finds it dead, or by komi_gtp_engine_close(). */

typedef struct _KomiGtpEngine KomiGtpEngine;

/* Starts @argv (argv[0] a path or a program in PATH) and asks its name and
 * version. @label names the engine in error messages ("GNU Go"). */
KomiGtpEngine *komi_gtp_engine_new            (const char * const *argv,
                                               const char         *label,
                                               guint               timeout_ms,
                                               GCancellable       *cancellable,
                                               GError            **error);
/* Sends one command (no newline) and waits at most @timeout_ms for the
 * answer. On success *@reply (if given) is the text after "=", trimmed. */
gboolean       komi_gtp_engine_send           (KomiGtpEngine      *self,
                                               const char         *command,
                                               char              **reply,
                                               guint               timeout_ms,
                                               GCancellable       *cancellable,
                                               GError            **error);
/* Sends @n_commands (at most KOMI_GTP_MAX_BATCH) in one write and reads
 * their answers in order; fails with the first refusal or fault. */
#define KOMI_GTP_MAX_BATCH 256
gboolean       komi_gtp_engine_send_many   (KomiGtpEngine       *self,
                                            const char * const  *commands,
                                            guint                n_commands,
                                            guint                timeout_ms,
                                            GCancellable        *cancellable,
                                            GError             **error);
const char    *komi_gtp_engine_get_name       (KomiGtpEngine      *self);
const char    *komi_gtp_engine_get_version    (KomiGtpEngine      *self);
const char    *komi_gtp_engine_get_label      (KomiGtpEngine      *self);
/* FALSE once the process has ended or was killed. */
gboolean       komi_gtp_engine_is_running     (KomiGtpEngine      *self);
/* The process id while running, 0 afterwards. */
GPid           komi_gtp_engine_get_pid        (KomiGtpEngine      *self);
/* Commands sent so far (the startup "name" and "version" included). */
guint          komi_gtp_engine_get_n_commands (KomiGtpEngine      *self);
/* Sends "quit", waits up to @grace_ms for the exit, then kills; idempotent. */
void           komi_gtp_engine_close          (KomiGtpEngine      *self,
                                               guint               grace_ms);
/* Closes (with a short grace) and frees. */
void           komi_gtp_engine_free           (KomiGtpEngine      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiGtpEngine, komi_gtp_engine_free)

G_END_DECLS
