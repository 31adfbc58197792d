/* komi-quark.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* G_DEFINE_QUARK() without its data race: GLib's macro caches the quark in
 * a plain static that two threads may write and read at once (two games'
 * players failing for the first time together, seen by ThreadSanitizer in
 * app-run). Here the cache is read and written atomically; the quark itself
 * comes from g_quark_from_static_string(), which is thread-safe. */
#define KOMI_DEFINE_QUARK(QN, q_n)                                      \
GQuark                                                                  \
q_n##_quark (void)                                                      \
{                                                                       \
  static gint cached;                                                   \
  GQuark q = (GQuark) g_atomic_int_get (&cached);                       \
                                                                        \
  if G_UNLIKELY (q == 0)                                                \
    {                                                                   \
      q = g_quark_from_static_string (#QN);                             \
      g_atomic_int_set (&cached, (gint) q);                             \
    }                                                                   \
  return q;                                                             \
}

G_END_DECLS
