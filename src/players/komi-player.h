/* komi-player.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-game.h"

G_BEGIN_DECLS

/* One interface, several kinds of player: the seeded random player, GTP
 * engines (GNU Go, KataGo, any GTP program) and, later, models. A player is
 * used by one game at a time, on one worker thread; every call that can
 * block takes a GCancellable and honours the player's timeout. */

typedef struct _KomiPlayer KomiPlayer;

typedef struct
{
  guint      size;
  double     komi;
  KomiColor  color;      /* the colour this player takes */
  guint64    seed;       /* per-game seed derived by the caller */
  guint      max_turns;
  guint      orientation; /* KomiOrientation the board is shown in (models) */
} KomiGameSetup;

typedef struct
{
  const char *kind;     /* "random", "gtp", "mix", "model" */
  /* Prepares a new game (starts or resets an engine). */
  gboolean (*start_game)  (KomiPlayer          *self,
                           const KomiGameSetup *setup,
                           GCancellable        *cancellable,
                           GError             **error);
  /* The side to move in @game is this player's: choose its move. A GTP
   * engine answers "resign" with KOMI_PLAYER_ERROR_RESIGNED. */
  gboolean (*genmove)     (KomiPlayer          *self,
                           const KomiGame      *game,
                           KomiPoint           *move,
                           GCancellable        *cancellable,
                           GError             **error);
  /* @move by @color has been played and accepted by the referee's rules;
   * @game already includes it. Called for both sides' moves. */
  gboolean (*notify_move) (KomiPlayer          *self,
                           const KomiGame      *game,
                           KomiColor            color,
                           KomiPoint            move,
                           GCancellable        *cancellable,
                           GError             **error);
  void     (*end_game)    (KomiPlayer          *self);
  void     (*free)        (KomiPlayer          *self);
} KomiPlayerClass;

struct _KomiPlayer
{
  const KomiPlayerClass *klass;
  char *spec;        /* as written by the user: "gnugo:1" */
  char *name;        /* "GNU Go", "Random" (filled at start_game for engines) */
  char *version;     /* "3.8" */
  char *settings;    /* every setting and seed, as a JSON object text */
};

#define KOMI_PLAYER_ERROR (komi_player_error_quark ())
GQuark komi_player_error_quark (void);

typedef enum
{
  /* A player's description is judged with KOMI_PLAYER_SPEC_ERROR
   * (komi-player-spec.h), which names the part that is wrong. */
  KOMI_PLAYER_ERROR_NOT_FOUND,       /* the engine's program is gone at its start */
  KOMI_PLAYER_ERROR_START,           /* the engine did not start or speak GTP */
  KOMI_PLAYER_ERROR_TIMEOUT,         /* no answer in time */
  KOMI_PLAYER_ERROR_DIED,            /* the engine process ended */
  KOMI_PLAYER_ERROR_GTP,             /* the engine answered "? …" */
  KOMI_PLAYER_ERROR_PROTOCOL,        /* an answer we cannot parse */
  KOMI_PLAYER_ERROR_RESIGNED,        /* the engine resigned */
  KOMI_PLAYER_ERROR_ILLEGAL_MOVE,    /* the engine chose a move the rules forbid */
  KOMI_PLAYER_ERROR_FORFEIT,         /* a model gave no valid answer in its attempts */
  KOMI_PLAYER_ERROR_PAUSED,          /* a provider stayed unreachable past its budget:
                                      * stop now, resume later, nothing counted */
  KOMI_PLAYER_ERROR_FATAL,           /* a setting must be fixed (key, model, quota) */
} KomiPlayerError;

gboolean komi_player_start_game  (KomiPlayer          *self,
                                  const KomiGameSetup *setup,
                                  GCancellable        *cancellable,
                                  GError             **error);
gboolean komi_player_genmove     (KomiPlayer          *self,
                                  const KomiGame      *game,
                                  KomiPoint           *move,
                                  GCancellable        *cancellable,
                                  GError             **error);
gboolean komi_player_notify_move (KomiPlayer          *self,
                                  const KomiGame      *game,
                                  KomiColor            color,
                                  KomiPoint            move,
                                  GCancellable        *cancellable,
                                  GError             **error);
void     komi_player_end_game    (KomiPlayer          *self);
void     komi_player_free        (KomiPlayer          *self);
const char *komi_player_get_kind (KomiPlayer          *self);

/* For implementations: fills the common fields. */
void     _komi_player_init       (KomiPlayer            *self,
                                  const KomiPlayerClass *klass,
                                  const char            *spec);
/* For implementations: replaces one of the common strings (name, settings…). */
void     _komi_player_set_string (char                 **field,
                                  const char            *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiPlayer, komi_player_free)

G_END_DECLS
