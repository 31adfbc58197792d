/* komi-series-dialog-players.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-player-check.h"
#include "komi-provider-profile.h"
#include "komi-series-dialog-private.h"
#include "komi-series-keys.h"

/* The players of the New Series dialog: their keys looked up in the
 * keyring, and Test. */

/* The model players the fields name, one per line: what the keys were
 * looked up for. */
static char *
model_players (KomiSeriesDialog *self)
{
  g_auto(GStrv) opponents = g_strsplit (_komi_series_dialog_text_of (self->opponents_row), ",", -1);
  g_autofree char *subject = g_strstrip (g_strdup (_komi_series_dialog_text_of (self->subject_row)));
  GString *models = g_string_new (NULL);

  if (g_str_has_prefix (subject, "model:"))
    g_string_append_printf (models, "%s\n", subject);
  for (guint i = 0; opponents[i] != NULL; i++)
    if (g_str_has_prefix (g_strstrip (opponents[i]), "model:"))
      g_string_append_printf (models, "%s\n", opponents[i]);
  return g_string_free (models, FALSE);
}

static void
on_keys_prepared (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  KomiSeriesDialog *self = user_data;
  g_autoptr(GError) error = NULL;

  /* Cancelled in dispose: @self may be gone (no reference is held, so
   * the dialog is finalized when it is destroyed, not by this callback). */
  if (!komi_series_keys_prepare_finish (result, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->keys);
  g_free (self->keys_error);
  self->keys_error = error != NULL ? g_strdup (error->message) : NULL;
  _komi_series_dialog_changed (self, NULL);
}

/* A model's key may be in the keyring only: it is looked up (once per set
 * of model players) before the parser, which reads the key table, can
 * accept the model. */
void
_komi_series_dialog_look_up_keys (KomiSeriesDialog *self, const char *definition)
{
  g_autofree char *models = model_players (self);

  if (g_strcmp0 (models, self->keys_for) == 0)
    return;
  g_cancellable_cancel (self->keys);
  g_clear_object (&self->keys);
  g_clear_pointer (&self->keys_error, g_free);
  g_free (self->keys_for);
  self->keys_for = g_steal_pointer (&models);
  if (*self->keys_for == '\0')
    return;
  self->keys = g_cancellable_new ();
  komi_series_keys_prepare_async (NULL, definition, self->keys, on_keys_prepared, self);
}

/* Player tests */

typedef struct
{
  KomiSeriesDialog *self;
  guint             index;
  char             *spec;
} CheckData;

static void
show_checks (KomiSeriesDialog *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->check_lines->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "",
                            (const char *) g_ptr_array_index (self->check_lines, i));
  gtk_label_set_text (self->check_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->check_label), text->len > 0);
}

static void
on_checked (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  CheckData *data = user_data;
  KomiSeriesDialog *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayerCheck) check = komi_player_check_finish (result, &error);
  g_autofree char *outcome = NULL;

  /* A cancelled test belongs to fields since changed: its line is gone. */
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      && data->index < self->check_lines->len)
    {
      outcome = check != NULL ? komi_player_check_describe (check) : g_strdup (error->message);
      g_free (self->check_lines->pdata[data->index]);
      self->check_lines->pdata[data->index] = g_strdup_printf ("%s %s: %s",
                                                               check ? "✓" : "✗",
                                                               data->spec, outcome);
      show_checks (self);
    }
  g_object_unref (self);
  g_free (data->spec);
  g_free (data);
}

void
_komi_series_dialog_test_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KomiSeriesDialog *self = KOMI_SERIES_DIALOG (widget);
  g_autoptr(GPtrArray) specs = g_ptr_array_new ();

  if (self->series == NULL)
    return;
  /* The engines as the series will run them: its paths, then settings. */
  g_cancellable_cancel (self->checks);
  g_clear_object (&self->checks);
  self->checks = g_cancellable_new ();
  g_ptr_array_set_size (self->check_lines, 0);

  g_ptr_array_add (specs, self->series->subject);
  for (guint i = 0; i < self->series->opponents->len; i++)
    g_ptr_array_add (specs, ((KomiSeriesOpponent *)
                             g_ptr_array_index (self->series->opponents, i))->player);
  for (guint i = 0; i < specs->len; i++)
    {
      CheckData *data = g_new0 (CheckData, 1);

      data->self = g_object_ref (self);
      data->index = i;
      data->spec = g_strdup (specs->pdata[i]);
      g_ptr_array_add (self->check_lines,
                       g_strdup_printf ("… %s: %s", (const char *) specs->pdata[i],
                                        _("starting…")));
      komi_player_check_with_options_async (specs->pdata[i], &self->series->engines,
                                            self->checks, on_checked, data);
    }
  show_checks (self);
}

/* Saved provider profiles */

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return g_utf8_collate (*(const char * const *) a, *(const char * const *) b);
}

void
_komi_series_dialog_fill_profiles (GtkMenuButton *button,
                                   gpointer       user_data)
{
  KomiSeriesDialog *self = user_data;
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GDir) dir = g_dir_open (self->profiles_folder, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *entry;

  /* Small local files, read when the menu opens: a profile saved since
   * the dialog opened is there. */
  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (entry, ".json"))
      g_ptr_array_add (names, g_strdup (entry));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (self->profiles_folder, names->pdata[i], NULL);
      g_autofree char *spec = g_strconcat ("model:", path, NULL);
      g_autofree char *label = NULL;
      g_autoptr(KomiProviderProfile) profile = komi_provider_profile_load (path, NULL);
      g_autoptr(GMenuItem) item = NULL;

      if (profile == NULL)
        continue;
      label = komi_provider_model_label (profile->name, profile->model);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "series.choose-subject", "s", spec);
      g_menu_append_item (menu, item);
    }
  if (g_menu_model_get_n_items (G_MENU_MODEL (menu)) == 0)
    /* No action: shown, not chosen. */
    g_menu_append (menu, _("No saved provider profile: add one with New Model Provider in the main menu"), NULL);
  gtk_menu_button_set_menu_model (button, G_MENU_MODEL (menu));
}
