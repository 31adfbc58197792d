/* komi-verify.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-ladder.h"
#include "komi-player-spec.h"
#include "komi-referee.h"
#include "komi-store.h"

G_BEGIN_DECLS

/* Verification: every ended game of a library re-derived from its record
 * alone (docs/library.md, "What verify proves"). A game holds when
 *  - its moves replay under Protocol 1 (in turn, legal: captures, no
 *    suicide, positional superko), and a finished game ends as recorded
 *    (two passes, or the turn limit);
 *  - a finished game's area count from its final position and recorded
 *    dead stones is its recorded result (winner, margin, totals);
 *  - each model request carries, byte for byte, the rules text and the
 *    Protocol 1 request Komi builds for that position, orientation and
 *    question;
 *  - each response that came back is read again as Komi reads it, to the
 *    recorded outcome and answer; the accepted answers, mapped back
 *    through the recorded orientation, are the moves played, and no
 *    model move lacks its accepted answers;
 *  - each question's attempts are numbered 1, 2, … without a gap, with no
 *    more model faults than a turn allows;
 *  - each engine that is a member of @ladder reported the identity the
 *    ladder pins (name and the settings that fix its strength);
 *  - with a referee to rejudge, a finished game's dead stones are the
 *    ones it judges on its final position;
 *  - with replay_engines, each engine side (random, GNU Go, KataGo, their
 *    mix: rungs) started again with its recorded seed chooses, move by
 *    move, the moves the record has (a gtp: command from a record is
 *    never run, so those sides are counted as not replayed).
 * What it cannot prove: that a model API was really called (a record can
 * be made up whole and be consistent), or that an engine really played
 * (without replaying it). */

/* What a problem was found by, for a short word on it (the Games page). */
typedef enum
{
  KOMI_VERIFY_MOVES,      /* a move out of turn or illegal */
  KOMI_VERIFY_RESULT,     /* the end or the area count is not the one recorded */
  KOMI_VERIFY_REQUEST,    /* a model request is not the one Komi builds */
  KOMI_VERIFY_ANSWER,     /* a response, or its answer, is not the one recorded or the move */
  KOMI_VERIFY_ATTEMPTS,   /* an attempt missing, out of order, or one too many */
  KOMI_VERIFY_PIN,        /* an engine is not the one the ladder pins */
  KOMI_VERIFY_DEAD,       /* the dead stones judged again are others */
  KOMI_VERIFY_REPLAY,     /* an engine played again chooses another move */
} KomiVerifyCheck;

typedef struct
{
  const KomiLadder        *ladder;          /* NULL: no pins checked (komi_verify_library_at:
                                             * the shipped ladder of the library's protocol) */
  KomiReferee             *rejudge;         /* NULL: the dead stones are taken as recorded */
  gboolean                 replay_engines;
  const KomiPlayerOptions *engines;         /* where the replayed engines live; NULL: defaults */
} KomiVerifyOptions;

typedef struct
{
  gint64     game_id;
  gint64     series_id;     /* 0: imported */
  char      *series_name;   /* NULL: imported */
  gint       plan_index;    /* -1: imported */
  char      *black;         /* the players' names as recorded (their specs when none) */
  char      *white;
  char      *result;        /* as recorded; NULL: none */
  guint      n_moves;
  guint      n_calls;
  GPtrArray *problems;      /* char*: what does not hold, in words; empty: verified */
  GArray    *checks;        /* KomiVerifyCheck: what found each problem, in their order */
} KomiVerifiedGame;

typedef struct
{
  GPtrArray *games;         /* KomiVerifiedGame*, every ended game, in library order */
  guint      n_failed;      /* games with a problem */
  guint      n_skipped;     /* games not ended (pending, running): not verified */
  guint      n_calls;       /* attempts checked */
  guint      n_replayed;    /* engine sides played again (replay_engines) */
  guint      n_unreplayed;  /* engine sides that are gtp: commands, not run */
} KomiVerifyReport;

/* Called after each game: @done of @total. */
typedef void (*KomiVerifyProgressFunc) (guint    done,
                                        guint    total,
                                        gpointer user_data);

/* Verifies one game of @store; @options may be NULL (nothing optional). */
KomiVerifiedGame *komi_verify_game       (KomiStore               *store,
                                          const KomiVerifyOptions *options,
                                          gint64                   game_id,
                                          GCancellable            *cancellable,
                                          GError                 **error);
/* Verifies every ended game of @store. Fails only when the library cannot
 * be read, or on cancellation; what does not hold is in the report.
 * @progress is called on the same thread after each game listed. */
KomiVerifyReport *komi_verify_library    (KomiStore               *store,
                                          const KomiVerifyOptions *options,
                                          KomiVerifyProgressFunc   progress,
                                          gpointer                 user_data,
                                          GCancellable            *cancellable,
                                          GError                 **error);
/* The library at @path opened as untrusted input (read-only, defensive:
 * komi_store_open_foreign) and verified, as `komi-cli verify` and the
 * window's Verify Library do; a library of an older schema is refused,
 * saying how to merge it into one that verify reads. */
KomiVerifyReport *komi_verify_library_at (const char              *path,
                                          const KomiVerifyOptions *options,
                                          KomiVerifyProgressFunc   progress,
                                          gpointer                 user_data,
                                          GCancellable            *cancellable,
                                          GError                 **error);
/* The report as a JSON object (English: for scripts): {"games": N,
 * "verified": N, "failed": N, "skipped": N, "calls": N, "replayed": N,
 * "not_replayed": N, "failures":
 * [{"game": id, "series": …, "plan_index": …, "problems": […]}…]}. */
JsonNode         *komi_verify_report_to_json (const KomiVerifyReport *report);

void              komi_verified_game_free (KomiVerifiedGame       *game);
void              komi_verify_report_free (KomiVerifyReport       *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiVerifiedGame, komi_verified_game_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiVerifyReport, komi_verify_report_free)

G_END_DECLS
