/* komi-series-page-layout.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include "komi-series-page-private.h"

/* The game followed on the series page — its list, its board and the calls
 * of the move shown — in one row, in two or in one column, as the page's
 * width allows, so that on a 1366x768 screen the board and the calls are
 * both in view without scrolling. */

/* How the game followed is laid out, by the width of the detail. */
typedef enum
{
  LAYOUT_COLUMN,   /* narrow: list, board and calls one under another */
  LAYOUT_TWO,      /* list over calls, the board beside both */
  LAYOUT_ROW,      /* wide: list, board and calls side by side */
} Layout;

/* Widths of the detail (margins included) at which the next layout fits:
 * the games list needs about 340 px, the board 240 (and more to be of
 * use), the calls 320. */
#define LAYOUT_TWO_WIDTH 660
#define LAYOUT_ROW_WIDTH 1100

static void
place (KomiSeriesPage *self, GtkWidget *child, int column, int row, int height)
{
  GtkLayoutManager *manager = gtk_widget_get_layout_manager (GTK_WIDGET (self->live_grid));
  GtkGridLayoutChild *cell =
    GTK_GRID_LAYOUT_CHILD (gtk_layout_manager_get_layout_child (manager, child));

  gtk_grid_layout_child_set_column (cell, column);
  gtk_grid_layout_child_set_row (cell, row);
  gtk_grid_layout_child_set_row_span (cell, height);
}

/* The board's tools (turn it, number the moves) at the end of the row of
 * steps, or on a line of their own under it when the parts are one under
 * another: the row whole is wider than a phone's page (360 px less the
 * margins). */
static void
place_board_tools (KomiSeriesPage *self, gboolean under)
{
  GtkWidget *parent = gtk_widget_get_parent (self->board_tools);
  GtkWidget *target = under ? self->board_box : self->step_box;

  if (parent == target)
    return;
  g_object_ref (self->board_tools);
  gtk_box_remove (GTK_BOX (parent), self->board_tools);
  gtk_box_insert_child_after (GTK_BOX (target), self->board_tools,
                              under ? self->step_box : gtk_widget_get_last_child (target));
  g_object_unref (self->board_tools);
}

static void
apply_layout (KomiSeriesPage *self, Layout layout)
{
  self->layout = layout;
  switch (layout)
    {
    case LAYOUT_COLUMN:
      place (self, self->games_frame, 0, 0, 1);
      place (self, self->board_box, 0, 1, 1);
      place (self, self->calls_frame, 0, 2, 1);
      break;
    case LAYOUT_TWO:
      place (self, self->games_frame, 0, 0, 1);
      place (self, self->calls_frame, 0, 1, 1);
      place (self, self->board_box, 1, 0, 2);
      break;
    case LAYOUT_ROW:
      place (self, self->games_frame, 0, 0, 1);
      place (self, self->board_box, 1, 0, 1);
      place (self, self->calls_frame, 2, 0, 1);
      break;
    default:
      g_assert_not_reached ();
    }
  /* Stacked, the list would take all the height it is given. In a row,
   * the board takes the width the list and the calls do not need, so it
   * is as large as the height allows. */
  gtk_widget_set_size_request (self->games_frame, layout == LAYOUT_ROW ? 360 : -1,
                               layout == LAYOUT_COLUMN ? 200 : -1);
  gtk_widget_set_size_request (self->calls_frame, layout == LAYOUT_ROW ? 320 : -1, -1);
  gtk_widget_set_hexpand (self->games_frame, layout != LAYOUT_ROW);
  gtk_widget_set_hexpand (self->calls_frame, layout != LAYOUT_ROW);
  place_board_tools (self, layout == LAYOUT_COLUMN);
}

static Layout
layout_for_width (KomiSeriesPage *self)
{
  /* The page's width less the list beside it, not the detail's: given
   * less than its minimum, the flap would still allocate the detail that. */
  GtkWidget *list = adw_flap_get_flap (self->flap);
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  if (!adw_flap_get_folded (self->flap) && adw_flap_get_reveal_flap (self->flap) && list != NULL)
    width -= gtk_widget_get_width (list);

  return width >= LAYOUT_ROW_WIDTH ? LAYOUT_ROW
         : width >= LAYOUT_TWO_WIDTH ? LAYOUT_TWO : LAYOUT_COLUMN;
}

static gboolean
apply_layout_later (gpointer data)
{
  KomiSeriesPage *self = data;

  self->layout_source = 0;
  apply_layout (self, layout_for_width (self));
  return G_SOURCE_REMOVE;
}

/* The least width of @part one under another: without the width the
 * row's layout asks for it (apply_layout()), which would otherwise hold a
 * window that has been wide from going narrow again. */
static int
part_column_min (GtkWidget *part)
{
  int request, min, inner = 0;

  gtk_widget_measure (part, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  gtk_widget_get_size_request (part, &request, NULL);
  if (request <= 0)
    return min;
  for (GtkWidget *c = gtk_widget_get_first_child (part); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      int child_min;

      gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
      inner = MAX (inner, child_min);
    }
  /* A frame's border, 1 px each side. */
  return MIN (min, inner + (GTK_IS_FRAME (part) ? 2 : 0));
}

/* The layout follows the width (AdwBreakpoint is libadwaita 1.4): it is
 * changed after an allocation, never during one. The page has no layout
 * manager (AdwBin's would allocate without asking it), so it measures and
 * allocates its one child itself. */
static void
komi_series_page_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  KomiSeriesPage *self = KOMI_SERIES_PAGE (widget);

  gtk_widget_measure (adw_bin_get_child (ADW_BIN (widget)), orientation, for_size, minimum,
                      natural, minimum_baseline, natural_baseline);
  /* Laid out side by side, the game followed is as wide as its parts
   * together; one under another, as its widest part. The page may be
   * given the narrower width (down to a phone's 360 px): the layout
   * follows it after the allocation. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL && self->layout != LAYOUT_COLUMN)
    {
      GtkWidget *parts[] = { self->games_frame, self->board_box, self->calls_frame };
      int grid_min, column_min = 0;

      gtk_widget_measure (GTK_WIDGET (self->live_grid), orientation, -1, &grid_min, NULL,
                          NULL, NULL);
      for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
        {
          int part_min;

          part_min = part_column_min (parts[i]);
          /* One under another the board's tools are under the steps. */
          if (parts[i] == self->board_box
              && gtk_widget_get_parent (self->board_tools) == self->step_box)
            {
              int tools_min;

              gtk_widget_measure (self->board_tools, orientation, -1, &tools_min, NULL, NULL,
                                  NULL);
              part_min -= tools_min + gtk_box_get_spacing (GTK_BOX (self->step_box));
            }
          column_min = MAX (column_min, part_min);
        }
      if (grid_min > column_min)
        *minimum = MAX (0, *minimum - (grid_min - column_min));
    }
}

static GtkSizeRequestMode
komi_series_page_get_request_mode (GtkWidget *widget)
{
  return gtk_widget_get_request_mode (adw_bin_get_child (ADW_BIN (widget)));
}

static void
komi_series_page_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  KomiSeriesPage *self = KOMI_SERIES_PAGE (widget);

  gtk_widget_allocate (adw_bin_get_child (ADW_BIN (widget)), width, height, baseline, NULL);
  if (layout_for_width (self) != self->layout && self->layout_source == 0)
    /* Before the next frame is drawn: one frame at most in the old layout. */
    self->layout_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, apply_layout_later, self,
                                           NULL);
}

void
_komi_series_page_class_init_layout (GtkWidgetClass *widget_class)
{
  widget_class->get_request_mode = komi_series_page_get_request_mode;
  widget_class->measure = komi_series_page_measure;
  widget_class->size_allocate = komi_series_page_size_allocate;
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, live_grid);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, games_frame);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, board_box);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, calls_frame);
}

/* The list of series closes only where it lies over the page (folded):
 * beside the page, closing it would widen the page under the pointer, the
 * board sliding with the list, and the wider page would then fold the
 * list away. A swipe there does nothing, and a close from elsewhere is
 * undone before a frame is drawn. */
static void
on_reveal_flap (KomiSeriesPage *self)
{
  if (!adw_flap_get_folded (self->flap) && !adw_flap_get_reveal_flap (self->flap))
    adw_flap_set_reveal_flap (self->flap, TRUE);
  /* Folded already: the user (or a choice in the list) showed or hid it.
   * Folding hides it before the flap says it folded: not the user's. */
  else if (adw_flap_get_folded (self->flap) && self->was_folded)
    self->list_shown = adw_flap_get_reveal_flap (self->flap);
}

/* Folded, the list is shown or hidden as the user last left it (after a
 * restart too), not hidden whatever it was. */
static void
on_folded (KomiSeriesPage *self)
{
  self->was_folded = adw_flap_get_folded (self->flap);
  if (self->was_folded && adw_flap_get_reveal_flap (self->flap) != self->list_shown)
    adw_flap_set_reveal_flap (self->flap, self->list_shown);
}

gboolean
komi_series_page_get_list_shown (KomiSeriesPage *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), FALSE);
  return self->list_shown;
}

void
komi_series_page_set_list_shown (KomiSeriesPage *self,
                                 gboolean        shown)
{
  g_return_if_fail (KOMI_IS_SERIES_PAGE (self));
  self->list_shown = shown;
  if (adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, shown);
}

void
_komi_series_page_init_layout (KomiSeriesPage *self)
{
  gtk_widget_set_layout_manager (GTK_WIDGET (self), NULL);
  g_object_bind_property (self->flap, "folded", self->flap, "swipe-to-close",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->flap, "folded", self->flap, "swipe-to-open",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->flap, "notify::reveal-flap", G_CALLBACK (on_reveal_flap),
                            self);
  g_signal_connect_swapped (self->flap, "notify::folded", G_CALLBACK (on_folded), self);
  apply_layout (self, LAYOUT_TWO);
}
