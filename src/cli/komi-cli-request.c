/* komi-cli-request.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-coords.h"
#include "komi-protocol-state.h"

/* `komi-cli request`: the exact text a model would receive at a position
 * reached by a list of moves, for checking the protocol by eye and in
 * scripts. Usage errors exit with 2, bad moves with 1. */

/* Plays @moves (protocol names or "pass", separated by white space) from
 * the start; an error names the move by number and as written. */
static gboolean
play_moves (KomiGame *game, const char *moves, GError **error)
{
  g_auto(GStrv) names = g_strsplit_set (moves, " \t\r\n", -1);
  guint size = komi_game_get_size (game);
  guint number = 0;

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr(GError) local = NULL;
      KomiPoint point;

      if (names[i][0] == '\0')
        continue;
      number++;
      if (!komi_point_from_name (size, names[i], &point))
        {
          g_set_error (error, KOMI_GO_ERROR, KOMI_GO_ERROR_BAD_POINT,
                       _("move %u (%s): not a point on the %ux%u board; name a point by its "
                         "column A-%c (there is no I) and row 1-%u, such as E5, or say pass"),
                       number, names[i], size, size, komi_column_letter (size - 1), size);
          return FALSE;
        }
      if (komi_game_is_over (game))
        {
          g_set_error (error, KOMI_GO_ERROR, KOMI_MOVE_GAME_OVER,
                       _("move %u (%s): the game is already over (%s); remove the moves "
                         "after it"), number, names[i],
                       komi_cli_end_reason_text (komi_game_get_end_reason (game)));
          return FALSE;
        }
      if (!komi_game_play (game, point, &local))
        {
          /* Translators: the move's number, as written, and why it is illegal */
          g_set_error (error, local->domain, local->code, _("move %u (%s): %s"),
                       number, names[i], local->message);
          return FALSE;
        }
    }
  return TRUE;
}

static char *
to_json_text (const KomiProtocolState *state)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "protocol");
  json_builder_add_int_value (builder, state->protocol);
  json_builder_set_member_name (builder, "orientation");
  json_builder_add_int_value (builder, state->orientation);
  json_builder_set_member_name (builder, "rules");
  json_builder_add_string_value (builder, komi_protocol_get_rules_text (state->protocol, NULL));
  json_builder_set_member_name (builder, "request");
  json_builder_add_value (builder, komi_protocol_state_to_json (state));
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  return json_generator_to_data (generator, NULL);
}

int
komi_cli_request (int argc, char **argv)
{
  g_autofree char *moves = NULL;
  int orientation = KOMI_ORIENTATION_IDENTITY;
  int size = 9;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "moves", 'm', 0, G_OPTION_ARG_STRING, &moves,
      N_("The moves played from the empty board, as protocol names or pass, "
         "separated by spaces (\"E5 C3 pass\")"), N_("MOVES") },
    { "orientation", 'o', 0, G_OPTION_ARG_INT, &orientation,
      N_("How the board is shown, 0-7: 0 as played, 1-3 turned 90°, 180°, 270° "
         "clockwise, 4 mirrored left-right, 5 top-bottom, 6 in the A9-J1 diagonal, "
         "7 in the A1-J9 diagonal"), N_("K") },
    { "size", 's', 0, G_OPTION_ARG_INT, &size,
      N_("Board size (default 9; the rules text of Protocol 1 says 9x9 regardless)"), N_("N") },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json,
      N_("Print one JSON object with the protocol, orientation, rules and request"), NULL },
    { NULL }
  };
  const KomiCliOptions parse = { "request", N_("- print the request a model receives at a "
    "position"), .summary = N_("Prints the Protocol 1 rules text, a blank line and the request "
    "JSON that the\nside to move would be sent after the given moves."), .entries = entries,
    .hint = KOMI_CLI_HINT_FOR_OPTIONS };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiGame) game = NULL;
  g_autoptr(GString) out = NULL;
  KomiProtocolState state;
  int status;

  /* The one command whose --help names the program in full. */
  g_set_prgname ("komi-cli request");
  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (argc > 1)
    return komi_cli_usage ("request",
                           _("unexpected argument '%s'; give the moves with --moves \"E5 C3 …\""),
                           argv[1]);
  if (orientation < 0 || orientation >= KOMI_N_ORIENTATIONS)
    return komi_cli_usage ("request", _("--orientation must be from 0 to %d, not %d"),
                           KOMI_N_ORIENTATIONS - 1, orientation);
  if (size < KOMI_MIN_SIZE || size > KOMI_MAX_SIZE)
    return komi_cli_usage ("request", _("--size must be from %d to %d, not %d"),
                           KOMI_MIN_SIZE, KOMI_MAX_SIZE, size);

  game = komi_game_new ((guint) size, KOMI_PROTOCOL_MAX_TURNS);
  if (moves != NULL && !play_moves (game, moves, &error))
    return komi_cli_fail ("request", error);
  if (komi_game_is_over (game))
    {
      g_set_error (&error, KOMI_GO_ERROR, KOMI_MOVE_GAME_OVER,
                   _("the game is over after these moves (%s), so no request is sent; "
                     "leave out the last move to see the one before it"),
                   komi_cli_end_reason_text (komi_game_get_end_reason (game)));
      return komi_cli_fail ("request", error);
    }

  komi_protocol_state_init_from_game (&state, game, (KomiOrientation) orientation);
  if (!komi_protocol_state_has_questions (&state))
    {
      /* Translators: %s is X or O, the protocol's names of the sides */
      fprintf (stderr, "komi-cli request: ");
      fprintf (stderr, _("%s has no legal point, so it must pass and is asked no question\n"),
               komi_color_to_protocol (state.to_move));
    }

  if (json)
    {
      g_autofree char *text = to_json_text (&state);

      printf ("%s\n", text);
    }
  else
    {
      out = g_string_sized_new (4096);
      komi_protocol_write_prompt (out, &state);
      fwrite (out->str, 1, out->len, stdout);
    }
  return fflush (stdout) == 0 ? 0 : 1;
}
