/* app-screenshots-dialogs.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "app-screenshots-dialogs.h"
#include "komi-app-test-util.h"
#include "komi-opponent-dialog.h"
#include "komi-provider-dialog.h"
#include "komi-rehearsal.h"
#include "komi-series-dialog.h"

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

gboolean
shot_checks_done (gpointer label)
{
  return gtk_widget_get_visible (label)
         && strstr (gtk_label_get_text (GTK_LABEL (label)), "…") == NULL;
}

void
shot_series_dialog (GtkWindow *window, const char *subject, const char *tested,
                    const char *scratch_dir)
{
  KomiSeriesDialog *dialog = komi_series_dialog_new (window);

  if (g_str_equal (subject, "@priced"))
    {
      /* A profile as a user would write it for a paid model. */
      g_autofree char *profile = g_build_filename (scratch_dir, "gpt-example.json", NULL);
      g_autofree char *model = g_strconcat ("model:", profile, NULL);
      GObject *row = gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                    KOMI_TYPE_SERIES_DIALOG, "subject_row");
      GObject *budget = gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                       KOMI_TYPE_SERIES_DIALOG,
                                                       "budget_row");

      g_file_set_contents (profile, "{\"name\": \"example\", \"api\": \"openai-chat\", "
                           "\"model\": \"gpt-example\", "
                           "\"max_output_tokens\": 16, \"price_input_per_mtok\": 2.5, "
                           "\"price_output_per_mtok\": 10, "
                           "\"typical_latency_seconds\": 1.2}", -1, NULL);
      gtk_editable_set_text (GTK_EDITABLE (row), model);
      gtk_editable_set_text (GTK_EDITABLE (budget), "2");
    }
  else if (subject[0] != '\0')
    {
      GObject *row = gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                    KOMI_TYPE_SERIES_DIALOG, "subject_row");

      gtk_editable_set_text (GTK_EDITABLE (row), subject);
      /* Refused: more fields wrong, each said under itself. */
      if (g_str_equal (subject, "gnugo:11"))
        {
          gtk_editable_set_text (GTK_EDITABLE (gtk_widget_get_template_child (
            GTK_WIDGET (dialog), KOMI_TYPE_SERIES_DIALOG, "opponents_row")),
            "random, gnugo:0, random");
          gtk_editable_set_text (GTK_EDITABLE (gtk_widget_get_template_child (
            GTK_WIDGET (dialog), KOMI_TYPE_SERIES_DIALOG, "pairs_row")), "-3");
        }
    }
  gtk_window_present (GTK_WINDOW (dialog));
  if (tested != NULL)
    {
      GObject *row = gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                    KOMI_TYPE_SERIES_DIALOG,
                                                    "opponents_row");
      GObject *label = gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                      KOMI_TYPE_SERIES_DIALOG,
                                                      "check_label");

      gtk_editable_set_text (GTK_EDITABLE (row), tested);
      gtk_widget_activate_action (GTK_WIDGET (dialog), "series.test", NULL);
      app_test_wait_seconds (shot_checks_done, label, 60);
    }
}

static GObject *
provider_child (KomiProviderDialog *dialog, const char *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (dialog), KOMI_TYPE_PROVIDER_DIALOG, name);
}

static void
provider_text (KomiProviderDialog *dialog, const char *row, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (provider_child (dialog, row)), text);
}

static gboolean
provider_done (gpointer dialog)
{
  GtkWidget *label = GTK_WIDGET (provider_child (dialog, "test_label"));

  return komi_provider_dialog_get_saved_path (dialog) != NULL
         && gtk_widget_get_visible (label)
         && strstr (gtk_label_get_text (GTK_LABEL (label)), "…") == NULL;
}

/* The provider dialog with a model refused, or saved into a scratch
 * folder (no keyring under Xvfb: the key falls back to the environment)
 * and tested against the rehearsal server. */
void
shot_provider_dialog (GtkWindow *window, const char *what)
{
  KomiProviderDialog *dialog = komi_provider_dialog_new (window);
  g_autofree char *folder = g_dir_make_tmp ("komi-shot-providers-XXXXXX", NULL);

  komi_provider_dialog_set_folder (dialog, folder);
  gtk_window_present (GTK_WINDOW (dialog));
  provider_text (dialog, "name_row", "mini");
  provider_text (dialog, "model_row", "gpt-4.1-mini-2025-04-14");
  provider_text (dialog, "price_input_row", "0.4");
  provider_text (dialog, "price_output_row", "1.6");
  if (g_str_equal (what, "refused"))
    {
      /* Two fields wrong, each said under itself; Save brings the first
       * into view. */
      provider_text (dialog, "temperature_row", "3");
      provider_text (dialog, "concurrent_row", "0");
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
      base = g_strconcat (komi_rehearsal_get_base_url (holding), "/v1", NULL);
      provider_text (dialog, "name_row", "rehearsal");
      provider_text (dialog, "model_row", "rehearsal-1");
      provider_text (dialog, "base_url_row", base);
      provider_text (dialog, "key_row", "sk-screenshot-not-a-key");
      gtk_widget_activate_action (GTK_WIDGET (dialog), "provider.test", NULL);
      shot_pause_ms (800);
    }
  else
    {
      KomiRehearsalOptions options = { .latency_ms = 150 };
      g_autoptr(KomiRehearsal) rehearsal = komi_rehearsal_new (&options, NULL);
      g_autofree char *base = g_strconcat (komi_rehearsal_get_base_url (rehearsal), "/v1",
                                           NULL);

      provider_text (dialog, "name_row", "rehearsal");
      provider_text (dialog, "model_row", "rehearsal-1");
      provider_text (dialog, "base_url_row", base);
      provider_text (dialog, "temperature_row", "0");
      provider_text (dialog, "key_row", "sk-screenshot-not-a-key");
      gtk_widget_activate_action (GTK_WIDGET (dialog), "provider.save", NULL);
      gtk_widget_activate_action (GTK_WIDGET (dialog), "provider.test", NULL);
      app_test_wait_seconds (provider_done, dialog, 60);
    }
}

/* The opponent dialog over New Series, as its + button opens it. */
void
shot_opponent_dialog (GtkWindow *window, const char *what)
{
  KomiSeriesDialog *series = komi_series_dialog_new (window);
  KomiOpponentDialog *dialog;
  GObject *kind;

  /* Dialogs of the shots before outlive their windows: close them. */
  {
    g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

    for (GList *l = toplevels; l != NULL; l = l->next)
      if (KOMI_IS_OPPONENT_DIALOG (l->data))
        gtk_window_destroy (l->data);
  }
  gtk_window_present (GTK_WINDOW (series));
  g_unsetenv ("KOMI_KATAGO");
  gtk_widget_activate_action (GTK_WIDGET (series), "series.add-opponent", NULL);
  shot_pause_ms (300);
  {
    g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

    dialog = NULL;
    for (GList *l = toplevels; l != NULL; l = l->next)
      if (KOMI_IS_OPPONENT_DIALOG (l->data))
        dialog = l->data;
  }
  if (dialog == NULL)
    return;
  kind = gtk_widget_get_template_child (GTK_WIDGET (dialog), KOMI_TYPE_OPPONENT_DIALOG,
                                        "kind_row");
  if (g_str_equal (what, "katago"))
    {
      /* KataGo without its files, Add pressed: each error under its field. */
      adw_combo_row_set_selected (ADW_COMBO_ROW (kind), 2);
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
      GObject *row = gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                    KOMI_TYPE_OPPONENT_DIALOG, "command_row");

      adw_combo_row_set_selected (ADW_COMBO_ROW (kind), 3);
      gtk_editable_set_text (GTK_EDITABLE (row), command);
      gtk_widget_activate_action (GTK_WIDGET (dialog), "opponent.test", NULL);
      shot_pause_ms (800);
    }
  else
    {
      GObject *label = gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                      KOMI_TYPE_OPPONENT_DIALOG, "test_label");

      gtk_widget_activate_action (GTK_WIDGET (dialog), "opponent.test", NULL);
      app_test_wait_seconds (shot_checks_done, label, 60);
    }
}
