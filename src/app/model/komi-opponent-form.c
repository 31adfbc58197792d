/* komi-opponent-form.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "komi-opponent-form.h"
#include "komi-player-spec.h"
#include "komi-series-form.h"

gboolean
komi_opponent_form_shows (KomiOpponentKind kind, KomiOpponentField field)
{
  switch (field)
    {
    case KOMI_OPPONENT_FIELD_LEVEL:
      return kind == KOMI_OPPONENT_KIND_GNUGO;
    case KOMI_OPPONENT_FIELD_BINARY:
    case KOMI_OPPONENT_FIELD_MODEL:
    case KOMI_OPPONENT_FIELD_CONFIG:
    case KOMI_OPPONENT_FIELD_VISITS:
      return kind == KOMI_OPPONENT_KIND_KATAGO;
    case KOMI_OPPONENT_FIELD_COMMAND:
      return kind == KOMI_OPPONENT_KIND_GTP;
    case KOMI_OPPONENT_FIELD_MIX:
      return kind != KOMI_OPPONENT_KIND_RANDOM;
    case KOMI_OPPONENT_N_FIELDS:
    default:
      return FALSE;
    }
}

char *
komi_opponent_form_spec (const KomiOpponentFields *f)
{
  g_autofree char *engine = NULL;
  const char *mix = f->text[KOMI_OPPONENT_FIELD_MIX];

  switch (f->kind)
    {
    case KOMI_OPPONENT_KIND_GNUGO:
      engine = g_strconcat ("gnugo:", f->text[KOMI_OPPONENT_FIELD_LEVEL], NULL);
      break;
    case KOMI_OPPONENT_KIND_KATAGO:
      engine = g_strconcat ("katago:", f->text[KOMI_OPPONENT_FIELD_VISITS], NULL);
      break;
    case KOMI_OPPONENT_KIND_GTP:
      engine = g_strconcat ("gtp:", f->text[KOMI_OPPONENT_FIELD_COMMAND], NULL);
      break;
    case KOMI_OPPONENT_KIND_RANDOM:
    default:
      return g_strdup ("random");
    }
  /* An engine with a chance of a random move: a ladder's bridging rung. */
  if (mix != NULL && *mix != '\0')
    return g_strdup_printf ("mix:%s:%s", mix, engine);
  return g_steal_pointer (&engine);
}

/* A KataGo file: empty takes komi-cli's @variable when it is set. */
static char *
check_file (const char *text, const char *variable, KomiOpponentField field)
{
  const char *path = *text != '\0' ? text : g_getenv (variable);

  if (path == NULL || *path == '\0')
    switch (field)
      {
      case KOMI_OPPONENT_FIELD_BINARY:
        /* TRANSLATORS: %s is an environment variable, KOMI_KATAGO. */
        return g_strdup_printf (_("Choose the KataGo program (or set %s before starting "
                                  "Komi)"), variable);
      case KOMI_OPPONENT_FIELD_MODEL:
        return g_strdup_printf (_("Choose KataGo’s network file, a .bin.gz (or set %s before "
                                  "starting Komi)"), variable);
      default:
        return g_strdup_printf (_("Choose KataGo’s GTP config file, a .cfg (or set %s before "
                                  "starting Komi)"), variable);
      }
  if (field == KOMI_OPPONENT_FIELD_BINARY)
    {
      g_autofree char *found = strchr (path, '/') == NULL ? g_find_program_in_path (path)
                                                          : NULL;

      if (found != NULL || (strchr (path, '/') != NULL
                            && g_file_test (path, G_FILE_TEST_IS_REGULAR)
                            && g_file_test (path, G_FILE_TEST_IS_EXECUTABLE)))
        return NULL;
      return g_strdup_printf (_("There is no program at %s: choose the KataGo program"), path);
    }
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  if (field == KOMI_OPPONENT_FIELD_MODEL)
    return g_strdup_printf (_("There is no file at %s: choose KataGo’s network file"), path);
  return g_strdup_printf (_("There is no file at %s: choose KataGo’s GTP config file"), path);
}

gboolean
komi_opponent_form_check (const KomiOpponentFields *f, char **problems)
{
  static const char *variables[] = { NULL, "KOMI_KATAGO", "KOMI_KATAGO_MODEL",
                                     "KOMI_KATAGO_CONFIG" };
  gboolean good = TRUE;

  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    {
      const char *text = f->text[i] != NULL ? f->text[i] : "";
      guint64 visits;   /* and the level */

      if (!komi_opponent_form_shows (f->kind, i))
        continue;
      switch ((KomiOpponentField) i)
        {
        case KOMI_OPPONENT_FIELD_BINARY:
        case KOMI_OPPONENT_FIELD_MODEL:
        case KOMI_OPPONENT_FIELD_CONFIG:
          problems[i] = check_file (text, variables[i], i);
          break;
        case KOMI_OPPONENT_FIELD_LEVEL:
          /* Typed, not a spin button's: 15 is refused, not made 10. */
          if (!komi_series_form_parse_uint (text, 0, 10, &visits))
            problems[i] = g_strdup (_("The GNU Go level must be a whole number from 0 (weakest) "
                                      "to 10 (strongest)"));
          break;
        case KOMI_OPPONENT_FIELD_VISITS:
          if (!komi_series_form_parse_uint (text, 1, KOMI_OPPONENT_FORM_MAX_VISITS, &visits))
            {
              g_autofree char *max = komi_series_form_group_digits (KOMI_OPPONENT_FORM_MAX_VISITS);

              problems[i] = g_strdup_printf (_("Visits per move must be a whole number from 1 "
                                               "to %s"), max);
            }
          break;
        case KOMI_OPPONENT_FIELD_COMMAND:
          /* What it names is the spec parser's to judge. */
          if (*text == '\0')
            problems[i] = g_strdup (_("Give the command that starts the program, its full path "
                                      "first, such as /usr/games/gnugo --mode gtp"));
          break;
        case KOMI_OPPONENT_FIELD_MIX:
          {
            double chance;

            if (*text != '\0' && !komi_player_spec_parse_chance (text, strlen (text), &chance))
              problems[i] = g_strdup (_("The chance of a random move must be a number from 0 "
                                        "to 1, like 0.25 (empty: none)"));
          }
          break;
        case KOMI_OPPONENT_N_FIELDS:
        default:
          break;
        }
      good &= problems[i] == NULL;
    }
  return good;
}

int
komi_opponent_form_find (const char *list, const char *spec)
{
  g_auto(GStrv) items = g_strsplit (list != NULL ? list : "", ",", -1);
  int n = 0;

  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *item = g_strstrip (items[i]);

      if (*item == '\0')
        continue;
      if (g_str_equal (item, spec))
        return n;
      n++;
    }
  return -1;
}
