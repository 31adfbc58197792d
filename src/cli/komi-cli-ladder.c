/* komi-cli-ladder.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-ladder-pins.h"
#include "komi-ladder-ship.h"
#include "komi-rating.h"
#include "komi-store.h"

/* `ladder`: the Protocol 1 ladder shipped with Komi. `ladder show` prints
 * it, `ladder check` plays the ladder's recorded games again with this
 * machine's engines and compares every move (komi-cli-ladder-check.c, with
 * `ladder record`, which makes those recordings), and `ladder freeze` makes
 * a ladder file from a calibration library (how the shipped one was made). */

static KomiLadder *
load_ladder (const char *path, GError **error)
{
  return path != NULL ? komi_ladder_load (path, error) : komi_ladder_shipped (1, error);
}

static int
ladder_show (int argc, char **argv)
{
  g_autofree char *path = NULL, *results = NULL;
  gboolean json = FALSE, fit = FALSE;
  const GOptionEntry entries[] = {
    { "ladder", 'l', 0, G_OPTION_ARG_FILENAME, &path,
      N_("A ladder file instead of the shipped Protocol 1 ladder"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON instead of a table"), NULL },
    { "fit", 0, 0, G_OPTION_ARG_NONE, &fit,
      N_("Also show how well the ratings predict the calibration games: every pair that "
         "met, neighbours and pairs further apart"), NULL },
    { "results", 'r', 0, G_OPTION_ARG_FILENAME, &results,
      N_("With --fit: the games to check against (default: the shipped calibration games)"),
      N_("FILE") },
    { NULL }
  };
  const KomiCliOptions parse = { "ladder", N_("- print the ladder"), .entries = entries,
                                 .args = KOMI_CLI_ARGS_NONE, .wrong_args =
                                 N_("unexpected argument (see komi-cli ladder --help)") };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autofree char *text = NULL;
  int status;

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if ((ladder = load_ladder (path, &error)) == NULL)
    return komi_cli_fail ("ladder", error);
  text = json ? komi_ladder_to_json (ladder) : komi_rating_format_text (ladder, NULL);
  fputs (text, stdout);
  if (json)
    fputc ('\n', stdout);
  if (fit)
    {
      g_autoptr(KomiResultList) games = results != NULL ? komi_result_list_load (results, &error)
                                        : komi_ladder_shipped_games (ladder->protocol, &error);
      g_autofree char *report = NULL;

      if (games == NULL)
        return komi_cli_fail ("ladder", error);
      report = komi_ladder_fit_format_text (ladder, games->results->len > 0
                                                    ? komi_result_list_index (games, 0) : NULL,
                                            games->results->len);
      fputc ('\n', stdout);
      fputs (report, stdout);
    }
  return 0;
}

static int
ladder_freeze (int argc, char **argv)
{
  static const char usage[] = N_("freeze needs --db CALIBRATION.db and --out LADDER.json");
  g_autofree char *out = NULL, *games = NULL, *info = NULL, *pin = NULL;
  g_auto(GStrv) db = NULL;
  g_auto(GStrv) series = NULL;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &db,
      N_("A calibration library (repeatable: the libraries of machines that shared the "
         "calibration)"), N_("PATH") },
    { "series", 0, 0, G_OPTION_ARG_STRING_ARRAY, &series,
      N_("Only the games of this series (repeatable)"), N_("ID") },
    { "pin", 0, 0, G_OPTION_ARG_STRING, &pin,
      N_("The member whose rating is fixed at 0 (default random)"), N_("LABEL") },
    { "info", 0, 0, G_OPTION_ARG_FILENAME, &info,
      N_("A JSON object kept in the ladder as how it was calibrated"), N_("FILE") },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, N_("Write the ladder to FILE"), N_("FILE") },
    { "games", 0, 0, G_OPTION_ARG_FILENAME, &games,
      N_("Write the calibration games to FILE (CSV, one line each)"), N_("FILE") },
    { NULL }
  };
  const KomiCliOptions parse = {
    "ladder", N_("- freeze a ladder, pins and all, from a calibration library"),
    .entries = entries, .args = KOMI_CLI_ARGS_NONE, .wrong_args = usage };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) ids = g_array_new (TRUE, TRUE, sizeof (gint64));
  g_autoptr(GPtrArray) stores = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                komi_store_unref);
  g_autofree KomiStore **list = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GString) csv = g_string_new (NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  int status;

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (out == NULL || db == NULL)
    return komi_cli_usage ("ladder", "%s", _(usage));
  if (!komi_cli_parse_series (series, ids, &error))
    return komi_cli_usage ("ladder", "%s", error->message);
  if (info != NULL && !json_parser_load_from_file (parser, info, &error))
    return komi_cli_fail ("ladder", error);
  for (guint i = 0; db[i] != NULL; i++)
    {
      KomiStore *store = komi_store_open_reader (db[i], &error);

      if (store == NULL)
        return komi_cli_fail ("ladder", error);
      g_ptr_array_add (stores, store);
    }
  list = g_new0 (KomiStore *, stores->len + 1);
  memcpy (list, stores->pdata, stores->len * sizeof *list);
  if ((ladder = komi_ladder_freeze (list,
                                    ids->len ? (gint64 *) (void *) ids->data : NULL,
                                    pin, csv, &error)) == NULL)
    return komi_cli_fail ("ladder", error);
  if (info != NULL)
    ladder->calibration = json_node_copy (json_parser_get_root (parser));
  text = komi_ladder_to_json (ladder);
  if (!komi_cli_write_file (out, text, &error)
      || (games != NULL && !komi_cli_write_file (games, csv->str, &error)))
    return komi_cli_fail ("ladder", error);
  g_free (text);
  text = komi_rating_format_text (ladder, NULL);
  fputs (text, stdout);
  fprintf (stderr, _("The ladder is written to %s\n"), out);
  return 0;
}

int
komi_cli_ladder (int argc, char **argv)
{
  const char *sub = argc > 1 ? argv[1] : "show";

  if (argc > 1 && argv[1][0] != '-')
    {
      argc--;
      argv++;
    }
  if (strcmp (sub, "check") == 0)
    return komi_cli_ladder_check (argc, argv);
  if (strcmp (sub, "record") == 0)
    return komi_cli_ladder_record (argc, argv);
  if (strcmp (sub, "freeze") == 0)
    return ladder_freeze (argc, argv);
  if (strcmp (sub, "show") == 0 || sub[0] == '-')
    return ladder_show (argc, argv);
  return komi_cli_usage ("ladder", _("unknown subcommand “%s”: use show, check, record or freeze"),
                         sub);
}
