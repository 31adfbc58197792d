/* komi-ladder-pins.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Identity pins: what a shipped ladder member's games must have recorded
 * for them to count against the member's frozen rating. A pin is a JSON
 * object {"name": NAME, "settings": {...}}: NAME as the player reported
 * itself ("KataGo 1.17.2+g170-b6c96-s175M", "GNU Go 3.8", "Random 1"), and
 * the settings that fix its strength, a subset of the recorded settings
 * (nested objects compared member by member, numbers to 1e-9). KataGo's
 * -override-config text is compared key by key as "overrides". */

/* The pins of a member from one of its recorded games (@settings is the
 * recorded settings JSON): the name, and by kind the settings that fix
 * strength (random: generator; GNU Go: level; KataGo: visits, network
 * SHA-256, rules, one search thread; a mix: its chance, coin and
 * engine's pins). NULL when @settings is not a JSON object. */
JsonNode *komi_ladder_pins_from_record (const char *name,
                                        const char *settings);

/* Whether a player that reported @name with @settings is the pinned
 * member. When it is not, @reason (may be NULL) receives the first
 * difference as a sentence for the user ("KataGo network differs:
 * sha256 0123456789ab… where the ladder pins f5d32604e367…"). */
gboolean  komi_ladder_pins_match       (JsonNode   *pins,
                                        const char *name,
                                        const char *settings,
                                        char      **reason);

G_END_DECLS
