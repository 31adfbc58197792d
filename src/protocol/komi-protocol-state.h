/* komi-protocol-state.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "komi-game.h"
#include "komi-orientation.h"
#include "komi-protocol.h"

G_BEGIN_DECLS

/* What the side to move is told under a protocol, before orientation: the
 * real position and the facts the rules need. Filled from a game by
 * komi_protocol_state_init_from_game(); a plain struct so that callers and
 * tests may set fields (e.g. turns_left) before writing the request.
 *
 * The orientation applies only when the request is written or an answer is
 * mapped: the arrays are always indexed by real point. */
typedef struct
{
  guint            protocol;              /* KOMI_PROTOCOL_LATEST */
  guint            size;
  KomiOrientation  orientation;           /* how the board is shown */
  KomiColor        to_move;
  guint            turns_left;            /* the turn being played included */
  gboolean         opponent_just_passed;  /* whether a pass now ends the game */
  guint8           colors[KOMI_MAX_POINTS];   /* KomiColor of each real point */
  guint8           legal[KOMI_MAX_POINTS];    /* TRUE where to_move may place */
  guint8           superko[KOMI_MAX_POINTS];  /* TRUE where only superko forbids it */
} KomiProtocolState;

/* Fills @state with what the side to move in @game, which must not be
 * over, sees under the latest protocol, shown in @orientation. */
void      komi_protocol_state_init_from_game (KomiProtocolState       *state,
                                              const KomiGame          *game,
                                              KomiOrientation          orientation);
/* FALSE when no legal point is left: the rules then allow only a pass, no
 * question is asked and the caller passes without a request. */
gboolean  komi_protocol_state_has_questions  (const KomiProtocolState *state);
/* The options of @question as sent: for best_point the legal points named
 * on the shown board, in the shown board's order. Empty when not asked. */
char    **komi_protocol_state_dup_options    (const KomiProtocolState *state,
                                              KomiProtocolQuestion     question);

/* Appends the request JSON exactly as sent, trailing newline included:
 * {"state": {…}, "questions": […]}, laid out as in the specification's
 * example. With no legal point left, "questions" is empty. */
void      komi_protocol_write_request        (GString                 *out,
                                              const KomiProtocolState *state);
/* The same request with only @question in "questions" (a one-element
 * array, same layout): what a provider that asks one question per call
 * sends. Still empty "questions" when no legal point is left. */
void      komi_protocol_write_request_for_question (GString                 *out,
                                                    const KomiProtocolState *state,
                                                    KomiProtocolQuestion     question);
/* Appends the whole text a model receives in one message: the rules text,
 * a blank line, then the request. */
void      komi_protocol_write_prompt         (GString                 *out,
                                              const KomiProtocolState *state);
/* The request as a JSON object node, equal to the parsed written text. */
JsonNode *komi_protocol_state_to_json        (const KomiProtocolState *state);

/* Validates an answer to best_point (a point name on the shown board) and
 * maps it to the real point. Surrounding whitespace is ignored; otherwise
 * the answer must be one of the options exactly, or the error is
 * KOMI_PROTOCOL_ERROR_INVALID_OPTION naming the answer (NO_QUESTION when
 * no legal point is left and nothing was asked). */
gboolean  komi_protocol_map_answer           (const KomiProtocolState *state,
                                              const char              *answer,
                                              KomiPoint               *real_point,
                                              GError                 **error);

G_END_DECLS
