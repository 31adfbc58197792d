/* komi-library.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-library"

#include "config.h"

#include "komi-library.h"
#include "komi-library-load.h"

struct _KomiLibrary
{
  GObject           parent_instance;

  char             *path;
  KomiLibraryState  state;
  char             *message;
  char             *ratings_message;
  char             *ratings_caption;
  GListStore       *series;
  GListStore       *players;
  GListStore       *ratings;
  GListStore       *games;         /* every game played or imported, of every series */
  GArray           *interrupted;   /* series ids (gint64) of runs that died */
  GCancellable     *cancellable;   /* of the read in flight; cancelled in dispose */
  gboolean          replacing;     /* the models are being swapped for new rows */
};

G_DEFINE_FINAL_TYPE (KomiLibrary, komi_library, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KomiLibrary *
komi_library_new (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);

  return g_object_new (KOMI_TYPE_LIBRARY, "path", path, NULL);
}

const char *
komi_library_get_path (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);
  return self->path;
}

KomiLibraryState
komi_library_get_state (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), KOMI_LIBRARY_STATE_FAILED);
  return self->state;
}

const char *
komi_library_get_message (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);
  return self->message;
}

const char *
komi_library_get_ratings_message (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);
  return self->ratings_message;
}

const char *
komi_library_get_ratings_caption (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);
  return self->ratings_caption;
}

gboolean
komi_library_is_replacing (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), FALSE);
  return self->replacing;
}

GListModel *
komi_library_get_series (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);
  return G_LIST_MODEL (self->series);
}

GListModel *
komi_library_get_players (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);
  return G_LIST_MODEL (self->players);
}

GListModel *
komi_library_get_ratings (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);
  return G_LIST_MODEL (self->ratings);
}

GListModel *
komi_library_get_games (KomiLibrary *self)
{
  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);
  return G_LIST_MODEL (self->games);
}

static void
set_state (KomiLibrary *self, KomiLibraryState state)
{
  /* Notified even when unchanged: a reload that ends READY again has new
   * rows, and views re-read their empty states on this signal. */
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
replace_all (GListStore *store, GPtrArray *items)
{
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       items != NULL ? items->pdata : NULL, items != NULL ? items->len : 0);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  KomiLibraryContents *contents = _komi_library_read (task_data, cancellable);

  g_task_return_pointer (task, contents, (GDestroyNotify) _komi_library_contents_free);
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  KomiLibrary *self = KOMI_LIBRARY (source);
  g_autoptr(KomiLibraryContents) contents = NULL;
  g_autoptr(GError) error = NULL;

  contents = g_task_propagate_pointer (G_TASK (result), &error);
  if (contents == NULL)
    return;   /* cancelled: the library is gone or a newer read runs */

  self->replacing = TRUE;
  replace_all (self->series, contents->series);
  replace_all (self->players, contents->players);
  replace_all (self->ratings, contents->ratings);
  replace_all (self->games, contents->games);
  self->replacing = FALSE;
  g_free (self->message);
  self->message = g_steal_pointer (&contents->message);
  g_free (self->ratings_message);
  self->ratings_message = g_steal_pointer (&contents->ratings_message);
  g_free (self->ratings_caption);
  self->ratings_caption = g_steal_pointer (&contents->ratings_caption);
  g_clear_pointer (&self->interrupted, g_array_unref);
  self->interrupted = g_steal_pointer (&contents->interrupted);
  set_state (self, contents->state);
}

KomiSeriesItem *
komi_library_dup_interrupted (KomiLibrary *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->series));

  g_return_val_if_fail (KOMI_IS_LIBRARY (self), NULL);

  /* The last run to die is the one the user most likely wants back. */
  for (guint i = self->interrupted ? self->interrupted->len : 0; i-- > 0;)
    for (guint j = 0; j < n; j++)
      {
        g_autoptr(KomiSeriesItem) item = g_list_model_get_item (G_LIST_MODEL (self->series), j);

        if (item->series->id == g_array_index (self->interrupted, gint64, i))
          return g_steal_pointer (&item);
      }
  return NULL;
}

static void
dismiss_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  KomiLibrary *self = source;
  gint64 series_id = *(gint64 *) task_data;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GError) error = NULL;

  if ((store = komi_store_open (self->path, &error)) == NULL
      || !komi_store_end_run (store, series_id, -1, "dismissed", &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
komi_library_dismiss_interrupted_async (KomiLibrary         *self,
                                        gint64               series_id,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KOMI_IS_LIBRARY (self));

  for (guint i = 0; self->interrupted != NULL && i < self->interrupted->len; i++)
    if (g_array_index (self->interrupted, gint64, i) == series_id)
      g_array_remove_index (self->interrupted, i--);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, komi_library_dismiss_interrupted_async);
  g_task_set_task_data (task, g_memdup2 (&series_id, sizeof series_id), g_free);
  g_task_run_in_thread (task, dismiss_thread);
}

gboolean
komi_library_dismiss_interrupted_finish (KomiLibrary   *self,
                                         GAsyncResult  *result,
                                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
komi_library_reload (KomiLibrary *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KOMI_IS_LIBRARY (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, on_loaded, NULL);
  g_task_set_source_tag (task, komi_library_reload);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, g_strdup (self->path), g_free);
  set_state (self, KOMI_LIBRARY_STATE_LOADING);
  g_task_run_in_thread (task, load_thread);
}

/* GObject */

static void
komi_library_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  KomiLibrary *self = KOMI_LIBRARY (object);

  switch (prop_id)
    {
    case PROP_PATH: g_value_set_string (value, self->path); break;
    case PROP_STATE: g_value_set_int (value, self->state); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_library_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  KomiLibrary *self = KOMI_LIBRARY (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_library_dispose (GObject *object)
{
  KomiLibrary *self = KOMI_LIBRARY (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (komi_library_parent_class)->dispose (object);
}

static void
komi_library_finalize (GObject *object)
{
  KomiLibrary *self = KOMI_LIBRARY (object);

  g_free (self->path);
  g_free (self->message);
  g_free (self->ratings_message);
  g_free (self->ratings_caption);
  g_clear_pointer (&self->interrupted, g_array_unref);
  g_clear_object (&self->series);
  g_clear_object (&self->players);
  g_clear_object (&self->ratings);
  g_clear_object (&self->games);
  G_OBJECT_CLASS (komi_library_parent_class)->finalize (object);
}

static void
komi_library_class_init (KomiLibraryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = komi_library_get_property;
  object_class->set_property = komi_library_set_property;
  object_class->dispose = komi_library_dispose;
  object_class->finalize = komi_library_finalize;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, KOMI_LIBRARY_STATE_LOADING,
                      KOMI_LIBRARY_STATE_FAILED, KOMI_LIBRARY_STATE_LOADING,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
komi_library_init (KomiLibrary *self)
{
  self->series = g_list_store_new (KOMI_TYPE_SERIES_ITEM);
  self->players = g_list_store_new (KOMI_TYPE_PLAYER_ITEM);
  self->ratings = g_list_store_new (KOMI_TYPE_RATING_ITEM);
  self->games = g_list_store_new (KOMI_TYPE_GAME_ITEM);
}
