/* komi-mixed-player.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "komi-mixed-player.h"
#include "komi-random-player.h"

/* What each move of the game was, by its index in the game. */
enum
{
  TURN_UNKNOWN = 0,   /* the opponent's, or not yet decided */
  TURN_ENGINE,        /* own, chosen by the engine */
  TURN_RANDOM,        /* own, the random player's move */
};

typedef struct
{
  KomiPlayer  parent;
  KomiPlayer *engine;       /* a GTP player; owned */
  char       *engine_spec;  /* "gnugo:1" */
  double      p;            /* chance of a random move per own turn */
  KomiColor   color;
  guint64     seed;
  KomiRng     coin;
  KomiRng     moves;        /* the random player's stream */
  GByteArray *turns;        /* TURN_* per move index of the game */
  guint       n_seen;       /* moves of the game whose own turns are decided */
  guint       n_turns;      /* own turns decided in this game */
  guint       n_random;     /* of which random */
  KomiPoint   buf[KOMI_MAX_POINTS];
} KomiMixedPlayer;

/* One coin per own turn, always drawn, so the stream stays in step
 * whatever the outcome: TRUE means "play the random move". */
static gboolean
flip (KomiMixedPlayer *self)
{
  double u = (double) (komi_rng_next (&self->coin) >> 11) * 0x1.0p-53;

  return u < self->p;
}

static void
set_turn (KomiMixedPlayer *self, guint index, guint8 what)
{
  if (self->turns->len <= index)
    {
      guint old = self->turns->len;

      g_byte_array_set_size (self->turns, index + 1);
      memset (self->turns->data + old, TURN_UNKNOWN, index + 1 - old);
    }
  self->turns->data[index] = what;
  self->n_turns++;
  self->n_random += what == TURN_RANDOM;
}

static gboolean
engine_chose (guint index, gpointer user_data)
{
  KomiMixedPlayer *self = user_data;

  return index >= self->turns->len || self->turns->data[index] != TURN_RANDOM;
}

/* Decides the own turns of moves [n_seen, n_moves) of @game that were made
 * before this player object saw them (a resumed game): the coin is flipped
 * again and, for a random turn, the random move drawn again on the
 * position it was drawn on, so the streams stand where an uninterrupted
 * game would have left them. */
static void
catch_up (KomiMixedPlayer *self, const KomiGame *game)
{
  guint n_moves;
  const KomiMove *moves = komi_game_get_moves (game, &n_moves);
  g_autoptr(KomiGame) replay = NULL;

  for (guint i = self->n_seen; i < n_moves; i++)
    {
      if (moves[i].color != self->color)
        continue;
      if (i < self->turns->len && self->turns->data[i] != TURN_UNKNOWN)
        continue;   /* decided by genmove */
      if (!flip (self))
        {
          set_turn (self, i, TURN_ENGINE);
          continue;
        }
      set_turn (self, i, TURN_RANDOM);
      /* The position before move i, replayed from the start. */
      g_clear_pointer (&replay, komi_game_free);
      replay = komi_game_new (komi_game_get_size (game), komi_game_get_max_turns (game));
      for (guint j = 0; j < i; j++)
        if (!komi_game_play (replay, moves[j].point, NULL))
          break;
      if (komi_random_choose (&self->moves, replay, self->buf) != moves[i].point)
        g_debug ("Mixed player: move %u of the record is not this seed's random draw", i + 1);
    }
  self->n_seen = n_moves;
}

/* The settings as one JSON object, the engine's own settings inside it. */
static void
update_settings (KomiMixedPlayer *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) engine = json_from_string (self->engine->settings, NULL);
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, self->seed);
  g_autofree char *coin_seed = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                self->seed ^ KOMI_MIXED_COIN_SALT);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, "mix");
  json_builder_set_member_name (builder, "p");
  json_builder_add_double_value (builder, self->p);
  /* As text: a 64-bit seed does not survive a JSON double. */
  json_builder_set_member_name (builder, "seed");
  json_builder_add_string_value (builder, seed);
  json_builder_set_member_name (builder, "coin_seed");
  json_builder_add_string_value (builder, coin_seed);
  json_builder_set_member_name (builder, "coin");
  json_builder_add_string_value (builder, "one draw per own turn: u = (next() >> 11) / 2^53 "
                                          "of xoshiro256** seeded by SplitMix64 with "
                                          "coin_seed; the random move when u < p");
  json_builder_set_member_name (builder, "random");
  json_builder_add_string_value (builder, "the random player's move with seed, drawn on "
                                          "random turns only");
  json_builder_set_member_name (builder, "engine_spec");
  json_builder_add_string_value (builder, self->engine_spec);
  json_builder_set_member_name (builder, "engine");
  if (engine != NULL)
    json_builder_add_value (builder, g_steal_pointer (&engine));
  else
    json_builder_add_string_value (builder, self->engine->settings);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  g_free (self->parent.settings);
  self->parent.settings = json_generator_to_data (generator, NULL);
}

static gboolean
mixed_start_game (KomiPlayer          *player,
                  const KomiGameSetup *setup,
                  GCancellable        *cancellable,
                  GError             **error)
{
  KomiMixedPlayer *self = (KomiMixedPlayer *) player;
  char percent[G_ASCII_DTOSTR_BUF_SIZE];

  self->color = setup->color;
  self->seed = setup->seed;
  komi_rng_init (&self->moves, setup->seed);
  komi_rng_init (&self->coin, setup->seed ^ KOMI_MIXED_COIN_SALT);
  g_byte_array_set_size (self->turns, 0);
  self->n_seen = 0;
  self->n_turns = 0;
  self->n_random = 0;

  if (!komi_player_start_game (self->engine, setup, cancellable, error))
    return FALSE;

  g_ascii_formatd (percent, sizeof percent, "%g", self->p * 100);
  g_free (self->parent.name);
  self->parent.name = g_strdup_printf ("%s with %s%% random moves",
                                       self->engine->name, percent);
  _komi_player_set_string (&self->parent.version, self->engine->version);
  update_settings (self);
  return TRUE;
}

static gboolean
mixed_genmove (KomiPlayer      *player,
               const KomiGame  *game,
               KomiPoint       *move,
               GCancellable    *cancellable,
               GError         **error)
{
  KomiMixedPlayer *self = (KomiMixedPlayer *) player;
  guint n_moves;

  komi_game_get_moves (game, &n_moves);
  catch_up (self, game);

  if (flip (self))
    {
      /* The engine hears of it with the other moves, in notify_move. */
      set_turn (self, n_moves, TURN_RANDOM);
      *move = komi_random_choose (&self->moves, game, self->buf);
      return TRUE;
    }
  set_turn (self, n_moves, TURN_ENGINE);
  return komi_player_genmove (self->engine, game, move, cancellable, error);
}

static gboolean
mixed_notify_move (KomiPlayer      *player,
                   const KomiGame  *game,
                   KomiColor        color,
                   KomiPoint        move,
                   GCancellable    *cancellable,
                   GError         **error)
{
  KomiMixedPlayer *self = (KomiMixedPlayer *) player;

  /* Decided before the engine is synced: it asks engine_chose(). */
  catch_up (self, game);
  return komi_player_notify_move (self->engine, game, color, move, cancellable, error);
}

static void
mixed_end_game (KomiPlayer *player)
{
  komi_player_end_game (((KomiMixedPlayer *) player)->engine);
}

static void
mixed_free (KomiPlayer *player)
{
  KomiMixedPlayer *self = (KomiMixedPlayer *) player;

  g_clear_pointer (&self->engine, komi_player_free);
  g_byte_array_unref (self->turns);
  g_free (self->engine_spec);
  g_free (self);
}

static const KomiPlayerClass mixed_class = {
  .kind = "mix",
  .start_game = mixed_start_game,
  .genmove = mixed_genmove,
  .notify_move = mixed_notify_move,
  .end_game = mixed_end_game,
  .free = mixed_free,
};

KomiPlayer *
komi_mixed_player_new (const char          *spec,
                       double               p,
                       const char          *engine_spec,
                       const KomiGtpRecipe *recipe)
{
  KomiMixedPlayer *self;

  g_return_val_if_fail (spec != NULL && engine_spec != NULL && recipe != NULL, NULL);
  g_return_val_if_fail (p >= 0 && p <= 1, NULL);

  self = g_new0 (KomiMixedPlayer, 1);
  _komi_player_init (&self->parent, &mixed_class, spec);
  self->engine = komi_gtp_player_new (engine_spec, recipe);
  komi_gtp_player_set_chose_func (self->engine, engine_chose, self);
  self->engine_spec = g_strdup (engine_spec);
  self->p = p;
  self->turns = g_byte_array_new ();
  self->parent.name = g_strdup (self->engine->name);
  komi_rng_init (&self->moves, 0);
  komi_rng_init (&self->coin, KOMI_MIXED_COIN_SALT);
  update_settings (self);
  return &self->parent;
}

static KomiMixedPlayer *
as_mixed (KomiPlayer *player)
{
  g_return_val_if_fail (player != NULL && player->klass == &mixed_class, NULL);
  return (KomiMixedPlayer *) player;
}

guint
komi_mixed_player_get_n_random (KomiPlayer *player)
{
  KomiMixedPlayer *self = as_mixed (player);

  return self != NULL ? self->n_random : 0;
}

guint
komi_mixed_player_get_n_turns (KomiPlayer *player)
{
  KomiMixedPlayer *self = as_mixed (player);

  return self != NULL ? self->n_turns : 0;
}

KomiPlayer *
komi_mixed_player_get_engine (KomiPlayer *player)
{
  KomiMixedPlayer *self = as_mixed (player);

  return self != NULL ? self->engine : NULL;
}
