/* test-store-sink.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "komi-coords.h"
#include "komi-series-runner.h"
#include "komi-store-sink.h"
#include "komi-store-test-util.h"

/* When a model call's response reaches the library through the sink: not
 * in a transaction of its own, but with the game's next write — the next
 * request, the move it decided, the game's end — or when the game is left
 * (a pause, a fault, a cancel) or the store closed. Until then a reader
 * sees the attempt in flight, as after a kill. */

#define TEST(path, func) \
  g_test_add ("/komi/store/sink/" path, LibraryFixture, NULL, library_fixture_set_up, func, library_fixture_tear_down)

/* The outcomes of every attempt, in order, as another process reads them. */
#define OUTCOMES "SELECT group_concat (outcome, ' ') FROM (SELECT outcome FROM calls ORDER BY id)"

typedef struct
{
  TestSeries     *series;
  KomiStore      *store;
  KomiSeriesSink *sink;
  GBytes         *body;
} SinkTest;

static void
sink_test_open (SinkTest *t, LibraryFixture *f, const char *name)
{
  g_autoptr(GError) error = NULL;
  gint64 series_id;

  t->series = test_series_new (name, 21, 1);
  t->store = test_open_store (f->path);
  t->sink = komi_store_new_sink (t->store);
  t->body = g_bytes_new_static ("{\"choice\":\"play\"}", 17);
  g_assert_true (t->sink->klass->begin_series (t->sink, &t->series->series, t->series->plan,
                                               &series_id, &error));
  g_assert_no_error (error);
}

static void
sink_test_close (SinkTest *t)
{
  komi_store_sink_free (t->sink);
  komi_store_unref (t->store);
  g_bytes_unref (t->body);
  test_series_free (t->series);
}

/* One attempt of @question at @turn through the sink: its request in
 * flight (@send), then its answer (@answer not NULL). */
static void
sink_test_call (SinkTest *t, guint turn, const char *question, gboolean send,
                const char *answer)
{
  g_autoptr(GError) error = NULL;
  const KomiPlannedGame *planned = test_planned (t->series, 0);
  KomiProviderAttempt a = {
    .in_flight = TRUE, .question = question, .attempt = 1,
    .request_url = "http://127.0.0.1:1/v1/chat/completions", .request_headers = "{}",
    .request_body = "{\"model\":\"m\"}", .tokens_input = -1, .tokens_output = -1,
    .tokens_reasoning = -1, .tokens_cached = -1, .outcome = KOMI_PROVIDER_OUTCOME_IN_FLIGHT,
    .retry_delay = -1, .cost_usd = -1,
  };

  if (send)
    {
      g_assert_true (t->sink->klass->call_attempt (t->sink, planned, turn, &a, &error));
      g_assert_no_error (error);
    }
  if (answer == NULL)
    return;
  a.in_flight = FALSE;
  a.response_status = 200;
  a.response_headers = "{}";
  a.response_body = t->body;
  a.latency_ms = 3;
  a.tokens_input = 900;
  a.tokens_output = 2;
  a.answer = answer;
  a.outcome = KOMI_PROVIDER_OUTCOME_ANSWER;
  a.cost_usd = 0.001;
  g_assert_true (t->sink->klass->call_attempt (t->sink, planned, turn, &a, &error));
  g_assert_no_error (error);
}

static void
assert_sql (const char *path, const char *sql, const char *want)
{
  g_autofree char *got = sql_text (path, sql);

  g_assert_cmpstr (got, ==, want);
}

/* A turn of two questions: each response commits with the request that
 * follows it, and the last with the move it decided, together. */
static void
test_response_with_move (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  SinkTest t;
  KomiMove move = { KOMI_BLACK, komi_point_from_xy (9, 4, 4) };

  sink_test_open (&t, f, "with move");
  sink_test_call (&t, 1, "play_or_pass", TRUE, "play");
  assert_sql (f->path, OUTCOMES, "in-flight");
  sink_test_call (&t, 1, "best_point", TRUE, NULL);
  assert_sql (f->path, OUTCOMES, "answer in-flight");
  sink_test_call (&t, 1, "best_point", FALSE, "E5");
  assert_sql (f->path, OUTCOMES, "answer in-flight");
  assert_sql (f->path, "SELECT count (*) FROM moves", "0");

  g_assert_true (t.sink->klass->move_played (t.sink, test_planned (t.series, 0), 1, &move,
                                             &error));
  g_assert_no_error (error);
  assert_sql (f->path, OUTCOMES, "answer answer");
  assert_sql (f->path, "SELECT count (*) FROM moves", "1");
  assert_sql (f->path, "SELECT answer FROM calls ORDER BY id DESC LIMIT 1", "E5");
  sink_test_close (&t);
}

/* A game left without a next write (paused, failed, cancelled): its last
 * response commits when the worker leaves it; once only. */
static void
test_game_left (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  const KomiPlannedGame *planned;
  SinkTest t;

  sink_test_open (&t, f, "left");
  planned = test_planned (t.series, 0);
  sink_test_call (&t, 1, "play_or_pass", TRUE, "pass");
  assert_sql (f->path, OUTCOMES, "in-flight");
  g_assert_true (t.sink->klass->game_left (t.sink, planned, &error));
  g_assert_no_error (error);
  assert_sql (f->path, OUTCOMES, "answer");
  g_assert_true (t.sink->klass->game_left (t.sink, planned, &error));
  g_assert_no_error (error);
  assert_sql (f->path, "SELECT count (*) FROM calls", "1");
  sink_test_close (&t);
}

/* A forfeit: the attempts that earned it are in the record with the
 * game's end. */
static void
test_forfeit (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  KomiGameRecord *record;
  SinkTest t;

  sink_test_open (&t, f, "forfeit");
  sink_test_call (&t, 1, "play_or_pass", TRUE, "maybe");
  sink_test_call (&t, 1, "play_or_pass", TRUE, "perhaps");
  assert_sql (f->path, OUTCOMES, "answer in-flight");
  record = test_record_new (test_planned (t.series, 0), komi_game_new (9, 120));
  record->outcome = KOMI_OUTCOME_FORFEIT;
  record->faulty = KOMI_BLACK;
  record->result = g_strdup ("W+F");
  record->void_reason = g_strdup ("no valid answer");
  g_assert_true (t.sink->klass->game_finished (t.sink, test_planned (t.series, 0), record,
                                               &error));
  g_assert_no_error (error);
  komi_game_record_free (record);
  assert_sql (f->path, OUTCOMES, "answer answer");
  assert_sql (f->path, "SELECT status FROM games WHERE plan_index = 0", "forfeit");
  sink_test_close (&t);
}

/* A normal exit without game_left (a caller that never left its game)
 * loses no response: closing the store commits it. */
static void
test_close (LibraryFixture *f, gconstpointer data)
{
  SinkTest t;

  sink_test_open (&t, f, "close");
  sink_test_call (&t, 3, "best_point", TRUE, "C3");
  assert_sql (f->path, OUTCOMES, "in-flight");
  sink_test_close (&t);
  assert_sql (f->path, OUTCOMES, "answer");
}

/* The same series begun again in the same process (a paused run resumed
 * with the library still open): a response kept for a game commits
 * first, so the row is not taken for one a crash left in flight. */
static void
test_begin_again (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  KomiSeriesSink *again;
  gint64 series_id;
  SinkTest t;

  sink_test_open (&t, f, "again");
  sink_test_call (&t, 2, "play_or_pass", TRUE, "play");
  /* The paused run ended, as the runner ends every run: its lock is free. */
  g_assert_true (t.sink->klass->end_run (t.sink, "paused", &error));
  g_assert_no_error (error);
  again = komi_store_new_sink (t.store);
  g_assert_true (again->klass->begin_series (again, &t.series->series, t.series->plan,
                                             &series_id, &error));
  g_assert_no_error (error);
  assert_sql (f->path, OUTCOMES, "answer");
  komi_store_sink_free (again);
  sink_test_close (&t);
}

/* While a run holds a series, a second one (another process, or here
 * another sink) is refused, and the run-start of a live run is not taken
 * for an interrupted one; once ended it is neither. A run whose lock goes
 * with no end recorded (a process killed) is. */
static void
test_runs (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) ids = NULL;
  KomiSeriesSink *other;
  gint64 series_id;
  SinkTest t;

  sink_test_open (&t, f, "runs");
  other = komi_store_new_sink (t.store);
  g_assert_false (other->klass->begin_series (other, &t.series->series, t.series->plan,
                                              &series_id, &error));
  g_assert_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_BUSY);
  g_clear_error (&error);
  ids = komi_store_list_interrupted (t.store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ids->len, ==, 0);
  g_clear_pointer (&ids, g_array_unref);

  /* Stopped on purpose: not interrupted. */
  g_assert_true (t.sink->klass->end_run (t.sink, "stopped", &error));
  ids = komi_store_list_interrupted (t.store, &error);
  g_assert_cmpuint (ids->len, ==, 0);
  g_clear_pointer (&ids, g_array_unref);

  /* Begun again, then dropped without an end: as a killed process leaves it. */
  g_assert_true (other->klass->begin_series (other, &t.series->series, t.series->plan,
                                             &series_id, &error));
  g_assert_no_error (error);
  komi_store_sink_free (other);
  ids = komi_store_list_interrupted (t.store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ids->len, ==, 1);
  g_assert_cmpint (g_array_index (ids, gint64, 0), ==, series_id);
  sink_test_close (&t);
}

typedef struct
{
  GMutex  lock;
  GArray *events;   /* Told */
} Observer;

typedef struct
{
  KomiRunEventKind kind;
  gint64           series_id;
  gint64           game_id;
  guint            plan_index;
  guint            turn;
  KomiMove         move;
  gint64           call_id;
} Told;

/* On the games' worker threads: what the observer is told, kept. */
static void
on_event (const KomiRunEvent *event, gpointer data)
{
  Observer *o = data;
  Told told = {
    event->kind, event->series_id, event->game_id, event->plan_index, event->turn,
    { 0, }, event->call_id,
  };

  if (event->move != NULL)
    told.move = *event->move;
  g_mutex_lock (&o->lock);
  g_array_append_val (o->events, told);
  g_mutex_unlock (&o->lock);
}

/* A series of four games, two at a time: the one observer is told of every
 * game's start, each move in turn order as the library has it, and its
 * end, last, all with the library's ids. */
static void
test_observer (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(TestSeries) series = test_series_new ("observed", 5, 2);   /* 4 games */
  g_autoptr(KomiStore) store = test_open_store (f->path);
  KomiSeriesSink *sink = komi_store_new_sink (store);
  g_autoptr(KomiSeriesResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Observer o = { .events = g_array_new (FALSE, FALSE, sizeof (Told)) };
  gint64 ids[4] = { 0, };
  gint64 series_id;

  g_mutex_init (&o.lock);
  komi_store_sink_set_observer (sink, on_event, &o);
  result = komi_series_run (&series->series, sink, 2, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  series_id = komi_store_sink_get_series_id (sink);
  g_assert_cmpint (series_id, >, 0);

  for (guint index = 0; index < series->plan->len; index++)
    {
      gint64 game_id = 0;
      guint turn = 0;
      gboolean started = FALSE, finished = FALSE;
      g_autoptr(KomiStoreGame) game = NULL;

      for (guint i = 0; i < o.events->len; i++)
        {
          const Told *t = &g_array_index (o.events, Told, i);

          if (t->plan_index != index)
            continue;
          g_assert_cmpint (t->series_id, ==, series_id);
          g_assert_false (finished);
          if (game_id == 0)
            game_id = t->game_id;
          g_assert_cmpint (t->game_id, ==, game_id);
          if (t->kind == KOMI_RUN_EVENT_GAME_STARTED)
            started = TRUE;
          g_assert_true (started);
          if (t->kind == KOMI_RUN_EVENT_MOVE_PLAYED)
            g_assert_cmpuint (t->turn, ==, ++turn);
          finished = t->kind == KOMI_RUN_EVENT_GAME_FINISHED;
        }
      g_assert_true (finished);
      /* The library's game of that plan index, with the moves told. */
      game = komi_store_load_game (store, game_id, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (game->plan_index, ==, index);
      g_assert_cmpuint (game->moves->len, ==, turn);
      g_assert_cmpuint (turn, >, 0);
      for (guint j = 0; j < index; j++)
        g_assert_cmpint (ids[j], !=, game_id);
      ids[index] = game_id;
    }
  komi_store_sink_free (sink);
  g_array_unref (o.events);
  g_mutex_clear (&o.lock);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  TEST ("response-with-move", test_response_with_move);
  TEST ("game-left", test_game_left);
  TEST ("forfeit", test_forfeit);
  TEST ("close", test_close);
  TEST ("begin-again", test_begin_again);
  TEST ("runs", test_runs);
  TEST ("observer", test_observer);

  return g_test_run ();
}
