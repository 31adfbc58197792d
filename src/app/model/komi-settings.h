/* komi-settings.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-player-spec.h"

G_BEGIN_DECLS

/* The application's settings (data/io.github.komigo.Komi.gschema.xml):
 * where KataGo and GNU Go live. Found installed, else in the build folder
 * for an uninstalled komi; when neither has the schema, NULL (said once
 * with g_message) and everything reads the environment, as komi-cli does. */
GSettings *komi_settings_new             (void);

/* The engine paths the settings hold, for a series run from the window:
 * empty ones stay NULL so that the KOMI_* variables still apply. The
 * strings are owned by @strs. */
void       komi_settings_engine_options  (KomiPlayerOptions *opts,
                                          GPtrArray         *strs);

/* The library a window opens without --db: the "library-path" key, else
 * komi-cli's default (komi_store_default_path()). */
char      *komi_settings_library_path    (void);

/* The New Series defaults: games at once and the referee ("gnugo"…);
 * 2 and "gnugo" without the schema. */
int        komi_settings_default_jobs    (void);
char      *komi_settings_default_referee (void);
/* The ladder subjects are rated against: "shipped" (the default, also
 * without a schema) or "library" (its own calibration), as
 * komi_ladder_resolve() takes it. */
const char *komi_settings_rating_ladder  (void);

G_END_DECLS
