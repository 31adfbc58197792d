/* test-app-ladder-scale.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "komi-ladder-scale.h"

/* The rating scale as drawn (no display needed: the same cairo drawing the
 * Ladder page shows and "Save Image…" writes): each player's mark lands at
 * its Elo in its own row, in its role's colour; the rows run strongest
 * first; the numbers a user hovers are the table's; PNG and SVG are
 * written, anything else is refused in words. */

#define WIDTH 800.0

static KomiScale *
sample_scale (void)
{
  KomiScale *scale = komi_scale_new ("Elo on a test ladder");

  komi_scale_add (scale, "random", KOMI_SCALE_PINNED, 0, 0, 0, 128);
  komi_scale_add (scale, "gnugo:1", KOMI_SCALE_MEMBER, 1500, 1350, 1650, 160);
  komi_scale_add (scale, "katago:16", KOMI_SCALE_MEMBER, 2500, 2150, 2830, 98);
  komi_scale_add (scale, "model:m.json", KOMI_SCALE_SUBJECT, 900, 700, 1100, 40);
  komi_scale_add (scale, "gnugo:2", KOMI_SCALE_SUBJECT, 400, 400, INFINITY, 10);
  /* No rated game: not drawn. */
  komi_scale_add (scale, "gtp:unrated", KOMI_SCALE_SUBJECT, NAN, NAN, NAN, 0);
  return scale;
}

static cairo_surface_t *
render_at (const KomiScale *scale, gboolean dark, double width)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width,
                                                         (int) ceil (komi_scale_get_height (scale)));
  cairo_t *cr = cairo_create (surface);

  if (!dark)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
    }
  komi_scale_paint (scale, cr, width, dark);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static cairo_surface_t *
render (const KomiScale *scale, gboolean dark)
{
  return render_at (scale, dark, WIDTH);
}

/* The pixel at (@x, @y) as 0xRRGGBB. */
static guint32
pixel (cairo_surface_t *surface, double x, double y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  return *(const guint32 *) (data + (int) y * stride + (int) x * 4) & 0xffffff;
}

/* Mostly blue (a member's mark) or mostly orange (a subject's). */
static gboolean
is_blue (guint32 c)
{
  return (c & 0xff) > 0xb0 && (c >> 16) < 0x80;
}

static gboolean
is_orange (guint32 c)
{
  return (c >> 16) > 0xb0 && (c & 0xff) < 0x60;
}

/* A subject's interval bar, drawn lighter than its mark. */
static gboolean
is_orange_bar (guint32 c)
{
  return (c >> 16) > (c & 0xff) + 0x40;
}

static void
test_rows_and_marks (void)
{
  g_autoptr(KomiScale) scale = sample_scale ();
  static const char *order[] = { "katago:16", "gnugo:1", "model:m.json", "gnugo:2", "random" };
  cairo_surface_t *surface;

  g_assert_cmpuint (komi_scale_get_n_marks (scale), ==, G_N_ELEMENTS (order));
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_assert_cmpstr (komi_scale_get_mark (scale, i)->label, ==, order[i]);
      /* Every row's middle is found back as that row. */
      g_assert_cmpint (komi_scale_row_at (scale, komi_scale_row_y (scale, i)), ==, i);
    }
  g_assert_cmpint (komi_scale_row_at (scale, 0), ==, -1);
  g_assert_cmpint (komi_scale_row_at (scale, komi_scale_get_height (scale) - 1), ==, -1);
  /* The axis holds every mark and interval in whole ticks, and more Elo is
   * further right. */
  g_assert_cmpfloat (komi_scale_x_for_elo (scale, WIDTH, 0), <,
                     komi_scale_x_for_elo (scale, WIDTH, 2830));
  g_assert_cmpfloat (komi_scale_x_for_elo (scale, WIDTH, 2830), <=, WIDTH);
  g_assert_cmpfloat (komi_scale_x_for_elo (scale, WIDTH, 0), >, 0);

  for (guint dark = 0; dark < 2; dark++)
    {
      surface = render (scale, dark);
      for (guint i = 0; i < komi_scale_get_n_marks (scale); i++)
        {
          const KomiScaleMark *m = komi_scale_get_mark (scale, i);
          double x = komi_scale_x_for_elo (scale, WIDTH, m->elo);
          double y = komi_scale_row_y (scale, i);
          guint32 c = pixel (surface, x, y);

          if (m->role == KOMI_SCALE_SUBJECT)
            g_assert_true (is_orange (c));
          else
            g_assert_true (is_blue (c));
          /* Halfway between the mark and the next tick to the right of
           * the interval: nothing of this row's colour there. */
          if (isfinite (m->high) && m->elo > 0)
            {
              double beyond = komi_scale_x_for_elo (scale, WIDTH, m->high) + 12;

              c = pixel (surface, beyond, y);
              g_assert_false (is_orange (c) || is_blue (c));
            }
        }
      /* The open interval of a subject that won every game runs to the
       * right edge of the plot. */
      g_assert_cmpstr (komi_scale_get_mark (scale, 3)->label, ==, "gnugo:2");
      g_assert_true (is_orange_bar (pixel (surface, komi_scale_x_for_elo (scale, WIDTH, 2900),
                                           komi_scale_row_y (scale, 3))));
      /* A closed interval stops at its end. */
      g_assert_false (is_orange_bar (pixel (surface, komi_scale_x_for_elo (scale, WIDTH, 1200),
                                            komi_scale_row_y (scale, 2))));
      g_assert_true (is_orange_bar (pixel (surface, komi_scale_x_for_elo (scale, WIDTH, 1050),
                                           komi_scale_row_y (scale, 2))));
      cairo_surface_destroy (surface);
    }
}

static void
test_describe (void)
{
  g_autoptr(KomiScale) scale = sample_scale ();
  g_autofree char *member = komi_scale_describe (scale, 0);
  g_autofree char *subject = komi_scale_describe (scale, 2);
  g_autofree char *bound = komi_scale_describe (scale, 3);
  g_autofree char *pinned = komi_scale_describe (scale, 4);

  g_assert_cmpstr (member, ==, "katago:16, ladder member: 2500 Elo, 95% interval 2150 to "
                               "2830, 98 calibration games");
  g_assert_cmpstr (subject, ==, "model:m.json, subject: 900 Elo, 95% interval 700 to 1100, "
                                "40 rated games");
  g_assert_cmpstr (bound, ==, "gnugo:2, subject: above 400 Elo (won every rated game), 10 "
                              "rated games");
  g_assert_cmpstr (pinned, ==, "random, ladder member: pinned at 0 Elo, 128 calibration games");
}

static void
test_save (void)
{
  g_autoptr(KomiScale) scale = sample_scale ();
  g_autofree char *dir = g_dir_make_tmp ("komi-scale-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "scale.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "scale.svg", NULL);
  g_autofree char *jpg = g_build_filename (dir, "scale.jpg", NULL);
  g_autofree char *nowhere = g_build_filename (dir, "missing", "scale.png", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *image;

  g_assert_true (komi_scale_save (scale, png, 960, &error));
  g_assert_no_error (error);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 960);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==,
                   (int) ceil (komi_scale_get_height (scale)));
  cairo_surface_destroy (image);

  g_assert_true (komi_scale_save (scale, svg, 960, &error));
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "<svg"));
  g_assert_nonnull (strstr (text, "width=\"960\""));

  /* The clipboard's bytes are a PNG too. */
  bytes = komi_scale_to_png (scale, 960, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), 8, "\x89PNG\r\n\x1a\n", 8);

  g_assert_false (komi_scale_save (scale, jpg, 960, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "ending in .png or .svg"));
  g_assert_false (g_file_test (jpg, G_FILE_TEST_EXISTS));
  g_clear_error (&error);
  g_assert_false (komi_scale_save (scale, nowhere, 960, &error));
  g_assert_nonnull (strstr (error->message, nowhere));

  g_unlink (png);
  g_unlink (svg);
  g_rmdir (dir);
}

/* The widest run of inked columns between rows @y0 and @y1 (light picture),
 * runs less than @gap px apart counting as one. */
static int
widest_ink (cairo_surface_t *surface, int y0, int y1, int gap)
{
  int width = cairo_image_surface_get_width (surface), widest = 0, start = -1, last = -100;

  for (int x = 0; x < width; x++)
    {
      gboolean ink = FALSE;

      for (int y = y0; y <= y1 && !ink; y++)
        ink = pixel (surface, x, y) != 0xffffff;
      if (!ink)
        continue;
      if (x - last > gap)
        start = x;
      last = x;
      widest = MAX (widest, last - start + 1);
    }
  return widest;
}

/* At a phone's width (the Ladder page at 360 px draws it about 320 px
 * wide) the axis's numbers never run into each other: each stays a word
 * of its own, at most as wide as "3000", with every grid line still drawn;
 * the note on the bars, which no longer fits beside the markers' legend,
 * goes under the caption instead of off the picture's edge; and the
 * caption, centred under the plot, is moved in rather than cut. */
static void
test_narrow (void)
{
  g_autoptr(KomiScale) scale = komi_scale_new ("Elo on the Protocol 1 ladder shipped with Komi");
  cairo_surface_t *wide, *narrow;
  double height;
  int number, numbers_narrow, legend_right;

  komi_scale_add (scale, "random", KOMI_SCALE_PINNED, 0, 0, 0, 128);
  komi_scale_add (scale, "katago:64", KOMI_SCALE_MEMBER, 2644, 2448, 2840, 256);
  /* A long name, as the shipped ladder has: the plot gets what is left. */
  komi_scale_add (scale, "mix:0.05:katago:1", KOMI_SCALE_MEMBER, 1879, 1707, 2050, 280);
  height = komi_scale_get_height (scale);
  wide = render_at (scale, FALSE, 900);
  narrow = render_at (scale, FALSE, 320);
  /* The numbers' band, between the legend's row and the axis line. */
  number = widest_ink (wide, 40, 52, 3);
  numbers_narrow = widest_ink (narrow, 40, 52, 3);
  g_test_message ("widest number: %d px at 900, %d px at 320", number, numbers_narrow);
  g_assert_cmpint (number, >, 10);
  g_assert_cmpint (numbers_narrow, <=, number);
  g_assert_cmpuint (komi_scale_number_every (scale, 900), ==, 1);
  g_assert_cmpuint (komi_scale_number_every (scale, 320), >, 1);
  g_assert_true (komi_scale_legend_fits (900));
  g_assert_false (komi_scale_legend_fits (320));
  /* Nothing of the legend's row cut at the picture's edge. */
  legend_right = 0;
  for (int x = 0; x < 320; x++)
    for (int y = 14; y < 34; y++)
      if (pixel (narrow, x, y) != 0xffffff)
        legend_right = MAX (legend_right, x);
  g_assert_cmpint (legend_right, <, 320 - 6);
  /* Nothing under the rows (the caption, the note) cut at an edge either. */
  for (int x = 0; x < 6; x++)
    for (int y = (int) height - 42; y < (int) height; y++)
      {
        g_assert_cmphex (pixel (narrow, x, y), ==, 0xffffff);
        g_assert_cmphex (pixel (narrow, 319 - x, y), ==, 0xffffff);
      }
  /* The note under the caption, a line below it: ink there only when narrow. */
  g_assert_cmpint (widest_ink (narrow, (int) height - 19, (int) height - 14, 3), >, 20);
  g_assert_cmpint (widest_ink (wide, (int) height - 19, (int) height - 14, 3), ==, 0);
  cairo_surface_destroy (wide);
  cairo_surface_destroy (narrow);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/app/ladder-scale/rows-and-marks", test_rows_and_marks);
  g_test_add_func ("/komi/app/ladder-scale/describe", test_describe);
  g_test_add_func ("/komi/app/ladder-scale/save", test_save);
  g_test_add_func ("/komi/app/ladder-scale/narrow", test_narrow);
  return g_test_run ();
}
