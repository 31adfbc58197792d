/* komi-preferences-window.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KOMI_TYPE_PREFERENCES_WINDOW (komi_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (KomiPreferencesWindow, komi_preferences_window, KOMI,
                      PREFERENCES_WINDOW, AdwPreferencesWindow)

/* The preferences (app.preferences) on the application's GSettings: New
 * Series defaults, theme, library, engine paths with a version check.
 * Without the schema every row is insensitive. */
KomiPreferencesWindow *komi_preferences_window_new (GtkWindow *parent);

/* Keeps AdwStyleManager's color scheme on the "color-scheme" key of
 * @settings from now on, for as long as the caller keeps @settings. */
void                   komi_preferences_follow_theme (GSettings *settings);

G_END_DECLS
