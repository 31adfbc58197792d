/* komi-tsan-glib.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the two files of the ThreadSanitizer shim (komi-tsan-glib.c,
 * komi-tsan-glib-main.c) share: finding GLib's own definition of a
 * function they define. */

#pragma once

#include <gio/gio.h>
#include <sanitizer/tsan_interface.h>

/* GLib's definition of @name, found once, past this library's. */
#define REAL(name) \
  ((__typeof__ (&(name))) komi_tsan_real_symbol (&real_##name, #name))
#define DECLARE_REAL(name) static gpointer real_##name

G_GNUC_INTERNAL gpointer komi_tsan_real_symbol (gpointer *slot, const char *name);

/* In libtsan, not declared by its headers: the calling thread's memory
 * accesses are not recorded between the two (synchronisation still is). */
void __tsan_ignore_thread_begin (void);
void __tsan_ignore_thread_end (void);
