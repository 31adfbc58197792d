/* komi-model-player.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-player-spec.h"
#include "komi-provider.h"

G_BEGIN_DECLS

/* A language model as a player: each turn it is asked Protocol 1's two
 * questions through a provider, in the game's orientation, and its answer
 * is mapped back to the real board. Written `model:PROFILE.json`. */

#define KOMI_MODEL_MAX_ATTEMPTS 3

/* Every HTTP attempt of the player, twice (in flight, then complete; see
 * KomiProviderAttempt), with the move number it was for; the caller
 * records it before anything is acted on (a FALSE return stops the game
 * with @error, and an attempt in flight is then never sent). */
typedef gboolean (*KomiModelAttemptFunc) (guint                      turn,
                                          const KomiProviderAttempt *attempt,
                                          gpointer                   user_data,
                                          GError                   **error);
/* Asked before each new call: FALSE (with @error) when it must not be
 * made, e.g. a series budget that the call could exceed. */
typedef gboolean (*KomiModelGateFunc)    (gpointer                   user_data,
                                          GError                   **error);

/* What the record holds of the turn a resumed game stopped in, so the
 * model is not asked again what it already answered: per question, the
 * answer accepted (NULL: none yet) and the model faults already spent on
 * it (they count against KOMI_MODEL_MAX_ATTEMPTS as if the run had gone
 * on). */
typedef struct
{
  guint  turn;                                      /* 0: nothing recorded */
  char  *answers[KOMI_PROTOCOL_N_QUESTIONS];        /* as the model gave them */
  guint  model_faults[KOMI_PROTOCOL_N_QUESTIONS];
} KomiModelTurn;

void        komi_model_turn_clear          (KomiModelTurn        *turn);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiModelTurn, komi_model_turn_clear)

KomiPlayer *komi_model_player_new          (const char           *spec,
                                            KomiProvider         *provider);
void        komi_model_player_set_recorder (KomiPlayer           *player,
                                            KomiModelAttemptFunc  func,
                                            KomiModelGateFunc     gate,
                                            gpointer              user_data);
/* The player's next genmove, if it is for @turn->turn, continues that
 * turn: a question answered there is not asked again. Copied. */
void        komi_model_player_continue_turn (KomiPlayer          *player,
                                             const KomiModelTurn *turn);
gboolean    komi_player_is_model           (KomiPlayer           *player);

/* This process runs one of @n_shards shards of a series: model players
 * made from now on share each profile's limits with the other shards
 * (komi_provider_profile_share()). 1: the whole of them. */
void        komi_model_players_set_shards   (guint                n_shards);

/* Any player: `model:PROFILE.json` here, every other form as
 * komi_player_new_from_spec(). */
KomiPlayer *komi_player_new_from_any_spec  (const char              *spec,
                                            const KomiPlayerOptions *opts,
                                            GError                 **error);

G_END_DECLS
