/* komi-demo-series.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A Protocol 1 series definition, as JSON built (never printed: a spec or
 * a profile's path may hold any character): @subject against each of
 * @opponents (NULL-terminated), @pairs pairs each, seeded by @seed. */
char     *komi_series_definition_build (const char         *name,
                                        const char         *subject,
                                        const char * const *opponents,
                                        guint               pairs,
                                        guint64             seed,
                                        const char         *referee,
                                        guint               jobs);

/* The demo series both front ends run (the application's first start,
 * `komi-cli demo`): the rehearsal model, whose profile is at
 * @profile_path, plays each of @opponents (NULL-terminated) @pairs pairs
 * under Protocol 1, seeded by @seed; GNU Go judges the dead stones (the
 * demo needs no KataGo), one game at a time, so the board and the
 * terminal follow the game in play. Its definition, as JSON. */
char     *komi_demo_series_definition (const char         *name,
                                       const char         *profile_path,
                                       const char * const *opponents,
                                       guint               pairs,
                                       guint64             seed);

G_END_DECLS
