/* komi-test-model-series.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-test-cli.h"
#include "komi-test-model-series.h"

void
test_run_model_series (const char *dir, const char *db, const char *name, const char *base_url,
                       const char *key_env, const char *key, gboolean quick_retries)
{
  g_autofree char *profile = g_build_filename (dir, "model.json", NULL);
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autofree char *json = NULL;
  g_autofree char *out = NULL, *err = NULL;

  json = g_strdup_printf ("{\"name\": \"rehearsal\", \"api\": \"openai-chat\", "
                          "\"base_url\": \"%s/v1\", \"model\": \"rehearsal-model\", "
                          "\"key_env\": \"%s\", \"logprobs\": true%s}",
                          base_url, key_env,
                          quick_retries ? ", \"retry_base_ms\": 10, \"retry_cap_ms\": 50" : "");
  g_assert_true (g_file_set_contents (profile, json, -1, NULL));
  g_free (json);
  json = g_strdup_printf ("{\"name\": \"%s\", \"protocol\": 1, \"subject\": \"model:%s\", "
                          "\"opponents\": [\"random\"], \"pairs\": 1, \"seed\": 5, "
                          "\"referee\": \"none\", \"jobs\": 1}", name, profile);
  g_assert_true (g_file_set_contents (series, json, -1, NULL));
  g_setenv (key_env, key, TRUE);
  if (run_komi_cli (&out, &err, "run", series, "--db", db, NULL) != 0)
    g_error ("komi-cli run: %s", err);
}
