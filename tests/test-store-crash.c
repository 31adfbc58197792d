/* test-store-crash.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "komi-store-test-util.h"

/* kill -9 at random moments: a helper process (store-writer-helper.c)
 * writes moves through the library's sink and prints each one after its
 * commit returned; it is killed several times and resumed. After each kill
 * the file must pass integrity_check and hold every move reported; at the
 * end the library must equal the one an uninterrupted run writes. */

static const char *helper_path;

static guint
rand_between (guint lo, guint hi)
{
  return (guint) g_test_rand_int_range ((gint32) lo, (gint32) hi + 1);
}

/* Runs the helper; kills it with SIGKILL after @kill_after lines (0: lets
 * it finish). Every line read was printed after its commit returned. */
static void
run_helper (const char *path, guint kill_after, GHashTable *committed, guint *finished)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  char *line;
  guint n = 0;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, helper_path, path, "3", NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  while ((line = g_data_input_stream_read_line (lines, NULL, NULL, &error)) != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (line, " ", -1);

      if (parts[0][0] == 'M')
        g_hash_table_insert (committed, g_strdup_printf ("%s %s", parts[1], parts[2]),
                             g_strdup (parts[3]));
      else
        (*finished)++;
      g_free (line);
      if (kill_after > 0 && ++n == kill_after)
        {
          /* Somewhere in the next move's transaction, or just before it. */
          if (g_test_rand_bit ())
            g_usleep (rand_between (0, 3000));
          g_subprocess_send_signal (proc, SIGKILL);
          break;
        }
    }
  g_assert_no_error (error);
  g_subprocess_wait (proc, NULL, &error);
  g_assert_no_error (error);
  if (kill_after == 0)
    g_assert_true (g_subprocess_get_successful (proc));
}

static void
assert_committed_present (const char *path, GHashTable *committed)
{
  g_autoptr(KomiStore) store = test_open_store (path);
  g_autofree char *check = sql_text (path, "PRAGMA integrity_check");
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpstr (check, ==, "ok");
  g_hash_table_iter_init (&iter, committed);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_auto(GStrv) parts = g_strsplit (key, " ", -1);
      g_autofree char *sql = g_strdup_printf ("SELECT m.point FROM moves m JOIN games g ON "
                                              "g.id = m.game_id WHERE g.plan_index = %s "
                                              "AND m.turn = %s", parts[0], parts[1]);
      g_autofree char *point = sql_text (path, sql);

      g_assert_cmpstr (point, ==, value);
    }
}

#define ALL_MOVES \
  "SELECT group_concat (x, ' ') FROM (SELECT g.plan_index || ':' || m.turn || ':' || " \
  "m.color || m.point AS x FROM moves m JOIN games g ON g.id = m.game_id " \
  "ORDER BY g.plan_index, m.turn)"
#define ALL_RESULTS \
  "SELECT group_concat (x, ' ') FROM (SELECT plan_index || ':' || status || ':' || result " \
  "|| ':' || (SELECT count (*) FROM moves m WHERE m.game_id = games.id) || ':' " \
  "|| black_total || ':' || white_total AS x FROM games " \
  "ORDER BY plan_index)"

static void
test_crash_safety (gconstpointer data)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-crash-XXXXXX", NULL);
  g_autofree char *path = test_db_path (dir);
  g_autoptr(GHashTable) committed = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                           g_free, g_free);
  g_autoptr(GHashTable) uninterrupted = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                               g_free, g_free);
  g_autofree char *clean = g_build_filename (dir, "clean.db", NULL);
  g_autofree char *killed_moves = NULL;
  g_autofree char *clean_moves = NULL;
  g_autofree char *killed_results = NULL;
  g_autofree char *clean_results = NULL;
  guint clean_finished = 0;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GError) error = NULL;
  guint finished = 0;

  for (guint round = 0; round < 6; round++)
    {
      run_helper (path, rand_between (5, 150), committed, &finished);
      assert_committed_present (path, committed);
    }
  run_helper (path, 0, committed, &finished);
  assert_committed_present (path, committed);

  /* Every game ended once, with every move it reported, and the library
   * is the one a run that was never killed writes. */
  run_helper (clean, 0, uninterrupted, &clean_finished);
  g_assert_cmpuint (clean_finished, ==, 6);
  killed_moves = sql_text (path, ALL_MOVES);
  clean_moves = sql_text (clean, ALL_MOVES);
  g_assert_cmpstr (killed_moves, ==, clean_moves);
  killed_results = sql_text (path, ALL_RESULTS);
  clean_results = sql_text (clean, ALL_RESULTS);
  g_assert_cmpstr (killed_results, ==, clean_results);
  store = test_open_store (path);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_cmpuint (games->len, ==, 6);
  /* A kill between a finish and its line hides the line, not the game. */
  g_assert_cmpuint (finished, <=, 6);
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = games->pdata[i];
      g_autoptr(KomiStoreGame) full = komi_store_load_game (store, g->id, &error);
      g_autoptr(KomiGameRecord) record = komi_store_game_to_record (full, &error);

      g_assert_no_error (error);
      g_assert_cmpint (g->status, ==, KOMI_GAME_STATUS_FINISHED);
      g_assert_cmpuint (komi_game_get_turns_played (record->game), ==, g->n_moves);
    }
  g_clear_pointer (&store, komi_store_unref);
  remove_test_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  helper_path = argc > 1 ? argv[1] : NULL;
  if (helper_path == NULL)
    g_error ("usage: test-store-crash STORE-WRITER-HELPER");

  g_test_add_data_func ("/komi/store/crash-safety", NULL, test_crash_safety);
  return g_test_run ();
}
