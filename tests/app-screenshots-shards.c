/* app-screenshots-shards.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>

#include <adwaita.h>

#include "app-screenshots-shards.h"
#include "komi-app-test-util.h"
#include "komi-shard-status.h"
#include "komi-shards-window.h"

#define N_SHARDS 4

/* 16 games of GNU Go level 1 against random, one at a time per shard. */
static const char series_json[] =
  "{\"name\": \"GNU Go level 1 against random, as 4 shards\", \"protocol\": 1, "
  "\"subject\": \"gnugo:1\", \"opponents\": [{\"player\": \"random\", \"pairs\": 8}], "
  "\"seed\": 2026, \"referee\": \"gnugo\", \"jobs\": 1}";

static guint
games_ended (char **paths)
{
  g_autoptr(GPtrArray) list = komi_shard_status_read ((const char * const *) paths,
                                                      N_SHARDS, NULL);

  return list != NULL && list->len == 1
         ? ((KomiSeriesStatus *) g_ptr_array_index (list, 0))->ended : 0;
}

static gboolean
read_twice (gpointer window)
{
  return komi_shards_window_get_reads (window) >= 2;
}

gboolean
shards_shot_take (GtkWindow   *parent,
                  const char  *cli,
                  const char  *dir,
                  const char  *out,
                  ShotImport   import,
                  GError     **error)
{
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  char *paths[N_SHARDS + 1] = { NULL, };
  GSubprocess *procs[N_SHARDS] = { NULL, };
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  KomiShardsWindow *window;
  gboolean ok = FALSE;

  if (!g_file_set_contents (series, series_json, -1, error))
    return FALSE;
  for (guint k = 0; k < N_SHARDS; k++)
    {
      g_autofree char *shard = g_strdup_printf ("%u/%u", k + 1, N_SHARDS);

      paths[k] = g_strdup_printf ("%s/shard-%u.db", dir, k + 1);
      procs[k] = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, error, cli, "run", series,
                                   "--shard", shard, "--db", paths[k], NULL);
      if (procs[k] == NULL)
        goto out;
    }
  /* A few games ended, the rest going on. */
  while (g_get_monotonic_time () < end && games_ended (paths) < 6)
    g_usleep (100000);
  window = komi_shards_window_new (parent, (const char * const *) paths, 1);
  gtk_window_present (GTK_WINDOW (window));
  app_test_wait_seconds (read_twice, window, 30);
  ok = import (out, error);
  gtk_window_destroy (GTK_WINDOW (window));
out:
  for (guint k = 0; k < N_SHARDS; k++)
    {
      if (procs[k] != NULL)
        {
          g_subprocess_send_signal (procs[k], SIGTERM);
          g_subprocess_wait (procs[k], NULL, NULL);
          g_object_unref (procs[k]);
        }
      g_free (paths[k]);
    }
  return ok;
}
