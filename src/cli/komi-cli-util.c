/* komi-cli-util.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include "komi-cli-util.h"
#include "komi-coords.h"

GOptionGroup *
komi_cli_engine_option_group (KomiCliEngineOptions *options)
{
  const GOptionEntry entries[] = {
    { "gnugo", 0, 0, G_OPTION_ARG_FILENAME, &options->gnugo,
      "GNU Go binary (default $KOMI_GNUGO, then " GNUGO_PATH ")", "PATH" },
    { "katago-binary", 0, 0, G_OPTION_ARG_FILENAME, &options->katago_binary,
      "KataGo binary (default $KOMI_KATAGO)", "PATH" },
    { "katago-model", 0, 0, G_OPTION_ARG_FILENAME, &options->katago_model,
      "KataGo network (default $KOMI_KATAGO_MODEL)", "PATH" },
    { "katago-config", 0, 0, G_OPTION_ARG_FILENAME, &options->katago_config,
      "KataGo GTP config (default $KOMI_KATAGO_CONFIG)", "PATH" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &options->timeout_s,
      "Seconds an engine may take for one command (default 60)", "S" },
    { "referee", 0, 0, G_OPTION_ARG_STRING, &options->referee,
      "Who judges dead stones: katago, gnugo or none (default katago when configured, "
      "else gnugo)", "ENGINE" },
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("engines", "Engine options:",
                                            "Show the engine options", NULL, NULL);

  g_option_group_add_entries (group, entries);
  return group;
}

void
komi_cli_engine_options_get (const KomiCliEngineOptions *options, KomiPlayerOptions *out)
{
  *out = (KomiPlayerOptions) {
    .gnugo_path = options->gnugo,
    .katago_binary = options->katago_binary,
    .katago_model = options->katago_model,
    .katago_config = options->katago_config,
    .timeout_ms = options->timeout_s > 0 ? (guint) options->timeout_s * 1000 : 0,
  };
}

void
komi_cli_engine_options_clear (KomiCliEngineOptions *options)
{
  g_clear_pointer (&options->gnugo, g_free);
  g_clear_pointer (&options->katago_binary, g_free);
  g_clear_pointer (&options->katago_model, g_free);
  g_clear_pointer (&options->katago_config, g_free);
  g_clear_pointer (&options->referee, g_free);
}

KomiReferee *
komi_cli_referee_new (const KomiCliEngineOptions *options, GError **error)
{
  KomiPlayerOptions popts;
  const char *which = options->referee;

  komi_cli_engine_options_get (options, &popts);
  if (which == NULL)
    {
      /* KataGo is the protocol's referee; GNU Go serves where none is set up. */
      gboolean have_katago = options->katago_binary != NULL
                             || g_getenv ("KOMI_KATAGO") != NULL;
      which = have_katago ? "katago" : "gnugo";
    }
  if (g_strcmp0 (which, "none") == 0)
    return NULL;
  if (g_strcmp0 (which, "gnugo") != 0 && g_strcmp0 (which, "katago") != 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--referee must be katago, gnugo or none, not “%s”", which);
      return NULL;
    }
  return komi_referee_new (which, &popts, error);
}

void
komi_cli_print_board (FILE *out, const KomiGame *game, KomiPoint last_move)
{
  const KomiBoard *board = komi_game_get_board (game);
  guint size = komi_board_get_size (board);

  fputs ("   ", out);
  for (guint x = 0; x < size; x++)
    fprintf (out, " %c", komi_column_letter (x));
  fputc ('\n', out);
  for (guint y = 0; y < size; y++)
    {
      fprintf (out, "%2u ", size - y);
      for (guint x = 0; x < size; x++)
        {
          KomiPoint p = komi_point_from_xy (size, x, y);
          const char *stone = komi_color_to_protocol (komi_board_get (board, p));

          /* The last move stands in parentheses, eating the spaces around it. */
          if (p == last_move)
            fprintf (out, "(%s", stone);
          else if (x > 0 && komi_point_from_xy (size, x - 1, y) == last_move)
            fprintf (out, ")%s", stone);
          else
            fprintf (out, " %s", stone);
        }
      fprintf (out, "%s %u\n",
               komi_point_from_xy (size, size - 1, y) == last_move ? ")" : " ", size - y);
    }
  fputs ("   ", out);
  for (guint x = 0; x < size; x++)
    fprintf (out, " %c", komi_column_letter (x));
  fputc ('\n', out);
}

void
komi_cli_print_record_result (FILE *out, const KomiGameRecord *record)
{
  if (record->outcome == KOMI_OUTCOME_VOID)
    {
      fprintf (out, "Game void (not rated): %s\n", record->void_reason);
      return;
    }
  if (record->outcome == KOMI_OUTCOME_FORFEIT)
    {
      fprintf (out, "Game ended by forfeit (%s): %s\n", record->result, record->void_reason);
      return;
    }
  if (record->end_reason == KOMI_END_NONE)
    fprintf (out, "The record ends after %u turns, before the game is over; counted as it "
                  "stands.\n", komi_game_get_turns_played (record->game));
  else
    fprintf (out, "Game over after %u turns: %s.\n",
             komi_game_get_turns_played (record->game),
             komi_end_reason_to_string (record->end_reason));
  if (record->dead->len > 0)
    {
      guint size = komi_game_get_size (record->game);

      fprintf (out, "Dead stones (judged by %s):", record->referee);
      for (guint i = 0; i < record->dead->len; i++)
        {
          char name[KOMI_NAME_LEN + 1];
          fprintf (out, " %s",
                   komi_point_to_name (size, g_array_index (record->dead, KomiPoint, i), name));
        }
      fputc ('\n', out);
    }
  else
    fprintf (out, "Dead stones (judged by %s): none\n",
             record->referee != NULL ? record->referee : "nobody");
  fprintf (out, "X (Black, %s): %u stones + %u territory = %g\n", record->black_name,
           record->score.black_stones, record->score.black_territory, record->score.black_total);
  fprintf (out, "O (White, %s): %u stones + %u territory + komi %g = %g\n", record->white_name,
           record->score.white_stones, record->score.white_territory, record->score.komi,
           record->score.white_total);
  if (record->score.winner == KOMI_EMPTY)
    fprintf (out, "Result: draw (0)\n");
  else
    fprintf (out, "Result: %s wins by %g (%s)\n",
             record->score.winner == KOMI_BLACK ? "X (Black)" : "O (White)",
             record->score.margin, record->result);
}

gboolean
komi_cli_write_file (const char *path, const char *contents, GError **error)
{
  if (g_strcmp0 (path, "-") == 0)
    {
      fputs (contents, stdout);
      return TRUE;
    }
  return g_file_set_contents (path, contents, -1, error);
}
