/* komi-provider-test.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n.h>

#include "komi-game.h"
#include "komi-protocol-state.h"
#include "komi-provider.h"
#include "komi-provider-test.h"

typedef struct
{
  KomiProviderProfile *profile;
  char                *key;
} TestData;

static void
test_data_free (TestData *data)
{
  komi_provider_profile_free (data->profile);
  if (data->key != NULL)
    memset (data->key, 0, strlen (data->key));
  g_free (data->key);
  g_free (data);
}

void
komi_provider_test_free (KomiProviderTest *test)
{
  g_free (test->answer);
  g_free (test->model_version);
  g_free (test);
}

char *
komi_provider_test_describe (const KomiProviderTest *test)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_append_printf (text, _("✓ %s in %.0f ms"), test->answer, test->latency_ms);
  if (test->tokens_input >= 0 && test->tokens_output >= 0)
    g_string_append_printf (text, _("; %" PRId64 " tokens in, %" PRId64
                                    " out"), test->tokens_input, test->tokens_output);
  g_string_append_printf (text, _("; model %s"),
                          test->model_version ? test->model_version : _("not named"));
  if (test->attempts > 1)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " (%u attempt)",
                                               " (%u attempts)", test->attempts),
                            test->attempts);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Keeps what the last complete exchange reported; the answer comes from
 * komi_provider_ask(). */
static gboolean
on_attempt (const KomiProviderAttempt *attempt,
            gpointer                   user_data,
            GError                   **error)
{
  KomiProviderTest *test = user_data;

  if (attempt->in_flight)
    return TRUE;
  test->attempts = attempt->attempt;
  test->status = attempt->response_status;
  test->latency_ms = attempt->latency_ms;
  test->tokens_input = attempt->tokens_input;
  test->tokens_output = attempt->tokens_output;
  g_free (test->model_version);
  test->model_version = g_strdup (attempt->model_version);
  return TRUE;
}

static void
test_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  TestData *data = task_data;
  g_autoptr(KomiProvider) provider = NULL;
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(KomiProviderTest) test = g_new0 (KomiProviderTest, 1);
  KomiProtocolState state;
  GError *error = NULL;

  test->tokens_input = test->tokens_output = -1;
  provider = komi_provider_new_with_key (data->profile, data->key, &error);
  if (provider == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  komi_protocol_state_init_from_game (&state, game, KOMI_ORIENTATION_IDENTITY);
  if (!komi_provider_ask (provider, &state, KOMI_PROTOCOL_QUESTION_BEST_POINT, on_attempt, test,
                          &test->answer, cancellable, &error))
    {
      /* The providers' words name the profile file's keys ("model",
       * "base_url"); the dialog's user knows its fields. */
      if (test->status == 404)
        {
          g_clear_error (&error);
          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       /* TRANSLATORS: the fields are the provider dialog's. */
                       _("The provider answered 404, not found: it has no model “%s” at %s. "
                         "Check the Pinned model id and the Base URL."),
                       data->profile->model, data->profile->base_url);
        }
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&test), (GDestroyNotify) komi_provider_test_free);
}

void
komi_provider_test_async (const KomiProviderProfile *profile,
                          const char                *key,
                          GCancellable              *cancellable,
                          GAsyncReadyCallback        callback,
                          gpointer                   user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  TestData *data = g_new0 (TestData, 1);

  g_return_if_fail (profile != NULL);

  data->profile = komi_provider_profile_copy (profile);
  data->key = g_strdup (key);
  g_task_set_source_tag (task, komi_provider_test_async);
  g_task_set_task_data (task, data, (GDestroyNotify) test_data_free);
  g_task_run_in_thread (task, test_thread);
}

KomiProviderTest *
komi_provider_test_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
