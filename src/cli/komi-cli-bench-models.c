/* komi-cli-bench-models.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "komi-cli.h"
#include "komi-cli-bench.h"
#include "komi-cli-util.h"
#include "komi-rehearsal.h"
#include "komi-series-runner.h"
#include "komi-store.h"
#include "komi-store-sink.h"

/* `bench --models`: series of the rehearsal model against the random
 * player, the rehearsal server in a child process so that this process's
 * CPU is Komi's alone, on worker threads with every core as a real run. */

/* `komi-cli rehearse` in a child process, so that this process's rusage
 * is Komi's alone. Its output goes to a file: the first line names the
 * URL, one line per request follows, and the last one counts them. */
typedef struct
{
  GPid  pid;
  char *log_path;
  char *base_url;
} BenchServer;

static void
bench_server_stop (BenchServer *server)
{
  if (server->pid > 0)
    {
      kill (server->pid, SIGTERM);
      waitpid (server->pid, NULL, 0);
      g_spawn_close_pid (server->pid);
      server->pid = 0;
    }
  if (server->log_path != NULL)
    g_unlink (server->log_path);
  g_clear_pointer (&server->log_path, g_free);
  g_clear_pointer (&server->base_url, g_free);
}

static gboolean
bench_server_start (const char  *dir,
                    guint        latency_ms,
                    BenchServer *server,
                    GError     **error)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", error);
  g_autofree char *latency = g_strdup_printf ("%u", latency_ms);
  const char *argv[] = { exe, "rehearse", "--port", "0", "--latency-ms", latency,
                         "--policy", "random", "--seed", "1", NULL };
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  int fd;

  *server = (BenchServer) { 0, };
  if (exe == NULL)
    return FALSE;
  server->log_path = g_build_filename (dir, "rehearse.log", NULL);
  if ((fd = g_open (server->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   _("Cannot create %s: %s"), server->log_path, g_strerror (errno));
      return FALSE;
    }
  if (!g_spawn_async_with_pipes_and_fds (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                         NULL, -1, fd, -1, NULL, NULL, 0, &server->pid, NULL,
                                         NULL, NULL, error))
    {
      close (fd);
      return FALSE;
    }
  close (fd);

  /* "Rehearsal provider at http://127.0.0.1:PORT (Ctrl-C stops it)", in
   * whatever language: the address is the first http:// up to a space. */
  while (server->base_url == NULL && g_get_monotonic_time () < deadline)
    {
      g_autofree char *text = NULL;
      const char *at, *end;

      g_usleep (5000);
      if (g_file_get_contents (server->log_path, &text, NULL, NULL)
          && strchr (text, '\n') != NULL
          && (at = strstr (text, "http://")) != NULL
          && (end = strchr (at, ' ')) != NULL)
        server->base_url = g_strndup (at, end - at);
    }
  if (server->base_url == NULL)
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                   _("`komi-cli rehearse` did not say where it listens within 10 s"));
      bench_server_stop (server);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  guint   games;
  guint   attempts;      /* HTTP attempts recorded in the library */
  guint   longest;       /* attempts of the game with the most */
  guint   max_running;   /* games in flight at once, at most */
  double  latency_ms;    /* mean of the attempts, as the library recorded them */
  double  wall;          /* seconds of komi_series_run */
  double  user, sys;     /* this process's CPU seconds over it */
} ModelFigures;

static void
count_running (const KomiSeriesProgress *progress,
               const KomiPlannedGame    *game,
               const KomiGameRecord     *record,
               gpointer                  user_data)
{
  ModelFigures *f = user_data;

  f->max_running = MAX (f->max_running, progress->running);
}

typedef struct
{
  guint  attempts;
  double latency_ms;
  gint64 game_id;
  guint  in_game;
  guint  longest;
} CallCount;

static gboolean
count_call (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  CallCount *c = user_data;

  if (call->game_id != c->game_id)
    c->game_id = call->game_id, c->in_game = 0;
  c->attempts++;
  c->latency_ms += call->latency_ms;
  c->longest = MAX (c->longest, ++c->in_game);
  return TRUE;
}

/* A series of the rehearsal model (OpenAI Chat, at @server) against the
 * random player, referee "none", recorded in a library in @dir. */
static gboolean
bench_model_series (const char        *dir,
                    const BenchServer *server,
                    guint              pairs,
                    guint              jobs,
                    ModelFigures      *f,
                    GError           **error)
{
  static guint serial;  /* providers are shared by profile path: a new path each time */
  g_autofree char *name = g_strdup_printf ("rehearsal-%u.json", ++serial);
  g_autofree char *profile = g_build_filename (dir, name, NULL);
  g_autofree char *db = g_build_filename (dir, "models.db", NULL);
  g_autofree char *base_url = NULL, *subject = NULL;
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiSeriesResult) result = NULL;
  KomiSeriesSink *sink;
  CallCount count = { 0, };
  struct rusage before, after;
  gint64 series_id, start;
  gboolean ok;

  /* No cap on rate, and room for every game's request at once. */
  base_url = g_strconcat (server->base_url, "/v1", NULL);
  subject = g_strconcat ("model:", profile, NULL);
  if (!komi_rehearsal_write_profile (profile, "rehearsal bench", base_url, FALSE,
                                         MAX (jobs, 16), error)
      || (series = komi_cli_series_new ("bench models", subject, "random", pairs, 1, "none",
                                        jobs, error)) == NULL
      || (store = komi_store_open (db, error)) == NULL)
    return FALSE;

  *f = (ModelFigures) { 0, };
  sink = komi_store_new_sink (store);
  getrusage (RUSAGE_SELF, &before);
  start = g_get_monotonic_time ();
  result = komi_series_run (series, sink, jobs, count_running, f, NULL, error);
  f->wall = _komi_cli_bench_ms_since (start) / 1e3;
  getrusage (RUSAGE_SELF, &after);
#define SECONDS(tv) ((tv).tv_sec + (tv).tv_usec / 1e6)
  f->user = SECONDS (after.ru_utime) - SECONDS (before.ru_utime);
  f->sys = SECONDS (after.ru_stime) - SECONDS (before.ru_stime);
#undef SECONDS
  series_id = komi_store_sink_get_series_id (sink);
  komi_store_sink_free (sink);
  if (result == NULL)
    return FALSE;

  f->games = result->played;
  ok = komi_store_foreach_call (store, series_id, count_call, &count, error);
  f->attempts = count.attempts;
  f->latency_ms = count.latency_ms / MAX (count.attempts, 1);
  f->longest = count.longest;
  g_clear_pointer (&store, komi_store_unref);
  g_unlink (profile);
  _komi_cli_bench_remove_library (db);
  return ok && f->attempts > 0;
}

/* Komi's CPU per HTTP attempt at zero latency, and a 32-game series'
 * efficiency at 100 ms. */
gboolean
_komi_cli_bench_models (const char *dir, gboolean cpu_only, GError **error)
{
  BenchServer server;
  ModelFigures f;
  double ideal;
  gboolean ok;

  if (!bench_server_start (dir, 0, &server, error))
    return FALSE;
  ok = bench_model_series (dir, &server, 8, 4, &f, error);
  bench_server_stop (&server);
  if (!ok)
    return FALSE;
  printf (_("model calls (rehearsal openai-chat at 0 ms in a child process vs random, %u games, "
            "jobs=4, recorded in a library): Komi's CPU %.3f ms per HTTP attempt (user %.3f + "
            "system %.3f; %.2f s over %u attempts; target under 0.5 ms)\n"),
          f.games, (f.user + f.sys) * 1e3 / f.attempts, f.user * 1e3 / f.attempts,
          f.sys * 1e3 / f.attempts, f.user + f.sys, f.attempts);
  if (cpu_only)
    return TRUE;

  if (!bench_server_start (dir, 100, &server, error))
    return FALSE;
  ok = bench_model_series (dir, &server, 16, 16, &f, error);
  bench_server_stop (&server);
  if (!ok)
    return FALSE;
  /* Perfect parallelism and zero overhead: every call's 100 ms spread
   * evenly over the 16 jobs. */
  ideal = f.attempts * 0.1 / 16;
  printf (_("series efficiency (rehearsal at 100 ms vs random, %u games, jobs=16): ideal %.2f s "
            "(%u HTTP attempts x 100 ms / 16 jobs) / measured %.2f s (komi_series_run) = %.3f "
            "(target at least 0.9; mean attempt %.1f ms; the longest game alone: %u attempts = "
            "%.1f s)\n"),
          f.games, ideal, f.attempts, f.wall, ideal / f.wall, f.latency_ms, f.longest,
          f.longest * 0.1);
  return TRUE;
}

/* `bench --models-memory`, run in a fresh process by `--models`: the
 * process's peak resident set with 64 games in flight. */
int
_komi_cli_bench_models_memory (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("komi-bench-XXXXXX", &error);
  BenchServer server;
  ModelFigures f;
  struct rusage before, after;
  gboolean ok;

  if (dir == NULL || !bench_server_start (dir, 100, &server, &error))
    return komi_cli_fail ("bench", error);
  getrusage (RUSAGE_SELF, &before);
  ok = bench_model_series (dir, &server, 32, 64, &f, &error);
  getrusage (RUSAGE_SELF, &after);
  bench_server_stop (&server);
  g_rmdir (dir);
  if (!ok)
    return komi_cli_fail ("bench", error);
  printf (_("peak memory with %u games in flight (rehearsal at 100 ms vs random, %u games, "
            "jobs=64, recorded in a library): %.1f MiB maximum resident set size (%.1f MiB "
            "before the series; target under 200 MB)\n"),
          f.max_running, f.games, after.ru_maxrss / 1024.0, before.ru_maxrss / 1024.0);
  return 0;
}

/* The memory figure from a child `bench --models-memory`: this process's
 * own peak already holds whatever ran before. */
gboolean
_komi_cli_bench_models_memory_child (GError **error)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", error);
  const char *argv[] = { exe, "bench", "--models-memory", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  if (exe == NULL
      || !g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                        &status, error))
    return FALSE;
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "%s",
                   err != NULL && *err ? g_strchomp (err) : _("`bench --models-memory` failed"));
      return FALSE;
    }
  fputs (out, stdout);
  return TRUE;
}
