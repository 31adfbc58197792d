/* komi-board.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include <string.h>

#include "komi-board-private.h"

/* The board is stored padded: one border ring around the points, so every
 * point has four neighbours to look at without bounds checks. Each group
 * has a head point; the group's data (stone count, liberty bitset over the
 * padded indices) lives at the head's index.
 * Stones of a group form a circular list through next[]. */


/* Keeps the head's bit in sets[KOMI_SET_ATARI] equal to nlibs == 1. */
static inline void
mark_atari (KomiBoard *b, int head)
{
  guint64 bit = G_GUINT64_CONSTANT (1) << (head & 63);
  guint64 *w = &b->sets[KOMI_SET_ATARI][head >> 6];

  *w = (*w & ~bit) | (-(guint64) (b->nlibs[head] == 1) & bit);
}

static inline void
clear_lib (KomiBoard *b, int head, int q)
{
  guint64 *w = _komi_board_libs (b, head) + (q >> 6);
  guint64 bit = G_GUINT64_CONSTANT (1) << (q & 63);

  if ((*w & bit) != 0)
    {
      *w &= ~bit;
      b->nlibs[head]--;
      mark_atari (b, head);
    }
}

/* The board and its arrays are one allocation (a board is made for every
 * game): the struct, then the 2-byte arrays, then the colours, then the
 * groups' 8-byte sets, last because they alone need no initial value (a
 * group's are written when its head's stone is placed). Returns the
 * allocation's size. */
static gsize
board_layout (KomiBoard *b)
{
  guint8 *p = (guint8 *) (b + 1);
  gsize n = b->n_padded;

  b->head = (guint16 *) p;
  p += n * sizeof (guint16);
  b->next = (guint16 *) p;
  p += n * sizeof (guint16);
  b->n_stones = (guint16 *) p;
  p += n * sizeof (guint16);
  b->nlibs = (guint16 *) p;
  p += n * sizeof (guint16);
  b->point_of = (gint16 *) p;
  p += n * sizeof (gint16);
  b->color = p;
  p += n;
  p = (guint8 *) b + (((gsize) (p - (guint8 *) b) + 7) & ~(gsize) 7);
  b->libs = (guint64 *) p;
  p += n * 2 * b->words * sizeof (guint64);
  return (gsize) (p - (guint8 *) b);
}

/* The empty board of @size, built in full. */
static KomiBoard *
board_build (guint size)
{
  KomiBoard shape = { 0, }, *b;
  int stride = (int) size + 2;

  shape.n_padded = (guint) (stride * stride);
  shape.words = (shape.n_padded + 63) / 64;
  /* Zeroed: head[] and nlibs[] of empty points are read (never trusted)
   * by the branchless move check, so they hold valid values from the
   * start. */
  b = g_malloc0 (board_layout (&shape));
  b->size = size;
  b->stride = stride;
  b->n_padded = shape.n_padded;
  b->words = shape.words;
  b->alloc_size = board_layout (b);
  b->neighbours[0] = -b->stride;
  b->neighbours[1] = -1;
  b->neighbours[2] = 1;
  b->neighbours[3] = b->stride;

  /* Row by row, without a division per point. */
  memset (b->color, KOMI_BORDER, b->n_padded);
  for (guint q = 0; q < b->n_padded; q++)
    b->point_of[q] = -1;
  for (guint y = 0, p = 0; y < size; y++)
    for (guint x = 0; x < size; x++, p++)
      {
        guint q = (y + 1) * (guint) b->stride + x + 1;

        b->color[q] = KOMI_EMPTY;
        _komi_set_bit (b->sets[KOMI_EMPTY], (int) q);
        b->pad_of[p] = (guint16) q;
        b->point_of[q] = (gint16) p;
      }
  return b;
}

/* A new board is a copy of the empty board of its size, built once per
 * size and kept for the process's lifetime (a game makes one: building
 * it point by point, and zeroing the groups' sets, was a tenth of a short
 * game). Only the part before the sets is copied. */
KomiBoard *
komi_board_new (guint size)
{
  static gsize empty_boards[KOMI_MAX_SIZE + 1];
  const KomiBoard *empty;
  KomiBoard *b;

  g_return_val_if_fail (size >= KOMI_MIN_SIZE && size <= KOMI_MAX_SIZE, NULL);

  if (g_once_init_enter (&empty_boards[size]))
    g_once_init_leave (&empty_boards[size], (gsize) board_build (size));
  empty = (const KomiBoard *) empty_boards[size];
  b = g_malloc (empty->alloc_size);
  memcpy (b, empty, (gsize) ((const guint8 *) empty->libs - (const guint8 *) empty));
  board_layout (b);
  return b;
}

KomiBoard *
komi_board_copy (const KomiBoard *board)
{
  KomiBoard *b;

  g_return_val_if_fail (board != NULL, NULL);

  b = g_memdup2 (board, board->alloc_size);
  board_layout (b);
  return b;
}

void
komi_board_free (KomiBoard *board)
{
  g_free (board);
}

guint
komi_board_get_size (const KomiBoard *board)
{
  return board->size;
}

guint
komi_board_get_n_points (const KomiBoard *board)
{
  return board->size * board->size;
}

KomiColor
komi_board_get (const KomiBoard *board, KomiPoint point)
{
  g_return_val_if_fail (point >= 0 && (guint) point < board->size * board->size, KOMI_EMPTY);
  return board->color[_komi_board_padded (board, point)];
}

void
komi_board_get_colors (const KomiBoard *board, guint8 *out)
{
  int i = 0;

  for (guint y = 0; y < board->size; y++)
    {
      const guint8 *row = board->color + (y + 1) * (guint) board->stride + 1;
      memcpy (out + i, row, board->size);
      i += (int) board->size;
    }
}

guint
komi_board_count_stones (const KomiBoard *board, KomiColor color)
{
  g_return_val_if_fail (color == KOMI_BLACK || color == KOMI_WHITE, 0);
  return board->n_on_board[color];
}

guint
komi_board_get_liberties (const KomiBoard *board, KomiPoint point)
{
  int q = _komi_board_padded (board, point);

  if (board->color[q] == KOMI_EMPTY)
    return 0;
  return board->nlibs[board->head[q]];
}

/* Joins the group at @absorbed into the group at @keep (both heads);
 * the caller recounts @keep's liberties. */
static inline __attribute__ ((always_inline)) void
merge_groups (KomiBoard *b, guint words, int keep, int absorbed)
{
  int q = absorbed;
  guint64 *kl = _komi_board_group_words (b, words, keep);
  const guint64 *al = _komi_board_group_words (b, words, absorbed);

  do
    {
      b->head[q] = (guint16) keep;
      q = b->next[q];
    }
  while (q != absorbed);

  /* Splice the two circular lists. */
  {
    guint16 tmp = b->next[keep];
    b->next[keep] = b->next[absorbed];
    b->next[absorbed] = tmp;
  }
  b->n_stones[keep] += b->n_stones[absorbed];
  for (guint i = 0; i < 2 * words; i++)   /* liberties and stones */
    kl[i] |= al[i];
  _komi_clear_bit (b->sets[KOMI_SET_HEADS], absorbed);
  _komi_clear_bit (b->sets[KOMI_SET_ATARI], absorbed);
}

/* Removes the group at @head; returns the number of stones removed.
 * The emptied points become liberties of the groups around them, found
 * from the group's stone set: each enemy group next to it gets the
 * emptied points next to its own stones. @words and @stride are the
 * board's (constants in the 9x9 copy). */
static inline __attribute__ ((always_inline)) guint
remove_group (KomiBoard *b, guint words, int stride, int head)
{
  KomiColor color = b->color[head], other = KOMI_OTHER (color);
  const guint64 *stones = _komi_board_group_words (b, words, head) + words;
  guint64 gone[KOMI_MAX_WORDS], near[KOMI_MAX_WORDS];
  guint n = b->n_stones[head];
  int q = head;

  do
    {
      b->color[q] = KOMI_EMPTY;
      q = b->next[q];
    }
  while (q != head);
  for (guint k = 0; k < words; k++)
    {
      gone[k] = stones[k];
      b->sets[color][k] &= ~gone[k];
      b->sets[KOMI_EMPTY][k] |= gone[k];
    }
  b->n_on_board[color] -= n;
  _komi_clear_bit (b->sets[KOMI_SET_HEADS], head);
  _komi_clear_bit (b->sets[KOMI_SET_ATARI], head);

  _komi_dilate (gone, words, stride, near);
  for (guint k = 0; k < words; k++)
    near[k] &= b->sets[other][k];
  for (int r; (r = _komi_first_bit (near, words)) >= 0;)
      {
        int h = b->head[r];
        guint64 *libs = _komi_board_group_words (b, words, h);
        const guint64 *own = libs + words;
        guint64 next_to[KOMI_MAX_WORDS];
        guint nl = 0;

        _komi_dilate (own, words, stride, next_to);
        for (guint j = 0; j < words; j++)
          {
            libs[j] |= next_to[j] & gone[j];
            nl += _komi_popcount (libs[j]);
            near[j] &= ~own[j];
          }
        b->nlibs[h] = (guint16) nl;
        mark_atari (b, h);
      }
  return n;
}

/* Adds a stone at padded @q for @color without capturing anything and
 * returns its group head. When @dead is given, it receives the heads of
 * the enemy groups left without liberties, each once, and @n_dead their
 * number. @words and @stride are the board's (constants in the 9x9
 * copy). The four neighbours are taken as a set, split by colour without
 * a branch on each one's colour; each group next to the stone is met
 * once (its stones are taken out of the set), in board order, as the
 * neighbours up, left, right, down would meet them. */
static inline __attribute__ ((always_inline)) int
add_stone_impl (KomiBoard *b, guint words, int stride, KomiColor color, int q, int dead[4],
                guint *n_dead)
{
  KomiColor other = KOMI_OTHER (color);
  guint64 *l = _komi_board_group_words (b, words, q);
  guint64 qbit = G_GUINT64_CONSTANT (1) << (q & 63);
  guint64 nb[KOMI_MAX_WORDS], mine[KOMI_MAX_WORDS], theirs[KOMI_MAX_WORDS];
  int friends[4];
  guint n_friends = 0, n;
  int keep;

  if (words == 2)
    {
      /* Built in registers (the two words as one 128-bit number):
       * setting the bits one by one in the array made each wait for the
       * store before it. */
      unsigned __int128 near = ((unsigned __int128) 5 << (q - 1))
                               | ((unsigned __int128) 1 << (q - stride))
                               | ((unsigned __int128) 1 << (q + stride));

      nb[0] = (guint64) near;
      nb[1] = (guint64) (near >> 64);
    }
  else
    {
      for (guint i = 0; i < words; i++)
        nb[i] = 0;
      _komi_set_bit (nb, q - stride);
      _komi_set_bit (nb, q - 1);
      _komi_set_bit (nb, q + 1);
      _komi_set_bit (nb, q + stride);
    }

  b->color[q] = color;
  _komi_clear_bit (b->sets[KOMI_EMPTY], q);
  _komi_set_bit (b->sets[color], q);
  b->n_on_board[color]++;
  b->head[q] = (guint16) q;
  b->next[q] = (guint16) q;
  b->n_stones[q] = 1;
  for (guint i = 0; i < words; i++)
    {
      l[i] = nb[i] & b->sets[KOMI_EMPTY][i];
      l[words + i] = 0;
      mine[i] = nb[i] & b->sets[color][i];
      theirs[i] = nb[i] & b->sets[other][i];
    }
  l[words + (q >> 6)] = qbit;

  /* Enemy groups lose q as a liberty. */
  for (int r; (r = _komi_first_bit (theirs, words)) >= 0;)
      {
        int h = b->head[r];
        const guint64 *own = _komi_board_group_words (b, words, h) + words;

        for (guint j = 0; j < words; j++)
          theirs[j] &= ~own[j];
        clear_lib (b, h, q);
        if (dead != NULL && b->nlibs[h] == 0)
          dead[(*n_dead)++] = h;
      }
  for (int r; (r = _komi_first_bit (mine, words)) >= 0;)
      {
        int h = b->head[r];
        const guint64 *own = _komi_board_group_words (b, words, h) + words;

        for (guint j = 0; j < words; j++)
          mine[j] &= ~own[j];
        friends[n_friends++] = h;
      }

  if (n_friends == 0)
    {
      /* A lone stone: its liberties are its empty neighbours (four
       * bytes read are cheaper than counting the set's bits). */
      n = (b->color[q - stride] == KOMI_EMPTY) + (b->color[q - 1] == KOMI_EMPTY)
          + (b->color[q + 1] == KOMI_EMPTY) + (b->color[q + stride] == KOMI_EMPTY);
      b->nlibs[q] = (guint16) n;
      _komi_set_bit (b->sets[KOMI_SET_HEADS], q);
      mark_atari (b, q);
      return q;
    }

  /* Everything joins the largest group, which relabels the fewest. */
  keep = friends[0];
  for (guint i = 1; i < n_friends; i++)
    if (b->n_stones[friends[i]] > b->n_stones[keep])
      keep = friends[i];
  for (guint i = 0; i < n_friends; i++)
    if (friends[i] != keep)
      merge_groups (b, words, keep, friends[i]);
  /* The new stone joins last: a group of one, in no set of heads yet. */
  {
    guint64 *kl = _komi_board_group_words (b, words, keep);
    guint16 tmp = b->next[keep];

    b->head[q] = (guint16) keep;
    b->next[keep] = b->next[q];
    b->next[q] = tmp;
    b->n_stones[keep]++;
    for (guint i = 0; i < 2 * words; i++)
      kl[i] |= l[i];
    l = kl;
  }
  l[q >> 6] &= ~qbit;
  n = 0;
  for (guint i = 0; i < words; i++)
    n += _komi_popcount (l[i]);
  b->nlibs[keep] = (guint16) n;
  mark_atari (b, keep);
  return keep;
}

static int
add_stone (KomiBoard *b, KomiColor color, int q, int dead[4], guint *n_dead)
{
  if (b->size == 9)
    return add_stone_impl (b, 2, 11, color, q, dead, n_dead);
  return add_stone_impl (b, b->words, b->stride, color, q, dead, n_dead);
}

KomiMoveError
komi_board_check (const KomiBoard *board,
                  KomiColor        color,
                  KomiPoint        point)
{
  int captured[4];
  guint n_captured;

  if (point < 0 || (guint) point >= board->size * board->size)
    return KOMI_MOVE_OFF_BOARD;
  return _komi_board_check_padded (board, color, board->pad_of[point], captured, &n_captured);
}

void
komi_board_colors_after (const KomiBoard *board,
                         KomiColor        color,
                         KomiPoint        point,
                         guint8          *out)
{
  g_autoptr(KomiBoard) copy = komi_board_copy (board);

  komi_board_play (copy, color, point);
  komi_board_get_colors (copy, out);
}

static inline __attribute__ ((always_inline)) guint
place_impl (KomiBoard *b, guint words, int stride, KomiColor color, int q)
{
  guint captured = 0, n_dead = 0;
  int dead[4];

  add_stone_impl (b, words, stride, color, q, dead, &n_dead);
  for (guint i = 0; i < n_dead; i++)
    captured += remove_group (b, words, stride, dead[i]);
  return captured;
}

guint
_komi_board_place (KomiBoard *b, KomiColor color, int q)
{
  /* 9x9 (Protocol 1) gets a copy with the word count and the row stride
   * known at compile time. */
  if (b->size == 9)
    return place_impl (b, 2, 11, color, q);
  return place_impl (b, b->words, b->stride, color, q);
}

guint
komi_board_play (KomiBoard *board, KomiColor color, KomiPoint point)
{
  KomiBoard *b = board;
  int q;

  g_return_val_if_fail (color == KOMI_BLACK || color == KOMI_WHITE, 0);
  g_return_val_if_fail (point >= 0 && (guint) point < b->size * b->size, 0);

  q = _komi_board_padded (b, point);
  g_return_val_if_fail (b->color[q] == KOMI_EMPTY, 0);

  return _komi_board_place (b, color, q);
}

gboolean
komi_board_is_own_eye (const KomiBoard *board, KomiColor color, KomiPoint point)
{
  int q = _komi_board_padded (board, point);
  gboolean eye = board->color[q] == KOMI_EMPTY;

  for (int d = 0; d < 4; d++)
    {
      guint c = board->color[q + board->neighbours[d]];
      eye &= (c == (guint) color) | (c == KOMI_BORDER);
    }
  return eye;
}

void
komi_board_set_colors (KomiBoard *board, const guint8 *colors)
{
  KomiBoard *b = board;

  memset (b->sets, 0, sizeof b->sets);
  memset (b->n_on_board, 0, sizeof b->n_on_board);
  for (guint q = 0; q < b->n_padded; q++)
    if (b->color[q] != KOMI_BORDER)
      {
        b->color[q] = KOMI_EMPTY;
        _komi_set_bit (b->sets[KOMI_EMPTY], (int) q);
      }

  /* Stones are added one by one without captures; liberties are exact
   * because add_stone only looks at what is already placed and its empty
   * neighbours, and a later stone removes the liberty it takes. */
  for (guint p = 0; p < b->size * b->size; p++)
    {
      KomiColor c = colors[p];
      if (c == KOMI_BLACK || c == KOMI_WHITE)
        add_stone (b, c, _komi_board_padded (b, (KomiPoint) p), NULL, NULL);
    }
}

KomiBoard *
komi_board_new_from_diagram (const char *diagram, GError **error)
{
  g_autoptr(GByteArray) cells = g_byte_array_new ();
  guint rows = 0, row_len = 0, size;
  KomiBoard *board;

  g_return_val_if_fail (diagram != NULL, NULL);

  guint first_len = 0;

  for (const char *s = diagram; ; s++)
    {
      if (*s == '\n' || *s == '\0')
        {
          if (row_len > 0)
            {
              rows++;
              if (rows == 1)
                first_len = row_len;
              else if (row_len != first_len)
                {
                  g_set_error (error, KOMI_GO_ERROR, KOMI_GO_ERROR_BAD_SIZE,
                               "Diagram row %u has %u points but the first row has %u",
                               rows, row_len, first_len);
                  return NULL;
                }
            }
          row_len = 0;
          if (*s == '\0')
            break;
          continue;
        }
      if (*s == ' ' || *s == '\t' || *s == '\r')
        continue;
      {
        guint8 c;
        if (*s == 'X' || *s == 'x' || *s == '#')
          c = KOMI_BLACK;
        else if (*s == 'O' || *s == 'o')
          c = KOMI_WHITE;
        else if (*s == '.' || *s == '+')
          c = KOMI_EMPTY;
        else
          {
            g_set_error (error, KOMI_GO_ERROR, KOMI_GO_ERROR_BAD_POINT,
                         "Diagram has an unexpected character '%c'; use X, O and .", *s);
            return NULL;
          }
        g_byte_array_append (cells, &c, 1);
        row_len++;
      }
    }

  size = rows;
  if (size < KOMI_MIN_SIZE || size > KOMI_MAX_SIZE || cells->len != size * size)
    {
      g_set_error (error, KOMI_GO_ERROR, KOMI_GO_ERROR_BAD_SIZE,
                   "Diagram is not a square board of %d to %d lines (%u rows, %u points)",
                   KOMI_MIN_SIZE, KOMI_MAX_SIZE, rows, cells->len);
      return NULL;
    }
  board = komi_board_new (size);
  komi_board_set_colors (board, cells->data);
  return board;
}

char *
komi_board_to_diagram (const KomiBoard *board)
{
  GString *s = g_string_new (NULL);

  for (guint y = 0; y < board->size; y++)
    {
      for (guint x = 0; x < board->size; x++)
        {
          KomiColor c = komi_board_get (board, (KomiPoint) (y * board->size + x));
          if (x > 0)
            g_string_append_c (s, ' ');
          g_string_append (s, komi_color_to_protocol (c));
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}
