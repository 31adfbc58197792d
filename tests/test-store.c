/* test-store.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <math.h>

#include "komi-coords.h"
#include "komi-store-private.h"
#include "komi-store-test-util.h"

/* The library against real SQLite files in a temporary folder: schema and
 * migrations, the sink as the runner uses it, threads, a reader beside the
 * writer, the bulk path. test-store-crash.c adds kill -9. */

#define TEST(path, func) \
  g_test_add ("/komi/store/" path, LibraryFixture, NULL, library_fixture_set_up, func, library_fixture_tear_down)

/* Schema */

static void
test_migrate_empty (LibraryFixture *f, gconstpointer data)
{
  g_autofree char *nested = g_build_filename (f->dir, "a", "b", "library.db", NULL);
  g_autofree char *version = NULL;
  g_autofree char *tables = NULL;
  g_autofree char *mode = NULL;
  g_autofree char *check = NULL;
  g_autofree char *app = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiStore) again = NULL;

  /* An empty file, as a user might create it, becomes a library. */
  g_assert_true (g_file_set_contents (f->path, "", 0, NULL));
  store = test_open_store (f->path);
  version = sql_text (f->path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, G_STRINGIFY (KOMI_STORE_SCHEMA_VERSION));
  app = sql_text (f->path, "PRAGMA application_id");
  g_assert_cmpint (atoi (app), ==, KOMI_STORE_APPLICATION_ID);
  tables = sql_text (f->path, "SELECT group_concat (name, ' ') FROM (SELECT name FROM "
                              "sqlite_schema WHERE type = 'table' ORDER BY name)");
  g_assert_cmpstr (tables, ==,
                   "analysis analysis_moves calls events games meta moves players series");
  mode = sql_text (f->path, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "wal");
  check = sql_text (f->path, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");
  /* Opening again migrates nothing. */
  again = test_open_store (f->path);

  /* A path in folders that do not exist yet. */
  g_clear_pointer (&store, komi_store_unref);
  store = test_open_store (nested);
  g_assert_true (g_file_test (nested, G_FILE_TEST_IS_REGULAR));
}

/* Migrations run in order, each in its own transaction: a failing one
 * leaves the file at the version before it, with nothing of it applied. */
static void
test_migrate_in_order (LibraryFixture *f, gconstpointer data)
{
  static const KomiStoreMigration steps[] = {
    { 1, "CREATE TABLE t1 (a INTEGER) STRICT;" },
    { 2, "ALTER TABLE t1 ADD COLUMN b TEXT; INSERT INTO t1 VALUES (1, 'x');" },
    { 3, "CREATE TABLE t3 (c INTEGER); INSERT INTO no_such_table VALUES (1);" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *version = NULL;
  g_autofree char *t3 = NULL;
  g_autofree char *b = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_false (_komi_store_migrate (db, f->path, steps, 3, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, "schema 3"));
  g_clear_error (&error);
  version = sql_text (f->path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "2");
  t3 = sql_text (f->path, "SELECT count (*) FROM sqlite_schema WHERE name = 't3'");
  g_assert_cmpstr (t3, ==, "0");
  b = sql_text (f->path, "SELECT b FROM t1");
  g_assert_cmpstr (b, ==, "x");
  /* Up to date: nothing is run again. */
  g_assert_true (_komi_store_migrate (db, f->path, steps, 2, &error));
  g_assert_no_error (error);
  sqlite3_close (db);
}

static void
test_refuse_newer (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autofree char *ignored = NULL;

  g_clear_pointer (&store, komi_store_unref);
  ignored = sql_text (f->path, "PRAGMA user_version = 99");
  g_assert_null (komi_store_open (f->path, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NEWER);
  g_assert_nonnull (strstr (error->message, "was written by a newer Komi (schema 99); "
                                            "this one reads up to "
                                            G_STRINGIFY (KOMI_STORE_SCHEMA_VERSION)));
  g_clear_error (&error);
  g_assert_null (komi_store_open_reader (f->path, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NEWER);
}

static void
test_refuse_foreign (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *other = g_build_filename (f->dir, "other.db", NULL);
  g_autofree char *text = g_build_filename (f->dir, "notes.txt", NULL);
  g_autofree char *missing = g_build_filename (f->dir, "missing.db", NULL);
  g_autofree char *mode = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (other, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE notes (x)", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_assert_null (komi_store_open (other, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY);
  g_assert_nonnull (strstr (error->message, "another program"));
  g_clear_error (&error);
  /* Refused untouched: not even switched to WAL. */
  mode = sql_text (other, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "delete");

  g_assert_true (g_file_set_contents (text, "Not a database, but long enough to look like a "
                                            "header of one to SQLite's first read of it. "
                                            "More text follows here.", -1, NULL));
  g_assert_null (komi_store_open (text, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY);
  g_clear_error (&error);

  g_assert_null (komi_store_open_reader (missing, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

/* A library of schema 3 counted moves in games.n_moves; schema 4 drops
 * the column and counts the moves table, so a game stopped mid-way reads
 * as before and takes its next move, and the checks of a move hold. */
static void
test_migrate_from_3 (LibraryFixture *f, gconstpointer data)
{
  const KomiStoreMigration *migrations;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autofree char *version = NULL;
  g_autofree char *columns = NULL;
  g_autofree char *check = NULL;
  g_autofree char *orphans = NULL;
  KomiMove next = { KOMI_WHITE, KOMI_NO_POINT }, replayed = next, other = next;
  sqlite3 *db = NULL;
  guint n_migrations;

  g_assert_true (komi_point_from_name (9, "C7", &next.point));
  g_assert_true (komi_point_from_name (9, "D4", &replayed.point));
  g_assert_true (komi_point_from_name (9, "F6", &other.point));
  migrations = _komi_store_get_migrations (&n_migrations);
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_true (_komi_store_migrate (db, f->path, migrations, 3, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_exec (db,
    "INSERT INTO series (id, name, protocol, digest, definition, seed, subject, referee, "
    "  created, updated) VALUES (1, 'old', 1, 'd', '{}', '1', 'random', 'none', 't', 't');"
    "INSERT INTO games (id, series_id, plan_index, black_spec, white_spec, status, n_moves) "
    "  VALUES (1, 1, 0, 'random', 'random', 'running', 3), "
    "         (2, NULL, NULL, 'sgf', 'sgf', 'imported', 2);"
    "INSERT INTO moves (game_id, turn, color, point) VALUES (1, 1, 'B', 'E5'), "
    "  (1, 2, 'W', 'D4'), (1, 3, 'B', 'C3'), (2, 1, 'B', 'A1'), (2, 2, 'W', 'pass');",
    NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = test_open_store (f->path);
  version = sql_text (f->path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, G_STRINGIFY (KOMI_STORE_SCHEMA_VERSION));
  columns = sql_text (f->path, "SELECT count (*) FROM pragma_table_info ('games') "
                               "WHERE name = 'n_moves'");
  g_assert_cmpstr (columns, ==, "0");
  check = sql_text (f->path, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");
  orphans = sql_text (f->path, "SELECT count (*) FROM pragma_foreign_key_check");
  g_assert_cmpstr (orphans, ==, "0");

  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (games->len, ==, 2);
  g_assert_cmpuint (((KomiStoreGame *) games->pdata[0])->n_moves, ==, 3);
  g_assert_cmpuint (((KomiStoreGame *) games->pdata[1])->n_moves, ==, 2);

  /* The next turn is taken; a gap, or another move at a recorded turn,
   * is refused, and the recorded one replayed is accepted. */
  g_assert_true (komi_store_add_move (store, 1, 4, &next, &error));
  g_assert_no_error (error);
  g_assert_false (komi_store_add_move (store, 1, 6, &next, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_clear_error (&error);
  g_assert_false (komi_store_add_move (store, 1, 2, &other, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_clear_error (&error);
  g_assert_true (komi_store_add_move (store, 1, 2, &replayed, &error));
  g_assert_no_error (error);
  /* An imported game is not played on. */
  g_assert_false (komi_store_add_move (store, 2, 3, &next, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_clear_error (&error);

  game = komi_store_load_game (store, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (game->n_moves, ==, 4);
  g_assert_cmpuint (game->moves->len, ==, 4);
  g_assert_cmpint (g_array_index (game->moves, KomiMove, 3).point, ==, next.point);
}

/* Schema 5 adds the engine review's tables and touches nothing else: a
 * library of schema 4 keeps its series, games, moves, calls and events,
 * reads as before, and takes an analysis of its old games. */
static void
test_migrate_from_4 (LibraryFixture *f, gconstpointer data)
{
  const KomiStoreMigration *migrations;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(KomiStoreAnalysis) analysis = komi_store_analysis_new ();
  g_autoptr(KomiStoreAnalysis) read = NULL;
  g_autofree char *version = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *check = NULL;
  g_autofree char *orphans = NULL;
  sqlite3 *db = NULL;
  guint n_migrations;

  migrations = _komi_store_get_migrations (&n_migrations);
  g_assert_cmpuint (n_migrations, ==, KOMI_STORE_SCHEMA_VERSION);
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_true (_komi_store_migrate (db, f->path, migrations, 4, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_exec (db,
    "INSERT INTO series (id, name, protocol, digest, definition, seed, subject, referee, "
    "  created, updated) VALUES (1, 'old', 1, 'd', '{}', '1', 'random', 'none', 't', 't');"
    "INSERT INTO games (id, series_id, plan_index, black_spec, white_spec, status, result, "
    "  black_name, white_name) VALUES "
    "  (1, 1, 0, 'random', 'gnugo:1', 'finished', 'W+12', 'Random 1', 'GNU Go 3.8');"
    "INSERT INTO moves (game_id, turn, color, point) VALUES (1, 1, 'B', 'E5'), "
    "  (1, 2, 'W', 'D4'), (1, 3, 'B', 'pass'), (1, 4, 'W', 'pass');"
    "INSERT INTO calls (game_id, turn, question, attempt, started, outcome) "
    "  VALUES (1, 1, 'play_or_pass', 1, 't', 'ok');"
    "INSERT INTO events (game_id, kind, detail) VALUES (1, 'note', 'kept');",
    NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = test_open_store (f->path);
  version = sql_text (f->path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, G_STRINGIFY (KOMI_STORE_SCHEMA_VERSION));
  kept = sql_text (f->path, "SELECT (SELECT count (*) FROM series) || ' ' || "
                            "(SELECT count (*) FROM games) || ' ' || "
                            "(SELECT count (*) FROM moves) || ' ' || "
                            "(SELECT count (*) FROM calls) || ' ' || "
                            "(SELECT detail FROM events WHERE kind = 'note')");
  g_assert_cmpstr (kept, ==, "1 1 4 1 kept");
  check = sql_text (f->path, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");
  orphans = sql_text (f->path, "SELECT count (*) FROM pragma_foreign_key_check");
  g_assert_cmpstr (orphans, ==, "0");

  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (games->len, ==, 1);
  game = komi_store_load_game (store, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (game->moves->len, ==, 4);
  g_assert_cmpstr (game->result, ==, "W+12");
  g_assert_cmpstr (game->white_name, ==, "GNU Go 3.8");

  /* An old game has no analysis until one is made. */
  read = komi_store_load_analysis (store, 1, &error);
  g_assert_no_error (error);
  g_assert_null (read);
  analysis->game_id = 1;
  analysis->engine = g_strdup ("GNU Go");
  analysis->label = g_strdup ("GNU Go estimate");
  for (guint i = 0; i < game->moves->len; i++)
    {
      const KomiMove *m = &g_array_index (game->moves, KomiMove, i);
      KomiStoreAnalysisMove am = { i + 1, m->color, m->point, 0, 0, 0, KOMI_PASS };

      g_array_append_val (analysis->moves, am);
    }
  g_assert_true (komi_store_put_analysis (store, analysis, &error));
  g_assert_no_error (error);
  read = komi_store_load_analysis (store, 1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (read);
  g_assert_cmpuint (read->moves->len, ==, 4);
}

/* The sink */

static void
test_sink_round_trip (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("round trip", 42, 2);
  g_autoptr(KomiGameRecord) played = NULL;
  g_autoptr(KomiGameRecord) reloaded = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GPtrArray) all_series = NULL;
  g_autoptr(GArray) summary = NULL;
  g_autoptr(GError) error = NULL;
  KomiSeriesSink *sink = komi_store_new_sink (store);
  gint64 id = 0, again = 0, game_id = 0;
  gboolean finished = FALSE;

  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &id, &error));
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  /* The same series run again is the same series. */
  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &again,
                                            &error));
  g_assert_cmpint (again, ==, id);

  played = sink_play_game (sink, test_planned (series, 0), 0);
  g_assert_nonnull (played);
  g_assert_true (sink->klass->game_state (sink, test_planned (series, 0), &finished, NULL,
                                          &error));
  g_assert_true (finished);

  g_assert_true (komi_store_find_game (store, id, 0, &game_id, &error));
  game = komi_store_load_game (store, game_id, &error);
  g_assert_no_error (error);
  g_assert_cmpint (game->status, ==, KOMI_GAME_STATUS_FINISHED);
  g_assert_cmpstr (game->black_spec, ==, "random");
  g_assert_cmpint (game->subject, ==, KOMI_BLACK);
  g_assert_true (game->counted);
  reloaded = komi_store_game_to_record (game, &error);
  g_assert_no_error (error);
  assert_same_record (reloaded, played);

  games = komi_store_list_games (store, id, &error);
  g_assert_cmpuint (games->len, ==, 4);
  g_assert_cmpint (((KomiStoreGame *) games->pdata[0])->status, ==, KOMI_GAME_STATUS_FINISHED);
  g_assert_cmpstr (((KomiStoreGame *) games->pdata[0])->result, ==, played->result);
  for (guint i = 1; i < 4; i++)
    g_assert_cmpint (((KomiStoreGame *) games->pdata[i])->status, ==, KOMI_GAME_STATUS_PENDING);
  all_series = komi_store_list_series (store, &error);
  g_assert_cmpuint (all_series->len, ==, 1);
  g_assert_cmpuint (((KomiStoreSeries *) all_series->pdata[0])->n_finished, ==, 1);
  g_assert_cmpuint (((KomiStoreSeries *) all_series->pdata[0])->n_unfinished, ==, 3);
  summary = komi_store_summarize (store, id, &error);
  g_assert_cmpuint (summary->len, ==, 2);
  g_assert_cmpuint (g_array_index (summary, KomiStoreSummary, 0).unfinished
                    + g_array_index (summary, KomiStoreSummary, 1).unfinished, ==, 3);
  komi_store_sink_free (sink);
}

/* A game stopped mid-way gives back its committed moves; resumed, it is
 * recorded whole, and the library refuses what would rewrite it. */
static void
test_sink_resume (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("resume", 5, 1);
  g_autoptr(GArray) moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  g_autoptr(KomiGameRecord) played = NULL;
  g_autoptr(KomiGameRecord) reloaded = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *events = NULL;
  KomiSeriesSink *sink = komi_store_new_sink (store);
  const KomiPlannedGame *planned = test_planned (series, 1);
  KomiMove wrong = { KOMI_BLACK, KOMI_PASS };
  gboolean finished = TRUE;
  gint64 id, game_id;
  guint n_moves;

  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &id, &error));
  g_assert_null (sink_play_game (sink, planned, 7));
  g_assert_true (sink->klass->game_state (sink, planned, &finished, moves, &error));
  g_assert_false (finished);
  g_assert_cmpuint (moves->len, ==, 7);

  /* A gap and a different move at a recorded turn are refused. */
  g_assert_false (sink->klass->move_played (sink, planned, 9, &wrong, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_clear_error (&error);
  wrong.point = g_array_index (moves, KomiMove, 0).point == 0 ? 1 : 0;
  g_assert_false (sink->klass->move_played (sink, planned, 1, &wrong, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_clear_error (&error);
  /* The same move again (an engine replay) is accepted. */
  g_assert_true (sink->klass->move_played (sink, planned, 1, &g_array_index (moves, KomiMove, 0),
                                           &error));
  g_assert_no_error (error);

  played = sink_play_game (sink, planned, 0);
  g_assert_nonnull (played);
  g_assert_cmpmem (komi_game_get_moves (played->game, &n_moves), 7 * sizeof (KomiMove),
                   moves->data, 7 * sizeof (KomiMove));
  g_assert_true (komi_store_find_game (store, id, 1, &game_id, &error));
  game = komi_store_load_game (store, game_id, &error);
  reloaded = komi_store_game_to_record (game, &error);
  g_assert_no_error (error);
  assert_same_record (reloaded, played);
  g_assert_cmpuint (game->n_moves, ==, n_moves);
  /* The game's events (the run's own have no game). */
  events = sql_text (f->path, "SELECT group_concat (kind || ': ' || detail) FROM events "
                              "WHERE game_id IS NOT NULL");
  g_assert_cmpstr (events, ==, "resume: resumed after move 7");

  /* A finished game is never played twice, nor given one more move. */
  g_assert_false (sink->klass->game_started (sink, planned, played, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_clear_error (&error);
  g_assert_false (sink->klass->move_played (sink, planned, n_moves + 1, &wrong, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_clear_pointer (&game, komi_store_game_free);
  game = komi_store_load_game (store, game_id, &error);
  g_assert_cmpuint (game->n_moves, ==, n_moves);
  komi_store_sink_free (sink);
}

/* A void game keeps its moves, its faulty side and why, and an event. */
static void
test_sink_void (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("void", 9, 1);
  g_autoptr(KomiGameRecord) record = g_new0 (KomiGameRecord, 1);
  g_autoptr(KomiGameRecord) reloaded = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *event = NULL;
  KomiSeriesSink *sink = komi_store_new_sink (store);
  const KomiPlannedGame *planned = test_planned (series, 0);
  gint64 id, game_id;

  record->game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_assert_true (komi_game_play (record->game, 40, NULL));
  g_assert_true (komi_game_play (record->game, 41, NULL));
  record->outcome = KOMI_OUTCOME_VOID;
  record->faulty = KOMI_WHITE;
  record->void_reason = g_strdup ("White (GNU Go 3.8): the engine died twice");
  record->result = g_strdup ("Void");
  record->dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  record->black_name = g_strdup ("Random 1");
  record->white_name = g_strdup ("GNU Go 3.8");
  record->seed = planned->seed;
  record->date = g_strdup ("2026-02-02");
  record->score.komi = 7;

  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &id, &error));
  g_assert_true (sink->klass->game_started (sink, planned, record, &error));
  g_assert_true (sink->klass->game_finished (sink, planned, record, &error));
  g_assert_no_error (error);
  g_assert_true (komi_store_find_game (store, id, 0, &game_id, &error));
  game = komi_store_load_game (store, game_id, &error);
  g_assert_cmpint (game->status, ==, KOMI_GAME_STATUS_VOID);
  g_assert_false (game->counted);
  g_assert_false (game->has_winner);
  g_assert_true (isnan (game->margin));
  reloaded = komi_store_game_to_record (game, &error);
  g_assert_no_error (error);
  assert_same_record (reloaded, record);
  event = sql_text (f->path, "SELECT kind || ': ' || detail FROM events "
                             "WHERE game_id IS NOT NULL");
  g_assert_cmpstr (event, ==, "void: White (GNU Go 3.8): the engine died twice");
  /* Players are distinct by spec, name and version. */
  g_free (event);
  event = sql_text (f->path, "SELECT group_concat (kind || '/' || name || '/' || version, ' ') "
                             "FROM players");
  g_assert_cmpstr (event, ==, "random/Random/1 random/GNU Go/3.8");
  komi_store_sink_free (sink);
}

/* Threads */

typedef struct
{
  KomiSeriesSink        *sink;
  const KomiPlannedGame *planned;
  guint                  n_moves;
} WriterData;

static gpointer
write_moves (gpointer user_data)
{
  WriterData *w = user_data;
  g_autoptr(KomiGame) game = komi_game_new (9, 0);
  g_autoptr(GError) error = NULL;
  KomiPoint buf[KOMI_MAX_POINTS];
  KomiRng rng;

  komi_rng_init (&rng, w->planned->seed);
  for (guint turn = 1; turn <= w->n_moves && !komi_game_is_over (game); turn++)
    {
      KomiMove move = { komi_game_get_to_move (game), komi_random_choose (&rng, game, buf) };

      g_assert_true (komi_game_play (game, move.point, NULL));
      g_assert_true (w->sink->klass->move_played (w->sink, w->planned, turn, &move, &error));
      g_assert_no_error (error);
    }
  return GUINT_TO_POINTER (komi_game_get_turns_played (game));
}

static void
test_concurrent_writers (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("threads", 3, 3);
  g_autoptr(GError) error = NULL;
  KomiSeriesSink *sink = komi_store_new_sink (store);
  GThread *threads[6];
  WriterData writers[6];
  gint64 id;

  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &id, &error));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      writers[i] = (WriterData) { sink, test_planned (series, i), 60 };
      threads[i] = g_thread_new ("writer", write_moves, &writers[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      guint written = GPOINTER_TO_UINT (g_thread_join (threads[i]));
      g_autoptr(GArray) moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
      gboolean finished;

      g_assert_true (sink->klass->game_state (sink, test_planned (series, i), &finished, moves,
                                              &error));
      g_assert_no_error (error);
      g_assert_cmpuint (moves->len, ==, written);
      g_assert_cmpuint (written, >, 10);
    }
  komi_store_sink_free (sink);
}

/* A reader on its own connection sees each move once it is committed,
 * while the writer stays open; it cannot write. */
static void
test_reader_sees_commits (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) writer = test_open_store (f->path);
  g_autoptr(KomiStore) reader = NULL;
  g_autoptr(TestSeries) series = test_series_new ("reader", 11, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) games = NULL;
  gint64 id, game_id;

  g_assert_true (komi_store_begin_series (writer, &series->series, series->plan, &id, &error));
  g_assert_true (komi_store_find_game (writer, id, 0, &game_id, &error));
  reader = komi_store_open_reader (f->path, &error);
  g_assert_no_error (error);
  g_assert_false (komi_store_is_writer (reader));
  for (guint turn = 1; turn <= 5; turn++)
    {
      g_autoptr(GArray) moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
      KomiMove move = { turn % 2 == 1 ? KOMI_BLACK : KOMI_WHITE, (KomiPoint) (turn * 3) };
      KomiGameStatus status;

      g_assert_true (komi_store_add_move (writer, game_id, turn, &move, &error));
      g_assert_true (komi_store_get_game_state (reader, game_id, &status, moves, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (moves->len, ==, turn);
      g_assert_cmpint (g_array_index (moves, KomiMove, turn - 1).point, ==, move.point);
    }
  games = komi_store_list_games (reader, KOMI_STORE_ALL_GAMES, &error);
  g_assert_cmpuint (((KomiStoreGame *) games->pdata[0])->n_moves, ==, 5);
  g_assert_false (komi_store_add_event (reader, game_id, "note", "x", &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_WRITE);
}

/* The bulk path a benchmark uses, and listing and loading at scale:
 * KOMI_STORE_BENCH_GAMES=10000 gives the figures of the issue. */
static void
test_bulk (LibraryFixture *f, gconstpointer data)
{
  const char *env = g_getenv ("KOMI_STORE_BENCH_GAMES");
  guint n_games = env != NULL ? (guint) atoi (env) : 200;
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("bulk", 1, MAX (n_games / 2, 1));
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                 komi_game_record_free);
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(GError) error = NULL;
  gint64 id, t0, t1, t2, t3;

  g_assert_true (komi_store_begin_series (store, &series->series, series->plan, &id, &error));
  for (guint i = 0; i < series->plan->len; i++)
    g_ptr_array_add (records, test_random_record (test_planned (series, i)));
  t0 = g_get_monotonic_time ();
  g_assert_true (komi_store_add_records (store, id, series->plan, records, &error));
  g_assert_no_error (error);
  t1 = g_get_monotonic_time ();
  games = komi_store_list_games (store, id, &error);
  t2 = g_get_monotonic_time ();
  g_assert_cmpuint (games->len, ==, records->len);
  game = komi_store_load_game (store, ((KomiStoreGame *) games->pdata[games->len / 2])->id,
                               &error);
  t3 = g_get_monotonic_time ();
  g_assert_no_error (error);
  g_assert_cmpuint (game->moves->len, >, 0);
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = games->pdata[i];
      const KomiGameRecord *r = records->pdata[i];

      g_assert_cmpint (g->status, ==, KOMI_GAME_STATUS_FINISHED);
      g_assert_cmpstr (g->result, ==, r->result);
      g_assert_cmpuint (g->n_moves, ==, komi_game_get_turns_played (r->game));
    }
  g_test_message ("%u games: stored in %.0f ms, listed in %.1f ms, one loaded in %.2f ms",
                  games->len, (t1 - t0) / 1e3, (t2 - t1) / 1e3, (t3 - t2) / 1e3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  TEST ("migrate/empty-file", test_migrate_empty);
  TEST ("migrate/in-order", test_migrate_in_order);
  TEST ("migrate/refuse-newer", test_refuse_newer);
  TEST ("migrate/refuse-foreign", test_refuse_foreign);
  TEST ("migrate/from-3", test_migrate_from_3);
  TEST ("migrate/from-4", test_migrate_from_4);
  TEST ("sink/round-trip", test_sink_round_trip);
  TEST ("sink/resume", test_sink_resume);
  TEST ("sink/void", test_sink_void);
  TEST ("concurrent-writers", test_concurrent_writers);
  TEST ("reader-sees-commits", test_reader_sees_commits);
  TEST ("bulk", test_bulk);
  return g_test_run ();
}
