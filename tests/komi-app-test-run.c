/* komi-app-test-run.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-app-test-run.h"

void
run_fixture_set_up (RunFixture *f, gconstpointer data)
{
  app_window_fixture_open (f, "komi-app-run-XXXXXX");
}

void
run_fixture_tear_down (RunFixture *f, gconstpointer data)
{
  app_window_fixture_close (f);
}

char *
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

char *
write_series (RunFixture *f, const char *name, guint pairs)
{
  return write_series_against (f, name, "random", pairs, 2);
}

gboolean
library_settled (gpointer window)
{
  return komi_library_get_state (komi_window_get_library (window)) != KOMI_LIBRARY_STATE_LOADING;
}

gboolean
library_ready (gpointer window)
{
  return komi_library_get_state (komi_window_get_library (window)) == KOMI_LIBRARY_STATE_READY;
}

guint
sql_count (RunFixture *f, const char *sql)
{
  return test_sql_count (f->path, sql);
}

guint
count_games (RunFixture *f, const char *where)
{
  g_autofree char *sql = g_strdup_printf ("SELECT COUNT(*) FROM games WHERE %s", where);

  return sql_count (f, sql);
}

guint
count_moves (RunFixture *f)
{
  return sql_count (f, "SELECT COUNT(*) FROM moves");
}

GtkWidget *
window_child (RunFixture *f, const char *name)
{
  return app_test_child (f->window, KOMI_TYPE_WINDOW, name);
}
