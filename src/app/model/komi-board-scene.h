/* komi-board-scene.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "komi-go-types.h"
#include "komi-orientation.h"

G_BEGIN_DECLS

/* What the board view shows, as plain data, and the cairo code that paints
 * it. Kept apart from the widget so that the drawing is one function of
 * (scene, size, theme): the widget calls it from snapshot, and so does the
 * reference-image test. */

typedef struct
{
  guint      size;                               /* lines per side, 5–19 */
  guint8     colors[KOMI_MAX_POINTS];            /* KomiColor per point, board order */
  guint      numbers[KOMI_MAX_POINTS];           /* move number of the stone; 0: none */
  gboolean   dead[KOMI_MAX_POINTS];              /* stones judged dead */
  guint8     territory[KOMI_MAX_POINTS];         /* who the point counts for; KOMI_EMPTY: none */
  KomiPoint  last_move;                          /* KOMI_NO_POINT or KOMI_PASS: no mark */
  KomiPoint  best_move;                          /* the engine's better move at a mistake,
                                                  * a real point; KOMI_NO_POINT: no mark */
  KomiPoint  cursor;                             /* keyboard cursor, a point as shown;
                                                  * KOMI_NO_POINT: none */
  KomiOrientation orientation;                   /* how the board is shown; the data above
                                                  * (but the cursor) is in real points */
  gboolean   show_coordinates;
  gboolean   show_numbers;
  gboolean   show_territory;                     /* dead marks and territory */
  gboolean   show_heat;                          /* the overlay below is set */
  float      heat[KOMI_MAX_POINTS];              /* a value 0–1 per real point (the model's
                                                  * probability); < 0: none there */
} KomiBoardScene;

/* Where the grid lies in a @width x @height area: the centre of point
 * (0, 0) and the distance between lines. */
typedef struct
{
  double x0;
  double y0;
  double cell;
  double side;   /* the square board, wood included */
  double left;   /* its top-left corner */
  double top;
} KomiBoardGeometry;

/* An empty @size board with coordinates and no marks. */
void      komi_board_scene_init      (KomiBoardScene          *scene,
                                      guint                    size);
void      komi_board_scene_geometry  (const KomiBoardScene    *scene,
                                      double                   width,
                                      double                   height,
                                      KomiBoardGeometry       *geometry);
/* The point under (@x, @y) as shown, or KOMI_NO_POINT when it is off the
 * grid. */
KomiPoint komi_board_scene_hit       (const KomiBoardScene    *scene,
                                      double                   width,
                                      double                   height,
                                      double                   x,
                                      double                   y);
/* Paints the scene into the @width x @height area at the origin of @cr,
 * in the dark palette when @dark is set. */
void      komi_board_scene_paint     (const KomiBoardScene    *scene,
                                      cairo_t                 *cr,
                                      double                   width,
                                      double                   height,
                                      gboolean                 dark);
/* The real point shown at @shown. */
KomiPoint komi_board_scene_real_point (const KomiBoardScene  *scene,
                                       KomiPoint              shown);
/* The star points of a @size board into @out (at most 9); their number. */
guint     komi_board_star_points     (guint                    size,
                                      KomiPoint               *out);

G_END_DECLS
