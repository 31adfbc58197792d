/* komi-go-types.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Colours of a point. X (black) moves first; O (white) second. */
typedef enum
{
  KOMI_EMPTY = 0,
  KOMI_BLACK = 1,
  KOMI_WHITE = 2,
} KomiColor;

#define KOMI_OTHER(c) ((KomiColor) (3 - (c)))

/* A point is the row-major index of an intersection in board order:
 * index 0 is the top-left point (A9 on 9x9), rows run top to bottom, so
 * y = pt / size, x = pt % size, and the protocol's row number is size - y. */
typedef int KomiPoint;

#define KOMI_PASS      (-1)
#define KOMI_NO_POINT  (-2)

#define KOMI_MIN_SIZE   5
#define KOMI_MAX_SIZE   19
#define KOMI_MAX_POINTS (KOMI_MAX_SIZE * KOMI_MAX_SIZE)

/* Why a move is not allowed (KOMI_MOVE_OK when it is). */
typedef enum
{
  KOMI_MOVE_OK = 0,
  KOMI_MOVE_OFF_BOARD,
  KOMI_MOVE_OCCUPIED,
  KOMI_MOVE_SUICIDE,
  KOMI_MOVE_SUPERKO,
  KOMI_MOVE_GAME_OVER,
} KomiMoveError;

typedef enum
{
  KOMI_END_NONE = 0,
  KOMI_END_TWO_PASSES,
  KOMI_END_TURN_LIMIT,
} KomiEndReason;

typedef struct
{
  KomiColor color;
  KomiPoint point;   /* KOMI_PASS for a pass */
} KomiMove;

typedef struct _KomiBoard KomiBoard;
typedef struct _KomiGame  KomiGame;

#define KOMI_GO_ERROR (komi_go_error_quark ())
GQuark komi_go_error_quark (void);

/* Error codes of KOMI_GO_ERROR are the KomiMoveError values, plus these. */
#define KOMI_GO_ERROR_BAD_SIZE   100
#define KOMI_GO_ERROR_BAD_POINT  101

const char *komi_move_error_to_string (KomiMoveError error);
const char *komi_end_reason_to_string (KomiEndReason reason);
const char *komi_color_to_protocol (KomiColor color);   /* "X" / "O" */
const char *komi_color_to_name (KomiColor color);       /* "Black" / "White" */

G_END_DECLS
