/* komi-review-window.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-coords.h"
#include "komi-protocol.h"
#include "komi-player-names.h"
#include "komi-review-calls.h"
#include "komi-review-window-private.h"
#include "komi-ui-util.h"

G_DEFINE_FINAL_TYPE (KomiReviewWindow, komi_review_window, ADW_TYPE_WINDOW)

KomiOrientation
_komi_review_window_model_orientation (KomiReviewWindow *self)
{
  return self->review != NULL ? self->review->replay->game->orientation
                              : KOMI_ORIENTATION_IDENTITY;
}

/* The name of real @point on the board as shown now. */
void
_komi_review_window_shown_name (KomiReviewWindow *self, KomiPoint point,
                                char buf[KOMI_NAME_LEN + 1])
{
  guint size = self->review->replay->size;

  komi_point_to_name (size, point == KOMI_PASS ? point
                      : komi_orientation_apply (self->orientation, size, point), buf);
}

/* The model's probability of the move it made at @turn: of its point, or
 * of passing; < 0 when none was recorded. */
static double
move_probability (KomiReviewWindow *self, guint turn, const KomiMove *move)
{
  const char *question = move->point == KOMI_PASS ? "play_or_pass" : "best_point";
  double p = -1;

  for (guint i = 0; i < self->review->calls->len; i++)
    {
      const KomiStoreCall *c = self->review->calls->pdata[i];
      g_autoptr(GHashTable) table = NULL;
      double *value;

      /* The answer that decided the move, not one the record says was
       * not used (older libraries may hold two). */
      if (c->turn != turn || g_strcmp0 (c->question, question) != 0 || c->answer == NULL
          || c->decided == 0 || (table = komi_review_call_probabilities (c)) == NULL)
        continue;
      if ((value = g_hash_table_lookup (table, c->answer)) != NULL)
        p = *value;
    }
  return p;
}

/* The panel's analysis once it has read one (it may be newer: analysed
 * from the panel), else the one read with the game. */
const KomiStoreAnalysis *
_komi_review_window_current_analysis (KomiReviewWindow *self)
{
  const KomiStoreAnalysis *a = komi_analysis_panel_get_analysis (self->analysis_panel);

  return a != NULL ? a : self->review->analysis;
}

KomiMoveClass
_komi_review_window_move_class (KomiReviewWindow *self,
                                guint             turn)
{
  const KomiStoreAnalysis *a = _komi_review_window_current_analysis (self);

  if (a == NULL || turn == 0 || turn > a->moves->len)
    return KOMI_MOVE_CLASS_GOOD;
  return komi_store_analysis_classify (a, &g_array_index (a->moves, KomiStoreAnalysisMove,
                                                          turn - 1));
}

static char *
row_text (KomiReviewWindow *self, guint step)
{
  const KomiMove *move;
  char name[KOMI_NAME_LEN + 1];
  g_autofree char *prob = NULL;
  double p;
  KomiMoveClass mc;

  if (step == 0)
    return g_strdup_printf ("\t\t%s\t\t", _("Start"));
  move = &g_array_index (self->review->replay->game->moves, KomiMove, step - 1);
  _komi_review_window_shown_name (self, move->point, name);
  p = move_probability (self, step, move);
  prob = p >= 0 ? g_strdup_printf ("%.0f%%", 100 * p) : g_strdup ("");
  mc = _komi_review_window_move_class (self, step);
  return g_strdup_printf ("%u\t%s\t%s\t%s\t%s", step, move->color == KOMI_BLACK ? _("B") : _("W"),
                          move->point == KOMI_PASS ? _("pass") : name, prob,
                          mc == KOMI_MOVE_CLASS_BLUNDER ? "??"
                          : mc == KOMI_MOVE_CLASS_MISTAKE ? "?" : "");
}

char *
komi_review_window_dup_move_text (KomiReviewWindow *self,
                                  guint             step)
{
  g_auto(GStrv) fields = NULL;

  g_return_val_if_fail (KOMI_IS_REVIEW_WINDOW (self), NULL);
  g_return_val_if_fail (self->review != NULL && step < self->review->replay->n_steps, NULL);

  fields = g_strsplit (gtk_string_list_get_string (self->moves, step), "\t", -1);
  return g_strstrip (g_strjoinv (" ", fields));
}

static void
fill_moves (KomiReviewWindow *self)
{
  guint n = self->review->replay->n_steps;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);

  for (guint step = 0; step < n; step++)
    g_ptr_array_add (rows, row_text (self, step));
  g_ptr_array_add (rows, NULL);
  self->syncing = TRUE;
  gtk_string_list_splice (self->moves, 0, g_list_model_get_n_items (G_LIST_MODEL (self->moves)),
                          (const char * const *) rows->pdata);
  gtk_single_selection_set_selected (self->selection, self->step);
  self->syncing = FALSE;
}

static void
update_actions (KomiReviewWindow *self)
{
  gboolean loaded = self->review != NULL;
  guint last = loaded ? self->review->replay->n_steps - 1 : 0;
  gboolean analysed = loaded && _komi_review_window_current_analysis (self) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.first-move", self->step > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.previous-move", self->step > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.next-move", self->step < last);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.last-move", self->step < last);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.next-mistake", analysed);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "review.previous-mistake", analysed);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->mistake_button),
                               analysed ? _("Next mistake (N; Shift+N: previous)")
                                        : _("Analyse the game first"));
}

/* The row of the step shown takes the focus, if the list has it: Up and
 * Down then go on from the move the keys or the slider went to, not from
 * the row last clicked. FALSE while the row is not made yet. */
static gboolean
focus_step_row (KomiReviewWindow *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->moves_view));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *child = gtk_widget_get_first_child (row);

      if (child != NULL && gtk_widget_get_visible (row)
          && GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "komi-step"))
             == self->step + 1)
        {
          gtk_widget_grab_focus (row);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
focus_step_row_later (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  KomiReviewWindow *self = KOMI_REVIEW_WINDOW (user_data);

  self->focus_tick = 0;
  focus_step_row (self);
  return G_SOURCE_REMOVE;
}

static void
follow_focus (KomiReviewWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus == NULL || !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->moves_view))
      || focus_step_row (self) || self->focus_tick != 0)
    return;
  /* Scrolled far: the row is made at the list's next layout. */
  self->focus_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->moves_view),
                                                   focus_step_row_later, self, NULL);
}

void
komi_review_window_show_step (KomiReviewWindow *self,
                              guint             step)
{
  const KomiReplay *r;
  g_autofree char *move = NULL;
  g_autoptr(GString) status = g_string_new (NULL);
  guint last;
  KomiPoint point;

  g_return_if_fail (KOMI_IS_REVIEW_WINDOW (self));
  if (self->review == NULL)
    return;

  r = self->review->replay;
  last = r->n_steps - 1;
  self->step = MIN (step, last);
  komi_analysis_panel_set_step (self->analysis_panel, self->step);
  point = komi_board_view_show_replay (self->board_view, r, self->step);
  komi_board_view_show_best_move (self->board_view, _komi_review_window_current_analysis (self),
                                  self->step);

  if (self->step == 0)
    move = g_strdup_printf (_("Start (%u moves)"), last);
  else
    {
      char name[KOMI_NAME_LEN + 1];

      _komi_review_window_shown_name (self, point, name);
      move = g_strdup_printf (_("Move %u of %u: %s %s"), self->step, last,
                              g_array_index (r->game->moves, KomiMove,
                                             self->step - 1).color == KOMI_BLACK
                              ? _("Black") : _("White"),
                              point == KOMI_PASS ? _("passes") : name);
    }
  gtk_label_set_text (self->move_label, move);
  g_string_append_printf (status, _("Captures: Black %u, White %u"),
                          komi_review_get_captures (self->review, self->step, KOMI_BLACK),
                          komi_review_get_captures (self->review, self->step, KOMI_WHITE));
  if (self->step == last)
    g_string_append_printf (status, "\n%s", r->summary);
  gtk_label_set_text (self->status_label, status->str);

  self->syncing = TRUE;
  gtk_range_set_value (GTK_RANGE (self->slider), self->step);
  gtk_single_selection_set_selected (self->selection, self->step);
  self->syncing = FALSE;
  /* gtk_list_view_scroll_to() is GTK 4.12; the list's own action is on the floor. */
  gtk_widget_activate_action (GTK_WIDGET (self->moves_view), "list.scroll-to-item", "u",
                              self->step);
  follow_focus (self);
  _komi_review_window_show_probabilities (self);
  _komi_review_window_show_calls (self);
  update_actions (self);
}

guint
komi_review_window_get_step (KomiReviewWindow *self)
{
  g_return_val_if_fail (KOMI_IS_REVIEW_WINDOW (self), 0);
  return self->step;
}

KomiOrientation
komi_review_window_get_orientation (KomiReviewWindow *self)
{
  g_return_val_if_fail (KOMI_IS_REVIEW_WINDOW (self), KOMI_ORIENTATION_IDENTITY);
  return self->orientation;
}

void
komi_review_window_set_orientation (KomiReviewWindow *self,
                                    KomiOrientation   orientation)
{
  g_return_if_fail (KOMI_IS_REVIEW_WINDOW (self));
  g_return_if_fail (orientation < KOMI_N_ORIENTATIONS);

  self->orientation = orientation;
  komi_board_view_set_orientation (self->board_view, orientation);
  komi_analysis_panel_set_orientation (self->analysis_panel, orientation);
  if (gtk_drop_down_get_selected (self->orientation_dropdown) != orientation)
    gtk_drop_down_set_selected (self->orientation_dropdown, orientation);
  if (self->review == NULL)
    return;
  {
    g_autofree char *frame =
      komi_frame_text (orientation, _komi_review_window_model_orientation (self),
                       self->review->calls->len > 0);

    gtk_label_set_text (self->frame_label, frame);
  }
  /* Point names follow the board: the list, the heading, the answers. */
  fill_moves (self);
  komi_review_window_show_step (self, self->step);
}

KomiBoardView *
komi_review_window_get_board_view (KomiReviewWindow *self)
{
  g_return_val_if_fail (KOMI_IS_REVIEW_WINDOW (self), NULL);
  return self->board_view;
}

GtkBox *
komi_review_window_get_analysis_slot (KomiReviewWindow *self)
{
  g_return_val_if_fail (KOMI_IS_REVIEW_WINDOW (self), NULL);
  return self->analysis_slot;
}

gint64
komi_review_window_get_game_id (KomiReviewWindow *self)
{
  g_return_val_if_fail (KOMI_IS_REVIEW_WINDOW (self), 0);
  return self->game_id;
}

const KomiReview *
komi_review_window_get_review (KomiReviewWindow *self)
{
  g_return_val_if_fail (KOMI_IS_REVIEW_WINDOW (self), NULL);
  return self->review;
}

static void
on_selection_changed (KomiReviewWindow *self)
{
  guint selected = gtk_single_selection_get_selected (self->selection);

  if (!self->syncing && selected != GTK_INVALID_LIST_POSITION && selected != self->step)
    komi_review_window_show_step (self, selected);
}

static void
on_slider_changed (KomiReviewWindow *self)
{
  guint step = (guint) (gtk_range_get_value (GTK_RANGE (self->slider)) + 0.5);

  if (!self->syncing && step != self->step)
    komi_review_window_show_step (self, step);
}

static void
on_orientation_selected (KomiReviewWindow *self)
{
  guint selected = gtk_drop_down_get_selected (self->orientation_dropdown);

  if (!self->syncing && selected < KOMI_N_ORIENTATIONS && selected != self->orientation)
    komi_review_window_set_orientation (self, selected);
}

/* The dropdown names the model's own orientation as such. */
static void
fill_orientations (KomiReviewWindow *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
    {
      g_autofree char *name = NULL;

      if (self->review != NULL && o == _komi_review_window_model_orientation (self)
          && self->review->calls->len > 0)
        name = o == KOMI_ORIENTATION_IDENTITY
               ? g_strdup (_("As recorded, as the model saw it"))
               : g_strdup_printf (_("As the model saw it (%s)"), komi_orientation_display_name (o));
      else
        name = g_strdup (komi_orientation_display_name (o));
      gtk_string_list_append (names, name);
    }
  /* A new model selects its first item: not the user's choice. */
  self->syncing = TRUE;
  gtk_drop_down_set_model (self->orientation_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->orientation_dropdown, self->orientation);
  self->syncing = FALSE;
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(KomiReviewWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  KomiReview *review = komi_review_load_finish (result, &error);
  const KomiStoreGame *g;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *black = NULL, *white = NULL, *specs = NULL;

  if (review == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_label_set_text (self->move_label, _("This game cannot be shown"));
          gtk_label_set_text (self->status_label, error->message);
        }
      return;
    }
  self->review = review;
  g = review->replay->game;
  /* Players by name; what the series calls them (a profile's path) in
   * the title's tooltip. */
  black = komi_player_display_name (g->black_spec != NULL ? g->black_spec : g->black_name);
  white = komi_player_display_name (g->white_spec != NULL ? g->white_spec : g->white_name);
  title = g_strdup_printf (_("%s against %s"), black, white);
  specs = g_strdup_printf (_("Black: %s\nWhite: %s"), g->black_spec ? g->black_spec : "?",
                           g->white_spec ? g->white_spec : "?");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->window_title), specs);
  subtitle = g_strdup_printf ("%s%s%s", g->series_name ? g->series_name : "",
                              g->result ? " · " : "", g->result ? g->result : "");
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_range_set_range (GTK_RANGE (self->slider), 0, MAX (1, review->replay->n_steps - 1));
  gtk_range_set_increments (GTK_RANGE (self->slider), 1, 10);
  /* A model's game opens as the model saw it: the request text and the
   * board then name the same points. */
  self->orientation = review->calls->len > 0 ? _komi_review_window_model_orientation (self)
                                             : KOMI_ORIENTATION_IDENTITY;
  fill_orientations (self);
  komi_review_window_set_orientation (self, self->orientation);
  komi_review_window_show_step (self, review->replay->n_steps - 1);
}

static void
on_analysis_changed (KomiReviewWindow *self)
{
  if (self->review == NULL)
    return;
  /* The move list's marks and the mistake keys follow the new analysis:
   * the rows' texts are made anew (a row's marks are in its text). */
  fill_moves (self);
  komi_review_window_show_step (self, self->step);
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item)
{
  static const int widths[] = { 3, 2, 5, 5, 3 };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_width_chars (GTK_LABEL (label), widths[i]);
      gtk_label_set_xalign (GTK_LABEL (label), i == 0 || i == 3 ? 1 : 0);
      if (i == 0 || i == 3)
        gtk_widget_add_css_class (label, "numeric");
      if (i == 4)
        gtk_widget_add_css_class (label, "error");
      gtk_box_append (GTK_BOX (box), label);
    }
  gtk_list_item_set_child (item, box);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item)
{
  GtkStringObject *row = gtk_list_item_get_item (item);
  g_auto(GStrv) fields = g_strsplit (gtk_string_object_get_string (row), "\t", 5);
  GtkWidget *label = gtk_widget_get_first_child (gtk_list_item_get_child (item));

  for (guint i = 0; label != NULL; i++, label = gtk_widget_get_next_sibling (label))
    gtk_label_set_text (GTK_LABEL (label), i < g_strv_length (fields) ? fields[i] : "");
  /* Which step the row shows, for the focus to follow the step shown. */
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (item)), "komi-step",
                     GUINT_TO_POINTER (gtk_list_item_get_position (item) + 1));
}

KomiReviewWindow *
komi_review_window_new (GtkWindow   *parent,
                        KomiLibrary *library,
                        gint64       game_id)
{
  KomiReviewWindow *self;

  g_return_val_if_fail (KOMI_IS_LIBRARY (library), NULL);

  self = g_object_new (KOMI_TYPE_REVIEW_WINDOW,
                       "application", parent ? gtk_window_get_application (parent) : NULL,
                       NULL);
  self->library = g_object_ref (library);
  self->game_id = game_id;
  komi_analysis_panel_set_game (self->analysis_panel, library, game_id);
  komi_review_load_async (library, game_id, KOMI_REVIEW_LOAD_CALLS_IN_FULL, self->cancellable,
                          on_loaded, g_object_ref (self));
  return self;
}

static void
komi_review_window_dispose (GObject *object)
{
  KomiReviewWindow *self = KOMI_REVIEW_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->focus_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->moves_view), self->focus_tick);
  self->focus_tick = 0;
  _komi_review_window_dispose_layout (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), KOMI_TYPE_REVIEW_WINDOW);
  G_OBJECT_CLASS (komi_review_window_parent_class)->dispose (object);
}

static void
komi_review_window_finalize (GObject *object)
{
  KomiReviewWindow *self = KOMI_REVIEW_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->library);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->review, komi_review_free);
  G_OBJECT_CLASS (komi_review_window_parent_class)->finalize (object);
}

static void
komi_review_window_class_init (KomiReviewWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_review_window_dispose;
  object_class->finalize = komi_review_window_finalize;

  g_type_ensure (KOMI_TYPE_BOARD_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-review-window.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, mistake_button);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, orientation_dropdown);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, board_view);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, slider);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, move_label);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, frame_label);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, analysis_slot);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, moves_view);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, calls_title);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, heat_label);
  gtk_widget_class_bind_template_child (widget_class, KomiReviewWindow, calls_box);

  _komi_review_window_class_init_actions (widget_class);
  _komi_review_window_class_init_layout (widget_class);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

static void
komi_review_window_init (KomiReviewWindow *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->moves = gtk_string_list_new (NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->moves));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), NULL);
  gtk_list_view_set_factory (self->moves_view, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->moves_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "notify::selected",
                            G_CALLBACK (on_selection_changed), self);
  g_signal_connect_swapped (self->slider, "value-changed", G_CALLBACK (on_slider_changed), self);
  g_signal_connect_swapped (self->orientation_dropdown, "notify::selected",
                            G_CALLBACK (on_orientation_selected), self);
  _komi_review_window_init_layout (self);
  fill_orientations (self);
  _komi_review_window_add_shortcuts (self);
  /* The engine review: its graph and list step the board, the board's
   * steps move its line, and a new analysis marks the moves. */
  self->analysis_panel = komi_analysis_panel_new ();
  gtk_widget_set_vexpand (GTK_WIDGET (self->analysis_panel), TRUE);
  gtk_box_append (self->analysis_slot, GTK_WIDGET (self->analysis_panel));
  g_signal_connect_object (self->analysis_panel, "step-activated",
                           G_CALLBACK (komi_review_window_show_step), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->analysis_panel, "analysis-changed",
                           G_CALLBACK (on_analysis_changed), self, G_CONNECT_SWAPPED);
  update_actions (self);
}
