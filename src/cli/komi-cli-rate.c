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
#include <stdio.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-ladder-ship.h"
#include "komi-provider.h"
#include "komi-rate-run.h"
#include "komi-rating-pool.h"
#include "komi-store-sink.h"

/* `rate SUBJECT`: rates a subject against a frozen ladder at the least
 * cost (komi-rate-run.h does it), printing the estimate after each pair.
 * The main thread only waits for Ctrl-C and the end. */

typedef struct
{
  const KomiLadder   *ladder;
  KomiRateRunOptions  options;
  KomiStore          *store;
  KomiSeriesSink     *sink;
  GCancellable       *cancellable;
  GMainLoop          *loop;
  gboolean            ok;
  KomiRateRunResult   result;
  gboolean            with_ladder;  /* --with-ladder-uncertainty */
  GError             *error;
} Rate;

/* From the worker thread: one line per event, flushed for a log. */
static void
on_event (const KomiRateRunEvent *event, gpointer user_data)
{
  g_autofree char *estimate = NULL;

  switch (event->kind)
    {
    case KOMI_RATE_RUN_CONTINUING:
      printf (g_dngettext (NULL, "Continuing series %" PRId64 ": %u pair chosen so far\n",
                           "Continuing series %" PRId64 ": %u pairs chosen so far\n",
                           event->pairs), event->series_id, event->pairs);
      break;
    case KOMI_RATE_RUN_CHOSEN:
      printf (_("pair %u: against %s\n"), event->pairs, event->label);
      break;
    case KOMI_RATE_RUN_RATED:
      estimate = komi_estimate_describe (&event->decision->estimate);
      /* Translators: "after 5 pairs (10 games): 1234 (95% CI 1120 to 1350, SE 58)" */
      printf (g_dngettext (NULL, "after %u pair (%.0f games): %s\n",
                           "after %u pairs (%.0f games): %s\n", event->decision->pairs),
              event->decision->pairs, event->decision->games, estimate);
      break;
    default:
      g_assert_not_reached ();
    }
  fflush (stdout);
}

static gpointer
run_thread (gpointer user_data)
{
  Rate *rate = user_data;

  rate->ok = komi_rate_run (rate->ladder, &rate->options, rate->store, rate->sink,
                            rate->cancellable, &rate->result, &rate->error);
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

static int
rate_subject (Rate *rate)
{
  g_autofree char *estimate = NULL, *spent = NULL;
  GThread *thread;
  guint sigint, sigterm;

  rate->sink = komi_store_new_sink (rate->store);
  rate->cancellable = g_cancellable_new ();
  rate->loop = g_main_loop_new (NULL, FALSE);
  sigint = g_unix_signal_add (SIGINT, on_interrupt, rate);
  sigterm = g_unix_signal_add (SIGTERM, on_interrupt, rate);
  thread = g_thread_new ("komi-rate", run_thread, rate);
  g_main_loop_run (rate->loop);
  g_thread_join (thread);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  komi_store_sink_free (rate->sink);
  g_object_unref (rate->cancellable);
  g_main_loop_unref (rate->loop);

  if (g_error_matches (rate->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      printf ("%s\n", _("Stopped. Run the same command again to continue."));
      return 130;
    }
  if (!rate->ok)
    return komi_cli_fail ("rate", rate->error);
  estimate = komi_estimate_describe (&rate->result.last.estimate);
  if (rate->result.series_id > 0)
    printf (_("\nSeries %" PRId64 ", %s: %s\n"), rate->result.series_id, rate->options.subject,
            estimate);
  if (rate->with_ladder && rate->result.series_id > 0)
    {
      /* The series as `ratings --series ID --with-ladder-uncertainty` rates
       * it: the same pool, the same widening. The stop was on the
       * subject's own interval, the ladder's share being fixed by the
       * calibration whatever the subject plays. */
      const gint64 series[] = { rate->result.series_id, 0 };
      g_autoptr(KomiRatingPool) pool = komi_rating_pool_read (rate->store, rate->ladder, series,
                                                              &rate->error);
      KomiSubjectRating *subject = pool != NULL ? komi_rating_pool_lookup (pool,
                                                                           rate->options.subject)
                                                : NULL;
      g_autofree char *widened = NULL;

      if (pool == NULL || !komi_rating_add_ladder_uncertainty (rate->ladder, pool->subjects,
                                                               &rate->error))
        return komi_cli_fail ("rate", rate->error);
      if (subject != NULL)
        {
          widened = komi_estimate_describe (&subject->estimate);
          printf (_("With the ladder's uncertainty: %s\n"), widened);
        }
    }
  spent = komi_cost_text (rate->result.spent);
  printf (g_dngettext (NULL, "Stopped after %u pair: %s; %s spent at the profiles' "
                             "prices.\n",
                       "Stopped after %u pairs: %s; %s spent at the profiles' prices.\n",
                       rate->result.last.pairs),
          rate->result.last.pairs, komi_rate_stop_describe (rate->result.last.stop), spent);
  return 0;
}

int
komi_cli_rate (int argc, char **argv)
{
  static const char usage[] = N_("give one player, e.g. komi-cli rate model:profile.json "
                                 "(--target above 0, --jobs from 1 to 64, --seed a whole "
                                 "number)");
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autofree char *db = NULL, *ladder_path = NULL, *seed_text = NULL, *referee = NULL;
  /* The options' defaults, the application's too. */
  Rate rate = { .options = KOMI_RATE_RUN_OPTIONS_INIT };
  double target = rate.options.plan.target, budget = rate.options.budget_usd;
  int max_pairs = (int) rate.options.plan.max_pairs, min_pairs = (int) rate.options.plan.min_pairs;
  int jobs = (int) rate.options.jobs;
  guint64 seed = rate.options.seed;
  int status;
  const GOptionEntry entries[] = {
    { "ladder", 'l', 0, G_OPTION_ARG_FILENAME, &ladder_path,
      N_("The ladder: shipped (the default: the ladder shipped with Komi), library (this "
         "library's own calibration) or a ladder file"),
      N_("FILE") },
    { "target", 0, 0, G_OPTION_ARG_DOUBLE, &target,
      /* xgettext:no-c-format */
      N_("Stop when the 95% interval is within ± this many Elo (default 105)"), N_("ELO") },
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
      N_("Who judges dead stones: katago, gnugo or none (default: the ladder's referee, "
         "KataGo for the shipped ladder; gnugo for a ladder without one)"), N_("NAME") },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default in the XDG data folder)"), N_("PATH") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, N_("Games at once (default 2: a pair)"),
      N_("N") },
    { "with-ladder-uncertainty", 0, 0, G_OPTION_ARG_NONE, &rate.with_ladder,
      N_("At the end, also give the interval widened by the ladder's own uncertainty (its "
         "members' covariance); the stop stays on the subject's own interval"), NULL },
    { NULL }
  };

  const KomiCliOptions parse = { "rate", N_("SUBJECT - rate a player against the ladder at the "
    "least cost"), .entries = entries, .args = KOMI_CLI_ARGS_ONE, .wrong_args = usage };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (!(target > 0) || budget < 0 || max_pairs < 0 || min_pairs < 0 || jobs < 1 || jobs > 64
      || (seed_text != NULL
          && !g_ascii_string_to_unsigned (seed_text, 10, 0, G_MAXUINT64, &seed, NULL)))
    return komi_cli_usage ("rate", "%s", _(usage));
  if (db == NULL)
    db = komi_store_default_path ();
  ladder = komi_ladder_resolve (ladder_path, db, KOMI_PROTOCOL_LATEST, &error);
  if (ladder == NULL)
    return komi_cli_fail ("rate", error);
  if (ladder->members->len == 0)
    return komi_cli_error ("rate", "%s", _("the ladder has no members"));
  if (rate.with_ladder)
    {
      /* Said before any game is paid for: the ladder file must hold its covariance. */
      g_autoptr(GPtrArray) none = g_ptr_array_new ();

      if (!komi_rating_add_ladder_uncertainty (ladder, none, &error))
        return komi_cli_fail ("rate", error);
    }
  rate.store = komi_store_open (db, &error);
  if (rate.store == NULL)
    return komi_cli_fail ("rate", error);

  rate.ladder = ladder;
  rate.options.subject = argv[1];
  rate.options.plan.target = target;
  rate.options.plan.min_pairs = (guint) min_pairs;
  rate.options.plan.max_pairs = (guint) max_pairs;
  rate.options.budget_usd = budget;
  rate.options.seed = seed;
  rate.options.referee = referee;
  rate.options.jobs = (guint) jobs;
  rate.options.event_func = on_event;
  rate.options.event_data = &rate;

  printf (_("Rating %s against %s (%u members), to ±%.0f Elo; library %s\n"), argv[1],
          ladder_path != NULL ? ladder_path : _("the shipped Protocol 1 ladder"),
          ladder->members->len, target, db);
  fflush (stdout);
  status = rate_subject (&rate);
  g_clear_error (&rate.error);
  komi_store_unref (rate.store);
  return status;
}
