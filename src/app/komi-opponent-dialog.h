/* komi-opponent-dialog.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KOMI_TYPE_OPPONENT_DIALOG (komi_opponent_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KomiOpponentDialog, komi_opponent_dialog, KOMI, OPPONENT_DIALOG,
                      AdwWindow)

/* Builds a player spec (komi-player-spec.h) from an engine's settings,
 * judged by the spec parser. With @target, Add appends the spec to that
 * editable's comma-separated list (the New Series dialog's opponents);
 * without, the spec is shown to copy and Add is hidden. */
KomiOpponentDialog *komi_opponent_dialog_new      (GtkWindow          *parent,
                                                   GtkEditable        *target);
/* The spec of the fields when they are valid, else NULL. */
const char         *komi_opponent_dialog_get_spec (KomiOpponentDialog *self);

G_END_DECLS
