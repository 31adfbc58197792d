/* komi-key-store.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "komi-key-store.h"

/* One attribute, the key's name, so that the CLI's environment variable
 * and the keyring entry are the same thing under the same name. */
static const SecretSchema *
key_schema (void)
{
  static const SecretSchema schema = {
    "io.github.komigo.Komi.ApiKey", SECRET_SCHEMA_NONE,
    {
      { "key-name", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };

  return &schema;
}

/* komi_key_store_use_memory(): name -> key, on the main thread only. */
static GHashTable *memory;

static void
wipe_free (gpointer key)
{
  secret_password_wipe (key);
  g_free (key);
}

void
komi_key_store_use_memory (void)
{
  if (memory == NULL)
    memory = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, wipe_free);
}

static void
on_stored (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (secret_password_store_finish (result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
komi_key_store_save_async (const char          *key_name,
                           const char          *key,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  g_autofree char *label = NULL;

  g_return_if_fail (key_name != NULL && key != NULL);

  g_task_set_source_tag (task, komi_key_store_save_async);
  /* What a keyring manager (Seahorse) shows for the entry. */
  label = g_strdup_printf (_("Komi API key %s"), key_name);
  if (memory != NULL)
    {
      g_hash_table_replace (memory, g_strdup (key_name), g_strdup (key));
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }
  secret_password_store (key_schema (), SECRET_COLLECTION_DEFAULT, label, key, cancellable,
                         on_stored, task, "key-name", key_name, NULL);
}

gboolean
komi_key_store_save_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_looked_up (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char *key = secret_password_lookup_finish (result, &error);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, key, (GDestroyNotify) secret_password_free);
}

void
komi_key_store_lookup_async (const char          *key_name,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_return_if_fail (key_name != NULL);

  g_task_set_source_tag (task, komi_key_store_lookup_async);
  if (memory != NULL)
    {
      /* Freed as the keyring's are, with secret_password_free(). */
      const char *key = g_hash_table_lookup (memory, key_name);

      g_task_return_pointer (task, key != NULL ? g_strdup (key) : NULL,
                             (GDestroyNotify) secret_password_free);
      g_object_unref (task);
      return;
    }
  secret_password_lookup (key_schema (), cancellable, on_looked_up, task,
                          "key-name", key_name, NULL);
}

char *
komi_key_store_lookup_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
komi_key_store_free (char *key)
{
  /* Zeroes the memory before it is freed. */
  secret_password_free (key);
}
