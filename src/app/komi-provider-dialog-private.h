/* komi-provider-dialog-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "komi-provider-dialog.h"
#include "komi-provider-profile.h"

G_BEGIN_DECLS

/* The provider dialog's parts: the form and Save (komi-provider-dialog.c)
 * and its Test (komi-provider-dialog-test.c). */
struct _KomiProviderDialog
{
  AdwWindow            parent_instance;

  char                *folder;
  char                *profile_json;  /* the fields' JSON when valid */
  KomiProviderProfile *profile;       /* the same, parsed */
  char                *saved_path;
  char                *key_refusal;   /* why the keyring did not take the key, or NULL */
  char                *edit_path;     /* the profile file being edited, or NULL: a new one */
  JsonObject          *extra;         /* its members the dialog has no row for, kept */
  GCancellable        *cancellable;   /* Save and the key's lookups in flight */
  GCancellable        *test_cancellable; /* the Test in flight */

  AdwEntryRow         *name_row;
  AdwComboRow         *api_row;
  AdwEntryRow         *base_url_row;
  AdwEntryRow         *model_row;
  AdwEntryRow         *key_name_row;
  AdwPasswordEntryRow *key_row;
  AdwEntryRow         *temperature_row;
  AdwEntryRow         *max_tokens_row;
  AdwEntryRow         *effort_row;
  AdwEntryRow         *thinking_row;
  AdwEntryRow         *concurrent_row;
  AdwEntryRow         *rpm_row;
  AdwEntryRow         *price_input_row;
  AdwEntryRow         *price_output_row;
  AdwEntryRow         *latency_row;
  GtkLabel            *error_label;
  GtkLabel            *key_label;
  GtkLabel            *status_label;
  GtkLabel            *test_label;
  GtkWidget           *test_button;
  GtkSpinner          *test_spinner;
  GtkWidget           *cancel_test_button;
  GtkWidget           *error_rows[14];  /* under each row, in rows[] order */
  gboolean             touched[14];     /* changed by the user: its error shows */
  gboolean             tried;           /* Save or Test pressed: every error shows */
};

/* Save or Test with a field in error: every error shows, and the first
 * field in error comes into view. Returns TRUE when there was one. */
gboolean _komi_provider_dialog_refuse           (KomiProviderDialog *self);
/* @text in @label, hidden when empty. */
void     _komi_provider_dialog_show_status      (GtkLabel           *label,
                                                 const char         *text);
/* Test and Cancel Test: their template children and actions. */
void     _komi_provider_dialog_class_init_test  (GtkWidgetClass     *widget_class);

G_END_DECLS
