/* komi-cli-export.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <stdio.h>

#include "komi-cli.h"
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
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autofree char *db = NULL;
  g_autofree char *path = NULL;
  g_autofree char *sgf_dir = NULL;
  g_autofree char *calls_path = NULL;
  g_autofree char *csv_path = NULL;
  gint64 series_id = KOMI_STORE_ALL_GAMES;
  guint n;
  GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      "The library (default: $XDG_DATA_HOME/komi/library.db)", "PATH" },
    { "series", 0, 0, G_OPTION_ARG_INT64, &series_id,
      "Export only this series (default: every game of the library)", "ID" },
    { "sgf", 0, 0, G_OPTION_ARG_FILENAME, &sgf_dir,
      "Write one SGF file per game into this folder", "DIR" },
    { "calls", 0, 0, G_OPTION_ARG_FILENAME, &calls_path,
      "Write every model call attempt as JSON Lines to this file", "FILE.jsonl" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path,
      "Write one row of results per game to this CSV file", "FILE.csv" },
    { NULL }
  };

  context = g_option_context_new ("- write the library's games as SGF, JSON Lines and CSV");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "At least one of --sgf, --calls and --csv is needed. The formats are described in "
    "docs/library.md.\n\nExample:\n  komi-cli export --series 1 --sgf games --calls calls.jsonl "
    "--csv results.csv");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "komi-cli export: %s\n", error->message);
      return 2;
    }
  if (argc > 1 || (sgf_dir == NULL && calls_path == NULL && csv_path == NULL))
    {
      fprintf (stderr, "komi-cli export: %s\n",
               argc > 1 ? "unexpected argument; files are named with --sgf, --calls and --csv"
                        : "say what to write: --sgf DIR, --calls FILE.jsonl and/or --csv FILE");
      return 2;
    }
  if (series_id == 0 || series_id < KOMI_STORE_ALL_GAMES)
    {
      fprintf (stderr, "komi-cli export: --series takes a series number (1 or more)\n");
      return 2;
    }

  path = library_path (db);
  if ((store = komi_store_open_reader (path, &error)) == NULL)
    return komi_cli_fail ("export", error);
  if (series_id > 0)
    {
      g_autoptr(KomiStoreSeries) series = komi_store_get_series (store, series_id, &error);

      if (series == NULL)
        {
          g_autoptr(GPtrArray) all = komi_store_list_series (store, NULL);
          g_autoptr(GString) ids = g_string_new (NULL);

          for (guint i = 0; all != NULL && i < all->len; i++)
            g_string_append_printf (ids, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "",
                                    ((KomiStoreSeries *) g_ptr_array_index (all, i))->id);
          fprintf (stderr, "komi-cli export: %s; it holds %s%s\n", error->message,
                   ids->len > 0 ? "series " : "no series yet", ids->str);
          return 1;
        }
    }

  if (sgf_dir != NULL)
    {
      if (!komi_export_sgf (store, series_id, sgf_dir, &n, &error))
        return komi_cli_fail ("export", error);
      printf ("Wrote %u SGF file%s to %s\n", n, n == 1 ? "" : "s", sgf_dir);
    }
  if (calls_path != NULL)
    {
      if (!komi_export_calls (store, series_id, calls_path, &n, &error))
        return komi_cli_fail ("export", error);
      printf ("Wrote %u call attempt%s to %s\n", n, n == 1 ? "" : "s", calls_path);
    }
  if (csv_path != NULL)
    {
      if (!komi_export_csv (store, series_id, csv_path, &n, &error))
        return komi_cli_fail ("export", error);
      printf ("Wrote %u game%s to %s\n", n, n == 1 ? "" : "s", csv_path);
    }
  return 0;
}

int
komi_cli_import (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autofree char *db = NULL;
  g_autofree char *path = NULL;
  int status = 0;
  GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      "The library (default: $XDG_DATA_HOME/komi/library.db)", "PATH" },
    { NULL }
  };

  context = g_option_context_new ("FILE.sgf… - bring game records into the library for review");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Each file's games are replayed under Komi's rules (no suicide, positional superko) "
    "and kept with status \"imported\". A file already imported is skipped.");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "komi-cli import: %s\n", error->message);
      return 2;
    }
  if (argc < 2)
    {
      fprintf (stderr, "komi-cli import: name one or more SGF files, "
                       "e.g. komi-cli import game.sgf\n");
      return 2;
    }

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
        printf ("Skipped %s: already in the library (game %" G_GINT64_FORMAT ")\n", argv[i],
                g_array_index (ids, gint64, 0));
      else if (ids->len == 1)
        printf ("Imported %s as game %" G_GINT64_FORMAT "\n", argv[i],
                g_array_index (ids, gint64, 0));
      else
        printf ("Imported %s as games %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT "\n", argv[i],
                g_array_index (ids, gint64, 0), g_array_index (ids, gint64, ids->len - 1));
    }
  return status;
}
