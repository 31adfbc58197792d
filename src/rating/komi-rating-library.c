/* komi-rating-library.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include "komi-rating-library.h"

/* The one place a game of the library becomes a result, so the CLI's
 * ratings and the window's agree on what counts. */
gboolean
komi_game_result_from_store_game (const KomiStoreGame *game,
                                  KomiGameResult      *result)
{
  g_return_val_if_fail (game != NULL && result != NULL, FALSE);

  *result = (KomiGameResult) { 0, };
  if (game->series_id <= 0)
    return FALSE;
  switch (game->status)
    {
    case KOMI_GAME_STATUS_FINISHED:
      result->outcome = KOMI_RESULT_FINISHED;
      break;
    case KOMI_GAME_STATUS_VOID:
      result->outcome = KOMI_RESULT_VOID;
      break;
    case KOMI_GAME_STATUS_FORFEIT:
      result->outcome = KOMI_RESULT_FORFEIT;
      break;
    default:
      return FALSE;   /* pending or running: not a result yet */
    }
  result->protocol = game->protocol;
  result->black = game->black_spec;
  result->white = game->white_spec;
  result->winner = game->has_winner ? game->winner : KOMI_EMPTY;
  result->end_reason = game->end_reason;
  result->orientation = game->orientation;
  result->subject = game->subject;
  return TRUE;
}
