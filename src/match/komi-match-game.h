/* komi-match-game.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-orientation.h"
#include "komi-player.h"
#include "komi-referee.h"
#include "komi-score.h"

G_BEGIN_DECLS

/* One game between two players, refereed by Komi: every move is checked by
 * our rules, the dead stones are judged by an engine and the area is
 * counted by us. */

typedef enum
{
  KOMI_OUTCOME_FINISHED = 0,  /* two passes or the turn limit; counted */
  KOMI_OUTCOME_VOID,          /* an engine broke the rules, resigned or died: never rated */
  KOMI_OUTCOME_FORFEIT,       /* a model gave no valid answer (later issues) */
} KomiOutcome;

typedef struct _KomiGameRecord KomiGameRecord;

typedef struct
{
  KomiPlayer      *black;
  KomiPlayer      *white;
  KomiReferee     *referee;      /* NULL: no dead stones are removed */
  guint            size;         /* 9 in Protocol 1 */
  double           komi;         /* 7 */
  guint            max_turns;    /* 120 */
  guint64          seed;         /* the game's seed; players' seeds derive from it */
  KomiOrientation  orientation;  /* how models are shown the board */
  /* Called on the game's thread after each move, before the next turn
   * starts; returning FALSE (with @error set) stops the game with that
   * error: that is how a store that cannot commit a move halts play. */
  gboolean       (*on_move)     (const KomiGame *game,
                                 const KomiMove *move,
                                 gpointer        user_data,
                                 GError        **error);
  gpointer         user_data;
  /* Called once the players have started (their names, versions and
   * settings are in @record), before any move; FALSE stops the game. */
  gboolean       (*on_start)    (const KomiGameRecord *record,
                                 gpointer              user_data,
                                 GError              **error);
  /* A game resumed from its record: these moves are replayed into the
   * game and the players before play goes on. */
  const KomiMove  *resume_moves;
  guint            n_resume_moves;
  /* Called before each turn; it may block (a paused series) and says how
   * many microseconds it waited in @waited, which the game's seconds do
   * not count. FALSE (with @error) stops the game as on_move does. */
  gboolean       (*before_turn) (gpointer        user_data,
                                 gint64         *waited,
                                 GCancellable   *cancellable,
                                 GError        **error);
} KomiMatchSettings;

struct _KomiGameRecord
{
  KomiGame        *game;
  KomiOutcome      outcome;
  KomiEndReason    end_reason;
  KomiColor        faulty;        /* the side that voided or forfeited the game */
  char            *void_reason;   /* why it was voided or forfeited, in words */
  GArray          *dead;          /* KomiPoint */
  char            *referee;       /* the engine that judged: "GNU Go 3.8" */
  KomiScore        score;
  char            *result;        /* SGF RE: "B+3", "W+11", "0", "Void", "B+F" */
  char            *black_name;    /* "GNU Go 3.8" */
  char            *white_name;
  char            *black_settings;/* JSON text: every setting and seed */
  char            *white_settings;
  guint64          seed;
  guint64          black_seed;
  guint64          white_seed;
  KomiOrientation  orientation;
  char            *date;          /* YYYY-MM-DD */
  double           seconds;       /* of play: time spent paused is not counted */
};

/* The seed each colour's player gets from the game's seed. */
guint64         komi_match_player_seed    (guint64                  game_seed,
                                           KomiColor                color);
/* Plays the game to its end. Engine faults end the game as void and are
 * described in the record, not returned as errors; an error means the game
 * could not be played at all (a player or the referee would not start, or
 * @cancellable was cancelled). */
KomiGameRecord *komi_match_play_game      (const KomiMatchSettings *settings,
                                           GCancellable            *cancellable,
                                           GError                 **error);
void            komi_game_record_free     (KomiGameRecord          *record);
/* The record as SGF FF[4] text, dead stones and the count on the last node. */
char           *komi_game_record_to_sgf   (const KomiGameRecord    *record);
/* "X: 45 … = 45; O: … = 43; X wins by 2 (dead stones judged by GNU Go 3.8)" */
char           *komi_game_record_describe (const KomiGameRecord    *record);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiGameRecord, komi_game_record_free)

G_END_DECLS
