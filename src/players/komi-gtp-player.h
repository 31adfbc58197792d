/* komi-gtp-player.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-gtp-engine.h"
#include "komi-gtp-recipe.h"
#include "komi-player.h"

G_BEGIN_DECLS

/* A player backed by a GTP engine. start_game starts the engine (again when
 * the seed changed) and sends boardsize, clear_board and komi. The player
 * keeps the moves the engine has, and before each command brings the engine
 * to the game's moves: missing moves are sent with "play", and a history
 * that differs (an engine move the referee refused) is replayed after
 * clear_board. An engine that dies is restarted and the game replayed into
 * it once per game; after that, KOMI_PLAYER_ERROR_DIED. */
KomiPlayer    *komi_gtp_player_new          (const char          *spec,
                                             const KomiGtpRecipe *recipe);
/* The running engine, or NULL. */
KomiGtpEngine *komi_gtp_player_get_engine   (KomiPlayer          *player);
/* Restarts in the current game (0 or 1). */
guint          komi_gtp_player_get_restarts (KomiPlayer          *player);
/* Why the engine was last restarted in this game, or NULL. */
const char    *komi_gtp_player_get_fault    (KomiPlayer          *player);

/* Whether the engine chose move @index (from 0) of the game itself. */
typedef gboolean (*KomiGtpChoseFunc)        (guint                index,
                                             gpointer             user_data);
/* For players built on a GTP player (komi-mixed-player.c), whose own moves
 * are not all the engine's: an own move for which @func says FALSE is told
 * with "play" when the engine is brought to the game, not asked for again.
 * Without a func every move of the player's colour is the engine's. */
void           komi_gtp_player_set_chose_func (KomiPlayer        *player,
                                               KomiGtpChoseFunc   func,
                                               gpointer           user_data);

G_END_DECLS
