/* test-app-live-run.c: the live state of a run, from its events alone,
 * without a display.
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-live-run.h"
#include "komi-store.h"

static void
tell (KomiLiveRun *live, KomiRunEventKind kind, gint64 game_id, guint turn)
{
  g_autoptr(KomiLiveEvent) event = komi_live_event_new (kind, game_id);

  event->turn = turn;
  komi_live_run_apply (live, event);
}

static void
tell_move (KomiLiveRun *live, gint64 game_id, guint turn, KomiColor color, KomiPoint point)
{
  g_autoptr(KomiLiveEvent) event = komi_live_event_new (KOMI_RUN_EVENT_MOVE_PLAYED, game_id);

  event->turn = turn;
  event->move = (KomiMove) { color, point };
  komi_live_run_apply (live, event);
}

static void
tell_call (KomiLiveRun *live, gint64 game_id, gint64 call_id, guint turn, const char *answer)
{
  g_autoptr(KomiLiveEvent) event = komi_live_event_new (KOMI_RUN_EVENT_CALL_ANSWERED, game_id);
  KomiStoreCall call = {
    .id = call_id, .turn = turn, .question = "play_or_pass",
    .answer = answer, .outcome = "ok",
    .tokens_input = -1, .tokens_output = -1, .tokens_reasoning = -1,
  };

  event->turn = turn;
  event->call = komi_store_call_copy (&call);
  komi_live_run_apply (live, event);
}

/* Following moves from game to game as they start and end, the way the
 * page follows a run with two games at a time; not following, nothing
 * moves. */
static void
test_follow (void)
{
  g_autoptr(KomiLiveRun) live = komi_live_run_new ();

  /* Nothing is followed before the user asks for it. */
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 11, 0);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 0);
  komi_live_run_set_following (live, TRUE);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 11);

  /* A second game in play does not take over from the first … */
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 12, 0);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 11);
  g_assert_cmpuint (komi_live_run_get_n_playing (live), ==, 2);
  /* … until the first ends. */
  tell (live, KOMI_RUN_EVENT_GAME_FINISHED, 11, 0);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 12);
  /* The last one in play ends: it stays until the next starts. */
  tell (live, KOMI_RUN_EVENT_GAME_FINISHED, 12, 0);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 12);
  g_assert_cmpuint (komi_live_run_get_n_playing (live), ==, 0);
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 13, 0);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 13);

  /* The user picked another game: the run goes on without the page. */
  komi_live_run_set_following (live, FALSE);
  tell (live, KOMI_RUN_EVENT_GAME_FINISHED, 13, 0);
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 14, 0);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 13);
  /* Back at the latest move of a game in play: that game is followed. */
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 15, 0);
  komi_live_run_follow_game (live, 15);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 15);
  tell (live, KOMI_RUN_EVENT_GAME_FINISHED, 15, 0);
  g_assert_cmpint (komi_live_run_get_followed (live), ==, 14);
}

/* The moves counted are the run's: a resumed game counts from the moves it
 * resumed with; the library's count wins only when it knows more. */
static void
test_moves (void)
{
  g_autoptr(KomiLiveRun) live = komi_live_run_new ();

  g_assert_cmpuint (komi_live_run_count_moves (live, 21, 7), ==, 7);
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 21, 0);
  for (guint turn = 1; turn <= 24; turn++)
    tell_move (live, 21, turn, turn % 2 ? KOMI_BLACK : KOMI_WHITE, turn);
  g_assert_cmpuint (komi_live_run_count_moves (live, 21, 0), ==, 24);
  g_assert_cmpuint (komi_live_run_count_moves (live, 21, 30), ==, 30);
  /* A turn out of order is not a move of the game. */
  tell_move (live, 21, 30, KOMI_BLACK, 40);
  g_assert_cmpuint (komi_live_run_count_moves (live, 21, 0), ==, 24);

  /* Resumed after 5 moves: its next move is the 6th. */
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 22, 5);
  g_assert_cmpuint (komi_live_run_count_moves (live, 22, 0), ==, 5);
  tell_move (live, 22, 6, KOMI_WHITE, 3);
  g_assert_cmpuint (komi_live_run_count_moves (live, 22, 0), ==, 6);
  g_assert_cmpuint (komi_live_run_get_game (live, 22)->first_turn, ==, 6);
}

static KomiReplay *
replay_of (gint64 id, const KomiMove *moves, guint n_moves)
{
  KomiStoreGame *game = g_new0 (KomiStoreGame, 1);
  g_autoptr(GError) error = NULL;
  KomiReplay *replay;

  game->id = id;
  game->size = 9;
  game->status = KOMI_GAME_STATUS_RUNNING;
  game->moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  g_array_append_vals (game->moves, moves, n_moves);
  game->n_moves = n_moves;
  replay = komi_replay_new (game, &error);
  g_assert_no_error (error);
  return replay;
}

/* The calls of a move in words: an answer the model gave on its turned
 * board named on the board shown too, and the model's version after it
 * in words, not in a second pair of parentheses. */
static void
test_describe_calls (void)
{
  const KomiMove moves[] = { { KOMI_BLACK, 0 } };
  g_autoptr(KomiReplay) replay = replay_of (41, moves, G_N_ELEMENTS (moves));
  KomiStoreCall call = {
    .id = 90, .turn = 1, .attempt = 1, .question = "play_or_pass",
    .latency_ms = 120, .tokens_input = 10, .tokens_output = 2, .answer = "J9",
    .outcome = "ok", .model_version = "rehearsal-model-3",
  };
  g_autofree char *text = NULL;

  /* The model saw the board turned 180°: its J9 is A1. */
  replay->game->orientation = KOMI_ORIENTATION_ROTATE_180;
  komi_replay_merge_call (replay, &call);
  text = komi_replay_describe_calls (replay, 1, KOMI_ORIENTATION_IDENTITY);
  g_assert_nonnull (strstr (text, "answered J9 (A1 on this board), model rehearsal-model-3"));
  g_assert_null (strstr (text, ") ("));
}

/* A read of the game from before the run's latest news is brought up to
 * it: the moves since (a capture among them) and the calls answered, an
 * attempt the read had in flight given its answer, none twice. */
static void
test_update_replay (void)
{
  g_autoptr(KomiLiveRun) live = komi_live_run_new ();
  const KomiMove moves[] = {
    { KOMI_BLACK, 1 }, { KOMI_WHITE, 0 }, { KOMI_BLACK, 9 }, { KOMI_WHITE, KOMI_PASS },
  };
  g_autoptr(KomiReplay) read = replay_of (31, moves, 2);
  g_autoptr(KomiReplay) whole = replay_of (31, moves, G_N_ELEMENTS (moves));
  KomiStoreCall in_flight = {
    .id = 70, .turn = 3, .attempt = 1, .question = "play_or_pass",
    .outcome = KOMI_STORE_OUTCOME_IN_FLIGHT,
  };
  g_autoptr(GError) error = NULL;
  const KomiStoreCall *call;

  komi_replay_merge_call (read, &in_flight);
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 31, 0);
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    tell_move (live, 31, i + 1, moves[i].color, moves[i].point);
  tell_call (live, 31, 70, 3, "B1");
  tell_call (live, 31, 71, 5, "C3");

  g_assert_true (komi_live_run_update_replay (live, read, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (read->n_steps, ==, whole->n_steps);
  g_assert_cmpuint (read->game->moves->len, ==, G_N_ELEMENTS (moves));
  g_assert_cmpuint (read->game->n_moves, ==, G_N_ELEMENTS (moves));
  for (guint step = 0; step < whole->n_steps; step++)
    g_assert_cmpmem (komi_replay_get_colors (read, step), 81,
                     komi_replay_get_colors (whole, step), 81);
  /* White's corner stone was taken at move 3. */
  g_assert_cmpuint (komi_replay_get_colors (read, 3)[0], ==, KOMI_EMPTY);
  g_assert_cmpuint (komi_replay_get_colors (read, 2)[0], ==, KOMI_WHITE);

  g_assert_cmpuint (read->calls->len, ==, 2);
  call = g_ptr_array_index (read->calls, 0);
  g_assert_cmpint (call->id, ==, 70);
  g_assert_cmpstr (call->outcome, ==, "ok");
  g_assert_cmpstr (call->answer, ==, "B1");
  /* Again: nothing is added twice. */
  g_assert_true (komi_live_run_update_replay (live, read, &error));
  g_assert_cmpuint (read->n_steps, ==, whole->n_steps);
  g_assert_cmpuint (read->calls->len, ==, 2);

  /* A game the run does not play is left as read. */
  {
    g_autoptr(KomiReplay) other = replay_of (32, moves, 1);

    g_assert_true (komi_live_run_update_replay (live, other, &error));
    g_assert_cmpuint (other->n_steps, ==, 2);
  }
}

static guint changed;

static void
on_changed (KomiLiveRun *live, gint64 game_id, guint kind, gpointer data)
{
  changed++;
}

/* The run's own events: paused, resumed, stopped (its games in play are
 * no longer), and a new run forgets the last one's games. */
static void
test_run_events (void)
{
  g_autoptr(KomiLiveRun) live = komi_live_run_new ();

  g_signal_connect (live, "game-changed", G_CALLBACK (on_changed), NULL);
  changed = 0;
  tell (live, KOMI_RUN_EVENT_GAME_STARTED, 41, 0);
  tell_move (live, 41, 1, KOMI_BLACK, 40);
  g_assert_cmpuint (changed, ==, 2);
  tell (live, KOMI_RUN_EVENT_RUN_PAUSED, 0, 0);
  g_assert_true (komi_live_run_get_paused (live));
  tell (live, KOMI_RUN_EVENT_RUN_RESUMED, 0, 0);
  g_assert_false (komi_live_run_get_paused (live));
  g_assert_cmpuint (changed, ==, 2);
  g_assert_cmpuint (komi_live_run_get_n_playing (live), ==, 1);
  tell (live, KOMI_RUN_EVENT_RUN_PAUSED, 0, 0);
  tell (live, KOMI_RUN_EVENT_RUN_STOPPED, 0, 0);
  g_assert_true (komi_live_run_get_over (live));
  g_assert_false (komi_live_run_get_paused (live));
  g_assert_cmpuint (komi_live_run_get_n_playing (live), ==, 0);
  g_assert_nonnull (komi_live_run_get_game (live, 41));

  komi_live_run_reset (live);
  g_assert_false (komi_live_run_get_over (live));
  g_assert_null (komi_live_run_get_game (live, 41));
  g_assert_cmpuint (komi_live_run_count_moves (live, 41, 0), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/app/live-run/follow", test_follow);
  g_test_add_func ("/komi/app/live-run/moves", test_moves);
  g_test_add_func ("/komi/app/live-run/update-replay", test_update_replay);
  g_test_add_func ("/komi/app/live-run/describe-calls", test_describe_calls);
  g_test_add_func ("/komi/app/live-run/run-events", test_run_events);
  return g_test_run ();
}
