/* komi-series-dialog.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-library.h"

G_BEGIN_DECLS

#define KOMI_TYPE_SERIES_DIALOG (komi_series_dialog_get_type ())
G_DECLARE_FINAL_TYPE (KomiSeriesDialog, komi_series_dialog, KOMI, SERIES_DIALOG, AdwWindow)

/* A new series in fields: subject, opponents, pairs, seed, referee, games
 * at once. Each change is judged by the series parser (the rules of a
 * definition file); a bad field is marked with what is expected, and Run
 * stays off until every field is good. Run hands the definition to
 * @runner's win.run-definition action. A rating is against the ladder
 * beside @library, the one @runner runs series into (NULL: none, and
 * rating is refused). */
KomiSeriesDialog *komi_series_dialog_new            (GtkWindow        *runner,
                                                     KomiLibrary      *library);
/* Where the subject's menu finds saved provider profiles; by default
 * where New Model Provider saves them (~/.config/komi/providers). */
void              komi_series_dialog_set_profiles_folder (KomiSeriesDialog *self,
                                                          const char       *folder);
/* The definition the fields make, or NULL while one is not valid. */
const char       *komi_series_dialog_get_definition (KomiSeriesDialog *self);

G_END_DECLS
