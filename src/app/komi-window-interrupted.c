/* komi-window-interrupted.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-window-private.h"

/* A run that died, offered to continue when the library is read. */

static void
on_dismissed (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* Not recorded: the offer comes back next time, nothing worse. */
  if (!komi_library_dismiss_interrupted_finish (KOMI_LIBRARY (source), result, &error))
    g_debug ("The dismissal was not recorded: %s", error->message);
}

static void
on_interrupted_response (AdwMessageDialog *dialog,
                         const char       *response,
                         KomiWindow       *self)
{
  gint64 id = *(gint64 *) g_object_get_data (G_OBJECT (dialog), "series-id");

  if (g_str_equal (response, "continue"))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.continue-series", "x", id);
  else if (g_str_equal (response, "dismiss"))
    komi_library_dismiss_interrupted_async (self->library, id, NULL, on_dismissed, NULL);
}

/* A run that died (killed, crashed: no orderly end recorded, and no
 * process holds it) is offered to continue, once per library opened; one
 * stopped on purpose, finished, or running anywhere now is not. */
void
_komi_window_offer_interrupted (KomiWindow *self)
{
  g_autoptr(KomiSeriesItem) item = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (self->interrupted_offered || _komi_window_run_busy (self)
      || (item = komi_library_dup_interrupted (self->library)) == NULL)
    return;
  self->interrupted_offered = TRUE;
  body = g_strdup_printf (_("Series “%s” was interrupted after %u of %u games. Continue?"),
                          item->series->name,
                          item->series->n_games - item->series->n_unfinished,
                          item->series->n_games);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("A Run Was Interrupted"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "dismiss", _("_Dismiss"),
                                    "continue", _("_Continue"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "continue",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "continue");
  /* Escape decides nothing: the offer comes back next time. */
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "later");
  g_object_set_data_full (G_OBJECT (dialog), "series-id",
                          g_memdup2 (&item->series->id, sizeof item->series->id), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_interrupted_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}
