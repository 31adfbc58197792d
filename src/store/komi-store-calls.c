/* komi-store-calls.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-store-private.h"

/* Model call attempts. An attempt is written twice: its request before a
 * byte is sent (outcome "in-flight"), and its response into the same row
 * when it arrives. A process killed in between leaves the row in flight;
 * resuming the series marks it "interrupted" and sends the call again as
 * the next attempt, so both stay in the record. Attempts are committed
 * without a sync of their own (the group commit of komi-store-commit.c):
 * that is most of a call's CPU otherwise.
 *
 * The response of a running game's attempt is not a transaction of its
 * own either (komi_store_complete_call): it is kept here, copied, and
 * written by the game's next transaction — the next request, the move it
 * decided, the game's end — before which nothing acts on it. That is one
 * commit per attempt instead of two. A kill before then leaves the row in
 * flight, as if the response had never come: the call is sent again. */

/* Every string of a call: what a copy duplicates and a free releases. */
#define CALL_STRINGS(c) \
  &(c)->question, &(c)->started, &(c)->request_url, &(c)->request_headers, \
  &(c)->request_body, &(c)->response_headers, &(c)->model_version, &(c)->finish_reason, \
  &(c)->answer, &(c)->outcome, &(c)->error, &(c)->system_fingerprint, &(c)->response_id, \
  &(c)->option_probabilities

KomiStoreCall *
komi_store_call_copy (const KomiStoreCall *call)
{
  KomiStoreCall *copy;

  g_return_val_if_fail (call != NULL, NULL);

  copy = g_memdup2 (call, sizeof *call);
  {
    const char **strings[] = { CALL_STRINGS (copy) };

    for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
      *strings[i] = g_strdup (*strings[i]);
  }
  /* A row's body is only borrowed while it is read (g_bytes_new_static),
   * so the bytes are copied, not referenced. */
  if (call->response_body != NULL)
    copy->response_body = g_bytes_new (g_bytes_get_data (call->response_body, NULL),
                                       g_bytes_get_size (call->response_body));
  return copy;
}

KomiStoreCall *
komi_store_call_copy_brief (const KomiStoreCall *call)
{
  KomiStoreCall brief;

  g_return_val_if_fail (call != NULL, NULL);

  brief = *call;
  brief.request_url = NULL;
  brief.request_headers = NULL;
  brief.request_body = NULL;
  brief.response_headers = NULL;
  brief.response_body = NULL;
  return komi_store_call_copy (&brief);
}

void
komi_store_call_free (KomiStoreCall *call)
{
  if (call == NULL)
    return;
  {
    const char **strings[] = { CALL_STRINGS (call) };

    for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
      g_free ((char *) *strings[i]);
  }
  g_clear_pointer (&call->response_body, g_bytes_unref);
  g_free (call);
}

#undef CALL_STRINGS

typedef struct
{
  gint64          call_id;
  KomiStoreCall  *call;   /* owned */
} Completed;

static void
completed_free (gpointer data)
{
  Completed *c = data;

  komi_store_call_free (c->call);
  g_free (c);
}

static Completed *
completed_new (gint64 call_id, const KomiStoreCall *call)
{
  Completed *c = g_new0 (Completed, 1);

  c->call_id = call_id;
  c->call = komi_store_call_copy (call);
  return c;
}

typedef struct
{
  gint64               game_id;
  gint64               call_id;
  const KomiStoreCall *call;
} CallData;

/* Token counts: -1 (not reported) is stored as NULL, not as a number. */
static void
bind_count (KomiStoreStmt *stmt, int index, gint64 value)
{
  if (value >= 0)
    sqlite3_bind_int64 (stmt, index, value);
  else
    sqlite3_bind_null (stmt, index);
}

static void
bind_positive (KomiStoreStmt *stmt, int index, double value)
{
  if (value >= 0)
    sqlite3_bind_double (stmt, index, value);
  else
    sqlite3_bind_null (stmt, index);
}

/* The response half of a row: parameters ?9 … ?28, shared by the insert
 * of a whole attempt and the update that completes an attempt in flight. */
static void
bind_response (KomiStoreStmt *stmt, const KomiStoreCall *c)
{
  if (c->response_status > 0)
    sqlite3_bind_int (stmt, 9, c->response_status);
  _komi_store_bind_text (stmt, 10, c->response_headers);
  if (c->response_body != NULL)
    {
      gsize size;
      gconstpointer bytes = g_bytes_get_data (c->response_body, &size);

      /* The GBytes outlives the step, so no copy is needed. */
      sqlite3_bind_blob64 (stmt, 11, bytes != NULL ? bytes : "", size, SQLITE_STATIC);
    }
  bind_positive (stmt, 12, c->latency_ms);
  bind_count (stmt, 13, c->tokens_input);
  bind_count (stmt, 14, c->tokens_output);
  bind_count (stmt, 15, c->tokens_reasoning);
  bind_count (stmt, 16, c->tokens_cached);
  _komi_store_bind_text (stmt, 17, c->model_version);
  _komi_store_bind_text (stmt, 18, c->finish_reason);
  _komi_store_bind_text (stmt, 19, c->answer);
  _komi_store_bind_text (stmt, 20, c->outcome != NULL ? c->outcome : "ok");
  _komi_store_bind_text (stmt, 21, c->error);
  _komi_store_bind_text (stmt, 22, c->system_fingerprint);
  _komi_store_bind_text (stmt, 23, c->response_id);
  sqlite3_bind_int (stmt, 24, c->model_mismatch ? 1 : 0);
  sqlite3_bind_int (stmt, 25, c->logprobs_requested ? 1 : 0);
  _komi_store_bind_text (stmt, 26, c->option_probabilities);
  bind_positive (stmt, 27, c->retry_delay);
  bind_positive (stmt, 28, c->cost_usd);
}

static gboolean
insert_call_txn (KomiStore *self, gpointer user_data, GError **error)
{
  CallData *data = user_data;
  const KomiStoreCall *c = data->call;
  KomiStoreStmt *stmt;

  /* Attempt NULL (0 given) is the next number: inside the write
   * transaction no other writer can take it first. */
  stmt = _komi_store_prepare (self,
    "INSERT INTO calls (game_id, turn, question, attempt, started, request_url, "
    "  request_headers, request_body, response_status, response_headers, response_body, "
    "  latency_ms, tokens_input, tokens_output, tokens_reasoning, tokens_cached, "
    "  model_version, finish_reason, answer, outcome, error, system_fingerprint, "
    "  response_id, model_mismatch, logprobs_requested, option_probabilities, retry_delay, "
    "  cost_usd) "
    "VALUES (?1, ?2, ?3, "
    "  coalesce (?4, (SELECT coalesce (max (attempt), 0) + 1 FROM calls "
    "                 WHERE game_id = ?1 AND turn = ?2 AND question = ?3)), "
    "  coalesce (?5, " KOMI_STORE_NOW "), ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
    "  ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, data->game_id);
  sqlite3_bind_int (stmt, 2, c->turn);
  _komi_store_bind_text (stmt, 3, c->question);
  if (c->attempt > 0)
    sqlite3_bind_int (stmt, 4, c->attempt);
  _komi_store_bind_text (stmt, 5, c->started);
  _komi_store_bind_text (stmt, 6, c->request_url);
  _komi_store_bind_text (stmt, 7, c->request_headers);
  _komi_store_bind_text (stmt, 8, c->request_body);
  bind_response (stmt, c);
  if (_komi_store_step_done (self, stmt, error))
    {
      data->call_id = sqlite3_last_insert_rowid (self->db);
      return TRUE;
    }
  if (c->attempt > 0)
    /* Translators: %s is the protocol's question, e.g. best_point. */
    g_prefix_error (error, _("Call attempt %u of turn %u (%s) of game %" PRId64 ": "),
                    c->attempt, c->turn, c->question, data->game_id);
  else
    g_prefix_error (error, _("A call attempt of turn %u (%s) of game %" PRId64 ": "),
                    c->turn, c->question, data->game_id);
  return FALSE;
}

gboolean
komi_store_add_call (KomiStore            *self,
                     gint64                game_id,
                     const KomiStoreCall  *call,
                     GError              **error)
{
  CallData data = { game_id, 0, call };

  g_return_val_if_fail (self != NULL && call != NULL, FALSE);
  g_return_val_if_fail (call->question != NULL && call->turn >= 1, FALSE);
  return _komi_store_game_transaction (self, game_id, FALSE, insert_call_txn, &data, error);
}

gboolean
komi_store_begin_call (KomiStore            *self,
                       gint64                game_id,
                       const KomiStoreCall  *call,
                       gint64               *call_id,
                       GError              **error)
{
  KomiStoreCall request;
  CallData data = { game_id, 0, &request };

  g_return_val_if_fail (self != NULL && call != NULL && call_id != NULL, FALSE);
  g_return_val_if_fail (call->question != NULL && call->turn >= 1, FALSE);

  /* Only the request half: nothing of a response is known yet. */
  request = (KomiStoreCall) {
    .turn = call->turn,
    .question = call->question,
    .attempt = call->attempt,
    .started = call->started,
    .request_url = call->request_url,
    .request_headers = call->request_headers,
    .request_body = call->request_body,
    .latency_ms = -1,
    .tokens_input = -1,
    .tokens_output = -1,
    .tokens_reasoning = -1,
    .tokens_cached = -1,
    .outcome = KOMI_STORE_OUTCOME_IN_FLIGHT,
    .logprobs_requested = call->logprobs_requested,
    .retry_delay = -1,
    .cost_usd = -1,
  };
  if (!_komi_store_game_transaction (self, game_id, FALSE, insert_call_txn, &data, error))
    return FALSE;
  *call_id = data.call_id;
  return TRUE;
}

/* The caller holds the transaction. */
static gboolean
finish_call_locked (KomiStore *self, gint64 call_id, const KomiStoreCall *call, GError **error)
{
  KomiStoreStmt *stmt;

  stmt = _komi_store_prepare (self,
    "UPDATE calls SET response_status = ?9, response_headers = ?10, response_body = ?11, "
    "  latency_ms = ?12, tokens_input = ?13, tokens_output = ?14, tokens_reasoning = ?15, "
    "  tokens_cached = ?16, model_version = ?17, finish_reason = ?18, answer = ?19, "
    "  outcome = ?20, error = ?21, system_fingerprint = ?22, response_id = ?23, "
    "  model_mismatch = ?24, logprobs_requested = ?25, option_probabilities = ?26, "
    "  retry_delay = ?27, cost_usd = ?28 "
    "WHERE id = ?1 AND outcome = '" KOMI_STORE_OUTCOME_IN_FLIGHT "'", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, call_id);
  bind_response (stmt, call);
  if (!_komi_store_step_done (self, stmt, error))
    return FALSE;
  if (sqlite3_changes (self->db) == 1)
    return TRUE;
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
               _("Call attempt %" PRId64 " is not in flight in the library %s "
                 "(another Komi resumed this series meanwhile?); run the series again"),
               call_id, self->path);
  return FALSE;
}

static gboolean
finish_call_txn (KomiStore *self, gpointer user_data, GError **error)
{
  CallData *data = user_data;

  return finish_call_locked (self, data->call_id, data->call, error);
}

gboolean
komi_store_finish_call (KomiStore            *self,
                        gint64                call_id,
                        const KomiStoreCall  *call,
                        GError              **error)
{
  CallData data = { 0, call_id, call };

  g_return_val_if_fail (self != NULL && call != NULL && call_id > 0, FALSE);
  return _komi_store_transaction_unsynced (self, finish_call_txn, &data, error);
}

gboolean
komi_store_complete_call (KomiStore            *self,
                          gint64                game_id,
                          gint64                call_id,
                          const KomiStoreCall  *call,
                          GError              **error)
{
  gboolean kept;

  g_return_val_if_fail (self != NULL && call != NULL && call_id > 0 && game_id > 0, FALSE);

  /* A game has one attempt out at a time, and its next request commits
   * this one; an earlier one still kept is committed on its own first. */
  g_mutex_lock (&self->mutex);
  kept = self->completed != NULL && g_hash_table_contains (self->completed, &game_id);
  g_mutex_unlock (&self->mutex);
  if (kept && !komi_store_flush_calls (self, game_id, error))
    return FALSE;

  g_mutex_lock (&self->mutex);
  if (self->completed == NULL)
    self->completed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                             completed_free);
  g_hash_table_insert (self->completed, g_memdup2 (&game_id, sizeof game_id),
                       completed_new (call_id, call));
  g_mutex_unlock (&self->mutex);
  return TRUE;
}

gboolean
komi_store_flush_calls (KomiStore  *self,
                        gint64      game_id,
                        GError    **error)
{
  gboolean any;

  g_return_val_if_fail (self != NULL, FALSE);

  g_mutex_lock (&self->mutex);
  any = self->completed != NULL
        && (game_id == KOMI_STORE_ALL_GAMES ? g_hash_table_size (self->completed) > 0
                                            : g_hash_table_contains (self->completed,
                                                                     &game_id));
  g_mutex_unlock (&self->mutex);
  /* Nothing kept: no transaction at all. */
  if (!any)
    return TRUE;
  return _komi_store_game_transaction (self, game_id, FALSE, NULL, NULL, error);
}

gboolean
_komi_store_write_completed (KomiStore *self, gint64 game_id, GError **error)
{
  GHashTableIter iter;
  Completed *c;

  if (self->completed == NULL)
    return TRUE;
  if (game_id != KOMI_STORE_ALL_GAMES)
    {
      c = g_hash_table_lookup (self->completed, &game_id);
      return c == NULL || finish_call_locked (self, c->call_id, c->call, error);
    }
  g_hash_table_iter_init (&iter, self->completed);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &c))
    if (!finish_call_locked (self, c->call_id, c->call, error))
      return FALSE;
  return TRUE;
}

void
_komi_store_forget_completed (KomiStore *self, gint64 game_id)
{
  if (self->completed == NULL)
    return;
  if (game_id == KOMI_STORE_ALL_GAMES)
    g_hash_table_remove_all (self->completed);
  else
    g_hash_table_remove (self->completed, &game_id);
}

typedef struct
{
  gint64         game_id;
  guint          turn;
  KomiModelTurn *state;
} TurnData;

/* Refusals, truncated, filtered and invalid answers: what the model
 * player counts against its attempts (transport faults it never does). */
static gboolean
is_model_fault (const char *outcome)
{
  static const KomiProviderOutcome faults[] = {
    KOMI_PROVIDER_OUTCOME_REFUSAL, KOMI_PROVIDER_OUTCOME_TRUNCATED,
    KOMI_PROVIDER_OUTCOME_FILTERED, KOMI_PROVIDER_OUTCOME_INVALID_OPTION,
  };

  for (guint i = 0; i < G_N_ELEMENTS (faults); i++)
    if (g_strcmp0 (outcome, komi_provider_outcome_to_string (faults[i])) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
load_turn_txn (KomiStore *self, gpointer user_data, GError **error)
{
  TurnData *data = user_data;
  g_autoptr(KomiStoreStmt) stmt = NULL;
  int rc;

  stmt = _komi_store_prepare (self, "SELECT question, outcome, answer FROM calls "
                                    "WHERE game_id = ?1 AND turn = ?2 ORDER BY id", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, data->game_id);
  sqlite3_bind_int (stmt, 2, (int) data->turn);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *question = (const char *) sqlite3_column_text (stmt, 0);
      const char *outcome = (const char *) sqlite3_column_text (stmt, 1);
      const char *answer = (const char *) sqlite3_column_text (stmt, 2);

      for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
        {
          if (g_strcmp0 (question, komi_protocol_question_id (q)) != 0)
            continue;
          /* The latest accepted answer, as _komi_store_settle_calls() says
           * of a turn; a game played by one Komi has one at most. */
          if (answer != NULL && (g_strcmp0 (outcome, "answer") == 0
                                 || g_strcmp0 (outcome, "ok") == 0))
            {
              g_free (data->state->answers[q]);
              data->state->answers[q] = g_strdup (answer);
            }
          else if (is_model_fault (outcome))
            data->state->model_faults[q]++;
        }
    }
  if (rc == SQLITE_DONE)
    return TRUE;
  _komi_store_set_error (self, rc, error, _("Cannot read the library"));
  return FALSE;
}

gboolean
komi_store_load_turn (KomiStore      *self,
                      gint64          game_id,
                      guint           turn,
                      KomiModelTurn  *state,
                      GError        **error)
{
  TurnData data = { game_id, turn, state };

  g_return_val_if_fail (self != NULL && state != NULL && turn >= 1, FALSE);

  komi_model_turn_clear (state);
  if (!_komi_store_transaction (self, FALSE, load_turn_txn, &data, error))
    {
      komi_model_turn_clear (state);
      return FALSE;
    }
  state->turn = turn;
  return TRUE;
}

gboolean
_komi_store_settle_calls (KomiStore  *self,
                          gint64      game_id,
                          guint       first,
                          guint       last,
                          GError    **error)
{
  KomiStoreStmt *stmt;

  /* Through the (game_id, turn, …) unique index: a move of an engine,
   * whose turn has no calls, costs one seek and writes nothing. */
  stmt = _komi_store_prepare (self,
    "UPDATE calls SET decided = ("
    "    outcome IN ('answer', 'ok') AND answer IS NOT NULL "
    "    AND EXISTS (SELECT 1 FROM moves m WHERE m.game_id = ?1 AND m.turn = calls.turn "
    "                AND (calls.question <> 'best_point' OR m.point <> 'pass')) "
    "    AND id = (SELECT max (c.id) FROM calls c WHERE c.game_id = ?1 "
    "              AND c.turn = calls.turn AND c.question = calls.question "
    "              AND c.outcome IN ('answer', 'ok') AND c.answer IS NOT NULL)) "
    "WHERE game_id = ?1 AND turn BETWEEN ?2 AND ?3 AND decided IS NULL", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game_id);
  sqlite3_bind_int (stmt, 2, (int) MIN (first, G_MAXINT));
  sqlite3_bind_int (stmt, 3, (int) MIN (last, G_MAXINT));
  return _komi_store_step_done (self, stmt, error);
}

gboolean
_komi_store_interrupt_calls (KomiStore *self, gint64 series_id, GError **error)
{
  KomiStoreStmt *stmt;

  /* Once per resume: the calls of the series' games are found by the
   * (game_id, …) unique index; an index of the rows in flight would cost
   * two page writes on every call instead. */
  stmt = _komi_store_prepare (self,
    "UPDATE calls SET outcome = '" KOMI_STORE_OUTCOME_INTERRUPTED "', "
    "  error = 'Komi stopped (crash, kill or power cut) before the response arrived; the "
    "call was sent again on resume' "
    "WHERE outcome = '" KOMI_STORE_OUTCOME_IN_FLIGHT "' "
    "  AND game_id IN (SELECT id FROM games WHERE series_id = ?1)", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, series_id);
  return _komi_store_step_done (self, stmt, error);
}
