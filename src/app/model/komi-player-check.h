/* komi-player-check.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-player-spec.h"

G_BEGIN_DECLS

/* "Test" for a player the user wrote: start it as a game would (an engine
 * process, a model's provider), ask it for one move on the empty 9x9
 * board, and stop it. On a worker thread; a model's test is one real
 * Protocol 1 request. */

typedef struct
{
  char   *spec;
  char   *name;      /* "GNU Go" */
  char   *version;   /* "3.8"; NULL when the player has none */
  char   *move;      /* "E5", "pass" */
  double  seconds;   /* start and move together */
} KomiPlayerCheck;

void             komi_player_check_async  (const char           *spec,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
/* The same with where the engines live (copied; NULL: the defaults). */
void             komi_player_check_with_options_async (const char              *spec,
                                                       const KomiPlayerOptions *opts,
                                                       GCancellable            *cancellable,
                                                       GAsyncReadyCallback      callback,
                                                       gpointer                 user_data);
KomiPlayerCheck *komi_player_check_finish (GAsyncResult         *result,
                                           GError              **error);
/* "GNU Go 3.8 played E5 (0.12 s)" */
char            *komi_player_check_describe (const KomiPlayerCheck *check);
void             komi_player_check_free   (KomiPlayerCheck      *check);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiPlayerCheck, komi_player_check_free)

G_END_DECLS
