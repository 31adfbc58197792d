/* test-app-board.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-app-test-util.h"
#include "komi-board-view.h"
#include "komi-score.h"
#include "komi-test-util.h"

/* The board view draws known positions exactly as the reference images in
 * tests/board-references/ show them (looked at by a person when made).
 * KOMI_UPDATE_REFERENCES=1 writes the references anew instead of
 * comparing; look at them before committing. */

/* A pixel differs when a channel is off by more than this… */
#define CHANNEL_TOLERANCE 48
/* …and a rendering matches when fewer than this share of its pixels
 * differ, and of those of each 16x16 tile: room for antialiasing, none for
 * a missing stone, mark or label (the last-move ring alone fills a fifth of
 * its tiles on a 320 px 9x9 board). */
#define PIXEL_TOLERANCE 0.002
#define TILE_TOLERANCE 0.06

/* Whether @s passes for @reference. */
static gboolean
matches (cairo_surface_t *s, cairo_surface_t *reference, double *whole, double *tile)
{
  app_test_compare (s, reference, CHANNEL_TOLERANCE, whole, tile);
  return *whole < PIXEL_TOLERANCE && *tile < TILE_TOLERANCE;
}

/* Sixteen opening moves: stones of both colours, two-digit numbers, star
 * points left empty and covered, and the last move (G7, white) marked. */
static const char *const opening =
  "E5 C3 G3 C6 F7 D4 C4 D3 B3 B2 E3 C5 D5 G6 F6 G7";

typedef struct
{
  GtkWidget     *window;
  KomiBoardView *view;
} BoardFixture;

static void
board_fixture_set_up (BoardFixture *f, gconstpointer data)
{
  f->window = gtk_window_new ();
  f->view = KOMI_BOARD_VIEW (komi_board_view_new ());
  gtk_window_set_decorated (GTK_WINDOW (f->window), FALSE);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_LIGHT);
}

static void
board_fixture_tear_down (BoardFixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
}

static gboolean
has_square_size (gpointer data)
{
  BoardFixture *f = data;
  int want = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (f->view), "want"));

  return gtk_widget_get_mapped (GTK_WIDGET (f->view))
         && gtk_widget_get_width (GTK_WIDGET (f->view)) == want
         && gtk_widget_get_height (GTK_WIDGET (f->view)) == want;
}

static gboolean
is_dark (gpointer data)
{
  return komi_board_view_get_dark (data) == GPOINTER_TO_INT (
           g_object_get_data (G_OBJECT (data), "want-dark"));
}

/* Shows the view at @px x @px in the light or dark style and renders it. */
static cairo_surface_t *
render (BoardFixture *f, int px, gboolean dark)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                           : ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_object_set_data (G_OBJECT (f->view), "want-dark", GINT_TO_POINTER (dark));
  g_assert_true (app_test_wait (is_dark, f->view));
  g_object_set_data (G_OBJECT (f->view), "want", GINT_TO_POINTER (px));
  gtk_window_set_default_size (GTK_WINDOW (f->window), px, px);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (app_test_wait (has_square_size, f));
  return app_test_render (GTK_WIDGET (f->view));
}

static char *
reference_path (const char *name)
{
  return g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "board-references", name, NULL);
}

/* Compares @surface with the reference @name (or writes it). */
static void
assert_matches_reference (cairo_surface_t *surface, const char *name)
{
  g_autofree char *path = reference_path (name);
  cairo_surface_t *reference;
  double whole, tile;

  if (g_getenv ("KOMI_UPDATE_REFERENCES") != NULL)
    {
      g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("wrote %s", path);
      return;
    }
  reference = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (reference), ==, CAIRO_STATUS_SUCCESS);
  if (!matches (surface, reference, &whole, &tile))
    {
      g_autofree char *got = g_strdup_printf ("%s/%s", g_get_tmp_dir (), name);

      cairo_surface_write_to_png (surface, got);
      g_error ("%s differs from its reference in %.2f%% of pixels (%.0f%% of the worst "
               "tile); the rendering is in %s", name, 100 * whole, 100 * tile, got);
    }
  g_test_message ("%s: %.3f%% of pixels differ, %.1f%% of the worst tile", name,
                  100 * whole, 100 * tile);
  cairo_surface_destroy (reference);
}

/* Plays @moves on a fresh board and shows the result with numbers. */
static void
show_game (KomiBoardView *view, guint size, const char *moves)
{
  g_autoptr(KomiGame) game = komi_game_new (size, 0);
  g_auto(GStrv) names = g_strsplit (moves, " ", -1);
  guint8 colors[KOMI_MAX_POINTS];
  guint numbers[KOMI_MAX_POINTS] = { 0, };
  KomiPoint last = KOMI_NO_POINT;

  for (guint i = 0; names[i] != NULL; i++)
    {
      last = pt (size, names[i]);
      g_assert_true (komi_game_play (game, last, NULL));
      numbers[last] = i + 1;
    }
  komi_board_get_colors (komi_game_get_board (game), colors);
  komi_board_view_set_position (view, size, colors, last);
  komi_board_view_set_numbers (view, numbers);
}

static void
test_opening_light (BoardFixture *f, gconstpointer data)
{
  cairo_surface_t *s;

  show_game (f->view, 9, opening);
  s = render (f, 320, FALSE);
  assert_matches_reference (s, "opening-9x9-light.png");
  cairo_surface_destroy (s);
}

static void
test_numbers_dark (BoardFixture *f, gconstpointer data)
{
  cairo_surface_t *s;

  show_game (f->view, 9, opening);
  komi_board_view_set_show_numbers (f->view, TRUE);
  s = render (f, 320, TRUE);
  assert_matches_reference (s, "numbers-9x9-dark.png");
  cairo_surface_destroy (s);
}

/* A counted final position: two dead white stones inside Black's area. */
static void
test_final_count (BoardFixture *f, gconstpointer data)
{
  g_autoptr(KomiBoard) board = diagram (
    ". . X O . . . . .\n"
    ". X X O . . O . .\n"
    ". X O O O O . . .\n"
    "X X X X X O O O O\n"
    ". O . . X X X X X\n"
    ". . . X . . . . .\n"
    ". X X . . X . O .\n"
    ". . . X X . . . .\n"
    ". . . . . . . . .\n");
  guint8 colors[KOMI_MAX_POINTS];
  KomiPoint dead[] = { pt (9, "B5"), pt (9, "H3") };
  KomiScore score;
  cairo_surface_t *s;

  komi_board_get_colors (board, colors);
  komi_score_area (board, dead, G_N_ELEMENTS (dead), 7, &score);
  komi_board_view_set_position (f->view, 9, colors, pt (9, "E4"));
  komi_board_view_set_marks (f->view, dead, G_N_ELEMENTS (dead), score.owner);
  s = render (f, 360, FALSE);
  assert_matches_reference (s, "final-9x9-light.png");
  cairo_surface_destroy (s);
}

/* The model's probabilities over the points it was offered, on a board
 * turned a quarter: the strongest near the top right of the real board
 * (H7) is drawn at the bottom right once turned; a stone hides its own
 * value (G7). */
static void
test_heat_map (BoardFixture *f, gconstpointer data)
{
  double heat[KOMI_MAX_POINTS];
  cairo_surface_t *s;

  show_game (f->view, 9, opening);
  for (guint i = 0; i < 81; i++)
    heat[i] = -1;
  heat[pt (9, "H7")] = 0.52;
  heat[pt (9, "F4")] = 0.21;
  heat[pt (9, "E7")] = 0.12;
  heat[pt (9, "G7")] = 0.30;
  heat[pt (9, "J9")] = 0.04;
  heat[pt (9, "A1")] = 0.01;
  komi_board_view_set_orientation (f->view, KOMI_ORIENTATION_ROTATE_90);
  komi_board_view_set_heat (f->view, heat);
  s = render (f, 320, FALSE);
  assert_matches_reference (s, "heat-9x9-rotate-90.png");
  cairo_surface_destroy (s);
}

static void
test_19x19 (BoardFixture *f, gconstpointer data)
{
  cairo_surface_t *s;

  show_game (f->view, 19, "Q16 D4 Q3 D16 R5 K10 C3 T19 A1 J9");
  s = render (f, 480, FALSE);
  assert_matches_reference (s, "game-19x19-light.png");
  cairo_surface_destroy (s);
}

/* Turned as a model was shown it: the same stones, a quarter turn
 * clockwise, the coordinates naming points as shown. */
static void
test_rotated (BoardFixture *f, gconstpointer data)
{
  cairo_surface_t *s;
  KomiPoint e5 = pt (9, "E5"), g7 = pt (9, "G7");
  g_autofree char *center = NULL;
  g_autofree char *last = NULL;
  char name[KOMI_NAME_LEN + 1];
  g_autofree char *want = NULL;

  show_game (f->view, 9, opening);
  komi_board_view_set_orientation (f->view, KOMI_ORIENTATION_ROTATE_90);
  s = render (f, 320, FALSE);
  assert_matches_reference (s, "opening-9x9-rotate-90.png");
  cairo_surface_destroy (s);

  /* Points are named as shown; the stone is the real point's. */
  center = komi_board_view_describe_point (f->view,
                                           komi_orientation_apply (KOMI_ORIENTATION_ROTATE_90,
                                                                   9, e5));
  g_assert_cmpstr (center, ==, "E5, black stone, move 1");   /* the centre stays */
  last = komi_board_view_describe_point (f->view,
                                         komi_orientation_apply (KOMI_ORIENTATION_ROTATE_90,
                                                                 9, g7));
  want = g_strdup_printf ("%s, white stone, move 16, last move",
                          komi_point_to_name (9, komi_orientation_apply (KOMI_ORIENTATION_ROTATE_90,
                                                                         9, g7), name));
  g_assert_cmpstr (last, ==, want);
  g_assert_cmpstr (name, ==, "G3");   /* G7, a quarter turn clockwise */
}

/* The comparison has teeth: a board missing its last stone, its
 * last-move ring, or its coordinates does not pass for the reference. */
static void
test_comparison_fails_on_change (BoardFixture *f, gconstpointer data)
{
  g_autofree char *path = reference_path ("opening-9x9-light.png");
  cairo_surface_t *reference = cairo_image_surface_create_from_png (path);
  cairo_surface_t *s;
  char *shorter = g_strdup (opening);
  guint8 colors[KOMI_MAX_POINTS];
  double whole, tile;

  g_assert_cmpint (cairo_surface_status (reference), ==, CAIRO_STATUS_SUCCESS);
  show_game (f->view, 9, opening);
  s = render (f, 320, FALSE);
  g_assert_true (matches (s, reference, &whole, &tile));
  cairo_surface_destroy (s);

  *strrchr (shorter, ' ') = '\0';   /* the last move, G7, is not played */
  show_game (f->view, 9, shorter);
  g_free (shorter);
  s = render (f, 320, FALSE);
  g_assert_false (matches (s, reference, &whole, &tile));
  cairo_surface_destroy (s);

  show_game (f->view, 9, opening);
  memcpy (colors, komi_board_view_get_scene (f->view)->colors, sizeof colors);
  komi_board_view_set_position (f->view, 9, colors, KOMI_NO_POINT);
  s = render (f, 320, FALSE);
  g_assert_false (matches (s, reference, &whole, &tile));
  cairo_surface_destroy (s);

  show_game (f->view, 9, opening);
  komi_board_view_set_show_coordinates (f->view, FALSE);
  s = render (f, 320, FALSE);
  g_assert_false (matches (s, reference, &whole, &tile));
  cairo_surface_destroy (s);
  cairo_surface_destroy (reference);
}

/* What a screen reader hears for a point, and the cursor the arrow keys
 * move. */
static void
test_accessible_points (BoardFixture *f, gconstpointer data)
{
  g_autofree char *e5 = NULL;
  g_autofree char *g7 = NULL;
  g_autofree char *a1 = NULL;
  g_autofree char *c3 = NULL;

  show_game (f->view, 9, opening);
  e5 = komi_board_view_describe_point (f->view, pt (9, "E5"));
  g7 = komi_board_view_describe_point (f->view, pt (9, "G7"));
  a1 = komi_board_view_describe_point (f->view, pt (9, "A1"));
  g_assert_cmpstr (e5, ==, "E5, black stone, move 1");
  g_assert_cmpstr (g7, ==, "G7, white stone, move 16, last move");
  g_assert_cmpstr (a1, ==, "A1, empty");

  komi_board_view_set_cursor (f->view, pt (9, "C3"));
  g_assert_cmpint (komi_board_view_get_cursor (f->view), ==, pt (9, "C3"));
  c3 = komi_board_view_describe_point (f->view, komi_board_view_get_cursor (f->view));
  g_assert_cmpstr (c3, ==, "C3, white stone, move 2");
  komi_board_view_set_cursor (f->view, 81);   /* off the board: no cursor */
  g_assert_cmpint (komi_board_view_get_cursor (f->view), ==, KOMI_NO_POINT);
}

/* Star points of the usual board sizes, in protocol names. */
static void
test_star_points (void)
{
  KomiPoint out[9];
  char name[KOMI_NAME_LEN + 1];
  g_autoptr(GString) nine = g_string_new (NULL);

  g_assert_cmpuint (komi_board_star_points (9, out), ==, 5);
  for (guint i = 0; i < 5; i++)
    g_string_append_printf (nine, "%s ", komi_point_to_name (9, out[i], name));
  g_assert_cmpstr (nine->str, ==, "C7 G7 C3 G3 E5 ");
  g_assert_cmpuint (komi_board_star_points (13, out), ==, 5);
  g_assert_cmpstr (komi_point_to_name (13, out[0], name), ==, "D10");
  g_assert_cmpuint (komi_board_star_points (19, out), ==, 9);
  g_assert_cmpstr (komi_point_to_name (19, out[8], name), ==, "Q10");
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/board/opening-light", BoardFixture, NULL,
              board_fixture_set_up, test_opening_light, board_fixture_tear_down);
  g_test_add ("/komi/app/board/numbers-dark", BoardFixture, NULL,
              board_fixture_set_up, test_numbers_dark, board_fixture_tear_down);
  g_test_add ("/komi/app/board/final-count", BoardFixture, NULL,
              board_fixture_set_up, test_final_count, board_fixture_tear_down);
  g_test_add ("/komi/app/board/heat-map", BoardFixture, NULL,
              board_fixture_set_up, test_heat_map, board_fixture_tear_down);
  g_test_add ("/komi/app/board/19x19", BoardFixture, NULL,
              board_fixture_set_up, test_19x19, board_fixture_tear_down);
  g_test_add ("/komi/app/board/rotated", BoardFixture, NULL,
              board_fixture_set_up, test_rotated, board_fixture_tear_down);
  g_test_add ("/komi/app/board/comparison-fails-on-change", BoardFixture, NULL,
              board_fixture_set_up, test_comparison_fails_on_change, board_fixture_tear_down);
  g_test_add ("/komi/app/board/accessible-points", BoardFixture, NULL,
              board_fixture_set_up, test_accessible_points, board_fixture_tear_down);
  g_test_add_func ("/komi/app/board/star-points", test_star_points);
  return g_test_run ();
}
