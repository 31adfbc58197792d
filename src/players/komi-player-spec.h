/* komi-player-spec.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-gtp-player.h"
#include "komi-player.h"

G_BEGIN_DECLS

/* Where engines live and how long they may take. NULL or 0 fields take
 * the defaults named below. */
typedef struct
{
  const char *gnugo_path;        /* NULL: $KOMI_GNUGO, then GNUGO_PATH */
  const char *katago_binary;     /* NULL: $KOMI_KATAGO */
  const char *katago_model;      /* NULL: $KOMI_KATAGO_MODEL */
  const char *katago_config;     /* NULL: $KOMI_KATAGO_CONFIG */
  guint       timeout_ms;        /* each engine command; 0: 60 s */
  guint       start_timeout_ms;  /* an engine's start; 0: 60 s */
} KomiPlayerOptions;

/* The spec parser's errors name the part of the description that is
 * wrong, so that a form marks its field whatever language the message is
 * in. */
#define KOMI_PLAYER_SPEC_ERROR (komi_player_spec_error_quark ())
GQuark komi_player_spec_error_quark (void);

typedef enum
{
  KOMI_PLAYER_SPEC_ERROR_KIND,      /* no kind of player is written so */
  KOMI_PLAYER_SPEC_ERROR_SYNTAX,    /* mix without P:ENGINE */
  KOMI_PLAYER_SPEC_ERROR_LEVEL,     /* GNU Go's level */
  KOMI_PLAYER_SPEC_ERROR_VISITS,    /* KataGo's visits */
  KOMI_PLAYER_SPEC_ERROR_CHANCE,    /* mix's chance P */
  KOMI_PLAYER_SPEC_ERROR_BINARY,    /* GNU Go's or KataGo's program: missing */
  KOMI_PLAYER_SPEC_ERROR_MODEL,     /* KataGo's network: missing */
  KOMI_PLAYER_SPEC_ERROR_CONFIG,    /* KataGo's config: missing */
  KOMI_PLAYER_SPEC_ERROR_COMMAND,   /* gtp:'s command line cannot be read */
  KOMI_PLAYER_SPEC_ERROR_PROGRAM,   /* gtp:'s program: missing or not executable */
} KomiPlayerSpecError;

/* The kinds of player, in the order the forms are listed. */
typedef enum
{
  KOMI_PLAYER_KIND_RANDOM,
  KOMI_PLAYER_KIND_GNUGO,
  KOMI_PLAYER_KIND_KATAGO,
  KOMI_PLAYER_KIND_GTP,
  KOMI_PLAYER_KIND_MIX,
  KOMI_PLAYER_KIND_MODEL,
  KOMI_PLAYER_N_KINDS
} KomiPlayerKindId;

/* Whether a kind is written with an argument after "PREFIX:". */
typedef enum
{
  KOMI_PLAYER_ARGUMENT_NONE,       /* "random" alone */
  KOMI_PLAYER_ARGUMENT_OPTIONAL,   /* "gnugo" or "gnugo:5" */
  KOMI_PLAYER_ARGUMENT_REQUIRED,   /* "gtp:COMMAND" */
} KomiPlayerArgument;

/* One kind of player: how it is written, what an absent argument means,
 * how it is made and how a person names it. Every function that reads a
 * player spec goes through this table (komi_player_kind_find()). */
typedef struct
{
  KomiPlayerKindId    id;
  const char         *prefix;            /* "gnugo" */
  KomiPlayerArgument  argument;
  const char         *default_argument;  /* an absent argument means it ("10"), or NULL */
  const char         *form;              /* as error messages list it: "gnugo:LEVEL (0–10)" */
  /* An engine: its recipe, the files checked (komi_gtp_recipe_new_from_spec()
   * sets the timeouts). @argument as komi_player_kind_find() gives it. */
  KomiGtpRecipe    *(*recipe)       (const char               *spec,
                                     const char               *argument,
                                     const KomiPlayerOptions  *opts,
                                     GError                  **error);
  /* Any other kind made here: the player. NULL for both recipe and new:
   * made in a higher layer (model: needs the providers,
   * komi_player_new_from_any_spec()). */
  KomiPlayer       *(*new)          (const char               *spec,
                                     const char               *argument,
                                     const KomiPlayerOptions  *opts,
                                     GError                  **error);
  /* How a person names it, translated ("GNU Go level 3"); NULL when the
   * argument names nothing. Nothing is judged, no file is read. */
  char             *(*display_name) (const char               *argument);
} KomiPlayerKind;

/* The kind @spec is written in, or NULL. @argument (may be NULL) gets the
 * text after "PREFIX:", or the kind's default_argument when @spec has
 * none (NULL for random, and for mix written alone); it is not judged. */
const KomiPlayerKind *komi_player_kind_find (const char        *spec,
                                             const char       **argument);
const KomiPlayerKind *komi_player_kind_get  (KomiPlayerKindId   id);

/* A player from its description:
 *   random           the seeded random player
 *   gnugo[:LEVEL]    GNU Go at level 0–10 (default 10)
 *   katago[:VISITS]  KataGo with maxVisits VISITS (default 100)
 *   gtp:COMMAND      any GTP program; COMMAND is split like a shell would
 *   mix:P:ENGINE     one of the engines above that plays the seeded random
 *                    player's move instead with chance P (0–1) on each turn
 *                    (komi-mixed-player.h): the ladder's bridging rungs
 *   model:PROFILE    not here: komi_player_new_from_any_spec() (providers)
 * Binaries, models and configs are checked here, so a missing file is an
 * error before any game starts. Errors are KOMI_PLAYER_SPEC_ERROR, the code
 * naming the part that is wrong. No process is started. */
KomiPlayer    *komi_player_new_from_spec     (const char              *spec,
                                              const KomiPlayerOptions *opts,
                                              GError                 **error);
/* The same for the engine kinds only (gnugo, katago, gtp:), as a recipe. */
KomiGtpRecipe *komi_gtp_recipe_new_from_spec (const char              *spec,
                                              const KomiPlayerOptions *opts,
                                              GError                 **error);

/* The chance P of mix:P:ENGINE, the first @len bytes of @text: "0.25",
 * "1", ".5" give TRUE with *@p; anything else (exponents, signs, nan, a
 * comma, a number over 1) is refused, so the spec reads as the chance it
 * gives. */
gboolean       komi_player_spec_parse_chance (const char *text,
                                              gsize       len,
                                              double     *p);

G_END_DECLS
