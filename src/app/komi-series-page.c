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

static void show_step (KomiSeriesPage *self, guint step);

/* Every point named beside the board follows it. */
static void
on_board_orientation (KomiSeriesPage *self)
{
  komi_analysis_panel_set_orientation (self->analysis_panel,
                                       komi_board_view_get_orientation (self->board_view));
  if (self->replay != NULL)
    show_step (self, self->step);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIENTATION]);
}

/* Review: one position of the loaded game at a time */

/* A game row activated (double-click, Enter): the full review of it, in a
 * window of its own. */
static void
on_game_activated (KomiSeriesPage *self,
                   guint           position)
{
  g_autoptr(KomiGameItem) item = g_list_model_get_item (G_LIST_MODEL (self->games_selection),
                                                        position);

  if (item != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.review-game", "x", item->game->id);
}

static void
update_actions (KomiSeriesPage *self)
{
  gboolean loaded = self->replay != NULL;
  gboolean at_start = !loaded || self->step == 0;
  gboolean at_end = !loaded || self->step + 1 >= self->replay->n_steps;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.first-move", !at_start);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.previous-move", !at_start);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.next-move", !at_end);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.last-move", !at_end);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.players-view", loaded);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.open", loaded);
}


static void
show_step (KomiSeriesPage *self, guint step)
{
  const KomiReplay *r = self->replay;
  g_autofree char *text = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *summary = NULL;
  guint last = r->n_steps - 1;
  KomiOrientation turned = komi_board_view_get_orientation (self->board_view);
  g_autofree char *frame = komi_frame_text (turned, r->game->orientation);
  KomiPoint point;

  self->step = MIN (step, last);
  point = komi_board_view_show_replay (self->board_view, r, self->step);
  komi_board_view_show_best_move (self->board_view,
                                  komi_analysis_panel_get_analysis (self->analysis_panel),
                                  self->step);
  gtk_label_set_text (self->frame_label, frame);

  if (self->step == 0)
    text = g_strdup_printf (_("Start (%u moves)"), last);
  else if (point == KOMI_PASS)
    text = g_strdup_printf (_("Move %u of %u: pass"), self->step, last);
  else
    text = g_strdup_printf (_("Move %u of %u"), self->step, last);
  gtk_label_set_text (self->move_label, text);
  /* The count at the end; the model's calls for the move shown, and at
   * the latest position of a game in play those of the move being decided. */
  calls = self->step > 0 ? komi_replay_describe_calls (r, self->step, turned) : NULL;
  if (self->step == last && r->game->status == KOMI_GAME_STATUS_RUNNING)
    {
      /* The page reads the game once a second: the opponent's move may be
       * committed and not read yet, so the move being decided can be the
       * one after next. */
      g_autofree char *next = komi_replay_describe_calls (r, last + 1, turned);

      if (next == NULL)
        next = komi_replay_describe_calls (r, last + 2, turned);

      if (next != NULL)
        {
          g_autofree char *shown = g_steal_pointer (&calls);

          /* TRANSLATORS: %s is "Move 36: 2 model calls" and the calls. */
          calls = g_strdup_printf (_("%s%sNow deciding: %s"), shown != NULL ? shown : "",
                                   shown != NULL ? "\n\n" : "", next);
        }
    }
  summary = g_strdup_printf ("%s%s%s", self->step == last ? r->summary : "",
                             self->step == last && calls != NULL ? "\n" : "",
                             calls != NULL ? calls : "");
  gtk_label_set_text (self->summary_label, summary);
  komi_analysis_panel_set_step (self->analysis_panel, self->step);
  update_actions (self);
}

/* A move picked in the engine review's graph or list. */
static void
on_analysis_step (KomiSeriesPage *self, guint step)
{
  if (self->replay == NULL)
    return;
  self->follow_run = self->follow_run && step + 1 >= self->replay->n_steps;
  show_step (self, step);
}

/* An analysis read or made: its mark of the better move on the board. */
static void
on_analysis_changed (KomiSeriesPage *self)
{
  if (self->replay != NULL)
    komi_board_view_show_best_move (self->board_view,
                                    komi_analysis_panel_get_analysis (self->analysis_panel),
                                    self->step);
}

static void
review_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KomiSeriesPage *self = KOMI_SERIES_PAGE (widget);

  if (self->replay == NULL)
    return;
  if (g_str_equal (action_name, "review.open") && self->replay != NULL)
    gtk_widget_activate_action (widget, "win.review-game", "x", self->replay->game->id);
  else if (g_str_equal (action_name, "review.players-view"))
    g_object_set (self, "orientation", (guint) self->replay->game->orientation, NULL);
  else if (g_str_equal (action_name, "review.first-move"))
    {
      self->follow_run = FALSE;
      show_step (self, 0);
    }
  else if (g_str_equal (action_name, "review.previous-move") && self->step > 0)
    {
      self->follow_run = FALSE;
      show_step (self, self->step - 1);
    }
  else if (g_str_equal (action_name, "review.next-move"))
    show_step (self, self->step + 1);
  else if (g_str_equal (action_name, "review.last-move"))
    show_step (self, self->replay->n_steps - 1);
}

static void on_game_selected (KomiSeriesPage *self);
static void follow_next_game (KomiSeriesPage *self);
static gboolean follow_game (gpointer data);

/* The library's read of the game is in: calls it has answered are
 * dropped from the live ones, and the rest laid over it. */
static void
merge_live_calls (KomiSeriesPage *self)
{
  KomiReplay *r = self->replay;

  if (self->live_game != r->game->id)
    {
      g_ptr_array_set_size (self->live_calls, 0);
      self->live_game = r->game->id;
      return;
    }
  for (guint i = self->live_calls->len; i-- > 0;)
    {
      const KomiReplayCall *live = g_ptr_array_index (self->live_calls, i);
      gboolean stored = FALSE;

      for (guint j = 0; r->calls != NULL && j < r->calls->len && !stored; j++)
        {
          const KomiReplayCall *c = &g_array_index (r->calls, KomiReplayCall, j);

          stored = c->id == live->id && g_strcmp0 (c->outcome, KOMI_STORE_OUTCOME_IN_FLIGHT) != 0;
        }
      if (stored)
        g_ptr_array_remove_index (self->live_calls, i);
      else
        komi_replay_merge_call (r, live);
    }
}

void
komi_series_page_add_live_call (KomiSeriesPage       *self,
                                gint64                game_id,
                                const KomiReplayCall *call)
{
  KomiGameItem *item;

  g_return_if_fail (KOMI_IS_SERIES_PAGE (self));
  g_return_if_fail (call != NULL);

  /* Only the game shown: another one's calls are in the library by the
   * time it is chosen, but for the one its game has not written yet. */
  item = gtk_single_selection_get_selected_item (self->games_selection);
  if (item == NULL || item->game->id != game_id)
    return;
  if (self->live_game != game_id)
    {
      g_ptr_array_set_size (self->live_calls, 0);
      self->live_game = game_id;
    }
  g_ptr_array_add (self->live_calls, komi_replay_call_copy (call));
  if (self->replay == NULL || self->replay->game->id != game_id)
    return;   /* merged when its read comes in */
  komi_replay_merge_call (self->replay, call);
  show_step (self, self->step);
  /* A move the page has not read yet came before it: read the game now,
   * not at the next second, so the board catches up with the call. */
  if (call->turn > self->replay->n_steps && self->follow_source != 0)
    {
      g_source_remove (self->follow_source);
      self->follow_source = g_idle_add (follow_game, self);
    }
}

/* A game still being played is read again every second: the board follows
 * it while the user stays at its latest move. */
static gboolean
follow_game (gpointer data)
{
  KomiSeriesPage *self = data;

  self->follow_source = 0;
  on_game_selected (self);
  return G_SOURCE_REMOVE;
}

static void
on_game_loaded (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(KomiSeriesPage) self = user_data;
  g_autoptr(GError) error = NULL;
  KomiReplay *replay = komi_library_load_game_finish (KOMI_LIBRARY (source), result, &error);
  KomiGameStatus status;
  guint step;

  if (replay == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->summary_label, error->message);
      return;
    }
  /* Stay on the move the user stepped to, unless it was the latest. */
  step = self->replay != NULL && self->replay->game->id == replay->game->id
         && self->step + 1 < self->replay->n_steps ? self->step : replay->n_steps - 1;
  g_clear_pointer (&self->replay, komi_replay_free);
  self->replay = replay;
  status = replay->game->status;
  merge_live_calls (self);
  show_step (self, step);
  if (status == KOMI_GAME_STATUS_RUNNING)
    {
      if (step + 1 >= replay->n_steps)
        self->follow_run = TRUE;
      self->next_deadline = 0;
    }
  else if (self->follow_run && status == KOMI_GAME_STATUS_PENDING)
    {
      /* The next game, not started yet: read it again until it is, for
       * ten seconds at the most (the run may have stopped). */
      if (self->next_deadline == 0)
        self->next_deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
      else if (g_get_monotonic_time () > self->next_deadline)
        self->follow_run = FALSE;
    }
  else if (self->follow_run)
    {
      follow_next_game (self);   /* the game watched has ended; replay is gone */
      return;
    }
  if ((status == KOMI_GAME_STATUS_RUNNING
       || (self->follow_run && status == KOMI_GAME_STATUS_PENDING))
      && self->follow_source == 0)
    self->follow_source = g_timeout_add_seconds (1, follow_game, self);
}

/* The row of game @position in view. GTK 4.8 has no
 * gtk_column_view_scroll_to(); the column view's list answers the
 * "list.scroll-to-item" action GtkListBase installs. */
static void
scroll_to_game (KomiSeriesPage *self, guint position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->games_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
        return;
      }
}

/* The game watched has ended: show the series' next game, the first in
 * play, else the first still to be played (shown once it starts). With
 * none left, following ends. */
static void
follow_next_game (KomiSeriesPage *self)
{
  GListModel *games = G_LIST_MODEL (self->games_selection);
  gint64 shown = self->replay != NULL ? self->replay->game->id : 0;
  guint next = G_MAXUINT;

  for (guint i = 0; i < g_list_model_get_n_items (games); i++)
    {
      g_autoptr(KomiGameItem) item = g_list_model_get_item (games, i);

      if (item->game->id == shown)
        continue;
      if (item->game->status == KOMI_GAME_STATUS_RUNNING)
        {
          next = i;
          break;
        }
      if (item->game->status == KOMI_GAME_STATUS_PENDING && next == G_MAXUINT)
        next = i;
    }
  if (next == G_MAXUINT)
    {
      self->follow_run = FALSE;
      return;
    }
  self->next_deadline = 0;
  self->moving_on = TRUE;
  gtk_single_selection_set_selected (self->games_selection, next);
  self->moving_on = FALSE;
  scroll_to_game (self, next);
}

static gboolean
reloading (KomiSeriesPage *self)
{
  return self->library != NULL && komi_library_is_replacing (self->library);
}

static void
on_game_selected (KomiSeriesPage *self)
{
  KomiGameItem *item = gtk_single_selection_get_selected_item (self->games_selection);

  if (item != NULL && !reloading (self))
    self->selected_game = gtk_single_selection_get_selected (self->games_selection);
  /* A game the user picks is followed only if it is in play (on load). */
  if (!self->moving_on && !reloading (self)
      && (self->replay == NULL || item == NULL || self->replay->game->id != item->game->id))
    self->follow_run = FALSE;

  g_cancellable_cancel (self->game_cancellable);
  g_clear_object (&self->game_cancellable);
  g_clear_handle_id (&self->follow_source, g_source_remove);
  /* The replay shown stays until the new one arrives (no flicker while a
   * game is followed), unless another game was chosen. */
  if (self->replay != NULL && (item == NULL || self->replay->game->id != item->game->id))
    g_clear_pointer (&self->replay, komi_replay_free);
  update_actions (self);
  komi_analysis_panel_set_game (self->analysis_panel, item != NULL ? self->library : NULL,
                                item != NULL ? item->game->id : 0);
  if (item == NULL || self->library == NULL)
    {
      komi_board_view_set_position (self->board_view, 9, NULL, KOMI_NO_POINT);
      gtk_label_set_text (self->move_label, "");
      gtk_label_set_text (self->summary_label, "");
      return;
    }
  self->game_cancellable = g_cancellable_new ();
  komi_library_load_game_async (self->library, item->game->id, self->game_cancellable,
                                on_game_loaded, g_object_ref (self));
}

/* Series list rows */

static void
setup_series_row (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *progress = gtk_progress_bar_new ();
  GtkWidget *count = gtk_label_new (NULL);

  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_lines (GTK_LABEL (name), 2);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (name, "heading");
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (count), 0);
  gtk_widget_add_css_class (count, "caption");
  gtk_widget_add_css_class (count, "numeric");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), subtitle);
  gtk_box_append (GTK_BOX (box), progress);
  gtk_box_append (GTK_BOX (box), count);
  gtk_list_item_set_child (list_item, box);
}

/* "gnugo:1 against random, gnugo:5" */
static char *
describe_opponents (KomiSeriesItem *item)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GListModel *results = G_LIST_MODEL (item->results);
  g_autofree char *subject = komi_player_display_name (item->series->subject);

  for (guint i = 0; i < g_list_model_get_n_items (results); i++)
    {
      g_autoptr(KomiResultItem) row = g_list_model_get_item (results, i);

      g_autofree char *name = komi_player_display_name (row->opponent);

      g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", name);
    }
  return g_strdup_printf (_("%s against %s"), subject, text->str);
}

static void
bind_series_row (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  KomiSeriesItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *subtitle = gtk_widget_get_next_sibling (name);
  GtkWidget *progress = gtk_widget_get_next_sibling (subtitle);
  GtkWidget *count = gtk_widget_get_next_sibling (progress);
  g_autofree char *opponents = describe_opponents (item);
  g_autofree char *played = komi_series_item_describe (item);

  gtk_label_set_text (GTK_LABEL (name), item->series->name);
  gtk_label_set_text (GTK_LABEL (subtitle), opponents);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (progress),
                                 komi_series_item_get_fraction (item));
  gtk_label_set_text (GTK_LABEL (count), played);
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
  if (!reloading (self))
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
      if (self->follow_run && self->replay != NULL
          && self->replay->game->status != KOMI_GAME_STATUS_RUNNING
          && self->replay->game->status != KOMI_GAME_STATUS_PENDING)
        follow_next_game (self);   /* it ended before this read */
      return;
    }
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
  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_set_object (&self->library, library);
  gtk_single_selection_set_model (self->series_selection,
                                  library ? komi_library_get_series (library) : NULL);
  if (library != NULL)
    g_signal_connect_swapped (library, "notify::state", G_CALLBACK (on_library_state), self);
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
    self->selected_game = 0;
  self->selected_id = series_id;
  self->follow_run = TRUE;
  self->next_deadline = 0;
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
  g_clear_handle_id (&self->follow_source, g_source_remove);
  g_clear_handle_id (&self->layout_source, g_source_remove);
  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_clear_object (&self->library);
  g_clear_pointer (&self->replay, komi_replay_free);
  g_clear_pointer (&self->live_calls, g_ptr_array_unref);
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
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, frame_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, side_stack);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesPage, analysis_panel);
  _komi_series_page_class_init_layout (widget_class);

  gtk_widget_class_install_action (widget_class, "review.first-move", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.previous-move", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.next-move", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.last-move", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.players-view", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.open", NULL, review_activated);
  gtk_widget_class_install_property_action (widget_class, "review.orientation", "orientation");
}

static void
komi_series_page_init (KomiSeriesPage *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->live_calls = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_replay_call_free);
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
  g_signal_connect (factory, "setup", G_CALLBACK (setup_series_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_series_row), NULL);
  gtk_list_view_set_factory (self->series_list, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->series_list, GTK_SELECTION_MODEL (self->series_selection));

  self->games_selection = gtk_single_selection_new (NULL);
  g_signal_connect_swapped (self->games_selection, "notify::selected-item",
                            G_CALLBACK (on_game_selected), self);
  gtk_column_view_set_model (self->games_view, GTK_SELECTION_MODEL (self->games_selection));
  g_signal_connect_swapped (self->games_view, "activate", G_CALLBACK (on_game_activated), self);

  _komi_series_page_add_columns (self->results_view, self->games_view);
  /* The panel may outlive this page: a read of its analysis (a task that
   * holds it) can end after the window is gone. */
  g_signal_connect_object (self->analysis_panel, "step-activated",
                           G_CALLBACK (on_analysis_step), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->analysis_panel, "analysis-changed",
                           G_CALLBACK (on_analysis_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->board_view, "notify::orientation",
                            G_CALLBACK (on_board_orientation), self);
  update_actions (self);
}
