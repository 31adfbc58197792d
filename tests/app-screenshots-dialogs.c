/* app-screenshots-dialogs.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"


#include "app-screenshots-dialogs.h"
#include "komi-app-test-dialog.h"
#include "komi-provider-dialog.h"
#include "komi-window.h"

/* The dialogs of app-screenshots.c: New Series, a provider, an opponent. */

static gboolean
elapsed (gpointer end)
{
  return g_get_monotonic_time () > *(gint64 *) end;
}

void
shot_pause_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  app_test_wait (elapsed, &end);
}

void
shot_series_dialog (GtkWindow *window, const char *subject, const char *tested,
                    const char *scratch_dir)
{
  KomiSeriesDialog *dialog = komi_series_dialog_new (window,
      komi_window_get_library (KOMI_WINDOW (window)));
  GType type = KOMI_TYPE_SERIES_DIALOG;

  if (g_str_equal (subject, "@priced"))
    {
      /* A profile as a user would write it for a paid model. */
      g_autofree char *profile = g_build_filename (scratch_dir, "gpt-example.json", NULL);
      g_autofree char *model = g_strconcat ("model:", profile, NULL);

      g_file_set_contents (profile, "{\"name\": \"example\", \"api\": \"openai-chat\", "
                           "\"model\": \"gpt-example\", "
                           "\"max_output_tokens\": 16, \"price_input_per_mtok\": 2.5, "
                           "\"price_output_per_mtok\": 10, "
                           "\"typical_latency_seconds\": 1.2}", -1, NULL);
      app_test_set_text (dialog, type, "subject_row", model);
      app_test_set_text (dialog, type, "budget_row", "2");
    }
  else if (subject[0] != '\0')
    {
      app_test_set_text (dialog, type, "subject_row", subject);
      /* Refused: more fields wrong, each said under itself. */
      if (g_str_equal (subject, "gnugo:11"))
        {
          app_test_set_text (dialog, type, "opponents_row", "random, gnugo:0, random");
          app_test_set_text (dialog, type, "pairs_row", "-3");
        }
    }
  gtk_window_present (GTK_WINDOW (dialog));
  if (tested != NULL)
    {
      app_test_set_text (dialog, type, "opponents_row", tested);
      app_test_run_check (dialog, type, "series.test", "check_label", 60);
    }
}

/* The opponent dialog shown: stored at @data. */
static gboolean
opponent_shown (gpointer data)
{
  *(GtkWindow **) data = app_test_find_toplevel (KOMI_TYPE_OPPONENT_DIALOG);
  return *(GtkWindow **) data != NULL;
}

/* Saved, and the keyring has answered for the key (here: no keyring). */
static gboolean
provider_saved (gpointer dialog)
{
  GType type = KOMI_TYPE_PROVIDER_DIALOG;

  return komi_provider_dialog_get_saved_path (dialog) != NULL
         && (gtk_widget_get_visible (app_test_child (dialog, type, "error_label"))
             || gtk_widget_get_visible (app_test_child (dialog, type, "key_label")));
}

/* The provider dialog with a model refused, or saved into a scratch
 * folder (no keyring under Xvfb: the key falls back to the environment)
 * and tested against the rehearsal server. */
void
shot_provider_dialog (GtkWindow *window, const char *what)
{
  KomiProviderDialog *dialog = komi_provider_dialog_new (window);
  GType type = KOMI_TYPE_PROVIDER_DIALOG;
  g_autofree char *folder = g_dir_make_tmp ("komi-shot-providers-XXXXXX", NULL);

  komi_provider_dialog_set_folder (dialog, folder);
  gtk_window_present (GTK_WINDOW (dialog));
  app_test_set_text (dialog, type, "name_row", "mini");
  app_test_set_text (dialog, type, "model_row", "gpt-4.1-mini-2025-04-14");
  app_test_set_text (dialog, type, "price_input_row", "0.4");
  app_test_set_text (dialog, type, "price_output_row", "1.6");
  if (g_str_equal (what, "refused"))
    {
      /* Two fields wrong, each said under itself; Save brings the first
       * into view. */
      app_test_set_text (dialog, type, "temperature_row", "3");
      app_test_set_text (dialog, type, "concurrent_row", "0");
      gtk_widget_activate_action (GTK_WIDGET (dialog), "provider.save", NULL);
    }
  else if (g_str_equal (what, "testing"))
    {
      /* A server that holds the request: the Test in flight, its spinner
       * and Cancel Test. The server lives as long as the program. */
      static KomiRehearsal *holding;
      KomiRehearsalOptions options = { .faults = "timeout@1" };
      g_autofree char *base = NULL;

      if (holding == NULL)
        holding = komi_rehearsal_new (&options, NULL);
      base = app_test_rehearsal_url (holding);
      app_test_set_text (dialog, type, "name_row", "rehearsal");
      app_test_provider_fill (dialog, base, NULL, "sk-screenshot-not-a-key");
      gtk_widget_activate_action (GTK_WIDGET (dialog), "provider.test", NULL);
      shot_pause_ms (800);
    }
  else
    {
      KomiRehearsalOptions options = { .latency_ms = 150 };
      g_autoptr(KomiRehearsal) rehearsal = komi_rehearsal_new (&options, NULL);
      g_autofree char *base = app_test_rehearsal_url (rehearsal);

      app_test_set_text (dialog, type, "name_row", "rehearsal");
      app_test_set_text (dialog, type, "temperature_row", "0");
      app_test_provider_fill (dialog, base, NULL, "sk-screenshot-not-a-key");
      gtk_widget_activate_action (GTK_WIDGET (dialog), "provider.save", NULL);
      app_test_run_check (dialog, type, "provider.test", "test_label", 60);
      app_test_wait_seconds (provider_saved, dialog, 60);
    }
}

/* The opponent dialog over New Series, as its + button opens it. */
void
shot_opponent_dialog (GtkWindow *window, const char *what)
{
  KomiSeriesDialog *series = komi_series_dialog_new (window,
      komi_window_get_library (KOMI_WINDOW (window)));
  GtkWindow *dialog;
  GType type = KOMI_TYPE_OPPONENT_DIALOG;

  /* Dialogs of the shots before outlive their windows: close them. */
  while ((dialog = app_test_find_toplevel (type)) != NULL)
    gtk_window_destroy (dialog);
  gtk_window_present (GTK_WINDOW (series));
  g_unsetenv ("KOMI_KATAGO");
  gtk_widget_activate_action (GTK_WIDGET (series), "series.add-opponent", NULL);
  if (!app_test_wait (opponent_shown, &dialog))
    return;
  if (g_str_equal (what, "katago"))
    {
      /* KataGo without its files, Add pressed: each error under its field. */
      adw_combo_row_set_selected (ADW_COMBO_ROW (app_test_child (dialog, type, "kind_row")), 2);
      gtk_widget_activate_action (GTK_WIDGET (dialog), "opponent.add", NULL);
    }
  else if (g_str_equal (what, "testing"))
    {
      /* A GTP program that never answers its move: the Test in flight,
       * its spinner and Cancel Test. */
      g_autofree char *engine = g_build_filename (g_getenv ("KOMI_BUILD_DIR") != NULL
                                                  ? g_getenv ("KOMI_BUILD_DIR") : "_build",
                                                  "tests", "fake-gtp-engine", NULL);
      g_autofree char *command = g_strdup_printf ("%s --hang-after 0", engine);

      adw_combo_row_set_selected (ADW_COMBO_ROW (app_test_child (dialog, type, "kind_row")), 3);
      app_test_set_text (dialog, type, "command_row", command);
      gtk_widget_activate_action (GTK_WIDGET (dialog), "opponent.test", NULL);
      shot_pause_ms (800);
    }
  else
    app_test_run_check (dialog, type, "opponent.test", "test_label", 60);
}
