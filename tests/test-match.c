/* test-match.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "komi-match-game.h"
#include "komi-player-spec.h"
#include "komi-test-play.h"
#include "komi-sgf-record.h"
#include "komi-test-util.h"

static const char *fake_engine;

/* GNU Go against the random player, judged by GNU Go: the record is whole,
 * the SGF replays move for move, and its result is the count's. */
static void
test_gnugo_vs_random (void)
{
  g_autoptr(KomiGameRecord) record = NULL;
  g_autoptr(KomiSgfRecord) sgf = NULL;
  g_autoptr(KomiGame) replayed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL, *want = NULL, *got = NULL;
  KomiScore score;

  if (!have_gnugo ())
    return;
  record = play_game ("gnugo:1", "random", "gnugo", 3, NULL);
  g_assert_cmpint (record->outcome, ==, KOMI_OUTCOME_FINISHED);
  g_assert_true (komi_game_is_over (record->game));
  g_assert_cmpint (record->end_reason, !=, KOMI_END_NONE);
  g_assert_true (g_str_has_prefix (record->black_name, "GNU Go 3."));
  g_assert_true (g_str_has_prefix (record->white_name, "Random"));
  g_assert_nonnull (strstr (record->referee, "GNU Go"));
  g_assert_nonnull (strstr (record->black_settings, "\"level\""));

  /* The count is ours: recount from the final position and the dead list. */
  komi_score_area (komi_game_get_board (record->game), (KomiPoint *) record->dead->data,
                   record->dead->len, 7, &score);
  g_assert_cmpfloat (score.black_total, ==, record->score.black_total);
  g_assert_cmpfloat (score.white_total, ==, record->score.white_total);
  g_assert_cmpfloat (record->score.black_total + record->score.white_total
                     + record->score.dame, ==, 81 + 7);

  text = komi_game_record_to_sgf (record);
  sgf = komi_sgf_record_from_text (text, strlen (text), &error);
  g_assert_no_error (error);
  replayed = komi_sgf_record_replay (sgf, KOMI_PROTOCOL_MAX_TURNS, &error);
  g_assert_no_error (error);
  want = moves_text (record->game);
  got = moves_text (replayed);
  g_assert_cmpstr (got, ==, want);
  g_assert_cmpstr (sgf->result, ==, record->result);
  g_assert_cmpuint (sgf->dead->len, ==, record->dead->len);
  g_assert_nonnull (strstr (sgf->rules_text, "Positional superko"));
}

/* Engine-only games replay from their seed, move for move. */
static void
test_same_seed_same_game (void)
{
  g_autoptr(KomiGameRecord) a = NULL, b = NULL, c = NULL;
  g_autofree char *ma = NULL, *mb = NULL, *mc = NULL;

  if (!have_gnugo ())
    return;
  a = play_game ("gnugo:1", "random", NULL, 11, NULL);
  b = play_game ("gnugo:1", "random", NULL, 11, NULL);
  c = play_game ("gnugo:1", "random", NULL, 12, NULL);
  ma = moves_text (a->game);
  mb = moves_text (b->game);
  mc = moves_text (c->game);
  g_assert_cmpstr (ma, ==, mb);
  g_assert_cmpstr (ma, !=, mc);
  g_assert_cmpuint (a->black_seed, !=, a->white_seed);
}

static void
test_random_vs_random_turn_limit (void)
{
  g_autoptr(KomiGameRecord) record = play_game ("random", "random", NULL, 5, NULL);

  /* The random player never passes while it has a move: the limit ends it. */
  g_assert_cmpint (record->outcome, ==, KOMI_OUTCOME_FINISHED);
  g_assert_cmpint (record->end_reason, ==, KOMI_END_TURN_LIMIT);
  g_assert_cmpuint (komi_game_get_turns_played (record->game), ==, 120);
  g_assert_null (record->referee);
}

/* An engine that answers an occupied point voids the game: Komi is the
 * referee, and the move never reaches the board. */
static void
test_illegal_engine_move_voids (void)
{
  g_autofree char *spec = NULL;
  g_autoptr(KomiGameRecord) record = NULL;
  g_autofree char *sgf = NULL;

  if (fake_engine == NULL)
    {
      g_test_skip ("no fake engine given");
      return;
    }
  spec = g_strdup_printf ("gtp:%s --illegal", fake_engine);
  record = play_game ("random", spec, NULL, 1, NULL);
  g_assert_cmpint (record->outcome, ==, KOMI_OUTCOME_VOID);
  g_assert_cmpint (record->faulty, ==, KOMI_WHITE);
  g_assert_cmpstr (record->result, ==, "Void");
  g_assert_nonnull (strstr (record->void_reason, "occupied"));
  sgf = komi_game_record_to_sgf (record);
  g_assert_nonnull (strstr (sgf, "RE[Void]"));
}

static void
test_resignation_voids (void)
{
  g_autofree char *spec = NULL;
  g_autoptr(KomiGameRecord) record = NULL;

  if (fake_engine == NULL)
    {
      g_test_skip ("no fake engine given");
      return;
    }
  spec = g_strdup_printf ("gtp:%s --resign-after 2", fake_engine);
  record = play_game (spec, "random", NULL, 1, NULL);
  g_assert_cmpint (record->outcome, ==, KOMI_OUTCOME_VOID);
  g_assert_cmpint (record->faulty, ==, KOMI_BLACK);
  g_assert_cmpuint (komi_game_get_turns_played (record->game), ==, 4);
}

/* A game cut off after @cut moves and resumed by fresh players (new
 * processes) from its record ends exactly as the uninterrupted game. */
static void
check_resume (const char *black_spec, const char *white_spec, guint64 seed, guint cut)
{
  g_autoptr(KomiGameRecord) whole = play_game (black_spec, white_spec, NULL, seed, NULL);
  g_autoptr(KomiPlayer) black = komi_player_new_from_spec (black_spec, NULL, NULL);
  g_autoptr(KomiPlayer) white = komi_player_new_from_spec (white_spec, NULL, NULL);
  g_autoptr(KomiGameRecord) resumed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *want = moves_text (whole->game);
  g_autofree char *got = NULL;
  KomiMatchSettings settings = {
    .black = black, .white = white, .size = 9, .komi = 7,
    .max_turns = KOMI_PROTOCOL_MAX_TURNS, .seed = seed,
    .resume_moves = komi_game_get_moves (whole->game, NULL), .n_resume_moves = cut,
  };

  g_assert_cmpuint (komi_game_get_turns_played (whole->game), >, cut);
  resumed = komi_match_play_game (&settings, NULL, &error);
  g_assert_no_error (error);
  got = moves_text (resumed->game);
  g_assert_cmpstr (got, ==, want);
  g_assert_cmpstr (resumed->result, ==, whole->result);
}

static void
test_resume (void)
{
  check_resume ("random", "random", 21, 37);
  check_resume ("random", "random", 22, 1);
  if (!have_gnugo ())
    return;
  check_resume ("gnugo:1", "random", 23, 40);
  check_resume ("random", "gnugo:1", 24, 15);
}

/* A crash is forgiven once (restart, replay); a second voids the game. */
static void
test_second_crash_voids (void)
{
  g_autofree char *spec = NULL;
  g_autoptr(KomiGameRecord) record = NULL;

  if (fake_engine == NULL)
    {
      g_test_skip ("no fake engine given");
      return;
    }
  spec = g_strdup_printf ("gtp:%s --crash-after 3", fake_engine);
  record = play_game ("random", spec, NULL, 1, NULL);
  g_assert_cmpint (record->outcome, ==, KOMI_OUTCOME_VOID);
  g_assert_cmpint (record->faulty, ==, KOMI_WHITE);
  /* Three white answers, a crash; the restarted engine chooses its three
   * moves again on the way back and dies at the fourth as before. */
  g_assert_cmpuint (komi_game_get_turns_played (record->game), ==, 7);
  g_assert_nonnull (strstr (record->void_reason, "White"));
  g_assert_nonnull (strstr (record->void_reason, "exited with status 3"));
  g_assert_nonnull (record->void_reason);
}

/* A player that fails its Nth genmove with a chosen error, else passes
 * nothing but plays the first legal point: the model's faults, without a
 * model. */
typedef struct
{
  KomiPlayer parent;
  guint      fail_at;
  int        code;
  guint      calls;
} ScriptedPlayer;

static gboolean
scripted_genmove (KomiPlayer *player, const KomiGame *game, KomiPoint *move,
                  GCancellable *cancellable, GError **error)
{
  ScriptedPlayer *self = (ScriptedPlayer *) player;
  KomiPoint legal[KOMI_MAX_POINTS];

  if (++self->calls == self->fail_at)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, self->code, "scripted fault %d", self->code);
      return FALSE;
    }
  *move = komi_game_legal_points (game, legal) > 0 ? legal[0] : KOMI_PASS;
  return TRUE;
}

static void
scripted_free (KomiPlayer *player)
{
  g_free (player);
}

static const KomiPlayerClass scripted_class = {
  .kind = "model", .genmove = scripted_genmove, .free = scripted_free,
};

static KomiPlayer *
scripted_new (guint fail_at, int code)
{
  ScriptedPlayer *self = g_new0 (ScriptedPlayer, 1);

  _komi_player_init (&self->parent, &scripted_class, "scripted");
  self->parent.name = g_strdup ("Scripted");
  self->fail_at = fail_at;
  self->code = code;
  return &self->parent;
}

static KomiGameRecord *
play_scripted (KomiPlayer *black, KomiPlayer *white, GError **error)
{
  KomiMatchSettings settings = {
    .black = black, .white = white, .size = 9, .komi = 7,
    .max_turns = KOMI_PROTOCOL_MAX_TURNS, .seed = 1, .orientation = KOMI_ORIENTATION_ROTATE_90,
  };

  return komi_match_play_game (&settings, NULL, error);
}

/* A forfeit ends the game for the other side, apart from voids; a paused
 * provider or a setting to fix stops the game without a result. */
static void
test_forfeit_and_pause (void)
{
  g_autoptr(KomiPlayer) random = komi_player_new_from_spec ("random", NULL, NULL);
  g_autoptr(KomiPlayer) forfeiter = scripted_new (3, KOMI_PLAYER_ERROR_FORFEIT);
  g_autoptr(KomiPlayer) pauser = scripted_new (2, KOMI_PLAYER_ERROR_PAUSED);
  g_autoptr(KomiPlayer) fatal = scripted_new (1, KOMI_PLAYER_ERROR_FATAL);
  g_autoptr(KomiGameRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sgf = NULL;

  record = play_scripted (forfeiter, random, &error);
  g_assert_no_error (error);
  g_assert_cmpint (record->outcome, ==, KOMI_OUTCOME_FORFEIT);
  g_assert_cmpint (record->faulty, ==, KOMI_BLACK);
  g_assert_cmpstr (record->result, ==, "W+F");
  g_assert_cmpuint (komi_game_get_turns_played (record->game), ==, 4);
  g_assert_cmpint (record->orientation, ==, KOMI_ORIENTATION_ROTATE_90);
  sgf = komi_game_record_to_sgf (record);
  g_assert_nonnull (strstr (sgf, "RE[W+F]"));
  g_assert_nonnull (strstr (sgf, "Forfeit: Black"));

  g_assert_null (play_scripted (random, pauser, &error));
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PAUSED);
  g_clear_error (&error);
  g_assert_null (play_scripted (fatal, random, &error));
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_FATAL);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  fake_engine = argc > 1 ? argv[1] : NULL;

  g_test_add_func ("/komi/match/gnugo-vs-random", test_gnugo_vs_random);
  g_test_add_func ("/komi/match/same-seed-same-game", test_same_seed_same_game);
  g_test_add_func ("/komi/match/random-turn-limit", test_random_vs_random_turn_limit);
  g_test_add_func ("/komi/match/illegal-engine-move-voids", test_illegal_engine_move_voids);
  g_test_add_func ("/komi/match/resignation-voids", test_resignation_voids);
  g_test_add_func ("/komi/match/second-crash-voids", test_second_crash_voids);
  g_test_add_func ("/komi/match/resume", test_resume);
  g_test_add_func ("/komi/match/forfeit-and-pause", test_forfeit_and_pause);

  return g_test_run ();
}
