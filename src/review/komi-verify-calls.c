/* komi-verify-calls.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "komi-coords.h"
#include "komi-model-player.h"
#include "komi-protocol-state.h"
#include "komi-verify-private.h"
#include "komi-wire-common.h"

/* A model's turns: each attempt's request as Komi builds it, its response
 * read again, the accepted answers mapped back to the move, the attempts
 * numbered without a gap. */

#define problem(v, check, ...) _komi_verify_problem (v, KOMI_VERIFY_##check, __VA_ARGS__)

static gboolean
collect_call (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  g_ptr_array_add (user_data, komi_store_call_copy (call));
  return TRUE;
}

/* Whether some string in @node equals @text exactly. */
static gboolean
holds_string (JsonNode *node, const char *text, gsize len)
{
  if (node == NULL)
    return FALSE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);

      return strlen (s) == len && memcmp (s, text, len) == 0;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (a); i++)
        if (holds_string (json_array_get_element (a, i), text, len))
          return TRUE;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (o);

      for (GList *l = members; l != NULL; l = l->next)
        if (holds_string (json_object_get_member (o, l->data), text, len))
          return TRUE;
    }
  return FALSE;
}

static gboolean
question_of (const char *id, KomiProtocolQuestion *question)
{
  for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
    if (g_strcmp0 (id, komi_protocol_question_id ((KomiProtocolQuestion) q)) == 0)
      {
        *question = (KomiProtocolQuestion) q;
        return TRUE;
      }
  return FALSE;
}

/* The model side's wire format, from its recorded settings. */
static gboolean
api_of (const char *settings, KomiProviderApi *api)
{
  g_autoptr(JsonNode) root = settings != NULL ? json_from_string (settings, NULL) : NULL;
  const char *name;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  name = json_object_get_string_member_with_default (json_node_get_object (root), "api", "");
  for (guint a = 0; a <= KOMI_PROVIDER_API_GEMINI; a++)
    if (g_strcmp0 (name, komi_provider_api_to_string ((KomiProviderApi) a)) == 0)
      {
        *api = (KomiProviderApi) a;
        return TRUE;
      }
  return FALSE;
}

/* One attempt against the position it was made in: the request as Komi
 * builds it, the response read again to the recorded outcome and answer. */
static void
check_call (KomiVerifySide *side, const KomiProtocolState *state, const KomiStoreCall *c)
{
  KomiVerifiedGame *v = side->v;
  KomiProtocolQuestion question;
  g_autoptr(GString) request = g_string_new (NULL);
  g_autoptr(JsonNode) body = NULL;
  g_auto(GStrv) options = NULL;
  const char *rules;
  gsize rules_len = 0;
  gboolean tool = FALSE;

  if (!question_of (c->question, &question))
    {
      problem (v, REQUEST, "turn %u: attempt %u asks “%s”, not a question of Protocol 1",
               c->turn, c->attempt, c->question);
      return;
    }
  options = komi_protocol_state_dup_options (state, question);
  komi_protocol_write_request_for_question (request, state, question);
  rules = komi_protocol_get_rules_text (state->protocol, &rules_len);
  body = c->request_body != NULL ? json_from_string (c->request_body, NULL) : NULL;
  if (body == NULL)
    problem (v, REQUEST, "turn %u, %s, attempt %u: the request body is not JSON", c->turn,
             c->question, c->attempt);
  else
    {
      if (!holds_string (body, rules, rules_len))
        problem (v, REQUEST, "turn %u, %s, attempt %u: the request does not carry Protocol "
                 "%u's rules text byte for byte", c->turn, c->question, c->attempt,
                 state->protocol);
      if (!holds_string (body, request->str, request->len))
        problem (v, REQUEST, "turn %u, %s, attempt %u: the request is not the Protocol %u "
                 "request Komi builds for this position, orientation and question", c->turn,
                 c->question, c->attempt, state->protocol);
      tool = JSON_NODE_HOLDS_OBJECT (body)
             && json_object_has_member (json_node_get_object (body), "tool_choice");
    }

  /* A response that came back is read again as Komi read it. */
  if (c->response_status >= 200 && c->response_status < 300 && c->response_body != NULL)
    {
      g_auto(KomiWireResponse) r;
      gsize len = 0;
      const char *data = g_bytes_get_data (c->response_body, &len);
      const char *outcome;

      komi_wire_response_init (&r);
      komi_wire_decode (side->api, tool, data != NULL ? data : "", len, &r);
      komi_wire_response_finish (&r, (const char *const *) options);
      outcome = komi_provider_outcome_to_string (r.outcome);
      if (g_strcmp0 (outcome, g_strcmp0 (c->outcome, "ok") == 0 ? "answer" : c->outcome) != 0)
        problem (v, ANSWER, "turn %u, %s, attempt %u: the response reads as %s, recorded as %s",
                 c->turn, c->question, c->attempt, outcome, c->outcome);
      else if (r.outcome == KOMI_PROVIDER_OUTCOME_ANSWER && g_strcmp0 (r.answer, c->answer) != 0)
        problem (v, ANSWER, "turn %u, %s, attempt %u: the response answers “%s”, recorded "
                 "as “%s”", c->turn, c->question, c->attempt, r.answer, c->answer ? c->answer : "");
    }
}

/* The accepted answer of @question at @turn among @calls (those of the
 * turn): the one that decided it, else the last answer. */
static const KomiStoreCall *
accepted (GPtrArray *calls, const char *question)
{
  const KomiStoreCall *found = NULL;

  for (guint i = 0; i < calls->len; i++)
    {
      const KomiStoreCall *c = g_ptr_array_index (calls, i);

      if (g_strcmp0 (c->question, question) != 0 || c->answer == NULL
          || (g_strcmp0 (c->outcome, "answer") != 0 && g_strcmp0 (c->outcome, "ok") != 0))
        continue;
      if (c->decided == 1)
        return c;
      if (c->decided != 0)
        found = c;
    }
  return found;
}

/* Attempts 1, 2, … of each question, and no more model faults than a turn
 * allows before its answer. */
static void
check_numbering (KomiVerifiedGame *v, guint turn, GPtrArray *calls)
{
  for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
    {
      const char *id = komi_protocol_question_id ((KomiProtocolQuestion) q);
      guint expected = 1, faults = 0;

      for (guint i = 0; i < calls->len; i++)
        {
          const KomiStoreCall *c = g_ptr_array_index (calls, i);

          if (g_strcmp0 (c->question, id) != 0)
            continue;
          if (c->attempt != expected)
            problem (v, ATTEMPTS, "turn %u, %s: attempt %u recorded where attempt %u was due "
                     "(an attempt is missing)", turn, id, c->attempt, expected);
          expected = c->attempt + 1;
          faults += g_strcmp0 (c->outcome, "refusal") == 0
                    || g_strcmp0 (c->outcome, "truncated") == 0
                    || g_strcmp0 (c->outcome, "filtered") == 0
                    || g_strcmp0 (c->outcome, "invalid-option") == 0;
        }
      if (faults > KOMI_MODEL_MAX_ATTEMPTS)
        problem (v, ATTEMPTS, "turn %u, %s: %u model faults recorded, where a turn allows %d",
                 turn, id, faults, KOMI_MODEL_MAX_ATTEMPTS);
    }
}

void
_komi_verify_model_turn (KomiVerifySide *side, const KomiGame *game, KomiOrientation orientation,
                         guint turn, const KomiMove *move, GPtrArray *calls)
{
  KomiVerifiedGame *v = side->v;
  KomiProtocolState state;
  const KomiStoreCall *choice, *point;
  char name[KOMI_NAME_LEN + 1];
  gboolean place = FALSE;
  KomiPoint mapped = KOMI_PASS;

  komi_protocol_state_init_from_game (&state, game, orientation);
  for (guint i = 0; i < calls->len; i++)
    check_call (side, &state, g_ptr_array_index (calls, i));
  check_numbering (v, turn, calls);
  if (move == NULL)
    return;
  if (!komi_protocol_state_has_questions (&state))
    {
      if (calls->len > 0)
        problem (v, ATTEMPTS, "turn %u: attempts recorded where no legal point was left to "
                 "ask about", turn);
      if (move->point != KOMI_PASS)
        problem (v, ANSWER, "turn %u: a stone at %s where no legal point was left", turn,
                 komi_point_to_name (side->size, move->point, name));
      return;
    }
  choice = accepted (calls, komi_protocol_question_id (KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS));
  if (choice == NULL || !komi_protocol_parse_play_or_pass (choice->answer, &place, NULL))
    {
      problem (v, ANSWER, "turn %u: the move %s has no accepted answer to play_or_pass", turn,
               komi_point_to_name (side->size, move->point, name));
      return;
    }
  if (place)
    {
      point = accepted (calls, komi_protocol_question_id (KOMI_PROTOCOL_QUESTION_BEST_POINT));
      if (point == NULL)
        {
          problem (v, ANSWER, "turn %u: the move %s has no accepted answer to best_point", turn,
                   komi_point_to_name (side->size, move->point, name));
          return;
        }
      if (!komi_protocol_map_answer (&state, point->answer, &mapped, NULL))
        {
          problem (v, ANSWER, "turn %u: the accepted answer “%s” is not an option of that "
                   "position", turn, point->answer);
          return;
        }
    }
  if (mapped != move->point)
    {
      char played[KOMI_NAME_LEN + 1];

      problem (v, ANSWER, "turn %u: the accepted answers map through orientation %s to %s, but %s "
               "was played", turn, komi_orientation_to_string (orientation),
               komi_point_to_name (side->size, mapped, name),
               komi_point_to_name (side->size, move->point, played));
    }
}

GPtrArray *
_komi_verify_read_calls (KomiStore *store, const KomiStoreGame *g, GError **error)
{
  g_autoptr(GPtrArray) calls =
    g_ptr_array_new_with_free_func ((GDestroyNotify) komi_store_call_free);

  if (!komi_store_foreach_game_call (store, g->id, collect_call, calls, error))
    return NULL;
  return g_steal_pointer (&calls);
}

gboolean
_komi_verify_side_init (KomiVerifySide *side, KomiVerifiedGame *v, const KomiStoreGame *g,
                        KomiColor color)
{
  side->v = v;
  side->size = g->size;
  if (api_of (color == KOMI_BLACK ? g->black_settings : g->white_settings, &side->api))
    return TRUE;
  problem (v, REQUEST, "%s is a model whose recorded settings name no API",
           komi_color_to_name (color));
  return FALSE;
}
