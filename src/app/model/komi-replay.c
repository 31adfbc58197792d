/* komi-replay.c
 *
 * A game loaded for review: the position after each move, the model's
 * calls of each turn and how the review words them.
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-replay"

#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n.h>

#include "komi-board.h"
#include "komi-coords.h"
#include "komi-orientation.h"
#include "komi-game.h"
#include "komi-replay.h"
#include "komi-record-text.h"
#include "komi-score.h"

void
komi_replay_merge_call (KomiReplay          *replay,
                        const KomiStoreCall *call)
{
  KomiStoreCall *merged;
  guint attempt = 1;

  g_return_if_fail (replay != NULL && call != NULL);

  if (replay->calls == NULL)
    replay->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_store_call_free);
  for (guint i = 0; i < replay->calls->len; i++)
    {
      KomiStoreCall *c = g_ptr_array_index (replay->calls, i);

      if (call->id > 0 && c->id == call->id)
        {
          /* The library's number stays; the response is the newer news. */
          merged = komi_store_call_copy (call);
          merged->attempt = c->attempt;
          komi_store_call_free (g_steal_pointer (&replay->calls->pdata[i]));
          replay->calls->pdata[i] = merged;
          return;
        }
      if (c->turn == call->turn && g_strcmp0 (c->question, call->question) == 0)
        attempt = MAX (attempt, c->attempt + 1);
    }
  merged = komi_store_call_copy (call);
  merged->attempt = call->attempt > 0 ? call->attempt : attempt;
  g_ptr_array_add (replay->calls, merged);
}

void
komi_replay_free (KomiReplay *replay)
{
  g_clear_pointer (&replay->calls, g_ptr_array_unref);
  g_clear_pointer (&replay->game, komi_store_game_free);
  g_free (replay->colors);
  g_free (replay->summary);
  g_free (replay);
}

KomiReplay *
komi_replay_new (KomiStoreGame  *game,
                 GError        **error)
{
  g_autoptr(KomiReplay) replay = g_new0 (KomiReplay, 1);
  g_autoptr(KomiGame) play = NULL;
  guint n_points, n_moves;

  replay->game = game;
  replay->size = game->size;
  n_points = game->size * game->size;
  n_moves = game->moves != NULL ? game->moves->len : 0;
  if (game->setup != NULL)
    {
      g_autoptr(KomiBoard) board = komi_board_new (game->size);
      KomiColor first = n_moves > 0 ? g_array_index (game->moves, KomiMove, 0).color : KOMI_BLACK;

      komi_board_set_colors (board, game->setup);
      play = komi_game_new_from_board (board, first, 0);
    }
  else
    play = komi_game_new (game->size, 0);

  replay->colors = g_malloc0 ((gsize) (n_moves + 1) * n_points);
  komi_board_get_colors (komi_game_get_board (play), replay->colors);
  replay->n_steps = 1;
  for (guint i = 0; i < n_moves; i++)
    {
      const KomiMove *move = &g_array_index (game->moves, KomiMove, i);

      if (!komi_game_play (play, move->point, error))
        {
          g_prefix_error (error, _("Move %u of game %" PRId64 " does not replay: "),
                          i + 1, game->id);
          return NULL;
        }
      komi_board_get_colors (komi_game_get_board (play),
                             replay->colors + (gsize) replay->n_steps * n_points);
      replay->n_steps++;
    }

  if (game->counted)
    replay->summary = komi_record_text_score (&game->score);
  else if (game->void_reason != NULL)
    replay->summary = g_strdup_printf ("%s: %s", game->result ? game->result : _("Void"),
                                       game->void_reason);
  else if (game->status == KOMI_GAME_STATUS_RUNNING)
    replay->summary = g_strdup (_("Being played, or stopped before its end"));
  else
    replay->summary = g_strdup (_("Not counted"));
  return g_steal_pointer (&replay);
}

const guint8 *
komi_replay_get_colors (const KomiReplay *replay,
                        guint             step)
{
  g_return_val_if_fail (step < replay->n_steps, NULL);
  return replay->colors + (gsize) step * replay->size * replay->size;
}

void
komi_replay_get_numbers (const KomiReplay *replay,
                         guint             step,
                         guint            *numbers)
{
  const guint8 *colors = komi_replay_get_colors (replay, step);
  guint n_points = replay->size * replay->size;

  memset (numbers, 0, n_points * sizeof (guint));
  for (guint t = 0; t < step; t++)
    {
      KomiPoint p = g_array_index (replay->game->moves, KomiMove, t).point;

      if (p >= 0)
        numbers[p] = t + 1;
    }
  /* A captured stone's number goes with it. */
  for (guint i = 0; i < n_points; i++)
    if (colors[i] == KOMI_EMPTY)
      numbers[i] = 0;
}

KomiPoint
komi_replay_get_last_move (const KomiReplay *replay,
                           guint             step)
{
  if (step == 0 || step >= replay->n_steps)
    return KOMI_NO_POINT;
  return g_array_index (replay->game->moves, KomiMove, step - 1).point;
}

char *
komi_replay_answer_text (const KomiReplay *replay,
                         const char       *answer,
                         KomiOrientation   shown)
{
  char name[KOMI_NAME_LEN + 1];
  KomiPoint p;

  if (!komi_point_from_name (replay->size, answer, &p) || p < 0)
    return g_strdup (answer);
  p = komi_orientation_unapply (replay->game->orientation, replay->size, p);
  komi_point_to_name (replay->size, komi_orientation_apply (shown, replay->size, p), name);
  if (g_ascii_strcasecmp (name, answer) == 0)
    return g_strdup (answer);
  /* TRANSLATORS: the model's answer as it was shown the board, then the
   * same point on the board as drawn beside it. */
  return g_strdup_printf (_("%s (%s on this board)"), answer, name);
}

gboolean
komi_replay_run_is_gone (KomiStore *store, const KomiStoreGame *game)
{
  return game->status == KOMI_GAME_STATUS_RUNNING && game->series_id > 0
         && !komi_store_run_is_live (store, game->series_id);
}

void
komi_replay_mark_run_gone (KomiReplay *replay)
{
  replay->run_gone = TRUE;
  for (guint i = 0; replay->calls != NULL && i < replay->calls->len; i++)
    {
      KomiStoreCall *c = g_ptr_array_index (replay->calls, i);

      if (g_strcmp0 (c->outcome, KOMI_STORE_OUTCOME_IN_FLIGHT) == 0)
        {
          g_free ((char *) c->outcome);
          c->outcome = g_strdup (KOMI_STORE_OUTCOME_INTERRUPTED);
        }
    }
}

char *
komi_replay_describe_calls (const KomiReplay *replay,
                            guint             turn,
                            KomiOrientation   shown)
{
  g_autoptr(GString) text = NULL;
  guint n = 0;

  for (guint i = 0; replay->calls != NULL && i < replay->calls->len; i++)
    {
      const KomiStoreCall *c = g_ptr_array_index (replay->calls, i);

      if (c->turn != turn)
        continue;
      if (text == NULL)
        text = g_string_new (NULL);
      n++;
      /* A call still out (a game being played) has no time yet. */
      if (g_strcmp0 (c->outcome, KOMI_STORE_OUTCOME_IN_FLIGHT) == 0)
        {
          g_string_append_printf (text, _("\n%s #%u: waiting for the answer…"), c->question,
                                  c->attempt);
          continue;
        }
      /* Out when its run died or stopped: never answered, no time. */
      if (g_strcmp0 (c->outcome, KOMI_STORE_OUTCOME_INTERRUPTED) == 0 && c->latency_ms <= 0)
        {
          g_string_append_printf (text, "\n%s #%u: %s", c->question, c->attempt,
                                  komi_record_text_outcome (c->outcome));
          continue;
        }
      g_string_append_printf (text, "\n%s #%u: %.0f ms", c->question, c->attempt,
                              c->latency_ms);
      if (c->tokens_input >= 0 && c->tokens_output >= 0)
        g_string_append_printf (text, _(", %" PRId64 " + %" PRId64 " tokens"),
                                c->tokens_input, c->tokens_output);
      if (c->tokens_reasoning > 0)
        g_string_append_printf (text, _(" (%" PRId64 " reasoning)"),
                                c->tokens_reasoning);
      /* Only what went wrong is named; a good answer speaks for itself. */
      if (c->outcome != NULL && !g_str_equal (c->outcome, "ok")
          && !g_str_equal (c->outcome, "answer"))
        g_string_append_printf (text, ", %s", komi_record_text_outcome (c->outcome));
      if (c->answer != NULL)
        {
          g_autofree char *answer = komi_replay_answer_text (replay, c->answer, shown);

          g_string_append_printf (text, _(", answered %s"), answer);
        }
      /* Named as such, not in a second pair of parentheses after the
       * answer's own ("J9 (A1 on this board) (rehearsal-model-…)"). */
      if (c->model_version != NULL)
        g_string_append_printf (text, _(", model %s"), c->model_version);
    }
  if (n == 0)
    return NULL;
  {
    g_autofree char *head = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                          "Move %u: %u model call",
                                                          "Move %u: %u model calls", n),
                                             turn, n);

    g_string_prepend (text, head);
  }
  return g_string_free (g_steal_pointer (&text), FALSE);
}
