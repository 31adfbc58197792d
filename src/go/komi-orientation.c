/* komi-orientation.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include "komi-coords.h"
#include "komi-orientation.h"

static const char *names[KOMI_N_ORIENTATIONS] = {
  "identity", "rotate-90", "rotate-180", "rotate-270",
  "flip-horizontal", "flip-vertical", "transpose", "anti-transpose",
};

/* (x, y) with y = 0 at the top; the result is where the point is shown. */
static void
transform (KomiOrientation o, guint n, guint x, guint y, guint *ox, guint *oy)
{
  guint m = n - 1;

  switch (o)
    {
    case KOMI_ORIENTATION_IDENTITY:        *ox = x;     *oy = y;     break;
    case KOMI_ORIENTATION_ROTATE_90:       *ox = m - y; *oy = x;     break;
    case KOMI_ORIENTATION_ROTATE_180:      *ox = m - x; *oy = m - y; break;
    case KOMI_ORIENTATION_ROTATE_270:      *ox = y;     *oy = m - x; break;
    case KOMI_ORIENTATION_FLIP_HORIZONTAL: *ox = m - x; *oy = y;     break;
    case KOMI_ORIENTATION_FLIP_VERTICAL:   *ox = x;     *oy = m - y; break;
    case KOMI_ORIENTATION_TRANSPOSE:       *ox = y;     *oy = x;     break;
    case KOMI_ORIENTATION_ANTI_TRANSPOSE:  *ox = m - y; *oy = m - x; break;
    case KOMI_N_ORIENTATIONS:
    default:
      g_assert_not_reached ();
    }
}

KomiOrientation
komi_orientation_inverse (KomiOrientation orientation)
{
  /* Only the two quarter turns are not their own inverse. */
  if (orientation == KOMI_ORIENTATION_ROTATE_90)
    return KOMI_ORIENTATION_ROTATE_270;
  if (orientation == KOMI_ORIENTATION_ROTATE_270)
    return KOMI_ORIENTATION_ROTATE_90;
  return orientation;
}

KomiPoint
komi_orientation_apply (KomiOrientation orientation, guint size, KomiPoint point)
{
  guint x, y;

  g_return_val_if_fail (orientation < KOMI_N_ORIENTATIONS, KOMI_NO_POINT);
  if (point < 0)
    return point;
  g_return_val_if_fail ((guint) point < size * size, KOMI_NO_POINT);
  transform (orientation, size, komi_point_x (size, point), komi_point_y (size, point), &x, &y);
  return komi_point_from_xy (size, x, y);
}

KomiPoint
komi_orientation_unapply (KomiOrientation orientation, guint size, KomiPoint point)
{
  return komi_orientation_apply (komi_orientation_inverse (orientation), size, point);
}

const char *
komi_orientation_to_string (KomiOrientation orientation)
{
  g_return_val_if_fail (orientation < KOMI_N_ORIENTATIONS, NULL);
  return names[orientation];
}
