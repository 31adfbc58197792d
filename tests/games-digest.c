/* games-digest.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Prints a digest of seeded random-vs-random games: every move, and with
 * --lists the legal points and the points forbidden by superko of every
 * turn; the area count at the end. Two builds of the rules core that print
 * the same digest played the same games. Built with the tests (not run by
 * meson test: tests/test-random-player.c freezes 400 games), and by
 * build-aux/games-digest against any build's libraries (it uses only the
 * public API), so a build of an older version can be compared too. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "komi-game.h"
#include "komi-random-player.h"
#include "komi-score.h"

static guint64
mix (guint64 hash, guint64 value)
{
  return (hash ^ value) * G_GUINT64_CONSTANT (1099511628211);  /* FNV-1a's prime */
}

int
main (int argc, char *argv[])
{
  KomiPoint buf[KOMI_MAX_POINTS], list[KOMI_MAX_POINTS];
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037), turns = 0;
  gboolean lists = argc > 3 && strcmp (argv[3], "--lists") == 0;
  guint size, games, max_turns;

  if (argc < 3 || (argc > 3 && !lists))
    {
      fprintf (stderr, "usage: %s SIZE GAMES [--lists]\n", argv[0]);
      return 2;
    }
  size = (guint) atoi (argv[1]);
  games = (guint) atoi (argv[2]);
  if (size < KOMI_MIN_SIZE || size > KOMI_MAX_SIZE)
    {
      fprintf (stderr, "The size must be %d to %d.\n", KOMI_MIN_SIZE, KOMI_MAX_SIZE);
      return 2;
    }
  /* Protocol 1's limit on 9x9; longer games elsewhere, where superko
   * cycles come up. */
  max_turns = size == 9 ? KOMI_PROTOCOL_MAX_TURNS : size * size * 3;

  for (guint g = 1; g <= games; g++)
    {
      g_autoptr(KomiGame) game = komi_game_new (size, max_turns);
      KomiScore score;
      KomiRng rng;

      komi_rng_init (&rng, g * G_GUINT64_CONSTANT (2654435761));
      while (!komi_game_is_over (game))
        {
          KomiPoint move;

          if (lists)
            {
              guint n = komi_game_superko_points (game, list);

              for (guint i = 0; i < n; i++)
                hash = mix (hash, (guint64) list[i] + 1000);
              n = komi_game_legal_points (game, list);
              for (guint i = 0; i < n; i++)
                hash = mix (hash, (guint64) list[i] + 5000);
            }
          move = komi_random_choose (&rng, game, buf);
          hash = mix (hash, (guint64) (move + 2));
          if (!komi_game_play (game, move, NULL))
            {
              fprintf (stderr, "Game %u: the random player's move was refused.\n", g);
              return 1;
            }
        }
      komi_score_area (komi_game_get_board (game), NULL, 0, 7, &score);
      hash = mix (hash, (guint64) (score.black_total * 2 + 100000));
      turns += komi_game_get_turns_played (game);
    }
  printf ("%ux%u, %u games%s: %" G_GUINT64_FORMAT " turns, digest %016" G_GINT64_MODIFIER "x\n",
          size, size, games, lists ? " with every turn's legal and superko points" : "",
          turns, hash);
  return 0;
}
