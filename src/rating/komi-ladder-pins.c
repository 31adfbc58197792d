/* komi-ladder-pins.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "komi-ladder-pins.h"

/* KataGo's settings hold its -override-config text inside argv; the view
 * compared with the pins has it as an object too ("overrides"), so a pin
 * can name one key. Nested players (a mix's "engine") get the same. */
static void
add_overrides (JsonObject *settings)
{
  JsonArray *argv;
  JsonNode *inner;

  inner = json_object_get_member (settings, "engine");
  if (inner != NULL && JSON_NODE_HOLDS_OBJECT (inner))
    add_overrides (json_node_get_object (inner));
  if (!json_object_has_member (settings, "argv")
      || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (settings, "argv")))
    return;
  argv = json_object_get_array_member (settings, "argv");
  for (guint i = 0; i + 1 < json_array_get_length (argv); i++)
    {
      JsonNode *flag = json_array_get_element (argv, i);
      JsonNode *text = json_array_get_element (argv, i + 1);
      g_auto(GStrv) pairs = NULL;
      JsonObject *overrides;

      if (!JSON_NODE_HOLDS_VALUE (flag) || json_node_get_value_type (flag) != G_TYPE_STRING
          || strcmp (json_node_get_string (flag), "-override-config") != 0
          || !JSON_NODE_HOLDS_VALUE (text) || json_node_get_value_type (text) != G_TYPE_STRING)
        continue;
      overrides = json_object_new ();
      pairs = g_strsplit (json_node_get_string (text), ",", -1);
      for (guint p = 0; pairs[p] != NULL; p++)
        {
          char *eq = strchr (pairs[p], '=');

          if (eq == NULL)
            continue;
          *eq = '\0';
          json_object_set_string_member (overrides, g_strstrip (pairs[p]), g_strstrip (eq + 1));
        }
      json_object_set_object_member (settings, "overrides", overrides);
      return;
    }
}

static JsonNode *
parse_settings (const char *settings)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (settings == NULL || !json_parser_load_from_data (parser, settings, -1, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  root = json_node_copy (root);
  add_overrides (json_node_get_object (root));
  return root;
}

static void
copy_member (JsonBuilder *b, JsonObject *from, const char *member)
{
  JsonNode *node = json_object_get_member (from, member);

  if (node == NULL)
    return;
  json_builder_set_member_name (b, member);
  json_builder_add_value (b, json_node_copy (node));
}

/* A string member, "" when absent or not a string (a mix's "engine" is an
 * object). */
static const char *
string_member (JsonObject *object, const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return "";
  return json_node_get_string (node);
}

/* The settings that fix a player's strength, by kind; anything else of
 * the record (paths, seeds, timeouts) may differ between machines. */
static void
add_strength_settings (JsonBuilder *b, JsonObject *settings)
{
  const char *kind = string_member (settings, "kind");
  const char *engine = string_member (settings, "engine");

  json_builder_begin_object (b);
  if (strcmp (kind, "random") == 0)
    {
      copy_member (b, settings, "kind");
      copy_member (b, settings, "generator");
    }
  else if (strcmp (kind, "mix") == 0)
    {
      JsonNode *inner = json_object_get_member (settings, "engine");

      copy_member (b, settings, "kind");
      copy_member (b, settings, "p");
      copy_member (b, settings, "coin");
      copy_member (b, settings, "random");
      copy_member (b, settings, "engine_spec");
      if (inner != NULL && JSON_NODE_HOLDS_OBJECT (inner))
        {
          json_builder_set_member_name (b, "engine");
          add_strength_settings (b, json_node_get_object (inner));
        }
    }
  else if (strcmp (engine, "gnugo") == 0)
    {
      copy_member (b, settings, "engine");
      copy_member (b, settings, "level");
    }
  else if (strcmp (engine, "katago") == 0)
    {
      JsonNode *overrides = json_object_get_member (settings, "overrides");

      copy_member (b, settings, "engine");
      copy_member (b, settings, "visits");
      copy_member (b, settings, "model_sha256");
      copy_member (b, settings, "rules");
      if (overrides != NULL && JSON_NODE_HOLDS_OBJECT (overrides))
        {
          JsonObject *o = json_node_get_object (overrides);

          json_builder_set_member_name (b, "overrides");
          json_builder_begin_object (b);
          copy_member (b, o, "maxVisits");
          copy_member (b, o, "numSearchThreads");
          json_builder_end_object (b);
        }
    }
  else
    copy_member (b, settings, "engine");
  json_builder_end_object (b);
}

JsonNode *
komi_ladder_pins_from_record (const char *name,
                              const char *settings)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) parsed = parse_settings (settings);

  if (parsed == NULL)
    return NULL;
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name != NULL ? name : "");
  json_builder_set_member_name (b, "settings");
  add_strength_settings (b, json_node_get_object (parsed));
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static char *
value_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return json_to_string (node, FALSE);
}

static gboolean
values_equal (JsonNode *a, JsonNode *b)
{
  GType ta, tb;

  if (!JSON_NODE_HOLDS_VALUE (a) || !JSON_NODE_HOLDS_VALUE (b))
    return json_node_equal (a, b);
  ta = json_node_get_value_type (a);
  tb = json_node_get_value_type (b);
  if ((ta == G_TYPE_INT64 || ta == G_TYPE_DOUBLE) && (tb == G_TYPE_INT64 || tb == G_TYPE_DOUBLE))
    {
      double x = json_node_get_double (a), y = json_node_get_double (b);

      return fabs (x - y) <= 1e-9 * MAX (1.0, fabs (x));
    }
  return json_node_equal (a, b);
}

/* The first member of @pinned that @recorded lacks or differs in, as a
 * sentence; NULL when all match. @path names nested members ("engine."). */
static char *
first_difference (JsonObject *pinned, JsonObject *recorded, const char *path)
{
  g_autoptr(GList) members = json_object_get_members (pinned);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *member = l->data;
      g_autofree char *where = g_strconcat (path, member, NULL);
      JsonNode *want = json_object_get_member (pinned, member);
      JsonNode *have = json_object_get_member (recorded, member);
      g_autofree char *want_text = NULL, *have_text = NULL;

      if (JSON_NODE_HOLDS_OBJECT (want) && have != NULL && JSON_NODE_HOLDS_OBJECT (have))
        {
          g_autofree char *inner = g_strconcat (where, ".", NULL);
          char *found = first_difference (json_node_get_object (want),
                                          json_node_get_object (have), inner);

          if (found != NULL)
            return found;
          continue;
        }
      want_text = value_text (want);
      if (have == NULL)
        return g_strdup_printf (_("%s is not recorded, and the ladder pins %s"), where,
                                want_text);
      if (values_equal (want, have))
        continue;
      have_text = value_text (have);
      if (strcmp (member, "model_sha256") == 0)
        /* Translators: both %.12s are the start of a network file's SHA-256. */
        return g_strdup_printf (_("KataGo network differs: sha256 %.12s… where the ladder pins "
                                  "%.12s…"), have_text, want_text);
      return g_strdup_printf (_("%s is %s where the ladder pins %s"), where, have_text,
                              want_text);
    }
  return NULL;
}

gboolean
komi_ladder_pins_match (JsonNode   *pins,
                        const char *name,
                        const char *settings,
                        char      **reason)
{
  g_autoptr(JsonNode) parsed = NULL;
  g_autofree char *difference = NULL;
  JsonObject *object;
  JsonNode *want_settings;
  const char *want_name;

  g_return_val_if_fail (pins != NULL && JSON_NODE_HOLDS_OBJECT (pins), FALSE);

  object = json_node_get_object (pins);
  want_name = json_object_get_string_member_with_default (object, "name", NULL);
  if (want_name != NULL && g_strcmp0 (want_name, name) != 0)
    difference = g_strdup_printf (_("the player reported itself as “%s”, and the ladder pins "
                                    "“%s”"), name != NULL ? name : "", want_name);
  want_settings = json_object_get_member (object, "settings");
  if (difference == NULL && want_settings != NULL && JSON_NODE_HOLDS_OBJECT (want_settings))
    {
      parsed = parse_settings (settings);
      if (parsed == NULL)
        difference = g_strdup (_("its settings were not recorded"));
      else
        difference = first_difference (json_node_get_object (want_settings),
                                       json_node_get_object (parsed), "");
    }
  if (reason != NULL)
    *reason = g_steal_pointer (&difference);
  return difference == NULL && (reason == NULL || *reason == NULL);
}
