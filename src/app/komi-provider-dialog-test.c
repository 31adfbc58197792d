/* komi-provider-dialog-test.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "komi-key-store.h"
#include "komi-provider-dialog-private.h"
#include "komi-provider-test.h"

/* Test: one real Protocol 1 request with the fields and the key. While it
 * is out, a spinner and Cancel Test beside Test, which waits for it. */

static void
set_testing (KomiProviderDialog *self,
             gboolean            testing)
{
  gtk_spinner_set_spinning (self->test_spinner, testing);
  gtk_widget_set_visible (GTK_WIDGET (self->test_spinner), testing);
  gtk_widget_set_visible (self->cancel_test_button, testing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "provider.cancel-test", testing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "provider.test", !testing);
}

static void
on_tested (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(KomiProviderDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiProviderTest) test = komi_provider_test_finish (result, &error);
  g_autofree char *text = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* Cancel Test or the dialog closing said so */
  set_testing (self, FALSE);
  text = test != NULL ? komi_provider_test_describe (test)
                      : g_strdup_printf (_("✗ %s"), error->message);
  /* What the New Series estimate times the model's calls by, until the
   * user writes another figure. */
  if (test != NULL && test->latency_ms > 0
      && *gtk_editable_get_text (GTK_EDITABLE (self->latency_row)) == '\0')
    {
      char seconds[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (seconds, sizeof seconds, "%.2f", MAX (test->latency_ms / 1000, 0.01));
      gtk_editable_set_text (GTK_EDITABLE (self->latency_row), seconds);
    }
  _komi_provider_dialog_show_status (self->test_label, text);
}

static void
start_test (KomiProviderDialog *self, const char *key)
{
  komi_provider_test_async (self->profile, key, self->test_cancellable, on_tested,
                            g_object_ref (self));
}

static void
on_key_found (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(KomiProviderDialog) self = user_data;
  char *key = komi_key_store_lookup_finish (result, NULL);

  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    ;   /* cancelled while the keyring was asked */
  else if (self->profile == NULL)
    {
      set_testing (self, FALSE);
      _komi_provider_dialog_show_status (self->test_label, NULL);
    }
  else if (key != NULL)
    start_test (self, key);
  else
    /* No keyring, or no key in it: the environment, as komi-cli does. */
    start_test (self, g_getenv (self->profile->key_env));
  if (key != NULL)
    komi_key_store_free (key);
}

static void
test_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KomiProviderDialog *self = KOMI_PROVIDER_DIALOG (widget);
  const char *key = gtk_editable_get_text (GTK_EDITABLE (self->key_row));

  if (_komi_provider_dialog_refuse (self))
    return;
  g_cancellable_cancel (self->test_cancellable);
  g_clear_object (&self->test_cancellable);
  self->test_cancellable = g_cancellable_new ();
  set_testing (self, TRUE);
  _komi_provider_dialog_show_status (self->test_label, _("Asking for one move…"));
  if (*key != '\0' || self->profile->key_env == NULL)
    start_test (self, key);
  else
    komi_key_store_lookup_async (self->profile->key_env, self->test_cancellable,
                                 on_key_found,
                                 g_object_ref (self));
}

/* Drops the request in flight (its connection closed, no answer awaited). */
static void
cancel_test_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  KomiProviderDialog *self = KOMI_PROVIDER_DIALOG (widget);

  g_cancellable_cancel (self->test_cancellable);
  set_testing (self, FALSE);
  _komi_provider_dialog_show_status (self->test_label,
                                     _("Test cancelled: the request was dropped."));
}

void
_komi_provider_dialog_class_init_test (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, test_label);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, test_button);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, test_spinner);
  gtk_widget_class_bind_template_child (widget_class, KomiProviderDialog, cancel_test_button);
  gtk_widget_class_install_action (widget_class, "provider.test", NULL, test_activated);
  gtk_widget_class_install_action (widget_class, "provider.cancel-test", NULL,
                                   cancel_test_activated);
}
