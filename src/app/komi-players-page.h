/* komi-players-page.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-list-page.h"

G_BEGIN_DECLS

/* Every player of the library's games: the program and version that
 * answered, how many games and series it played, its settings. A model's
 * row opens its provider profile. */
#define KOMI_TYPE_PLAYERS_PAGE (komi_players_page_get_type ())
G_DECLARE_FINAL_TYPE (KomiPlayersPage, komi_players_page, KOMI, PLAYERS_PAGE, KomiListPage)

G_END_DECLS
