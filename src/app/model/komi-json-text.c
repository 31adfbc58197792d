/* komi-json-text.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "komi-json-text.h"

char *
komi_json_number_text (double number)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (number))
    return g_strdup ("null");
  /* The fewest significant digits that read back as the same double. */
  for (int digits = 1; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, number);
      if (g_ascii_strtod (buf, NULL) == number)
        break;
    }
  return g_strdup (buf);
}

static void
indent (GString *out, guint depth)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void
append_node (GString *out, JsonNode *node, guint depth)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      /* In the order the members were added, as json-glib writes them. */
      g_autoptr(GList) names = json_object_get_members (object);
      gboolean first = TRUE;

      g_string_append_c (out, '{');
      for (GList *l = names; l != NULL; l = l->next)
        {
          g_autoptr(JsonNode) key = json_node_init_string (json_node_alloc (), l->data);
          g_autofree char *quoted = json_to_string (key, FALSE);
          JsonNode *value = json_object_get_member (object, l->data);

          g_string_append (out, first ? "" : ",");
          indent (out, depth + 1);
          g_string_append_printf (out, "%s : ", quoted);
          append_node (out, value, depth + 1);
          first = FALSE;
        }
      if (!first)
        indent (out, depth);
      g_string_append_c (out, '}');
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);

      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          g_string_append (out, i > 0 ? "," : "");
          indent (out, depth + 1);
          append_node (out, json_array_get_element (array, i), depth + 1);
        }
      if (n > 0)
        indent (out, depth);
      g_string_append_c (out, ']');
    }
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      g_autofree char *number = komi_json_number_text (json_node_get_double (node));

      g_string_append (out, number);
    }
  else
    {
      g_autofree char *text = json_to_string (node, FALSE);

      g_string_append (out, text);
    }
}

char *
komi_json_to_text (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (node != NULL, NULL);
  append_node (out, node, 0);
  return g_string_free (out, FALSE);
}

char *
komi_json_member_text (JsonNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  if (!JSON_NODE_HOLDS_VALUE (node))
    return json_to_string (node, FALSE);
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return g_strdup (json_node_get_string (node));
    case G_TYPE_INT64:
      return g_strdup_printf ("%" PRId64, (int64_t) json_node_get_int (node));
    case G_TYPE_DOUBLE:
      return komi_json_number_text (json_node_get_double (node));
    default:
      return json_to_string (node, FALSE);
    }
}
