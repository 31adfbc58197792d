/* komi-sgf-record.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-game.h"
#include "komi-sgf-tree.h"
#include "komi-sgf-writer.h"

G_BEGIN_DECLS

/* The main line of one game of a collection, as data Komi can replay:
 * the first child at every branch, game information from the first node
 * that has it, setup only before the first move, markup of the last node.
 * Strings are NULL when the file does not say. */
typedef struct
{
  guint      size;             /* SZ; 19 when absent, as the spec says */
  double     komi;             /* KM; 0 when absent */
  gboolean   has_komi;
  char      *black_name;       /* PB */
  char      *white_name;       /* PW */
  char      *black_rank;       /* BR */
  char      *white_rank;       /* WR */
  char      *date;             /* DT */
  char      *event;            /* EV */
  char      *round;            /* RO */
  char      *game_name;        /* GN */
  char      *place;            /* PC */
  char      *ruleset;          /* RU */
  char      *rules_text;       /* GC */
  char      *result;           /* RE */
  char      *application;      /* AP */
  char      *root_comment;     /* C of the root */
  char      *final_comment;    /* C of the last node, when it is not the root */
  guint8    *setup_colors;     /* AB/AW/AE before the first move, board order; NULL: empty */
  KomiColor  first_to_move;    /* the first move's colour, else PL, else Black */
  GArray    *moves;            /* KomiMove, in order, passes included */
  GArray    *dead;             /* KomiPoint: MA of the last node, as Komi writes dead stones */
  guint8    *owner;            /* TB/TW of the last node, board order; NULL when absent */
  guint      n_games;          /* games in the collection */
} KomiSgfRecord;

/* Reads game @index of a parsed collection. Fails on non-Go games, sizes
 * outside 5..19, points off the board, nodes with both B and W, and setup
 * after a move; the message names the line and column. */
KomiSgfRecord *komi_sgf_record_from_tree  (const KomiSgfTree   *tree,
                                           guint                index,
                                           GError             **error);
/* Parses @text and reads its first game. */
KomiSgfRecord *komi_sgf_record_from_text  (const char          *text,
                                           gsize                length,
                                           GError             **error);
KomiSgfRecord *komi_sgf_record_load       (const char          *path,
                                           GError             **error);
void           komi_sgf_record_free       (KomiSgfRecord       *record);

/* Replays the moves under Komi's rules (no suicide, positional superko)
 * into a new game with @max_turns (0: no limit). Fails naming the move
 * number, the point and the reason for an illegal move, a side that plays
 * twice in a row, or a move after the game ended. */
KomiGame      *komi_sgf_record_replay     (const KomiSgfRecord *record,
                                           guint                max_turns,
                                           GError             **error);
/* Fills @game with pointers into @record (valid while it lives), so a read
 * game can be written again. */
void           komi_sgf_record_as_game    (const KomiSgfRecord *record,
                                           KomiSgfGame         *game);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiSgfRecord, komi_sgf_record_free)

G_END_DECLS
