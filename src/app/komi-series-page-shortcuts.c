/* komi-series-page-shortcuts.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-series-page"

#include "config.h"

#include "komi-series-page-private.h"

/* The keys of the game shown on the Series page.
 *
 * The application sets Alt+Home, Alt+Left, Alt+Right and Alt+End for the
 * review.*-move actions, but an application accelerator looks its action
 * up from the window, and these actions live on the page, below it: the
 * window never finds them. The page therefore carries the same keys in a
 * shortcut controller of its own, handled by the window wherever the focus
 * is (global scope) while the page is on screen (GTK skips a controller
 * whose widget is not mapped). They are heard before the window's
 * leaflet, whose own Alt+Left (back to the sidebar) would take that key
 * even unfolded; with no game shown the step actions are disabled and
 * the key goes on to the leaflet. "o" turns the board and "#" shows the move
 * numbers, as in the review window; neither while the focus is in text. */

/* A plain key is text where text is typed or selected. */
static gboolean
focus_takes_text (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (GTK_IS_TEXT_VIEW (focus) || GTK_IS_EDITABLE (focus)
                           || GTK_IS_LABEL (focus));
}

static gboolean
on_step (GtkWidget *widget, GVariant *args, gpointer action)
{
  return gtk_widget_activate_action (widget, action, NULL);
}

static gboolean
on_turn (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  KomiSeriesPage *self = KOMI_SERIES_PAGE (widget);

  if (focus_takes_text (widget))
    return FALSE;
  komi_board_view_set_orientation (self->board_view,
                                   (komi_board_view_get_orientation (self->board_view) + 1)
                                   % KOMI_N_ORIENTATIONS);
  return TRUE;
}

static gboolean
on_numbers (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  KomiSeriesPage *self = KOMI_SERIES_PAGE (widget);
  gboolean shown;

  if (focus_takes_text (widget))
    return FALSE;
  g_object_get (self->board_view, "show-numbers", &shown, NULL);
  g_object_set (self->board_view, "show-numbers", !shown, NULL);
  return TRUE;
}

void
_komi_series_page_add_shortcuts (KomiSeriesPage *self)
{
  static const struct { const char *keys; const char *action; } steps[] = {
    { "<Alt>Home", "review.first-move" }, { "<Alt>Left", "review.previous-move" },
    { "<Alt>Right", "review.next-move" }, { "<Alt>End", "review.last-move" },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkShortcutController *shortcuts = GTK_SHORTCUT_CONTROLLER (controller);

  gtk_shortcut_controller_set_scope (shortcuts, GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (controller, "komi-series-page-keys");
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    gtk_shortcut_controller_add_shortcut (
      shortcuts, gtk_shortcut_new (gtk_shortcut_trigger_parse_string (steps[i].keys),
                                   gtk_callback_action_new (on_step, (gpointer) steps[i].action,
                                                            NULL)));
  gtk_shortcut_controller_add_shortcut (
    shortcuts, gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("o"),
                                 gtk_callback_action_new (on_turn, NULL, NULL)));
  gtk_shortcut_controller_add_shortcut (
    shortcuts, gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("numbersign"),
                                 gtk_callback_action_new (on_numbers, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
