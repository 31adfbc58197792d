/* test-foreign.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "komi-store-private.h"
#include "komi-store-test-util.h"
#include "komi-test-cli.h"

/* Libraries from elsewhere are untrusted input (komi-store-foreign.c):
 * merge opens its sources read-only with SQLite's defences and refuses,
 * before reading or running anything, a file whose schema is not exactly
 * Komi's: a planted trigger or view, a changed table, a damaged file. A
 * planted trigger would write a marker row into the source, and a view
 * stands in for the players table; neither may run, and neither file may
 * change. */

typedef struct
{
  char *dir;
  char *source;   /* an honest library of 2 ended games */
  char *dest;
} Fixture;

static const char series_json[] =
  "{\"name\": \"foreign\", \"protocol\": 1, \"subject\": \"random\","
  " \"opponents\": [{\"player\": \"random\", \"pairs\": 1}],"
  " \"seed\": 3, \"referee\": \"none\", \"jobs\": 1}";

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autofree char *series = NULL;
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("komi-foreign-XXXXXX", &error);
  g_assert_no_error (error);
  series = g_build_filename (f->dir, "series.json", NULL);
  g_assert_true (g_file_set_contents (series, series_json, -1, &error));
  f->source = g_build_filename (f->dir, "theirs.db", NULL);
  f->dest = g_build_filename (f->dir, "ours.db", NULL);
  test_cli_run_ok (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                   "run", series, "--db", f->source, NULL);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  remove_test_dir (f->dir);
  g_free (f->dir);
  g_free (f->source);
  g_free (f->dest);
}

/* Runs @sql on @path as a stranger's sqlite3 would (no defences). */
static void
plant (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("planting %s: %s", sql, message);
  sqlite3_close (db);
}

static char *
file_digest (const char *path)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, len);
}

static void
test_honest_merges (Fixture *f, gconstpointer data)
{
  g_auto(KomiCliRun) run = { 0, };

  run.status = run_komi_cli (&run.out, &run.err, "merge", "--db", f->dest, f->source, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpint (test_sql_count (f->dest, "SELECT count(*) FROM games"), ==, 2);
}

/* The trigger would fire on any write to the source's games (an older
 * Komi upgraded an older source in place, and so ran it); the view
 * stands in for the players table merge copies from. */
static void
test_trigger_and_view_refused (Fixture *f, gconstpointer data)
{
  g_auto(KomiCliRun) run = { 0, };
  g_autofree char *before = NULL, *after = NULL;

  /* Made to look like a schema-5 library with an attempt in it, so that
   * upgrading it in place (what merge did before) updates calls. */
  plant (f->source,
         "ALTER TABLE calls DROP COLUMN decided;"
         "INSERT INTO calls (game_id, turn, question, attempt, started, outcome)"
         "  VALUES (1, 1, 'play_or_pass', 1, '2026-01-01T00:00:00Z', 'answer');"
         "CREATE TABLE marker (what TEXT);"
         "CREATE TRIGGER planted AFTER UPDATE ON calls BEGIN"
         "  INSERT INTO marker VALUES ('trigger ran'); END;"
         "CREATE TRIGGER planted_games AFTER INSERT ON games BEGIN"
         "  INSERT INTO marker VALUES ('trigger ran'); END;"
         "ALTER TABLE players RENAME TO real_players;"
         "CREATE VIEW players AS SELECT * FROM real_players;"
         "PRAGMA user_version = 5;");
  before = file_digest (f->source);

  run.status = run_komi_cli (&run.out, &run.err, "merge", "--db", f->dest, f->source, NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_nonnull (strstr (run.err, "is not a library as Komi writes it"));
  g_assert_nonnull (strstr (run.err, "a trigger “planted” (extra)"));
  g_assert_nonnull (strstr (run.err, "a view “players”"));
  g_assert_nonnull (strstr (run.err, "Nothing was read or run"));
  /* Nothing ran and nothing was written, in either file. */
  after = file_digest (f->source);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpint (test_sql_count (f->source, "SELECT count(*) FROM marker"), ==, 0);
  g_assert_false (g_file_test (f->dest, G_FILE_TEST_EXISTS));
}

/* A table changed, an index added (on an expression), a damaged file, another program's database: each refused by the
 * library call itself, saying what is wrong. */
static void
test_other_files_refused (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *damaged = g_build_filename (f->dir, "damaged.db", NULL);
  gsize len = 0;

  /* Honest: opened, at the current schema. */
  store = komi_store_open_foreign (f->source, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (komi_store_get_schema_version (store), ==, KOMI_STORE_SCHEMA_VERSION);
  g_clear_pointer (&store, komi_store_unref);

  /* Damaged: the header of every page after the first overwritten. */
  g_assert_true (g_file_get_contents (f->source, &contents, &len, NULL));
  g_assert_cmpuint (len, >, 8192);
  for (gsize page = 4096; page + 4096 <= len; page += 4096)
    memset (contents + page, 0x5a, 12);
  g_assert_true (g_file_set_contents (damaged, contents, (gssize) len, NULL));
  store = komi_store_open_foreign (damaged, &error);
  g_assert_null (store);
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY);
  g_clear_error (&error);

  plant (f->source, "ALTER TABLE events ADD COLUMN extra TEXT;"
                    "CREATE INDEX planted ON games (abs (seed));");
  store = komi_store_open_foreign (f->source, &error);
  g_assert_null (store);
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY);
  g_assert_nonnull (strstr (error->message, "a table “events” (changed)"));
  g_assert_nonnull (strstr (error->message, "an index “planted” (extra)"));
  g_clear_error (&error);

  plant (f->source, "PRAGMA application_id = 7;");
  store = komi_store_open_foreign (f->source, &error);
  g_assert_null (store);
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY);
  g_assert_nonnull (strstr (error->message, "another program"));
}

/* A library of schema 5, as an older Komi wrote it: opened as it is (its
 * schema is exactly the migrations' at 5), merged by its columns, and
 * never upgraded in place. */
static void
test_older_schema_merged_as_is (Fixture *f, gconstpointer data)
{
  g_autofree char *old = g_build_filename (f->dir, "old.db", NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_auto(KomiCliRun) run = { 0, };
  const KomiStoreMigration *migrations;
  guint n_migrations;
  sqlite3 *db = NULL;

  migrations = _komi_store_get_migrations (&n_migrations);
  g_assert_cmpint (sqlite3_open (old, &db), ==, SQLITE_OK);
  g_assert_true (_komi_store_migrate (db, old, migrations, 5, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_exec (db,
    "INSERT INTO series (id, name, protocol, digest, definition, seed, subject, referee, "
    "  created, updated) VALUES (1, 'old', 1, 'd5', '{\"name\": \"old\"}', '1', 'random', "
    "  'none', 't', 't');"
    "INSERT INTO games (id, series_id, plan_index, black_spec, white_spec, status, "
    "  end_reason) VALUES (1, 1, 0, 'random', 'random', 'finished', 'two-passes');"
    "INSERT INTO moves (game_id, turn, color, point) VALUES (1, 1, 'B', 'E5'), "
    "  (1, 2, 'W', 'pass'), (1, 3, 'B', 'pass');", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  before = file_digest (old);

  store = komi_store_open_foreign (old, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (komi_store_get_schema_version (store), ==, 5);
  g_clear_pointer (&store, komi_store_unref);

  run.status = run_komi_cli (&run.out, &run.err, "merge", "--db", f->dest, old, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpint (test_sql_count (f->dest, "SELECT count(*) FROM moves"), ==, 3);
  after = file_digest (old);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpint (test_sql_count (old, "PRAGMA user_version"), ==, 5);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/komi/foreign/honest-merges", Fixture, NULL, fixture_set_up,
              test_honest_merges, fixture_tear_down);
  g_test_add ("/komi/foreign/trigger-and-view-refused", Fixture, NULL, fixture_set_up,
              test_trigger_and_view_refused, fixture_tear_down);
  g_test_add ("/komi/foreign/other-files-refused", Fixture, NULL, fixture_set_up,
              test_other_files_refused, fixture_tear_down);
  g_test_add ("/komi/foreign/older-schema-merged-as-is", Fixture, NULL, fixture_set_up,
              test_older_schema_merged_as_is, fixture_tear_down);
  return g_test_run ();
}
