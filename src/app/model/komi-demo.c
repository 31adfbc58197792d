/* komi-demo.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "komi-demo.h"
#include "komi-demo-series.h"
#include "komi-rehearsal.h"

/* Slow enough that the board can be followed move by move, fast enough
 * that the four games end in a minute or two. */
#define DEMO_LATENCY_MS 120
#define DEMO_PROFILE_SUFFIX "-demo-model.json"

/* One server per process: every window's demo and its continuation talk to
 * it. Guarded by demo_lock, since it starts on a worker thread. */
static GMutex demo_lock;
static KomiRehearsal *demo_server;
static guint demo_latency_ms = DEMO_LATENCY_MS;

char *
komi_demo_profile_path (const char *library_path)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  char *dot;

  g_return_val_if_fail (library_path != NULL, NULL);

  /* "library.db" → "library-demo-model.json": each library its own. */
  dir = g_path_get_dirname (library_path);
  base = g_path_get_basename (library_path);
  if ((dot = strrchr (base, '.')) != NULL && dot != base)
    *dot = '\0';
  name = g_strconcat (base, DEMO_PROFILE_SUFFIX, NULL);
  return g_build_filename (dir, name, NULL);
}

char *
komi_demo_definition (const char *profile_path)
{
  static const char * const opponents[] = { "random", "gnugo:1", NULL };

  g_return_val_if_fail (profile_path != NULL, NULL);

  /* One game with each colour per opponent. */
  return komi_demo_series_definition ("Demo: the rehearsal model against random and GNU Go "
                                      "level 1", profile_path, opponents, 1, 2026);
}

gboolean
komi_demo_is_demo (const char *definition,
                   const char *library_path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *profile = NULL;
  g_autofree char *subject = NULL;
  JsonNode *root;
  JsonObject *object;

  g_return_val_if_fail (library_path != NULL, FALSE);

  if (definition == NULL || !json_parser_load_from_data (parser, definition, -1, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  object = json_node_get_object (root);
  if (!json_object_has_member (object, "subject")
      || json_node_get_value_type (json_object_get_member (object, "subject")) != G_TYPE_STRING)
    return FALSE;
  profile = komi_demo_profile_path (library_path);
  subject = g_strconcat ("model:", profile, NULL);
  return g_strcmp0 (json_object_get_string_member (object, "subject"), subject) == 0;
}

static void
prepare_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  const char *library_path = task_data;
  g_autofree char *profile = komi_demo_profile_path (library_path);
  g_autofree char *dir = g_path_get_dirname (profile);
  g_autofree char *base_url = NULL;
  g_autofree char *url = NULL;
  GError *error = NULL;

  g_mutex_lock (&demo_lock);
  if (demo_server == NULL)
    {
      KomiRehearsalOptions options = { 0, };

      options.latency_ms = demo_latency_ms;
      options.seed = 2026;
      demo_server = komi_rehearsal_new (&options, &error);
    }
  if (demo_server != NULL)
    base_url = g_strdup (komi_rehearsal_get_base_url (demo_server));
  g_mutex_unlock (&demo_lock);
  if (base_url == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* On first start the library's folder may not exist yet. */
  url = g_strconcat (base_url, "/v1", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                               _("Could not create the folder %s for the demo model: %s"), dir,
                               g_strerror (saved));
      return;
    }
  /* The profile the model player reads at the start of each game: the
   * server's current address (it changes with each start of Komi). */
  if (!komi_rehearsal_write_profile (profile, "rehearsal", url, TRUE, 0, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

void
komi_demo_prepare_async (const char          *library_path,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (library_path != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, komi_demo_prepare_async);
  g_task_set_task_data (task, g_strdup (library_path), g_free);
  g_task_run_in_thread (task, prepare_thread);
}

gboolean
komi_demo_prepare_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

guint
komi_demo_get_port (void)
{
  guint port;

  g_mutex_lock (&demo_lock);
  port = demo_server != NULL ? komi_rehearsal_get_port (demo_server) : 0;
  g_mutex_unlock (&demo_lock);
  return port;
}

void
komi_demo_set_latency (guint ms)
{
  g_mutex_lock (&demo_lock);
  demo_latency_ms = ms;
  g_mutex_unlock (&demo_lock);
}

/* The last unref joins the server's thread; requests still held are
 * dropped. Stop the series first: a game's next call would find no one. */
void
komi_demo_shutdown (void)
{
  KomiRehearsal *server;

  g_mutex_lock (&demo_lock);
  server = g_steal_pointer (&demo_server);
  g_mutex_unlock (&demo_lock);
  g_clear_object (&server);
}
