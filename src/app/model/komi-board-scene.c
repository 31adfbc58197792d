/* komi-board-scene.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-board"

#include "config.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "komi-board-scene.h"
#include "komi-coords.h"

/* Colours of one theme. The wood stays wood in dark mode, only dimmer, so
 * that black and white stones keep their contrast against it. */
typedef struct
{
  double wood[3];
  double line[4];
  double label[4];
  double black[3];
  double white[3];
  double white_edge[3];
  double accent[3];      /* last-move mark on numbers, cursor */
  double heat[3];        /* the probability overlay: a blue apart from the red accent */
  double best[3];        /* the engine's better move: a green apart from both */
} Palette;

static const Palette light_palette = {
  .wood = { 0.863, 0.702, 0.408 },
  .line = { 0.16, 0.11, 0.04, 0.90 },
  .label = { 0.25, 0.17, 0.06, 0.95 },
  .black = { 0.10, 0.10, 0.10 },
  .white = { 0.97, 0.97, 0.96 },
  .white_edge = { 0.30, 0.30, 0.30 },
  .accent = { 0.88, 0.11, 0.14 },
  .heat = { 0.11, 0.35, 0.85 },
  .best = { 0.10, 0.55, 0.25 },
};

static const Palette dark_palette = {
  .wood = { 0.580, 0.455, 0.251 },
  .line = { 0.07, 0.05, 0.02, 0.95 },
  .label = { 0.12, 0.08, 0.02, 0.95 },
  .black = { 0.06, 0.06, 0.06 },
  .white = { 0.91, 0.91, 0.90 },
  .white_edge = { 0.20, 0.20, 0.20 },
  .accent = { 0.93, 0.20, 0.22 },
  .heat = { 0.20, 0.45, 0.95 },
  .best = { 0.15, 0.75, 0.35 },
};

void
komi_board_scene_init (KomiBoardScene *scene,
                       guint           size)
{
  g_return_if_fail (size >= KOMI_MIN_SIZE && size <= KOMI_MAX_SIZE);

  memset (scene, 0, sizeof *scene);
  scene->size = size;
  scene->last_move = KOMI_NO_POINT;
  scene->best_move = KOMI_NO_POINT;
  scene->cursor = KOMI_NO_POINT;
  scene->show_coordinates = TRUE;
  scene->show_territory = TRUE;
}

guint
komi_board_star_points (guint      size,
                        KomiPoint *out)
{
  guint edge = size >= 13 ? 3 : 2;
  guint far = size - 1 - edge;
  guint mid = size / 2;
  guint n = 0;

  if (size < 7)
    {
      if (size % 2 == 1)
        out[n++] = komi_point_from_xy (size, mid, mid);
      return n;
    }
  out[n++] = komi_point_from_xy (size, edge, edge);
  out[n++] = komi_point_from_xy (size, far, edge);
  out[n++] = komi_point_from_xy (size, edge, far);
  out[n++] = komi_point_from_xy (size, far, far);
  if (size % 2 == 1)
    out[n++] = komi_point_from_xy (size, mid, mid);
  if (size % 2 == 1 && size >= 15)
    {
      out[n++] = komi_point_from_xy (size, mid, edge);
      out[n++] = komi_point_from_xy (size, mid, far);
      out[n++] = komi_point_from_xy (size, edge, mid);
      out[n++] = komi_point_from_xy (size, far, mid);
    }
  return n;
}

void
komi_board_scene_geometry (const KomiBoardScene *scene,
                           double                width,
                           double                height,
                           KomiBoardGeometry    *geometry)
{
  /* Margin from the edge of the wood to the first line, in cells: room
   * for half a stone, plus the coordinate labels when shown. */
  double margin = scene->show_coordinates ? 1.25 : 0.7;

  geometry->side = MAX (1.0, MIN (width, height));
  geometry->cell = geometry->side / (scene->size - 1 + 2 * margin);
  geometry->left = floor ((width - geometry->side) / 2);
  geometry->top = floor ((height - geometry->side) / 2);
  geometry->x0 = geometry->left + margin * geometry->cell;
  geometry->y0 = geometry->top + margin * geometry->cell;
}

KomiPoint
komi_board_scene_hit (const KomiBoardScene *scene,
                      double                width,
                      double                height,
                      double                x,
                      double                y)
{
  KomiBoardGeometry g;
  double fx, fy;

  komi_board_scene_geometry (scene, width, height, &g);
  fx = round ((x - g.x0) / g.cell);
  fy = round ((y - g.y0) / g.cell);
  if (fx < 0 || fy < 0 || fx >= scene->size || fy >= scene->size)
    return KOMI_NO_POINT;
  return komi_point_from_xy (scene->size, (guint) fx, (guint) fy);
}

KomiPoint
komi_board_scene_real_point (const KomiBoardScene *scene,
                             KomiPoint             shown)
{
  return komi_orientation_unapply (scene->orientation, scene->size, shown);
}

static void
set_rgb (cairo_t *cr, const double c[3], double alpha)
{
  cairo_set_source_rgba (cr, c[0], c[1], c[2], alpha);
}

/* Centres @text on (@x, @y) at @px pixels high. */
static void
draw_text (cairo_t    *cr,
           const char *text,
           double      x,
           double      y,
           double      px,
           gboolean    bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  PangoRectangle ink;

  pango_font_description_set_absolute_size (font, px * PANGO_SCALE);
  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_extents (layout, &ink, NULL);
  cairo_move_to (cr, x - ink.x - ink.width / 2.0, y - ink.y - ink.height / 2.0);
  pango_cairo_show_layout (cr, layout);
  cairo_new_path (cr);   /* or the next arc would start with a line from here */
  pango_font_description_free (font);
  g_object_unref (layout);
}

/* Lines land on the middle of device pixels, so a 1 px line stays sharp at
 * any board size. */
static double
snap (double v, double width)
{
  return ((int) width % 2 == 1) ? floor (v) + 0.5 : round (v);
}

static void
paint_grid (const KomiBoardScene    *scene,
            cairo_t                 *cr,
            const KomiBoardGeometry *g,
            const Palette           *p)
{
  double lw = MAX (1.0, round (g->cell / 28));
  double end = (scene->size - 1) * g->cell;
  KomiPoint stars[9];
  guint n_stars;

  cairo_set_source_rgba (cr, p->line[0], p->line[1], p->line[2], p->line[3]);
  cairo_set_line_width (cr, lw);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_SQUARE);
  for (guint i = 0; i < scene->size; i++)
    {
      double x = snap (g->x0 + i * g->cell, lw);
      double y = snap (g->y0 + i * g->cell, lw);

      cairo_move_to (cr, x, snap (g->y0, lw));
      cairo_line_to (cr, x, snap (g->y0 + end, lw));
      cairo_move_to (cr, snap (g->x0, lw), y);
      cairo_line_to (cr, snap (g->x0 + end, lw), y);
    }
  cairo_stroke (cr);
  /* The edge of the grid a little heavier, as on a real board. */
  cairo_set_line_width (cr, lw * 2);
  cairo_rectangle (cr, snap (g->x0, lw), snap (g->y0, lw),
                   snap (g->x0 + end, lw) - snap (g->x0, lw),
                   snap (g->y0 + end, lw) - snap (g->y0, lw));
  cairo_stroke (cr);

  n_stars = komi_board_star_points (scene->size, stars);
  for (guint i = 0; i < n_stars; i++)
    {
      guint x = komi_point_x (scene->size, stars[i]);
      guint y = komi_point_y (scene->size, stars[i]);

      cairo_arc (cr, snap (g->x0 + x * g->cell, lw), snap (g->y0 + y * g->cell, lw),
                 MAX (2.5, g->cell * 0.1), 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

static void
paint_coordinates (const KomiBoardScene    *scene,
                   cairo_t                 *cr,
                   const KomiBoardGeometry *g,
                   const Palette           *p)
{
  double px = MAX (7.0, g->cell * 0.36);
  double off = g->cell * 0.78;

  cairo_set_source_rgba (cr, p->label[0], p->label[1], p->label[2], p->label[3]);
  for (guint i = 0; i < scene->size; i++)
    {
      char letter[2] = { komi_column_letter (i), 0 };
      g_autofree char *row = g_strdup_printf ("%u", scene->size - i);
      double x = g->x0 + i * g->cell;
      double y = g->y0 + i * g->cell;
      double end = (scene->size - 1) * g->cell;

      draw_text (cr, letter, x, g->y0 - off, px, FALSE);
      draw_text (cr, letter, x, g->y0 + end + off, px, FALSE);
      draw_text (cr, row, g->x0 - off, y, px, FALSE);
      draw_text (cr, row, g->x0 + end + off, y, px, FALSE);
    }
}

static void
paint_stone (cairo_t       *cr,
             KomiColor      color,
             double         x,
             double         y,
             double         r,
             double         alpha,
             const Palette *p)
{
  cairo_new_path (cr);
  cairo_arc (cr, x, y, r, 0, 2 * G_PI);
  set_rgb (cr, color == KOMI_BLACK ? p->black : p->white, alpha);
  if (color == KOMI_WHITE)
    {
      cairo_fill_preserve (cr);
      set_rgb (cr, p->white_edge, alpha);
      cairo_set_line_width (cr, MAX (1.0, r * 0.07));
      cairo_stroke (cr);
    }
  else
    cairo_fill (cr);
}

/* Territory: a small square of the owner's colour on the point. */
static void
paint_territory (cairo_t *cr, KomiColor owner, double x, double y, double cell,
                 const Palette *p)
{
  double half = cell * 0.14;

  cairo_rectangle (cr, x - half, y - half, 2 * half, 2 * half);
  set_rgb (cr, owner == KOMI_BLACK ? p->black : p->white, 1.0);
  cairo_fill_preserve (cr);
  set_rgb (cr, owner == KOMI_BLACK ? p->white : p->black, 0.6);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
}

/* The overlay: a disc on each point that has a value, its strength the
 * value against the largest shown (a spread of 3% points would otherwise be
 * invisible), and the value in per cent over it ("52%"). */
static void
paint_heat (const KomiBoardScene    *scene,
            cairo_t                 *cr,
            const KomiBoardGeometry *g,
            const Palette           *p)
{
  guint n = scene->size * scene->size;
  float top = 0;

  for (guint i = 0; i < n; i++)
    top = MAX (top, scene->heat[i]);
  if (top <= 0)
    return;
  for (guint shown = 0; shown < n; shown++)
    {
      guint i = (guint) komi_board_scene_real_point (scene, (KomiPoint) shown);
      double x = g->x0 + komi_point_x (scene->size, (KomiPoint) shown) * g->cell;
      double y = g->y0 + komi_point_y (scene->size, (KomiPoint) shown) * g->cell;
      double share;

      if (scene->heat[i] < 0 || scene->colors[i] != KOMI_EMPTY)
        continue;
      share = scene->heat[i] / top;
      set_rgb (cr, p->heat, 0.45 + 0.5 * share);
      cairo_arc (cr, x, y, g->cell * (0.2 + 0.24 * share), 0, 2 * G_PI);
      cairo_fill (cr);
      if (g->cell >= 22)
        {
          /* With a per cent sign, smaller and not bold: never read as
           * the move numbers on the stones (issue 30). */
          g_autofree char *text = g_strdup_printf ("%.0f%%", 100.0 * scene->heat[i]);

          set_rgb (cr, share > 0.5 ? p->white : p->black, 1.0);
          draw_text (cr, text, x, y, g->cell * 0.25, FALSE);
        }
    }
}

static void
paint_points (const KomiBoardScene    *scene,
              cairo_t                 *cr,
              const KomiBoardGeometry *g,
              const Palette           *p)
{
  double r = g->cell * 0.47;
  guint n = scene->size * scene->size;

  /* Point by point as shown; the data is read at the real point behind. */
  for (guint shown = 0; shown < n; shown++)
    {
      guint i = (guint) komi_board_scene_real_point (scene, (KomiPoint) shown);
      KomiColor color = scene->colors[i];
      double x = g->x0 + komi_point_x (scene->size, (KomiPoint) shown) * g->cell;
      double y = g->y0 + komi_point_y (scene->size, (KomiPoint) shown) * g->cell;
      gboolean dead = scene->show_territory && color != KOMI_EMPTY && scene->dead[i];
      KomiColor owner = scene->show_territory ? scene->territory[i] : KOMI_EMPTY;

      if (color != KOMI_EMPTY)
        {
          /* Dead stones fade; the territory square drawn over them says
           * whose point they are. */
          paint_stone (cr, color, x, y, r, dead ? 0.4 : 1.0, p);
        }
      if (owner != KOMI_EMPTY && (color == KOMI_EMPTY || dead))
        paint_territory (cr, owner, x, y, g->cell, p);

      if (color != KOMI_EMPTY && !dead && scene->show_numbers && scene->numbers[i] > 0)
        {
          g_autofree char *text = g_strdup_printf ("%u", scene->numbers[i]);
          double px = g->cell * (scene->numbers[i] >= 100 ? 0.36 : 0.44);

          if ((KomiPoint) i == scene->last_move)
            set_rgb (cr, p->accent, 1.0);
          else
            set_rgb (cr, color == KOMI_BLACK ? p->white : p->black, 1.0);
          draw_text (cr, text, x, y, px, TRUE);
        }
      else if ((KomiPoint) i == scene->last_move && color != KOMI_EMPTY)
        {
          /* A ring in the opposite colour: visible on either stone. */
          set_rgb (cr, color == KOMI_BLACK ? p->white : p->black, 1.0);
          cairo_set_line_width (cr, MAX (1.5, r * 0.13));
          cairo_arc (cr, x, y, r * 0.52, 0, 2 * G_PI);
          cairo_stroke (cr);
        }
    }
}

/* The engine's better move at a mistake, as KaTrain marks it: a ring
 * with a dot, where the stone should have gone. */
static void
paint_best_move (const KomiBoardScene    *scene,
                 cairo_t                 *cr,
                 const KomiBoardGeometry *g,
                 const Palette           *p)
{
  KomiPoint shown;
  double x, y, r = g->cell * 0.46;

  if (scene->best_move < 0 || (guint) scene->best_move >= scene->size * scene->size)
    return;
  shown = komi_orientation_apply (scene->orientation, scene->size, scene->best_move);
  x = g->x0 + komi_point_x (scene->size, shown) * g->cell;
  y = g->y0 + komi_point_y (scene->size, shown) * g->cell;
  set_rgb (cr, p->best, 0.9);
  cairo_set_line_width (cr, MAX (2.0, g->cell * 0.09));
  cairo_arc (cr, x, y, r * 0.8, 0, 2 * G_PI);
  cairo_stroke (cr);
  cairo_arc (cr, x, y, r * 0.25, 0, 2 * G_PI);
  cairo_fill (cr);
}

static void
paint_cursor (const KomiBoardScene    *scene,
              cairo_t                 *cr,
              const KomiBoardGeometry *g,
              const Palette           *p)
{
  double x, y, half = g->cell * 0.5;

  if (scene->cursor < 0 || (guint) scene->cursor >= scene->size * scene->size)
    return;
  x = g->x0 + komi_point_x (scene->size, scene->cursor) * g->cell;
  y = g->y0 + komi_point_y (scene->size, scene->cursor) * g->cell;
  set_rgb (cr, p->accent, 1.0);
  cairo_set_line_width (cr, MAX (2.0, g->cell * 0.07));
  cairo_rectangle (cr, x - half, y - half, 2 * half, 2 * half);
  cairo_stroke (cr);
}

void
komi_board_scene_paint (const KomiBoardScene *scene,
                        cairo_t              *cr,
                        double                width,
                        double                height,
                        gboolean              dark)
{
  const Palette *p = dark ? &dark_palette : &light_palette;
  KomiBoardGeometry g;
  double radius;

  g_return_if_fail (scene->size >= KOMI_MIN_SIZE && scene->size <= KOMI_MAX_SIZE);

  komi_board_scene_geometry (scene, width, height, &g);
  cairo_save (cr);

  radius = MIN (6.0, g.side * 0.02);
  cairo_new_sub_path (cr);
  cairo_arc (cr, g.left + g.side - radius, g.top + radius, radius, -G_PI / 2, 0);
  cairo_arc (cr, g.left + g.side - radius, g.top + g.side - radius, radius, 0, G_PI / 2);
  cairo_arc (cr, g.left + radius, g.top + g.side - radius, radius, G_PI / 2, G_PI);
  cairo_arc (cr, g.left + radius, g.top + radius, radius, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  set_rgb (cr, p->wood, 1.0);
  cairo_fill (cr);

  paint_grid (scene, cr, &g, p);
  if (scene->show_coordinates)
    paint_coordinates (scene, cr, &g, p);
  if (scene->show_heat)
    paint_heat (scene, cr, &g, p);
  paint_points (scene, cr, &g, p);
  paint_best_move (scene, cr, &g, p);
  paint_cursor (scene, cr, &g, p);

  cairo_restore (cr);
}
