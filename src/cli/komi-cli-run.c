/* komi-cli-run.c
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
#include <unistd.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-model-player.h"
#include "komi-provider.h"
#include "komi-series-runner.h"
#include "komi-store.h"
#include "komi-store-sink.h"
#include "komi-untrusted.h"

/* `run SERIES.json` and `resume SERIES_ID`: a series on worker threads,
 * recorded move by move in the library, with a progress line and a
 * summary. The main thread only waits for Ctrl-C and the end. */

typedef struct
{
  KomiSeries       *series;
  KomiSeriesSink   *sink;
  guint             jobs;
  GCancellable     *cancellable;
  GMainLoop        *loop;
  gboolean          tty;
  KomiSeriesResult *result;
  GError           *error;
} RunData;

static void
format_duration (char *buf, gsize size, double seconds)
{
  guint s = seconds < 0 ? 0 : (guint) (seconds + 0.5);

  if (s >= 3600)
    g_snprintf (buf, size, "%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
  else
    g_snprintf (buf, size, "%u:%02u", s / 60, s % 60);
}

static void
on_progress (const KomiSeriesProgress *p,
             const KomiPlannedGame    *game,
             const KomiGameRecord     *record,
             gpointer                  user_data)
{
  RunData *data = user_data;
  char elapsed[32], eta[32] = "?";

  /* In a log, one line per ended game; on a terminal, one line kept fresh. */
  if (record == NULL && !data->tty)
    return;
  format_duration (elapsed, sizeof elapsed, p->elapsed);
  if (p->eta >= 0)
    format_duration (eta, sizeof eta, p->eta);

  if (record != NULL && !data->tty)
    printf (_("game %u: %s (X) vs %s (O): %s%s%s\n"), game->index + 1, game->black, game->white,
            record->result,
            record->outcome != KOMI_OUTCOME_FINISHED ? " — " : "",
            record->outcome != KOMI_OUTCOME_FINISHED ? record->void_reason : "");
  fputs (data->tty ? "\r\033[K" : "", data->tty ? stderr : stdout);
  /* Translators: a progress line, "3/10 games done, 2 running, 1:05 elapsed, ETA 2:30" */
  fprintf (data->tty ? stderr : stdout, _("%u/%u games done, %u running, %s elapsed, ETA %s"),
           p->done, p->total, p->running, elapsed, eta);
  if (p->calls > 0)
    {
      g_autofree char *cost = komi_cost_text (p->cost);

      fprintf (data->tty ? stderr : stdout, _(", %u model calls, %s"), p->calls, cost);
    }
  fputs (data->tty ? "" : "\n", data->tty ? stderr : stdout);
  fflush (data->tty ? stderr : stdout);
}

static gpointer
run_thread (gpointer user_data)
{
  RunData *data = user_data;

  data->result = komi_series_run (data->series, data->sink, data->jobs, on_progress, data,
                                  data->cancellable, &data->error);
  g_main_loop_quit (data->loop);
  return NULL;
}

static gboolean
on_interrupt (gpointer user_data)
{
  RunData *data = user_data;

  if (g_cancellable_is_cancelled (data->cancellable))
    return G_SOURCE_CONTINUE;
  fprintf (stderr, _("\nStopping: the games in flight keep their committed moves and resume "
                     "on the next run.\n"));
  g_cancellable_cancel (data->cancellable);
  return G_SOURCE_CONTINUE;
}

/* Over "%-22s %-6s %5s %5s %5s %5s %8s %6s %5s %8s %10s": a negative width
 * is left-aligned. */
static const KomiCliHeading summary_headings[] = {
  { N_("opponent"), -22, 0 }, { N_("colour"), -6, 1 }, { N_("games"), 5, 1 },
  { N_("wins"), 5, 1 }, { N_("losses"), 5, 1 }, { N_("draws"), 5, 1 }, { N_("margin"), 8, 1 },
  { N_("limit"), 6, 1 }, { N_("void"), 5, 1 }, { N_("forfeit"), 8, 1 },
  { N_("unfinished"), 10, 1 },
};

/* Over "%4s  %-10s %6s %8s %6s  %s". */
static const KomiCliHeading series_headings[] = {
  { N_("id"), 4, 0 }, { N_("protocol"), -10, 2 }, { N_("games"), 6, 1 },
  { N_("finished"), 8, 1 }, { N_("void"), 6, 1 }, { N_("name"), 0, 2 },
};

static void
print_summary (KomiStore *store, gint64 series_id, const KomiSeries *series)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) rows = komi_store_summarize (store, series_id, &error);

  if (rows == NULL)
    {
      fprintf (stderr, "komi-cli run: ");
      fprintf (stderr, _("cannot read the summary: %s\n"), error->message);
      return;
    }
  {
    g_autofree char *name = komi_untrusted_visible (series->name);

    printf (_("\nSeries %" PRId64 ": %s\nSubject %s\n"), series_id, name, series->subject);
  }
  komi_cli_print_headings (stdout, summary_headings, G_N_ELEMENTS (summary_headings));
  for (guint i = 0; i < rows->len; i++)
    {
      KomiStoreSummary *r = &g_array_index (rows, KomiStoreSummary, i);
      char margin[32] = "-";

      if (!isnan (r->mean_margin))
        g_snprintf (margin, sizeof margin, "%+.1f", r->mean_margin);
      printf ("%-22s %-6s %5u %5u %6u %5u %8s %6u %5u %8u %10u\n", r->opponent_spec,
              r->subject == KOMI_BLACK ? "X" : "O", r->games, r->wins, r->losses, r->draws,
              margin, r->turn_limit, r->voids, r->forfeits, r->unfinished);
    }
  printf ("%s\n", _("(colour: the subject's; wins, losses, draws and the subject's mean area "
                     "margin count games ended by two passes; limit: games ended by the "
                     "120-turn limit, reported apart, as are void and forfeit games)"));
}

static int
run_series (const char *command, KomiSeries *series, const char *db_path, int jobs)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *default_path = NULL;
  KomiStore *store;
  RunData data = { 0, };
  GThread *thread;
  guint sigint, sigterm;
  int status = 0;

  if (db_path == NULL)
    db_path = default_path = komi_store_default_path ();
  store = komi_store_open (db_path, &error);
  if (store == NULL)
    return komi_cli_fail (command, error);
  /* A shard's library resumed (komi-cli resume, or run without --shard)
   * plays that shard, never the whole series. */
  if (!komi_store_keep_shard (store, series, &error))
    {
      komi_store_unref (store);
      return komi_cli_fail (command, error);
    }

  data.series = series;
  data.sink = komi_store_new_sink (store);
  data.jobs = jobs > 0 ? (guint) jobs : series->jobs;
  data.cancellable = g_cancellable_new ();
  data.loop = g_main_loop_new (NULL, FALSE);
  data.tty = isatty (STDERR_FILENO) && isatty (STDOUT_FILENO);

  {
    /* Names go to the terminal with their control characters written out. */
    g_autofree char *name = komi_untrusted_visible (series->name);

    printf (g_dngettext (NULL, "Series “%s”: %u games (%s against %u opponent), %u at once; "
                               "library %s\n",
                         "Series “%s”: %u games (%s against %u opponents), %u at once; "
                         "library %s\n", series->opponents->len),
            name, komi_series_count_games (series), series->subject,
            series->opponents->len, data.jobs, db_path);
  }
  if (series->n_shards > 1)
    {
      g_autoptr(GArray) plan = komi_series_plan_to_play (series);

      /* Translators: shard K of N of the series, and how many games it plays. */
      printf (g_dngettext (NULL, "Shard %u/%u: %u game of the plan; komi-cli merge brings the "
                                 "shards into one library\n",
                           "Shard %u/%u: %u games of the plan; komi-cli merge brings the "
                           "shards into one library\n", plan->len),
              series->shard + 1, series->n_shards, plan->len);
      /* N shards on one key: each keeps to its share of the limits. */
      komi_model_players_set_shards (series->n_shards);
    }
  fflush (stdout);

  sigint = g_unix_signal_add (SIGINT, on_interrupt, &data);
  sigterm = g_unix_signal_add (SIGTERM, on_interrupt, &data);
  thread = g_thread_new ("komi-series", run_thread, &data);
  g_main_loop_run (data.loop);
  g_thread_join (thread);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  if (data.tty)
    fputc ('\n', stderr);

  if (data.result != NULL)
    {
      printf (_("Played %u games in this run (%u resumed), %u had ended before.\n"),
              data.result->played, data.result->resumed, data.result->skipped);
      if (data.result->calls > 0)
        {
          g_autofree char *cost = komi_cost_text (data.result->cost);

          printf (_("Model calls in this run: %u attempts, %s at the profiles' prices.\n"),
                  data.result->calls, cost);
        }
      print_summary (store, data.result->series_id, series);
    }
  else if (g_error_matches (data.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      printf ("%s\n", _("Stopped. Run the same command again (or komi-cli resume) to "
                         "continue."));
      status = 130;
    }
  else
    status = komi_cli_fail (command, data.error);

  g_clear_error (&data.error);
  g_clear_pointer (&data.result, komi_series_result_free);
  komi_store_sink_free (data.sink);
  komi_store_unref (store);
  g_main_loop_unref (data.loop);
  g_object_unref (data.cancellable);
  return status;
}

int
komi_cli_run (int argc, char **argv)
{
  static const char usage[] = N_("give one series file, e.g. komi-cli run "
                                 "data/examples/demo-series.json (--jobs from 1 to 64)");
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSeries) series = NULL;
  g_autofree char *db = NULL;
  g_autofree char *shard = NULL;
  int jobs = 0, status;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default in the XDG data folder)"), N_("PATH") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, N_("Games at once (default: the series' jobs)"),
      N_("N") },
    { "shard", 0, 0, G_OPTION_ARG_STRING, &shard,
      N_("Play only shard K of N of the series' games (merge the shards' libraries with "
         "komi-cli merge)"), N_("K/N") },
    { NULL }
  };

  const KomiCliOptions parse = { "run", N_("SERIES.json - play a series, or continue it"),
                                 .entries = entries, .args = KOMI_CLI_ARGS_ONE,
                                 .wrong_args = usage };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (jobs < 0 || jobs > 64)
    return komi_cli_usage ("run", "%s", _(usage));
  series = komi_series_load (argv[1], &error);
  if (series == NULL)
    return komi_cli_fail ("run", error);
  if (shard != NULL)
    {
      if (!komi_series_parse_shard (shard, &series->shard, &series->n_shards, &error))
        return komi_cli_usage ("run", "%s", error->message);
      if (db == NULL)
        return komi_cli_usage ("run", "%s", _("a shard needs a library of its own: add --db, "
                                              "e.g. --db shard-1.db"));
    }
  return run_series ("run", series, db, jobs);
}

int
komi_cli_resume (int argc, char **argv)
{
  static const char usage[] = N_("give a series id (komi-cli series lists them)");
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSeries) series = NULL;
  g_autofree char *db = NULL;
  KomiStoreSeries *stored;
  KomiStore *store;
  guint64 id;
  int jobs = 0, status;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default in the XDG data folder)"), N_("PATH") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, N_("Games at once"), N_("N") },
    { NULL }
  };

  const KomiCliOptions parse = {
    "resume", N_("SERIES_ID - continue a series of the library"), .entries = entries,
    .args = KOMI_CLI_ARGS_ONE, .wrong_args = usage };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (!g_ascii_string_to_unsigned (argv[1], 10, 1, G_MAXINT64, &id, NULL))
    return komi_cli_usage ("resume", "%s", _(usage));
  if (db == NULL)
    db = komi_store_default_path ();
  store = komi_store_open_reader (db, &error);
  if (store == NULL)
    return komi_cli_fail ("resume", error);
  stored = komi_store_load_series (store, (gint64) id, &error);
  if (stored != NULL)
    series = komi_series_new_from_json (stored->definition, -1, &error);
  komi_store_series_free (stored);
  komi_store_unref (store);
  if (series == NULL)
    return komi_cli_fail ("resume", error);
  return run_series ("resume", series, db, jobs);
}

int
komi_cli_series (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autofree char *db = NULL;
  KomiStore *store;
  int status;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library (default in the XDG data folder)"), N_("PATH") },
    { NULL }
  };
  const KomiCliOptions parse = { "series", N_("- list the series of the library"),
                                 .entries = entries, .args = KOMI_CLI_ARGS_NONE,
                                 .wrong_args = N_("takes no arguments") };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (db == NULL)
    db = komi_store_default_path ();
  store = komi_store_open_reader (db, &error);
  if (store == NULL)
    return komi_cli_fail ("series", error);
  list = komi_store_list_series (store, &error);
  komi_store_unref (store);
  if (list == NULL)
    return komi_cli_fail ("series", error);
  komi_cli_print_headings (stdout, series_headings, G_N_ELEMENTS (series_headings));
  for (guint i = 0; i < list->len; i++)
    {
      KomiStoreSeries *s = g_ptr_array_index (list, i);
      g_autofree char *name = komi_untrusted_visible (s->name);

      printf ("%4" G_GINT64_FORMAT "  %-10u %6u %8u %6u  %s\n", s->id, s->protocol, s->n_games,
              s->n_finished, s->n_void, name);
    }
  return 0;
}
