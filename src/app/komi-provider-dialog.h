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
