/* komi-coords.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include <string.h>

#include "komi-coords.h"

static const char columns[] = "ABCDEFGHJKLMNOPQRST";

char
komi_column_letter (guint x)
{
  g_return_val_if_fail (x < KOMI_MAX_SIZE, '?');
  return columns[x];
}

const char *
komi_point_to_name (guint size, KomiPoint point, char buf[KOMI_NAME_LEN + 1])
{
  if (point == KOMI_PASS)
    {
      memcpy (buf, "pass", 5);
      return buf;
    }
  g_return_val_if_fail (point >= 0 && (guint) point < size * size, NULL);
  g_snprintf (buf, KOMI_NAME_LEN + 1, "%c%u",
              columns[komi_point_x (size, point)], size - komi_point_y (size, point));
  return buf;
}

gboolean
komi_point_from_name (guint size, const char *name, KomiPoint *point)
{
  const char *col;
  char *end;
  guint64 row;

  g_return_val_if_fail (name != NULL, FALSE);

  if (g_ascii_strcasecmp (name, "pass") == 0)
    {
      *point = KOMI_PASS;
      return TRUE;
    }
  if (name[0] == '\0' || size > KOMI_MAX_SIZE)
    return FALSE;
  col = strchr (columns, g_ascii_toupper (name[0]));
  if (col == NULL || name[0] == '\0' || (guint) (col - columns) >= size)
    return FALSE;
  if (!g_ascii_isdigit (name[1]) || name[1] == '0')
    return FALSE;
  row = g_ascii_strtoull (name + 1, &end, 10);
  if (*end != '\0' || row < 1 || row > size)
    return FALSE;
  *point = komi_point_from_xy (size, (guint) (col - columns), size - (guint) row);
  return TRUE;
}

const char *
komi_point_to_sgf (guint size, KomiPoint point, char buf[3])
{
  if (point == KOMI_PASS)
    {
      buf[0] = '\0';
      return buf;
    }
  g_return_val_if_fail (point >= 0 && (guint) point < size * size, NULL);
  buf[0] = (char) ('a' + komi_point_x (size, point));
  buf[1] = (char) ('a' + komi_point_y (size, point));
  buf[2] = '\0';
  return buf;
}

gboolean
komi_point_from_sgf (guint size, const char *text, KomiPoint *point)
{
  guint x, y;

  g_return_val_if_fail (text != NULL, FALSE);

  if (text[0] == '\0' || (size <= 19 && strcmp (text, "tt") == 0))
    {
      *point = KOMI_PASS;
      return TRUE;
    }
  if (text[1] == '\0' || text[2] != '\0')
    return FALSE;
  if (text[0] < 'a' || text[0] > 'z' || text[1] < 'a' || text[1] > 'z')
    return FALSE;
  x = (guint) (text[0] - 'a');
  y = (guint) (text[1] - 'a');
  if (x >= size || y >= size)
    return FALSE;
  *point = komi_point_from_xy (size, x, y);
  return TRUE;
}
