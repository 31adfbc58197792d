/* komi-window-publish.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-library-items.h"
#include "komi-publish.h"
#include "komi-ui-util.h"
#include "komi-window-private.h"

/* Publish… (main menu): the library as a static web site, through
 * src/publish/ as `komi-cli publish` writes it. A dialog picks the series
 * (all of them by default), a chooser the folder; a second dialog shows
 * the progress of the worker thread, can cancel it, and once the site is
 * written offers Open in Browser (gtk_show_uri: the portal in a sandbox). */

typedef struct
{
  KomiWindow       *window;
  AdwMessageDialog *dialog;      /* the progress dialog (a weak pointer: it holds the task) */
  GtkProgressBar   *bar;
  char             *library;
  char             *folder;
  GArray           *series;      /* gint64; empty: every series */
  GCancellable     *cancellable;
  guint             tick;        /* the progress bar's timeout while running */
  KomiGamesProgress progress;    /* written by the worker, read by the tick */
  gboolean          running;
  KomiPublishStats  stats;
} Publish;

static void
publish_free (Publish *p)
{
  g_clear_handle_id (&p->tick, g_source_remove);
  g_clear_object (&p->window);
  if (p->dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (p->dialog), (gpointer *) &p->dialog);
  g_clear_object (&p->cancellable);
  g_clear_pointer (&p->series, g_array_unref);
  g_free (p->library);
  g_free (p->folder);
  komi_publish_stats_clear (&p->stats);
  g_free (p);
}

static gboolean
tick (gpointer user_data)
{
  Publish *p = user_data;

  komi_games_progress_show (&p->progress, p->bar);
  return G_SOURCE_CONTINUE;
}

static void
publish_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Publish *p = task_data;
  KomiPublishOptions options = {
    .series = p->series->len > 0 ? (const gint64 *) (void *) p->series->data : NULL,
    .n_series = p->series->len,
    .progress = komi_games_progress_report,
    .progress_data = &p->progress,
    .cancellable = cancellable,
  };
  GError *error = NULL;

  if (komi_publish_site (p->library, p->folder, &options, &p->stats, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
publish_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Publish *p = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *body = NULL;

  p->running = FALSE;
  g_clear_handle_id (&p->tick, g_source_remove);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      /* Cancelled: the dialog was closed, and says nothing more. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || p->dialog == NULL)
        return;
      body = g_strdup_printf (_("The site was not written: %s"), error->message);
      adw_message_dialog_set_heading (p->dialog, _("Publishing Failed"));
    }
  else if (p->dialog == NULL)
    return;
  else
    {
      body = g_strdup_printf (ngettext ("%u game published into %s (%u files written, %u "
                                        "unchanged).",
                                        "%u games published into %s (%u files written, %u "
                                        "unchanged).", p->stats.games),
                              p->stats.games, p->folder, p->stats.written, p->stats.unchanged);
      adw_message_dialog_set_heading (p->dialog, _("Library Published"));
      adw_message_dialog_set_response_enabled (p->dialog, "open", TRUE);
      gtk_progress_bar_set_fraction (p->bar, 1.0);
    }
  adw_message_dialog_set_body (p->dialog, body);
  adw_message_dialog_set_response_label (p->dialog, "close", _("_Close"));
}

static void
on_progress_response (AdwMessageDialog *dialog,
                      const char       *response,
                      gpointer          user_data)
{
  Publish *p = user_data;

  if (g_str_equal (response, "open"))
    {
      g_autofree char *index = g_build_filename (p->folder, "index.html", NULL);
      g_autoptr(GFile) file = g_file_new_for_path (index);
      g_autofree char *uri = g_file_get_uri (file);

      gtk_show_uri (GTK_WINDOW (p->window), uri, GDK_CURRENT_TIME);
    }
  else if (p->running)
    g_cancellable_cancel (p->cancellable);
}

AdwMessageDialog *
_komi_window_publish_to (KomiWindow   *self,
                         const gint64 *ids,
                         guint         n_ids,
                         const char   *folder)
{
  g_autoptr(GTask) task = NULL;
  Publish *p = g_new0 (Publish, 1);
  GtkWidget *dialog;

  p->window = g_object_ref (self);
  p->library = g_strdup (komi_library_get_path (self->library));
  p->folder = g_strdup (folder);
  p->series = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_array_append_vals (p->series, ids, n_ids);
  p->cancellable = g_cancellable_new ();
  p->running = TRUE;

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Publishing…"),
                                   _("Writing the leaderboard, the series pages and a replay "
                                     "of every game with every call."));
  p->dialog = ADW_MESSAGE_DIALOG (dialog);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &p->dialog);
  p->bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (p->bar, TRUE);
  adw_message_dialog_set_extra_child (p->dialog, GTK_WIDGET (p->bar));
  adw_message_dialog_add_responses (p->dialog, "close", _("_Cancel"),
                                    "open", _("_Open in Browser"), NULL);
  adw_message_dialog_set_response_appearance (p->dialog, "open", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_response_enabled (p->dialog, "open", FALSE);
  adw_message_dialog_set_default_response (p->dialog, "open");
  adw_message_dialog_set_close_response (p->dialog, "close");
  p->tick = g_timeout_add (100, tick, p);

  task = g_task_new (self, p->cancellable, publish_done, NULL);
  g_task_set_source_tag (task, _komi_window_publish_to);
  g_task_set_task_data (task, p, (GDestroyNotify) publish_free);
  /* The dialog answers after the task has ended too (Open in Browser):
   * it keeps the task, and so its data, for as long as it lives. */
  g_object_set_data_full (G_OBJECT (dialog), "komi-publish-task", g_object_ref (task),
                          g_object_unref);
  g_signal_connect (dialog, "response", G_CALLBACK (on_progress_response), p);
  gtk_window_present (GTK_WINDOW (dialog));
  g_task_run_in_thread (task, publish_thread);
  return ADW_MESSAGE_DIALOG (dialog);
}

/* The series picked in the first dialog, then the folder. */
typedef struct
{
  KomiWindow *window;
  GPtrArray  *checks;   /* GtkCheckButton, the series id as "komi-series-id" */
  GArray     *ids;
} Pick;

static void
pick_free (Pick *pick)
{
  g_clear_object (&pick->window);
  g_clear_pointer (&pick->checks, g_ptr_array_unref);
  g_clear_pointer (&pick->ids, g_array_unref);
  g_free (pick);
}

static void
on_folder_chosen (GtkNativeDialog *chooser,
                  int              response,
                  gpointer         user_data)
{
  Pick *pick = user_data;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file != NULL && (path = g_file_get_path (file)) == NULL)
    adw_toast_overlay_add_toast (pick->window->toast_overlay,
                                 adw_toast_new (_("Choose a place on this computer")));
  if (path != NULL)
    _komi_window_publish_to (pick->window, (const gint64 *) (void *) pick->ids->data,
                             pick->ids->len, path);
  pick_free (pick);
  g_object_unref (chooser);
}

static void
on_pick_response (AdwMessageDialog *dialog,
                  const char       *response,
                  gpointer          user_data)
{
  Pick *pick = user_data;
  GtkFileChooserNative *chooser;
  gboolean all = TRUE;

  if (!g_str_equal (response, "choose"))
    {
      pick_free (pick);
      return;
    }
  pick->ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < pick->checks->len; i++)
    {
      GtkCheckButton *check = pick->checks->pdata[i];
      gint64 id = *(gint64 *) g_object_get_data (G_OBJECT (check), "komi-series-id");

      if (gtk_check_button_get_active (check))
        g_array_append_val (pick->ids, id);
      else
        all = FALSE;
    }
  if (pick->ids->len == 0)
    {
      adw_toast_overlay_add_toast (pick->window->toast_overlay,
                                   adw_toast_new (_("Choose a series first")));
      pick_free (pick);
      return;
    }
  if (all)
    g_array_set_size (pick->ids, 0);   /* every series, also those added meanwhile */
  chooser = gtk_file_chooser_native_new (_("Publish into a Folder"), GTK_WINDOW (pick->window),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Publish"),
                                         _("_Cancel"));
  g_signal_connect (chooser, "response", G_CALLBACK (on_folder_chosen), pick);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
publish_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  GListModel *series = komi_library_get_series (self->library);
  guint n = series != NULL ? g_list_model_get_n_items (series) : 0;
  GtkWidget *dialog, *box, *scrolled;
  Pick *pick;

  if (n == 0)
    {
      adw_toast_overlay_add_toast (self->toast_overlay,
                                   adw_toast_new (_("The library has no series to publish")));
      return;
    }
  pick = g_new0 (Pick, 1);
  pick->window = g_object_ref (self);
  pick->checks = g_ptr_array_new ();
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Publish the Library"),
                                   _("A web site of the series chosen: the leaderboard and a "
                                     "replay of every game with every call, which any browser "
                                     "opens from the folder, offline."));
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KomiSeriesItem) item = g_list_model_get_item (series, i);
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, item->series->id);
      /* TRANSLATORS: a series' number and name, to tick for publishing. */
      g_autofree char *label = g_strdup_printf (_("Series %s: %s"), number, item->series->name);
      GtkWidget *check;
      gint64 *id = g_new (gint64, 1);

      check = gtk_check_button_new_with_label (label);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
      *id = item->series->id;
      g_object_set_data_full (G_OBJECT (check), "komi-series-id", id, g_free);
      gtk_box_append (GTK_BOX (box), check);
      g_ptr_array_add (pick->checks, check);
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 300);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), box);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), scrolled);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "choose", _("_Choose a Folder…"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "choose",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "choose");
  g_signal_connect (dialog, "response", G_CALLBACK (on_pick_response), pick);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_komi_window_class_init_publish (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.publish", NULL, publish_activated);
}
