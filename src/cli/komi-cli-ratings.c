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
#include "komi-cli-util.h"
#include "komi-ladder-ship.h"
#include "komi-rating.h"
#include "komi-rating-library.h"
#include "komi-rating-pool.h"
#include "komi-store.h"
#include "komi-untrusted.h"

/* `ratings`: the ladder and each subject's rating from game results,
 * read from the library (or from files with --results, CSV or JSON
 * Lines). `ratings calibrate` freezes a ladder, by default into the
 * library's folder, where plain `ratings` finds it. */

typedef struct
{
  char   **results;        /* --results FILE (repeatable) */
  char    *ladder;         /* --ladder: shipped (NULL), library, fit, or a file */
  char    *pinned;         /* --pin: the member fixed when calibrating */
  double   pinned_rating;  /* --pin-rating */
  char    *subject;        /* --subject: rate this one only */
  int      protocol;       /* --protocol: keep only its games; 0: they must all agree */
  char    *output;         /* calibrate --output: where to write the ladder */
  gboolean calibrate;      /* `ratings calibrate` */
  gboolean json;
  char    *db;             /* --db: the library */
  char   **series;         /* --series ID (repeatable): only these series' games */
  gboolean with_ladder;    /* --with-ladder-uncertainty */
} KomiCliRatingsOptions;

int komi_cli_ratings_run (const KomiGameResult        *results,
                          gsize                        n_results,
                          const KomiCliRatingsOptions *options,
                          KomiLadder                  *frozen,
                          KomiRatingPool              *pool,
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
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiCliRatingsOptions, options_clear)

/* The ladder --ladder names: the shipped one (NULL, "shipped"), the
 * library's own calibration ("library"), none ("fit": it is fitted from
 * the games without a subject), or a file. */
static KomiLadder *
resolve_ladder (const KomiCliRatingsOptions *options,
                guint                        protocol,
                gboolean                    *fit,
                GError                     **error)
{
  *fit = options->ladder != NULL && strcmp (options->ladder, "fit") == 0;
  if (*fit)
    return NULL;
  return komi_ladder_resolve (options->ladder, options->db, protocol, error);
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

/* Prints @pool (only --subject's when given); the exit status. A pool
 * where nothing could be rated still shows the ladder and why. */
static int
report (KomiRatingPool *pool, const KomiCliRatingsOptions *options, FILE *out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean any_rated = FALSE;

  if (options->subject != NULL)
    {
      for (guint i = pool->subjects->len; i-- > 0;)
        if (strcmp (((KomiSubjectRating *) pool->subjects->pdata[i])->subject,
                    options->subject) != 0)
          g_ptr_array_remove_index (pool->subjects, i);
      for (guint i = pool->set_apart->len; i-- > 0;)
        if (strcmp (((KomiSetApart *) pool->set_apart->pdata[i])->subject,
                    options->subject) != 0)
          g_ptr_array_remove_index (pool->set_apart, i);
      if (pool->subjects->len == 0)
        {
          g_set_error (&error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                       _("no game of the subject '%s' in the results; subjects are named by "
                         "the label on the subject's side"), options->subject);
          return fail (error);
        }
    }
  if (pool->subjects->len == 0)
    {
      g_set_error_literal (&error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                           _("no game has a subject to rate (every game is a ladder game); "
                             "mark the subject's colour in each of its games"));
      return fail (error);
    }
  for (guint i = 0; i < pool->subjects->len; i++)
    any_rated |= ((KomiSubjectRating *) pool->subjects->pdata[i])->estimate.kind
                 != KOMI_ESTIMATE_NONE;
  if (options->json)
    print_json (out, komi_rating_pool_to_json_node (pool));
  else
    {
      text = komi_rating_pool_format_text (pool);
      /* Names come from the library, maybe a stranger's: no control
       * character of theirs reaches the terminal. */
      if (out == stdout)
        {
          g_autofree char *shown = komi_untrusted_visible (text);

          fputs (shown, out);
        }
      else
        fputs (text, out);
    }
  if (!any_rated && pool->set_apart->len > 0)
    {
      fprintf (stderr, "komi-cli ratings: %s\n",
               _("no game could be rated: every game of a subject was set apart (listed "
                 "above, each with its reason); 'komi-cli ladder check' says what to install "
                 "or change"));
      return 1;
    }
  return 0;
}

/* Everything after the results are read: calibrates (`calibrate`, or
 * --ladder fit) or takes @frozen, rates the subjects (@pool when read from
 * the library, else from @results) and prints the ladder and their
 * ratings to @out, then the games set apart; returns the exit status. */
int
komi_cli_ratings_run (const KomiGameResult        *results,
                      gsize                        n_results,
                      const KomiCliRatingsOptions *options,
                      KomiLadder                  *frozen,
                      KomiRatingPool              *pool,
                      FILE                        *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) fitted = NULL;
  g_autoptr(GArray) ladder_games = NULL;
  g_autoptr(GArray) subject_games = NULL;
  g_autoptr(KomiRatingPool) owned = NULL;
  g_autofree char *text = NULL;
  KomiLadder *ladder = frozen;

  if (options->calibrate || frozen == NULL)
    {
      /* `calibrate` fits every game given; --ladder fit only the games
       * without a subject, the rest being the subjects' to rate. */
      ladder_games = select_games (results, n_results, options, options->calibrate ? -1 : 0);
      if (ladder_games->len == 0 && !options->calibrate)
        {
          g_set_error_literal (&error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                               _("no ladder to rate against: --ladder fit needs ladder games "
                                 "(rows with no subject) in the results; leave --ladder out "
                                 "to rate against the shipped ladder"));
          return fail (error);
        }
      ladder = fitted = komi_ladder_calibrate ((KomiGameResult *) (void *) ladder_games->data,
                                               ladder_games->len, options->pinned,
                                               options->pinned_rating, &error);
      if (ladder == NULL)
        return fail (error);
      if (!options->calibrate && options->db != NULL)
        fitted->origin = KOMI_LADDER_ORIGIN_LIBRARY;
    }

  if (options->calibrate)
    {
      /* From a library: its own scale; from results files: the file's. */
      fitted->origin = options->db != NULL ? KOMI_LADDER_ORIGIN_LIBRARY : KOMI_LADDER_ORIGIN_FILE;
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

  if (pool == NULL)
    {
      /* Results files, or --ladder fit: the same policy over these games. */
      subject_games = select_games (results, n_results, options, 1);
      pool = owned = komi_rating_pool_new (ladder, (KomiGameResult *) (void *) subject_games->data,
                                           subject_games->len, NULL, NULL, &error);
      if (pool == NULL)
        return fail (error);
    }
  /* The members' covariance through each subject's sensitivity to them
   * (komi_rating_ladder_variance()); ranks do not move, the MLEs being
   * unchanged. */
  if (options->with_ladder && !komi_rating_add_ladder_uncertainty (pool->ladder, pool->subjects,
                                                                   &error))
    return fail (error);
  return report (pool, options, out);
}

/* `ratings [calibrate] --results FILE…`: reads the files and runs. */
int
komi_cli_ratings (int argc, char **argv)
{
  g_auto(KomiCliRatingsOptions) options = { .pinned_rating = 0 };
  /* Translated here, the default not being in the catalogue; GOptionContext
   * finds no msgid for it and prints it as it is. */
  g_autofree char *pin_help = g_strdup_printf (_("The ladder member whose rating is fixed "
                                                 "(default %s)"), KOMI_LADDER_DEFAULT_PINNED);
  const GOptionEntry entries[] = {
    { "results", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &options.results,
      N_("Game results, CSV with a header row or JSON Lines (repeatable)"), N_("FILE") },
    { "ladder", 'l', 0, G_OPTION_ARG_FILENAME, &options.ladder,
      N_("The ladder to rate against: shipped (the default: the Protocol's ladder shipped "
         "with Komi, one scale for everyone), library (this library's own calibration, from "
         "'ratings calibrate'), fit (fitted from the games without a subject), or a ladder "
         "file"), N_("LADDER") },
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
    { "with-ladder-uncertainty", 0, 0, G_OPTION_ARG_NONE, &options.with_ladder,
      N_("Widen each interval by the ladder's own uncertainty (its members' covariance), so "
         "that subjects rated near different rungs can be compared"), NULL },
    { NULL }
  };
  g_autoptr(KomiResultList) all = komi_result_list_new ();
  g_autoptr(KomiRatingPool) pool = NULL;
  g_autoptr(KomiLadder) frozen = NULL;
  g_autoptr(GError) error = NULL;
  gboolean fit = FALSE;
  guint protocol;
  int status;

  if (argc > 1 && strcmp (argv[1], "calibrate") == 0)
    {
      options.calibrate = TRUE;
      argc--;
      argv++;
    }
  {
    const KomiCliOptions parse = {
      "ratings", options.calibrate ? N_("- fit the ladder's ratings from games among its members")
                                   : N_("[calibrate] - rate subjects against the ladder"),
      .summary = N_("'ratings' rates every subject of the library against the ladder shipped "
                    "with Komi;\n'ratings calibrate --series ID' freezes this library's own "
                    "ladder from its engine games (rate against it with --ladder library). "
                    "--results reads CSV or JSON Lines files instead."),
      .entries = entries, .args = KOMI_CLI_ARGS_NONE,
      .wrong_args = N_("unexpected argument (see komi-cli ratings --help)") };

    if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
      return status;
  }
  if (options.protocol < 0)
    return komi_cli_usage ("ratings", "%s", _("--protocol takes a number of 1 or more"));
  if (options.results != NULL && options.series != NULL)
    return komi_cli_usage ("ratings", "%s", _("--series picks games of the library; it does not "
                                              "go with --results"));
  if (options.output != NULL && !options.calibrate)
    return komi_cli_usage ("ratings", "%s", _("--output writes a ladder; use it with 'ratings "
                                              "calibrate'"));

  protocol = options.protocol > 0 ? (guint) options.protocol : 1;
  if (options.results == NULL && options.db == NULL)
    options.db = komi_store_default_path ();
  if (!options.calibrate && (frozen = resolve_ladder (&options, protocol, &fit, &error)) == NULL
      && !fit)
    return fail (error);

  if (options.results == NULL)
    {
      g_autoptr(KomiStore) store = NULL;
      g_autoptr(GArray) ids = g_array_new (TRUE, TRUE, sizeof (gint64));

      if (options.calibrate && options.output == NULL)
        options.output = komi_ladder_library_path (options.db, protocol);
      if (!komi_cli_parse_series (options.series, ids, &error)
          || (store = komi_store_open_reader (options.db, &error)) == NULL)
        return fail (error);
      /* Against a frozen ladder, the rating layer's one policy decides
       * which games rate whom; calibrating and --ladder fit read the
       * members' games. */
      if (frozen != NULL && !options.calibrate)
        pool = komi_rating_pool_read (store, frozen,
                                      ids->len ? (gint64 *) (void *) ids->data : NULL, &error);
      if (frozen != NULL && !options.calibrate ? pool == NULL
          : !komi_ladder_read_library (store, NULL,
                                       ids->len ? (gint64 *) (void *) ids->data : NULL,
                                       options.calibrate, all, NULL, &error))
        return fail (error);
    }

  for (guint f = 0; options.results != NULL && options.results[f] != NULL; f++)
    {
      g_autoptr(KomiResultList) list = komi_result_list_load (options.results[f], &error);

      if (list == NULL)
        return fail (error);
      for (guint i = 0; i < list->results->len; i++)
        komi_result_list_add (all, komi_result_list_index (list, i));
    }

  return komi_cli_ratings_run ((KomiGameResult *) (void *) all->results->data,
                               all->results->len, &options, frozen, pool, stdout);
}
