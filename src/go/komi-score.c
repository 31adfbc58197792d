/* komi-score.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include <string.h>

#include "komi-board-private.h"
#include "komi-score.h"

/* The owner of an empty region of @count points next to black stones
 * (@black), white ones (@white), both or neither; its points counted for
 * that owner or as dame. */
static inline KomiColor
count_region (KomiScore *score, gboolean black, gboolean white, guint count)
{
  KomiColor owner = black == white ? KOMI_EMPTY : black ? KOMI_BLACK : KOMI_WHITE;

  if (owner == KOMI_BLACK)
    score->black_territory += count;
  else if (owner == KOMI_WHITE)
    score->white_territory += count;
  else
    score->dame += count;
  return owner;
}

/* The count without dead stones, from the board's sets: each empty
 * region is grown from one of its points by whole-board dilations (a
 * region is the empty points reached), and its owner is the one colour
 * next to it. @words and @stride are the board's (constants in the 9x9
 * copy). */
static inline __attribute__ ((always_inline)) void
area_from_sets (const KomiBoard *b, guint words, int stride, KomiScore *score)
{
  const guint64 *empty = b->sets[KOMI_EMPTY];
  guint64 rest[KOMI_MAX_WORDS];
  guint n = b->size * b->size;

  for (guint p = 0; p < n; p++)
    score->owner[p] = b->color[b->pad_of[p]];
  score->black_stones = b->n_on_board[KOMI_BLACK];
  score->white_stones = b->n_on_board[KOMI_WHITE];

  for (guint k = 0; k < words; k++)
    rest[k] = empty[k];
  for (guint k = 0; k < words; k++)
    while (rest[k] != 0)
      {
        guint64 region[KOMI_MAX_WORDS], near[KOMI_MAX_WORDS], grew, black = 0, white = 0;
        guint count = 0;
        KomiColor owner;

        for (guint j = 0; j < words; j++)
          region[j] = 0;
        region[k] = rest[k] & -rest[k];
        do
          {
            _komi_dilate (region, words, stride, near);
            grew = 0;
            for (guint j = 0; j < words; j++)
              {
                guint64 r = region[j] | (near[j] & empty[j]);

                grew |= r ^ region[j];
                region[j] = r;
              }
          }
        while (grew != 0);
        /* near: the points next to the whole region (it last grew by none). */
        for (guint j = 0; j < words; j++)
          {
            black |= near[j] & b->sets[KOMI_BLACK][j];
            white |= near[j] & b->sets[KOMI_WHITE][j];
            count += _komi_popcount (region[j]);
            rest[j] &= ~region[j];
          }
        owner = count_region (score, black != 0, white != 0, count);
        if (owner != KOMI_EMPTY)
          for (guint j = 0; j < words; j++)
            for (guint64 w = region[j]; w != 0; w &= w - 1)
              score->owner[b->point_of[j * 64 + (guint) __builtin_ctzll (w)]] = (guint8) owner;
      }
}

void
komi_score_area (const KomiBoard *board,
                 const KomiPoint *dead,
                 guint            n_dead,
                 double           komi,
                 KomiScore       *score)
{
  const KomiBoard *b = board;
  guint size = b->size;
  guint n = size * size;
  /* The padded board (border ring included), so a flood needs no bounds
   * checks and no division per point: scored after every game. */
  guint8 colors[(KOMI_MAX_SIZE + 2) * (KOMI_MAX_SIZE + 2)];
  gboolean seen[(KOMI_MAX_SIZE + 2) * (KOMI_MAX_SIZE + 2)] = { FALSE, };
  int stack[KOMI_MAX_POINTS];

  g_return_if_fail (score != NULL);

  memset (score, 0, sizeof *score);
  score->size = size;
  score->komi = komi;
  if (n_dead == 0)
    {
      /* The count after every game: no list of points, no stack. */
      if (size == 9)
        area_from_sets (b, 2, 11, score);
      else
        area_from_sets (b, b->words, b->stride, score);
      goto totals;
    }

  memcpy (colors, b->color, b->n_padded);

  for (guint i = 0; i < n_dead; i++)
    {
      KomiPoint p = dead[i];
      int q;

      g_return_if_fail (p >= 0 && (guint) p < n);
      q = b->pad_of[p];
      if (colors[q] == KOMI_BLACK)
        score->black_dead++;
      else if (colors[q] == KOMI_WHITE)
        score->white_dead++;
      colors[q] = KOMI_EMPTY;
    }

  for (guint p = 0; p < n; p++)
    {
      guint8 c = colors[b->pad_of[p]];

      score->black_stones += c == KOMI_BLACK;
      score->white_stones += c == KOMI_WHITE;
      score->owner[p] = c;
    }

  /* Flood each empty region once; its owner is the one colour it borders. */
  for (guint start = 0; start < n; start++)
    {
      int q0 = b->pad_of[start];
      guint sp = 0, count = 0;
      gboolean touches_black = FALSE, touches_white = FALSE;
      KomiColor owner;

      if (colors[q0] != KOMI_EMPTY || seen[q0])
        continue;
      seen[q0] = TRUE;
      stack[sp++] = q0;

      /* The region's points are collected at the bottom of `stack` in the
       * order popped, so the second pass can mark them. */
      while (sp > count)
        {
          int q = stack[count++];

          for (int d = 0; d < 4; d++)
            {
              int r = q + b->neighbours[d];

              if (colors[r] == KOMI_BLACK)
                touches_black = TRUE;
              else if (colors[r] == KOMI_WHITE)
                touches_white = TRUE;
              else if (colors[r] == KOMI_EMPTY && !seen[r])
                {
                  seen[r] = TRUE;
                  stack[sp++] = r;
                }
            }
        }

      owner = count_region (score, touches_black, touches_white, count);
      for (guint i = 0; i < count; i++)
        score->owner[b->point_of[stack[i]]] = owner;
    }

totals:
  score->black_total = score->black_stones + score->black_territory;
  score->white_total = score->white_stones + score->white_territory + komi;
  if (score->black_total > score->white_total)
    {
      score->winner = KOMI_BLACK;
      score->margin = score->black_total - score->white_total;
    }
  else if (score->white_total > score->black_total)
    {
      score->winner = KOMI_WHITE;
      score->margin = score->white_total - score->black_total;
    }
  else
    {
      score->winner = KOMI_EMPTY;
      score->margin = 0;
    }
}

static void
append_number (GString *s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.10g", v));
}

char *
komi_score_to_result (const KomiScore *score)
{
  GString *s;

  if (score->winner == KOMI_EMPTY)
    return g_strdup ("0");
  s = g_string_new (score->winner == KOMI_BLACK ? "B+" : "W+");
  append_number (s, score->margin);
  return g_string_free (s, FALSE);
}

char *
komi_score_describe (const KomiScore *score)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "X: %u stones + %u territory = ",
                          score->black_stones, score->black_territory);
  append_number (s, score->black_total);
  g_string_append_printf (s, "; O: %u stones + %u territory + komi ",
                          score->white_stones, score->white_territory);
  append_number (s, score->komi);
  g_string_append (s, " = ");
  append_number (s, score->white_total);
  if (score->winner == KOMI_EMPTY)
    g_string_append (s, "; draw");
  else
    {
      g_string_append_printf (s, "; %s wins by ", komi_color_to_protocol (score->winner));
      append_number (s, score->margin);
    }
  if (score->black_dead + score->white_dead > 0)
    g_string_append_printf (s, " (dead removed: %u X, %u O)", score->black_dead,
                            score->white_dead);
  return g_string_free (s, FALSE);
}
