/* komi-ui-util.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The text of one cell for @item (a row of the view's model); a new string. */
typedef char *(*KomiCellTextFunc) (gpointer item);

/* Appends a column of labels to @view whose text @func gives for each row;
 * @numeric right-aligns it in tabular figures. */
GtkColumnViewColumn *komi_column_view_add_text (GtkColumnView    *view,
                                                const char       *title,
                                                KomiCellTextFunc  func,
                                                gboolean          expand,
                                                gboolean          numeric);

G_END_DECLS
