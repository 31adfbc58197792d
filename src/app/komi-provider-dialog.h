/* komi-provider-dialog.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KOMI_TYPE_PROVIDER_DIALOG (komi_provider_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KomiProviderDialog, komi_provider_dialog, KOMI, PROVIDER_DIALOG,
                      AdwWindow)

/* Edits a provider profile (the JSON komi_provider_profile_load() reads),
 * judged by that parser field by field; the key goes to the keyring. */
KomiProviderDialog *komi_provider_dialog_new          (GtkWindow          *parent);
/* The same for the profile file at @path: its fields filled from it (what
 * the dialog has no row for is kept as it is), Save rewrites that file
 * atomically, and the key is never shown, only whether the keyring holds
 * one. NULL with @error when the file is unreadable or not a JSON object;
 * a profile the parser refuses opens with the bad field marked. */
KomiProviderDialog *komi_provider_dialog_new_for_file (GtkWindow          *parent,
                                                       const char         *path,
                                                       GError            **error);
/* The file being edited, or NULL for a new profile. */
const char         *komi_provider_dialog_get_edit_path (KomiProviderDialog *self);
/* Where Save writes NAME.json (created if missing); by default
 * $XDG_CONFIG_HOME/komi/providers. */
void                komi_provider_dialog_set_folder   (KomiProviderDialog *self,
                                                       const char         *folder);
const char         *komi_provider_dialog_get_folder   (KomiProviderDialog *self);
/* The profile JSON of the fields when they are valid, else NULL. */
const char         *komi_provider_dialog_get_profile  (KomiProviderDialog *self);
/* The file the last Save wrote, or NULL. */
const char         *komi_provider_dialog_get_saved_path (KomiProviderDialog *self);

G_END_DECLS
