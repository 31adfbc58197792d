/* komi-demo.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The demo series of the application: the rehearsal model (Komi's loopback
 * simulation of a model API, served by this process) against the seeded
 * random player and GNU Go level 1. No key, no network, no cost.
 *
 * The server is one per process, started on first use and stopped by
 * komi_demo_shutdown() (the application's shutdown). Its port is chosen by
 * the system each start, so the model's profile, which the recorded
 * definition names by path, lives beside the library and is rewritten with
 * the current base URL each time the demo starts or continues. */

/* Where the demo model's profile of the library at @library_path lives. */
char     *komi_demo_profile_path  (const char          *library_path);
/* The demo series' definition (JSON) for the profile at @profile_path. */
char     *komi_demo_definition    (const char          *profile_path);
/* Whether @definition is a demo series of the library at @library_path:
 * its subject is that library's demo model. */
gboolean  komi_demo_is_demo       (const char          *definition,
                                   const char          *library_path);
/* Starts the server if it is not running and writes the profile, on a
 * worker thread. */
void      komi_demo_prepare_async (const char          *library_path,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data);
gboolean  komi_demo_prepare_finish (GAsyncResult       *result,
                                    GError            **error);
/* The server's port; 0 when it is not running. */
guint     komi_demo_get_port      (void);
/* Stops the server; the next prepare starts it again. */
void      komi_demo_shutdown      (void);
/* How long the model takes over each reply, from the next start of the
 * server on: 120 ms unless set, so that the board can be followed move by
 * move. The tests, which follow nothing, set less. */
void      komi_demo_set_latency   (guint                ms);

G_END_DECLS
