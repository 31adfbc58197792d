/* bench-verify.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-bench"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "komi-ladder-ship.h"
#include "komi-store-test-util.h"
#include "komi-verify.h"

/* Figures, not a test: verify over a library of N engine games (random
 * against random, 10,000 by default), as `komi-cli verify` does it: the
 * library opened as untrusted input (its quick check and schema check),
 * then every game replayed, recounted and its engines' pins checked.
 * Prints the open and the verification apart, CPU and wall.
 *
 *   taskset -c 1 _build/tests/bench-verify [N] */

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 10000;
  g_autofree char *dir = g_dir_make_tmp ("komi-bench-verify-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *cmd = NULL;
  g_autoptr(TestSeries) t = test_series_new ("bench", 11, MAX (n / 2, 1));
  g_autoptr(KomiStore) store = komi_store_open (db, NULL);
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_game_record_free);
  g_autoptr(KomiVerifyReport) report = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GError) error = NULL;
  gint64 series_id = 0, wall;
  double cpu;
  guint moves = 0;

  g_assert_nonnull (store);
  if (!komi_store_begin_series (store, &t->series, t->plan, &series_id, &error))
    g_error ("%s", error->message);
  /* As the random player records itself (komi-random-player.c): the
   * identity the shipped ladder pins. */
  for (guint i = 0; i < t->plan->len; i++)
    {
      KomiGameRecord *r = test_random_record (test_planned (t, i));

      g_free (r->black_name);
      g_free (r->white_name);
      g_free (r->black_settings);
      g_free (r->white_settings);
      r->black_name = g_strdup ("Random 1");
      r->white_name = g_strdup ("Random 1");
      r->black_settings = g_strdup ("{\"kind\":\"random\",\"generator\":\"xoshiro256** "
                                    "seeded by SplitMix64\",\"seed\":\"1\"}");
      r->white_settings = g_strdup (r->black_settings);
      g_ptr_array_add (records, r);
    }
  if (!komi_store_add_records (store, series_id, t->plan, records, &error))
    g_error ("%s", error->message);
  komi_store_sync (store, NULL);
  g_clear_pointer (&store, komi_store_unref);
  g_clear_pointer (&records, g_ptr_array_unref);
  ladder = komi_ladder_shipped (1, &error);
  g_assert_no_error (error);

  cpu = cpu_seconds ();
  wall = g_get_monotonic_time ();
  store = komi_store_open_foreign (db, &error);
  g_assert_no_error (error);
  printf ("open as untrusted (quick_check, schema): %.2f s CPU, %.2f s wall\n",
          cpu_seconds () - cpu, (g_get_monotonic_time () - wall) / 1e6);

  cpu = cpu_seconds ();
  wall = g_get_monotonic_time ();
  report = komi_verify_library (store, &(KomiVerifyOptions) { .ladder = ladder }, NULL, NULL,
                                NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < report->games->len; i++)
    moves += ((KomiVerifiedGame *) report->games->pdata[i])->n_moves;
  printf ("verify: %u games (%u moves), %u failed, %.2f s CPU, %.2f s wall\n",
          report->games->len, moves, report->n_failed, cpu_seconds () - cpu,
          (g_get_monotonic_time () - wall) / 1e6);
  for (guint i = 0; i < report->games->len && i < 3; i++)
    {
      KomiVerifiedGame *v = report->games->pdata[i];

      for (guint k = 0; k < v->problems->len; k++)
        printf ("  game %" G_GINT64_FORMAT ": %s\n", v->game_id,
                (const char *) v->problems->pdata[k]);
    }
  g_clear_pointer (&store, komi_store_unref);
  cmd = g_strdup_printf ("rm -rf '%s'", dir);
  return system (cmd);
}
