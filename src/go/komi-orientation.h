/* komi-orientation.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-go-types.h"

G_BEGIN_DECLS

/* The eight symmetries of the square board. A game is *shown* in one of
 * them; answers given on the shown board are mapped back to the real one. */
typedef enum
{
  KOMI_ORIENTATION_IDENTITY = 0,
  KOMI_ORIENTATION_ROTATE_90,        /* clockwise */
  KOMI_ORIENTATION_ROTATE_180,
  KOMI_ORIENTATION_ROTATE_270,
  KOMI_ORIENTATION_FLIP_HORIZONTAL,  /* mirror left-right */
  KOMI_ORIENTATION_FLIP_VERTICAL,    /* mirror top-bottom */
  KOMI_ORIENTATION_TRANSPOSE,        /* mirror in the A9-J1 diagonal */
  KOMI_ORIENTATION_ANTI_TRANSPOSE,   /* mirror in the A1-J9 diagonal */
  KOMI_N_ORIENTATIONS
} KomiOrientation;

/* Where the real @point appears on the board shown in @orientation. */
KomiPoint       komi_orientation_apply    (KomiOrientation orientation,
                                           guint           size,
                                           KomiPoint       point);
/* The real point behind the shown @point. Passes map to passes. */
KomiPoint       komi_orientation_unapply  (KomiOrientation orientation,
                                           guint           size,
                                           KomiPoint       point);
KomiOrientation komi_orientation_inverse  (KomiOrientation orientation);
/* A short stable name: "identity", "rotate-90", … */
const char     *komi_orientation_to_string (KomiOrientation orientation);

G_END_DECLS
