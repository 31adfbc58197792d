/* komi-series.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-match"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "komi-model-player.h"
#include "komi-series.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-series-error-quark, komi_series_error)

#define MAX_PAIRS 100000
#define MAX_JOBS  64

static const char *top_fields[] = {
  "name", "protocol", "subject", "opponents", "pairs", "seed", "referee", "jobs", "engines",
  "budget_usd", "pair_order", NULL
};
static const char *engine_fields[] = { "gnugo", "katago", "timeout_seconds", NULL };
static const char *katago_fields[] = { "binary", "model", "config", NULL };

static void
opponent_free (KomiSeriesOpponent *opponent)
{
  g_free (opponent->player);
  g_free (opponent);
}

void
komi_series_free (KomiSeries *series)
{
  if (series == NULL)
    return;
  g_free (series->name);
  g_free (series->subject);
  g_clear_pointer (&series->opponents, g_ptr_array_unref);
  g_clear_pointer (&series->pair_order, g_array_unref);
  g_free (series->referee);
  g_free ((char *) series->engines.gnugo_path);
  g_free ((char *) series->engines.katago_binary);
  g_free ((char *) series->engines.katago_model);
  g_free ((char *) series->engines.katago_config);
  g_free (series->canonical);
  g_free (series->digest);
  g_free (series);
}

static gboolean
field_error (GError **error, const char *field, const char *expected)
{
  /* Translators: a field of the file, then what is wrong with it. */
  g_set_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FIELD, _("“%s”: %s"), field, expected);
  return FALSE;
}

/* Typos must not pass silently: a misspelt "pairs" would otherwise run
 * the default. */
static gboolean
check_fields (JsonObject *object, const char *where, const char **known, GError **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (known, l->data))
      {
        g_autofree char *list = g_strjoinv (", ", (char **) known);
        g_autofree char *field = g_strdup_printf ("%s%s", where, (const char *) l->data);
        g_autofree char *expected = g_strdup_printf (_("unknown field; expected one of %s"), list);

        return field_error (error, field, expected);
      }
  return TRUE;
}

static const char *
get_string (JsonObject *object, const char *field, gboolean required, GError **error)
{
  JsonNode *node = json_object_get_member (object, field);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        field_error (error, field, _("missing; it is required (a string)"));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING
      || json_node_get_string (node)[0] == '\0')
    {
      field_error (error, field, _("must be a non-empty string"));
      return NULL;
    }
  return json_node_get_string (node);
}

/* A whole number within [min, max]; @fallback when absent. */
static gboolean
get_uint (JsonObject *object, const char *field, const char *label, guint64 min, guint64 max,
          guint64 fallback, guint64 *out, GError **error)
{
  JsonNode *node = json_object_get_member (object, field);
  g_autofree char *expected = g_strdup_printf (_("must be a whole number from %" PRIu64
                                                 " to %" PRIu64), min, max);

  if (node == NULL)
    {
      *out = fallback;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64
      && json_node_get_int (node) >= 0 && (guint64) json_node_get_int (node) >= min
      && (guint64) json_node_get_int (node) <= max)
    {
      *out = (guint64) json_node_get_int (node);
      return TRUE;
    }
  /* Seeds beyond 2^53 lose digits in a JSON number: a string of digits too. */
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
      && g_ascii_string_to_unsigned (json_node_get_string (node), 10, min, max, out, NULL))
    return TRUE;
  return field_error (error, label, expected);
}

static gboolean
check_player (const char *field, const char *spec, const KomiPlayerOptions *engines,
              GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(KomiPlayer) player = komi_player_new_from_any_spec (spec, engines, &local);

  if (player != NULL)
    return TRUE;
  g_set_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FIELD, _("“%s”: %s"), field,
               local->message);
  return FALSE;
}

static gboolean
parse_engines (JsonObject *root, KomiSeries *series, GError **error)
{
  JsonNode *node = json_object_get_member (root, "engines");
  JsonObject *engines, *katago;
  guint64 timeout;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return field_error (error, "engines", _("must be an object with gnugo, katago, "
                                            "timeout_seconds"));
  engines = json_node_get_object (node);
  if (!check_fields (engines, "engines.", engine_fields, error))
    return FALSE;
  if (json_object_has_member (engines, "gnugo"))
    {
      const char *gnugo = get_string (engines, "gnugo", TRUE, error);
      if (gnugo == NULL)
        return FALSE;
      series->engines.gnugo_path = g_strdup (gnugo);
    }
  if (!get_uint (engines, "timeout_seconds", "engines.timeout_seconds", 1, 86400, 60, &timeout,
                 error))
    return FALSE;
  series->engines.timeout_ms = (guint) timeout * 1000;
  /* A start (KataGo loading its network) waits as long, never less than
   * the default: on a loaded machine it is the slowest command of all. */
  series->engines.start_timeout_ms = (guint) MAX (timeout, 60) * 1000;

  node = json_object_get_member (engines, "katago");
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return field_error (error, "engines.katago", _("must be an object with binary, model, config"));
  katago = json_node_get_object (node);
  if (!check_fields (katago, "engines.katago.", katago_fields, error))
    return FALSE;
  series->engines.katago_binary = g_strdup (get_string (katago, "binary", FALSE, NULL));
  series->engines.katago_model = g_strdup (get_string (katago, "model", FALSE, NULL));
  series->engines.katago_config = g_strdup (get_string (katago, "config", FALSE, NULL));
  return TRUE;
}

/* With @counted (the series has a pair_order) no opponent gives pairs:
 * its pairs are counted from the order afterwards. */
static gboolean
parse_opponents (JsonObject *root, KomiSeries *series, guint64 default_pairs,
                 gboolean have_default_pairs, gboolean counted, GError **error)
{
  JsonNode *node = json_object_get_member (root, "opponents");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node)
      || json_array_get_length (json_node_get_array (node)) == 0)
    return field_error (error, "opponents",
                        _("must be a non-empty list of players, e.g. "
                          "[\"random\", {\"player\": \"gnugo:1\", \"pairs\": 4}]"));
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autofree char *label = g_strdup_printf ("opponents[%u]", i);
      KomiSeriesOpponent *opponent = g_new0 (KomiSeriesOpponent, 1);
      guint64 pairs = default_pairs;
      gboolean have_pairs = have_default_pairs;

      g_ptr_array_add (series->opponents, opponent);
      if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
        opponent->player = g_strdup (json_node_get_string (item));
      else if (JSON_NODE_HOLDS_OBJECT (item))
        {
          static const char *fields[] = { "player", "pairs", NULL };
          JsonObject *object = json_node_get_object (item);
          g_autofree char *prefix = g_strdup_printf ("%s.", label);
          g_autofree char *pairs_label = g_strdup_printf ("%s.pairs", label);
          const char *player;

          if (!check_fields (object, prefix, fields, error))
            return FALSE;
          if ((player = get_string (object, "player", TRUE, error)) == NULL)
            {
              g_prefix_error (error, "%s: ", label);
              return FALSE;
            }
          opponent->player = g_strdup (player);
          if (counted && json_object_has_member (object, "pairs"))
            return field_error (error, pairs_label, _("not allowed with pair_order, which "
                                                      "counts each opponent's pairs"));
          if (!get_uint (object, "pairs", pairs_label, 1, MAX_PAIRS, default_pairs, &pairs,
                         error))
            return FALSE;
          have_pairs |= json_object_has_member (object, "pairs");
        }
      else
        return field_error (error, label, _("must be a player (a string such as \"gnugo:1\") or "
                                            "an object {\"player\": …, \"pairs\": N}"));
      if (!have_pairs && !counted)
        return field_error (error, "pairs", _("missing; give the pairs per opponent (a whole "
                                              "number from 1), or pairs for each opponent"));
      opponent->pairs = (guint) pairs;
      /* An adaptive series' opponents are checked once they have a pair:
       * rating a weak model must not need KataGo for the top rungs. */
      if (!counted && !check_player (label, opponent->player, &series->engines, error))
        return FALSE;
    }
  return TRUE;
}

/* The opponent of each pair in play order: whole numbers indexing
 * "opponents". Each opponent's pairs are the times it appears. */
static gboolean
parse_pair_order (JsonObject *root, KomiSeries *series, GError **error)
{
  JsonNode *node = json_object_get_member (root, "pair_order");
  JsonArray *array;
  guint n = series->opponents->len;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return field_error (error, "pair_order", _("must be a list of opponent indices (0 for the "
                                               "first opponent), one for each pair"));
  array = json_node_get_array (node);
  if (json_array_get_length (array) > MAX_PAIRS)
    return field_error (error, "pair_order", _("has too many pairs"));
  series->pair_order = g_array_sized_new (FALSE, FALSE, sizeof (guint),
                                          json_array_get_length (array));
  for (guint i = 0; i < n; i++)
    ((KomiSeriesOpponent *) g_ptr_array_index (series->opponents, i))->pairs = 0;
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      guint o;

      if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_INT64
          || json_node_get_int (item) < 0 || json_node_get_int (item) >= n)
        {
          g_autofree char *label = g_strdup_printf ("pair_order[%u]", i);
          g_autofree char *expected = g_strdup_printf (_("must be an opponent index from 0 "
                                                         "to %u"), n - 1);

          return field_error (error, label, expected);
        }
      o = (guint) json_node_get_int (item);
      g_array_append_val (series->pair_order, o);
      ((KomiSeriesOpponent *) g_ptr_array_index (series->opponents, o))->pairs++;
    }
  for (guint i = 0; i < n; i++)
    {
      KomiSeriesOpponent *opponent = g_ptr_array_index (series->opponents, i);
      g_autofree char *label = g_strdup_printf ("opponents[%u]", i);

      if (opponent->pairs > 0 && !check_player (label, opponent->player, &series->engines,
                                                error))
        return FALSE;
    }
  return TRUE;
}

/* The definition with every default filled in, keys in a fixed order. The
 * digest leaves out "jobs" and "budget_usd": running the same series with
 * more threads or more money is still the same series. */
static void
canonicalise (KomiSeries *series)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, series->seed);
  g_autofree char *for_digest = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, series->name);
  json_builder_set_member_name (b, "protocol");
  json_builder_add_int_value (b, series->protocol);
  json_builder_set_member_name (b, "subject");
  json_builder_add_string_value (b, series->subject);
  json_builder_set_member_name (b, "opponents");
  json_builder_begin_array (b);
  for (guint i = 0; i < series->opponents->len; i++)
    {
      KomiSeriesOpponent *o = g_ptr_array_index (series->opponents, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "player");
      json_builder_add_string_value (b, o->player);
      if (series->pair_order == NULL)
        {
          json_builder_set_member_name (b, "pairs");
          json_builder_add_int_value (b, o->pairs);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "seed");
  json_builder_add_string_value (b, seed);
  json_builder_set_member_name (b, "referee");
  json_builder_add_string_value (b, series->referee);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  for_digest = json_generator_to_data (gen, NULL);
  series->digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, for_digest, -1);

  /* An adaptive series stays the same series as pairs are appended. */
  if (series->pair_order != NULL)
    {
      JsonArray *order = json_array_sized_new (series->pair_order->len);

      for (guint i = 0; i < series->pair_order->len; i++)
        json_array_add_int_element (order, g_array_index (series->pair_order, guint, i));
      json_object_set_array_member (json_node_get_object (root), "pair_order", order);
    }
  json_object_set_int_member (json_node_get_object (root), "jobs", series->jobs);
  if (series->budget_usd > 0)
    json_object_set_double_member (json_node_get_object (root), "budget_usd",
                                   series->budget_usd);
  json_generator_set_pretty (gen, TRUE);
  series->canonical = json_generator_to_data (gen, NULL);
}

/* Where the definition names no engine file, the caller's defaults. */
static void
merge_engines (KomiPlayerOptions *engines, const KomiPlayerOptions *defaults)
{
  const char **mine[] = {
    &engines->gnugo_path, &engines->katago_binary, &engines->katago_model,
    &engines->katago_config,
  };
  const char *const theirs[] = {
    defaults->gnugo_path, defaults->katago_binary, defaults->katago_model,
    defaults->katago_config,
  };

  for (guint i = 0; i < G_N_ELEMENTS (mine); i++)
    if (*mine[i] == NULL && theirs[i] != NULL && theirs[i][0] != '\0')
      *mine[i] = g_strdup (theirs[i]);
}

KomiSeries *
komi_series_new_from_json (const char *text, gssize length, GError **error)
{
  return komi_series_new_from_json_with_engines (text, length, NULL, error);
}

KomiSeries *
komi_series_new_from_json_with_engines (const char               *text,
                                        gssize                    length,
                                        const KomiPlayerOptions  *defaults,
                                        GError                  **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KomiSeries) series = g_new0 (KomiSeries, 1);
  g_autoptr(GError) local = NULL;
  JsonObject *root;
  const char *s;
  guint64 protocol, pairs, jobs;
  gboolean have_pairs, katago_defined;

  if (!json_parser_load_from_data (parser, text, length, &local))
    {
      g_set_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FILE,
                   _("The series is not valid JSON: %s"), local->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FILE,
                   _("The series must be a JSON object (see data/examples/demo-series.json)"));
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  series->opponents = g_ptr_array_new_with_free_func ((GDestroyNotify) opponent_free);

  if (!check_fields (root, "", top_fields, error)
      || (s = get_string (root, "name", TRUE, error)) == NULL)
    return NULL;
  series->name = g_strdup (s);
  if (!json_object_has_member (root, "protocol"))
    {
      field_error (error, "protocol", _("missing; it is required (1 is the only protocol)"));
      return NULL;
    }
  if (!get_uint (root, "protocol", "protocol", 1, 1, 1, &protocol, error))
    return NULL;
  series->protocol = (guint) protocol;
  if (!parse_engines (root, series, error))
    return NULL;
  /* The default referee follows the definition alone, so the same file
   * is the same series (digest) wherever it runs. */
  katago_defined = series->engines.katago_binary != NULL;
  if (defaults != NULL)
    merge_engines (&series->engines, defaults);
  if ((s = get_string (root, "subject", TRUE, error)) == NULL)
    return NULL;
  series->subject = g_strdup (s);
  if (!check_player ("subject", series->subject, &series->engines, error))
    return NULL;

  have_pairs = json_object_has_member (root, "pairs");
  if (have_pairs && json_object_has_member (root, "pair_order"))
    {
      field_error (error, "pairs", _("not allowed with pair_order, which counts each "
                                     "opponent's pairs"));
      return NULL;
    }
  if (!get_uint (root, "pairs", "pairs", 1, MAX_PAIRS, 0, &pairs, error)
      || !parse_opponents (root, series, pairs, have_pairs,
                           json_object_has_member (root, "pair_order"), error)
      || !parse_pair_order (root, series, error))
    return NULL;

  if (!json_object_has_member (root, "seed"))
    {
      field_error (error, "seed", _("missing; it is required (a whole number): every game's "
                                    "seeds and orientations derive from it"));
      return NULL;
    }
  if (!get_uint (root, "seed", "seed", 0, G_MAXUINT64, 0, &series->seed, error)
      || !get_uint (root, "jobs", "jobs", 1, MAX_JOBS, 1, &jobs, error))
    return NULL;
  series->jobs = (guint) jobs;
  if (json_object_has_member (root, "budget_usd"))
    {
      JsonNode *node = json_object_get_member (root, "budget_usd");

      if (!JSON_NODE_HOLDS_VALUE (node)
          || (json_node_get_value_type (node) != G_TYPE_DOUBLE
              && json_node_get_value_type (node) != G_TYPE_INT64)
          || json_node_get_double (node) <= 0)
        {
          field_error (error, "budget_usd", _("must be a positive number of US dollars, e.g. 5.0"));
          return NULL;
        }
      series->budget_usd = json_node_get_double (node);
    }

  s = json_object_has_member (root, "referee") ? get_string (root, "referee", TRUE, error)
      : katago_defined ? "katago" : "gnugo";
  if (s == NULL)
    return NULL;
  if (g_strcmp0 (s, "katago") != 0 && g_strcmp0 (s, "gnugo") != 0 && g_strcmp0 (s, "none") != 0)
    {
      field_error (error, "referee", _("must be \"katago\" (the protocol's judge), \"gnugo\" or "
                                       "\"none\""));
      return NULL;
    }
  series->referee = g_strdup (s);

  canonicalise (series);
  return g_steal_pointer (&series);
}

KomiSeries *
komi_series_load (const char *path, GError **error)
{
  return komi_series_load_with_engines (path, NULL, error);
}

KomiSeries *
komi_series_load_with_engines (const char               *path,
                               const KomiPlayerOptions  *defaults,
                               GError                  **error)
{
  g_autofree char *text = NULL;
  gsize length;
  KomiSeries *series;

  if (!g_file_get_contents (path, &text, &length, error))
    {
      g_prefix_error (error, _("Cannot read the series: "));
      return NULL;
    }
  series = komi_series_new_from_json_with_engines (text, (gssize) length, defaults, error);
  if (series == NULL)
    g_prefix_error (error, "%s: ", path);
  return series;
}
