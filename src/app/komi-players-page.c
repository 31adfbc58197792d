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

struct _KomiPlayersPage
{
  KomiListPage parent_instance;
};

G_DEFINE_FINAL_TYPE (KomiPlayersPage, komi_players_page, KOMI_TYPE_LIST_PAGE)

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
  { N_("Player"), cell_spec, FALSE, KOMI_CELL_PLAYER },
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
  KomiLibrary *library = komi_list_page_get_library (KOMI_LIST_PAGE (self));
  GListModel *players = library ? komi_library_get_players (library) : NULL;
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

/* Over the list: how to edit a model's profile, when there is a model;
 * in place of it, the library's problem. */
static const char *
get_message (KomiListPage *page, KomiLibrary *library, GListModel *players, gboolean empty)
{
  if (empty)
    return komi_library_get_message (library);
  for (guint i = 0; i < g_list_model_get_n_items (players); i++)
    {
      g_autoptr(KomiPlayerItem) item = g_list_model_get_item (players, i);

      if (g_str_has_prefix (item->spec, "model:"))
        return _("Double-click a model player (model:…) to edit its provider profile.");
    }
  return NULL;
}

static void
komi_players_page_class_init (KomiPlayersPageClass *klass)
{
  KomiListPageClass *list_class = KOMI_LIST_PAGE_CLASS (klass);

  list_class->get_items = komi_library_get_players;
  list_class->get_message = get_message;
}

static void
komi_players_page_init (KomiPlayersPage *self)
{
  komi_list_page_setup (KOMI_LIST_PAGE (self), "system-users-symbolic", _("No Players Yet"),
                        _("The players of the library’s games appear here once a series has "
                          "been run, with the engine’s name and version and the settings of "
                          "its last game."),
                        _("Players"), columns, G_N_ELEMENTS (columns));
  g_signal_connect_swapped (komi_list_page_get_view (KOMI_LIST_PAGE (self)), "activate",
                            G_CALLBACK (on_activate), self);
}
