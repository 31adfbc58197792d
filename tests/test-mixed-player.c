/* test-mixed-player.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-mixed-player"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "komi-mixed-player.h"
#include "komi-protocol.h"
#include "komi-random-player.h"
#include "komi-series.h"
#include "komi-test-play.h"
#include "komi-test-util.h"

/* The ladder's bridging rungs, mix:P:ENGINE, against real GNU Go and the
 * fake engine's command log: what they play, what the engine is told, and
 * that a resumed or restarted game goes on as the uninterrupted one. */

static char *fake_engine;

/* One game between two player objects, optionally resumed from the first
 * @n_resume moves of @resume; every step must work. */
static KomiGameRecord *
play_players (KomiPlayer     *black,
              KomiPlayer     *white,
              gboolean        referee,
              guint64         seed,
              guint           max_turns,
              const KomiMove *resume,
              guint           n_resume)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiReferee) judge = NULL;
  KomiMatchSettings settings = {
    .black = black, .white = white, .size = 9, .komi = 7, .max_turns = max_turns,
    .seed = seed, .resume_moves = resume, .n_resume_moves = n_resume,
  };
  KomiGameRecord *record;

  if (referee)
    {
      judge = komi_referee_new ("gnugo", NULL, &error);
      g_assert_no_error (error);
      settings.referee = judge;
    }
  record = komi_match_play_game (&settings, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (record);
  return record;
}

static KomiPlayer *
new_player (const char *spec)
{
  g_autoptr(GError) error = NULL;
  KomiPlayer *player = komi_player_new_from_spec (spec, NULL, &error);

  g_assert_no_error (error);
  return player;
}

/* Replays @record and checks, from the documented construction alone,
 * that each of @color's turns is random exactly when its coin says so and
 * then is the random player's draw. Returns the number of random turns. */
static guint
check_construction (const KomiGameRecord *record, KomiColor color, double p)
{
  guint64 seed = color == KOMI_BLACK ? record->black_seed : record->white_seed;
  g_autoptr(KomiGame) replay = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  KomiPoint buf[KOMI_MAX_POINTS];
  KomiRng coin, moves;
  const KomiMove *played;
  guint n, n_random = 0;

  komi_rng_init (&coin, seed ^ KOMI_MIXED_COIN_SALT);
  komi_rng_init (&moves, seed);
  played = komi_game_get_moves (record->game, &n);
  for (guint i = 0; i < n; i++)
    {
      if (played[i].color == color
          && (double) (komi_rng_next (&coin) >> 11) * 0x1.0p-53 < p)
        {
          g_assert_cmpint (komi_random_choose (&moves, replay, buf), ==, played[i].point);
          n_random++;
        }
      g_assert_true (komi_game_play (replay, played[i].point, NULL));
    }
  return n_random;
}

/* The engine inside holds exactly the stones of the game's board. */
static void
assert_engine_in_sync (KomiPlayer *mixed, const KomiGame *game)
{
  KomiGtpEngine *engine = komi_gtp_player_get_engine (komi_mixed_player_get_engine (mixed));
  const KomiBoard *board = komi_game_get_board (game);
  KomiColor held[KOMI_MAX_POINTS] = { 0, };

  g_assert_nonnull (engine);
  for (KomiColor c = KOMI_BLACK; c <= KOMI_WHITE; c++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *reply = NULL;
      g_auto(GStrv) names = NULL;

      komi_gtp_engine_send (engine, c == KOMI_BLACK ? "list_stones black" : "list_stones white",
                            &reply, 10000, NULL, &error);
      g_assert_no_error (error);
      names = g_strsplit_set (reply, " \n", -1);
      for (guint i = 0; names[i] != NULL; i++)
        if (names[i][0] != '\0')
          held[pt (9, names[i])] = c;
    }
  for (KomiPoint p = 0; p < 81; p++)
    g_assert_cmpint (held[p], ==, komi_board_get (board, p));
}

static void
test_spec_errors (void)
{
  static const struct { const char *spec; const char *says; int part; } bad[] = {
    { "mix", "write mix:P:ENGINE, e.g. mix:0.5:gnugo:1", KOMI_PLAYER_SPEC_ERROR_SYNTAX },
    { "mix:0.5", "write mix:P:ENGINE", KOMI_PLAYER_SPEC_ERROR_SYNTAX },
    { "mix:0.5:", "write mix:P:ENGINE", KOMI_PLAYER_SPEC_ERROR_SYNTAX },
    { "mix:half:gnugo:1", "number from 0 to 1 written with a dot, like 0.25, not “half”",
      KOMI_PLAYER_SPEC_ERROR_CHANCE },
    { "mix:1.5:gnugo:1", "not “1.5”", KOMI_PLAYER_SPEC_ERROR_CHANCE },
    { "mix:-0.5:gnugo:1", "not “-0.5”", KOMI_PLAYER_SPEC_ERROR_CHANCE },
    { "mix:1e-1:gnugo:1", "not “1e-1”", KOMI_PLAYER_SPEC_ERROR_CHANCE },
    { "mix:nan:gnugo:1", "not “nan”", KOMI_PLAYER_SPEC_ERROR_CHANCE },
    { "mix:.:gnugo:1", "not “.”", KOMI_PLAYER_SPEC_ERROR_CHANCE },
    { "mix:0.5:gnugo:11", "GNU Go level must be a whole number from 0 to 10",
      KOMI_PLAYER_SPEC_ERROR_LEVEL },
    { "mix:0.5:random", "use gnugo:LEVEL (0–10), katago:VISITS or gtp:COMMAND",
      KOMI_PLAYER_SPEC_ERROR_KIND },
    { "mix:0.5:mix:0.5:gnugo:1", "Unknown engine “mix:0.5:gnugo:1”",
      KOMI_PLAYER_SPEC_ERROR_KIND },
  };
  const KomiPlayerOptions no_gnugo = { .gnugo_path = "/nonexistent/gnugo" };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayer) player = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(KomiPlayer) none = komi_player_new_from_spec (bad[i].spec, NULL, &error);

      g_assert_null (none);
      g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, bad[i].part);
      g_test_message ("%s: %s", bad[i].spec, error->message);
      g_assert_nonnull (strstr (error->message, bad[i].spec));
      g_assert_nonnull (strstr (error->message, bad[i].says));
      g_clear_error (&error);
    }

  /* A missing engine is found out before any game, as for gnugo:1. */
  player = komi_player_new_from_spec ("mix:0.5:gnugo:1", &no_gnugo, &error);
  g_assert_null (player);
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_BINARY);
  g_assert_nonnull (strstr (error->message, "install the Debian package gnugo"));
  g_clear_error (&error);

  /* Both ends of the range are fine: the tests below use them. */
  for (guint i = 0; i < 3; i++)
    {
      const char *good[] = { "mix:0:gnugo:0", "mix:1:gnugo:1", "mix:.25:gnugo:0" };
      g_autoptr(KomiPlayer) ok = komi_player_new_from_spec (good[i], NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (komi_player_get_kind (ok), ==, "mix");
      g_assert_cmpstr (ok->spec, ==, good[i]);
    }
}

/* P = 0 is the engine itself: the same game as gnugo:0 with that seed. */
static void
test_p0_is_the_engine (void)
{
  if (!have_gnugo ())
    return;
  for (KomiColor c = KOMI_BLACK; c <= KOMI_WHITE; c++)
    {
      g_autoptr(KomiPlayer) mixed = new_player ("mix:0:gnugo:0");
      g_autoptr(KomiPlayer) other = new_player ("random");
      g_autoptr(KomiGameRecord) got = NULL, want = NULL;
      g_autofree char *got_text = NULL, *want_text = NULL;

      got = play_players (c == KOMI_BLACK ? mixed : other, c == KOMI_BLACK ? other : mixed,
                          FALSE, 31 + c, KOMI_PROTOCOL_MAX_TURNS, NULL, 0);
      want = play_game (c == KOMI_BLACK ? "gnugo:0" : "random",
                        c == KOMI_BLACK ? "random" : "gnugo:0", NULL, 31 + c, NULL);
      got_text = moves_text (got->game);
      want_text = moves_text (want->game);
      g_assert_cmpstr (got_text, ==, want_text);
      g_assert_cmpuint (komi_mixed_player_get_n_random (mixed), ==, 0);
      g_assert_cmpuint (komi_mixed_player_get_n_turns (mixed), >, 10);
      g_assert_cmpint (got->outcome, ==, KOMI_OUTCOME_FINISHED);
    }
}

/* P = 1 is the random player with the same seed, and the engine, which
 * chose nothing, was still told every move. */
static void
test_p1_is_random (void)
{
  g_autoptr(KomiPlayer) mixed = NULL, engine = NULL;
  g_autoptr(KomiGameRecord) got = NULL, want = NULL;
  g_autofree char *got_text = NULL, *want_text = NULL;

  if (!have_gnugo ())
    return;
  mixed = new_player ("mix:1:gnugo:1");
  engine = new_player ("gnugo:1");
  got = play_players (engine, mixed, TRUE, 41, KOMI_PROTOCOL_MAX_TURNS, NULL, 0);
  want = play_game ("gnugo:1", "random", "gnugo", 41, NULL);
  got_text = moves_text (got->game);
  want_text = moves_text (want->game);
  g_assert_cmpstr (got_text, ==, want_text);
  g_assert_cmpstr (got->result, ==, want->result);
  g_assert_cmpuint (komi_mixed_player_get_n_random (mixed), ==,
                    komi_mixed_player_get_n_turns (mixed));
  g_assert_cmpuint (check_construction (got, KOMI_WHITE, 1), ==,
                    komi_mixed_player_get_n_turns (mixed));
  assert_engine_in_sync (mixed, got->game);
}

/* Half and half: the random turns are the documented draws, the engine is
 * in step with the board at the end, the settings say everything, and a
 * second run is the same game. */
static void
test_half_is_reproducible (void)
{
  g_autofree char *first = NULL;

  if (!have_gnugo ())
    return;
  for (guint run = 0; run < 2; run++)
    {
      g_autoptr(KomiPlayer) mixed = new_player ("mix:0.5:gnugo:1");
      g_autoptr(KomiPlayer) engine = new_player ("gnugo:1");
      g_autoptr(KomiGameRecord) record = NULL;
      g_autofree char *text = NULL, *seed = NULL;
      guint n_random;

      record = play_players (mixed, engine, TRUE, 51, KOMI_PROTOCOL_MAX_TURNS, NULL, 0);
      g_assert_cmpint (record->outcome, ==, KOMI_OUTCOME_FINISHED);
      n_random = check_construction (record, KOMI_BLACK, 0.5);
      g_assert_cmpuint (n_random, ==, komi_mixed_player_get_n_random (mixed));
      g_assert_cmpuint (n_random, >, 0);
      g_assert_cmpuint (n_random, <, komi_mixed_player_get_n_turns (mixed));
      assert_engine_in_sync (mixed, record->game);

      seed = g_strdup_printf ("\"seed\":\"%" G_GUINT64_FORMAT "\"", record->black_seed);
      g_assert_nonnull (strstr (record->black_settings, "\"kind\":\"mix\""));
      g_assert_nonnull (strstr (record->black_settings, "\"p\":0.5"));
      g_assert_nonnull (strstr (record->black_settings, seed));
      g_assert_nonnull (strstr (record->black_settings, "\"level\":1"));
      g_assert_nonnull (strstr (record->black_name, "GNU Go with 50% random moves"));

      text = moves_text (record->game);
      if (first == NULL)
        first = g_steal_pointer (&text);
      else
        g_assert_cmpstr (text, ==, first);
    }
}

/* A game cut after each of the @cuts (0-terminated) moves and continued
 * by fresh players (new GNU Go processes) ends exactly as the
 * uninterrupted game, played once for all the cuts. */
static void
check_resume (const char *black_spec, const char *white_spec, guint64 seed, const guint *cuts)
{
  g_autoptr(KomiGameRecord) whole = play_game (black_spec, white_spec, NULL, seed, NULL);
  g_autofree char *want = moves_text (whole->game);

  for (guint i = 0; cuts[i] != 0; i++)
    {
      g_autoptr(KomiPlayer) black = new_player (black_spec);
      g_autoptr(KomiPlayer) white = new_player (white_spec);
      g_autoptr(KomiGameRecord) resumed = NULL;
      g_autofree char *got = NULL;

      g_assert_cmpuint (komi_game_get_turns_played (whole->game), >, cuts[i]);
      resumed = play_players (black, white, FALSE, seed, KOMI_PROTOCOL_MAX_TURNS,
                              komi_game_get_moves (whole->game, NULL), cuts[i]);
      got = moves_text (resumed->game);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpstr (resumed->result, ==, whole->result);
      g_assert_cmpint (resumed->outcome, ==, KOMI_OUTCOME_FINISHED);
    }
}

/* GNU Go at levels 0 and 1: what is checked is the resume, not the
 * strength (the seed still steers GNU Go at level 0), and the last game's
 * two engines still differ in level. */
static void
test_resume (void)
{
  if (!have_gnugo ())
    return;
  check_resume ("mix:0.5:gnugo:0", "gnugo:0", 61, (const guint[]) { 1, 30, 0 });
  check_resume ("gnugo:0", "mix:0.3:gnugo:0", 62, (const guint[]) { 47, 0 });
  check_resume ("mix:0.7:gnugo:0", "mix:0.2:gnugo:1", 63, (const guint[]) { 20, 0 });
}

/* What the engine hears, from the fake engine's log: after clear_board,
 * each move of the game in order, "genmove" for the turns it chose and
 * "play" for every other move, the random turns included. */
static char *
expected_commands (const KomiGameRecord *record, KomiColor color, double p)
{
  KomiRng coin;
  GString *out = g_string_new (NULL);
  const KomiMove *moves;
  guint n;

  komi_rng_init (&coin, (color == KOMI_BLACK ? record->black_seed : record->white_seed)
                        ^ KOMI_MIXED_COIN_SALT);
  moves = komi_game_get_moves (record->game, &n);
  for (guint i = 0; i < n; i++)
    {
      char name[KOMI_NAME_LEN + 1];
      const char *c = moves[i].color == KOMI_BLACK ? "b" : "w";

      if (moves[i].color == color && (double) (komi_rng_next (&coin) >> 11) * 0x1.0p-53 >= p)
        g_string_append_printf (out, "genmove %s\n", c);
      else
        g_string_append_printf (out, "play %s %s\n", c, komi_point_to_name (9, moves[i].point,
                                                                            name));
    }
  return g_string_free (out, FALSE);
}

/* The commands of @log after its @nth "clear_board" (from 1), game moves
 * only, without their ids. */
static char *
logged_commands (const char *log, guint nth)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GString *out = g_string_new (NULL);
  guint seen = 0;

  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *command = lines[i];

      /* Past the GTP command id. */
      while (g_ascii_isdigit (*command))
        command++;
      while (*command == ' ')
        command++;
      if (g_str_equal (command, "clear_board"))
        seen++;
      else if (seen == nth && (g_str_has_prefix (command, "play ")
                               || g_str_has_prefix (command, "genmove ")))
        g_string_append_printf (out, "%s\n", command);
    }
  g_assert_cmpuint (seen, >=, nth);
  return g_string_free (out, FALSE);
}

/* The engine dies mid-game and is restarted: the replay tells it the
 * random turns and asks it again for its own, exactly as before. */
static void
test_engine_hears_every_move (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-mixed-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "log", NULL);
  g_autofree char *once = g_build_filename (dir, "crashed", NULL);
  g_autofree char *spec = NULL, *want = NULL, *first = NULL, *replayed = NULL;
  g_autoptr(KomiPlayer) mixed = NULL, other = NULL;
  g_autoptr(KomiGameRecord) record = NULL;

  if (fake_engine == NULL)
    {
      g_test_skip ("no fake engine given");
      return;
    }
  /* The fake engine knows no captures, so the game stays short. */
  spec = g_strdup_printf ("mix:0.5:gtp:%s --log %s --crash-after 4 --crash-once %s",
                          fake_engine, log, once);
  mixed = new_player (spec);
  other = new_player ("random");
  record = play_players (other, mixed, FALSE, 71, 24, NULL, 0);
  g_assert_cmpint (record->outcome, ==, KOMI_OUTCOME_FINISHED);
  g_assert_cmpuint (komi_game_get_turns_played (record->game), ==, 24);
  g_assert_cmpuint (komi_gtp_player_get_restarts (komi_mixed_player_get_engine (mixed)), ==, 1);
  g_assert_true (g_file_test (once, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (komi_mixed_player_get_n_random (mixed), >, 0);

  /* The second process heard the whole game, the first a prefix of it. */
  want = expected_commands (record, KOMI_WHITE, 0.5);
  first = logged_commands (log, 1);
  replayed = logged_commands (log, 2);
  g_assert_cmpstr (replayed, ==, want);
  g_assert_true (g_str_has_prefix (want, first));
  g_assert_cmpuint (strlen (first), <, strlen (want));
  g_test_message ("%s", want);

  g_unlink (log);
  g_unlink (once);
  g_rmdir (dir);
}

/* The example calibration files load, and their games link the random
 * player to GNU Go level 5 in one chain of neighbours, each member playing
 * the next: the default pin can be placed only through such a chain. */
static void
test_ladder_examples (void)
{
  const char *chain[] = { "random", "mix:0.9:gnugo:1", "mix:0.75:gnugo:1", "mix:0.5:gnugo:1",
                          "mix:0.35:gnugo:1", "mix:0.2:gnugo:1", "gnugo:1", "gnugo:5" };
  g_autoptr(GHashTable) edges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint part = 1; part <= 4; part++)
    {
      g_autofree char *name = g_strdup_printf ("ladder-calibration-%u.json", part);
      g_autofree char *path = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "data",
                                                "examples", name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(KomiSeries) series = komi_series_load (path, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (series->jobs, <=, 2);
      for (guint i = 0; i < series->opponents->len; i++)
        {
          KomiSeriesOpponent *o = g_ptr_array_index (series->opponents, i);

          g_assert_cmpuint (o->pairs, >=, 8);
          g_hash_table_add (edges, g_strdup_printf ("%s %s", series->subject, o->player));
          g_hash_table_add (edges, g_strdup_printf ("%s %s", o->player, series->subject));
        }
    }
  g_assert_cmpuint (g_hash_table_size (edges), ==, 2 * (G_N_ELEMENTS (chain) - 1));
  for (guint i = 0; i + 1 < G_N_ELEMENTS (chain); i++)
    {
      g_autofree char *edge = g_strdup_printf ("%s %s", chain[i], chain[i + 1]);

      g_assert_true (g_hash_table_contains (edges, edge));
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  fake_engine = fake_engine_path (argc, argv);

  g_test_add_func ("/komi/mixed/spec-errors", test_spec_errors);
  g_test_add_func ("/komi/mixed/p0-is-the-engine", test_p0_is_the_engine);
  g_test_add_func ("/komi/mixed/p1-is-random", test_p1_is_random);
  g_test_add_func ("/komi/mixed/half-is-reproducible", test_half_is_reproducible);
  g_test_add_func ("/komi/mixed/resume", test_resume);
  g_test_add_func ("/komi/mixed/engine-hears-every-move", test_engine_hears_every_move);
  g_test_add_func ("/komi/mixed/ladder-examples", test_ladder_examples);

  return g_test_run ();
}
