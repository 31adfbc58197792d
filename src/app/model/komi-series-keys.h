/* komi-series-keys.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Before a series runs from the window: the API key of every model
 * provider it names (subject and opponents), looked up in the system
 * keyring and filed in the process's key table (komi-provider-keys.h),
 * where the series' providers find it before the environment. The
 * definition and profiles are read on a worker thread, the keyring asked
 * asynchronously. A definition or profile that cannot be read is left to
 * the series to report. No key is ever logged. */

#define KOMI_SERIES_KEYS_ERROR (komi_series_keys_error_quark ())
GQuark komi_series_keys_error_quark (void);

typedef enum
{
  KOMI_SERIES_KEYS_ERROR_MISSING,   /* a provider's key is in neither keyring nor environment */
} KomiSeriesKeysError;

/* One of @definition_path and @definition (the JSON text) is given. */
void     komi_series_keys_prepare_async  (const char           *definition_path,
                                          const char           *definition,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
/* FALSE with KOMI_SERIES_KEYS_ERROR_MISSING naming each provider without a
 * key and what to do about it; cancellation as G_IO_ERROR_CANCELLED. */
gboolean komi_series_keys_prepare_finish (GAsyncResult         *result,
                                          GError              **error);

G_END_DECLS
