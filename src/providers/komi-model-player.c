/* komi-model-player.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "komi-model-player.h"

typedef struct
{
  KomiPlayer            parent;
  KomiProvider         *provider;
  KomiGameSetup         setup;
  KomiModelAttemptFunc  record;
  KomiModelGateFunc     gate;
  gpointer              record_data;
  guint                 turn;        /* the move being decided, from 1 */
  KomiModelTurn         recorded;    /* of a resumed turn; turn 0: none */
} KomiModelPlayer;

void
komi_model_turn_clear (KomiModelTurn *turn)
{
  for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
    g_clear_pointer (&turn->answers[q], g_free);
  memset (turn, 0, sizeof *turn);
}

static gboolean
on_attempt (const KomiProviderAttempt *attempt, gpointer user_data, GError **error)
{
  KomiModelPlayer *self = user_data;

  if (self->record == NULL)
    return TRUE;
  return self->record (self->turn, attempt, self->record_data, error);
}

/* Asks @question until a valid option comes back, at most
 * KOMI_MODEL_MAX_ATTEMPTS times for model faults (transport faults are
 * retried inside the provider and never count here). */
static gboolean
ask (KomiModelPlayer          *self,
     const KomiProtocolState  *state,
     KomiProtocolQuestion      question,
     char                    **answer,
     GCancellable             *cancellable,
     GError                  **error)
{
  g_autoptr(GError) last = NULL;
  guint first = 1;

  /* A resumed turn: an answer in the record is the answer (it was paid
   * for, and may already be what a reader sees deciding the move); the
   * faults recorded count as attempts made. */
  if (self->recorded.turn == self->turn && self->turn > 0)
    {
      if (self->recorded.answers[question] != NULL)
        {
          *answer = g_strdup (self->recorded.answers[question]);
          return TRUE;
        }
      first += self->recorded.model_faults[question];
      if (first > KOMI_MODEL_MAX_ATTEMPTS)
        {
          g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_FORFEIT,
                       "no valid answer to %s in %u attempts (recorded before the resume)",
                       komi_protocol_question_id (question), first - 1);
          return FALSE;
        }
    }

  for (guint attempt = first; attempt <= KOMI_MODEL_MAX_ATTEMPTS; attempt++)
    {
      g_clear_error (&last);
      if (self->gate != NULL && !self->gate (self->record_data, error))
        return FALSE;
      if (komi_provider_ask (self->provider, state, question, on_attempt, self, answer,
                             cancellable, &last))
        return TRUE;
      if (!g_error_matches (last, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_MODEL_FAULT))
        break;
    }

  /* A forfeit's message is stored as the game's reason, so it stays English;
   * a pause is only reported to whoever runs the series. */
  if (g_error_matches (last, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_MODEL_FAULT))
    g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_FORFEIT,
                 "no valid answer to %s in %d attempts (last: %s)",
                 komi_protocol_question_id (question), KOMI_MODEL_MAX_ATTEMPTS, last->message);
  else if (g_error_matches (last, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_TRANSPORT_BUDGET))
    g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PAUSED,
                 _("%s; run the series again later to continue"), last->message);
  else if (g_error_matches (last, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_FATAL))
    g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_FATAL, "%s", last->message);
  else
    g_propagate_error (error, g_steal_pointer (&last));
  return FALSE;
}

static gboolean
model_start_game (KomiPlayer          *player,
                  const KomiGameSetup *setup,
                  GCancellable        *cancellable,
                  GError             **error)
{
  KomiModelPlayer *self = (KomiModelPlayer *) player;

  self->setup = *setup;
  return TRUE;
}

/* Protocol 1's two questions for the position of @state: play or pass,
 * then, to place a stone, where. */
static gboolean
decide (KomiModelPlayer          *self,
        const KomiProtocolState  *state,
        KomiPoint                *move,
        GCancellable             *cancellable,
        GError                  **error)
{
  g_autofree char *choice = NULL;
  g_autofree char *point = NULL;
  gboolean place;

  /* No legal point: the rules allow only a pass, and nothing is asked. */
  if (!komi_protocol_state_has_questions (state))
    {
      *move = KOMI_PASS;
      return TRUE;
    }
  if (!ask (self, state, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS, &choice, cancellable, error)
      || !komi_protocol_parse_play_or_pass (choice, &place, error))
    return FALSE;
  if (!place)
    {
      *move = KOMI_PASS;
      return TRUE;
    }
  if (!ask (self, state, KOMI_PROTOCOL_QUESTION_BEST_POINT, &point, cancellable, error))
    return FALSE;
  /* The provider (or, resumed, the record) checked the option; mapping
   * back fails only for a record that was altered. */
  return komi_protocol_map_answer (state, point, move, error);
}

static gboolean
model_genmove (KomiPlayer      *player,
               const KomiGame  *game,
               KomiPoint       *move,
               GCancellable    *cancellable,
               GError         **error)
{
  KomiModelPlayer *self = (KomiModelPlayer *) player;
  KomiProtocolState state;
  gboolean ok;

  self->turn = komi_game_get_turns_played (game) + 1;
  komi_protocol_state_init_from_game (&state, game, (KomiOrientation) self->setup.orientation);
  ok = decide (self, &state, move, cancellable, error);
  /* A resumed turn is continued once; the record of any later one is
   * what this player makes. */
  komi_model_turn_clear (&self->recorded);
  return ok;
}

static void
model_free (KomiPlayer *player)
{
  KomiModelPlayer *self = (KomiModelPlayer *) player;

  g_clear_pointer (&self->provider, komi_provider_unref);
  komi_model_turn_clear (&self->recorded);
  g_free (self);
}

static const KomiPlayerClass model_class = {
  .kind = "model",
  .start_game = model_start_game,
  .genmove = model_genmove,
  .free = model_free,
};

KomiPlayer *
komi_model_player_new (const char *spec, KomiProvider *provider)
{
  KomiModelPlayer *self = g_new0 (KomiModelPlayer, 1);
  const KomiProviderProfile *profile = komi_provider_get_profile (provider);
  g_autofree char *url = komi_provider_profile_dup_url (profile);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  _komi_player_init (&self->parent, &model_class, spec);
  self->provider = komi_provider_ref (provider);
  self->parent.name = g_strdup (profile->name);
  self->parent.version = g_strdup (profile->model);
  /* The settings a result depends on; never the key, only where it is read.
   * Built, not printed: a model id or a URL may hold any character. */
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "model");
  json_builder_set_member_name (b, "api");
  json_builder_add_string_value (b, komi_provider_api_to_string (profile->api));
  json_builder_set_member_name (b, "url");
  json_builder_add_string_value (b, url);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, profile->model);
  json_builder_set_member_name (b, "key_env");
  json_builder_add_string_value (b, profile->key_env != NULL ? profile->key_env : "");
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  /* In place of the "{}" that _komi_player_init () gave every player. */
  g_free (self->parent.settings);
  self->parent.settings = json_to_string (root, FALSE);
  return &self->parent;
}

void
komi_model_player_set_recorder (KomiPlayer           *player,
                                KomiModelAttemptFunc  func,
                                KomiModelGateFunc     gate,
                                gpointer              data)
{
  KomiModelPlayer *self = (KomiModelPlayer *) player;

  g_return_if_fail (komi_player_is_model (player));
  self->record = func;
  self->gate = gate;
  self->record_data = data;
}

void
komi_model_player_continue_turn (KomiPlayer          *player,
                                 const KomiModelTurn *turn)
{
  KomiModelPlayer *self = (KomiModelPlayer *) player;

  g_return_if_fail (komi_player_is_model (player));
  g_return_if_fail (turn != NULL);

  komi_model_turn_clear (&self->recorded);
  self->recorded.turn = turn->turn;
  for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
    {
      self->recorded.answers[q] = g_strdup (turn->answers[q]);
      self->recorded.model_faults[q] = turn->model_faults[q];
    }
}

gboolean
komi_player_is_model (KomiPlayer *player)
{
  return player != NULL && player->klass == &model_class;
}

/* One provider per profile file for the whole process: its caps on
 * simultaneous requests and requests per minute must hold across every
 * game of every running series, so games share it. The file is read again
 * at each game's start, and a changed file (a new base URL: the demo's
 * loopback server starts on a new port each time) makes a new provider;
 * games already playing keep the one they started with. */
typedef struct
{
  char         *contents;
  guint         keys_serial;   /* a key changed since: a new provider */
  KomiProvider *provider;
} CachedProvider;

static void
cached_provider_free (gpointer data)
{
  CachedProvider *cached = data;

  g_free (cached->contents);
  komi_provider_unref (cached->provider);
  g_free (cached);
}

G_LOCK_DEFINE_STATIC (providers);
static GHashTable *providers;   /* profile path -> CachedProvider */
static guint n_shards = 1;      /* processes sharing each profile's limits */

void
komi_model_players_set_shards (guint shards)
{
  G_LOCK (providers);
  if (providers != NULL && shards != n_shards)
    g_hash_table_remove_all (providers);
  n_shards = MAX (shards, 1);
  G_UNLOCK (providers);
}

KomiPlayer *
komi_player_new_from_any_spec (const char              *spec,
                               const KomiPlayerOptions *opts,
                               GError                 **error)
{
  g_autoptr(KomiProviderProfile) profile = NULL;
  g_autoptr(KomiProvider) provider = NULL;
  g_autofree char *contents = NULL;
  const char *path = NULL;
  const KomiPlayerKind *kind = komi_player_kind_find (spec, &path);
  CachedProvider *cached;
  guint serial;

  /* The one kind the players' table leaves to this layer. */
  if (kind == NULL || kind->id != KOMI_PLAYER_KIND_MODEL)
    return komi_player_new_from_spec (spec, opts, error);
  /* Unreadable: the profile loader below says why, in its words. */
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    contents = NULL;
  /* Read before the key is: a key changed meanwhile makes one more
   * provider next time, never a stale one kept. */
  serial = komi_provider_keys_get_serial ();
  G_LOCK (providers);
  if (providers == NULL)
    providers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, cached_provider_free);
  cached = g_hash_table_lookup (providers, path);
  if (cached != NULL && contents != NULL && strcmp (cached->contents, contents) == 0
      && cached->keys_serial == serial)
    provider = komi_provider_ref (cached->provider);
  else if ((profile = komi_provider_profile_load (path, error)) != NULL)
    {
      /* One of N shards on the same key keeps to its share of the limits. */
      komi_provider_profile_share (profile, n_shards);
      provider = komi_provider_new (profile, error);
      if (provider != NULL)
        {
          cached = g_new0 (CachedProvider, 1);
          cached->keys_serial = serial;
          cached->contents = g_strdup (contents != NULL ? contents : "");
          cached->provider = komi_provider_ref (provider);
          g_hash_table_replace (providers, g_strdup (path), cached);
        }
    }
  G_UNLOCK (providers);

  if (provider == NULL)
    return NULL;
  return komi_model_player_new (spec, provider);
}
