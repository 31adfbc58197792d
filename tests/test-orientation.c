/* test-orientation.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-orientation.h"
#include "komi-test-util.h"

/* Where A9 (top-left) and B9 (its right neighbour) are shown. */
static void
test_corners (void)
{
  static const struct { const char *a9, *b9; } want[KOMI_N_ORIENTATIONS] = {
    { "A9", "B9" },   /* identity */
    { "J9", "J8" },   /* rotate 90 clockwise: top-left goes top-right */
    { "J1", "H1" },   /* rotate 180 */
    { "A1", "A2" },   /* rotate 270 */
    { "J9", "H9" },   /* flip left-right */
    { "A1", "B1" },   /* flip top-bottom */
    { "A9", "A8" },   /* transpose */
    { "J1", "J2" },   /* anti-transpose */
  };

  for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
    {
      char buf[KOMI_NAME_LEN + 1];

      g_assert_cmpstr (komi_point_to_name (9, komi_orientation_apply (o, 9, pt (9, "A9")), buf),
                       ==, want[o].a9);
      g_assert_cmpstr (komi_point_to_name (9, komi_orientation_apply (o, 9, pt (9, "B9")), buf),
                       ==, want[o].b9);
      g_assert_cmpint (komi_orientation_apply (o, 9, KOMI_PASS), ==, KOMI_PASS);
    }
}

static void
test_bijection_and_inverse (void)
{
  for (guint size = 5; size <= 19; size += 2)
    for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
      {
        g_autofree gboolean *hit = g_new0 (gboolean, size * size);

        for (KomiPoint p = 0; p < (KomiPoint) (size * size); p++)
          {
            KomiPoint shown = komi_orientation_apply (o, size, p);

            g_assert_cmpint (shown, >=, 0);
            g_assert_cmpint (shown, <, (int) (size * size));
            g_assert_false (hit[shown]);
            hit[shown] = TRUE;
            g_assert_cmpint (komi_orientation_unapply (o, size, shown), ==, p);
          }
      }
}

/* The eight are distinct and closed: a symmetry group of order 8. */
static void
test_group (void)
{
  for (guint a = 0; a < KOMI_N_ORIENTATIONS; a++)
    for (guint b = a + 1; b < KOMI_N_ORIENTATIONS; b++)
      {
        gboolean differ = FALSE;

        for (KomiPoint p = 0; p < 81; p++)
          differ |= komi_orientation_apply (a, 9, p) != komi_orientation_apply (b, 9, p);
        g_assert_true (differ);
      }
  g_assert_cmpstr (komi_orientation_to_string (KOMI_ORIENTATION_ROTATE_90), ==, "rotate-90");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/orientation/corners", test_corners);
  g_test_add_func ("/komi/orientation/bijection-and-inverse", test_bijection_and_inverse);
  g_test_add_func ("/komi/orientation/distinct", test_group);

  return g_test_run ();
}
