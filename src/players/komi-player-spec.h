/* komi-player-spec.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-gtp-player.h"
#include "komi-player.h"

G_BEGIN_DECLS

/* Where engines live and how long they may take. NULL or 0 fields take
 * the defaults named below. */
typedef struct
{
  const char *gnugo_path;        /* NULL: $KOMI_GNUGO, then GNUGO_PATH */
  const char *katago_binary;     /* NULL: $KOMI_KATAGO */
  const char *katago_model;      /* NULL: $KOMI_KATAGO_MODEL */
  const char *katago_config;     /* NULL: $KOMI_KATAGO_CONFIG */
  guint       timeout_ms;        /* each engine command; 0: 60 s */
  guint       start_timeout_ms;  /* an engine's start; 0: 60 s */
} KomiPlayerOptions;

/* A player from its description:
 *   random           the seeded random player
 *   gnugo[:LEVEL]    GNU Go at level 0–10 (default 10)
 *   katago[:VISITS]  KataGo with maxVisits VISITS (default 100)
 *   gtp:COMMAND      any GTP program; COMMAND is split like a shell would
 *   mix:P:ENGINE     one of the engines above that plays the seeded random
 *                    player's move instead with chance P (0–1) on each turn
 *                    (komi-mixed-player.h): the ladder's bridging rungs
 * Binaries, models and configs are checked here, so a missing file is a
 * KOMI_PLAYER_ERROR_NOT_FOUND before any game starts; a malformed
 * description is KOMI_PLAYER_ERROR_BAD_SPEC. No process is started. */
KomiPlayer    *komi_player_new_from_spec     (const char              *spec,
                                              const KomiPlayerOptions *opts,
                                              GError                 **error);
/* The same for the engine kinds only (gnugo, katago, gtp:), as a recipe. */
KomiGtpRecipe *komi_gtp_recipe_new_from_spec (const char              *spec,
                                              const KomiPlayerOptions *opts,
                                              GError                 **error);

/* The chance P of mix:P:ENGINE, the first @len bytes of @text: "0.25",
 * "1", ".5" give TRUE with *@p; anything else (exponents, signs, nan, a
 * comma, a number over 1) is refused, so the spec reads as the chance it
 * gives. */
gboolean       komi_player_spec_parse_chance (const char *text,
                                              gsize       len,
                                              double     *p);

G_END_DECLS
