/* komi-game-legal.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include "komi-game-private.h"

/* Sorts every empty point into legal (@legal_bits) and forbidden by
 * superko (@superko_bits), as bitsets over the padded board. When
 * @own_eyes is given, it receives the legal points whose neighbours are
 * all the mover's stones (or the edge); with @skip_own_eyes they are left
 * out of @legal_bits. The legal points (own eyes included) are noted in
 * the game for komi_game_check. Returns the number of points in
 * @legal_bits.
 *
 * An empty point is not suicide when it touches an empty point, is a
 * liberty of a friendly group with two or more liberties, or is the last
 * liberty of an enemy group; all three are computed for the whole board
 * at once from the group liberty sets. Superko too works on whole sets:
 * the placements that capture nothing are checked against the history
 * all at once (_komi_game_history_plain_repeats), the few that capture one by
 * one. */
static inline __attribute__ ((always_inline)) guint
classify_points_impl (const KomiGame *game,
                      guint           words,
                      int             stride,
                      gboolean        skip_own_eyes,
                      guint64        *legal_bits,
                      guint64        *superko_bits,
                      guint64        *own_eyes)
{
  const KomiBoard *b = game->board;
  KomiGame *noted = (KomiGame *) game;  /* the note only: see komi-game-private.h */
  KomiColor me = game->to_move, other = KOMI_OTHER (me);
  guint64 near_empty[KOMI_MAX_WORDS], cand[KOMI_MAX_WORDS], eyes[KOMI_MAX_WORDS];
  guint64 safe[KOMI_MAX_WORDS], capture[KOMI_MAX_WORDS];
  guint64 tmp[KOMI_MAX_WORDS], *forbidden = superko_bits;
  const guint64 *empty = b->sets[KOMI_EMPTY];
  guint least, n_legal = 0;
  int heads[5];
  guint n_heads;

  for (guint i = 0; i < words; i++)
    legal_bits[i] = forbidden[i] = 0;
  if (own_eyes != NULL)
    for (guint i = 0; i < words; i++)
      own_eyes[i] = 0;
  if (game->end != KOMI_END_NONE)
    return 0;

  /* A point is no suicide when it touches an empty point, is a liberty
   * of a friendly group with two or more liberties (it touches a
   * friendly stone outside the groups in atari), or is the last liberty
   * of an enemy group (a capture). The groups in atari are few (the
   * board keeps their heads as a set, each group its stones as a set);
   * they are taken colour by colour (a head is one of its group's
   * stones): no branch on a colour. */
  for (guint i = 0; i < words; i++)
    tmp[i] = capture[i] = 0;
  for (guint i = 0; i < words; i++)
    for (guint64 bits = b->sets[KOMI_SET_ATARI][i]; bits != 0; bits &= bits - 1)
      {
        int h = (int) (i * 64 + (guint) __builtin_ctzll (bits));
        const guint64 *libs = _komi_board_group_words (b, words, h);
        guint64 mine = -(guint64) (b->color[h] == me);

        for (guint k = 0; k < words; k++)
          {
            tmp[k] |= libs[words + k] & mine;
            capture[k] |= libs[k] & ~mine;
          }
      }
  for (guint i = 0; i < words; i++)
    tmp[i] = b->sets[me][i] & ~tmp[i];
  _komi_dilate (empty, words, stride, near_empty);
  _komi_dilate (tmp, words, stride, safe);
  for (guint i = 0; i < words; i++)
    cand[i] = empty[i] & (near_empty[i] | safe[i] | capture[i]);

  /* Placements that capture nothing, all at once. */
  _komi_game_history_plain_repeats (game, me, words, forbidden);
  for (guint i = 0; i < words; i++)
    forbidden[i] &= cand[i] & ~capture[i];

  /* Placements that capture, one by one, when any earlier position has
   * the mover's next stone count with fewer enemy stones than now: each
   * is compared in full with the earlier positions of the stone counts
   * it gives, when there are any. */
  least = game->least[me - 1][b->n_on_board[me] + 1];
  if (least != 0 && least <= b->n_on_board[other])
    {
      int at[KOMI_MAX_POINTS], lib[KOMI_MAX_POINTS];
      guint size[KOMI_MAX_POINTS];
      guint n_atari = 0, n_me = b->n_on_board[me] + 1;

      /* The enemy groups in atari and their one liberty each. */
      for (guint i = 0; i < words; i++)
        for (guint64 bits = b->sets[KOMI_SET_ATARI][i] & b->sets[other][i]; bits != 0;
             bits &= bits - 1)
          {
            int h = (int) (i * 64 + (guint) __builtin_ctzll (bits));
            const guint64 *libs = _komi_board_group_words (b, words, h);
            guint k = 0;

            while (libs[k] == 0)
              k++;
            at[n_atari] = h;
            size[n_atari] = b->n_stones[h];
            lib[n_atari++] = (int) (k * 64 + (guint) __builtin_ctzll (libs[k]));
          }
      for (guint i = 0; i < words; i++)
        for (guint64 bits = cand[i] & capture[i]; bits != 0; bits &= bits - 1)
          {
            int q = (int) (i * 64 + (guint) __builtin_ctzll (bits));
            guint n_other = b->n_on_board[other];
            guint32 key;

            /* The groups whose liberty q is, without a branch on each:
             * a miss is written past the hits and not counted (heads
             * has room for one past the four a point can capture). */
            n_heads = 0;
            for (guint j = 0; j < n_atari; j++)
              {
                guint hit = lib[j] == q;

                heads[n_heads] = at[j];
                n_heads += hit;
                n_other -= size[j] & -hit;
              }
            key = me == KOMI_BLACK ? COUNTS_KEY (n_me, n_other) : COUNTS_KEY (n_other, n_me);
            if (_komi_game_history_next (game, game->bucket[me == KOMI_BLACK
                                                             ? COUNTS_BUCKET (n_me, n_other)
                                                             : COUNTS_BUCKET (n_other, n_me)],
                                         key) != 0
                && _komi_game_history_repeats (game, me, q, heads, n_heads))
              forbidden[i] |= bits & -bits;
          }
    }

  for (guint i = 0; i < words; i++)
    noted->note[i] = legal_bits[i] = cand[i] & ~forbidden[i];
  noted->note_turn = game->n_moves + 1;

  if (skip_own_eyes || own_eyes != NULL)
    {
      /* An own eye: no neighbour empty or the opponent's. */
      for (guint k = 0; k < words; k++)
        tmp[k] = empty[k] | b->sets[other][k];
      _komi_dilate (tmp, words, stride, eyes);
      for (guint k = 0; k < words; k++)
        {
          eyes[k] = legal_bits[k] & ~eyes[k];
          if (own_eyes != NULL)
            own_eyes[k] = eyes[k];
          if (skip_own_eyes)
            legal_bits[k] &= ~eyes[k];
        }
    }
  for (guint k = 0; k < words; k++)
    n_legal += _komi_popcount (legal_bits[k]);
  return n_legal;
}

static guint
classify_points (const KomiGame *game,
                 gboolean        skip_own_eyes,
                 guint64        *legal_bits,
                 guint64        *superko_bits,
                 guint64        *own_eyes)
{
  /* 9x9 (Protocol 1) gets a copy with the word count and the row stride
   * known at compile time, so the word loops unroll and the shifts are
   * constants. */
  if (game->board->size == 9)
    return classify_points_impl (game, 2, 11, skip_own_eyes, legal_bits, superko_bits, own_eyes);
  return classify_points_impl (game, game->board->words, game->board->stride, skip_own_eyes,
                               legal_bits, superko_bits, own_eyes);
}

/* The points of a padded-board bitset, in board order. */
static guint
bits_to_points (const KomiBoard *b, const guint64 *bits, KomiPoint *out)
{
  guint n = 0;

  for (guint i = 0; i < b->words; i++)
    for (guint64 w = bits[i]; w != 0; w &= w - 1)
      out[n++] = b->point_of[i * 64 + (guint) __builtin_ctzll (w)];
  return n;
}

guint
komi_game_legal_points (const KomiGame *game, KomiPoint *out)
{
  guint64 legal[KOMI_MAX_WORDS], superko[KOMI_MAX_WORDS];

  classify_points (game, FALSE, legal, superko, NULL);
  return bits_to_points (game->board, legal, out);
}

guint
komi_game_superko_points (const KomiGame *game, KomiPoint *out)
{
  guint64 legal[KOMI_MAX_WORDS], superko[KOMI_MAX_WORDS];

  classify_points (game, FALSE, legal, superko, NULL);
  return bits_to_points (game->board, superko, out);
}

guint
komi_game_random_candidates (const KomiGame *game, KomiPoint *out)
{
  guint64 legal[KOMI_MAX_WORDS], superko[KOMI_MAX_WORDS];

  classify_points (game, TRUE, legal, superko, NULL);
  return bits_to_points (game->board, legal, out);
}

void
komi_game_legal_set (const KomiGame *game, KomiPointSet *set)
{
  guint64 superko[KOMI_MAX_WORDS];
  const KomiBoard *b = game->board;

  set->n = classify_points (game, FALSE, set->bits, superko, set->own_eyes);
  set->board = b;
}

KomiPoint
komi_point_set_nth (const KomiPointSet *set, guint i, gboolean *own_eye)
{
  const KomiBoard *b = set->board;
  guint k = 0, c, bit;

  g_return_val_if_fail (i < set->n, KOMI_NO_POINT);

  if (b->words == 2)
    {
      /* 7x7 to 9x9: the word without a branch, which the draw makes as
       * good as random. */
      c = _komi_popcount (set->bits[0]);
      k = i >= c;
      i -= c & -k;
    }
  else
    while (i >= (c = _komi_popcount (set->bits[k])))
      {
        i -= c;
        k++;
      }
  bit = _komi_select64 (set->bits[k], i);
  if (own_eye != NULL)
    *own_eye = (set->own_eyes[k] >> bit) & 1;
  return b->point_of[k * 64 + bit];
}

guint
komi_point_set_to_points (const KomiPointSet *set, KomiPoint *out)
{
  return bits_to_points (set->board, set->bits, out);
}

guint
komi_point_set_to_points_and_eyes (const KomiPointSet *set, KomiPoint *out, guint8 *own_eye)
{
  const KomiBoard *b = set->board;
  guint n = 0;

  for (guint i = 0; i < b->words; i++)
    for (guint64 w = set->bits[i]; w != 0; w &= w - 1)
      {
        guint bit = (guint) __builtin_ctzll (w);

        own_eye[n] = (set->own_eyes[i] >> bit) & 1;
        out[n++] = b->point_of[i * 64 + bit];
      }
  return n;
}
