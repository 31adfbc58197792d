/* komi-tsan-glib.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Linked into every program of a ThreadSanitizer build (-Db_sanitize=thread)
 * and nowhere else.
 *
 * ThreadSanitizer sees only what is compiled with it and the libc calls it
 * intercepts. Debian's GLib is neither: on Linux its GMutex is an atomic
 * word and a futex, its once-initialisation, reference counts, main-loop
 * queues and task threads all hand data over through atomics inside
 * libglib. So a field written under a GMutex in one thread and read under
 * the same GMutex in another is reported as a race, and so is everything
 * handed to the main loop with g_idle_add(). (A two-thread counter under a
 * GMutex shows it: docs/sanitizers.md.) Suppressions would hide real races
 * in Komi's code along with these, since the report names Komi's function.
 *
 * Instead this file interposes the GLib entry points Komi's code calls and
 * tells ThreadSanitizer what each one guarantees, with __tsan_acquire() and
 * __tsan_release() on the object that carries the ordering (the mutex, the
 * task, the once location…), then calls GLib's own function. Calls GLib
 * makes inside itself are not seen and need not be: the annotations are on
 * the boundary Komi's data crosses. The main loop's part (sources, idle and
 * timeout callbacks, g_main_context_invoke()) is in komi-tsan-glib-main.c. */

#define G_LOG_DOMAIN "komi-tsan"

#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>

#include "komi-tsan-glib.h"

/* GLib's definition of @name, found once, past this library's. */
gpointer
komi_tsan_real_symbol (gpointer *slot, const char *name)
{
  gpointer fn = __atomic_load_n (slot, __ATOMIC_ACQUIRE);

  if (fn == NULL)
    {
      fn = dlsym (RTLD_NEXT, name);
      if (fn == NULL)
        g_error ("komi-tsan-glib: no %s after this library", name);
      __atomic_store_n (slot, fn, __ATOMIC_RELEASE);
    }
  return fn;
}

/* Ownership of a mutex: what one holder did happens before the next holder. */

DECLARE_REAL (g_mutex_lock);
DECLARE_REAL (g_mutex_unlock);
DECLARE_REAL (g_mutex_trylock);
DECLARE_REAL (g_rec_mutex_lock);
DECLARE_REAL (g_rec_mutex_unlock);
DECLARE_REAL (g_rec_mutex_trylock);
DECLARE_REAL (g_cond_wait);
DECLARE_REAL (g_cond_wait_until);

void
g_mutex_lock (GMutex *mutex)
{
  REAL (g_mutex_lock) (mutex);
  __tsan_acquire (mutex);
}

void
g_mutex_unlock (GMutex *mutex)
{
  __tsan_release (mutex);
  REAL (g_mutex_unlock) (mutex);
}

gboolean
g_mutex_trylock (GMutex *mutex)
{
  if (!REAL (g_mutex_trylock) (mutex))
    return FALSE;
  __tsan_acquire (mutex);
  return TRUE;
}

void
g_rec_mutex_lock (GRecMutex *mutex)
{
  REAL (g_rec_mutex_lock) (mutex);
  __tsan_acquire (mutex);
}

void
g_rec_mutex_unlock (GRecMutex *mutex)
{
  __tsan_release (mutex);
  REAL (g_rec_mutex_unlock) (mutex);
}

gboolean
g_rec_mutex_trylock (GRecMutex *mutex)
{
  if (!REAL (g_rec_mutex_trylock) (mutex))
    return FALSE;
  __tsan_acquire (mutex);
  return TRUE;
}

/* A wait gives the mutex up and takes it again. */
void
g_cond_wait (GCond *cond, GMutex *mutex)
{
  __tsan_release (mutex);
  REAL (g_cond_wait) (cond, mutex);
  __tsan_acquire (mutex);
}

gboolean
g_cond_wait_until (GCond *cond, GMutex *mutex, gint64 end_time)
{
  gboolean signalled;

  __tsan_release (mutex);
  signalled = REAL (g_cond_wait_until) (cond, mutex, end_time);
  __tsan_acquire (mutex);
  return signalled;
}

/* g_once_init_enter(): the macro's fast path is an atomic load compiled in
 * the caller, which pairs with the release below on the same location. */

DECLARE_REAL (g_once_init_enter);
DECLARE_REAL (g_once_init_leave);

gboolean
(g_once_init_enter) (volatile void *location)
{
  gboolean first = REAL (g_once_init_enter) (location);

  if (!first)
    __tsan_acquire ((void *) location);
  return first;
}

void
(g_once_init_leave) (volatile void *location, gsize result)
{
  __tsan_release ((void *) location);
  REAL (g_once_init_leave) (location, result);
}

/* Reference counts: whoever drops the last reference and frees the object
 * comes after everything the other holders did before dropping theirs.
 * Every release also acquires, since which one is the last is decided
 * inside GLib. */

DECLARE_REAL (g_object_unref);
DECLARE_REAL (g_atomic_ref_count_dec);
DECLARE_REAL (g_atomic_rc_box_release_full);
DECLARE_REAL (g_bytes_unref);

void
g_object_unref (gpointer object)
{
  if (object != NULL)
    {
      __tsan_release (object);
      __tsan_acquire (object);
    }
  REAL (g_object_unref) (object);
}

gboolean
(g_atomic_ref_count_dec) (gatomicrefcount *arc)
{
  __tsan_release (arc);
  __tsan_acquire (arc);
  return REAL (g_atomic_ref_count_dec) (arc);
}

void
g_atomic_rc_box_release_full (gpointer mem_block, GDestroyNotify clear_func)
{
  if (mem_block != NULL)
    {
      __tsan_release (mem_block);
      __tsan_acquire (mem_block);
    }
  REAL (g_atomic_rc_box_release_full) (mem_block, clear_func);
}

void
g_bytes_unref (GBytes *bytes)
{
  if (bytes != NULL)
    {
      __tsan_release (bytes);
      __tsan_acquire (bytes);
    }
  REAL (g_bytes_unref) (bytes);
}


/* A thread pool's job runs after its push, and a pool freed with @wait_
 * comes after all its jobs. Each pool's function goes through a hop that
 * carries both orders. */

typedef struct
{
  GFunc    func;
  gpointer data;
  char     pushed;   /* the addresses the two orders go through */
  char     done;
} PoolHop;

static void
pool_hop_run (gpointer job, gpointer user_data)
{
  PoolHop *hop = user_data;

  __tsan_acquire (&hop->pushed);
  hop->func (job, hop->data);
  __tsan_release (&hop->done);
}

DECLARE_REAL (g_thread_pool_new);
DECLARE_REAL (g_thread_pool_push);
DECLARE_REAL (g_thread_pool_free);

/* Each pool's hop, found without reading the pool: with @wait_, GLib's
 * last worker frees the pool record itself, after the caller's read of it
 * in an order only GLib's own lock knows. A pthread mutex, which
 * ThreadSanitizer sees, guards the table. */
static pthread_mutex_t pool_hops_lock = PTHREAD_MUTEX_INITIALIZER;
static GHashTable *pool_hops;

static PoolHop *
pool_hop (GThreadPool *pool, gboolean take)
{
  PoolHop *hop;

  pthread_mutex_lock (&pool_hops_lock);
  hop = pool_hops != NULL ? g_hash_table_lookup (pool_hops, pool) : NULL;
  if (take && hop != NULL)
    g_hash_table_remove (pool_hops, pool);
  pthread_mutex_unlock (&pool_hops_lock);
  return hop;
}

GThreadPool *
g_thread_pool_new (GFunc     func,
                   gpointer  user_data,
                   gint      max_threads,
                   gboolean  exclusive,
                   GError  **error)
{
  PoolHop *hop = g_new0 (PoolHop, 1);
  GThreadPool *pool;

  hop->func = func;
  hop->data = user_data;
  pool = REAL (g_thread_pool_new) (pool_hop_run, hop, max_threads, exclusive, error);
  if (pool == NULL)
    {
      g_free (hop);
      return NULL;
    }
  pthread_mutex_lock (&pool_hops_lock);
  if (pool_hops == NULL)
    pool_hops = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (pool_hops, pool, hop);
  pthread_mutex_unlock (&pool_hops_lock);
  return pool;
}

gboolean
g_thread_pool_push (GThreadPool *pool, gpointer data, GError **error)
{
  PoolHop *hop = pool_hop (pool, FALSE);

  /* The job may be any pointer, even a number: order through the hop. */
  if (hop != NULL)
    __tsan_release (&hop->pushed);
  return REAL (g_thread_pool_push) (pool, data, error);
}

void
g_thread_pool_free (GThreadPool *pool, gboolean immediate, gboolean wait_)
{
  PoolHop *hop = pool_hop (pool, TRUE);

  REAL (g_thread_pool_free) (pool, immediate, wait_);
  /* Without @wait_ the jobs may still run: the hop stays. */
  if (wait_ && hop != NULL)
    {
      __tsan_acquire (&hop->done);
      g_free (hop);
    }
}

/* Tasks: a task's thread function runs after g_task_run_in_thread(); what
 * it did before returning a result happens before the result is taken. */

#define TASK_FUNC_KEY "komi-tsan-task-func"

static void
task_hop_run (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GTaskThreadFunc func;

  __tsan_acquire (task);
  func = (GTaskThreadFunc) g_object_get_data (G_OBJECT (task), TASK_FUNC_KEY);
  func (task, source_object, task_data, cancellable);
}

DECLARE_REAL (g_task_run_in_thread);
DECLARE_REAL (g_task_run_in_thread_sync);
DECLARE_REAL (g_task_return_pointer);
DECLARE_REAL (g_task_return_boolean);
DECLARE_REAL (g_task_return_int);
DECLARE_REAL (g_task_return_error);
DECLARE_REAL (g_task_return_value);
DECLARE_REAL (g_task_return_error_if_cancelled);
DECLARE_REAL (g_task_propagate_pointer);
DECLARE_REAL (g_task_propagate_boolean);
DECLARE_REAL (g_task_propagate_int);
DECLARE_REAL (g_task_propagate_value);
DECLARE_REAL (g_task_had_error);

void
g_task_run_in_thread (GTask *task, GTaskThreadFunc func)
{
  g_object_set_data (G_OBJECT (task), TASK_FUNC_KEY, func);
  __tsan_release (task);
  REAL (g_task_run_in_thread) (task, task_hop_run);
}

void
g_task_run_in_thread_sync (GTask *task, GTaskThreadFunc func)
{
  g_object_set_data (G_OBJECT (task), TASK_FUNC_KEY, func);
  __tsan_release (task);
  REAL (g_task_run_in_thread_sync) (task, task_hop_run);
  __tsan_acquire (task);
}

void
g_task_return_pointer (GTask *task, gpointer result, GDestroyNotify result_destroy)
{
  __tsan_release (task);
  REAL (g_task_return_pointer) (task, result, result_destroy);
}

void
g_task_return_boolean (GTask *task, gboolean result)
{
  __tsan_release (task);
  REAL (g_task_return_boolean) (task, result);
}

void
g_task_return_int (GTask *task, gssize result)
{
  __tsan_release (task);
  REAL (g_task_return_int) (task, result);
}

void
g_task_return_error (GTask *task, GError *error)
{
  __tsan_release (task);
  REAL (g_task_return_error) (task, error);
}

void
g_task_return_new_error (GTask *task, GQuark domain, gint code, const char *format, ...)
{
  va_list args;
  GError *error;

  va_start (args, format);
  error = g_error_new_valist (domain, code, format, args);
  va_end (args);
  g_task_return_error (task, error);
}

void
g_task_return_value (GTask *task, GValue *result)
{
  __tsan_release (task);
  REAL (g_task_return_value) (task, result);
}

gboolean
g_task_return_error_if_cancelled (GTask *task)
{
  __tsan_release (task);
  return REAL (g_task_return_error_if_cancelled) (task);
}

gpointer
g_task_propagate_pointer (GTask *task, GError **error)
{
  gpointer result = REAL (g_task_propagate_pointer) (task, error);

  __tsan_acquire (task);
  return result;
}

gboolean
g_task_propagate_boolean (GTask *task, GError **error)
{
  gboolean result = REAL (g_task_propagate_boolean) (task, error);

  __tsan_acquire (task);
  return result;
}

gssize
g_task_propagate_int (GTask *task, GError **error)
{
  gssize result = REAL (g_task_propagate_int) (task, error);

  __tsan_acquire (task);
  return result;
}

gboolean
g_task_propagate_value (GTask *task, GValue *value, GError **error)
{
  gboolean result = REAL (g_task_propagate_value) (task, value, error);

  __tsan_acquire (task);
  return result;
}

gboolean
g_task_had_error (GTask *task)
{
  gboolean result = REAL (g_task_had_error) (task);

  __tsan_acquire (task);
  return result;
}

/* GAsyncQueue, for the tests that hand data over with one. */

DECLARE_REAL (g_async_queue_push);
DECLARE_REAL (g_async_queue_pop);
DECLARE_REAL (g_async_queue_try_pop);
DECLARE_REAL (g_async_queue_timeout_pop);

void
g_async_queue_push (GAsyncQueue *queue, gpointer data)
{
  __tsan_release (queue);
  REAL (g_async_queue_push) (queue, data);
}

gpointer
g_async_queue_pop (GAsyncQueue *queue)
{
  gpointer data = REAL (g_async_queue_pop) (queue);

  __tsan_acquire (queue);
  return data;
}

gpointer
g_async_queue_try_pop (GAsyncQueue *queue)
{
  gpointer data = REAL (g_async_queue_try_pop) (queue);

  if (data != NULL)
    __tsan_acquire (queue);
  return data;
}

gpointer
g_async_queue_timeout_pop (GAsyncQueue *queue, guint64 timeout)
{
  gpointer data = REAL (g_async_queue_timeout_pop) (queue, timeout);

  if (data != NULL)
    __tsan_acquire (queue);
  return data;
}
