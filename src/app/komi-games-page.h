/* komi-games-page.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-library.h"
#include "komi-verify.h"

G_BEGIN_DECLS

/* The Games section: every game of the library in one table, filtered by
 * series, subject, opponent, colour, result and ending, sorted by any
 * column. Activating a row activates `win.review-game` with the game's id. */

#define KOMI_TYPE_GAMES_PAGE (komi_games_page_get_type ())
G_DECLARE_FINAL_TYPE (KomiGamesPage, komi_games_page, KOMI, GAMES_PAGE, AdwBin)

void        komi_games_page_set_library   (KomiGamesPage *self,
                                           KomiLibrary   *library);
/* The rows shown (KomiGameItem), filtered and sorted, in view order. */
GListModel *komi_games_page_get_rows      (KomiGamesPage *self);
/* Every filter back to "any". */
void        komi_games_page_clear_filters (KomiGamesPage *self);

/* The ids of the games selected (in the shown order), for an export. */
GArray        *komi_games_page_dup_selected_ids (KomiGamesPage *self);

/* Verify Library: every ended game of the library verified on a worker
 * thread as `komi-cli verify` does, its progress shown over the list
 * (with Cancel), then each game's finding in the Verified column. Does
 * nothing while a verification runs. */
void           komi_games_page_verify           (KomiGamesPage *self);
gboolean       komi_games_page_get_verifying    (KomiGamesPage *self);
/* What the last verification found of game @game_id; NULL: not verified. */
const KomiVerifiedGame *komi_games_page_get_verified (KomiGamesPage *self,
                                                     gint64         game_id);

G_END_DECLS
