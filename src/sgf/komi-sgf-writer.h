/* komi-sgf-writer.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-go-types.h"

G_BEGIN_DECLS

/* What an engine review says of one move. BM marks a bad move; SBKS is
 * the score lead Sabaki draws in its graph: Black's lead in points
 * (negative when White leads) in the position after the move. */
typedef struct
{
  const char *comment;      /* C of the move's node, or NULL */
  guint       bad_move;     /* BM[1] or BM[2]; 0: no BM */
  gboolean    has_lead;
  double      black_lead;   /* SBKS */
} KomiSgfMoveNote;

/* A finished game, as it goes into an SGF file. Text is UTF-8; NULL
 * strings and pointers are left out of the file. */
typedef struct
{
  guint             size;
  double            komi;
  const char       *black_name;      /* PB: names with versions, "GNU Go 3.8 (level 1)" */
  const char       *white_name;      /* PW */
  const char       *date;            /* DT: YYYY-MM-DD */
  const char       *event;           /* EV */
  const char       *round;           /* RO */
  const char       *game_name;       /* GN */
  const char       *ruleset;         /* RU; NULL writes "Chinese" (area scoring) */
  const char       *rules_text;      /* GC: the exact rules */
  const char       *result;          /* RE: "B+3", "W+11", "0", "B+F", "Void" */
  const char       *application;     /* AP: "Komi:0.1.0" */
  const char       *root_comment;    /* C of the root */
  const KomiMove   *moves;           /* passes as KOMI_PASS */
  guint             n_moves;
  const guint8     *setup_colors;    /* AB/AW, board order, size * size entries */
  const KomiPoint  *dead;            /* MA on the final node */
  guint             n_dead;
  const guint8     *owner;           /* area owner per point (KomiScore.owner): TB/TW */
  const char       *final_comment;   /* C on the final node: the count and the judge */
  const KomiSgfMoveNote *notes;      /* n_moves entries, or NULL: no review */
  gboolean          has_root_lead;   /* SBKS of the root: the position before move 1 */
  double            root_black_lead;
} KomiSgfGame;

/* The whole FF[4] file for @game, ending in ")\n": a root node with game
 * information, one node per move, and dead stones, area and comment on the
 * last move's node (a node of their own when there is no move). */
char *komi_sgf_write (const KomiSgfGame *game);

G_END_DECLS
