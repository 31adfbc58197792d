/* test-series.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "komi-rehearsal.h"
#include "komi-series-runner.h"
#include "komi-test-play.h"
#include "komi-test-util.h"

/* The series file, its plan, and the runner on worker threads. The runner
 * talks to a library through a sink; here a sink in memory keeps what it is
 * told, so the runner's side of the contract is tested alone (the SQLite
 * library has tests of its own). */

static KomiSeries *
series_from (const char *json, GError **error)
{
  return komi_series_new_from_json (json, -1, error);
}

static void
test_example_files (void)
{
  g_autofree char *demo = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "data", "examples",
                                            "demo-series.json", NULL);
  g_autofree char *katago = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "data", "examples",
                                              "katago-ladder.json", NULL);
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(GError) error = NULL;

  series = komi_series_load (demo, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (series->subject, ==, "gnugo:1");
  g_assert_cmpuint (series->opponents->len, ==, 1);
  g_assert_cmpuint (komi_series_count_games (series), ==, 16);
  g_assert_cmpuint (series->jobs, ==, 2);
  g_assert_cmpstr (series->referee, ==, "gnugo");
  g_assert_cmpuint (strlen (series->digest), ==, 64);

  /* The KataGo example names its binary; where it is missing, that is the
   * error, before anything starts. */
  if (!g_file_test ("/opt/katago/katago", G_FILE_TEST_EXISTS))
    {
      g_autoptr(KomiSeries) none = komi_series_load (katago, &error);

      g_assert_null (none);
      g_assert_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FIELD);
      g_assert_nonnull (strstr (error->message, "/opt/katago/katago"));
    }
}

static void
test_field_errors (void)
{
  static const struct { const char *json; const char *says; } cases[] = {
    { "[1]", "must be a JSON object" },
    { "{", "not valid JSON" },
    { "{\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],\"pairs\":1,\"seed\":1}",
      "“name”: missing" },
    { "{\"name\":\"x\",\"subject\":\"random\",\"opponents\":[\"random\"],\"pairs\":1,\"seed\":1}",
      "“protocol”: missing" },
    { "{\"name\":\"x\",\"protocol\":2,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pairs\":1,\"seed\":1}", "“protocol”: must be a whole number from 1 to 1" },
    { "{\"name\":\"x\",\"protocol\":1,\"opponents\":[\"random\"],\"pairs\":1,\"seed\":1}",
      "“subject”: missing" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"gnugo:12\",\"opponents\":[\"random\"],"
      "\"pairs\":1,\"seed\":1}", "“subject”:" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[],\"pairs\":1,"
      "\"seed\":1}", "“opponents”: must be a non-empty list" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\", 3],"
      "\"pairs\":1,\"seed\":1}", "“opponents[1]”: must be a player" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"seed\":1}", "“pairs”: missing" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pairs\":0,\"seed\":1}", "“pairs”: must be a whole number from 1" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pairs\":1}", "“seed”: missing" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pairs\":1,\"seed\":-4}", "“seed”: must be a whole number" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pairs\":1,\"seed\":1,\"jobs\":0}", "“jobs”: must be a whole number from 1 to 64" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pairs\":1,\"seed\":1,\"referee\":\"me\"}", "“referee”: must be" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pairs\":1,\"seed\":1,\"budget_usd\":-2}", "“budget_usd”: must be a positive number" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[\"random\"],"
      "\"pair\":1,\"seed\":1}", "“pair”: unknown field" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"random\",\"opponents\":[{\"player\":"
      "\"random\",\"pair\":2}],\"seed\":1}", "“opponents[0].pair”: unknown field" },
    { "{\"name\":\"x\",\"protocol\":1,\"subject\":\"gnugo:1\",\"opponents\":[\"random\"],"
      "\"pairs\":1,\"seed\":1,\"engines\":{\"gnugo\":\"/nonexistent/gnugo\"}}",
      "/nonexistent/gnugo" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KomiSeries) series = series_from (cases[i].json, &error);

      if (series != NULL)
        g_error ("case %u was accepted: %s", i, cases[i].json);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].says) == NULL)
        g_error ("case %u: “%s” does not say “%s”", i, error->message, cases[i].says);
    }
}

#define SMALL "{\"name\":\"small\",\"protocol\":1,\"subject\":\"random\"," \
              "\"opponents\":[{\"player\":\"random\",\"pairs\":20},\"gnugo:1\"]," \
              "\"pairs\":3,\"seed\":%s,\"referee\":\"none\",\"jobs\":%u}"

static KomiSeries *
small_series (const char *seed, guint jobs)
{
  g_autofree char *json = g_strdup_printf (SMALL, seed, jobs);
  g_autoptr(GError) error = NULL;
  KomiSeries *series = series_from (json, &error);

  g_assert_no_error (error);
  return series;
}

static void
test_plan (void)
{
  g_autoptr(KomiSeries) series = small_series ("5", 1);
  g_autoptr(KomiSeries) again = small_series ("5", 4);
  g_autoptr(KomiSeries) other = small_series ("\"18446744073709551615\"", 1);
  g_autoptr(GArray) plan = komi_series_plan (series);
  g_autoptr(GArray) plan2 = komi_series_plan (again);
  g_autoptr(GArray) plan3 = komi_series_plan (other);
  g_autoptr(GHashTable) seeds = g_hash_table_new (g_int64_hash, g_int64_equal);
  guint differ = 0;

  g_assert_cmpuint (plan->len, ==, 46);
  /* jobs is not part of the series: same digest, same plan. */
  g_assert_cmpstr (series->digest, ==, again->digest);
  g_assert_cmpstr (series->digest, !=, other->digest);
  g_assert_cmpuint (other->seed, ==, G_MAXUINT64);

  for (guint i = 0; i < plan->len; i++)
    {
      KomiPlannedGame *g = &g_array_index (plan, KomiPlannedGame, i);
      KomiPlannedGame *h = &g_array_index (plan2, KomiPlannedGame, i);

      g_assert_cmpuint (g->index, ==, i);
      g_assert_cmpuint (g->seed, ==, h->seed);
      g_assert_cmpint (g->orientation, ==, h->orientation);
      differ += g->seed != g_array_index (plan3, KomiPlannedGame, i).seed;
      g_assert_false (g_hash_table_contains (seeds, &g->seed));
      g_hash_table_add (seeds, &g->seed);
      /* A pair: the subject as Black, then as White, in one orientation. */
      if (g->game_in_pair == 1)
        {
          KomiPlannedGame *first = g - 1;
          g_assert_cmpuint (first->game_in_pair, ==, 0);
          g_assert_cmpuint (first->pair, ==, g->pair);
          g_assert_cmpint (first->orientation, ==, g->orientation);
          g_assert_cmpstr (first->black, ==, g->white);
          g_assert_cmpstr (first->black, ==, "random");
        }
    }
  g_assert_cmpuint (differ, ==, plan->len);

  /* Against the first opponent: 20 pairs; each block of 8 uses all 8. */
  for (guint block = 0; block < 2; block++)
    {
      guint used = 0;

      for (guint p = 0; p < 8; p++)
        used |= 1u << g_array_index (plan, KomiPlannedGame, 2 * (block * 8 + p)).orientation;
      g_assert_cmpuint (used, ==, 0xff);
    }
}

/* A sink in memory, thread-safe, in the shape of the library's. */
typedef struct
{
  KomiSeriesSink  parent;
  GMutex          lock;
  GHashTable     *moves;      /* index -> GArray of KomiMove */
  GHashTable     *results;    /* index -> result text */
  GHashTable     *ended;      /* index -> gint64: g_get_monotonic_time() at its end */
  GHashTable     *seconds;    /* index -> double: the record's seconds of play */
  guint           begun;
  guint           started;    /* games whose players started */
  gint            fail_after; /* fail move_played after this many moves, -1 never */
} MemorySink;

static gboolean
mem_begin (KomiSeriesSink *sink, const KomiSeries *s, const GArray *plan, gint64 *id,
           GError **error)
{
  MemorySink *m = (MemorySink *) sink;
  m->begun++;
  *id = 1;
  return TRUE;
}

static gboolean
mem_state (KomiSeriesSink *sink, const KomiPlannedGame *g, gboolean *finished, GArray *moves,
           GError **error)
{
  MemorySink *m = (MemorySink *) sink;
  GArray *have;

  g_mutex_lock (&m->lock);
  *finished = g_hash_table_contains (m->results, GUINT_TO_POINTER (g->index));
  have = g_hash_table_lookup (m->moves, GUINT_TO_POINTER (g->index));
  if (!*finished && have != NULL)
    g_array_append_vals (moves, have->data, have->len);
  g_mutex_unlock (&m->lock);
  return TRUE;
}

static gboolean
mem_started (KomiSeriesSink *sink, const KomiPlannedGame *g, const KomiGameRecord *r,
             GError **error)
{
  MemorySink *m = (MemorySink *) sink;

  g_assert_nonnull (r->black_name);
  g_mutex_lock (&m->lock);
  m->started++;
  g_mutex_unlock (&m->lock);
  return TRUE;
}

static gboolean
mem_move (KomiSeriesSink *sink, const KomiPlannedGame *g, guint turn, const KomiMove *move,
          GError **error)
{
  MemorySink *m = (MemorySink *) sink;
  GArray *have;
  gboolean ok = TRUE;

  g_mutex_lock (&m->lock);
  if (m->fail_after == 0)
    {
      g_set_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_STORE, "disk full");
      ok = FALSE;
    }
  else
    {
      if (m->fail_after > 0)
        m->fail_after--;
      have = g_hash_table_lookup (m->moves, GUINT_TO_POINTER (g->index));
      if (have == NULL)
        {
          have = g_array_new (FALSE, FALSE, sizeof (KomiMove));
          g_hash_table_insert (m->moves, GUINT_TO_POINTER (g->index), have);
        }
      g_assert_cmpuint (turn, ==, have->len + 1);
      g_array_append_vals (have, move, 1);
    }
  g_mutex_unlock (&m->lock);
  return ok;
}

static gboolean
mem_finished (KomiSeriesSink *sink, const KomiPlannedGame *g, const KomiGameRecord *r,
              GError **error)
{
  MemorySink *m = (MemorySink *) sink;

  g_mutex_lock (&m->lock);
  g_hash_table_insert (m->results, GUINT_TO_POINTER (g->index), g_strdup (r->result));
  {
    gint64 now = g_get_monotonic_time ();

    g_hash_table_insert (m->ended, GUINT_TO_POINTER (g->index), g_memdup2 (&now, sizeof now));
    g_hash_table_insert (m->seconds, GUINT_TO_POINTER (g->index),
                         g_memdup2 (&r->seconds, sizeof r->seconds));
  }
  g_mutex_unlock (&m->lock);
  return TRUE;
}

static const KomiSeriesSinkClass memory_sink_class = {
  mem_begin, mem_state, mem_started, mem_move, mem_finished, NULL,
};

static void
memory_sink_init (MemorySink *m)
{
  *m = (MemorySink) { 0, };
  m->parent.klass = &memory_sink_class;
  g_mutex_init (&m->lock);
  m->moves = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  m->results = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  m->ended = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  m->seconds = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  m->fail_after = -1;
}

static void
memory_sink_clear (MemorySink *m)
{
  g_hash_table_unref (m->moves);
  g_hash_table_unref (m->results);
  g_hash_table_unref (m->ended);
  g_hash_table_unref (m->seconds);
  g_mutex_clear (&m->lock);
}

/* A library that cannot take a model's call attempt. */
static gboolean
mem_call_refused (KomiSeriesSink *sink, const KomiPlannedGame *g, guint turn,
                  const KomiProviderAttempt *attempt, GError **error)
{
  g_set_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_STORE, "disk gone");
  return FALSE;
}

static const KomiSeriesSinkClass call_refusing_sink_class = {
  mem_begin, mem_state, mem_started, mem_move, mem_finished, mem_call_refused,
};

/* A call the sink cannot record stops the run with the sink's own error,
 * like a move: the game is no player's fault, so it is not voided (and
 * the library's message, translated, is never its stored reason). */
static void
test_call_not_recorded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-series-XXXXXX", NULL);
  g_autofree char *profile = g_build_filename (dir, "rehearsal.json", NULL);
  KomiRehearsalOptions options = { .seed = 3 };
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  MemorySink m;

  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  json = g_strdup_printf ("{\"name\": \"rehearsal\", \"api\": \"openai-chat\", "
                          "\"base_url\": \"%s/v1\", \"model\": \"m\"}",
                          komi_rehearsal_get_base_url (server));
  g_assert_true (g_file_set_contents (profile, json, -1, NULL));
  g_free (json);
  json = g_strdup_printf ("{\"name\": \"calls\", \"protocol\": 1, \"subject\": \"model:%s\", "
                          "\"opponents\": [\"random\"], \"pairs\": 1, \"seed\": 1, "
                          "\"referee\": \"none\"}", profile);
  series = komi_series_new_from_json (json, -1, &error);
  g_assert_no_error (error);

  memory_sink_init (&m);
  m.parent.klass = &call_refusing_sink_class;
  g_assert_null (komi_series_run (series, &m.parent, 1, NULL, NULL, NULL, &error));
  g_assert_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_STORE);
  g_assert_cmpstr (error->message, ==, "disk gone");
  g_assert_cmpuint (g_hash_table_size (m.results), ==, 0);
  memory_sink_clear (&m);
  g_remove (profile);
  g_rmdir (dir);
}

static void
count_progress (const KomiSeriesProgress *p, const KomiPlannedGame *g, const KomiGameRecord *r,
                gpointer user_data)
{
  guint *calls = user_data;

  g_assert_cmpuint (p->done, <=, p->total);
  (*calls)++;
}

/* The third run below: how many moves each game had before it (resumed
 * ones some), and the games' worth played since, as the ETA weighs them. */
typedef struct
{
  GHashTable *before;   /* index -> moves recorded before the run */
  double      worth;
  guint       checked;
} EtaCheck;

/* The estimate is the time per game's worth of moves played in this run:
 * a game resumed near its end counts the share played here, not a whole
 * game (counted whole, "0:02 left" was said with whole games to go). */
static void
check_eta (const KomiSeriesProgress *p,
           const KomiPlannedGame    *game,
           const KomiGameRecord     *record,
           gpointer                  user_data)
{
  EtaCheck *e = user_data;
  guint n = 0;
  guint k;

  if (record == NULL)
    return;
  komi_game_get_moves (record->game, &n);
  k = GPOINTER_TO_UINT (g_hash_table_lookup (e->before, GUINT_TO_POINTER (game->index)));
  g_assert_cmpuint (k, <=, n);
  e->worth += n > 0 ? (double) (n - k) / n : 1.0;
  if (e->worth > 0 && p->done < p->total)
    {
      double expected = p->elapsed / e->worth * (p->total - p->done);

      g_assert_cmpfloat_with_epsilon (p->eta, expected, 1e-9 * MAX (1.0, expected));
      e->checked++;
    }
}

/* The runner's own series: a pair against GNU Go (level 0: its strength
 * is not what is checked), first, so that both its games are in play
 * when the run below is cut, then SMALL's 20 pairs of random players; 42
 * games. */
#define RESUMED "{\"name\":\"resumed\",\"protocol\":1,\"subject\":\"random\"," \
                "\"opponents\":[\"gnugo:0\",{\"player\":\"random\",\"pairs\":20}]," \
                "\"pairs\":1,\"seed\":9,\"referee\":\"none\",\"jobs\":2}"
#define RESUMED_GAMES 42

static void
test_run_and_resume (void)
{
  g_autoptr(KomiSeries) series = series_from (RESUMED, NULL);
  g_autoptr(KomiSeriesResult) first = NULL, second = NULL, third = NULL;
  g_autoptr(GError) error = NULL;
  MemorySink whole, cut;
  guint calls = 0;

  if (!have_gnugo ())
    return;
  memory_sink_init (&whole);
  first = komi_series_run (series, &whole.parent, 2, count_progress, &calls, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (first->played, ==, RESUMED_GAMES);
  g_assert_cmpuint (g_hash_table_size (whole.results), ==, RESUMED_GAMES);
  g_assert_cmpuint (calls, ==, 2 * RESUMED_GAMES);

  /* Run again: nothing left to play. */
  second = komi_series_run (series, &whole.parent, 2, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (second->played, ==, 0);
  g_assert_cmpuint (second->skipped, ==, RESUMED_GAMES);

  /* A sink that stops recording after 60 moves, in the GNU Go games
   * (each some 90 moves long), stops the series with its error; run again,
   * the games resume with new GNU Go processes and end exactly as
   * uninterrupted. */
  memory_sink_init (&cut);
  cut.fail_after = 60;
  g_assert_null (komi_series_run (series, &cut.parent, 2, NULL, NULL, NULL, &error));
  g_assert_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_STORE);
  g_clear_error (&error);
  g_assert_cmpuint (g_hash_table_size (cut.results), <, RESUMED_GAMES);
  cut.fail_after = -1;
  {
    EtaCheck eta = { g_hash_table_new (NULL, NULL), 0, 0 };
    GHashTableIter iter;
    gpointer index, moves;
    guint resumed_moves = 0;

    g_hash_table_iter_init (&iter, cut.moves);
    while (g_hash_table_iter_next (&iter, &index, &moves))
      {
        g_hash_table_insert (eta.before, index, GUINT_TO_POINTER (((GArray *) moves)->len));
        if (!g_hash_table_contains (cut.results, index))
          resumed_moves += ((GArray *) moves)->len;
      }
    g_assert_cmpuint (resumed_moves, >, 0);
    third = komi_series_run (series, &cut.parent, 1, check_eta, &eta, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (eta.checked, >, 0);
    g_hash_table_unref (eta.before);
  }
  g_assert_cmpuint (third->resumed, >, 0);
  for (guint i = 0; i < RESUMED_GAMES; i++)
    {
      GArray *a = g_hash_table_lookup (whole.moves, GUINT_TO_POINTER (i));
      GArray *b = g_hash_table_lookup (cut.moves, GUINT_TO_POINTER (i));

      g_assert_cmpmem (a->data, a->len * sizeof (KomiMove), b->data, b->len * sizeof (KomiMove));
      g_assert_cmpstr (g_hash_table_lookup (whole.results, GUINT_TO_POINTER (i)), ==,
                       g_hash_table_lookup (cut.results, GUINT_TO_POINTER (i)));
    }
  memory_sink_clear (&whole);
  memory_sink_clear (&cut);
}

static void
test_cancel (void)
{
  g_autoptr(KomiSeries) series = small_series ("3", 2);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  MemorySink sink;

  memory_sink_init (&sink);
  g_cancellable_cancel (cancellable);
  g_assert_null (komi_series_run (series, &sink.parent, 2, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (g_hash_table_size (sink.results), ==, 0);
  memory_sink_clear (&sink);
}

/* Engine files the definition leaves out come from the caller (the app's
 * settings) before the environment; the definition's own win, and the
 * default referee follows the definition alone. */
static void
test_engine_defaults (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-series-XXXXXX", NULL);
  g_autofree char *binary = g_build_filename (dir, "katago", NULL);
  g_autofree char *model = g_build_filename (dir, "model.bin.gz", NULL);
  g_autofree char *config = g_build_filename (dir, "gtp.cfg", NULL);
  const char *json = "{\"name\": \"k\", \"protocol\": 1, \"subject\": \"random\","
                     " \"opponents\": [\"katago:10\"], \"pairs\": 1, \"seed\": 1}";
  KomiPlayerOptions defaults = { 0 };
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(KomiSeries) plain = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (binary, "#!/bin/sh\n", -1, NULL));
  g_assert_cmpint (g_chmod (binary, 0755), ==, 0);
  g_assert_true (g_file_set_contents (model, "", -1, NULL));
  g_assert_true (g_file_set_contents (config, "", -1, NULL));
  g_unsetenv ("KOMI_KATAGO");
  g_unsetenv ("KOMI_KATAGO_MODEL");
  g_unsetenv ("KOMI_KATAGO_CONFIG");

  /* Without them, KataGo is not found. */
  plain = komi_series_new_from_json (json, -1, &error);
  g_assert_null (plain);
  g_assert_nonnull (strstr (error->message, "KataGo needs"));
  g_clear_error (&error);

  defaults.katago_binary = binary;
  defaults.katago_model = model;
  defaults.katago_config = config;
  defaults.gnugo_path = "";
  series = komi_series_new_from_json_with_engines (json, -1, &defaults, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (series->engines.katago_binary, ==, binary);
  g_assert_cmpstr (series->engines.katago_model, ==, model);
  g_assert_null (series->engines.gnugo_path);
  g_assert_cmpstr (series->referee, ==, "gnugo");
  g_clear_pointer (&series, komi_series_free);

  /* The definition's own binary wins over the default. */
  {
    g_autofree char *own = g_strdup_printf (
      "{\"name\": \"k\", \"protocol\": 1, \"subject\": \"random\", \"opponents\":"
      " [\"katago:10\"], \"pairs\": 1, \"seed\": 1, \"referee\": \"none\","
      " \"engines\": {\"katago\": {\"binary\": \"%s\"}}}", binary);

    defaults.katago_binary = "/nonexistent/katago";
    series = komi_series_new_from_json_with_engines (own, -1, &defaults, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (series->engines.katago_binary, ==, binary);
    g_assert_cmpstr (series->engines.katago_config, ==, config);
  }
  g_remove (binary);
  g_remove (model);
  g_remove (config);
  g_rmdir (dir);
}

/* engines.timeout_seconds bounds each command and, when longer than the
 * default minute, an engine's start too: the calibration's KataGo referee,
 * started on a loaded machine, took over 60 s to answer "name" and stopped
 * a series that allowed 300 s. */
static void
test_engine_timeouts (void)
{
  static const struct { const char *engines; guint command_ms, start_ms; } cases[] = {
    { "", 0, 0 },   /* 0: the players' default, 60 s */
    { ", \"engines\": {\"timeout_seconds\": 300}", 300000, 300000 },
    { ", \"engines\": {\"timeout_seconds\": 10}", 10000, 60000 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"name\": \"t\", \"protocol\": 1, "
                                               "\"subject\": \"random\", \"opponents\": "
                                               "[\"random\"], \"pairs\": 1, \"seed\": 1, "
                                               "\"referee\": \"none\"%s}", cases[i].engines);
      g_autoptr(GError) error = NULL;
      g_autoptr(KomiSeries) series = komi_series_new_from_json (json, -1, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (series->engines.timeout_ms, ==, cases[i].command_ms);
      g_assert_cmpuint (series->engines.start_timeout_ms, ==, cases[i].start_ms);
    }
}

/* The moves the sink has been given, over all games. */
static guint
count_moves (MemorySink *m)
{
  GHashTableIter iter;
  GArray *moves;
  guint n = 0;

  g_mutex_lock (&m->lock);
  g_hash_table_iter_init (&iter, m->moves);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &moves))
    n += moves->len;
  g_mutex_unlock (&m->lock);
  return n;
}

static guint
count_started (MemorySink *m)
{
  guint n;

  g_mutex_lock (&m->lock);
  n = m->started;
  g_mutex_unlock (&m->lock);
  return n;
}

/* A run on a thread of its own, as the application runs one. */
typedef struct
{
  KomiSeries       *series;
  MemorySink       *sink;
  KomiSeriesPause  *pause;
  GCancellable     *cancellable;
  KomiSeriesResult *result;
  GError           *error;
  gint              over;
  gint64            began;     /* g_get_monotonic_time() as the run was called */
} Background;

static gpointer
background_run (gpointer data)
{
  Background *b = data;

  b->began = g_get_monotonic_time ();
  b->result = komi_series_run_pausable (b->series, &b->sink->parent, 2, NULL, NULL, b->pause,
                                        b->cancellable, &b->error);
  g_atomic_int_set (&b->over, 1);
  return NULL;
}

/* Polls @done for up to @seconds. */
static gboolean
wait_for (gboolean (*done) (gpointer), gpointer data, guint seconds)
{
  gint64 end = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  while (!done (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_usleep (2000);
    }
  return TRUE;
}

static gboolean
some_moves (gpointer data)
{
  return count_moves (((Background *) data)->sink) >= 20;
}

static gboolean
background_over (gpointer data)
{
  return g_atomic_int_get (&((Background *) data)->over);
}

/* One pair, its two games played at once: each job holds a game in play
 * when paused. */
#define GNUGO_PAIRS "{\"name\":\"paused\",\"protocol\":1,\"subject\":\"random\"," \
                    "\"opponents\":[\"gnugo:1\"],\"pairs\":1,\"seed\":17,\"referee\":\"none\"," \
                    "\"jobs\":2}"
#define GNUGO_GAMES 2

static gboolean
both_held (gpointer pause)
{
  return komi_series_pause_get_waiting (pause) == 2;
}

static gint64 pause_until;   /* komi_series_pause_get_time() to wait for */

static gboolean
pause_lasted (gpointer pause)
{
  return komi_series_pause_get_time (pause) >= pause_until;
}

/* Paused before it starts, no game starts; paused in play, no move is
 * made; resumed, the series ends with exactly the games of a run never
 * paused (games are deterministic given the seed), whose seconds leave
 * the pause out. */
static void
test_pause (void)
{
  g_autoptr(KomiSeries) series = series_from (GNUGO_PAIRS, NULL);
  g_autoptr(KomiSeriesResult) whole_result = NULL;
  g_autoptr(KomiSeriesPause) pause = komi_series_pause_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GThread) thread = NULL;
  MemorySink whole, paused;
  Background b = { 0, };
  guint moves, started;
  gint64 held, released;

  if (!have_gnugo ())
    return;
  memory_sink_init (&whole);
  whole_result = komi_series_run (series, &whole.parent, 2, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (whole_result->played, ==, GNUGO_GAMES);

  memory_sink_init (&paused);
  b.series = series;
  b.sink = &paused;
  b.pause = pause;
  komi_series_pause_set (pause, TRUE);
  thread = g_thread_new ("paused-series", background_run, &b);
  /* Both jobs held before their first game: none has started. */
  g_assert_true (wait_for (both_held, pause, 60));
  g_assert_cmpuint (count_started (&paused), ==, 0);
  g_assert_cmpuint (count_moves (&paused), ==, 0);

  komi_series_pause_set (pause, FALSE);
  g_assert_true (wait_for (some_moves, &b, 60));
  komi_series_pause_set (pause, TRUE);
  /* The genmove under way in each game completes; then both jobs are
   * held (blocked in the pause: no sleep proves it), and the pause lasts
   * 1.2 s by its own clock, long enough to show in the games' seconds if
   * it were counted. */
  g_assert_true (wait_for (both_held, pause, 60));
  held = g_get_monotonic_time ();
  moves = count_moves (&paused);
  started = count_started (&paused);
  pause_until = komi_series_pause_get_time (pause) + 1200 * 1000;
  g_assert_true (wait_for (pause_lasted, pause, 60));
  g_assert_cmpuint (komi_series_pause_get_waiting (pause), ==, 2);
  g_assert_cmpuint (count_moves (&paused), ==, moves);
  g_assert_cmpuint (count_started (&paused), ==, started);
  g_assert_false (g_atomic_int_get (&b.over));

  released = g_get_monotonic_time ();
  komi_series_pause_set (pause, FALSE);
  /* The pause's clock counts the whole hold. */
  g_assert_cmpint (komi_series_pause_get_time (pause), >=, released - held);
  g_assert_true (wait_for (background_over, &b, 120));
  g_assert_no_error (b.error);
  g_assert_cmpuint (b.result->played, ==, GNUGO_GAMES);
  for (guint i = 0; i < GNUGO_GAMES; i++)
    {
      GArray *x = g_hash_table_lookup (whole.moves, GUINT_TO_POINTER (i));
      GArray *y = g_hash_table_lookup (paused.moves, GUINT_TO_POINTER (i));

      g_assert_cmpmem (x->data, x->len * sizeof (KomiMove), y->data, y->len * sizeof (KomiMove));
      g_assert_cmpstr (g_hash_table_lookup (whole.results, GUINT_TO_POINTER (i)), ==,
                       g_hash_table_lookup (paused.results, GUINT_TO_POINTER (i)));
    }
  /* No game's seconds count the pause. Every game began after the run
   * did and ended at its mem_finished; one that ended after the pause
   * was either held through [held, released] or began after it, so its
   * seconds of play are at most its span since the run began less that
   * interval, whatever the machine's load. Counting the pause breaks
   * this by the 1.2 s held for the games in play. */
  for (guint i = 0; i < GNUGO_GAMES; i++)
    {
      const gint64 *ended = g_hash_table_lookup (paused.ended, GUINT_TO_POINTER (i));
      const double *seconds = g_hash_table_lookup (paused.seconds, GUINT_TO_POINTER (i));

      g_assert_nonnull (ended);
      g_assert_cmpint (*ended, >, released);
      g_assert_cmpfloat (*seconds, <=,
                         (*ended - b.began - (released - held)) / (double) G_USEC_PER_SEC + 0.01);
    }
  komi_series_result_free (b.result);
  memory_sink_clear (&whole);
  memory_sink_clear (&paused);
}

/* Stop while paused: the waiting games wake and the run ends at once. */
static void
test_cancel_while_paused (void)
{
  g_autoptr(KomiSeries) series = series_from (GNUGO_PAIRS, NULL);
  g_autoptr(KomiSeriesPause) pause = komi_series_pause_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GThread) thread = NULL;
  MemorySink sink;
  Background b = { 0, };

  if (!have_gnugo ())
    return;
  memory_sink_init (&sink);
  b.series = series;
  b.sink = &sink;
  b.pause = pause;
  b.cancellable = cancellable;
  thread = g_thread_new ("paused-series", background_run, &b);
  g_assert_true (wait_for (some_moves, &b, 60));
  komi_series_pause_set (pause, TRUE);
  g_assert_true (wait_for (both_held, pause, 60));
  /* Held for good unless the cancel wakes them: the run ending at all,
   * within a generous cap, is the proof. */
  g_cancellable_cancel (cancellable);
  g_assert_true (wait_for (background_over, &b, 60));
  g_assert_null (b.result);
  g_assert_error (b.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (g_hash_table_size (sink.results), <, GNUGO_GAMES);
  g_clear_error (&b.error);
  memory_sink_clear (&sink);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/series/example-files", test_example_files);
  g_test_add_func ("/komi/series/field-errors", test_field_errors);
  g_test_add_func ("/komi/series/engine-defaults", test_engine_defaults);
  g_test_add_func ("/komi/series/engine-timeouts", test_engine_timeouts);
  g_test_add_func ("/komi/series/plan", test_plan);
  g_test_add_func ("/komi/series/run-and-resume", test_run_and_resume);
  g_test_add_func ("/komi/series/cancel", test_cancel);
  g_test_add_func ("/komi/series/call-not-recorded", test_call_not_recorded);
  g_test_add_func ("/komi/series/pause", test_pause);
  g_test_add_func ("/komi/series/cancel-while-paused", test_cancel_while_paused);

  return g_test_run ();
}
