/* komi-series-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "komi-board-view.h"
#include "komi-player-names.h"
#include "komi-series-page-private.h"
#include "komi-series-columns.h"
#include "komi-ui-util.h"


G_DEFINE_FINAL_TYPE (KomiSeriesPage, komi_series_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_LIBRARY,
  PROP_ORIENTATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SELECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The series or the game shown changed: what can be exported did. */
void
_komi_series_page_selection_changed (KomiSeriesPage *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

/* Every point named beside the board follows it. */
static void
on_board_orientation (KomiSeriesPage *self)
{
  komi_analysis_panel_set_orientation (self->analysis_panel,
                                       komi_board_view_get_orientation (self->board_view));
  if (self->replay != NULL)
    _komi_series_page_show_step (self, self->step);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIENTATION]);
}

static void
on_series_selected (KomiSeriesPage *self)
{
  KomiSeriesItem *item = gtk_single_selection_get_selected_item (self->series_selection);
  g_autoptr(GtkNoSelection) results = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *played = NULL;
  g_autofree char *when = NULL;
  g_autofree char *subject = NULL;
  g_autoptr(GDateTime) created = NULL;

  _komi_series_page_selection_changed (self);
  if (item == NULL)
    {
      gtk_stack_set_visible_child_name (self->detail_stack, "empty");
      gtk_column_view_set_model (self->results_view, NULL);
      gtk_single_selection_set_model (self->games_selection, NULL);
      return;
    }
  created = g_date_time_new_from_iso8601 (item->series->created, NULL);
  when = created != NULL ? g_date_time_format (created, "%Y-%m-%d %H:%M UTC")
                         : g_strdup (item->series->created);
  subject = komi_player_display_name (item->series->subject);
  subtitle = g_strdup_printf (_("Subject %s · Protocol %u · seed %" PRIu64
                                " · referee %s · created %s"),
                              subject, item->series->protocol,
                              item->series->seed, item->series->referee, when);
  if (!_komi_series_page_reloading (self))
    {
      self->selected_id = item->series->id;
      /* Folded, the list covers the detail: a choice closes it. */
      if (adw_flap_get_folded (self->flap))
        adw_flap_set_reveal_flap (self->flap, FALSE);
    }
  played = komi_series_item_describe (item);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->continue_button), "x",
                                    item->series->id);
  gtk_widget_set_visible (GTK_WIDGET (self->continue_button), item->series->n_unfinished > 0);
  gtk_label_set_text (self->title_label, item->series->name);
  gtk_label_set_text (self->subtitle_label, subtitle);
  gtk_progress_bar_set_fraction (self->progress_bar, komi_series_item_get_fraction (item));
  gtk_label_set_text (self->progress_label, played);
  results = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (item->results)));
  gtk_column_view_set_model (self->results_view, GTK_SELECTION_MODEL (results));
  gtk_single_selection_set_model (self->games_selection, G_LIST_MODEL (item->games));
  gtk_stack_set_visible_child_name (self->detail_stack, "detail");
}

/* Library */

/* After a reload (a series running writes games all the time) the same
 * series and game stay selected. */
static void
reselect (KomiSeriesPage *self)
{
  GListModel *series = G_LIST_MODEL (self->series_selection);
  guint game = self->selected_game;

  for (guint i = 0; i < g_list_model_get_n_items (series); i++)
    {
      g_autoptr(KomiSeriesItem) item = g_list_model_get_item (series, i);

      if (item->series->id != self->selected_id)
        continue;
      /* Restoring what was shown is not the user's choice. */
      self->moving_on = TRUE;
      if (gtk_single_selection_get_selected (self->series_selection) != i)
        gtk_single_selection_set_selected (self->series_selection, i);
      if (game < g_list_model_get_n_items (G_LIST_MODEL (self->games_selection)))
        gtk_single_selection_set_selected (self->games_selection, game);
      self->moving_on = FALSE;
      self->selected_game = game;
      break;
    }
  /* Following, the game followed: it may have started since the read. */
  _komi_series_page_select_followed (self);
  /* The rows are new: the game selected is shown, unless it is already. */
  self->moving_on = TRUE;
  _komi_series_page_game_selected (self);
  self->moving_on = FALSE;
}

static void
on_library_state (KomiSeriesPage *self)
{
  const char *message = komi_library_get_message (self->library);

  if (message != NULL)
    adw_status_page_set_description (self->empty_page, message);
  if (komi_library_get_state (self->library) == KOMI_LIBRARY_STATE_READY)
    reselect (self);
}

void
komi_series_page_set_library (KomiSeriesPage *self,
                              KomiLibrary    *library)
{
  g_return_if_fail (KOMI_IS_SERIES_PAGE (self));
  g_return_if_fail (library == NULL || KOMI_IS_LIBRARY (library));

  if (self->library == library)
    return;
  g_set_object (&self->library, library);
  gtk_single_selection_set_model (self->series_selection,
                                  library ? komi_library_get_series (library) : NULL);
  g_signal_group_set_target (self->library_signals, library);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIBRARY]);
}

KomiLibrary *
komi_series_page_get_library (KomiSeriesPage *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), NULL);
  return self->library;
}

KomiBoardView *
komi_series_page_get_board_view (KomiSeriesPage *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), NULL);
  return self->board_view;
}

const KomiReplay *
komi_series_page_get_replay (KomiSeriesPage *self,
                             guint          *step)
{
  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), NULL);
  if (step != NULL)
    *step = self->step;
  return self->replay;
}

gint64
komi_series_page_get_series_id (KomiSeriesPage *self)
{
  KomiSeriesItem *item;

  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), 0);
  item = gtk_single_selection_get_selected_item (self->series_selection);
  return item != NULL ? item->series->id : 0;
}

gboolean
komi_series_page_has_played (KomiSeriesPage *self)
{
  KomiSeriesItem *item;

  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), FALSE);
  item = gtk_single_selection_get_selected_item (self->series_selection);
  for (guint i = 0; item != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (item->games)); i++)
    {
      g_autoptr(KomiGameItem) game = g_list_model_get_item (G_LIST_MODEL (item->games), i);

      if (game->game->status != KOMI_GAME_STATUS_PENDING)
        return TRUE;
    }
  return FALSE;
}

KomiAnalysisPanel *
komi_series_page_get_analysis_panel (KomiSeriesPage *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), NULL);
  return self->analysis_panel;
}

gboolean
komi_series_page_select (KomiSeriesPage *self,
                         guint           series,
                         guint           game)
{
  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), FALSE);

  if (series >= g_list_model_get_n_items (G_LIST_MODEL (self->series_selection)))
    return FALSE;
  gtk_single_selection_set_selected (self->series_selection, series);
  if (game >= g_list_model_get_n_items (G_LIST_MODEL (self->games_selection)))
    return FALSE;
  gtk_single_selection_set_selected (self->games_selection, game);
  return TRUE;
}

void
komi_series_page_follow_series (KomiSeriesPage *self,
                                gint64          series_id)
{
  g_return_if_fail (KOMI_IS_SERIES_PAGE (self));

  if (self->selected_id != series_id)
    {
      GtkWidget *page = gtk_stack_get_child_by_name (self->detail_stack, "detail");

      self->selected_game = 0;
      /* Another series: the live game in sight, as on a page seen for the
       * first time — the page at its top, the calls beside the board. */
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (page)),
                                0);
      gtk_stack_set_visible_child_name (self->side_stack, "calls");
    }
  self->selected_id = series_id;
  komi_live_run_set_following (self->live, TRUE);
}

KomiLiveRun *
komi_series_page_get_live_run (KomiSeriesPage *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_PAGE (self), NULL);
  return self->live;
}

static void
komi_series_page_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  KomiSeriesPage *self = KOMI_SERIES_PAGE (object);

  switch (prop_id)
    {
    case PROP_LIBRARY: g_value_set_object (value, self->library); break;
    case PROP_ORIENTATION:
      g_value_set_uint (value, komi_board_view_get_orientation (self->board_view));
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_series_page_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  KomiSeriesPage *self = KOMI_SERIES_PAGE (object);

  switch (prop_id)
    {
    case PROP_LIBRARY: komi_series_page_set_library (self, g_value_get_object (value)); break;
    case PROP_ORIENTATION:
      /* The board's own notify is forwarded (see init). */
      komi_board_view_set_orientation (self->board_view, g_value_get_uint (value));
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_series_page_dispose (GObject *object)
{
  KomiSeriesPage *self = KOMI_SERIES_PAGE (object);

  g_cancellable_cancel (self->game_cancellable);
  g_clear_object (&self->game_cancellable);
  g_clear_handle_id (&self->elsewhere_source, g_source_remove);
  g_clear_handle_id (&self->layout_source, g_source_remove);
  g_clear_object (&self->library_signals);
  g_clear_object (&self->library);
  g_clear_pointer (&self->replay, komi_replay_free);
  if (self->live != NULL)
    g_signal_handlers_disconnect_by_data (self->live, self);
  g_clear_object (&self->live);
  g_clear_object (&self->series_selection);
  g_clear_object (&self->games_selection);
  G_OBJECT_CLASS (komi_series_page_parent_class)->dispose (object);
}

static void
komi_series_page_class_init (KomiSeriesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = komi_series_page_get_property;
  object_class->set_property = komi_series_page_set_property;
  object_class->dispose = komi_series_page_dispose;

  properties[PROP_LIBRARY] =
    g_param_spec_object ("library", NULL, NULL, KOMI_TYPE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* How the board is turned (the review.orientation action's state). */
  properties[PROP_ORIENTATION] =
    g_param_spec_uint ("orientation", NULL, NULL, 0, KOMI_N_ORIENTATIONS - 1, 0,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* The series selected, or the game shown, changed. */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (KOMI_TYPE_BOARD_VIEW);
  g_type_ensure (KOMI_TYPE_ANALYSIS_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-series-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, flap);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, series_list);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, detail_stack);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, progress_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, continue_button);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, results_view);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, games_view);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, board_view);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, move_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, played_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, step_box);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, board_tools);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, frame_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, side_stack);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, analysis_panel);
  _komi_series_page_class_init_layout (widget_class);

  _komi_series_page_class_init_game (widget_class);
  gtk_widget_class_install_property_action (widget_class, "review.orientation", "orientation");
}

static void
komi_series_page_init (KomiSeriesPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->library_signals = g_signal_group_new (KOMI_TYPE_LIBRARY);
  g_signal_group_connect_swapped (self->library_signals, "notify::state",
                                  G_CALLBACK (on_library_state), self);
  self->live = komi_live_run_new ();
  _komi_series_page_init_layout (self);
  _komi_series_page_add_shortcuts (self);
  /* The target before the name, so the action never sees a button without
   * the series id it takes. */
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->continue_button), "x", (gint64) 0);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->continue_button),
                                  "win.continue-series");

  self->series_selection = gtk_single_selection_new (NULL);
  g_signal_connect_swapped (self->series_selection, "notify::selected-item",
                            G_CALLBACK (on_series_selected), self);
  _komi_series_page_set_series_rows (self->series_list);
  gtk_list_view_set_model (self->series_list, GTK_SELECTION_MODEL (self->series_selection));

  self->games_selection = gtk_single_selection_new (NULL);
  gtk_column_view_set_model (self->games_view, GTK_SELECTION_MODEL (self->games_selection));
  _komi_series_page_add_columns (self->results_view, self->games_view, self->live);
  _komi_series_page_init_game (self);
  g_signal_connect_swapped (self->board_view, "notify::orientation",
                            G_CALLBACK (on_board_orientation), self);
}
