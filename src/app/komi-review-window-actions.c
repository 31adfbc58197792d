/* komi-review-window-actions.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-review-calls.h"
#include "komi-review-window-private.h"

/* A move the mistakes list beside the board shows: the subject's mistakes
 * and blunders at the panel's thresholds (the opponent's are not listed,
 * so n does not stop on them). Until the panel has read the analysis, the
 * one read with the game, for the subject's moves. */
static gboolean
is_listed_mistake (KomiReviewWindow *self, guint turn)
{
  const KomiStoreGame *game = self->review->replay->game;
  const KomiMove *move;

  if (komi_analysis_panel_get_analysis (self->analysis_panel) != NULL)
    return komi_analysis_panel_lists_turn (self->analysis_panel, turn);
  move = &g_array_index (game->moves, KomiMove, turn - 1);
  return _komi_review_window_move_class (self, turn) != KOMI_MOVE_CLASS_GOOD
         && (game->subject == KOMI_EMPTY || move->color == game->subject);
}

/* The next move after the one shown (@forward) or the one before it that
 * the mistakes list shows, going round the game's end: *@wrapped says
 * when it did. G_MAXUINT when the game has none. */
static guint
find_mistake (KomiReviewWindow *self, gboolean forward, gboolean *wrapped)
{
  guint last = self->review->replay->n_steps - 1;

  *wrapped = FALSE;
  /* Moves are steps 1..last; each tried once, the one shown last. */
  for (guint k = 1; k <= last; k++)
    {
      /* Backward from the start is backward from past the end. */
      guint from = !forward && self->step == 0 ? last + 1 : self->step;
      guint t = forward ? (from + k - 1) % last + 1
                        : (from > k ? from - k : from + last - k);

      if (is_listed_mistake (self, t))
        {
          *wrapped = forward ? t <= self->step : t >= self->step;
          return t;
        }
    }
  return G_MAXUINT;
}

static void
go_to_mistake (KomiReviewWindow *self, gboolean forward)
{
  gboolean wrapped;
  guint step = find_mistake (self, forward, &wrapped);
  const char *note = NULL;

  if (step == G_MAXUINT)
    note = _("No move of this game is a mistake at the review’s thresholds");
  else
    {
      komi_review_window_show_step (self, step);
      if (wrapped)
        note = forward ? _("Past the last mistake: back to the first")
                       : _("Before the first mistake: on to the last");
    }
  if (note != NULL)
    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (note));
}

static void
review_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KomiReviewWindow *self = KOMI_REVIEW_WINDOW (widget);
  guint last;

  if (self->review == NULL)
    return;
  last = self->review->replay->n_steps - 1;
  if (g_str_equal (action_name, "review.first-move"))
    komi_review_window_show_step (self, 0);
  else if (g_str_equal (action_name, "review.previous-move") && self->step > 0)
    komi_review_window_show_step (self, self->step - 1);
  else if (g_str_equal (action_name, "review.next-move"))
    komi_review_window_show_step (self, self->step + 1);
  else if (g_str_equal (action_name, "review.last-move"))
    komi_review_window_show_step (self, last);
  else if (g_str_equal (action_name, "review.next-mistake"))
    go_to_mistake (self, TRUE);
  else if (g_str_equal (action_name, "review.previous-mistake"))
    go_to_mistake (self, FALSE);
  else if (g_str_equal (action_name, "review.cycle-orientation"))
    komi_review_window_set_orientation (self, (self->orientation + 1) % KOMI_N_ORIENTATIONS);
  else if (g_str_equal (action_name, "review.toggle-numbers"))
    {
      gboolean shown;

      g_object_get (self->board_view, "show-numbers", &shown, NULL);
      g_object_set (self->board_view, "show-numbers", !shown, NULL);
    }
}

static void
copy_curl_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  KomiReviewWindow *self = KOMI_REVIEW_WINDOW (widget);
  gint64 id = g_variant_get_int64 (parameter);

  for (guint i = 0; self->review != NULL && i < self->review->calls->len; i++)
    {
      const KomiStoreCall *c = self->review->calls->pdata[i];
      g_autofree char *command = NULL;
      g_autofree char *message = NULL;

      if (c->id != id)
        continue;
      command = komi_review_call_to_curl (c, self->review->api, self->review->key_env);
      gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), command);
      message = komi_review_curl_note (c, self->review->api, self->review->key_env);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
      return;
    }
}

/* Keys step the game wherever the focus is, but for text being selected
 * in the inspector, where they move the text cursor (Ctrl+? works there
 * too). */
static gboolean
on_shortcut (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));

  if (focus != NULL && !g_str_equal (user_data, "review.show-shortcuts")
      && (GTK_IS_TEXT_VIEW (focus) || GTK_IS_EDITABLE (focus)
                        || GTK_IS_LABEL (focus)))
    return FALSE;
  return gtk_widget_activate_action (widget, user_data, NULL);
}

void
_komi_review_window_add_shortcuts (KomiReviewWindow *self)
{
  static const struct { const char *keys; const char *action; } shortcuts[] = {
    { "Left", "review.previous-move" }, { "Right", "review.next-move" },
    { "Home", "review.first-move" }, { "End", "review.last-move" },
    { "n", "review.next-mistake" }, { "<Shift>n", "review.previous-mistake" },
    { "<Control>Down", "review.next-mistake" }, { "<Control>Up", "review.previous-mistake" },
    { "o", "review.cycle-orientation" }, { "numbersign", "review.toggle-numbers" },
    { "<Control>question", "review.show-shortcuts" },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (controller, "komi-review-keys");
  for (guint i = 0; i < G_N_ELEMENTS (shortcuts); i++)
    gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (controller),
      gtk_shortcut_new (gtk_shortcut_trigger_parse_string (shortcuts[i].keys),
                        gtk_callback_action_new (on_shortcut, (gpointer) shortcuts[i].action,
                                                 NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

/* Ctrl+?: the application's shortcuts window, over this one (the main
 * window's win.show-help-overlay is GtkApplicationWindow's; this one is a
 * plain window), opened at the keys of a review. */
static void
show_shortcuts_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/komigo/Komi/gtk/help-overlay.ui");
  GtkWindow *overlay = GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay"));

  gtk_window_set_transient_for (overlay, GTK_WINDOW (widget));
  gtk_window_set_modal (overlay, TRUE);
  gtk_window_present (overlay);
}

void
_komi_review_window_class_init_actions (GtkWidgetClass *widget_class)
{
  static const char *steps[] = {
    "review.first-move", "review.previous-move", "review.next-move", "review.last-move",
    "review.next-mistake", "review.previous-mistake", "review.cycle-orientation",
    "review.toggle-numbers",
  };

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    gtk_widget_class_install_action (widget_class, steps[i], NULL, review_activated);
  gtk_widget_class_install_action (widget_class, "review.copy-curl", "x", copy_curl_activated);
  gtk_widget_class_install_action (widget_class, "review.show-shortcuts", NULL,
                                   show_shortcuts_activated);
}
