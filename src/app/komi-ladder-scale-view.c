/* komi-ladder-scale-view.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-ladder-scale-view.h"
#include "komi-ui-util.h"

struct _KomiLadderScaleView
{
  GtkWidget        parent_instance;

  KomiScale       *scale;
};

G_DEFINE_FINAL_TYPE (KomiLadderScaleView, komi_ladder_scale_view, GTK_TYPE_WIDGET)

GtkWidget *
komi_ladder_scale_view_new (void)
{
  return g_object_new (KOMI_TYPE_LADDER_SCALE_VIEW, NULL);
}

void
komi_ladder_scale_view_set_scale (KomiLadderScaleView *self,
                                  KomiScale           *scale)
{
  g_return_if_fail (KOMI_IS_LADDER_SCALE_VIEW (self));

  g_clear_pointer (&self->scale, komi_scale_free);
  self->scale = scale;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("The same ratings as the table below, drawn on one Elo "
                                    "axis"), -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

const KomiScale *
komi_ladder_scale_view_get_scale (KomiLadderScaleView *self)
{
  g_return_val_if_fail (KOMI_IS_LADDER_SCALE_VIEW (self), NULL);
  return self->scale;
}

char *
komi_ladder_scale_view_tooltip (KomiLadderScaleView *self,
                                double               x,
                                double               y)
{
  int row;

  g_return_val_if_fail (KOMI_IS_LADDER_SCALE_VIEW (self), NULL);

  if (self->scale == NULL || (row = komi_scale_row_at (self->scale, y)) < 0)
    return NULL;
  return komi_scale_describe (self->scale, row);
}

static gboolean
on_query_tooltip (KomiLadderScaleView *self,
                  int                  x,
                  int                  y,
                  gboolean             keyboard,
                  GtkTooltip          *tooltip)
{
  g_autofree char *text = komi_ladder_scale_view_tooltip (self, x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
komi_ladder_scale_view_measure (GtkWidget      *widget,
                                GtkOrientation  orientation,
                                int             for_size,
                                int            *minimum,
                                int            *natural,
                                int            *minimum_baseline,
                                int            *natural_baseline)
{
  KomiLadderScaleView *self = KOMI_LADDER_SCALE_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 320;
  else
    *minimum = *natural = self->scale != NULL ? (int) komi_scale_get_height (self->scale) : 0;
}

static void
komi_ladder_scale_view_snapshot (GtkWidget   *widget,
                                 GtkSnapshot *snapshot)
{
  KomiLadderScaleView *self = KOMI_LADDER_SCALE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->scale == NULL || width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  komi_scale_paint (self->scale, cr, width, komi_style_is_dark ());
  cairo_destroy (cr);
}

static void
komi_ladder_scale_view_dispose (GObject *object)
{
  KomiLadderScaleView *self = KOMI_LADDER_SCALE_VIEW (object);

  g_clear_pointer (&self->scale, komi_scale_free);
  G_OBJECT_CLASS (komi_ladder_scale_view_parent_class)->dispose (object);
}

static void
komi_ladder_scale_view_class_init (KomiLadderScaleViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_ladder_scale_view_dispose;
  widget_class->measure = komi_ladder_scale_view_measure;
  widget_class->snapshot = komi_ladder_scale_view_snapshot;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
komi_ladder_scale_view_init (KomiLadderScaleView *self)
{
  komi_style_watch_dark (GTK_WIDGET (self), G_CALLBACK (gtk_widget_queue_draw));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Rating scale"), -1);
}
