/* komi-test-util.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "komi-coords.h"
#include "komi-game.h"

/* Shared by the rules tests: positions are written as diagrams, moves as
 * protocol names. */

KomiPoint
pt (guint size, const char *name);

KomiBoard *
diagram (const char *text);

KomiGame *
game_from_diagram (const char *text, KomiColor to_move);

/* GNU Go is a Debian package every machine of ours has; where it is
 * missing the test says so instead of failing. */
gboolean
have_gnugo (void);

/* Plays space-separated moves; each must be legal. */
void
play_all (KomiGame *game, const char *moves);

/* Asserts that the position equals @expected (a diagram). */
void
assert_position (const KomiGame *game, const char *expected);

/* The fake GTP engine meson builds: the test's first argument, else its
 * place in the build folder. */
char *
fake_engine_path (int argc, char **argv);
