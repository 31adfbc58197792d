/* komi-ladder-scale.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <math.h>

#include <cairo-svg.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "komi-ladder-scale.h"

#define PAD      12.0   /* around the picture */
#define LEGEND   26.0   /* the legend's row at the top */
#define ROW      22.0   /* one player */
#define TICKS    20.0   /* the axis's numbers, above the rows (seen unscrolled) */
#define CAPTION  30.0   /* the caption, under the rows */
#define GAP      14.0   /* between the labels and the plot */
#define TEXT_PX  13.0
#define SMALL_PX 11.0

struct _KomiScale
{
  char      *caption;
  GArray    *marks;       /* KomiScaleMark, strongest first once sorted */
  gboolean   sorted;
  double     label_width; /* the widest label, in pixels */
  double     min, max;    /* the axis, whole ticks */
  double     tick;
};

typedef struct
{
  double fg[3];
  double member[3];
  double subject[3];
} Palette;

static const Palette light = {
  { 0.14, 0.12, 0.19 }, { 0.11, 0.44, 0.85 }, { 0.78, 0.27, 0.0 },
};
static const Palette dark = {
  { 1.0, 1.0, 1.0 }, { 0.38, 0.63, 0.92 }, { 1.0, 0.64, 0.28 },
};

static void
clear_mark (gpointer p)
{
  g_free (((KomiScaleMark *) p)->label);
}

KomiScale *
komi_scale_new (const char *caption)
{
  KomiScale *self = g_new0 (KomiScale, 1);

  self->caption = g_strdup (caption);
  self->marks = g_array_new (FALSE, TRUE, sizeof (KomiScaleMark));
  g_array_set_clear_func (self->marks, clear_mark);
  self->min = 0;
  self->max = 1000;
  self->tick = 250;
  return self;
}

void
komi_scale_free (KomiScale *self)
{
  if (self == NULL)
    return;
  g_free (self->caption);
  g_array_unref (self->marks);
  g_free (self);
}

static PangoLayout *
make_layout (cairo_t *cr, const char *text, double px, gboolean bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans");

  pango_font_description_set_absolute_size (font, px * PANGO_SCALE);
  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_font_description_free (font);
  return layout;
}

static double
text_width (const char *text, double px, gboolean bold)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (surface);
  PangoLayout *layout = make_layout (cr, text, px, bold);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return width;
}

/* The axis spans every mark and finite interval end, in whole ticks of a
 * size that gives at most about eight of them. */
static void
fit_axis (KomiScale *self)
{
  static const double steps[] = { 50, 100, 250, 500, 1000, 2000, 5000 };
  double lo = INFINITY, hi = -INFINITY;

  for (guint i = 0; i < self->marks->len; i++)
    {
      const KomiScaleMark *m = &g_array_index (self->marks, KomiScaleMark, i);

      lo = MIN (lo, m->elo);
      hi = MAX (hi, m->elo);
      if (isfinite (m->low))
        lo = MIN (lo, m->low);
      if (isfinite (m->high))
        hi = MAX (hi, m->high);
    }
  if (!isfinite (lo))
    lo = 0, hi = 1000;
  if (hi - lo < 100)
    lo -= 50, hi += 50;
  self->tick = steps[G_N_ELEMENTS (steps) - 1];
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if ((hi - lo) / steps[i] <= 8)
      {
        self->tick = steps[i];
        break;
      }
  self->min = floor (lo / self->tick) * self->tick;
  self->max = ceil (hi / self->tick) * self->tick;
  if (self->max <= self->min)
    self->max = self->min + self->tick;
}

guint
komi_scale_number_every (const KomiScale *self, double width)
{
  double apart = komi_scale_x_for_elo (self, width, self->min + self->tick)
                 - komi_scale_x_for_elo (self, width, self->min);
  double widest = 0;

  for (double elo = self->min; elo <= self->max + 0.5; elo += self->tick)
    {
      g_autofree char *number = g_strdup_printf ("%.0f", elo);

      widest = MAX (widest, text_width (number, SMALL_PX, FALSE));
    }
  if (apart <= 0)
    return 1;
  /* Centred on their ticks: two neighbours need a number's width and a gap. */
  return MAX (1, (guint) ceil ((widest + 10) / apart));
}

static int
by_elo_descending (gconstpointer a, gconstpointer b)
{
  const KomiScaleMark *x = a, *y = b;

  return (x->elo < y->elo) - (x->elo > y->elo);
}

void
komi_scale_add (KomiScale     *self,
                const char    *label,
                KomiScaleRole  role,
                double         elo,
                double         low,
                double         high,
                guint          games)
{
  KomiScaleMark mark = { g_strdup (label), role, elo, low, high, games };

  g_return_if_fail (self != NULL && label != NULL);

  if (!isfinite (elo))
    {
      g_free (mark.label);
      return;
    }
  g_array_append_val (self->marks, mark);
  /* Stable: members of equal Elo keep the ladder's order. */
  g_array_sort (self->marks, by_elo_descending);
  self->label_width = MAX (self->label_width,
                           text_width (label, TEXT_PX, role == KOMI_SCALE_SUBJECT));
  fit_axis (self);
}

guint
komi_scale_get_n_marks (const KomiScale *self)
{
  return self->marks->len;
}

const KomiScaleMark *
komi_scale_get_mark (const KomiScale *self,
                     guint            i)
{
  g_return_val_if_fail (i < self->marks->len, NULL);
  return &g_array_index (self->marks, KomiScaleMark, i);
}

double
komi_scale_get_height (const KomiScale *self)
{
  return PAD + LEGEND + TICKS + self->marks->len * ROW + CAPTION + PAD;
}

static double
plot_start (const KomiScale *self)
{
  return PAD + self->label_width + GAP;
}

double
komi_scale_x_for_elo (const KomiScale *self,
                      double           width,
                      double           elo)
{
  double x0 = plot_start (self), x1 = width - PAD - 10;

  return x0 + (elo - self->min) / (self->max - self->min) * MAX (x1 - x0, 1.0);
}

double
komi_scale_row_y (const KomiScale *self,
                  guint            i)
{
  return PAD + LEGEND + TICKS + (i + 0.5) * ROW;
}

int
komi_scale_row_at (const KomiScale *self,
                   double           y)
{
  double row = (y - PAD - LEGEND - TICKS) / ROW;

  return row >= 0 && row < self->marks->len ? (int) row : -1;
}

char *
komi_scale_describe (const KomiScale *self,
                     guint            i)
{
  const KomiScaleMark *m = komi_scale_get_mark (self, i);

  g_return_val_if_fail (m != NULL, NULL);

  if (m->role == KOMI_SCALE_PINNED)
    return g_strdup_printf (_("%s, ladder member: pinned at %.0f Elo, %u calibration games"),
                            m->label, m->elo, m->games);
  if (m->role == KOMI_SCALE_MEMBER)
    return g_strdup_printf (_("%s, ladder member: %.0f Elo, 95%% interval %.0f to %.0f, "
                              "%u calibration games"),
                            m->label, m->elo, m->low, m->high, m->games);
  if (!isfinite (m->high))
    return g_strdup_printf (_("%s, subject: above %.0f Elo (won every rated game), "
                              "%u rated games"), m->label, m->elo, m->games);
  if (!isfinite (m->low))
    return g_strdup_printf (_("%s, subject: below %.0f Elo (lost every rated game), "
                              "%u rated games"), m->label, m->elo, m->games);
  return g_strdup_printf (_("%s, subject: %.0f Elo, 95%% interval %.0f to %.0f, "
                            "%u rated games"),
                          m->label, m->elo, m->low, m->high, m->games);
}

static void
set_rgb (cairo_t *cr, const double c[3], double alpha)
{
  cairo_set_source_rgba (cr, c[0], c[1], c[2], alpha);
}

/* Draws @text with its left edge (or its middle, if @centre) at @x and
 * its middle at @y. */
static void
draw_text (cairo_t *cr, const char *text, double x, double y, double px,
           gboolean bold, gboolean centre)
{
  PangoLayout *layout = make_layout (cr, text, px, bold);
  int width, height;

  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, centre ? x - width / 2.0 : x, y - height / 2.0);
  pango_cairo_show_layout (cr, layout);
  cairo_new_path (cr);
  g_object_unref (layout);
}

/* @text centred under the plot's middle, moved in where the picture's edge
 * would cut it (on a narrow picture the plot sits right of the labels). */
static void
draw_under_plot (cairo_t *cr, const char *text, double centre, double y, double width)
{
  double half = text_width (text, SMALL_PX, FALSE) / 2;

  draw_text (cr, text, MAX (MIN (centre, width - PAD - half), PAD + half), y, SMALL_PX, FALSE,
             TRUE);
}

static void
draw_marker (cairo_t *cr, KomiScaleRole role, double x, double y, const Palette *p)
{
  const double r = 5.0;

  set_rgb (cr, role == KOMI_SCALE_SUBJECT ? p->subject : p->member, 1.0);
  switch (role)
    {
    case KOMI_SCALE_PINNED:
      cairo_rectangle (cr, x - r, y - r, 2 * r, 2 * r);
      break;
    case KOMI_SCALE_SUBJECT:
      cairo_move_to (cr, x, y - r - 1);
      cairo_line_to (cr, x + r + 1, y);
      cairo_line_to (cr, x, y + r + 1);
      cairo_line_to (cr, x - r - 1, y);
      cairo_close_path (cr);
      break;
    default:
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    }
  cairo_fill (cr);
}

/* The markers' legend on its row; with no @cr only measured. Returns where
 * the bars' note would start on the row. */
static double
paint_legend (cairo_t *cr, const Palette *p)
{
  static const struct { KomiScaleRole role; const char *text; } items[] = {
    { KOMI_SCALE_MEMBER, N_("Ladder member") },
    { KOMI_SCALE_PINNED, N_("Pinned member") },
    { KOMI_SCALE_SUBJECT, N_("Subject") },
  };
  double x = PAD + 6, y = PAD + LEGEND / 2 - 3;

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      const char *text = _(items[i].text);

      if (cr != NULL)
        {
          draw_marker (cr, items[i].role, x, y, p);
          set_rgb (cr, p->fg, 0.8);
          draw_text (cr, text, x + 10, y, SMALL_PX, FALSE, FALSE);
        }
      x += 10 + text_width (text, SMALL_PX, FALSE) + 22;
    }
  return x;
}

static const char *
bars_text (void)
{
  /* xgettext:no-c-format */
  return _("Bars: 95% intervals");
}

/* Whether the bars' note, starting at @bars_x, ends inside @width. */
static gboolean
bars_fit (double bars_x, double width)
{
  return bars_x + text_width (bars_text (), SMALL_PX, FALSE) <= width - PAD;
}

gboolean
komi_scale_legend_fits (double width)
{
  return bars_fit (paint_legend (NULL, NULL), width);
}

/* A bar from @a to @b; an open end runs to the plot's edge as an arrow. */
static void
paint_interval (cairo_t *cr, const KomiScale *self, const KomiScaleMark *m,
                double width, double y)
{
  double left = komi_scale_x_for_elo (self, width, self->min);
  double right = komi_scale_x_for_elo (self, width, self->max);
  double a = isfinite (m->low) ? komi_scale_x_for_elo (self, width, m->low) : left;
  double b = isfinite (m->high) ? komi_scale_x_for_elo (self, width, m->high) : right + 6;

  if (!isfinite (m->low))
    a = left - 6;
  cairo_set_line_width (cr, 2.0);
  cairo_move_to (cr, a, y);
  cairo_line_to (cr, b, y);
  cairo_stroke (cr);
  for (guint end = 0; end < 2; end++)
    {
      double x = end == 0 ? a : b;
      gboolean open = end == 0 ? !isfinite (m->low) : !isfinite (m->high);
      double dir = end == 0 ? -1 : 1;

      if (open)
        {
          cairo_move_to (cr, x + dir * 2, y);
          cairo_line_to (cr, x - dir * 5, y - 4);
          cairo_line_to (cr, x - dir * 5, y + 4);
          cairo_close_path (cr);
          cairo_fill (cr);
        }
      else
        {
          cairo_move_to (cr, x, y - 4);
          cairo_line_to (cr, x, y + 4);
          cairo_stroke (cr);
        }
    }
}

void
komi_scale_paint (const KomiScale *self,
                  cairo_t         *cr,
                  double           width,
                  gboolean         is_dark)
{
  const Palette *p = is_dark ? &dark : &light;
  double top = PAD + LEGEND + TICKS, bottom = top + self->marks->len * ROW;
  double centre = (komi_scale_x_for_elo (self, width, self->min)
                   + komi_scale_x_for_elo (self, width, self->max)) / 2;
  guint every = komi_scale_number_every (self, width), tick = 0;
  double bars_x;
  gboolean bars_on_top;

  cairo_save (cr);
  bars_x = paint_legend (cr, p);
  bars_on_top = bars_fit (bars_x, width);
  set_rgb (cr, p->fg, 0.6);
  /* Too narrow for the bars' note beside the markers: it goes under the
   * caption instead of off the picture. */
  if (bars_on_top)
    draw_text (cr, bars_text (), bars_x, PAD + LEGEND / 2 - 3, SMALL_PX, FALSE, FALSE);

  /* Every other row shaded, so a label finds its bar. */
  for (guint i = 1; i < self->marks->len; i += 2)
    {
      set_rgb (cr, p->fg, 0.04);
      cairo_rectangle (cr, PAD, top + i * ROW, width - 2 * PAD, ROW);
      cairo_fill (cr);
    }

  /* The grid and the axis's numbers. */
  cairo_set_line_width (cr, 1.0);
  for (double elo = self->min; elo <= self->max + 0.5; elo += self->tick, tick++)
    {
      double x = round (komi_scale_x_for_elo (self, width, elo)) + 0.5;
      g_autofree char *number = g_strdup_printf ("%.0f", elo);

      set_rgb (cr, p->fg, 0.12);
      cairo_move_to (cr, x, top - 4);
      cairo_line_to (cr, x, bottom + 4);
      cairo_stroke (cr);
      /* Every line drawn, numbered only as often as the numbers fit. */
      if (tick % every != 0)
        continue;
      set_rgb (cr, p->fg, 0.7);
      draw_text (cr, number, x, top - 11, SMALL_PX, FALSE, TRUE);
    }
  set_rgb (cr, p->fg, 0.5);
  cairo_move_to (cr, komi_scale_x_for_elo (self, width, self->min), top - 0.5);
  cairo_line_to (cr, komi_scale_x_for_elo (self, width, self->max), top - 0.5);
  cairo_stroke (cr);
  if (self->caption != NULL)
    {
      set_rgb (cr, p->fg, 0.7);
      draw_under_plot (cr, self->caption, centre,
                       bottom + (bars_on_top ? CAPTION / 2 : CAPTION / 2 - 6), width);
    }
  if (!bars_on_top)
    {
      set_rgb (cr, p->fg, 0.6);
      draw_under_plot (cr, bars_text (), centre, bottom + CAPTION / 2 + 8, width);
    }

  for (guint i = 0; i < self->marks->len; i++)
    {
      const KomiScaleMark *m = &g_array_index (self->marks, KomiScaleMark, i);
      double y = komi_scale_row_y (self, i);
      gboolean subject = m->role == KOMI_SCALE_SUBJECT;

      set_rgb (cr, p->fg, subject ? 1.0 : 0.85);
      draw_text (cr, m->label, PAD + 4, y, TEXT_PX, subject, FALSE);
      if (m->role != KOMI_SCALE_PINNED)
        {
          set_rgb (cr, subject ? p->subject : p->member, 0.55);
          paint_interval (cr, self, m, width, y);
        }
      draw_marker (cr, m->role, komi_scale_x_for_elo (self, width, m->elo), y, p);
    }
  cairo_restore (cr);
}

static void
paint_light (const KomiScale *self, cairo_surface_t *surface, double width)
{
  cairo_t *cr = cairo_create (surface);

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  komi_scale_paint (self, cr, width, FALSE);
  cairo_destroy (cr);
}

static gboolean
check_surface (cairo_surface_t *surface, const char *path, GError **error)
{
  cairo_status_t status = cairo_surface_status (surface);

  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write %s: %s"),
               path, cairo_status_to_string (status));
  return FALSE;
}

gboolean
komi_scale_save (const KomiScale  *self,
                 const char       *path,
                 double            width,
                 GError          **error)
{
  double height = komi_scale_get_height (self);
  cairo_surface_t *surface;
  gboolean ok;

  if (g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".SVG"))
    {
      surface = cairo_svg_surface_create (path, width, height);
      paint_light (self, surface, width);
      cairo_surface_finish (surface);
      ok = check_surface (surface, path, error);
    }
  else if (g_str_has_suffix (path, ".png") || g_str_has_suffix (path, ".PNG"))
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) ceil (height));
      paint_light (self, surface, width);
      ok = check_surface (surface, path, error);
      if (ok)
        {
          cairo_status_t status = cairo_surface_write_to_png (surface, path);

          if (status != CAIRO_STATUS_SUCCESS)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write %s: %s"),
                           path, cairo_status_to_string (status));
              ok = FALSE;
            }
        }
    }
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot save the scale as %s: give a file name ending in .png or .svg"),
                   path);
      return FALSE;
    }
  cairo_surface_destroy (surface);
  return ok;
}

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

GBytes *
komi_scale_to_png (const KomiScale  *self,
                   double            width,
                   GError          **error)
{
  double height = komi_scale_get_height (self);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width,
                                                         (int) ceil (height));
  GByteArray *bytes = g_byte_array_new ();
  cairo_status_t status;

  paint_light (self, surface, width);
  status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot draw the scale: %s"),
                   cairo_status_to_string (status));
      g_byte_array_unref (bytes);
      return NULL;
    }
  return g_byte_array_free_to_bytes (bytes);
}
