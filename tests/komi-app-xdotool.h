/* komi-app-xdotool.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gdk/x11/gdkx.h>

#include "komi-app-test-util.h"

/* Keys typed as a user types them, for the UI tests under Xvfb: xdotool
 * sends them through the X server (XTEST) to the window with the focus,
 * so they go the whole way through GTK. Without --clearmodifiers: with
 * it, a key typed with Shift ("numbersign") left Shift down for the next
 * one. */

/* The xdotool program, or NULL: set by the test before use. */
extern char *xdotool;

/* xdotool's name for a GTK accelerator: "<Control>question" is
 * "ctrl+question". */
char *
xdotool_keys (const char *accelerator);

void
xdotool_run (const char * const *args);

gboolean
window_active (gpointer window);

/* Gives @window the keyboard focus, as a click on it would. */
void
xdotool_focus (gpointer window);

