/* komi-gtp-player.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include <string.h>

#include "komi-coords.h"
#include "komi-gtp-player.h"

/* An engine is restarted at most this many times in one game. */
#define MAX_RESTARTS 1
/* How long "quit" may take when an engine is replaced. */
#define QUIT_GRACE_MS 1000

typedef struct
{
  KomiPlayer     parent;
  KomiGtpRecipe *recipe;
  KomiGtpEngine *engine;
  char         **engine_argv;  /* the running engine's command line */
  KomiGameSetup  setup;
  gboolean       started;      /* start_game was called */
  /* Invariant: @sent is exactly what the engine has played since its last
   * clear_board (our "play"s and its own genmove answers), in order. */
  GArray        *sent;         /* KomiMove */
  gboolean       unsure;       /* the engine may hold a move we do not know */
  guint          restarts;
  char          *fault;        /* why the engine last failed */
  KomiGtpChoseFunc chose;      /* NULL: every own move is the engine's */
  gpointer       chose_data;
} KomiGtpPlayer;

/* Only a stopped engine is a fault: a "?" answer leaves it usable. The
 * message is kept so that a restart can be recorded with its cause. */
static void
remember_fault (KomiGtpPlayer *self,
                const GError  *error)
{
  g_free (self->fault);
  self->fault = g_strdup (error->message);
}

static gboolean
send_command (KomiGtpPlayer  *self,
              const char     *command,
              char          **reply,
              GCancellable   *cancellable,
              GError        **error)
{
  GError *local_error = NULL;

  if (komi_gtp_engine_send (self->engine, command, reply, self->recipe->timeout_ms,
                            cancellable, &local_error))
    return TRUE;
  if (!komi_gtp_engine_is_running (self->engine))
    remember_fault (self, local_error);
  g_propagate_error (error, local_error);
  return FALSE;
}

/* An empty board of the game's size and komi in the running engine. */
static gboolean
prepare_board (KomiGtpPlayer  *self,
               GCancellable   *cancellable,
               GError        **error)
{
  g_autofree char *boardsize = g_strdup_printf ("boardsize %u", self->setup.size);
  char komi_text[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *komi = NULL;

  g_ascii_formatd (komi_text, sizeof komi_text, "%g", self->setup.komi);
  komi = g_strconcat ("komi ", komi_text, NULL);

  g_array_set_size (self->sent, 0);
  self->unsure = FALSE;
  return send_command (self, boardsize, NULL, cancellable, error) &&
         send_command (self, "clear_board", NULL, cancellable, error) &&
         send_command (self, komi, NULL, cancellable, error);
}

static gboolean
launch (KomiGtpPlayer  *self,
        GCancellable   *cancellable,
        GError        **error)
{
  g_clear_pointer (&self->engine, komi_gtp_engine_free);
  g_clear_pointer (&self->engine_argv, g_strfreev);
  g_array_set_size (self->sent, 0);

  self->engine = komi_gtp_recipe_launch (self->recipe, self->setup.seed, cancellable, error);
  if (self->engine == NULL)
    return FALSE;
  self->engine_argv = komi_gtp_recipe_build_argv (self->recipe, self->setup.seed);
  _komi_player_set_string (&self->parent.name, komi_gtp_engine_get_name (self->engine));
  _komi_player_set_string (&self->parent.version, komi_gtp_engine_get_version (self->engine));
  return prepare_board (self, cancellable, error);
}

/* Within the per-game budget, a new process with the same command line
 * (and so the same seed); the caller's next sync replays the game. */
static gboolean
restart (KomiGtpPlayer  *self,
         GCancellable   *cancellable,
         GError        **error)
{
  if (self->restarts >= MAX_RESTARTS)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED,
                   "%s failed again after a restart in this game: %s", self->recipe->label,
                   self->fault != NULL ? self->fault : "it stopped");
      return FALSE;
    }
  self->restarts++;
  g_debug ("Restarting %s (%s)", self->recipe->label, self->fault);
  return launch (self, cancellable, error);
}

static gboolean
play_into_engine (KomiGtpPlayer   *self,
                  const KomiMove  *move,
                  GCancellable    *cancellable,
                  GError         **error)
{
  char name[KOMI_NAME_LEN + 1];
  g_autofree char *command = NULL;

  komi_point_to_name (self->setup.size, move->point, name);
  command = g_strdup_printf ("play %s %s", move->color == KOMI_BLACK ? "b" : "w", name);
  if (!send_command (self, command, NULL, cancellable, error))
    return FALSE;
  g_array_append_val (self->sent, *move);
  return TRUE;
}

/* The engine's own move of the record, asked for again rather than told:
 * engines keep caches and random streams across moves (GNU Go's reading
 * caches survive clear_board), so an engine that was told its own moves
 * plays on differently from one that chose them. Choosing them again
 * rebuilds exactly the history of an uninterrupted game, so a resumed or
 * restarted game continues as it would have. Should the engine choose
 * otherwise, its choice is taken back and the record's move played. */
static gboolean
regenerate_into_engine (KomiGtpPlayer   *self,
                        const KomiMove  *move,
                        GCancellable    *cancellable,
                        GError         **error)
{
  g_autofree char *reply = NULL;
  KomiPoint point;

  if (!send_command (self, move->color == KOMI_BLACK ? "genmove b" : "genmove w", &reply,
                     cancellable, error))
    return FALSE;
  if (komi_point_from_name (self->setup.size, reply, &point) && point == move->point)
    {
      g_array_append_val (self->sent, *move);
      return TRUE;
    }
  g_debug ("%s chose %s when replaying its move %u; playing the record's move instead",
           self->recipe->label, reply, self->sent->len + 1);
  if (!send_command (self, "undo", NULL, cancellable, error))
    {
      /* It cannot take back: nothing it holds can be trusted. */
      self->unsure = TRUE;
      return FALSE;
    }
  return play_into_engine (self, move, cancellable, error);
}

/* Brings the engine's history to the game's moves: when @sent is a prefix
 * of them only the missing moves are sent; otherwise (a refused engine move,
 * an unreadable answer) the board is cleared and the whole game replayed,
 * which is cheaper than reasoning about what the engine holds. */
static gboolean
sync_to_game (KomiGtpPlayer   *self,
              const KomiGame  *game,
              GCancellable    *cancellable,
              GError         **error)
{
  const KomiMove *moves;
  guint n_moves;
  gboolean diverged = self->unsure;

  moves = komi_game_get_moves (game, &n_moves);
  if (self->sent->len > n_moves)
    diverged = TRUE;
  for (guint i = 0; !diverged && i < self->sent->len; i++)
    {
      const KomiMove *had = &g_array_index (self->sent, KomiMove, i);
      diverged = had->color != moves[i].color || had->point != moves[i].point;
    }
  if (diverged && !prepare_board (self, cancellable, error))
    return FALSE;

  for (guint i = self->sent->len; i < n_moves; i++)
    {
      gboolean own = moves[i].color == self->setup.color &&
                     (self->chose == NULL || self->chose (i, self->chose_data));
      gboolean ok = own && !diverged
                    ? regenerate_into_engine (self, &moves[i], cancellable, error)
                    : play_into_engine (self, &moves[i], cancellable, error);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* A running engine that holds the game's moves: restarts a dead engine
 * (within the budget) and replays the game into it. */
static gboolean
ensure_engine (KomiGtpPlayer   *self,
               const KomiGame  *game,
               GCancellable    *cancellable,
               GError         **error)
{
  if (!self->started)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_START,
                   "The game was not started for %s (komi_player_start_game was not called)",
                   self->recipe->label);
      return FALSE;
    }

  for (;;)
    {
      GError *local_error = NULL;

      if ((self->engine == NULL || !komi_gtp_engine_is_running (self->engine)) &&
          !restart (self, cancellable, error))
        return FALSE;
      if (sync_to_game (self, game, cancellable, &local_error))
        return TRUE;
      if (!g_error_matches (local_error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED) ||
          self->restarts >= MAX_RESTARTS)
        {
          g_propagate_error (error, local_error);
          return FALSE;
        }
      g_error_free (local_error);
    }
}

static gboolean
gtp_start_game (KomiPlayer          *player,
                const KomiGameSetup *setup,
                GCancellable        *cancellable,
                GError             **error)
{
  KomiGtpPlayer *self = (KomiGtpPlayer *) player;
  g_auto(GStrv) argv = NULL;

  self->setup = *setup;
  self->started = TRUE;
  self->restarts = 0;
  g_clear_pointer (&self->fault, g_free);
  g_free (self->parent.settings);
  self->parent.settings = komi_gtp_recipe_settings (self->recipe, setup->seed);

  /* The seed is on the command line, so a new seed needs a new process. */
  argv = komi_gtp_recipe_build_argv (self->recipe, setup->seed);
  if (self->engine != NULL && komi_gtp_engine_is_running (self->engine) &&
      g_strv_equal ((const char * const *) argv, (const char * const *) self->engine_argv))
    {
      g_autoptr(GError) local_error = NULL;

      if (prepare_board (self, cancellable, &local_error))
        return TRUE;
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          komi_gtp_engine_is_running (self->engine))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }
  return launch (self, cancellable, error);
}

static gboolean
gtp_genmove (KomiPlayer      *player,
             const KomiGame  *game,
             KomiPoint       *move,
             GCancellable    *cancellable,
             GError         **error)
{
  KomiGtpPlayer *self = (KomiGtpPlayer *) player;
  KomiColor color = komi_game_get_to_move (game);
  const char *command = color == KOMI_BLACK ? "genmove b" : "genmove w";
  g_autofree char *reply = NULL;
  KomiMove played;
  KomiMoveError why;

  for (;;)
    {
      GError *local_error = NULL;

      if (!ensure_engine (self, game, cancellable, error))
        return FALSE;
      if (send_command (self, command, &reply, cancellable, &local_error))
        break;
      if (!g_error_matches (local_error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED) ||
          self->restarts >= MAX_RESTARTS)
        {
          g_propagate_error (error, local_error);
          return FALSE;
        }
      g_error_free (local_error);
    }

  /* GNU Go answers "PASS", KataGo "pass": names are case-insensitive. */
  if (g_ascii_strcasecmp (reply, "resign") == 0)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_RESIGNED,
                   "%s resigned", self->recipe->label);
      return FALSE;
    }
  played.color = color;
  if (!komi_point_from_name (komi_game_get_size (game), reply, &played.point))
    {
      g_autofree char *shown = g_utf8_make_valid (reply, MIN (strlen (reply), 40));

      self->unsure = TRUE;
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PROTOCOL,
                   "%s answered “%s” with “%s”, which is not a point of the %ux%u board",
                   self->recipe->label, command, shown,
                   komi_game_get_size (game), komi_game_get_size (game));
      return FALSE;
    }
  /* The engine has played it, whatever the referee says next. */
  g_array_append_val (self->sent, played);

  why = played.point == KOMI_PASS ? KOMI_MOVE_OK : komi_game_check (game, played.point);
  if (why != KOMI_MOVE_OK)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_ILLEGAL_MOVE,
                   "%s chose %s, which the rules forbid here (%s)",
                   self->recipe->label, reply, komi_move_error_to_string (why));
      return FALSE;
    }
  *move = played.point;
  return TRUE;
}

static gboolean
gtp_notify_move (KomiPlayer      *player,
                 const KomiGame  *game,
                 KomiColor        color,
                 KomiPoint        move,
                 GCancellable    *cancellable,
                 GError         **error)
{
  /* The game already holds @move; syncing sends it unless the engine
   * chose it itself. */
  return ensure_engine ((KomiGtpPlayer *) player, game, cancellable, error);
}

static void
gtp_end_game (KomiPlayer *player)
{
  KomiGtpPlayer *self = (KomiGtpPlayer *) player;

  /* The engine stays up: the next game may reuse it (same command line). */
  self->started = FALSE;
}

static void
gtp_free (KomiPlayer *player)
{
  KomiGtpPlayer *self = (KomiGtpPlayer *) player;

  if (self->engine != NULL)
    komi_gtp_engine_close (self->engine, QUIT_GRACE_MS);
  g_clear_pointer (&self->engine, komi_gtp_engine_free);
  g_clear_pointer (&self->engine_argv, g_strfreev);
  g_clear_pointer (&self->recipe, komi_gtp_recipe_free);
  g_array_unref (self->sent);
  g_free (self->fault);
  g_free (self);
}

static const KomiPlayerClass gtp_class = {
  .kind = "gtp",
  .start_game = gtp_start_game,
  .genmove = gtp_genmove,
  .notify_move = gtp_notify_move,
  .end_game = gtp_end_game,
  .free = gtp_free,
};

KomiPlayer *
komi_gtp_player_new (const char          *spec,
                     const KomiGtpRecipe *recipe)
{
  KomiGtpPlayer *self;

  g_return_val_if_fail (recipe != NULL, NULL);

  self = g_new0 (KomiGtpPlayer, 1);
  _komi_player_init (&self->parent, &gtp_class, spec);
  self->recipe = komi_gtp_recipe_copy (recipe);
  self->sent = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  self->parent.name = g_strdup (recipe->label);
  g_free (self->parent.settings);
  self->parent.settings = komi_gtp_recipe_settings (recipe, 0);
  return &self->parent;
}

static gboolean
is_gtp_player (KomiPlayer *player)
{
  return player != NULL && player->klass == &gtp_class;
}

KomiGtpEngine *
komi_gtp_player_get_engine (KomiPlayer *player)
{
  g_return_val_if_fail (is_gtp_player (player), NULL);
  return ((KomiGtpPlayer *) player)->engine;
}

guint
komi_gtp_player_get_restarts (KomiPlayer *player)
{
  g_return_val_if_fail (is_gtp_player (player), 0);
  return ((KomiGtpPlayer *) player)->restarts;
}

void
komi_gtp_player_set_chose_func (KomiPlayer       *player,
                                KomiGtpChoseFunc  func,
                                gpointer          user_data)
{
  g_return_if_fail (is_gtp_player (player));
  ((KomiGtpPlayer *) player)->chose = func;
  ((KomiGtpPlayer *) player)->chose_data = user_data;
}

const char *
komi_gtp_player_get_fault (KomiPlayer *player)
{
  g_return_val_if_fail (is_gtp_player (player), NULL);
  return ((KomiGtpPlayer *) player)->fault;
}
