/* komi-gtp-recipe.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-gtp-engine.h"

G_BEGIN_DECLS

typedef enum
{
  KOMI_GTP_GENERIC,   /* any GTP program, started as given */
  KOMI_GTP_GNUGO,
  KOMI_GTP_KATAGO,
} KomiGtpFlavor;

/* The rules every engine is set to: area scoring, positional superko, no
 * suicide. KataGo takes them as JSON (komi is refused inside it, so "komi"
 * follows); keys left out would take Tromp–Taylor values, so all are set. */
#define KOMI_KATAGO_RULES_JSON \
  "{\"ko\":\"POSITIONAL\",\"scoring\":\"AREA\",\"tax\":\"NONE\",\"suicide\":false," \
  "\"hasButton\":false,\"whiteHandicapBonus\":\"0\",\"friendlyPassOk\":true}"

/* What "gnugo" and "katago" without a level or visits play (the spec
 * parser's table, komi-player-spec.c, names them as these). */
#define KOMI_GNUGO_DEFAULT_LEVEL   10
#define KOMI_KATAGO_DEFAULT_VISITS 100

/* How to start and prepare one engine. Built from a spec by
 * komi_gtp_recipe_new_from_spec() (komi-player-spec.h), which checks that
 * the files exist; shared by GTP players and the referee. */
typedef struct
{
  KomiGtpFlavor flavor;
  char   *label;             /* "GNU Go", "KataGo", or the program's name */
  char   *binary;            /* path of the program */
  char  **args;              /* generic: the arguments after the program */
  int     level;             /* GNU Go: 0–10 */
  guint   visits;            /* KataGo: maxVisits */
  char   *model;             /* KataGo */
  char   *config;            /* KataGo */
  guint   timeout_ms;        /* for each command after the start */
  guint   start_timeout_ms;  /* for the start (KataGo loads a network) */
} KomiGtpRecipe;

KomiGtpRecipe *komi_gtp_recipe_new          (KomiGtpFlavor        flavor,
                                             const char          *binary);
KomiGtpRecipe *komi_gtp_recipe_copy         (const KomiGtpRecipe *recipe);
void           komi_gtp_recipe_free         (KomiGtpRecipe       *recipe);
/* SHA-256 of a file in hex (cached per path, size and time), or NULL when
 * it cannot be read. */
char          *komi_gtp_file_sha256         (const char          *path);
/* GNU Go's --seed for a 64-bit game seed: 1 + seed mod (2^31 - 1). */
int            komi_gtp_gnugo_seed          (guint64              seed);
/* The command line for a game with @seed (generic programs ignore it). */
char         **komi_gtp_recipe_build_argv   (const KomiGtpRecipe *recipe,
                                             guint64              seed);
/* Every setting and the seed, as a JSON object text. */
char          *komi_gtp_recipe_settings     (const KomiGtpRecipe *recipe,
                                             guint64              seed);
/* Starts the engine and sets its rules (KataGo: kata-set-rules, komi). */
KomiGtpEngine *komi_gtp_recipe_launch       (const KomiGtpRecipe *recipe,
                                             guint64              seed,
                                             GCancellable        *cancellable,
                                             GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiGtpRecipe, komi_gtp_recipe_free)

G_END_DECLS
