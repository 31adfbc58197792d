/* komi-cli-bench.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "komi-cli.h"
#include "komi-protocol-state.h"
#include "komi-random-player.h"
#include "komi-rating.h"
#include "komi-score.h"
#include "komi-series-runner.h"
#include "komi-store.h"
#include "komi-store-sink.h"

/* `bench`: figures, never assertions. Everything but the model series runs
 * on the calling thread, pinned to one core where the system allows it; the
 * model series run on worker threads with every core, as a real run does. */

typedef struct
{
  guint   games;
  guint64 turns;
  double  seconds;
  guint64 checksum;   /* keeps the work from being optimised away */
} GameFigures;

/* Random-vs-random games as a series plays them: the full legal list and
 * superko check every turn (the random player's choice), the area count at
 * the end. */
static void
bench_games (double budget, guint64 seed, GameFigures *f)
{
  KomiPoint buf[KOMI_MAX_POINTS];
  gint64 start = g_get_monotonic_time ();
  KomiRng rng;

  komi_rng_init (&rng, seed);
  *f = (GameFigures) { 0, };
  do
    {
      for (guint batch = 0; batch < 100; batch++)
        {
          g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
          KomiScore score;

          while (!komi_game_is_over (game))
            komi_game_play (game, komi_random_choose (&rng, game, buf), NULL);
          komi_score_area (komi_game_get_board (game), NULL, 0, 7, &score);
          f->turns += komi_game_get_turns_played (game);
          f->checksum += (guint64) score.black_total;
          f->games++;
        }
      f->seconds = (g_get_monotonic_time () - start) / 1e6;
    }
  while (f->seconds < budget);
}

/* Protocol 1 requests, oriented, rules text included: the full text a
 * model receives, built from positions of random games. */
static void
bench_requests (double budget, guint *count, double *seconds, gsize *bytes)
{
  g_autoptr(GPtrArray) games = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_game_free);
  g_autoptr(GString) out = g_string_sized_new (8192);
  KomiPoint buf[KOMI_MAX_POINTS];
  KomiProtocolState state;
  gint64 start;
  KomiRng rng;

  /* 64 positions from the middle of games, built before the clock starts. */
  komi_rng_init (&rng, 7);
  for (guint i = 0; i < 64; i++)
    {
      KomiGame *game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
      guint turns = 10 + i;

      while (!komi_game_is_over (game) && komi_game_get_turns_played (game) < turns)
        komi_game_play (game, komi_random_choose (&rng, game, buf), NULL);
      if (komi_game_is_over (game))
        komi_game_free (game);
      else
        g_ptr_array_add (games, game);
    }

  *count = 0;
  *bytes = 0;
  start = g_get_monotonic_time ();
  do
    {
      for (guint i = 0; i < 1000; i++)
        {
          const KomiGame *game = g_ptr_array_index (games, *count % games->len);

          komi_protocol_state_init_from_game (&state, game, (KomiOrientation) (*count % 8));
          g_string_truncate (out, 0);
          komi_protocol_write_prompt (out, &state);
          *bytes += out->len;
          (*count)++;
        }
      *seconds = (g_get_monotonic_time () - start) / 1e6;
    }
  while (*seconds < budget);
}

/* A library and SQLite's companion files, so the folder can go too. */
static void
remove_library (const char *path)
{
  for (const char *const *ext = (const char *const[]) { "", "-wal", "-shm", NULL }; *ext; ext++)
    {
      g_autofree char *file = g_strconcat (path, *ext, NULL);
      g_unlink (file);
    }
}

static double
ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e3;
}

static KomiSeries *
bench_series (const char *subject, const char *opponent, guint pairs, guint jobs)
{
  g_autofree char *json = g_strdup_printf ("{\"name\": \"bench\", \"protocol\": 1, "
                                           "\"subject\": \"%s\", \"opponents\": [\"%s\"], "
                                           "\"pairs\": %u, \"seed\": 1, \"referee\": "
                                           "\"gnugo\", \"jobs\": %u}",
                                           subject, opponent, pairs, jobs);

  return komi_series_new_from_json (json, -1, NULL);
}

/* A library of @n random-vs-random games, then the reads a reviewer does:
 * list every game with its result, load one with all its moves. */
static gboolean
bench_library (const char *dir, guint n, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "bench.db", NULL);
  g_autoptr(KomiSeries) series = bench_series ("random", "random", n / 2, 1);
  g_autoptr(GArray) plan = komi_series_plan (series);
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                  komi_game_record_free);
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiStore) reader = NULL;
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(KomiPlayer) black = komi_random_player_new ();
  g_autoptr(KomiPlayer) white = komi_random_player_new ();
  gint64 series_id, start;
  double list_ms, load_ms = 0;
  guint loads = 0;

  start = g_get_monotonic_time ();
  for (guint i = 0; i < plan->len; i++)
    {
      KomiMatchSettings settings = {
        .black = black, .white = white, .size = 9, .komi = 7,
        .max_turns = KOMI_PROTOCOL_MAX_TURNS,
        .seed = g_array_index (plan, KomiPlannedGame, i).seed,
      };
      KomiGameRecord *record = komi_match_play_game (&settings, NULL, error);

      if (record == NULL)
        return FALSE;
      g_ptr_array_add (records, record);
    }
  if ((store = komi_store_open (path, error)) == NULL
      || !komi_store_begin_series (store, series, plan, &series_id, error)
      || !komi_store_add_records (store, series_id, plan, records, error))
    return FALSE;
  printf ("library: %u random-vs-random games played and written in %.0f ms\n", n,
          ms_since (start));

  if ((reader = komi_store_open_reader (path, error)) == NULL)
    return FALSE;
  start = g_get_monotonic_time ();
  listed = komi_store_list_games (reader, KOMI_STORE_ALL_GAMES, error);
  list_ms = ms_since (start);
  if (listed == NULL)
    return FALSE;
  for (guint i = 0; i < listed->len; i += listed->len / 20 + 1, loads++)
    {
      g_autoptr(KomiStoreGame) game = NULL;

      start = g_get_monotonic_time ();
      game = komi_store_load_game (reader, ((KomiStoreGame *) g_ptr_array_index (listed, i))->id,
                                   error);
      load_ms += ms_since (start);
      if (game == NULL)
        return FALSE;
    }
  printf ("library: list %u games with results: %.1f ms; load one game with all its moves: "
          "%.2f ms (mean of %u)\n", listed->len, list_ms, load_ms / loads, loads);
  g_clear_pointer (&reader, komi_store_unref);
  g_clear_pointer (&store, komi_store_unref);
  remove_library (path);
  return TRUE;
}

/* A jobs=2 engine series recorded in a library: wall time against the
 * engines' own CPU time and Komi's. */
static gboolean
bench_engine_series (const char *dir, guint pairs, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "series.db", NULL);
  g_autoptr(KomiSeries) series = bench_series ("gnugo:1", "random", pairs, 2);
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiSeriesResult) result = NULL;
  struct rusage self_before, self_after, kids_before, kids_after;
  KomiSeriesSink *sink;
  double wall, self_cpu, kids_cpu;
  gint64 start;

  if (series == NULL)
    {
      g_set_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FIELD,
                   "GNU Go is needed for the engine series (apt-get install gnugo)");
      return FALSE;
    }
  if ((store = komi_store_open (path, error)) == NULL)
    return FALSE;
  sink = komi_store_new_sink (store);
  getrusage (RUSAGE_SELF, &self_before);
  getrusage (RUSAGE_CHILDREN, &kids_before);
  start = g_get_monotonic_time ();
  result = komi_series_run (series, sink, 2, NULL, NULL, NULL, error);
  wall = ms_since (start) / 1e3;
  getrusage (RUSAGE_SELF, &self_after);
  getrusage (RUSAGE_CHILDREN, &kids_after);
  komi_store_sink_free (sink);
  if (result == NULL)
    return FALSE;

#define CPU(u) ((u).ru_utime.tv_sec + (u).ru_stime.tv_sec \
                + ((u).ru_utime.tv_usec + (u).ru_stime.tv_usec) / 1e6)
  self_cpu = CPU (self_after) - CPU (self_before);
  kids_cpu = CPU (kids_after) - CPU (kids_before);
#undef CPU
  printf ("engine series (GNU Go level 1 vs random, %u games, jobs=2, GNU Go referee): "
          "wall %.2f s; engines' CPU %.2f s; Komi's CPU %.3f s = %.2f%% of the engines'; "
          "wall x 2 cores / engines' CPU = %.2f\n",
          2 * pairs, wall, kids_cpu, self_cpu, 100 * self_cpu / kids_cpu, wall * 2 / kids_cpu);
  g_clear_pointer (&store, komi_store_unref);
  remove_library (path);
  return TRUE;
}

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
                   "Cannot create %s: %s", server->log_path, g_strerror (errno));
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

  /* "Rehearsal provider at http://127.0.0.1:PORT (Ctrl-C stops it)" */
  while (server->base_url == NULL && g_get_monotonic_time () < deadline)
    {
      g_autofree char *text = NULL;
      const char *at, *end;

      g_usleep (5000);
      if (g_file_get_contents (server->log_path, &text, NULL, NULL)
          && strchr (text, '\n') != NULL
          && (at = strstr (text, " at http://")) != NULL
          && (end = strchr (at + 4, ' ')) != NULL)
        server->base_url = g_strndup (at + 4, end - at - 4);
    }
  if (server->base_url == NULL)
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                   "`komi-cli rehearse` did not say where it listens within 10 s");
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
  g_autofree char *profile_json = NULL, *series_json = NULL;
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiSeriesResult) result = NULL;
  KomiSeriesSink *sink;
  CallCount count = { 0, };
  struct rusage before, after;
  gint64 series_id, start;
  gboolean ok;

  /* No cap on rate, and room for every game's request at once. */
  profile_json = g_strdup_printf ("{\"name\": \"rehearsal bench\", \"api\": \"openai-chat\", "
                                  "\"base_url\": \"%s/v1\", \"model\": \"rehearsal-model\", "
                                  "\"max_concurrent\": %u, \"requests_per_minute\": 0}",
                                  server->base_url, MAX (jobs, 16));
  series_json = g_strdup_printf ("{\"name\": \"bench models\", \"protocol\": 1, "
                                 "\"subject\": \"model:%s\", \"opponents\": [\"random\"], "
                                 "\"pairs\": %u, \"seed\": 1, \"referee\": \"none\", "
                                 "\"jobs\": %u}", profile, pairs, jobs);
  if (!g_file_set_contents (profile, profile_json, -1, error)
      || (series = komi_series_new_from_json (series_json, -1, error)) == NULL
      || (store = komi_store_open (db, error)) == NULL)
    return FALSE;

  *f = (ModelFigures) { 0, };
  sink = komi_store_new_sink (store);
  getrusage (RUSAGE_SELF, &before);
  start = g_get_monotonic_time ();
  result = komi_series_run (series, sink, jobs, count_running, f, NULL, error);
  f->wall = ms_since (start) / 1e3;
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
  remove_library (db);
  return ok && f->attempts > 0;
}

/* Komi's CPU per HTTP attempt at zero latency, and a 32-game series'
 * efficiency at 100 ms. */
static gboolean
bench_models (const char *dir, GError **error)
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
  printf ("model calls (rehearsal openai-chat at 0 ms in a child process vs random, %u games, "
          "jobs=4, recorded in a library): Komi's CPU %.3f ms per HTTP attempt (user %.3f + "
          "system %.3f; %.2f s over %u attempts; target under 0.5 ms)\n",
          f.games, (f.user + f.sys) * 1e3 / f.attempts, f.user * 1e3 / f.attempts,
          f.sys * 1e3 / f.attempts, f.user + f.sys, f.attempts);

  if (!bench_server_start (dir, 100, &server, error))
    return FALSE;
  ok = bench_model_series (dir, &server, 16, 16, &f, error);
  bench_server_stop (&server);
  if (!ok)
    return FALSE;
  /* Perfect parallelism and zero overhead: every call's 100 ms spread
   * evenly over the 16 jobs. */
  ideal = f.attempts * 0.1 / 16;
  printf ("series efficiency (rehearsal at 100 ms vs random, %u games, jobs=16): ideal %.2f s "
          "(%u HTTP attempts x 100 ms / 16 jobs) / measured %.2f s (komi_series_run) = %.3f "
          "(target at least 0.9; mean attempt %.1f ms; the longest game alone: %u attempts = "
          "%.1f s)\n",
          f.games, ideal, f.attempts, f.wall, ideal / f.wall, f.latency_ms, f.longest,
          f.longest * 0.1);
  return TRUE;
}

/* `bench --models-memory`, run in a fresh process by `--models`: the
 * process's peak resident set with 64 games in flight. */
static int
bench_models_memory (void)
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
  printf ("peak memory with %u games in flight (rehearsal at 100 ms vs random, %u games, "
          "jobs=64, recorded in a library): %.1f MiB maximum resident set size (%.1f MiB "
          "before the series; target under 200 MB)\n",
          f.max_running, f.games, after.ru_maxrss / 1024.0, before.ru_maxrss / 1024.0);
  return 0;
}

/* The memory figure from a child `bench --models-memory`: this process's
 * own peak already holds whatever ran before. */
static gboolean
bench_models_memory_child (GError **error)
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
                   err != NULL && *err ? g_strchomp (err) : "`bench --models-memory` failed");
      return FALSE;
    }
  fputs (out, stdout);
  return TRUE;
}

int
komi_cli_bench (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- measure the rules core and "
                                                            "the protocol on one core");
  g_autoptr(GError) error = NULL;
  double budget = 3;
  gboolean library = FALSE, engines = FALSE, models = FALSE, models_memory = FALSE, all = FALSE;
  int n_library = 10000;
  GameFigures games;
  guint requests;
  double req_seconds;
  gsize req_bytes;
  struct rusage usage;
  gboolean pinned = FALSE;
  cpu_set_t every_core;
  const GOptionEntry entries[] = {
    { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &budget, "Seconds per measurement (default 3)",
      "S" },
    { "library", 0, 0, G_OPTION_ARG_NONE, &library,
      "Also: a library of random games (listing, loading) and ratings over 100,000 games",
      NULL },
    { "library-games", 0, 0, G_OPTION_ARG_INT, &n_library,
      "Games in the benchmark library (default 10000)", "N" },
    { "engines", 0, 0, G_OPTION_ARG_NONE, &engines,
      "Also: a jobs=2 GNU Go series, Komi's CPU against the engines'", NULL },
    { "models", 0, 0, G_OPTION_ARG_NONE, &models,
      "Also: model series against the rehearsal provider (CPU per call, series efficiency, "
      "peak memory with 64 games in flight)", NULL },
    { "models-memory", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &models_memory,
      "Only the memory figure of --models (run by it in a fresh process)", NULL },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all, "Everything above", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || budget <= 0 || budget > 600)
    {
      fprintf (stderr, "komi-cli bench: %s\n",
               error ? error->message : "--seconds must be between 0 and 600");
      return 2;
    }

  if (models_memory)
    return bench_models_memory ();

  {
    cpu_set_t set;

    CPU_ZERO (&every_core);
    sched_getaffinity (0, sizeof every_core, &every_core);
    CPU_ZERO (&set);
    CPU_SET (sched_getcpu () >= 0 ? sched_getcpu () : 0, &set);
    pinned = sched_setaffinity (0, sizeof set, &set) == 0;
  }

  printf ("komi-cli bench %s: one thread%s, %.1f s per figure\n", PACKAGE_VERSION,
          pinned ? " pinned to one core" : "", budget);

  bench_games (budget, 1, &games);
  printf ("random-vs-random 9x9 games: %.0f games/s (%u games, %.1f turns per game, "
          "legal list + superko every turn, area count at the end)\n",
          games.games / games.seconds, games.games, (double) games.turns / games.games);
  printf ("time per turn: %.3f microseconds\n", games.seconds * 1e6 / (double) games.turns);

  bench_requests (budget, &requests, &req_seconds, &req_bytes);
  printf ("Protocol 1 requests built and serialised: %.0f requests/s "
          "(oriented, rules text included, %.0f bytes each)\n",
          requests / req_seconds, (double) req_bytes / requests);

  /* The engine series first: a process that has just built a large
   * library forks its engines more slowly, which a real run never does. */
  if (engines || all)
    {
      g_autofree char *dir = g_dir_make_tmp ("komi-bench-XXXXXX", &error);

      if (dir == NULL || !bench_engine_series (dir, 4, &error))
        return komi_cli_fail ("bench", error);
      g_rmdir (dir);
    }

  if (library || all)
    {
      g_autofree char *dir = g_dir_make_tmp ("komi-bench-XXXXXX", &error);
      double rating_s;

      if (dir == NULL || !bench_library (dir, (guint) CLAMP (n_library, 2, 1000000), &error))
        return komi_cli_fail ("bench", error);
      rating_s = komi_rating_bench (100000, 1);
      printf ("ratings over 100,000 games (one subject, a ladder of four): %.1f ms\n",
              rating_s * 1e3);
      g_rmdir (dir);
    }
  /* Worker threads and a server process, with every core again. */
  if (models || all)
    {
      g_autofree char *dir = g_dir_make_tmp ("komi-bench-XXXXXX", &error);

      if (pinned)
        sched_setaffinity (0, sizeof every_core, &every_core);
      if (dir == NULL || !bench_models (dir, &error) || !bench_models_memory_child (&error))
        return komi_cli_fail ("bench", error);
      g_rmdir (dir);
    }
  getrusage (RUSAGE_SELF, &usage);
  printf ("peak memory: %.1f MiB (maximum resident set size)\n", usage.ru_maxrss / 1024.0);
  printf ("checksum: %" G_GUINT64_FORMAT "\n", games.checksum);
  return 0;
}
