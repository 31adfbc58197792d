/* komi-cli-analyse.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "komi-cli-util.h"
#include "komi-cli.h"
#include "komi-coords.h"
#include "komi-review.h"

/* `analyse`: engine review of games of the library, stored with them and
 * printed as a table per game, then the subject's blunders. */

/* GNU Go's final_score plays each position out: level 5 is over seven
 * times faster than level 10 on 9x9 and no noisier (measured in
 * komi-analysis-engine.c). */
#define GNUGO_REVIEW_SPEC "gnugo:5"

static GMutex progress_lock;

static void
on_progress (gint64 game_id, guint done, guint total, gpointer user_data)
{
  gint64 *started = user_data;

  if (done != total)
    return;
  g_mutex_lock (&progress_lock);
  fprintf (stderr, _("Game %" PRId64 ": %u positions analysed (%.0f s since the start)\n"),
           game_id, total, (g_get_monotonic_time () - *started) / (double) G_USEC_PER_SEC);
  g_mutex_unlock (&progress_lock);
}

static void
format_lead (char buf[16], double value)
{
  if (isnan (value))
    g_strlcpy (buf, "?", 16);
  else
    g_snprintf (buf, 16, "%+.1f", value);
}

/* Over "  %4s  %-7s %7s %7s %6s  %-5s %s" (a negative width: left-aligned). */
static const KomiCliHeading move_headings[] = {
  { N_("move"), 4, 2 }, { N_("played"), -7, 2 }, { N_("before"), 7, 1 }, { N_("after"), 7, 1 },
  { N_("lost"), 6, 1 }, { N_("best"), -5, 2 }, { "", 0, 1 },
};

static void
print_analysis (const KomiStoreGame *game, const KomiStoreAnalysis *a)
{
  guint n_bad = 0;

  printf (_("Game %" PRId64 ": %s (B) vs %s (W), %s\n"), game->id,
          game->black_name != NULL ? game->black_name : game->black_spec,
          game->white_name != NULL ? game->white_name : game->white_spec,
          game->result != NULL ? game->result : _("no result"));
  printf (_("  Analysis: %s (%s %s), %.1f s\n"), a->label, a->engine,
          a->engine_version != NULL ? a->engine_version : "", a->seconds);
  printf (_("  Leads are points for the side that moved (%s). Mistake: lost %g, blunder: %g.\n"),
          a->label, a->mistake, a->blunder);
  komi_cli_print_headings (stdout, move_headings, G_N_ELEMENTS (move_headings));
  for (guint i = 0; i < a->moves->len; i++)
    {
      const KomiStoreAnalysisMove *m = &g_array_index (a->moves, KomiStoreAnalysisMove, i);
      KomiMoveClass c = komi_store_analysis_classify (a, m);
      char point[KOMI_NAME_LEN + 1], best[KOMI_NAME_LEN + 1];
      char before[16], after[16];

      format_lead (before, m->lead_before);
      format_lead (after, m->lead_after);
      printf ("  %4u  %c %-5s %7s %7s %6.1f  %-5s %s\n", m->turn,
              m->color == KOMI_BLACK ? 'B' : 'W', komi_point_to_name (game->size, m->point, point),
              before, after, isnan (m->loss) ? 0.0 : m->loss,
              m->best == KOMI_NO_POINT ? "-" : komi_point_to_name (game->size, m->best, best),
              komi_move_class_to_string (c));
    }

  /* A series game's subject is the model under test; an imported game has
   * none, so both sides' blunders are listed. */
  if (game->subject != KOMI_EMPTY)
    printf (_("  Blunders of the subject (%s):\n"), komi_color_to_name (game->subject));
  else
    printf ("%s\n", _("  Blunders:"));
  for (guint i = 0; i < a->moves->len; i++)
    {
      const KomiStoreAnalysisMove *m = &g_array_index (a->moves, KomiStoreAnalysisMove, i);
      char point[KOMI_NAME_LEN + 1], best[KOMI_NAME_LEN + 1];

      if (komi_store_analysis_classify (a, m) != KOMI_MOVE_CLASS_BLUNDER
          || (game->subject != KOMI_EMPTY && m->color != game->subject))
        continue;
      n_bad++;
      if (m->best == KOMI_NO_POINT)
        printf (_("    move %u, %s %s: lost %.1f points, best was to resign (%s)\n"), m->turn,
                komi_color_to_name (m->color),
                komi_point_to_name (game->size, m->point, point), m->loss, a->label);
      else
        printf (_("    move %u, %s %s: lost %.1f points, best was %s (%s)\n"), m->turn,
                komi_color_to_name (m->color),
                komi_point_to_name (game->size, m->point, point), m->loss,
                komi_point_to_name (game->size, m->best, best), a->label);
    }
  if (n_bad == 0)
    printf ("%s\n", _("    none"));
}

/* The series named @text: its number, or its exact name. */
static gboolean
find_series (KomiStore *store, const char *text, gint64 *series_id, GError **error)
{
  g_autoptr(GPtrArray) all = komi_store_list_series (store, error);
  char *end;
  gint64 id = g_ascii_strtoll (text, &end, 10);

  if (all == NULL)
    return FALSE;
  for (guint i = 0; i < all->len; i++)
    {
      const KomiStoreSeries *s = g_ptr_array_index (all, i);

      if ((*end == '\0' && s->id == id) || g_strcmp0 (s->name, text) == 0)
        {
          *series_id = s->id;
          return TRUE;
        }
    }
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
               _("The library holds no series “%s”; 'komi-cli series' lists them"), text);
  return FALSE;
}

int
komi_cli_analyse (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiGtpRecipe) recipe = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *db = NULL;
  g_autofree char *path = NULL;
  g_autofree char *series = NULL;
  g_autofree char *engine = NULL;
  g_autofree char *spec = NULL;
  g_auto(KomiCliEngineOptions) engine_options = { 0, };
  KomiPlayerOptions player_options;
  KomiReviewOptions options = { 0, };
  gint64 game_id = 0;
  gint64 started;
  double mistake = KOMI_REVIEW_DEFAULT_MISTAKE, blunder = KOMI_REVIEW_DEFAULT_BLUNDER;
  int jobs = 1, status;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default: $XDG_DATA_HOME/komi/library.db)"), N_("PATH") },
    { "game", 0, 0, G_OPTION_ARG_INT64, &game_id, N_("Analyse this game"), N_("ID") },
    { "series", 0, 0, G_OPTION_ARG_STRING, &series,
      N_("Analyse every begun game of this series"), N_("NAME|ID") },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &engine,
      N_("katago[:VISITS] or gnugo[:LEVEL] (default katago when configured, else gnugo:5)"),
      N_("ENGINE") },
    { "mistake", 0, 0, G_OPTION_ARG_DOUBLE, &mistake,
      N_("Points lost that make a move a mistake (default 3)"), N_("POINTS") },
    { "blunder", 0, 0, G_OPTION_ARG_DOUBLE, &blunder,
      N_("Points lost that make a move a blunder (default 6)"), N_("POINTS") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
      N_("Games analysed at once, each by an engine of its own (default 1)"), N_("N") },
    { NULL }
  };

  const KomiCliOptions parse = {
    "analyse", N_("- review games of the library with an engine"), .description =
    N_("For every move: the lead before and after it for the side that moved, the points it "
       "lost, and the engine's best move. KataGo's numbers are its search; without KataGo, GNU "
       "Go plays each position out and counts, shown as \"GNU Go estimate\": coarse in the "
       "opening, fair later. The analysis is stored in the library (again replaces it) and "
       "'komi-cli export --sgf' writes it into the SGF for Sabaki.\n\nExample:\n"
       "  komi-cli analyse --series 1 --engine gnugo --jobs 2"),
    .entries = entries, .engines = &engine_options, .args = KOMI_CLI_ARGS_NONE,
    .wrong_args = N_("unexpected argument; name the games with --game or --series") };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  komi_cli_engine_options_get (&engine_options, &player_options);
  if ((game_id > 0) == (series != NULL) || game_id < 0)
    return komi_cli_usage ("analyse", "%s", _("say what to analyse: --game ID or --series "
                                              "NAME|ID (one of them)"));
  if (jobs < 1 || jobs > 64)
    return komi_cli_usage ("analyse", "%s", _("--jobs takes 1 to 64"));
  if (!(mistake > 0) || !(blunder >= mistake))
    return komi_cli_usage ("analyse", "%s", _("--mistake must be above 0 and --blunder at "
                                              "least it"));

  if (engine == NULL)
    spec = g_strdup (g_getenv ("KOMI_KATAGO") != NULL || engine_options.katago_binary != NULL
                     ? "katago" : GNUGO_REVIEW_SPEC);
  else if (strcmp (engine, "gnugo") == 0)
    spec = g_strdup (GNUGO_REVIEW_SPEC);
  else if (g_str_has_prefix (engine, "gnugo:") || g_str_has_prefix (engine, "katago"))
    spec = g_strdup (engine);
  else
    return komi_cli_usage ("analyse",
                           _("--engine takes katago[:VISITS] or gnugo[:LEVEL], not “%s”"),
                           engine);
  recipe = komi_gtp_recipe_new_from_spec (spec, &player_options, &error);
  if (recipe == NULL)
    return komi_cli_fail ("analyse", error);

  path = db != NULL ? g_strdup (db) : komi_store_default_path ();
  if ((store = komi_store_open_reader (path, &error)) == NULL)
    return komi_cli_fail ("analyse", error);
  if (series != NULL)
    {
      g_autoptr(GPtrArray) games = NULL;
      gint64 series_id;

      if (!find_series (store, series, &series_id, &error)
          || (games = komi_store_list_games (store, series_id, &error)) == NULL)
        return komi_cli_fail ("analyse", error);
      for (guint i = 0; i < games->len; i++)
        {
          const KomiStoreGame *g = g_ptr_array_index (games, i);

          if (g->status != KOMI_GAME_STATUS_PENDING && g->n_moves > 0)
            g_array_append_val (ids, g->id);
        }
      if (ids->len == 0)
        return komi_cli_error ("analyse", _("series “%s” has no game with moves yet"), series);
    }
  else
    g_array_append_val (ids, game_id);

  options.recipe = recipe;
  options.mistake = mistake;
  options.blunder = blunder;
  options.jobs = (guint) jobs;
  started = g_get_monotonic_time ();
  {
    g_autoptr(KomiStore) writer = komi_store_open (path, &error);

    if (writer == NULL
        || !komi_review_analyse_games (writer, ids, &options, on_progress, &started, NULL,
                                       &error))
      return komi_cli_fail ("analyse", error);
  }

  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      g_autoptr(KomiStoreGame) game = komi_store_load_game (store, id, &error);
      g_autoptr(KomiStoreAnalysis) analysis = NULL;

      if (game == NULL || (analysis = komi_store_load_analysis (store, id, &error)) == NULL)
        {
          if (error == NULL)
            g_set_error (&error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND,
                         _("the analysis of game %" PRId64 " was not stored"), id);
          return komi_cli_fail ("analyse", error);
        }
      if (i > 0)
        printf ("\n");
      print_analysis (game, analysis);
    }
  return 0;
}
