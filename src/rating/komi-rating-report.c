/* komi-rating-report.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-rating.h"
#include "komi-rating-private.h"

/* JSON numbers: json-glib 1.6 prints doubles with 17 significant digits
 * (190.84999999999999). Multiples of 1/8 are exact in binary and print as
 * at most three decimals (190.875); ±0.06 Elo is far below any rating's
 * error. */
static double
round8 (double x)
{
  return round (x * 8) / 8;
}

/* Whole Elo for people, without a "-0" for a rating a hair below zero. */
static double
whole (double x)
{
  return fabs (x) < 0.5 ? 0 : x;
}

/* ---- the ladder as JSON ----------------------------------------------- */

JsonNode *
komi_ladder_to_json_node (const KomiLadder *ladder)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (ladder != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "protocol");
  json_builder_add_int_value (b, ladder->protocol);
  json_builder_set_member_name (b, "pinned");
  json_builder_add_string_value (b, ladder->pinned);
  json_builder_set_member_name (b, "date");
  json_builder_add_string_value (b, ladder->date ? ladder->date : "");
  json_builder_set_member_name (b, "games");
  json_builder_add_int_value (b, ladder->games);
  json_builder_set_member_name (b, "members");
  json_builder_begin_array (b);
  for (guint i = 0; i < ladder->members->len; i++)
    {
      const KomiLadderMember *m = ladder->members->pdata[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, m->label);
      json_builder_set_member_name (b, "rating");
      json_builder_add_double_value (b, round8 (m->rating));
      json_builder_set_member_name (b, "se");
      json_builder_add_double_value (b, round8 (m->se));
      json_builder_set_member_name (b, "low");
      json_builder_add_double_value (b, round8 (m->low));
      json_builder_set_member_name (b, "high");
      json_builder_add_double_value (b, round8 (m->high));
      json_builder_set_member_name (b, "games");
      json_builder_add_int_value (b, m->games);
      if (isfinite (m->step) && isfinite (m->step_se))
        {
          /* The difference to the member below, as neighbours' games know it. */
          json_builder_set_member_name (b, "above_previous");
          json_builder_add_double_value (b, round8 (m->step));
          json_builder_set_member_name (b, "above_previous_se");
          json_builder_add_double_value (b, round8 (m->step_se));
        }
      if (m->pins != NULL)
        {
          json_builder_set_member_name (b, "pins");
          json_builder_add_value (b, json_node_copy (m->pins));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  if (ladder->covariance != NULL)
    {
      const guint k = ladder->members->len;

      /* The fit's covariance of the ratings, Elo², rows and columns in
       * member order: what --with-ladder-uncertainty adds to a subject. */
      json_builder_set_member_name (b, "covariance");
      json_builder_begin_array (b);
      for (guint i = 0; i < k; i++)
        {
          json_builder_begin_array (b);
          for (guint j = 0; j < k; j++)
            json_builder_add_double_value (b, round8 (ladder->covariance[i * k + j]));
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
    }
  if (ladder->referee != NULL)
    {
      json_builder_set_member_name (b, "referee");
      json_builder_add_string_value (b, ladder->referee);
    }
  if (ladder->made_by != NULL)
    {
      json_builder_set_member_name (b, "made_by");
      json_builder_add_string_value (b, ladder->made_by);
    }
  if (ladder->calibration != NULL)
    {
      json_builder_set_member_name (b, "calibration");
      json_builder_add_value (b, json_node_copy (ladder->calibration));
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static char *
node_to_text (JsonNode *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) owned = node;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, owned);
  return json_generator_to_data (gen, NULL);
}

char *
komi_ladder_to_json (const KomiLadder *ladder)
{
  g_return_val_if_fail (ladder != NULL, NULL);

  return node_to_text (komi_ladder_to_json_node (ladder));
}

/* Sets the error for a bad @field; always returns NULL. */
static KomiLadder *
ladder_field_error (GError **error, const char *field, const char *expected)
{
  g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
               _("ladder: %s is missing or wrong; expected %s"), field, expected);
  return NULL;
}

/* A number member of @object into @out; @required or not. */
static gboolean
get_number (JsonObject *object, const char *name, gboolean required, double *out)
{
  JsonNode *node = json_object_get_member (object, name);
  GType type = node && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : 0;

  if (type == G_TYPE_DOUBLE || type == G_TYPE_INT64)
    {
      *out = json_node_get_double (node);
      return isfinite (*out);
    }
  return node == NULL && !required;
}

/* The covariance from @node into @ladder: k rows of k numbers, symmetric
 * to a rounding, no negative variance. */
static gboolean
read_covariance (KomiLadder *ladder, JsonNode *node)
{
  const guint k = ladder->members->len;
  g_autofree double *cov = g_new (double, (gsize) k * k);
  JsonArray *rows;

  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (rows = json_node_get_array (node)) != k)
    return FALSE;
  for (guint i = 0; i < k; i++)
    {
      JsonNode *row = json_array_get_element (rows, i);
      JsonArray *values;

      if (!JSON_NODE_HOLDS_ARRAY (row)
          || json_array_get_length (values = json_node_get_array (row)) != k)
        return FALSE;
      for (guint j = 0; j < k; j++)
        {
          JsonNode *v = json_array_get_element (values, j);
          GType type = JSON_NODE_HOLDS_VALUE (v) ? json_node_get_value_type (v) : 0;

          if (type != G_TYPE_DOUBLE && type != G_TYPE_INT64)
            return FALSE;
          cov[i * k + j] = json_node_get_double (v);
          if (!isfinite (cov[i * k + j]))
            return FALSE;
        }
    }
  for (guint i = 0; i < k; i++)
    {
      if (cov[i * k + i] < 0)
        return FALSE;
      for (guint j = 0; j < i; j++)
        if (fabs (cov[i * k + j] - cov[j * k + i]) > 0.5)
          return FALSE;
    }
  ladder->covariance = g_steal_pointer (&cov);
  return TRUE;
}

KomiLadder *
komi_ladder_new_from_json (const char *text, gssize length, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KomiLadder) ladder = _komi_ladder_new ();
  JsonObject *root;
  JsonArray *members;
  double number = 0;

  g_return_val_if_fail (text != NULL, NULL);

  if (!json_parser_load_from_data (parser, text, length, error))
    {
      g_prefix_error (error, _("the ladder is not JSON: "));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return ladder_field_error (error, _("the top level"), _("an object"));
  root = json_node_get_object (json_parser_get_root (parser));
  if (!get_number (root, "protocol", TRUE, &number) || number < 1 || number != floor (number))
    return ladder_field_error (error, "protocol", _("a protocol number such as 1"));
  ladder->protocol = (guint) number;
  number = 0;
  if (!get_number (root, "games", FALSE, &number) || number < 0)
    return ladder_field_error (error, "games", _("the number of calibration games"));
  ladder->games = (guint) number;
  ladder->pinned = g_strdup (json_object_get_string_member_with_default (root, "pinned", NULL));
  ladder->date = g_strdup (json_object_get_string_member_with_default (root, "date", ""));
  if (!json_object_has_member (root, "members")
      || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "members"))
      || json_array_get_length (members = json_object_get_array_member (root, "members")) == 0)
    return ladder_field_error (error, "members", _("a non-empty array of members"));

  for (guint i = 0; i < json_array_get_length (members); i++)
    {
      JsonNode *node = json_array_get_element (members, i);
      g_autofree char *field = g_strdup_printf ("members[%u]", i);
      KomiLadderMember *member;
      JsonObject *object;
      JsonNode *pins;
      const char *label;
      double rating, se = 0, games = 0;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return ladder_field_error (error, field, _("an object with label and rating"));
      object = json_node_get_object (node);
      label = json_object_get_string_member_with_default (object, "label", NULL);
      if (label == NULL || label[0] == '\0' || komi_ladder_lookup (ladder, label) != NULL)
        return ladder_field_error (error, field, _("a label no other member has"));
      if (!get_number (object, "rating", TRUE, &rating))
        return ladder_field_error (error, field, _("a rating (Elo, a number)"));
      if (!get_number (object, "se", FALSE, &se) || se < 0
          || !get_number (object, "games", FALSE, &games) || games < 0)
        return ladder_field_error (error, field, _("se and games to be numbers of 0 or more"));
      member = _komi_ladder_add (ladder, label, rating, se);
      member->games = (guint) games;
      if (!get_number (object, "low", FALSE, &member->low)
          || !get_number (object, "high", FALSE, &member->high))
        return ladder_field_error (error, field, _("low and high to be numbers"));
      if (!get_number (object, "above_previous", FALSE, &member->step)
          || !get_number (object, "above_previous_se", FALSE, &member->step_se))
        return ladder_field_error (error, field,
                                   _("above_previous and above_previous_se to be numbers"));
      pins = json_object_get_member (object, "pins");
      if (pins != NULL && !JSON_NODE_HOLDS_OBJECT (pins))
        return ladder_field_error (error, field, _("pins to be an object"));
      if (pins != NULL)
        member->pins = json_node_copy (pins);
    }
  ladder->referee = g_strdup (json_object_get_string_member_with_default (root, "referee", NULL));
  ladder->made_by = g_strdup (json_object_get_string_member_with_default (root, "made_by", NULL));
  if (json_object_has_member (root, "calibration"))
    ladder->calibration = json_node_copy (json_object_get_member (root, "calibration"));
  if (ladder->pinned == NULL || komi_ladder_lookup (ladder, ladder->pinned) == NULL)
    return ladder_field_error (error, "pinned", _("the label of one of the members"));
  if (json_object_has_member (root, "covariance")
      && !read_covariance (ladder, json_object_get_member (root, "covariance")))
    return ladder_field_error (error, "covariance",
                               _("one row per member, each with one number per member, "
                                 "symmetric, the diagonal 0 or more (Elo²)"));
  return g_steal_pointer (&ladder);
}

KomiLadder *
komi_ladder_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  KomiLadder *ladder;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  if ((ladder = komi_ladder_new_from_json (text, length, error)) == NULL)
    g_prefix_error (error, "%s: ", path);
  return ladder;
}

gboolean
komi_ladder_save (const KomiLadder *ladder, const char *path, GError **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (ladder != NULL && path != NULL, FALSE);

  text = komi_ladder_to_json (ladder);
  return g_file_set_contents (path, text, -1, error);
}

/* ---- ratings as JSON -------------------------------------------------- */

JsonNode *
komi_estimate_to_json_node (const KomiEstimate *e)
{
  static const char * const kinds[] = { "none", "estimate", "lower-bound", "upper-bound" };
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (e != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, kinds[e->kind]);
  if (e->kind == KOMI_ESTIMATE_MLE)
    {
      /* Only a real estimate carries an "elo": a reader cannot mistake a
       * bound for one. */
      json_builder_set_member_name (b, "elo");
      json_builder_add_double_value (b, round8 (e->rating));
      json_builder_set_member_name (b, "se");
      json_builder_add_double_value (b, round8 (e->se));
      json_builder_set_member_name (b, "low");
      json_builder_add_double_value (b, round8 (e->low));
      json_builder_set_member_name (b, "high");
      json_builder_add_double_value (b, round8 (e->high));
      json_builder_set_member_name (b, "interval");
      json_builder_add_string_value (b, e->ladder_se > 0
                                        ? "95% profile likelihood, with the ladder's uncertainty"
                                        : "95% profile likelihood");
      if (e->ladder_se > 0)
        {
          json_builder_set_member_name (b, "ladder_se");
          json_builder_add_double_value (b, round8 (e->ladder_se));
        }
    }
  else if (e->kind != KOMI_ESTIMATE_NONE)
    {
      json_builder_set_member_name (b, "bound");
      json_builder_add_double_value (b, round8 (e->bound));
      json_builder_set_member_name (b, "confidence_percent");
      json_builder_add_int_value (b, 95);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
add_row (JsonBuilder *b, const KomiScoreRow *row)
{
  const struct { const char *name; guint value; } counts[] = {
    { "games", komi_score_row_games (row) }, { "wins", row->wins }, { "losses", row->losses },
    { "draws", row->draws }, { "turn_limit", row->turn_limit },
    { "forfeits_lost", row->forfeits_lost }, { "forfeits_won", row->forfeits_won },
    { "voids", row->voids },
  };
  double score = komi_score_row_score (row);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, row->label);
  if (!isnan (row->rating))
    {
      json_builder_set_member_name (b, "rating");
      json_builder_add_double_value (b, round8 (row->rating));
    }
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      json_builder_set_member_name (b, counts[i].name);
      json_builder_add_int_value (b, counts[i].value);
    }
  json_builder_set_member_name (b, "points");
  json_builder_add_double_value (b, row->wins + row->draws / 2.0);
  json_builder_set_member_name (b, "score_percent");
  if (isnan (score))
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, round8 (100 * score));
  if (!isnan (row->predicted))
    {
      json_builder_set_member_name (b, "predicted_points");
      json_builder_add_double_value (b, round8 (row->predicted));
      json_builder_set_member_name (b, "z");
      json_builder_add_double_value (b, round8 (row->z));
    }
  json_builder_end_object (b);
}

JsonNode *
komi_rating_to_json_node (const KomiLadder *ladder, GPtrArray *subjects)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  if (ladder != NULL)
    {
      json_builder_set_member_name (b, "protocol");
      json_builder_add_int_value (b, ladder->protocol);
      json_builder_set_member_name (b, "ladder");
      json_builder_add_value (b, komi_ladder_to_json_node (ladder));
    }
  json_builder_set_member_name (b, "subjects");
  json_builder_begin_array (b);
  for (guint s = 0; subjects != NULL && s < subjects->len; s++)
    {
      const KomiSubjectRating *r = subjects->pdata[s];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "subject");
      json_builder_add_string_value (b, r->subject);
      json_builder_set_member_name (b, "protocol");
      json_builder_add_int_value (b, r->protocol);
      json_builder_set_member_name (b, "rating");
      json_builder_add_value (b, komi_estimate_to_json_node (&r->estimate));
      if (r->why_unrated != NULL)
        {
          json_builder_set_member_name (b, "why_unrated");
          json_builder_add_string_value (b, r->why_unrated);
        }
      json_builder_set_member_name (b, "set_apart");
      json_builder_add_int_value (b, r->set_apart);
      json_builder_set_member_name (b, "colour_lean_elo");
      json_builder_add_double_value (b, round8 (komi_subject_colour_lean (r)));
      if (!isnan (r->fit.chi2))
        {
          json_builder_set_member_name (b, "fit");
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "chi2");
          json_builder_add_double_value (b, round8 (r->fit.chi2));
          json_builder_set_member_name (b, "dof");
          json_builder_add_int_value (b, r->fit.dof);
          json_builder_set_member_name (b, "p");
          if (isnan (r->fit.p))
            json_builder_add_null_value (b);
          else
            json_builder_add_double_value (b, round8 (r->fit.p));
          json_builder_set_member_name (b, "inconsistent");
          json_builder_add_boolean_value (b, r->fit.inconsistent);
          json_builder_end_object (b);
        }
      json_builder_set_member_name (b, "total");
      add_row (b, &r->total);
      json_builder_set_member_name (b, "opponents");
      json_builder_begin_array (b);
      for (guint i = 0; i < r->opponents->len; i++)
        add_row (b, &g_array_index (r->opponents, KomiScoreRow, i));
      json_builder_end_array (b);
      json_builder_set_member_name (b, "colors");
      json_builder_begin_array (b);
      for (guint c = 0; c < 2; c++)
        add_row (b, &r->colors[c]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "orientations");
      json_builder_begin_array (b);
      for (guint o = 0; o < G_N_ELEMENTS (r->orientations); o++)
        add_row (b, &r->orientations[o]);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ---- ratings for people ----------------------------------------------- */

char *
komi_estimate_describe (const KomiEstimate *e)
{
  g_return_val_if_fail (e != NULL, NULL);

  switch (e->kind)
    {
    case KOMI_ESTIMATE_MLE:
      if (e->ladder_se > 0)
        return g_strdup_printf ("%.0f (95%% CI %.0f to %.0f, profile likelihood with the "
                                "ladder's uncertainty; SE %.0f, of which the ladder %.0f)",
                                whole (e->rating), whole (e->low), whole (e->high), e->se,
                                e->ladder_se);
      return g_strdup_printf ("%.0f (95%% CI %.0f to %.0f, profile likelihood; SE %.0f)",
                              whole (e->rating), whole (e->low), whole (e->high), e->se);
    case KOMI_ESTIMATE_LOWER_BOUND:
      return g_strdup_printf ("> %.0f (95%% lower bound: won every rated game, so no estimate)",
                              whole (e->bound));
    case KOMI_ESTIMATE_UPPER_BOUND:
      return g_strdup_printf ("< %.0f (95%% upper bound: lost every rated game, so no estimate)",
                              whole (e->bound));
    case KOMI_ESTIMATE_NONE:
    default:
      return g_strdup ("none (no rated game)");
    }
}

/* Tables are fixed-width for a terminal: the first column pads to the
 * longest label counted in characters (printf's widths count bytes). */
static void
append_label (GString *out, const char *label, int width)
{
  int pad = width - (int) g_utf8_strlen (label, -1);

  g_string_append_printf (out, "  %s%*s", label, MAX (pad, 0), "");
}

static void
append_row (GString *out, int width, const KomiScoreRow *row)
{
  double score = komi_score_row_score (row);
  g_autofree char *elo = isnan (row->rating) ? g_strdup ("")
                         : g_strdup_printf ("%.0f", whole (row->rating));
  g_autofree char *pct = isnan (score) ? g_strdup ("-") : g_strdup_printf ("%.1f%%",
                                                                           100 * score);

  append_label (out, row->label, width);
  g_string_append_printf (out, " %6s %6u %5u %5u %5u %7s %9u %10u %9u %5u\n", elo,
                          komi_score_row_games (row), row->wins, row->losses, row->draws, pct,
                          row->turn_limit, row->forfeits_lost, row->forfeits_won, row->voids);
}

static void
append_header (GString *out, int width, const char *first)
{
  append_label (out, first, width);
  g_string_append_printf (out, " %6s %6s %5s %5s %5s %7s %9s %10s %9s %5s\n", "Elo",
                          "Games", "Won", "Lost", "Drawn", "Score", "Turn lim", "Forfeited",
                          "Won by FF", "Void");
}

/* Observed against predicted per member, and whether one Elo explains
 * them (KomiSubjectFit). */
static void
append_fit (GString *out, int width, const KomiSubjectRating *r)
{
  if (isnan (r->fit.chi2))
    return;
  append_label (out, "Fit", width);
  g_string_append_printf (out, " %6s %6s %9s %9s %6s\n", "Elo", "Games", "Observed",
                          "Predicted", "z");
  for (guint i = 0; i < r->opponents->len; i++)
    {
      const KomiScoreRow *row = &g_array_index (r->opponents, KomiScoreRow, i);

      if (isnan (row->predicted))
        continue;
      append_label (out, row->label, width);
      g_string_append_printf (out, " %6.0f %6u %9.1f %9.1f %+6.2f\n", whole (row->rating),
                              komi_score_row_games (row), row->wins + row->draws / 2.0,
                              row->predicted, row->z);
    }
  if (r->fit.dof == 0)
    g_string_append (out, "  One member played: nothing to check the fit against.\n\n");
  else if (r->fit.inconsistent)
    g_string_append_printf (out, "  Σz² %.1f on %u degrees of freedom, p %.2g < %.2g: "
                            "INCONSISTENT. The results against different members do not fit "
                            "one Elo; the rating is a summary, not a measurement.\n\n",
                            r->fit.chi2, r->fit.dof, r->fit.p, KOMI_FIT_P_FLAG);
  else
    g_string_append_printf (out, "  Σz² %.1f on %u degrees of freedom, p %.2g: consistent "
                            "with one Elo.\n\n", r->fit.chi2, r->fit.dof, r->fit.p);
}

static void
append_subject (GString *out, const KomiSubjectRating *r)
{
  g_autofree char *estimate = komi_estimate_describe (&r->estimate);
  int width = (int) strlen ("Orientation");

  /* Orientation names are the longest fixed labels ("flip-horizontal"). */
  for (guint o = 0; o < G_N_ELEMENTS (r->orientations); o++)
    width = MAX (width, (int) strlen (r->orientations[o].label));
  for (guint i = 0; i < r->opponents->len; i++)
    width = MAX (width, (int) g_utf8_strlen (g_array_index (r->opponents, KomiScoreRow,
                                                              i).label, -1));
  if (r->why_unrated != NULL)
    g_string_append_printf (out, "Subject %s (Protocol %u)\n  Rating: not rated: %s\n\n",
                            r->subject, r->protocol, r->why_unrated);
  else
    g_string_append_printf (out, "Subject %s (Protocol %u)\n  Rating: %s\n\n", r->subject,
                            r->protocol, estimate);
  append_header (out, width, "Opponent");
  for (guint i = 0; i < r->opponents->len; i++)
    append_row (out, width, &g_array_index (r->opponents, KomiScoreRow, i));
  append_row (out, width, &r->total);
  g_string_append_c (out, '\n');
  append_fit (out, width, r);
  append_header (out, width, "Colour");
  for (guint c = 0; c < 2; c++)
    append_row (out, width, &r->colors[c]);
  g_string_append_c (out, '\n');
  append_header (out, width, "Orientation");
  for (guint o = 0; o < G_N_ELEMENTS (r->orientations); o++)
    append_row (out, width, &r->orientations[o]);
  if (komi_subject_colour_lean (r) != 0)
    g_string_append_printf (out, "\n  Colours unbalanced: %u rated games as Black, %u as White. "
                            "The scale leaves White's advantage (+%.0f Elo at komi 7) to "
                            "colour balance, so this rating leans by about %+.1f Elo.\n",
                            komi_score_row_games (&r->colors[0]),
                            komi_score_row_games (&r->colors[1]), KOMI_WHITE_ADVANTAGE_ELO,
                            komi_subject_colour_lean (r));
  g_string_append_printf (out, "\n  Turn limit: %u of the %u rated games (scored as usual).\n"
                          "  Forfeits: %u by the subject (counted as losses), %u by its "
                          "opponents (as wins).\n  Void: %u (never rated).\n",
                          r->total.turn_limit, komi_score_row_games (&r->total),
                          r->total.forfeits_lost, r->total.forfeits_won, r->total.voids);
}

char *
komi_rating_format_text (const KomiLadder *ladder, GPtrArray *subjects)
{
  GString *out = g_string_new (NULL);

  if (ladder != NULL)
    {
      const KomiLadderMember *pin = komi_ladder_lookup (ladder, ladder->pinned);
      int width = 10;

      for (guint i = 0; i < ladder->members->len; i++)
        width = MAX (width, (int) g_utf8_strlen (((KomiLadderMember *)
                                                  ladder->members->pdata[i])->label, -1));
      gboolean steps = FALSE;

      for (guint i = 0; i < ladder->members->len; i++)
        steps |= isfinite (((KomiLadderMember *) ladder->members->pdata[i])->step_se);
      g_string_append_printf (out, "Ladder (Protocol %u): %s pinned at %.0f; calibrated %s "
                              "from %u games\n", ladder->protocol, ladder->pinned,
                              whole (pin ? pin->rating : 0.0),
                              ladder->date && *ladder->date ? ladder->date : "(no date)",
                              ladder->games);
      if (ladder->origin == KOMI_LADDER_ORIGIN_SHIPPED)
        g_string_append_printf (out, "  The Protocol %u ladder shipped with Komi: one scale "
                                "for every library%s%s\n", ladder->protocol,
                                ladder->made_by ? "; calibrated by " : "",
                                ladder->made_by ? ladder->made_by : "");
      else if (ladder->origin == KOMI_LADDER_ORIGIN_LIBRARY)
        g_string_append (out, "  This library's own calibration: its own scale, not "
                              "comparable with other libraries' ratings\n");
      if (ladder->referee != NULL)
        g_string_append_printf (out, "  Dead stones judged by %s\n", ladder->referee);
      append_label (out, "Member", width);
      g_string_append_printf (out, " %6s  %-16s %6s", "Elo", "95% interval", "Games");
      g_string_append (out, steps ? "  Above previous (95%)\n" : "\n");
      for (guint i = 0; i < ladder->members->len; i++)
        {
          const KomiLadderMember *m = ladder->members->pdata[i];
          g_autofree char *interval = m == pin ? g_strdup ("(pinned)")
                                      : g_strdup_printf ("%.0f to %.0f", whole (m->low),
                                                         whole (m->high));

          append_label (out, m->label, width);
          g_string_append_printf (out, " %6.0f  %-16s %6u", whole (m->rating), interval,
                                  m->games);
          if (steps && isfinite (m->step_se))
            g_string_append_printf (out, "  %+.0f ± %.0f\n", m->step, KOMI_Z95 * m->step_se);
          else
            g_string_append_c (out, '\n');
        }
    }
  for (guint s = 0; subjects != NULL && s < subjects->len; s++)
    {
      if (out->len > 0)
        g_string_append_c (out, '\n');
      append_subject (out, subjects->pdata[s]);
    }
  return g_string_free (out, FALSE);
}
