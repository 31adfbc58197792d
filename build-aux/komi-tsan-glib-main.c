/* komi-tsan-glib-main.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The ThreadSanitizer shim's part for GLib's main loop (komi-tsan-glib.c
 * says what the shim is and why): sources, idle and timeout callbacks,
 * g_main_context_invoke(). Linked into a -Db_sanitize=thread build only. */

#define G_LOG_DOMAIN "komi-tsan"

#include "config.h"

#include "komi-tsan-glib.h"

/* The main loop: a source added in one thread runs in another, after
 * everything its adder did before adding it. Each callback goes through a
 * hop that carries that order. */

typedef struct
{
  GSourceFunc    func;
  gpointer       data;
  GDestroyNotify notify;
  GSource       *source;  /* the source it runs from, if made by the caller */
} Hop;

static Hop *
hop_new (GSourceFunc func, gpointer data, GDestroyNotify notify, GSource *source)
{
  Hop *hop = g_new (Hop, 1);

  hop->func = func;
  hop->data = data;
  hop->notify = notify;
  hop->source = source;
  __tsan_release (hop);
  return hop;
}

static gboolean
hop_dispatch (gpointer user_data)
{
  Hop *hop = user_data;

  __tsan_acquire (hop);
  /* What the adder did up to g_source_attach() (below). */
  if (hop->source != NULL)
    __tsan_acquire (hop->source);
  return hop->func (hop->data);
}

static void
hop_free (gpointer user_data)
{
  Hop *hop = user_data;

  __tsan_acquire (hop);
  if (hop->notify != NULL)
    hop->notify (hop->data);
  g_free (hop);
}

/* A source a caller makes itself: only idle and timeout sources, whose
 * callbacks are GSourceFuncs (a child watch's, say, is not). */
DECLARE_REAL (g_source_set_callback);

static gboolean
is_plain_source (GSource *source)
{
  static const GSourceFuncs *idle_funcs, *timeout_funcs;

  if (g_once_init_enter (&timeout_funcs))
    {
      GSource *idle = g_idle_source_new ();
      GSource *timeout = g_timeout_source_new (1000);

      idle_funcs = idle->source_funcs;
      g_source_unref (idle);
      g_once_init_leave (&timeout_funcs, timeout->source_funcs);
      g_source_unref (timeout);
    }
  return source->source_funcs == idle_funcs || source->source_funcs == timeout_funcs;
}

void
g_source_set_callback (GSource        *source,
                       GSourceFunc     func,
                       gpointer        data,
                       GDestroyNotify  notify)
{
  Hop *hop;

  if (func == NULL || !is_plain_source (source))
    {
      REAL (g_source_set_callback) (source, func, data, notify);
      return;
    }
  hop = hop_new (func, data, notify, source);
  REAL (g_source_set_callback) (source, hop_dispatch, hop, hop_free);
  /* Again: GLib's record of the callback, made just now, is freed by the
   * thread that runs or drops the source. It is not attached yet, so the
   * hop is still there. */
  __tsan_release (hop);
}

/* A source attached to a context, often another thread's (a worker hands
 * an update to the window's context). Komi's data crosses in the callback:
 * released here, acquired by hop_dispatch() before the callback runs.
 *
 * GLib's own bookkeeping crosses too, and no annotation outside GLib can
 * order it: the context's table of sources is grown and shrunk with
 * g_realloc() under the context's lock, by the attaching thread and by the
 * context's thread as it drops a dispatched source deep inside
 * g_main_context_iteration(), which GLib calls without going through its
 * exported symbols. ThreadSanitizer sees both reallocs (it intercepts
 * realloc) and not the lock. So the memory accesses GLib makes inside this
 * call are not recorded (synchronisation still is): GLib's code alone runs
 * here, no callback of Komi's. */
DECLARE_REAL (g_source_attach);
DECLARE_REAL (g_source_unref);

guint
g_source_attach (GSource *source, GMainContext *context)
{
  guint id;

  __tsan_release (source);
  __tsan_ignore_thread_begin ();
  id = REAL (g_source_attach) (source, context);
  __tsan_ignore_thread_end ();
  return id;
}

/* The last reference to an attached source takes it out of the same table,
 * on whichever thread drops it: the adder's g_source_unref() after
 * g_source_attach() is the last when the context's thread has already run
 * the source. Only idle and timeout sources: by then GLib has dropped their
 * callback (the hop) when it destroyed them, and they have no finalize
 * function, so here too no code of Komi's runs. */
void
g_source_unref (GSource *source)
{
  gboolean quiet;

  /* The fields are GLib's, written under its lock. */
  __tsan_ignore_thread_begin ();
  quiet = source != NULL && source->context != NULL && is_plain_source (source);
  if (!quiet)
    __tsan_ignore_thread_end ();
  REAL (g_source_unref) (source);
  if (quiet)
    __tsan_ignore_thread_end ();
}

/* The g_idle_add() and g_timeout_add() family, as GLib writes them, with
 * the callback set through the function above. */
static guint
add_source (GSource *source, gint priority, GSourceFunc func, gpointer data,
            GDestroyNotify notify)
{
  guint id;

  if (priority != g_source_get_priority (source))
    g_source_set_priority (source, priority);
  g_source_set_callback (source, func, data, notify);
  id = g_source_attach (source, NULL);
  g_source_unref (source);
  return id;
}

DECLARE_REAL (g_main_context_invoke_full);

guint
g_idle_add_full (gint priority, GSourceFunc func, gpointer data, GDestroyNotify notify)
{
  return add_source (g_idle_source_new (), priority, func, data, notify);
}

guint
g_idle_add (GSourceFunc func, gpointer data)
{
  return g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, func, data, NULL);
}

guint
g_timeout_add_full (gint           priority,
                    guint          interval,
                    GSourceFunc    func,
                    gpointer       data,
                    GDestroyNotify notify)
{
  return add_source (g_timeout_source_new (interval), priority, func, data, notify);
}

guint
g_timeout_add (guint interval, GSourceFunc func, gpointer data)
{
  return g_timeout_add_full (G_PRIORITY_DEFAULT, interval, func, data, NULL);
}

guint
g_timeout_add_seconds_full (gint           priority,
                            guint          interval,
                            GSourceFunc    func,
                            gpointer       data,
                            GDestroyNotify notify)
{
  return add_source (g_timeout_source_new_seconds (interval), priority, func, data, notify);
}

guint
g_timeout_add_seconds (guint interval, GSourceFunc func, gpointer data)
{
  return g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, interval, func, data, NULL);
}

void
g_main_context_invoke_full (GMainContext  *context,
                            gint           priority,
                            GSourceFunc    func,
                            gpointer       data,
                            GDestroyNotify notify)
{
  REAL (g_main_context_invoke_full) (context, priority, hop_dispatch,
                                     hop_new (func, data, notify, NULL), hop_free);
}

void
g_main_context_invoke (GMainContext *context, GSourceFunc func, gpointer data)
{
  g_main_context_invoke_full (context, G_PRIORITY_DEFAULT, func, data, NULL);
}
