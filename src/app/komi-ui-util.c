/* komi-ui-util.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "komi-player-names.h"
#include "komi-ui-util.h"

/* Long cells are ellipsized; the tooltip has them whole. It is asked for
 * when the pointer rests, never set on bind: in GTK 4.8 every
 * gtk_widget_set_tooltip_text() queries the pointer, an X round trip, and a
 * rebind of the visible rows made thousands of them (0.5–1 s per filter
 * change on a 10,000-game list). */
static gboolean
on_query_tooltip (GtkWidget  *label,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  KomiCellFlags flags = GPOINTER_TO_UINT (data);
  const char *text = gtk_label_get_text (GTK_LABEL (label));
  const char *note = g_object_get_data (G_OBJECT (label), "komi-cell-tooltip");

  if (note != NULL)
    {
      gtk_tooltip_set_text (tooltip, note);
      return TRUE;
    }
  if (text[0] == '\0')
    return FALSE;
  if (flags & KOMI_CELL_PLAYER)
    {
      const char *spec = g_object_get_data (G_OBJECT (label), "komi-player-spec");

      g_autofree char *both = NULL;

      if (spec == NULL)
        return FALSE;
      /* The name whole (it may be cut), then what the series names. */
      both = g_str_equal (text, spec) ? g_strdup (spec) : g_strdup_printf ("%s\n%s", text, spec);
      gtk_tooltip_set_text (tooltip, both);
      return TRUE;
    }
  if (!(flags & KOMI_CELL_TOOLTIP) && g_utf8_strlen (text, -1) <= 24
      && !pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))))
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
setup_label (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  data)
{
  KomiCellFlags flags = GPOINTER_TO_UINT (data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), (flags & KOMI_CELL_NUMERIC) ? 1.0f : 0.0f);
  if (flags & KOMI_CELL_WRAP)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_width_chars (GTK_LABEL (label), 30);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 80);
    }
  else if (!(flags & KOMI_CELL_WHOLE))
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (flags & KOMI_CELL_NUMERIC)
    gtk_widget_add_css_class (label, "numeric");
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (on_query_tooltip), data);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_label (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  KomiCellTextFunc func = g_object_get_data (G_OBJECT (factory), "komi-cell-func");
  KomiCellTextFunc note = g_object_get_data (G_OBJECT (factory), "komi-cell-tooltip");
  g_autofree char *text = func (gtk_list_item_get_item (list_item));
  GtkWidget *label = gtk_list_item_get_child (list_item);

  if (note != NULL)
    g_object_set_data_full (G_OBJECT (label), "komi-cell-tooltip",
                            note (gtk_list_item_get_item (list_item)), g_free);
  if (GPOINTER_TO_UINT (user_data) & KOMI_CELL_PLAYER)
    {
      char *spec = g_steal_pointer (&text);

      text = spec != NULL ? komi_player_display_name (spec) : NULL;
      g_object_set_data_full (G_OBJECT (label), "komi-player-spec", spec, g_free);
    }
  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
}

GtkColumnViewColumn *
komi_column_view_add_text (GtkColumnView    *view,
                           const char       *title,
                           KomiCellTextFunc  func,
                           gboolean          expand,
                           KomiCellFlags     flags)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_object_set_data (G_OBJECT (factory), "komi-cell-func", func);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GUINT_TO_POINTER (flags));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_label), GUINT_TO_POINTER (flags));
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (view, column);
  g_object_unref (column);
  return column;
}

void
komi_column_view_add_columns (GtkColumnView    *view,
                              const KomiColumn *columns,
                              guint             n_columns)
{
  for (guint i = 0; i < n_columns; i++)
    {
      GtkColumnViewColumn *column = komi_column_view_add_text (
        view, g_dgettext (GETTEXT_PACKAGE, columns[i].title), columns[i].func,
        columns[i].expand, columns[i].flags);

      g_object_set_data (G_OBJECT (gtk_column_view_column_get_factory (column)),
                         "komi-cell-tooltip", columns[i].tooltip);
    }
}

KomiPoint
komi_board_view_show_replay (KomiBoardView    *view,
                             const KomiReplay *r,
                             guint             step)
{
  g_autofree guint *numbers = g_new0 (guint, r->size * r->size);
  KomiPoint point = komi_replay_get_last_move (r, step);

  komi_board_view_set_position (view, r->size, komi_replay_get_colors (r, step), point);
  komi_replay_get_numbers (r, step, numbers);
  komi_board_view_set_numbers (view, numbers);
  /* The referee's judgement belongs to the final position only. */
  if (step + 1 == r->n_steps && r->game->counted)
    komi_board_view_set_marks (view, r->game->dead ? (const KomiPoint *) r->game->dead->data : NULL,
                               r->game->dead ? r->game->dead->len : 0, r->game->score.owner);
  return point;
}

void
komi_board_view_show_best_move (KomiBoardView           *view,
                                const KomiStoreAnalysis *analysis,
                                guint                    step)
{
  KomiPoint best = KOMI_NO_POINT;

  if (analysis != NULL && step >= 1 && step <= analysis->moves->len)
    {
      const KomiStoreAnalysisMove *m = &g_array_index (analysis->moves,
                                                       KomiStoreAnalysisMove, step - 1);

      if (komi_store_analysis_classify (analysis, m) != KOMI_MOVE_CLASS_GOOD
          && m->best >= 0 && m->best != m->point)
        best = m->best;
    }
  komi_board_view_set_best_move (view, best);
}

/* In enum order; the words of the series page's menu, so that the
 * application has one name for each. */
static const char *orientation_names[KOMI_N_ORIENTATIONS] = {
  N_("As recorded"), N_("Turned 90° clockwise"), N_("Turned 180°"),
  N_("Turned 90° anticlockwise"), N_("Mirrored left to right"), N_("Mirrored top to bottom"),
  N_("Mirrored in the A9–J1 diagonal"), N_("Mirrored in the A1–J9 diagonal"),
};

const char *
komi_orientation_display_name (KomiOrientation orientation)
{
  g_return_val_if_fail (orientation < KOMI_N_ORIENTATIONS, NULL);
  return _(orientation_names[orientation]);
}

gboolean
komi_style_is_dark (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

void
komi_style_watch_dark (GtkWidget *widget,
                       GCallback  changed)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  /* The style manager outlives every widget; the handler goes with @widget. */
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", changed, widget,
                           G_CONNECT_SWAPPED);
}

char *
komi_frame_text (KomiOrientation shown,
                 KomiOrientation model,
                 gboolean        has_model)
{
  g_return_val_if_fail (shown < KOMI_N_ORIENTATIONS && model < KOMI_N_ORIENTATIONS, NULL);

  if (has_model && shown == KOMI_ORIENTATION_IDENTITY && model == KOMI_ORIENTATION_IDENTITY)
    return g_strdup (_("As recorded, as the model saw it"));
  if (shown == KOMI_ORIENTATION_IDENTITY)
    return g_strdup (_("As recorded"));
  /* A game of engines alone: no model saw it. */
  if (has_model && shown == model)
    return g_strdup_printf (_("As the model saw it (%s)"), komi_orientation_display_name (shown));
  /* TRANSLATORS: %s is how the board is turned, "Mirrored left to right". */
  return g_strdup_printf (_("%s from the record"), komi_orientation_display_name (shown));
}

GtkWidget *
komi_form_add_error_row (GtkWidget *row)
{
  GtkWidget *error_row = g_object_new (ADW_TYPE_PREFERENCES_ROW, "activatable", FALSE,
                                       "focusable", FALSE, "visible", FALSE, NULL);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 6);
  gtk_widget_add_css_class (label, "error");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (error_row), label);
  gtk_list_box_insert (GTK_LIST_BOX (gtk_widget_get_parent (row)), error_row,
                       gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row)) + 1);
  return error_row;
}

void
komi_form_show_error (GtkWidget  *row,
                      GtkWidget  *error_row,
                      const char *problem,
                      gboolean    shown)
{
  GtkWidget *label = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (error_row));

  shown = shown && problem != NULL;
  gtk_label_set_text (GTK_LABEL (label), problem != NULL ? problem : "");
  gtk_widget_set_visible (error_row, shown);
  if (shown)
    gtk_widget_add_css_class (row, "error");
  else
    gtk_widget_remove_css_class (row, "error");
}

gboolean
komi_form_focus_first_error (GtkWidget *const *rows,
                             GtkWidget *const *error_rows,
                             guint             n)
{
  for (guint i = 0; i < n; i++)
    if (error_rows[i] != NULL && gtk_widget_get_visible (error_rows[i]))
      {
        gtk_widget_grab_focus (rows[i]);
        return TRUE;
      }
  return FALSE;
}

/* Spin buttons that refuse */

/* @message: a label (shown with the text, hidden after) or an action row
 * (its subtitle says it, then what it said before). */
static void
refusal_show (GtkSpinButton *spin, const char *text)
{
  GtkWidget *message = g_object_get_data (G_OBJECT (spin), "komi-refusal-widget");

  if (text != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (spin), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (spin), "error");
  g_object_set_data_full (G_OBJECT (spin), "komi-refusal-text", g_strdup (text), g_free);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text != NULL ? text : "", -1);
  if (GTK_IS_LABEL (message))
    {
      gtk_label_set_text (GTK_LABEL (message), text != NULL ? text : "");
      gtk_widget_set_visible (message, text != NULL);
    }
  else if (ADW_IS_ACTION_ROW (message))
    {
      const char *before = g_object_get_data (G_OBJECT (spin), "komi-refusal-before");

      if (text != NULL && before == NULL)
        g_object_set_data_full (G_OBJECT (spin), "komi-refusal-before",
                                g_strdup (adw_action_row_get_subtitle (ADW_ACTION_ROW (message))),
                                g_free);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (message), text != NULL ? text
                                   : before != NULL ? before : "");
      if (text != NULL)
        gtk_widget_add_css_class (message, "error");
      else
        gtk_widget_remove_css_class (message, "error");
    }
}

static char *
format_bound (GtkSpinButton *spin, double value)
{
  return g_strdup_printf ("%.*f", (int) gtk_spin_button_get_digits (spin), value);
}

static int
on_refusing_input (GtkSpinButton *spin, double *new_value, gpointer data)
{
  const char *what = data;
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (spin))));
  GtkAdjustment *adj = gtk_spin_button_get_adjustment (spin);
  char *end = NULL;
  double value = g_strtod (text, &end);
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;
  g_autofree char *message = NULL;

  /* Not a figure: GTK's own reading (which keeps the value). */
  if (end == text || *end != '\0')
    return FALSE;
  if (value >= gtk_adjustment_get_lower (adj) && value <= gtk_adjustment_get_upper (adj))
    {
      g_object_set_data (G_OBJECT (spin), "komi-refusal-kept", NULL);
      if (komi_spin_button_get_refusal (spin) != NULL)
        refusal_show (spin, NULL);
      *new_value = value;
      return TRUE;
    }
  low = format_bound (spin, gtk_adjustment_get_lower (adj));
  high = format_bound (spin, gtk_adjustment_get_upper (adj));
  /* TRANSLATORS: a setting, its least and greatest value, what was typed:
   * "Level must be from 0 to 10, not 99". */
  message = g_strdup_printf (_("%s must be from %s to %s, not %s"), what, low, high, text);
  refusal_show (spin, message);
  /* GTK then puts the value kept back in the field, with "value-changed". */
  g_object_set_data_full (G_OBJECT (spin), "komi-refusal-kept",
                          g_memdup2 (&(double) { gtk_adjustment_get_value (adj) }, sizeof (double)),
                          g_free);
  return GTK_INPUT_ERROR;
}

/* The buttons and the keys step within the range: what they set is good. */
static void
on_refusing_value (GtkSpinButton *spin)
{
  const double *kept = g_object_get_data (G_OBJECT (spin), "komi-refusal-kept");

  if (komi_spin_button_get_refusal (spin) != NULL
      && (kept == NULL || *kept != gtk_spin_button_get_value (spin)))
    refusal_show (spin, NULL);
}

void
komi_spin_button_refuse_out_of_range (GtkSpinButton *spin,
                                      const char    *what,
                                      GtkWidget     *message)
{
  g_return_if_fail (GTK_IS_SPIN_BUTTON (spin));
  g_return_if_fail (message == NULL || GTK_IS_LABEL (message) || ADW_IS_ACTION_ROW (message));

  /* Out of range, the text goes back to the value kept. */
  gtk_spin_button_set_update_policy (spin, GTK_UPDATE_IF_VALID);
  g_object_set_data (G_OBJECT (spin), "komi-refusal-widget", message);
  g_signal_connect_data (spin, "input", G_CALLBACK (on_refusing_input), g_strdup (what),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  g_signal_connect (spin, "value-changed", G_CALLBACK (on_refusing_value), NULL);
}

const char *
komi_spin_button_get_refusal (GtkSpinButton *spin)
{
  g_return_val_if_fail (GTK_IS_SPIN_BUTTON (spin), NULL);
  return g_object_get_data (G_OBJECT (spin), "komi-refusal-text");
}

void
komi_games_progress_report (guint done, guint total, gpointer progress)
{
  KomiGamesProgress *p = progress;

  g_atomic_int_set (&p->total, (gint) total);
  g_atomic_int_set (&p->done, (gint) done);
}

void
komi_games_progress_show (KomiGamesProgress *progress, GtkProgressBar *bar)
{
  int total = g_atomic_int_get (&progress->total);
  int done = g_atomic_int_get (&progress->done);
  g_autofree char *text = NULL;

  if (total > 0)
    {
      text = g_strdup_printf (_("%d of %d games"), done, total);
      gtk_progress_bar_set_fraction (bar, (double) done / total);
      gtk_progress_bar_set_text (bar, text);
    }
  else
    gtk_progress_bar_pulse (bar);
}
