/* komi-random-player.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include <json-glib/json-glib.h>

#include "komi-random-player.h"

/* The random player's move: let L be the legal points of the side to move
 * in board order (komi_game_legal_points) and n their number. While n > 0:
 * i = uniform(n); if L[i] is not an own eye of the side to move (every
 * on-board neighbour is its stone: komi_board_is_own_eye), play L[i];
 * otherwise set L[i] = L[n - 1], n = n - 1 and draw again. When n reaches
 * 0, pass. Each draw is uniform over the points not yet excluded, so the
 * move is uniform over the legal points that are not own eyes. */

KomiPoint
komi_random_choose (KomiRng        *rng,
                    const KomiGame *game,
                    KomiPoint      *buf)
{
  guint8 eyes[KOMI_MAX_POINTS];
  KomiPointSet legal;
  KomiPoint first;
  gboolean eye;
  guint n, i;

  /* The rule above, with the list L made only when the first draw is an
   * own eye: until then L[i] is the i-th legal point in board order,
   * which the set gives without writing out the list. Eyes are tested
   * lazily: most draws hit a non-eye at once. */
  komi_game_legal_set (game, &legal);
  n = legal.n;
  if (n == 0)
    return KOMI_PASS;
  i = (guint) komi_rng_uniform (rng, n);
  first = komi_point_set_nth (&legal, i, &eye);
  if (!eye)
    return first;

  /* The list, and which of its points are own eyes (the set knows). */
  komi_point_set_to_points_and_eyes (&legal, buf, eyes);
  n--;
  buf[i] = buf[n];
  eyes[i] = eyes[n];
  while (n > 0)
    {
      i = (guint) komi_rng_uniform (rng, n);
      if (!eyes[i])
        return buf[i];
      n--;
      buf[i] = buf[n];
      eyes[i] = eyes[n];
    }
  return KOMI_PASS;
}

/* The player ----------------------------------------------------------------*/

typedef struct
{
  KomiPlayer parent;
  KomiRng    rng;
  guint64    seed;
  KomiColor  color;
  guint      n_chosen;   /* own moves drawn from the stream so far */
  /* Reused by every genmove: the benchmark plays tens of thousands of
   * games a second, so the move path must not allocate. */
  KomiPoint  buf[KOMI_MAX_POINTS];
} KomiRandomPlayer;

static void
update_settings (KomiRandomPlayer *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  /* A string: a 64-bit seed is more than a JSON number keeps exactly. */
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, self->seed);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "random");
  json_builder_set_member_name (b, "generator");
  json_builder_add_string_value (b, "xoshiro256** seeded by SplitMix64");
  json_builder_set_member_name (b, "seed");
  json_builder_add_string_value (b, seed);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  g_free (self->parent.settings);
  self->parent.settings = json_to_string (root, FALSE);
}

static gboolean
random_start_game (KomiPlayer          *player,
                   const KomiGameSetup *setup,
                   GCancellable        *cancellable,
                   GError             **error)
{
  KomiRandomPlayer *self = (KomiRandomPlayer *) player;

  self->seed = setup->seed;
  self->color = setup->color;
  self->n_chosen = 0;
  komi_rng_init (&self->rng, setup->seed);
  update_settings (self);
  return TRUE;
}

/* A game resumed from its record already holds moves this player made in
 * an earlier process. Draw them again from the stream, on the positions
 * they were drawn on, so the next draw is the one an uninterrupted game
 * would make. */
static void
catch_up (KomiRandomPlayer *self, const KomiGame *game)
{
  guint n_moves, n_own = 0;
  const KomiMove *moves = komi_game_get_moves (game, &n_moves);
  g_autoptr(KomiGame) replay = komi_game_new (komi_game_get_size (game),
                                              komi_game_get_max_turns (game));

  for (guint i = 0; i < n_moves; i++)
    {
      if (moves[i].color == self->color && n_own++ >= self->n_chosen)
        {
          KomiPoint drawn = komi_random_choose (&self->rng, replay, self->buf);

          if (drawn != moves[i].point)
            g_debug ("Random player: move %u of the record is not this seed's draw", i + 1);
          self->n_chosen++;
        }
      if (!komi_game_play (replay, moves[i].point, NULL))
        break;
    }
}

static gboolean
random_genmove (KomiPlayer      *player,
                const KomiGame  *game,
                KomiPoint       *move,
                GCancellable    *cancellable,
                GError         **error)
{
  KomiRandomPlayer *self = (KomiRandomPlayer *) player;
  guint n_moves, n_own = 0;
  const KomiMove *moves = komi_game_get_moves (game, &n_moves);

  g_assert (komi_game_get_size (game) <= KOMI_MAX_SIZE);

  for (guint i = 0; i < n_moves; i++)
    n_own += moves[i].color == self->color;
  if (n_own > self->n_chosen)
    catch_up (self, game);

  *move = komi_random_choose (&self->rng, game, self->buf);
  self->n_chosen++;
  return TRUE;
}

static void
random_free (KomiPlayer *player)
{
  g_free (player);
}

static const KomiPlayerClass random_class = {
  .kind = "random",
  .start_game = random_start_game,
  .genmove = random_genmove,
  .notify_move = NULL,
  .end_game = NULL,
  .free = random_free,
};

KomiPlayer *
komi_random_player_new (void)
{
  KomiRandomPlayer *self = g_new0 (KomiRandomPlayer, 1);

  _komi_player_init (&self->parent, &random_class, "random");
  self->parent.name = g_strdup ("Random");
  /* The version names the generator and move rule above; bump it if either
   * ever changes, since recorded seeds would then replay differently. */
  self->parent.version = g_strdup ("1");
  self->seed = 0;
  komi_rng_init (&self->rng, 0);
  update_settings (self);

  return &self->parent;
}
