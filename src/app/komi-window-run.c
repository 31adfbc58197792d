/* komi-window-run.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-demo.h"
#include "komi-provider.h"
#include "komi-series-dialog.h"
#include "komi-series-keys.h"
#include "komi-settings.h"
#include "komi-window-private.h"

/* Running a series from the window: one at a time, on worker threads (the
 * job), its progress in a bar under the header, the library read again as
 * each game ends, and closing the window during a run asked first. */

static gboolean
job_running (KomiWindow *self)
{
  return self->job != NULL && komi_series_job_get_running (self->job);
}

/* Busy also while the demo's server and profile are readied, or a
 * series' keys looked up, the moment before its job starts: no other run
 * may start then. */
gboolean
_komi_window_run_busy (KomiWindow *self)
{
  return self->demo_prepare != NULL || self->keys_prepare != NULL || job_running (self);
}

/* The library holds the demo series with every game played: running it
 * again would play nothing. */
static gboolean
demo_finished (KomiWindow *self)
{
  GListModel *series;

  if (self->library == NULL || komi_library_get_state (self->library) != KOMI_LIBRARY_STATE_READY)
    return FALSE;
  series = komi_library_get_series (self->library);
  for (guint i = 0; i < g_list_model_get_n_items (series); i++)
    {
      g_autoptr(KomiSeriesItem) item = g_list_model_get_item (series, i);

      if (komi_demo_is_demo (item->series->definition, komi_library_get_path (self->library)))
        return item->series->n_games > 0 && item->series->n_unfinished == 0;
    }
  return FALSE;
}

static void
update_actions (KomiWindow *self)
{
  gboolean busy_now = _komi_window_run_busy (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run-series", !busy_now);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run-series-file", !busy_now);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run-demo",
                                 !busy_now && !demo_finished (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.new-series", !busy_now);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run-definition", !busy_now);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.continue-series", !busy_now);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-series", job_running (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.pause-series", job_running (self));
}

static char *
format_duration (double seconds)
{
  guint s = (guint) (seconds + 0.5);

  return s >= 3600 ? g_strdup_printf ("%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60)
                   : g_strdup_printf ("%u:%02u", s / 60, s % 60);
}

static void
update_bar (KomiWindow *self)
{
  KomiSeriesJob *job = self->job;
  guint done = komi_series_job_get_done (job);
  guint total = komi_series_job_get_total (job);
  double eta = komi_series_job_get_eta (job);
  g_autoptr(GString) text = g_string_new (NULL);

  gboolean paused = komi_series_job_get_paused (job);

  if (komi_series_job_get_name (job) == NULL)
    g_string_append (text, _("Reading the series…"));
  else if (paused)
    g_string_append_printf (text, _("Paused “%s”: %u of %u games"),
                            komi_series_job_get_name (job), done, total);
  else
    g_string_append_printf (text, _("Running “%s”: %u of %u games"),
                            komi_series_job_get_name (job), done, total);
  /* Paused, nothing is left "about" any time: the estimate waits too. */
  if (eta >= 0 && done < total && !paused)
    {
      g_autofree char *left = format_duration (eta);

      g_string_append_printf (text, _(" · %s left"), left);
    }
  /* A model's series says what its calls cost so far, $0 included (a
   * free or unpriced model says so too). */
  if (komi_series_job_get_calls (job) > 0)
    {
      g_autofree char *cost = komi_cost_text (komi_series_job_get_cost (job));

      /* TRANSLATORS: the calls made, then their cost ("$0", "$0.0123"). */
      g_string_append_printf (text,
                              g_dngettext (GETTEXT_PACKAGE, " · %u call, %s spent",
                                           " · %u calls, %s spent",
                                           komi_series_job_get_calls (job)),
                              komi_series_job_get_calls (job), cost);
    }
  gtk_label_set_text (self->run_label, text->str);
  /* A long series name may be cut short in the bar: the tooltip has all. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_label), text->str);
  gtk_progress_bar_set_fraction (self->run_progress, total > 0 ? (double) done / total : 0);
  gtk_button_set_label (self->pause_button, paused ? _("_Resume") : _("_Pause"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->pause_button),
                               paused ? _("Let the games go on from where they wait")
                                      : _("Hold the games after their current move; engines "
                                          "stay up and no game starts"));
}

static void
show_error (KomiWindow *self, const char *heading, const char *body)
{
  GtkWidget *dialog;

  /* One message at a time: another try replaces the last one's. */
  if (self->error_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->error_dialog));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  self->error_dialog = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->error_dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The run's events go to the series page's live state, which draws
 * every move and call as it comes; a game's start or end changes the
 * library's lists (its status, its result), which are read again. */
static void
on_job_event (KomiSeriesJob       *job,
              const KomiLiveEvent *event,
              KomiWindow          *self)
{
  komi_live_run_apply (komi_series_page_get_live_run (self->series_page), event);
  if (event->kind == KOMI_RUN_EVENT_GAME_STARTED || event->kind == KOMI_RUN_EVENT_GAME_FINISHED)
    komi_library_reload (self->library);
}

/* The run's series is begun: the series page shows it and follows its
 * games. */
static void
on_series_begun (KomiWindow *self)
{
  gint64 id = komi_series_job_get_series_id (self->job);

  if (id <= 0 || id == self->followed_series)
    return;
  self->followed_series = id;
  komi_series_page_follow_series (self->series_page, id);
  komi_library_reload (self->library);
}

/* The window goes; a quit that asked goes on with the other windows. */
static void
close_now (KomiWindow *self)
{
  g_autoptr(GtkApplication) app = NULL;

  if (self->quit_after_stop && gtk_window_get_application (GTK_WINDOW (self)) != NULL)
    app = g_object_ref (gtk_window_get_application (GTK_WINDOW (self)));
  gtk_window_destroy (GTK_WINDOW (self));
  if (app != NULL)
    g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
}

static void
on_job_finished (KomiWindow *self)
{
  KomiSeriesJob *job = self->job;
  const GError *error = komi_series_job_get_error (job);
  g_autofree char *text = NULL;

  gtk_revealer_set_reveal_child (self->run_revealer, FALSE);
  update_actions (self);
  komi_library_reload (self->library);
  if (self->close_after_stop)
    {
      close_now (self);
      return;
    }
  if (error != NULL)
    {
      /* A series that never began did not stop: it did not start. */
      show_error (self, komi_series_job_get_series_id (job) > 0 ? _("The Series Stopped")
                                                                : _("The Series Did Not Start"),
                  error->message);
      return;
    }
  if (komi_series_job_get_stopped (job))
    text = g_strdup (_("Stopped. Continue the series to play the rest."));
  else
    text = g_strdup_printf (_("“%s” is finished"), komi_series_job_get_name (job));
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
}

static void
start_job (KomiWindow *self, KomiSeriesJob *job)
{
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions engines = { 0 };

  g_return_if_fail (!job_running (self));

  /* KataGo and GNU Go where the Opponent dialog saved them; unset, the
   * KOMI_* variables as komi-cli reads them. */
  komi_settings_engine_options (&engines, strs);
  komi_series_job_set_engines (job, &engines);

  g_set_object (&self->job, job);
  g_signal_group_set_target (self->job_signals, job);
  self->followed_series = 0;
  komi_live_run_reset (komi_series_page_get_live_run (self->series_page));
  komi_series_job_start (job);
  update_bar (self);
  update_actions (self);
  gtk_revealer_set_reveal_child (self->run_revealer, TRUE);
}

typedef struct
{
  KomiWindow    *window;
  KomiSeriesJob *job;
} KeysStart;

static void
on_keys_prepared (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  KeysStart *start = user_data;
  KomiWindow *self = start->window;
  g_autoptr(KomiSeriesJob) job = start->job;
  g_autoptr(GError) error = NULL;

  g_free (start);
  /* Cancelled: the window is gone, or going. */
  if (!komi_series_keys_prepare_finish (result, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->keys_prepare);
  update_actions (self);
  if (error != NULL)
    {
      gtk_revealer_set_reveal_child (self->run_revealer, FALSE);
      show_error (self, _("An API Key Is Missing"), error->message);
      return;
    }
  start_job (self, job);
}

/* Every series but the demo starts here: the keys of its model providers
 * are looked up in the keyring first (the environment where there is
 * none), and a provider with no key at all stops it before any game. */
static void
start_with_keys (KomiWindow    *self,
                 KomiSeriesJob *job,
                 const char    *definition_path,
                 const char    *definition)
{
  KeysStart *start;

  g_return_if_fail (!_komi_window_run_busy (self));

  start = g_new0 (KeysStart, 1);
  start->window = self;
  start->job = g_object_ref (job);
  self->keys_prepare = g_cancellable_new ();
  update_actions (self);
  gtk_label_set_text (self->run_label, _("Looking up API keys…"));
  gtk_progress_bar_set_fraction (self->run_progress, 0);
  gtk_revealer_set_reveal_child (self->run_revealer, TRUE);
  komi_series_keys_prepare_async (definition_path, definition, self->keys_prepare,
                                  on_keys_prepared, start);
}

static void
run_series_file_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  const char *path = g_variant_get_string (parameter, NULL);
  g_autoptr(KomiSeriesJob) job =
    komi_series_job_new_for_file (komi_library_get_path (self->library), path);

  start_with_keys (self, job, path, NULL);
}

static void
on_run_chooser_response (GtkNativeDialog *dialog,
                         int              response,
                         KomiWindow      *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    path = g_file_get_path (file);
  if (path != NULL && !_komi_window_run_busy (self))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.run-series-file", "s", path);
  g_object_unref (dialog);
}

static void
run_series_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Run a Series"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Run"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Series definitions"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect (chooser, "response", G_CALLBACK (on_run_chooser_response), self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
run_definition_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  const char *definition = g_variant_get_string (parameter, NULL);
  g_autoptr(KomiSeriesJob) job =
    komi_series_job_new_for_definition (komi_library_get_path (self->library), definition);

  start_with_keys (self, job, NULL, definition);
}

static void
new_series_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);

  gtk_window_present (GTK_WINDOW (komi_series_dialog_new (GTK_WINDOW (self), self->library)));
}

typedef struct
{
  KomiWindow *window;
  char       *definition;
} DemoStart;

static void
on_demo_prepared (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  DemoStart *start = user_data;
  KomiWindow *self = start->window;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSeriesJob) job = NULL;
  g_autofree char *definition = g_steal_pointer (&start->definition);

  g_free (start);
  /* Cancelled: the window is gone, or going. */
  if (!komi_demo_prepare_finish (result, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->demo_prepare);
  update_actions (self);
  if (error != NULL)
    {
      show_error (self, _("The Demo Could Not Start"), error->message);
      return;
    }
  job = komi_series_job_new_for_definition (komi_library_get_path (self->library), definition);
  start_job (self, job);
}

/* The rehearsal model's server is started (or found running) and its
 * profile written beside the library, off the UI thread, then the
 * definition runs: the demo's own, or the recorded one of a demo series
 * being continued. */
static void
start_demo (KomiWindow *self, const char *definition)
{
  DemoStart *start;

  g_return_if_fail (!_komi_window_run_busy (self));

  start = g_new0 (DemoStart, 1);
  start->window = self;
  start->definition = g_strdup (definition);
  self->demo_prepare = g_cancellable_new ();
  update_actions (self);
  gtk_label_set_text (self->run_label, _("Starting the rehearsal model…"));
  gtk_progress_bar_set_fraction (self->run_progress, 0);
  gtk_revealer_set_reveal_child (self->run_revealer, TRUE);
  komi_demo_prepare_async (komi_library_get_path (self->library), self->demo_prepare,
                           on_demo_prepared, start);
}

/* The demo series: the rehearsal model (served by this process on
 * loopback: no key, no network) against random and GNU Go level 1. */
static void
run_demo_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  g_autofree char *profile = komi_demo_profile_path (komi_library_get_path (self->library));
  g_autofree char *definition = komi_demo_definition (profile);

  start_demo (self, definition);
}

/* Runs a series of the library again from its recorded definition: the
 * games already ended are kept, unfinished ones resume. */
static void
continue_series_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  GListModel *series = komi_library_get_series (self->library);
  gint64 id = g_variant_get_int64 (parameter);

  for (guint i = 0; i < g_list_model_get_n_items (series); i++)
    {
      g_autoptr(KomiSeriesItem) item = g_list_model_get_item (series, i);

      if (item->series->id == id
          && komi_demo_is_demo (item->series->definition, komi_library_get_path (self->library)))
        {
          /* The server's port changed since: the profile is written again. */
          start_demo (self, item->series->definition);
          return;
        }
      if (item->series->id == id)
        {
          g_autoptr(KomiSeriesJob) job =
            komi_series_job_new_for_definition (komi_library_get_path (self->library),
                                                item->series->definition);

          start_with_keys (self, job, NULL, item->series->definition);
          return;
        }
    }
}

static void
stop_series_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);

  if (job_running (self))
    {
      gtk_label_set_text (self->run_label, _("Stopping: the games in flight keep their moves…"));
      komi_series_job_stop (self->job);
    }
}

/* Pause and resume, one button: the games wait between moves. */
static void
pause_series_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);

  if (job_running (self))
    komi_series_job_set_paused (self->job, !komi_series_job_get_paused (self->job));
}

static void
on_close_response (AdwMessageDialog *dialog,
                   const char       *response,
                   KomiWindow       *self)
{
  if (g_strcmp0 (response, "stop") != 0)
    {
      self->quit_after_stop = FALSE;
      return;
    }
  if (!job_running (self))   /* it ended while the question was open */
    {
      close_now (self);
      return;
    }
  self->close_after_stop = TRUE;
  komi_series_job_stop (self->job);
}

/* Closing during a run asks first; stopping keeps every committed move. */
static gboolean
on_close_request (KomiWindow *self)
{
  GtkWidget *dialog;

  if (!job_running (self))
    return FALSE;
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Stop the Series?"),
                                   _("A series is running. Its games stop where they are and "
                                     "resume when you continue it."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Keep Running"),
                                    "stop", _("_Stop and Close"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stop",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (on_close_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

gboolean
komi_window_ask_quit (KomiWindow *self)
{
  g_return_val_if_fail (KOMI_IS_WINDOW (self), FALSE);

  if (!job_running (self))
    return FALSE;
  self->quit_after_stop = TRUE;
  gtk_window_present (GTK_WINDOW (self));
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

KomiSeriesJob *
komi_window_get_job (KomiWindow *self)
{
  g_return_val_if_fail (KOMI_IS_WINDOW (self), NULL);
  return self->job;
}

void
_komi_window_class_init_run (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, run_revealer);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, run_label);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, run_progress);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, pause_button);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, run_bar);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, run_buttons);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, sidebar_box);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, content_box);

  gtk_widget_class_install_action (widget_class, "win.run-series", NULL, run_series_activated);
  gtk_widget_class_install_action (widget_class, "win.run-series-file", "s",
                                   run_series_file_activated);
  gtk_widget_class_install_action (widget_class, "win.run-demo", NULL, run_demo_activated);
  gtk_widget_class_install_action (widget_class, "win.new-series", NULL, new_series_activated);
  gtk_widget_class_install_action (widget_class, "win.run-definition", "s",
                                   run_definition_activated);
  gtk_widget_class_install_action (widget_class, "win.continue-series", "x",
                                   continue_series_activated);
  gtk_widget_class_install_action (widget_class, "win.stop-series", NULL,
                                   stop_series_activated);
  gtk_widget_class_install_action (widget_class, "win.pause-series", NULL,
                                   pause_series_activated);
}

/* The library was read again: the demo may be over. */
void
_komi_window_update_run_actions (KomiWindow *self)
{
  update_actions (self);
}

/* The run bar under the sidebar's sections while the sidebar is beside
 * the page: the page keeps its height, and the board and the steps under
 * it do not move as a run starts. There the bar is the sidebar's width, the
 * buttons under the progress, and asks for no more width than the sections
 * do (its label wraps at any width), whether it says Pause or Resume. With
 * the sidebar folded the bar goes over the page, in one row. */
static void
place_run_bar (KomiWindow *self)
{
  gboolean beside = !adw_leaflet_get_folded (self->leaflet);
  GtkWidget *bar = GTK_WIDGET (self->run_revealer);
  GtkWidget *place = GTK_WIDGET (beside ? self->sidebar_box : self->content_box);

  if (gtk_widget_get_parent (bar) != place)
    {
      g_object_ref (bar);
      gtk_box_remove (GTK_BOX (gtk_widget_get_parent (bar)), bar);
      if (beside)
        gtk_box_append (self->sidebar_box, bar);
      else   /* under the page's header bar */
        gtk_box_insert_child_after (self->content_box, bar,
                                    gtk_widget_get_first_child (place));
      g_object_unref (bar);
    }
  gtk_revealer_set_transition_type (self->run_revealer,
                                    beside ? GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP
                                           : GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->run_bar),
                                  beside ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (self->run_bar, beside ? 6 : 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->run_bar), beside ? 12 : 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->run_bar), beside ? 12 : 6);
  /* A wrapped label asks for its whole text's width unless told. */
  gtk_label_set_max_width_chars (self->run_label, beside ? 8 : -1);
  for (GtkWidget *b = gtk_widget_get_first_child (GTK_WIDGET (self->run_buttons)); b != NULL;
       b = gtk_widget_get_next_sibling (b))
    gtk_widget_set_hexpand (b, beside);
}

void
_komi_window_init_run (KomiWindow *self)
{
  /* Connected to the job each run starts, and only to that one: an
   * earlier job still ending tells the window nothing. */
  self->job_signals = g_signal_group_new (KOMI_TYPE_SERIES_JOB);
  g_signal_group_connect_swapped (self->job_signals, "notify::name",
                                  G_CALLBACK (update_bar), self);
  g_signal_group_connect_swapped (self->job_signals, "notify::series-id",
                                  G_CALLBACK (on_series_begun), self);
  g_signal_group_connect_swapped (self->job_signals, "notify::done",
                                  G_CALLBACK (update_bar), self);
  g_signal_group_connect_swapped (self->job_signals, "notify::total",
                                  G_CALLBACK (update_bar), self);
  g_signal_group_connect_swapped (self->job_signals, "notify::paused",
                                  G_CALLBACK (update_bar), self);
  g_signal_group_connect_swapped (self->job_signals, "notify::calls",
                                  G_CALLBACK (update_bar), self);
  g_signal_group_connect (self->job_signals, "event", G_CALLBACK (on_job_event), self);
  g_signal_group_connect_swapped (self->job_signals, "finished",
                                  G_CALLBACK (on_job_finished), self);
  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), NULL);
  g_signal_connect_object (self->leaflet, "notify::folded", G_CALLBACK (place_run_bar), self,
                           G_CONNECT_SWAPPED);
  place_run_bar (self);
  update_actions (self);
}

void
_komi_window_dispose_run (KomiWindow *self)
{
  if (self->error_dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->error_dialog),
                                  (gpointer *) &self->error_dialog);
  self->error_dialog = NULL;
  if (self->demo_prepare != NULL)
    g_cancellable_cancel (self->demo_prepare);
  g_clear_object (&self->demo_prepare);
  if (self->keys_prepare != NULL)
    g_cancellable_cancel (self->keys_prepare);
  g_clear_object (&self->keys_prepare);
  /* A job still running keeps itself alive through its task and ends on
   * its own; the window only lets go of it. */
  g_clear_object (&self->job_signals);
  if (self->job != NULL)
    komi_series_job_stop (self->job);
  g_clear_object (&self->job);
}
