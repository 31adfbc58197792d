/* komi-live-run.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include "komi-game.h"
#include "komi-live-run.h"

struct _KomiLiveRun
{
  GObject      parent_instance;

  GHashTable  *games;       /* game id -> KomiLiveGame */
  GQueue       started;     /* KomiLiveGame, in the order they started */
  gboolean     paused;
  gboolean     over;
  gboolean     following;
  gint64       followed;
};

G_DEFINE_FINAL_TYPE (KomiLiveRun, komi_live_run, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PAUSED,
  PROP_OVER,
  PROP_FOLLOWING,
  PROP_FOLLOWED,
  N_PROPS
};

enum {
  GAME_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

KomiLiveEvent *
komi_live_event_new (KomiRunEventKind kind,
                     gint64           game_id)
{
  KomiLiveEvent *event = g_new0 (KomiLiveEvent, 1);

  event->kind = kind;
  event->game_id = game_id;
  event->cost_usd = -1;
  return event;
}

KomiLiveEvent *
komi_live_event_new_from_run (const KomiRunEvent *event)
{
  KomiLiveEvent *e = komi_live_event_new (event->kind, event->game_id);

  e->series_id = event->series_id;
  e->plan_index = event->plan_index;
  e->turn = event->turn;
  if (event->move != NULL)
    e->move = *event->move;
  if (event->kind == KOMI_RUN_EVENT_GAME_STARTED && event->record->game != NULL)
    e->turn = komi_game_get_turns_played (event->record->game);   /* resumed */
  if (event->kind == KOMI_RUN_EVENT_GAME_FINISHED)
    e->result = g_strdup (event->record->result);
  if (event->call != NULL)
    {
      const KomiStoreCall *call = event->call;
      /* The row's id, which the event has apart; no exchange kept. */
      KomiStoreCall shown = *call;

      shown.id = event->call_id;
      shown.outcome = call->outcome != NULL ? call->outcome : "ok";
      e->call = komi_store_call_copy_brief (&shown);
      e->cost_usd = call->cost_usd;
    }
  return e;
}

void
komi_live_event_free (KomiLiveEvent *event)
{
  if (event == NULL)
    return;
  komi_store_call_free (event->call);
  g_free (event->result);
  g_free (event);
}

static void
live_game_free (gpointer data)
{
  KomiLiveGame *game = data;

  g_array_unref (game->moves);
  g_ptr_array_unref (game->calls);
  g_free (game->result);
  g_free (game);
}

static KomiLiveGame *
live_game_new (gint64 id, guint plan_index, guint first_turn)
{
  KomiLiveGame *game = g_new0 (KomiLiveGame, 1);

  game->id = id;
  game->plan_index = plan_index;
  game->first_turn = first_turn;
  game->moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  game->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_store_call_free);
  return game;
}

static void
set_followed (KomiLiveRun *self, gint64 game_id)
{
  if (self->followed == game_id)
    return;
  self->followed = game_id;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWED]);
}

/* The game in play that started first, other than @except; 0: none. */
static gint64
first_playing (KomiLiveRun *self, gint64 except)
{
  for (GList *l = self->started.head; l != NULL; l = l->next)
    {
      KomiLiveGame *game = l->data;

      if (game->playing && game->id != except)
        return game->id;
    }
  return 0;
}

static gboolean
followed_playing (KomiLiveRun *self)
{
  const KomiLiveGame *game = komi_live_run_get_game (self, self->followed);

  return game != NULL && game->playing;
}

static void
game_started (KomiLiveRun *self, const KomiLiveEvent *event)
{
  KomiLiveGame *game = g_hash_table_lookup (self->games, &event->game_id);

  /* Started again in the same run (after a pause, say): its moves go on. */
  if (game == NULL)
    {
      game = live_game_new (event->game_id, event->plan_index, event->turn + 1);
      g_hash_table_insert (self->games, &game->id, game);
    }
  else
    g_queue_remove (&self->started, game);
  g_queue_push_tail (&self->started, game);
  game->playing = TRUE;
  g_clear_pointer (&game->result, g_free);
  if (self->following && !followed_playing (self))
    set_followed (self, game->id);
}

/* A move told twice (it cannot be, but a turn is a turn) or out of order
 * is not added: the moves stay those of turns first_turn, first_turn + 1… */
static gboolean
move_played (KomiLiveGame *game, const KomiLiveEvent *event)
{
  if (event->turn != game->first_turn + game->moves->len)
    {
      if (game->moves->len > 0 || event->turn < game->first_turn)
        return FALSE;
      game->first_turn = event->turn;   /* its earlier moves were resumed */
    }
  g_array_append_val (game->moves, event->move);
  return TRUE;
}

static void
game_finished (KomiLiveRun *self, KomiLiveGame *game, const KomiLiveEvent *event)
{
  game->playing = FALSE;
  g_free (game->result);
  game->result = g_strdup (event->result);
  /* The page stays on it when no other game is in play: the next one to
   * start takes over (GAME_STARTED). */
  if (self->following && self->followed == game->id)
    {
      gint64 next = first_playing (self, game->id);

      if (next != 0)
        set_followed (self, next);
    }
}

void
komi_live_run_apply (KomiLiveRun         *self,
                     const KomiLiveEvent *event)
{
  KomiLiveGame *game;

  g_return_if_fail (KOMI_IS_LIVE_RUN (self));
  g_return_if_fail (event != NULL);

  switch (event->kind)
    {
    case KOMI_RUN_EVENT_RUN_PAUSED:
    case KOMI_RUN_EVENT_RUN_RESUMED:
      if (self->paused != (event->kind == KOMI_RUN_EVENT_RUN_PAUSED))
        {
          self->paused = !self->paused;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
        }
      return;
    case KOMI_RUN_EVENT_RUN_STOPPED:
      /* Its games in play are left where they were: none is playing now. */
      for (GList *l = self->started.head; l != NULL; l = l->next)
        ((KomiLiveGame *) l->data)->playing = FALSE;
      self->paused = FALSE;
      self->over = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVER]);
      return;
    case KOMI_RUN_EVENT_GAME_STARTED:
      game_started (self, event);
      break;
    default:
      game = g_hash_table_lookup (self->games, &event->game_id);
      /* A game's events all come after its start: one not known was
       * started before this object heard of the run. */
      if (game == NULL)
        {
          game = live_game_new (event->game_id, event->plan_index, 1);
          game->playing = TRUE;
          g_hash_table_insert (self->games, &game->id, game);
          g_queue_push_tail (&self->started, game);
        }
      if (event->kind == KOMI_RUN_EVENT_MOVE_PLAYED && !move_played (game, event))
        return;
      if (event->kind == KOMI_RUN_EVENT_CALL_ANSWERED && event->call != NULL)
        g_ptr_array_add (game->calls, komi_store_call_copy (event->call));
      if (event->kind == KOMI_RUN_EVENT_GAME_FINISHED)
        game_finished (self, game, event);
      break;
    }
  g_signal_emit (self, signals[GAME_CHANGED], 0, event->game_id, (guint) event->kind);
}

void
komi_live_run_reset (KomiLiveRun *self)
{
  g_return_if_fail (KOMI_IS_LIVE_RUN (self));

  g_queue_clear (&self->started);
  g_hash_table_remove_all (self->games);
  self->paused = FALSE;
  self->over = FALSE;
  set_followed (self, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVER]);
}

const KomiLiveGame *
komi_live_run_get_game (KomiLiveRun *self,
                        gint64       game_id)
{
  g_return_val_if_fail (KOMI_IS_LIVE_RUN (self), NULL);
  return g_hash_table_lookup (self->games, &game_id);
}

guint
komi_live_run_count_moves (KomiLiveRun *self,
                           gint64       game_id,
                           guint        stored)
{
  const KomiLiveGame *game = komi_live_run_get_game (self, game_id);
  guint known;

  if (game == NULL)
    return stored;
  known = game->first_turn - 1 + game->moves->len;
  return MAX (known, stored);
}

guint
komi_live_run_get_n_playing (KomiLiveRun *self)
{
  guint n = 0;

  g_return_val_if_fail (KOMI_IS_LIVE_RUN (self), 0);
  for (GList *l = self->started.head; l != NULL; l = l->next)
    n += ((KomiLiveGame *) l->data)->playing;
  return n;
}

gboolean
komi_live_run_get_paused (KomiLiveRun *self)
{
  g_return_val_if_fail (KOMI_IS_LIVE_RUN (self), FALSE);
  return self->paused;
}

gboolean
komi_live_run_get_over (KomiLiveRun *self)
{
  g_return_val_if_fail (KOMI_IS_LIVE_RUN (self), FALSE);
  return self->over;
}

void
komi_live_run_set_following (KomiLiveRun *self,
                             gboolean     following)
{
  g_return_if_fail (KOMI_IS_LIVE_RUN (self));

  following = !!following;
  if (self->following != following)
    {
      self->following = following;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
    }
  /* Following again: the game in play, if the one followed is not. */
  if (following && !followed_playing (self))
    {
      gint64 next = first_playing (self, 0);

      if (next != 0)
        set_followed (self, next);
    }
}

gboolean
komi_live_run_get_following (KomiLiveRun *self)
{
  g_return_val_if_fail (KOMI_IS_LIVE_RUN (self), FALSE);
  return self->following;
}

void
komi_live_run_follow_game (KomiLiveRun *self,
                           gint64       game_id)
{
  g_return_if_fail (KOMI_IS_LIVE_RUN (self));

  set_followed (self, game_id);
  komi_live_run_set_following (self, TRUE);
}

gint64
komi_live_run_get_followed (KomiLiveRun *self)
{
  g_return_val_if_fail (KOMI_IS_LIVE_RUN (self), 0);
  return self->followed;
}

/* The position after @move, played on the last one of @replay. */
static gboolean
extend_replay (KomiReplay *replay, const KomiMove *move, GError **error)
{
  gsize n_points = (gsize) replay->size * replay->size;
  g_autoptr(KomiBoard) board = komi_board_new (replay->size);
  g_autoptr(KomiGame) play = NULL;
  KomiStoreGame *game = replay->game;

  komi_board_set_colors (board, komi_replay_get_colors (replay, replay->n_steps - 1));
  play = komi_game_new_from_board (board, move->color, 0);
  if (!komi_game_play (play, move->point, error))
    return FALSE;
  replay->colors = g_realloc (replay->colors, (replay->n_steps + 1) * n_points);
  komi_board_get_colors (komi_game_get_board (play), replay->colors + replay->n_steps * n_points);
  replay->n_steps++;
  if (game->moves == NULL)
    game->moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  g_array_append_val (game->moves, *move);
  game->n_moves = game->moves->len;
  return TRUE;
}

gboolean
komi_live_run_update_replay (KomiLiveRun  *self,
                             KomiReplay   *replay,
                             GError      **error)
{
  const KomiLiveGame *game;

  g_return_val_if_fail (KOMI_IS_LIVE_RUN (self), FALSE);
  g_return_val_if_fail (replay != NULL, FALSE);

  game = komi_live_run_get_game (self, replay->game->id);
  if (game == NULL)
    return TRUE;
  /* Turn t is the move that leads to step t. */
  while (replay->n_steps >= game->first_turn
         && replay->n_steps - game->first_turn < game->moves->len)
    {
      const KomiMove *move = &g_array_index (game->moves, KomiMove,
                                             replay->n_steps - game->first_turn);

      if (!extend_replay (replay, move, error))
        return FALSE;
    }
  /* By row: an attempt the read had in flight gets its response. */
  for (guint i = 0; i < game->calls->len; i++)
    komi_replay_merge_call (replay, g_ptr_array_index (game->calls, i));
  return TRUE;
}

KomiLiveRun *
komi_live_run_new (void)
{
  return g_object_new (KOMI_TYPE_LIVE_RUN, NULL);
}

static void
komi_live_run_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  KomiLiveRun *self = KOMI_LIVE_RUN (object);

  switch (prop_id)
    {
    case PROP_PAUSED: g_value_set_boolean (value, self->paused); break;
    case PROP_OVER: g_value_set_boolean (value, self->over); break;
    case PROP_FOLLOWING: g_value_set_boolean (value, self->following); break;
    case PROP_FOLLOWED: g_value_set_int64 (value, self->followed); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_live_run_finalize (GObject *object)
{
  KomiLiveRun *self = KOMI_LIVE_RUN (object);

  g_queue_clear (&self->started);
  g_hash_table_destroy (self->games);
  G_OBJECT_CLASS (komi_live_run_parent_class)->finalize (object);
}

static void
komi_live_run_class_init (KomiLiveRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->get_property = komi_live_run_get_property;
  object_class->finalize = komi_live_run_finalize;

  properties[PROP_PAUSED] = g_param_spec_boolean ("paused", NULL, NULL, FALSE, ro);
  properties[PROP_OVER] = g_param_spec_boolean ("over", NULL, NULL, FALSE, ro);
  properties[PROP_FOLLOWING] = g_param_spec_boolean ("following", NULL, NULL, FALSE, ro);
  properties[PROP_FOLLOWED] = g_param_spec_int64 ("followed", NULL, NULL, 0, G_MAXINT64, 0, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A game's event was taken in: (game id, KomiRunEventKind). */
  signals[GAME_CHANGED] = g_signal_new ("game-changed", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_UINT);
}

static void
komi_live_run_init (KomiLiveRun *self)
{
  self->games = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, live_game_free);
  g_queue_init (&self->started);
}
