/* komi-store-test-review.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-coords.h"
#include "komi-game.h"
#include "komi-store-test-review.h"

static const char * const black_moves[] = {
  "C5", "E5", "C4", "F5", "C6", "G5", "C3", "H5", "C7", "C2", "C8", "C1", "C9", "B5", "A5",
  "pass",
};
static const char * const white_moves[] = {
  "E4", "F4", "E6", "F6", "G4", "G6", "H4", "H6", "E2", "E8", "G2", "G8", "J5", "D5", "D4",
  "pass",
};

G_STATIC_ASSERT (2 * G_N_ELEMENTS (black_moves) == TEST_BLUNDER_TURNS);

KomiGameRecord *
test_blunder_record (const KomiPlannedGame *planned)
{
  KomiGameRecord *r = test_record_new (planned, komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS));

  for (guint i = 0; i < G_N_ELEMENTS (black_moves); i++)
    {
      KomiPoint b, w;

      g_assert_true (komi_point_from_name (9, black_moves[i], &b));
      g_assert_true (komi_game_play (r->game, b, NULL));
      g_assert_true (komi_point_from_name (9, white_moves[i], &w));
      g_assert_true (komi_game_play (r->game, w, NULL));
    }
  g_assert_true (komi_game_is_over (r->game));
  test_record_count (r);
  return r;
}

TestSeries *
test_blunder_series (KomiStore *store, guint n_games, gint64 *series_id, gint64 *game_ids)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func (
    (GDestroyNotify) komi_game_record_free);
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GError) error = NULL;
  TestSeries *series = test_series_new ("review", 5, 1);

  g_assert_true (komi_store_begin_series (store, &series->series, series->plan, series_id,
                                          &error));
  g_assert_no_error (error);
  for (guint i = 0; i < n_games; i++)
    g_ptr_array_add (records, test_blunder_record (test_planned (series, i)));
  g_assert_true (komi_store_add_records (store, *series_id, series->plan, records, &error));
  g_assert_no_error (error);
  games = komi_store_list_games (store, *series_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (games->len, ==, 2);   /* the pair, its games played or not */
  for (guint i = 0; i < n_games; i++)
    game_ids[i] = ((KomiStoreGame *) games->pdata[i])->id;
  return series;
}

KomiStoreAnalysis *
test_analysis_new (const KomiStoreGame *game, gboolean best_played)
{
  KomiStoreAnalysis *analysis = komi_store_analysis_new ();

  analysis->game_id = game->id;
  analysis->engine = g_strdup ("test");
  analysis->engine_version = g_strdup ("1");
  analysis->label = g_strdup ("test");
  analysis->settings = g_strdup ("{}");
  analysis->mistake = 3;
  analysis->blunder = 6;
  for (guint i = 0; i < game->moves->len; i++)
    {
      const KomiMove *m = &g_array_index (game->moves, KomiMove, i);
      KomiStoreAnalysisMove am = {
        .turn = i + 1, .color = m->color, .point = m->point, .lead_before = 0,
        .lead_after = 0, .loss = 0, .best = best_played ? m->point : KOMI_NO_POINT,
      };

      g_array_append_val (analysis->moves, am);
    }
  return analysis;
}

void
test_analysis_set_loss (KomiStoreAnalysis *analysis, guint turn, double loss)
{
  KomiStoreAnalysisMove *am = &g_array_index (analysis->moves, KomiStoreAnalysisMove, turn - 1);

  g_assert_cmpuint (am->turn, ==, turn);
  am->loss = loss;
  am->lead_after = -loss;
}
