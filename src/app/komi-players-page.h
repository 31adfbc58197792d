/* komi-players-page.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-library.h"

G_BEGIN_DECLS

#define KOMI_TYPE_PLAYERS_PAGE (komi_players_page_get_type ())
G_DECLARE_FINAL_TYPE (KomiPlayersPage, komi_players_page, KOMI, PLAYERS_PAGE, AdwBin)

/* Every player of the library's games: the program and version that
 * answered, how many games and series it played, its settings. */
void komi_players_page_set_library (KomiPlayersPage *self,
                                    KomiLibrary     *library);

G_END_DECLS
