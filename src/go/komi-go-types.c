/* komi-go-types.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-go"

#include "config.h"

#include "komi-go-types.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-go-error-quark, komi_go_error)

const char *
komi_move_error_to_string (KomiMoveError error)
{
  switch (error)
    {
    case KOMI_MOVE_OK:        return "legal";
    case KOMI_MOVE_OFF_BOARD: return "not a point on the board";
    case KOMI_MOVE_OCCUPIED:  return "the point is occupied";
    case KOMI_MOVE_SUICIDE:   return "suicide is illegal";
    case KOMI_MOVE_SUPERKO:   return "it would repeat an earlier position (positional superko)";
    case KOMI_MOVE_GAME_OVER: return "the game is over";
    default:                  return "unknown";
    }
}

const char *
komi_end_reason_to_string (KomiEndReason reason)
{
  switch (reason)
    {
    case KOMI_END_NONE:        return "not over";
    case KOMI_END_TWO_PASSES:  return "two passes";
    case KOMI_END_TURN_LIMIT:  return "turn limit";
    default:                   return "unknown";
    }
}

const char *
komi_color_to_protocol (KomiColor color)
{
  return color == KOMI_BLACK ? "X" : color == KOMI_WHITE ? "O" : ".";
}

const char *
komi_color_to_name (KomiColor color)
{
  return color == KOMI_BLACK ? "Black" : color == KOMI_WHITE ? "White" : "Empty";
}
