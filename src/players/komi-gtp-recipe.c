/* komi-gtp-recipe.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "komi-gtp-recipe.h"

KomiGtpRecipe *
komi_gtp_recipe_new (KomiGtpFlavor  flavor,
                     const char    *binary)
{
  KomiGtpRecipe *recipe = g_new0 (KomiGtpRecipe, 1);

  g_return_val_if_fail (binary != NULL, NULL);

  recipe->flavor = flavor;
  recipe->binary = g_strdup (binary);
  recipe->level = KOMI_GNUGO_DEFAULT_LEVEL;
  recipe->visits = KOMI_KATAGO_DEFAULT_VISITS;
  recipe->timeout_ms = 60000;
  recipe->start_timeout_ms = 60000;
  switch (flavor)
    {
    case KOMI_GTP_GNUGO:
      recipe->label = g_strdup ("GNU Go");
      break;
    case KOMI_GTP_KATAGO:
      recipe->label = g_strdup ("KataGo");
      break;
    case KOMI_GTP_GENERIC:
    default:
      recipe->label = g_path_get_basename (binary);
      break;
    }
  return recipe;
}

KomiGtpRecipe *
komi_gtp_recipe_copy (const KomiGtpRecipe *recipe)
{
  KomiGtpRecipe *copy;

  g_return_val_if_fail (recipe != NULL, NULL);

  copy = g_memdup2 (recipe, sizeof *recipe);
  copy->label = g_strdup (recipe->label);
  copy->binary = g_strdup (recipe->binary);
  copy->args = g_strdupv (recipe->args);
  copy->model = g_strdup (recipe->model);
  copy->config = g_strdup (recipe->config);
  return copy;
}

void
komi_gtp_recipe_free (KomiGtpRecipe *recipe)
{
  if (recipe == NULL)
    return;
  g_free (recipe->label);
  g_free (recipe->binary);
  g_strfreev (recipe->args);
  g_free (recipe->model);
  g_free (recipe->config);
  g_free (recipe);
}

/* SHA-256 of a file, hex, cached by path, size and modification time: a
 * KataGo network is hashed once per process however many games it plays
 * (a large network takes a second or more). NULL when it cannot be read. */
char *
komi_gtp_file_sha256 (const char *path)
{
  static GMutex lock;
  static GHashTable *cache;   /* "path\nsize\nmtime" → hex */
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GChecksum) checksum = NULL;
  g_autofree char *key = NULL;
  g_autofree guchar *buffer = NULL;
  char *hex = NULL;
  gssize n;

  g_return_val_if_fail (path != NULL, NULL);

  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                            G_FILE_ATTRIBUTE_TIME_MODIFIED "," G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info == NULL)
    return NULL;
  key = g_strdup_printf ("%s\n%" G_GOFFSET_FORMAT "\n%" G_GUINT64_FORMAT ".%u", path,
                         g_file_info_get_size (info),
                         g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED),
                         g_file_info_get_attribute_uint32 (info,
                                                           G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC));
  g_mutex_lock (&lock);
  if (cache != NULL)
    hex = g_strdup (g_hash_table_lookup (cache, key));
  g_mutex_unlock (&lock);
  if (hex != NULL)
    return hex;

  stream = g_file_read (file, NULL, NULL);
  if (stream == NULL)
    return NULL;
  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  buffer = g_malloc (1 << 16);
  while ((n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, 1 << 16, NULL, NULL)) > 0)
    g_checksum_update (checksum, buffer, n);
  if (n < 0)
    return NULL;
  hex = g_strdup (g_checksum_get_string (checksum));

  g_mutex_lock (&lock);
  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_replace (cache, g_steal_pointer (&key), g_strdup (hex));
  g_mutex_unlock (&lock);
  return hex;
}

int
komi_gtp_gnugo_seed (guint64 seed)
{
  /* GNU Go reads --seed with atoi(), so it must fit a positive int. */
  return (int) (1 + seed % G_GUINT64_CONSTANT (2147483647));
}

char **
komi_gtp_recipe_build_argv (const KomiGtpRecipe *recipe,
                            guint64              seed)
{
  g_autoptr(GStrvBuilder) argv = g_strv_builder_new ();

  g_return_val_if_fail (recipe != NULL, NULL);

  g_strv_builder_add (argv, recipe->binary);
  switch (recipe->flavor)
    {
    case KOMI_GTP_GNUGO:
      {
        g_autofree char *level = g_strdup_printf ("%d", recipe->level);
        g_autofree char *gnugo_seed = g_strdup_printf ("%d", komi_gtp_gnugo_seed (seed));

        g_strv_builder_add_many (argv, "--mode", "gtp", "--chinese-rules",
                                 "--positional-superko", "--forbid-suicide", "--never-resign",
                                 "--komi", "7", "--boardsize", "9",
                                 "--level", level, "--seed", gnugo_seed, NULL);
      }
      break;

    case KOMI_GTP_KATAGO:
      {
        /* Fixed compute per move and seeded search: no pondering, no time
         * tricks after passes or when winning, no resignation, no delay.
         * No logging whatever the user's config says: KataGo's example
         * configs write a gtp_logs/ folder into the current directory on
         * every start (logDir), and their search logs on every move. */
        g_autofree char *overrides =
          g_strdup_printf ("maxVisits=%u,numSearchThreads=1,"
                           "nnRandSeed=%" G_GUINT64_FORMAT ","
                           "searchRandSeed=%" G_GUINT64_FORMAT ","
                           "allowResignation=false,ponderingEnabled=false,"
                           "searchFactorAfterOnePass=1.0,searchFactorAfterTwoPass=1.0,"
                           "searchFactorWhenWinning=1.0,delayMoveScale=0.0,"
                           "logDir=,logFile=,logAllGTPCommunication=false,"
                           "logSearchInfo=false,logToStderr=false",
                           recipe->visits, seed, seed);

        g_strv_builder_add_many (argv, "gtp", "-model", recipe->model,
                                 "-config", recipe->config,
                                 "-override-config", overrides, NULL);
      }
      break;

    case KOMI_GTP_GENERIC:
    default:
      if (recipe->args != NULL)
        g_strv_builder_addv (argv, (const char **) recipe->args);
      break;
    }
  return g_strv_builder_end (argv);
}

char *
komi_gtp_recipe_settings (const KomiGtpRecipe *recipe,
                          guint64              seed)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_auto(GStrv) argv = komi_gtp_recipe_build_argv (recipe, seed);
  g_autofree char *seed_text = g_strdup_printf ("%" G_GUINT64_FORMAT, seed);
  static const char * const flavors[] = { "gtp", "gnugo", "katago" };

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "engine");
  json_builder_add_string_value (builder, flavors[recipe->flavor]);
  json_builder_set_member_name (builder, "binary");
  json_builder_add_string_value (builder, recipe->binary);
  json_builder_set_member_name (builder, "argv");
  json_builder_begin_array (builder);
  for (guint i = 0; argv[i] != NULL; i++)
    json_builder_add_string_value (builder, argv[i]);
  json_builder_end_array (builder);
  /* As text: a 64-bit seed does not survive a JSON double. */
  json_builder_set_member_name (builder, "seed");
  json_builder_add_string_value (builder, seed_text);
  if (recipe->flavor == KOMI_GTP_GNUGO)
    {
      json_builder_set_member_name (builder, "level");
      json_builder_add_int_value (builder, recipe->level);
      json_builder_set_member_name (builder, "engine_seed");
      json_builder_add_int_value (builder, komi_gtp_gnugo_seed (seed));
    }
  else if (recipe->flavor == KOMI_GTP_KATAGO)
    {
      json_builder_set_member_name (builder, "visits");
      json_builder_add_int_value (builder, recipe->visits);
      g_autofree char *model_sha256 = komi_gtp_file_sha256 (recipe->model);

      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, recipe->model);
      /* What pins the network, wherever the file lives: the shipped ladder's
       * KataGo members name the network by its SHA-256. */
      if (model_sha256 != NULL)
        {
          json_builder_set_member_name (builder, "model_sha256");
          json_builder_add_string_value (builder, model_sha256);
        }
      json_builder_set_member_name (builder, "config");
      json_builder_add_string_value (builder, recipe->config);
      json_builder_set_member_name (builder, "rules");
      json_builder_add_string_value (builder, KOMI_KATAGO_RULES_JSON);
    }
  json_builder_set_member_name (builder, "timeout_ms");
  json_builder_add_int_value (builder, recipe->timeout_ms);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

KomiGtpEngine *
komi_gtp_recipe_launch (const KomiGtpRecipe *recipe,
                        guint64              seed,
                        GCancellable        *cancellable,
                        GError             **error)
{
  g_autoptr(KomiGtpEngine) engine = NULL;
  g_autoptr(GError) local = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_val_if_fail (recipe != NULL, NULL);

  argv = komi_gtp_recipe_build_argv (recipe, seed);
  engine = komi_gtp_engine_new ((const char * const *) argv, recipe->label,
                                recipe->start_timeout_ms, cancellable, &local);
  if (engine == NULL)
    {
      /* `katago gtp` aborts on a config that lacks a GTP key ("Could not
       * find key 'koRule'"): most often KataGo's analysis_example.cfg,
       * which is for `katago analysis`. Say which file to give instead. */
      if (recipe->flavor == KOMI_GTP_KATAGO && local->message != NULL
          && strstr (local->message, "Could not find key") != NULL)
        g_prefix_error (&local, _("%s is not a GTP config for KataGo (analysis_example.cfg is "
                                  "for 'katago analysis'; give gtp_example.cfg or a config made "
                                  "from it): "), recipe->config);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }

  if (recipe->flavor == KOMI_GTP_KATAGO &&
      (!komi_gtp_engine_send (engine, "kata-set-rules " KOMI_KATAGO_RULES_JSON, NULL,
                              recipe->timeout_ms, cancellable, error) ||
       !komi_gtp_engine_send (engine, "komi 7", NULL, recipe->timeout_ms, cancellable, error)))
    return NULL;

  return g_steal_pointer (&engine);
}
