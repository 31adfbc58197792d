/* komi-cli-bench.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>

#include "komi-cli.h"
#include "komi-protocol-state.h"
#include "komi-random-player.h"
#include "komi-score.h"

/* `bench`: figures, never assertions. Everything runs on the calling
 * thread, pinned to one core where the system allows it. */

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

int
komi_cli_bench (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- measure the rules core and "
                                                            "the protocol on one core");
  g_autoptr(GError) error = NULL;
  double budget = 3;
  GameFigures games;
  guint requests;
  double req_seconds;
  gsize req_bytes;
  struct rusage usage;
  gboolean pinned = FALSE;
  const GOptionEntry entries[] = {
    { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &budget, "Seconds per measurement (default 3)",
      "S" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || budget <= 0 || budget > 600)
    {
      fprintf (stderr, "komi-cli bench: %s\n",
               error ? error->message : "--seconds must be between 0 and 600");
      return 2;
    }

  {
    cpu_set_t set;
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

  getrusage (RUSAGE_SELF, &usage);
  printf ("peak memory: %.1f MiB (maximum resident set size)\n", usage.ru_maxrss / 1024.0);
  printf ("checksum: %" G_GUINT64_FORMAT "\n", games.checksum);
  return 0;
}
