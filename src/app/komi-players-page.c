/* komi-players-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "komi-players-page.h"
#include "komi-provider-dialog.h"
#include "komi-ui-util.h"

struct _KomiPlayersPage
{
  AdwBin          parent_instance;

  KomiLibrary    *library;

  GtkStack       *stack;
  AdwStatusPage  *empty_page;
  GtkLabel       *note_label;
  GtkColumnView  *view;
};

G_DEFINE_FINAL_TYPE (KomiPlayersPage, komi_players_page, ADW_TYPE_BIN)

static char *cell_spec (gpointer p) { return g_strdup (KOMI_PLAYER_ITEM (p)->spec); }
static char *cell_games (gpointer p) { return g_strdup_printf ("%u", KOMI_PLAYER_ITEM (p)->games); }
static char *
cell_series (gpointer p)
{
  return g_strdup_printf ("%u", KOMI_PLAYER_ITEM (p)->series);
}


static char *
cell_name (gpointer p)
{
  KomiPlayerItem *item = p;

  return g_strdup (item->name != NULL ? item->name : _("not started yet"));
}

/* Settings as "key: value" pairs on one line, without what changes from
 * game to game (seeds, the command line built from the rest); the JSON
 * whole when it is not an object. */
static char *
cell_settings (gpointer p)
{
  KomiPlayerItem *item = p;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GString) text = NULL;
  JsonObject *object;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (item->settings == NULL)
    return g_strdup ("—");
  if (!json_parser_load_from_data (parser, item->settings, -1, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return g_strdup (item->settings);
  object = json_node_get_object (json_parser_get_root (parser));
  text = g_string_new (NULL);
  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &key, &value))
    {
      g_autofree char *shown = NULL;

      if (g_str_equal (key, "seed") || g_str_equal (key, "engine_seed")
          || g_str_equal (key, "argv"))
        continue;
      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
        shown = g_strdup (json_node_get_string (value));
      else
        shown = json_to_string (value, FALSE);
      g_string_append_printf (text, "%s%s: %s", text->len > 0 ? " · " : "", key, shown);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const KomiColumn columns[] = {
  { N_("Player"), cell_spec, FALSE, 0 },
  { N_("Program"), cell_name, FALSE, 0 },
  { N_("Games"), cell_games, FALSE, KOMI_CELL_NUMERIC },
  { N_("Series"), cell_series, FALSE, KOMI_CELL_NUMERIC },
  { N_("Settings of its last game"), cell_settings, TRUE, 0 },
};

/* A model player's row opens its provider profile for editing. */
static void
on_activate (KomiPlayersPage *self,
             guint            position)
{
  GListModel *players = self->library ? komi_library_get_players (self->library) : NULL;
  g_autoptr(KomiPlayerItem) item = players ? g_list_model_get_item (players, position) : NULL;
  GtkWindow *parent = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self)));
  g_autoptr(GError) error = NULL;
  KomiProviderDialog *dialog;
  GtkWidget *message;

  if (item == NULL || !g_str_has_prefix (item->spec, "model:"))
    return;
  dialog = komi_provider_dialog_new_for_file (parent, item->spec + strlen ("model:"), &error);
  if (dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  message = adw_message_dialog_new (parent, _("Cannot Edit the Provider"), error->message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (message), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (message));
}

static void
update_state (KomiPlayersPage *self)
{
  GListModel *players = self->library ? komi_library_get_players (self->library) : NULL;
  const char *message = self->library ? komi_library_get_message (self->library) : NULL;
  gboolean models = FALSE;

  for (guint i = 0; players != NULL && i < g_list_model_get_n_items (players) && !models; i++)
    {
      g_autoptr(KomiPlayerItem) item = g_list_model_get_item (players, i);

      models = g_str_has_prefix (item->spec, "model:");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), models);
  if (players != NULL && g_list_model_get_n_items (players) > 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "list");
      return;
    }
  if (message != NULL)
    adw_status_page_set_description (self->empty_page, message);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

void
komi_players_page_set_library (KomiPlayersPage *self,
                               KomiLibrary     *library)
{
  g_autoptr(GtkNoSelection) model = NULL;

  g_return_if_fail (KOMI_IS_PLAYERS_PAGE (self));

  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_set_object (&self->library, library);
  if (library != NULL)
    {
      model = gtk_no_selection_new (g_object_ref (komi_library_get_players (library)));
      g_signal_connect_swapped (library, "notify::state", G_CALLBACK (update_state), self);
    }
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (model));
  update_state (self);
}

static void
komi_players_page_dispose (GObject *object)
{
  KomiPlayersPage *self = KOMI_PLAYERS_PAGE (object);

  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_clear_object (&self->library);
  G_OBJECT_CLASS (komi_players_page_parent_class)->dispose (object);
}

static void
komi_players_page_class_init (KomiPlayersPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_players_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-players-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiPlayersPage, stack);
  gtk_widget_class_bind_template_child (widget_class, KomiPlayersPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, KomiPlayersPage, note_label);
  gtk_widget_class_bind_template_child (widget_class, KomiPlayersPage, view);
}

static void
komi_players_page_init (KomiPlayersPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  komi_column_view_add_columns (self->view, columns, G_N_ELEMENTS (columns));
  gtk_label_set_text (self->note_label, _("Double-click a model player (model:…) to edit its "
                                          "provider profile."));
  g_signal_connect_swapped (self->view, "activate", G_CALLBACK (on_activate), self);
  update_state (self);
}
