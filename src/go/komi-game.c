/* komi-game.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include <string.h>

#include "komi-coords.h"
#include "komi-game-private.h"

static void
history_grow (KomiGame *game)
{
  game->capacity = game->capacity ? game->capacity * 2 : 128;
  game->stones = g_renew (guint64, game->stones, (gsize) game->capacity * 2 * game->words);
  game->counts = g_renew (guint32, game->counts, game->capacity);
  game->chain = g_renew (guint32, game->chain, game->capacity);
}

/* least[][m] = min (least[][m], @v), where 0 stands for none: as
 * unsigned 16-bit numbers, 0 - 1 is above every count. */
static inline void
least_update (guint16 *slot, guint v)
{
  guint16 old = (guint16) (*slot - 1);

  *slot = (guint16) (MIN (old, (guint16) v) + 1);
}

/* Records the board's position (after a placement, or the start).
 * @words is the board's (a constant in the 9x9 copy). */
static inline __attribute__ ((always_inline)) void
history_add_impl (KomiGame *game, guint words)
{
  const KomiBoard *b = game->board;
  guint nb = b->n_on_board[KOMI_BLACK], nw = b->n_on_board[KOMI_WHITE];
  guint n = game->n_positions, bucket = COUNTS_BUCKET (nb, nw);
  guint64 *dst;

  if (G_UNLIKELY (n == game->capacity))
    history_grow (game);
  dst = game->stones + (gsize) n * 2 * words;
  for (guint k = 0; k < words; k++)
    {
      dst[k] = b->sets[KOMI_BLACK][k];
      dst[words + k] = b->sets[KOMI_WHITE][k];
    }
  least_update (&game->least[0][nb], nw);
  least_update (&game->least[1][nw], nb);
  game->counts[n] = COUNTS_KEY (nb, nw);
  game->chain[n] = game->bucket[bucket];
  game->bucket[bucket] = n + 1;
  game->n_positions = n + 1;
}

static inline __attribute__ ((always_inline)) void
history_add (KomiGame *game)
{
  if (game->words == 2)
    history_add_impl (game, 2);
  else
    history_add_impl (game, game->words);
}

/* Whether @color placing at padded @q (a legal placement but for
 * superko, capturing the groups at @heads: _komi_board_check_padded)
 * gives a position that occurred before: the resulting position is
 * compared in full with every earlier one of the same stone counts. */
static inline __attribute__ ((always_inline)) gboolean
history_repeats_impl (const KomiGame *game, guint words, KomiColor color, int q,
                      const int *heads, guint n_heads)
{
  const KomiBoard *b = game->board;
  KomiColor other = KOMI_OTHER (color);
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
  link = _komi_game_history_next (game, game->bucket[COUNTS_BUCKET (nb, nw)], key);
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
      const guint64 *gone = _komi_board_stones (b, heads[i]);

      for (guint k = 0; k < words; k++)
        theirs[k] &= ~gone[k];
    }

  for (; link != 0; link = _komi_game_history_next (game, game->chain[link - 1], key))
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

gboolean
_komi_game_history_repeats (const KomiGame *game, KomiColor color, int q, const int *heads,
                            guint n_heads)
{
  if (game->words == 2)
    return history_repeats_impl (game, 2, color, q, heads, n_heads);
  return history_repeats_impl (game, game->words, color, q, heads, n_heads);
}

static KomiGame *
game_new_take_board (KomiBoard *board, KomiColor to_move, guint max_turns)
{
  KomiGame *game = g_malloc (sizeof *game);
  /* A turn limit bounds the moves and positions: no growing then. */
  guint expected = max_turns > 0 && max_turns < 1024 ? max_turns + 1 : 128;
  gsize n_least = board->size * board->size + 2;

  /* Zeroed but for the rows of least[] past the board's stone counts,
   * which are never read: a game is made for every game played. */
  memset (game, 0, G_STRUCT_OFFSET (KomiGame, least));
  memset (game->least[0], 0, n_least * sizeof game->least[0][0]);
  memset (game->least[1], 0, n_least * sizeof game->least[1][0]);

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

static inline __attribute__ ((always_inline)) KomiMoveError
game_check (const KomiGame *game, KomiPoint point)
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
  if (game->note_turn == game->n_moves + 1 && _komi_test_bit (game->note, q))
    return KOMI_MOVE_OK;
  err = _komi_board_check_padded (b, game->to_move, q, heads, &n_heads);
  if (err != KOMI_MOVE_OK)
    return err;
  if (_komi_game_history_repeats (game, game->to_move, q, heads, n_heads))
    return KOMI_MOVE_SUPERKO;
  return KOMI_MOVE_OK;
}

KomiMoveError
komi_game_check (const KomiGame *game, KomiPoint point)
{
  return game_check (game, point);
}

gboolean
komi_game_play (KomiGame *game, KomiPoint point, GError **error)
{
  KomiMoveError err;
  KomiMove move;

  g_return_val_if_fail (game != NULL, FALSE);

  err = game_check (game, point);
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
      _komi_board_place (game->board, game->to_move, _komi_board_padded (game->board, point));
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
