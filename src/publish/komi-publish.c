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
#include "komi-provider.h"
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
  double rated_cost;   /* what the games its rating counts cost; NAN: unknown */
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
  static const char *const names[] = { "komi.css", "replay.js", "sort.js" };

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
  row->rated_cost = NAN;
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

/* What the leaderboard ranks by: the rating, or a bound's finite end;
 * -inf for a subject without one. */
static double
rank_value (const SubjectRow *r)
{
  const KomiEstimate *e = r->rating != NULL ? &r->rating->estimate : NULL;

  if (e == NULL)
    return -INFINITY;
  return isfinite (e->rating) ? e->rating : isfinite (e->low) ? e->low : e->high;
}

/* A cell with the number to sort by in data-sort (empty: unknown). */
static void
append_cell (GString *s, double value, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
append_cell (GString *s, double value, const char *format, ...)
{
  g_autofree char *text = NULL;
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  va_list ap;

  va_start (ap, format);
  text = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (isnan (value))
    g_string_append (s, "<td data-sort=\"\">");
  else
    g_string_append_printf (s, "<td data-sort=\"%s\">",
                            g_ascii_formatd (number, sizeof number, "%.6g", value));
  _komi_html_append (s, text);
  g_string_append (s, "</td>");
}

/* Each subject's cost of its rating: the games the pool counts for it
 * (ended, not void, not set apart), each game's calls at its profile's
 * prices; NAN when none of them reported a cost. */
static void
add_rated_costs (GPtrArray *subjects, GPtrArray *games, const KomiRatingPool *pool)
{
  g_autoptr(GHashTable) apart = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < pool->set_apart->len; i++)
    g_hash_table_add (apart, &((KomiSetApart *) pool->set_apart->pdata[i])->game_id);
  for (guint j = 0; j < subjects->len; j++)
    ((SubjectRow *) subjects->pdata[j])->rated_cost = NAN;
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = games->pdata[i];
      const char *spec = g->subject == KOMI_BLACK ? g->black_spec : g->white_spec;

      if (g->subject == KOMI_EMPTY || isnan (g->cost_usd) || g->cost_usd < 0
          || (g->status != KOMI_GAME_STATUS_FINISHED && g->status != KOMI_GAME_STATUS_FORFEIT)
          || g_hash_table_contains (apart, &g->id))
        continue;
      for (guint j = 0; j < subjects->len; j++)
        {
          SubjectRow *r = subjects->pdata[j];

          if (g_strcmp0 (r->spec, spec) == 0)
            r->rated_cost = (isnan (r->rated_cost) ? 0 : r->rated_cost) + g->cost_usd;
        }
    }
}

/* The leaderboard, ranked by rating (then games); the reader may sort by
 * any column (assets/sort.js). Per subject what readers of other game
 * benchmarks look for: wins, draws and losses apart from turn-limit
 * games and forfeits, tokens and time per move, cost per game, invalid
 * answers per 1,000 questions. */
static void
append_leaderboard (GString *s, GPtrArray *subjects, GHashTable *usage)
{
  static const char *const columns[] = {
    "Subject", "Rating (95% interval, ladder Elo)", "Games", "Wins", "Draws", "Losses",
    "Turn limit", "Forfeits (lost / won)", "Voids", "Unfinished", "Tokens per move",
    "Seconds per move", "Cost per game", "Cost per rating", "Invalid answers per 1,000 questions",
    "Transport faults", "Set apart",
  };

  g_string_append (s, "<div class=\"table-wrap\"><table class=\"leaderboard sortable\">\n"
                      "<caption>Leaderboard (ranked by rating; choose a column's heading to "
                      "sort by it)</caption>\n<thead><tr>");
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      g_string_append_printf (s, "<th scope=\"col\"%s><button type=\"button\" "
                                 "class=\"sort\" data-column=\"%u\">",
                              i == 1 ? " aria-sort=\"descending\"" : "", i);
      _komi_html_append (s, columns[i]);
      g_string_append (s, "</button></th>");
    }
  g_string_append (s, "</tr></thead>\n<tbody>\n");
  /* In the rating pool's order: by rating, bounds where they lie. */
  for (guint i = 0; i < subjects->len; i++)
    {
      const SubjectRow *r = subjects->pdata[i];
      const KomiPublishUsage *u = usage != NULL ? g_hash_table_lookup (usage, r->spec) : NULL;
      static const KomiScoreRow none = { 0, };
      /* The record is the pool's, of the games it rates, as everywhere. */
      const KomiScoreRow *t = r->rating != NULL ? &r->rating->total : &none;
      guint games = komi_score_row_games (t);
      g_autofree char *rating = describe_rating (r);
      double tokens = u != NULL && u->token_calls > 0 && u->moves > 0
                      ? (double) u->tokens / u->moves : NAN;
      double seconds = u != NULL && u->moves > 0 ? u->ms / 1000.0 / u->moves : NAN;
      double cost = u != NULL && u->cost_calls > 0 && u->games > 0 ? u->cost / u->games : NAN;
      double invalid = u != NULL && u->questions > 0 ? 1000.0 * u->invalid / u->questions : NAN;

      g_string_append_printf (s, "<tr%s><th scope=\"row\" data-sort=\"",
                              r->rating != NULL && r->rating->fit.inconsistent
                              ? " class=\"inconsistent\"" : "");
      _komi_html_append (s, r->label);
      g_string_append (s, "\">");
      _komi_html_append (s, r->label);
      g_string_append (s, "</th>");
      append_cell (s, rank_value (r), "%s", rating);
      append_cell (s, games, "%u", games);
      append_cell (s, t->wins, "%u", t->wins);
      append_cell (s, t->draws, "%u", t->draws);
      append_cell (s, t->losses, "%u", t->losses);
      append_cell (s, t->turn_limit, "%u", t->turn_limit);
      append_cell (s, t->forfeits_lost + t->forfeits_won, "%u / %u", t->forfeits_lost,
                   t->forfeits_won);
      append_cell (s, t->voids, "%u", t->voids);
      append_cell (s, r->unfinished, "%u", r->unfinished);
      if (isnan (tokens))
        append_cell (s, NAN, "not reported");
      else
        append_cell (s, tokens, "%.0f", tokens);
      if (isnan (seconds))
        append_cell (s, NAN, "–");
      else
        append_cell (s, seconds, "%.2f", seconds);
      if (isnan (cost))
        append_cell (s, NAN, "unknown");
      else
        {
          g_autofree char *text = komi_cost_text (cost);

          append_cell (s, cost, "%s", text);
        }
      if (r->rating == NULL || komi_score_row_games (t) == 0)
        append_cell (s, NAN, "–");
      else if (isnan (r->rated_cost))
        append_cell (s, NAN, "unknown");
      else
        {
          g_autofree char *text = komi_cost_text (r->rated_cost);

          append_cell (s, r->rated_cost, "%s", text);
        }
      if (isnan (invalid))
        append_cell (s, NAN, "–");
      else
        append_cell (s, invalid, "%.1f", invalid);
      append_cell (s, u != NULL ? u->transport : 0, "%u", u != NULL ? u->transport : 0);
      append_cell (s, r->rating != NULL ? r->rating->set_apart : 0, "%u",
                   r->rating != NULL ? r->rating->set_apart : 0);
      g_string_append (s, "</tr>\n");
    }
  g_string_append (s, "</tbody>\n</table></div>\n"
                      "<p class=\"note\" id=\"cost-per-rating\">Cost per rating: what the "
                      "games that a subject's rating counts cost in all, at the prices of its "
                      "profile; games set apart, voids and unfinished games are not in it. "
                      "Unknown when none of those games reported a cost.</p>\n");
}

static void
append_ladder (GString *s, const KomiLadder *ladder)
{
  g_string_append_printf (s, "<div class=\"table-wrap\"><table class=\"ladder\">\n<caption>%s (Protocol %u, "
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
  g_string_append (s, "</tbody>\n</table></div>\n");
}

static void
append_series_list (GString *s, GPtrArray *series)
{
  g_string_append (s, "<h2>Series</h2>\n<ul class=\"series\">\n");
  for (guint i = 0; i < series->len; i++)
    {
      const KomiStoreSeries *x = series->pdata[i];
      g_autofree char *subject = _komi_publish_player_label (x->subject, NULL);
      g_autofree char *name = _komi_publish_player_label (x->name, NULL);

      g_string_append_printf (s, "<li><a href=\"series-%" G_GINT64_FORMAT ".html\">", x->id);
      _komi_html_append_printf (s, "Series %" G_GINT64_FORMAT ": %s", x->id, name);
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
  append_leaderboard (s, subjects, out->usage);
  if (note != NULL)
    {
      g_autofree char *shown = komi_public_text (out->pub, note);

      g_string_append (s, "<p class=\"note\">No ratings: ");
      _komi_html_append (s, shown);
      g_string_append (s, "</p>\n");
    }
  if (ladder != NULL && apart != NULL && note == NULL)
    {
      /* Long reasons wrap rather than widen the page. */
      /* Its reasons name players by their specs: paths and hosts go. */
      g_autofree char *shown = komi_public_text (out->pub, apart);

      g_string_append (s, "<pre class=\"note set-apart\" style=\"white-space: pre-wrap\">");
      _komi_html_append (s, shown);
      g_string_append (s, "</pre>\n");
    }
  if (ladder != NULL)
    append_ladder (s, ladder);
  append_series_list (s, series);
  g_string_append (s, "<footer><p>");
  _komi_html_append_printf (s, "Published %s with Komi %s.", when, PACKAGE_VERSION);
  g_string_append (s, "</p></footer>\n");
  g_string_append (s, "<script src=\"assets/sort.js\"></script>\n");
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

/* The game pages, most of a site's work (every call of every game read,
 * written twice and compressed), are made by one worker per processor,
 * each with a reader of the library of its own; the calling thread
 * reports the progress and sums the games' usage in the games' order, so
 * the leaderboard's figures are the same bytes whatever the threads did. */
typedef struct
{
  const char               *db;
  const KomiPublishOut     *site;     /* dir, pub and salt: only read */
  GPtrArray                *games;    /* KomiStoreGame*, those to publish */
  KomiPublishUsage         *usage;    /* one per game */
  GCancellable             *cancellable;
  GMutex                    lock;
  GCond                     changed;
  guint                     next;     /* the next game to take */
  guint                     done;
  guint                     running;  /* workers not yet finished */
  KomiPublishStats          stats;    /* the workers' files, summed */
  GError                   *error;    /* the first failure; the rest stop */
} GameJobs;

/* A worker: the jobs, and what may be shown as it has learned it (a copy
 * of the site's, komi-public.h). */
typedef struct
{
  GameJobs   *jobs;
  KomiPublic *pub;
  GHashTable *digests;  /* the files it wrote, for the manifest */
} GameWorker;

static gpointer
game_worker (gpointer data)
{
  GameWorker *worker = data;
  GameJobs *jobs = worker->jobs;
  KomiPublishStats stats = { 0, };
  KomiPublishOut out = *jobs->site;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = komi_store_open_reader (jobs->db, &error);

  out.stats = &stats;
  out.usage = NULL;
  out.pub = worker->pub;
  out.digests = worker->digests;
  while (store != NULL && error == NULL)
    {
      guint i;

      g_mutex_lock (&jobs->lock);
      i = jobs->error == NULL ? jobs->next++ : jobs->games->len;
      g_mutex_unlock (&jobs->lock);
      if (i >= jobs->games->len)
        break;
      if (g_cancellable_set_error_if_cancelled (jobs->cancellable, &error)
          || !_komi_publish_game_page (&out, store, jobs->games->pdata[i], &jobs->usage[i],
                                       &error))
        break;
      stats.games++;
      g_mutex_lock (&jobs->lock);
      jobs->done++;
      g_cond_signal (&jobs->changed);
      g_mutex_unlock (&jobs->lock);
    }
  g_mutex_lock (&jobs->lock);
  if (error != NULL && jobs->error == NULL)
    jobs->error = g_steal_pointer (&error);
  jobs->stats.games += stats.games;
  jobs->stats.written += stats.written;
  jobs->stats.unchanged += stats.unchanged;
  jobs->stats.bytes += stats.bytes;
  jobs->running--;
  g_cond_signal (&jobs->changed);
  g_mutex_unlock (&jobs->lock);
  return NULL;
}

static guint
worker_count (const KomiPublishOptions *options, guint games)
{
  guint n = options->threads > 0 ? options->threads : g_get_num_processors ();

  return CLAMP (MIN (n, games), 1, 16);
}

static gboolean
publish_games (const char               *db,
               KomiStore                *store,
               KomiPublishOut           *out,
               GPtrArray                *all_games,
               const KomiPublishOptions *options,
               GError                  **error)
{
  g_autoptr(GPtrArray) games = g_ptr_array_new ();
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_autoptr(GHashTable) settings = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree KomiPublishUsage *usage = NULL;
  g_autofree GameWorker *workers = NULL;
  GameJobs jobs = { 0, };
  guint reported = 0, n_workers;

  for (guint i = 0; i < all_games->len; i++)
    if (((KomiStoreGame *) all_games->pdata[i])->status != KOMI_GAME_STATUS_PENDING)
      g_ptr_array_add (games, all_games->pdata[i]);
  if (games->len == 0)
    return TRUE;
  /* Every player's hosts and key variables are learned before any page is
   * made, so that each worker hides all of them, whichever game it takes
   * first (a game's call URLs are learned by its worker as it goes). */
  if (!komi_store_fill_settings (store, games, error))
    return FALSE;
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = games->pdata[i];

      for (guint k = 0; k < 2; k++)
        {
          const char *text = k == 0 ? g->black_settings : g->white_settings;

          if (text != NULL && g_hash_table_add (settings, (gpointer) text))
            komi_public_learn_settings (out->pub, text);
        }
    }
  usage = g_new0 (KomiPublishUsage, games->len);
  jobs = (GameJobs) { db, out, games, usage, options->cancellable, };
  g_mutex_init (&jobs.lock);
  g_cond_init (&jobs.changed);
  jobs.running = n_workers = worker_count (options, games->len);
  workers = g_new0 (GameWorker, n_workers);
  for (guint i = 0; i < n_workers; i++)
    {
      workers[i] = (GameWorker) { &jobs, komi_public_copy (out->pub),
                                  g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free) };
      g_ptr_array_add (threads, g_thread_new ("komi-publish", game_worker, &workers[i]));
    }

  g_mutex_lock (&jobs.lock);
  while (jobs.running > 0)
    {
      guint done = jobs.done;

      if (done != reported && options->progress != NULL)
        {
          /* Called without the lock: the caller may take its time. */
          g_mutex_unlock (&jobs.lock);
          options->progress (done, games->len, options->progress_data);
          g_mutex_lock (&jobs.lock);
        }
      reported = done;
      if (jobs.done == reported && jobs.running > 0)
        g_cond_wait (&jobs.changed, &jobs.lock);
    }
  g_mutex_unlock (&jobs.lock);
  for (guint i = 0; i < threads->len; i++)
    {
      g_thread_join (threads->pdata[i]);
      /* The index and the manifest come after: they hide what the
       * workers learned too. */
      komi_public_absorb (out->pub, workers[i].pub);
      komi_public_free (workers[i].pub);
      if (out->digests != NULL)
        {
          GHashTableIter iter;
          gpointer path, digest;

          g_hash_table_iter_init (&iter, workers[i].digests);
          while (g_hash_table_iter_next (&iter, &path, &digest))
            {
              g_hash_table_iter_steal (&iter);
              g_hash_table_replace (out->digests, path, digest);
            }
        }
      g_hash_table_unref (workers[i].digests);
    }
  if (options->progress != NULL && jobs.done != reported)
    options->progress (jobs.done, games->len, options->progress_data);

  out->stats->games += jobs.stats.games;
  out->stats->written += jobs.stats.written;
  out->stats->unchanged += jobs.stats.unchanged;
  out->stats->bytes += jobs.stats.bytes;
  g_mutex_clear (&jobs.lock);
  g_cond_clear (&jobs.changed);
  if (jobs.error != NULL)
    {
      g_propagate_error (error, jobs.error);
      return FALSE;
    }
  for (guint i = 0; i < games->len && out->usage != NULL; i++)
    {
      const KomiStoreGame *g = games->pdata[i];
      const char *spec = g->subject == KOMI_BLACK ? g->black_spec : g->white_spec;
      KomiPublishUsage *sum;

      if (g->subject == KOMI_EMPTY)
        continue;
      if ((sum = g_hash_table_lookup (out->usage, spec)) == NULL)
        {
          sum = g_new0 (KomiPublishUsage, 1);
          g_hash_table_insert (out->usage, g_strdup (spec), sum);
        }
      _komi_publish_usage_add (sum, &usage[i]);
    }
  return TRUE;
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
  g_autoptr(KomiPublic) pub = komi_public_new (options != NULL && options->keep_request_ids
                                               ? KOMI_PUBLIC_KEEP_REQUEST_IDS : 0);
  g_autoptr(GHashTable) usage = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *salt = g_strdup_printf ("Komi %s, site format %d, request ids %d",
                                           PACKAGE_VERSION, KOMI_PUBLISH_FORMAT,
                                           options != NULL && options->keep_request_ids);
  g_autoptr(GHashTable) digests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  KomiPublishOut out = { (char *) dir, stats, pub, usage, salt, digests };
  guint protocol = 1;
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
      add_rated_costs (subjects, all_games, pool);
    }

  if (!write_assets (&out, error))
    return FALSE;
  rules = komi_protocol_get_rules_text (protocol, &rules_length);
  rules_file = g_strdup_printf ("protocol-%u-rules.txt", protocol);
  if ((rules != NULL && !_komi_publish_write (&out, rules_file, rules, rules_length, error))
      || !_komi_publish_methodology_page (&out, protocol, error))
    return FALSE;

  for (guint i = 0; i < series->len; i++)
    {
      GPtrArray *games = per_series->pdata[i];

      if (!_komi_publish_series_page (&out, store, series->pdata[i], games, error))
        return FALSE;
      stats->series++;
    }
  if (!publish_games (db, store, &out, all_games, options, error))
    return FALSE;
  /* The manifest last, over every file the site now has. */
  return write_index (&out, series, subjects, ladder, stats->rating_note, apart, protocol,
                      error)
         && _komi_publish_write_manifest (&out, error);
}
