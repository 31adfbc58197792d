/* komi-cli-rate.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "komi-cli.h"
#include "komi-rate-plan.h"
#include "komi-rating-library.h"
#include "komi-series-estimate.h"
#include "komi-series-runner.h"
#include "komi-store.h"
#include "komi-store-sink.h"

/* `rate SUBJECT`: rates a subject against a frozen ladder at the least
 * cost. One pair at a time against the rung that says the most about it
 * now, until its 95% interval is within the target or the budget is
 * spent. It is an ordinary series of the library with a pair_order that
 * grows pair by pair, so a kill and the same command again continue it,
 * and `resume` finishes the pairs already chosen. */

typedef struct
{
  char                *subject;
  KomiLadder          *ladder;
  KomiRatePlanOptions  options;
  double               budget;
  guint64              seed;
  const char          *referee;      /* NULL: the series' default */
  guint                jobs;
  KomiStore           *store;
  KomiSeriesSink      *sink;
  GArray              *order;        /* guint: the rung of each pair so far */
  GCancellable        *cancellable;
  GMainLoop           *loop;
  KomiSeries          *series;       /* the run in flight */
  KomiSeriesResult    *result;
  GError              *error;
} Rate;

/* The series' definition: every ladder member is an opponent, the pairs
 * in the order chosen. Its name is data, not text for people: translated
 * it would make another series in another language. */
static KomiSeries *
make_series (Rate *rate, double budget, GError **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *name = g_strdup_printf ("Rating: %s against the Protocol %u ladder",
                                           rate->subject, rate->ladder->protocol);
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, rate->seed);
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "protocol");
  json_builder_add_int_value (b, rate->ladder->protocol);
  json_builder_set_member_name (b, "subject");
  json_builder_add_string_value (b, rate->subject);
  json_builder_set_member_name (b, "opponents");
  json_builder_begin_array (b);
  for (guint i = 0; i < rate->ladder->members->len; i++)
    json_builder_add_string_value (b, ((KomiLadderMember *) rate->ladder->members->pdata[i])->label);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "pair_order");
  json_builder_begin_array (b);
  for (guint i = 0; i < rate->order->len; i++)
    json_builder_add_int_value (b, g_array_index (rate->order, guint, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "seed");
  json_builder_add_string_value (b, seed);
  if (rate->referee != NULL)
    {
      json_builder_set_member_name (b, "referee");
      json_builder_add_string_value (b, rate->referee);
    }
  json_builder_set_member_name (b, "jobs");
  json_builder_add_int_value (b, rate->jobs);
  if (budget > 0)
    {
      json_builder_set_member_name (b, "budget_usd");
      json_builder_add_double_value (b, budget);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  return komi_series_new_from_json (text, -1, error);
}

/* The pairs an earlier run of the same command chose, from the library. */
static gboolean
load_order (Rate *rate, GError **error)
{
  g_autoptr(KomiSeries) probe = make_series (rate, 0, error);
  g_autoptr(GPtrArray) list = NULL;

  if (probe == NULL)
    return FALSE;
  list = komi_store_list_series (rate->store, error);
  if (list == NULL)
    return FALSE;
  for (guint i = 0; i < list->len; i++)
    {
      KomiStoreSeries *s = g_ptr_array_index (list, i);
      g_autoptr(KomiSeries) stored = NULL;

      if (g_strcmp0 (s->digest, probe->digest) != 0)
        continue;
      stored = komi_series_new_from_json (s->definition, -1, error);
      if (stored == NULL)
        return FALSE;
      g_array_set_size (rate->order, 0);
      if (stored->pair_order != NULL)
        g_array_append_vals (rate->order, stored->pair_order->data, stored->pair_order->len);
      printf (g_dngettext (NULL, "Continuing series %" PRId64 ": %u pair chosen "
                                 "so far\n",
                           "Continuing series %" PRId64 ": %u pairs chosen so far\n",
                           rate->order->len), s->id, rate->order->len);
    }
  return TRUE;
}

/* The subject's results against each member, from the series' games, as
 * the ratings count them (voids never, forfeits as losses). Adds up the
 * money spent on the way. */
static gboolean
read_cells (Rate *rate, gint64 series_id, KomiRatingCell *cells, double *spent, GError **error)
{
  g_autoptr(GPtrArray) games = komi_store_list_games (rate->store, series_id, error);
  g_autoptr(KomiResultList) results = komi_result_list_new ();
  g_autoptr(GPtrArray) rated = NULL;
  KomiSubjectRating *subject;

  if (games == NULL)
    return FALSE;
  komi_rate_plan_cells (rate->ladder, NULL, NULL, cells);
  *spent = 0;
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *g = g_ptr_array_index (games, i);
      KomiGameResult r;

      if (isfinite (g->cost_usd))
        *spent += g->cost_usd;
      if (komi_game_result_from_store_game (g, &r))
        komi_result_list_add (results, &r);
    }
  if (results->results->len == 0)
    return TRUE;
  rated = komi_rating_rate_subjects (rate->ladder, komi_result_list_index (results, 0),
                                     results->results->len, error);
  if (rated == NULL)
    return FALSE;
  subject = g_ptr_array_index (rated, 0);
  for (guint i = 0; i < subject->opponents->len; i++)
    {
      KomiScoreRow *row = &g_array_index (subject->opponents, KomiScoreRow, i);

      for (guint m = 0; m < rate->ladder->members->len; m++)
        if (g_strcmp0 (((KomiLadderMember *) rate->ladder->members->pdata[m])->label,
                       row->label) == 0)
          {
            cells[m].games = komi_score_row_games (row);
            cells[m].score = row->wins + row->draws / 2.0;
          }
    }
  return TRUE;
}

static gpointer
run_thread (gpointer user_data)
{
  Rate *rate = user_data;

  rate->result = komi_series_run (rate->series, rate->sink, rate->jobs, NULL, NULL,
                                  rate->cancellable, &rate->error);
  g_main_loop_quit (rate->loop);
  return NULL;
}

static gboolean
on_interrupt (gpointer user_data)
{
  Rate *rate = user_data;

  if (!g_cancellable_is_cancelled (rate->cancellable))
    {
      fprintf (stderr, _("\nStopping: the games in flight keep their committed moves and "
                         "resume on the next run.\n"));
      g_cancellable_cancel (rate->cancellable);
    }
  return G_SOURCE_CONTINUE;
}

/* Plays the pairs chosen so far that have not ended (at most the last
 * one, unless an earlier run was killed). */
static gint64
play (Rate *rate, double spent, GError **error)
{
  /* The runner's budget is per run: what is left of ours (never 0, which
   * would mean none). */
  g_autoptr(KomiSeries) series = make_series (rate, rate->budget > 0
                                                    ? MAX (rate->budget - spent, 1e-9) : 0,
                                              error);
  GThread *thread;
  gint64 id;

  if (series == NULL)
    return 0;
  rate->series = series;
  thread = g_thread_new ("komi-rate", run_thread, rate);
  g_main_loop_run (rate->loop);
  g_thread_join (thread);
  rate->series = NULL;
  if (rate->result == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&rate->error));
      return 0;
    }
  id = rate->result->series_id;
  g_clear_pointer (&rate->result, komi_series_result_free);
  return id;
}

/* What one more pair against @rung typically costs, at the profile's prices. */
static double
pair_cost (Rate *rate, guint rung)
{
  g_autoptr(GArray) saved = rate->order;
  g_autoptr(KomiSeries) one = NULL;
  KomiSeriesEstimate estimate;

  rate->order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (rate->order, rung);
  one = make_series (rate, 0, NULL);
  g_array_unref (rate->order);
  rate->order = g_steal_pointer (&saved);
  if (one == NULL || !komi_series_estimate (&estimate, one, NULL))
    return 0;
  return estimate.cost;
}

static void
print_step (const Rate *rate, const KomiRateDecision *d)
{
  g_autofree char *estimate = komi_estimate_describe (&d->estimate);

  /* Translators: "after 5 pairs (10 games): 1234 (95% CI 1120 to 1350, SE 58)" */
  printf (g_dngettext (NULL, "after %u pair (%.0f games): %s\n",
                       "after %u pairs (%.0f games): %s\n", d->pairs),
          d->pairs, d->games, estimate);
}

static int
rate_subject (Rate *rate)
{
  g_autoptr(GError) error = NULL;
  g_autofree KomiRatingCell *cells = g_new (KomiRatingCell, rate->ladder->members->len);
  KomiRateDecision d = { 0, };
  gint64 series_id = 0;
  double spent = 0;
  guint sigint, sigterm;
  int status = 0;

  if (!load_order (rate, &error))
    return komi_cli_fail ("rate", error);
  komi_rate_plan_cells (rate->ladder, NULL, NULL, cells);
  sigint = g_unix_signal_add (SIGINT, on_interrupt, rate);
  sigterm = g_unix_signal_add (SIGTERM, on_interrupt, rate);
  for (;;)
    {
      if (rate->order->len > 0)
        {
          if ((series_id = play (rate, spent, &error)) == 0
              || !read_cells (rate, series_id, cells, &spent, &error))
            break;
        }
      komi_rate_plan_decide (rate->ladder, cells, &rate->options, &d);
      if (rate->order->len > 0)
        print_step (rate, &d);
      if (d.stop == KOMI_RATE_CONTINUE && rate->budget > 0
          && spent + pair_cost (rate, d.rung) > rate->budget)
        d.stop = KOMI_RATE_BUDGET;
      if (d.stop != KOMI_RATE_CONTINUE)
        break;
      g_array_append_val (rate->order, d.rung);
      printf (_("pair %u: against %s\n"), rate->order->len,
              ((KomiLadderMember *) rate->ladder->members->pdata[d.rung])->label);
      fflush (stdout);
    }
  g_source_remove (sigint);
  g_source_remove (sigterm);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      printf ("%s\n", _("Stopped. Run the same command again to continue."));
      return 130;
    }
  if (error != NULL)
    return komi_cli_fail ("rate", error);
  {
    g_autofree char *estimate = komi_estimate_describe (&d.estimate);

    if (series_id > 0)
      printf (_("\nSeries %" PRId64 ", %s: %s\n"), series_id, rate->subject,
              estimate);
    printf (g_dngettext (NULL, "Stopped after %u pair: %s; $%.4f spent at the profiles' "
                               "prices.\n",
                         "Stopped after %u pairs: %s; $%.4f spent at the profiles' prices.\n",
                         d.pairs),
            d.pairs, komi_rate_stop_describe (d.stop), spent);
  }
  return status;
}

int
komi_cli_rate (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (N_("SUBJECT - rate a player "
                                                               "against the ladder at the "
                                                               "least cost"));
  g_autoptr(GError) error = NULL;
  g_autofree char *db = NULL, *ladder_path = NULL, *seed_text = NULL, *referee = NULL;
  double target = KOMI_RATE_DEFAULT_TARGET, budget = 0;
  int max_pairs = 0, min_pairs = KOMI_RATE_DEFAULT_MIN_PAIRS, jobs = 2;
  Rate rate = { 0, };
  int status;
  const GOptionEntry entries[] = {
    { "ladder", 'l', 0, G_OPTION_ARG_FILENAME, &ladder_path,
      N_("The frozen ladder (default: ladder-protocol-1.json beside the library)"),
      N_("FILE") },
    { "target", 0, 0, G_OPTION_ARG_DOUBLE, &target,
      /* xgettext:no-c-format */
      N_("Stop when the 95% interval is within ± this many Elo (default 100)"), N_("ELO") },
    { "budget-usd", 0, 0, G_OPTION_ARG_DOUBLE, &budget,
      N_("Stop before another pair could spend more than this, at the profile's prices"),
      N_("N") },
    { "max-pairs", 0, 0, G_OPTION_ARG_INT, &max_pairs, N_("Stop after this many pairs"),
      N_("N") },
    { "min-pairs", 0, 0, G_OPTION_ARG_INT, &min_pairs,
      N_("Pairs before the target may stop it (default 4)"), N_("N") },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed_text,
      N_("The series seed (default 1; another seed is another series)"), N_("S") },
    { "referee", 0, 0, G_OPTION_ARG_STRING, &referee,
      N_("Who judges dead stones: katago, gnugo or none (default gnugo)"), N_("NAME") },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default in the XDG data folder)"), N_("PATH") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, N_("Games at once (default 2: a pair)"),
      N_("N") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  rate.seed = 1;
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || !(target > 0)
      || budget < 0 || max_pairs < 0 || min_pairs < 0 || jobs < 1 || jobs > 64
      || (seed_text != NULL
          && !g_ascii_string_to_unsigned (seed_text, 10, 0, G_MAXUINT64, &rate.seed, NULL)))
    return komi_cli_usage ("rate", "%s",
                           error ? error->message
                                 : _("give one player, e.g. komi-cli rate "
                                     "model:profile.json (--target above 0, --jobs from 1 to "
                                     "64, --seed a whole number)"));
  if (db == NULL)
    db = komi_store_default_path ();
  if (ladder_path == NULL)
    {
      g_autofree char *dir = g_path_get_dirname (db);

      ladder_path = g_build_filename (dir, "ladder-protocol-1.json", NULL);
    }
  rate.ladder = komi_ladder_load (ladder_path, &error);
  if (rate.ladder == NULL)
    return komi_cli_error ("rate", _("%s (give --ladder LADDER.json, made by 'komi-cli "
                                     "ratings calibrate')"), error->message);
  if (rate.ladder->members->len == 0)
    return komi_cli_error ("rate", "%s", _("the ladder has no members"));
  rate.store = komi_store_open (db, &error);
  if (rate.store == NULL)
    {
      komi_ladder_free (rate.ladder);
      return komi_cli_fail ("rate", error);
    }

  rate.subject = argv[1];
  rate.referee = referee;
  komi_rate_plan_options_init (&rate.options);
  rate.options.target = target;
  rate.options.min_pairs = (guint) min_pairs;
  rate.options.max_pairs = (guint) max_pairs;
  rate.budget = budget;
  rate.jobs = (guint) jobs;
  rate.sink = komi_store_new_sink (rate.store);
  rate.order = g_array_new (FALSE, FALSE, sizeof (guint));
  rate.cancellable = g_cancellable_new ();
  rate.loop = g_main_loop_new (NULL, FALSE);

  printf (_("Rating %s against %s (%u members), to ±%.0f Elo; library %s\n"), rate.subject,
          ladder_path, rate.ladder->members->len, target, db);
  fflush (stdout);
  status = rate_subject (&rate);

  g_clear_error (&rate.error);
  komi_store_sink_free (rate.sink);
  komi_store_unref (rate.store);
  komi_ladder_free (rate.ladder);
  g_array_unref (rate.order);
  g_object_unref (rate.cancellable);
  g_main_loop_unref (rate.loop);
  return status;
}
