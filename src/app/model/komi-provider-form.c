/* komi-provider-form.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <errno.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "komi-provider-form.h"
#include "komi-provider-profile.h"

/* What a field must be, as its row would say it. */
static char *
words_for (const char *field)
{
  static const struct { const char *field; const char *words; } table[] = {
    { "name", N_("Give the profile a name") },
    { "base_url", N_("The base URL must start with http:// or https:// (empty: the API’s own)") },
    { "model", N_("Give the model id the provider knows, pinned to a version, e.g. "
                  "gpt-4.1-mini-2025-04-14") },
    { "key_env", N_("The key name must be letters, digits and _ such as OPENAI_API_KEY, not the "
                    "key itself (that goes in API key)") },
    { "temperature", N_("Temperature must be a number from 0 to 2 (empty: not sent)") },
    { "max_output_tokens", N_("Max output tokens must be a whole number from 1 to 10,000,000 "
                              "(empty: not sent)") },
    { "reasoning_effort", N_("Reasoning effort must be a word such as low, medium or high") },
    { "thinking_budget", N_("Thinking budget must be a whole number of tokens from 0 to "
                            "10,000,000; -1 (automatic) is for the gemini API only") },
    { "max_concurrent", N_("Requests at once must be a whole number from 1 to 1,024") },
    { "requests_per_minute", N_("Requests per minute must be a number from 0 to 1,000,000 "
                                "(empty: no cap)") },
    { "price_input_per_mtok", N_("The input price must be an amount in US dollars per million "
                                 "tokens, 0 or more, like 0.15") },
    { "price_output_per_mtok", N_("The output price must be an amount in US dollars per million "
                                  "tokens, 0 or more, like 0.60") },
    { "typical_latency_seconds", N_("The typical answer time must be a number of seconds "
                                    "from 0.001 to 3,600, like 1.5 (empty: not known)") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (table[i].field, field))
      return g_strdup (_(table[i].words));
  return NULL;
}

gboolean
komi_provider_form_check (JsonObject        *object,
                          const char *const *fields,
                          guint              n,
                          char             **problems,
                          char             **other)
{
  g_autoptr(JsonObject) copy = json_object_new ();
  g_autoptr(GList) members = json_object_get_members (object);
  gboolean valid = TRUE;

  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (copy, l->data,
                            json_node_copy (json_object_get_member (object, l->data)));
  /* One more round than there are rows: each round sets one aside. */
  for (guint round = 0; round <= n; round++)
    {
      g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), copy);
      g_autoptr(KomiProviderProfile) profile = NULL;
      g_autoptr(GError) error = NULL;
      gint row = -1;

      if ((profile = komi_provider_profile_new_from_json (root, &error)) != NULL)
        return valid;
      valid = FALSE;
      /* The parser's messages start with the member's name in quotes. */
      for (guint i = 0; i < n && row < 0; i++)
        {
          g_autofree char *quoted = g_strdup_printf ("“%s”", fields[i]);

          if (g_str_has_prefix (error->message, quoted) && problems[i] == NULL)
            row = (gint) i;
        }
      if (row < 0 || (problems[row] = words_for (fields[row])) == NULL)
        {
          if (row >= 0)
            problems[row] = g_strdup (error->message);
          else
            *other = g_strdup (error->message);
          if (row < 0)
            return FALSE;
        }
      /* Set aside: a required member gets a stand-in, others go. */
      if (g_str_equal (fields[row], "name") || g_str_equal (fields[row], "model"))
        json_object_set_string_member (copy, fields[row], "x");
      else
        json_object_remove_member (copy, fields[row]);
    }
  return FALSE;
}

/* Save */

char *
komi_provider_form_file_name (const char *name)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    g_string_append_c (s, g_ascii_isalnum (*p) || *p == '-' || *p == '_' ? *p : '-');
  g_string_append (s, ".json");
  return g_string_free (g_steal_pointer (&s), FALSE);
}

void
komi_provider_form_write_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  char **args = task_data;   /* path, contents, and "replace" when it may */
  g_autofree char *folder = g_path_get_dirname (args[0]);
  GError *error = NULL;

  /* Only a profile this dialog wrote is replaced; another of the same name
   * (perhaps written by hand) is kept. */
  if (args[2] == NULL && g_file_test (args[0], G_FILE_TEST_EXISTS))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_EXISTS,
                             _("A profile already exists at %s: choose another name"),
                             args[0]);
  else if (g_mkdir_with_parents (folder, 0700) != 0)
    g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (errno),
                             _("Cannot create the folder %s: %s"), folder, g_strerror (errno));
  else if (!g_file_set_contents_full (args[0], args[1], -1, G_FILE_SET_CONTENTS_CONSISTENT,
                                      0600, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}
