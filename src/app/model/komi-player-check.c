/* komi-player-check.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-coords.h"
#include "komi-game.h"
#include "komi-player-check.h"
#include "komi-model-player.h"

void
komi_player_check_free (KomiPlayerCheck *check)
{
  g_free (check->spec);
  g_free (check->name);
  g_free (check->version);
  g_free (check->move);
  g_free (check);
}

char *
komi_player_check_describe (const KomiPlayerCheck *check)
{
  return g_strdup_printf (_("%s%s%s played %s (%.2f s)"), check->name,
                          check->version ? " " : "", check->version ? check->version : "",
                          check->move, check->seconds);
}

/* A spec and its options, owned. */
typedef struct
{
  char              *spec;
  char              *gnugo_path;
  char              *katago_binary;
  char              *katago_model;
  char              *katago_config;
  KomiPlayerOptions  opts;
} CheckData;

static void
check_data_free (CheckData *data)
{
  g_free (data->spec);
  g_free (data->gnugo_path);
  g_free (data->katago_binary);
  g_free (data->katago_model);
  g_free (data->katago_config);
  g_free (data);
}

static void
check_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  CheckData *data = task_data;
  const char *spec = data->spec;
  g_autoptr(KomiPlayer) player = NULL;
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(KomiPlayerCheck) check = g_new0 (KomiPlayerCheck, 1);
  KomiGameSetup setup = {
    .size = 9,
    .komi = 7,
    .color = KOMI_BLACK,
    .seed = 1,
    .max_turns = KOMI_PROTOCOL_MAX_TURNS,
  };
  char name[KOMI_NAME_LEN + 1];
  gint64 start = g_get_monotonic_time ();
  KomiPoint move = KOMI_PASS;
  GError *error = NULL;

  player = komi_player_new_from_any_spec (spec, &data->opts, &error);
  if (player == NULL
      || !komi_player_start_game (player, &setup, cancellable, &error)
      || !komi_player_genmove (player, game, &move, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  komi_player_end_game (player);
  check->spec = g_strdup (spec);
  check->name = g_strdup (player->name != NULL ? player->name : spec);
  check->version = g_strdup (player->version);
  check->move = g_strdup (komi_point_to_name (9, move, name));
  check->seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  g_task_return_pointer (task, g_steal_pointer (&check), (GDestroyNotify) komi_player_check_free);
}

void
komi_player_check_with_options_async (const char              *spec,
                                      const KomiPlayerOptions *opts,
                                      GCancellable            *cancellable,
                                      GAsyncReadyCallback      callback,
                                      gpointer                 user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  CheckData *data = g_new0 (CheckData, 1);

  data->spec = g_strdup (spec);
  if (opts != NULL)
    {
      data->opts = *opts;
      data->opts.gnugo_path = data->gnugo_path = g_strdup (opts->gnugo_path);
      data->opts.katago_binary = data->katago_binary = g_strdup (opts->katago_binary);
      data->opts.katago_model = data->katago_model = g_strdup (opts->katago_model);
      data->opts.katago_config = data->katago_config = g_strdup (opts->katago_config);
    }
  g_task_set_source_tag (task, komi_player_check_async);
  g_task_set_task_data (task, data, (GDestroyNotify) check_data_free);
  g_task_run_in_thread (task, check_thread);
}

void
komi_player_check_async (const char          *spec,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  komi_player_check_with_options_async (spec, NULL, cancellable, callback, user_data);
}

KomiPlayerCheck *
komi_player_check_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
