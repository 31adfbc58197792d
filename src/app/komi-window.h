/* komi-window.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-library.h"
#include "komi-series-job.h"
#include "komi-series-page.h"

G_BEGIN_DECLS

#define KOMI_TYPE_WINDOW (komi_window_get_type ())
G_DECLARE_FINAL_TYPE (KomiWindow, komi_window, KOMI, WINDOW, AdwApplicationWindow)

/* The main window: a sidebar of sections (series, players, ladder and
 * ratings) beside the section shown, over one library. */

KomiWindow     *komi_window_new             (GtkApplication *application,
                                             KomiLibrary    *library);
void            komi_window_set_library     (KomiWindow     *self,
                                             KomiLibrary    *library);
KomiLibrary    *komi_window_get_library     (KomiWindow     *self);
KomiSeriesPage *komi_window_get_series_page (KomiWindow     *self);
/* "series", "players" or "ladder". */
const char     *komi_window_get_page        (KomiWindow     *self);
void            komi_window_show_page       (KomiWindow     *self,
                                             const char     *name);
/* Quitting (app.quit): a window running a series asks first and TRUE is
 * returned; Keep Running leaves every window as it is, Stop and Close
 * quits the application once the series stopped. FALSE: nothing runs. */
gboolean        komi_window_ask_quit        (KomiWindow     *self);
/* The series running from this window, or the last one run; NULL if none. */
KomiSeriesJob  *komi_window_get_job         (KomiWindow     *self);

G_END_DECLS
