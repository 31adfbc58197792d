/* komi-score.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-board.h"

G_BEGIN_DECLS

/* An area count with its parts, so it can be checked by hand. */
typedef struct
{
  guint   size;
  guint   black_stones;
  guint   white_stones;
  guint   black_territory;
  guint   white_territory;
  guint   dame;              /* empty points that score for nobody */
  guint   black_dead;        /* black stones removed as dead */
  guint   white_dead;
  double  komi;
  double  black_total;
  double  white_total;       /* komi included */
  KomiColor winner;          /* KOMI_EMPTY for a draw */
  double  margin;            /* >= 0 */
  /* Per point, in board order: who the point counts for after dead stones
   * are removed (KOMI_EMPTY: nobody). */
  guint8  owner[KOMI_MAX_POINTS];
} KomiScore;

/* Counts the area of @board after removing the stones at @dead. Every
 * empty region whose bordering stones are all one colour is that colour's;
 * a region touching no stone, or both colours, is nobody's. */
void   komi_score_area       (const KomiBoard *board,
                              const KomiPoint *dead,
                              guint            n_dead,
                              double           komi,
                              KomiScore       *score);
/* "B+3", "W+11", "0" (a draw), as in SGF RE. */
char  *komi_score_to_result  (const KomiScore *score);
/* A one-line account: "X: 40 stones + 5 territory = 45; O: 30 + 6 + komi 7 = 43; X wins by 2". */
char  *komi_score_describe   (const KomiScore *score);

G_END_DECLS
