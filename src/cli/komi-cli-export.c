/* komi-cli-export.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include <glib/gi18n.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-export.h"
#include "komi-import.h"

/* `export` and `import`: the library's records out to files other tools
 * read, and other tools' records in, for review. */

static char *
library_path (const char *db)
{
  return db != NULL ? g_strdup (db) : komi_store_default_path ();
}

int
komi_cli_export (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autofree char *db = NULL;
  g_autofree char *path = NULL;
  g_autofree char *sgf_dir = NULL;
  g_autofree char *calls_path = NULL;
  g_autofree char *csv_path = NULL;
  gint64 series_id = KOMI_STORE_ALL_GAMES;
  gboolean public = FALSE, request_ids = FALSE;
  g_autoptr(KomiPublic) pub = NULL;
  guint n;
  int status;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default: $XDG_DATA_HOME/komi/library.db)"), N_("PATH") },
    { "series", 0, 0, G_OPTION_ARG_INT64, &series_id,
      N_("Export only this series (default: every game of the library)"), N_("ID") },
    { "sgf", 0, 0, G_OPTION_ARG_FILENAME, &sgf_dir,
      N_("Write one SGF file per game into this folder"), N_("DIR") },
    { "calls", 0, 0, G_OPTION_ARG_FILENAME, &calls_path,
      N_("Write every model call attempt as JSON Lines to this file"), "FILE.jsonl" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path,
      N_("Write one row of results per game to this CSV file"), "FILE.csv" },
    { "public", 0, 0, G_OPTION_ARG_NONE, &public,
      N_("For publication: no local paths, hosts or key variables, only the response "
         "headers a reader needs (as publish writes them)"), NULL },
    { "keep-request-ids", 0, 0, G_OPTION_ARG_NONE, &request_ids,
      N_("With --public, keep the providers' request id headers"), NULL },
    { NULL }
  };

  const KomiCliOptions parse = {
    "export", N_("- write the library's games as SGF, JSON Lines and CSV"),
    .description = N_("At least one of --sgf, --calls and --csv is needed. The formats are "
                      "described in docs/library.md.\n\nExample:\n  komi-cli export --series 1 "
                      "--sgf games --calls calls.jsonl --csv results.csv"), .entries = entries,
    .args = KOMI_CLI_ARGS_NONE,
    .wrong_args = N_("unexpected argument; files are named with --sgf, --calls and --csv") };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (sgf_dir == NULL && calls_path == NULL && csv_path == NULL)
    return komi_cli_usage ("export", "%s", _("say what to write: --sgf DIR, --calls "
                                             "FILE.jsonl and/or --csv FILE"));
  if (series_id == 0 || series_id < KOMI_STORE_ALL_GAMES)
    return komi_cli_usage ("export", "%s", _("--series takes a series number (1 or more)"));
  if (request_ids && !public)
    return komi_cli_usage ("export", "%s", _("--keep-request-ids goes with --public (a "
                                             "private export keeps every header anyway)"));
  if (public)
    pub = komi_public_new (request_ids ? KOMI_PUBLIC_KEEP_REQUEST_IDS : 0);

  path = library_path (db);
  if ((store = komi_store_open_reader (path, &error)) == NULL)
    return komi_cli_fail ("export", error);
  if (series_id > 0)
    {
      g_autoptr(KomiStoreSeries) series = komi_store_load_series (store, series_id, &error);

      if (series == NULL)
        {
          g_autoptr(GPtrArray) all = komi_store_list_series (store, NULL);
          g_autoptr(GString) ids = g_string_new (NULL);

          for (guint i = 0; all != NULL && i < all->len; i++)
            g_string_append_printf (ids, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "",
                                    ((KomiStoreSeries *) g_ptr_array_index (all, i))->id);
          /* Translators: the error, then the series the library holds: "1, 2, 5" */
          if (ids->len > 0)
            return komi_cli_error ("export", _("%s; it holds series %s"), error->message,
                                   ids->str);
          return komi_cli_error ("export", _("%s; it holds no series yet"), error->message);
        }
    }

  if (sgf_dir != NULL)
    {
      if (!komi_export_sgf_public (store, series_id, sgf_dir, pub, &n, &error))
        return komi_cli_fail ("export", error);
      printf (g_dngettext (NULL, "Wrote %u SGF file to %s\n", "Wrote %u SGF files to %s\n", n),
              n, sgf_dir);
    }
  if (calls_path != NULL)
    {
      if (!komi_export_calls_public (store, series_id, calls_path, pub, &n, &error))
        return komi_cli_fail ("export", error);
      printf (g_dngettext (NULL, "Wrote %u call attempt to %s\n",
                           "Wrote %u call attempts to %s\n", n), n, calls_path);
    }
  if (csv_path != NULL)
    {
      if (!komi_export_csv_public (store, series_id, csv_path, pub, &n, &error))
        return komi_cli_fail ("export", error);
      printf (g_dngettext (NULL, "Wrote %u game to %s\n", "Wrote %u games to %s\n", n), n,
              csv_path);
    }
  return 0;
}

int
komi_cli_import (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autofree char *db = NULL;
  g_autofree char *path = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default: $XDG_DATA_HOME/komi/library.db)"), N_("PATH") },
    { NULL }
  };

  const KomiCliOptions parse = {
    "import", N_("FILE.sgf… - bring game records into the library for review"),
    .description = N_("Each file's games are replayed under Komi's rules (no suicide, "
                      "positional superko) and kept with status \"imported\". A file already "
                      "imported is skipped."), .entries = entries, .args = KOMI_CLI_ARGS_SOME,
    .wrong_args = N_("name one or more SGF files, e.g. komi-cli import game.sgf") };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;

  path = library_path (db);
  if ((store = komi_store_open (path, &error)) == NULL)
    return komi_cli_fail ("import", error);

  /* One file's failure does not stop the others; the exit status tells. */
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GError) local = NULL;
      gboolean duplicate = FALSE;

      if (!komi_import_sgf_file (store, argv[i], ids, &duplicate, &local))
        {
          status = komi_cli_fail ("import", local);
          continue;
        }
      if (duplicate)
        printf (_("Skipped %s: already in the library (game %" PRId64 ")\n"), argv[i],
                g_array_index (ids, gint64, 0));
      else if (ids->len == 1)
        printf (_("Imported %s as game %" PRId64 "\n"), argv[i],
                g_array_index (ids, gint64, 0));
      else
        printf (_("Imported %s as games %" PRId64 "–%" PRId64 "\n"), argv[i],
                g_array_index (ids, gint64, 0), g_array_index (ids, gint64, ids->len - 1));
    }
  return status;
}
