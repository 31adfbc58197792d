/* komi-ladder-scale.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* The rating scale as a picture: one row per player, strongest at the top,
 * each a mark at its Elo with its 95% interval as a bar, coloured by role,
 * over an Elo axis. GTK-free, so the same drawing goes to the screen, to a
 * PNG and to an SVG. */

typedef enum
{
  KOMI_SCALE_MEMBER,    /* a ladder member, rated from calibration games */
  KOMI_SCALE_PINNED,    /* the member whose rating is fixed */
  KOMI_SCALE_SUBJECT,   /* a rated subject (a model, an engine under test) */
} KomiScaleRole;

typedef struct
{
  char          *label;
  KomiScaleRole  role;
  double         elo;   /* the estimate; for a bound, the bound */
  double         low;   /* the interval: -INFINITY / INFINITY for an open side */
  double         high;
  guint          games;
} KomiScaleMark;

typedef struct _KomiScale KomiScale;

KomiScale           *komi_scale_new         (const char          *caption);
void                 komi_scale_free        (KomiScale           *self);
/* Adds a row; marks without a finite @elo are left out (no rated game). */
void                 komi_scale_add         (KomiScale           *self,
                                             const char          *label,
                                             KomiScaleRole        role,
                                             double               elo,
                                             double               low,
                                             double               high,
                                             guint                games);
guint                komi_scale_get_n_marks (const KomiScale     *self);
/* In drawing order: strongest first. */
const KomiScaleMark *komi_scale_get_mark    (const KomiScale     *self,
                                             guint                i);

/* The height the picture needs, in pixels, for all its rows. */
double               komi_scale_get_height  (const KomiScale     *self);
/* Where Elo @elo lands across a picture @width wide. */
double               komi_scale_x_for_elo   (const KomiScale     *self,
                                             double               width,
                                             double               elo);
/* The row at height @y, or -1. */
int                  komi_scale_row_at      (const KomiScale     *self,
                                             double               y);
/* The middle of row @i. */
double               komi_scale_row_y       (const KomiScale     *self,
                                             guint                i);
/* "katago:16, ladder member: 2490 Elo, 95% interval 2152 to 2827, 98 games" */
char                *komi_scale_describe    (const KomiScale     *self,
                                             guint                i);

/* How often the axis's ticks are numbered across a picture @width wide:
 * 1 for every tick, k for every k-th, so that no two numbers touch. */
guint                komi_scale_number_every (const KomiScale    *self,
                                              double              width);
/* Whether the note on the bars fits on the legend's row beside the
 * markers' legend at @width; if not it is drawn under the caption. */
gboolean             komi_scale_legend_fits  (double              width);

void                 komi_scale_paint       (const KomiScale     *self,
                                             cairo_t             *cr,
                                             double               width,
                                             gboolean             dark);
/* A PNG or an SVG of the light picture, @width wide, by @path's extension
 * (.png or .svg; anything else is refused). */
gboolean             komi_scale_save        (const KomiScale     *self,
                                             const char          *path,
                                             double               width,
                                             GError             **error);
/* The light picture as PNG bytes, for the clipboard. */
GBytes              *komi_scale_to_png      (const KomiScale     *self,
                                             double               width,
                                             GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiScale, komi_scale_free)

G_END_DECLS
