/* komi-ladder-ship.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-game-result.h"
#include "komi-ladder.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* The ladders Komi ships, where a library keeps its own calibration, and
 * which of a library's games count against a ladder: the one home of
 * these policies for komi-cli and the application. */

/* The Protocol @protocol ladder shipped with Komi (compiled in from
 * data/ladder/protocol-N.json), or NULL with an error when Komi ships
 * none for that protocol. */
KomiLadder *komi_ladder_shipped          (guint                protocol,
                                          GError             **error);
/* The calibration games of the shipped Protocol @protocol ladder
 * (data/ladder/protocol-N-games.csv, compiled in), or NULL with an error. */
KomiResultList *komi_ladder_shipped_games (guint                protocol,
                                           GError             **error);
/* The text of the recorded games, every move, that `komi-cli ladder check`
 * plays again (data/ladder/protocol-N-replays.json, compiled in), or NULL
 * when Komi ships none for that protocol. */
GBytes     *komi_ladder_shipped_replays  (guint                protocol);

/* How well @ladder's frozen ratings predict the games among its members in
 * @results (komi-ladder-fit.c): every pair that met, observed against
 * predicted, and Σz² for neighbours, for pairs further apart (the check
 * that the steps add up) and in all. */
char       *komi_ladder_fit_format_text  (const KomiLadder     *ladder,
                                          const KomiGameResult *results,
                                          gsize                 n_results);

/* Where a library's own calibration of @protocol is kept: beside the
 * library, ladder-protocol-N.json. */
char       *komi_ladder_library_path     (const char          *db,
                                          guint                protocol);

/* The ladder a user names: "shipped" or NULL (the shipped ladder of
 * @protocol), "library" (the calibration kept beside the library @db,
 * labelled as its own scale), or a ladder file. */
KomiLadder *komi_ladder_resolve          (const char          *which,
                                          const char          *db,
                                          guint                protocol,
                                          GError             **error);

/* Why a subject's game is set apart from the ratings. */
typedef enum
{
  KOMI_SET_APART_IDENTITY = 0,  /* the member's engine or the referee is not the pinned one */
  KOMI_SET_APART_OFF_LADDER,    /* the opponent is not a member of the ladder */
  KOMI_SET_APART_PROTOCOL,      /* played under another protocol than the ladder's */
} KomiSetApartKind;

/* A game set apart from the ratings (komi-rating-pool.h says which). */
typedef struct
{
  gint64            game_id;   /* 0 for a result read from a file */
  char             *subject;   /* the subject's label */
  char             *member;    /* the opponent it met (a member, or not, by @kind) */
  char             *reason;    /* "KataGo network differs: sha256 …", for the user */
  KomiSetApartKind  kind;
} KomiSetApart;

void        komi_set_apart_free          (KomiSetApart        *apart);

/* Why @game (a subject's, with its settings filled) does not count against
 * @ladder's member it met: its engine or referee differs from the pins;
 * NULL when it counts (or the ladder has no pins, or it met no member). */
char       *komi_ladder_set_apart_reason (const KomiLadder    *ladder,
                                          const KomiStoreGame *game);

/* Reads the ended games of @store (only @series, a NULL-terminated list of
 * ids, when not NULL) as results into @out. A game between two members of
 * @ladder is a ladder game (no subject); with @all_ladder_games every game
 * is (for calibrating). When @ladder has identity pins, a subject's game
 * against a member counts only when the member's recorded name and
 * settings, and the game's referee, match the pins; the others go to
 * @set_apart (KomiSetApart*, may be NULL) and not to @out. */
gboolean    komi_ladder_read_library     (KomiStore           *store,
                                          const KomiLadder    *ladder,
                                          const gint64        *series,
                                          gboolean             all_ladder_games,
                                          KomiResultList      *out,
                                          GPtrArray           *set_apart,
                                          GError             **error);

/* Freezes a ladder from the calibration games of @stores (a NULL-
 * terminated array of libraries, e.g. one per machine that played part of
 * the calibration; @series as above, in each of them): fits it with
 * @pinned (NULL: "random") at 0, and pins each
 * member's identity and the referee from the games' records, refusing
 * games of one member (or referees) that disagree. @games_csv (may be
 * NULL) receives the games, one line each (protocol, black, white, seed,
 * orientation, result, end_reason), which `ratings calibrate --results`
 * refits to the same ladder. */
KomiLadder *komi_ladder_freeze           (KomiStore          **stores,
                                          const gint64        *series,
                                          const char          *pinned,
                                          GString             *games_csv,
                                          GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiSetApart, komi_set_apart_free)

G_END_DECLS
