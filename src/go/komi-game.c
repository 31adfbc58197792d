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

/* History for positional superko: every whole-board position of the game
 * (the start included) in an open-addressed table keyed by Zobrist hash,
 * plus a snapshot of each position's colours. A hash hit is confirmed
 * against the snapshots, so a 64-bit collision can never forbid a legal
 * move: the check is exact. */
struct _KomiGame
{
  KomiBoard     *board;
  KomiColor      to_move;
  guint          max_turns;
  guint          passes_in_a_row;
  KomiEndReason  end;
  GArray        *moves;       /* KomiMove */

  guint64       *keys;
  guint32       *slots;       /* snapshot index + 1; 0 = free */
  guint          capacity;    /* power of two */
  guint          n_positions;
  guint          n_points;
  GByteArray    *snapshots;   /* n_points bytes per position */
  /* A one-hash Bloom filter over the keys: most candidate points miss it,
   * and then the table is never probed. */
  guint64        bloom[64];
  /* The same for (black stones, white stones) of every position: a move
   * that captures nothing can only repeat a position with the stone
   * counts it produces, so when those counts never occurred, none of
   * the turn's non-capturing moves needs a probe at all. */
  guint64        counts_seen[64];
};

#define BLOOM_BIT(key) ((key) >> 52)
#define COUNTS_BIT(b, w) (((b) * 97u + (w)) & 4095u)

static void history_add (KomiGame *game);

static void
history_insert (KomiGame *game, guint64 key, guint32 slot)
{
  guint mask = game->capacity - 1;
  guint i = (guint) key & mask;

  while (game->slots[i] != 0)
    i = (i + 1) & mask;
  game->keys[i] = key;
  game->slots[i] = slot;
  game->bloom[BLOOM_BIT (key) >> 6] |= G_GUINT64_CONSTANT (1) << (BLOOM_BIT (key) & 63);
}

static void
history_grow (KomiGame *game)
{
  guint64 *old_keys = game->keys;
  guint32 *old_slots = game->slots;
  guint old_capacity = game->capacity;

  game->capacity = old_capacity ? old_capacity * 2 : 256;
  game->keys = g_new (guint64, game->capacity);
  game->slots = g_new0 (guint32, game->capacity);
  for (guint i = 0; i < old_capacity; i++)
    if (old_slots[i] != 0)
      history_insert (game, old_keys[i], old_slots[i]);
  g_free (old_keys);
  g_free (old_slots);
}

static void
history_add (KomiGame *game)
{
  guint8 *snap;

  if (2 * (game->n_positions + 1) > game->capacity)
    history_grow (game);
  g_byte_array_set_size (game->snapshots, (game->n_positions + 1) * game->n_points);
  snap = game->snapshots->data + (gsize) game->n_positions * game->n_points;
  komi_board_get_colors (game->board, snap);
  game->n_positions++;
  {
    guint bit = COUNTS_BIT (game->board->n_on_board[KOMI_BLACK],
                            game->board->n_on_board[KOMI_WHITE]);
    game->counts_seen[bit >> 6] |= G_GUINT64_CONSTANT (1) << (bit & 63);
  }
  history_insert (game, komi_board_get_hash (game->board), game->n_positions);
}

/* The slow half of history_repeats: is the position behind a matching
 * key really the same? Runs only on a hash hit. */
static __attribute__ ((noinline)) gboolean
history_confirm (const KomiGame *game, guint64 key, KomiColor color, KomiPoint point)
{
  guint mask = game->capacity - 1;
  guint8 after[KOMI_MAX_POINTS];

  komi_board_colors_after (game->board, color, point, after);
  for (guint i = (guint) key & mask; game->slots[i] != 0; i = (i + 1) & mask)
    {
      const guint8 *snap = game->snapshots->data + (gsize) (game->slots[i] - 1) * game->n_points;

      if (game->keys[i] == key && memcmp (snap, after, game->n_points) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Whether the position after @color plays @point (resulting hash @key)
 * occurred before. */
static inline gboolean
history_repeats (const KomiGame *game, guint64 key, KomiColor color, KomiPoint point)
{
  guint mask = game->capacity - 1;

  if (!((game->bloom[BLOOM_BIT (key) >> 6] >> (BLOOM_BIT (key) & 63)) & 1))
    return FALSE;
  for (guint i = (guint) key & mask; game->slots[i] != 0; i = (i + 1) & mask)
    if (game->keys[i] == key)
      return history_confirm (game, key, color, point);
  return FALSE;
}

static KomiGame *
game_new_take_board (KomiBoard *board, KomiColor to_move, guint max_turns)
{
  KomiGame *game = g_new0 (KomiGame, 1);

  game->board = board;
  game->to_move = to_move;
  game->max_turns = max_turns;
  game->moves = g_array_sized_new (FALSE, FALSE, sizeof (KomiMove), 128);
  game->n_points = komi_board_get_n_points (board);
  game->snapshots = g_byte_array_sized_new (game->n_points * 128);
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
  copy->moves = g_array_copy (game->moves);
  copy->keys = g_memdup2 (game->keys, game->capacity * sizeof (guint64));
  copy->slots = g_memdup2 (game->slots, game->capacity * sizeof (guint32));
  copy->snapshots = g_byte_array_sized_new (game->snapshots->len);
  g_byte_array_append (copy->snapshots, game->snapshots->data, game->snapshots->len);
  return copy;
}

void
komi_game_free (KomiGame *game)
{
  if (game == NULL)
    return;
  komi_board_free (game->board);
  g_array_unref (game->moves);
  g_byte_array_unref (game->snapshots);
  g_free (game->keys);
  g_free (game->slots);
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
  return game->moves->len;
}

guint
komi_game_get_turns_left (const KomiGame *game)
{
  if (game->max_turns == 0 || game->end != KOMI_END_NONE)
    return 0;
  return game->max_turns - game->moves->len;
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
    *n_moves = game->moves->len;
  return (const KomiMove *) game->moves->data;
}

KomiMoveError
komi_game_check (const KomiGame *game, KomiPoint point)
{
  KomiMoveError err;
  guint64 key;

  if (game->end != KOMI_END_NONE)
    return KOMI_MOVE_GAME_OVER;
  if (point == KOMI_PASS)
    return KOMI_MOVE_OK;
  err = komi_board_check (game->board, game->to_move, point, &key);
  if (err != KOMI_MOVE_OK)
    return err;
  if (history_repeats (game, key, game->to_move, point))
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
  g_array_append_val (game->moves, move);

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
  else if (game->max_turns > 0 && game->moves->len >= game->max_turns)
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

/* Sorts every empty point, in board order, into legal and forbidden by
 * superko; either output may be NULL. With @skip_own_eyes, points whose
 * neighbours are all the mover's stones are left out of @legal.
 *
 * An empty point is not suicide when it touches an empty point, is a
 * liberty of a friendly group with two or more liberties, or is the last
 * liberty of an enemy group; all three are computed for the whole board
 * at once from the group liberty sets, so the per-point work is only the
 * superko probe. */
static inline __attribute__ ((always_inline)) void
classify_points_impl (const KomiGame *game,
                      guint           words,
                      gboolean        skip_own_eyes,
                      KomiPoint      *legal,
                      guint          *n_legal,
                      KomiPoint      *superko,
                      guint          *n_superko)
{
  const KomiBoard *b = game->board;
  KomiColor me = game->to_move, other = KOMI_OTHER (me);
  guint64 near_empty[KOMI_MAX_WORDS], safe[KOMI_MAX_WORDS] = { 0, }, capture[KOMI_MAX_WORDS] = { 0, };
  guint64 eyes[KOMI_MAX_WORDS] = { 0, }, tmp[KOMI_MAX_WORDS];
  const guint64 *empty = b->sets[KOMI_EMPTY];
  guint nl = 0, ns = 0, counts_bit;
  gboolean plain_may_repeat;

  if (game->end != KOMI_END_NONE)
    goto done;

  counts_bit = COUNTS_BIT (b->n_on_board[KOMI_BLACK] + (me == KOMI_BLACK),
                           b->n_on_board[KOMI_WHITE] + (me == KOMI_WHITE));
  plain_may_repeat = (game->counts_seen[counts_bit >> 6] >> (counts_bit & 63)) & 1;

  dilate (empty, words, b->stride, near_empty);
  for (guint i = 0; i < words; i++)
    {
      guint64 heads = b->sets[KOMI_SET_HEADS][i];

      while (heads != 0)
        {
          int h = (int) (i * 64 + (guint) __builtin_ctzll (heads));
          const guint64 *libs = _komi_board_libs (b, h);

          heads &= heads - 1;
          if (b->color[h] == me && b->nlibs[h] >= 2)
            for (guint k = 0; k < words; k++)
              safe[k] |= libs[k];
          else if (b->color[h] == other && b->nlibs[h] == 1)
            for (guint k = 0; k < words; k++)
              capture[k] |= libs[k];
        }
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
    {
      guint64 cand = empty[i] & (near_empty[i] | safe[i] | capture[i]);

      while (cand != 0)
        {
          int q = (int) (i * 64 + (guint) __builtin_ctzll (cand));
          guint64 bit = cand & -cand;
          KomiPoint p = b->point_of[q];
          guint64 key = 0;

          cand &= cand - 1;
          if (capture[i] & bit)
            _komi_board_check_padded (b, me, q, &key);
          else if (plain_may_repeat)
            key = b->hash ^ zobrist (q, me);

          if (((capture[i] & bit) || plain_may_repeat) && history_repeats (game, key, me, p))
            {
              if (superko != NULL)
                superko[ns] = p;
              ns++;
            }
          else if (!(eyes[i] & bit))
            {
              if (legal != NULL)
                legal[nl] = p;
              nl++;
            }
        }
    }

done:
  if (n_legal != NULL)
    *n_legal = nl;
  if (n_superko != NULL)
    *n_superko = ns;
}

static void
classify_points (const KomiGame *game,
                 gboolean        skip_own_eyes,
                 KomiPoint      *legal,
                 guint          *n_legal,
                 KomiPoint      *superko,
                 guint          *n_superko)
{
  /* 9x9 (Protocol 1) gets a copy with the word count known at compile
   * time, so the word loops unroll. */
  if (game->board->words == 2)
    classify_points_impl (game, 2, skip_own_eyes, legal, n_legal, superko, n_superko);
  else
    classify_points_impl (game, game->board->words, skip_own_eyes, legal, n_legal, superko,
                          n_superko);
}

guint
komi_game_legal_points (const KomiGame *game, KomiPoint *out)
{
  guint n;

  classify_points (game, FALSE, out, &n, NULL, NULL);
  return n;
}

guint
komi_game_superko_points (const KomiGame *game, KomiPoint *out)
{
  guint n;

  classify_points (game, FALSE, NULL, NULL, out, &n);
  return n;
}

guint
komi_game_random_candidates (const KomiGame *game, KomiPoint *out)
{
  guint n;

  classify_points (game, TRUE, out, &n, NULL, NULL);
  return n;
}
