/* komi-score-graph.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "komi-score-graph.h"
#include "komi-ui-util.h"

#define PAD 8.0          /* around the plot, so marks at the ends stay whole */
#define MIN_SCALE 5.0    /* points: a quiet game is not drawn as a storm */

struct _KomiScoreGraph
{
  GtkWidget        parent_instance;

  double          *leads;      /* n_steps: Black's lead at each position; NAN: none */
  guint8          *classes;    /* n_steps: KomiMoveClass of the move that led there */
  guint            n_steps;
  guint            step;
};

G_DEFINE_FINAL_TYPE (KomiScoreGraph, komi_score_graph, GTK_TYPE_WIDGET)

enum {
  STEP_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
komi_score_graph_new (void)
{
  return g_object_new (KOMI_TYPE_SCORE_GRAPH, NULL);
}

static void
update_accessible (KomiScoreGraph *self)
{
  g_autofree char *text = NULL;

  if (self->n_steps == 0)
    text = g_strdup (_("No analysis"));
  else if (isnan (self->leads[self->step]))
    text = g_strdup_printf (_("Move %u: no score"), self->step);
  else
    text = g_strdup_printf (_("Move %u: Black leads by %.1f"), self->step,
                            self->leads[self->step]);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MAX,
                                  (double) MAX (self->n_steps, 1) - 1,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, (double) self->step,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text,
                                  -1);
}

void
komi_score_graph_set_analysis (KomiScoreGraph          *self,
                               const KomiStoreAnalysis *analysis,
                               double                   mistake,
                               double                   blunder,
                               KomiColor                subject)
{
  guint n;

  g_return_if_fail (KOMI_IS_SCORE_GRAPH (self));

  g_clear_pointer (&self->leads, g_free);
  g_clear_pointer (&self->classes, g_free);
  self->n_steps = 0;
  if (analysis != NULL && analysis->moves->len > 0)
    {
      KomiStoreAnalysis thresholds = *analysis;

      thresholds.mistake = mistake;
      thresholds.blunder = MAX (mistake, blunder);
      n = analysis->moves->len;
      self->n_steps = n + 1;
      self->leads = g_new (double, n + 1);
      self->classes = g_new0 (guint8, n + 1);
      for (guint i = 0; i < n; i++)
        {
          const KomiStoreAnalysisMove *m = &g_array_index (analysis->moves,
                                                           KomiStoreAnalysisMove, i);
          double sign = m->color == KOMI_BLACK ? 1 : -1;

          /* Leads are the mover's: before the move, and after it. */
          self->leads[i] = sign * m->lead_before;
          if (i + 1 == n)
            self->leads[n] = sign * m->lead_after;
          /* Marked as the list beside lists them: the subject's moves only. */
          if (subject == KOMI_EMPTY || m->color == subject)
            self->classes[i + 1] = komi_store_analysis_classify (&thresholds, m);
        }
    }
  self->step = MIN (self->step, self->n_steps > 0 ? self->n_steps - 1 : 0);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
komi_score_graph_set_step (KomiScoreGraph *self,
                           guint           step)
{
  g_return_if_fail (KOMI_IS_SCORE_GRAPH (self));

  if (self->step == step)
    return;
  self->step = step;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
komi_score_graph_get_step (KomiScoreGraph *self)
{
  g_return_val_if_fail (KOMI_IS_SCORE_GRAPH (self), 0);
  return self->step;
}

guint
komi_score_graph_count_marks (KomiScoreGraph *self,
                              KomiMoveClass   class)
{
  guint n = 0;

  g_return_val_if_fail (KOMI_IS_SCORE_GRAPH (self), 0);
  for (guint i = 1; i < self->n_steps; i++)
    n += self->classes[i] == class;
  return n;
}

double
komi_score_graph_get_scale (KomiScoreGraph *self)
{
  double scale = MIN_SCALE;

  g_return_val_if_fail (KOMI_IS_SCORE_GRAPH (self), 0);
  for (guint i = 0; i < self->n_steps; i++)
    if (!isnan (self->leads[i]))
      scale = MAX (scale, fabs (self->leads[i]));
  return ceil (scale / 5) * 5;
}

guint
komi_score_graph_get_n_steps (KomiScoreGraph *self)
{
  g_return_val_if_fail (KOMI_IS_SCORE_GRAPH (self), 0);
  return self->n_steps;
}

double
komi_score_graph_step_x (KomiScoreGraph *self,
                         guint           step)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * PAD;

  g_return_val_if_fail (KOMI_IS_SCORE_GRAPH (self), 0);
  if (self->n_steps < 2)
    return PAD;
  return PAD + width * MIN (step, self->n_steps - 1) / (self->n_steps - 1);
}

guint
komi_score_graph_step_at (KomiScoreGraph *self,
                          double          x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * PAD;
  double at;

  g_return_val_if_fail (KOMI_IS_SCORE_GRAPH (self), 0);
  if (self->n_steps < 2 || width <= 0)
    return 0;
  at = round ((x - PAD) / width * (self->n_steps - 1));
  return (guint) CLAMP (at, 0, self->n_steps - 1);
}

/* The user picked @step: shown, and said. */
static void
activate_step (KomiScoreGraph *self, guint step)
{
  if (self->n_steps == 0)
    return;
  step = MIN (step, self->n_steps - 1);
  komi_score_graph_set_step (self, step);
  g_signal_emit (self, signals[STEP_ACTIVATED], 0, step);
}

static void
set_rgb (cairo_t *cr, guint32 rgb, double alpha)
{
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                         (rgb & 0xff) / 255.0, alpha);
}

/* Small text at (@x, @y): its left (@align 0), middle (0.5) or right (1)
 * there, and its top (@valign 0) or bottom (1). */
static void
draw_label (cairo_t *cr, const char *text, double x, double y, double align, double valign)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  int width, height;

  pango_font_description_set_absolute_size (font, 9 * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, round (x - align * width), round (y - valign * height));
  pango_cairo_show_layout (cr, layout);
  cairo_new_path (cr);
  pango_font_description_free (font);
  g_object_unref (layout);
}

/* Palette: GNOME's (Adwaita) colours, lighter ones on a dark background. */
static void
paint (KomiScoreGraph *self, cairo_t *cr, double w, double h)
{
  gboolean dark = komi_style_is_dark ();
  guint32 fg = dark ? 0xffffff : 0x000000;
  guint32 accent = dark ? 0x78aeed : 0x1c71d8;
  guint32 mistake = dark ? 0xffa348 : 0xe66100;
  guint32 blunder = dark ? 0xff7b63 : 0xc01c28;
  double scale = MIN_SCALE, axis = h / 2, half = h / 2 - PAD;
  gboolean open = FALSE;

  /* The axis: an even game. */
  set_rgb (cr, fg, 0.25);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, PAD, floor (axis) + 0.5);
  cairo_line_to (cr, w - PAD, floor (axis) + 0.5);
  cairo_stroke (cr);
  if (self->n_steps == 0)
    return;

  scale = komi_score_graph_get_scale (self);

  /* The lead, filled to the axis: Black's side darker, White's lighter. */
  for (int side = 0; side < 2; side++)
    {
      cairo_save (cr);
      cairo_rectangle (cr, 0, side == 0 ? 0 : axis, w, side == 0 ? axis : h - axis);
      cairo_clip (cr);
      open = FALSE;
      for (guint i = 0; i < self->n_steps; i++)
        {
          double x = komi_score_graph_step_x (self, i);

          if (isnan (self->leads[i]))
            continue;
          if (!open)
            cairo_move_to (cr, x, axis);
          cairo_line_to (cr, x, axis - self->leads[i] / scale * half);
          open = TRUE;
        }
      if (open)
        {
          cairo_line_to (cr, komi_score_graph_step_x (self, self->n_steps - 1), axis);
          cairo_close_path (cr);
          set_rgb (cr, fg, side == 0 ? (dark ? 0.45 : 0.55) : 0.15);
          cairo_fill (cr);
        }
      cairo_restore (cr);
    }
  set_rgb (cr, fg, 0.8);
  cairo_set_line_width (cr, 1.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  open = FALSE;
  for (guint i = 0; i < self->n_steps; i++)
    {
      if (isnan (self->leads[i]))
        {
          open = FALSE;
          continue;
        }
      if (open)
        cairo_line_to (cr, komi_score_graph_step_x (self, i), axis - self->leads[i] / scale * half);
      else
        cairo_move_to (cr, komi_score_graph_step_x (self, i), axis - self->leads[i] / scale * half);
      open = TRUE;
    }
  cairo_stroke (cr);

  /* The position shown. */
  set_rgb (cr, accent, 1);
  cairo_set_line_width (cr, 2);
  cairo_move_to (cr, round (komi_score_graph_step_x (self, self->step)), 0);
  cairo_line_to (cr, round (komi_score_graph_step_x (self, self->step)), h);
  cairo_stroke (cr);

  /* The scale: Black's lead at the top, White's at the bottom, and move
   * numbers along the even line, some 60 px apart. */
  {
    guint last = self->n_steps - 1;
    guint every = 10;
    g_autofree char *top = NULL;
    g_autofree char *bottom = NULL;

    while (last > 0 && every < last && (w - 2 * PAD) * every / last < 60)
      every = every == 10 ? 20 : every == 20 ? 50 : every * 2;
    set_rgb (cr, fg, 0.6);
    cairo_set_line_width (cr, 1);
    for (guint m = every; m <= last; m += every)
      {
        double x = round (komi_score_graph_step_x (self, m)) + 0.5;
        g_autofree char *number = g_strdup_printf ("%u", m);

        cairo_move_to (cr, x, floor (axis) - 2);
        cairo_line_to (cr, x, floor (axis) + 3);
        cairo_stroke (cr);
        if (x + 12 < w)   /* a number cut at the right edge is left out */
          draw_label (cr, number, x, floor (axis) + 3, 0.5, 0);
      }
    /* Translators: the score graph's scale: Black leads by %.0f points */
    top = g_strdup_printf (_("B+%.0f"), scale);
    /* Translators: the score graph's scale: White leads by %.0f points */
    bottom = g_strdup_printf (_("W+%.0f"), scale);
    draw_label (cr, top, PAD + 2, 1, 0, 0);
    draw_label (cr, bottom, PAD + 2, h - 1, 0, 1);
  }

  /* The subject's blunders as dots on the position their move led to;
   * its mistakes, more common, as a short mark at the bottom edge, so the
   * line is not dotted at nearly every move. */
  for (guint i = 1; i < self->n_steps; i++)
    {
      double x = komi_score_graph_step_x (self, i);
      double y = isnan (self->leads[i]) ? axis : axis - self->leads[i] / scale * half;

      if (self->classes[i] == KOMI_MOVE_CLASS_MISTAKE)
        {
          set_rgb (cr, mistake, 1);
          cairo_rectangle (cr, round (x) - 1, h - 5, 2, 5);
          cairo_fill (cr);
        }
      if (self->classes[i] != KOMI_MOVE_CLASS_BLUNDER)
        continue;
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, 4.5, 0, 2 * G_PI);
      set_rgb (cr, blunder, 1);
      cairo_fill_preserve (cr);
      set_rgb (cr, dark ? 0x000000 : 0xffffff, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
}

static void
komi_score_graph_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  KomiScoreGraph *self = KOMI_SCORE_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  paint (self, cr, width, height);
  cairo_destroy (cr);
}

static void
komi_score_graph_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 120 : 60;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 300 : 90;
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               KomiScoreGraph *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  activate_step (self, komi_score_graph_step_at (self, x));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                KomiScoreGraph *self)
{
  double start_x = 0;
  guint step;

  gtk_gesture_drag_get_start_point (gesture, &start_x, NULL);
  step = komi_score_graph_step_at (self, start_x + dx);
  if (step != self->step)
    activate_step (self, step);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                KomiScoreGraph        *self)
{
  if (self->n_steps == 0 || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      if (self->step > 0)
        activate_step (self, self->step - 1);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      if (self->step + 1 < self->n_steps)
        activate_step (self, self->step + 1);
      return TRUE;
    case GDK_KEY_Home:
      activate_step (self, 0);
      return TRUE;
    case GDK_KEY_End:
      activate_step (self, self->n_steps - 1);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
komi_score_graph_finalize (GObject *object)
{
  KomiScoreGraph *self = KOMI_SCORE_GRAPH (object);

  g_free (self->leads);
  g_free (self->classes);
  G_OBJECT_CLASS (komi_score_graph_parent_class)->finalize (object);
}

static void
komi_score_graph_class_init (KomiScoreGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = komi_score_graph_finalize;
  widget_class->snapshot = komi_score_graph_snapshot;
  widget_class->measure = komi_score_graph_measure;

  /* The user picked a position (0: the start) by click, drag or key. */
  signals[STEP_ACTIVATED] = g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_css_name (widget_class, "scoregraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_SLIDER);
}

static void
komi_score_graph_init (KomiScoreGraph *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "pointer");
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Score lead over the game"), -1);

  komi_style_watch_dark (GTK_WIDGET (self), G_CALLBACK (gtk_widget_queue_draw));
  update_accessible (self);
}
