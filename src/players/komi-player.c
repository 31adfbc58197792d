/* komi-player.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include "komi-player.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-player-error-quark, komi_player_error)

void
_komi_player_init (KomiPlayer            *self,
                   const KomiPlayerClass *klass,
                   const char            *spec)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (klass != NULL && klass->genmove != NULL && klass->free != NULL);

  self->klass = klass;
  self->spec = g_strdup (spec != NULL ? spec : klass->kind);
  self->name = NULL;
  self->version = NULL;
  self->settings = g_strdup ("{}");
}

gboolean
komi_player_start_game (KomiPlayer          *self,
                        const KomiGameSetup *setup,
                        GCancellable        *cancellable,
                        GError             **error)
{
  g_return_val_if_fail (self != NULL && self->klass != NULL, FALSE);
  g_return_val_if_fail (setup != NULL, FALSE);
  g_return_val_if_fail (setup->color == KOMI_BLACK || setup->color == KOMI_WHITE, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (self->klass->start_game == NULL)
    return TRUE;
  return self->klass->start_game (self, setup, cancellable, error);
}

gboolean
komi_player_genmove (KomiPlayer      *self,
                     const KomiGame  *game,
                     KomiPoint       *move,
                     GCancellable    *cancellable,
                     GError         **error)
{
  gboolean ok;

  g_return_val_if_fail (self != NULL && self->klass != NULL, FALSE);
  g_return_val_if_fail (game != NULL, FALSE);
  g_return_val_if_fail (move != NULL, FALSE);
  g_return_val_if_fail (!komi_game_is_over (game), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  ok = self->klass->genmove (self, game, move, cancellable, error);
  g_assert (ok || error == NULL || *error != NULL);
  return ok;
}

gboolean
komi_player_notify_move (KomiPlayer      *self,
                         const KomiGame  *game,
                         KomiColor        color,
                         KomiPoint        move,
                         GCancellable    *cancellable,
                         GError         **error)
{
  g_return_val_if_fail (self != NULL && self->klass != NULL, FALSE);
  g_return_val_if_fail (game != NULL, FALSE);
  g_return_val_if_fail (color == KOMI_BLACK || color == KOMI_WHITE, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->klass->notify_move == NULL)
    return TRUE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return self->klass->notify_move (self, game, color, move, cancellable, error);
}

void
komi_player_end_game (KomiPlayer *self)
{
  g_return_if_fail (self != NULL && self->klass != NULL);

  if (self->klass->end_game != NULL)
    self->klass->end_game (self);
}

const char *
komi_player_get_kind (KomiPlayer *self)
{
  g_return_val_if_fail (self != NULL && self->klass != NULL, NULL);

  return self->klass->kind;
}

/* The common fields are freed here; klass->free releases the rest and the
 * struct itself (every kind embeds KomiPlayer as its first member). */
void
komi_player_free (KomiPlayer *self)
{
  char *spec, *name, *version, *settings;

  if (self == NULL)
    return;

  spec = self->spec;
  name = self->name;
  version = self->version;
  settings = self->settings;
  self->klass->free (self);
  g_free (spec);
  g_free (name);
  g_free (version);
  g_free (settings);
}

/* For implementations: replaces a common string field. */
void
_komi_player_set_string (char       **field,
                         const char  *value)
{
  if (*field == value)
    return;
  g_free (*field);
  *field = g_strdup (value);
}
