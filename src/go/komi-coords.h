/* komi-coords.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-go-types.h"

G_BEGIN_DECLS

/* The one place where points get names.
 * Protocol and GTP names: column letter A-T without I, left to right, then
 * the row number from the bottom ("A9" is the top-left point of 9x9).
 * SGF points: two letters a-s, column then row from the top ("aa"). */

#define KOMI_NAME_LEN 4   /* longest name plus NUL: "T19" */

static inline KomiPoint
komi_point_from_xy (guint size, guint x, guint y)
{
  return (KomiPoint) (y * size + x);
}

static inline guint komi_point_x (guint size, KomiPoint p) { return (guint) p % size; }
static inline guint komi_point_y (guint size, KomiPoint p) { return (guint) p / size; }

/* Writes the protocol name of @point ("pass" for KOMI_PASS) into @buf. */
const char *komi_point_to_name  (guint size, KomiPoint point, char buf[KOMI_NAME_LEN + 1]);
/* Parses a protocol or GTP vertex, case-insensitive; "pass" gives KOMI_PASS. */
gboolean    komi_point_from_name (guint size, const char *name, KomiPoint *point);
/* Column letter for x (A-T, no I). */
char        komi_column_letter  (guint x);

/* SGF point of @point, "" for a pass. */
const char *komi_point_to_sgf   (guint size, KomiPoint point, char buf[3]);
/* Parses an SGF point; "" and, on boards up to 19x19, "tt" are passes. */
gboolean    komi_point_from_sgf (guint size, const char *text, KomiPoint *point);

G_END_DECLS
