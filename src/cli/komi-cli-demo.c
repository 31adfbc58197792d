/* komi-cli-demo.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <inttypes.h>
#include <unistd.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-coords.h"
#include "komi-demo-series.h"
#include "komi-export.h"
#include "komi-provider.h"
#include "komi-rehearsal.h"
#include "komi-series-runner.h"
#include "komi-store.h"
#include "komi-store-sink.h"

/* `demo`: Komi's main job in miniature, needing no key and no network.
 * The rehearsal model (our loopback simulation of a model API, started in
 * this process on an ephemeral port) plays a short series against GNU Go
 * level 1 under Protocol 1, recorded in a library, every call shown as it
 * is answered and the board after every move. The library is a temporary
 * one unless --db names where to keep it: a new user's own library is not
 * filled with demo games. */

/* The series' sink, wrapped: everything goes to the library first, then
 * to the terminal. The demo runs one game at a time (jobs 1), so calls
 * come in order and the position of the game in play is one KomiGame. */
typedef struct
{
  KomiSeriesSink  parent;
  KomiSeriesSink *library;
  gboolean        show;
  gboolean        redraw;
  guint           delay_ms;
  guint           n_games;
  guint           game_number;
  KomiGame       *game;
  char           *black;
  char           *white;
  KomiColor       model;
  GString        *calls;    /* the model's calls of the turn in play */
} DemoSink;

static gboolean
demo_begin_series (KomiSeriesSink *sink, const KomiSeries *series, const GArray *plan,
                   gint64 *series_id, GError **error)
{
  DemoSink *self = (DemoSink *) sink;

  self->n_games = plan->len;
  return self->library->klass->begin_series (self->library, series, plan, series_id, error);
}

static gboolean
demo_game_state (KomiSeriesSink *sink, const KomiPlannedGame *game, gboolean *finished,
                 GArray *moves, GError **error)
{
  DemoSink *self = (DemoSink *) sink;

  return self->library->klass->game_state (self->library, game, finished, moves, error);
}

static gboolean
demo_game_started (KomiSeriesSink *sink, const KomiPlannedGame *game,
                   const KomiGameRecord *record, GError **error)
{
  DemoSink *self = (DemoSink *) sink;

  if (!self->library->klass->game_started (self->library, game, record, error))
    return FALSE;
  g_clear_pointer (&self->game, komi_game_free);
  self->game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_free (self->black);
  g_free (self->white);
  self->black = g_strdup (record->black_name);
  self->white = g_strdup (record->white_name);
  self->model = g_str_has_prefix (game->black, "model:") ? KOMI_BLACK : KOMI_WHITE;
  self->game_number = game->index + 1;
  g_string_truncate (self->calls, 0);
  if (self->show && !self->redraw)
    printf (_("\nGame %u of %u: X %s against O %s; the model sees the board in orientation "
              "%s\n"), self->game_number, self->n_games, self->black, self->white,
            komi_orientation_to_string (game->orientation));
  return TRUE;
}

/* "0.71" for the answer's probability, from the attempt's JSON object of
 * option probabilities; NULL when the API gave none. */
static char *
answer_probability (const KomiProviderAttempt *a)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (a->option_probabilities == NULL || a->answer == NULL
      || !json_parser_load_from_data (parser, a->option_probabilities, -1, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root)
      || !json_object_has_member (json_node_get_object (root), a->answer))
    return NULL;
  return g_strdup_printf ("%.2f", json_object_get_double_member (json_node_get_object (root),
                                                                 a->answer));
}

static gboolean
demo_call_attempt (KomiSeriesSink *sink, const KomiPlannedGame *game, guint turn,
                   const KomiProviderAttempt *a, GError **error)
{
  DemoSink *self = (DemoSink *) sink;
  g_autofree char *p = NULL;

  if (!self->library->klass->call_attempt (self->library, game, turn, a, error))
    return FALSE;
  /* Shown once answered; the request was recorded before it went out. */
  if (a->in_flight)
    return TRUE;
  if (self->calls->len > 0)
    g_string_append (self->calls, "; ");
  if (a->outcome == KOMI_PROVIDER_OUTCOME_ANSWER
      && (p = answer_probability (a)) != NULL)
    g_string_append_printf (self->calls, "%s → %s (p %s, %.0f ms)", a->question, a->answer, p,
                            a->latency_ms);
  else if (a->outcome == KOMI_PROVIDER_OUTCOME_ANSWER)
    g_string_append_printf (self->calls, "%s → %s (%.0f ms)", a->question, a->answer,
                            a->latency_ms);
  else
    g_string_append_printf (self->calls, "%s → %s%s%s", a->question,
                            komi_provider_outcome_to_string (a->outcome),
                            a->error != NULL ? ": " : "", a->error != NULL ? a->error : "");
  return TRUE;
}

static gboolean
demo_move_played (KomiSeriesSink *sink, const KomiPlannedGame *game, guint turn,
                  const KomiMove *move, GError **error)
{
  DemoSink *self = (DemoSink *) sink;

  if (!self->library->klass->move_played (self->library, game, turn, move, error))
    return FALSE;
  /* The library has the move: what follows is only the display. */
  if (self->game == NULL || !komi_game_play (self->game, move->point, NULL) || !self->show)
    {
      g_string_truncate (self->calls, 0);
      return TRUE;
    }
  if (self->redraw)
    {
      fputs ("\033[H\033[2J", stdout);
      printf (_("Game %u of %u: X %s against O %s\n"), self->game_number, self->n_games,
              self->black, self->white);
    }
  komi_cli_print_turn (stdout, 9, turn, move,
                       move->color == KOMI_BLACK ? self->black : self->white);
  if (move->color == self->model && self->calls->len > 0)
    printf (_("  model calls: %s\n"), self->calls->str);
  komi_cli_print_board (stdout, self->game, move->point);
  fflush (stdout);
  g_string_truncate (self->calls, 0);
  if (self->delay_ms > 0)
    g_usleep ((gulong) self->delay_ms * 1000);
  return TRUE;
}

static gboolean
demo_game_finished (KomiSeriesSink *sink, const KomiPlannedGame *game,
                    const KomiGameRecord *record, GError **error)
{
  DemoSink *self = (DemoSink *) sink;

  if (!self->library->klass->game_finished (self->library, game, record, error))
    return FALSE;
  putchar ('\n');
  printf (_("Game %u of %u: X %s against O %s\n"), game->index + 1, self->n_games,
          record->black_name, record->white_name);
  komi_cli_print_record_result (stdout, record);
  fflush (stdout);
  if (self->redraw && self->delay_ms > 0 && game->index + 1 < self->n_games)
    g_usleep ((gulong) self->delay_ms * 20 * 1000);
  return TRUE;
}

/* A demo run again on the same --db continues a turn as any series does. */
static gboolean
demo_turn_state (KomiSeriesSink *sink, const KomiPlannedGame *game, guint turn,
                 KomiModelTurn *state, GError **error)
{
  DemoSink *self = (DemoSink *) sink;

  return self->library->klass->turn_state (self->library, game, turn, state, error);
}

static gboolean
demo_game_left (KomiSeriesSink *sink, const KomiPlannedGame *game, GError **error)
{
  DemoSink *self = (DemoSink *) sink;

  return self->library->klass->game_left (self->library, game, error);
}

static const KomiSeriesSinkClass demo_sink_class = {
  .begin_series = demo_begin_series,
  .game_state = demo_game_state,
  .game_started = demo_game_started,
  .move_played = demo_move_played,
  .game_finished = demo_game_finished,
  .call_attempt = demo_call_attempt,
  .turn_state = demo_turn_state,
  .game_left = demo_game_left,
};

typedef struct
{
  KomiSeries       *series;
  KomiSeriesSink   *sink;
  GCancellable     *cancellable;
  GMainLoop        *loop;
  KomiSeriesResult *result;
  GError           *error;
} DemoRun;

static gpointer
demo_thread (gpointer user_data)
{
  DemoRun *run = user_data;

  run->result = komi_series_run (run->series, run->sink, 1, NULL, NULL, run->cancellable,
                                 &run->error);
  g_main_loop_quit (run->loop);
  return NULL;
}

static gboolean
on_interrupt (gpointer user_data)
{
  g_cancellable_cancel (((DemoRun *) user_data)->cancellable);
  return G_SOURCE_CONTINUE;
}

/* Plays the series on a worker thread while this one waits for Ctrl-C. */
static gboolean
play_series (KomiSeries *series, KomiSeriesSink *sink, KomiSeriesResult **result,
             GError **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  DemoRun run = { series, sink, cancellable, loop, NULL, NULL };
  guint sigint = g_unix_signal_add (SIGINT, on_interrupt, &run);
  GThread *thread = g_thread_new ("komi-demo", demo_thread, &run);

  g_main_loop_run (loop);
  g_thread_join (thread);
  g_source_remove (sigint);
  *result = run.result;
  if (run.error != NULL)
    g_propagate_error (error, run.error);
  return run.result != NULL;
}

/* @db NULL: the library was the user's (--db), and stays. */
static void
remove_temporary (const char *dir, const char *db, const char *profile)
{
  for (const char *const *ext = (const char *const[]) { "", "-wal", "-shm", NULL };
       db != NULL && *ext != NULL; ext++)
    {
      g_autofree char *file = g_strconcat (db, *ext, NULL);

      g_unlink (file);
    }
  g_unlink (profile);
  g_rmdir (dir);
}

int
komi_cli_demo (int argc, char **argv)
{
  g_autofree char *opponent = NULL, *db_arg = NULL, *sgf_dir = NULL, *seed_text = NULL;
  g_autofree char *dir = NULL, *db = NULL, *profile = NULL, *where = NULL;
  g_autofree char *base_url = NULL, *name = NULL, *definition = NULL, *cost = NULL;
  const char *opponents[] = { NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiSeriesResult) result = NULL;
  KomiRehearsalOptions options = { 0, };
  DemoSink sink = { { &demo_sink_class }, };
  int pairs = 1, latency = 20, delay = -1, status = 0;
  gboolean quiet = FALSE;
  guint64 seed = 1;
  const GOptionEntry entries[] = {
    { "opponent", 0, 0, G_OPTION_ARG_STRING, &opponent,
      N_("The model's opponent (default gnugo:1; random, gnugo:LEVEL, katago:VISITS…)"),
      N_("PLAYER") },
    { "pairs", 0, 0, G_OPTION_ARG_INT, &pairs,
      N_("Pairs of games, one with each colour (default 1, at most 8)"), N_("N") },
    { "latency-ms", 0, 0, G_OPTION_ARG_INT, &latency,
      N_("How long the rehearsal model takes to answer (default 20 ms)"), N_("L") },
    { "seed", 's', 0, G_OPTION_ARG_STRING, &seed_text,
      N_("The series' seed: games, orientations and the model's answers (default 1)"), N_("S") },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_arg,
      N_("Keep the games in this library (default: a temporary one, deleted at the end)"),
      N_("PATH") },
    { "sgf", 0, 0, G_OPTION_ARG_FILENAME, &sgf_dir, N_("Also write each game's SGF into DIR"),
      N_("DIR") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print only the results"), NULL },
    { "delay", 0, 0, G_OPTION_ARG_INT, &delay,
      N_("Milliseconds to pause after each turn (default 150 on a terminal, else 0)"),
      N_("MS") },
    { NULL }
  };

  const KomiCliOptions parse = { "demo", N_("- the rehearsal model (a loopback model API in "
    "this process: no key, no network, no cost) plays GNU Go level 1, every call shown, into a "
    "library"), .entries = entries, .hint = KOMI_CLI_HINT_SEE_HELP };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (pairs < 1 || pairs > 8 || latency < 0 || latency > 60000
      || (seed_text != NULL && !g_ascii_string_to_unsigned (seed_text, 10, 0, G_MAXUINT64,
                                                           &seed, NULL)))
    return komi_cli_usage ("demo", _("--pairs must be 1 to 8, --latency-ms 0 to 60000 and "
                                     "--seed a whole number (see 'komi-cli demo --help')"));

  options.latency_ms = (guint) latency;
  options.seed = seed;
  if ((server = komi_rehearsal_new (&options, &error)) == NULL
      || (dir = g_dir_make_tmp ("komi-demo-XXXXXX", &error)) == NULL)
    return komi_cli_fail ("demo", error);
  profile = g_build_filename (dir, "rehearsal-model.json", NULL);
  db = db_arg != NULL ? g_strdup (db_arg) : g_build_filename (dir, "demo-library.db", NULL);
  base_url = g_strconcat (komi_rehearsal_get_base_url (server), "/v1", NULL);
  if (!komi_rehearsal_write_profile (profile, "rehearsal", base_url, TRUE, 0, &error))
    goto fail;
  opponents[0] = opponent != NULL ? opponent : "gnugo:1";
  name = g_strdup_printf ("Demo: the rehearsal model against %s", opponents[0]);
  definition = komi_demo_series_definition (name, profile, opponents, pairs, seed);
  if ((series = komi_series_new_from_json (definition, -1, &error)) == NULL
      || (store = komi_store_open (db, &error)) == NULL)
    goto fail;

  /* Translators: the place the games are recorded in, completing "recorded in %s" */
  where = db_arg != NULL ? g_strdup_printf (_("the library %s"), db)
                         : g_strdup (_("a temporary library (deleted at the end; --db PATH "
                                       "keeps it)"));
  printf (g_dngettext (NULL, "Komi demo: the rehearsal model, a simulation of a model API "
                             "served by this process on %s (no key, no network, no cost), "
                             "plays %d game against %s under Protocol 1, one call per "
                             "question, recorded in %s.\n",
                       "Komi demo: the rehearsal model, a simulation of a model API "
                       "served by this process on %s (no key, no network, no cost), "
                       "plays %d games against %s under Protocol 1, one call per "
                       "question, recorded in %s.\n", pairs * 2),
          komi_rehearsal_get_base_url (server), pairs * 2,
          opponent != NULL ? opponent : _("GNU Go level 1"), where);
  sink.library = komi_store_new_sink (store);
  sink.show = !quiet;
  sink.delay_ms = delay >= 0 ? (guint) delay : (isatty (STDOUT_FILENO) && !quiet ? 150 : 0);
  sink.redraw = sink.show && sink.delay_ms > 0 && isatty (STDOUT_FILENO);
  sink.calls = g_string_new (NULL);
  if (!play_series (series, &sink.parent, &result, &error))
    status = komi_cli_fail ("demo", error);
  else
    {
      /* Two counts, so two plurals: "N games played; " then the calls. */
      putchar ('\n');
      printf (g_dngettext (NULL, "%u game played; ", "%u games played; ", result->played),
              result->played);
      cost = komi_cost_text (result->cost);
      printf (g_dngettext (NULL, "the model made %u call (HTTP attempts, every one recorded "
                                 "with its request and raw response), costing %s.\n",
                           "the model made %u calls (HTTP attempts, every one recorded "
                           "with its request and raw response), costing %s.\n",
                           result->calls),
              result->calls, cost);
      if (sgf_dir != NULL)
        {
          g_clear_error (&error);
          if (!komi_export_sgf (store, result->series_id, sgf_dir, NULL, &error))
            status = komi_cli_fail ("demo", error);
          else
            printf (_("SGF records written to %s\n"), sgf_dir);
        }
      if (db_arg != NULL)
        printf (_("The games are series %" PRId64 " of %s; see them with "
                  "'komi-cli export --db %s --sgf DIR --calls calls.jsonl --csv results.csv'\n"),
                result->series_id, db, db);
      if (db_arg != NULL)
        printf (_("or as a web site, every call in its replay: 'komi-cli publish --db %s --out "
                  "site'\n"), db);
    }
  komi_store_sink_free (sink.library);
  g_string_free (sink.calls, TRUE);
  g_clear_pointer (&sink.game, komi_game_free);
  g_free (sink.black);
  g_free (sink.white);
  g_clear_pointer (&store, komi_store_unref);
  remove_temporary (dir, db_arg != NULL ? NULL : db, profile);
  return status;

fail:
  g_clear_pointer (&store, komi_store_unref);
  remove_temporary (dir, db_arg != NULL ? NULL : db, profile);
  return komi_cli_fail ("demo", error);
}
