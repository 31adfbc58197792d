/* test-store-decided.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "komi-coords.h"
#include "komi-store-private.h"
#include "komi-store-test-util.h"

/* Which answers decided each move (calls.decided, schema 6), and what a
 * resumed game learns of the turn it stopped in: through the sink as the
 * series runner uses it, across kills, and over a library of schema 5
 * written while a resumed turn was asked again from its first question. */

#define TEST(path, func) \
  g_test_add ("/komi/store/decided/" path, LibraryFixture, NULL, library_fixture_set_up, func, library_fixture_tear_down)

/* Every attempt of game @game_id in the order made:
 * "turn question attempt outcome decided" ("-" while unknown), by "; ". */
static char *
decided_text (const char *path, gint64 game_id)
{
  g_autofree char *sql = g_strdup_printf (
    "SELECT group_concat (turn || ' ' || question || ' ' || attempt || ' ' || outcome || ' ' "
    "  || coalesce (decided, '-'), '; ') FROM (SELECT * FROM calls WHERE game_id = %"
    G_GINT64_FORMAT " ORDER BY id)", game_id);

  return sql_text (path, sql);
}

/* One attempt as the model player reports it: in flight, then (unless
 * @killed) complete with @outcome and @answer. */
static void
report (KomiSeriesSink        *sink,
        const KomiPlannedGame *planned,
        guint                  turn,
        const char            *question,
        KomiProviderOutcome    outcome,
        const char            *answer,
        gboolean               killed)
{
  g_autoptr(GError) error = NULL;
  KomiProviderAttempt a = {
    .in_flight = TRUE, .question = question, .attempt = 1,
    .started = "2026-12-01T22:00:00.000Z", .request_url = "http://127.0.0.1:1/v1/messages",
    .request_headers = "{}", .request_body = "{}", .tokens_input = -1, .tokens_output = -1,
    .tokens_reasoning = -1, .tokens_cached = -1, .outcome = KOMI_PROVIDER_OUTCOME_IN_FLIGHT,
    .retry_delay = -1, .cost_usd = -1,
  };

  g_assert_true (sink->klass->call_attempt (sink, planned, turn, &a, &error));
  g_assert_no_error (error);
  if (killed)
    return;
  a.in_flight = FALSE;
  a.response_status = 200;
  a.latency_ms = 10;
  a.outcome = outcome;
  a.answer = answer;
  a.error = answer == NULL ? "not an option" : NULL;
  a.cost_usd = 0.001;
  g_assert_true (sink->klass->call_attempt (sink, planned, turn, &a, &error));
  g_assert_no_error (error);
}

static void
move (KomiSeriesSink *sink, const KomiPlannedGame *planned, KomiGame *game, guint turn,
      const char *name)
{
  g_autoptr(GError) error = NULL;
  KomiMove m = { komi_game_get_to_move (game), KOMI_PASS };

  g_assert_true (komi_point_from_name (9, name, &m.point));
  g_assert_true (komi_game_play (game, m.point, &error));
  g_assert_true (sink->klass->move_played (sink, planned, turn, &m, &error));
  g_assert_no_error (error);
}

/* A process killed: the sink and the store go without a word; a new
 * run begins the series again (which marks what was in flight). */
static KomiSeriesSink *
kill_and_resume (KomiSeriesSink *sink, KomiStore **store, const char *path, TestSeries *series)
{
  g_autoptr(GError) error = NULL;
  KomiSeriesSink *again;
  gint64 series_id;

  komi_store_sink_free (sink);
  komi_store_unref (*store);
  *store = test_open_store (path);
  again = komi_store_new_sink (*store);
  g_assert_true (again->klass->begin_series (again, &series->series, series->plan, &series_id,
                                             &error));
  g_assert_no_error (error);
  return again;
}

static void
assert_turn (KomiSeriesSink *sink, const KomiPlannedGame *planned, guint turn,
             const char *play_or_pass, const char *best_point, guint best_point_faults)
{
  g_auto(KomiModelTurn) state = { 0, };
  g_autoptr(GError) error = NULL;

  g_assert_true (sink->klass->turn_state (sink, planned, turn, &state, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (state.turn, ==, turn);
  g_assert_cmpstr (state.answers[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS], ==, play_or_pass);
  g_assert_cmpstr (state.answers[KOMI_PROTOCOL_QUESTION_BEST_POINT], ==, best_point);
  g_assert_cmpuint (state.model_faults[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS], ==, 0);
  g_assert_cmpuint (state.model_faults[KOMI_PROTOCOL_QUESTION_BEST_POINT], ==,
                    best_point_faults);
}

/* The answers of a turn decide its move when the move is committed, in
 * the same transaction; until then they are unknown. A turn killed while
 * its second question is out tells the resumed game the first answer and
 * the faults already spent; the move then played is decided by that first
 * answer and the resent second. A forfeit decides nothing. */
static void
test_settled_with_the_move (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(TestSeries) series = test_series_new ("decided", 7, 1);
  const KomiPlannedGame *planned = test_planned (series, 0);
  g_autoptr(KomiGameRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  KomiStore *store = test_open_store (f->path);
  KomiSeriesSink *sink = komi_store_new_sink (store);
  KomiGame *game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  gint64 series_id, game_id;

  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &series_id,
                                            &error));
  g_assert_no_error (error);
  g_assert_true (komi_store_find_game (store, series_id, planned->index, &game_id, &error));
  assert_turn (sink, planned, 1, NULL, NULL, 0);

  report (sink, planned, 1, "play_or_pass", KOMI_PROVIDER_OUTCOME_ANSWER, "place a stone",
          FALSE);
  report (sink, planned, 1, "best_point", KOMI_PROVIDER_OUTCOME_ANSWER, "E5", FALSE);
  text = decided_text (f->path, game_id);
  g_assert_cmpstr (text, ==, "1 play_or_pass 1 answer -; 1 best_point 1 in-flight -");
  move (sink, planned, game, 1, "E5");
  move (sink, planned, game, 2, "D4");
  g_free (text);
  text = decided_text (f->path, game_id);
  g_assert_cmpstr (text, ==, "1 play_or_pass 1 answer 1; 1 best_point 1 answer 1");

  /* Turn 3: answered, then killed with best_point out; resumed, one
   * invalid answer, killed again with the next one out. */
  report (sink, planned, 3, "play_or_pass", KOMI_PROVIDER_OUTCOME_ANSWER, "place a stone",
          FALSE);
  report (sink, planned, 3, "best_point", KOMI_PROVIDER_OUTCOME_IN_FLIGHT, NULL, TRUE);
  sink = kill_and_resume (sink, &store, f->path, series);
  assert_turn (sink, planned, 3, "place a stone", NULL, 0);
  report (sink, planned, 3, "best_point", KOMI_PROVIDER_OUTCOME_INVALID_OPTION, NULL, FALSE);
  report (sink, planned, 3, "best_point", KOMI_PROVIDER_OUTCOME_IN_FLIGHT, NULL, TRUE);
  sink = kill_and_resume (sink, &store, f->path, series);
  assert_turn (sink, planned, 3, "place a stone", NULL, 1);
  g_free (text);
  text = decided_text (f->path, game_id);
  g_assert_cmpstr (text, ==, "1 play_or_pass 1 answer 1; 1 best_point 1 answer 1; "
                             "3 play_or_pass 1 answer -; 3 best_point 1 interrupted -; "
                             "3 best_point 2 invalid-option -; 3 best_point 3 interrupted -");
  report (sink, planned, 3, "best_point", KOMI_PROVIDER_OUTCOME_ANSWER, "C3", FALSE);
  move (sink, planned, game, 3, "C3");
  move (sink, planned, game, 4, "pass");

  /* Turn 5: a stone, but no valid point in three attempts: a forfeit. */
  report (sink, planned, 5, "play_or_pass", KOMI_PROVIDER_OUTCOME_ANSWER, "place a stone",
          FALSE);
  for (guint i = 0; i < 3; i++)
    report (sink, planned, 5, "best_point", KOMI_PROVIDER_OUTCOME_INVALID_OPTION, NULL, FALSE);
  record = test_record_new (planned, game);
  record->outcome = KOMI_OUTCOME_FORFEIT;
  record->faulty = KOMI_BLACK;
  record->result = g_strdup ("W+F");
  record->void_reason = g_strdup ("Black forfeits: no valid answer to best_point");
  g_assert_true (sink->klass->game_finished (sink, planned, record, &error));
  g_assert_no_error (error);

  g_free (text);
  text = decided_text (f->path, game_id);
  g_assert_cmpstr (text, ==, "1 play_or_pass 1 answer 1; 1 best_point 1 answer 1; "
                             "3 play_or_pass 1 answer 1; 3 best_point 1 interrupted 0; "
                             "3 best_point 2 invalid-option 0; 3 best_point 3 interrupted 0; "
                             "3 best_point 4 answer 1; "
                             "5 play_or_pass 1 answer 0; 5 best_point 1 invalid-option 0; "
                             "5 best_point 2 invalid-option 0; 5 best_point 3 invalid-option 0");

  komi_store_sink_free (sink);
  komi_store_unref (store);
}

/* A library of schema 5, written by a Komi that asked a resumed turn
 * again from play_or_pass: each turn with a move was decided by the last
 * accepted answer of each question; the earlier answers, the faults and
 * the attempts of a forfeit decided nothing; a turn still open stays
 * unknown, and the resumed game continues it from its recorded answer. */
static void
test_migrate_from_5 (LibraryFixture *f, gconstpointer data)
{
  const KomiStoreMigration *migrations;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autofree char *version = NULL;
  g_autofree char *check = NULL;
  g_autofree char *one = NULL, *two = NULL, *three = NULL, *twice = NULL;
  g_auto(KomiModelTurn) state = { 0, };
  sqlite3 *db = NULL;
  guint n_migrations;

  migrations = _komi_store_get_migrations (&n_migrations);
  g_assert_cmpuint (n_migrations, >=, 6);
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_true (_komi_store_migrate (db, f->path, migrations, 5, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_exec (db,
    "INSERT INTO series (id, name, protocol, digest, definition, seed, subject, referee, "
    "  created, updated) VALUES (1, 'old', 1, 'd', '{}', '1', 'model:m.json', 'none', 't', 't');"
    "INSERT INTO games (id, series_id, plan_index, black_spec, white_spec, status) VALUES "
    "  (1, 1, 0, 'model:m.json', 'random', 'finished'), "
    "  (2, 1, 1, 'model:m.json', 'random', 'forfeit'), "
    "  (3, 1, 2, 'model:m.json', 'random', 'running');"
    "INSERT INTO moves (game_id, turn, color, point) VALUES (1, 1, 'B', 'E5'), "
    "  (1, 2, 'W', 'D4'), (1, 3, 'B', 'pass'), (1, 4, 'W', 'pass'), (2, 1, 'B', 'C3'), "
    "  (2, 2, 'W', 'pass');"
    /* Game 1, turn 1 killed with best_point out, asked again from the
     * start; turn 3 an invalid answer, then a pass. */
    "INSERT INTO calls (game_id, turn, question, attempt, started, answer, outcome) VALUES "
    "  (1, 1, 'play_or_pass', 1, 't', 'place a stone', 'answer'), "
    "  (1, 1, 'best_point', 1, 't', NULL, 'interrupted'), "
    "  (1, 1, 'play_or_pass', 2, 't', 'place a stone', 'answer'), "
    "  (1, 1, 'best_point', 2, 't', 'E5', 'answer'), "
    "  (1, 3, 'play_or_pass', 1, 't', NULL, 'invalid-option'), "
    "  (1, 3, 'play_or_pass', 2, 't', 'pass', 'answer'), "
    /* Game 2: a stone at turn 1; turn 3 killed with best_point out, asked
     * again: a pass this time (so the first answer was thrown away). */
    "  (2, 1, 'play_or_pass', 1, 't', 'place a stone', 'answer'), "
    "  (2, 1, 'best_point', 1, 't', 'C3', 'answer'), "
    "  (2, 3, 'play_or_pass', 1, 't', 'place a stone', 'answer'), "
    "  (2, 3, 'best_point', 1, 't', NULL, 'interrupted'), "
    "  (2, 3, 'play_or_pass', 2, 't', 'place a stone', 'answer'), "
    "  (2, 3, 'best_point', 2, 't', NULL, 'refusal'), "
    "  (2, 3, 'best_point', 3, 't', NULL, 'refusal'), "
    "  (2, 3, 'best_point', 4, 't', NULL, 'refusal'), "
    /* Game 3: killed with turn 1's best_point out. */
    "  (3, 1, 'play_or_pass', 1, 't', 'place a stone', 'answer'), "
    "  (3, 1, 'best_point', 1, 't', NULL, 'refusal'), "
    "  (3, 1, 'best_point', 2, 't', NULL, 'in-flight');",
    NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = test_open_store (f->path);
  version = sql_text (f->path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, G_STRINGIFY (KOMI_STORE_SCHEMA_VERSION));
  check = sql_text (f->path, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");

  one = decided_text (f->path, 1);
  g_assert_cmpstr (one, ==, "1 play_or_pass 1 answer 0; 1 best_point 1 interrupted 0; "
                            "1 play_or_pass 2 answer 1; 1 best_point 2 answer 1; "
                            "3 play_or_pass 1 invalid-option 0; 3 play_or_pass 2 answer 1");
  two = decided_text (f->path, 2);
  g_assert_cmpstr (two, ==, "1 play_or_pass 1 answer 1; 1 best_point 1 answer 1; "
                            "3 play_or_pass 1 answer 0; 3 best_point 1 interrupted 0; "
                            "3 play_or_pass 2 answer 0; 3 best_point 2 refusal 0; "
                            "3 best_point 3 refusal 0; 3 best_point 4 refusal 0");
  three = decided_text (f->path, 3);
  g_assert_cmpstr (three, ==, "1 play_or_pass 1 answer -; 1 best_point 1 refusal -; "
                              "1 best_point 2 in-flight -");
  /* Never two deciding answers to one question of one turn. */
  twice = sql_text (f->path, "SELECT count (*) FROM (SELECT 1 FROM calls WHERE decided = 1 "
                             "GROUP BY game_id, turn, question HAVING count (*) > 1)");
  g_assert_cmpstr (twice, ==, "0");

  /* The open turn is continued: its answer and its fault are known. */
  g_assert_true (komi_store_load_turn (store, 3, 1, &state, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (state.answers[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS], ==, "place a stone");
  g_assert_null (state.answers[KOMI_PROTOCOL_QUESTION_BEST_POINT]);
  g_assert_cmpuint (state.model_faults[KOMI_PROTOCOL_QUESTION_BEST_POINT], ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  TEST ("settled-with-the-move", test_settled_with_the_move);
  TEST ("migrate-from-5", test_migrate_from_5);
  return g_test_run ();
}
