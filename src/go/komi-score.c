/* komi-score.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include <string.h>

#include "komi-score.h"

void
komi_score_area (const KomiBoard *board,
                 const KomiPoint *dead,
                 guint            n_dead,
                 double           komi,
                 KomiScore       *score)
{
  guint size = komi_board_get_size (board);
  guint n = size * size;
  guint8 colors[KOMI_MAX_POINTS];
  gboolean seen[KOMI_MAX_POINTS] = { FALSE, };
  KomiPoint stack[KOMI_MAX_POINTS];

  g_return_if_fail (score != NULL);

  memset (score, 0, sizeof *score);
  score->size = size;
  score->komi = komi;
  komi_board_get_colors (board, colors);

  for (guint i = 0; i < n_dead; i++)
    {
      KomiPoint p = dead[i];

      g_return_if_fail (p >= 0 && (guint) p < n);
      if (colors[p] == KOMI_BLACK)
        score->black_dead++;
      else if (colors[p] == KOMI_WHITE)
        score->white_dead++;
      colors[p] = KOMI_EMPTY;
    }

  for (guint p = 0; p < n; p++)
    {
      if (colors[p] == KOMI_BLACK)
        score->black_stones++;
      else if (colors[p] == KOMI_WHITE)
        score->white_stones++;
      score->owner[p] = colors[p];
    }

  /* Flood each empty region once; its owner is the one colour it borders. */
  for (guint start = 0; start < n; start++)
    {
      guint sp = 0, count = 0;
      gboolean touches_black = FALSE, touches_white = FALSE;
      KomiColor owner;

      if (colors[start] != KOMI_EMPTY || seen[start])
        continue;
      seen[start] = TRUE;
      stack[sp++] = (KomiPoint) start;

      /* The region's points are collected at the bottom of `stack` in the
       * order popped, so the second pass can mark them. */
      while (sp > count)
        {
          KomiPoint p = stack[count++];
          guint x = (guint) p % size, y = (guint) p / size;
          KomiPoint nb[4];
          int k = 0;

          if (x > 0) nb[k++] = p - 1;
          if (x + 1 < size) nb[k++] = p + 1;
          if (y > 0) nb[k++] = p - (KomiPoint) size;
          if (y + 1 < size) nb[k++] = p + (KomiPoint) size;

          for (int i = 0; i < k; i++)
            {
              KomiPoint q = nb[i];
              if (colors[q] == KOMI_BLACK)
                touches_black = TRUE;
              else if (colors[q] == KOMI_WHITE)
                touches_white = TRUE;
              else if (!seen[q])
                {
                  seen[q] = TRUE;
                  stack[sp++] = q;
                }
            }
        }

      owner = touches_black == touches_white ? KOMI_EMPTY
              : touches_black ? KOMI_BLACK : KOMI_WHITE;
      for (guint i = 0; i < count; i++)
        score->owner[stack[i]] = owner;
      if (owner == KOMI_BLACK)
        score->black_territory += count;
      else if (owner == KOMI_WHITE)
        score->white_territory += count;
      else
        score->dame += count;
    }

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
