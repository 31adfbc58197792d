/* komi-board-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-board.h"

G_BEGIN_DECLS

/* Shared with komi-game.c and komi-score.c, which walk the padded array. */
struct _KomiBoard
{
  guint     size;
  int       stride;        /* size + 2 */
  guint     n_padded;      /* stride * stride */
  guint     words;         /* 64-bit words in one liberty set */
  int       neighbours[4]; /* offsets: up, left, right, down */
  guint64   hash;          /* Zobrist hash of the stones */
  guint8   *color;         /* KomiColor, or 3 on the border ring */
  guint16  *head;          /* group head of each stone */
  guint16  *next;          /* circular list of a group's stones */
  guint16  *n_stones;      /* at heads: stones in the group */
  guint64  *ghash;         /* at heads: XOR of the group's stone keys */
  guint64  *libs;          /* at heads: liberty bitset, `words` words */
};

G_END_DECLS
