/* test-resume-turn.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "komi-coords.h"
#include "komi-orientation.h"
#include "komi-protocol.h"
#include "komi-rehearsal.h"
#include "komi-store.h"
#include "komi-test-cli.h"

/* A model series killed while a turn's second question is out, then
 * resumed: the turn goes on from that question with the first answer as
 * recorded, every question of every turn has one deciding answer, the
 * moves are those answers mapped back through the orientation, and the
 * games are those of a run never killed (the rehearsal model answers the
 * same request the same way). */

#define KEY "sk-komi-test-19c4d2a7e5b13f80"

typedef struct
{
  GMutex     lock;
  GPtrArray *answers;   /* per request, in order: the options the server chose */
} ServerLog;

static void
log_request (const KomiRehearsalEvent *event, gpointer user_data)
{
  ServerLog *log = user_data;

  g_mutex_lock (&log->lock);
  g_ptr_array_add (log->answers, g_strdup (event->answer != NULL ? event->answer : ""));
  g_mutex_unlock (&log->lock);
}

static gboolean
is_play_or_pass (const char *answer)
{
  return strcmp (answer, KOMI_PROTOCOL_OPTION_PLACE_STONE) == 0
         || strcmp (answer, KOMI_PROTOCOL_OPTION_PASS) == 0;
}

static char *
write_file (const char *dir, const char *name, const char *text)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* A profile of the rehearsal model in Anthropic's format at @base_url, and
 * a series of it against the seeded random player, one game at a time. */
static char *
write_series (const char *dir, const char *name, const char *base_url)
{
  g_autofree char *profile_name = g_strdup_printf ("%s.json", name);
  g_autofree char *series_name = g_strdup_printf ("%s-series.json", name);
  g_autofree char *profile = NULL, *profile_json = NULL, *series_json = NULL;

  profile_json = g_strdup_printf (
    "{\"name\": \"rehearsal anthropic\", \"api\": \"anthropic\", \"base_url\": \"%s\","
    " \"model\": \"rehearsal-model\", \"key_env\": \"KOMI_TEST_MODEL_KEY\","
    " \"retry_base_ms\": 10, \"retry_cap_ms\": 50}", base_url);
  profile = write_file (dir, profile_name, profile_json);
  series_json = g_strdup_printf (
    "{\"name\": \"resumed turn\", \"protocol\": 1, \"subject\": \"model:%s\","
    " \"opponents\": [\"random\"], \"pairs\": 1, \"seed\": 19, \"referee\": \"none\","
    " \"jobs\": 1}", profile);
  return write_file (dir, series_name, series_json);
}

static void
run_ok (const char *what, ...)
{
  g_autofree char *out = NULL, *err = NULL;
  va_list ap;
  int status;

  va_start (ap, what);
  status = run_komi_cli_va (&out, &err, ap);
  va_end (ap);
  if (status != 0)
    g_error ("%s failed (%d): %s", what, status, err);
  g_assert_null (strstr (out, KEY));
  g_assert_null (strstr (err, KEY));
}

/* Moves and result of every game, one line each. */
static char *
games_text (KomiStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  GString *s = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < games->len; i++)
    {
      g_autoptr(KomiStoreGame) g = NULL;

      g = komi_store_load_game (store, ((KomiStoreGame *) games->pdata[i])->id, &error);
      g_assert_no_error (error);
      g_string_append_printf (s, "%d %s %s:", g->plan_index,
                              komi_game_status_to_string (g->status), g->result);
      for (guint m = 0; m < g->moves->len; m++)
        g_string_append_printf (s, " %d", g_array_index (g->moves, KomiMove, m).point);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

typedef struct
{
  gint64  game_id;
  guint   turn;
  char   *question;
  char   *outcome;
  char   *answer;
  gint    decided;
} Attempt;

static void
attempt_free (gpointer data)
{
  Attempt *a = data;

  g_free (a->question);
  g_free (a->outcome);
  g_free (a->answer);
  g_free (a);
}

static gboolean
collect (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  Attempt *a = g_new0 (Attempt, 1);

  a->game_id = call->game_id;
  a->turn = call->turn;
  a->question = g_strdup (call->question);
  a->outcome = g_strdup (call->outcome);
  a->answer = g_strdup (call->answer);
  a->decided = call->decided;
  g_ptr_array_add (user_data, a);
  return TRUE;
}

/* Every game's moves are what its deciding answers say, seen through the
 * game's orientation, and no question of a turn has two deciding answers. */
static void
assert_moves_decided (KomiStore *store, GPtrArray *attempts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  guint checked = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < games->len; i++)
    {
      g_autoptr(KomiStoreGame) g = NULL;

      g = komi_store_load_game (store, ((KomiStoreGame *) games->pdata[i])->id, &error);
      g_assert_no_error (error);
      g_assert_true (g->status == KOMI_GAME_STATUS_FINISHED);
      for (guint t = 1; t <= g->moves->len; t++)
        {
          const KomiMove *m = &g_array_index (g->moves, KomiMove, t - 1);
          const Attempt *decided[KOMI_PROTOCOL_N_QUESTIONS] = { NULL, };
          gboolean asked = FALSE;

          for (guint k = 0; k < attempts->len; k++)
            {
              const Attempt *a = attempts->pdata[k];
              guint q = strcmp (a->question, "play_or_pass") == 0
                        ? KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS : KOMI_PROTOCOL_QUESTION_BEST_POINT;

              if (a->game_id != g->id || a->turn != t)
                continue;
              asked = TRUE;
              /* A finished game has no attempt left unsettled. */
              g_assert_cmpint (a->decided, >=, 0);
              if (a->decided == 0)
                continue;
              g_assert_cmpstr (a->outcome, ==, "answer");
              g_assert_null (decided[q]);
              decided[q] = a;
            }
          if (!asked)
            continue;   /* the opponent's move, or no legal point */
          g_assert_nonnull (decided[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS]);
          if (m->point == KOMI_PASS)
            {
              g_assert_cmpstr (decided[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS]->answer, ==,
                               KOMI_PROTOCOL_OPTION_PASS);
              g_assert_null (decided[KOMI_PROTOCOL_QUESTION_BEST_POINT]);
            }
          else
            {
              KomiPoint shown;

              g_assert_cmpstr (decided[KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS]->answer, ==,
                               KOMI_PROTOCOL_OPTION_PLACE_STONE);
              g_assert_nonnull (decided[KOMI_PROTOCOL_QUESTION_BEST_POINT]);
              g_assert_true (komi_point_from_name (g->size,
                                                   decided[KOMI_PROTOCOL_QUESTION_BEST_POINT]
                                                     ->answer, &shown));
              g_assert_cmpint (komi_orientation_unapply (g->orientation, g->size, shown), ==,
                               m->point);
            }
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 0);
}

static void
test_killed_on_second_question (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-resume-turn-XXXXXX", NULL);
  g_autofree char *whole = g_build_filename (dir, "whole.db", NULL);
  g_autofree char *killed = g_build_filename (dir, "killed.db", NULL);
  g_autofree char *calls = g_build_filename (dir, "calls.jsonl", NULL);
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  g_autofree char *whole_series = NULL, *series = NULL, *faults = NULL, *jsonl = NULL;
  g_autofree char *want = NULL, *got = NULL;
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) attempts = g_ptr_array_new_with_free_func (attempt_free);
  g_autoptr(GError) error = NULL;
  ServerLog log = { .answers = g_ptr_array_new_with_free_func (g_free) };
  KomiRehearsalOptions options = {
    .seed = 11, .log_func = log_request, .log_data = &log, .timeout_hold_ms = 600000,
  };
  const Attempt *lost = NULL;
  guint held = 0, port, asked_again = 0;

  g_mutex_init (&log.lock);
  g_setenv ("KOMI_TEST_MODEL_KEY", KEY, TRUE);

  /* The run never killed, and which request is a best_point well into
   * the first game. */
  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  whole_series = write_series (dir, "whole", komi_rehearsal_get_base_url (server));
  run_ok ("the uninterrupted run", "run", whole_series, "--db", whole, NULL);
  g_clear_object (&server);
  for (guint i = 20; i < log.answers->len && held == 0; i++)
    if (!is_play_or_pass (log.answers->pdata[i]))
      held = i + 1;
  g_assert_cmpuint (held, >, 0);

  /* The same series on a server that holds that request unanswered;
   * killed once it has it. */
  g_ptr_array_set_size (log.answers, 0);
  faults = g_strdup_printf ("timeout@%u", held);
  options.faults = faults;
  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  port = komi_rehearsal_get_port (server);
  series = write_series (dir, "killed", komi_rehearsal_get_base_url (server));
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                           &error, cli, "run", series, "--db", killed, NULL);
  g_assert_no_error (error);
  while (komi_rehearsal_get_request_count (server, NULL) < held)
    {
      g_assert_nonnull (g_subprocess_get_identifier (proc));   /* still running */
      g_usleep (10000);
    }
  g_subprocess_send_signal (proc, SIGKILL);
  g_subprocess_wait (proc, NULL, NULL);
  g_assert_cmpuint (komi_rehearsal_get_request_count (server, NULL), ==, held);
  g_clear_object (&server);

  /* Resumed against the same model, answering everything, on the port
   * the profile names: its first request is the held best_point again. */
  g_ptr_array_set_size (log.answers, 0);
  options.faults = NULL;
  options.port = port;
  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  run_ok ("the resumed run", "run", series, "--db", killed, NULL);
  run_ok ("the export", "export", "--db", killed, "--calls", calls, NULL);
  g_clear_object (&server);
  g_assert_cmpuint (log.answers->len, >, 0);
  g_assert_false (is_play_or_pass (log.answers->pdata[0]));

  store = komi_store_open_reader (killed, &error);
  g_assert_no_error (error);
  g_assert_true (komi_store_foreach_call (store, KOMI_STORE_ALL_GAMES, collect, attempts,
                                          &error));
  g_assert_no_error (error);
  for (guint i = 0; i < attempts->len; i++)
    {
      const Attempt *a = attempts->pdata[i];

      if (strcmp (a->outcome, "interrupted") != 0)
        continue;
      g_assert_null (lost);
      lost = a;
    }
  g_assert_nonnull (lost);
  g_assert_cmpstr (lost->question, ==, "best_point");
  g_assert_cmpint (lost->decided, ==, 0);
  /* The killed turn's first question was asked once, and its answer
   * decided the move with the resent second question's. */
  for (guint i = 0; i < attempts->len; i++)
    {
      const Attempt *a = attempts->pdata[i];

      if (a->game_id != lost->game_id || a->turn != lost->turn)
        continue;
      if (strcmp (a->question, "play_or_pass") == 0)
        {
          asked_again++;
          g_assert_cmpstr (a->answer, ==, KOMI_PROTOCOL_OPTION_PLACE_STONE);
          g_assert_cmpint (a->decided, ==, 1);
        }
      else if (a != lost)
        {
          g_assert_cmpstr (a->outcome, ==, "answer");
          g_assert_cmpint (a->decided, ==, 1);
        }
    }
  g_test_message ("request %u held: game %" G_GINT64_FORMAT ", turn %u; %u attempts",
                  held, lost->game_id, lost->turn, attempts->len);
  g_assert_cmpuint (asked_again, ==, 1);
  assert_moves_decided (store, attempts);

  /* The export says it too. */
  g_assert_true (g_file_get_contents (calls, &jsonl, NULL, NULL));
  g_assert_nonnull (strstr (jsonl, "\"outcome\":\"interrupted\""));
  g_assert_nonnull (strstr (jsonl, "\"decided\":true"));
  g_assert_nonnull (strstr (jsonl, "\"decided\":false"));
  g_assert_null (strstr (jsonl, "\"decided\":null"));
  g_assert_null (strstr (jsonl, KEY));

  /* The same games as the run never killed. */
  got = games_text (store);
  g_clear_pointer (&store, komi_store_unref);
  store = komi_store_open_reader (whole, &error);
  g_assert_no_error (error);
  want = games_text (store);
  g_assert_cmpstr (got, ==, want);

  g_ptr_array_unref (log.answers);
  g_mutex_clear (&log.lock);
  g_unsetenv ("KOMI_TEST_MODEL_KEY");
  remove_test_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/resume-turn/killed-on-second-question",
                   test_killed_on_second_question);
  return g_test_run ();
}
