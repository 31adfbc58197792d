/* komi-review-window-layout.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include "komi-review-window-private.h"

/* The review window fitted to its width (AdwBreakpoint is libadwaita 1.4):
 * wide, the board, the move list and the calls side by side; medium
 * (800 px), the board and the calls, the moves reached by the slider and
 * the buttons; narrow (a phone's 360 px), the board over the calls, the
 * moves' buttons in a bar at the bottom. The layout changes after an allocation,
 * never during one; the window asks for no more than the narrow layout
 * needs, so a window manager may make it that narrow. */

typedef enum
{
  LAYOUT_WIDE,
  LAYOUT_MEDIUM,
  LAYOUT_NARROW,
} Layout;

/* The widths (the window's) at which a layout fits: the board wants 320 px
 * and more, the moves 210, the calls 440 (360 beside the board alone). */
#define WIDE_WIDTH   1040
#define MEDIUM_WIDTH 720
#define NARROW_MIN   360

static const char * const layout_names[] = { "wide", "medium", "narrow" };

static void
apply_layout (KomiReviewWindow *self, Layout layout)
{
  gboolean narrow = layout == LAYOUT_NARROW;

  self->layout = layout;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->content_box),
                                  narrow ? GTK_ORIENTATION_VERTICAL
                                         : GTK_ORIENTATION_HORIZONTAL);
  gtk_widget_set_visible (self->moves_scroller, layout == LAYOUT_WIDE);
  gtk_widget_set_size_request (self->side_box, layout == LAYOUT_WIDE ? 440
                                               : layout == LAYOUT_MEDIUM ? 360 : -1, -1);
  gtk_widget_set_size_request (self->calls_scroller, layout == LAYOUT_WIDE ? 440 : -1,
                               narrow ? 160 : -1);
  gtk_widget_set_vexpand (self->side_box, narrow);
  /* Narrow, the moves' buttons go to the bottom bar: the header keeps
   * the title, the orientation and the window's buttons. */
  gtk_widget_set_visible (self->header_nav, !narrow);
  gtk_widget_set_visible (GTK_WIDGET (self->mistake_button), !narrow);
  gtk_action_bar_set_revealed (self->bottom_bar, narrow);
}

static Layout
layout_for_width (int width)
{
  return width >= WIDE_WIDTH ? LAYOUT_WIDE : width >= MEDIUM_WIDTH ? LAYOUT_MEDIUM
                                                                    : LAYOUT_NARROW;
}

static gboolean
apply_layout_later (gpointer data)
{
  KomiReviewWindow *self = data;

  self->layout_source = 0;
  apply_layout (self, layout_for_width (gtk_widget_get_width (GTK_WIDGET (self))));
  return G_SOURCE_REMOVE;
}

static void
komi_review_window_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  KomiReviewWindow *self = KOMI_REVIEW_WINDOW (widget);
  GtkWidgetClass *parent = g_type_class_peek (ADW_TYPE_WINDOW);

  parent->measure (widget, orientation, for_size, minimum, natural, minimum_baseline,
                   natural_baseline);
  /* Wider layouts need more; given less, the window goes narrow. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL && self->layout != LAYOUT_NARROW)
    *minimum = MIN (*minimum, NARROW_MIN);
}

static void
komi_review_window_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  KomiReviewWindow *self = KOMI_REVIEW_WINDOW (widget);
  GtkWidgetClass *parent = g_type_class_peek (ADW_TYPE_WINDOW);

  parent->size_allocate (widget, width, height, baseline);
  if (layout_for_width (width) != self->layout && self->layout_source == 0)
    /* Before the next frame is drawn: one frame at most in the old layout. */
    self->layout_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, apply_layout_later, self,
                                           NULL);
}

/* Before the window is shown, its layout follows the size it will open
 * at: the first frame is drawn in the right one. */
static void
on_default_width (KomiReviewWindow *self)
{
  int width, height;

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  /* GTK 4.8 wants both. */
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (width > 0)
    apply_layout (self, layout_for_width (width));
}

/* The orientation's choices cut with "…" in the header when it is
 * narrow; whole in the list. */
static void
setup_choice (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 7);
  gtk_list_item_set_child (item, label);
}

static void
bind_choice (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (gtk_list_item_get_item (item)));
}

void
_komi_review_window_class_init_layout (GtkWidgetClass *widget_class)
{
  widget_class->measure = komi_review_window_measure;
  widget_class->size_allocate = komi_review_window_size_allocate;
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, content_box);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, moves_scroller);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, side_box);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, calls_scroller);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, header_nav);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, bottom_bar);
}

void
_komi_review_window_init_layout (KomiReviewWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_choice), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_choice), NULL);
  gtk_drop_down_set_factory (self->orientation_dropdown, factory);
  apply_layout (self, LAYOUT_WIDE);
  g_signal_connect (self, "notify::default-width", G_CALLBACK (on_default_width), NULL);
}

void
_komi_review_window_dispose_layout (KomiReviewWindow *self)
{
  g_clear_handle_id (&self->layout_source, g_source_remove);
}

const char *
_komi_review_window_get_layout (KomiReviewWindow *self)
{
  return layout_names[self->layout];
}
