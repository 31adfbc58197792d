/* komi-cli-bench.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* komi-cli-bench.c */
void     _komi_cli_bench_remove_library      (const char *path);
double   _komi_cli_bench_ms_since            (gint64      start);

/* komi-cli-bench-models.c: CPU per model call and (unless @cpu_only)
 * series efficiency, printed; the library and profiles go in @dir. */
gboolean _komi_cli_bench_models              (const char *dir,
                                              gboolean    cpu_only,
                                              GError    **error);
/* Peak memory with 64 games in flight, in this (fresh) process. */
int      _komi_cli_bench_models_memory       (void);
/* The same, run in a child `bench --models-memory`, its line printed. */
gboolean _komi_cli_bench_models_memory_child (GError    **error);

/* komi-cli-bench-rating.c: the adaptive rating plan against a fixed
 * round-robin on @subjects simulated subjects, printed; @ladder_path NULL
 * for the built-in test ladder. Returns the exit status. */
int      _komi_cli_bench_rating              (const char *ladder_path,
                                              guint       subjects,
                                              guint32     seed,
                                              double      target,
                                              guint       min_pairs);

G_END_DECLS
