/* komi-series-columns.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Fills the series page's table of results per opponent and its list of
 * games with their columns. */
void _komi_series_page_add_columns (GtkColumnView *results,
                                    GtkColumnView *games);

G_END_DECLS
