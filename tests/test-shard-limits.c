/* test-shard-limits.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "komi-rehearsal.h"
#include "komi-test-cli.h"

/* A model series run as 2 shards, each a real `komi-cli run --shard K/2`
 * process, against the rehearsal model on loopback: what the servers saw
 * of each process must keep to half the profile's max_concurrent and
 * requests_per_minute (so that both shards on one key stay inside its
 * limits), and with "shard_limits": "each" a shard may go above half.
 * Each shard talks to a server of its own (same profile but for the
 * address), so that what one process did is told apart. */

#define N_SHARDS 2
#define MAX_CONCURRENT 4
#define PER_MINUTE 1500

typedef struct
{
  KomiRehearsal *server;
  GMutex         lock;
  GArray        *arrivals;   /* gint64, monotonic µs, one per model call */
} Shard;

static void
on_event (const KomiRehearsalEvent *event, gpointer data)
{
  Shard *shard = data;
  gint64 now = g_get_monotonic_time ();

  if (!g_str_has_suffix (event->path, "/chat/completions"))
    return;
  g_mutex_lock (&shard->lock);
  g_array_append_val (shard->arrivals, now);
  g_mutex_unlock (&shard->lock);
}

static char *
write_files (const char *dir, guint k, const char *base_url, const char *limits)
{
  g_autofree char *profile = g_strdup_printf ("%s/profile-%u.json", dir, k);
  g_autofree char *profile_json = NULL;
  g_autofree char *series_json = NULL;
  char *series = g_strdup_printf ("%s/series-%u.json", dir, k);

  profile_json = g_strdup_printf ("{\"name\": \"rehearsal\", \"api\": \"openai-chat\", "
                                  "\"base_url\": \"%s/v1\", \"model\": \"rehearsal-model\", "
                                  "\"max_concurrent\": %d, \"requests_per_minute\": %d%s}",
                                  base_url, MAX_CONCURRENT, PER_MINUTE, limits);
  g_assert_true (g_file_set_contents (profile, profile_json, -1, NULL));
  /* 4 pairs against random: 4 games in each shard, all at once. */
  series_json = g_strdup_printf ("{\"name\": \"limits\", \"protocol\": 1, "
                                 "\"subject\": \"model:%s\", \"opponents\": "
                                 "[{\"player\": \"random\", \"pairs\": 4}], \"seed\": 11, "
                                 "\"jobs\": 4}", profile);
  g_assert_true (g_file_set_contents (series, series_json, -1, NULL));
  return series;
}

/* The most model calls one shard made over its span, and the figures. */
static void
run_shards (const char *limits, guint *max_in_flight, double *calls_per_minute,
            guint *excess)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-shard-limits-XXXXXX", NULL);
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  Shard shards[N_SHARDS];
  GSubprocess *procs[N_SHARDS];

  *max_in_flight = 0;
  *calls_per_minute = 0;
  *excess = 0;
  for (guint k = 0; k < N_SHARDS; k++)
    {
      KomiRehearsalOptions options = { .latency_ms = 100, .seed = 5 + k,
                                       .log_func = on_event, .log_data = &shards[k] };
      g_autoptr(GError) error = NULL;
      g_autofree char *series = NULL, *db = NULL, *shard = NULL;

      g_mutex_init (&shards[k].lock);
      shards[k].arrivals = g_array_new (FALSE, FALSE, sizeof (gint64));
      shards[k].server = komi_rehearsal_new (&options, &error);
      g_assert_no_error (error);
      series = write_files (dir, k + 1, komi_rehearsal_get_base_url (shards[k].server), limits);
      db = g_strdup_printf ("%s/shard-%u.db", dir, k + 1);
      shard = g_strdup_printf ("%u/%u", k + 1, N_SHARDS);
      procs[k] = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                   | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                                   cli, "run", series, "--shard", shard, "--db", db, NULL);
      g_assert_no_error (error);
    }
  for (guint k = 0; k < N_SHARDS; k++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *err = NULL;
      guint n, allowed, in_flight;
      double span;

      g_subprocess_communicate_utf8 (procs[k], NULL, NULL, NULL, &err, &error);
      g_assert_no_error (error);
      if (!g_subprocess_get_successful (procs[k]))
        g_error ("komi-cli run --shard %u/%u failed: %s", k + 1, N_SHARDS, err);
      g_object_unref (procs[k]);

      /* Stopped first, so that the arrivals are all in. */
      n = komi_rehearsal_get_request_count (shards[k].server, "/v1/chat/completions");
      in_flight = komi_rehearsal_get_max_in_flight (shards[k].server);
      *max_in_flight = MAX (*max_in_flight, in_flight);
      g_clear_object (&shards[k].server);
      g_assert_cmpuint (n, ==, shards[k].arrivals->len);
      g_assert_cmpuint (n, >, 20);
      span = (g_array_index (shards[k].arrivals, gint64, n - 1)
              - g_array_index (shards[k].arrivals, gint64, 0)) / (double) G_USEC_PER_SEC;
      /* The limiter holds a bucket of one call: call i starts (i - 1)
       * intervals after the first at the earliest. One call more is
       * allowed for the first call's own way to the server. */
      allowed = (guint) (span * PER_MINUTE / N_SHARDS / 60.0) + 2;
      if (n > allowed)
        *excess = MAX (*excess, n - allowed);
      *calls_per_minute = MAX (*calls_per_minute, span > 0 ? (n - 1) * 60.0 / span : 0);
      g_print ("# shard %u/%u%s: %u calls in %.1f s (%.0f a minute), at most %u at once\n",
               k + 1, N_SHARDS, limits[0] != '\0' ? " (shard_limits each)" : "", n, span,
               span > 0 ? (n - 1) * 60.0 / span : 0, in_flight);
      g_array_unref (shards[k].arrivals);
      g_mutex_clear (&shards[k].lock);
    }
  remove_test_dir (dir);
}

static void
test_divided (void)
{
  guint max_in_flight, excess;
  double per_minute;

  run_shards ("", &max_in_flight, &per_minute, &excess);
  g_assert_cmpuint (max_in_flight, <=, MAX_CONCURRENT / N_SHARDS);
  g_assert_cmpuint (excess, ==, 0);
}

/* The same measure shows a shard above its share when the profile gives
 * every shard the whole limits, so the check above can fail. */
static void
test_each (void)
{
  guint max_in_flight, excess;
  double per_minute;

  run_shards (", \"shard_limits\": \"each\"", &max_in_flight, &per_minute, &excess);
  g_assert_cmpuint (max_in_flight, <=, MAX_CONCURRENT);
  g_assert_cmpuint (max_in_flight, >, MAX_CONCURRENT / N_SHARDS);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/shard-limits/divided", test_divided);
  g_test_add_func ("/komi/shard-limits/each", test_each);
  return g_test_run ();
}
