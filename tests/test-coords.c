/* test-coords.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-coords.h"

static void
test_names (void)
{
  char buf[KOMI_NAME_LEN + 1];
  KomiPoint p;

  g_assert_cmpstr (komi_point_to_name (9, 0, buf), ==, "A9");
  g_assert_cmpstr (komi_point_to_name (9, 8, buf), ==, "J9");
  g_assert_cmpstr (komi_point_to_name (9, 80, buf), ==, "J1");
  g_assert_cmpstr (komi_point_to_name (9, 40, buf), ==, "E5");
  g_assert_cmpstr (komi_point_to_name (19, 360, buf), ==, "T1");
  g_assert_cmpstr (komi_point_to_name (9, KOMI_PASS, buf), ==, "pass");

  g_assert_true (komi_point_from_name (9, "j1", &p));
  g_assert_cmpint (p, ==, 80);
  g_assert_true (komi_point_from_name (9, "PASS", &p));
  g_assert_cmpint (p, ==, KOMI_PASS);
  /* There is no I; no row 0 or 10 on 9x9; nothing trails. */
  g_assert_false (komi_point_from_name (9, "I5", &p));
  g_assert_false (komi_point_from_name (9, "A0", &p));
  g_assert_false (komi_point_from_name (9, "A10", &p));
  g_assert_false (komi_point_from_name (9, "K5", &p));
  g_assert_false (komi_point_from_name (9, "E5x", &p));
  g_assert_false (komi_point_from_name (9, "E05", &p));
  g_assert_false (komi_point_from_name (9, "", &p));
  g_assert_true (komi_point_from_name (19, "T19", &p));
  g_assert_cmpint (p, ==, 18);
}

static void
test_sgf_points (void)
{
  char buf[3];
  KomiPoint p;

  g_assert_cmpstr (komi_point_to_sgf (9, 0, buf), ==, "aa");
  g_assert_cmpstr (komi_point_to_sgf (9, 80, buf), ==, "ii");
  g_assert_cmpstr (komi_point_to_sgf (9, 1, buf), ==, "ba");
  g_assert_cmpstr (komi_point_to_sgf (9, KOMI_PASS, buf), ==, "");
  g_assert_true (komi_point_from_sgf (9, "tt", &p));
  g_assert_cmpint (p, ==, KOMI_PASS);
  g_assert_true (komi_point_from_sgf (9, "", &p));
  g_assert_cmpint (p, ==, KOMI_PASS);
  g_assert_false (komi_point_from_sgf (9, "jj", &p));
  g_assert_false (komi_point_from_sgf (9, "a", &p));
  g_assert_false (komi_point_from_sgf (9, "aaa", &p));
  g_assert_false (komi_point_from_sgf (9, "A1", &p));
}

static void
test_round_trips (void)
{
  for (guint size = 5; size <= 19; size++)
    for (KomiPoint p = 0; p < (KomiPoint) (size * size); p++)
      {
        char name[KOMI_NAME_LEN + 1], sgf[3];
        KomiPoint back;

        g_assert_true (komi_point_from_name (size, komi_point_to_name (size, p, name), &back));
        g_assert_cmpint (back, ==, p);
        g_assert_true (komi_point_from_sgf (size, komi_point_to_sgf (size, p, sgf), &back));
        g_assert_cmpint (back, ==, p);
        /* A protocol name and its SGF point describe the same intersection. */
        g_assert_cmpint (sgf[0] - 'a', ==, (int) komi_point_x (size, p));
        g_assert_cmpint (name[0] == komi_column_letter (komi_point_x (size, p)), ==, TRUE);
        g_assert_cmpint (atoi (name + 1), ==, (int) (size - komi_point_y (size, p)));
      }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/coords/names", test_names);
  g_test_add_func ("/komi/coords/sgf", test_sgf_points);
  g_test_add_func ("/komi/coords/round-trips", test_round_trips);

  return g_test_run ();
}
