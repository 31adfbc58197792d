/* komi-cli-ratings.c
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
#include "komi-rating.h"
#include "komi-rating-library.h"
#include "komi-store.h"

/* `ratings`: the ladder and each subject's rating from game results,
 * read from the library (or from files with --results, CSV or JSON
 * Lines). `ratings calibrate` freezes a ladder, by default into the
 * library's folder, where plain `ratings` finds it. */

typedef struct
{
  char   **results;        /* --results FILE (repeatable) */
  char    *ladder;         /* --ladder: a frozen ladder; NULL: fit one from the ladder games */
  char    *pinned;         /* --pin: the member fixed when calibrating */
  double   pinned_rating;  /* --pin-rating */
  char    *subject;        /* --subject: rate this one only */
  int      protocol;       /* --protocol: keep only its games; 0: they must all agree */
  char    *output;         /* calibrate --output: where to write the ladder */
  gboolean calibrate;      /* `ratings calibrate` */
  gboolean json;
  char    *db;             /* --db: the library */
  char   **series;         /* --series ID (repeatable): only these series' games */
} KomiCliRatingsOptions;

int komi_cli_ratings_run (const KomiGameResult        *results,
                          gsize                        n_results,
                          const KomiCliRatingsOptions *options,
                          FILE                        *out);

static void
options_clear (KomiCliRatingsOptions *options)
{
  g_clear_pointer (&options->results, g_strfreev);
  g_clear_pointer (&options->ladder, g_free);
  g_clear_pointer (&options->pinned, g_free);
  g_clear_pointer (&options->subject, g_free);
  g_clear_pointer (&options->output, g_free);
  g_clear_pointer (&options->db, g_free);
  g_clear_pointer (&options->series, g_strfreev);
}

/* The frozen ladder of a protocol lives beside the library. */
static char *
default_ladder_path (const char *db, guint protocol)
{
  g_autofree char *dir = g_path_get_dirname (db);
  g_autofree char *name = g_strdup_printf ("ladder-protocol-%u.json", protocol);

  return g_build_filename (dir, name, NULL);
}

static gboolean
series_wanted (const KomiCliRatingsOptions *options, gint64 id)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, id);

  return options->series == NULL || g_strv_contains ((const char * const *) options->series,
                                                     text);
}

/* Every ended game of the library's series as a result. A game between
 * two members of @ladder is a ladder game (no subject): it says nothing
 * about a subject's strength. */
static gboolean
read_library (const KomiCliRatingsOptions *options,
              const KomiLadder            *ladder,
              KomiResultList              *out,
              GError                     **error)
{
  g_autoptr(KomiStore) store = komi_store_open_reader (options->db, error);
  g_autoptr(GPtrArray) games = NULL;

  if (store == NULL)
    return FALSE;
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, error);
  if (games == NULL)
    return FALSE;
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = g_ptr_array_index (games, i);
      KomiGameResult r;

      if (!komi_game_result_from_store_game (g, &r) || !series_wanted (options, g->series_id))
        continue;
      if (ladder != NULL && komi_ladder_lookup (ladder, g->black_spec) != NULL
          && komi_ladder_lookup (ladder, g->white_spec) != NULL)
        r.subject = KOMI_EMPTY;
      if (options->calibrate)
        r.subject = KOMI_EMPTY;
      komi_result_list_add (out, &r);
    }
  return TRUE;
}

/* Prints the error; mixed protocols are the user's to sort out, so it
 * says how. */
static int
fail (const GError *error)
{
  gboolean mixed = g_error_matches (error, KOMI_RATING_ERROR,
                                    KOMI_RATING_ERROR_MIXED_PROTOCOLS);

  if (mixed)
    fprintf (stderr, _("komi-cli ratings: %s (choose one with --protocol N)\n"),
             error->message);
  else
    fprintf (stderr, "komi-cli ratings: %s\n", error->message);
  return 1;
}

/* The games of @results a pool may use: those of --protocol when given,
 * and when @with_subject is set only the subject's (TRUE) or only ladder
 * games (FALSE); -1 keeps both. */
static GArray *
select_games (const KomiGameResult        *results,
              gsize                        n_results,
              const KomiCliRatingsOptions *options,
              int                          with_subject)
{
  GArray *kept = g_array_new (FALSE, FALSE, sizeof (KomiGameResult));

  for (gsize i = 0; i < n_results; i++)
    {
      const KomiGameResult *r = &results[i];
      const char *subject = komi_game_result_subject (r);

      if (options->protocol > 0 && r->protocol != (guint) options->protocol)
        continue;
      if (with_subject >= 0 && (subject != NULL) != with_subject)
        continue;
      if (with_subject > 0 && options->subject && strcmp (subject, options->subject) != 0)
        continue;
      g_array_append_val (kept, *r);
    }
  return kept;
}

static void
print_json (FILE *out, JsonNode *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) owned = node;
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, owned);
  text = json_generator_to_data (gen, NULL);
  fprintf (out, "%s\n", text);
}

/* The hook for the store adapter: everything after the results are read.
 * Prints the ladder (calibrated or loaded) and the subjects' ratings to
 * @out; returns the exit status. */
int
komi_cli_ratings_run (const KomiGameResult        *results,
                      gsize                        n_results,
                      const KomiCliRatingsOptions *options,
                      FILE                        *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GArray) ladder_games = NULL;
  g_autoptr(GArray) subject_games = NULL;
  g_autoptr(GPtrArray) rated = NULL;
  g_autofree char *text = NULL;

  if (options->calibrate || options->ladder == NULL)
    {
      /* `calibrate` fits every game given; plain `ratings` only the games
       * without a subject, the rest being the subjects' to rate. */
      ladder_games = select_games (results, n_results, options, options->calibrate ? -1 : 0);
      if (ladder_games->len == 0 && !options->calibrate)
        {
          g_set_error_literal (&error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                               _("no ladder to rate against: give --ladder LADDER.json (made "
                                 "by 'komi-cli ratings calibrate'), or include ladder games "
                                 "(rows with no subject) in the results"));
          return fail (error);
        }
      ladder = komi_ladder_calibrate ((KomiGameResult *) (void *) ladder_games->data,
                                      ladder_games->len, options->pinned,
                                      options->pinned_rating, &error);
    }
  else
    ladder = komi_ladder_load (options->ladder, &error);
  if (ladder == NULL)
    return fail (error);

  if (options->calibrate)
    {
      if (options->output != NULL)
        {
          if (!komi_ladder_save (ladder, options->output, &error))
            return fail (error);
          /* Said only once it is true: a calibration that fails writes nothing. */
          fprintf (stderr, _("The ladder is written to %s\n"), options->output);
        }
      if (options->json)
        print_json (out, komi_ladder_to_json_node (ladder));
      else
        {
          text = komi_rating_format_text (ladder, NULL);
          fputs (text, out);
        }
      return 0;
    }

  subject_games = select_games (results, n_results, options, 1);
  if (subject_games->len == 0 && options->subject != NULL)
    {
      g_set_error (&error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                   _("no game of the subject '%s' in the results; subjects are named by the "
                     "label on the subject's side"), options->subject);
      return fail (error);
    }
  rated = komi_rating_rate_subjects (ladder, (KomiGameResult *) (void *) subject_games->data,
                                     subject_games->len, &error);
  if (rated == NULL)
    return fail (error);

  if (options->json)
    print_json (out, komi_rating_to_json_node (ladder, rated));
  else
    {
      text = komi_rating_format_text (ladder, rated);
      fputs (text, out);
    }
  return 0;
}

/* `ratings [calibrate] --results FILE…`: reads the files and runs. */
int
komi_cli_ratings (int argc, char **argv)
{
  KomiCliRatingsOptions options = { .pinned_rating = 0 };
  /* Translated here, the default not being in the catalogue; GOptionContext
   * finds no msgid for it and prints it as it is. */
  g_autofree char *pin_help = g_strdup_printf (_("The ladder member whose rating is fixed "
                                                 "(default %s)"), KOMI_LADDER_DEFAULT_PINNED);
  const GOptionEntry entries[] = {
    { "results", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &options.results,
      N_("Game results, CSV with a header row or JSON Lines (repeatable)"), N_("FILE") },
    { "ladder", 'l', 0, G_OPTION_ARG_FILENAME, &options.ladder,
      N_("A frozen ladder (JSON from 'ratings calibrate'); default: fit one from the games "
         "without a subject"), N_("FILE") },
    { "pin", 0, 0, G_OPTION_ARG_STRING, &options.pinned, pin_help, N_("LABEL") },
    { "pin-rating", 0, 0, G_OPTION_ARG_DOUBLE, &options.pinned_rating,
      N_("The pinned member's rating (default 0)"), N_("ELO") },
    { "subject", 's', 0, G_OPTION_ARG_STRING, &options.subject,
      N_("Rate only this subject"), N_("LABEL") },
    { "protocol", 'p', 0, G_OPTION_ARG_INT, &options.protocol,
      N_("Use only games under this protocol number"), N_("N") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output,
      N_("calibrate: write the ladder to FILE"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &options.json, N_("Print JSON instead of tables"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &options.db,
      N_("The library to read games from (default in the XDG data folder)"), N_("PATH") },
    { "series", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options.series,
      N_("Only the games of this series of the library (repeatable)"), N_("ID") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(KomiResultList) all = komi_result_list_new ();
  g_autoptr(GError) error = NULL;
  int status;

  if (argc > 1 && strcmp (argv[1], "calibrate") == 0)
    {
      options.calibrate = TRUE;
      argc--;
      argv++;
    }
  context = g_option_context_new (options.calibrate
                                  ? N_("- fit the ladder's ratings from games among its members")
                                  : N_("[calibrate] - rate subjects against the ladder"));
  g_option_context_set_summary (context,
                                N_("'ratings calibrate --series ID' freezes a ladder from the "
                                   "library's engine games;\n'ratings' rates every subject of "
                                   "the library against it. --results reads CSV or JSON Lines "
                                   "files instead."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 1
      || options.protocol < 0 || (options.results != NULL && options.series != NULL))
    {
      fprintf (stderr, "komi-cli ratings: %s\n",
               error ? error->message
                     : argc != 1 ? _("unexpected argument (see komi-cli ratings --help)")
                     : options.protocol < 0 ? _("--protocol takes a number of 1 or more")
                     : _("--series picks games of the library; it does not go with "
                         "--results"));
      options_clear (&options);
      return 2;
    }
  if (options.output != NULL && !options.calibrate)
    {
      fprintf (stderr, "komi-cli ratings: %s\n",
               _("--output writes a ladder; use it with 'ratings calibrate'"));
      options_clear (&options);
      return 2;
    }

  if (options.results == NULL)
    {
      g_autoptr(KomiLadder) frozen = NULL;
      g_autofree char *ladder_path = NULL;

      if (options.db == NULL)
        options.db = komi_store_default_path ();
      ladder_path = default_ladder_path (options.db, options.protocol > 0
                                                     ? (guint) options.protocol : 1);
      if (options.calibrate && options.output == NULL)
        options.output = g_strdup (ladder_path);
      if (!options.calibrate && options.ladder == NULL
          && g_file_test (ladder_path, G_FILE_TEST_EXISTS))
        options.ladder = g_strdup (ladder_path);
      if (options.ladder != NULL && (frozen = komi_ladder_load (options.ladder, &error)) == NULL)
        {
          options_clear (&options);
          return fail (error);
        }
      if (!read_library (&options, frozen, all, &error))
        {
          options_clear (&options);
          return fail (error);
        }
    }

  for (guint f = 0; options.results != NULL && options.results[f] != NULL; f++)
    {
      g_autoptr(KomiResultList) list = komi_result_list_load (options.results[f], &error);

      if (list == NULL)
        {
          options_clear (&options);
          return fail (error);
        }
      for (guint i = 0; i < list->results->len; i++)
        komi_result_list_add (all, komi_result_list_index (list, i));
    }

  status = komi_cli_ratings_run ((KomiGameResult *) (void *) all->results->data,
                                 all->results->len, &options, stdout);
  options_clear (&options);
  return status;
}
