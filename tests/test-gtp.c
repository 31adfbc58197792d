/* test-gtp.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-gtp"

#include "config.h"

#include <glib/gstdio.h>

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "komi-coords.h"
#include "komi-player-spec.h"
#include "komi-random-player.h"
#include "komi-test-util.h"

static char *fake_path;

/* "gtp:'/…/fake-gtp-engine' ARGS" */
static char *
fake_spec (const char *args)
{
  g_autofree char *quoted = g_shell_quote (fake_path);
  return g_strdup_printf ("gtp:%s %s", quoted, args);
}

static KomiPlayer *
new_player (const char *spec,
            guint       timeout_ms)
{
  KomiPlayerOptions opts = { .timeout_ms = timeout_ms, .start_timeout_ms = 10000 };
  g_autoptr(GError) error = NULL;
  KomiPlayer *player = komi_player_new_from_spec (spec, &opts, &error);

  g_assert_no_error (error);
  return player;
}

static void
start (KomiPlayer *player,
       KomiColor   color,
       guint64     seed)
{
  KomiGameSetup setup = { 9, 7.0, color, seed, KOMI_PROTOCOL_MAX_TURNS };
  g_autoptr(GError) error = NULL;

  g_assert_true (komi_player_start_game (player, &setup, NULL, &error));
  g_assert_no_error (error);
}

/* Plays @move for the side to move and tells @player about it. */
static void
play (KomiGame   *game,
      KomiPlayer *player,
      KomiPoint   move)
{
  g_autoptr(GError) error = NULL;
  KomiColor color = komi_game_get_to_move (game);

  g_assert_true (komi_game_play (game, move, &error));
  g_assert_no_error (error);
  g_assert_true (komi_player_notify_move (player, game, color, move, NULL, &error));
  g_assert_no_error (error);
}

/* The player's move at @game, played and notified. */
static KomiPoint
engine_turn (KomiGame   *game,
             KomiPlayer *player)
{
  g_autoptr(GError) error = NULL;
  KomiPoint move = KOMI_NO_POINT;

  g_assert_true (komi_player_genmove (player, game, &move, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (move == KOMI_PASS || komi_game_check (game, move) == KOMI_MOVE_OK);
  play (game, player, move);
  return move;
}

/* The opponent of the fake engine plays the last legal point, far from
 * the fake's first empty point from the top-left. */
static void
last_legal_turn (KomiGame   *game,
                 KomiPlayer *player)
{
  KomiPoint legal[KOMI_MAX_POINTS];
  guint n = komi_game_legal_points (game, legal);

  play (game, player, n > 0 ? legal[n - 1] : KOMI_PASS);
}

/* The engine's board, read back with list_stones, is ours. */
static void
assert_engine_matches (KomiPlayer     *player,
                       const KomiGame *game)
{
  KomiGtpEngine *engine = komi_gtp_player_get_engine (player);
  guint8 ours[81], theirs[81] = { 0 };

  komi_board_get_colors (komi_game_get_board (game), ours);
  for (KomiColor c = KOMI_BLACK; c <= KOMI_WHITE; c++)
    {
      g_autofree char *reply = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) names = NULL;

      g_assert_true (komi_gtp_engine_send (engine, c == KOMI_BLACK ? "list_stones black"
                                                                   : "list_stones white",
                                           &reply, 10000, NULL, &error));
      g_assert_no_error (error);
      names = g_strsplit_set (reply, " \n", -1);
      for (guint i = 0; names[i] != NULL; i++)
        {
          KomiPoint p;

          if (names[i][0] == '\0')
            continue;
          g_assert_true (komi_point_from_name (9, names[i], &p));
          theirs[p] = (guint8) c;
        }
    }
  g_assert_cmpmem (theirs, sizeof theirs, ours, sizeof ours);
}

/* The fake engine ----------------------------------------------------------- */

static void
test_engine_basic (void)
{
  const char *argv[] = { fake_path, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiGtpEngine) engine = komi_gtp_engine_new (argv, "Fake", 5000, NULL, &error);
  g_autofree char *reply = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (komi_gtp_engine_get_name (engine), ==, "Fake GTP");
  g_assert_cmpstr (komi_gtp_engine_get_version (engine), ==, "1.0");
  g_assert_cmpuint (komi_gtp_engine_get_pid (engine), >, 0);

  g_assert_true (komi_gtp_engine_send (engine, "boardsize 9", &reply, 5000, NULL, &error));
  g_assert_cmpstr (reply, ==, "");
  g_assert_false (komi_gtp_engine_send (engine, "frobnicate", NULL, 5000, NULL, &error));
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_GTP);
  g_assert_nonnull (strstr (error->message, "unknown command"));
  g_assert_true (komi_gtp_engine_is_running (engine));
  g_assert_cmpuint (komi_gtp_engine_get_n_commands (engine), ==, 4);

  komi_gtp_engine_close (engine, 1000);
  g_assert_false (komi_gtp_engine_is_running (engine));
  g_assert_cmpuint (komi_gtp_engine_get_pid (engine), ==, 0);
}

/* A pipelined batch is answered in order; a refusal in the middle is the
 * error, and every answer is still read, so the next command is in step. */
static void
test_engine_batch (void)
{
  const char *argv[] = { fake_path, NULL };
  const char *good[] = { "boardsize 9", "clear_board", "play b A1", "play w B1" };
  const char *bad[] = { "play b C1", "play w A1", "play b D1" };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiGtpEngine) engine = komi_gtp_engine_new (argv, "Fake", 5000, NULL, &error);
  g_autofree char *reply = NULL;

  g_assert_no_error (error);
  g_assert_true (komi_gtp_engine_send_many (engine, good, G_N_ELEMENTS (good), 5000, NULL,
                                            &error));
  g_assert_no_error (error);
  g_assert_false (komi_gtp_engine_send_many (engine, bad, G_N_ELEMENTS (bad), 5000, NULL,
                                             &error));
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_GTP);
  g_assert_nonnull (strstr (error->message, "play w A1"));
  g_clear_error (&error);
  /* D1 was played after the refusal; the stream is in step. */
  g_assert_true (komi_gtp_engine_send (engine, "list_stones black", &reply, 5000, NULL,
                                       &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (reply, "D1"));
  g_assert_nonnull (strstr (reply, "C1"));
  g_assert_true (komi_gtp_engine_is_running (engine));
}

static void
test_engine_start_failure (void)
{
  const char *failing[] = { fake_path, "--exit-at-start", NULL };
  const char *missing[] = { "/nonexistent/engine", NULL };
  g_autoptr(GError) error = NULL;

  g_assert_null (komi_gtp_engine_new (failing, "Fake", 5000, NULL, &error));
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_START);
  /* The engine's own last words make the message actionable. */
  g_assert_nonnull (strstr (error->message, "exiting at start as asked"));
  g_assert_nonnull (strstr (error->message, "status 2"));
  g_clear_error (&error);

  g_assert_null (komi_gtp_engine_new (missing, "Ghost", 5000, NULL, &error));
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_NOT_FOUND);
}

static void
test_fake_timeout (void)
{
  g_autofree char *spec = fake_spec ("--hang-after 1");
  g_autoptr(KomiPlayer) player = new_player (spec, 300);
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(GError) error = NULL;
  KomiPoint move;
  GPid pid;

  start (player, KOMI_BLACK, 1);
  engine_turn (game, player);
  last_legal_turn (game, player);

  pid = komi_gtp_engine_get_pid (komi_gtp_player_get_engine (player));
  g_assert_cmpint (pid, >, 0);
  g_assert_false (komi_player_genmove (player, game, &move, NULL, &error));
  /* The engine never answers, so returning at all is the timeout working;
   * the error says which wait ran out (no clock read here: a loaded
   * machine or a sanitizer build takes its time). */
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "within 0.3 s"));

  /* Killed and reaped: the pid is gone, not a zombie. */
  g_assert_false (komi_gtp_engine_is_running (komi_gtp_player_get_engine (player)));
  g_assert_cmpint (kill (pid, 0), ==, -1);
  g_assert_cmpint (errno, ==, ESRCH);
}

typedef struct
{
  GCancellable *cancellable;
  const char   *log;         /* the fake engine's log of commands received */
} CancelWhenAsked;

/* Cancels once the engine has the genmove (it never answers it), so the
 * cancel lands on a command in flight; gives up after a minute. */
static gpointer
cancel_when_asked (gpointer data)
{
  CancelWhenAsked *c = data;
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  for (;;)
    {
      g_autofree char *commands = NULL;

      if ((g_file_get_contents (c->log, &commands, NULL, NULL)
           && strstr (commands, "genmove") != NULL)
          || g_get_monotonic_time () > end)
        break;
      g_usleep (5000);
    }
  g_cancellable_cancel (c->cancellable);
  return NULL;
}

/* Cancelling a command in flight returns at once and stops the engine. */
static void
test_fake_cancel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-cancel-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "log", NULL);
  g_autofree char *args = g_strdup_printf ("--hang-after 0 --log %s", log);
  g_autofree char *spec = fake_spec (args);
  g_autoptr(KomiPlayer) player = new_player (spec, 10000);
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CancelWhenAsked cancel = { cancellable, log };
  GThread *thread;
  KomiPoint move;
  GPid pid;

  start (player, KOMI_BLACK, 1);
  pid = komi_gtp_engine_get_pid (komi_gtp_player_get_engine (player));
  thread = g_thread_new ("cancel", cancel_when_asked, &cancel);
  g_assert_false (komi_player_genmove (player, game, &move, cancellable, &error));
  g_thread_join (thread);
  /* Cancelled, not timed out (10 s): the cancel ended the wait. */
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (kill (pid, 0), ==, -1);
  g_unlink (log);
  g_rmdir (dir);
}

static void
test_fake_crash_restart (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-crash-XXXXXX", NULL);
  g_autofree char *marker = g_build_filename (dir, "crashed", NULL);
  g_autofree char *log = g_build_filename (dir, "log", NULL);
  g_autofree char *args = g_strdup_printf ("--crash-after 2 --crash-once %s --log %s",
                                           marker, log);
  g_autofree char *once_spec = fake_spec (args);
  g_autofree char *always_spec = fake_spec ("--crash-after 2");
  g_autoptr(KomiPlayer) player = new_player (once_spec, 5000);
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(GError) error = NULL;
  g_autofree char *commands = NULL;
  KomiPoint move;

  start (player, KOMI_BLACK, 1);
  for (guint i = 0; i < 2; i++)
    {
      engine_turn (game, player);
      last_legal_turn (game, player);
    }
  g_assert_cmpuint (komi_gtp_player_get_restarts (player), ==, 0);

  /* Genmove 3 crashes the first process: restarted, its own two moves
   * chosen again (not told), the opponent's played, then answered. */
  engine_turn (game, player);
  g_assert_cmpuint (komi_gtp_player_get_restarts (player), ==, 1);
  g_assert_nonnull (strstr (komi_gtp_player_get_fault (player), "exited with status 3"));
  assert_engine_matches (player, game);
  g_assert_true (g_file_get_contents (log, &commands, NULL, NULL));
  {
    g_auto(GStrv) generated = g_strsplit (commands, " genmove b\n", -1);
    g_auto(GStrv) told = g_strsplit (commands, " play b ", -1);

    /* Three asked of the first process (the third killed it), three of
     * the second: two again, one new; never a "play b". */
    g_assert_cmpuint (g_strv_length (generated) - 1, ==, 6);
    g_assert_cmpuint (g_strv_length (told) - 1, ==, 0);
  }
  last_legal_turn (game, player);
  engine_turn (game, player);
  g_unlink (marker);
  g_unlink (log);
  g_rmdir (dir);

  /* An engine that dies again on its way back: no second restart. */
  komi_player_end_game (player);
  g_clear_pointer (&player, komi_player_free);
  g_clear_pointer (&game, komi_game_free);
  player = new_player (always_spec, 5000);
  game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  start (player, KOMI_BLACK, 1);
  for (guint i = 0; i < 2; i++)
    {
      engine_turn (game, player);
      last_legal_turn (game, player);
    }
  g_assert_false (komi_player_genmove (player, game, &move, NULL, &error));
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED);
  g_assert_cmpuint (komi_gtp_player_get_restarts (player), ==, 1);
  g_clear_error (&error);

  /* A new game has a new budget. */
  g_clear_pointer (&game, komi_game_free);
  game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  komi_player_end_game (player);
  start (player, KOMI_BLACK, 2);
  engine_turn (game, player);
  g_assert_cmpuint (komi_gtp_player_get_restarts (player), ==, 0);
}

/* Faults that end the request with a given error, after @before good
 * genmoves by the fake engine (which plays black). */
static void
test_fake_faults (void)
{
  static const struct { const char *args; guint before; gint code; const char *text; } cases[] = {
    { "--resign-after 1", 1, KOMI_PLAYER_ERROR_RESIGNED, "resigned" },
    { "--garbage", 0, KOMI_PLAYER_ERROR_PROTOCOL, "this is not gtp" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *spec = fake_spec (cases[i].args);
      g_autoptr(KomiPlayer) player = new_player (spec, 5000);
      g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
      g_autoptr(GError) error = NULL;
      KomiPoint move;

      start (player, KOMI_BLACK, 1);
      for (guint m = 0; m < cases[i].before; m++)
        {
          engine_turn (game, player);
          last_legal_turn (game, player);
        }
      g_assert_false (komi_player_genmove (player, game, &move, NULL, &error));
      g_assert_error (error, KOMI_PLAYER_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].text));
    }
}

/* An occupied point is refused; the engine then holds a move the game
 * does not, so the next command first rebuilds the game in it. */
static void
test_fake_illegal_resync (void)
{
  g_autofree char *spec = fake_spec ("--illegal");
  g_autoptr(KomiPlayer) player = new_player (spec, 5000);
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(GError) error = NULL;
  KomiPoint move;

  start (player, KOMI_BLACK, 1);
  engine_turn (game, player);           /* A9: the board was empty */
  last_legal_turn (game, player);
  g_assert_false (komi_player_genmove (player, game, &move, NULL, &error));
  g_assert_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_ILLEGAL_MOVE);
  g_assert_nonnull (strstr (error->message, "A9"));
  last_legal_turn (game, player);
  assert_engine_matches (player, game);
}

/* The engine's own moves are not sent back to it; the opponent's are. */
static void
test_fake_skips_own_moves (void)
{
  g_autofree char *spec = fake_spec ("");
  g_autoptr(KomiPlayer) player = new_player (spec, 5000);
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);

  start (player, KOMI_BLACK, 1);
  for (guint i = 0; i < 4; i++)
    {
      engine_turn (game, player);
      last_legal_turn (game, player);
    }
  /* name, version, boardsize, clear_board, komi, then 4 × (genmove, play w). */
  g_assert_cmpuint (komi_gtp_engine_get_n_commands (komi_gtp_player_get_engine (player)), ==,
                    5 + 4 * 2);
  assert_engine_matches (player, game);
}

/* Specs ---------------------------------------------------------------------- */

/* Each malformed spec is refused with the part that is wrong as its code:
 * what a form marks its field by, whatever the message's language. */
static void
test_spec_bad (void)
{
  static const struct { const char *spec; int part; } bad[] = {
    { "", KOMI_PLAYER_SPEC_ERROR_KIND },
    { "foo", KOMI_PLAYER_SPEC_ERROR_KIND },
    { "gnugo1", KOMI_PLAYER_SPEC_ERROR_KIND },
    { "Random", KOMI_PLAYER_SPEC_ERROR_KIND },
    { "gtp", KOMI_PLAYER_SPEC_ERROR_KIND },
    { "model:x.json", KOMI_PLAYER_SPEC_ERROR_KIND },   /* the providers' to make */
    { "gnugo:11", KOMI_PLAYER_SPEC_ERROR_LEVEL },
    { "gnugo:-1", KOMI_PLAYER_SPEC_ERROR_LEVEL },
    { "gnugo:x", KOMI_PLAYER_SPEC_ERROR_LEVEL },
    { "gnugo:", KOMI_PLAYER_SPEC_ERROR_LEVEL },
    { "katago:0", KOMI_PLAYER_SPEC_ERROR_VISITS },
    { "katago:many", KOMI_PLAYER_SPEC_ERROR_VISITS },
    { "gtp:", KOMI_PLAYER_SPEC_ERROR_COMMAND },
    { "gtp:'unterminated", KOMI_PLAYER_SPEC_ERROR_COMMAND },
    { "mix", KOMI_PLAYER_SPEC_ERROR_SYNTAX },
    { "mix:0.5", KOMI_PLAYER_SPEC_ERROR_SYNTAX },
    { "mix:half:gnugo:1", KOMI_PLAYER_SPEC_ERROR_CHANCE },
    { "mix:0.5:gnugo:11", KOMI_PLAYER_SPEC_ERROR_LEVEL },
    { "mix:0.5:katago:0", KOMI_PLAYER_SPEC_ERROR_VISITS },
    { "mix:0.5:gtp:'unterminated", KOMI_PLAYER_SPEC_ERROR_COMMAND },
    { "mix:0.5:random", KOMI_PLAYER_SPEC_ERROR_KIND },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      KomiPlayerOptions opts = { .gnugo_path = GNUGO_PATH };

      g_test_message ("%s", bad[i].spec);
      g_assert_null (komi_player_new_from_spec (bad[i].spec, &opts, &error));
      g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, bad[i].part);
    }
}

/* The table of kinds: how each is written, what an absent argument
 * means, and the name a person reads (the application's names, the
 * messages that list the forms). */
static void
test_spec_kinds (void)
{
  static const struct
  {
    const char *spec;
    int         kind;
    const char *argument;
    const char *name;
  } cases[] = {
    { "random", KOMI_PLAYER_KIND_RANDOM, NULL, "Random player" },
    { "gnugo", KOMI_PLAYER_KIND_GNUGO, "10", "GNU Go level 10" },
    { "gnugo:3", KOMI_PLAYER_KIND_GNUGO, "3", "GNU Go level 3" },
    { "katago", KOMI_PLAYER_KIND_KATAGO, "100", "KataGo, 100 visits" },
    { "katago:200", KOMI_PLAYER_KIND_KATAGO, "200", "KataGo, 200 visits" },
    { "gtp:'/usr/games/gnugo' --mode gtp", KOMI_PLAYER_KIND_GTP, "'/usr/games/gnugo' --mode gtp",
      "gnugo" },
    { "gtp:'unterminated", KOMI_PLAYER_KIND_GTP, "'unterminated", NULL },
    { "mix:0.25:gnugo:5", KOMI_PLAYER_KIND_MIX, "0.25:gnugo:5",
      "GNU Go level 5 with 25% random moves" },
    { "mix:0.5:random", KOMI_PLAYER_KIND_MIX, "0.5:random", "Random player with 50% random moves" },
    { "mix:0.5:model:a.json", KOMI_PLAYER_KIND_MIX, "0.5:model:a.json", NULL },
    { "mix", KOMI_PLAYER_KIND_MIX, NULL, NULL },
    { "model:/profiles/rehearsal.json", KOMI_PLAYER_KIND_MODEL, "/profiles/rehearsal.json",
      "rehearsal" },
    { "model:", KOMI_PLAYER_KIND_MODEL, "", NULL },
  };
  static const char * const none[] = { "", "Random", "random:3", "gnugo1", "gtp", "model", "x:1" };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *argument = "unset";
      const KomiPlayerKind *kind = komi_player_kind_find (cases[i].spec, &argument);
      g_autofree char *name = NULL;

      g_test_message ("%s", cases[i].spec);
      g_assert_nonnull (kind);
      g_assert_cmpint (kind->id, ==, cases[i].kind);
      g_assert_true (komi_player_kind_get (kind->id) == kind);
      g_assert_cmpstr (argument, ==, cases[i].argument);
      name = kind->display_name (argument);
      g_assert_cmpstr (name, ==, cases[i].name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (none); i++)
    g_assert_null (komi_player_kind_find (none[i], NULL));

  /* The forms as the table lists them, every kind once. */
  g_assert_null (komi_player_new_from_spec ("foo", NULL, &error));
  g_assert_cmpstr (error->message, ==,
                   "Unknown player “foo”: use random, gnugo:LEVEL (0–10), katago:VISITS, "
                   "gtp:COMMAND, mix:P:ENGINE or model:PROFILE.json");
}

/* A missing file is refused before any game, its code naming which. */
static void
test_spec_missing (void)
{
  g_autofree char *here = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests",
                                            "test-gtp.c", NULL);
  KomiPlayerOptions opts = { .gnugo_path = "/nonexistent/gnugo",
                             .katago_binary = "/nonexistent/katago",
                             .katago_model = "/nonexistent/model.bin.gz",
                             .katago_config = "/nonexistent/gtp.cfg" };
  g_autoptr(GError) error = NULL;

  g_assert_null (komi_player_new_from_spec ("gnugo:1", &opts, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_BINARY);
  g_assert_cmpstr (error->message, ==,
                   "GNU Go not found at /nonexistent/gnugo: install the Debian package gnugo "
                   "or pass --gnugo PATH");
  g_clear_error (&error);

  g_assert_null (komi_player_new_from_spec ("katago:10", &opts, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_BINARY);
  g_assert_true (g_str_has_prefix (error->message,
                                   "KataGo binary not found at /nonexistent/katago."));
  g_clear_error (&error);
  /* The files in the order they are checked: the network, then the config. */
  opts.katago_binary = "/bin/true";
  g_assert_null (komi_player_new_from_spec ("katago:10", &opts, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_MODEL);
  g_assert_true (g_str_has_prefix (error->message,
                                   "KataGo model not found at /nonexistent/model.bin.gz."));
  g_clear_error (&error);
  opts.katago_model = here;
  g_assert_null (komi_player_new_from_spec ("mix:0.5:katago:10", &opts, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_CONFIG);
  g_assert_true (g_str_has_prefix (error->message,
                                   "KataGo config not found at /nonexistent/gtp.cfg."));
  g_clear_error (&error);

  if (g_getenv ("KOMI_KATAGO") == NULL && g_getenv ("KOMI_KATAGO_MODEL") == NULL
      && g_getenv ("KOMI_KATAGO_CONFIG") == NULL)
    {
      KomiPlayerOptions binary_only = { .katago_binary = "/bin/true" };

      g_assert_null (komi_player_new_from_spec ("katago:10", NULL, &error));
      g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_BINARY);
      g_assert_cmpstr (error->message, ==,
                       "KataGo needs a binary, a model and a config: set KOMI_KATAGO, "
                       "KOMI_KATAGO_MODEL and KOMI_KATAGO_CONFIG or pass "
                       "--katago-binary/--katago-model/--katago-config");
      g_clear_error (&error);
      g_assert_null (komi_player_new_from_spec ("katago:10", &binary_only, &error));
      g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_MODEL);
      g_clear_error (&error);
      binary_only.katago_model = here;
      g_assert_null (komi_player_new_from_spec ("katago:10", &binary_only, &error));
      g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_CONFIG);
      g_clear_error (&error);
    }

  g_assert_null (komi_player_new_from_spec ("gtp:/nonexistent/engine --fast", NULL, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_PROGRAM);
  g_clear_error (&error);
  g_assert_null (komi_player_new_from_spec ("mix:0.5:gtp:/nonexistent/engine", NULL, &error));
  g_assert_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_PROGRAM);
}

/* GNU Go --------------------------------------------------------------------- */

static void
test_gnugo_start (void)
{
  const guint64 seed = G_GUINT64_CONSTANT (0xfedcba9876543210);
  g_autoptr(KomiPlayer) player = NULL;
  g_autofree char *argv = NULL;

  if (!have_gnugo ())
    return;
  player = new_player ("gnugo:1", 10000);
  start (player, KOMI_BLACK, seed);
  g_assert_cmpstr (player->name, ==, "GNU Go");
  g_assert_cmpstr (player->version, ==, "3.8");

  /* The settings record the exact command line, level and seed. */
  argv = g_strdup_printf ("\"--mode\",\"gtp\",\"--chinese-rules\",\"--positional-superko\","
                          "\"--forbid-suicide\",\"--never-resign\",\"--komi\",\"7\","
                          "\"--boardsize\",\"9\",\"--level\",\"1\",\"--seed\",\"%d\"]",
                          komi_gtp_gnugo_seed (seed));
  g_assert_nonnull (strstr (player->settings, argv));
  g_assert_nonnull (strstr (player->settings, "\"seed\":\"18364758544493064720\""));
  g_assert_nonnull (strstr (player->settings, "\"level\":1,"));
}

static void
test_gnugo_genmove_legal (void)
{
  g_autoptr(KomiPlayer) player = NULL;
  g_autoptr(KomiPlayer) random = komi_random_player_new ();
  static const guint lengths[] = { 0, 7, 20 };

  if (!have_gnugo ())
    return;
  player = new_player ("gnugo:1", 10000);

  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
      KomiGameSetup setup = { 9, 7.0, KOMI_WHITE, 100 + i, KOMI_PROTOCOL_MAX_TURNS };

      /* Same seed each time: the running engine is reused after clear_board. */
      start (player, lengths[i] % 2 == 0 ? KOMI_BLACK : KOMI_WHITE, 5);
      g_assert_true (komi_player_start_game (random, &setup, NULL, NULL));
      for (guint m = 0; m < lengths[i] && !komi_game_is_over (game); m++)
        {
          KomiPoint move;
          g_assert_true (komi_player_genmove (random, game, &move, NULL, NULL));
          play (game, player, move);
        }
      engine_turn (game, player);
      assert_engine_matches (player, game);
      komi_player_end_game (player);
    }
}

/* Moves sent with notify_move, captures included, leave GNU Go's board
 * equal to ours. */
static void
test_gnugo_sync (void)
{
  static const char * const moves[] = {
    "E5", "E6", "D6", "pass", "F6", "pass", "E7",            /* E7 captures E6 */
    "C3", "G7", "G3", "C7", "pass", "D7", "H8", "F7",
  };
  g_autoptr(KomiPlayer) player = NULL;
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);

  if (!have_gnugo ())
    return;
  player = new_player ("gnugo:1", 10000);
  start (player, KOMI_WHITE, 3);

  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    {
      KomiPoint p;
      g_assert_true (komi_point_from_name (9, moves[i], &p));
      play (game, player, p);
    }
  g_assert_cmpuint (komi_board_count_stones (komi_game_get_board (game), KOMI_WHITE), ==, 3);
  assert_engine_matches (player, game);

  engine_turn (game, player);
  assert_engine_matches (player, game);
}

static void
play_gnugo_game (guint64  seed,
                 GString *record)
{
  g_autoptr(KomiPlayer) engine = new_player ("gnugo:1", 10000);
  g_autoptr(KomiPlayer) random = komi_random_player_new ();
  g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  KomiGameSetup setup = { 9, 7.0, KOMI_WHITE, 77, KOMI_PROTOCOL_MAX_TURNS };

  start (engine, KOMI_BLACK, seed);
  g_assert_true (komi_player_start_game (random, &setup, NULL, NULL));
  for (guint i = 0; i < 8 && !komi_game_is_over (game); i++)
    {
      char name[KOMI_NAME_LEN + 1];
      KomiPoint move = engine_turn (game, engine);

      g_string_append_printf (record, "%s ", komi_point_to_name (9, move, name));
      if (komi_game_is_over (game))
        break;
      g_assert_true (komi_player_genmove (random, game, &move, NULL, NULL));
      play (game, engine, move);
    }
}

static void
test_gnugo_determinism (void)
{
  g_autoptr(GString) first = g_string_new (NULL);
  g_autoptr(GString) second = g_string_new (NULL);

  if (!have_gnugo ())
    return;
  play_gnugo_game (99, first);
  play_gnugo_game (99, second);
  g_test_message ("GNU Go moves: %s", first->str);
  g_assert_cmpstr (first->str, ==, second->str);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  fake_path = fake_engine_path (argc, argv);

  g_test_add_func ("/komi/gtp/engine/basic", test_engine_basic);
  g_test_add_func ("/komi/gtp/engine/start-failure", test_engine_start_failure);
  g_test_add_func ("/komi/gtp/engine/batch", test_engine_batch);
  g_test_add_func ("/komi/gtp/fake/timeout", test_fake_timeout);
  g_test_add_func ("/komi/gtp/fake/cancel", test_fake_cancel);
  g_test_add_func ("/komi/gtp/fake/crash-restart", test_fake_crash_restart);
  g_test_add_func ("/komi/gtp/fake/faults", test_fake_faults);
  g_test_add_func ("/komi/gtp/fake/illegal", test_fake_illegal_resync);
  g_test_add_func ("/komi/gtp/fake/skips-own-moves", test_fake_skips_own_moves);
  g_test_add_func ("/komi/gtp/spec/bad", test_spec_bad);
  g_test_add_func ("/komi/gtp/spec/kinds", test_spec_kinds);
  g_test_add_func ("/komi/gtp/spec/missing", test_spec_missing);
  g_test_add_func ("/komi/gtp/gnugo/start", test_gnugo_start);
  g_test_add_func ("/komi/gtp/gnugo/genmove-legal", test_gnugo_genmove_legal);
  g_test_add_func ("/komi/gtp/gnugo/sync", test_gnugo_sync);
  g_test_add_func ("/komi/gtp/gnugo/determinism", test_gnugo_determinism);

  return g_test_run ();
}
