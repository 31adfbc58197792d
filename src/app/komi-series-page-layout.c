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

/* The board's buttons turn the board and number the moves too, but not
 * in one column: on a phone's 360 px the row would be wider than the
 * screen (the keys O and # still do both). */
static int
narrow_saving (KomiSeriesPage *self)
{
  GtkWidget *extras[] = { self->turn_button, self->numbers_button };
  int saving = 0;

  for (guint i = 0; i < G_N_ELEMENTS (extras); i++)
    {
      int min;

      gtk_widget_measure (extras[i], GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      /* The button and the row's spacing before it. */
      saving += min + 6;
    }
  return saving;
}

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
  gtk_widget_set_visible (self->turn_button, layout != LAYOUT_COLUMN);
  gtk_widget_set_visible (self->numbers_button, layout != LAYOUT_COLUMN);
  gtk_widget_set_hexpand (self->games_frame, layout != LAYOUT_ROW);
  gtk_widget_set_hexpand (self->calls_frame, layout != LAYOUT_ROW);
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

/* The list of series lies beside the page from this width of the page
 * on, over it below: the list's 240 px and the detail's two columns. Set
 * by the width alone: AdwFlap's own policy folds by the detail's minimum
 * width, which changes with the detail's layout, which follows the list:
 * the list opened over the detail could unfold beside it and squeeze it,
 * moving the board. */
#define LIST_BESIDE_WIDTH (240 + LAYOUT_TWO_WIDTH)

static AdwFlapFoldPolicy
fold_for_width (KomiSeriesPage *self)
{
  return gtk_widget_get_width (GTK_WIDGET (self)) >= LIST_BESIDE_WIDTH
         ? ADW_FLAP_FOLD_POLICY_NEVER : ADW_FLAP_FOLD_POLICY_ALWAYS;
}

static gboolean
apply_layout_later (gpointer data)
{
  KomiSeriesPage *self = data;

  self->layout_source = 0;
  if (adw_flap_get_fold_policy (self->flap) != fold_for_width (self))
    adw_flap_set_fold_policy (self->flap, fold_for_width (self));
  apply_layout (self, layout_for_width (self));
  return G_SOURCE_REMOVE;
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
  /* Narrower than the list beside the detail, the list folds over it. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL
      && adw_flap_get_fold_policy (self->flap) == ADW_FLAP_FOLD_POLICY_NEVER)
    {
      GtkWidget *list = adw_flap_get_flap (self->flap);
      GtkWidget *separator = adw_flap_get_separator (self->flap);
      int list_min = 0, separator_min = 0;

      if (list != NULL)
        gtk_widget_measure (list, orientation, -1, &list_min, NULL, NULL, NULL);
      if (separator != NULL)
        gtk_widget_measure (separator, orientation, -1, &separator_min, NULL, NULL, NULL);
      *minimum = MAX (0, *minimum - list_min - separator_min);
    }
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

          gtk_widget_measure (parts[i], orientation, -1, &part_min, NULL, NULL, NULL);
          /* One under another the board's row of buttons is shorter. */
          if (parts[i] == self->board_box)
            part_min -= narrow_saving (self);
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
  if ((layout_for_width (self) != self->layout
       || adw_flap_get_fold_policy (self->flap) != fold_for_width (self))
      && self->layout_source == 0)
    /* Before the next frame is drawn. */
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
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, turn_button);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, numbers_button);
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
  apply_layout (self, LAYOUT_TWO);
}
