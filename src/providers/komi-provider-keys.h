/* komi-provider-keys.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* API keys the process holds, filed under the names profiles give in
 * "key_env": the application fills the table from the system keyring
 * before a series starts, and komi_provider_new() looks here before the
 * environment. Thread-safe. Keys are copied in; a replaced or cleared key
 * is wiped before it is freed. Nothing here ever logs a key. */

/* Files @key under @name; NULL or "" removes what is filed there. */
void     komi_provider_keys_set        (const char *name,
                                        const char *key);
void     komi_provider_keys_clear      (void);
/* Whether a key is filed under @name (the table only, not the environment). */
gboolean komi_provider_keys_has        (const char *name);
/* A copy of the key filed under @name, or NULL; wipe it with
 * komi_provider_keys_free(). */
char    *komi_provider_keys_dup        (const char *name);
void     komi_provider_keys_free       (char       *key);
/* Changes with every change of the table: a cache of providers built with
 * the old keys compares it. */
guint    komi_provider_keys_get_serial (void);

G_END_DECLS
