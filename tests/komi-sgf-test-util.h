/* komi-sgf-test-util.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>
#include <glib.h>

#include "komi-coords.h"
#include "komi-sgf-record.h"

/* Shared by test-sgf.c and test-sgf-reader.c, which make one GTest program. */

void komi_test_sgf_reader_add (void);

/* A real 9x9 game (GNU Go level 1 against itself) with captures and two
 * final passes, as SGF points; "-" is a pass. */
extern const char game_moves[];

/* A file of tests/sgf/ (KOMI_SOURCE_DIR is set by meson test). */
char *
fixture_path (const char *name);

KomiGame *
play_sgf_points (guint size, const char *points);

KomiSgfRecord *
read_text (const char *text);

KomiSgfRecord *
read_fixture (const char *name);

KomiGame *
replay (const KomiSgfRecord *record);

KomiMove
move_at (const KomiSgfRecord *record, guint i);

void
assert_sgf_move (const KomiSgfRecord *record, guint i, KomiColor color, const char *sgf);
