/* komi-player-names.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <json-glib/json-glib.h>

#include "komi-player-names.h"
#include "komi-player-spec.h"

/* A profile's `name`, or NULL when the file cannot be read or has none. */
static char *
read_profile_name (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  const char *name;

  if (!json_parser_load_from_file (parser, path, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  name = json_object_get_string_member_with_default (json_node_get_object (root), "name", NULL);
  return name != NULL && *name != '\0' ? g_strdup (name) : NULL;
}

/* The profile's own name, else the players' name for it (its file). */
static char *
model_name (const KomiPlayerKind *kind,
            const char           *path)
{
  static GHashTable *names;   /* path → name, read once */
  const char *known;
  char *name;

  if (names == NULL)
    names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  known = g_hash_table_lookup (names, path);
  if (known != NULL)
    return g_strdup (known);
  name = read_profile_name (path);
  if (name == NULL)
    name = kind->display_name (path);
  g_hash_table_insert (names, g_strdup (path), g_strdup (name));
  return name;
}

char *
komi_player_display_name (const char *spec)
{
  const KomiPlayerKind *kind;
  const char *argument = NULL;
  char *name;

  if (spec == NULL)
    return g_strdup ("?");
  kind = komi_player_kind_find (spec, &argument);
  if (kind != NULL && kind->id == KOMI_PLAYER_KIND_MODEL && *argument != '\0')
    return model_name (kind, argument);
  name = kind != NULL ? kind->display_name (argument) : NULL;
  return name != NULL ? name : g_strdup (spec);
}

char *
komi_player_tooltip (const char *spec)
{
  return g_strdup (spec);
}
