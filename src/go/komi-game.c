/* komi-game.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include <string.h>

#include "komi-board-private.h"
#include "komi-coords.h"
#include "komi-game.h"

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
  /* least[c - 1][m]: 1 + the fewest stones of the other colour in any
   * position with m stones of colour c; 0 = no such position. A capture
   * by c can only repeat a position when least[c - 1][m + 1] shows one
   * with fewer enemy stones than now. */
  guint16        least[2][KOMI_MAX_POINTS + 2];
};

static void
history_grow (KomiGame *game)
{
  game->capacity = game->capacity ? game->capacity * 2 : 128;
  game->stones = g_renew (guint64, game->stones, (gsize) game->capacity * 2 * game->words);
  game->counts = g_renew (guint32, game->counts, game->capacity);
  game->chain = g_renew (guint32, game->chain, game->capacity);
}

/* Records the board's position (after a placement, or the start). */
static void
history_add (KomiGame *game)
{
  const KomiBoard *b = game->board;
  guint nb = b->n_on_board[KOMI_BLACK], nw = b->n_on_board[KOMI_WHITE];
  guint n = game->n_positions, words = game->words, bucket = COUNTS_BUCKET (nb, nw);
  guint64 *dst;

  if (n == game->capacity)
    history_grow (game);
  dst = game->stones + (gsize) n * 2 * words;
  for (guint k = 0; k < words; k++)
    {
      dst[k] = b->sets[KOMI_BLACK][k];
      dst[words + k] = b->sets[KOMI_WHITE][k];
    }
  if (game->least[0][nb] == 0 || game->least[0][nb] > nw + 1)
    game->least[0][nb] = (guint16) (nw + 1);
  if (game->least[1][nw] == 0 || game->least[1][nw] > nb + 1)
    game->least[1][nw] = (guint16) (nb + 1);
  game->counts[n] = COUNTS_KEY (nb, nw);
  game->chain[n] = game->bucket[bucket];
  game->bucket[bucket] = n + 1;
  game->n_positions = n + 1;
}

/* The first position (1 + its index) at or before @link in the chain
 * whose counts are @key; 0 when there is none. */
static inline guint32
history_next (const KomiGame *game, guint32 link, guint32 key)
{
  while (link != 0 && game->counts[link - 1] != key)
    link = game->chain[link - 1];
  return link;
}

/* Whether @color placing at padded @q (a legal placement but for
 * superko, capturing the groups at @heads: _komi_board_check_padded)
 * gives a position that occurred before: the resulting position is
 * compared in full with every earlier one of the same stone counts. */
static gboolean
history_repeats (const KomiGame *game, KomiColor color, int q, const int *heads, guint n_heads)
{
  const KomiBoard *b = game->board;
  KomiColor other = KOMI_OTHER (color);
  guint words = game->words;
  guint mine_at = (color - 1) * words, theirs_at = (other - 1) * words;
  guint64 mine[KOMI_MAX_WORDS], theirs[KOMI_MAX_WORDS];
  guint n_captured = 0, nb, nw;
  guint32 key, link;

  for (guint i = 0; i < n_heads; i++)
    n_captured += b->n_stones[heads[i]];
  nb = b->n_on_board[KOMI_BLACK];
  nw = b->n_on_board[KOMI_WHITE];
  if (color == KOMI_BLACK)
    nb++, nw -= n_captured;
  else
    nw++, nb -= n_captured;
  key = COUNTS_KEY (nb, nw);
  link = history_next (game, game->bucket[COUNTS_BUCKET (nb, nw)], key);
  if (link == 0)
    return FALSE;

  /* The position after the move, in full. */
  for (guint k = 0; k < words; k++)
    {
      mine[k] = b->sets[color][k];
      theirs[k] = b->sets[other][k];
    }
  _komi_set_bit (mine, q);
  for (guint i = 0; i < n_heads; i++)
    {
      int s = heads[i];

      do
        {
          _komi_clear_bit (theirs, s);
          s = b->next[s];
        }
      while (s != heads[i]);
    }

  for (; link != 0; link = history_next (game, game->chain[link - 1], key))
    {
      const guint64 *h = game->stones + (gsize) (link - 1) * 2 * words;
      guint64 diff = 0;

      for (guint k = 0; k < words; k++)
        diff |= (h[mine_at + k] ^ mine[k]) | (h[theirs_at + k] ^ theirs[k]);
      if (diff == 0)
        return TRUE;
    }
  return FALSE;
}

/* Sets in @out the points where @color's placement would capture nothing
 * and repeat an earlier position: each earlier position with one more
 * stone of @color, the same stones of the other colour, and all of
 * @color's present stones is the present one plus exactly one stone, at
 * that point. (The caller keeps only points where the placement is legal
 * and captures nothing.) */
static inline void
history_plain_repeats (const KomiGame *game, KomiColor color, guint words, guint64 *out)
{
  const KomiBoard *b = game->board;
  KomiColor other = KOMI_OTHER (color);
  guint mine_at = (color - 1) * words, theirs_at = (other - 1) * words;
  const guint64 *mine = b->sets[color], *theirs = b->sets[other];
  guint nb = b->n_on_board[KOMI_BLACK] + (color == KOMI_BLACK);
  guint nw = b->n_on_board[KOMI_WHITE] + (color == KOMI_WHITE);
  guint32 key = COUNTS_KEY (nb, nw);

  for (guint32 link = history_next (game, game->bucket[COUNTS_BUCKET (nb, nw)], key);
       link != 0;
       link = history_next (game, game->chain[link - 1], key))
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

static KomiGame *
game_new_take_board (KomiBoard *board, KomiColor to_move, guint max_turns)
{
  KomiGame *game = g_new0 (KomiGame, 1);
  /* A turn limit bounds the moves and positions: no growing then. */
  guint expected = max_turns > 0 && max_turns < 1024 ? max_turns + 1 : 128;

  game->board = board;
  game->to_move = to_move;
  game->max_turns = max_turns;
  game->moves_capacity = expected;
  game->moves = g_new (KomiMove, expected);
  game->words = board->words;
  game->capacity = expected;
  game->stones = g_new (guint64, (gsize) expected * 2 * game->words);
  game->counts = g_new (guint32, expected);
  game->chain = g_new (guint32, expected);
  history_add (game);
  return game;
}

KomiGame *
komi_game_new (guint size, guint max_turns)
{
  g_return_val_if_fail (size >= KOMI_MIN_SIZE && size <= KOMI_MAX_SIZE, NULL);
  return game_new_take_board (komi_board_new (size), KOMI_BLACK, max_turns);
}

KomiGame *
komi_game_new_from_board (const KomiBoard *board, KomiColor to_move, guint max_turns)
{
  g_return_val_if_fail (board != NULL, NULL);
  g_return_val_if_fail (to_move == KOMI_BLACK || to_move == KOMI_WHITE, NULL);
  return game_new_take_board (komi_board_copy (board), to_move, max_turns);
}

KomiGame *
komi_game_copy (const KomiGame *game)
{
  KomiGame *copy = g_memdup2 (game, sizeof *game);

  copy->board = komi_board_copy (game->board);
  copy->moves = g_memdup2 (game->moves, game->moves_capacity * sizeof (KomiMove));
  copy->stones = g_memdup2 (game->stones, (gsize) game->capacity * 2 * game->words
                                          * sizeof (guint64));
  copy->counts = g_memdup2 (game->counts, game->capacity * sizeof (guint32));
  copy->chain = g_memdup2 (game->chain, game->capacity * sizeof (guint32));
  return copy;
}

void
komi_game_free (KomiGame *game)
{
  if (game == NULL)
    return;
  komi_board_free (game->board);
  g_free (game->moves);
  g_free (game->stones);
  g_free (game->counts);
  g_free (game->chain);
  g_free (game);
}

const KomiBoard *
komi_game_get_board (const KomiGame *game)
{
  return game->board;
}

guint
komi_game_get_size (const KomiGame *game)
{
  return komi_board_get_size (game->board);
}

KomiColor
komi_game_get_to_move (const KomiGame *game)
{
  return game->to_move;
}

guint
komi_game_get_max_turns (const KomiGame *game)
{
  return game->max_turns;
}

guint
komi_game_get_turns_played (const KomiGame *game)
{
  return game->n_moves;
}

guint
komi_game_get_turns_left (const KomiGame *game)
{
  if (game->max_turns == 0 || game->end != KOMI_END_NONE)
    return 0;
  return game->max_turns - game->n_moves;
}

gboolean
komi_game_get_opponent_just_passed (const KomiGame *game)
{
  return game->passes_in_a_row > 0;
}

gboolean
komi_game_is_over (const KomiGame *game)
{
  return game->end != KOMI_END_NONE;
}

KomiEndReason
komi_game_get_end_reason (const KomiGame *game)
{
  return game->end;
}

const KomiMove *
komi_game_get_moves (const KomiGame *game, guint *n_moves)
{
  if (n_moves != NULL)
    *n_moves = game->n_moves;
  return game->moves;
}

KomiMoveError
komi_game_check (const KomiGame *game, KomiPoint point)
{
  const KomiBoard *b = game->board;
  KomiMoveError err;
  int heads[4];
  guint n_heads;
  int q;

  if (game->end != KOMI_END_NONE)
    return KOMI_MOVE_GAME_OVER;
  if (point == KOMI_PASS)
    return KOMI_MOVE_OK;
  if (point < 0 || (guint) point >= b->size * b->size)
    return KOMI_MOVE_OFF_BOARD;
  q = _komi_board_padded (b, point);
  err = _komi_board_check_padded (b, game->to_move, q, heads, &n_heads);
  if (err != KOMI_MOVE_OK)
    return err;
  if (history_repeats (game, game->to_move, q, heads, n_heads))
    return KOMI_MOVE_SUPERKO;
  return KOMI_MOVE_OK;
}

gboolean
komi_game_play (KomiGame *game, KomiPoint point, GError **error)
{
  KomiMoveError err;
  KomiMove move;

  g_return_val_if_fail (game != NULL, FALSE);

  err = komi_game_check (game, point);
  if (err != KOMI_MOVE_OK)
    {
      char name[KOMI_NAME_LEN + 1] = "?";
      guint size = komi_board_get_size (game->board);

      if (point == KOMI_PASS || (point >= 0 && (guint) point < size * size))
        komi_point_to_name (size, point, name);
      /* English, not translated: an engine's illegal move voids the game
       * with this message as the stored reason. */
      g_set_error (error, KOMI_GO_ERROR, (int) err, "%s at %s is not allowed: %s",
                   komi_color_to_name (game->to_move), name, komi_move_error_to_string (err));
      return FALSE;
    }

  move.color = game->to_move;
  move.point = point;
  if (game->n_moves == game->moves_capacity)
    {
      game->moves_capacity *= 2;
      game->moves = g_renew (KomiMove, game->moves, game->moves_capacity);
    }
  game->moves[game->n_moves++] = move;

  if (point == KOMI_PASS)
    game->passes_in_a_row++;
  else
    {
      game->passes_in_a_row = 0;
      komi_board_play (game->board, game->to_move, point);
      /* A pass leaves the position as it was: only placements add one. */
      history_add (game);
    }

  game->to_move = KOMI_OTHER (game->to_move);
  if (game->passes_in_a_row >= 2)
    game->end = KOMI_END_TWO_PASSES;
  else if (game->max_turns > 0 && game->n_moves >= game->max_turns)
    game->end = KOMI_END_TURN_LIMIT;
  return TRUE;
}

/* @out = the points next to any point of @in (multi-word shifts by 1 and
 * by the stride). Border bits of @in are zero, so nothing wraps into a
 * real point. */
static inline void
dilate (const guint64 *in, guint words, int stride, guint64 *out)
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

/* Sorts every empty point into legal (@legal_bits) and forbidden by
 * superko (@superko_bits), as bitsets over the padded board. With
 * @skip_own_eyes, points whose neighbours are all the mover's stones are
 * left out of @legal_bits.
 *
 * An empty point is not suicide when it touches an empty point, is a
 * liberty of a friendly group with two or more liberties, or is the last
 * liberty of an enemy group; all three are computed for the whole board
 * at once from the group liberty sets. Superko too works on whole sets:
 * the placements that capture nothing are checked against the history
 * all at once (history_plain_repeats), the few that capture one by one. */
static inline __attribute__ ((always_inline)) void
classify_points_impl (const KomiGame *game,
                      guint           words,
                      gboolean        skip_own_eyes,
                      guint64        *legal_bits,
                      guint64        *superko_bits)
{
  const KomiBoard *b = game->board;
  KomiColor me = game->to_move, other = KOMI_OTHER (me);
  guint64 near_empty[KOMI_MAX_WORDS], cand[KOMI_MAX_WORDS], eyes[KOMI_MAX_WORDS];
  guint64 safe[KOMI_MAX_WORDS], capture[KOMI_MAX_WORDS];
  guint64 tmp[KOMI_MAX_WORDS], *forbidden = superko_bits;
  const guint64 *empty = b->sets[KOMI_EMPTY];
  guint least;
  int heads[4];
  guint n_heads;

  for (guint i = 0; i < words; i++)
    legal_bits[i] = forbidden[i] = 0;
  if (game->end != KOMI_END_NONE)
    return;

  /* A point is no suicide when it touches an empty point, is a liberty
   * of a friendly group with two or more liberties, or is the last
   * liberty of an enemy group (a capture). The groups in atari are few
   * (the board keeps their heads as a set), so: a point next to a
   * friendly stone is safe unless it is the last liberty of a friendly
   * group, and those few points are looked at one by one. */
  dilate (empty, words, b->stride, near_empty);
  dilate (b->sets[me], words, b->stride, safe);
  for (guint i = 0; i < words; i++)
    tmp[i] = capture[i] = eyes[i] = 0;
  for (guint i = 0; i < words; i++)
    for (guint64 bits = b->sets[KOMI_SET_ATARI][i]; bits != 0; bits &= bits - 1)
      {
        int h = (int) (i * 64 + (guint) __builtin_ctzll (bits));
        const guint64 *libs = b->libs + (gsize) h * words;
        guint64 *into = b->color[h] == me ? tmp : capture;

        for (guint k = 0; k < words; k++)
          into[k] |= libs[k];
      }
  for (guint i = 0; i < words; i++)
    {
      guint64 doubt = empty[i] & ~near_empty[i] & ~capture[i] & tmp[i];

      cand[i] = empty[i] & (near_empty[i] | (safe[i] & ~tmp[i]) | capture[i]);
      for (; doubt != 0; doubt &= doubt - 1)
        if (_komi_board_check_padded (b, me, (int) (i * 64 + (guint) __builtin_ctzll (doubt)),
                                      heads, &n_heads) == KOMI_MOVE_OK)
          cand[i] |= doubt & -doubt;
    }

  /* Placements that capture nothing, all at once. */
  history_plain_repeats (game, me, words, forbidden);
  for (guint i = 0; i < words; i++)
    forbidden[i] &= cand[i] & ~capture[i];

  /* Placements that capture, one by one, when any earlier position has
   * the mover's next stone count with fewer enemy stones than now. */
  least = game->least[me - 1][b->n_on_board[me] + 1];
  if (least != 0 && least <= b->n_on_board[other])
    for (guint i = 0; i < words; i++)
      for (guint64 bits = cand[i] & capture[i]; bits != 0; bits &= bits - 1)
        {
          int q = (int) (i * 64 + (guint) __builtin_ctzll (bits));

          _komi_board_check_padded (b, me, q, heads, &n_heads);
          if (history_repeats (game, me, q, heads, n_heads))
            forbidden[i] |= bits & -bits;
        }

  if (skip_own_eyes)
    {
      for (guint k = 0; k < words; k++)
        tmp[k] = empty[k] | b->sets[other][k];
      dilate (tmp, words, b->stride, eyes);
      for (guint k = 0; k < words; k++)
        eyes[k] = ~eyes[k];
    }

  for (guint i = 0; i < words; i++)
    legal_bits[i] = cand[i] & ~forbidden[i] & ~eyes[i];
}

static void
classify_points (const KomiGame *game,
                 gboolean        skip_own_eyes,
                 guint64        *legal_bits,
                 guint64        *superko_bits)
{
  /* 9x9 (Protocol 1) gets a copy with the word count known at compile
   * time, so the word loops unroll. */
  if (game->board->words == 2)
    classify_points_impl (game, 2, skip_own_eyes, legal_bits, superko_bits);
  else
    classify_points_impl (game, game->board->words, skip_own_eyes, legal_bits, superko_bits);
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

  classify_points (game, FALSE, legal, superko);
  return bits_to_points (game->board, legal, out);
}

guint
komi_game_superko_points (const KomiGame *game, KomiPoint *out)
{
  guint64 legal[KOMI_MAX_WORDS], superko[KOMI_MAX_WORDS];

  classify_points (game, FALSE, legal, superko);
  return bits_to_points (game->board, superko, out);
}

guint
komi_game_random_candidates (const KomiGame *game, KomiPoint *out)
{
  guint64 legal[KOMI_MAX_WORDS], superko[KOMI_MAX_WORDS];

  classify_points (game, TRUE, legal, superko);
  return bits_to_points (game->board, legal, out);
}

void
komi_game_legal_set (const KomiGame *game, KomiPointSet *set)
{
  guint64 superko[KOMI_MAX_WORDS];

  const KomiBoard *b = game->board;
  guint64 open[KOMI_MAX_WORDS], touched[KOMI_MAX_WORDS];
  KomiColor other = KOMI_OTHER (game->to_move);

  classify_points (game, FALSE, set->bits, superko);
  set->board = b;
  set->n = 0;
  /* An own eye: no neighbour empty or the opponent's. */
  for (guint i = 0; i < b->words; i++)
    open[i] = b->sets[KOMI_EMPTY][i] | b->sets[other][i];
  dilate (open, b->words, b->stride, touched);
  for (guint i = 0; i < b->words; i++)
    {
      set->n += _komi_popcount (set->bits[i]);
      set->own_eyes[i] = set->bits[i] & ~touched[i];
    }
}

/* The position of the @k-th set bit of @x (from 0; @x has more than @k):
 * bytes' running counts side by side in one word (Vigna, "Broadword
 * implementation of rank/select queries", 2008), then the same within
 * the byte: no branches. */
static inline guint
select64 (guint64 x, guint k)
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

KomiPoint
komi_point_set_nth (const KomiPointSet *set, guint i, gboolean *own_eye)
{
  const KomiBoard *b = set->board;
  guint k = 0, c, bit;

  g_return_val_if_fail (i < set->n, KOMI_NO_POINT);

  while (i >= (c = _komi_popcount (set->bits[k])))
    {
      i -= c;
      k++;
    }
  bit = select64 (set->bits[k], i);
  if (own_eye != NULL)
    *own_eye = (set->own_eyes[k] >> bit) & 1;
  return b->point_of[k * 64 + bit];
}

guint
komi_point_set_to_points (const KomiPointSet *set, KomiPoint *out)
{
  return bits_to_points (set->board, set->bits, out);
}
