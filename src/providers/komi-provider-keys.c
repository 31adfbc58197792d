/* komi-provider-keys.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <string.h>

#include "komi-provider-keys.h"

/* One table for the process, behind one lock: keys are few and looked up
 * once per provider, never per request. */
static GMutex      lock;
static GHashTable *keys;     /* name -> key, both owned */
static guint       serial;

void
komi_provider_keys_free (char *key)
{
  if (key != NULL)
    memset (key, 0, strlen (key));
  g_free (key);
}

void
komi_provider_keys_set (const char *name,
                        const char *key)
{
  g_return_if_fail (name != NULL);

  g_mutex_lock (&lock);
  if (keys == NULL)
    keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                  (GDestroyNotify) komi_provider_keys_free);
  if (key == NULL || key[0] == '\0')
    g_hash_table_remove (keys, name);
  else
    g_hash_table_replace (keys, g_strdup (name), g_strdup (key));
  serial++;
  g_mutex_unlock (&lock);
}

void
komi_provider_keys_clear (void)
{
  g_mutex_lock (&lock);
  if (keys != NULL)
    g_hash_table_remove_all (keys);
  serial++;
  g_mutex_unlock (&lock);
}

gboolean
komi_provider_keys_has (const char *name)
{
  gboolean has;

  g_return_val_if_fail (name != NULL, FALSE);

  g_mutex_lock (&lock);
  has = keys != NULL && g_hash_table_contains (keys, name);
  g_mutex_unlock (&lock);
  return has;
}

char *
komi_provider_keys_dup (const char *name)
{
  char *key;

  g_return_val_if_fail (name != NULL, NULL);

  g_mutex_lock (&lock);
  key = keys != NULL ? g_strdup (g_hash_table_lookup (keys, name)) : NULL;
  g_mutex_unlock (&lock);
  return key;
}

guint
komi_provider_keys_get_serial (void)
{
  guint value;

  g_mutex_lock (&lock);
  value = serial;
  g_mutex_unlock (&lock);
  return value;
}
