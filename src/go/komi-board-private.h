/* komi-board-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-board.h"

G_BEGIN_DECLS

#define KOMI_MAX_WORDS (((KOMI_MAX_SIZE + 2) * (KOMI_MAX_SIZE + 2) + 63) / 64)

static inline void
_komi_set_bit (guint64 *set, int q)
{
  set[q >> 6] |= G_GUINT64_CONSTANT (1) << (q & 63);
}

static inline void
_komi_clear_bit (guint64 *set, int q)
{
  set[q >> 6] &= ~(G_GUINT64_CONSTANT (1) << (q & 63));
}

static inline gboolean
_komi_test_bit (const guint64 *set, int q)
{
  return (set[q >> 6] >> (q & 63)) & 1;
}

/* Shared with komi-game.c and komi-score.c, which walk the padded array.
 * The arrays live in the same allocation, after the struct. */
struct _KomiBoard
{
  guint     size;
  int       stride;        /* size + 2 */
  guint     n_padded;      /* stride * stride */
  guint     words;         /* 64-bit words in one liberty set */
  gsize     alloc_size;    /* the struct and its arrays: one allocation */
  int       neighbours[4]; /* offsets: up, left, right, down */
  guint8   *color;         /* KomiColor, or 3 on the border ring */
  guint16  *head;          /* group head of each stone */
  guint16  *next;          /* circular list of a group's stones */
  guint16  *n_stones;      /* at heads: stones in the group */
  guint64  *libs;          /* at heads: liberty bitset, then stone bitset, `words` words each */
  guint16  *nlibs;         /* at heads: liberties, kept equal to the bitset's count */
  guint16   pad_of[KOMI_MAX_POINTS];  /* point -> padded index */
  gint16   *point_of;      /* padded index -> point, -1 on the border */
  /* Bitsets over padded indices: [KOMI_EMPTY], [KOMI_BLACK], [KOMI_WHITE],
   * [KOMI_SET_HEADS] (one bit per group, at its head) and [KOMI_SET_ATARI]
   * (the heads of groups with exactly one liberty). They let the
   * legal-point scan work on whole words instead of point by point. */
  guint64   sets[5][KOMI_MAX_WORDS];
  guint     n_on_board[3]; /* stones of each colour */
};

#define KOMI_SET_HEADS 3
#define KOMI_SET_ATARI 4

#define KOMI_BORDER 3

static inline int
_komi_board_padded (const KomiBoard *b, KomiPoint p)
{
  return b->pad_of[p];
}

/* A group's liberties (@words words), followed by its stones (as many):
 * both at its head's index. @words is the board's, a constant where the
 * caller is a 9x9 copy. */
static inline guint64 *
_komi_board_group_words (const KomiBoard *b, guint words, int head)
{
  return b->libs + (gsize) head * 2 * words;
}

static inline guint64 *
_komi_board_libs (const KomiBoard *b, int head)
{
  return _komi_board_group_words (b, b->words, head);
}

static inline guint64 *
_komi_board_stones (const KomiBoard *b, int head)
{
  return _komi_board_libs (b, head) + b->words;
}

/* The lowest set bit of the @words-word set @set, or -1 when it is
 * empty: one test for the whole set (a loop over its bits exits once,
 * not once per word), the word chosen without a branch when there are
 * two. */
static inline int
_komi_first_bit (const guint64 *set, guint words)
{
  if (words == 2)
    {
      guint64 lo = set[0], hi = set[1], w;
      int high = lo == 0;

      if ((lo | hi) == 0)
        return -1;
      w = high ? hi : lo;
      return high * 64 + __builtin_ctzll (w);
    }
  for (guint k = 0; k < words; k++)
    if (set[k] != 0)
      return (int) (k * 64 + (guint) __builtin_ctzll (set[k]));
  return -1;
}

/* Bits set in @x. Without the popcnt instruction (the baseline x86-64
 * target) __builtin_popcountll is a call into libgcc; this is inline. */
static inline guint
_komi_popcount (guint64 x)
{
#ifdef __POPCNT__
  return (guint) __builtin_popcountll (x);
#else
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (guint) ((x * 0x0101010101010101ull) >> 56);
#endif
}

/* @out = the points next to any point of @in (multi-word shifts by 1 and
 * by the stride). Border bits of @in are zero, so nothing wraps into a
 * real point. */
static inline void
_komi_dilate (const guint64 *in, guint words, int stride, guint64 *out)
{
  for (guint i = 0; i < words; i++)
    {
      guint64 prev = i > 0 ? in[i - 1] : 0, next = i + 1 < words ? in[i + 1] : 0;

      out[i] = (in[i] << 1) | (prev >> 63)
               | (in[i] >> 1) | (next << 63)
               | (in[i] << stride) | (prev >> (64 - stride))
               | (in[i] >> stride) | (next << (64 - stride));
    }
}

/* The position of the @k-th set bit of @x (from 0; @x has more than @k):
 * bytes' running counts side by side in one word (Vigna, "Broadword
 * implementation of rank/select queries", 2008), then the same within
 * the byte: no branches. */
static inline guint
_komi_select64 (guint64 x, guint k)
{
  const guint64 ones = 0x0101010101010101ull, msbs = 0x8080808080808080ull;
  guint64 s = x - ((x >> 1) & 0x5555555555555555ull);
  guint byte, before;
  guint64 in_byte;

  s = (s & 0x3333333333333333ull) + ((s >> 2) & 0x3333333333333333ull);
  s = ((s + (s >> 4)) & 0x0F0F0F0F0F0F0F0Full) * ones;
  /* Bytes whose running count is at most k come before the k-th bit. */
  byte = (guint) ((((((k * ones) | msbs) - s) & msbs) >> 7) * ones >> 56);
  before = (guint) (((s << 8) >> (8 * byte)) & 0xFF);
  k -= before;
  /* The same within the byte: its bits spread one to a byte (1 or 0),
   * running counts, and the bytes whose count is at most k. */
  in_byte = (((x >> (8 * byte)) & 0xFF) * ones) & 0x8040201008040201ull;
  in_byte = (((in_byte + 0x7F7F7F7F7F7F7F7Full) & msbs) >> 7) * ones;
  return 8 * byte + (guint) ((((((k * ones) | msbs) - in_byte) & msbs) >> 7) * ones >> 56);
}

/* komi_board_play on a padded index, for a caller that has checked the
 * move (komi_game_play). */
guint _komi_board_place (KomiBoard *board,
                         KomiColor  color,
                         int        q);

/* komi_board_check on a padded index, inlined into the game's checks.
 * When OK, @captured receives the heads of the enemy groups the move
 * captures (those next to @q whose one liberty is @q), each once, and
 * @n_captured their number. */
static inline KomiMoveError
_komi_board_check_padded (const KomiBoard *b,
                          KomiColor        color,
                          int              q,
                          int              captured[4],
                          guint           *n_captured)
{
  KomiColor other = (KomiColor) (3 - color);
  gboolean alive = FALSE;
  guint n = 0;

  *n_captured = 0;
  if (b->color[q] != KOMI_EMPTY)
    return KOMI_MOVE_OCCUPIED;

  /* Without branches on the neighbours' colours, which are as good as
   * random: head[] and nlibs[] of an empty or border point hold stale
   * but harmless values, and are only read. */
  for (int d = 0; d < 4; d++)
    {
      int r = q + b->neighbours[d];
      guint c = b->color[r];
      int h = b->head[r];
      guint libs = b->nlibs[h];
      gboolean takes = (c == (guint) other) & (libs == 1);

      alive |= (c == KOMI_EMPTY) | ((c == (guint) color) & (libs > 1)) | takes;
      if (takes)
        {
          /* Its one liberty is q: placing here captures it. */
          gboolean dup = FALSE;

          for (guint i = 0; i < n; i++)
            dup |= captured[i] == h;
          if (!dup)
            captured[n++] = h;
        }
    }

  *n_captured = n;
  return alive ? KOMI_MOVE_OK : KOMI_MOVE_SUICIDE;
}

G_END_DECLS
