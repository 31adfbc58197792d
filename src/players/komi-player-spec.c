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

#define SPEC_FORMS "random, gnugo:LEVEL (0–10), katago:VISITS, gtp:COMMAND, mix:P:ENGINE " \
                   "or model:PROFILE.json"

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

/* "gnugo:5" → "5", "gnugo:" → "" (an empty argument), "gnugo" → NULL
 * argument; FALSE when @spec is not of @kind at all. */
static gboolean
match_kind (const char  *spec,
            const char  *kind,
            const char **argument)
{
  gsize len = strlen (kind);

  if (strncmp (spec, kind, len) != 0 || (spec[len] != '\0' && spec[len] != ':'))
    return FALSE;
  if (argument != NULL)
    *argument = spec[len] == ':' ? spec + len + 1 : NULL;
  return TRUE;
}

static gboolean
parse_number (const char  *spec,
              const char  *text,
              const char  *what,
              guint64      min,
              guint64      max,
              guint64     *out,
              GError     **error)
{
  if (!g_ascii_string_to_unsigned (text, 10, min, max, out, NULL))
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_BAD_SPEC,
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
  guint64 level = 10;

  if (level_text != NULL &&
      !parse_number (spec, level_text, _("GNU Go level"), 0, 10, &level, error))
    return NULL;

  /* The build-time default (meson -Dgnugo=…) is the Debian location. */
  if (path == NULL)
    path = GNUGO_PATH;
  found = find_executable (path);
  if (found == NULL)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_NOT_FOUND,
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
check_katago_file (const char  *path,
                   const char  *what,
                   GError     **error)
{
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_NOT_FOUND,
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
  guint64 visits = 100;

  if (visits_text != NULL &&
      !parse_number (spec, visits_text, _("number of KataGo visits"), 1, MAX_KATAGO_VISITS,
                     &visits, error))
    return NULL;

  /* All three are checked now: a missing one must not surface as a
   * start failure in the middle of a series. */
  if (binary == NULL || model == NULL || config == NULL)
    {
      g_set_error_literal (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_NOT_FOUND, katago_help ());
      return NULL;
    }
  found = find_executable (binary);
  if (found == NULL)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_NOT_FOUND,
                   /* Translators: the last %s says how to give KataGo its files. */
                   _("KataGo binary not found at %s. %s"), binary, katago_help ());
      return NULL;
    }
  if (!check_katago_file (model, _("KataGo model"), error) ||
      !check_katago_file (config, _("KataGo config"), error))
    return NULL;

  recipe = komi_gtp_recipe_new (KOMI_GTP_KATAGO, found);
  recipe->visits = (guint) visits;
  recipe->model = g_strdup (model);
  recipe->config = g_strdup (config);
  return recipe;
}

static KomiGtpRecipe *
command_recipe (const char  *spec,
                const char  *command,
                GError     **error)
{
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *found = NULL;
  KomiGtpRecipe *recipe;

  if (!g_shell_parse_argv (command, NULL, &argv, &local_error))
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_BAD_SPEC,
                   _("“%s”: the command line cannot be read: %s"), spec, local_error->message);
      return NULL;
    }
  found = find_executable (argv[0]);
  if (found == NULL)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_NOT_FOUND,
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
  KomiGtpRecipe *recipe = NULL;
  const char *rest = NULL;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (opts == NULL)
    opts = &defaults;

  if (match_kind (spec, "gnugo", &rest))
    recipe = gnugo_recipe (spec, rest, opts, error);
  else if (match_kind (spec, "katago", &rest))
    recipe = katago_recipe (spec, rest, opts, error);
  else if (g_str_has_prefix (spec, "gtp:"))
    recipe = command_recipe (spec, spec + 4, error);
  else
    g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_BAD_SPEC,
                 _("Unknown engine “%s”: use gnugo:LEVEL (0–10), katago:VISITS or "
                   "gtp:COMMAND"),
                 spec);

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
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_BAD_SPEC,
                   _("“%s”: write mix:P:ENGINE, e.g. mix:0.5:gnugo:1: P the chance of a "
                     "random move on each turn, from 0 to 1 (like 0.25), ENGINE gnugo:LEVEL, "
                     "katago:VISITS or gtp:COMMAND"), spec);
      return NULL;
    }
  if (!komi_player_spec_parse_chance (rest, colon - rest, &p))
    {
      g_autofree char *shown = g_strndup (rest, colon - rest);

      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_BAD_SPEC,
                   _("“%s”: the chance of a random move must be a number from 0 to 1 "
                     "written with a dot, like 0.25, not “%s”"), spec, shown);
      return NULL;
    }
  engine_spec = colon + 1;
  recipe = komi_gtp_recipe_new_from_spec (engine_spec, opts, &local_error);
  if (recipe == NULL)
    {
      if (g_error_matches (local_error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_BAD_SPEC))
        g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_BAD_SPEC,
                     _("“%s”: %s"), spec, local_error->message);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return komi_mixed_player_new (spec, p, engine_spec, recipe);
}

KomiPlayer *
komi_player_new_from_spec (const char               *spec,
                           const KomiPlayerOptions  *opts,
                           GError                  **error)
{
  g_autoptr(KomiGtpRecipe) recipe = NULL;
  const char *rest = NULL;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (strcmp (spec, "random") == 0)
    return komi_random_player_new ();
  if (match_kind (spec, "mix", &rest))
    return mixed_player (spec, rest, opts, error);

  if (!match_kind (spec, "gnugo", NULL) && !match_kind (spec, "katago", NULL) &&
      !g_str_has_prefix (spec, "gtp:"))
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_BAD_SPEC,
                   /* Translators: the second %s lists the forms a player is written in. */
                   _("Unknown player “%s”: use %s"), spec, SPEC_FORMS);
      return NULL;
    }

  recipe = komi_gtp_recipe_new_from_spec (spec, opts, error);
  if (recipe == NULL)
    return NULL;
  return komi_gtp_player_new (spec, recipe);
}
