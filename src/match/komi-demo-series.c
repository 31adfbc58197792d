/* komi-demo-series.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-match"

#include "config.h"

#include <json-glib/json-glib.h>

#include "komi-demo-series.h"

char *
komi_series_definition_build (const char         *name,
                              const char         *subject,
                              const char * const *opponents,
                              guint               pairs,
                              guint64             seed,
                              const char         *referee,
                              guint               jobs)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  /* A string: seeds beyond 2^53 lose digits in a JSON number. */
  g_autofree char *seed_text = g_strdup_printf ("%" G_GUINT64_FORMAT, seed);

  g_return_val_if_fail (name != NULL && subject != NULL && referee != NULL, NULL);
  g_return_val_if_fail (opponents != NULL && opponents[0] != NULL && pairs > 0, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "protocol");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "subject");
  json_builder_add_string_value (b, subject);
  json_builder_set_member_name (b, "opponents");
  json_builder_begin_array (b);
  for (guint i = 0; opponents[i] != NULL; i++)
    json_builder_add_string_value (b, opponents[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "pairs");
  json_builder_add_int_value (b, pairs);
  json_builder_set_member_name (b, "seed");
  json_builder_add_string_value (b, seed_text);
  json_builder_set_member_name (b, "referee");
  json_builder_add_string_value (b, referee);
  json_builder_set_member_name (b, "jobs");
  json_builder_add_int_value (b, jobs);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, TRUE);
}

char *
komi_demo_series_definition (const char         *name,
                             const char         *profile_path,
                             const char * const *opponents,
                             guint               pairs,
                             guint64             seed)
{
  g_autofree char *subject = NULL;

  g_return_val_if_fail (profile_path != NULL, NULL);

  subject = g_strconcat ("model:", profile_path, NULL);
  return komi_series_definition_build (name, subject, opponents, pairs, seed, "gnugo", 1);
}
