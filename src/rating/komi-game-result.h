/* komi-game-result.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-go-types.h"

G_BEGIN_DECLS

/* What the rating layer knows of a game: who played which colour, who won,
 * how it ended. Plain structs, so the library (or a results file) fills
 * them without the rating code knowing where they come from. */

#define KOMI_RATING_ERROR (komi_rating_error_quark ())
GQuark komi_rating_error_quark (void);

typedef enum
{
  KOMI_RATING_ERROR_INPUT,            /* a result or a file is malformed: the message says where */
  KOMI_RATING_ERROR_MIXED_PROTOCOLS,  /* a pool would mix protocol numbers */
  KOMI_RATING_ERROR_UNPLACEABLE,      /* some ladder members won or lost everything */
  KOMI_RATING_ERROR_NOT_ON_LADDER,    /* a subject met an opponent the ladder lacks */
  KOMI_RATING_ERROR_NO_GAMES,         /* nothing to rate */
} KomiRatingError;

/* Same values as KomiOutcome (match layer), so an adapter may cast. */
typedef enum
{
  KOMI_RESULT_FINISHED = 0,  /* two passes or the turn limit: rated */
  KOMI_RESULT_VOID,          /* never rated */
  KOMI_RESULT_FORFEIT,       /* the loser forfeited: rated as a loss, also shown apart */
} KomiResultOutcome;

typedef struct
{
  guint              protocol;     /* 1 */
  const char        *black;        /* player labels, e.g. "random", "gnugo:1" (borrowed) */
  const char        *white;
  KomiColor          winner;       /* KOMI_EMPTY: a draw (or nobody, for a void) */
  KomiEndReason      end_reason;   /* KOMI_END_TURN_LIMIT games are shown apart */
  KomiResultOutcome  outcome;
  KomiColor          subject;      /* the subject's colour; KOMI_EMPTY: a ladder game */
  guint              orientation;  /* KomiOrientation, 0–7 */
} KomiGameResult;

/* The label of the subject's opponent; NULL for a ladder game. */
const char *komi_game_result_opponent (const KomiGameResult *result);
const char *komi_game_result_subject  (const KomiGameResult *result);
/* Whether the fields are in range; the error names the bad one. */
gboolean    komi_game_result_check    (const KomiGameResult *result,
                                       GError              **error);

/* A growable array of results that owns their labels. */
typedef struct
{
  GArray       *results;   /* KomiGameResult; labels point into @labels */
  GStringChunk *labels;
} KomiResultList;

KomiResultList *komi_result_list_new      (void);
void            komi_result_list_free     (KomiResultList       *list);
/* Appends a copy of @result; its labels are copied (interned) too. */
void            komi_result_list_add      (KomiResultList       *list,
                                           const KomiGameResult *result);
#define komi_result_list_index(list, i) (&g_array_index ((list)->results, KomiGameResult, (i)))

/* Reads a results file: CSV with a header row, or JSON Lines (one object
 * per line), told apart by the first character. Columns (or keys):
 * black, white, winner (black/white/draw, or X/O), outcome
 * (finished/void/forfeit), end_reason (two-passes/turn-limit), subject
 * (black/white/none), orientation (0–7 or its name), protocol (default 1),
 * opponent (checked against the other side). Instead of winner and
 * outcome, a "result" column may hold the SGF RE value ("B+3", "W+F",
 * "0", "Void"). Unknown columns are ignored. Errors name the line. */
KomiResultList *komi_result_list_parse    (const char           *text,
                                           gsize                 length,
                                           const char           *name,
                                           GError              **error);
KomiResultList *komi_result_list_load     (const char           *path,
                                           GError              **error);

/* The protocol number every result shares (0 for an empty list); an error
 * if two differ: pools never mix protocols. */
gboolean        komi_game_results_protocol (const KomiGameResult *results,
                                            gsize                 n_results,
                                            guint                *protocol,
                                            GError              **error);

/* Appends @n_games simulated games between @a (true Elo @rating_a) and @b
 * (@rating_b): colours alternate (@a Black first), orientations cycle,
 * winners drawn from the Elo model with @rand. @a is the subject when
 * @a_is_subject; otherwise they are ladder games. For tests and the
 * benchmark. */
void            komi_result_list_simulate (KomiResultList       *list,
                                           guint                 protocol,
                                           const char           *a,
                                           double                rating_a,
                                           const char           *b,
                                           double                rating_b,
                                           guint                 n_games,
                                           gboolean              a_is_subject,
                                           GRand                *rand);

/* The Elo model: expected score of a player rated @diff above the other. */
double          komi_elo_expected         (double                diff);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiResultList, komi_result_list_free)

G_END_DECLS
