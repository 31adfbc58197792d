/* komi-cli.c
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
#include "komi-i18n.h"

typedef struct
{
  const char     *name;
  KomiCliCommand  run;
  const char     *summary;   /* marked with N_(), translated when printed */
} Subcommand;

static const Subcommand subcommands[] = {
  { "demo",    komi_cli_demo,    N_("watch the rehearsal model (no key, no network) play GNU Go level 1, every call shown") },
  { "request", komi_cli_request, N_("print the Protocol 1 request a model receives at a position") },
  { "play",    komi_cli_play,    N_("play one game between two players and write its SGF") },
  { "score",   komi_cli_score,   N_("re-judge the dead stones of an SGF record and print its area count") },
  { "bench",   komi_cli_bench,   N_("measure the rules core and the protocol on one core") },
  { "run",     komi_cli_run,     N_("play a series of games (a JSON file), recorded in the library; run again to continue") },
  { "resume",  komi_cli_resume,  N_("continue a series of the library by its id") },
  { "series",  komi_cli_series,  N_("list the series of the library") },
  { "merge",   komi_cli_merge,   N_("bring the libraries of a series' shards (run --shard K/N) into one library") },
  { "verify",  komi_cli_verify,  N_("check every game of a library (or a published site) from its record alone: moves, requests, answers, results, engine pins") },
  { "status",  komi_cli_status,  N_("how far the series of one or more libraries (a series' shards) are: games ended, per shard, ETA") },
  { "ratings", komi_cli_ratings, N_("the ladder and each subject's rating, from the library; 'ratings calibrate' freezes the ladder") },
  { "ladder",  komi_cli_ladder,  N_("the Protocol 1 ladder shipped with Komi; 'ladder check' replays its recorded games with this machine's engines, move by move") },
  { "rate",    komi_cli_rate,    N_("rate a player against the ladder at the least cost: pairs against the rungs that say the most, until the interval is narrow enough") },
  { "analyse", komi_cli_analyse, N_("review games of the library with KataGo or GNU Go: points lost per move, mistakes, blunders") },
  { "export",  komi_cli_export,  N_("write the library's games as SGF, the call log as JSON Lines, results as CSV") },
  { "publish", komi_cli_publish, N_("write a static web site of the library: the leaderboard and a replay of every game with every call") },
  { "import",  komi_cli_import,  N_("bring SGF game records into the library for review") },
  { "rehearse", komi_cli_rehearse, N_("serve a loopback model in all four wire formats, for dry runs at zero cost") },
};

static void
print_usage (FILE *out)
{
  /* Translators: COMMAND and OPTION are placeholders; keep komi-cli as it is */
  fprintf (out, "%s\n\n%s\n\n%s\n", _("Usage: komi-cli COMMAND [OPTION…]"),
           _("Runs and reviews 9x9 Go benchmark matches under Protocol 1."), _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    fprintf (out, "  %-9s %s\n", subcommands[i].name, _(subcommands[i].summary));
  fprintf (out, "\n%s\n", _("Run 'komi-cli COMMAND --help' for a command's options."));
}

int
main (int argc, char **argv)
{
  komi_i18n_init ();

  if (argc < 2)
    {
      print_usage (stderr);
      return 2;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("komi-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    if (strcmp (argv[1], subcommands[i].name) == 0)
      return subcommands[i].run (argc - 1, argv + 1);

  fprintf (stderr, "komi-cli: ");
  fprintf (stderr, _("unknown command '%s'; run 'komi-cli --help' for the list."), argv[1]);
  fputc ('\n', stderr);
  return 2;
}
