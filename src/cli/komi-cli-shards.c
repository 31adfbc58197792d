/* komi-cli-shards.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-ladder-ship.h"
#include "komi-shard-status.h"
#include "komi-store.h"
#include "komi-verify.h"
#include "komi-untrusted.h"

/* `merge --db LIB SHARD.db…`: the shards of a series (komi-cli run --shard
 * K/N, one library each) brought into one library; `status LIB…`: how far
 * the shards of a series are, together and one by one. */

/* A value of a series definition, short enough for a message. */
static char *
short_value (JsonNode *node)
{
  g_autofree char *text = NULL;

  if (node == NULL)
    return g_strdup ("—");
  /* A string as it is (the canonical form keeps seeds as text). */
  text = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? g_strdup (json_node_get_string (node)) : json_to_string (node, FALSE);

  if (g_utf8_strlen (text, -1) <= 48)
    return g_steal_pointer (&text);
  return g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (text, 47) - text), text);
}

/* What differs between two series definitions (canonical JSON), as
 * "seed: 7, not 2026; protocol: 2, not 1". */
static char *
describe_difference (const char *theirs, const char *ours)
{
  g_autoptr(JsonNode) a = json_from_string (theirs, NULL);
  g_autoptr(JsonNode) b = json_from_string (ours, NULL);
  g_autoptr(GList) names = NULL;
  GString *text = g_string_new (NULL);
  JsonObject *oa, *ob;

  if (a == NULL || b == NULL || !JSON_NODE_HOLDS_OBJECT (a) || !JSON_NODE_HOLDS_OBJECT (b))
    return g_string_free (text, FALSE);
  oa = json_node_get_object (a);
  ob = json_node_get_object (b);
  names = json_object_get_members (ob);
  for (GList *l = json_object_get_members (oa); l != NULL; l = g_list_delete_link (l, l))
    if (!json_object_has_member (ob, l->data))
      names = g_list_append (names, l->data);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *va = json_object_get_member (oa, name);
      JsonNode *vb = json_object_get_member (ob, name);
      g_autofree char *sa = NULL, *sb = NULL;

      /* Games at once is not part of what a series is. */
      if (g_str_equal (name, "jobs") || g_str_equal (name, "budget_usd")
          || (va != NULL && vb != NULL && json_node_equal (va, vb)))
        continue;
      sa = short_value (va);
      sb = short_value (vb);
      if (text->len > 0)
        g_string_append (text, "; ");
      /* Translators: a field of a series file, its value in one library and in the other. */
      g_string_append_printf (text, _("%s: %s, not %s"), name, sa, sb);
    }
  return g_string_free (text, FALSE);
}

/* The one series of a shard's library, checked against @reference (the
 * first shard's, NULL for the first); NULL with the reason otherwise. */
static KomiStoreSeries *
shard_series (const char *path, const KomiStoreSeries *reference, const char *reference_path,
              GError **error)
{
  g_autoptr(KomiStore) store = komi_store_open_foreign (path, error);
  g_autoptr(GPtrArray) list = NULL;
  KomiStoreSeries *s;

  if (store == NULL || (list = komi_store_list_series (store, error)) == NULL)
    return NULL;
  if (list->len != 1)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
                   g_dngettext (NULL, "%s holds %u series; a shard's library holds the one "
                                      "series it plays (komi-cli run --shard K/N --db FILE)",
                                "%s holds %u series; a shard's library holds the one "
                                "series it plays (komi-cli run --shard K/N --db FILE)",
                                list->len), path, list->len);
      return NULL;
    }
  s = g_ptr_array_steal_index (list, 0);
  if (reference != NULL && g_strcmp0 (s->digest, reference->digest) != 0)
    {
      g_autofree char *diff = describe_difference (s->definition, reference->definition);

      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
                   _("%s holds another series than %s (%s), so it is not one of its shards; "
                     "nothing was merged. Merge it into a library of its own"),
                   path, reference_path, diff[0] != '\0' ? diff : s->name);
      komi_store_series_free (s);
      return NULL;
    }
  return s;
}

/* How many games the whole plan of @s has (every shard's). */
static guint
plan_size (const KomiStoreSeries *s)
{
  g_autoptr(KomiSeries) series = komi_series_new_from_json (s->definition, -1, NULL);

  return series != NULL ? komi_series_count_games (series) : 0;
}

/* The ids of the games of @path that do not verify, NULL with the reason
 * when it cannot be verified at all. */
static GArray *
failing_games (const char *path, guint protocol, GError **error)
{
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(KomiVerifyReport) report = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  KomiVerifyOptions options = { 0, };

  if ((ladder = komi_ladder_shipped (protocol, error)) == NULL)
    return NULL;
  options.ladder = ladder;
  if ((report = komi_verify_library_at (path, &options, NULL, NULL, NULL, error)) == NULL)
    return NULL;
  for (guint i = 0; i < report->games->len; i++)
    {
      const KomiVerifiedGame *v = g_ptr_array_index (report->games, i);

      if (v->problems->len > 0)
        g_array_append_val (ids, v->game_id);
    }
  return g_steal_pointer (&ids);
}

int
komi_cli_merge (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func (
    (GDestroyNotify) komi_store_series_free);
  g_autoptr(KomiStore) store = NULL;
  g_auto(KomiStoreProgress) merged = { 0, };
  g_autofree char *db = NULL;
  guint total, unfinished = 0, refused = 0;
  gboolean verify = FALSE;
  int status;
  const GOptionEntry entries[] = {
    { "verify", 0, 0, G_OPTION_ARG_NONE, &verify,
      N_("Merge only the games that verify (komi-cli verify); the others are left out and "
         "counted"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library merged into (default in the XDG data folder)"), N_("PATH") },
    { NULL }
  };

  const KomiCliOptions parse = { "merge", N_("SHARD.db… - bring the libraries of a series' "
    "shards into one"), .entries = entries, .args = KOMI_CLI_ARGS_SOME, .wrong_args =
    N_("give the shards' libraries, e.g. komi-cli merge --db lib.db shard-*.db") };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (db == NULL)
    db = komi_store_default_path ();

  /* Every shard checked before anything is written. */
  for (int i = 1; i < argc; i++)
    {
      KomiStoreSeries *s = shard_series (argv[i], i > 1 ? g_ptr_array_index (sources, 0) : NULL,
                                         argv[1], &error);

      if (s == NULL)
        return komi_cli_fail ("merge", error);
      g_ptr_array_add (sources, s);
    }

  for (int i = 1; i < argc; i++)
    {
      KomiStoreMergeReport report;
      g_autoptr(GArray) except = NULL;

      if (verify
          && (except = failing_games (argv[i],
                                      ((KomiStoreSeries *) sources->pdata[0])->protocol,
                                      &error)) == NULL)
        return komi_cli_fail ("merge", error);
      if (!komi_store_merge_except (db, argv[i], except, &report, &error))
        return komi_cli_fail ("merge", error);
      printf (g_dngettext (NULL, "%s: %u game added, %u already in the library\n",
                           "%s: %u games added, %u already in the library\n", report.added),
              argv[i], report.added, report.present);
      refused += report.refused;
      if (report.refused > 0)
        printf (g_dngettext (NULL, "  %u game left out: it does not verify (komi-cli verify %s "
                                   "says why)\n",
                             "  %u games left out: they do not verify (komi-cli verify %s "
                             "says why)\n", report.refused), report.refused, argv[i]);
      if (report.unfinished > 0)
        printf (g_dngettext (NULL, "  %u game not ended yet (%s); merge this shard again once "
                                   "it has ended\n",
                             "  %u games not ended yet (%s); merge this shard again once it "
                             "has ended\n", report.unfinished),
                report.unfinished,
                report.live ? _("its run is going on")
                            : _("its run stopped or died: run the same komi-cli run command "
                                "again to continue it"));
      else if (report.live)
        printf ("  %s\n", _("its run is still going on; merge it again once it has ended"));
      unfinished += report.unfinished + (report.live ? 1 : 0);
    }

  store = komi_store_open_reader (db, &error);
  if (store != NULL)
    {
      g_autoptr(GPtrArray) list = komi_store_list_series (store, &error);
      const KomiStoreSeries *shard = g_ptr_array_index (sources, 0);

      for (guint i = 0; list != NULL && i < list->len; i++)
        {
          KomiStoreSeries *s = g_ptr_array_index (list, i);

          if (g_str_equal (s->digest, shard->digest)
              && !komi_store_get_progress (store, s->id, &merged, &error))
            return komi_cli_fail ("merge", error);
        }
    }
  if (error != NULL)
    return komi_cli_fail ("merge", error);
  total = plan_size (g_ptr_array_index (sources, 0));
  {
    /* A foreign library's name: written out, never sent raw to the terminal. */
    g_autofree char *name = komi_untrusted_visible (
      ((KomiStoreSeries *) g_ptr_array_index (sources, 0))->name);

    printf (_("Library %s: series “%s”, %u of the %u games of its plan ended.\n"), db, name,
            merged.ended, total);
  }
  if (merged.ended < total && unfinished == 0 && refused == 0)
    printf ("%s\n", _("The games left are in shards not merged yet: merge them when they are "
                      "done."));
  /* 3: merged, but not the whole series yet (a script waits and merges again). */
  return merged.ended < total ? 3 : 0;
}

/* Over "%-7s %6s %6s %8s  %-9s %8s  %s". */
static const KomiCliHeading status_headings[] = {
  { N_("shard"), -7, 2 }, { N_("games"), 6, 1 }, { N_("ended"), 6, 1 },
  { N_("running"), 8, 1 }, { N_("state"), -9, 2 }, { N_("ETA"), 8, 1 },
  { N_("library"), 0, 2 },
};

static void
print_series (const KomiSeriesStatus *status)
{
  const KomiStoreSeries *s = status->series;
  g_autofree char *eta = komi_shard_status_format_eta (status->eta);
  g_autofree char *name = komi_untrusted_visible (s->name);

  printf (_("Series “%s” (protocol %u): %u/%u games ended, %u running, ETA %s\n"), name,
          s->protocol, status->ended, status->total, status->running, eta);
  komi_cli_print_headings (stdout, status_headings, G_N_ELEMENTS (status_headings));
  for (guint i = 0; i < status->shards->len; i++)
    {
      const KomiShardStatus *r = g_ptr_array_index (status->shards, i);
      const KomiStoreProgress *p = &r->progress;
      const char *state = p->live ? _("running")
                          : p->ended >= p->total ? _("ended") : _("stopped");
      g_autofree char *shard_eta = komi_shard_status_format_eta (r->eta);

      printf ("  %-7s %6u %6u %8u  ", p->shard != NULL ? p->shard : "-", p->total, p->ended,
              p->running);
      /* Padded by characters, not bytes: the state is translated. */
      printf ("%s%*s %8s  %s\n", state, (int) MAX (0, 9 - g_utf8_strlen (state, -1)), "",
              shard_eta, r->path);
    }
  if (status->missing > 0)
    printf (g_dngettext (NULL, "%u game of the plan is in none of these libraries: shards not "
                               "started yet, or not listed\n",
                         "%u games of the plan are in none of these libraries: shards not "
                         "started yet, or not listed\n", status->missing),
            status->missing);
}

int
komi_cli_status (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autofree char *db = NULL;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      N_("The library, when no file is given (default in the XDG data folder)"), N_("PATH") },
    { NULL }
  };
  g_autofree char *default_path = NULL;
  const char *one[] = { NULL };
  const char * const *paths;
  guint n_paths;
  int status;
  const KomiCliOptions parse = { "status", N_("[LIBRARY.db…] - how far the series of libraries "
                                              "are, over all their shards"), .entries = entries };

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (argc > 1)
    {
      paths = (const char * const *) argv + 1;
      n_paths = argc - 1;
    }
  else
    {
      one[0] = db != NULL ? db : (default_path = komi_store_default_path ());
      paths = one;
      n_paths = 1;
    }

  /* A shell pattern left as it is: it matched no file. Right after a job
   * array is submitted, no task has made its library yet. */
  for (guint i = 0; i < n_paths; i++)
    if (strpbrk (paths[i], "*?[") != NULL && !g_file_test (paths[i], G_FILE_TEST_EXISTS))
      {
        g_set_error (&error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                     _("no library matches %s yet: no shard has started (squeue shows the "
                       "array's tasks); run komi-cli status again once one has"), paths[i]);
        return komi_cli_fail ("status", error);
      }
  list = komi_shard_status_read (paths, n_paths, &error);
  if (list == NULL)
    return komi_cli_fail ("status", error);
  if (list->len == 0)
    printf ("%s\n", _("No series in these libraries yet."));
  for (guint i = 0; i < list->len; i++)
    {
      if (i > 0)
        putchar ('\n');
      print_series (g_ptr_array_index (list, i));
    }
  return 0;
}
