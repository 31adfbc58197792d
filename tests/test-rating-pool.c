/* test-rating-pool.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "komi-ladder-ship.h"
#include "komi-library-load.h"
#include "komi-settings.h"
#include "komi-rating.h"
#include "komi-store-test-util.h"
#include "komi-test-cli.h"

/* One rating truth everywhere: a library with every kind of game a
 * rating meets, rated by `komi-cli ratings`, `komi-cli rate`, `komi-cli
 * publish` and the window's library reader, which must show the same
 * estimates, the same record, the same games set apart with the same
 * reasons, in the same order (by rating).
 *
 * The games are real (GNU Go and the bridging rungs, judged by GNU Go)
 * against a three-member ladder cut from the shipped one (its identity
 * pins kept, GNU Go as the pinned referee), kept beside the library as
 * its own calibration. Four kinds of ending cannot be had on demand from
 * real engines in a few seconds, so they are written into the library as
 * a crash, an interrupted run or a merge would leave them: a forfeit, a
 * turn-limit game, a void, a game judged by another referee, and a series
 * recorded under another protocol. */

#define SUBJECT_RATE "gnugo:0"             /* rated by `komi-cli rate` */
#define SUBJECT_OFF  "mix:0.5:gnugo:1"     /* also meets a player off the ladder */
#define MEMBER       "mix:0.75:gnugo:1"    /* a ladder member as a subject */
#define SUBJECT_P2   "mix:0.6:gnugo:1"     /* its series recorded under Protocol 2 */
#define OFF_LADDER   "mix:0.3:gnugo:1"

static char *
html_escape (const char *text)
{
  GString *s = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    switch (*p)
      {
      case '&': g_string_append (s, "&amp;"); break;
      case '<': g_string_append (s, "&lt;"); break;
      case '>': g_string_append (s, "&gt;"); break;
      case '"': g_string_append (s, "&quot;"); break;
      case '\'': g_string_append (s, "&#39;"); break;
      default: g_string_append_c (s, *p);
      }
  return g_string_free (s, FALSE);
}

static void
run_series (const char *dir, const char *db, const char *name, const char *json)
{
  g_autofree char *path = g_strdup_printf ("%s/%s.json", dir, name);
  g_auto(KomiCliRun) run = { 0, };

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  run.status = run_komi_cli (&run.out, &run.err, "run", path, "--db", db, NULL);
  if (run.status != 0)
    g_printerr ("%s\n", run.err);
  g_assert_cmpint (run.status, ==, 0);
}

/* Writes @sql into the library (an UPDATE). */
static void
plant (const char *db, const char *sql)
{
  g_autofree char *ignored = sql_text (db, sql);
}

/* The ladder: the shipped one's three weakest members, GNU Go as referee. */
static void
write_ladder (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) ladder = komi_ladder_shipped (1, &error);

  g_assert_no_error (error);
  g_ptr_array_set_size (ladder->members, 3);
  g_assert_cmpstr (((KomiLadderMember *) ladder->members->pdata[2])->label, ==, MEMBER);
  g_free (ladder->referee);
  ladder->referee = g_strdup ("GNU Go 3.8");
  g_assert_true (komi_ladder_save (ladder, path, &error));
  g_assert_no_error (error);
}

/* What `ratings` says of a subject's rating: the line after its name. */
static char *
text_rating (const char *text, const char *subject)
{
  g_autofree char *head = g_strdup_printf ("Subject %s (Protocol 1)\n  Rating: ", subject);
  const char *at = strstr (text, head), *end;

  g_assert_nonnull (at);
  at += strlen (head);
  end = strchr (at, '\n');
  return g_strndup (at, end - at);
}

/* The leaderboard's rows: each a strv of its cells' text (still escaped). */
static GPtrArray *
leaderboard_rows (const char *html)
{
  g_autoptr(GRegex) row = g_regex_new ("<tr[^>]*><th scope=\"row\"[^>]*>(.*?)</th>"
                                       "((?:<td[^>]*>.*?</td>)+)</tr>", 0, 0, NULL);
  g_autoptr(GRegex) cell = g_regex_new ("<td[^>]*>(.*?)</td>", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  const char *start = strstr (html, "<table class=\"leaderboard");
  const char *end = start ? strstr (start, "</table>") : NULL;
  g_autofree char *table = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_assert_nonnull (end);
  table = g_strndup (start, end - start);
  for (g_regex_match (row, table, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
      g_autoptr(GMatchInfo) c = NULL;
      g_autofree char *label = g_match_info_fetch (m, 1);
      g_autofree char *cells = g_match_info_fetch (m, 2);

      g_strv_builder_add (b, label);
      for (g_regex_match (cell, cells, 0, &c); g_match_info_matches (c);
           g_match_info_next (c, NULL))
        {
          g_autofree char *text = g_match_info_fetch (c, 1);

          g_strv_builder_add (b, text);
        }
      g_ptr_array_add (rows, g_strv_builder_end (b));
    }
  return rows;
}

static void
test_four_places (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-pool-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *ladder = g_build_filename (dir, "ladder-protocol-1.json", NULL);
  g_autofree char *site = g_build_filename (dir, "site", NULL);
  g_autofree char *index_path = g_build_filename (site, "index.html", NULL);
  g_autofree char *index = NULL, *rate_id = NULL, *p2_id = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(KomiLibraryContents) contents = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(KomiCliRun) rate = { 0, };
  g_auto(KomiCliRun) again = { 0, };
  g_auto(KomiCliRun) text = { 0, };
  g_auto(KomiCliRun) json = { 0, };
  g_auto(KomiCliRun) pub = { 0, };
  JsonArray *subjects, *apart;
  g_autoptr(GPtrArray) window_subjects = g_ptr_array_new ();
  guint kinds[3] = { 0, };
  const char *set_apart_text;

  write_ladder (ladder);

  /* `rate` plays its own series: three pairs against the rungs it picks. */
  rate.status = run_komi_cli (&rate.out, &rate.err, "rate", SUBJECT_RATE, "--db", db,
                              "--ladder", "library", "--max-pairs", "3", "--referee", "gnugo",
                              NULL);
  if (rate.status != 0)
    g_printerr ("%s\n%s\n", rate.out, rate.err);
  g_assert_cmpint (rate.status, ==, 0);
  run_series (dir, db, "a", "{\"name\": \"off the ladder\", \"protocol\": 1, \"subject\": \""
              SUBJECT_OFF "\", \"seed\": 5, \"referee\": \"gnugo\", \"jobs\": 2, "
              "\"opponents\": [{\"player\": \"random\", \"pairs\": 1}, {\"player\": "
              "\"mix:0.9:gnugo:1\", \"pairs\": 1}, {\"player\": \"" OFF_LADDER "\", "
              "\"pairs\": 1}]}");
  run_series (dir, db, "b", "{\"name\": \"a member\", \"protocol\": 1, \"subject\": \""
              MEMBER "\", \"seed\": 6, \"referee\": \"gnugo\", \"jobs\": 2, "
              "\"opponents\": [{\"player\": \"random\", \"pairs\": 1}, {\"player\": "
              "\"mix:0.9:gnugo:1\", \"pairs\": 1}]}");
  run_series (dir, db, "c", "{\"name\": \"protocol 2\", \"protocol\": 1, \"subject\": \""
              SUBJECT_P2 "\", \"seed\": 7, \"referee\": \"gnugo\", \"jobs\": 2, "
              "\"opponents\": [{\"player\": \"random\", \"pairs\": 1}]}");

  /* The rate series: the subject forfeits its first game, its second ends
   * at the turn limit (both still rated, by the scale's conventions). */
  rate_id = sql_text (db, "SELECT series_id FROM games WHERE black_spec = '" SUBJECT_RATE
                          "' OR white_spec = '" SUBJECT_RATE "' LIMIT 1");
  plant (db, "UPDATE games SET status = 'forfeit', end_reason = 'none', "
             "winner = CASE subject_color WHEN 'B' THEN 'W' ELSE 'B' END, "
             "result = CASE subject_color WHEN 'B' THEN 'W+F' ELSE 'B+F' END "
             "WHERE id = (SELECT MIN(id) FROM games WHERE black_spec = '" SUBJECT_RATE
             "' OR white_spec = '" SUBJECT_RATE "')");
  plant (db, "UPDATE games SET end_reason = 'turn-limit' WHERE id = (SELECT MIN(id) + 1 "
             "FROM games WHERE black_spec = '" SUBJECT_RATE "' OR white_spec = '"
             SUBJECT_RATE "')");
  /* Series a: a void against random; another referee against mix:0.9. */
  plant (db, "UPDATE games SET status = 'void', winner = NULL, result = 'Void', "
             "end_reason = 'none' WHERE id = (SELECT MIN(id) FROM games WHERE (black_spec = '"
             SUBJECT_OFF "' AND white_spec = 'random') OR (white_spec = '" SUBJECT_OFF
             "' AND black_spec = 'random'))");
  plant (db, "UPDATE games SET referee = 'Some Other Referee 1.0' WHERE id = (SELECT MIN(id) "
             "FROM games WHERE (black_spec = '" SUBJECT_OFF "' AND white_spec = "
             "'mix:0.9:gnugo:1') OR (white_spec = '" SUBJECT_OFF "' AND black_spec = "
             "'mix:0.9:gnugo:1'))");
  /* Series c: recorded under Protocol 2. */
  p2_id = sql_text (db, "SELECT id FROM series WHERE subject = '" SUBJECT_P2 "'");
  g_assert_nonnull (p2_id);
  {
    g_autofree char *sql = g_strdup_printf ("UPDATE series SET protocol = 2 WHERE id = %s",
                                            p2_id);

    plant (db, sql);
  }

  /* 1. komi-cli ratings, as text and as JSON. */
  text.status = run_komi_cli (&text.out, &text.err, "ratings", "--db", db, "--ladder",
                              "library", NULL);
  g_assert_cmpint (text.status, ==, 0);
  json.status = run_komi_cli (&json.out, &json.err, "ratings", "--db", db, "--ladder",
                              "library", "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  json_parser_load_from_data (parser, json.out, -1, &error);
  g_assert_no_error (error);
  subjects = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                           "subjects");
  apart = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "set_apart");
  g_assert_cmpuint (json_array_get_length (subjects), ==, 4);

  /* 2. `rate` again: it continues the series, plays nothing, and says. */
  again.status = run_komi_cli (&again.out, &again.err, "rate", SUBJECT_RATE, "--db", db,
                               "--ladder", "library", "--max-pairs", "3", "--referee",
                               "gnugo", NULL);
  g_assert_cmpint (again.status, ==, 0);

  /* 3. publish. */
  pub.status = run_komi_cli (&pub.out, &pub.err, "publish", "--db", db, "--out", site,
                             "--ladder", "library", NULL);
  if (pub.status != 0)
    g_printerr ("%s\n", pub.err);
  g_assert_cmpint (pub.status, ==, 0);
  g_assert_true (g_file_get_contents (index_path, &index, NULL, NULL));
  rows = leaderboard_rows (index);
  g_assert_cmpuint (rows->len, ==, 4);

  /* 4. The window's reader, on the library's own calibration. */
  settings = komi_settings_new ();
  g_assert_nonnull (settings);
  g_settings_set_string (settings, "rating-ladder", "library");
  contents = _komi_library_read (db, NULL);
  g_assert_nonnull (contents->ratings_message);
  for (guint j = 0; j < contents->ratings->len; j++)
    {
      KomiRatingItem *it = contents->ratings->pdata[j];

      if (j > 0)
        g_assert_cmpfloat (isnan (it->elo) ? -INFINITY : it->elo, <=,
                           isnan (((KomiRatingItem *) contents->ratings->pdata[j - 1])->elo)
                           ? -INFINITY : ((KomiRatingItem *) contents->ratings->pdata[j - 1])->elo);
      if (it->kind == KOMI_RATING_ITEM_SUBJECT)
        g_ptr_array_add (window_subjects, it);
    }

  for (guint i = 0; i < json_array_get_length (subjects); i++)
    {
      JsonObject *s = json_array_get_object_element (subjects, i);
      JsonObject *rating = json_object_get_object_member (s, "rating");
      JsonObject *total = json_object_get_object_member (s, "total");
      const char *name = json_object_get_string_member (s, "subject");
      const char *kind = json_object_get_string_member (rating, "kind");
      const char *why = json_object_get_string_member_with_default (s, "why_unrated", NULL);
      g_autofree char *said = text_rating (text.out, name);
      g_autofree char *cell = NULL, *games = NULL;
      KomiRatingItem *item = NULL;
      char **row = rows->pdata[i];

      /* The text and the JSON agree; the JSON is ranked. */
      if (why != NULL)
        {
          g_autofree char *expected = g_strdup_printf ("not rated: %s", why);

          g_assert_cmpstr (kind, ==, "none");
          g_assert_cmpstr (said, ==, expected);
        }
      else if (g_str_equal (kind, "estimate"))
        /* The JSON keeps 1/8 Elo; the text whole Elo. */
        g_assert_cmpfloat (fabs (g_ascii_strtod (said, NULL)
                                 - json_object_get_double_member (rating, "elo")), <, 0.63);
      else
        g_assert_cmpfloat (fabs (g_ascii_strtod (said + 2, NULL)
                                 - json_object_get_double_member (rating, "bound")), <, 0.63);

      /* publish: the same row at the same rank, the same cell, the same
       * record. */
      cell = html_escape (said);
      g_assert_true (g_str_has_prefix (row[1], cell));
      games = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (total,
                                                                                "games"));
      g_assert_cmpstr (row[2], ==, games);
      g_assert_cmpint (atoi (row[3]), ==, json_object_get_int_member (total, "wins"));
      g_assert_cmpint (atoi (row[4]), ==, json_object_get_int_member (total, "draws"));
      g_assert_cmpint (atoi (row[5]), ==, json_object_get_int_member (total, "losses"));
      g_assert_cmpint (atoi (row[6]), ==, json_object_get_int_member (total, "turn_limit"));
      g_assert_cmpint (atoi (row[8]), ==, json_object_get_int_member (total, "voids"));
      g_assert_cmpint (atoi (row[16]), ==, json_object_get_int_member (s, "set_apart"));

      /* The window: the same subjects in the same order, the same figures. */
      g_assert_cmpuint (i, <, window_subjects->len);
      item = window_subjects->pdata[i];
      g_assert_cmpstr (item->label, ==, name);
      g_assert_cmpint (item->games, ==, json_object_get_int_member (total, "games"));
      if (why != NULL)
        {
          g_autofree char *expected = g_strdup_printf ("not rated: %s", why);

          /* The cell short, the reason in its tooltip. */
          g_assert_cmpstr (item->interval, ==, "not rated");
          g_assert_cmpstr (item->interval_note, ==, expected);
        }
      else
        {
          /* "509 (95% CI …" or "> 38 (95% lower bound …": the number as the
           * table shows it. */
          const char *open = strstr (said, " (");
          g_autofree char *number = g_strndup (said, open - said);

          g_assert_cmpstr (item->rating, ==, number);
        }

      /* rate: the subject it rated, the same words. */
      if (g_str_equal (name, SUBJECT_RATE))
        {
          g_autofree char *line = g_strdup_printf ("Series %s, " SUBJECT_RATE ": %s\n",
                                                   rate_id, said);

          g_assert_nonnull (strstr (again.out, line));
        }

      /* What each kind of game did. */
      if (g_str_equal (name, SUBJECT_RATE))
        {
          g_assert_cmpint (json_object_get_int_member (total, "games"), ==, 6);
          g_assert_cmpint (json_object_get_int_member (total, "forfeits_lost"), ==, 1);
          g_assert_cmpint (json_object_get_int_member (total, "turn_limit"), ==, 1);
        }
      else if (g_str_equal (name, SUBJECT_OFF))
        {
          g_assert_cmpint (json_object_get_int_member (total, "games"), ==, 2);
          g_assert_cmpint (json_object_get_int_member (total, "voids"), ==, 1);
          g_assert_cmpint (json_object_get_int_member (s, "set_apart"), ==, 3);
        }
      else if (g_str_equal (name, MEMBER))
        g_assert_cmpint (json_object_get_int_member (total, "games"), ==, 4);
      else
        {
          g_assert_cmpstr (name, ==, SUBJECT_P2);
          g_assert_nonnull (why);
          g_assert_nonnull (strstr (why, "played under Protocol 2"));
          g_assert_cmpuint (i, ==, 3);   /* the unrated last */
        }
    }

  /* The games set apart: the same list in the CLI and on the site, and
   * the window counts them by kind. */
  for (guint i = 0; i < json_array_get_length (apart); i++)
    {
      const char *kind = json_object_get_string_member (json_array_get_object_element (apart, i),
                                                        "kind");

      kinds[g_str_equal (kind, "identity") ? 0 : g_str_equal (kind, "off-ladder") ? 1 : 2]++;
    }
  g_assert_cmpuint (kinds[0], ==, 1);
  g_assert_cmpuint (kinds[1], ==, 2);
  g_assert_cmpuint (kinds[2], ==, 2);
  set_apart_text = strstr (text.out, "Set apart, not rated: 5 games");
  g_assert_nonnull (set_apart_text);
  {
    g_autofree char *escaped = html_escape (set_apart_text);

    g_assert_nonnull (strstr (index, escaped));
  }
  g_assert_nonnull (strstr (text.out, "dead stones judged by Some Other Referee 1.0, not by "
                                      "the ladder's referee GNU Go 3.8"));
  g_assert_nonnull (strstr (text.out, OFF_LADDER " is not a member of the ladder"));
  g_assert_nonnull (strstr (contents->ratings_message,
                            "2 games against players not on the ladder (" OFF_LADDER ") are "
                            "not rated."));
  g_assert_nonnull (strstr (contents->ratings_message,
                            "2 games under another protocol are not rated"));
  g_assert_nonnull (strstr (contents->ratings_message, "1 game against a ladder member is set "
                                                       "apart, not rated: dead stones judged "
                                                       "by Some Other Referee 1.0"));

  /* The site names GNU Go with its level. */
  g_assert_nonnull (strstr (index, "GNU Go 3.8 level 0"));

  g_settings_reset (settings, "rating-ladder");
  remove_test_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/rating/pool/four-places", test_four_places);
  return g_test_run ();
}
