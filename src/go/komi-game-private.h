/* komi-game-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-board-private.h"
#include "komi-game.h"

G_BEGIN_DECLS

/* Shared by komi-game.c (the game and its history) and komi-game-legal.c
 * (the legal points, which check the history). */

G_STATIC_ASSERT (KOMI_MAX_WORDS <= G_N_ELEMENTS (((KomiPointSet *) NULL)->bits));

#define COUNTS_BUCKETS 256
#define COUNTS_KEY(b, w) ((guint32) (b) | (guint32) (w) << 16)
#define COUNTS_BUCKET(b, w) (((b) * 37u + (w)) & (COUNTS_BUCKETS - 1))

/* History for positional superko: the stones of every whole-board
 * position of the game (the start included), as the board's black and
 * white bitsets. A move can only repeat a position with the stone counts
 * it produces, so positions are chained by their counts, and a candidate
 * is compared in full with each earlier position of those counts: the
 * check is exact, no hash is trusted, and a turn whose counts never
 * occurred costs one look at an empty chain. */
struct _KomiGame
{
  KomiBoard     *board;
  KomiColor      to_move;
  guint          max_turns;
  guint          passes_in_a_row;
  KomiEndReason  end;
  KomiMove      *moves;
  guint          n_moves;
  guint          moves_capacity;

  guint          words;       /* the board's words per bitset */
  guint          n_positions;
  guint          capacity;
  guint64       *stones;      /* per position: black words, then white words */
  guint32       *counts;      /* per position: black stones | white stones << 16 */
  guint32       *chain;       /* per position: 1 + the previous position in its bucket, 0 = none */
  guint32        bucket[COUNTS_BUCKETS];  /* 1 + the latest position per bucket */

  /* The legal points the legal-point functions found last, with every
   * check (superko included), while @note_turn is 1 + n_moves: the turn
   * they were found for. komi_game_check accepts a point in the note
   * without checking it a second time (and checks in full any point not
   * in it, to say why). The const legal-point functions write it: a game
   * is used by one thread at a time. */
  guint          note_turn;
  guint64        note[KOMI_MAX_WORDS];

  /* least[c - 1][m]: 1 + the fewest stones of the other colour in any
   * position with m stones of colour c; 0 = no such position. A capture
   * by c can only repeat a position when least[c - 1][m + 1] shows one
   * with fewer enemy stones than now. Last: only the board's points + 2
   * entries of each row are set (zero) when the game is made. */
  guint16        least[2][KOMI_MAX_POINTS + 2];
};

/* The first position (1 + its index) at or before @link in the chain
 * whose counts are @key; 0 when there is none. */
static inline guint32
_komi_game_history_next (const KomiGame *game, guint32 link, guint32 key)
{
  while (link != 0 && game->counts[link - 1] != key)
    link = game->chain[link - 1];
  return link;
}

/* Whether @color placing at padded @q (a legal placement but for
 * superko, capturing the groups at @heads) repeats an earlier position. */
gboolean _komi_game_history_repeats (const KomiGame *game,
                                     KomiColor       color,
                                     int             q,
                                     const int      *heads,
                                     guint           n_heads);

/* Sets in @out the points where @color's placement would capture nothing
 * and repeat an earlier position: each earlier position with one more
 * stone of @color, the same stones of the other colour, and all of
 * @color's present stones is the present one plus exactly one stone, at
 * that point. (The caller keeps only points where the placement is legal
 * and captures nothing.) */
static inline void
_komi_game_history_plain_repeats (const KomiGame *game, KomiColor color, guint words, guint64 *out)
{
  const KomiBoard *b = game->board;
  KomiColor other = KOMI_OTHER (color);
  guint mine_at = (color - 1) * words, theirs_at = (other - 1) * words;
  const guint64 *mine = b->sets[color], *theirs = b->sets[other];
  guint nb = b->n_on_board[KOMI_BLACK] + (color == KOMI_BLACK);
  guint nw = b->n_on_board[KOMI_WHITE] + (color == KOMI_WHITE);
  guint32 key = COUNTS_KEY (nb, nw);

  for (guint32 link = _komi_game_history_next (game, game->bucket[COUNTS_BUCKET (nb, nw)], key);
       link != 0;
       link = _komi_game_history_next (game, game->chain[link - 1], key))
    {
      const guint64 *h = game->stones + (gsize) (link - 1) * 2 * words;
      guint64 diff = 0;

      for (guint k = 0; k < words; k++)
        diff |= (h[theirs_at + k] ^ theirs[k]) | (mine[k] & ~h[mine_at + k]);
      if (diff == 0)
        for (guint k = 0; k < words; k++)
          out[k] |= h[mine_at + k] & ~mine[k];
    }
}

G_END_DECLS
