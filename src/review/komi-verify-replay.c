/* komi-verify-replay.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <string.h>

#include "komi-coords.h"
#include "komi-match-game.h"
#include "komi-verify-private.h"

/* `verify --replay-engines`: a series game's engines are seeded and
 * deterministic (the random player and the mix: rungs' coin by their
 * seeds, GNU Go by --seed, KataGo by its seeded search at a fixed number
 * of visits on one thread), so each engine side started again with the
 * record's seed and settings is asked, at each of its turns, for its move
 * in the recorded position, and must choose the recorded move. The engine
 * is then told the record's move, as the game told it: a difference is
 * said once, at the first move that differs, and the replay of that side
 * stops there (what follows was chosen from another history). */

#define problem(v, check, ...) _komi_verify_problem (v, KOMI_VERIFY_##check, __VA_ARGS__)

/* The engine a spec plays, or NULL for one that is not an engine. */
static const char *
engine_of (const char *spec)
{
  if (g_str_has_prefix (spec, "mix:"))
    {
      const char *colon = strchr (spec + 4, ':');

      return colon != NULL ? colon + 1 : spec;
    }
  return g_str_has_prefix (spec, "model:") ? NULL : spec;
}

/* Whether a spec is one whose engine Komi starts itself: random, gnugo,
 * katago (and their mix: rungs). A gtp: command is any program the record
 * names, so a stranger's library could have it run anything: never. */
static gboolean
replayable (const char *spec)
{
  const char *engine = engine_of (spec);

  return engine != NULL && !g_str_has_prefix (engine, "gtp:");
}

typedef struct
{
  KomiColor    color;
  const char  *spec;
  KomiPlayer  *player;      /* NULL: not replayed */
  gboolean     stopped;     /* a move differed: no more compared */
} Replayed;

static void
replayed_clear (Replayed *r)
{
  if (r->player == NULL)
    return;
  komi_player_end_game (r->player);
  g_clear_pointer (&r->player, komi_player_free);
}

/* Starts @r's engine as the game started it; FALSE with a problem said
 * when it cannot be, or with @error on cancellation. */
static gboolean
start (Replayed *r, KomiVerifiedGame *v, const KomiStoreGame *g,
       const KomiPlayerOptions *engines, GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) local = NULL;
  guint64 seed = r->color == KOMI_BLACK ? g->black_seed : g->white_seed;
  KomiGameSetup setup = {
    .size = g->size,
    .komi = g->komi,
    .color = r->color,
    .seed = seed,
    .max_turns = g->max_turns,
    .orientation = g->orientation,
  };

  if (seed != komi_match_player_seed (g->seed, r->color))
    {
      problem (v, REPLAY, "%s (%s): the recorded seed %" G_GUINT64_FORMAT " is not the one "
               "game seed %" G_GUINT64_FORMAT " gives", komi_color_to_name (r->color), r->spec,
               seed, g->seed);
      return FALSE;
    }
  r->player = komi_player_new_from_spec (r->spec, engines, &local);
  if (r->player != NULL && komi_player_start_game (r->player, &setup, cancellable, &local))
    return TRUE;
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  problem (v, REPLAY, "%s (%s) could not be played again: %s", komi_color_to_name (r->color),
           r->spec, local->message);
  g_clear_pointer (&r->player, komi_player_free);
  return FALSE;
}

gboolean
_komi_verify_replay (KomiVerifiedGame        *v,
                     const KomiStoreGame     *g,
                     const KomiPlayerOptions *engines,
                     guint                   *n_replayed,
                     guint                   *n_unreplayed,
                     GCancellable            *cancellable,
                     GError                 **error)
{
  g_autoptr(KomiGame) game = NULL;
  Replayed sides[2] = { { KOMI_BLACK, g->black_spec, NULL, FALSE },
                        { KOMI_WHITE, g->white_spec, NULL, FALSE } };
  gboolean ok = TRUE;

  /* Imported games have no seeds; a record whose moves do not replay
   * under the rules has been said to fail already. */
  if (g->series_id == 0 || g->setup != NULL)
    return TRUE;
  for (guint i = 0; i < v->checks->len; i++)
    if (g_array_index (v->checks, KomiVerifyCheck, i) == KOMI_VERIFY_MOVES)
      return TRUE;

  for (guint s = 0; s < 2 && ok; s++)
    {
      g_autoptr(GError) local = NULL;

      if (engine_of (sides[s].spec) == NULL)
        continue;
      if (!replayable (sides[s].spec))
        {
          (*n_unreplayed)++;
          continue;
        }
      if (start (&sides[s], v, g, engines, cancellable, &local))
        (*n_replayed)++;
      else if (local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          ok = FALSE;
        }
    }

  game = komi_game_new (g->size, g->max_turns);
  for (guint turn = 1; ok && turn <= g->moves->len; turn++)
    {
      const KomiMove *m = &g_array_index (g->moves, KomiMove, turn - 1);
      Replayed *r = &sides[m->color == KOMI_BLACK ? 0 : 1];
      g_autoptr(GError) local = NULL;
      KomiPoint chosen = KOMI_PASS;

      if (sides[0].player == NULL && sides[1].player == NULL)
        break;
      if (r->player != NULL && !r->stopped)
        {
          char theirs[KOMI_NAME_LEN + 1], ours[KOMI_NAME_LEN + 1];

          if (!komi_player_genmove (r->player, game, &chosen, cancellable, &local))
            {
              if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_propagate_error (error, g_steal_pointer (&local));
                  ok = FALSE;
                  break;
                }
              /* Every recorded move of an engine was one it chose (a void
               * game ends before the move that failed). */
              problem (v, REPLAY, "move %u: %s (%s), played again, did not move: %s", turn,
                       komi_color_to_name (m->color), r->spec, local->message);
              r->stopped = TRUE;
            }
          else if (chosen != m->point)
            {
              problem (v, REPLAY, "move %u: %s (%s), played again from seed %" G_GUINT64_FORMAT
                       ", chooses %s; the record has %s", turn, komi_color_to_name (m->color),
                       r->spec, m->color == KOMI_BLACK ? g->black_seed : g->white_seed,
                       komi_point_to_name (g->size, chosen, ours),
                       komi_point_to_name (g->size, m->point, theirs));
              r->stopped = TRUE;
            }
        }
      /* Legal: the record's moves were replayed under the rules before. */
      if (!komi_game_play (game, m->point, NULL))
        break;
      for (guint s = 0; s < 2; s++)
        if (sides[s].player != NULL && !sides[s].stopped
            && !komi_player_notify_move (sides[s].player, game, m->color, m->point, cancellable,
                                         &local))
          {
            if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
              {
                g_propagate_error (error, g_steal_pointer (&local));
                ok = FALSE;
                break;
              }
            problem (v, REPLAY, "move %u: %s (%s), played again, did not take the move: %s",
                     turn, komi_color_to_name (sides[s].color), sides[s].spec, local->message);
            sides[s].stopped = TRUE;
            g_clear_error (&local);
          }
    }
  replayed_clear (&sides[0]);
  replayed_clear (&sides[1]);
  return ok;
}
