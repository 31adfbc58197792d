/* test-app-keys.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "komi-app-test-util.h"
#include "komi-key-store.h"
#include "komi-provider.h"
#include "komi-rehearsal.h"
#include "komi-series-dialog.h"
#include "komi-settings.h"
#include "komi-store-test-util.h"
#include "komi-test-util.h"
#include "komi-window.h"

/* What a series run from the window takes from the desktop rather than
 * the environment: a model provider's API key from the keyring, and
 * KataGo's files from the settings the Opponent dialog saves. The keyring
 * is the key store's in-memory stand-in where no keyring daemon runs (the
 * window's path through komi_key_store_lookup_async is the real one), and
 * a real GNOME Keyring when tests/with-keyring.sh runs this program. */

#define KEY_NAME "KOMI_TEST_APP_KEY"

typedef AppWindowFixture KeysFixture;

static void
keys_fixture_set_up (KeysFixture *f, gconstpointer data)
{
  app_window_fixture_open (f, "komi-app-keys-XXXXXX");
  g_unsetenv (KEY_NAME);
  g_unsetenv ("KOMI_TEST_APP_NO_KEY");
  komi_provider_keys_clear ();
}

static void
keys_fixture_tear_down (KeysFixture *f, gconstpointer data)
{
  app_window_fixture_close (f);
  komi_provider_keys_clear ();
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

static void
on_saved (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (komi_key_store_save_finish (result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static void
save_key (const char *name, const char *key)
{
  gboolean saved = FALSE;

  komi_key_store_save_async (name, key, NULL, on_saved, &saved);
  g_assert_true (app_test_wait (flag_set, &saved));
}

/* A profile of the rehearsal model at @base_url whose key is @key_name. */
static char *
write_profile (KeysFixture *f, const char *file, const char *base_url, const char *provider,
               const char *key_name)
{
  char *path = g_build_filename (f->dir, file, NULL);
  g_autofree char *json = g_strdup_printf (
    "{\"name\": \"%s\", \"api\": \"openai-chat\", \"base_url\": \"%s/v1\","
    " \"model\": \"rehearsal-model\", \"key_env\": \"%s\","
    " \"retry_base_ms\": 1, \"retry_cap_ms\": 5}", provider, base_url, key_name);

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  return path;
}

/* A model subject named by a profile whose key is @key_name, against random. */
static char *
write_series (KeysFixture *f, const char *base_url, const char *provider, const char *key_name)
{
  g_autofree char *profile = write_profile (f, "provider.json", base_url, provider, key_name);
  g_autofree char *series_json = g_strdup_printf (
    "{\"name\": \"Keyed\", \"protocol\": 1, \"subject\": \"model:%s\","
    " \"opponents\": [\"random\"], \"pairs\": 1, \"seed\": 5, \"referee\": \"none\"}",
    profile);
  char *path = g_build_filename (f->dir, "series.json", NULL);

  g_assert_true (g_file_set_contents (path, series_json, -1, NULL));
  return path;
}

/* Whether @needle is in any file of @dir (the library, its WAL, …). */
static gboolean
dir_contains (const char *dir, const char *needle)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL)
          && memmem (contents, length, needle, strlen (needle)) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The key is only in the (stand-in) keyring; the server refuses any other. */
static void
test_key_from_keyring (KeysFixture *f, gconstpointer data)
{
  g_autofree char *key = g_strdup_printf ("sk-komi-keyring-%08x%08x", g_random_int (),
                                          g_random_int ());
  KomiRehearsalOptions options = { 0, };
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *series = NULL;
  KomiSeriesJob *job;

  options.api_key = key;
  options.policy = KOMI_REHEARSAL_POLICY_RANDOM;
  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  series = write_series (f, komi_rehearsal_get_base_url (server), "Keyed provider",
                         KEY_NAME);
  save_key (KEY_NAME, key);
  g_assert_false (komi_provider_keys_has (KEY_NAME));

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 120));
  job = komi_window_get_job (f->window);
  g_assert_no_error ((GError *) komi_series_job_get_error (job));
  g_assert_cmpuint (komi_series_job_get_done (job), ==, 2);
  g_assert_true (komi_provider_keys_has (KEY_NAME));
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, "/v1/chat/completions"), >, 0);

  /* Never recorded: not in the library nor beside it. */
  g_assert_true (g_file_test (f->path, G_FILE_TEST_EXISTS));
  g_assert_false (dir_contains (f->dir, key));
}

static gboolean
message_shown (gpointer data)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data))
      {
        *(char **) data = g_strdup (adw_message_dialog_get_body (l->data));
        gtk_window_destroy (l->data);
        return TRUE;
      }
  return FALSE;
}

/* In neither keyring nor environment: no game starts, and the user is
 * told which provider needs which key. */
static void
test_missing_key (KeysFixture *f, gconstpointer data)
{
  g_autofree char *series = write_series (f, "http://127.0.0.1:9", "Keyless provider",
                                         "KOMI_TEST_APP_NO_KEY");
  g_autofree char *body = NULL;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait (message_shown, &body));
  g_test_message ("%s", body);
  g_assert_nonnull (strstr (body, "“Keyless provider”"));
  /* The way there: a new provider is listed nowhere else. */
  g_assert_nonnull (strstr (body, "Edit Model Provider…"));
  g_assert_null (strstr (body, "Players"));
  g_assert_nonnull (strstr (body, "KOMI_TEST_APP_NO_KEY"));
  g_assert_null (komi_window_get_job (f->window));
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
}

static gboolean
dialog_accepts (gpointer dialog)
{
  return komi_series_dialog_get_definition (dialog) != NULL;
}

/* The error under the subject's field (the next row of its list) says
 * where the key goes. */
static gboolean
dialog_says (gpointer dialog)
{
  GtkWidget *row = app_test_child (dialog, KOMI_TYPE_SERIES_DIALOG, "subject_row");
  GtkWidget *below = gtk_widget_get_next_sibling (row);
  GtkWidget *label = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (below));

  return gtk_widget_get_visible (below)
    && strstr (gtk_label_get_text (GTK_LABEL (label)), "Edit Model Provider…") != NULL;
}

/* The whole way a user goes: a model whose key is in the keyring only,
 * chosen in the New Series dialog, accepted once the dialog has looked
 * its key up, and run. A model with no key anywhere is refused there, in
 * words that say where the key goes. */
static void
test_series_dialog (KeysFixture *f, gconstpointer data)
{
  g_autofree char *key = g_strdup_printf ("sk-komi-dialog-%08x", g_random_int ());
  KomiRehearsalOptions options = { 0, };
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *keyed = NULL, *keyless = NULL, *subject = NULL;
  KomiSeriesDialog *dialog;
  KomiSeriesJob *job;

  options.api_key = key;
  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  keyed = write_profile (f, "keyed.json", komi_rehearsal_get_base_url (server),
                         "Dialog provider", "KOMI_TEST_APP_DIALOG_KEY");
  keyless = write_profile (f, "keyless.json", komi_rehearsal_get_base_url (server),
                           "Keyless provider", "KOMI_TEST_APP_NO_KEY");
  save_key ("KOMI_TEST_APP_DIALOG_KEY", key);

  dialog = komi_series_dialog_new (GTK_WINDOW (f->window),
                                   komi_window_get_library (f->window));
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  subject = g_strconcat ("model:", keyless, NULL);
  app_test_set_text (dialog, KOMI_TYPE_SERIES_DIALOG, "subject_row", subject);
  app_test_set_text (dialog, KOMI_TYPE_SERIES_DIALOG, "opponents_row", "random");
  adw_combo_row_set_selected (ADW_COMBO_ROW (app_test_child (dialog, KOMI_TYPE_SERIES_DIALOG,
                                                             "referee_row")), 2);  /* none */
  g_assert_true (app_test_wait (dialog_says, dialog));
  g_assert_null (komi_series_dialog_get_definition (dialog));

  g_free (subject);
  subject = g_strconcat ("model:", keyed, NULL);
  app_test_set_text (dialog, KOMI_TYPE_SERIES_DIALOG, "subject_row", subject);
  g_assert_true (app_test_wait (dialog_accepts, dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "series.run", NULL));
  g_assert_null (dialog);   /* closed */

  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 120));
  job = komi_window_get_job (f->window);
  g_assert_no_error ((GError *) komi_series_job_get_error (job));
  g_assert_cmpuint (komi_series_job_get_done (job), >, 0);
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, "/v1/chat/completions"), >, 0);
  g_assert_false (dir_contains (f->dir, key));
}

/* KataGo is not installed here: the fake GTP engine stands in for its
 * binary (a script that drops KataGo's arguments), with empty files as
 * its network and config, which is all the spec parser checks. */
static void
test_katago_from_settings (KeysFixture *f, gconstpointer data)
{
  g_autofree char *engine = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "tests",
                                              "fake-gtp-engine", NULL);
  g_autofree char *binary = g_build_filename (f->dir, "katago", NULL);
  g_autofree char *model = g_build_filename (f->dir, "model.bin.gz", NULL);
  g_autofree char *config = g_build_filename (f->dir, "gtp.cfg", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\nexec '%s'\n", engine);
  g_autofree char *series = g_build_filename (f->dir, "series.json", NULL);
  g_autoptr(GSettings) settings = komi_settings_new ();
  KomiSeriesJob *job;

  g_assert_nonnull (settings);
  g_assert_true (g_file_test (engine, G_FILE_TEST_IS_EXECUTABLE));
  g_assert_true (g_file_set_contents (binary, script, -1, NULL));
  g_assert_cmpint (g_chmod (binary, 0755), ==, 0);
  g_assert_true (g_file_set_contents (model, "", -1, NULL));
  g_assert_true (g_file_set_contents (config, "", -1, NULL));
  g_assert_true (g_file_set_contents (series,
                                      "{\"name\": \"KataGo from settings\", \"protocol\": 1,"
                                      " \"subject\": \"random\", \"opponents\": [\"katago:5\"],"
                                      " \"pairs\": 1, \"seed\": 3, \"referee\": \"none\"}",
                                      -1, NULL));
  g_unsetenv ("KOMI_KATAGO");
  g_unsetenv ("KOMI_KATAGO_MODEL");
  g_unsetenv ("KOMI_KATAGO_CONFIG");
  g_settings_set_string (settings, "katago-binary", binary);
  g_settings_set_string (settings, "katago-model", model);
  g_settings_set_string (settings, "katago-config", config);

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run-series-file", "s", series);
  g_assert_true (app_test_wait_seconds (app_test_job_over, f->window, 120));
  job = komi_window_get_job (f->window);
  g_assert_no_error ((GError *) komi_series_job_get_error (job));
  g_assert_cmpstr (komi_series_job_get_engine_path (job, 1), ==, binary);
  g_assert_cmpstr (komi_series_job_get_engine_path (job, 2), ==, model);
  g_assert_cmpstr (komi_series_job_get_engine_path (job, 3), ==, config);
  g_assert_null (komi_series_job_get_engine_path (job, 0));   /* gnugo-path '' */
  g_assert_cmpuint (komi_series_job_get_done (job), ==, 2);

  g_settings_reset (settings, "katago-binary");
  g_settings_reset (settings, "katago-model");
  g_settings_reset (settings, "katago-config");
}

int
main (int argc, char *argv[])
{
  app_test_init (&argc, &argv);
  /* tests/with-keyring.sh runs a real GNOME Keyring on a private bus. */
  if (g_getenv ("KOMI_TEST_REAL_KEYRING") == NULL)
    komi_key_store_use_memory ();

  g_test_add ("/komi/app/keys/from-keyring", KeysFixture, NULL,
              keys_fixture_set_up, test_key_from_keyring, keys_fixture_tear_down);
  g_test_add ("/komi/app/keys/missing", KeysFixture, NULL,
              keys_fixture_set_up, test_missing_key, keys_fixture_tear_down);
  g_test_add ("/komi/app/keys/series-dialog", KeysFixture, NULL,
              keys_fixture_set_up, test_series_dialog, keys_fixture_tear_down);
  g_test_add ("/komi/app/keys/katago-from-settings", KeysFixture, NULL,
              keys_fixture_set_up, test_katago_from_settings, keys_fixture_tear_down);
  return g_test_run ();
}
