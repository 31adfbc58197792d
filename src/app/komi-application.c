/* komi-application.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <gio/gdesktopappinfo.h>
#include <glib/gi18n.h>

#include "komi-application.h"
#include "komi-demo.h"
#include "komi-library.h"
#include "komi-preferences-window.h"
#include "komi-settings.h"
#include "komi-shards-window.h"
#include "komi-store.h"
#include "komi-window.h"

struct _KomiApplication
{
  AdwApplication parent_instance;

  GSettings     *settings;   /* the theme; NULL without the schema */
};

G_DEFINE_FINAL_TYPE (KomiApplication, komi_application, ADW_TYPE_APPLICATION)

KomiApplication *
komi_application_new (void)
{
  return g_object_new (KOMI_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/io/github/komigo/Komi",
                       NULL);
}

/* The window showing @path, if one does. */
static KomiWindow *
find_window (GtkApplication *app, const char *path)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (KOMI_IS_WINDOW (l->data)
        && g_strcmp0 (komi_library_get_path (komi_window_get_library (l->data)), path) == 0)
      return l->data;
  return NULL;
}

/* KOMI_SMOKE_TEST=1 (tests/test-install.sh): once the first window is on
 * screen, say which catalogue and icon the application found, whether a
 * desktop shell would list it (its desktop entry, looked up on
 * XDG_DATA_DIRS as an app grid does, and that entry's icon) and which
 * library and window size the settings chose, then quit with status 0. */
static gboolean
smoke_test_quit (gpointer app)
{
  g_application_quit (app);
  return G_SOURCE_REMOVE;
}

static void
smoke_test_mapped (GtkWidget *window, gpointer app)
{
  GtkIconTheme *icons = gtk_icon_theme_get_for_display (gtk_widget_get_display (window));
  g_autoptr(GDesktopAppInfo) entry = g_desktop_app_info_new (APPLICATION_ID ".desktop");
  GIcon *entry_icon = entry != NULL ? g_app_info_get_icon (G_APP_INFO (entry)) : NULL;
  KomiLibrary *library = komi_window_get_library (KOMI_WINDOW (window));
  int width, height;

  g_print ("komi smoke test: window mapped\n");
  g_print ("locale dir: %s\n", bindtextdomain (GETTEXT_PACKAGE, NULL));
  /* Translators: the sidebar's first section, as in komi-window.ui */
  g_print ("Series: %s\n", _("Series"));
  g_print ("icon: %s\n", gtk_icon_theme_has_icon (icons, APPLICATION_ID) ? "found" : "missing");
  g_print ("desktop entry: %s\n", entry != NULL && g_app_info_should_show (G_APP_INFO (entry))
                                  ? g_desktop_app_info_get_filename (entry) : "missing");
  g_print ("desktop entry icon: %s\n", entry_icon != NULL
                                       && gtk_icon_theme_has_gicon (icons, entry_icon)
                                       ? "found" : "missing");
  g_print ("library: %s\n", komi_library_get_path (library));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_print ("window size: %dx%d\n", width, height);
  g_idle_add (smoke_test_quit, app);
}

static KomiWindow *
open_library (KomiApplication *self, const char *path)
{
  KomiWindow *window = find_window (GTK_APPLICATION (self), path);
  g_autoptr(KomiLibrary) library = NULL;

  if (window == NULL)
    {
      library = komi_library_new (path);
      window = komi_window_new (GTK_APPLICATION (self), library);
      komi_library_reload (library);
    }
  if (g_getenv ("KOMI_SMOKE_TEST") != NULL)
    g_signal_connect (window, "map", G_CALLBACK (smoke_test_mapped), self);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* Runs in the primary instance, also for a second `komi --db …`: the
 * path is resolved against the caller's folder. */
static int
komi_application_command_line (GApplication            *app,
                               GApplicationCommandLine *command_line)
{
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autofree char *db = NULL;
  g_autofree char *path = NULL;
  g_autofree char **files = NULL;
  g_autoptr(GPtrArray) watched = g_ptr_array_new_with_free_func (g_free);
  gboolean watch = g_variant_dict_contains (options, "watch");
  KomiWindow *window;

  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &files);
  if (watch != (files != NULL && files[0] != NULL))
    {
      g_application_command_line_printerr (command_line, "komi: %s\n",
        watch ? _("--watch needs the libraries to watch: komi --watch shard-*.db")
              : _("give a library with --db PATH, or the libraries of a series' shards "
                  "with --watch shard-*.db"));
      return 2;
    }
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_application_command_line_create_file_for_arg (command_line,
                                                                              files[i]);

      g_ptr_array_add (watched, g_file_get_path (file));
    }

  if (g_variant_dict_lookup (options, "db", "^ay", &db))
    {
      g_autoptr(GFile) file = g_application_command_line_create_file_for_arg (command_line, db);

      path = g_file_get_path (file);
    }
  else
    path = komi_settings_library_path ();
  window = open_library (KOMI_APPLICATION (app), path);
  if (watched->len > 0)
    {
      g_ptr_array_add (watched, NULL);
      gtk_window_present (GTK_WINDOW (komi_shards_window_new (
        GTK_WINDOW (window), (const char * const *) watched->pdata, 2)));
    }
  return 0;
}

static int
komi_application_handle_local_options (GApplication *app,
                                       GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("komi %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

static void
komi_application_activate (GApplication *app)
{
  g_autofree char *path = komi_settings_library_path ();

  open_library (KOMI_APPLICATION (app), path);
}

/* Quitting closes each window the way its close button does; a window
 * running a series asks first, before any window closes, and Keep Running
 * keeps them all (the review windows too). The application ends with its
 * last window. */
static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  /* Held: closing one window may destroy another (its transient ones). */
  g_autolist(GtkWindow) windows = g_list_copy (gtk_application_get_windows (app));

  for (GList *l = windows; l != NULL; l = l->next)
    g_object_ref (l->data);

  for (GList *l = windows; l != NULL; l = l->next)
    if (KOMI_IS_WINDOW (l->data) && komi_window_ask_quit (l->data))
      return;
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  const char *developers[] = { _("The Komi authors"), NULL };

  adw_show_about_window (window,
                         "application-name", _("Komi"),
                         "application-icon", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Benchmark matches of language models at 9x9 Go, "
                                       "against a fixed ladder of reference opponents, "
                                       "under a frozen protocol."),
                         "developers", developers,
                         /* Translators: your names, one a line, as the About window lists them */
                         "translator-credits", _("translator-credits"),
                         "website", "https://github.com/komigo/komi",
                         "issue-url", "https://github.com/komigo/komi/issues",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "copyright", "© 2026 The Komi authors",
                         NULL);
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (komi_preferences_window_new (window)));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated },
  { "about", about_activated },
  { "preferences", preferences_activated },
};

/* Every shortcut of the application, in one place. */
static const struct
{
  const char *action;
  const char *accels[3];
} shortcuts[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "window.close", { "<Control>w", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.new-series", { "<Control>n", NULL } },
  { "win.reload", { "<Control>r", "F5", NULL } },
  { "win.pause-series", { "<Control>p", NULL } },
  { "win.show-page::series", { "<Alt>1", NULL } },
  { "win.show-page::players", { "<Alt>2", NULL } },
  /* In the sidebar's order. */
  { "win.show-page::games", { "<Alt>3", NULL } },
  { "win.show-page::ladder", { "<Alt>4", NULL } },
  { "review.first-move", { "<Alt>Home", NULL } },
  { "review.previous-move", { "<Alt>Left", NULL } },
  { "review.next-move", { "<Alt>Right", NULL } },
  { "review.last-move", { "<Alt>End", NULL } },
};

static void
komi_application_startup (GApplication *app)
{
  G_APPLICATION_CLASS (komi_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  for (guint i = 0; i < G_N_ELEMENTS (shortcuts); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), shortcuts[i].action,
                                           shortcuts[i].accels);
  /* Dark mode: AdwStyleManager follows the desktop unless the theme
   * preference forces light or dark, and every widget of ours (the board
   * too) follows the style manager. */
  KOMI_APPLICATION (app)->settings = komi_settings_new ();
  if (KOMI_APPLICATION (app)->settings != NULL)
    komi_preferences_follow_theme (KOMI_APPLICATION (app)->settings);
}

/* The demo's rehearsal server lives as long as the application: the last
 * window closes only after its series stopped. */
static void
komi_application_shutdown (GApplication *app)
{
  komi_demo_shutdown ();
  g_clear_object (&KOMI_APPLICATION (app)->settings);
  G_APPLICATION_CLASS (komi_application_parent_class)->shutdown (app);
}

static void
komi_application_class_init (KomiApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = komi_application_startup;
  app_class->activate = komi_application_activate;
  app_class->shutdown = komi_application_shutdown;
  app_class->command_line = komi_application_command_line;
  app_class->handle_local_options = komi_application_handle_local_options;
}

static void
komi_application_init (KomiApplication *self)
{
  static const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("The library to open (default: the one komi-cli uses)"), N_("PATH") },
    { "watch", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Watch the series of the libraries given (a series' shards, komi-cli run --shard "
         "K/N): games ended over all shards, per shard, ETA"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, N_("[LIBRARY.db…]") },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
}
