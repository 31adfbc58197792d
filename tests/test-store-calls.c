/* test-store-calls.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "komi-store-private.h"
#include "komi-store-test-util.h"

/* The call log of the library: schema 2 over a file of schema 1, attempts
 * numbered by the store, and model attempts through the sink as the
 * series runner records them, across a crash. */

#define TEST(path, func) \
  g_test_add ("/komi/store/calls/" path, LibraryFixture, NULL, library_fixture_set_up, func, library_fixture_tear_down)

/* A read-back call that outlives komi_store_foreach_call()'s callback. */
static gboolean
collect_call (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  g_ptr_array_add (user_data, komi_store_call_copy (call));
  return TRUE;
}

static GPtrArray *
read_calls (KomiStore *store, gint64 series_id)
{
  GPtrArray *calls = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_store_call_free);
  g_autoptr(GError) error = NULL;

  g_assert_true (komi_store_foreach_call (store, series_id, collect_call, calls, &error));
  g_assert_no_error (error);
  return calls;
}

static const KomiStoreCall *
call_at (GPtrArray *calls, guint i)
{
  return calls->pdata[i];
}

/* The record */

/* The pointer fields of @c, in one list: what the checks below compare
 * by content, everything else bit for bit. */
#define CALL_TEXTS(c) \
  &(c)->question, &(c)->started, &(c)->request_url, &(c)->request_headers, \
  &(c)->request_body, &(c)->response_headers, &(c)->model_version, &(c)->finish_reason, \
  &(c)->answer, &(c)->outcome, &(c)->error, &(c)->system_fingerprint, &(c)->response_id, \
  &(c)->option_probabilities

/* @copy holds what @call holds, in memory of its own; @call's texts and
 * bytes may be gone once this returns. */
static void
assert_call_copied (const KomiStoreCall *copy, const KomiStoreCall *call, gboolean brief)
{
  const char **from[] = { CALL_TEXTS ((KomiStoreCall *) call) };
  const char **to[] = { CALL_TEXTS ((KomiStoreCall *) copy) };
  KomiStoreCall numbers;

  for (gsize i = 0; i < G_N_ELEMENTS (from); i++)
    {
      gboolean exchange = from[i] == &call->request_url || from[i] == &call->request_headers
                          || from[i] == &call->request_body
                          || from[i] == &call->response_headers;

      if (brief && exchange)
        {
          g_assert_null (*to[i]);
          continue;
        }
      g_assert_nonnull (*to[i]);
      g_assert_cmpstr (*to[i], ==, *from[i]);
      g_assert_true (*to[i] != *from[i]);
    }
  if (brief)
    g_assert_null (copy->response_body);
  else
    {
      g_assert_nonnull (copy->response_body);
      g_assert_true (copy->response_body != call->response_body);
      g_assert_true (g_bytes_equal (copy->response_body, call->response_body));
    }
  /* Every other field (a column added later too) bit for bit: the copy
   * with the original's pointers is the original. */
  memcpy (&numbers, copy, sizeof numbers);
  {
    const char **mine[] = { CALL_TEXTS (&numbers) };

    for (gsize i = 0; i < G_N_ELEMENTS (mine); i++)
      *mine[i] = *from[i];
  }
  numbers.response_body = call->response_body;
  g_assert_cmpmem (&numbers, sizeof numbers, call, sizeof *call);
}

/* A copy owns all it holds: it equals the original in every field, and
 * outlives the original's texts and bytes (freed first here, so a copy
 * that kept a pointer reads freed memory under AddressSanitizer). */
static void
test_call_copy (void)
{
  g_autofree KomiStoreCall *call = g_new0 (KomiStoreCall, 1);
  const char **texts[] = { CALL_TEXTS (call) };
  g_autoptr(KomiStoreCall) copy = NULL;
  g_autoptr(KomiStoreCall) brief = NULL;
  g_autoptr(KomiStoreCall) again = NULL;
  g_autoptr(KomiStoreCall) empty = NULL;

  call->id = 41;
  call->game_id = 7;
  call->series_id = 3;
  call->turn = 12;
  call->attempt = 2;
  call->response_status = 429;
  call->response_body = g_bytes_new ("rate limited\0\xff\xfe", 15);
  call->latency_ms = 95.25;
  call->tokens_input = 900;
  call->tokens_output = 12;
  call->tokens_reasoning = 7;
  call->tokens_cached = 64;
  call->model_mismatch = TRUE;
  call->logprobs_requested = TRUE;
  call->retry_delay = 2.5;
  call->cost_usd = 0.00912;
  call->decided = 1;
  for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
    *texts[i] = g_strdup_printf ("text %" G_GSIZE_FORMAT " of the call", i);

  copy = komi_store_call_copy (call);
  brief = komi_store_call_copy_brief (call);
  assert_call_copied (copy, call, FALSE);
  assert_call_copied (brief, call, TRUE);
  /* A copy of a copy is a copy. */
  again = komi_store_call_copy (copy);
  assert_call_copied (again, copy, FALSE);

  /* The original goes first; the copies still read whole. */
  {
    g_autoptr(KomiStoreCall) before = komi_store_call_copy (call);

    for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
      g_clear_pointer ((char **) texts[i], g_free);
    g_clear_pointer (&call->response_body, g_bytes_unref);
    assert_call_copied (copy, before, FALSE);
    assert_call_copied (brief, before, TRUE);
  }

  /* Nothing known (NULL texts, no body) copies as nothing. */
  empty = komi_store_call_copy (call);
  {
    const char **none[] = { CALL_TEXTS (empty) };

    for (gsize i = 0; i < G_N_ELEMENTS (none); i++)
      g_assert_null (*none[i]);
  }
  g_assert_null (empty->response_body);
  g_assert_cmpint (empty->id, ==, 41);
  g_assert_cmpint (empty->decided, ==, 1);
  komi_store_call_free (NULL);
}

#undef CALL_TEXTS

/* Runs raw SQL on the file through a connection of the test's own. */
static void
sql_exec (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

/* Schema 2 */

/* A library of schema 1 with a game, a move and a call opens as schema 2
 * and keeps them; the new columns of the old call read as unknown. */
static void
test_migrate_from_1 (LibraryFixture *f, gconstpointer data)
{
  const KomiStoreMigration *migrations;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) calls = NULL;
  g_autofree char *version = NULL;
  g_autofree char *moves = NULL;
  g_autofree char *check = NULL;
  g_autofree char *columns = NULL;
  KomiStoreCall next = { .turn = 1, .question = "play_or_pass", .outcome = "answer",
                         .tokens_input = -1, .tokens_output = -1, .tokens_reasoning = -1,
                         .tokens_cached = -1, .retry_delay = 0.5 };
  const KomiStoreCall *old;
  sqlite3 *db = NULL;
  guint n_migrations;

  migrations = _komi_store_get_migrations (&n_migrations);
  g_assert_cmpuint (n_migrations, ==, KOMI_STORE_SCHEMA_VERSION);
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_true (_komi_store_migrate (db, f->path, migrations, 1, &error));
  g_assert_no_error (error);
  sqlite3_close (db);
  sql_exec (f->path,
            "INSERT INTO games (id, black_spec, white_spec, status) "
            "  VALUES (1, 'alice', 'bob', 'imported');"
            "INSERT INTO moves (game_id, turn, color, point) VALUES (1, 1, 'B', 'E5');"
            "INSERT INTO calls (game_id, turn, question, attempt, started, response_status, "
            "  response_body, latency_ms, tokens_input, answer, outcome) "
            "  VALUES (1, 1, 'play_or_pass', 1, '2026-01-01T00:00:00.000Z', 200, "
            "          x'7b7d', 12.5, 40, 'play', 'ok');");
  version = sql_text (f->path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "1");

  store = test_open_store (f->path);
  g_clear_pointer (&version, g_free);
  version = sql_text (f->path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, G_STRINGIFY (KOMI_STORE_SCHEMA_VERSION));
  check = sql_text (f->path, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");
  columns = sql_text (f->path, "SELECT group_concat (name, ' ') FROM pragma_table_info "
                               "('calls') WHERE cid > 21");
  g_assert_cmpstr (columns, ==, "system_fingerprint response_id model_mismatch "
                                "logprobs_requested option_probabilities retry_delay "
                                "cost_usd decided");
  moves = sql_text (f->path, "SELECT group_concat (color || point) FROM moves");
  g_assert_cmpstr (moves, ==, "BE5");

  calls = read_calls (store, KOMI_STORE_ALL_GAMES);
  g_assert_cmpuint (calls->len, ==, 1);
  old = call_at (calls, 0);
  g_assert_cmpint (old->game_id, ==, 1);
  g_assert_cmpuint (old->attempt, ==, 1);
  g_assert_cmpstr (old->started, ==, "2026-01-01T00:00:00.000Z");
  g_assert_cmpint (old->response_status, ==, 200);
  g_assert_cmpmem (g_bytes_get_data (old->response_body, NULL),
                   g_bytes_get_size (old->response_body), "{}", 2);
  g_assert_cmpfloat (old->latency_ms, ==, 12.5);
  g_assert_cmpint (old->tokens_input, ==, 40);
  g_assert_cmpint (old->tokens_output, ==, -1);
  g_assert_cmpstr (old->answer, ==, "play");
  g_assert_cmpstr (old->outcome, ==, "ok");
  g_assert_null (old->system_fingerprint);
  g_assert_null (old->response_id);
  g_assert_false (old->model_mismatch);
  g_assert_false (old->logprobs_requested);
  g_assert_null (old->option_probabilities);
  g_assert_cmpfloat (old->retry_delay, ==, -1);
  g_assert_cmpfloat (old->cost_usd, ==, -1);
  /* The one answer to its question in a turn with a move decided it. */
  g_assert_cmpint (old->decided, ==, 1);

  /* The migrated file takes new attempts after the old one. */
  g_assert_true (komi_store_add_call (store, 1, &next, &error));
  g_assert_no_error (error);
  g_clear_pointer (&calls, g_ptr_array_unref);
  calls = read_calls (store, KOMI_STORE_ALL_GAMES);
  g_assert_cmpuint (calls->len, ==, 2);
  g_assert_cmpuint (call_at (calls, 1)->attempt, ==, 2);
  g_assert_cmpfloat (call_at (calls, 1)->retry_delay, ==, 0.5);
}

/* Attempt 0 is the next number of the same game, turn and question; a
 * number given is kept, and a taken one is refused. */
static void
test_numbering (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(TestSeries) series = test_series_new ("numbering", 3, 1);
  g_autoptr(GString) want = NULL;
  g_autofree char *numbers = NULL;
  g_autoptr(GError) error = NULL;
  KomiStoreCall call = { .turn = 4, .question = "play_or_pass", .outcome = "answer",
                         .retry_delay = -1 };
  static const struct { guint turn; const char *question; guint given, want; } steps[] = {
    { 4, "play_or_pass", 0, 1 },
    { 4, "play_or_pass", 0, 2 },
    { 4, "best_point",   0, 1 },
    { 5, "play_or_pass", 0, 1 },
    { 4, "play_or_pass", 7, 7 },   /* the caller's number */
    { 4, "play_or_pass", 0, 8 },
  };
  gint64 series_id, game_id, other_id;

  g_assert_true (komi_store_begin_series (store, &series->series, series->plan, &series_id,
                                          &error));
  g_assert_true (komi_store_find_game (store, series_id, 0, &game_id, &error));
  g_assert_true (komi_store_find_game (store, series_id, 1, &other_id, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      call.turn = steps[i].turn;
      call.question = steps[i].question;
      call.attempt = steps[i].given;
      g_assert_true (komi_store_add_call (store, game_id, &call, &error));
      g_assert_no_error (error);
    }
  /* Another game counts apart. */
  call.turn = 4;
  call.question = "play_or_pass";
  call.attempt = 0;
  g_assert_true (komi_store_add_call (store, other_id, &call, &error));
  /* A number already taken is a conflict, not a silent overwrite. */
  call.attempt = 2;
  g_assert_false (komi_store_add_call (store, game_id, &call, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);
  g_assert_nonnull (strstr (error->message, "Call attempt 2 of turn 4 (play_or_pass)"));

  numbers = sql_text (f->path, "SELECT group_concat (game_id || ':' || turn || ':' || question "
                              "  || ':' || attempt, ' ') FROM (SELECT * FROM calls ORDER BY id)");
  want = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    g_string_append_printf (want, "%" G_GINT64_FORMAT ":%u:%s:%u ", game_id, steps[i].turn,
                            steps[i].question, steps[i].want);
  g_string_append_printf (want, "%" G_GINT64_FORMAT ":4:play_or_pass:1", other_id);
  g_assert_cmpstr (numbers, ==, want->str);
}

/* The sink */

static void
assert_attempt_recorded (const KomiStoreCall       *c,
                         guint                      turn,
                         guint                      number,
                         const KomiProviderAttempt *a)
{
  g_assert_cmpuint (c->turn, ==, turn);
  g_assert_cmpuint (c->attempt, ==, number);
  g_assert_cmpstr (c->question, ==, a->question);
  g_assert_cmpstr (c->started, ==, a->started);
  g_assert_cmpstr (c->request_url, ==, a->request_url);
  g_assert_cmpstr (c->request_headers, ==, a->request_headers);
  g_assert_cmpstr (c->request_body, ==, a->request_body);
  g_assert_cmpint (c->response_status, ==, a->response_status);
  g_assert_cmpstr (c->response_headers, ==, a->response_headers);
  g_assert_nonnull (c->response_body);
  g_assert_true (g_bytes_equal (c->response_body, a->response_body));
  g_assert_cmpfloat (c->latency_ms, ==, a->latency_ms);
  g_assert_cmpint (c->tokens_input, ==, a->tokens_input);
  g_assert_cmpint (c->tokens_output, ==, a->tokens_output);
  g_assert_cmpint (c->tokens_reasoning, ==, a->tokens_reasoning);
  g_assert_cmpint (c->tokens_cached, ==, a->tokens_cached);
  g_assert_cmpstr (c->model_version, ==, a->model_version);
  g_assert_cmpstr (c->finish_reason, ==, a->finish_reason);
  g_assert_cmpstr (c->answer, ==, a->answer);
  g_assert_cmpstr (c->outcome, ==, komi_provider_outcome_to_string (a->outcome));
  g_assert_cmpstr (c->error, ==, a->error);
  g_assert_cmpstr (c->system_fingerprint, ==, a->system_fingerprint);
  g_assert_cmpstr (c->response_id, ==, a->response_id);
  g_assert_cmpint (c->model_mismatch, ==, a->model_mismatch);
  g_assert_cmpint (c->logprobs_requested, ==, a->logprobs_requested);
  g_assert_cmpstr (c->option_probabilities, ==, a->option_probabilities);
  g_assert_cmpfloat (c->retry_delay, ==, a->retry_delay);
  g_assert_cmpfloat (c->cost_usd, ==, a->cost_usd);
}

/* Two attempts of one question (a rate limit, then the answer) are two
 * rows numbered 1 and 2; a sink opened after a crash numbers on from 3. */
static void
test_sink_attempts (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(TestSeries) series = test_series_new ("calls", 11, 1);
  const KomiPlannedGame *planned = test_planned (series, 1);
  /* Not text: the bytes must come back as they were, NUL and all. */
  g_autoptr(GBytes) limited = g_bytes_new ("rate limited\0\xff\xfe", 15);
  g_autoptr(GBytes) answered = g_bytes_new_static ("{\"id\":\"resp-7\",\"choice\":\"play\"}",
                                                   31);
  g_autoptr(GPtrArray) calls = NULL;
  g_autoptr(GError) error = NULL;
  KomiStore *store = test_open_store (f->path);
  KomiSeriesSink *sink = komi_store_new_sink (store);
  KomiProviderAttempt first = {
    .question = "play_or_pass", .attempt = 1, .started = "2026-03-14T09:26:53.589Z",
    .request_url = "https://api.example/v1/chat/completions",
    .request_headers = "{\"authorization\":\"[redacted]\"}",
    .request_body = "{\"model\":\"m-1\",\"logprobs\":true}",
    .response_status = 429, .response_headers = "{\"retry-after\":\"2\"}",
    .response_body = limited, .latency_ms = 95.25,
    .tokens_input = -1, .tokens_output = -1, .tokens_reasoning = -1, .tokens_cached = -1,
    .outcome = KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR, .error = "HTTP 429: rate limited",
    .logprobs_requested = TRUE, .retry_delay = 2, .cost_usd = 0,
  };
  KomiProviderAttempt second = {
    .question = "play_or_pass", .attempt = 2, .started = "2026-03-14T09:26:55.712Z",
    .request_url = first.request_url, .request_headers = first.request_headers,
    .request_body = first.request_body, .response_status = 200,
    .response_headers = "{\"x-request-id\":\"abc\"}", .response_body = answered,
    .latency_ms = 812.5, .tokens_input = 900, .tokens_output = 12, .tokens_reasoning = 7,
    .tokens_cached = 0, .model_version = "m-1-2026-02-01", .finish_reason = "stop",
    .answer = "play", .outcome = KOMI_PROVIDER_OUTCOME_ANSWER,
    .system_fingerprint = "fp_44709d6fcb", .response_id = "resp-7", .model_mismatch = TRUE,
    .logprobs_requested = TRUE, .option_probabilities = "{\"play\":0.93,\"pass\":0.07}",
    .retry_delay = -1, .cost_usd = 0.00912,
  };
  KomiProviderAttempt third = second;
  gint64 series_id;

  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &series_id,
                                            &error));
  g_assert_true (sink->klass->call_attempt (sink, planned, 6, &first, &error));
  g_assert_no_error (error);
  g_assert_true (sink->klass->call_attempt (sink, planned, 6, &second, &error));
  g_assert_no_error (error);

  calls = read_calls (store, series_id);
  g_assert_cmpuint (calls->len, ==, 2);
  assert_attempt_recorded (call_at (calls, 0), 6, 1, &first);
  assert_attempt_recorded (call_at (calls, 1), 6, 2, &second);
  g_assert_cmpint (call_at (calls, 0)->series_id, ==, series_id);

  /* A crash: the process and its store go, and a new run resumes the
   * series and sends the call again. Its attempt numbers itself "1". */
  komi_store_sink_free (sink);
  komi_store_unref (store);
  store = test_open_store (f->path);
  sink = komi_store_new_sink (store);
  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &series_id,
                                            &error));
  third.attempt = 1;
  third.started = "2026-03-14T10:00:00.000Z";
  third.response_id = "resp-8";
  g_assert_true (sink->klass->call_attempt (sink, planned, 6, &third, &error));
  g_assert_no_error (error);

  g_clear_pointer (&calls, g_ptr_array_unref);
  calls = read_calls (store, series_id);
  g_assert_cmpuint (calls->len, ==, 3);
  assert_attempt_recorded (call_at (calls, 0), 6, 1, &first);
  assert_attempt_recorded (call_at (calls, 1), 6, 2, &second);
  assert_attempt_recorded (call_at (calls, 2), 6, 3, &third);
  g_assert_cmpint (call_at (calls, 2)->game_id, ==, call_at (calls, 0)->game_id);

  /* One game's attempts, without its series' other games'. */
  {
    g_autoptr(GPtrArray) game_calls = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                     komi_store_call_free);
    g_autoptr(GPtrArray) other_calls = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                      komi_store_call_free);
    gint64 game_id = call_at (calls, 0)->game_id;

    g_assert_true (sink->klass->call_attempt (sink, test_planned (series, 0), 2, &first,
                                              &error));
    g_assert_no_error (error);
    g_clear_pointer (&calls, g_ptr_array_unref);
    calls = read_calls (store, series_id);
    g_assert_cmpuint (calls->len, ==, 4);
    g_assert_true (komi_store_foreach_game_call (store, game_id, collect_call, game_calls,
                                                 &error));
    g_assert_no_error (error);
    g_assert_cmpuint (game_calls->len, ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        g_assert_cmpint (call_at (game_calls, i)->game_id, ==, game_id);
        g_assert_cmpuint (call_at (game_calls, i)->attempt, ==, i + 1);
      }
    for (guint i = 0; i < calls->len; i++)
      if (call_at (calls, i)->game_id != game_id)
        g_assert_true (komi_store_foreach_game_call (store, call_at (calls, i)->game_id,
                                                     collect_call, other_calls, &error));
    g_assert_cmpuint (other_calls->len, ==, 1);
    g_assert_cmpuint (call_at (other_calls, 0)->turn, ==, 2);
  }

  komi_store_sink_free (sink);
  komi_store_unref (store);
}

/* The attempt in flight as the provider reports it before sending. */
static KomiProviderAttempt
in_flight_of (const KomiProviderAttempt *a)
{
  return (KomiProviderAttempt) {
    .in_flight = TRUE, .question = a->question, .attempt = a->attempt, .started = a->started,
    .request_url = a->request_url, .request_headers = a->request_headers,
    .request_body = a->request_body, .tokens_input = -1, .tokens_output = -1,
    .tokens_reasoning = -1, .tokens_cached = -1, .outcome = KOMI_PROVIDER_OUTCOME_IN_FLIGHT,
    .logprobs_requested = a->logprobs_requested, .retry_delay = -1, .cost_usd = -1,
  };
}

/* A request is in the library before it is sent. Killed then, the row
 * stays, in flight; the resumed series marks it interrupted, and the call
 * sent again is the next attempt, completed in a row of its own. The
 * game's cost is the sum of its attempts'. */
static void
test_sink_in_flight (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(TestSeries) series = test_series_new ("in flight", 13, 1);
  const KomiPlannedGame *planned = test_planned (series, 0);
  g_autoptr(GBytes) answered = g_bytes_new_static ("{\"choice\":\"E5\"}", 16);
  g_autoptr(GPtrArray) calls = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GError) error = NULL;
  KomiStore *store = test_open_store (f->path);
  KomiSeriesSink *sink = komi_store_new_sink (store);
  KomiProviderAttempt lost = {
    .question = "best_point", .attempt = 1, .started = "2026-03-14T09:26:53.589Z",
    .request_url = "http://127.0.0.1:1/v1/chat/completions",
    .request_headers = "{\"accept\":\"application/json\"}",
    .request_body = "{\"model\":\"m\",\"n\":1}", .logprobs_requested = TRUE,
  };
  KomiProviderAttempt resent = {
    .question = "best_point", .attempt = 1, .started = "2026-03-14T09:30:00.000Z",
    .request_url = lost.request_url, .request_headers = lost.request_headers,
    .request_body = lost.request_body, .response_status = 200,
    .response_headers = "{}", .response_body = answered, .latency_ms = 40,
    .tokens_input = 1000, .tokens_output = 10, .tokens_reasoning = -1, .tokens_cached = -1,
    .model_version = "m", .answer = "E5", .outcome = KOMI_PROVIDER_OUTCOME_ANSWER,
    .logprobs_requested = TRUE, .retry_delay = -1, .cost_usd = 0.0125,
  };
  KomiProviderAttempt sent;
  const KomiStoreCall *c;
  gint64 series_id;

  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &series_id,
                                            &error));
  sent = in_flight_of (&lost);
  g_assert_true (sink->klass->call_attempt (sink, planned, 3, &sent, &error));
  g_assert_no_error (error);
  /* What a reader sees while the request is out. */
  calls = read_calls (store, series_id);
  g_assert_cmpuint (calls->len, ==, 1);
  c = call_at (calls, 0);
  g_assert_cmpstr (c->outcome, ==, KOMI_STORE_OUTCOME_IN_FLIGHT);
  g_assert_cmpstr (c->request_body, ==, lost.request_body);
  g_assert_cmpstr (c->request_headers, ==, lost.request_headers);
  g_assert_cmpstr (c->started, ==, lost.started);
  g_assert_cmpint (c->response_status, ==, 0);
  g_assert_null (c->response_body);
  g_assert_cmpfloat (c->latency_ms, ==, -1);
  g_assert_cmpfloat (c->cost_usd, ==, -1);
  g_assert_true (c->logprobs_requested);

  /* Killed: no completion ever comes. */
  komi_store_sink_free (sink);
  komi_store_unref (store);
  store = test_open_store (f->path);
  sink = komi_store_new_sink (store);
  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &series_id,
                                            &error));
  sent = in_flight_of (&resent);
  g_assert_true (sink->klass->call_attempt (sink, planned, 3, &sent, &error));
  g_assert_true (sink->klass->call_attempt (sink, planned, 3, &resent, &error));
  g_assert_no_error (error);
  /* The response commits with the game's next write; here there is none. */
  g_assert_true (sink->klass->game_left (sink, planned, &error));
  g_assert_no_error (error);

  g_clear_pointer (&calls, g_ptr_array_unref);
  calls = read_calls (store, series_id);
  g_assert_cmpuint (calls->len, ==, 2);
  c = call_at (calls, 0);
  g_assert_cmpuint (c->attempt, ==, 1);
  g_assert_cmpstr (c->outcome, ==, KOMI_STORE_OUTCOME_INTERRUPTED);
  g_assert_nonnull (strstr (c->error, "sent again"));
  g_assert_cmpstr (c->request_body, ==, lost.request_body);
  g_assert_null (c->response_body);
  assert_attempt_recorded (call_at (calls, 1), 3, 2, &resent);

  /* The game's cost: the one answered attempt (the lost one is unknown). */
  games = komi_store_list_games (store, series_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((KomiStoreGame *) games->pdata[0])->n_calls, ==, 2);
  g_assert_cmpfloat_with_epsilon (((KomiStoreGame *) games->pdata[0])->cost_usd, 0.0125, 1e-12);
  g_assert_cmpuint (((KomiStoreGame *) games->pdata[1])->n_calls, ==, 0);
  g_assert_true (isnan (((KomiStoreGame *) games->pdata[1])->cost_usd));

  /* A completion for a row no longer in flight is refused, not merged. */
  g_assert_false (komi_store_finish_call (store, call_at (calls, 0)->id,
                                          &(KomiStoreCall) { .question = "best_point",
                                                             .turn = 3, .outcome = "answer" },
                                          &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT);

  komi_store_sink_free (sink);
  komi_store_unref (store);
}

/* A game the series did not plan is an error, and nothing is written. */
static void
test_sink_unknown_game (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(TestSeries) series = test_series_new ("unknown", 5, 1);
  g_autoptr(KomiStore) store = test_open_store (f->path);
  g_autoptr(GError) error = NULL;
  g_autofree char *n = NULL;
  KomiSeriesSink *sink = komi_store_new_sink (store);
  KomiPlannedGame stray = *test_planned (series, 0);
  KomiProviderAttempt a = { .question = "best_point", .outcome = KOMI_PROVIDER_OUTCOME_ANSWER,
                            .response_body = NULL, .retry_delay = -1 };
  gint64 series_id;

  /* Before begin_series. */
  g_assert_false (sink->klass->call_attempt (sink, &stray, 1, &a, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &series_id,
                                            &error));
  stray.index = 99;
  g_assert_false (sink->klass->call_attempt (sink, &stray, 1, &a, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND);
  n = sql_text (f->path, "SELECT count (*) FROM calls");
  g_assert_cmpstr (n, ==, "0");
  komi_store_sink_free (sink);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/store/calls/copy", test_call_copy);
  TEST ("migrate-from-1", test_migrate_from_1);
  TEST ("numbering", test_numbering);
  TEST ("sink-attempts", test_sink_attempts);
  TEST ("sink-unknown-game", test_sink_unknown_game);
  TEST ("sink-in-flight", test_sink_in_flight);
  return g_test_run ();
}
