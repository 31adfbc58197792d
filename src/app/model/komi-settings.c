/* komi-settings.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include "komi-settings.h"
#include "komi-store.h"

/* g_settings_new() aborts on a missing schema; an uninstalled or broken
 * installation must still run, on the environment alone. The schema
 * source is looked up once. */
static GSettingsSchema *
find_schema (void)
{
  static GSettingsSchema *schema;
  static gsize looked_up;

  if (g_once_init_enter (&looked_up))
    {
      GSettingsSchemaSource *installed = g_settings_schema_source_get_default ();

      if (installed != NULL)
        schema = g_settings_schema_source_lookup (installed, APPLICATION_ID, TRUE);
      if (schema == NULL
          && g_file_test (KOMI_BUILD_SCHEMA_DIR "/gschemas.compiled", G_FILE_TEST_EXISTS))
        {
          g_autoptr(GSettingsSchemaSource) built =
            g_settings_schema_source_new_from_directory (KOMI_BUILD_SCHEMA_DIR, installed,
                                                         FALSE, NULL);

          if (built != NULL)
            schema = g_settings_schema_source_lookup (built, APPLICATION_ID, FALSE);
        }
      if (schema == NULL)
        g_message ("The settings schema %s is not installed: engine paths are read from "
                   "the environment only", APPLICATION_ID);
      g_once_init_leave (&looked_up, 1);
    }
  return schema;
}

GSettings *
komi_settings_new (void)
{
  GSettingsSchema *schema = find_schema ();

  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

void
komi_settings_engine_options (KomiPlayerOptions *opts,
                              GPtrArray         *strs)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  static const char *keys[] = { "gnugo-path", "katago-binary", "katago-model", "katago-config" };
  const char **fields[] = {
    &opts->gnugo_path, &opts->katago_binary, &opts->katago_model, &opts->katago_config,
  };

  g_return_if_fail (opts != NULL && strs != NULL);

  if (settings == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      char *value = g_strstrip (g_settings_get_string (settings, keys[i]));

      g_ptr_array_add (strs, value);
      *fields[i] = *value != '\0' ? value : NULL;
    }
}

char *
komi_settings_library_path (void)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  g_autofree char *path = settings != NULL ? g_settings_get_string (settings, "library-path")
                                           : NULL;

  if (path != NULL && *g_strstrip (path) != '\0')
    return g_steal_pointer (&path);
  return komi_store_default_path ();
}

int
komi_settings_default_jobs (void)
{
  g_autoptr(GSettings) settings = komi_settings_new ();

  return settings != NULL ? g_settings_get_int (settings, "default-jobs") : 2;
}

char *
komi_settings_default_referee (void)
{
  g_autoptr(GSettings) settings = komi_settings_new ();

  return settings != NULL ? g_settings_get_string (settings, "default-referee")
                          : g_strdup ("gnugo");
}

const char *
komi_settings_rating_ladder (void)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  g_autofree char *which = settings != NULL ? g_settings_get_string (settings, "rating-ladder")
                                            : NULL;

  return g_strcmp0 (which, "library") == 0 ? "library" : "shipped";
}
