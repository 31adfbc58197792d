/* komi-store-test-util.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "komi-random-player.h"
#include "komi-store-sink.h"
#include "komi-store.h"
#include "komi-test-cli.h"

/* Shared by test-store.c, test-export.c and store-writer-helper.c: a small
 * series (random against random, built by hand so these tests do not
 * depend on the series parser) and games played through a sink exactly as
 * the series runner plays them. */

typedef struct
{
  KomiSeries  series;
  GArray     *plan;     /* KomiPlannedGame */
} TestSeries;

void
test_series_free (TestSeries *t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestSeries, test_series_free)

void
test_opponent_free (gpointer data);

/* "random" against "random", @n_pairs pairs, one orientation per pair. */
TestSeries *
test_series_new (const char *name, guint64 seed, guint n_pairs);

const KomiPlannedGame *
test_planned (TestSeries *t, guint index);

/* A record as the game loop makes one, for @game (taken) of @planned. */
KomiGameRecord *
test_record_new (const KomiPlannedGame *planned, KomiGame *game);

/* The move of @game's side to move at its next turn: random, but seeded by
 * the game and the turn, so a resumed game goes on as it would have. */
KomiMove
test_random_move (const KomiPlannedGame *planned, const KomiGame *game);

/* Counts @r's final position with no dead stones, as a game without a
 * referee ends. */
void
test_record_count (KomiGameRecord *r);

/* A whole random game of @planned, counted, without players or a sink. */
KomiGameRecord *
test_random_record (const KomiPlannedGame *planned);

/* Playing through a sink, as the runner does */

/* Plays @planned (random against random) from its recorded state through
 * @sink; returns the finished record, or NULL when @stop_after stopped it. */
KomiGameRecord *
sink_play_game (KomiSeriesSink *sink, const KomiPlannedGame *planned, guint stop_after);

/* Asserts that a record rebuilt from the library is the one played. */
void
assert_same_record (const KomiGameRecord *got, const KomiGameRecord *want);

/* A value of one row of one query, through a connection of the test's own. */
char *
sql_text (const char *path, const char *sql);

/* A count (@sql: SELECT COUNT(*) …) from the library at @path while a
 * run may be writing it: through a read-only connection of the test's
 * own that waits for the writer; 0 before the library exists or has its
 * tables. */
guint
test_sql_count (const char *path, const char *sql);

char *
test_db_path (const char *dir);

/* Every game of the library at @db as a line, in plan order: place in the
 * plan, players with their settings and seeds, orientation, status,
 * result, area count, referee, every move and the dead stones. Libraries
 * of the same games, however they were played (one process, shards
 * merged, runs killed and resumed), give the same lines. */
GPtrArray *
test_library_text (const char *db);

/* Asserts that two test_library_text() are the same, line by line. */
void
test_assert_same_games (GPtrArray *got, GPtrArray *want);

KomiStore *
test_open_store (const char *path);

/* Records a series of @subject against @opponent, @pairs pairs of random
 * games, the subject Black in the first of each pair. With @faults, the
 * first game is forfeited by the subject and the second voided. */
void
test_add_series (KomiStore  *store,
                 const char *name,
                 guint64     seed,
                 const char *subject,
                 const char *opponent,
                 guint       pairs,
                 gboolean    faults);

/* Each test gets a temporary folder and a library path inside it. */
typedef struct
{
  char *dir;
  char *path;
} LibraryFixture;

void
library_fixture_set_up (LibraryFixture *f, gconstpointer data);

void
library_fixture_tear_down (LibraryFixture *f, gconstpointer data);
