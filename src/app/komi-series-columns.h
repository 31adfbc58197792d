/* komi-series-columns.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "komi-live-run.h"

G_BEGIN_DECLS

/* Fills the series page's table of results per opponent and its list of
 * games with their columns; the games' Moves column counts the moves @live
 * tells of. */
void _komi_series_page_add_columns     (GtkColumnView *results,
                                        GtkColumnView *games,
                                        KomiLiveRun   *live);
/* The rows of the list of series: name, opponents and progress. */
void _komi_series_page_set_series_rows (GtkListView   *list);

G_END_DECLS
