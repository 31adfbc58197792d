/* komi-series-estimate.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-provider-profile.h"
#include "komi-series.h"

G_BEGIN_DECLS

/* What a series will ask of its models before it starts: games, model
 * calls and US dollars, as a typical figure and an upper bound. */

/* What one model call of a profile costs, estimated without sending it. */
typedef struct
{
  /* Tokens of one request, per question, for a mid-game position (the
   * typical call) and for the empty board (the largest best_point). */
  guint    input_tokens[KOMI_PROTOCOL_N_QUESTIONS];
  guint    input_tokens_max[KOMI_PROTOCOL_N_QUESTIONS];
  guint    output_tokens;       /* a typical answer, reasoning included */
  guint    output_tokens_max;   /* the most one answer may bill; 0: no cap is set */
  guint    transport_attempts;  /* HTTP exchanges per call at most, the first included */
  gboolean priced;              /* the profile gives both prices */
  double   price_input;         /* US dollars per million tokens */
  double   price_output;
  double   latency_seconds;     /* one call, typically (the profile's); 0: not known */
  guint    max_concurrent;      /* the profile's calls at once */
  double   requests_per_minute; /* the profile's cap; 0: none */
} KomiCallEstimate;

/* Fills @estimate for @profile from real Protocol 1 request bodies in its
 * wire format. */
void     komi_call_estimate_init   (KomiCallEstimate          *estimate,
                                    const KomiProviderProfile *profile);

typedef struct
{
  guint    games;
  guint    model_games;     /* games with a model on at least one side */
  guint64  calls;           /* typical: every model turn places a stone, no answer asked again */
  guint64  calls_max;       /* every question asked the most times a game survives */
  guint64  requests_max;    /* calls_max with every transport retry (not billed) */
  gboolean priced;          /* every model's prices are set: the costs mean something */
  double   cost;            /* US dollars, typical */
  double   cost_max;        /* US dollars at most, budget aside; < 0: no bound */
  double   budget;          /* the series' budget_usd; 0: none */
  guint    games_in_budget; /* games the budget pays for, typically (== games: all) */
  gboolean budget_may_stop; /* the budget is below cost_max: it may stop the series */
                            /* (no call is made that could pass it) */
  double   seconds;         /* wall-clock time, typical, with the series' games at once;
                             * < 0: not known (see untimed) */
  const char *untimed;      /* the first player whose speed is not known (a spec of
                             * the series, which owns it); NULL: all known */
} KomiSeriesEstimate;

/* Seconds one move of @spec (an engine, "random" or "mix:P:ENGINE")
 * typically takes, as measured on the development machine (a 2-core x86-64
 * shared with other work; docs/performance.md): the same order of
 * magnitude elsewhere. < 0 for a player whose speed is not known (gtp:,
 * model:). */
double   komi_engine_move_seconds  (const char                *spec);

/* Estimates @series (time included) with @calls giving, for each model player spec
 * ("model:PROFILE.json") of the series, its call estimate (a
 * KomiCallEstimate*); specs that are not models make no calls. */
void     komi_series_estimate_with (KomiSeriesEstimate        *estimate,
                                    const KomiSeries          *series,
                                    GHashTable                *calls);
/* The same with each model's profile read from its file. FALSE when a
 * profile cannot be read (the series parser checked them, so only a file
 * changed since then). */
gboolean komi_series_estimate      (KomiSeriesEstimate        *estimate,
                                    const KomiSeries          *series,
                                    GError                   **error);

G_END_DECLS
