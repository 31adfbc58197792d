/* komi-series-form.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "komi-model-player.h"
#include "komi-player-names.h"
#include "komi-provider-profile.h"
#include "komi-series-form.h"

gboolean
komi_series_form_parse_uint (const char *text,
                             guint64     min,
                             guint64     max,
                             guint64    *out)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  /* Digits only: no sign, no spaces inside, nothing clamped. */
  for (const char *p = stripped; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return *stripped != '\0'
         && g_ascii_string_to_unsigned (stripped, 10, min, max, out, NULL);
}

char *
komi_series_form_group_digits (guint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" PRIu64, n);
  const struct lconv *conv = localeconv ();
  const char *sep = conv->thousands_sep != NULL && *conv->thousands_sep != '\0'
                    ? conv->thousands_sep : ",";
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (out, sep);
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

static char *
check_player (const char *spec, const KomiPlayerOptions *engines, const char *key_error)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayer) player = komi_player_new_from_any_spec (spec, engines, &error);

  if (player != NULL)
    return NULL;
  /* A model whose profile reads well refused for want of its key: where
   * the key goes. */
  if (g_str_has_prefix (spec, "model:") && key_error != NULL)
    {
      g_autoptr(KomiProviderProfile) profile
        = komi_provider_profile_load (spec + strlen ("model:"), NULL);

      if (profile != NULL)
        return g_strdup (key_error);
    }
  return g_strdup (error->message);
}

static char *
check_opponents (const char *text, const KomiPlayerOptions *engines, const char *key_error)
{
  g_auto(GStrv) items = g_strsplit (text, ",", -1);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GString *errors = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *spec = g_strstrip (items[i]);
      g_autofree char *problem = NULL;

      if (*spec == '\0')
        continue;
      n++;
      if (g_hash_table_contains (seen, spec))
        problem = g_strdup_printf (_("“%s” is listed twice: list each opponent once (more "
                                     "pairs play it more)"), spec);
      else
        problem = check_player (spec, engines, key_error);
      g_hash_table_add (seen, (gpointer) spec);
      if (problem != NULL)
        g_string_append_printf (errors, "%s%s", errors->len > 0 ? "\n" : "", problem);
    }
  if (n == 0)
    g_string_append (errors, _("Add at least one opponent, such as random or gnugo:1"));
  if (errors->len == 0)
    {
      g_string_free (errors, TRUE);
      return NULL;
    }
  return g_string_free (errors, FALSE);
}

char *
komi_series_form_check (KomiSeriesField          field,
                        const char              *text,
                        const KomiPlayerOptions *engines,
                        const char              *key_error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_autofree char *max = NULL;
  guint64 number;

  switch (field)
    {
    case KOMI_SERIES_FIELD_NAME:
      return *stripped == '\0' ? g_strdup (_("Give the series a name")) : NULL;
    case KOMI_SERIES_FIELD_SUBJECT:
      if (*stripped == '\0')
        return g_strdup (_("Name the subject, the player being measured: a saved provider "
                           "profile (model:PROFILE.json) or an engine such as gnugo:3"));
      return check_player (stripped, engines, key_error);
    case KOMI_SERIES_FIELD_OPPONENTS:
      return check_opponents (stripped, engines, key_error);
    case KOMI_SERIES_FIELD_PAIRS:
      if (komi_series_form_parse_uint (stripped, 1, KOMI_SERIES_FORM_MAX_PAIRS, &number))
        return NULL;
      max = komi_series_form_group_digits (KOMI_SERIES_FORM_MAX_PAIRS);
      return g_strdup_printf (_("Pairs per opponent must be a whole number from 1 to %s"), max);
    case KOMI_SERIES_FIELD_SEED:
      if (komi_series_form_parse_uint (stripped, 0, G_MAXUINT64, &number))
        return NULL;
      return g_strdup (_("The seed must be a whole number, 0 or more (digits only): the same "
                         "seed plays the same games"));
    case KOMI_SERIES_FIELD_JOBS:
      if (komi_series_form_parse_uint (stripped, 1, KOMI_SERIES_FORM_MAX_JOBS, &number))
        return NULL;
      return g_strdup_printf (_("Games at once must be a whole number from 1 to %d"),
                              KOMI_SERIES_FORM_MAX_JOBS);
    case KOMI_SERIES_FIELD_BUDGET:
      {
        char *end = NULL;
        double dollars;

        if (*stripped == '\0')
          return NULL;
        dollars = g_ascii_strtod (stripped, &end);
        if (end != stripped && *end == '\0' && isfinite (dollars) && dollars > 0
            && (g_ascii_isdigit (*stripped) || *stripped == '.'))
          return NULL;
        return g_strdup (_("Budget must be a positive amount in US dollars, like 5 or 2.50 "
                           "(empty: no budget)"));
      }
    case KOMI_SERIES_N_FIELDS:
    default:
      g_return_val_if_reached (NULL);
    }
}

char *
komi_series_form_describe (const KomiSeries *series)
{
  guint games = komi_series_count_games (series);
  GString *text = g_string_new (NULL);

  if (series->pair_order != NULL)
    {
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                                 "Rated against the %u member of the ladder, "
                                                 "%u games at once.",
                                                 "Rated against the %u members of the ladder, "
                                                 "%u games at once.", series->opponents->len),
                              series->opponents->len, series->jobs);
      return g_string_free (text, FALSE);
    }
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u game", "%u games", games),
                          games);
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                             " against %u opponent, %u at once.",
                                             " against %u opponents, %u at once.",
                                             series->opponents->len),
                          series->opponents->len, series->jobs);
  return g_string_free (text, FALSE);
}

static char *
money (double dollars)
{
  /* Nothing to pay is "$0", as the run bar and the games list say it. */
  if (dollars == 0)
    return g_strdup ("$0");
  if (dollars > 0 && dollars < 0.005)
    return g_strdup (_("under $0.01"));
  return g_strdup_printf (_("$%.2f"), dollars);
}

char *
komi_series_form_describe_duration (double seconds)
{
  guint64 minutes = (guint64) ceil (seconds / 60);

  if (seconds < 60)
    return g_strdup (_("under a minute"));
  if (minutes < 60)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "about %u minute",
                                         "about %u minutes", (gulong) minutes),
                            (guint) minutes);
  if (minutes < 48 * 60)
    {
      /* Past an hour, to five minutes. */
      guint64 fives = (minutes + 4) / 5 * 5;

      if (fives % 60 == 0)
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "about %u hour", "about %u hours",
                                             (gulong) (fives / 60)), (guint) (fives / 60));
      /* TRANSLATORS: hours and minutes, e.g. "about 2 h 35 min". */
      return g_strdup_printf (_("about %u h %u min"), (guint) (fives / 60),
                              (guint) (fives % 60));
    }
  {
    g_autofree char *days = komi_series_form_group_digits ((guint64) round (seconds / 86400));

    /* TRANSLATORS: %s is a number of days, its digits grouped. */
    return g_strdup_printf (_("about %s days"), days);
  }
}

/* How long the series takes, or why that is not known. */
static void
append_time (GString *text, const KomiSeriesEstimate *e)
{
  if (e->untimed != NULL && g_str_has_prefix (e->untimed, "model:"))
    {
      /* By the name the user gave it, not its file's. */
      g_autofree char *name = komi_player_display_name (e->untimed);

      /* TRANSLATORS: %s is a provider profile's name. */
      g_string_append_printf (text, _("\nTime: not known until the provider “%s” gives a "
                                      "typical answer time (its Test in Edit Model Provider… "
                                      "fills it in)."), name);
    }
  else if (e->untimed != NULL)
    g_string_append_printf (text, _("\nTime: not known for %s, a program whose speed Komi has "
                                    "not measured."), e->untimed);
  else
    {
      g_autofree char *duration = komi_series_form_describe_duration (e->seconds);

      /* TRANSLATORS: %s is a duration, e.g. "about 25 minutes". */
      g_string_append_printf (text, _("\nTime: %s."), duration);
    }
}

char *
komi_series_form_describe_estimate (const KomiSeriesEstimate *e)
{
  GString *text = g_string_new (NULL);
  g_autofree char *cost = money (e->cost);
  g_autofree char *cost_max = money (e->cost_max);
  g_autofree char *budget = money (e->budget);
  g_autofree char *calls = komi_series_form_group_digits (e->calls);
  g_autofree char *calls_max = komi_series_form_group_digits (e->calls_max);

  if (e->model_games == 0)
    {
      g_string_append (text, _("No model calls: nothing to pay."));
      append_time (text, e);
      return g_string_free (text, FALSE);
    }
  /* TRANSLATORS: two numbers of calls, digits already grouped. */
  g_string_append_printf (text, _("About %s model calls (at most %s)"), calls, calls_max);
  if (!e->priced)
    g_string_append (text, _(" · price not set"));
  else if (e->cost_max < 0)
    g_string_append_printf (text, _(" · about %s; no upper bound without max output tokens "
                                    "in the profile"), cost);
  else
    g_string_append_printf (text, _(" · about %s, at most %s"), cost, cost_max);
  if (e->budget > 0 && !e->priced)
    g_string_append (text, _("\nThe budget cannot stop the series while a price is not set."));
  else if (e->games_in_budget < e->games)
    g_string_append_printf (text, _("\nThe budget of %s stops the series after about %u of %u "
                                    "games; it can be continued later."),
                            budget, e->games_in_budget, e->games);
  else if (e->budget_may_stop)
    g_string_append_printf (text, _("\nThe budget of %s may stop the series early."), budget);
  append_time (text, e);
  return g_string_free (text, FALSE);
}
