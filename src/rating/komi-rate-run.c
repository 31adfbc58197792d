/* komi-rate-run.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <glib/gi18n-lib.h>

#include "komi-ladder-ship.h"
#include "komi-rate-run.h"
#include "komi-rating-pool.h"
#include "komi-rating-private.h"
#include "komi-rating-library.h"
#include "komi-series-estimate.h"

void
komi_rate_run_options_init (KomiRateRunOptions *options, const char *subject)
{
  g_return_if_fail (options != NULL);

  *options = (KomiRateRunOptions) KOMI_RATE_RUN_OPTIONS_INIT;
  options->subject = subject;
}

/* Every ladder member is an opponent (one is started only once a pair
 * against it is chosen), the pairs in the order chosen. The name is data,
 * not text for people: translated, it would make another series in
 * another language. */
KomiSeries *
komi_rate_run_series (const KomiLadder         *ladder,
                      const KomiRateRunOptions *options,
                      const GArray             *order,
                      double                    budget_usd,
                      GError                  **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *name = NULL;
  g_autofree char *seed = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (ladder != NULL && options != NULL && options->subject != NULL, NULL);

  name = options->name != NULL ? g_strdup (options->name)
         : g_strdup_printf ("Rating: %s against the Protocol %u ladder", options->subject,
                            ladder->protocol);
  seed = g_strdup_printf ("%" G_GUINT64_FORMAT, options->seed);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "protocol");
  json_builder_add_int_value (b, ladder->protocol);
  json_builder_set_member_name (b, "subject");
  json_builder_add_string_value (b, options->subject);
  json_builder_set_member_name (b, "opponents");
  json_builder_begin_array (b);
  for (guint i = 0; i < ladder->members->len; i++)
    json_builder_add_string_value (b, ((KomiLadderMember *) ladder->members->pdata[i])->label);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "pair_order");
  json_builder_begin_array (b);
  for (guint i = 0; order != NULL && i < order->len; i++)
    json_builder_add_int_value (b, g_array_index (order, guint, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "seed");
  json_builder_add_string_value (b, seed);
  /* The ladder's own referee unless told otherwise: games judged by
   * another would be set apart from a pinned ladder, never rated. */
  if (options->referee != NULL
      || (ladder->referee != NULL && g_str_has_prefix (ladder->referee, "KataGo ")))
    {
      json_builder_set_member_name (b, "referee");
      json_builder_add_string_value (b, options->referee != NULL ? options->referee : "katago");
    }
  json_builder_set_member_name (b, "jobs");
  json_builder_add_int_value (b, MAX (options->jobs, 1));
  if (budget_usd > 0)
    {
      json_builder_set_member_name (b, "budget_usd");
      json_builder_add_double_value (b, budget_usd);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  return komi_series_new_from_json_with_engines (text, -1, options->engines, error);
}

/* The pairs an earlier run chose, from the library: @order is left empty
 * when there was none. */
static gboolean
load_order (const KomiLadder *ladder, const KomiRateRunOptions *options, KomiStore *store,
            GArray *order, gint64 *series_id, GError **error)
{
  g_autoptr(KomiSeries) probe = komi_rate_run_series (ladder, options, NULL, 0, error);
  g_autoptr(GPtrArray) list = NULL;

  if (probe == NULL || (list = komi_store_list_series (store, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < list->len; i++)
    {
      KomiStoreSeries *s = g_ptr_array_index (list, i);
      g_autoptr(KomiSeries) stored = NULL;

      if (g_strcmp0 (s->digest, probe->digest) != 0)
        continue;
      stored = komi_series_new_from_json_with_engines (s->definition, -1, options->engines,
                                                       error);
      if (stored == NULL)
        return FALSE;
      if (stored->pair_order != NULL)
        g_array_append_vals (order, stored->pair_order->data, stored->pair_order->len);
      *series_id = s->id;
    }
  return TRUE;
}

/* The subject's results against each rung of @pool, from the series'
 * games, as the rating pool counts them (komi-rating-pool.h: the one
 * policy `ratings`, `publish` and the window follow), and the money its
 * calls cost. Each game is checked against the whole @ladder's pins and
 * referee (the pool has neither). */
static gboolean
read_cells (const KomiLadder *ladder, const KomiLadder *pool, KomiStore *store,
            gint64 series_id, KomiRatingCell *cells, double *spent, GError **error)
{
  g_autoptr(GPtrArray) games = komi_store_list_games (store, series_id, error);
  g_autoptr(KomiRatingPool) rated = NULL;
  const gint64 series[] = { series_id, 0 };
  const KomiSubjectRating *subject;

  if (games == NULL)
    return FALSE;
  komi_rate_plan_cells (pool, NULL, NULL, cells);
  *spent = 0;
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *g = g_ptr_array_index (games, i);

      if (isfinite (g->cost_usd))
        *spent += g->cost_usd;
    }
  if ((rated = komi_rating_pool_read (store, ladder, series, error)) == NULL)
    return FALSE;
  /* A game that cannot count against the ladder stops the rating: more
   * pairs against that rung would be paid for and never rated. */
  if (rated->set_apart->len > 0)
    {
      const KomiSetApart *a = g_ptr_array_index (rated->set_apart, 0);

      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                   _("game %" PRId64 " against %s cannot be rated on this ladder: %s; "
                     "'komi-cli ladder check' says what to install or change"),
                   a->game_id, a->member, a->reason);
      return FALSE;
    }
  if (rated->subjects->len == 0)
    return TRUE;
  subject = g_ptr_array_index (rated->subjects, 0);
  for (guint i = 0; i < subject->opponents->len; i++)
    {
      KomiScoreRow *row = &g_array_index (subject->opponents, KomiScoreRow, i);

      for (guint m = 0; m < pool->members->len; m++)
        if (g_strcmp0 (((KomiLadderMember *) pool->members->pdata[m])->label, row->label) == 0)
          {
            cells[m].games = komi_score_row_games (row);
            cells[m].score = row->wins + row->draws / 2.0;
          }
    }
  return TRUE;
}

/* What one more pair against @rung typically costs, at the profile's
 * prices (0 for engines). */
static double
pair_cost (const KomiLadder *ladder, const KomiRateRunOptions *options, guint rung)
{
  g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(KomiSeries) series = NULL;
  KomiSeriesEstimate estimate;

  g_array_append_val (one, rung);
  series = komi_rate_run_series (ladder, options, one, 0, NULL);
  if (series == NULL || !komi_series_estimate (&estimate, series, NULL))
    return 0;
  return estimate.cost;
}

/* The rungs the subject can play: every member but itself (a player
 * against itself says nothing about its rating). @map[i] is the member of
 * @ladder that rung i of the pool is. */
static KomiLadder *
pool_of (const KomiLadder *ladder, const char *subject, guint *map)
{
  KomiLadder *pool = _komi_ladder_new ();

  pool->protocol = ladder->protocol;
  pool->pinned = g_strdup (ladder->pinned);
  pool->date = g_strdup (ladder->date);
  pool->games = ladder->games;
  for (guint i = 0; i < ladder->members->len; i++)
    {
      const KomiLadderMember *m = g_ptr_array_index (ladder->members, i);

      if (g_strcmp0 (m->label, subject) == 0)
        continue;
      map[pool->members->len] = i;
      _komi_ladder_add (pool, m->label, m->rating, m->se)->games = m->games;
    }
  return pool;
}

static void
emit (const KomiRateRunOptions *options, KomiRateRunEventKind kind, gint64 series_id,
      guint pairs, guint rung, const char *label, const KomiRateDecision *decision, double spent)
{
  KomiRateRunEvent event = { kind, series_id, pairs, rung, label, decision, spent };

  if (options->event_func != NULL)
    options->event_func (&event, options->event_data);
}

gboolean
komi_rate_run (const KomiLadder         *ladder,
               const KomiRateRunOptions *options,
               KomiStore                *store,
               KomiSeriesSink           *sink,
               GCancellable             *cancellable,
               KomiRateRunResult        *result,
               GError                  **error)
{
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(KomiLadder) pool = NULL;
  g_autofree guint *map = NULL;
  g_autofree KomiRatingCell *cells = NULL;
  KomiRateDecision d;
  gint64 id = 0;
  double cost = 0;

  g_return_val_if_fail (ladder != NULL && ladder->members->len > 0, FALSE);
  g_return_val_if_fail (options != NULL && store != NULL && sink != NULL, FALSE);

  map = g_new (guint, ladder->members->len);
  pool = pool_of (ladder, options->subject, map);
  if (pool->members->len == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The ladder has no member but the subject itself"));
      return FALSE;
    }
  cells = g_new (KomiRatingCell, pool->members->len);
  komi_rate_plan_cells (pool, NULL, NULL, cells);
  if (!load_order (ladder, options, store, order, &id, error))
    return FALSE;
  if (order->len > 0)
    emit (options, KOMI_RATE_RUN_CONTINUING, id, order->len, 0, NULL, NULL, 0);
  for (;;)
    {
      if (order->len > 0)
        {
          /* The runner's budget is per run: what is left of ours (never 0,
           * which would mean none). */
          double left = options->budget_usd > 0 ? MAX (options->budget_usd - cost, 1e-9) : 0;
          g_autoptr(KomiSeries) series = komi_rate_run_series (ladder, options, order, left,
                                                               error);
          g_autoptr(KomiSeriesResult) played = NULL;

          if (series == NULL)
            return FALSE;
          /* Plays what is not ended: the new pair, or more after a kill. */
          played = komi_series_run_pausable (series, sink, MAX (options->jobs, 1),
                                             options->progress_func, options->progress_data,
                                             options->pause, cancellable, error);
          if (played == NULL)
            return FALSE;
          id = played->series_id;
          if (!read_cells (ladder, pool, store, id, cells, &cost, error))
            return FALSE;
        }
      komi_rate_plan_decide (pool, cells, &options->plan, &d);
      /* From here on @d.rung is the member's index in the whole ladder. */
      d.rung = map[d.rung];
      if (order->len > 0)
        emit (options, KOMI_RATE_RUN_RATED, id, order->len, 0, NULL, &d, cost);
      if (d.stop == KOMI_RATE_CONTINUE && options->budget_usd > 0
          && cost + pair_cost (ladder, options, d.rung) > options->budget_usd)
        d.stop = KOMI_RATE_BUDGET;
      if (d.stop != KOMI_RATE_CONTINUE)
        break;
      g_array_append_val (order, d.rung);
      emit (options, KOMI_RATE_RUN_CHOSEN, id, order->len, d.rung,
            ((KomiLadderMember *) ladder->members->pdata[d.rung])->label, NULL, cost);
    }
  if (result != NULL)
    *result = (KomiRateRunResult) { .last = d, .series_id = id, .spent = cost };
  return TRUE;
}
