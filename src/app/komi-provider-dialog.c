/* komi-provider-dialog.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "komi-json-text.h"
#include "komi-key-store.h"
#include "komi-provider-dialog.h"
#include "komi-provider-dialog-private.h"
#include "komi-provider-form.h"
#include "komi-provider-profile.h"
#include "komi-ui-util.h"


G_DEFINE_FINAL_TYPE (KomiProviderDialog, komi_provider_dialog, ADW_TYPE_WINDOW)

/* Each profile field the dialog edits, with its row. */
static const struct { const char *field; gsize offset; } rows[] = {
  { "name", G_STRUCT_OFFSET (KomiProviderDialog, name_row) },
  { "api", G_STRUCT_OFFSET (KomiProviderDialog, api_row) },
  { "base_url", G_STRUCT_OFFSET (KomiProviderDialog, base_url_row) },
  { "model", G_STRUCT_OFFSET (KomiProviderDialog, model_row) },
  { "key_env", G_STRUCT_OFFSET (KomiProviderDialog, key_name_row) },
  { "temperature", G_STRUCT_OFFSET (KomiProviderDialog, temperature_row) },
  { "max_output_tokens", G_STRUCT_OFFSET (KomiProviderDialog, max_tokens_row) },
  { "reasoning_effort", G_STRUCT_OFFSET (KomiProviderDialog, effort_row) },
  { "thinking_budget", G_STRUCT_OFFSET (KomiProviderDialog, thinking_row) },
  { "max_concurrent", G_STRUCT_OFFSET (KomiProviderDialog, concurrent_row) },
  { "requests_per_minute", G_STRUCT_OFFSET (KomiProviderDialog, rpm_row) },
  { "price_input_per_mtok", G_STRUCT_OFFSET (KomiProviderDialog, price_input_row) },
  { "price_output_per_mtok", G_STRUCT_OFFSET (KomiProviderDialog, price_output_row) },
  { "typical_latency_seconds", G_STRUCT_OFFSET (KomiProviderDialog, latency_row) },
};

#define ROW(self, i) G_STRUCT_MEMBER (GtkWidget *, self, rows[i].offset)

G_STATIC_ASSERT (G_N_ELEMENTS (rows) == 14);

static char *
stripped_text (KomiProviderDialog *self, guint i)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (ROW (self, i)))));
}

/* A field as typed: absent when empty, a number when it reads as one, a
 * string otherwise, so that the parser names the field that is wrong. */
static void
add_member (JsonBuilder *b, const char *field, const char *text)
{
  gint64 whole;
  double number;
  char *end = NULL;

  if (*text == '\0')
    return;
  json_builder_set_member_name (b, field);
  number = g_ascii_strtod (text, &end);
  if (g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &whole, NULL))
    json_builder_add_int_value (b, whole);
  else if (end != text && *end == '\0' && isfinite (number))
    json_builder_add_double_value (b, number);
  else
    json_builder_add_string_value (b, text);
}

/* The fields as a profile file would hold them; never the key. */
static char *
build_profile (KomiProviderDialog *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  GtkStringObject *api = adw_combo_row_get_selected_item (self->api_row);

  json_builder_begin_object (b);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *text = NULL;

      if (ROW (self, i) == GTK_WIDGET (self->api_row))
        {
          json_builder_set_member_name (b, "api");
          json_builder_add_string_value (b, gtk_string_object_get_string (api));
          continue;
        }
      text = stripped_text (self, i);
      /* Names and words stay strings even when they look like numbers. */
      if (*text != '\0' && (g_str_equal (rows[i].field, "name")
                            || g_str_equal (rows[i].field, "model")
                            || g_str_equal (rows[i].field, "key_env")
                            || g_str_equal (rows[i].field, "reasoning_effort")
                            || g_str_equal (rows[i].field, "base_url")))
        {
          json_builder_set_member_name (b, rows[i].field);
          json_builder_add_string_value (b, text);
        }
      else
        add_member (b, rows[i].field, text);
    }
  /* A profile opened for editing keeps what the dialog does not show
   * (constrain, logprobs, retries…) as it was. */
  if (self->extra != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, self->extra);
      while (json_object_iter_next (&iter, &name, &value))
        {
          json_builder_set_member_name (b, name);
          json_builder_add_value (b, json_node_copy (value));
        }
    }
  json_builder_end_object (b);

  /* Numbers as typed (0.15), not as json-glib writes doubles. */
  root = json_builder_get_root (b);
  return komi_json_to_text (root);
}

static void
on_changed (KomiProviderDialog *self, GtkWidget *source)
{
  g_autofree char *json = build_profile (self);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KomiProviderProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  const char *fields[G_N_ELEMENTS (rows)];
  char *problems[G_N_ELEMENTS (rows)] = { NULL, };
  g_autofree char *other = NULL;
  g_autofree char *hidden = NULL;   /* the first field in error not yet shown */
  gboolean typed = self->tried;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      fields[i] = rows[i].field;
      self->touched[i] |= source != NULL && source == ROW (self, i);
      typed |= self->touched[i];
    }
  g_clear_pointer (&self->profile_json, g_free);
  g_clear_pointer (&self->profile, komi_provider_profile_free);

  /* Every field's own error, under it, once the user has changed it. */
  if (json_parser_load_from_data (parser, json, -1, &error)
      && komi_provider_form_check (json_node_get_object (json_parser_get_root (parser)), fields,
                                   G_N_ELEMENTS (rows), problems, &other))
    profile = komi_provider_profile_new_from_json (json_parser_get_root (parser), &error);
  for (guint i = 0; i < G_N_ELEMENTS (rows) && self->error_rows[i] != NULL; i++)
    {
      komi_form_show_error (ROW (self, i), self->error_rows[i], problems[i],
                            self->touched[i] || self->tried);
      if (problems[i] != NULL && !gtk_widget_get_visible (self->error_rows[i]) && hidden == NULL)
        /* TRANSLATORS: a field's title, then what it needs, e.g. "Model: Give the model id…". */
        hidden = g_strdup_printf (_("%s: %s"),
                                  adw_preferences_row_get_title (ADW_PREFERENCES_ROW (ROW (self, i))),
                                  problems[i]);
      g_free (problems[i]);
    }
  if (profile == NULL)
    {
      g_autofree char *text = NULL;

      if (other != NULL)
        text = g_steal_pointer (&other);
      else if (error != NULL)
        text = g_strdup (error->message);
      else if (typed)
        /* Nothing is said before the user types; then, a field in error
         * not yet touched is named, in words, rather than left to Save. */
        text = g_steal_pointer (&hidden);
      gtk_label_set_text (self->error_label, text != NULL ? text : "");
    }
  else
    {
      self->profile_json = g_steal_pointer (&json);
      self->profile = g_steal_pointer (&profile);
      /* A key the keyring did not take stays said until a Save stores one. */
      gtk_label_set_text (self->error_label, self->key_refusal != NULL ? self->key_refusal : "");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->error_label),
                          *gtk_label_get_text (self->error_label) != '\0');
}

/* Save or Test with a field in error: every error shows, and the first
 * field in error comes into view. Returns TRUE when there was one. */
gboolean
_komi_provider_dialog_refuse (KomiProviderDialog *self)
{
  if (self->profile != NULL)
    return FALSE;
  self->tried = TRUE;
  on_changed (self, NULL);
  {
    GtkWidget *fields[G_N_ELEMENTS (rows)];

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      fields[i] = ROW (self, i);
    komi_form_focus_first_error (fields, self->error_rows, G_N_ELEMENTS (rows));
  }
  return TRUE;
}

void
_komi_provider_dialog_show_status (GtkLabel *label, const char *text)
{
  gtk_label_set_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
}

/* Save */

static void
on_written (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(KomiProviderDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  char **args = g_task_get_task_data (G_TASK (result));
  g_autofree char *text = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _komi_provider_dialog_show_status (self->status_label, error->message);
      return;
    }
  g_free (self->saved_path);
  self->saved_path = g_strdup (args[0]);
  text = g_strdup_printf (_("Saved to %s; a series names it as model:%s"), args[0], args[0]);
  _komi_provider_dialog_show_status (self->status_label, text);
}

/* No session bus, or no Secret Service on it (rather than a keyring that
 * runs and refuses: locked, no default collection, a dismissed prompt). */
static gboolean
no_keyring (const GError *error)
{
  if (error->domain == G_IO_ERROR)
    return error->code != G_IO_ERROR_DBUS_ERROR;
  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_SERVER)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_DISCONNECTED)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_EXEC_FAILED)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_CHILD_EXITED);
}

static void
on_key_saved (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(KomiProviderDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *name = self->profile ? self->profile->key_env : NULL;

  if (komi_key_store_save_finish (result, &error))
    {
      /* Test and every series started from the window look it up there
       * (komi-series-keys.c); komi-cli reads the environment. */
      text = g_strdup_printf (_("The key is in the system keyring as %s, where Test and "
                                "series run from Komi find it. komi-cli reads the environment "
                                "variable %s."), name, name);
      g_clear_pointer (&self->key_refusal, g_free);
      if (self->profile != NULL)
        _komi_provider_dialog_show_status (self->error_label, NULL);
      /* Typed once, kept only in the keyring. */
      gtk_editable_set_text (GTK_EDITABLE (self->key_row), "");
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *refusal = NULL;

      /* Said at the top, in words, beside "Saved to…" (the profile was
       * saved; its key was not): D-Bus's own text tells a user nothing.
       * It goes to the log for whoever debugs the keyring. */
      g_message ("The keyring did not store %s: %s", name, error->message);
      if (no_keyring (error))
        refusal = g_strdup_printf (_("The key was not stored: no system "
                                     "keyring (such as GNOME Keyring) is running. Set the "
                                     "environment variable %s to the key before starting "
                                     "Komi, or start a keyring and press Save again."), name);
      else
        refusal = g_strdup_printf (_("The key was not stored: the system "
                                     "keyring is locked or refused it. Unlock it and press "
                                     "Save again, or set the environment variable %s to the "
                                     "key before starting Komi."), name);
      _komi_provider_dialog_show_status (self->key_label, NULL);
      g_free (self->key_refusal);
      self->key_refusal = g_steal_pointer (&refusal);
      if (self->profile != NULL)
        _komi_provider_dialog_show_status (self->error_label, self->key_refusal);
    }
  if (text != NULL)
    _komi_provider_dialog_show_status (self->key_label, text);
}

static void
save_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KomiProviderDialog *self = KOMI_PROVIDER_DIALOG (widget);
  const char *key = gtk_editable_get_text (GTK_EDITABLE (self->key_row));
  g_autoptr(GTask) task = NULL;
  g_autofree char *file = NULL;
  char **args;

  if (_komi_provider_dialog_refuse (self))
    return;
  if (*key != '\0' && self->profile->key_env == NULL)
    {
      komi_form_show_error (GTK_WIDGET (self->key_name_row), self->error_rows[4],
                            _("Name the key (e.g. OPENAI_API_KEY) so that the profile can refer "
                              "to it"), TRUE);
      gtk_widget_grab_focus (GTK_WIDGET (self->key_name_row));
      return;
    }
  file = komi_provider_form_file_name (self->profile->name);
  args = g_new0 (char *, 4);
  /* An edited profile is rewritten where it is, whatever its name now:
   * series name it by its path. */
  args[0] = self->edit_path != NULL ? g_strdup (self->edit_path)
                                    : g_build_filename (self->folder, file, NULL);
  args[1] = g_strconcat (self->profile_json, "\n", NULL);
  if (self->edit_path != NULL || g_strcmp0 (args[0], self->saved_path) == 0)
    args[2] = g_strdup ("replace");
  _komi_provider_dialog_show_status (self->status_label, _("Saving…"));
  task = g_task_new (NULL, self->cancellable, on_written, g_object_ref (self));
  g_task_set_task_data (task, args, (GDestroyNotify) g_strfreev);
  g_task_run_in_thread (task, komi_provider_form_write_thread);
  if (*key != '\0')
    komi_key_store_save_async (self->profile->key_env, key, self->cancellable, on_key_saved,
                               g_object_ref (self));
}

/* Construction */

KomiProviderDialog *
komi_provider_dialog_new (GtkWindow *parent)
{
  return g_object_new (KOMI_TYPE_PROVIDER_DIALOG, "transient-for", parent, NULL);
}

static void
on_stored_key (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(KomiProviderDialog) self = user_data;
  char *key = komi_key_store_lookup_finish (result, NULL);

  if (key == NULL)
    return;
  /* Only that there is one: the key itself never reaches a widget. */
  if (!g_cancellable_is_cancelled (self->cancellable))
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->key_row),
                                   _("API key: stored in keyring (type a new one to replace it)"));
  komi_key_store_free (key);
}

KomiProviderDialog *
komi_provider_dialog_new_for_file (GtkWindow   *parent,
                                   const char  *path,
                                   GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  KomiProviderDialog *self;
  GListModel *apis;
  JsonObject *object;

  g_return_val_if_fail (path != NULL, NULL);

  /* A profile is a small local file, read as the dialog opens. */
  if (!json_parser_load_from_file (parser, path, error))
    {
      g_prefix_error (error, _("Cannot read the provider profile %s: "), path);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not a provider profile (a JSON object)"), path);
      return NULL;
    }
  object = json_node_get_object (json_parser_get_root (parser));

  /* Owned by GTK's list of toplevels, as any window. */
  self = komi_provider_dialog_new (parent);
  gtk_window_set_title (GTK_WINDOW (self), _("Edit Model Provider"));
  self->edit_path = g_strdup (path);
  self->extra = json_object_new ();
  {
    JsonObjectIter iter;
    const char *name;
    JsonNode *value;

    json_object_iter_init (&iter, object);
    while (json_object_iter_next (&iter, &name, &value))
      {
        gboolean shown = FALSE;

        for (guint i = 0; i < G_N_ELEMENTS (rows) && !shown; i++)
          shown = g_str_equal (rows[i].field, name);
        if (!shown)
          json_object_set_member (self->extra, name, json_node_copy (value));
      }
  }

  /* Every row from the file, empty where it has no such member. */
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      JsonNode *node = json_object_get_member (object, rows[i].field);
      g_autofree char *text = node != NULL ? komi_json_member_text (node) : g_strdup ("");

      if (ROW (self, i) != GTK_WIDGET (self->api_row))
        {
          gtk_editable_set_text (GTK_EDITABLE (ROW (self, i)), text);
          continue;
        }
      apis = adw_combo_row_get_model (self->api_row);
      for (guint j = 0; j < g_list_model_get_n_items (apis); j++)
        {
          g_autoptr(GtkStringObject) api = g_list_model_get_item (apis, j);

          if (g_str_equal (gtk_string_object_get_string (api), text))
            adw_combo_row_set_selected (self->api_row, j);
        }
    }
  on_changed (self, NULL);
  if (self->profile != NULL && self->profile->key_env != NULL)
    komi_key_store_lookup_async (self->profile->key_env, self->cancellable, on_stored_key,
                                 g_object_ref (self));
  return self;
}

const char *
komi_provider_dialog_get_edit_path (KomiProviderDialog *self)
{
  g_return_val_if_fail (KOMI_IS_PROVIDER_DIALOG (self), NULL);
  return self->edit_path;
}

void
komi_provider_dialog_set_folder (KomiProviderDialog *self,
                                 const char         *folder)
{
  g_return_if_fail (KOMI_IS_PROVIDER_DIALOG (self));
  g_return_if_fail (folder != NULL);
  g_free (self->folder);
  self->folder = g_strdup (folder);
}

const char *
komi_provider_dialog_get_folder (KomiProviderDialog *self)
{
  g_return_val_if_fail (KOMI_IS_PROVIDER_DIALOG (self), NULL);
  return self->folder;
}

const char *
komi_provider_dialog_get_profile (KomiProviderDialog *self)
{
  g_return_val_if_fail (KOMI_IS_PROVIDER_DIALOG (self), NULL);
  return self->profile_json;
}

const char *
komi_provider_dialog_get_saved_path (KomiProviderDialog *self)
{
  g_return_val_if_fail (KOMI_IS_PROVIDER_DIALOG (self), NULL);
  return self->saved_path;
}

/* Closed (gtk_window_destroy() unrealizes it; it is disposed only when
 * the last reference goes): the Test stops, and the dialog lets go of the
 * window it was opened over, which may be gone before a callback drops
 * the dialog's last reference. */
static void
komi_provider_dialog_unrealize (GtkWidget *widget)
{
  KomiProviderDialog *self = KOMI_PROVIDER_DIALOG (widget);

  g_cancellable_cancel (self->test_cancellable);
  GTK_WIDGET_CLASS (komi_provider_dialog_parent_class)->unrealize (widget);
  gtk_window_set_transient_for (GTK_WINDOW (self), NULL);
}

static void
komi_provider_dialog_dispose (GObject *object)
{
  KomiProviderDialog *self = KOMI_PROVIDER_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->test_cancellable);
  G_OBJECT_CLASS (komi_provider_dialog_parent_class)->dispose (object);
}

static void
komi_provider_dialog_finalize (GObject *object)
{
  KomiProviderDialog *self = KOMI_PROVIDER_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->test_cancellable);
  g_free (self->folder);
  g_free (self->profile_json);
  g_free (self->saved_path);
  g_free (self->key_refusal);
  g_free (self->edit_path);
  g_clear_pointer (&self->extra, json_object_unref);
  g_clear_pointer (&self->profile, komi_provider_profile_free);
  G_OBJECT_CLASS (komi_provider_dialog_parent_class)->finalize (object);
}

static void
komi_provider_dialog_class_init (KomiProviderDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_provider_dialog_dispose;
  widget_class->unrealize = komi_provider_dialog_unrealize;
  object_class->finalize = komi_provider_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-provider-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, api_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, base_url_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, model_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, key_name_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, key_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, temperature_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, max_tokens_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, effort_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, thinking_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, concurrent_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, rpm_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, price_input_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, price_output_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, latency_row);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, key_label);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_changed);

  gtk_widget_class_install_action (widget_class, "provider.save", NULL, save_activated);
  _komi_provider_dialog_class_init_test (widget_class);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
komi_provider_dialog_init (KomiProviderDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    self->error_rows[i] = komi_form_add_error_row (ROW (self, i));
  self->cancellable = g_cancellable_new ();
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "provider.cancel-test", FALSE);
  self->folder = g_build_filename (g_get_user_config_dir (), "komi", "providers", NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), _("my-provider"));
  gtk_editable_set_text (GTK_EDITABLE (self->key_name_row), "OPENAI_API_KEY");
  gtk_editable_set_text (GTK_EDITABLE (self->concurrent_row), "4");
  /* Set by the dialog, not typed: no error shows yet. */
  memset (self->touched, 0, sizeof self->touched);
  on_changed (self, NULL);
}
