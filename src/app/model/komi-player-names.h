/* komi-player-names.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A player as a person names it, from the description a series writes
 * (its spec): "GNU Go level 3", "KataGo, 100 visits", "Random player",
 * "GNU Go level 5 with 25% random moves", and for `model:PROFILE.json` the
 * profile's own `name` ("rehearsal (openai-chat)"), or the file's name
 * without ".json" when the profile cannot be read. Profiles are read once
 * and remembered (main thread only). A new string; "?" for NULL. */
char *komi_player_display_name (const char *spec);

/* What the tooltip beside that name says: the spec whole, with a model's
 * profile path. A new string, or NULL for NULL. */
char *komi_player_tooltip      (const char *spec);

G_END_DECLS
