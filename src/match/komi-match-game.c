/* komi-match-game.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-match"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "komi-coords.h"
#include "komi-match-game.h"
#include "komi-model-player.h"
#include "komi-protocol.h"
#include "komi-rng.h"
#include "komi-sgf-writer.h"

guint64
komi_match_player_seed (guint64 game_seed, KomiColor color)
{
  KomiRng rng;

  /* A stream of its own per colour: the first output of the generator
   * seeded with the game seed, mixed with the colour. */
  komi_rng_init (&rng, game_seed ^ (color == KOMI_BLACK ? 0x42ull : 0x57ull) << 56);
  return komi_rng_next (&rng);
}

void
komi_game_record_free (KomiGameRecord *record)
{
  if (record == NULL)
    return;
  g_clear_pointer (&record->game, komi_game_free);
  g_clear_pointer (&record->dead, g_array_unref);
  g_free (record->void_reason);
  g_free (record->referee);
  g_free (record->result);
  g_free (record->black_name);
  g_free (record->white_name);
  g_free (record->black_settings);
  g_free (record->white_settings);
  g_free (record->date);
  g_free (record);
}

static char *
player_label (KomiPlayer *player)
{
  /* A model's version is its model id, often its name again. */
  if (komi_player_is_model (player))
    return komi_provider_model_label (player->name, player->version);
  if (player->version != NULL && player->version[0] != '\0')
    return g_strdup_printf ("%s %s", player->name, player->version);
  return g_strdup (player->name != NULL ? player->name : player->spec);
}

/* Ends the game as void because @color's player failed. */
static void
record_void (KomiGameRecord *record, KomiColor color, const char *why)
{
  record->outcome = KOMI_OUTCOME_VOID;
  record->faulty = color;
  record->void_reason = g_strdup_printf ("%s (%s): %s", komi_color_to_name (color),
                                         color == KOMI_BLACK ? record->black_name
                                                             : record->white_name, why);
  g_free (record->result);
  record->result = g_strdup ("Void");
}

/* Ends the game by forfeit: @color gave no valid answer; the other side
 * wins, and the result says so ("W+F"). */
static void
record_forfeit (KomiGameRecord *record, KomiColor color, const char *why)
{
  record->outcome = KOMI_OUTCOME_FORFEIT;
  record->faulty = color;
  record->void_reason = g_strdup_printf ("%s (%s) forfeits: %s", komi_color_to_name (color),
                                         color == KOMI_BLACK ? record->black_name
                                                             : record->white_name, why);
  g_free (record->result);
  record->result = g_strdup (color == KOMI_BLACK ? "W+F" : "B+F");
}

static gboolean
notify_both (const KomiMatchSettings *settings,
             KomiGameRecord          *record,
             KomiColor                color,
             KomiPoint                move,
             GCancellable            *cancellable,
             GError                 **error)
{
  KomiPlayer *players[2] = { settings->black, settings->white };

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) local = NULL;

      if (komi_player_notify_move (players[i], record->game, color, move, cancellable, &local))
        continue;
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      record_void (record, i == 0 ? KOMI_BLACK : KOMI_WHITE, local->message);
      return TRUE;
    }
  return TRUE;
}

static void
count_area (const KomiMatchSettings *settings,
            KomiGameRecord          *record,
            GCancellable            *cancellable,
            GError                 **error)
{
  if (settings->referee != NULL)
    komi_referee_dead_stones (settings->referee, record->game, record->dead,
                              &record->referee, cancellable, error);
  komi_score_area (komi_game_get_board (record->game), (const KomiPoint *) record->dead->data,
                   record->dead->len, settings->komi, &record->score);
  g_free (record->result);
  record->result = komi_score_to_result (&record->score);
}

KomiGameRecord *
komi_match_play_game (const KomiMatchSettings *settings,
                      GCancellable            *cancellable,
                      GError                 **error)
{
  g_autoptr(KomiGameRecord) record = g_new0 (KomiGameRecord, 1);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  KomiPlayer *players[3] = { NULL, settings->black, settings->white };
  gint64 started = g_get_monotonic_time ();
  gint64 paused = 0;     /* microseconds held by before_turn */

  g_return_val_if_fail (settings->black != NULL && settings->white != NULL, NULL);

  record->seed = settings->seed;
  record->black_seed = komi_match_player_seed (settings->seed, KOMI_BLACK);
  record->white_seed = komi_match_player_seed (settings->seed, KOMI_WHITE);
  record->orientation = settings->orientation;
  record->date = g_date_time_format (now, "%Y-%m-%d");
  record->dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  record->score.komi = settings->komi;
  record->game = komi_game_new (settings->size, settings->max_turns);

  for (KomiColor c = KOMI_BLACK; c <= KOMI_WHITE; c++)
    {
      KomiGameSetup setup = {
        .size = settings->size,
        .komi = settings->komi,
        .color = c,
        .seed = c == KOMI_BLACK ? record->black_seed : record->white_seed,
        .max_turns = settings->max_turns,
        .orientation = settings->orientation,
      };

      if (!komi_player_start_game (players[c], &setup, cancellable, error))
        return NULL;
    }
  record->black_name = player_label (settings->black);
  record->white_name = player_label (settings->white);
  record->black_settings = g_strdup (settings->black->settings);
  record->white_settings = g_strdup (settings->white->settings);
  if (settings->on_start != NULL && !settings->on_start (record, settings->user_data, error))
    goto fail;

  for (guint i = 0; i < settings->n_resume_moves; i++)
    {
      const KomiMove *m = &settings->resume_moves[i];

      /* The record was written by this loop, so it replays; if it does not,
       * the file was tampered with and nothing should be guessed. */
      if (m->color != komi_game_get_to_move (record->game))
        {
          g_set_error (error, KOMI_GO_ERROR, KOMI_MOVE_GAME_OVER,
                       _("Cannot resume: move %u of the record is out of turn"), i + 1);
          goto fail;
        }
      if (!komi_game_play (record->game, m->point, error))
        {
          g_prefix_error (error, _("Cannot resume at move %u of the record: "), i + 1);
          goto fail;
        }
      if (!notify_both (settings, record, m->color, m->point, cancellable, error))
        goto fail;
      if (record->outcome != KOMI_OUTCOME_FINISHED)
        break;
    }

  while (!komi_game_is_over (record->game) && record->outcome == KOMI_OUTCOME_FINISHED)
    {
      KomiColor color = komi_game_get_to_move (record->game);
      g_autoptr(GError) local = NULL;
      KomiPoint move = KOMI_PASS;
      guint n_moves;
      gint64 waited = 0;

      if (settings->before_turn != NULL)
        {
          gboolean go = settings->before_turn (settings->user_data, &waited, cancellable, error);

          paused += waited;
          if (!go)
            goto fail;
        }
      if (!komi_player_genmove (players[color], record->game, &move, cancellable, &local))
        {
          /* Nobody's fault in the game: stop, keep the game open to resume. */
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED)
              || g_error_matches (local, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PAUSED)
              || g_error_matches (local, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_FATAL))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              goto fail;
            }
          if (g_error_matches (local, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_FORFEIT))
            record_forfeit (record, color, local->message);
          else
            record_void (record, color, local->message);
          break;
        }
      /* Komi is the referee: an engine's move must pass our rules. */
      if (!komi_game_play (record->game, move, &local))
        {
          record_void (record, color, local->message);
          break;
        }
      if (settings->on_move != NULL
          && !settings->on_move (record->game,
                                 &komi_game_get_moves (record->game, &n_moves)[n_moves - 1],
                                 settings->user_data, error))
        goto fail;
      if (!notify_both (settings, record, color, move, cancellable, error))
        goto fail;
    }

  komi_player_end_game (settings->black);
  komi_player_end_game (settings->white);
  record->end_reason = komi_game_get_end_reason (record->game);

  if (record->outcome == KOMI_OUTCOME_FINISHED)
    {
      g_autoptr(GError) local = NULL;

      count_area (settings, record, cancellable, &local);
      if (local != NULL)
        {
          /* Without a judge the count would be a guess: stop, keep nothing. */
          g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                      _("The referee could not judge the dead stones: "));
          return NULL;
        }
    }
  record->seconds = (g_get_monotonic_time () - started - paused) / 1e6;
  return g_steal_pointer (&record);

fail:
  komi_player_end_game (settings->black);
  komi_player_end_game (settings->white);
  return NULL;
}

char *
komi_game_record_describe (const KomiGameRecord *record)
{
  g_autofree char *count = NULL;

  if (record->outcome == KOMI_OUTCOME_VOID)
    return g_strdup_printf ("Void: %s", record->void_reason);
  if (record->outcome == KOMI_OUTCOME_FORFEIT)
    return g_strdup_printf ("Forfeit: %s", record->void_reason);
  count = komi_score_describe (&record->score);
  return g_strdup_printf ("%s (%s; dead stones judged by %s)", count,
                          komi_end_reason_to_string (record->end_reason),
                          record->referee != NULL ? record->referee : "nobody: none removed");
}

char *
komi_game_record_to_sgf (const KomiGameRecord *record)
{
  g_autofree char *comment = komi_game_record_describe (record);
  g_autofree char *root = NULL;
  KomiSgfGame sgf = { 0, };
  guint n_moves;

  root = g_strdup_printf ("Protocol %d; seed %" G_GUINT64_FORMAT "; orientation %s; "
                          "Black settings %s; White settings %s",
                          KOMI_PROTOCOL_LATEST, record->seed,
                          komi_orientation_to_string (record->orientation),
                          record->black_settings ? record->black_settings : "{}",
                          record->white_settings ? record->white_settings : "{}");
  sgf.size = komi_game_get_size (record->game);
  sgf.komi = record->score.komi;
  sgf.black_name = record->black_name;
  sgf.white_name = record->white_name;
  sgf.date = record->date;
  sgf.rules_text = komi_protocol_get_rules_text (KOMI_PROTOCOL_LATEST, NULL);
  sgf.result = record->result;
  sgf.application = "Komi:" PACKAGE_VERSION;
  sgf.root_comment = root;
  sgf.moves = komi_game_get_moves (record->game, &n_moves);
  sgf.n_moves = n_moves;
  if (record->outcome == KOMI_OUTCOME_FINISHED)
    {
      sgf.dead = (const KomiPoint *) record->dead->data;
      sgf.n_dead = record->dead->len;
      sgf.owner = record->score.owner;
    }
  sgf.final_comment = comment;
  return komi_sgf_write (&sgf);
}
