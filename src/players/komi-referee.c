/* komi-referee.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-coords.h"
#include "komi-referee.h"

struct _KomiReferee
{
  KomiGtpRecipe *recipe;
  KomiGtpEngine *engine;
  char          *settings;
};

KomiReferee *
komi_referee_new (const char               *spec,
                  const KomiPlayerOptions  *opts,
                  GError                  **error)
{
  KomiGtpRecipe *recipe;
  KomiReferee *self;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  recipe = komi_gtp_recipe_new_from_spec (spec, opts, error);
  if (recipe == NULL)
    return NULL;

  self = g_new0 (KomiReferee, 1);
  self->recipe = recipe;
  self->settings = komi_gtp_recipe_settings (recipe, KOMI_REFEREE_SEED);
  return self;
}

void
komi_referee_free (KomiReferee *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->engine, komi_gtp_engine_free);
  komi_gtp_recipe_free (self->recipe);
  g_free (self->settings);
  g_free (self);
}

const char *
komi_referee_get_settings (KomiReferee *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->settings;
}

KomiGtpEngine *
komi_referee_get_engine (KomiReferee *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->engine;
}

static char *
play_command (guint      size,
              KomiColor  color,
              KomiPoint  point)
{
  char name[KOMI_NAME_LEN + 1];

  komi_point_to_name (size, point, name);
  return g_strdup_printf ("play %s %s", color == KOMI_BLACK ? "b" : "w", name);
}

/* The "play" commands that rebuild the game before its closing passes.
 * The moves are replayed when they lead from the empty board to the
 * game's position; otherwise (a game from a set-up position, whose first
 * position KomiGame does not expose) the stones on the board are placed,
 * alternating colours. Placing the stones of a position in any order
 * captures nothing, since every group of it has a liberty. */
static GPtrArray *
build_commands (const KomiGame *game)
{
  GPtrArray *commands = g_ptr_array_new_with_free_func (g_free);
  const KomiBoard *board = komi_game_get_board (game);
  guint size = komi_game_get_size (game);
  guint n_points = komi_board_get_n_points (board);
  const KomiMove *moves;
  guint n_moves;
  g_autoptr(KomiGame) replay = komi_game_new (size, 0);
  gboolean replayed = TRUE;

  moves = komi_game_get_moves (game, &n_moves);
  while (n_moves > 0 && moves[n_moves - 1].point == KOMI_PASS)
    n_moves--;

  for (guint i = 0; replayed && i < n_moves; i++)
    replayed = komi_game_get_to_move (replay) == moves[i].color &&
               komi_game_play (replay, moves[i].point, NULL);
  if (replayed)
    {
      g_autofree guint8 *ours = g_malloc (n_points);
      g_autofree guint8 *theirs = g_malloc (n_points);

      komi_board_get_colors (board, ours);
      komi_board_get_colors (komi_game_get_board (replay), theirs);
      replayed = memcmp (ours, theirs, n_points) == 0;
    }

  if (replayed)
    {
      for (guint i = 0; i < n_moves; i++)
        g_ptr_array_add (commands, play_command (size, moves[i].color, moves[i].point));
    }
  else
    {
      g_autofree KomiPoint *black = g_new (KomiPoint, n_points);
      g_autofree KomiPoint *white = g_new (KomiPoint, n_points);
      guint n_black = 0, n_white = 0;

      for (guint p = 0; p < n_points; p++)
        {
          KomiColor c = komi_board_get (board, (KomiPoint) p);
          if (c == KOMI_BLACK)
            black[n_black++] = (KomiPoint) p;
          else if (c == KOMI_WHITE)
            white[n_white++] = (KomiPoint) p;
        }
      for (guint i = 0; i < MAX (n_black, n_white); i++)
        {
          if (i < n_black)
            g_ptr_array_add (commands, play_command (size, KOMI_BLACK, black[i]));
          if (i < n_white)
            g_ptr_array_add (commands, play_command (size, KOMI_WHITE, white[i]));
        }
    }
  return commands;
}

static int
compare_points (gconstpointer a,
                gconstpointer b)
{
  KomiPoint pa = *(const KomiPoint *) a, pb = *(const KomiPoint *) b;

  return (pa > pb) - (pa < pb);
}

/* Reads the vertices of a status list, whatever whitespace separates them
 * (GNU Go writes one string per line, KataGo one line). */
static gboolean
parse_dead (KomiReferee     *self,
            const KomiGame  *game,
            const char      *reply,
            GArray          *out_dead,
            GError         **error)
{
  g_auto(GStrv) tokens = g_strsplit_set (reply, " \t\n", -1);
  const KomiBoard *board = komi_game_get_board (game);
  guint size = komi_game_get_size (game);

  g_array_set_size (out_dead, 0);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      KomiPoint point;

      if (tokens[i][0] == '\0')
        continue;
      if (!komi_point_from_name (size, tokens[i], &point) || point == KOMI_PASS)
        {
          g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PROTOCOL,
                       /* Translators: the engine (GNU Go 3.8), then its answer. */
                       _("%s listed “%s” among the dead stones, which is not a point"),
                       self->recipe->label, tokens[i]);
          return FALSE;
        }
      if (komi_board_get (board, point) == KOMI_EMPTY)
        {
          g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PROTOCOL,
                       _("%s called %s dead, but there is no stone there: "
                         "its position differs from the game's"), self->recipe->label, tokens[i]);
          return FALSE;
        }
      g_array_append_val (out_dead, point);
    }

  g_array_sort (out_dead, compare_points);
  for (guint i = 1; i < out_dead->len; i++)
    if (g_array_index (out_dead, KomiPoint, i) == g_array_index (out_dead, KomiPoint, i - 1))
      g_array_remove_index (out_dead, i--);
  return TRUE;
}

static gboolean
judge (KomiReferee     *self,
       const KomiGame  *game,
       GPtrArray       *commands,
       char           **reply,
       GCancellable    *cancellable,
       GError         **error)
{
  g_autofree char *boardsize = g_strdup_printf ("boardsize %u", komi_game_get_size (game));
  guint timeout = self->recipe->timeout_ms;

  if (self->engine == NULL || !komi_gtp_engine_is_running (self->engine))
    {
      g_clear_pointer (&self->engine, komi_gtp_engine_free);
      self->engine = komi_gtp_recipe_launch (self->recipe, KOMI_REFEREE_SEED, cancellable, error);
      if (self->engine == NULL)
        return FALSE;
    }

  {
    const char *setup[] = { boardsize, "clear_board", "komi 7" };

    if (!komi_gtp_engine_send_many (self->engine, setup, G_N_ELEMENTS (setup), timeout,
                                    cancellable, error))
      return FALSE;
  }
  /* The replay is pipelined: a game's moves cost one round trip per batch,
   * not one per move. */
  for (guint i = 0; i < commands->len; i += KOMI_GTP_MAX_BATCH)
    if (!komi_gtp_engine_send_many (self->engine, (const char * const *) commands->pdata + i,
                                    MIN (KOMI_GTP_MAX_BATCH, commands->len - i), timeout,
                                    cancellable, error))
      return FALSE;
  return komi_gtp_engine_send (self->engine, "final_status_list dead", reply, timeout,
                               cancellable, error);
}

gboolean
komi_referee_dead_stones (KomiReferee     *self,
                          const KomiGame  *game,
                          GArray          *out_dead,
                          char           **out_engine_description,
                          GCancellable    *cancellable,
                          GError         **error)
{
  g_autoptr(GPtrArray) commands = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *reply = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (game != NULL, FALSE);
  g_return_val_if_fail (out_dead != NULL &&
                        g_array_get_element_size (out_dead) == sizeof (KomiPoint), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  commands = build_commands (game);

  /* An engine that died (even between games) gets one fresh start. */
  if (!judge (self, game, commands, &reply, cancellable, &local_error))
    {
      if (!g_error_matches (local_error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      g_debug ("Restarting the referee: %s", local_error->message);
      g_clear_error (&local_error);
      if (!judge (self, game, commands, &reply, cancellable, error))
        return FALSE;
    }

  if (!parse_dead (self, game, reply, out_dead, error))
    return FALSE;

  if (out_engine_description != NULL)
    *out_engine_description = g_strdup_printf ("%s %s",
                                               komi_gtp_engine_get_name (self->engine),
                                               komi_gtp_engine_get_version (self->engine));
  return TRUE;
}

gboolean
komi_referee_dead_stones_once (const char               *spec,
                               const KomiPlayerOptions  *opts,
                               const KomiGame           *game,
                               GArray                   *out_dead,
                               char                    **out_engine_description,
                               GCancellable             *cancellable,
                               GError                  **error)
{
  g_autoptr(KomiReferee) referee = komi_referee_new (spec, opts, error);

  if (referee == NULL)
    return FALSE;
  return komi_referee_dead_stones (referee, game, out_dead, out_engine_description,
                                   cancellable, error);
}
