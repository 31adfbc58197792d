/* komi-player-names.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "komi-player-names.h"

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

static char *
model_name (const char *path)
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
    {
      g_autofree char *base = g_path_get_basename (path);

      if (g_str_has_suffix (base, ".json") && strlen (base) > strlen (".json"))
        base[strlen (base) - strlen (".json")] = '\0';
      name = g_steal_pointer (&base);
    }
  g_hash_table_insert (names, g_strdup (path), g_strdup (name));
  return name;
}

/* "gnugo", "gnugo:3", "katago:200", "gtp:/usr/bin/prog --x", "random". */
static char *
engine_name (const char *spec)
{
  if (g_str_equal (spec, "random"))
    return g_strdup (_("Random player"));
  if (g_str_equal (spec, "gnugo"))
    return g_strdup_printf (_("GNU Go level %s"), "10");
  if (g_str_has_prefix (spec, "gnugo:"))
    return g_strdup_printf (_("GNU Go level %s"), spec + strlen ("gnugo:"));
  if (g_str_equal (spec, "katago"))
    return g_strdup_printf (_("KataGo, %s visits"), "100");
  if (g_str_has_prefix (spec, "katago:"))
    return g_strdup_printf (_("KataGo, %s visits"), spec + strlen ("katago:"));
  if (g_str_has_prefix (spec, "gtp:"))
    {
      g_auto(GStrv) argv = NULL;

      if (g_shell_parse_argv (spec + strlen ("gtp:"), NULL, &argv, NULL) && argv[0] != NULL)
        return g_path_get_basename (argv[0]);
    }
  return NULL;
}

char *
komi_player_display_name (const char *spec)
{
  char *name;

  if (spec == NULL)
    return g_strdup ("?");
  if (g_str_has_prefix (spec, "model:") && spec[strlen ("model:")] != '\0')
    return model_name (spec + strlen ("model:"));
  /* mix:P:ENGINE */
  if (g_str_has_prefix (spec, "mix:"))
    {
      const char *colon = strchr (spec + strlen ("mix:"), ':');
      g_autofree char *engine = colon != NULL ? engine_name (colon + 1) : NULL;
      g_autofree char *chance = colon != NULL ? g_strndup (spec + 4, colon - spec - 4) : NULL;
      double p = chance != NULL ? g_ascii_strtod (chance, NULL) : 0;

      if (engine != NULL)
        /* Translators: "GNU Go level 5 with 25% random moves". */
        return g_strdup_printf (_("%s with %g%% random moves"), engine, p * 100);
    }
  name = engine_name (spec);
  return name != NULL ? name : g_strdup (spec);
}

char *
komi_player_tooltip (const char *spec)
{
  return g_strdup (spec);
}
