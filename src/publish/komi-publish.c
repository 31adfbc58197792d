/* komi-publish.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-publish"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "komi-ladder.h"
#include "komi-ladder-ship.h"
#include "komi-protocol.h"
#include "komi-publish-private.h"
#include "komi-rating.h"
#include "komi-rating-library.h"
#include "komi-rating-pool.h"
#include "komi-resources.h"
#include "komi-quark.h"

/* The site as a whole: which series and games, the leaderboard on the
 * index, the protocols' rules texts and the page assets compiled in from
 * data/publish/. The ratings are the rating layer's, against the same
 * frozen ladder `komi-cli ratings` uses. */

KOMI_DEFINE_QUARK (komi-publish-error-quark, komi_publish_error)

#define ASSETS "/io/github/komigo/Komi/publish/"

/* One subject of the published series: its rating and record are the
 * rating pool's (komi-rating-pool.h), as `komi-cli ratings` shows them;
 * only the games not yet ended are counted here. */
typedef struct
{
  char  *spec;
  char  *label;
  guint  unfinished;
  const KomiSubjectRating *rating;
} SubjectRow;

static void
subject_row_free (gpointer data)
{
  SubjectRow *r = data;

  if (r == NULL)
    return;
  g_free (r->spec);
  g_free (r->label);
  g_free (r);
}

void
komi_publish_stats_clear (KomiPublishStats *stats)
{
  g_clear_pointer (&stats->rating_note, g_free);
}

static gboolean
write_assets (KomiPublishOut *out, GError **error)
{
  static const char *const names[] = { "komi.css", "replay.js" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_strconcat (ASSETS, names[i], NULL);
      g_autofree char *rel = g_build_filename ("assets", names[i], NULL);
      g_autoptr(GBytes) bytes = g_resource_lookup_data (komi_get_resource (), path, 0, NULL);
      gsize n = 0;
      const char *data;

      /* Compiled in: a failed lookup is a broken build. */
      g_assert (bytes != NULL);
      data = g_bytes_get_data (bytes, &n);
      if (!_komi_publish_write (out, rel, data, n, error))
        return FALSE;
    }
  return TRUE;
}

static SubjectRow *
subject_row_for (GPtrArray *rows, const KomiStoreGame *g)
{
  const char *spec = g->subject == KOMI_BLACK ? g->black_spec : g->white_spec;
  const char *name = g->subject == KOMI_BLACK ? g->black_name : g->white_name;
  SubjectRow *row;

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (((SubjectRow *) rows->pdata[i])->spec, spec) == 0)
      return rows->pdata[i];
  row = g_new0 (SubjectRow, 1);
  row->spec = g_strdup (spec);
  row->label = _komi_publish_player_label (spec, name);
  g_ptr_array_add (rows, row);
  return row;
}

/* The ladder, as `komi-cli ratings --ladder` names it: the shipped one
 * (NULL or "shipped"), the library's own calibration ("library"), or a
 * file. NULL with a note when there is none. */
static KomiLadder *
find_ladder (const char *db, const KomiPublishOptions *options, guint protocol, char **note)
{
  g_autoptr(GError) error = NULL;
  KomiLadder *ladder = komi_ladder_resolve (options->ladder, db, protocol, &error);

  if (ladder == NULL)
    *note = g_strdup (error->message);
  return ladder;
}

/* Rates the subjects of the published series against @ladder by the
 * rating layer's one policy, as `komi-cli ratings --series` does. */
static KomiRatingPool *
rate (KomiStore        *store,
      const KomiLadder *ladder,
      GPtrArray        *series,
      char            **note)
{
  g_autoptr(GArray) ids = g_array_new (TRUE, TRUE, sizeof (gint64));
  g_autoptr(GError) error = NULL;
  KomiRatingPool *pool;

  for (guint i = 0; i < series->len; i++)
    g_array_append_val (ids, ((KomiStoreSeries *) series->pdata[i])->id);
  pool = komi_rating_pool_read (store, ladder, (const gint64 *) (void *) ids->data, &error);
  if (pool == NULL)
    *note = g_strdup (error->message);
  return pool;
}

/* The rating cell: the estimate, a flag when one Elo does not explain the
 * results, or why there is none. */
static char *
describe_rating (const SubjectRow *r)
{
  const KomiSubjectRating *s = r->rating;
  g_autofree char *estimate = NULL;

  if (s == NULL)
    return g_strdup (r->unfinished > 0 ? "not rated: no game of it has ended yet"
                                       : "not rated: it played no game here");
  if (s->why_unrated != NULL)
    return g_strdup_printf ("not rated: %s", s->why_unrated);
  estimate = komi_estimate_describe (&s->estimate);
  if (s->fit.inconsistent)
    return g_strdup_printf ("%s. Inconsistent fit (Σz² %.1f on %u degrees of freedom, p %.2g "
                            "< %.2g): its results against different ladder members do not "
                            "fit one Elo, so this is a summary, not a measurement", estimate,
                            s->fit.chi2, s->fit.dof, s->fit.p, KOMI_FIT_P_FLAG);
  return g_steal_pointer (&estimate);
}

static void
append_leaderboard (GString *s, GPtrArray *subjects)
{
  g_string_append (s, "<table class=\"leaderboard\">\n<caption>Leaderboard, ranked by rating"
                      "</caption>\n<thead>"
                      "<tr><th scope=\"col\">Subject</th><th scope=\"col\">Rating (95% "
                      "interval, ladder Elo)</th><th scope=\"col\">Rated games</th>"
                      "<th scope=\"col\">Wins</th><th scope=\"col\">Losses</th>"
                      "<th scope=\"col\">Draws</th><th scope=\"col\">Turn limit</th>"
                      "<th scope=\"col\">Forfeits (lost / won)</th>"
                      "<th scope=\"col\">Voids</th><th scope=\"col\">Set apart</th>"
                      "<th scope=\"col\">Unfinished</th></tr>"
                      "</thead>\n<tbody>\n");
  for (guint i = 0; i < subjects->len; i++)
    {
      const SubjectRow *r = subjects->pdata[i];
      static const KomiScoreRow none = { 0, };
      const KomiScoreRow *t = r->rating != NULL ? &r->rating->total : &none;
      g_autofree char *rating = describe_rating (r);

      g_string_append_printf (s, "<tr%s><th scope=\"row\">",
                              r->rating != NULL && r->rating->fit.inconsistent
                              ? " class=\"inconsistent\"" : "");
      _komi_html_append (s, r->label);
      g_string_append (s, "</th><td>");
      _komi_html_append (s, rating);
      g_string_append_printf (s, "</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td>"
                                 "<td>%u / %u</td><td>%u</td><td>%u</td><td>%u</td></tr>\n",
                              komi_score_row_games (t), t->wins, t->losses, t->draws,
                              t->turn_limit, t->forfeits_lost, t->forfeits_won, t->voids,
                              r->rating != NULL ? r->rating->set_apart : 0, r->unfinished);
    }
  g_string_append (s, "</tbody>\n</table>\n");
}

static void
append_ladder (GString *s, const KomiLadder *ladder)
{
  g_string_append_printf (s, "<table class=\"ladder\">\n<caption>%s (Protocol %u, "
                             "calibrated ",
                          ladder->origin == KOMI_LADDER_ORIGIN_SHIPPED
                          ? "The ladder shipped with Komi, one scale for every library"
                          : ladder->origin == KOMI_LADDER_ORIGIN_LIBRARY
                          ? "This library's own calibration, a scale of its own"
                          : "The ladder", ladder->protocol);
  _komi_html_append_printf (s, "%s from %u games, %s pinned", ladder->date ? ladder->date : "?",
                            ladder->games, ladder->pinned ? ladder->pinned : "?");
  g_string_append (s, ")</caption>\n<thead><tr><th scope=\"col\">Member</th>"
                      "<th scope=\"col\">Elo</th><th scope=\"col\">95% interval</th>"
                      "<th scope=\"col\">Calibration games</th></tr></thead>\n<tbody>\n");
  for (guint i = 0; i < ladder->members->len; i++)
    {
      const KomiLadderMember *m = ladder->members->pdata[i];

      g_string_append (s, "<tr><th scope=\"row\">");
      _komi_html_append (s, m->label);
      if (m->se > 0)
        g_string_append_printf (s, "</th><td>%.0f</td><td>%.0f to %.0f</td><td>%u</td></tr>\n",
                                m->rating, m->low, m->high, m->games);
      else
        g_string_append_printf (s, "</th><td>%.0f</td><td>pinned</td><td>%u</td></tr>\n",
                                m->rating, m->games);
    }
  g_string_append (s, "</tbody>\n</table>\n");
}

static void
append_series_list (GString *s, GPtrArray *series)
{
  g_string_append (s, "<h2>Series</h2>\n<ul class=\"series\">\n");
  for (guint i = 0; i < series->len; i++)
    {
      const KomiStoreSeries *x = series->pdata[i];
      g_autofree char *subject = _komi_publish_player_label (x->subject, NULL);

      g_string_append_printf (s, "<li><a href=\"series-%" G_GINT64_FORMAT ".html\">", x->id);
      _komi_html_append_printf (s, "Series %" G_GINT64_FORMAT ": %s", x->id, x->name);
      g_string_append (s, "</a> — ");
      _komi_html_append_printf (s, "%s, Protocol %u, %u games (%u finished)", subject,
                                x->protocol, x->n_games, x->n_finished);
      g_string_append (s, "</li>\n");
    }
  g_string_append (s, "</ul>\n");
}

static gboolean
write_index (KomiPublishOut   *out,
             GPtrArray        *series,
             GPtrArray        *subjects,
             const KomiLadder *ladder,
             const char       *note,
             const char       *apart,
             guint             protocol,
             GError          **error)
{
  g_autoptr(GString) s = g_string_sized_new (16384);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *when = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");

  _komi_publish_page_start (s, "Leaderboard", "");
  g_string_append_printf (s, "<h1>Language models playing 9x9 Go: Protocol %u</h1>\n"
                             "<p class=\"meta\">Every game is played under <a href=\"protocol-"
                             "%u-rules.txt\">Protocol %u</a>, whose rules text each model "
                             "received with every request. Each game's replay shows every "
                             "call the model made.</p>\n", protocol, protocol, protocol);
  append_leaderboard (s, subjects);
  if (note != NULL)
    {
      g_string_append (s, "<p class=\"note\">No ratings: ");
      _komi_html_append (s, note);
      g_string_append (s, "</p>\n");
    }
  if (ladder != NULL && apart != NULL && note == NULL)
    {
      /* Long reasons wrap rather than widen the page. */
      g_string_append (s, "<pre class=\"note set-apart\" style=\"white-space: pre-wrap\">");
      _komi_html_append (s, apart);
      g_string_append (s, "</pre>\n");
    }
  if (ladder != NULL)
    append_ladder (s, ladder);
  append_series_list (s, series);
  g_string_append (s, "<footer><p>");
  _komi_html_append_printf (s, "Published %s with Komi %s.", when, PACKAGE_VERSION);
  g_string_append (s, "</p></footer>\n");
  _komi_publish_page_end (s);
  return _komi_publish_write (out, "index.html", s->str, s->len, error);
}

/* The protocol the site is about: the one most of its series were played
 * under, of those this Komi knows (1 when none); the others' games are set
 * apart from the ratings, as everywhere. */
static guint
site_protocol (GPtrArray *series)
{
  guint best = 1, best_count = 0;

  for (guint i = 0; i < series->len; i++)
    {
      guint p = ((KomiStoreSeries *) series->pdata[i])->protocol, count = 0;

      if (!komi_protocol_is_known (p))
        continue;
      for (guint j = 0; j < series->len; j++)
        count += ((KomiStoreSeries *) series->pdata[j])->protocol == p;
      if (count > best_count || (count == best_count && p < best))
        best = p, best_count = count;
    }
  return best;
}

/* The series asked for, in the library's order, or all of them. */
static GPtrArray *
select_series (KomiStore *store, const KomiPublishOptions *options, GError **error)
{
  g_autoptr(GPtrArray) all = komi_store_list_series (store, error);
  GPtrArray *kept;

  if (all == NULL)
    return NULL;
  kept = g_ptr_array_new_with_free_func ((GDestroyNotify) komi_store_series_free);
  for (guint i = 0; i < options->n_series; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < all->len && !found; j++)
        found = ((KomiStoreSeries *) all->pdata[j])->id == options->series[i];
      if (!found)
        {
          g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, options->series[i]);

          g_set_error (error, KOMI_PUBLISH_ERROR, KOMI_PUBLISH_ERROR_NO_SERIES,
                       _("the library has no series %s"), id);
          g_ptr_array_unref (kept);
          return NULL;
        }
    }
  for (guint j = 0; j < all->len; j++)
    {
      KomiStoreSeries *x = all->pdata[j];
      gboolean wanted = options->series == NULL;

      for (guint i = 0; i < options->n_series && !wanted; i++)
        wanted = options->series[i] == x->id;
      if (wanted)
        g_ptr_array_add (kept, g_steal_pointer (&all->pdata[j]));
    }
  return kept;
}

gboolean
komi_publish_site (const char               *db,
                   const char               *dir,
                   const KomiPublishOptions *options,
                   KomiPublishStats         *stats,
                   GError                  **error)
{
  static const KomiPublishOptions defaults = { 0, };
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GPtrArray) all_games = g_ptr_array_new ();
  g_autoptr(GPtrArray) per_series = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) subjects = g_ptr_array_new_with_free_func (subject_row_free);
  g_autoptr(KomiRatingPool) pool = NULL;
  g_autofree char *apart = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  KomiPublishOut out = { (char *) dir, stats };
  guint protocol = 1, total = 0, done = 0;
  gsize rules_length = 0;
  const char *rules;
  g_autofree char *rules_file = NULL;

  g_return_val_if_fail (db != NULL && dir != NULL && stats != NULL, FALSE);
  if (options == NULL)
    options = &defaults;
  *stats = (KomiPublishStats) { 0, };
  if ((store = komi_store_open_reader (db, error)) == NULL
      || (series = select_series (store, options, error)) == NULL)
    return FALSE;

  for (guint i = 0; i < series->len; i++)
    {
      const KomiStoreSeries *x = series->pdata[i];
      GPtrArray *games = komi_store_list_games (store, x->id, error);

      if (games == NULL)
        return FALSE;
      g_ptr_array_add (per_series, games);
      for (guint j = 0; j < games->len; j++)
        {
          const KomiStoreGame *g = games->pdata[j];

          g_ptr_array_add (all_games, games->pdata[j]);
          total += g->status != KOMI_GAME_STATUS_PENDING;
          if (g->subject != KOMI_EMPTY)
            subject_row_for (subjects, g)->unfinished += g->status == KOMI_GAME_STATUS_PENDING
                                                         || g->status == KOMI_GAME_STATUS_RUNNING;
        }
    }

  protocol = site_protocol (series);
  if ((ladder = find_ladder (db, options, protocol, &stats->rating_note)) != NULL
      && all_games->len > 0
      && (pool = rate (store, ladder, series, &stats->rating_note)) != NULL)
    {
      g_autoptr(GPtrArray) ranked = g_ptr_array_new_with_free_func (subject_row_free);

      /* The pool's order: by rating, strongest first; the subjects with
       * no ended game after them. */
      for (guint i = 0; i < pool->subjects->len; i++)
        {
          const KomiSubjectRating *r = pool->subjects->pdata[i];

          for (guint j = 0; j < subjects->len; j++)
            if (g_strcmp0 (((SubjectRow *) subjects->pdata[j])->spec, r->subject) == 0)
              {
                SubjectRow *row = g_steal_pointer (&subjects->pdata[j]);

                row->rating = r;
                g_ptr_array_remove_index (subjects, j);
                g_ptr_array_add (ranked, row);
                break;
              }
        }
      for (guint j = 0; j < subjects->len; j++)
        g_ptr_array_add (ranked, g_steal_pointer (&subjects->pdata[j]));
      g_ptr_array_set_size (subjects, 0);
      g_ptr_array_extend_and_steal (subjects, g_steal_pointer (&ranked));
      apart = komi_rating_pool_describe_set_apart (pool);
    }

  if (!write_assets (&out, error))
    return FALSE;
  rules = komi_protocol_get_rules_text (protocol, &rules_length);
  rules_file = g_strdup_printf ("protocol-%u-rules.txt", protocol);
  if (rules != NULL && !_komi_publish_write (&out, rules_file, rules, rules_length, error))
    return FALSE;

  for (guint i = 0; i < series->len; i++)
    {
      GPtrArray *games = per_series->pdata[i];

      if (!_komi_publish_series_page (&out, store, series->pdata[i], games, error))
        return FALSE;
      stats->series++;
      for (guint j = 0; j < games->len; j++)
        {
          const KomiStoreGame *g = games->pdata[j];

          if (g->status == KOMI_GAME_STATUS_PENDING)
            continue;
          if (g_cancellable_set_error_if_cancelled (options->cancellable, error)
              || !_komi_publish_game_page (&out, store, g, error))
            return FALSE;
          stats->games++;
          if (options->progress != NULL)
            options->progress (++done, total, options->progress_data);
        }
    }
  return write_index (&out, series, subjects, ladder, stats->rating_note, apart, protocol,
                      error);
}
