/* komi-key-store.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* API keys in the system keyring (the Secret Service, through libsecret),
 * filed under the name a provider profile gives in "key_env": the same
 * name is the environment variable read where no keyring runs. A key is
 * never written anywhere else. All calls are asynchronous: the keyring
 * is a D-Bus service and may prompt. */

void      komi_key_store_save_async    (const char           *key_name,
                                        const char           *key,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
gboolean  komi_key_store_save_finish   (GAsyncResult         *result,
                                        GError              **error);

/* The key filed under @key_name; NULL without an error when there is none.
 * Free the result with komi_key_store_free(), which wipes it. */
void      komi_key_store_lookup_async  (const char           *key_name,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
char     *komi_key_store_lookup_finish (GAsyncResult         *result,
                                        GError              **error);
void      komi_key_store_free          (char                 *key);

/* For tests, where no keyring daemon runs: from now on the calls above
 * keep keys in this process's memory instead of the Secret Service. */
void      komi_key_store_use_memory    (void);

G_END_DECLS
