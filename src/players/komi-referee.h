/* komi-referee.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-player-spec.h"

G_BEGIN_DECLS

/* Asks a GTP engine which stones are dead at the end of a game. The engine
 * is GNU Go or KataGo set up as the players are (area scoring, positional
 * superko, komi 7), with a fixed seed, so a judgement can be repeated. It
 * is started on first use and kept for the next games. */

typedef struct _KomiReferee KomiReferee;

/* The seed the referee's engine always runs with. */
#define KOMI_REFEREE_SEED 1

/* @spec: "gnugo[:LEVEL]" (default level 10), "katago[:VISITS]" or
 * "gtp:COMMAND". Checks the files; starts nothing yet. */
KomiReferee   *komi_referee_new          (const char               *spec,
                                          const KomiPlayerOptions  *opts,
                                          GError                  **error);
void           komi_referee_free         (KomiReferee              *self);

/* Sends the game to the engine without its closing passes (the position
 * as it stood before them) and asks "final_status_list dead". A game that
 * did not start from the empty board is set up stone by stone. @out_dead
 * receives the dead stones (KomiPoint) in board order; the engine that
 * judged ("GNU Go 3.8") goes to @out_engine_description. */
gboolean       komi_referee_dead_stones  (KomiReferee              *self,
                                          const KomiGame           *game,
                                          GArray                   *out_dead,
                                          char                    **out_engine_description,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* The same without keeping a referee: starts the engine, judges, stops it. */
gboolean       komi_referee_dead_stones_once (const char               *spec,
                                              const KomiPlayerOptions  *opts,
                                              const KomiGame           *game,
                                              GArray                   *out_dead,
                                              char                    **out_engine_description,
                                              GCancellable             *cancellable,
                                              GError                  **error);

/* The referee's settings (binary, argv, seed…) as a JSON object text. */
const char    *komi_referee_get_settings (KomiReferee              *self);
/* The running engine, or NULL before the first judgement. */
KomiGtpEngine *komi_referee_get_engine   (KomiReferee              *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiReferee, komi_referee_free)

G_END_DECLS
