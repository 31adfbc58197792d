/* komi-app-test-run.h: a series run from the main window in the tests,
 * and what it wrote, read back.
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-app-test-util.h"
#include "komi-window.h"

/* The main window on a library in a new temporary folder (not created
 * yet: the first run makes it). */
typedef AppWindowFixture RunFixture;

void
run_fixture_set_up (RunFixture *f, gconstpointer data);

void
run_fixture_tear_down (RunFixture *f, gconstpointer data);

/* A series file in @f's folder ("series.json"): random against
 * @opponent, @pairs pairs, @jobs games at once, seed 9, no referee.
 * Returns its path. */
char *
write_series_against (RunFixture *f, const char *name, const char *opponent, guint pairs,
                      guint jobs);

/* The same against random, two games at once. */
char *
write_series (RunFixture *f, const char *name, guint pairs);

/* Conditions on a KomiWindow's library: done loading (whatever came of
 * it), or loaded and ready. */
gboolean
library_settled (gpointer window);

gboolean
library_ready (gpointer window);

/* A count (@sql: SELECT COUNT(*) …) from @f's library, as
 * test_sql_count() reads it. */
guint
sql_count (RunFixture *f, const char *sql);

/* Games WHERE @where, and moves, in @f's library. */
guint
count_games (RunFixture *f, const char *where);

guint
count_moves (RunFixture *f);

/* A widget of the window's template. */
GtkWidget *
window_child (RunFixture *f, const char *name);
