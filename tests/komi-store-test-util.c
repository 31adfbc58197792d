/* komi-store-test-util.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include "komi-store-test-util.h"

typedef struct
{
  KomiSeriesSink        *sink;
  const KomiPlannedGame *planned;
  guint                  stop_after;   /* 0: play to the end */
} SinkPlay;

void
test_series_free (TestSeries *t)
{
  g_free (t->series.name);
  g_free (t->series.subject);
  g_free (t->series.referee);
  g_free (t->series.canonical);
  g_free (t->series.digest);
  g_ptr_array_unref (t->series.opponents);
  g_array_unref (t->plan);
  g_free (t);
}

void
test_opponent_free (gpointer data)
{
  KomiSeriesOpponent *o = data;

  g_free (o->player);
  g_free (o);
}

TestSeries *
test_series_new (const char *name, guint64 seed, guint n_pairs)
{
  TestSeries *t = g_new0 (TestSeries, 1);
  KomiSeriesOpponent *o = g_new0 (KomiSeriesOpponent, 1);

  t->series.name = g_strdup (name);
  t->series.protocol = 1;
  t->series.subject = g_strdup ("random");
  t->series.opponents = g_ptr_array_new_with_free_func (test_opponent_free);
  o->player = g_strdup ("random");
  o->pairs = n_pairs;
  g_ptr_array_add (t->series.opponents, o);
  t->series.seed = seed;
  t->series.referee = g_strdup ("none");
  t->series.jobs = 1;
  t->series.canonical = g_strdup_printf ("{\"name\":\"%s\",\"seed\":\"%" G_GUINT64_FORMAT "\","
                                         "\"pairs\":%u}", name, seed, n_pairs);
  t->series.digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, t->series.canonical, -1);
  t->plan = g_array_new (FALSE, TRUE, sizeof (KomiPlannedGame));
  for (guint i = 0; i < 2 * n_pairs; i++)
    {
      KomiPlannedGame g = {
        .index = i,
        .opponent = 0,
        .pair = i / 2,
        .game_in_pair = i % 2,
        .black = t->series.subject,
        .white = o->player,
        .seed = seed * 1000 + i,
        .orientation = (KomiOrientation) ((i / 2) % KOMI_N_ORIENTATIONS),
      };
      g_array_append_val (t->plan, g);
    }
  return t;
}

const KomiPlannedGame *
test_planned (TestSeries *t, guint index)
{
  return &g_array_index (t->plan, KomiPlannedGame, index);
}

KomiGameRecord *
test_record_new (const KomiPlannedGame *planned, KomiGame *game)
{
  KomiGameRecord *r = g_new0 (KomiGameRecord, 1);

  r->game = game;
  r->dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  r->black_name = g_strdup ("Random 1");
  r->white_name = g_strdup ("Random 1");
  r->black_settings = g_strdup ("{}");
  r->white_settings = g_strdup ("{}");
  r->seed = planned->seed;
  r->black_seed = komi_match_player_seed (planned->seed, KOMI_BLACK);
  r->white_seed = komi_match_player_seed (planned->seed, KOMI_WHITE);
  r->orientation = planned->orientation;
  r->date = g_strdup ("2026-01-01");
  r->score.komi = 7;
  return r;
}

KomiMove
test_random_move (const KomiPlannedGame *planned, const KomiGame *game)
{
  KomiPoint buf[KOMI_MAX_POINTS];
  KomiMove move = { komi_game_get_to_move (game), KOMI_PASS };
  KomiRng rng;

  komi_rng_init (&rng, planned->seed * 1000 + komi_game_get_turns_played (game) + 1);
  move.point = komi_random_choose (&rng, game, buf);
  return move;
}

void
test_record_count (KomiGameRecord *r)
{
  r->end_reason = komi_game_get_end_reason (r->game);
  komi_score_area (komi_game_get_board (r->game), (const KomiPoint *) r->dead->data,
                   r->dead->len, 7, &r->score);
  g_free (r->result);
  r->result = komi_score_to_result (&r->score);
}

KomiGameRecord *
test_random_record (const KomiPlannedGame *planned)
{
  KomiGameRecord *r = test_record_new (planned, komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS));

  while (!komi_game_is_over (r->game))
    {
      KomiMove move = test_random_move (planned, r->game);

      g_assert_true (komi_game_play (r->game, move.point, NULL));
    }
  test_record_count (r);
  r->seconds = 0.25;
  return r;
}

static gboolean
sink_play_on_start (const KomiGameRecord *record, gpointer user_data, GError **error)
{
  SinkPlay *play = user_data;

  return play->sink->klass->game_started (play->sink, play->planned, record, error);
}

static gboolean
sink_play_on_move (const KomiGame *game, const KomiMove *move, gpointer user_data,
                   GError **error)
{
  SinkPlay *play = user_data;
  guint turn = komi_game_get_turns_played (game);

  if (!play->sink->klass->move_played (play->sink, play->planned, turn, move, error))
    return FALSE;
  if (play->stop_after > 0 && turn >= play->stop_after)
    {
      /* A crash right after a commit: the game stops unfinished. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "stopped after move %u", turn);
      return FALSE;
    }
  return TRUE;
}

KomiGameRecord *
sink_play_game (KomiSeriesSink *sink, const KomiPlannedGame *planned, guint stop_after)
{
  g_autoptr(KomiPlayer) black = komi_random_player_new ();
  g_autoptr(KomiPlayer) white = komi_random_player_new ();
  g_autoptr(GArray) moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  g_autoptr(GError) error = NULL;
  SinkPlay play = { sink, planned, stop_after };
  KomiMatchSettings settings = {
    .black = black,
    .white = white,
    .size = 9,
    .komi = 7,
    .max_turns = KOMI_PROTOCOL_MAX_TURNS,
    .seed = planned->seed,
    .orientation = planned->orientation,
    .on_move = sink_play_on_move,
    .on_start = sink_play_on_start,
    .user_data = &play,
  };
  KomiGameRecord *record;
  gboolean finished = FALSE;

  g_assert_true (sink->klass->game_state (sink, planned, &finished, moves, &error));
  g_assert_no_error (error);
  g_assert_false (finished);
  settings.resume_moves = (const KomiMove *) moves->data;
  settings.n_resume_moves = moves->len;
  record = komi_match_play_game (&settings, NULL, &error);
  if (record == NULL)
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      return NULL;
    }
  g_assert_no_error (error);
  g_assert_true (sink->klass->game_finished (sink, planned, record, &error));
  g_assert_no_error (error);
  return record;
}

void
assert_same_record (const KomiGameRecord *got, const KomiGameRecord *want)
{
  guint n_got, n_want;
  const KomiMove *a = komi_game_get_moves (got->game, &n_got);
  const KomiMove *b = komi_game_get_moves (want->game, &n_want);

  g_assert_cmpuint (n_got, ==, n_want);
  for (guint i = 0; i < n_got; i++)
    {
      g_assert_cmpint (a[i].color, ==, b[i].color);
      g_assert_cmpint (a[i].point, ==, b[i].point);
    }
  g_assert_cmpint (got->outcome, ==, want->outcome);
  g_assert_cmpint (got->end_reason, ==, want->end_reason);
  g_assert_cmpint (got->faulty, ==, want->faulty);
  g_assert_cmpstr (got->void_reason, ==, want->void_reason);
  g_assert_cmpstr (got->result, ==, want->result);
  g_assert_cmpstr (got->referee, ==, want->referee);
  g_assert_cmpstr (got->black_name, ==, want->black_name);
  g_assert_cmpstr (got->white_name, ==, want->white_name);
  g_assert_cmpstr (got->black_settings, ==, want->black_settings);
  g_assert_cmpstr (got->white_settings, ==, want->white_settings);
  g_assert_cmpstr (got->date, ==, want->date);
  g_assert_cmpuint (got->seed, ==, want->seed);
  g_assert_cmpuint (got->black_seed, ==, want->black_seed);
  g_assert_cmpuint (got->white_seed, ==, want->white_seed);
  g_assert_cmpint (got->orientation, ==, want->orientation);
  g_assert_cmpfloat (got->seconds, ==, want->seconds);
  g_assert_cmpuint (got->dead->len, ==, want->dead->len);
  for (guint i = 0; i < got->dead->len; i++)
    g_assert_cmpint (g_array_index (got->dead, KomiPoint, i), ==,
                     g_array_index (want->dead, KomiPoint, i));
  if (want->outcome != KOMI_OUTCOME_FINISHED)
    return;
  g_assert_cmpuint (got->score.black_stones, ==, want->score.black_stones);
  g_assert_cmpuint (got->score.white_stones, ==, want->score.white_stones);
  g_assert_cmpuint (got->score.black_territory, ==, want->score.black_territory);
  g_assert_cmpuint (got->score.white_territory, ==, want->score.white_territory);
  g_assert_cmpuint (got->score.dame, ==, want->score.dame);
  g_assert_cmpuint (got->score.black_dead, ==, want->score.black_dead);
  g_assert_cmpuint (got->score.white_dead, ==, want->score.white_dead);
  g_assert_cmpfloat (got->score.komi, ==, want->score.komi);
  g_assert_cmpfloat (got->score.black_total, ==, want->score.black_total);
  g_assert_cmpfloat (got->score.white_total, ==, want->score.white_total);
  g_assert_cmpint (got->score.winner, ==, want->score.winner);
  g_assert_cmpfloat (got->score.margin, ==, want->score.margin);
  g_assert_cmpmem (got->score.owner, 81, want->score.owner, 81);
}

char *
sql_text (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *value = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

guint
test_sql_count (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint n = 0;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      sqlite3_close (db);
      return 0;
    }
  sqlite3_busy_timeout (db, 10000);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      /* Only a library not yet created may lack the table. */
      g_assert_nonnull (strstr (sqlite3_errmsg (db), "no such table"));
      sqlite3_close (db);
      return 0;
    }
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = (guint) sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

char *
test_db_path (const char *dir)
{
  return g_build_filename (dir, "library.db", NULL);
}

KomiStore *
test_open_store (const char *path)
{
  g_autoptr(GError) error = NULL;
  KomiStore *store = komi_store_open (path, &error);

  g_assert_no_error (error);
  return store;
}

void
test_add_series (KomiStore  *store,
                 const char *name,
                 guint64     seed,
                 const char *subject,
                 const char *opponent,
                 guint       pairs,
                 gboolean    faults)
{
  g_autoptr(TestSeries) t = test_series_new (name, seed, pairs);
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                 komi_game_record_free);
  KomiSeriesOpponent *o = g_ptr_array_index (t->series.opponents, 0);
  g_autoptr(GError) error = NULL;
  gint64 id;

  g_free (t->series.subject);
  t->series.subject = g_strdup (subject);
  g_free (o->player);
  o->player = g_strdup (opponent);
  for (guint i = 0; i < t->plan->len; i++)
    {
      KomiPlannedGame *g = &g_array_index (t->plan, KomiPlannedGame, i);

      g->black = i % 2 == 0 ? t->series.subject : o->player;
      g->white = i % 2 == 0 ? o->player : t->series.subject;
    }
  g_assert_true (komi_store_begin_series (store, &t->series, t->plan, &id, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < t->plan->len; i++)
    {
      KomiGameRecord *r = test_random_record (test_planned (t, i));

      if (faults && i < 2)
        {
          r->outcome = i == 0 ? KOMI_OUTCOME_FORFEIT : KOMI_OUTCOME_VOID;
          r->faulty = i == 0 ? KOMI_BLACK : KOMI_WHITE;
          g_free (r->result);
          r->result = g_strdup (i == 0 ? "W+F" : "Void");
          r->void_reason = g_strdup ("a fault made up by the test");
        }
      g_ptr_array_add (records, r);
    }
  g_assert_true (komi_store_add_records (store, id, t->plan, records, &error));
  g_assert_no_error (error);
}

void
library_fixture_set_up (LibraryFixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("komi-store-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = test_db_path (f->dir);
}

void
library_fixture_tear_down (LibraryFixture *f, gconstpointer data)
{
  remove_test_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static int
by_plan_index (gconstpointer a, gconstpointer b)
{
  return atoi (*(const char * const *) a) - atoi (*(const char * const *) b);
}

GPtrArray *
test_library_text (const char *db)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = komi_store_open_reader (db, &error);
  g_autoptr(GPtrArray) games = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_assert_no_error (error);
  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *listed = g_ptr_array_index (games, i);
      g_autoptr(KomiStoreGame) game = komi_store_load_game (store, listed->id, &error);
      GString *s = g_string_new (NULL);

      g_assert_no_error (error);
      g_string_append_printf (s, "%d %u/%u/%u %s %s %s %s %s %" G_GUINT64_FORMAT " %d %s %s "
                              "%.1f %s:", game->plan_index, game->opponent, game->pair,
                              game->game_in_pair, game->black_name, game->white_name,
                              game->black_settings, game->white_settings, game->black_spec,
                              game->seed, game->orientation,
                              komi_game_status_to_string (game->status), game->result,
                              game->margin, game->referee);
      for (guint m = 0; m < game->moves->len; m++)
        g_string_append_printf (s, " %d", g_array_index (game->moves, KomiMove, m).point);
      for (guint d = 0; game->dead != NULL && d < game->dead->len; d++)
        g_string_append_printf (s, " x%d", g_array_index (game->dead, KomiPoint, d));
      g_ptr_array_add (out, g_string_free (s, FALSE));
    }
  g_ptr_array_sort (out, by_plan_index);
  return out;
}

void
test_assert_same_games (GPtrArray *got, GPtrArray *want)
{
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    g_assert_cmpstr (g_ptr_array_index (got, i), ==, g_ptr_array_index (want, i));
}
