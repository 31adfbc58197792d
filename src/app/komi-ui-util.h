/* komi-ui-util.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "komi-board-view.h"
#include "komi-library.h"

G_BEGIN_DECLS

/* The text of one cell for @item (a row of the view's model); a new string. */
typedef char *(*KomiCellTextFunc) (gpointer item);

typedef enum
{
  KOMI_CELL_NUMERIC = 1 << 0,   /* right-aligned, tabular figures */
  KOMI_CELL_WRAP    = 1 << 1,   /* long text wraps instead of being ellipsized */
  KOMI_CELL_TOOLTIP = 1 << 2,   /* the whole text in a tooltip, however short: for
                                 * narrow columns ("W+88 (turn limit)") */
  KOMI_CELL_WHOLE   = 1 << 3,   /* never cut: short cells (dates, figures) the
                                 * expanding columns give way to */
  KOMI_CELL_PLAYER  = 1 << 4,   /* the text is a player's spec: shown by the player's
                                 * name (komi_player_display_name()), the spec (a
                                 * model's profile path) in the tooltip */
} KomiCellFlags;

/* Appends a column of labels to @view whose text @func gives for each row. */
GtkColumnViewColumn *komi_column_view_add_text (GtkColumnView    *view,
                                                const char       *title,
                                                KomiCellTextFunc  func,
                                                gboolean          expand,
                                                KomiCellFlags     flags);

/* A column as data, for tables of columns; @title is marked with N_(). */
typedef struct
{
  const char       *title;
  KomiCellTextFunc  func;
  gboolean          expand;
  KomiCellFlags     flags;
  KomiCellTextFunc  tooltip;   /* or NULL; else a row's text for its cell's tooltip
                                * (NULL for a row: the usual tooltip) */
} KomiColumn;

void                 komi_column_view_add_columns (GtkColumnView    *view,
                                                   const KomiColumn *columns,
                                                   guint             n_columns);

/* The position after @step of @replay on @view: stones, the last move,
 * move numbers, and at the last step of a counted game the referee's dead
 * stones and area. Returns the last move's point (KOMI_PASS, or
 * KOMI_NO_POINT at the start). */
KomiPoint            komi_board_view_show_replay  (KomiBoardView    *view,
                                                   const KomiReplay *replay,
                                                   guint             step);

/* At a move @analysis calls a mistake or a blunder (its own thresholds),
 * the engine's better move marked on @view; otherwise no mark. @step is
 * the position shown: the move that led to it is judged. */
void                 komi_board_view_show_best_move (KomiBoardView           *view,
                                                     const KomiStoreAnalysis *analysis,
                                                     guint                    step);

/* Whether the widgets Komi draws itself with cairo (the board, the score
 * graph, the ladder's scale) paint their dark palette: libadwaita's style
 * manager's answer, the desktop's preference unless Preferences force a
 * theme. The one place that decides. */
gboolean             komi_style_is_dark           (void);
/* Calls @changed (@widget) each time komi_style_is_dark() changes, until
 * @widget is finalized; G_CALLBACK (gtk_widget_queue_draw) for a widget that
 * reads komi_style_is_dark() as it draws. */
void                 komi_style_watch_dark        (GtkWidget       *widget,
                                                   GCallback        changed);

/* An orientation as a person reads it: "Turned 90° clockwise". */
const char          *komi_orientation_display_name (KomiOrientation orientation);
/* The frame a board is drawn in, said beside it: "As recorded", "As the
 * model saw it (Turned 90° clockwise)", "Mirrored left to right from the
 * record"; @model is how the game was turned for the model, and
 * @has_model FALSE for a game no model played (no "as the model saw it").
 * Every point name next to that board is in this frame. */
char                *komi_frame_text              (KomiOrientation  shown,
                                                   KomiOrientation  model,
                                                   gboolean         has_model);

/* A row under @row in its boxed list (an AdwPreferencesGroup's), for the
 * field's own error: hidden until komi_form_show_error() shows it. */
GtkWidget           *komi_form_add_error_row      (GtkWidget        *row);
/* Shows @problem under @row (in @error_row) and marks @row, when @problem
 * is not NULL and @shown; else hides and unmarks them. */
void                 komi_form_show_error         (GtkWidget        *row,
                                                   GtkWidget        *error_row,
                                                   const char       *problem,
                                                   gboolean          shown);
/* The first of @n fields (@rows) whose error shows under it (in
 * @error_rows) gets the focus, which scrolls it into view; FALSE when no
 * error shows. */
gboolean             komi_form_focus_first_error  (GtkWidget *const *rows,
                                                   GtkWidget *const *error_rows,
                                                   guint             n);

/* A spin button that refuses a figure out of its range instead of
 * clamping it (99 does not become 10): the value stays as it was, the
 * field is marked, and @message (a label, or the action row the button is
 * in: its subtitle) says the range, "@what must be from 0 to 10, not 99",
 * until a good figure is set. */
void                 komi_spin_button_refuse_out_of_range (GtkSpinButton *spin,
                                                           const char    *what,
                                                           GtkWidget     *message);
/* The message komi_spin_button_refuse_out_of_range() shows, NULL when
 * none does (for tests). */
const char          *komi_spin_button_get_refusal         (GtkSpinButton *spin);

/* A worker thread's progress through games (publish, verify), handed to
 * the main thread: the worker reports with komi_games_progress_report()
 * (a progress callback's signature, @progress as its data), a timeout on
 * the main thread shows it on a bar with komi_games_progress_show(). */
typedef struct
{
  gint done;
  gint total;
} KomiGamesProgress;

void                 komi_games_progress_report (guint                    done,
                                                 guint                    total,
                                                 gpointer                 progress);
/* "@done of @total games" on @bar; it pulses while the total is not known. */
void                 komi_games_progress_show   (KomiGamesProgress       *progress,
                                                 GtkProgressBar          *bar);

G_END_DECLS
