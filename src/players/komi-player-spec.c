/* komi-player-spec.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-mixed-player.h"
#include "komi-player-spec.h"
#include "komi-random-player.h"

#define DEFAULT_TIMEOUT_MS 60000
#define MAX_KATAGO_VISITS  10000000

G_DEFINE_QUARK (komi-player-spec-error-quark, komi_player_spec_error)

/* Not a macro pasted into formats: xgettext cannot see into one. */
static const char *
katago_help (void)
{
  return _("KataGo needs a binary, a model and a config: set KOMI_KATAGO, KOMI_KATAGO_MODEL "
           "and KOMI_KATAGO_CONFIG or pass --katago-binary/--katago-model/--katago-config");
}

/* An explicit option wins over the environment; empty counts as unset, so
 * `KOMI_KATAGO= komi-cli …` disables a value set in a profile. */
static const char *
option_or_env (const char *option,
               const char *variable)
{
  const char *value = option != NULL ? option : g_getenv (variable);

  return value != NULL && *value != '\0' ? value : NULL;
}

/* The path of an executable: as given when it has a slash, else from PATH. */
static char *
find_executable (const char *name)
{
  if (strchr (name, '/') == NULL)
    return g_find_program_in_path (name);
  if (g_file_test (name, G_FILE_TEST_IS_REGULAR) &&
      g_file_test (name, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (name);
  return NULL;
}

static gboolean
parse_number (const char           *spec,
              const char           *text,
              KomiPlayerSpecError   part,
              const char           *what,
              guint64               min,
              guint64               max,
              guint64              *out,
              GError              **error)
{
  if (!g_ascii_string_to_unsigned (text, 10, min, max, out, NULL))
    {
      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, part,
                   /* Translators: the first %s is the player as typed, the second
                    * what is wrong in it, e.g. "GNU Go level". */
                   _("“%s”: the %s must be a whole number from %" PRIu64 " to %" PRIu64),
                   spec, what, min, max);
      return FALSE;
    }
  return TRUE;
}

static KomiGtpRecipe *
gnugo_recipe (const char               *spec,
              const char               *level_text,
              const KomiPlayerOptions  *opts,
              GError                  **error)
{
  const char *path = option_or_env (opts->gnugo_path, "KOMI_GNUGO");
  g_autofree char *found = NULL;
  KomiGtpRecipe *recipe;
  guint64 level;

  if (!parse_number (spec, level_text, KOMI_PLAYER_SPEC_ERROR_LEVEL, _("GNU Go level"), 0, 10,
                     &level, error))
    return NULL;

  /* The build-time default (meson -Dgnugo=…) is the Debian location. */
  if (path == NULL)
    path = GNUGO_PATH;
  found = find_executable (path);
  if (found == NULL)
    {
      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_BINARY,
                   _("GNU Go not found at %s: install the Debian package gnugo or pass "
                     "--gnugo PATH"),
                   path);
      return NULL;
    }
  recipe = komi_gtp_recipe_new (KOMI_GTP_GNUGO, found);
  recipe->level = (int) level;
  return recipe;
}

static gboolean
check_katago_file (const char           *path,
                   KomiPlayerSpecError   part,
                   const char           *what,
                   GError              **error)
{
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  g_set_error (error, KOMI_PLAYER_SPEC_ERROR, part,
               /* Translators: the first %s is "KataGo model" or "KataGo config", the
                * last how to give KataGo its files. */
               _("%s not found at %s. %s"), what, path, katago_help ());
  return FALSE;
}

static KomiGtpRecipe *
katago_recipe (const char               *spec,
               const char               *visits_text,
               const KomiPlayerOptions  *opts,
               GError                  **error)
{
  const char *binary = option_or_env (opts->katago_binary, "KOMI_KATAGO");
  const char *model = option_or_env (opts->katago_model, "KOMI_KATAGO_MODEL");
  const char *config = option_or_env (opts->katago_config, "KOMI_KATAGO_CONFIG");
  g_autofree char *found = NULL;
  KomiGtpRecipe *recipe;
  guint64 visits;

  if (!parse_number (spec, visits_text, KOMI_PLAYER_SPEC_ERROR_VISITS,
                     _("number of KataGo visits"), 1, MAX_KATAGO_VISITS, &visits, error))
    return NULL;

  /* All three are checked now: a missing one must not surface as a
   * start failure in the middle of a series. */
  if (binary == NULL || model == NULL || config == NULL)
    {
      g_set_error_literal (error, KOMI_PLAYER_SPEC_ERROR,
                           binary == NULL  ? KOMI_PLAYER_SPEC_ERROR_BINARY
                           : model == NULL ? KOMI_PLAYER_SPEC_ERROR_MODEL
                                           : KOMI_PLAYER_SPEC_ERROR_CONFIG,
                           katago_help ());
      return NULL;
    }
  found = find_executable (binary);
  if (found == NULL)
    {
      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_BINARY,
                   /* Translators: the last %s says how to give KataGo its files. */
                   _("KataGo binary not found at %s. %s"), binary, katago_help ());
      return NULL;
    }
  if (!check_katago_file (model, KOMI_PLAYER_SPEC_ERROR_MODEL, _("KataGo model"), error) ||
      !check_katago_file (config, KOMI_PLAYER_SPEC_ERROR_CONFIG, _("KataGo config"), error))
    return NULL;

  recipe = komi_gtp_recipe_new (KOMI_GTP_KATAGO, found);
  recipe->visits = (guint) visits;
  recipe->model = g_strdup (model);
  recipe->config = g_strdup (config);
  return recipe;
}

static KomiGtpRecipe *
command_recipe (const char               *spec,
                const char               *command,
                const KomiPlayerOptions  *opts,
                GError                  **error)
{
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *found = NULL;
  KomiGtpRecipe *recipe;

  if (!g_shell_parse_argv (command, NULL, &argv, &local_error))
    {
      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_COMMAND,
                   _("“%s”: the command line cannot be read: %s"), spec, local_error->message);
      return NULL;
    }
  found = find_executable (argv[0]);
  if (found == NULL)
    {
      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_PROGRAM,
                   _("The GTP program %s was not found or is not executable: "
                     "give its full path after “gtp:”"), argv[0]);
      return NULL;
    }
  /* The resolved path is recorded, so the settings say which binary ran. */
  recipe = komi_gtp_recipe_new (KOMI_GTP_GENERIC, found);
  recipe->args = g_strdupv (argv + 1);
  return recipe;
}

KomiGtpRecipe *
komi_gtp_recipe_new_from_spec (const char               *spec,
                               const KomiPlayerOptions  *opts,
                               GError                  **error)
{
  static const KomiPlayerOptions defaults = { NULL };
  const KomiPlayerKind *kind;
  KomiGtpRecipe *recipe;
  const char *argument = NULL;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (opts == NULL)
    opts = &defaults;

  kind = komi_player_kind_find (spec, &argument);
  if (kind == NULL || kind->recipe == NULL)
    {
      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_KIND,
                   _("Unknown engine “%s”: use gnugo:LEVEL (0–10), katago:VISITS or "
                     "gtp:COMMAND"),
                   spec);
      return NULL;
    }
  recipe = kind->recipe (spec, argument, opts, error);
  if (recipe != NULL)
    {
      recipe->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : DEFAULT_TIMEOUT_MS;
      recipe->start_timeout_ms = opts->start_timeout_ms > 0 ? opts->start_timeout_ms
                                                            : DEFAULT_TIMEOUT_MS;
    }
  return recipe;
}

gboolean
komi_player_spec_parse_chance (const char *text,
                               gsize       len,
                               double     *p)
{
  g_autofree char *copy = g_strndup (text, len);
  gboolean dot = FALSE, digit = FALSE;

  for (const char *c = copy; *c != '\0'; c++)
    {
      if (*c == '.' && !dot)
        dot = TRUE;
      else if (g_ascii_isdigit (*c))
        digit = TRUE;
      else
        return FALSE;
    }
  if (!digit)
    return FALSE;
  *p = g_ascii_strtod (copy, NULL);
  return *p >= 0 && *p <= 1;
}

/* Whether @error says a file is missing rather than the spec wrong. */
static gboolean
names_missing_file (const GError *error)
{
  return error->code == KOMI_PLAYER_SPEC_ERROR_BINARY
         || error->code == KOMI_PLAYER_SPEC_ERROR_MODEL
         || error->code == KOMI_PLAYER_SPEC_ERROR_CONFIG
         || error->code == KOMI_PLAYER_SPEC_ERROR_PROGRAM;
}

/* mix:P:ENGINE, the engine any of the GTP kinds. */
static KomiPlayer *
mixed_player (const char               *spec,
              const char               *rest,
              const KomiPlayerOptions  *opts,
              GError                  **error)
{
  const char *colon = rest != NULL ? strchr (rest, ':') : NULL;
  const char *engine_spec;
  g_autoptr(KomiGtpRecipe) recipe = NULL;
  g_autoptr(GError) local_error = NULL;
  double p;

  if (colon == NULL || colon[1] == '\0')
    {
      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_SYNTAX,
                   _("“%s”: write mix:P:ENGINE, e.g. mix:0.5:gnugo:1: P the chance of a "
                     "random move on each turn, from 0 to 1 (like 0.25), ENGINE gnugo:LEVEL, "
                     "katago:VISITS or gtp:COMMAND"), spec);
      return NULL;
    }
  if (!komi_player_spec_parse_chance (rest, colon - rest, &p))
    {
      g_autofree char *shown = g_strndup (rest, colon - rest);

      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_CHANCE,
                   _("“%s”: the chance of a random move must be a number from 0 to 1 "
                     "written with a dot, like 0.25, not “%s”"), spec, shown);
      return NULL;
    }
  engine_spec = colon + 1;
  recipe = komi_gtp_recipe_new_from_spec (engine_spec, opts, &local_error);
  if (recipe == NULL)
    {
      /* The engine's part of the spec, named within the whole; a missing
       * file is the same however the engine is written. */
      if (!names_missing_file (local_error))
        g_set_error (error, KOMI_PLAYER_SPEC_ERROR, local_error->code,
                     _("“%s”: %s"), spec, local_error->message);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return komi_mixed_player_new (spec, p, engine_spec, recipe);
}

static KomiPlayer *
random_player (const char               *spec,
               const char               *argument,
               const KomiPlayerOptions  *opts,
               GError                  **error)
{
  return komi_random_player_new ();
}

/* Display names ------------------------------------------------------------ */

static char *
random_name (const char *argument)
{
  return g_strdup (_("Random player"));
}

static char *
gnugo_name (const char *level)
{
  return g_strdup_printf (_("GNU Go level %s"), level);
}

static char *
katago_name (const char *visits)
{
  return g_strdup_printf (_("KataGo, %s visits"), visits);
}

/* The program's file name: "gnugo" for gtp:'/usr/games/gnugo --mode gtp'. */
static char *
command_name (const char *command)
{
  g_auto(GStrv) argv = NULL;

  if (g_shell_parse_argv (command, NULL, &argv, NULL) && argv[0] != NULL)
    return g_path_get_basename (argv[0]);
  return NULL;
}

static char *
mixed_name (const char *argument)
{
  const char *colon = argument != NULL ? strchr (argument, ':') : NULL;
  const KomiPlayerKind *engine = NULL;
  const char *engine_argument = NULL;
  g_autofree char *engine_name = NULL;
  g_autofree char *chance = NULL;

  if (colon != NULL)
    engine = komi_player_kind_find (colon + 1, &engine_argument);
  if (engine == NULL || engine->id == KOMI_PLAYER_KIND_MIX || engine->id == KOMI_PLAYER_KIND_MODEL
      || (engine_name = engine->display_name (engine_argument)) == NULL)
    return NULL;
  chance = g_strndup (argument, colon - argument);
  /* Translators: "GNU Go level 5 with 25% random moves". */
  return g_strdup_printf (_("%s with %g%% random moves"), engine_name,
                          g_ascii_strtod (chance, NULL) * 100);
}

/* The profile's file without ".json"; the application shows the profile's
 * own name when it can read it (komi-player-names.c). */
static char *
model_name (const char *path)
{
  g_autofree char *base = NULL;

  if (*path == '\0')
    return NULL;
  base = g_path_get_basename (path);
  if (g_str_has_suffix (base, ".json") && strlen (base) > strlen (".json"))
    base[strlen (base) - strlen (".json")] = '\0';
  return g_steal_pointer (&base);
}

/* The table ----------------------------------------------------------------- */

static const KomiPlayerKind kinds[KOMI_PLAYER_N_KINDS] = {
  { KOMI_PLAYER_KIND_RANDOM, "random", KOMI_PLAYER_ARGUMENT_NONE, NULL,
    "random", NULL, random_player, random_name },
  { KOMI_PLAYER_KIND_GNUGO, "gnugo", KOMI_PLAYER_ARGUMENT_OPTIONAL,
    G_STRINGIFY (KOMI_GNUGO_DEFAULT_LEVEL),
    "gnugo:LEVEL (0–10)", gnugo_recipe, NULL, gnugo_name },
  { KOMI_PLAYER_KIND_KATAGO, "katago", KOMI_PLAYER_ARGUMENT_OPTIONAL,
    G_STRINGIFY (KOMI_KATAGO_DEFAULT_VISITS),
    "katago:VISITS", katago_recipe, NULL, katago_name },
  { KOMI_PLAYER_KIND_GTP, "gtp", KOMI_PLAYER_ARGUMENT_REQUIRED, NULL,
    "gtp:COMMAND", command_recipe, NULL, command_name },
  /* Written alone, a mix is still one: its constructor says how to write it. */
  { KOMI_PLAYER_KIND_MIX, "mix", KOMI_PLAYER_ARGUMENT_OPTIONAL, NULL,
    "mix:P:ENGINE", NULL, mixed_player, mixed_name },
  { KOMI_PLAYER_KIND_MODEL, "model", KOMI_PLAYER_ARGUMENT_REQUIRED, NULL,
    "model:PROFILE.json", NULL, NULL, model_name },
};

const KomiPlayerKind *
komi_player_kind_get (KomiPlayerKindId id)
{
  g_return_val_if_fail (id < KOMI_PLAYER_N_KINDS, NULL);
  return &kinds[id];
}

const KomiPlayerKind *
komi_player_kind_find (const char  *spec,
                       const char **argument)
{
  g_return_val_if_fail (spec != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      const KomiPlayerKind *kind = &kinds[i];
      gsize len = strlen (kind->prefix);
      gboolean alone, with_argument;

      if (strncmp (spec, kind->prefix, len) != 0)
        continue;
      alone = spec[len] == '\0' && kind->argument != KOMI_PLAYER_ARGUMENT_REQUIRED;
      with_argument = spec[len] == ':' && kind->argument != KOMI_PLAYER_ARGUMENT_NONE;
      if (!alone && !with_argument)
        continue;
      if (argument != NULL)
        *argument = with_argument ? spec + len + 1 : kind->default_argument;
      return kind;
    }
  return NULL;
}

/* "random, gnugo:LEVEL (0–10), …, mix:P:ENGINE or model:PROFILE.json" */
static char *
spec_forms (void)
{
  GString *forms = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      if (i > 0)
        g_string_append (forms, i + 1 < G_N_ELEMENTS (kinds) ? ", " : " or ");
      g_string_append (forms, kinds[i].form);
    }
  return g_string_free (forms, FALSE);
}

KomiPlayer *
komi_player_new_from_spec (const char               *spec,
                           const KomiPlayerOptions  *opts,
                           GError                  **error)
{
  static const KomiPlayerOptions defaults = { NULL };
  g_autoptr(KomiGtpRecipe) recipe = NULL;
  const KomiPlayerKind *kind;
  const char *argument = NULL;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  kind = komi_player_kind_find (spec, &argument);
  if (kind != NULL && kind->new != NULL)
    return kind->new (spec, argument, opts != NULL ? opts : &defaults, error);
  if (kind == NULL || kind->recipe == NULL)
    {
      g_autofree char *forms = spec_forms ();

      g_set_error (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_KIND,
                   /* Translators: the second %s lists the forms a player is written in. */
                   _("Unknown player “%s”: use %s"), spec, forms);
      return NULL;
    }

  recipe = komi_gtp_recipe_new_from_spec (spec, opts, error);
  if (recipe == NULL)
    return NULL;
  return komi_gtp_player_new (spec, recipe);
}
