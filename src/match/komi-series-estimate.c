/* komi-series-estimate.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-match"

#include "config.h"

#include <string.h>

#include "komi-model-player.h"
#include "komi-player-spec.h"
#include "komi-protocol-state.h"
#include "komi-random-player.h"
#include "komi-series-estimate.h"
#include "komi-wire-common.h"

/* A model side plays every other turn up to the protocol's limit. */
#define SIDE_TURNS (KOMI_PROTOCOL_MAX_TURNS / 2)
/* An answer without reasoning is one option in a small JSON object, e.g.
 * {"answer": "place a stone"}: under 10 tokens in every tokenizer. */
#define ANSWER_TOKENS 10
/* A reasoning model with no cap on its output: what we assume it thinks. */
#define REASONING_TOKENS_GUESS 1024
/* Anthropic's max_tokens when the profile sets none (komi-wire-anthropic.c). */
#define ANTHROPIC_DEFAULT_MAX_TOKENS 1024

/* Tokens of the request body @profile sends for @question about @game's
 * position. Estimated as bytes / 4, the usual rule of thumb for English
 * and JSON; the body's envelope (model name, settings) is counted too, so
 * the figure leans a little high. */
static guint
request_tokens (const KomiProviderProfile *profile,
                const KomiGame            *game,
                KomiProtocolQuestion       question)
{
  g_autoptr(GString) request = g_string_new (NULL);
  g_auto(GStrv) options = NULL;
  g_autofree char *body = NULL;
  KomiProtocolState state;
  KomiWireQuestion q = { 0 };

  komi_protocol_state_init_from_game (&state, game, KOMI_ORIENTATION_IDENTITY);
  options = komi_protocol_state_dup_options (&state, question);
  komi_protocol_write_request_for_question (request, &state, question);
  q.profile = profile;
  q.rules = komi_protocol_get_rules_text (state.protocol, &q.rules_len);
  q.request = request->str;
  q.question_id = komi_protocol_question_id (question);
  q.options = (const char *const *) options;
  q.logprobs = profile->logprobs;
  body = komi_wire_build_body (&q);
  return (guint) ((strlen (body) + 3) / 4);
}

void
komi_call_estimate_init (KomiCallEstimate *estimate, const KomiProviderProfile *profile)
{
  g_autoptr(KomiGame) empty = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  g_autoptr(KomiGame) middle = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
  KomiPoint buf[KOMI_MAX_POINTS];
  gboolean reasons;
  KomiRng rng;

  g_return_if_fail (estimate != NULL && profile != NULL);

  /* Mid-game: half the turn limit played by the seeded random player, so
   * the board is half full and best_point lists a typical number of points. */
  komi_rng_init (&rng, 1);
  while (komi_game_get_turns_played (middle) < KOMI_PROTOCOL_MAX_TURNS / 2
         && !komi_game_is_over (middle))
    komi_game_play (middle, komi_random_choose (&rng, middle, buf), NULL);

  for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
    {
      estimate->input_tokens[q] = request_tokens (profile, middle, q);
      /* The empty board offers all 81 points: no request is longer. */
      estimate->input_tokens_max[q] = MAX (request_tokens (profile, empty, q),
                                           estimate->input_tokens[q]);
    }

  estimate->output_tokens_max = (guint) MAX (profile->max_output_tokens, 0);
  if (profile->api == KOMI_PROVIDER_API_ANTHROPIC)
    {
      guint max = profile->max_output_tokens > 0 ? (guint) profile->max_output_tokens
                                                 : ANTHROPIC_DEFAULT_MAX_TOKENS;
      estimate->output_tokens_max = profile->thinking_budget > 0
        ? MAX (max, (guint) profile->thinking_budget + ANTHROPIC_DEFAULT_MAX_TOKENS) : max;
    }
  /* Reasoning is billed as output and tends to use what it is given: a
   * reasoning profile is assumed to use its whole cap (so the typical
   * figure leans high); any other answers with the option alone. */
  reasons = profile->reasoning_effort != NULL || profile->thinking_budget != 0;
  if (!reasons)
    estimate->output_tokens = ANSWER_TOKENS;
  else if (profile->thinking_budget > 0)
    estimate->output_tokens = (guint) profile->thinking_budget + ANSWER_TOKENS;
  else
    estimate->output_tokens = REASONING_TOKENS_GUESS;
  if (estimate->output_tokens_max > 0)
    estimate->output_tokens = MIN (estimate->output_tokens, estimate->output_tokens_max);

  estimate->transport_attempts = MAX (profile->retry_attempts, 1);
  estimate->priced = profile->priced;
  estimate->price_input = profile->price_input;
  estimate->price_output = profile->price_output;
  estimate->latency_seconds = profile->typical_latency_seconds;
  estimate->max_concurrent = MAX (profile->max_concurrent, 1);
  estimate->requests_per_minute = profile->requests_per_minute;
}

/* Engine speeds: the CPU seconds of a game against the random player,
 * over the 60 moves a side makes in this estimate, measured with
 * build-aux/engine-speed on the development machine (2 cores shared with
 * other work, 2 December 2026; docs/performance.md#engine-speeds). A
 * series gives each game's engines a core, so CPU time is wall time. */
static const double gnugo_move_seconds[] = {
  0.0168, 0.0213, 0.0240, 0.0306, 0.0538, 0.0687, 0.0793, 0.1385, 0.1903, 0.1822, 0.2144,
};
#define KATAGO_VISIT_SECONDS 0.0053  /* per visit, one search thread, the 6-block network */
#define KATAGO_START_SECONDS 1.0     /* loading the network, once per game */
#define GNUGO_REFEREE_SECONDS 0.1    /* starting GNU Go and judging the dead stones */

/* The kind of engine @spec names without its chance of a random move
 * (@keep: the share of moves the engine itself makes) and its argument
 * (the players' table's default when none is written). */
static const KomiPlayerKind *
engine_of (const char *spec, double *keep, const char **argument)
{
  const KomiPlayerKind *kind = komi_player_kind_find (spec, argument);
  const char *colon;

  *keep = 1;
  if (kind != NULL && kind->id == KOMI_PLAYER_KIND_MIX && *argument != NULL
      && (colon = strchr (*argument, ':')) != NULL)
    {
      *keep = 1 - g_ascii_strtod (*argument, NULL);
      kind = komi_player_kind_find (colon + 1, argument);
    }
  return kind;
}

double
komi_engine_move_seconds (const char *spec)
{
  double keep;
  const char *argument = NULL;
  const KomiPlayerKind *engine = engine_of (spec, &keep, &argument);
  guint64 n = 0;

  switch (engine != NULL ? engine->id : KOMI_PLAYER_N_KINDS)
    {
    case KOMI_PLAYER_KIND_RANDOM:
      return 0;
    case KOMI_PLAYER_KIND_GNUGO:
      if (g_ascii_string_to_unsigned (argument, 10, 0, G_N_ELEMENTS (gnugo_move_seconds) - 1,
                                      &n, NULL))
        return keep * gnugo_move_seconds[n];
      return -1;
    case KOMI_PLAYER_KIND_KATAGO:
      if (g_ascii_string_to_unsigned (argument, 10, 1, G_MAXUINT32, &n, NULL))
        return keep * (double) n * KATAGO_VISIT_SECONDS;
      return -1;
    default:
      return -1;
    }
}

/* Seconds a game spends outside its moves: starting engines that load a
 * network, and the referee. */
static double
game_overhead_seconds (const char *const *sides, const char *referee)
{
  double seconds = 0, keep;

  for (guint s = 0; s < 2; s++)
    {
      const char *argument = NULL;
      const KomiPlayerKind *engine = engine_of (sides[s], &keep, &argument);

      if (engine != NULL && engine->id == KOMI_PLAYER_KIND_KATAGO)
        seconds += KATAGO_START_SECONDS;
    }
  if (g_strcmp0 (referee, "gnugo") == 0)
    seconds += GNUGO_REFEREE_SECONDS;
  else if (g_strcmp0 (referee, "katago") == 0)
    seconds += KATAGO_START_SECONDS;
  return seconds;
}

/* One model side of one game: @typical and @most in dollars (@most < 0:
 * no bound, the output is not capped). */
static void
side_cost (const KomiCallEstimate *c, double *typical, double *most)
{
  double in = 0, in_max = 0;

  for (guint q = 0; q < KOMI_PROTOCOL_N_QUESTIONS; q++)
    {
      in += c->input_tokens[q];
      in_max += c->input_tokens_max[q];
    }
  *typical = SIDE_TURNS * (in * c->price_input
                           + KOMI_PROTOCOL_N_QUESTIONS * (double) c->output_tokens
                             * c->price_output) / 1e6;
  if (c->output_tokens_max == 0 && c->price_output > 0)
    *most = -1;
  else
    *most = SIDE_TURNS * KOMI_MODEL_MAX_ATTEMPTS
            * (in_max * c->price_input
               + KOMI_PROTOCOL_N_QUESTIONS * (double) c->output_tokens_max * c->price_output)
            / 1e6;
}

/* Per turn a model is asked play_or_pass, and best_point only when it
 * answers "place a stone" (komi-model-player.c): two calls when it plays,
 * one when it passes. A question whose answer is not an option is asked
 * again, at most KOMI_MODEL_MAX_ATTEMPTS times in all; a third failure
 * forfeits the game, so no game goes past that. Transport faults are
 * retried inside a call up to the profile's attempts, and are not billed. */
void
komi_series_estimate_with (KomiSeriesEstimate *estimate,
                           const KomiSeries   *series,
                           GHashTable         *calls)
{
  g_autoptr(GArray) plan = NULL;
  double running = 0;
  gboolean unbounded = FALSE;
  double play = 0, model_play = 0, calls_per_minute = 0;
  guint at_once, model_at_once = G_MAXUINT;

  g_return_if_fail (estimate != NULL && series != NULL && calls != NULL);

  memset (estimate, 0, sizeof *estimate);
  plan = komi_series_plan (series);
  estimate->games = plan->len;
  estimate->priced = TRUE;
  estimate->budget = series->budget_usd;

  for (guint i = 0; i < plan->len; i++)
    {
      const KomiPlannedGame *game = &g_array_index (plan, KomiPlannedGame, i);
      const char *sides[] = { game->black, game->white };
      double game_cost = 0;
      gboolean model = FALSE;

      play += game_overhead_seconds (sides, series->referee);
      for (guint s = 0; s < G_N_ELEMENTS (sides); s++)
        {
          const KomiCallEstimate *c = g_hash_table_lookup (calls, sides[s]);
          double typical, most, move = c == NULL ? komi_engine_move_seconds (sides[s]) : 0;

          if (c == NULL && move < 0 && estimate->untimed == NULL)
            estimate->untimed = sides[s];
          if (c == NULL)
            {
              play += SIDE_TURNS * MAX (move, 0);
              continue;
            }
          if (c->latency_seconds <= 0 && estimate->untimed == NULL)
            estimate->untimed = sides[s];
          /* Every call of a turn waits for the one before. */
          model_play += SIDE_TURNS * KOMI_PROTOCOL_N_QUESTIONS * c->latency_seconds;
          model_at_once = MIN (model_at_once, c->max_concurrent);
          if (c->requests_per_minute > 0)
            calls_per_minute = calls_per_minute > 0 ? MIN (calls_per_minute,
                                                           c->requests_per_minute)
                                                    : c->requests_per_minute;
          model = TRUE;
          estimate->calls += SIDE_TURNS * KOMI_PROTOCOL_N_QUESTIONS;
          estimate->calls_max += SIDE_TURNS * KOMI_PROTOCOL_N_QUESTIONS
                                 * KOMI_MODEL_MAX_ATTEMPTS;
          estimate->requests_max += (guint64) SIDE_TURNS * KOMI_PROTOCOL_N_QUESTIONS
                                    * KOMI_MODEL_MAX_ATTEMPTS * c->transport_attempts;
          estimate->priced &= c->priced;
          side_cost (c, &typical, &most);
          game_cost += typical;
          estimate->cost_max += MAX (most, 0);
          unbounded |= most < 0;
        }
      estimate->model_games += model;
      estimate->cost += game_cost;
      /* Games start in plan order, so the budget runs out about there. */
      running += game_cost;
      if (estimate->budget <= 0 || running <= estimate->budget)
        estimate->games_in_budget++;
    }

  if (unbounded)
    estimate->cost_max = -1;

  /* Games run their jobs at once, each engine on a core of its own; a
   * model's calls are held to its calls at once and its requests per
   * minute. */
  at_once = MAX (MIN (series->jobs, plan->len), 1);
  estimate->seconds = (play + model_play) / at_once;
  if (model_play > 0)
    estimate->seconds = MAX (estimate->seconds, model_play / MIN (at_once, model_at_once));
  if (calls_per_minute > 0)
    estimate->seconds = MAX (estimate->seconds, estimate->calls * 60.0 / calls_per_minute);
  if (estimate->untimed != NULL)
    estimate->seconds = -1;
  /* The runner makes no call that could pass the budget: it stops there. */
  estimate->budget_may_stop = estimate->budget > 0
                              && (unbounded || estimate->cost_max > estimate->budget);
}

gboolean
komi_series_estimate (KomiSeriesEstimate *estimate,
                      const KomiSeries   *series,
                      GError            **error)
{
  g_autoptr(GHashTable) calls = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GPtrArray) specs = g_ptr_array_new ();

  g_return_val_if_fail (estimate != NULL && series != NULL, FALSE);

  g_ptr_array_add (specs, series->subject);
  for (guint i = 0; i < series->opponents->len; i++)
    g_ptr_array_add (specs, ((KomiSeriesOpponent *)
                             g_ptr_array_index (series->opponents, i))->player);
  for (guint i = 0; i < specs->len; i++)
    {
      const char *spec = g_ptr_array_index (specs, i);
      g_autoptr(KomiProviderProfile) profile = NULL;
      KomiCallEstimate *c;

      if (!g_str_has_prefix (spec, "model:") || g_hash_table_contains (calls, spec))
        continue;
      profile = komi_provider_profile_load (spec + strlen ("model:"), error);
      if (profile == NULL)
        return FALSE;
      c = g_new0 (KomiCallEstimate, 1);
      komi_call_estimate_init (c, profile);
      g_hash_table_insert (calls, (gpointer) spec, c);
    }
  komi_series_estimate_with (estimate, series, calls);
  return TRUE;
}
