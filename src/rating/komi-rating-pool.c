/* komi-rating-pool.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "komi-orientation.h"
#include "komi-rating-library.h"
#include "komi-rating-pool.h"
#include "komi-rating-private.h"

double
komi_estimate_rank_key (const KomiEstimate *e)
{
  switch (e->kind)
    {
    case KOMI_ESTIMATE_MLE:
      return e->rating;
    case KOMI_ESTIMATE_LOWER_BOUND:
    case KOMI_ESTIMATE_UPPER_BOUND:
      return e->bound;
    case KOMI_ESTIMATE_NONE:
    default:
      return -INFINITY;
    }
}

void
komi_rating_pool_free (KomiRatingPool *pool)
{
  if (pool == NULL)
    return;
  g_clear_pointer (&pool->subjects, g_ptr_array_unref);
  g_clear_pointer (&pool->set_apart, g_ptr_array_unref);
  g_free (pool);
}

KomiSubjectRating *
komi_rating_pool_lookup (KomiRatingPool *pool, const char *subject)
{
  g_return_val_if_fail (pool != NULL, NULL);

  for (guint i = 0; subject != NULL && i < pool->subjects->len; i++)
    {
      KomiSubjectRating *r = pool->subjects->pdata[i];

      if (strcmp (r->subject, subject) == 0)
        return r;
    }
  return NULL;
}

static void
set_apart_add (GPtrArray *set_apart, gint64 id, const char *subject, const char *opponent,
               KomiSetApartKind kind, char *reason)
{
  KomiSetApart *apart = g_new0 (KomiSetApart, 1);

  apart->game_id = id;
  apart->subject = g_strdup (subject);
  apart->member = g_strdup (opponent);
  apart->reason = reason;
  apart->kind = kind;
  g_ptr_array_add (set_apart, apart);
}

/* A subject none of whose games counts: no estimate, empty tables. */
static KomiSubjectRating *
unrated_subject (const char *subject, guint protocol)
{
  KomiSubjectRating *r = g_new0 (KomiSubjectRating, 1);

  r->subject = g_strdup (subject);
  r->protocol = protocol;
  r->estimate = (KomiEstimate) { KOMI_ESTIMATE_NONE, NAN, NAN, NAN, NAN, NAN };
  r->fit = (KomiSubjectFit) { NAN, 0, NAN, FALSE };
  r->opponents = g_array_new (FALSE, TRUE, sizeof (KomiScoreRow));
  r->total = (KomiScoreRow) { .label = "all", .rating = NAN, .predicted = NAN, .z = NAN };
  for (int c = 0; c < 2; c++)
    r->colors[c] = (KomiScoreRow) { .label = c == 0 ? "Black" : "White", .rating = NAN,
                                    .predicted = NAN, .z = NAN };
  for (guint o = 0; o < KOMI_N_ORIENTATIONS; o++)
    r->orientations[o] = (KomiScoreRow) { .label = komi_orientation_to_string (o),
                                          .rating = NAN, .predicted = NAN, .z = NAN };
  return r;
}

/* Why @r has no rating, for people; NULL when it has one. */
static char *
why_unrated (const KomiSubjectRating *r, const KomiSetApart *first_apart)
{
  g_autoptr(GString) why = g_string_new (NULL);

  if (r->estimate.kind != KOMI_ESTIMATE_NONE)
    return NULL;
  if (r->total.voids > 0)
    g_string_append_printf (why, g_dngettext (GETTEXT_PACKAGE,
                                              "its %u ended game was void (voids are never "
                                              "rated)",
                                              "its %u ended games were void (voids are never "
                                              "rated)", r->total.voids), r->total.voids);
  if (r->set_apart > 0 && first_apart != NULL)
    {
      if (why->len > 0)
        g_string_append (why, "; ");
      g_string_append_printf (why, g_dngettext (GETTEXT_PACKAGE,
                                                "%u game was set apart (against %s: %s)",
                                                "%u games were set apart (the first against "
                                                "%s: %s)", r->set_apart),
                              r->set_apart, first_apart->member, first_apart->reason);
    }
  if (why->len == 0)
    g_string_append (why, _("no game of it has ended yet"));
  return g_string_free (g_steal_pointer (&why), FALSE);
}

static gint
compare_rank (gconstpointer a, gconstpointer b)
{
  const KomiSubjectRating *x = *(KomiSubjectRating * const *) a;
  const KomiSubjectRating *y = *(KomiSubjectRating * const *) b;
  double kx = komi_estimate_rank_key (&x->estimate), ky = komi_estimate_rank_key (&y->estimate);

  return kx > ky ? -1 : kx < ky ? 1 : 0;
}

KomiRatingPool *
komi_rating_pool_new (const KomiLadder     *ladder,
                      const KomiGameResult *results,
                      gsize                 n_results,
                      const gint64         *ids,
                      GPtrArray            *set_apart,
                      GError              **error)
{
  g_autoptr(KomiRatingPool) pool = g_new0 (KomiRatingPool, 1);
  g_autoptr(GArray) rated = g_array_new (FALSE, FALSE, sizeof (KomiGameResult));
  g_autoptr(GPtrArray) seen = g_ptr_array_new ();

  g_return_val_if_fail (ladder != NULL, NULL);
  g_return_val_if_fail (results != NULL || n_results == 0, NULL);

  pool->ladder = ladder;
  pool->set_apart = set_apart != NULL
                    ? set_apart
                    : g_ptr_array_new_with_free_func ((GDestroyNotify) komi_set_apart_free);
  for (gsize i = 0; i < n_results; i++)
    {
      const KomiGameResult *r = &results[i];
      const char *subject = komi_game_result_subject (r);
      const char *opponent = komi_game_result_opponent (r);
      gint64 id = ids != NULL ? ids[i] : 0;

      if (subject == NULL)
        {
          pool->ladder_games++;
          continue;
        }
      if (!komi_game_result_check (r, error))
        {
          g_prefix_error (error, _("result %zu: "), i + 1);
          return NULL;
        }
      if (r->protocol != ladder->protocol)
        set_apart_add (pool->set_apart, id, subject, opponent, KOMI_SET_APART_PROTOCOL,
                       g_strdup_printf (_("played under Protocol %u, and the ladder measures "
                                          "Protocol %u games: a rating never mixes "
                                          "protocols"), r->protocol, ladder->protocol));
      else if (komi_ladder_lookup (ladder, opponent) == NULL)
        set_apart_add (pool->set_apart, id, subject, opponent, KOMI_SET_APART_OFF_LADDER,
                       g_strdup_printf (_("%s is not a member of the ladder, so its strength "
                                          "is not known on this scale and its games cannot "
                                          "place anyone (rate it on its own with 'komi-cli "
                                          "rate %s')"), opponent, opponent));
      else
        g_array_append_val (rated, *r);
    }

  if (rated->len > 0)
    {
      pool->subjects = komi_rating_rate_subjects (ladder,
                                                  (KomiGameResult *) (void *) rated->data,
                                                  rated->len, error);
      if (pool->subjects == NULL)
        return NULL;
    }
  else
    pool->subjects = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_subject_rating_free);

  /* Subjects whose every game was set apart are listed too, unrated. */
  for (guint i = 0; i < pool->set_apart->len; i++)
    {
      const KomiSetApart *a = pool->set_apart->pdata[i];
      KomiSubjectRating *r = komi_rating_pool_lookup (pool, a->subject);

      if (r == NULL)
        {
          r = unrated_subject (a->subject, ladder->protocol);
          g_ptr_array_add (pool->subjects, r);
        }
      r->set_apart++;
    }
  for (guint s = 0; s < pool->subjects->len; s++)
    {
      KomiSubjectRating *r = pool->subjects->pdata[s];
      const KomiSetApart *first = NULL;

      for (guint i = 0; i < pool->set_apart->len && first == NULL; i++)
        if (strcmp (((KomiSetApart *) pool->set_apart->pdata[i])->subject, r->subject) == 0)
          first = pool->set_apart->pdata[i];
      g_free (r->why_unrated);
      r->why_unrated = why_unrated (r, first);
    }
  g_ptr_array_sort (pool->subjects, compare_rank);   /* stable */
  return g_steal_pointer (&pool);
}

KomiRatingPool *
komi_rating_pool_read (KomiStore        *store,
                       const KomiLadder *ladder,
                       const gint64     *series,
                       GError          **error)
{
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(KomiResultList) results = komi_result_list_new ();
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  GPtrArray *set_apart;
  gboolean pinned = ladder->referee != NULL;

  g_return_val_if_fail (store != NULL && ladder != NULL, NULL);

  /* Only the series asked for are read (and their settings filled): `rate`
   * reads its own series after every pair, in a library of any size. */
  if (series == NULL)
    games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, error);
  else
    {
      games = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_store_game_free);
      for (guint s = 0; series[s] != 0 && games != NULL; s++)
        {
          g_autoptr(GPtrArray) one = komi_store_list_games (store, series[s], error);

          if (one == NULL)
            g_clear_pointer (&games, g_ptr_array_unref);
          else
            {
              g_ptr_array_set_free_func (one, NULL);
              g_ptr_array_extend_and_steal (games, g_steal_pointer (&one));
            }
        }
    }
  if (games == NULL)
    return NULL;
  for (guint i = 0; i < ladder->members->len; i++)
    pinned |= ((KomiLadderMember *) ladder->members->pdata[i])->pins != NULL;
  if (pinned && !komi_store_fill_settings (store, games, error))
    return NULL;

  set_apart = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_set_apart_free);
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = g_ptr_array_index (games, i);
      g_autofree char *reason = NULL;
      KomiGameResult r;

      if (!komi_game_result_from_store_game (g, &r)
          || !_komi_rating_series_wanted (series, g->series_id))
        continue;
      if (pinned && (reason = komi_ladder_set_apart_reason (ladder, g)) != NULL)
        {
          set_apart_add (set_apart, g->id, komi_game_result_subject (&r),
                         komi_game_result_opponent (&r), KOMI_SET_APART_IDENTITY,
                         g_steal_pointer (&reason));
          continue;
        }
      komi_result_list_add (results, &r);
      g_array_append_val (ids, g->id);
    }
  return komi_rating_pool_new (ladder, results->results->len > 0
                                       ? komi_result_list_index (results, 0) : NULL,
                               results->results->len, (gint64 *) (void *) ids->data,
                               set_apart, error);
}

char *
komi_rating_pool_describe_set_apart (const KomiRatingPool *pool)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *set_apart = pool->set_apart;
  GString *out;

  if (set_apart->len == 0)
    return NULL;
  out = g_string_new (NULL);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE,
                                            "Set apart, not rated: %u game (the line says "
                                            "why)\n",
                                            "Set apart, not rated: %u games (each line says "
                                            "why)\n", set_apart->len), set_apart->len);
  for (guint i = 0; i < set_apart->len; i++)
    {
      const KomiSetApart *a = set_apart->pdata[i];
      g_autofree char *key = g_strdup_printf ("%s\n%s\n%s", a->subject, a->member, a->reason);
      g_autoptr(GString) where = g_string_new (NULL);
      guint n = 0;

      if (g_hash_table_contains (seen, key))
        continue;
      for (guint j = i; j < set_apart->len; j++)
        {
          const KomiSetApart *b = set_apart->pdata[j];

          if (strcmp (a->subject, b->subject) != 0 || strcmp (a->member, b->member) != 0
              || strcmp (a->reason, b->reason) != 0)
            continue;
          if (n++ < 5 && b->game_id > 0)
            g_string_append_printf (where, "%s%" PRId64, where->len ? ", " : "", b->game_id);
        }
      if (where->len > 0)
        g_string_prepend (where, n == 1 ? " (game " : " (games ");
      if (where->len > 0)
        g_string_append (where, n > 5 ? ", …)" : ")");
      g_string_append_printf (out, "  %s against %s: %u %s%s: %s\n", a->subject, a->member, n,
                              n == 1 ? "game" : "games", where->str, a->reason);
      g_hash_table_add (seen, g_steal_pointer (&key));
    }
  return g_string_free (out, FALSE);
}

char *
komi_rating_pool_format_text (const KomiRatingPool *pool)
{
  g_autofree char *ladder = komi_rating_format_text (pool->ladder, NULL);
  g_autofree char *details = komi_rating_format_text (NULL, pool->subjects);
  g_autofree char *apart = komi_rating_pool_describe_set_apart (pool);
  GString *out = g_string_new (NULL);
  int width = (int) strlen ("Subject");

  for (guint s = 0; s < pool->subjects->len; s++)
    width = MAX (width, (int) g_utf8_strlen (((KomiSubjectRating *)
                                              pool->subjects->pdata[s])->subject, -1));
  /* The ladder, the ranking, then each subject's tables. */
  g_string_append (out, ladder);
  if (pool->subjects->len > 0)
    {
      g_string_append (out, "\nRanking, strongest first (a bound placed where it lies):\n");
      g_string_append_printf (out, "  %-4s %s%*s  %-24s %6s  %s\n", "Rank", "Subject",
                              width - (int) strlen ("Subject"), "", "Rating", "Games", "Fit");
    }
  for (guint s = 0; s < pool->subjects->len; s++)
    {
      const KomiSubjectRating *r = pool->subjects->pdata[s];
      const KomiEstimate *e = &r->estimate;
      g_autofree char *rating = NULL, *fit = NULL;

      rating = e->kind == KOMI_ESTIMATE_MLE
               ? g_strdup_printf ("%.0f (%.0f to %.0f)", round (e->rating), round (e->low),
                                  round (e->high))
               : e->kind == KOMI_ESTIMATE_LOWER_BOUND ? g_strdup_printf ("> %.0f",
                                                                         round (e->bound))
               : e->kind == KOMI_ESTIMATE_UPPER_BOUND ? g_strdup_printf ("< %.0f",
                                                                         round (e->bound))
               : g_strdup ("not rated");
      if (r->why_unrated != NULL)
        fit = g_strdup_printf ("not rated: %s", r->why_unrated);
      else if (r->fit.dof > 0)
        fit = g_strdup_printf ("Σz² %.1f on %u dof, p %.3g%s", r->fit.chi2, r->fit.dof,
                               r->fit.p, r->fit.inconsistent ? "  INCONSISTENT" : "");
      else
        fit = g_strdup ("-");
      g_string_append_printf (out, "  %-4u %s%*s  %-24s %6u  %s\n", s + 1, r->subject,
                              width - (int) g_utf8_strlen (r->subject, -1), "", rating,
                              komi_score_row_games (&r->total), fit);
    }
  if (details[0] != '\0')
    {
      g_string_append_c (out, '\n');
      g_string_append (out, details);
    }
  if (apart != NULL)
    {
      g_string_append_c (out, '\n');
      g_string_append (out, apart);
    }
  return g_string_free (out, FALSE);
}

JsonNode *
komi_rating_pool_to_json_node (const KomiRatingPool *pool)
{
  JsonNode *node = komi_rating_to_json_node (pool->ladder, pool->subjects);
  JsonArray *apart = json_array_new ();
  static const char * const kinds[] = { "identity", "off-ladder", "protocol" };

  for (guint i = 0; i < pool->set_apart->len; i++)
    {
      const KomiSetApart *a = pool->set_apart->pdata[i];
      JsonObject *o = json_object_new ();

      if (a->game_id > 0)
        json_object_set_int_member (o, "game", a->game_id);
      json_object_set_string_member (o, "subject", a->subject);
      json_object_set_string_member (o, "member", a->member);
      json_object_set_string_member (o, "kind", kinds[a->kind]);
      json_object_set_string_member (o, "reason", a->reason);
      json_array_add_object_element (apart, o);
    }
  json_object_set_array_member (json_node_get_object (node), "set_apart", apart);
  json_object_set_int_member (json_node_get_object (node), "ladder_games", pool->ladder_games);
  return node;
}
