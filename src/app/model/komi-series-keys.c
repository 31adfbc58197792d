/* komi-series-keys.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "komi-key-store.h"
#include "komi-provider.h"
#include "komi-series-keys.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-series-keys-error-quark, komi_series_keys_error)

typedef struct
{
  char      *path;
  char      *definition;
  GPtrArray *names;       /* distinct key_env names */
  GPtrArray *providers;   /* the provider name of each, for the message */
  guint      pending;     /* keyring lookups in flight */
} Prepare;

static void
prepare_free (gpointer data)
{
  Prepare *p = data;

  g_free (p->path);
  g_free (p->definition);
  g_clear_pointer (&p->names, g_ptr_array_unref);
  g_clear_pointer (&p->providers, g_ptr_array_unref);
  g_free (p);
}

static void
add_spec (Prepare *p, const char *spec)
{
  g_autoptr(KomiProviderProfile) profile = NULL;

  if (spec == NULL || !g_str_has_prefix (spec, "model:"))
    return;
  profile = komi_provider_profile_load (spec + strlen ("model:"), NULL);
  if (profile == NULL || profile->key_env == NULL)
    return;
  for (guint i = 0; i < p->names->len; i++)
    if (g_str_equal (g_ptr_array_index (p->names, i), profile->key_env))
      return;
  g_ptr_array_add (p->names, g_strdup (profile->key_env));
  g_ptr_array_add (p->providers, g_strdup (profile->name));
}

/* The players a definition names, read loosely: checking it is the
 * series parser's job, once the keys are in place. */
static void
collect_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Prepare *p = task_data;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  JsonObject *root;
  JsonArray *opponents;

  if (p->path != NULL)
    g_file_get_contents (p->path, &text, NULL, NULL);
  else
    text = g_strdup (p->definition);
  if (text == NULL || !json_parser_load_from_data (parser, text, -1, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  add_spec (p, json_object_get_string_member_with_default (root, "subject", NULL));
  if (json_object_has_member (root, "opponents")
      && JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "opponents")))
    {
      opponents = json_object_get_array_member (root, "opponents");
      for (guint i = 0; i < json_array_get_length (opponents); i++)
        {
          JsonNode *node = json_array_get_element (opponents, i);

          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
            add_spec (p, json_node_get_string (node));
          else if (JSON_NODE_HOLDS_OBJECT (node))
            add_spec (p, json_object_get_string_member_with_default (
                           json_node_get_object (node), "player", NULL));
        }
    }
  g_task_return_boolean (task, TRUE);
}

/* Every lookup is back: each key is in the table or the environment, or
 * the series must not start. */
static void
finish (GTask *task)
{
  Prepare *p = g_task_get_task_data (task);
  g_autoptr(GString) missing = g_string_new (NULL);

  for (guint i = 0; i < p->names->len; i++)
    {
      const char *name = g_ptr_array_index (p->names, i);
      const char *env = g_getenv (name);

      if (komi_provider_keys_has (name) || (env != NULL && env[0] != '\0'))
        continue;
      if (missing->len > 0)
        g_string_append_c (missing, '\n');
      g_string_append_printf (missing,
                              /* TRANSLATORS: the menu item is the main menu's. */
                              _("The provider “%s” needs an API key. Choose Edit Model "
                                "Provider… in the main menu, open its profile and type the "
                                "key, or set %s before starting Komi."),
                              (const char *) g_ptr_array_index (p->providers, i), name);
    }
  if (missing->len > 0)
    g_task_return_new_error (task, KOMI_SERIES_KEYS_ERROR, KOMI_SERIES_KEYS_ERROR_MISSING,
                             "%s", missing->str);
  else
    g_task_return_boolean (task, TRUE);
}

typedef struct
{
  GTask *task;
  char  *name;
} Lookup;

static void
on_looked_up (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Lookup *lookup = user_data;
  g_autoptr(GTask) task = lookup->task;
  Prepare *p = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *key = komi_key_store_lookup_finish (result, &error);

  if (key != NULL)
    komi_provider_keys_set (lookup->name, key);
  else if (error == NULL)
    /* The keyring answered and holds none (any more): the environment. */
    komi_provider_keys_set (lookup->name, NULL);
  /* An error: no keyring runs (CI, a bare session); the environment,
   * silently. Whatever the table already holds stays. */
  komi_key_store_free (key);
  g_free (lookup->name);
  g_free (lookup);
  if (--p->pending > 0)
    return;
  if (g_task_return_error_if_cancelled (task))
    return;
  finish (task);
}

static void
on_collected (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Prepare *p = g_task_get_task_data (task);

  if (g_task_return_error_if_cancelled (task))
    return;
  if (p->names->len == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  p->pending = p->names->len;
  for (guint i = 0; i < p->names->len; i++)
    {
      Lookup *lookup = g_new0 (Lookup, 1);

      lookup->task = g_object_ref (task);
      lookup->name = g_strdup (g_ptr_array_index (p->names, i));
      komi_key_store_lookup_async (lookup->name, g_task_get_cancellable (task), on_looked_up,
                                   lookup);
    }
}

void
komi_series_keys_prepare_async (const char          *definition_path,
                                const char          *definition,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task;
  g_autoptr(GTask) collect = NULL;
  Prepare *p;

  g_return_if_fail ((definition_path == NULL) != (definition == NULL));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, komi_series_keys_prepare_async);
  p = g_new0 (Prepare, 1);
  p->path = g_strdup (definition_path);
  p->definition = g_strdup (definition);
  p->names = g_ptr_array_new_with_free_func (g_free);
  p->providers = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, p, prepare_free);
  /* The worker fills @p; on_collected reads it only after the thread. */
  collect = g_task_new (NULL, cancellable, on_collected, task);
  g_task_set_task_data (collect, p, NULL);
  g_task_run_in_thread (collect, collect_thread);
}

gboolean
komi_series_keys_prepare_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
