/* komi-app-run-test-util.h: series run from a window in the tests.
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>
#include <sqlite3.h>

#include "komi-app-test-util.h"
#include "komi-window.h"

typedef AppWindowFixture RunFixture;

static inline void
run_fixture_set_up (RunFixture *f, gconstpointer data)
{
  app_window_fixture_open (f, "komi-app-run-XXXXXX");
}

static inline void
run_fixture_tear_down (RunFixture *f, gconstpointer data)
{
  app_window_fixture_close (f);
}

/* Random against random, @pairs pairs, two games at once. */
static inline char *
write_series_against (RunFixture *f, const char *name, const char *opponent, guint pairs,
                      guint jobs)
{
  g_autofree char *text = g_strdup_printf ("{\"name\": \"%s\", \"protocol\": 1, "
                                           "\"subject\": \"random\", \"opponents\": "
                                           "[\"%s\"], \"pairs\": %u, \"seed\": 9, "
                                           "\"referee\": \"none\", \"jobs\": %u}",
                                           name, opponent, pairs, jobs);
  char *path = g_build_filename (f->dir, "series.json", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static inline char *
write_series (RunFixture *f, const char *name, guint pairs)
{
  return write_series_against (f, name, "random", pairs, 2);
}

static inline gboolean
library_settled (gpointer window)
{
  return komi_library_get_state (komi_window_get_library (window)) != KOMI_LIBRARY_STATE_LOADING;
}

static inline gboolean
library_ready (gpointer window)
{
  return komi_library_get_state (komi_window_get_library (window)) == KOMI_LIBRARY_STATE_READY;
}

/* A count, through a read-only connection of the test's own that waits
 * for the series' writer; 0 before the library has its tables. */
static inline guint
sql_count (RunFixture *f, const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint n = 0;

  if (sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      sqlite3_close (db);
      return 0;
    }
  sqlite3_busy_timeout (db, 10000);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      /* Only a library not yet created may lack the table. */
      g_assert_nonnull (strstr (sqlite3_errmsg (db), "no such table"));
      sqlite3_close (db);
      return 0;
    }
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = (guint) sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

static inline guint
count_games (RunFixture *f, const char *where)
{
  g_autofree char *sql = g_strdup_printf ("SELECT COUNT(*) FROM games WHERE %s", where);

  return sql_count (f, sql);
}

static inline guint
count_moves (RunFixture *f)
{
  return sql_count (f, "SELECT COUNT(*) FROM moves");
}

/* A widget of the window's template. */
static inline GtkWidget *
window_child (RunFixture *f, const char *name)
{
  return app_test_child (f->window, KOMI_TYPE_WINDOW, name);
}
