/* komi-test-play.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-match-game.h"
#include "komi-player-spec.h"

/* A whole refereed game between two player specs; every step must work. */
KomiGameRecord *
play_game (const char              *black_spec,
           const char              *white_spec,
           const char              *referee_spec,
           guint64                  seed,
           const KomiPlayerOptions *opts);

/* The moves as point indices, to compare two games move for move. */
char *
moves_text (const KomiGame *game);
