/* komi-cli-publish.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-publish.h"
#include "komi-store.h"

/* `publish`: the library as a static web site, the leaderboard and a
 * replay of every game with every call (src/publish/). */

static void
show_progress (guint done, guint total, gpointer user_data)
{
  /* A line redrawn in place, on a terminal only: logs stay clean. */
  if (done == total || done % 25 == 0)
    {
      fputc ('\r', stderr);
      fprintf (stderr, _("Publishing games: %u of %u"), done, total);
    }
  if (done == total)
    fputc ('\n', stderr);
}

int
komi_cli_publish (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *db = NULL;
  g_autofree char *out = NULL;
  g_autofree char *ladder = NULL;
  g_auto(GStrv) series_text = NULL;
  g_autoptr(GArray) series = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *index = NULL;
  KomiPublishOptions options = { 0, };
  KomiPublishStats stats = { 0, };
  gboolean quiet = FALSE, request_ids = FALSE;
  int status;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default: $XDG_DATA_HOME/komi/library.db)"), N_("PATH") },
    { "series", 0, 0, G_OPTION_ARG_STRING_ARRAY, &series_text,
      N_("Publish only this series (repeatable; default: every series)"), N_("ID") },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
      N_("The folder of the site (created; publishing again updates it)"), N_("DIR") },
    { "ladder", 0, 0, G_OPTION_ARG_FILENAME, &ladder,
      N_("The ladder to rate against: shipped (the default: the ladder shipped with Komi), "
         "library (this library's own calibration) or a ladder file"), N_("LADDER") },
    { "keep-request-ids", 0, 0, G_OPTION_ARG_NONE, &request_ids,
      N_("Keep the providers' request id headers in the published calls (left out by "
         "default)"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing but errors"), NULL },
    { NULL }
  };

  const KomiCliOptions parse = {
    "publish", N_("- write a static web site of the library: the leaderboard and a replay of "
                  "every game with every call"), .entries = entries, .args = KOMI_CLI_ARGS_NONE,
    .wrong_args = N_("unexpected argument; the folder is named with --out DIR"),
    .description = N_("The site opens from the folder (file://) or from any static host; it "
                      "fetches nothing. API keys never appear in it. docs/publish.md describes "
                      "it.\n\nExample:\n  komi-cli publish --db demo.db --out site") };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (out == NULL)
    return komi_cli_usage ("publish", "%s", _("say where to write the site: --out DIR"));
  for (guint i = 0; series_text != NULL && series_text[i] != NULL; i++)
    {
      guint64 id;

      if (!g_ascii_string_to_unsigned (series_text[i], 10, 1, G_MAXINT64, &id, NULL))
        return komi_cli_usage ("publish", "%s", _("--series takes a series number (1 or "
                                                  "more)"));
      g_array_append_val (series, id);
    }
  if (db == NULL)
    db = komi_store_default_path ();

  options.series = series->len > 0 ? (const gint64 *) (void *) series->data : NULL;
  options.n_series = series->len;
  options.ladder = ladder;
  options.keep_request_ids = request_ids;
  if (!quiet && isatty (fileno (stderr)))
    options.progress = show_progress;
  if (!komi_publish_site (db, out, &options, &stats, &error))
    {
      komi_publish_stats_clear (&stats);
      return komi_cli_fail ("publish", error);
    }
  if (!quiet)
    {
      index = g_build_filename (out, "index.html", NULL);
      /* TRANSLATORS: the series and games published, the files written
       * and left as they were, and the site's size in MB. */
      printf (_("Published %u series and %u games into %s: %u files written, %u unchanged, "
                "%.1f MB.\n"), stats.series, stats.games, out, stats.written, stats.unchanged,
              stats.bytes / 1e6);
      if (stats.rating_note != NULL)
        printf (_("The leaderboard has no ratings: %s\n"), stats.rating_note);
      printf (_("Open %s in a browser.\n"), index);
    }
  komi_publish_stats_clear (&stats);
  return 0;
}
