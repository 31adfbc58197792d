/* komi-series-page-game.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-board-view.h"
#include "komi-coords.h"
#include "komi-orientation.h"
#include "komi-review-data.h"
#include "komi-series-page-private.h"
#include "komi-ui-util.h"

/* The game shown on the series page: one position of it at a time, kept
 * up to date by the run's events while it is in play (the library is read
 * when a game is picked, and once more when the one shown ends), and the
 * run followed from game to game. */

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
  _komi_series_page_selection_changed (self);
}


/* The game shown is in play in the window's run. */
static gboolean
shown_in_play (KomiSeriesPage *self)
{
  const KomiLiveGame *game;

  if (self->replay == NULL)
    return FALSE;
  game = komi_live_run_get_game (self->live, self->replay->game->id);
  return game != NULL ? game->playing : FALSE;
}

/* "Black C4", "White passes": the move that made the position shown, under
 * its number; @name NULL for a pass. */
static char *
played_text (KomiColor color, const char *name)
{
  if (name == NULL)
    return g_strdup (color == KOMI_BLACK ? _("Black passes") : _("White passes"));
  /* TRANSLATORS: the move that made the position shown: "Black C4". */
  return g_strdup_printf (color == KOMI_BLACK ? _("Black %s") : _("White %s"), name);
}

void
_komi_series_page_show_step (KomiSeriesPage *self, guint step)
{
  const KomiReplay *r = self->replay;
  g_autofree char *text = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *summary = NULL;
  guint last = r->n_steps - 1;
  KomiOrientation turned = komi_board_view_get_orientation (self->board_view);
  g_autofree char *frame = komi_frame_text (turned, r->game->orientation, r->calls != NULL);
  KomiPoint point;

  self->step = MIN (step, last);
  point = komi_board_view_show_replay (self->board_view, r, self->step);
  komi_board_view_show_best_move (self->board_view,
                                  komi_analysis_panel_get_analysis (self->analysis_panel),
                                  self->step);
  gtk_label_set_text (self->frame_label, frame);

  if (self->step == 0)
    text = g_strdup_printf (_("Start (%u moves)"), last);
  else
    text = g_strdup_printf (_("Move %u of %u"), self->step, last);
  gtk_label_set_text (self->move_label, text);
  {
    g_autofree char *played = NULL;

    if (self->step > 0)
      {
        KomiColor color = g_array_index (r->game->moves, KomiMove, self->step - 1).color;
        char name[KOMI_NAME_LEN + 1];

        /* The point named on the board as it is turned. */
        komi_point_to_name (r->size, point == KOMI_PASS ? point
                            : komi_orientation_apply (turned, r->size, point), name);
        played = played_text (color, point == KOMI_PASS ? NULL : name);
      }
    gtk_label_set_text (self->played_label, played != NULL ? played : "");
  }
  /* The count at the end; the model's calls for the move shown, and at
   * the latest position of a game in play those of the move being
   * decided (every move played is on the board: the run tells of each). */
  calls = self->step > 0 ? komi_replay_describe_calls (r, self->step, turned) : NULL;
  /* Not after its run stopped or died: nothing is being decided then. */
  if (self->step == last
      && (shown_in_play (self) || (r->game->status == KOMI_GAME_STATUS_RUNNING && !r->run_gone)))
    {
      g_autofree char *next = komi_replay_describe_calls (r, last + 1, turned);

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

/* The user moved to @step: at the latest position of a game in play the
 * page follows the run again; anywhere else it stays where it is. */
static void
step_to (KomiSeriesPage *self, guint step)
{
  if (step + 1 >= self->replay->n_steps && shown_in_play (self))
    komi_live_run_follow_game (self->live, self->replay->game->id);
  else
    komi_live_run_set_following (self->live, FALSE);
  _komi_series_page_show_step (self, step);
}

/* A move picked in the engine review's graph or list. */
static void
on_analysis_step (KomiSeriesPage *self, guint step)
{
  if (self->replay != NULL)
    step_to (self, step);
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
  if (g_str_equal (action_name, "review.open"))
    gtk_widget_activate_action (widget, "win.review-game", "x", self->replay->game->id);
  else if (g_str_equal (action_name, "review.players-view"))
    g_object_set (self, "orientation", (guint) self->replay->game->orientation, NULL);
  else if (g_str_equal (action_name, "review.first-move"))
    step_to (self, 0);
  else if (g_str_equal (action_name, "review.previous-move") && self->step > 0)
    step_to (self, self->step - 1);
  else if (g_str_equal (action_name, "review.next-move"))
    step_to (self, self->step + 1);
  else if (g_str_equal (action_name, "review.last-move"))
    step_to (self, self->replay->n_steps - 1);
}

static void load_shown (KomiSeriesPage *self, gint64 game_id);

/* The run's news of a game: the one shown takes its moves and calls as
 * they come (at its latest move it stays at the latest), and is read once
 * more when it ends, for its count and result. */
static void
on_live_game_changed (KomiSeriesPage *self,
                      gint64          game_id,
                      guint           kind)
{
  g_autoptr(GError) error = NULL;
  gboolean at_end;

  if (self->replay == NULL || self->replay->game->id != game_id)
    return;
  if (kind == KOMI_RUN_EVENT_GAME_FINISHED)
    {
      load_shown (self, game_id);
      return;
    }
  at_end = self->step + 1 >= self->replay->n_steps;
  if (!komi_live_run_update_replay (self->live, self->replay, &error))
    {
      gtk_label_set_text (self->summary_label, error->message);
      return;
    }
  _komi_series_page_show_step (self, at_end ? self->replay->n_steps - 1 : self->step);
}

/* The run is over (stopped, finished, failed): a game it left in play is
 * read again, so that nothing says a move is being decided. */
static void
on_live_over (KomiSeriesPage *self)
{
  if (komi_live_run_get_over (self->live) && self->replay != NULL
      && komi_live_run_get_game (self->live, self->replay->game->id) != NULL)
    load_shown (self, self->replay->game->id);
}

static gboolean
read_again (gpointer data)
{
  KomiSeriesPage *self = data;

  self->elsewhere_source = 0;
  if (self->replay != NULL)
    load_shown (self, self->replay->game->id);
  return G_SOURCE_REMOVE;
}

static void
on_game_loaded (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(KomiSeriesPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiReview) review = komi_review_load_finish (result, &error);
  KomiReplay *replay = review != NULL ? g_steal_pointer (&review->replay) : NULL;
  gboolean same;
  guint step;

  if (replay == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->summary_label, error->message);
      return;
    }
  /* What the run told since the read was made is laid over it. */
  if (!komi_live_run_update_replay (self->live, replay, &error))
    {
      gtk_label_set_text (self->summary_label, error->message);
      komi_replay_free (replay);
      return;
    }
  /* Stay on the move the user stepped to, unless it was the latest. */
  same = self->replay != NULL && self->replay->game->id == replay->game->id;
  step = same && self->step + 1 < self->replay->n_steps ? self->step : replay->n_steps - 1;
  g_clear_pointer (&self->replay, komi_replay_free);
  self->replay = replay;
  /* A game in play that the window's run does not play (a komi-cli run
   * writes it) tells the page nothing: it is read again each second. */
  if (replay->game->status == KOMI_GAME_STATUS_RUNNING
      && komi_live_run_get_game (self->live, replay->game->id) == NULL
      && self->elsewhere_source == 0)
    self->elsewhere_source = g_timeout_add_seconds (1, read_again, self);
  /* A game the user picks in play, at its latest move, is followed. */
  if (step + 1 >= replay->n_steps && shown_in_play (self))
    komi_live_run_follow_game (self->live, replay->game->id);
  _komi_series_page_show_step (self, step);
}

static void
load_shown (KomiSeriesPage *self, gint64 game_id)
{
  g_clear_handle_id (&self->elsewhere_source, g_source_remove);
  g_cancellable_cancel (self->game_cancellable);
  g_clear_object (&self->game_cancellable);
  self->game_cancellable = g_cancellable_new ();
  komi_review_load_async (self->library, game_id, KOMI_REVIEW_LOAD_DEFAULT,
                          self->game_cancellable, on_game_loaded, g_object_ref (self));
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

/* Following the run: the game the live state follows is selected (once
 * the library's list has its series). */
void
_komi_series_page_select_followed (KomiSeriesPage *self)
{
  GListModel *games = G_LIST_MODEL (self->games_selection);
  gint64 followed = komi_live_run_get_followed (self->live);

  if (!komi_live_run_get_following (self->live) || followed == 0)
    return;
  for (guint i = 0; i < g_list_model_get_n_items (games); i++)
    {
      g_autoptr(KomiGameItem) item = g_list_model_get_item (games, i);

      if (item->game->id != followed)
        continue;
      if (gtk_single_selection_get_selected (self->games_selection) != i)
        {
          self->moving_on = TRUE;
          gtk_single_selection_set_selected (self->games_selection, i);
          self->moving_on = FALSE;
          scroll_to_game (self, i);
        }
      self->selected_game = i;
      return;
    }
}

gboolean
_komi_series_page_reloading (KomiSeriesPage *self)
{
  return self->library != NULL && komi_library_is_replacing (self->library);
}

void
_komi_series_page_game_selected (KomiSeriesPage *self)
{
  KomiGameItem *item = gtk_single_selection_get_selected_item (self->games_selection);
  gboolean same = self->replay != NULL && item != NULL && self->replay->game->id == item->game->id;

  /* The rows a read replaces pass through the selection: what is shown
   * is settled once they are in (reselect). */
  if (_komi_series_page_reloading (self))
    return;
  if (item != NULL)
    {
      self->selected_game = gtk_single_selection_get_selected (self->games_selection);
      /* Whoever chose it (a click, the run moving on, a read of the
       * library, komi_series_page_select()), the game shown is in sight. */
      scroll_to_game (self, self->selected_game);
    }
  /* Another game the user picks stops following (a game in play is
   * followed again once it shows its latest move). */
  if (!self->moving_on && !same)
    komi_live_run_set_following (self->live, FALSE);
  /* The game shown already: the run keeps it up to date. */
  if (same)
    return;

  g_cancellable_cancel (self->game_cancellable);
  g_clear_object (&self->game_cancellable);
  g_clear_handle_id (&self->elsewhere_source, g_source_remove);
  g_clear_pointer (&self->replay, komi_replay_free);
  update_actions (self);
  komi_analysis_panel_set_game (self->analysis_panel, item != NULL ? self->library : NULL,
                                item != NULL ? item->game->id : 0);
  if (item == NULL || self->library == NULL)
    {
      komi_board_view_set_position (self->board_view, 9, NULL, KOMI_NO_POINT);
      gtk_label_set_text (self->move_label, "");
      gtk_label_set_text (self->played_label, "");
      gtk_label_set_text (self->summary_label, "");
      return;
    }
  load_shown (self, item->game->id);
}

static void
on_followed (KomiSeriesPage *self)
{
  if (!_komi_series_page_reloading (self))
    _komi_series_page_select_followed (self);
}

void
_komi_series_page_class_init_game (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "review.first-move", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.previous-move", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.next-move", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.last-move", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.players-view", NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.open", NULL, review_activated);
}

/* The step label as wide as its widest text, the move under it
 * included, so that the buttons around it do not move under the pointer
 * as the moves go by, a pass or not. */
static int
text_width (GtkLabel *label, const char *text)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (label), text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static void
fix_move_label (KomiSeriesPage *self)
{
  g_autofree char *start = g_strdup_printf (_("Start (%u moves)"), 888);
  g_autofree char *move = g_strdup_printf (_("Move %u of %u"), 888, 888);
  const char *steps[] = { start, move };
  KomiColor colors[] = { KOMI_BLACK, KOMI_WHITE };
  int widest = 0;

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    widest = MAX (widest, text_width (self->move_label, steps[i]));
  for (guint i = 0; i < G_N_ELEMENTS (colors); i++)
    {
      g_autofree char *pass = played_text (colors[i], NULL);
      g_autofree char *point = played_text (colors[i], "J9");

      widest = MAX (widest, text_width (self->played_label, pass));
      widest = MAX (widest, text_width (self->played_label, point));
    }
  gtk_widget_set_size_request (GTK_WIDGET (self->move_label), widest, -1);
  gtk_widget_set_size_request (GTK_WIDGET (self->played_label), widest, -1);
}

void
_komi_series_page_init_game (KomiSeriesPage *self)
{
  fix_move_label (self);
  g_signal_connect_swapped (self->live, "game-changed", G_CALLBACK (on_live_game_changed), self);
  g_signal_connect_swapped (self->live, "notify::followed", G_CALLBACK (on_followed), self);
  g_signal_connect_swapped (self->live, "notify::over", G_CALLBACK (on_live_over), self);
  g_signal_connect_swapped (self->games_selection, "notify::selected-item",
                            G_CALLBACK (_komi_series_page_game_selected), self);
  g_signal_connect_swapped (self->games_view, "activate", G_CALLBACK (on_game_activated), self);
  /* The panel may outlive this page: a read of its analysis (a task that
   * holds it) can end after the window is gone. */
  g_signal_connect_object (self->analysis_panel, "step-activated",
                           G_CALLBACK (on_analysis_step), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->analysis_panel, "analysis-changed",
                           G_CALLBACK (on_analysis_changed), self, G_CONNECT_SWAPPED);
  update_actions (self);
}
