/* komi-window.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-ladder-page.h"
#include "komi-opponent-dialog.h"
#include "komi-players-page.h"
#include "komi-provider-dialog.h"
#include "komi-review-window.h"
#include "komi-series-page.h"
#include "komi-settings.h"
#include "komi-shards-window.h"
#include "komi-window-private.h"

G_DEFINE_FINAL_TYPE (KomiWindow, komi_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_LIBRARY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KomiWindow *
komi_window_new (GtkApplication *application,
                 KomiLibrary    *library)
{
  return g_object_new (KOMI_TYPE_WINDOW, "application", application, "library", library, NULL);
}

static void
on_reload_toast_dismissed (KomiWindow *self,
                           AdwToast   *toast)
{
  if (self->reload_toast == toast)
    g_clear_object (&self->reload_toast);
}

/* Says the library was read again. A second reload while the first one's
 * toast is up keeps that toast, which already says it, rather than
 * queueing the same words behind it or replacing it: dismissing a toast
 * of libadwaita 1.2 while another is added lets the overlay's animation
 * read the dismissed toast after it is freed (valgrind showed it; about
 * one run in 25 of test-app-shortcuts crashed so after its F5). */
static void
show_reloaded (KomiWindow *self)
{
  AdwToast *toast;

  if (self->reload_toast != NULL)
    return;
  toast = adw_toast_new (_("Library reloaded"));
  self->reload_toast = g_object_ref (toast);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_reload_toast_dismissed), self,
                           G_CONNECT_SWAPPED);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
on_library_state (KomiWindow *self)
{
  KomiLibraryState state = komi_library_get_state (self->library);
  const char *visible = gtk_stack_get_visible_child_name (self->state_stack);

  switch (state)
    {
    case KOMI_LIBRARY_STATE_LOADING:
      /* A reload keeps the rows on screen until the new ones arrive. */
      if (g_strcmp0 (visible, "ready") != 0)
        gtk_stack_set_visible_child_name (self->state_stack, "loading");
      return;
    case KOMI_LIBRARY_STATE_MISSING:
    case KOMI_LIBRARY_STATE_FAILED:
      adw_status_page_set_title (self->problem_page, state == KOMI_LIBRARY_STATE_MISSING
                                                     ? _("No Library Yet")
                                                     : _("The Library Cannot Be Read"));
      adw_status_page_set_description (self->problem_page,
                                       komi_library_get_message (self->library));
      gtk_stack_set_visible_child_name (self->state_stack, "problem");
      break;
    case KOMI_LIBRARY_STATE_READY:
      gtk_stack_set_visible_child_name (self->state_stack, "ready");
      _komi_window_offer_interrupted (self);
      _komi_window_update_run_actions (self);
      if (self->toast_on_load)
        show_reloaded (self);
      break;
    default:
      g_assert_not_reached ();
    }
  self->toast_on_load = FALSE;
}

void
komi_window_set_library (KomiWindow  *self,
                         KomiLibrary *library)
{
  g_return_if_fail (KOMI_IS_WINDOW (self));
  g_return_if_fail (KOMI_IS_LIBRARY (library));

  if (self->library == library)
    return;
  g_set_object (&self->library, library);
  self->interrupted_offered = FALSE;
  g_signal_group_set_target (self->library_signals, library);
  komi_series_page_set_library (self->series_page, library);
  komi_list_page_set_library (KOMI_LIST_PAGE (self->players_page), library);
  komi_list_page_set_library (KOMI_LIST_PAGE (self->ladder_page), library);
  komi_games_page_set_library (self->games_page, library);
  adw_window_title_set_subtitle (self->content_title, komi_library_get_path (library));
  on_library_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIBRARY]);
}

KomiLibrary *
komi_window_get_library (KomiWindow *self)
{
  g_return_val_if_fail (KOMI_IS_WINDOW (self), NULL);
  return self->library;
}

KomiSeriesPage *
komi_window_get_series_page (KomiWindow *self)
{
  g_return_val_if_fail (KOMI_IS_WINDOW (self), NULL);
  return self->series_page;
}

const char *
komi_window_get_page (KomiWindow *self)
{
  g_return_val_if_fail (KOMI_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->page_stack);
}

void
komi_window_show_page (KomiWindow *self,
                       const char *name)
{
  GtkWidget *child;
  GtkWidget *row;

  g_return_if_fail (KOMI_IS_WINDOW (self));

  child = gtk_stack_get_child_by_name (self->page_stack, name);
  if (child == NULL)
    return;
  gtk_stack_set_visible_child (self->page_stack, child);
  adw_window_title_set_title (self->content_title,
                              gtk_stack_page_get_title (gtk_stack_get_page (self->page_stack,
                                                                            child)));
  /* Keep the sidebar's selection in step when a shortcut switched pages. */
  for (row = gtk_widget_get_first_child (GTK_WIDGET (self->sidebar)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (g_strcmp0 (gtk_widget_get_name (row), name) == 0)
      gtk_list_box_select_row (self->sidebar, GTK_LIST_BOX_ROW (row));
  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_FORWARD);
}

static void
on_sidebar_row_activated (GtkListBox    *box,
                          GtkListBoxRow *row,
                          KomiWindow    *self)
{
  komi_window_show_page (self, gtk_widget_get_name (GTK_WIDGET (row)));
}

/* Actions */

static void
reload_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);

  self->toast_on_load = TRUE;
  komi_library_reload (self->library);
}

static void
back_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  adw_leaflet_navigate (KOMI_WINDOW (widget)->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

static void
show_page_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  komi_window_show_page (KOMI_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
new_provider_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  gtk_window_present (GTK_WINDOW (komi_provider_dialog_new (GTK_WINDOW (widget))));
}

static void
on_edit_provider_response (GtkNativeDialog *dialog,
                           int              response,
                           KomiWindow      *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  KomiProviderDialog *editor;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL && (path = g_file_get_path (file)) == NULL)
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Choose a profile file on this computer")));
  if (path != NULL)
    {
      editor = komi_provider_dialog_new_for_file (GTK_WINDOW (self), path, &error);
      if (editor != NULL)
        gtk_window_present (GTK_WINDOW (editor));
      else
        adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
    }
  g_object_unref (dialog);
}

/* Opens a profile file where New Model Provider saves them. */
static void
edit_provider_activated (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "komi", "providers", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Edit a Model Provider"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Edit"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Provider profiles"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  if (g_file_query_exists (folder, NULL))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  g_signal_connect (chooser, "response", G_CALLBACK (on_edit_provider_response), self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* win.review-game (x): the game of that id in a review window of its own. */
static void
review_game_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  KomiReviewWindow *review;

  if (self->library == NULL)
    return;
  review = komi_review_window_new (GTK_WINDOW (self), self->library,
                                   g_variant_get_int64 (parameter));
  gtk_window_present (GTK_WINDOW (review));
}

static void
new_opponent_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  gtk_window_present (GTK_WINDOW (komi_opponent_dialog_new (GTK_WINDOW (widget), NULL)));
}

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  KomiWindow      *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(KomiLibrary) library = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL && (path = g_file_get_path (file)) == NULL)
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Choose a library file on this computer")));
  if (path != NULL)
    {
      library = komi_library_new (path);
      komi_window_set_library (self, library);
      komi_library_reload (library);
    }
  g_object_unref (dialog);
}

/* A chooser of Komi libraries (*.db), starting in the open library's
 * folder; @on_response gets the window. */
static void
show_library_chooser (KomiWindow *self,
                      const char *title,
                      const char *accept,
                      gboolean    several,
                      GCallback   on_response)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GFile) folder = NULL;
  g_autofree char *dir = NULL;

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         accept, _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), several);
  gtk_file_filter_set_name (filter, _("Komi libraries"));
  gtk_file_filter_add_pattern (filter, "*.db");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  dir = g_path_get_dirname (komi_library_get_path (self->library));
  folder = g_file_new_for_path (dir);
  if (g_file_query_exists (folder, NULL))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  g_signal_connect (chooser, "response", on_response, self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  show_library_chooser (KOMI_WINDOW (widget), _("Open a Library"), _("_Open"), FALSE,
                        G_CALLBACK (on_open_response));
}

static void
on_watch_shards_response (GtkNativeDialog *dialog,
                          int              response,
                          KomiWindow      *self)
{
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  if (response == GTK_RESPONSE_ACCEPT)
    files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
  for (guint i = 0; files != NULL && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      char *path = g_file_get_path (file);

      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  if (files != NULL && paths->len == 0)
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Choose the shards’ libraries on this "
                                                  "computer")));
  if (paths->len > 0)
    {
      g_ptr_array_add (paths, NULL);
      gtk_window_present (GTK_WINDOW (komi_shards_window_new (
        GTK_WINDOW (self), (const char * const *) paths->pdata, 2)));
    }
  g_object_unref (dialog);
}

/* win.watch-shards: the libraries of a series' shards (komi-cli run
 * --shard K/N), or a library merged into, chosen together and watched. */
static void
watch_shards_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  show_library_chooser (KOMI_WINDOW (widget), _("Watch the Shards of a Series"), _("_Watch"),
                        TRUE, G_CALLBACK (on_watch_shards_response));
}

/* Verify Library: the Games page verifies every game and marks each. */
static void
verify_library_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);

  komi_window_show_page (self, "games");
  komi_games_page_verify (self->games_page);
}

/* GObject */

static void
komi_window_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  KomiWindow *self = KOMI_WINDOW (object);

  switch (prop_id)
    {
    case PROP_LIBRARY: g_value_set_object (value, self->library); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_window_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  KomiWindow *self = KOMI_WINDOW (object);

  switch (prop_id)
    {
    case PROP_LIBRARY: komi_window_set_library (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The window opens at the size and state it was closed at (GNOME's way:
 * read once, written once on close, not on every resize). */
static void
restore_window_state (KomiWindow *self)
{
  g_autoptr(GSettings) settings = komi_settings_new ();

  if (settings == NULL)
    return;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  komi_series_page_set_list_shown (self->series_page,
                                   g_settings_get_boolean (settings, "series-list-shown"));
}

static gboolean
save_window_state (KomiWindow *self)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  int width, height;

  if (settings == NULL)
    return FALSE;
  /* The unmaximized size, so that unmaximizing later gives it back. */
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_delay (settings);
  if (width > 0)
    g_settings_set_int (settings, "window-width", MAX (width, 360));
  if (height > 0)
    g_settings_set_int (settings, "window-height", MAX (height, 400));
  g_settings_set_boolean (settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_set_boolean (settings, "series-list-shown",
                          komi_series_page_get_list_shown (self->series_page));
  g_settings_apply (settings);
  return FALSE;
}

static void
komi_window_dispose (GObject *object)
{
  KomiWindow *self = KOMI_WINDOW (object);

  _komi_window_dispose_run (self);
  g_clear_object (&self->library_signals);
  g_clear_object (&self->library);
  g_clear_object (&self->reload_toast);
  G_OBJECT_CLASS (komi_window_parent_class)->dispose (object);
}

static void
komi_window_class_init (KomiWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = komi_window_get_property;
  object_class->set_property = komi_window_set_property;
  object_class->dispose = komi_window_dispose;

  properties[PROP_LIBRARY] =
    g_param_spec_object ("library", NULL, NULL, KOMI_TYPE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (KOMI_TYPE_SERIES_PAGE);
  g_type_ensure (KOMI_TYPE_PLAYERS_PAGE);
  g_type_ensure (KOMI_TYPE_LADDER_PAGE);
  g_type_ensure (KOMI_TYPE_GAMES_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-window.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, series_row);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, content_title);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, state_stack);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, problem_page);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, page_stack);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, series_page);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, players_page);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, ladder_page);
  gtk_widget_class_bind_template_child (widget_class, KomiWindow, games_page);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_row_activated);

  gtk_widget_class_install_action (widget_class, "win.reload", NULL, reload_activated);
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_activated);
  gtk_widget_class_install_action (widget_class, "win.watch-shards", NULL,
                                   watch_shards_activated);
  gtk_widget_class_install_action (widget_class, "win.verify-library", NULL,
                                   verify_library_activated);
  gtk_widget_class_install_action (widget_class, "win.back", NULL, back_activated);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_activated);
  gtk_widget_class_install_action (widget_class, "win.new-provider", NULL,
                                   new_provider_activated);
  gtk_widget_class_install_action (widget_class, "win.edit-provider", NULL,
                                   edit_provider_activated);
  gtk_widget_class_install_action (widget_class, "win.review-game", "x", review_game_activated);
  gtk_widget_class_install_action (widget_class, "win.new-opponent", NULL,
                                   new_opponent_activated);
  _komi_window_class_init_run (widget_class);
  _komi_window_class_init_export (widget_class);
  _komi_window_class_init_publish (widget_class);
}

static void
komi_window_init (KomiWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* Connected to each library komi_window_set_library() is given, and
   * only to that one. */
  self->library_signals = g_signal_group_new (KOMI_TYPE_LIBRARY);
  g_signal_group_connect_swapped (self->library_signals, "notify::state",
                                  G_CALLBACK (on_library_state), self);
  gtk_list_box_select_row (self->sidebar, self->series_row);
  adw_window_title_set_title (self->content_title, _("Series"));
  restore_window_state (self);
  g_signal_connect (self, "close-request", G_CALLBACK (save_window_state), NULL);
  _komi_window_init_run (self);
  _komi_window_init_export (self);
}
