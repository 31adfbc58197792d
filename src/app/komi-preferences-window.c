/* komi-preferences-window.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-player-check.h"
#include "komi-preferences-window.h"
#include "komi-settings.h"
#include "komi-ui-util.h"
#include "komi-store.h"

/* A path kept in a string key, shown as a row's subtitle and chosen with a
 * native file chooser (a portal inside Flatpak). */
typedef struct
{
  const char *key;
  const char *group;    /* the template's group the row goes into */
  const char *title;    /* N_() */
  const char *env;      /* the variable an empty key falls back to, as komi-cli reads it */
  gboolean    save;     /* the library may be a new file */
} PathRow;

static const PathRow path_rows[] = {
  { "library-path", "library_group", N_("Library File"), NULL, TRUE },
  { "gnugo-path", "gnugo_group", N_("GNU Go Binary"), "KOMI_GNUGO", FALSE },
  { "katago-binary", "katago_group", N_("KataGo Binary"), "KOMI_KATAGO", FALSE },
  { "katago-model", "katago_group", N_("Network File"), "KOMI_KATAGO_MODEL", FALSE },
  { "katago-config", "katago_group", N_("GTP Config File"), "KOMI_KATAGO_CONFIG", FALSE },
};

static const char *referees[] = { "gnugo", "katago", "none", NULL };
static const char *ladders[] = { "shipped", "library", NULL };
static const char *themes[] = { "default", "light", "dark", NULL };

struct _KomiPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings          *settings;      /* NULL without the schema */
  GCancellable       *checking[2];   /* GNU Go's, KataGo's check under way, or NULL */
  GtkButton          *check_button[2];
  char               *check_label[2];  /* the buttons' own labels */

  GtkSpinButton      *jobs_spin;
  GtkSpinButton      *mistake_spin;
  GtkSpinButton      *blunder_spin;
  AdwComboRow        *referee_row;
  AdwComboRow        *ladder_row;
  AdwComboRow        *theme_row;
  AdwPreferencesGroup *library_group;
  AdwPreferencesGroup *gnugo_group;
  AdwPreferencesGroup *katago_group;
  AdwActionRow       *path_row[G_N_ELEMENTS (path_rows)];
  AdwActionRow       *version_row[2];  /* GNU Go, KataGo: after a check */
};

G_DEFINE_FINAL_TYPE (KomiPreferencesWindow, komi_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* A combo row's index ↔ a key's choice, both ways, for g_settings_bind. */
static gboolean
choice_to_index (GValue *value, GVariant *variant, gpointer user_data)
{
  const char **choices = user_data;
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; choices[i] != NULL; i++)
    if (g_strcmp0 (s, choices[i]) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
index_to_choice (const GValue *value, const GVariantType *type, gpointer user_data)
{
  const char **choices = user_data;
  guint i = g_value_get_uint (value);

  return i < g_strv_length ((char **) choices) ? g_variant_new_string (choices[i]) : NULL;
}

static void
update_path_row (KomiPreferencesWindow *self, guint i)
{
  g_autofree char *path = g_settings_get_string (self->settings, path_rows[i].key);

  const char *env = path_rows[i].env != NULL ? g_getenv (path_rows[i].env) : NULL;
  g_autofree char *text = NULL;

  /* Empty, the path used all the same, not the variable's name. */
  if (*path != '\0')
    text = g_strdup (path);
  else if (path_rows[i].env == NULL)
    {
      g_autofree char *library = g_build_filename (g_get_user_data_dir (), "komi", "library.db",
                                                   NULL);

      /* TRANSLATORS: %s is a path. */
      text = g_strdup_printf (_("Default: %s"), library);
    }
  else if (env != NULL && *env != '\0')
    /* TRANSLATORS: a path, then the environment variable that gave it. */
    text = g_strdup_printf (_("Default: %s (from %s)"), env, path_rows[i].env);
  else if (g_str_equal (path_rows[i].key, "gnugo-path"))
    text = g_strdup_printf (_("Default: %s"), GNUGO_PATH);
  else
    /* TRANSLATORS: %s is an environment variable, KOMI_KATAGO. */
    text = g_strdup_printf (_("Not set: choose the file here, or set %s before starting Komi"),
                            path_rows[i].env);
  adw_action_row_set_subtitle (self->path_row[i], text);
}

static void
on_setting_changed (KomiPreferencesWindow *self, const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (path_rows); i++)
    if (g_strcmp0 (key, path_rows[i].key) == 0)
      update_path_row (self, i);
}

static void
on_file_chosen (GtkNativeDialog *chooser, int response, gpointer user_data)
{
  KomiPreferencesWindow *self = user_data;
  const char *key = g_object_get_data (G_OBJECT (chooser), "komi-key");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        g_settings_set_string (self->settings, key, path);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
choose_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  KomiPreferencesWindow *self = KOMI_PREFERENCES_WINDOW (widget);
  guint i = g_variant_get_uint32 (parameter);
  GtkFileChooserNative *chooser;
  g_autofree char *current = NULL;

  g_return_if_fail (i < G_N_ELEMENTS (path_rows));

  chooser = gtk_file_chooser_native_new (_(path_rows[i].title), GTK_WINDOW (self),
                                         path_rows[i].save ? GTK_FILE_CHOOSER_ACTION_SAVE
                                                           : GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Select"), _("_Cancel"));
  current = g_settings_get_string (self->settings, path_rows[i].key);
  if (*current != '\0')
    {
      g_autoptr(GFile) file = g_file_new_for_path (current);

      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), file, NULL);
    }
  g_object_set_data (G_OBJECT (chooser), "komi-key", (gpointer) path_rows[i].key);
  g_signal_connect (chooser, "response", G_CALLBACK (on_file_chosen), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
reset_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  KomiPreferencesWindow *self = KOMI_PREFERENCES_WINDOW (widget);
  guint i = g_variant_get_uint32 (parameter);

  g_return_if_fail (i < G_N_ELEMENTS (path_rows));
  g_settings_reset (self->settings, path_rows[i].key);
}

/* Check again, or Cancel while a check is under way. */
static void
show_checking (KomiPreferencesWindow *self, guint i, GCancellable *checking)
{
  if (self->checking[i] != NULL)
    g_cancellable_cancel (self->checking[i]);
  g_set_object (&self->checking[i], checking);
  gtk_button_set_label (self->check_button[i],
                        checking == NULL ? self->check_label[i]
                        : i == 0 ? _("_Cancel") : _("Cance_l"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->check_button[i]),
                               checking != NULL ? _("Stop the check")
                               : i == 0 ? _("Start GNU Go and show its version")
                                        : _("Start KataGo and show its version"));
}

typedef struct
{
  KomiPreferencesWindow *window;     /* a reference */
  GCancellable          *checking;   /* a reference */
  guint                  i;
} Checking;

static void
on_checked (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Checking *c = user_data;
  AdwActionRow *row = c->window->version_row[c->i];
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayerCheck) check = komi_player_check_finish (result, &error);

  /* Cancelled (the button, or the window closing): already said. */
  if (!g_cancellable_is_cancelled (c->checking))
    {
      g_autofree char *text = NULL;

      if (check != NULL && check->version != NULL)
        /* Translators: an engine's name and version, "GNU Go 3.8" */
        text = g_strdup_printf (_("%s %s"), check->name, check->version);
      else if (check != NULL)
        text = g_strdup (check->name);
      else
        text = g_strdup_printf ("✗ %s", error->message);
      adw_action_row_set_subtitle (row, text);
      g_object_set_data (G_OBJECT (row), "komi-checked", GINT_TO_POINTER (check != NULL));
      show_checking (c->window, c->i, NULL);
    }
  g_object_unref (c->window);
  g_object_unref (c->checking);
  g_free (c);
}

/* A path set here, or else in @variable. */
static gboolean
have_path (const char *setting, const char *variable)
{
  const char *env = g_getenv (variable);

  return setting != NULL || (env != NULL && *env != '\0');
}

/* Starts the engine as a series would, with the paths set here, and shows
 * its name and version (or why it did not start). */
static void
check_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  KomiPreferencesWindow *self = KOMI_PREFERENCES_WINDOW (widget);
  gboolean katago = g_strcmp0 (g_variant_get_string (parameter, NULL), "katago") == 0;
  AdwActionRow *row = self->version_row[katago];
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions opts = { 0 };
  Checking *c;

  /* The same button cancels a check under way (an engine that hangs, a
   * large network loading). */
  if (self->checking[katago] != NULL)
    {
      show_checking (self, katago, NULL);
      adw_action_row_set_subtitle (row, _("Check cancelled"));
      g_object_set_data (G_OBJECT (row), "komi-checked", GINT_TO_POINTER (FALSE));
      return;
    }
  komi_settings_engine_options (&opts, strs);
  gtk_widget_set_visible (GTK_WIDGET (row), TRUE);
  /* The players' own message names komi-cli's options; here the way out
   * is the rows above. */
  if (katago && !(have_path (opts.katago_binary, "KOMI_KATAGO")
                  && have_path (opts.katago_model, "KOMI_KATAGO_MODEL")
                  && have_path (opts.katago_config, "KOMI_KATAGO_CONFIG")))
    {
      adw_action_row_set_subtitle (row, _("✗ KataGo needs all three files: choose the missing "
                                          "ones above, or set KOMI_KATAGO, KOMI_KATAGO_MODEL "
                                          "and KOMI_KATAGO_CONFIG before starting Komi"));
      g_object_set_data (G_OBJECT (row), "komi-checked", GINT_TO_POINTER (FALSE));
      return;
    }
  adw_action_row_set_subtitle (row, _("Starting the engine…"));
  c = g_new0 (Checking, 1);
  c->window = g_object_ref (self);
  c->checking = g_cancellable_new ();
  c->i = katago;
  show_checking (self, katago, c->checking);
  komi_player_check_with_options_async (katago ? "katago:2" : "gnugo:1", &opts, c->checking,
                                        on_checked, c);
}

static GtkWidget *
icon_button (const char *icon, const char *tooltip, const char *action, guint i)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", i);
  return button;
}

static void
build_rows (KomiPreferencesWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (path_rows); i++)
    {
      AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (
        gtk_widget_get_template_child (GTK_WIDGET (self), KOMI_TYPE_PREFERENCES_WINDOW,
                                       path_rows[i].group));
      AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(path_rows[i].title));
      adw_action_row_add_suffix (row, icon_button ("document-open-symbolic", _("Choose a File"),
                                                   "prefs.choose", i));
      adw_action_row_add_suffix (row, icon_button ("edit-clear-symbolic", _("Use the Default"),
                                                   "prefs.reset", i));
      gtk_widget_set_name (GTK_WIDGET (row), path_rows[i].key);
      adw_preferences_group_add (group, GTK_WIDGET (row));
      self->path_row[i] = row;
    }
  for (guint i = 0; i < 2; i++)
    {
      AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Version"));
      gtk_widget_set_name (GTK_WIDGET (row), i == 0 ? "gnugo-version" : "katago-version");
      gtk_widget_set_visible (GTK_WIDGET (row), FALSE);   /* until a check */
      adw_preferences_group_add (i == 0 ? self->gnugo_group : self->katago_group,
                                 GTK_WIDGET (row));
      self->version_row[i] = row;
    }
}

static void
komi_preferences_window_dispose (GObject *object)
{
  KomiPreferencesWindow *self = KOMI_PREFERENCES_WINDOW (object);

  for (guint i = 0; i < 2; i++)
    {
      if (self->checking[i] != NULL)
        g_cancellable_cancel (self->checking[i]);
      g_clear_object (&self->checking[i]);
      g_clear_pointer (&self->check_label[i], g_free);
    }
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), KOMI_TYPE_PREFERENCES_WINDOW);
  G_OBJECT_CLASS (komi_preferences_window_parent_class)->dispose (object);
}

static void
komi_preferences_window_class_init (KomiPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, jobs_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, mistake_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, blunder_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, referee_row);
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, ladder_row);
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, theme_row);
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, library_group);
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, gnugo_group);
  gtk_widget_class_bind_template_child (widget_class, KomiPreferencesWindow, katago_group);
  gtk_widget_class_bind_template_child_full (widget_class, "gnugo_check", FALSE,
                                             G_STRUCT_OFFSET (KomiPreferencesWindow,
                                                              check_button[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "katago_check", FALSE,
                                             G_STRUCT_OFFSET (KomiPreferencesWindow,
                                                              check_button[1]));

  gtk_widget_class_install_action (widget_class, "prefs.choose", "u", choose_activated);
  gtk_widget_class_install_action (widget_class, "prefs.reset", "u", reset_activated);
  gtk_widget_class_install_action (widget_class, "prefs.check", "s", check_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
komi_preferences_window_init (KomiPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < 2; i++)
    self->check_label[i] = g_strdup (gtk_button_get_label (self->check_button[i]));
  self->settings = komi_settings_new ();
  build_rows (self);
  /* A figure out of range is refused with the range, as the forms do. */
  {
    GtkSpinButton *spins[] = { self->jobs_spin, self->mistake_spin, self->blunder_spin };
    const char *names[] = { N_("Games at once"), N_("Mistake"), N_("Blunder") };

    for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
      komi_spin_button_refuse_out_of_range (
        spins[i], _(names[i]), gtk_widget_get_ancestor (GTK_WIDGET (spins[i]),
                                                        ADW_TYPE_ACTION_ROW));
  }

  if (self->settings == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self), FALSE);
      return;
    }
  g_settings_bind (self->settings, "default-jobs", self->jobs_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "mistake-threshold", self->mistake_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "blunder-threshold", self->blunder_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "default-referee", self->referee_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_to_index, index_to_choice,
                                referees, NULL);
  g_settings_bind_with_mapping (self->settings, "rating-ladder", self->ladder_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_to_index, index_to_choice,
                                ladders, NULL);
  g_settings_bind_with_mapping (self->settings, "color-scheme", self->theme_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_to_index, index_to_choice,
                                themes, NULL);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_setting_changed), self,
                           G_CONNECT_SWAPPED);
  for (guint i = 0; i < G_N_ELEMENTS (path_rows); i++)
    update_path_row (self, i);
}

KomiPreferencesWindow *
komi_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (KOMI_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       NULL);
}

static void
apply_theme (GSettings *settings)
{
  g_autofree char *scheme = g_settings_get_string (settings, "color-scheme");
  AdwColorScheme color = ADW_COLOR_SCHEME_DEFAULT;

  if (g_strcmp0 (scheme, "light") == 0)
    color = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_strcmp0 (scheme, "dark") == 0)
    color = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), color);
}

void
komi_preferences_follow_theme (GSettings *settings)
{
  g_return_if_fail (G_IS_SETTINGS (settings));

  g_signal_connect (settings, "changed::color-scheme", G_CALLBACK (apply_theme), NULL);
  apply_theme (settings);
}
