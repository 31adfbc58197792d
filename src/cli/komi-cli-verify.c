/* komi-cli-verify.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>

#include <json-glib/json-glib.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-ladder-ship.h"
#include "komi-publish.h"
#include "komi-verify.h"

/* `verify LIBRARY|SITE-FOLDER`: every ended game of a library re-derived
 * from its record (komi-verify.h says what holds), or a published site's
 * files against its manifest and, with --db, its games against the
 * library and that library verified. The library is opened as untrusted
 * input (komi_store_open_foreign). Exit 0 only when everything holds. */

static void
print_failures (const KomiVerifyReport *report)
{
  for (guint i = 0; i < report->games->len; i++)
    {
      const KomiVerifiedGame *v = g_ptr_array_index (report->games, i);

      if (v->problems->len == 0)
        continue;
      if (v->series_name != NULL)
        /* Translators: a game's library id, its series, its index in the plan, the players. */
        printf (_("Game %" PRId64 " (series “%s”, game %d of the plan, %s vs %s):\n"),
                v->game_id, v->series_name, v->plan_index + 1, v->black, v->white);
      else
        printf (_("Game %" PRId64 " (imported, %s vs %s):\n"), v->game_id, v->black, v->white);
      for (guint k = 0; k < v->problems->len; k++)
        printf ("  %s\n", (const char *) g_ptr_array_index (v->problems, k));
    }
}

/* The library's report, NULL with the reason when it cannot be read. */
static KomiVerifyReport *
verify_library (const char *path, const char *ladder_file, KomiVerifyOptions *options,
                GError **error)
{
  g_autoptr(KomiLadder) ladder = NULL;

  if (ladder_file != NULL && (ladder = komi_ladder_load (ladder_file, error)) == NULL)
    return NULL;
  options->ladder = ladder;
  return komi_verify_library_at (path, options, NULL, NULL, NULL, error);
}

static JsonNode *
site_json (guint n_files, guint n_games, GPtrArray *problems)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "files");
  json_builder_add_int_value (b, n_files);
  json_builder_set_member_name (b, "games");
  json_builder_add_int_value (b, n_games);
  json_builder_set_member_name (b, "problems");
  json_builder_begin_array (b);
  for (guint i = 0; i < problems->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (problems, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

int
komi_cli_verify (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiVerifyReport) report = NULL;
  g_autoptr(GPtrArray) site_problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(KomiReferee) referee = NULL;
  g_autofree char *db = NULL;
  g_autofree char *ladder = NULL;
  g_auto(KomiCliEngineOptions) engine = { 0, };
  KomiPlayerOptions engines = { 0, };
  KomiVerifyOptions options = { .engines = &engines };
  gboolean json = FALSE, site = FALSE, ok = TRUE, rejudge = FALSE;
  guint n_files = 0, n_site_games = 0;
  const char *target;
  int status;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Write the findings as one JSON object, for scripts"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("With a site: the library it was published from, verified and compared with the "
         "site's games"), N_("PATH") },
    { "rejudge", 0, 0, G_OPTION_ARG_NONE, &rejudge,
      N_("Judge each finished game's dead stones again with the referee (KataGo when it is set "
         "up, else GNU Go; --referee) and compare them with the record"), NULL },
    { "replay-engines", 0, 0, G_OPTION_ARG_NONE, &options.replay_engines,
      N_("Play each engine's moves again from the recorded seed and compare them move by move "
         "(random, GNU Go, KataGo and their mix: rungs; --gnugo and --katago-* say "
         "where they are; a gtp: command from the record is never run)"), NULL },
    { "ladder", 0, 0, G_OPTION_ARG_FILENAME, &ladder,
      N_("The ladder whose identity pins the engines must match (default: the shipped one)"),
      N_("FILE") },
    { NULL }
  };

  const KomiCliOptions parse = { "verify", N_("LIBRARY|SITE-FOLDER - check every game of a "
    "library, or a published site, from its record alone"), .entries = entries, .engines = &engine,
    .args = KOMI_CLI_ARGS_ONE, .wrong_args = N_("give one library or one published site's "
                                                "folder, e.g. komi-cli verify theirs.db") };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (rejudge)
    referee = komi_cli_referee_new (&engine, &error);
  /* @engines borrows @engine's strings, which last to the end. */
  komi_cli_engine_options_get (&engine, &engines);
  options.rejudge = referee;
  if (error != NULL)
    return komi_cli_fail ("verify", error);
  if (rejudge && referee == NULL)
    return komi_cli_usage ("verify", "%s", _("--rejudge needs a referee: --referee katago or "
                                             "gnugo, not none"));
  target = argv[1];
  site = g_file_test (target, G_FILE_TEST_IS_DIR);
  if (!site && db != NULL)
    return komi_cli_usage ("verify", "%s", _("--db goes with a site's folder; a library is "
                                             "named on its own"));

  if (site)
    {
      if (!komi_publish_check_manifest (target, site_problems, &n_files, &error))
        return komi_cli_fail ("verify", error);
      if (db != NULL)
        {
          g_autoptr(KomiStore) store = komi_store_open_foreign (db, &error);

          if (store == NULL
              || !komi_publish_check_games (target, store, site_problems, &n_site_games, &error))
            return komi_cli_fail ("verify", error);
        }
      ok = site_problems->len == 0;
    }
  if (!site || db != NULL)
    {
      if ((report = verify_library (site ? db : target, ladder, &options, &error)) == NULL)
        return komi_cli_fail ("verify", error);
      ok = ok && report->n_failed == 0;
    }

  if (json)
    {
      g_autoptr(JsonNode) root = report != NULL ? komi_verify_report_to_json (report)
                                                : json_node_new (JSON_NODE_OBJECT);
      g_autofree char *text = NULL;

      if (report == NULL)
        json_node_take_object (root, json_object_new ());
      json_object_set_boolean_member (json_node_get_object (root), "ok", ok);
      if (site)
        json_object_set_member (json_node_get_object (root), "site",
                                site_json (n_files, n_site_games, site_problems));
      text = json_to_string (root, TRUE);
      printf ("%s\n", text);
      return ok ? 0 : 1;
    }

  for (guint i = 0; i < site_problems->len; i++)
    printf (_("Site: %s\n"), (const char *) g_ptr_array_index (site_problems, i));
  if (report != NULL)
    print_failures (report);
  if (site)
    printf (g_dngettext (NULL, "Site %s: %u file against its manifest, %u game against the "
                               "library: %u problem.\n",
                         "Site %s: %u files against its manifest, %u games against the "
                         "library: %u problems.\n", n_files),
            target, n_files, n_site_games, site_problems->len);
  if (report != NULL && options.replay_engines)
    printf (g_dngettext (NULL, "Engines: %u side played again move by move, %u not (a gtp: "
                               "command from a record is never run).\n",
                         "Engines: %u sides played again move by move, %u not (a gtp: "
                         "command from a record is never run).\n", report->n_replayed),
            report->n_replayed, report->n_unreplayed);
  if (report != NULL)
    printf (g_dngettext (NULL, "%s: %u of %u game verified, %u failed (%u call attempts "
                               "checked, %u games not ended).\n",
                         "%s: %u of %u games verified, %u failed (%u call attempts "
                         "checked, %u games not ended).\n", report->games->len),
            site ? db : target, report->games->len - report->n_failed, report->games->len,
            report->n_failed, report->n_calls, report->n_skipped);
  return ok ? 0 : 1;
}
