/* komi-test-play.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-test-play.h"

KomiGameRecord *
play_game (const char              *black_spec,
           const char              *white_spec,
           const char              *referee_spec,
           guint64                  seed,
           const KomiPlayerOptions *opts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayer) black = komi_player_new_from_spec (black_spec, opts, &error);
  g_autoptr(KomiPlayer) white = NULL;
  g_autoptr(KomiReferee) referee = NULL;
  KomiMatchSettings settings = {
    .size = 9, .komi = 7, .max_turns = KOMI_PROTOCOL_MAX_TURNS, .seed = seed,
  };
  KomiGameRecord *record;

  g_assert_no_error (error);
  white = komi_player_new_from_spec (white_spec, opts, &error);
  g_assert_no_error (error);
  if (referee_spec != NULL)
    {
      referee = komi_referee_new (referee_spec, opts, &error);
      g_assert_no_error (error);
    }
  settings.black = black;
  settings.white = white;
  settings.referee = referee;
  record = komi_match_play_game (&settings, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (record);
  return record;
}

char *
moves_text (const KomiGame *game)
{
  GString *s = g_string_new (NULL);
  const KomiMove *moves;
  guint n;

  moves = komi_game_get_moves (game, &n);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%d ", moves[i].point);
  return g_string_free (s, FALSE);
}
