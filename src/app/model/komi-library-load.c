/* komi-library-load.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-library"

#include "config.h"

#include <inttypes.h>

#include <math.h>

#include <glib/gi18n.h>

#include "komi-ladder-ship.h"
#include "komi-library-load.h"
#include "komi-rating.h"
#include "komi-settings.h"
#include "komi-rating-library.h"
#include "komi-rating-pool.h"

void
_komi_library_contents_free (KomiLibraryContents *contents)
{
  g_free (contents->message);
  g_free (contents->ratings_message);
  g_free (contents->ratings_caption);
  g_clear_pointer (&contents->series, g_ptr_array_unref);
  g_clear_pointer (&contents->players, g_ptr_array_unref);
  g_clear_pointer (&contents->ratings, g_ptr_array_unref);
  g_clear_pointer (&contents->games, g_ptr_array_unref);
  g_clear_pointer (&contents->interrupted, g_array_unref);
  g_free (contents);
}

/* The players of every game, with the settings of the last game each one
 * started (read from the game itself: listings carry no settings). */
static void
read_players (KomiStore           *store,
              GPtrArray           *games,
              KomiLibraryContents *contents)
{
  g_autoptr(GHashTable) by_spec = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) series_seen = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                             g_free, NULL);
  g_autoptr(GHashTable) last_game = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = g_ptr_array_index (games, i);

      for (KomiColor c = KOMI_BLACK; c <= KOMI_WHITE; c++)
        {
          const char *spec = c == KOMI_BLACK ? g->black_spec : g->white_spec;
          const char *name = c == KOMI_BLACK ? g->black_name : g->white_name;
          KomiPlayerItem *item;
          g_autofree char *key = NULL;

          if (spec == NULL)
            continue;
          item = g_hash_table_lookup (by_spec, spec);
          if (item == NULL)
            {
              item = komi_player_item_new (spec);
              g_ptr_array_add (contents->players, item);
              g_hash_table_insert (by_spec, item->spec, item);
            }
          if (g->status == KOMI_GAME_STATUS_PENDING)
            continue;
          item->games++;
          if (name != NULL)
            {
              g_free (item->name);
              item->name = g_strdup (name);
              /* Game ids grow; the pointer tags the colour it played. */
              g_hash_table_insert (last_game, item, GSIZE_TO_POINTER (i * 2 + (c - 1)));
            }
          key = g_strdup_printf ("%s\n%" G_GINT64_FORMAT, spec, g->series_id);
          if (g_hash_table_add (series_seen, g_steal_pointer (&key)))
            item->series++;
        }
    }

  for (guint i = 0; i < contents->players->len; i++)
    {
      KomiPlayerItem *item = g_ptr_array_index (contents->players, i);
      gpointer tag;
      g_autoptr(KomiStoreGame) loaded = NULL;
      gsize index;

      if (!g_hash_table_lookup_extended (last_game, item, NULL, &tag))
        continue;
      index = GPOINTER_TO_SIZE (tag);
      loaded = komi_store_load_game (store, ((KomiStoreGame *) g_ptr_array_index (games,
                                                                                 index / 2))->id,
                                     NULL);
      if (loaded != NULL)
        item->settings = g_strdup (index % 2 == 0 ? loaded->black_settings
                                                  : loaded->white_settings);
    }
}

static char *
format_record (const KomiScoreRow *row)
{
  return g_strdup_printf ("%u–%u–%u", row->wins, row->losses, row->draws);
}

/* The ladder the settings choose: the shipped one (the default, as
 * `komi-cli ratings`) or the library's own calibration (--ladder library).
 * NULL with @message set when there is none to use. */
static KomiLadder *
choose_ladder (const char *path, char **message)
{
  g_autoptr(GError) error = NULL;
  /* The protocol new series are played under; a library of older ones
   * would need a choice of protocol here. */
  KomiLadder *ladder = komi_ladder_resolve (komi_settings_rating_ladder (), path,
                                            KOMI_PROTOCOL_LATEST, &error);

  if (ladder == NULL)
    *message = g_strdup (error->message);
  return ladder;
}

/* The items' order: by rating, strongest first (a bound where it lies,
 * the unrated last). */
static gint
compare_items (gconstpointer a, gconstpointer b)
{
  const KomiRatingItem *x = *(KomiRatingItem * const *) a;
  const KomiRatingItem *y = *(KomiRatingItem * const *) b;
  double kx = isnan (x->elo) ? -INFINITY : x->elo, ky = isnan (y->elo) ? -INFINITY : y->elo;

  return kx > ky ? -1 : kx < ky ? 1 : 0;
}

/* What the pool set apart, by kind, as sentences after the scale's. */
static void
describe_set_apart (GString *message, const KomiRatingPool *pool)
{
  g_autoptr(GPtrArray) off_ladder = g_ptr_array_new ();
  const KomiSetApart *identity = NULL;
  guint n[3] = { 0, };

  for (guint i = 0; i < pool->set_apart->len; i++)
    {
      const KomiSetApart *a = g_ptr_array_index (pool->set_apart, i);

      n[a->kind]++;
      if (a->kind == KOMI_SET_APART_IDENTITY && identity == NULL)
        identity = a;
      if (a->kind == KOMI_SET_APART_OFF_LADDER
          && !g_ptr_array_find_with_equal_func (off_ladder, a->member, g_str_equal, NULL))
        g_ptr_array_add (off_ladder, a->member);
    }
  if (n[KOMI_SET_APART_OFF_LADDER] > 0)
    {
      g_autofree char *names = NULL;

      g_ptr_array_add (off_ladder, NULL);
      names = g_strjoinv (", ", (char **) off_ladder->pdata);
      g_string_append_c (message, ' ');
      g_string_append_printf (message,
                              g_dngettext (GETTEXT_PACKAGE,
                                           "%u game against players not on the ladder (%s) is "
                                           "not rated.",
                                           "%u games against players not on the ladder (%s) "
                                           "are not rated.", n[KOMI_SET_APART_OFF_LADDER]),
                              n[KOMI_SET_APART_OFF_LADDER], names);
    }
  if (n[KOMI_SET_APART_PROTOCOL] > 0)
    {
      g_string_append_c (message, ' ');
      g_string_append_printf (message,
                              g_dngettext (GETTEXT_PACKAGE,
                                           "%u game under another protocol is not rated: a "
                                           "rating never mixes protocols.",
                                           "%u games under another protocol are not rated: a "
                                           "rating never mixes protocols.",
                                           n[KOMI_SET_APART_PROTOCOL]),
                              n[KOMI_SET_APART_PROTOCOL]);
    }
  if (identity != NULL)
    {
      g_string_append_c (message, ' ');
      g_string_append_printf (message,
                              g_dngettext (GETTEXT_PACKAGE,
                                           "%u game against a ladder member is set apart, not "
                                           "rated: %s (game %" PRId64 " against %s; "
                                           "komi-cli ratings lists them all).",
                                           "%u games against ladder members are set apart, "
                                           "not rated: %s (game %" PRId64 " against "
                                           "%s; komi-cli ratings lists them all).",
                                           n[KOMI_SET_APART_IDENTITY]),
                              n[KOMI_SET_APART_IDENTITY], identity->reason, identity->game_id,
                              identity->member);
      /* What would rate them, not only why they are not. */
      g_string_append_c (message, ' ');
      g_string_append (message, _("To be rated, a game must be played as the ladder's "
                                  "were: with its referee, and each member at the version "
                                  "and settings it pins; a new series run so is rated."));
    }
}

/* Ratings as `komi-cli ratings` gives them: the chosen ladder, and the
 * rating layer's pool of the library's subjects on it (the same games
 * rated, the same set apart, the same reasons), every row ranked by
 * rating; the message says which scale it is and what was left out. */
static void
read_ratings (KomiStore           *store,
              const char          *path,
              KomiLibraryContents *contents)
{
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(KomiRatingPool) pool = NULL;
  g_autoptr(GString) message = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  if ((ladder = choose_ladder (path, &contents->ratings_message)) == NULL)
    return;
  g_string_append (message, ladder->origin == KOMI_LADDER_ORIGIN_SHIPPED
                            ? _("Rated against the Protocol 1 ladder shipped with Komi: one "
                                "scale for every library.")
                            : _("Rated against this library’s own calibration: its own scale, "
                                "not comparable with other libraries’ ratings."));
  contents->ratings_caption = g_strdup_printf (ladder->origin == KOMI_LADDER_ORIGIN_SHIPPED
                                               ? _("Elo on the Protocol %u ladder shipped with "
                                                   "Komi")
                                               : _("Elo on this library’s own calibration "
                                                   "(Protocol %u)"), ladder->protocol);
  for (guint i = 0; i < ladder->members->len; i++)
    {
      const KomiLadderMember *m = g_ptr_array_index (ladder->members, i);
      KomiRatingItem *item = komi_rating_item_new (KOMI_RATING_ITEM_LADDER, m->label);

      item->rating = g_strdup_printf ("%.0f", m->rating);
      item->interval = m->se > 0 ? g_strdup_printf (_("%.0f to %.0f"), m->low, m->high)
                                 : g_strdup (_("pinned"));
      item->elo = m->rating;
      item->pinned = m->se <= 0;
      item->low = m->se > 0 ? m->low : m->rating;
      item->high = m->se > 0 ? m->high : m->rating;
      item->games = m->games;
      g_ptr_array_add (contents->ratings, item);
    }

  if ((pool = komi_rating_pool_read (store, ladder, NULL, &error)) == NULL)
    {
      contents->ratings_message = g_strdup_printf (_("The subjects cannot be rated: %s"),
                                                   error->message);
      return;
    }
  describe_set_apart (message, pool);
  contents->ratings_message = g_strdup (message->str);
  for (guint i = 0; i < pool->subjects->len; i++)
    {
      const KomiSubjectRating *s = g_ptr_array_index (pool->subjects, i);
      const KomiEstimate *e = &s->estimate;
      KomiRatingItem *item = komi_rating_item_new (KOMI_RATING_ITEM_SUBJECT, s->subject);

      switch (e->kind)
        {
        case KOMI_ESTIMATE_MLE:
          item->rating = g_strdup_printf ("%.0f", e->rating);
          item->interval = g_strdup_printf (_("%.0f to %.0f"), e->low, e->high);
          item->elo = e->rating, item->low = e->low, item->high = e->high;
          break;
        case KOMI_ESTIMATE_LOWER_BOUND:
          item->rating = g_strdup_printf ("> %.0f", e->bound);
          item->interval = g_strdup (_("won every rated game"));
          item->elo = item->low = e->bound, item->high = INFINITY;
          break;
        case KOMI_ESTIMATE_UPPER_BOUND:
          item->rating = g_strdup_printf ("< %.0f", e->bound);
          item->interval = g_strdup (_("lost every rated game"));
          item->elo = item->high = e->bound, item->low = -INFINITY;
          break;
        default:
          item->rating = g_strdup ("—");
          /* Short in the table, which it would widen past the window; the
           * reason in the cell's tooltip. */
          item->interval = g_strdup (_("not rated"));
          /* Translators: %s says why, e.g. "its 2 ended games were void …". */
          item->interval_note = g_strdup_printf (_("not rated: %s"), s->why_unrated);
          break;
        }
      if (s->fit.dof > 0)
        item->fit = s->fit.inconsistent
                    ? g_strdup_printf (_("inconsistent (p %.2g): a summary, not a "
                                         "measurement"), s->fit.p)
                    : g_strdup_printf (_("p %.2g"), s->fit.p);
      item->inconsistent = s->fit.inconsistent;
      item->record = format_record (&s->total);
      item->games = komi_score_row_games (&s->total);
      g_ptr_array_add (contents->ratings, item);
    }
  g_ptr_array_sort (contents->ratings, compare_items);
}

/* Runs that died (killed, crashed) with games left, to offer to continue;
 * finished series and runs stopped on purpose are not among them. A
 * failure here costs only the offer. */
static void
read_interrupted (KomiStore           *store,
                  GHashTable          *by_id,
                  KomiLibraryContents *contents)
{
  g_autoptr(GArray) ids = komi_store_list_interrupted (store, NULL);

  for (guint i = 0; ids != NULL && i < ids->len; i++)
    {
      KomiSeriesItem *item = g_hash_table_lookup (by_id, &g_array_index (ids, gint64, i));

      if (item != NULL && item->series->n_unfinished > 0)
        g_array_append_val (contents->interrupted, item->series->id);
    }
}

KomiLibraryContents *
_komi_library_read (const char   *path,
                    GCancellable *cancellable)
{
  g_autoptr(KomiLibraryContents) contents = g_new0 (KomiLibraryContents, 1);
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GError) error = NULL;

  contents->series = g_ptr_array_new_with_free_func (g_object_unref);
  contents->players = g_ptr_array_new_with_free_func (g_object_unref);
  contents->ratings = g_ptr_array_new_with_free_func (g_object_unref);
  contents->games = g_ptr_array_new_with_free_func (g_object_unref);
  contents->interrupted = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      contents->state = KOMI_LIBRARY_STATE_MISSING;
      contents->message =
        g_strdup_printf (_("There is no library at %s yet. Running a series creates it: "
                           "the demo series (the rehearsal model, served by Komi itself, "
                           "against random and GNU Go level 1) needs no key and no network. "
                           "Or open another library."), path);
      return g_steal_pointer (&contents);
    }
  if ((store = komi_store_open_reader (path, &error)) == NULL
      || (series = komi_store_list_series (store, &error)) == NULL
      || (games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, &error)) == NULL)
    {
      contents->state = KOMI_LIBRARY_STATE_FAILED;
      contents->message = g_strdup (error->message);
      return g_steal_pointer (&contents);
    }
  g_ptr_array_set_free_func (series, NULL);   /* the items own them now */
  for (guint i = 0; i < series->len; i++)
    {
      KomiSeriesItem *item = komi_series_item_new (g_ptr_array_index (series, i));

      g_ptr_array_add (contents->series, item);
      g_hash_table_insert (by_id, &item->series->id, item);
    }
  if (g_cancellable_is_cancelled (cancellable))
    return g_steal_pointer (&contents);

  read_players (store, games, contents);
  read_ratings (store, path, contents);
  read_interrupted (store, by_id, contents);

  /* Last: the games move into their series' items. The games list has
   * every game played (started, ended or imported), sharing those rows;
   * games not yet started are only in their series. */
  g_ptr_array_set_free_func (games, NULL);
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *g = g_ptr_array_index (games, i);
      KomiSeriesItem *item = g_hash_table_lookup (by_id, &g->series_id);
      KomiGameItem *row;

      if (item != NULL)
        row = g_object_ref (komi_series_item_add_game (item, g));
      else
        row = komi_game_item_new (g);
      if (g->status != KOMI_GAME_STATUS_PENDING)
        g_ptr_array_add (contents->games, row);
      else
        g_object_unref (row);
    }
  contents->state = KOMI_LIBRARY_STATE_READY;
  return g_steal_pointer (&contents);
}
