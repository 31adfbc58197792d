/* app-screenshots-dialogs.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

/* Runs the main loop for @ms milliseconds (a crossfade, a frame). */
void shot_pause_ms (guint ms);

/* New Series over @window: as it opens (@subject ""), a priced model
 * profile written into @scratch_dir and a budget ("@priced"), or @subject
 * typed in ("gnugo:11": with more fields wrong); with @tested, these
 * opponents and its Test pressed, waited for. */
void shot_series_dialog (GtkWindow  *window,
                         const char *subject,
                         const char *tested,
                         const char *scratch_dir);

/* The provider dialog over @window: "refused", "testing" or tested. */
void shot_provider_dialog (GtkWindow *window, const char *what);

/* The opponent dialog over New Series: "katago", "testing" or tested. */
void shot_opponent_dialog (GtkWindow *window, const char *what);
