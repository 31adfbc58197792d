/* komi-review-data.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <json-glib/json-glib.h>

#include "komi-review-data.h"
#include "komi-untrusted.h"

void
komi_review_free (KomiReview *review)
{
  if (review == NULL)
    return;
  g_clear_pointer (&review->replay, komi_replay_free);
  g_clear_pointer (&review->calls, g_ptr_array_unref);
  g_clear_pointer (&review->analysis, komi_store_analysis_free);
  g_free (review->api);
  g_free (review->key_env);
  g_free (review->captures);
  g_free (review);
}

guint
komi_review_get_captures (const KomiReview *review,
                          guint             step,
                          KomiColor         color)
{
  g_return_val_if_fail (step < review->replay->n_steps, 0);
  return review->captures[step * 2 + (color == KOMI_WHITE)];
}

GHashTable *
komi_review_call_probabilities (const KomiStoreCall *call)
{
  /* A foreign library's record: parsed bounded. */
  g_autoptr(JsonNode) root = komi_untrusted_parse_json (call->option_probabilities, -1);
  GHashTable *table;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  json_object_iter_init (&iter, json_node_get_object (root));
  while (json_object_iter_next (&iter, &name, &node))
    if (JSON_NODE_HOLDS_VALUE (node))
      g_hash_table_insert (table, g_strdup (name),
                           g_memdup2 (&(double) { json_node_get_double (node) }, sizeof (double)));
  return table;
}

typedef struct
{
  gint64               game_id;
  KomiReviewLoadFlags  flags;
  GPtrArray           *calls;   /* while the calls are read */
} LoadData;

/* Copied: the row's strings and bytes live until the callback returns. */
static gboolean
collect_call (const KomiStoreCall *call,
              gpointer             user_data,
              GError             **error)
{
  LoadData *data = user_data;

  g_ptr_array_add (data->calls, data->flags & KOMI_REVIEW_LOAD_CALLS_IN_FULL
                                ? komi_store_call_copy (call)
                                : komi_store_call_copy_brief (call));
  return TRUE;
}

/* The api and key_env of a model player's settings ("{"kind":"model",…}"). */
static void
read_model_settings (KomiReview *review, const char *settings)
{
  g_autoptr(JsonNode) root = komi_untrusted_parse_json (settings, -1);
  JsonObject *object;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  object = json_node_get_object (root);
  if (g_strcmp0 (json_object_get_string_member_with_default (object, "kind", ""), "model") != 0)
    return;
  review->api = g_strdup (json_object_get_string_member_with_default (object, "api", NULL));
  if (*json_object_get_string_member_with_default (object, "key_env", "") != '\0')
    review->key_env = g_strdup (json_object_get_string_member (object, "key_env"));
}

static void
count_captures (KomiReview *review)
{
  const KomiReplay *r = review->replay;
  guint n_points = r->size * r->size;
  guint stones[2] = { 0, 0 }, before[2];

  review->captures = g_new0 (guint, r->n_steps * 2);
  for (guint step = 0; step < r->n_steps; step++)
    {
      const guint8 *colors = komi_replay_get_colors (r, step);

      before[0] = stones[0];
      before[1] = stones[1];
      stones[0] = stones[1] = 0;
      for (guint i = 0; i < n_points; i++)
        if (colors[i] != KOMI_EMPTY)
          stones[colors[i] == KOMI_WHITE]++;
      if (step == 0)
        continue;
      review->captures[step * 2] = review->captures[(step - 1) * 2];
      review->captures[step * 2 + 1] = review->captures[(step - 1) * 2 + 1];
      /* The mover's opponent lost what is gone of its stones. */
      if (before[1] > stones[1])
        review->captures[step * 2] += before[1] - stones[1];
      if (before[0] > stones[0])
        review->captures[step * 2 + 1] += before[0] - stones[0];
    }
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  gint64 id = data->game_id;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiReview) review = g_new0 (KomiReview, 1);
  KomiStoreGame *game;
  GError *error = NULL;

  store = komi_store_open_reader (komi_library_get_path (source), &error);
  if (store == NULL || (game = komi_store_load_game (store, id, &error)) == NULL
      || (review->replay = komi_replay_new (game, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* A model's calls, streamed from the game's own rows in turn order,
   * then in the order they were made (the series page reads them again
   * each second while the game is followed). */
  if (game->series_id > 0
      && (g_str_has_prefix (game->black_spec, "model:")
          || g_str_has_prefix (game->white_spec, "model:")))
    {
      review->replay->calls = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                              komi_store_call_free);
      data->calls = review->replay->calls;
      if (!komi_store_foreach_game_call (store, id, collect_call, data, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      review->calls = g_ptr_array_ref (review->replay->calls);
    }
  else
    review->calls = g_ptr_array_new ();
  /* Killed or stopped: a call still out was never answered. */
  if (komi_replay_run_is_gone (store, game))
    komi_replay_mark_run_gone (review->replay);
  review->analysis = komi_store_load_analysis (store, id, &error);
  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  read_model_settings (review, game->subject == KOMI_WHITE ? game->white_settings
                                                          : game->black_settings);
  count_captures (review);
  g_task_return_pointer (task, g_steal_pointer (&review), (GDestroyNotify) komi_review_free);
}

void
komi_review_load_async (KomiLibrary         *library,
                        gint64               game_id,
                        KomiReviewLoadFlags  flags,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (KOMI_IS_LIBRARY (library));

  task = g_task_new (library, cancellable, callback, user_data);
  g_task_set_source_tag (task, komi_review_load_async);
  data = g_new0 (LoadData, 1);
  data->game_id = game_id;
  data->flags = flags;
  g_task_set_task_data (task, data, g_free);
  g_task_run_in_thread (task, load_thread);
}

KomiReview *
komi_review_load_finish (GAsyncResult  *result,
                         GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
