/* komi-cli.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "komi-cli.h"
#include "komi-i18n.h"

typedef struct
{
  const char     *name;
  KomiCliCommand  run;
  const char     *summary;
} Subcommand;

static const Subcommand subcommands[] = {
  { "demo",    komi_cli_demo,    "watch the rehearsal model (no key, no network) play GNU Go level 1, every call shown" },
  { "request", komi_cli_request, "print the Protocol 1 request a model receives at a position" },
  { "play",    komi_cli_play,    "play one game between two players and write its SGF" },
  { "score",   komi_cli_score,   "re-judge the dead stones of an SGF record and print its area count" },
  { "bench",   komi_cli_bench,   "measure the rules core and the protocol on one core" },
  { "run",     komi_cli_run,     "play a series of games (a JSON file), recorded in the library; run again to continue" },
  { "resume",  komi_cli_resume,  "continue a series of the library by its id" },
  { "series",  komi_cli_series,  "list the series of the library" },
  { "ratings", komi_cli_ratings, "the ladder and each subject's rating, from the library; 'ratings calibrate' freezes the ladder" },
  { "analyse", komi_cli_analyse, "review games of the library with KataGo or GNU Go: points lost per move, mistakes, blunders" },
  { "export",  komi_cli_export,  "write the library's games as SGF, the call log as JSON Lines, results as CSV" },
  { "import",  komi_cli_import,  "bring SGF game records into the library for review" },
  { "rehearse", komi_cli_rehearse, "serve a loopback model in all four wire formats, for dry runs at zero cost" },
};

int
komi_cli_fail (const char *subcommand, const GError *error)
{
  fprintf (stderr, "komi-cli %s: %s\n", subcommand, error->message);
  return 1;
}

static void
print_usage (FILE *out)
{
  fprintf (out, "Usage: komi-cli COMMAND [OPTION…]\n\n"
                "Runs and reviews 9x9 Go benchmark matches under Protocol 1.\n\n"
                "Commands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    fprintf (out, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
  fprintf (out, "\nRun 'komi-cli COMMAND --help' for a command's options.\n");
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

  fprintf (stderr, "komi-cli: unknown command '%s'; run 'komi-cli --help' for the list.\n",
           argv[1]);
  return 2;
}
