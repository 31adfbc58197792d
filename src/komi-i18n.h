/* komi-i18n.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sets the process's locale from the environment and binds Komi's
 * catalogue; the first thing main() of komi and of komi-cli does. */
void komi_i18n_init (void);

G_END_DECLS
