/* komi-players-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "komi-players-page.h"
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

static void
update_state (KomiPlayersPage *self)
{
  GListModel *players = self->library ? komi_library_get_players (self->library) : NULL;
  const char *message = self->library ? komi_library_get_message (self->library) : NULL;

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
  update_state (self);
}
