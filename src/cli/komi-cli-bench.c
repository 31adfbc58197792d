/* komi-cli-bench.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "komi-cli.h"
#include "komi-cli-bench.h"
#include "komi-cli-util.h"
#include "komi-protocol-state.h"
#include "komi-random-player.h"
#include "komi-rate-plan.h"
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
  double  cpu_seconds; /* the thread's CPU time: steadier on a shared machine */
  guint64 checksum;   /* keeps the work from being optimised away */
} GameFigures;

static double
thread_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Random-vs-random games as a series plays them: the full legal list and
 * superko check every turn (the random player's choice), the area count at
 * the end. */
static void
bench_games (double budget, guint64 seed, GameFigures *f)
{
  KomiPoint buf[KOMI_MAX_POINTS];
  gint64 start = g_get_monotonic_time ();
  double cpu_start = thread_cpu_seconds ();
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
  f->cpu_seconds = thread_cpu_seconds () - cpu_start;
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
void
_komi_cli_bench_remove_library (const char *path)
{
  for (const char *const *ext = (const char *const[]) { "", "-wal", "-shm", NULL }; *ext; ext++)
    {
      g_autofree char *file = g_strconcat (path, *ext, NULL);
      g_unlink (file);
    }
}

double
_komi_cli_bench_ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e3;
}

static KomiSeries *
bench_series (const char *subject, const char *opponent, guint pairs, guint jobs)
{
  return komi_cli_series_new ("bench", subject, opponent, pairs, 1, "gnugo", jobs, NULL);
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
  printf (_("library: %u random-vs-random games played and written in %.0f ms\n"), n,
          _komi_cli_bench_ms_since (start));

  if ((reader = komi_store_open_reader (path, error)) == NULL)
    return FALSE;
  start = g_get_monotonic_time ();
  listed = komi_store_list_games (reader, KOMI_STORE_ALL_GAMES, error);
  list_ms = _komi_cli_bench_ms_since (start);
  if (listed == NULL)
    return FALSE;
  for (guint i = 0; i < listed->len; i += listed->len / 20 + 1, loads++)
    {
      g_autoptr(KomiStoreGame) game = NULL;

      start = g_get_monotonic_time ();
      game = komi_store_load_game (reader, ((KomiStoreGame *) g_ptr_array_index (listed, i))->id,
                                   error);
      load_ms += _komi_cli_bench_ms_since (start);
      if (game == NULL)
        return FALSE;
    }
  printf (_("library: list %u games with results: %.1f ms; load one game with all its moves: "
            "%.2f ms (mean of %u)\n"), listed->len, list_ms, load_ms / loads, loads);
  g_clear_pointer (&reader, komi_store_unref);
  g_clear_pointer (&store, komi_store_unref);
  _komi_cli_bench_remove_library (path);
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
                   _("GNU Go is needed for the engine series (apt-get install gnugo)"));
      return FALSE;
    }
  if ((store = komi_store_open (path, error)) == NULL)
    return FALSE;
  sink = komi_store_new_sink (store);
  getrusage (RUSAGE_SELF, &self_before);
  getrusage (RUSAGE_CHILDREN, &kids_before);
  start = g_get_monotonic_time ();
  result = komi_series_run (series, sink, 2, NULL, NULL, NULL, error);
  wall = _komi_cli_bench_ms_since (start) / 1e3;
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
  printf (_("engine series (GNU Go level 1 vs random, %u games, jobs=2, GNU Go referee): "
            "wall %.2f s; engines' CPU %.2f s; Komi's CPU %.3f s = %.2f%% of the engines'; "
            "wall x 2 cores / engines' CPU = %.2f\n"),
          2 * pairs, wall, kids_cpu, self_cpu, 100 * self_cpu / kids_cpu, wall * 2 / kids_cpu);
  g_clear_pointer (&store, komi_store_unref);
  _komi_cli_bench_remove_library (path);
  return TRUE;
}

int
komi_cli_bench (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  double budget = 3;
  gboolean library = FALSE, engines = FALSE, models = FALSE, models_memory = FALSE, all = FALSE;
  gboolean models_cpu = FALSE, rating = FALSE;
  g_autofree char *ladder = NULL;
  int subjects = 200, rating_seed = 1, min_pairs = KOMI_RATE_DEFAULT_MIN_PAIRS;
  double target = KOMI_RATE_DEFAULT_TARGET;
  int n_library = 10000;
  GameFigures games;
  guint requests;
  double req_seconds;
  gsize req_bytes;
  struct rusage usage;
  gboolean pinned = FALSE;
  cpu_set_t every_core;
  int status;
  const GOptionEntry entries[] = {
    { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &budget,
      N_("Seconds per measurement (default 3)"), N_("S") },
    { "library", 0, 0, G_OPTION_ARG_NONE, &library,
      N_("Also: a library of random games (listing, loading) and ratings over 100,000 games"),
      NULL },
    { "library-games", 0, 0, G_OPTION_ARG_INT, &n_library,
      N_("Games in the benchmark library (default 10000)"), N_("N") },
    { "engines", 0, 0, G_OPTION_ARG_NONE, &engines,
      N_("Also: a jobs=2 GNU Go series, Komi's CPU against the engines'"), NULL },
    { "models", 0, 0, G_OPTION_ARG_NONE, &models,
      N_("Also: model series against the rehearsal provider (CPU per call, series efficiency, "
         "peak memory with 64 games in flight)"), NULL },
    { "rating", 0, 0, G_OPTION_ARG_NONE, &rating,
      N_("Only: rating simulated subjects adaptively against a fixed plan (games to the "
         "target, coverage)"), NULL },
    { "ladder", 0, 0, G_OPTION_ARG_FILENAME, &ladder,
      N_("With --rating: the ladder file (default: a test ladder of 14 members)"), N_("FILE") },
    { "subjects", 0, 0, G_OPTION_ARG_INT, &subjects,
      N_("With --rating: simulated subjects (default 200)"), N_("N") },
    { "seed", 0, 0, G_OPTION_ARG_INT, &rating_seed, N_("With --rating: the seed (default 1)"),
      N_("S") },
    { "target", 0, 0, G_OPTION_ARG_DOUBLE, &target,
      /* xgettext:no-c-format */
      N_("With --rating: the 95% interval's half-width to reach (default 105 Elo)"),
      N_("ELO") },
    { "min-pairs", 0, 0, G_OPTION_ARG_INT, &min_pairs,
      N_("With --rating: pairs before a subject may stop (default 4)"), N_("N") },
    /* Hidden, never in --help: not translated. */
    { "models-memory", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &models_memory,
      "Only the memory figure of --models (run by it in a fresh process)", NULL },
    { "models-cpu", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &models_cpu,
      "Only the CPU figure of --models (for profiling)", NULL },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all, N_("Everything above"), NULL },
    { NULL }
  };

  const KomiCliOptions parse = { "bench", N_("- measure the rules core and the protocol on one "
                                             "core"), .entries = entries };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (budget <= 0 || budget > 600)
    return komi_cli_usage ("bench", "%s", _("--seconds must be between 0 and 600"));

  if (models_memory)
    return _komi_cli_bench_models_memory ();
  if (rating)
    {
      if (subjects < 1 || subjects > 1000000 || rating_seed < 0 || !(target > 0)
          || min_pairs < 0 || min_pairs > 1000)
        return komi_cli_usage ("bench", "%s", _("--subjects from 1, --seed from 0, --target "
                                                "above 0 and --min-pairs from 0 to 1000"));
      return _komi_cli_bench_rating (ladder, (guint) subjects, (guint32) rating_seed, target,
                                     (guint) min_pairs);
    }
  if (models_cpu)
    {
      g_autofree char *dir = g_dir_make_tmp ("komi-bench-XXXXXX", &error);

      if (dir == NULL || !_komi_cli_bench_models (dir, TRUE, &error))
        return komi_cli_fail ("bench", error);
      g_rmdir (dir);
      return 0;
    }

  {
    cpu_set_t set;

    CPU_ZERO (&every_core);
    sched_getaffinity (0, sizeof every_core, &every_core);
    CPU_ZERO (&set);
    CPU_SET (sched_getcpu () >= 0 ? sched_getcpu () : 0, &set);
    pinned = sched_setaffinity (0, sizeof set, &set) == 0;
  }

  if (pinned)
    printf (_("komi-cli bench %s: one thread pinned to one core, %.1f s per figure\n"),
            PACKAGE_VERSION, budget);
  else
    printf (_("komi-cli bench %s: one thread, %.1f s per figure\n"), PACKAGE_VERSION, budget);

  bench_games (budget, 1, &games);
  printf (_("random-vs-random 9x9 games: %.0f games/s (%u games, %.1f turns per game, "
            "legal list + superko every turn, area count at the end)\n"),
          games.games / games.seconds, games.games, (double) games.turns / games.games);
  printf (_("time per turn: %.3f microseconds\n"), games.seconds * 1e6 / (double) games.turns);
  printf (_("CPU time per turn: %.3f microseconds (this thread's; steadier than the clock "
            "when other work shares the core)\n"),
          games.cpu_seconds * 1e6 / (double) games.turns);

  bench_requests (budget, &requests, &req_seconds, &req_bytes);
  printf (_("Protocol 1 requests built and serialised: %.0f requests/s "
            "(oriented, rules text included, %.0f bytes each)\n"),
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
      printf (_("ratings over 100,000 games (one subject, a ladder of four): %.1f ms\n"),
              rating_s * 1e3);
      g_rmdir (dir);
    }
  /* Worker threads and a server process, with every core again. */
  if (models || all)
    {
      g_autofree char *dir = g_dir_make_tmp ("komi-bench-XXXXXX", &error);

      if (pinned)
        sched_setaffinity (0, sizeof every_core, &every_core);
      if (dir == NULL || !_komi_cli_bench_models (dir, FALSE, &error)
          || !_komi_cli_bench_models_memory_child (&error))
        return komi_cli_fail ("bench", error);
      g_rmdir (dir);
    }
  getrusage (RUSAGE_SELF, &usage);
  printf (_("peak memory: %.1f MiB (maximum resident set size)\n"), usage.ru_maxrss / 1024.0);
  printf (_("checksum: %" PRIu64 "\n"), games.checksum);
  return 0;
}
