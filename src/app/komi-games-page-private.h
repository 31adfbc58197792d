/* komi-games-page-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-games-columns.h"
#include "komi-games-page.h"
#include "komi-ui-util.h"
#include "komi-verify.h"

G_BEGIN_DECLS

struct _KomiGamesPage
{
  AdwBin               parent_instance;

  KomiLibrary         *library;
  GSignalGroup        *library_signals;
  GtkCustomFilter     *filter;
  GtkFilterListModel  *filtered;
  GtkSortListModel    *sorted;
  GArray              *series_ids;   /* gint64, one per series_drop entry after "all" */
  gboolean             rebuilding;   /* the dropdowns' lists are being replaced */

  /* What the filter asks for, read from the widgets on each change. */
  gint64               want_series;  /* -1: any */
  char                *want_player;
  char                *want_opponent;
  KomiColor            want_colour;  /* KOMI_EMPTY: either */
  KomiGameOutcome      want_outcome; /* NONE: any */
  KomiGameEnding       want_ending;  /* NONE: any */
  char                *want_text;    /* ASCII-folded; NULL: none */

  GtkStack            *stack;
  GtkStack            *results_stack;
  GtkSearchEntry      *search_entry;
  GtkDropDown         *series_drop;
  GtkDropDown         *player_drop;
  GtkDropDown         *opponent_drop;
  GtkDropDown         *colour_drop;
  GtkDropDown         *result_drop;
  GtkDropDown         *end_drop;
  GtkLabel            *count_label;
  GtkColumnView       *view;
  GtkButton           *clear_button;
  GtkButton           *export_button;
  GtkMultiSelection   *selection;    /* over sorted: rows picked for export */

  /* komi-games-page-verify.c */
  GtkRevealer         *verify_revealer;
  GtkLabel            *verify_label;
  GtkProgressBar      *verify_bar;
  GtkButton           *verify_cancel;
  GtkButton           *verify_close;
  GtkColumnViewColumn *verify_column;  /* hidden until a library is verified */
  GHashTable          *verified;       /* game id (gint64*) → KomiVerifiedGame* */
  GHashTable          *verify_cells;   /* GtkListItem* bound in the column (a set) */
  GCancellable        *verify_cancellable;  /* while verifying */
  guint                verify_tick;
  KomiGamesProgress    verify_progress;  /* written by the worker, read by the tick */
};


/* komi-games-page-verify.c: Verify Library's column, progress and findings. */
void _komi_games_page_class_init_verify (GtkWidgetClass *widget_class);
void _komi_games_page_init_verify       (KomiGamesPage  *self);
void _komi_games_page_dispose_verify    (KomiGamesPage  *self);
/* Another library: the findings were of the one before. */
void _komi_games_page_forget_verify     (KomiGamesPage  *self);

G_END_DECLS
