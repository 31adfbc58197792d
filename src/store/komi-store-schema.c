/* komi-store-schema.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include "komi-store-private.h"

/* The schema of the library, as a list of migrations from the first
 * release on. A migration is never edited once released: a change is a new
 * entry at the end, and KOMI_STORE_SCHEMA_VERSION follows it. The version
 * is PRAGMA user_version; each migration runs in a transaction of its own
 * together with the new version number, so a crash leaves the file at one
 * version or the next, never between. (A migration that rebuilds a table
 * must turn foreign_keys off around its transaction, as SQLite's ALTER
 * TABLE documentation describes.)
 *
 * Conventions: STRICT tables; times are ISO 8601 text in UTC; 64-bit
 * seeds are decimal text (SQLite integers are signed); colours are 'B' and
 * 'W'; points are protocol names ("E5", "pass"); settings are JSON text. */

static const char schema_1[] =
  "CREATE TABLE meta (\n"
  "  key    TEXT PRIMARY KEY,\n"
  "  value  TEXT NOT NULL\n"
  ") STRICT;\n"
  "INSERT INTO meta (key, value) VALUES\n"
  "  ('application', 'Komi'),\n"
  "  ('created_by', 'Komi " PACKAGE_VERSION "'),\n"
  "  ('created', " KOMI_STORE_NOW ");\n"
  "\n"
  "CREATE TABLE series (\n"
  "  id          INTEGER PRIMARY KEY,\n"
  "  name        TEXT NOT NULL,\n"
  "  protocol    INTEGER NOT NULL CHECK (protocol >= 1),\n"
  "  digest      TEXT NOT NULL UNIQUE,\n"
  "  definition  TEXT NOT NULL,\n"
  "  seed        TEXT NOT NULL,\n"
  "  subject     TEXT NOT NULL,\n"
  "  referee     TEXT NOT NULL,\n"
  "  created     TEXT NOT NULL,\n"
  "  updated     TEXT NOT NULL\n"
  ") STRICT;\n"
  "\n"
  "CREATE TABLE players (\n"
  "  id       INTEGER PRIMARY KEY,\n"
  "  spec     TEXT NOT NULL,\n"
  "  kind     TEXT NOT NULL,\n"
  "  name     TEXT NOT NULL,\n"
  "  version  TEXT NOT NULL DEFAULT '',\n"
  "  UNIQUE (spec, name, version)\n"
  ") STRICT;\n"
  "\n"
  "CREATE TABLE games (\n"
  "  id               INTEGER PRIMARY KEY,\n"
  "  series_id        INTEGER REFERENCES series (id) ON DELETE CASCADE,\n"
  "  plan_index       INTEGER CHECK (plan_index >= 0),\n"
  "  opponent         INTEGER,\n"
  "  pair             INTEGER,\n"
  "  game_in_pair     INTEGER CHECK (game_in_pair IN (0, 1)),\n"
  "  subject_color    TEXT CHECK (subject_color IN ('B', 'W')),\n"
  "  black_spec       TEXT NOT NULL,\n"
  "  white_spec       TEXT NOT NULL,\n"
  "  black_player     INTEGER REFERENCES players (id),\n"
  "  white_player     INTEGER REFERENCES players (id),\n"
  "  black_name       TEXT,\n"
  "  white_name       TEXT,\n"
  "  black_settings   TEXT,\n"
  "  white_settings   TEXT,\n"
  "  seed             TEXT,\n"
  "  black_seed       TEXT,\n"
  "  white_seed       TEXT,\n"
  "  orientation      TEXT NOT NULL DEFAULT 'identity',\n"
  "  size             INTEGER NOT NULL DEFAULT 9 CHECK (size BETWEEN 5 AND 19),\n"
  "  komi             REAL NOT NULL DEFAULT 7,\n"
  "  max_turns        INTEGER NOT NULL DEFAULT 120,\n"
  "  setup            TEXT,\n"
  "  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN\n"
  "                     ('pending', 'running', 'finished', 'void', 'forfeit', 'imported')),\n"
  "  end_reason       TEXT CHECK (end_reason IN ('none', 'two-passes', 'turn-limit')),\n"
  "  result           TEXT,\n"
  "  winner           TEXT CHECK (winner IN ('B', 'W', 'draw')),\n"
  "  margin           REAL,\n"
  "  black_stones     INTEGER,\n"
  "  white_stones     INTEGER,\n"
  "  black_territory  INTEGER,\n"
  "  white_territory  INTEGER,\n"
  "  dame             INTEGER,\n"
  "  black_dead       INTEGER,\n"
  "  white_dead       INTEGER,\n"
  "  black_total      REAL,\n"
  "  white_total      REAL,\n"
  "  dead             TEXT,\n"
  "  referee          TEXT,\n"
  "  void_reason      TEXT,\n"
  "  faulty           TEXT CHECK (faulty IN ('B', 'W')),\n"
  "  n_moves          INTEGER NOT NULL DEFAULT 0,\n"
  "  date             TEXT,\n"
  "  started          TEXT,\n"
  "  finished         TEXT,\n"
  "  seconds          REAL,\n"
  "  event            TEXT,\n"
  "  ruleset          TEXT,\n"
  "  source           TEXT,\n"
  "  source_digest    TEXT,\n"
  "  source_index     INTEGER,\n"
  "  UNIQUE (series_id, plan_index),\n"
  "  UNIQUE (source_digest, source_index),\n"
  "  CHECK ((series_id IS NULL) = (status = 'imported'))\n"
  ") STRICT;\n"
  "CREATE INDEX games_status ON games (status);\n"
  "CREATE INDEX games_black_player ON games (black_player);\n"
  "CREATE INDEX games_white_player ON games (white_player);\n"
  "\n"
  "CREATE TABLE moves (\n"
  "  game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,\n"
  "  turn       INTEGER NOT NULL CHECK (turn >= 1),\n"
  "  color      TEXT NOT NULL CHECK (color IN ('B', 'W')),\n"
  "  point      TEXT NOT NULL,\n"
  "  committed  TEXT NOT NULL DEFAULT (" KOMI_STORE_NOW "),\n"
  "  PRIMARY KEY (game_id, turn)\n"
  ") STRICT, WITHOUT ROWID;\n"
  "\n"
  "CREATE TABLE calls (\n"
  "  id                INTEGER PRIMARY KEY,\n"
  "  game_id           INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,\n"
  "  turn              INTEGER NOT NULL CHECK (turn >= 1),\n"
  "  question          TEXT NOT NULL,\n"
  "  attempt           INTEGER NOT NULL CHECK (attempt >= 1),\n"
  "  started           TEXT NOT NULL,\n"
  "  request_url       TEXT,\n"
  "  request_headers   TEXT,\n"
  "  request_body      TEXT,\n"
  "  response_status   INTEGER,\n"
  "  response_headers  TEXT,\n"
  "  response_body     BLOB,\n"
  "  latency_ms        REAL,\n"
  "  tokens_input      INTEGER,\n"
  "  tokens_output     INTEGER,\n"
  "  tokens_reasoning  INTEGER,\n"
  "  tokens_cached     INTEGER,\n"
  "  model_version     TEXT,\n"
  "  finish_reason     TEXT,\n"
  "  answer            TEXT,\n"
  "  outcome           TEXT NOT NULL,\n"
  "  error             TEXT,\n"
  "  UNIQUE (game_id, turn, question, attempt)\n"
  ") STRICT;\n"
  "\n"
  "CREATE TABLE events (\n"
  "  id       INTEGER PRIMARY KEY,\n"
  "  game_id  INTEGER REFERENCES games (id) ON DELETE CASCADE,\n"
  "  time     TEXT NOT NULL DEFAULT (" KOMI_STORE_NOW "),\n"
  "  kind     TEXT NOT NULL,\n"
  "  detail   TEXT NOT NULL DEFAULT ''\n"
  ") STRICT;\n"
  "CREATE INDEX events_game ON events (game_id);\n";

/* What the model API said beyond schema 1, per attempt. Rows of schema 1
 * keep NULL in them: not known, never "no". */
static const char schema_2[] =
  "ALTER TABLE calls ADD COLUMN system_fingerprint TEXT;\n"
  "ALTER TABLE calls ADD COLUMN response_id TEXT;\n"
  "ALTER TABLE calls ADD COLUMN model_mismatch INTEGER CHECK (model_mismatch IN (0, 1));\n"
  "ALTER TABLE calls ADD COLUMN logprobs_requested INTEGER\n"
  "  CHECK (logprobs_requested IN (0, 1));\n"
  "ALTER TABLE calls ADD COLUMN option_probabilities TEXT;\n"
  "ALTER TABLE calls ADD COLUMN retry_delay REAL CHECK (retry_delay >= 0);\n";

/* Each attempt's cost at the prices of the profile it was made with. */
static const char schema_3[] =
  "ALTER TABLE calls ADD COLUMN cost_usd REAL CHECK (cost_usd >= 0);\n";

/* A game's number of moves is its last turn in the moves table (turns
 * are dense from 1). games.n_moves duplicated it, and keeping it current
 * made every move's commit write the game's page as well as the move's; a
 * column left unwritten would read wrong, so it goes.
 * (ALTER TABLE DROP COLUMN needs SQLite 3.35; our floor is 3.40.) */
static const char schema_4[] =
  "ALTER TABLE games DROP COLUMN n_moves;\n";

/* Engine review: one analysis per game (who analysed, with what settings
 * and thresholds) and one row per move. Analysing again replaces both;
 * deleting a game deletes its analysis. */
static const char schema_5[] =
  "CREATE TABLE analysis (\n"
  "  game_id         INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,\n"
  "  engine          TEXT NOT NULL,\n"
  "  engine_version  TEXT NOT NULL DEFAULT '',\n"
  "  label           TEXT NOT NULL,\n"
  "  settings        TEXT NOT NULL DEFAULT '{}',\n"
  "  mistake         REAL NOT NULL CHECK (mistake > 0),\n"
  "  blunder         REAL NOT NULL CHECK (blunder >= mistake),\n"
  "  created         TEXT NOT NULL DEFAULT (" KOMI_STORE_NOW "),\n"
  "  seconds         REAL\n"
  ") STRICT;\n"
  "\n"
  "CREATE TABLE analysis_moves (\n"
  "  game_id      INTEGER NOT NULL REFERENCES analysis (game_id) ON DELETE CASCADE,\n"
  "  turn         INTEGER NOT NULL CHECK (turn >= 1),\n"
  "  color        TEXT NOT NULL CHECK (color IN ('B', 'W')),\n"
  "  point        TEXT NOT NULL,\n"
  "  lead_before  REAL,\n"
  "  lead_after   REAL,\n"
  "  loss         REAL,\n"
  "  best         TEXT,\n"
  "  PRIMARY KEY (game_id, turn)\n"
  ") STRICT, WITHOUT ROWID;\n";

/* Whether each attempt's answer decided its move: 1 for the one accepted
 * answer of each question of a turn whose move was played (best_point only
 * when the move is not a pass), 0 for every other attempt of a turn that
 * is over, NULL while its turn is still being decided. The libraries
 * before it were written by a Komi that, resuming a turn, asked it again
 * from its first question, and played the answers of that last asking: so
 * the last accepted answer of each question decided the move, and earlier
 * ones (paid for, then thrown away) decided nothing. Rows of turns still
 * open (games pending or running, no move yet) stay NULL. */
static const char schema_6[] =
  "ALTER TABLE calls ADD COLUMN decided INTEGER CHECK (decided IN (0, 1));\n"
  "UPDATE calls SET decided = (\n"
  "    outcome IN ('answer', 'ok') AND answer IS NOT NULL\n"
  "    AND EXISTS (SELECT 1 FROM moves m WHERE m.game_id = calls.game_id\n"
  "                AND m.turn = calls.turn\n"
  "                AND (calls.question <> 'best_point' OR m.point <> 'pass'))\n"
  "    AND id = (SELECT max (c.id) FROM calls c WHERE c.game_id = calls.game_id\n"
  "              AND c.turn = calls.turn AND c.question = calls.question\n"
  "              AND c.outcome IN ('answer', 'ok') AND c.answer IS NOT NULL))\n"
  "  WHERE EXISTS (SELECT 1 FROM moves m WHERE m.game_id = calls.game_id\n"
  "                AND m.turn = calls.turn)\n"
  "     OR game_id IN (SELECT id FROM games\n"
  "                    WHERE status NOT IN ('pending', 'running'));\n";

static const KomiStoreMigration migrations[] = {
  { 1, schema_1 },
  { 2, schema_2 },
  { 3, schema_3 },
  { 4, schema_4 },
  { 5, schema_5 },
  { 6, schema_6 },
};

G_STATIC_ASSERT (KOMI_STORE_SCHEMA_VERSION == 6);

const KomiStoreMigration *
_komi_store_get_migrations (guint *n_migrations)
{
  *n_migrations = G_N_ELEMENTS (migrations);
  return migrations;
}

static gboolean
query_int (sqlite3 *db, const char *sql, gint64 *value)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    *value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return rc == SQLITE_ROW;
}

static void
set_sqlite_error (sqlite3 *db, GError **error, const char *path, const char *what)
{
  int rc = sqlite3_errcode (db) & 0xff;

  if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
    g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                 _("%s is not a Komi library (%s): choose another file with --db"),
                 path, sqlite3_errmsg (db));
  else if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
    g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_BUSY,
                 /* Translators: the library's file, what failed, SQLite's own message. */
                 _("%s: %s (%s): another program holds the library; wait for it to finish"),
                 path, what, sqlite3_errmsg (db));
  else
    g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_WRITE, "%s: %s (%s)",
                 path, what, sqlite3_errmsg (db));
}

gboolean
_komi_store_check_version (sqlite3     *db,
                           const char  *path,
                           guint        newest,
                           guint       *version,
                           GError     **error)
{
  gint64 user_version = 0, application_id = 0, n_tables = 0;

  if (!query_int (db, "PRAGMA user_version", &user_version)
      || !query_int (db, "PRAGMA application_id", &application_id)
      || !query_int (db, "SELECT count(*) FROM sqlite_schema", &n_tables))
    {
      set_sqlite_error (db, error, path, _("cannot read the schema version"));
      return FALSE;
    }
  /* A file with tables but without our mark belongs to someone else:
   * adding ours to it would mix two programs' data. */
  if ((application_id != 0 && application_id != KOMI_STORE_APPLICATION_ID)
      || (application_id == 0 && n_tables > 0))
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                   _("%s is an SQLite database of another program, not a Komi library: "
                     "choose another file with --db"), path);
      return FALSE;
    }
  if (user_version > newest)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NEWER,
                   _("%s was written by a newer Komi (schema %" PRId64 "); this one "
                     "reads up to %u. Update Komi, or choose another library with --db"),
                   path, user_version, newest);
      return FALSE;
    }
  *version = (guint) user_version;
  return TRUE;
}

static gboolean
apply_one (sqlite3                  *db,
           const char               *path,
           const KomiStoreMigration *migration,
           GError                  **error)
{
  g_autofree char *stamp = NULL;
  gint64 current = 0;
  char *message = NULL;

  if (sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    {
      set_sqlite_error (db, error, path, _("cannot start upgrading the library"));
      return FALSE;
    }
  /* Another process may have migrated while we waited for the lock. */
  if (!query_int (db, "PRAGMA user_version", &current))
    goto fail;
  if (current >= migration->version)
    return sqlite3_exec (db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;

  stamp = g_strdup_printf ("PRAGMA user_version = %u; PRAGMA application_id = %d;",
                           migration->version, KOMI_STORE_APPLICATION_ID);
  if (sqlite3_exec (db, migration->sql, NULL, NULL, &message) != SQLITE_OK
      || sqlite3_exec (db, stamp, NULL, NULL, &message) != SQLITE_OK
      || sqlite3_exec (db, "COMMIT", NULL, NULL, &message) != SQLITE_OK)
    goto fail;
  return TRUE;

fail:
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_WRITE,
               _("Cannot upgrade the library %s to schema %u (%s); it is unchanged. Check "
                 "that the disk has space and the file can be written"),
               path, migration->version, message != NULL ? message : sqlite3_errmsg (db));
  sqlite3_free (message);
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

gboolean
_komi_store_migrate (sqlite3                  *db,
                     const char               *path,
                     const KomiStoreMigration *list,
                     guint                     n_migrations,
                     GError                  **error)
{
  guint version = 0;

  g_return_val_if_fail (n_migrations > 0, FALSE);

  if (!_komi_store_check_version (db, path, list[n_migrations - 1].version, &version, error))
    return FALSE;
  for (guint i = 0; i < n_migrations; i++)
    {
      g_assert (i == 0 || list[i].version > list[i - 1].version);
      if (list[i].version > version && !apply_one (db, path, &list[i], error))
        return FALSE;
    }
  return TRUE;
}
