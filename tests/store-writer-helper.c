/* store-writer-helper.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "komi-coords.h"
#include "komi-store-test-util.h"

/* The victim of the crash test: plays the games of a small series through
 * the library's sink, resuming what an earlier (killed) run committed, and
 * prints one line per move *after* its commit returned:
 *   M GAME TURN POINT     a committed move
 *   F GAME                a committed finished game
 * Usage: store-writer-helper LIBRARY.db N_PAIRS */

static void
die (const GError *error)
{
  fprintf (stderr, "store-writer-helper: %s\n", error->message);
  exit (1);
}

static void
play (KomiSeriesSink *sink, const KomiPlannedGame *planned)
{
  g_autoptr(GArray) moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiGameRecord) record = NULL;
  gboolean finished = FALSE;
  KomiGame *game;

  if (!sink->klass->game_state (sink, planned, &finished, moves, &error))
    die (error);
  if (finished)
    return;
  game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  record = test_record_new (planned, game);
  for (guint i = 0; i < moves->len; i++)
    if (!komi_game_play (game, g_array_index (moves, KomiMove, i).point, &error))
      die (error);
  if (!sink->klass->game_started (sink, planned, record, &error))
    die (error);

  while (!komi_game_is_over (game))
    {
      KomiMove move = test_random_move (planned, game);
      guint turn = komi_game_get_turns_played (game) + 1;
      char name[KOMI_NAME_LEN + 1];

      if (!komi_game_play (game, move.point, &error)
          || !sink->klass->move_played (sink, planned, turn, &move, &error))
        die (error);
      printf ("M %u %u %s\n", planned->index, turn, komi_point_to_name (9, move.point, name));
      fflush (stdout);
    }
  test_record_count (record);
  if (!sink->klass->game_finished (sink, planned, record, &error))
    die (error);
  printf ("F %u\n", planned->index);
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(TestSeries) series = NULL;
  KomiSeriesSink *sink;
  gint64 series_id;

  if (argc != 3)
    {
      fprintf (stderr, "usage: store-writer-helper LIBRARY.db N_PAIRS\n");
      return 2;
    }
  series = test_series_new ("crash", 7, (guint) atoi (argv[2]));
  if ((store = komi_store_open (argv[1], &error)) == NULL)
    die (error);
  sink = komi_store_new_sink (store);
  if (!sink->klass->begin_series (sink, &series->series, series->plan, &series_id, &error))
    die (error);
  for (guint i = 0; i < series->plan->len; i++)
    play (sink, test_planned (series, i));
  komi_store_sink_free (sink);
  return 0;
}
