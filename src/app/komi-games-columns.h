/* komi-games-columns.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "komi-library-items.h"

G_BEGIN_DECLS

/* A game as the Games page classifies it; the filters' dropdowns list
 * these in this order, "any" first. */
typedef enum
{
  KOMI_GAME_OUTCOME_NONE = 0,   /* not counted (forfeit, void, still playing), or no
                                 * subject (imported) */
  KOMI_GAME_OUTCOME_WIN,
  KOMI_GAME_OUTCOME_LOSS,
  KOMI_GAME_OUTCOME_DRAW,
} KomiGameOutcome;

typedef enum
{
  KOMI_GAME_ENDING_NONE = 0,    /* still playing */
  KOMI_GAME_ENDING_TWO_PASSES,
  KOMI_GAME_ENDING_TURN_LIMIT,
  KOMI_GAME_ENDING_FORFEIT,
  KOMI_GAME_ENDING_VOID,
  KOMI_GAME_ENDING_IMPORTED,
} KomiGameEnding;

/* The subject's and the opponent's specs; NULL for an imported game. */
const char      *_komi_game_subject_spec  (const KomiStoreGame *game);
const char      *_komi_game_opponent_spec (const KomiStoreGame *game);
KomiGameOutcome  _komi_game_outcome       (const KomiStoreGame *game);
KomiGameEnding   _komi_game_ending        (const KomiStoreGame *game);

/* The Games page's columns, each with a sorter; returns the date column
 * (the default sort, newest first). */
GtkColumnViewColumn *_komi_games_page_add_columns (GtkColumnView *view);

G_END_DECLS
