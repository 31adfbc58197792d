/* komi-ladder-ship.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-rating"

#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "komi-ladder-pins.h"
#include "komi-ladder-ship.h"
#include "komi-rating-library.h"
#include "komi-resources.h"
#include "komi-rating-private.h"

#define SHIPPED_PATH "/io/github/komigo/Komi/ladder/protocol-%u.json"

KomiLadder *
komi_ladder_shipped (guint    protocol,
                     GError **error)
{
  g_autofree char *path = g_strdup_printf (SHIPPED_PATH, protocol);
  g_autoptr(GBytes) bytes = g_resource_lookup_data (komi_get_resource (), path,
                                                    G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  KomiLadder *ladder;
  gsize length = 0;
  const char *text;

  if (bytes == NULL)
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                   _("Komi ships no ladder for Protocol %u; calibrate one for this library "
                     "('komi-cli ratings calibrate') and rate with --ladder library"), protocol);
      return NULL;
    }
  text = g_bytes_get_data (bytes, &length);
  ladder = komi_ladder_new_from_json (text, length, error);
  if (ladder != NULL)
    ladder->origin = KOMI_LADDER_ORIGIN_SHIPPED;
  return ladder;
}

GBytes *
komi_ladder_shipped_replays (guint protocol)
{
  g_autofree char *path = g_strdup_printf ("/io/github/komigo/Komi/ladder/protocol-%u-replays.json",
                                           protocol);

  return g_resource_lookup_data (komi_get_resource (), path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
}

char *
komi_ladder_library_path (const char *db,
                          guint       protocol)
{
  g_autofree char *dir = g_path_get_dirname (db);
  g_autofree char *name = g_strdup_printf ("ladder-protocol-%u.json", protocol);

  return g_build_filename (dir, name, NULL);
}

KomiLadder *
komi_ladder_resolve (const char *which,
                     const char *db,
                     guint       protocol,
                     GError    **error)
{
  g_autofree char *path = NULL;
  KomiLadder *ladder;

  if (which == NULL || strcmp (which, "shipped") == 0)
    return komi_ladder_shipped (protocol, error);
  if (strcmp (which, "library") != 0)
    {
      if ((ladder = komi_ladder_load (which, error)) != NULL)
        ladder->origin = KOMI_LADDER_ORIGIN_FILE;
      return ladder;
    }
  if (db == NULL)
    {
      g_set_error_literal (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                           _("--ladder library reads the calibration kept beside a "
                             "library; it does not go with --results"));
      return NULL;
    }
  path = komi_ladder_library_path (db, protocol);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_NO_GAMES,
                   _("this library has no calibration of its own (%s); make one with "
                     "'komi-cli ratings calibrate', or rate against the shipped ladder "
                     "(no --ladder)"), path);
      return NULL;
    }
  if ((ladder = komi_ladder_load (path, error)) != NULL)
    ladder->origin = KOMI_LADDER_ORIGIN_LIBRARY;
  return ladder;
}

void
komi_set_apart_free (KomiSetApart *apart)
{
  if (apart == NULL)
    return;
  g_free (apart->subject);
  g_free (apart->member);
  g_free (apart->reason);
  g_free (apart);
}

/* Why the subject's opponent in @g is not the pinned @member, or NULL. */
static char *
identity_difference (const KomiLadder       *ladder,
                     const KomiLadderMember *member,
                     const KomiStoreGame    *g)
{
  gboolean opponent_black = g->subject == KOMI_WHITE;
  char *reason = NULL;

  if (member->pins != NULL
      && !komi_ladder_pins_match (member->pins,
                                  opponent_black ? g->black_name : g->white_name,
                                  opponent_black ? g->black_settings : g->white_settings,
                                  &reason))
    return reason;
  if (ladder->referee != NULL && g->status == KOMI_GAME_STATUS_FINISHED
      && g_strcmp0 (g->referee, ladder->referee) != 0)
    return g_strdup_printf (_("dead stones judged by %s, not by the ladder's referee %s"),
                            g->referee != NULL ? g->referee : _("no referee"),
                            ladder->referee);
  return NULL;
}

char *
komi_ladder_set_apart_reason (const KomiLadder    *ladder,
                              const KomiStoreGame *game)
{
  KomiGameResult r;
  const KomiLadderMember *member;

  g_return_val_if_fail (ladder != NULL && game != NULL, NULL);

  if (!komi_game_result_from_store_game (game, &r) || r.outcome == KOMI_RESULT_VOID
      || r.subject == KOMI_EMPTY || r.protocol != ladder->protocol
      || (member = komi_ladder_lookup (ladder, komi_game_result_opponent (&r))) == NULL)
    return NULL;
  return identity_difference (ladder, member, game);
}

gboolean
komi_ladder_read_library (KomiStore        *store,
                          const KomiLadder *ladder,
                          const gint64     *series,
                          gboolean          all_ladder_games,
                          KomiResultList   *out,
                          GPtrArray        *set_apart,
                          GError          **error)
{
  g_autoptr(GPtrArray) games = NULL;
  gboolean pinned = FALSE;

  g_return_val_if_fail (store != NULL && out != NULL, FALSE);

  games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, error);
  if (games == NULL)
    return FALSE;
  for (guint i = 0; ladder != NULL && i < ladder->members->len; i++)
    pinned |= ((KomiLadderMember *) ladder->members->pdata[i])->pins != NULL;
  pinned |= ladder != NULL && ladder->referee != NULL;
  if (pinned && !all_ladder_games && !komi_store_fill_settings (store, games, error))
    return FALSE;

  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = g_ptr_array_index (games, i);
      const KomiLadderMember *member;
      g_autofree char *reason = NULL;
      KomiGameResult r;

      if (!komi_game_result_from_store_game (g, &r)
          || !_komi_rating_series_wanted (series, g->series_id))
        continue;
      if (all_ladder_games
          || (ladder != NULL && komi_ladder_lookup (ladder, g->black_spec) != NULL
              && komi_ladder_lookup (ladder, g->white_spec) != NULL))
        r.subject = KOMI_EMPTY;
      if (pinned && r.subject != KOMI_EMPTY && r.outcome != KOMI_RESULT_VOID
          && r.protocol == ladder->protocol
          && (member = komi_ladder_lookup (ladder, komi_game_result_opponent (&r))) != NULL
          && (reason = identity_difference (ladder, member, g)) != NULL)
        {
          if (set_apart != NULL)
            {
              KomiSetApart *apart = g_new0 (KomiSetApart, 1);

              apart->game_id = g->id;
              apart->subject = g_strdup (komi_game_result_subject (&r));
              apart->member = g_strdup (member->label);
              apart->reason = g_steal_pointer (&reason);
              g_ptr_array_add (set_apart, apart);
            }
          continue;
        }
      komi_result_list_add (out, &r);
    }
  return TRUE;
}

static const char *
end_reason_text (KomiEndReason reason)
{
  return reason == KOMI_END_TWO_PASSES ? "two-passes"
         : reason == KOMI_END_TURN_LIMIT ? "turn-limit" : "";
}

/* Pins @member's identity from @g's @color side; an error when an earlier
 * game pinned it differently. */
static gboolean
pin_member (KomiLadderMember    *member,
            const KomiStoreGame *g,
            KomiColor            color,
            GError             **error)
{
  const char *name = color == KOMI_BLACK ? g->black_name : g->white_name;
  const char *settings = color == KOMI_BLACK ? g->black_settings : g->white_settings;
  g_autofree char *reason = NULL;

  if (member->pins == NULL)
    {
      member->pins = komi_ladder_pins_from_record (name, settings);
      if (member->pins == NULL)
        {
          g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                       _("game %" PRId64 ": the settings of %s were not recorded; "
                         "a ladder cannot be pinned without them"), g->id, member->label);
          return FALSE;
        }
      return TRUE;
    }
  if (komi_ladder_pins_match (member->pins, name, settings, &reason))
    return TRUE;
  g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
               _("the calibration games of %s disagree on its identity: in game %"
                 PRId64 " %s; calibrate from games of one engine build and network"),
               member->label, g->id, reason);
  return FALSE;
}

KomiLadder *
komi_ladder_freeze (KomiStore   **stores,
                    const gint64 *series,
                    const char   *pinned,
                    GString      *games_csv,
                    GError      **error)
{
  g_autoptr(KomiResultList) results = komi_result_list_new ();
  g_autoptr(GPtrArray) listings = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                  g_ptr_array_unref);
  g_autoptr(GPtrArray) used = g_ptr_array_new ();
  g_autoptr(KomiLadder) ladder = NULL;
  g_autofree char *referee = NULL;

  g_return_val_if_fail (stores != NULL && stores[0] != NULL, NULL);

  for (guint s = 0; stores[s] != NULL; s++)
    {
      GPtrArray *games = komi_store_list_games (stores[s], KOMI_STORE_ALL_GAMES, error);

      if (games == NULL)
        return NULL;
      g_ptr_array_add (listings, games);
      if (!komi_store_fill_settings (stores[s], games, error))
        return NULL;
      for (guint i = 0; i < games->len; i++)
        {
          const KomiStoreGame *g = g_ptr_array_index (games, i);
          KomiGameResult r;

          if (!komi_game_result_from_store_game (g, &r)
              || !_komi_rating_series_wanted (series, g->series_id))
            continue;
          r.subject = KOMI_EMPTY;
          komi_result_list_add (results, &r);
          g_ptr_array_add (used, (gpointer) g);
        }
    }

  ladder = komi_ladder_calibrate (komi_result_list_index (results, 0), results->results->len,
                                  pinned, 0, error);
  if (ladder == NULL)
    return NULL;

  if (games_csv != NULL)
    g_string_append (games_csv, "protocol,black,white,seed,orientation,result,end_reason\n");
  for (guint i = 0; i < used->len; i++)
    {
      const KomiStoreGame *g = used->pdata[i];

      if (g->status != KOMI_GAME_STATUS_VOID
          && (!pin_member ((KomiLadderMember *) komi_ladder_lookup (ladder, g->black_spec), g,
                           KOMI_BLACK, error)
              || !pin_member ((KomiLadderMember *) komi_ladder_lookup (ladder, g->white_spec),
                              g, KOMI_WHITE, error)))
        return NULL;
      if (g->status == KOMI_GAME_STATUS_FINISHED)
        {
          if (referee == NULL)
            referee = g_strdup (g->referee);
          else if (g_strcmp0 (referee, g->referee) != 0)
            {
              g_set_error (error, KOMI_RATING_ERROR, KOMI_RATING_ERROR_INPUT,
                           _("the calibration games were judged by different referees (%s in "
                             "game %" PRId64 ", %s before); calibrate from games "
                             "with one referee"), g->referee ? g->referee : _("none"), g->id,
                           referee);
              return NULL;
            }
        }
      if (games_csv != NULL)
        g_string_append_printf (games_csv, "%u,%s,%s,%" G_GUINT64_FORMAT ",%u,%s,%s\n",
                                g->protocol, g->black_spec, g->white_spec, g->seed,
                                (guint) g->orientation, g->result ? g->result : "",
                                end_reason_text (g->end_reason));
    }
  ladder->referee = g_steal_pointer (&referee);
  ladder->made_by = g_strdup ("Komi " PACKAGE_VERSION);
  return g_steal_pointer (&ladder);
}
