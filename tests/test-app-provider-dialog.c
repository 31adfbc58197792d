/* test-app-provider-dialog.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-app-test-dialog.h"
#include "komi-provider-dialog.h"
#include "komi-provider-profile.h"
#include "komi-rehearsal.h"
#include "komi-store-test-util.h"
#include "komi-test-util.h"

/* The provider dialog, built from its template and presented: each bad
 * field is refused at the field by the profile parser and Save is off; a
 * saved profile loads and never holds the key; Test sends one real
 * request to the rehearsal server and reports its answer or its 401. No
 * keyring runs here (the session bus is pointed at nothing), so the key
 * falls back to the environment, as the dialog then says. */

#define PLANTED_KEY "sk-planted-7f3c9a1e5b2d4068"

typedef struct
{
  char               *dir;
  KomiProviderDialog *dialog;
} DialogFixture;

static void
fixture_set_up (DialogFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("komi-provider-dialog-XXXXXX", &error);
  g_assert_no_error (error);
  f->dialog = komi_provider_dialog_new (NULL);
  komi_provider_dialog_set_folder (f->dialog, f->dir);
  app_test_present_dialog (f->dialog, NULL, 0);
}

static void
fixture_tear_down (DialogFixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->dialog));
  remove_test_dir (f->dir);
  g_free (f->dir);
}

static GtkWidget *
child (DialogFixture *f, const char *name)
{
  return app_test_child (f->dialog, KOMI_TYPE_PROVIDER_DIALOG, name);
}

static void
set_text (DialogFixture *f, const char *row, const char *text)
{
  app_test_set_text (f->dialog, KOMI_TYPE_PROVIDER_DIALOG, row, text);
}

static const char *rows[] = {
  "name_row", "api_row", "base_url_row", "model_row", "key_name_row", "temperature_row",
  "max_tokens_row", "effort_row", "thinking_row", "concurrent_row", "rpm_row",
  "price_input_row", "price_output_row", "latency_row",
};

/* A profile file's member names, which a user never has to know. */
static const char *members[] = {
  "base_url", "key_env", "max_output_tokens", "reasoning_effort", "thinking_budget",
  "max_concurrent", "requests_per_minute", "price_input_per_mtok", "price_output_per_mtok",
  "“temperature”", "“model”", "“name”",
};

static const char *
error_under (DialogFixture *f, const char *row)
{
  return app_test_error_under (f->dialog, KOMI_TYPE_PROVIDER_DIALOG, row);
}

/* Refused at @row only, with a message under it that contains @expected
 * and names no profile member ("max_concurrent"…). */
static void
assert_refused_at (DialogFixture *f, const char *row, const char *expected)
{
  const char *wrong[] = { row, expected, NULL };
  const char *shown = error_under (f, row);

  g_assert_null (komi_provider_dialog_get_profile (f->dialog));
  app_test_assert_row_errors (f->dialog, KOMI_TYPE_PROVIDER_DIALOG, rows, G_N_ELEMENTS (rows),
                              wrong);
  for (guint j = 0; j < G_N_ELEMENTS (members); j++)
    g_assert_null (strstr (shown, members[j]));
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.save", NULL)
                  && komi_provider_dialog_get_saved_path (f->dialog) != NULL);
}

static void
assert_accepted (DialogFixture *f)
{
  g_assert_nonnull (komi_provider_dialog_get_profile (f->dialog));
  app_test_assert_rows_quiet (f->dialog, KOMI_TYPE_PROVIDER_DIALOG, rows, G_N_ELEMENTS (rows));
  g_assert_false (gtk_widget_get_visible (child (f, "error_label")));
}

static void
test_refuses_bad_fields (DialogFixture *f, gconstpointer data)
{
  /* It opens without a model, the one thing it cannot guess, and says so
   * only when Save is pressed: nothing was typed yet. */
  g_assert_null (komi_provider_dialog_get_profile (f->dialog));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_assert_null (error_under (f, rows[i]));
  g_assert_false (gtk_widget_get_visible (child (f, "error_label")));
  /* Once something is typed, the field still in error is named above the
   * form, in words: not "press Save to see which". */
  set_text (f, "name_row", "My provider");
  g_assert_true (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))), ==,
                   "Pinned model id: Give the model id the provider knows, pinned to a version, "
                   "e.g. gpt-4.1-mini-2025-04-14");
  gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.save", NULL);
  assert_refused_at (f, "model_row", "Give the model id");
  set_text (f, "model_row", "gpt-4.1-mini-2025-04-14");
  assert_accepted (f);

  set_text (f, "temperature_row", "3");
  assert_refused_at (f, "temperature_row", "from 0 to 2");
  set_text (f, "temperature_row", "warm");
  assert_refused_at (f, "temperature_row", "Temperature must be a number from 0 to 2");
  set_text (f, "temperature_row", "0.5");
  assert_accepted (f);

  set_text (f, "base_url_row", "ftp://example.org");
  assert_refused_at (f, "base_url_row", "http");
  set_text (f, "base_url_row", "https://example.org/v1/");
  assert_accepted (f);

  /* The key itself pasted where its name goes. */
  set_text (f, "key_name_row", "sk-proj-abc");
  assert_refused_at (f, "key_name_row", "not the key itself");
  set_text (f, "key_name_row", "MY_KEY");
  assert_accepted (f);

  set_text (f, "concurrent_row", "0");
  assert_refused_at (f, "concurrent_row", "Requests at once must be a whole number from 1");
  set_text (f, "concurrent_row", "8");
  set_text (f, "max_tokens_row", "1.5");
  assert_refused_at (f, "max_tokens_row", "whole number");
  set_text (f, "max_tokens_row", "2048");
  set_text (f, "price_output_row", "-1");
  assert_refused_at (f, "price_output_row", "The output price must be an amount in US dollars");
  set_text (f, "price_output_row", "1.6");
  set_text (f, "latency_row", "soon");
  assert_refused_at (f, "latency_row", "The typical answer time must be a number of seconds");
  set_text (f, "latency_row", "");

  /* Every wrong field at once, each under itself. */
  set_text (f, "temperature_row", "hot");
  set_text (f, "rpm_row", "-5");
  set_text (f, "price_input_row", "cheap");
  g_assert_null (komi_provider_dialog_get_profile (f->dialog));
  g_assert_nonnull (strstr (error_under (f, "temperature_row"), "Temperature"));
  g_assert_nonnull (strstr (error_under (f, "rpm_row"), "Requests per minute"));
  g_assert_nonnull (strstr (error_under (f, "price_input_row"), "input price"));
  g_assert_null (error_under (f, "model_row"));
  set_text (f, "temperature_row", "0.5");
  set_text (f, "rpm_row", "");
  set_text (f, "price_input_row", "0.4");
  assert_accepted (f);

  /* A rule across fields: thinking -1 is Gemini's alone. */
  set_text (f, "thinking_row", "-1");
  assert_refused_at (f, "thinking_row", "gemini");
  adw_combo_row_set_selected (ADW_COMBO_ROW (child (f, "api_row")), 3);
  assert_accepted (f);
  g_assert_nonnull (strstr (komi_provider_dialog_get_profile (f->dialog), "\"gemini\""));
}

static gboolean
saved (gpointer data)
{
  DialogFixture *f = data;

  return komi_provider_dialog_get_saved_path (f->dialog) != NULL
         && strstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))), "keyring") != NULL
         && strstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))), "MY_KEY") != NULL;
}

static gboolean
rpm_saved (gpointer data)
{
  DialogFixture *f = data;
  g_autoptr(KomiProviderProfile) profile =
    komi_provider_profile_load (komi_provider_dialog_get_saved_path (f->dialog), NULL);

  return profile != NULL && profile->requests_per_minute == 30
         && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (child (f, "status_label"))),
                              "Saved to ");
}

static gboolean
refused_existing (gpointer data)
{
  DialogFixture *f = data;

  return strstr (gtk_label_get_text (GTK_LABEL (child (f, "status_label"))),
                 "already exists") != NULL;
}

static void
test_save_keeps_key_out (DialogFixture *f, gconstpointer data)
{
  g_autoptr(KomiProviderProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autofree char *contents = NULL;
  const char *path, *entry;
  guint n_files = 0;

  set_text (f, "name_row", "Mini test");
  set_text (f, "model_row", "gpt-4.1-mini-2025-04-14");
  set_text (f, "key_name_row", "MY_KEY");
  set_text (f, "rpm_row", "60");
  set_text (f, "price_input_row", "0.4");
  set_text (f, "price_output_row", "0.15");
  set_text (f, "key_row", PLANTED_KEY);
  assert_accepted (f);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.save", NULL));
  g_assert_true (app_test_wait (saved, f));

  path = komi_provider_dialog_get_saved_path (f->dialog);
  g_assert_true (g_str_has_prefix (path, f->dir));
  g_assert_true (g_str_has_suffix (path, "Mini-test.json"));
  profile = komi_provider_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (profile->model, ==, "gpt-4.1-mini-2025-04-14");
  g_assert_cmpstr (profile->key_env, ==, "MY_KEY");
  g_assert_cmpfloat (profile->requests_per_minute, ==, 60);
  g_assert_cmpfloat (profile->price_input, ==, 0.4);

  /* The keyring's refusal (here no keyring runs: the session bus is
   * pointed at nothing) at the top, in red, in words that say what to do
   * (not D-Bus's text), beside "Saved to…"; nothing grey under the key. */
  g_assert_true (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_true (gtk_widget_has_css_class (child (f, "error_label"), "error"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))), ==,
                   "The key was not stored: no system keyring (such as GNOME Keyring) is "
                   "running. Set the environment variable MY_KEY to the key before starting "
                   "Komi, or start a keyring and press Save again.");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (child (f, "status_label"))),
                                   "Saved to "));
  g_assert_false (gtk_widget_get_visible (child (f, "key_label")));
  /* Still said after a change that leaves the profile good (a Test's
   * latency written in, here by hand): the key is still not stored. */
  set_text (f, "latency_row", "0.5");
  g_assert_true (gtk_widget_get_visible (child (f, "error_label")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (f, "error_label"))),
                            "The key was not stored"));
  /* No file in the folder holds the key, and the dialog says where it
   * must go instead (no keyring here). */
  dir = g_dir_open (f->dir, 0, &error);
  g_assert_no_error (error);
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (f->dir, entry, NULL);

      g_clear_pointer (&contents, g_free);
      g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
      g_assert_null (strstr (contents, PLANTED_KEY));
      g_assert_null (strstr (contents, "planted"));
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, 1);
  /* Prices as typed, not as the nearest double prints in full. */
  g_assert_nonnull (strstr (contents, "\"price_output_per_mtok\" : 0.15\n}"));
  g_assert_nonnull (strstr (contents, "\"price_input_per_mtok\" : 0.4,"));
  g_assert_null (strstr (contents, "0.1499"));

  /* Saved again, its own file is replaced; another profile of the same
   * name is not. */
  set_text (f, "rpm_row", "30");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.save", NULL));
  g_assert_true (app_test_wait (rpm_saved, f));
  {
    g_autofree char *other = g_build_filename (f->dir, "Other.json", NULL);

    g_assert_true (g_file_set_contents (other, "{\"hand\": \"written\"}", -1, NULL));
    set_text (f, "name_row", "Other");
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.save", NULL));
    g_assert_true (app_test_wait (refused_existing, f));
    g_clear_pointer (&contents, g_free);
    g_assert_true (g_file_get_contents (other, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, "{\"hand\": \"written\"}");
  }
}

static gboolean
edit_saved (gpointer data)
{
  DialogFixture *f = data;

  return komi_provider_dialog_get_saved_path (f->dialog) != NULL;
}

/* A profile opened from its file: the fields show it, the key only that
 * it is kept elsewhere; Save rewrites that very file, keeping the members
 * the dialog has no row for; a bad value is refused and the file stays. */
static void
test_edit_existing (DialogFixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "hand-written.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *status = NULL;
  g_autoptr(KomiProviderProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, "{\"name\": \"Claude\", \"api\": \"anthropic\", "
                                      "\"model\": \"claude-old\", \"key_env\": \"MY_KEY\", "
                                      "\"max_output_tokens\": 64, \"temperature\": 0.5, "
                                      "\"price_input_per_mtok\": 0.15, "
                                      "\"price_output_per_mtok\": 15, "
                                      "\"anthropic_tool\": true, \"retry_attempts\": 3}\n",
                                      -1, NULL));
  g_assert_null (komi_provider_dialog_new_for_file (NULL, "/nonexistent/p.json", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  gtk_window_destroy (GTK_WINDOW (f->dialog));
  f->dialog = komi_provider_dialog_new_for_file (NULL, path, &error);
  g_assert_no_error (error);
  app_test_present_dialog (f->dialog, NULL, 0);
  g_assert_cmpstr (komi_provider_dialog_get_edit_path (f->dialog), ==, path);

  assert_accepted (f);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "name_row"))), ==, "Claude");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (child (f, "api_row"))), ==,
                    KOMI_PROVIDER_API_ANTHROPIC);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "model_row"))), ==,
                   "claude-old");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "key_name_row"))), ==,
                   "MY_KEY");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "max_tokens_row"))), ==, "64");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "temperature_row"))), ==,
                   "0.5");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "price_output_row"))), ==,
                   "15");
  /* As the file says it, not 0.14999999999999999. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "price_input_row"))), ==,
                   "0.15");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "base_url_row"))), ==, "");
  /* The key is never read into the dialog. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "key_row"))), ==, "");

  set_text (f, "model_row", "claude-new");
  assert_accepted (f);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.save", NULL));
  g_assert_true (app_test_wait (edit_saved, f));
  g_assert_cmpstr (komi_provider_dialog_get_saved_path (f->dialog), ==, path);
  profile = komi_provider_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (profile->model, ==, "claude-new");
  g_assert_cmpstr (profile->name, ==, "Claude");
  g_assert_cmpfloat (profile->temperature, ==, 0.5);
  g_assert_cmpint (profile->max_output_tokens, ==, 64);
  g_assert_cmpfloat (profile->price_output, ==, 15);
  g_assert_true (profile->priced);
  /* Kept although the dialog has no row for them. */
  g_assert_true (profile->anthropic_tool);
  g_assert_cmpuint (profile->retry_attempts, ==, 3);
  /* Only the one file. */
  {
    g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
    guint n = 0;

    while (g_dir_read_name (dir) != NULL)
      n++;
    g_assert_cmpuint (n, ==, 1);
  }

  /* A bad value: refused at its field, nothing saved, the file as it was. */
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
  set_text (f, "temperature_row", "7");
  g_assert_null (komi_provider_dialog_get_profile (f->dialog));
  g_assert_nonnull (strstr (error_under (f, "temperature_row"), "from 0 to 2"));
  status = g_strdup (gtk_label_get_text (GTK_LABEL (child (f, "status_label"))));
  g_assert_true (g_str_has_prefix (status, "Saved to "));
  gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.save", NULL);
  /* A save that starts says "Saving…" before it returns: the status still
   * telling of the last save shows that none started (no wait proves it). */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (f, "status_label"))), ==, status);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
}

static const char *
run_test (DialogFixture *f, KomiRehearsal *rehearsal, const char *key)
{
  g_autofree char *base = app_test_rehearsal_url (rehearsal);

  app_test_provider_fill (f->dialog, base, "KOMI_TEST_UNSET_KEY", key);
  assert_accepted (f);
  return app_test_run_check (f->dialog, KOMI_TYPE_PROVIDER_DIALOG, "provider.test",
                             "test_label", 60);
}

static gboolean
request_held (gpointer rehearsal)
{
  return komi_rehearsal_get_request_count (rehearsal, NULL) >= 1;
}

/* While the request is out, a spinner and Cancel Test show beside Test,
 * which waits; Cancel Test drops the request (a server that holds it for
 * ten minutes) and says so, and nothing later takes its place. */
static void
test_cancel_test (DialogFixture *f, gconstpointer data)
{
  KomiRehearsalOptions options = { .policy = KOMI_REHEARSAL_POLICY_FIRST,
                                   .api_key = PLANTED_KEY, .faults = "timeout@1" };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiRehearsal) rehearsal = komi_rehearsal_new (&options, &error);
  g_autofree char *base = NULL;
  AppTestRefs watch = { G_OBJECT (f->dialog), 0 };
  GtkWidget *label = child (f, "test_label");

  g_assert_no_error (error);
  base = app_test_rehearsal_url (rehearsal);
  app_test_provider_fill (f->dialog, base, "KOMI_TEST_UNSET_KEY", PLANTED_KEY);
  assert_accepted (f);
  app_test_assert_check_idle (f->dialog, KOMI_TYPE_PROVIDER_DIALOG);
  watch.refs = G_OBJECT (f->dialog)->ref_count;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.test", NULL));
  app_test_assert_check_running (f->dialog, KOMI_TYPE_PROVIDER_DIALOG);

  /* The server has the request and will not answer it. */
  g_assert_true (app_test_wait_seconds (request_held, rehearsal, 60));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->dialog), "provider.cancel-test",
                                             NULL));
  app_test_assert_check_idle (f->dialog, KOMI_TYPE_PROVIDER_DIALOG);
  g_assert_true (gtk_widget_get_sensitive (child (f, "test_button")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                   "Test cancelled: the request was dropped.");
  /* The request ends with the cancel, not the server's ten minutes. */
  g_assert_true (app_test_wait_seconds (app_test_refs_back, &watch, 60));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                   "Test cancelled: the request was dropped.");
  g_assert_cmpuint (komi_rehearsal_get_request_count (rehearsal, NULL), ==, 1);
}

static void
test_rehearsal_answers (DialogFixture *f, gconstpointer data)
{
  KomiRehearsalOptions options = { .policy = KOMI_REHEARSAL_POLICY_FIRST,
                                   .api_key = PLANTED_KEY };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiRehearsal) rehearsal = komi_rehearsal_new (&options, &error);
  const char *text;

  g_assert_no_error (error);
  text = run_test (f, rehearsal, PLANTED_KEY);
  g_test_message ("%s", text);
  /* "✓ A1 in 3 ms; 700 tokens in, 3 out; model rehearsal-1" */
  g_assert_true (g_str_has_prefix (text, "✓ "));
  g_assert_nonnull (strstr (text, " ms; "));
  g_assert_nonnull (strstr (text, " tokens in, "));
  g_assert_nonnull (strstr (text, "; model rehearsal"));
  g_assert_cmpuint (komi_rehearsal_get_request_count (rehearsal, NULL), ==, 1);
  /* The answer's time becomes the profile's typical one (New Series' estimate). */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (f, "latency_row"))), !=, "");
  g_assert_nonnull (strstr (komi_provider_dialog_get_profile (f->dialog),
                            "\"typical_latency_seconds\" : 0."));
}

static void
test_rehearsal_refuses_key (DialogFixture *f, gconstpointer data)
{
  KomiRehearsalOptions options = { .api_key = "sk-the-right-one" };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiRehearsal) rehearsal = komi_rehearsal_new (&options, &error);
  const char *text;

  g_assert_no_error (error);
  text = run_test (f, rehearsal, PLANTED_KEY);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "✗ "));
  g_assert_nonnull (strstr (text, "401"));
  g_assert_nonnull (strstr (text, "valid API key"));
  g_assert_null (strstr (text, PLANTED_KEY));
  /* Fatal: asked once, not retried. */
  g_assert_cmpuint (komi_rehearsal_get_request_count (rehearsal, NULL), ==, 1);
}

/* A base URL the provider has no API at: the Test says so in the words
 * of the dialog's fields, never the profile file's keys. */
static void
test_not_found (DialogFixture *f, gconstpointer data)
{
  KomiRehearsalOptions options = { .api_key = PLANTED_KEY };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiRehearsal) rehearsal = komi_rehearsal_new (&options, &error);
  g_autofree char *base = NULL;
  g_autofree char *wrong = NULL;
  const char *text;

  g_assert_no_error (error);
  base = app_test_rehearsal_url (rehearsal);
  wrong = g_strconcat (base, "/no/such/api", NULL);
  app_test_provider_fill (f->dialog, wrong, "KOMI_TEST_UNSET_KEY", PLANTED_KEY);
  assert_accepted (f);
  text = app_test_run_check (f->dialog, KOMI_TYPE_PROVIDER_DIALOG, "provider.test",
                             "test_label", 60);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "✗ "));
  g_assert_nonnull (strstr (text, "404"));
  g_assert_nonnull (strstr (text, "Check the Pinned model id and the Base URL"));
  g_assert_nonnull (strstr (text, wrong));
  g_assert_null (strstr (text, "\"model\""));
  g_assert_null (strstr (text, "base_url"));
}

/* A provider that cannot be reached: the Test says so after the
 * attempts its profile allows, and never that a series pauses (there is
 * none). The profile, opened for editing, asks for 3 attempts a few
 * milliseconds apart: the Test keeps to the retries the dialog does not
 * show, as a series would (with the profiles' default, 6 attempts from
 * half a second apart, the Test took about 15 s here). */
static void
test_unreachable (DialogFixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "unreachable.json", NULL);
  g_autoptr(GError) error = NULL;
  const char *text;

  /* Port 9 (discard): nothing listens on loopback. */
  g_assert_true (g_file_set_contents (path, "{\"name\": \"Far away\", \"api\": \"openai\", "
                                      "\"model\": \"m\", \"key_env\": \"MY_KEY\", "
                                      "\"retry_attempts\": 3, \"retry_base_ms\": 10, "
                                      "\"retry_cap_ms\": 20}\n", -1, NULL));
  gtk_window_destroy (GTK_WINDOW (f->dialog));
  f->dialog = komi_provider_dialog_new_for_file (NULL, path, &error);
  g_assert_no_error (error);
  app_test_present_dialog (f->dialog, NULL, 0);
  app_test_provider_fill (f->dialog, "http://127.0.0.1:9/v1", "KOMI_TEST_UNSET_KEY",
                          PLANTED_KEY);
  assert_accepted (f);
  text = app_test_run_check (f->dialog, KOMI_TYPE_PROVIDER_DIALOG, "provider.test",
                             "test_label", 120);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "✗ "));
  g_assert_nonnull (strstr (text, "no answer after 3 attempts"));
  g_assert_null (strstr (text, "series"));
  g_assert_null (strstr (text, PLANTED_KEY));
}

int
main (int argc, char *argv[])
{
  /* No keyring for the tests, whatever the machine runs: a planted key
   * must never land in a real one. */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/komi-test-bus", TRUE);
  g_unsetenv ("KOMI_TEST_UNSET_KEY");
  g_unsetenv ("MY_KEY");
  app_test_init (&argc, &argv);

  g_test_add ("/komi/app/dialog/provider/refuses-bad-fields", DialogFixture, NULL,
              fixture_set_up, test_refuses_bad_fields, fixture_tear_down);
  g_test_add ("/komi/app/dialog/provider/save-keeps-key-out", DialogFixture, NULL,
              fixture_set_up, test_save_keeps_key_out, fixture_tear_down);
  g_test_add ("/komi/app/dialog/provider/edit-existing", DialogFixture, NULL,
              fixture_set_up, test_edit_existing, fixture_tear_down);
  g_test_add ("/komi/app/dialog/provider/test-unreachable", DialogFixture, NULL,
              fixture_set_up, test_unreachable, fixture_tear_down);
  g_test_add ("/komi/app/dialog/provider/test-rehearsal", DialogFixture, NULL,
              fixture_set_up, test_rehearsal_answers, fixture_tear_down);
  g_test_add ("/komi/app/dialog/provider/cancel-test", DialogFixture, NULL,
              fixture_set_up, test_cancel_test, fixture_tear_down);
  g_test_add ("/komi/app/dialog/provider/test-not-found", DialogFixture, NULL,
              fixture_set_up, test_not_found, fixture_tear_down);
  g_test_add ("/komi/app/dialog/provider/test-unauthorized", DialogFixture, NULL,
              fixture_set_up, test_rehearsal_refuses_key, fixture_tear_down);
  return g_test_run ();
}
