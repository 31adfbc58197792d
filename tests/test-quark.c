/* test-quark.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "komi-go-types.h"
#include "komi-player.h"
#include "komi-protocol.h"
#include "komi-provider.h"
#include "komi-series.h"
#include "komi-store.h"

/* Komi's error domains asked for the first time by several threads at
 * once, as two games' players failing together do: each thread gets the
 * domain's quark. Under ThreadSanitizer (suite "threads") the test also
 * fails on a data race in the cache of the quark, which GLib's
 * G_DEFINE_QUARK() has (KOMI_DEFINE_QUARK() does not). */

#define N_THREADS 4

typedef GQuark (*QuarkFunc) (void);

static const struct
{
  QuarkFunc   func;
  const char *name;
} domains[] = {
  { komi_go_error_quark, "komi-go-error-quark" },
  { komi_player_error_quark, "komi-player-error-quark" },
  { komi_protocol_error_quark, "komi-protocol-error-quark" },
  { komi_provider_error_quark, "komi-provider-error-quark" },
  { komi_series_error_quark, "komi-series-error-quark" },
  { komi_store_error_quark, "komi-store-error-quark" },
};

typedef struct
{
  gint   *start;
  GQuark  got[G_N_ELEMENTS (domains)];
} Asker;

static gpointer
ask (gpointer data)
{
  Asker *asker = data;

  while (!g_atomic_int_get (asker->start))
    g_thread_yield ();
  for (gsize i = 0; i < G_N_ELEMENTS (domains); i++)
    asker->got[i] = domains[i].func ();
  return NULL;
}

static void
test_first_use_from_threads (void)
{
  Asker askers[N_THREADS];
  GThread *threads[N_THREADS];
  gint start = 0;

  for (guint t = 0; t < N_THREADS; t++)
    {
      askers[t].start = &start;
      threads[t] = g_thread_new ("komi-quark", ask, &askers[t]);
    }
  g_atomic_int_set (&start, 1);
  for (guint t = 0; t < N_THREADS; t++)
    g_thread_join (threads[t]);

  for (gsize i = 0; i < G_N_ELEMENTS (domains); i++)
    {
      GQuark expected = g_quark_try_string (domains[i].name);

      g_assert_cmpuint (expected, !=, 0);
      for (guint t = 0; t < N_THREADS; t++)
        g_assert_cmpuint (askers[t].got[i], ==, expected);
      /* And once more, from the cache. */
      g_assert_cmpuint (domains[i].func (), ==, expected);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/quark/first-use-from-threads", test_first_use_from_threads);
  return g_test_run ();
}
