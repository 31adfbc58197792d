/* komi-cli-score.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-coords.h"
#include "komi-sgf-record.h"

/* `score FILE.sgf`: replays a record under our rules, asks the referee for
 * the dead stones of the final position and prints the count. */
int
komi_cli_score (int argc, char **argv)
{
  g_auto(KomiCliEngineOptions) engine = { 0, };
  const KomiCliOptions parse = { "score", N_("FILE.sgf - re-judge a game record and print its "
    "area count"), .engines = &engine, .args = KOMI_CLI_ARGS_ONE,
    .wrong_args = N_("give exactly one SGF file, e.g. komi-cli score game.sgf") };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSgfRecord) sgf = NULL;
  g_autoptr(KomiReferee) referee = NULL;
  g_autoptr(KomiGameRecord) record = g_new0 (KomiGameRecord, 1);
  double komi;
  int status;

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;

  if ((sgf = komi_sgf_record_load (argv[1], &error)) == NULL
      || (record->game = komi_sgf_record_replay (sgf, sgf->moves->len <= KOMI_PROTOCOL_MAX_TURNS
                                                            ? KOMI_PROTOCOL_MAX_TURNS : 0,
                                                 &error)) == NULL)
    {
      g_prefix_error (&error, "%s: ", argv[1]);
      return komi_cli_fail ("score", error);
    }
  referee = komi_cli_referee_new (&engine, &error);
  if (error != NULL)
    return komi_cli_fail ("score", error);

  komi = sgf->has_komi ? sgf->komi : 7;
  record->dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  if (referee != NULL
      && !komi_referee_dead_stones (referee, record->game, record->dead, &record->referee,
                                    NULL, &error))
    return komi_cli_fail ("score", error);
  komi_score_area (komi_game_get_board (record->game), (const KomiPoint *) record->dead->data,
                   record->dead->len, komi, &record->score);
  record->result = komi_score_to_result (&record->score);
  record->black_name = g_strdup (sgf->black_name ? sgf->black_name : "Black");
  record->white_name = g_strdup (sgf->white_name ? sgf->white_name : "White");
  record->end_reason = komi_game_get_end_reason (record->game);

  komi_cli_print_record_result (stdout, record);
  if (sgf->result != NULL && g_strcmp0 (sgf->result, record->result) != 0)
    printf (_("Note: the record says RE[%s]; this count gives %s.\n"), sgf->result,
            record->result);
  return 0;
}
