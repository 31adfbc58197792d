/* komi-cli-play.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <inttypes.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-coords.h"
#include "komi-model-player.h"

/* `play`: one game between two players, shown turn by turn when asked,
 * its count and result printed at the end. */

typedef struct
{
  gboolean show;
  gboolean redraw;    /* on a terminal: draw each turn over the last one */
  guint    delay_ms;
  const char *black_label;
  const char *white_label;
} ShowData;

static gboolean
show_move (const KomiGame *game, const KomiMove *move, gpointer user_data, GError **error)
{
  ShowData *show = user_data;

  if (!show->show)
    return TRUE;
  if (show->redraw)
    fputs ("\033[H\033[2J", stdout);
  komi_cli_print_turn (stdout, komi_game_get_size (game), komi_game_get_turns_played (game),
                       move, move->color == KOMI_BLACK ? show->black_label : show->white_label);
  komi_cli_print_board (stdout, game, move->point);
  fflush (stdout);
  if (show->delay_ms > 0)
    g_usleep ((gulong) show->delay_ms * 1000);
  return TRUE;
}

static gboolean
parse_seed (const char *text, guint64 *seed, GError **error)
{
  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, seed, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--seed must be a whole number from 0 to %" PRIu64 ", not “%s”"),
                   G_MAXUINT64, text);
      return FALSE;
    }
  return TRUE;
}

static int
run_game (const char *command,
          const char *black_spec,
          const char *white_spec,
          guint64     seed,
          int         orientation,
          const char *sgf_path,
          ShowData   *show,
          KomiCliEngineOptions *engine)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayer) black = NULL;
  g_autoptr(KomiPlayer) white = NULL;
  g_autoptr(KomiReferee) referee = NULL;
  g_autoptr(KomiGameRecord) record = NULL;
  KomiPlayerOptions popts;
  KomiMatchSettings settings = { 0, };

  if (orientation < 0 || orientation >= KOMI_N_ORIENTATIONS)
    {
    return komi_cli_usage (command, _("--orientation must be 0 to 7, not %d"), orientation);
    }
  komi_cli_engine_options_get (engine, &popts);
  if ((black = komi_player_new_from_any_spec (black_spec, &popts, &error)) == NULL
      || (white = komi_player_new_from_any_spec (white_spec, &popts, &error)) == NULL)
    return komi_cli_fail (command, error);
  referee = komi_cli_referee_new (engine, &error);
  if (error != NULL)
    return komi_cli_fail (command, error);

  settings.black = black;
  settings.white = white;
  settings.referee = referee;
  settings.size = 9;
  settings.komi = 7;
  settings.max_turns = KOMI_PROTOCOL_MAX_TURNS;
  settings.seed = seed;
  settings.orientation = (KomiOrientation) orientation;
  settings.on_move = show_move;
  settings.user_data = show;
  show->black_label = black_spec;
  show->white_label = white_spec;

  if (show->show)
    printf (_("X (Black): %s    O (White): %s    seed %" PRIu64
              "    komi 7, area scoring, positional superko, 120 turns\n"),
            black_spec, white_spec, seed);

  record = komi_match_play_game (&settings, NULL, &error);
  if (record == NULL)
    return komi_cli_fail (command, error);

  printf ("\n");
  komi_cli_print_record_result (stdout, record);
  if (sgf_path != NULL)
    {
      g_autofree char *sgf = komi_game_record_to_sgf (record);

      if (!komi_cli_write_file (sgf_path, sgf, &error))
        return komi_cli_fail (command, error);
      if (g_strcmp0 (sgf_path, "-") != 0)
        printf (_("Game record written to %s\n"), sgf_path);
    }
  return 0;
}

int
komi_cli_play (int argc, char **argv)
{
  const char *command = "play";
  g_autofree char *black = NULL, *white = NULL, *seed_text = NULL, *sgf = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(KomiCliEngineOptions) engine = { 0, };
  int orientation = 0, delay = -1, status;
  gboolean show_flag = FALSE;
  guint64 seed = 1;
  ShowData show = { 0, };
  const GOptionEntry play_entries[] = {
    { "black", 'b', 0, G_OPTION_ARG_STRING, &black,
      N_("Black's player: random, gnugo:LEVEL, katago:VISITS, gtp:'COMMAND LINE', "
         "mix:P:ENGINE or model:PROFILE.json"), N_("PLAYER") },
    { "white", 'w', 0, G_OPTION_ARG_STRING, &white, N_("White's player (same forms)"),
      N_("PLAYER") },
    { "seed", 's', 0, G_OPTION_ARG_STRING, &seed_text,
      N_("The game's seed; the players' seeds derive from it (default 1)"), N_("S") },
    { "orientation", 'o', 0, G_OPTION_ARG_INT, &orientation,
      N_("How models are shown the board, 0-7 (default 0)"), N_("K") },
    { "sgf", 0, 0, G_OPTION_ARG_FILENAME, &sgf,
      N_("Write the game record here (- for stdout)"), N_("FILE") },
    { "show", 0, 0, G_OPTION_ARG_NONE, &show_flag, N_("Print the board after every turn"),
      NULL },
    { "delay", 0, 0, G_OPTION_ARG_INT, &delay, N_("Milliseconds to pause after each shown turn"),
      N_("MS") },
    { NULL }
  };
  const KomiCliOptions parse = { command, N_("- play one game between two players"),
                                 .entries = play_entries, .engines = &engine,
                                 .hint = KOMI_CLI_HINT_SEE_HELP };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (!parse_seed (seed_text, &seed, &error))
    return komi_cli_fail (command, error);
  if (black == NULL || white == NULL)
    return komi_cli_usage (command, _("give both players, e.g. --black gnugo:1 --white random"));
  show.show = show_flag;
  show.delay_ms = delay >= 0 ? (guint) delay : 0;
  show.redraw = show.delay_ms > 0 && isatty (STDOUT_FILENO);

  return run_game (command, black, white, seed, orientation, sgf, &show, &engine);
}
