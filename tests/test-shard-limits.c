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
#include "komi-test-util.h"

/* A model series run as 2 shards, each a real `komi-cli run --shard K/2`
 * process, against the rehearsal model on loopback: what the servers saw
 * of each process must keep to half the profile's max_concurrent and
 * requests_per_minute (so that both shards on one key stay inside its
 * limits), and with "shard_limits": "each" a shard may go above half.
 * Each shard talks to a server of its own (same profile but for the
 * address), so that what one process did is told apart.
 *
 * The two runs (divided, each) go on at once, each with servers of its
 * own: they wait on the limiter and the servers' latency, not on the CPU.
 * The latency and the rate are such that the limits, not the latency,
 * decide the pace: a shard's share of the rate is one call per 40 ms
 * (each: 20 ms) against a reply in 50 ms, 2 calls at once allowed (each:
 * 4) where 4 games want them, so that a shard that ignored its share
 * would go past it. (The test ran at a quarter of that pace, 100 ms and
 * 1500 a minute, the same proportions, twice as long.)
 *
 * The opponent is the tests' fake GTP engine, which passes after its
 * 4th move: the model's games end by two passes after 9 to 51 moves (101
 * and 50 calls in the two shards) instead of running to the 120-turn
 * limit against random (about 460 calls a shard). The limits bind the
 * same way over the same 4 games at once a shard, for a quarter of the
 * time; with a shard's share of the rate or of max_concurrent not taken
 * (the division in komi_provider_profile_share() left out), the excess
 * (21 calls) or the calls at once (4) still fail the test. No referee:
 * nothing here depends on the score. */

#define N_SHARDS 2
#define MAX_CONCURRENT 4
#define PER_MINUTE 3000
#define LATENCY_MS 50

static char *fake_engine;

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
  /* 4 pairs: 4 games in each shard, all at once. */
  series_json = g_strdup_printf ("{\"name\": \"limits\", \"protocol\": 1, "
                                 "\"subject\": \"model:%s\", \"opponents\": "
                                 "[{\"player\": \"gtp:'%s' --pass-after 4\", \"pairs\": 4}], "
                                 "\"seed\": 11, \"referee\": \"none\", \"jobs\": 4}",
                                 profile, fake_engine);
  g_assert_true (g_file_set_contents (series, series_json, -1, NULL));
  return series;
}

/* One run of the series as N_SHARDS processes, each with its server. */
typedef struct
{
  const char  *limits;
  char        *dir;
  Shard        shards[N_SHARDS];
  GSubprocess *procs[N_SHARDS];
} Run;

static Run divided_run = { "" };
static Run each_run = { ", \"shard_limits\": \"each\"" };

static void
start_run (Run *run)
{
  run->dir = g_dir_make_tmp ("komi-shard-limits-XXXXXX", NULL);
  for (guint k = 0; k < N_SHARDS; k++)
    {
      KomiRehearsalOptions options = { .latency_ms = LATENCY_MS, .seed = 5 + k,
                                       .log_func = on_event, .log_data = &run->shards[k] };
      g_autoptr(GError) error = NULL;
      g_autofree char *series = NULL, *db = NULL, *shard = NULL;

      g_mutex_init (&run->shards[k].lock);
      run->shards[k].arrivals = g_array_new (FALSE, FALSE, sizeof (gint64));
      run->shards[k].server = komi_rehearsal_new (&options, &error);
      g_assert_no_error (error);
      series = write_files (run->dir, k + 1,
                            komi_rehearsal_get_base_url (run->shards[k].server), run->limits);
      db = g_strdup_printf ("%s/shard-%u.db", run->dir, k + 1);
      shard = g_strdup_printf ("%u/%u", k + 1, N_SHARDS);
      run->procs[k] = test_cli_start (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                      | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                      "run", series, "--shard", shard, "--db", db, NULL);
    }
}

/* Both runs at once, started by whichever test comes first. */
static void
start_runs (void)
{
  static gboolean started;

  if (!started)
    {
      start_run (&divided_run);
      start_run (&each_run);
      started = TRUE;
    }
}

/* Waits for @run's shards; the most model calls one shard made over its
 * span, and the figures. */
static void
finish_run (Run *run, guint *max_in_flight, double *calls_per_minute, guint *excess)
{
  *max_in_flight = 0;
  *calls_per_minute = 0;
  *excess = 0;
  for (guint k = 0; k < N_SHARDS; k++)
    {
      Shard *shard = &run->shards[k];
      guint n, allowed, in_flight;
      double span;

      test_cli_wait_ok (run->procs[k]);
      g_clear_object (&run->procs[k]);

      /* Stopped first, so that the arrivals are all in. */
      n = komi_rehearsal_get_request_count (shard->server, "/v1/chat/completions");
      in_flight = komi_rehearsal_get_max_in_flight (shard->server);
      *max_in_flight = MAX (*max_in_flight, in_flight);
      g_clear_object (&shard->server);
      g_assert_cmpuint (n, ==, shard->arrivals->len);
      g_assert_cmpuint (n, >, 20);
      span = (g_array_index (shard->arrivals, gint64, n - 1)
              - g_array_index (shard->arrivals, gint64, 0)) / (double) G_USEC_PER_SEC;
      /* The limiter holds a bucket of one call: call i starts (i - 1)
       * intervals after the first at the earliest. One call more is
       * allowed for the first call's own way to the server. */
      allowed = (guint) (span * PER_MINUTE / N_SHARDS / 60.0) + 2;
      if (n > allowed)
        *excess = MAX (*excess, n - allowed);
      *calls_per_minute = MAX (*calls_per_minute, span > 0 ? (n - 1) * 60.0 / span : 0);
      g_print ("# shard %u/%u%s: %u calls in %.1f s (%.0f a minute), at most %u at once\n",
               k + 1, N_SHARDS, run->limits[0] != '\0' ? " (shard_limits each)" : "", n, span,
               span > 0 ? (n - 1) * 60.0 / span : 0, in_flight);
      g_array_unref (shard->arrivals);
      g_mutex_clear (&shard->lock);
    }
  remove_test_dir (run->dir);
  g_clear_pointer (&run->dir, g_free);
}

/* A run left by a test not selected (-p): its processes stopped. */
static void
stop_run (Run *run)
{
  if (run->dir == NULL)
    return;
  for (guint k = 0; k < N_SHARDS; k++)
    {
      g_subprocess_force_exit (run->procs[k]);
      g_subprocess_wait (run->procs[k], NULL, NULL);
      g_clear_object (&run->procs[k]);
      g_clear_object (&run->shards[k].server);
      g_array_unref (run->shards[k].arrivals);
      g_mutex_clear (&run->shards[k].lock);
    }
  remove_test_dir (run->dir);
  g_clear_pointer (&run->dir, g_free);
}

static void
test_divided (void)
{
  guint max_in_flight, excess;
  double per_minute;

  start_runs ();
  finish_run (&divided_run, &max_in_flight, &per_minute, &excess);
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

  start_runs ();
  finish_run (&each_run, &max_in_flight, &per_minute, &excess);
  g_assert_cmpuint (max_in_flight, <=, MAX_CONCURRENT);
  g_assert_cmpuint (max_in_flight, >, MAX_CONCURRENT / N_SHARDS);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  fake_engine = fake_engine_path (argc, argv);
  g_test_add_func ("/komi/shard-limits/divided", test_divided);
  g_test_add_func ("/komi/shard-limits/each", test_each);
  status = g_test_run ();
  stop_run (&divided_run);
  stop_run (&each_run);
  g_free (fake_engine);
  return status;
}
