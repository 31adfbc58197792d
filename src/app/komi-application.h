/* komi-application.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KOMI_TYPE_APPLICATION (komi_application_get_type ())
G_DECLARE_FINAL_TYPE (KomiApplication, komi_application, KOMI, APPLICATION, AdwApplication)

/* Komi: one main window over the user's library (the CLI's, or --db PATH). */
KomiApplication *komi_application_new (void);

G_END_DECLS
