/* test-publish.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-test"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <utime.h>

#include <json-glib/json-glib.h>

#include "komi-export.h"
#include "komi-ladder.h"
#include "komi-ladder-ship.h"
#include "komi-publish.h"
#include "komi-rating.h"
#include "komi-rating-library.h"
#include "komi-rehearsal.h"
#include "komi-store.h"
#include "komi-store-test-util.h"
#include "komi-test-cli.h"
#include "komi-test-model-series.h"

/* `komi-cli publish` on a real library: the rehearsal model (with a key
 * it demands, a 429 and an invalid answer injected) against random,
 * played by `komi-cli run`. The key appears nowhere in the site, the
 * compressed calls of every page included; each game's SGF is the
 * export's and its calls are its calls; publishing again rewrites only
 * what changed; the leaderboard rates with the rating layer. The browser
 * half is test-publish-browser.sh. */

#define KEY "sk-komi-publish-planted-3b8e61f0c2"
#define KEY_ENV "KOMI_TEST_PUBLISH_KEY"

static char *dir;
static char *db;

static void
make_library (void)
{
  KomiRehearsalOptions options = {
    .seed = 17, .api_key = KEY, .retry_after_ms = 10, .faults = "429@3,invalid@7",
  };
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(GError) error = NULL;

  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  test_run_model_series (dir, db, "Publish", komi_rehearsal_get_base_url (server), KEY_ENV, KEY,
                         TRUE);
}

static char *
publish (const char *site, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  const char *arg;
  va_list ap;

  g_ptr_array_add (argv, (char *) "publish");
  g_ptr_array_add (argv, (char *) "--db");
  g_ptr_array_add (argv, db);
  g_ptr_array_add (argv, (char *) "--out");
  g_ptr_array_add (argv, (char *) site);
  va_start (ap, site);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_assert_cmpuint (argv->len, <=, 10);
  while (argv->len < 10)
    g_ptr_array_add (argv, NULL);
  if (run_komi_cli (&out, &err, argv->pdata[0], argv->pdata[1], argv->pdata[2],
                    argv->pdata[3], argv->pdata[4], argv->pdata[5], argv->pdata[6],
                    argv->pdata[7], argv->pdata[8], argv->pdata[9], NULL) != 0)
    g_error ("komi-cli publish: %s", err);
  return g_steal_pointer (&out);
}

/* The requests and raw responses of a game page, decompressed. */
static char *
page_calls (const char *html)
{
  const char *start = strstr (html, "<script type=\"application/json\" id=\"game-data\">");
  const char *end = start ? strstr (start, "</script>") : NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GZlibDecompressor) zlib = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) base = NULL;
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autofree guchar *bytes = NULL;
  gsize n = 0;

  g_assert_nonnull (end);
  start = strchr (start, '>') + 1;
  json_parser_load_from_data (parser, start, end - start, &error);
  g_assert_no_error (error);
  bytes = g_base64_decode (json_object_get_string_member (
                             json_node_get_object (json_parser_get_root (parser)), "raw"), &n);
  base = g_memory_input_stream_new_from_data (bytes, (gssize) n, NULL);
  in = g_converter_input_stream_new (base, G_CONVERTER (zlib));
  g_output_stream_splice (mem, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write (mem, "", 1, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (mem));
}

/* @bytes gunzipped, NUL-terminated. */
static char *
gunzip (const char *bytes, gsize n, gsize *length)
{
  g_autoptr(GZlibDecompressor) zlib = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) base = g_memory_input_stream_new_from_data (bytes, (gssize) n, NULL);
  g_autoptr(GInputStream) in = g_converter_input_stream_new (base, G_CONVERTER (zlib));
  g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_output_stream_splice (mem, in, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE, NULL, &error);
  g_assert_no_error (error);
  if (length != NULL)
    *length = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem));
  g_output_stream_write (mem, "", 1, NULL, NULL);
  g_output_stream_close (mem, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (mem));
}

/* A file of the site, read whole; a .gz one decompressed. */
static char *
read_site_file (const char *path, gsize *length)
{
  char *text = NULL;
  gsize n = 0;

  g_assert_true (g_file_get_contents (path, &text, &n, NULL));
  if (g_str_has_suffix (path, ".gz"))
    {
      char *plain = gunzip (text, n, &n);

      g_free (text);
      text = plain;
    }
  if (length != NULL)
    *length = n;
  return text;
}

/* Every file under @path, read whole; game pages also with their calls
 * decompressed. Counts the files. */
static guint
search_site (const char *path, const char *needle, guint *found, guint *pages)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;
  guint files = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      g_autofree char *text = NULL;

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        {
          files += search_site (child, needle, found, pages);
          continue;
        }
      text = read_site_file (child, NULL);
      files++;
      *found += strstr (text, needle) != NULL;
      if (g_str_has_prefix (name, "game-") && g_str_has_suffix (name, ".html"))
        {
          g_autofree char *calls = page_calls (text);

          /* The decompressed calls are really there, with the header
           * that carried the key, redacted. */
          g_assert_nonnull (strstr (calls, "rehearsal-model"));
          g_assert_nonnull (strstr (calls, "[redacted]"));
          *found += strstr (calls, needle) != NULL;
          (*pages)++;
        }
    }
  return files;
}

static void
test_no_key (void)
{
  g_autofree char *site = g_build_filename (dir, "site-keys", NULL);
  g_autofree char *out = publish (site, NULL);
  guint found = 0, pages = 0, files;

  files = search_site (site, KEY, &found, &pages);
  g_assert_cmpuint (pages, ==, 2);
  g_assert_cmpuint (files, >=, 11);
  g_assert_cmpuint (found, ==, 0);
  /* Nor a part of it long enough to matter. */
  search_site (site, KEY + 8, &found, &pages);
  g_assert_cmpuint (found, ==, 0);
}

static char *
read_file (const char *first, ...)
{
  g_autofree char *path = NULL;
  char *text = NULL;
  va_list ap;

  va_start (ap, first);
  path = g_build_filename_valist (first, &ap);
  va_end (ap);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* Each game's SGF is the one `export --public` writes; its JSON Lines are
 * its own lines of that export's call log. */
static void
test_downloads (void)
{
  g_autofree char *site = g_build_filename (dir, "site-downloads", NULL);
  g_autofree char *sgf_dir = g_build_filename (dir, "export-sgf", NULL);
  g_autofree char *calls = g_build_filename (dir, "export-calls.jsonl", NULL);
  g_autofree char *out = publish (site, NULL);
  g_autofree char *o = NULL, *e = NULL;
  g_autofree char *all_calls = NULL;
  g_autoptr(KomiStore) store = komi_store_open_reader (db, NULL);
  g_autoptr(GPtrArray) games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, NULL);
  g_autofree char *index = read_file (site, "index.html", NULL);
  g_auto(GStrv) export_lines = NULL;

  /* By default the leaderboard is on the ladder shipped with Komi, and the
   * index says which scale that is. */
  g_assert_nonnull (strstr (index, "The ladder shipped with Komi, one scale for every library"));

  g_assert_cmpint (run_komi_cli (&o, &e, "export", "--db", db, "--public", "--sgf", sgf_dir,
                                 "--calls", calls, NULL), ==, 0);
  all_calls = read_file (calls, NULL);
  export_lines = g_strsplit (all_calls, "\n", -1);
  g_assert_cmpuint (games->len, ==, 2);
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *g = games->pdata[i];
      g_autofree char *name = komi_export_sgf_file_name (g);
      g_autofree char *exported = read_file (sgf_dir, name, NULL);
      g_autofree char *base = g_strdup_printf ("game-%" G_GINT64_FORMAT, g->id);
      g_autofree char *sgf_file = g_strconcat (base, ".sgf", NULL);
      g_autofree char *jsonl_file = g_strconcat (base, "-calls.jsonl.gz", NULL);
      g_autofree char *published = read_file (site, "games", sgf_file, NULL);
      g_autofree char *jsonl_path = g_build_filename (site, "games", jsonl_file, NULL);
      g_autofree char *jsonl = read_site_file (jsonl_path, NULL);
      g_auto(GStrv) lines = g_strsplit (jsonl, "\n", -1);
      g_autofree char *mark = g_strdup_printf ("\"game_id\":%" G_GINT64_FORMAT ",", g->id);
      guint mine = 0;

      g_assert_cmpstr (published, ==, exported);
      g_assert_cmpuint (g_strv_length (lines) - 1, ==, g->n_calls);
      g_assert_cmpuint (g->n_calls, >, 10);
      for (guint j = 0; export_lines[j] != NULL; j++)
        if (strstr (export_lines[j], mark) != NULL)
          {
            mine++;
            g_assert_true (g_strv_contains ((const char * const *) lines, export_lines[j]));
          }
      g_assert_cmpuint (mine, ==, g->n_calls);
    }
}

/* Each file's modification time into TIMES; with BACKDATE, each set to
 * 2001 first, so that any rewrite shows whatever the clock's resolution. */
static void
file_times (const char *path, gboolean backdate, GHashTable *times)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      GStatBuf st;

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        file_times (child, backdate, times);
      else if (backdate && g_utime (child, &(struct utimbuf) { 1000000000, 1000000000 }) != 0)
        g_error ("%s: %s", child, g_strerror (errno));
      else if (g_stat (child, &st) == 0)
        g_hash_table_insert (times, g_steal_pointer (&child),
                             g_strdup_printf ("%ld.%09ld", (long) st.st_mtim.tv_sec,
                                              (long) st.st_mtim.tv_nsec));
    }
}

/* Publishing again into the same folder rewrites only what changed: the
 * index (it says when it was made) and a page that was deleted. */
static void
test_again (void)
{
  g_autofree char *site = g_build_filename (dir, "site-again", NULL);
  g_autofree char *first = publish (site, NULL);
  g_autofree char *page = g_build_filename (site, "games", "game-2.html", NULL);
  g_autofree char *before = NULL, *after = NULL, *second = NULL;
  g_autoptr(GHashTable) t1 = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) t2 = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;
  g_autofree char *index = g_build_filename (site, "index.html", NULL);
  g_autofree char *manifest = g_build_filename (site, "MANIFEST.sha256", NULL);
  g_autofree char *written = NULL;
  gboolean index_changed;

  g_assert_nonnull (strstr (first, "0 unchanged"));
  g_assert_true (g_file_get_contents (page, &before, NULL, NULL));
  g_assert_cmpint (g_remove (page), ==, 0);
  file_times (site, TRUE, t1);
  second = publish (site, NULL);
  file_times (site, FALSE, t2);
  g_assert_cmpuint (g_hash_table_size (t2), ==, g_hash_table_size (t1) + 1);
  /* Only the index may change, it says when it was made, to the minute;
   * and with it the manifest, which holds the index's sha256. */
  index_changed = g_strcmp0 (g_hash_table_lookup (t1, index), g_hash_table_lookup (t2, index)) != 0;
  g_hash_table_iter_init (&iter, t1);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (strcmp (key, index) != 0 && (!index_changed || strcmp (key, manifest) != 0)
        && g_strcmp0 (value, g_hash_table_lookup (t2, key)) != 0)
      g_error ("%s was written again", (const char *) key);
  written = g_strdup_printf ("%d files written", index_changed ? 3 : 1);
  g_assert_nonnull (strstr (second, written));
  g_assert_true (g_file_get_contents (page, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
}

static char *
leaderboard_of (const char *site)
{
  g_autofree char *index = read_file (site, "index.html", NULL);
  const char *start = strstr (index, "<table class=\"leaderboard");
  const char *end = start != NULL ? strstr (start, "</table>") : NULL;

  g_assert_nonnull (end);
  return g_strndup (start, end - start);
}

/* The methodology shows the shipped ladder's evidence: the members, the
 * fit to the calibration games (neighbours and pairs further apart, as
 * `komi-cli ladder --fit`), and the ladder's own uncertainty near each
 * member, which grows up the chain away from the pinned random player. */
static void
test_methodology_ladder (void)
{
  g_autofree char *site = g_build_filename (dir, "site-method", NULL);
  g_autofree char *out = publish (site, NULL);
  g_autofree char *page = read_file (site, "methodology.html", NULL);
  g_autoptr(GRegex) row = g_regex_new ("<tr><td><code>([^<]+)</code></td><td>(-?[0-9]+)</td>"
                                       "<td>± ([0-9]+)</td></tr>", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) shipped = komi_ladder_shipped (1, &error);
  guint rows = 0;
  double first = NAN, last = NAN;

  g_assert_no_error (error);
  g_assert_nonnull (strstr (page, "id=\"ladder-evidence\""));
  g_assert_nonnull (strstr (page, "id=\"ladder-fit-table\""));
  g_assert_nonnull (strstr (page, "Neighbours (1 step apart): Σz²"));
  g_assert_nonnull (strstr (page, "Further apart (2 steps or more"));
  g_assert_nonnull (strstr (page, "id=\"ladder-uncertainty\""));
  g_assert_nonnull (strstr (page, "--with-ladder-uncertainty"));
  for (g_regex_match (row, page, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *label = g_match_info_fetch (match, 1);
      g_autofree char *share = g_match_info_fetch (match, 3);
      const KomiLadderMember *m = g_ptr_array_index (shipped->members, rows);

      g_assert_cmpstr (label, ==, m->label);
      if (rows == 0)
        first = g_ascii_strtod (share, NULL);
      last = g_ascii_strtod (share, NULL);
      rows++;
    }
  g_assert_cmpuint (rows, ==, shipped->members->len);
  g_assert_cmpfloat (last, >, first + 50);
}

/* A game page left as it is (its stamp unchanged) still counts in the
 * leaderboard, from the figures its head keeps; a page whose stamp
 * differs (another format, a changed game) is made again. */
static void
test_again_stamp (void)
{
  g_autofree char *site = g_build_filename (dir, "site-stamp", NULL);
  g_autofree char *first = publish (site, NULL);
  g_autofree char *board = leaderboard_of (site);
  g_autofree char *page = g_build_filename (site, "games", "game-1.html", NULL);
  g_autofree char *before = NULL, *after = NULL, *second = NULL, *third = NULL, *again = NULL;
  g_autoptr(GRegex) stamp = g_regex_new ("<meta name=\"komi-stamp\" content=\"[0-9a-f]{64}\">",
                                         0, 0, NULL);
  g_autofree char *forged = NULL;

  g_assert_true (g_file_get_contents (page, &before, NULL, NULL));
  g_assert_true (g_regex_match (stamp, before, 0, NULL));
  second = publish (site, NULL);
  g_assert_nonnull (strstr (second, "files written"));
  again = leaderboard_of (site);
  g_assert_cmpstr (again, ==, board);
  /* The tokens per move are there, not "not reported". */
  g_assert_null (strstr (board, "not reported"));

  /* Left as it is indeed: the figures kept in its head are those counted. */
  {
    g_autoptr(GRegex) usage = g_regex_new ("<meta name=\"komi-usage\" content=\"[^\"]*\">",
                                           0, 0, NULL);
    g_autofree char *edited = g_regex_replace_literal (usage, before, -1, 0,
                                                       "<meta name=\"komi-usage\" content="
                                                       "\"1 1 1 999 0 0 0 0 0 0\">", 0, NULL);
    g_autofree char *out = NULL, *changed = NULL;

    g_assert_true (g_file_set_contents (page, edited, -1, NULL));
    out = publish (site, NULL);
    changed = leaderboard_of (site);
    g_assert_cmpstr (changed, !=, board);
  }
  forged = g_regex_replace_literal (stamp, before, -1, 0,
                                    "<meta name=\"komi-stamp\" content=\"0\">", 0, NULL);
  g_assert_true (g_file_set_contents (page, forged, -1, NULL));
  third = publish (site, NULL);
  g_assert_true (g_file_get_contents (page, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
}

/* Text a model or a server may send (quotes, backslashes, newlines, a
 * closing script tag, other scripts, a byte that is not UTF-8) reaches the
 * page as JSON that parses back to the same text and never closes the
 * page's script element. */
static void
test_awkward_text (void)
{
  g_autofree char *copy = g_build_filename (dir, "awkward.db", NULL);
  g_autofree char *site = g_build_filename (dir, "site-awkward", NULL);
  g_autofree char *bytes = NULL, *html = NULL, *calls = NULL;
  g_autofree char *saved_db = db;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  const char *body = "</script><script>alert(1)</script> \"quoted\" back\\slash\n"
                     "line two: \xe9\xbb\x91\xe6\xa3\x8b \xff end";
  const char *answer = "</script>\"x\"\n";
  KomiStoreCall call = {
    .turn = 1, .question = "play_or_pass", .attempt = 99,
    .request_url = "https://api.example.com/v1/chat/completions",
    .request_headers = "{}", .request_body = "{\"a\": \"</SCRIPT>\"}",
    .response_status = 200, .response_headers = "{}", .latency_ms = 12.5,
    .tokens_input = -1, .tokens_output = -1, .tokens_reasoning = -1, .tokens_cached = -1,
    .model_version = "m\"odel", .answer = answer, .outcome = "invalid-option",
    .option_probabilities = "{\"</script>\": 0.5}", .retry_delay = -1, .cost_usd = -1,
  };
  JsonArray *raw, *last;
  JsonObject *meta = NULL;
  JsonArray *list;
  const char *start, *end;
  gsize length = 0;
  guint k;

  g_assert_true (g_file_get_contents (db, &bytes, &length, NULL));
  g_assert_true (g_file_set_contents (copy, bytes, (gssize) length, NULL));
  store = komi_store_open (copy, &error);
  g_assert_no_error (error);
  call.response_body = g_bytes_new_static (body, strlen (body));
  g_assert_true (komi_store_add_call (store, 1, &call, &error));
  g_assert_no_error (error);
  g_clear_pointer (&call.response_body, g_bytes_unref);
  g_clear_pointer (&store, komi_store_unref);

  db = copy;
  g_free (publish (site, NULL));
  db = g_steal_pointer (&saved_db);
  saved_db = NULL;
  html = read_file (site, "games", "game-1.html", NULL);
  /* One closing script tag for the data, one after the page's script. */
  start = strstr (html, "id=\"game-data\">");
  g_assert_nonnull (start);
  end = strstr (start, "</script>");
  g_assert_nonnull (end);
  g_assert_null (strstr (start, "alert(1)</script>"));
  start = strchr (start, '>') + 1;
  json_parser_load_from_data (parser, start, end - start, &error);
  g_assert_no_error (error);
  list = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                       "calls");
  for (guint i = 0; i < json_array_get_length (list); i++)
    if (json_object_get_int_member (json_array_get_object_element (list, i), "n") == 99)
      meta = json_array_get_object_element (list, i);
  g_assert_nonnull (meta);
  g_assert_cmpstr (json_object_get_string_member (meta, "ans"), ==, answer);
  g_assert_cmpstr (json_object_get_string_member (meta, "model"), ==, "m\"odel");
  g_assert_cmpstr (json_object_get_string_member (meta, "probs"), ==,
                   "{\"</script>\": 0.5}");

  k = (guint) json_object_get_int_member (meta, "k");
  calls = page_calls (html);
  g_clear_object (&parser);
  parser = json_parser_new ();
  json_parser_load_from_data (parser, calls, -1, &error);
  g_assert_no_error (error);
  raw = json_node_get_array (json_parser_get_root (parser));
  last = json_array_get_array_element (raw, k);
  g_assert_cmpstr (json_array_get_string_element (last, 2), ==, "{\"a\": \"</SCRIPT>\"}");
  g_assert_cmpstr (json_array_get_string_element (last, 5), ==,
                   "</script><script>alert(1)</script> \"quoted\" back\\slash\n"
                   "line two: \xe9\xbb\x91\xe6\xa3\x8b \xef\xbf\xbd end");
}

/* Private values planted in a library: the profile under a user's home
 * (the user's name in its path), the key's variable, the provider's host
 * and port, a host name in a recorded URL and in a transport error, an
 * engine's binary, network and config under the home, and response
 * headers no reader needs (organisation and project ids, a cookie, a
 * request id). None of them is anywhere in the site or in `export
 * --public`, every byte read (the calls of each page decompressed); what
 * a reader needs stays. */
#define PLANTED_USER "zelda-planted-user"
#define PLANTED_KEY_ENV "KOMI_PLANTED_KEY_VARIABLE_71"
#define PLANTED_HOST "gpu-box-planted.corp.example"

static void
search_tree (const char *path, const char *needle, guint *found, guint *files)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      g_autofree char *text = NULL;
      gsize length = 0;

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        {
          search_tree (child, needle, found, files);
          continue;
        }
      text = read_site_file (child, &length);
      (*files)++;
      if (g_strstr_len (text, (gssize) length, needle) != NULL)
        {
          g_test_message ("%s holds %s", child, needle);
          (*found)++;
        }
      if (g_str_has_prefix (name, "game-") && g_str_has_suffix (name, ".html"))
        {
          g_autofree char *calls = page_calls (text);

          if (strstr (calls, needle) != NULL)
            {
              g_test_message ("%s's calls hold %s", child, needle);
              (*found)++;
            }
        }
    }
}

static void
test_private_values (void)
{
  g_autofree char *home = g_build_filename (dir, "home", PLANTED_USER, NULL);
  g_autofree char *providers = g_build_filename (home, ".config", "komi", "providers", NULL);
  g_autofree char *private_db = g_build_filename (dir, "private.db", NULL);
  g_autofree char *site = g_build_filename (dir, "site-private", NULL);
  g_autofree char *site_ids = g_build_filename (dir, "site-private-ids", NULL);
  g_autofree char *exported = g_build_filename (dir, "export-public", NULL);
  g_autofree char *sgf_dir = g_build_filename (exported, "sgf", NULL);
  g_autofree char *calls = g_build_filename (exported, "calls.jsonl", NULL);
  g_autofree char *csv = g_build_filename (exported, "results.csv", NULL);
  g_autofree char *private_calls = g_build_filename (dir, "private-calls.jsonl", NULL);
  g_autofree char *o = NULL, *e = NULL, *text = NULL, *port = NULL;
  g_autofree char *engine = NULL, *sql = NULL, *page = NULL, *page_ids = NULL;
  char *saved_db;
  KomiRehearsalOptions options = { .seed = 23, .api_key = KEY, .retry_after_ms = 10 };
  g_autoptr(KomiRehearsal) server = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GError) error = NULL;
  const char *headers = "{\"content-type\": \"application/json\", "
    "\"openai-organization\": \"org-planted-7Qx2\", \"openai-project\": \"proj_planted_91\", "
    "\"anthropic-organization-id\": \"planted-anthropic-org-55\", "
    "\"Set-Cookie\": \"__cf_bm=planted-cookie-3e; path=/; HttpOnly\", "
    "\"x-request-id\": \"req_planted_0a9\", \"x-ratelimit-remaining-requests\": \"4999\", "
    "\"retry-after\": \"3\"}";
  KomiStoreCall call = {
    .turn = 1, .question = "play_or_pass", .attempt = 98,
    .request_url = "https://" PLANTED_HOST ":8443/v1/chat/completions",
    .request_headers = "{\"Authorization\": \"[redacted]\", \"OpenAI-Organization\": "
                       "\"org-planted-7Qx2\", \"Content-Type\": \"application/json\"}",
    .request_body = "{\"model\": \"rehearsal-model\"}",
    .response_status = 200, .response_headers = headers, .latency_ms = 3,
    .tokens_input = -1, .tokens_output = -1, .tokens_reasoning = -1, .tokens_cached = -1,
    .outcome = "invalid-option", .retry_delay = -1, .cost_usd = -1,
  };
  KomiStoreCall fault;
  const char *planted[] = { PLANTED_USER, PLANTED_KEY_ENV, PLANTED_HOST, "org-planted-7Qx2",
                            "proj_planted_91", "planted-anthropic-org-55",
                            "planted-cookie-3e", "req_planted_0a9", NULL, NULL, NULL };
  const char *kept[] = { "4999", "x-ratelimit-remaining-requests", "retry-after",
                         "[host]/v1/chat/completions", "[redacted]", NULL };
  const char *where[] = { site, exported, NULL };
  guint found = 0, files = 0;

  planted[8] = home;
  g_assert_cmpint (g_mkdir_with_parents (providers, 0700), ==, 0);
  server = komi_rehearsal_new (&options, &error);
  g_assert_no_error (error);
  test_run_model_series (providers, private_db, "Private", komi_rehearsal_get_base_url (server),
                         PLANTED_KEY_ENV, KEY, TRUE);
  /* The provider's host and port, as the profile names them. */
  port = g_strdup (strstr (komi_rehearsal_get_base_url (server), "127.0.0.1:"));
  g_assert_nonnull (port);
  planted[9] = port;

  store = komi_store_open (private_db, &error);
  g_assert_no_error (error);
  call.response_body = g_bytes_new_static ("{\"error\": \"x\"}", 14);
  g_assert_true (komi_store_add_call (store, 1, &call, &error));
  fault = call;
  fault.attempt = 97;
  fault.response_status = 0;
  fault.response_headers = NULL;
  fault.response_body = NULL;
  fault.outcome = "transport-error";
  fault.error = "Could not connect to " PLANTED_HOST ": Connection refused";
  g_assert_true (komi_store_add_call (store, 1, &fault, &error));
  g_assert_no_error (error);
  g_clear_pointer (&call.response_body, g_bytes_unref);
  g_clear_pointer (&store, komi_store_unref);
  /* An engine under the home: its binary, network and config by path. */
  engine = g_strdup_printf ("{\"engine\":\"katago\",\"binary\":\"%s/engines/katago\","
                            "\"argv\":[\"%s/engines/katago\",\"gtp\",\"-model\","
                            "\"%s/nets/b6.bin.gz\",\"-config\",\"%s/gtp.cfg\"],"
                            "\"visits\":200,\"model\":\"%s/nets/b6.bin.gz\","
                            "\"model_sha256\":\"beef0123\",\"config\":\"%s/gtp.cfg\"}",
                            home, home, home, home, home, home);
  sql = g_strdup_printf ("UPDATE games SET white_settings = '%s', "
                         "white_spec = 'gtp:''%s/engines/katago gtp''' WHERE id = 1", engine,
                         home);
  g_free (sql_text (private_db, sql));

  /* The private library does hold them: the search would find them. */
  g_assert_cmpint (run_komi_cli (&o, &e, "export", "--db", private_db, "--calls", private_calls,
                                 NULL), ==, 0);
  text = read_file (private_calls, NULL);
  g_assert_nonnull (strstr (text, "org-planted-7Qx2"));
  g_assert_nonnull (strstr (text, PLANTED_HOST));
  g_clear_pointer (&text, g_free);

  saved_db = db;
  db = private_db;
  g_free (publish (site, NULL));
  g_free (publish (site_ids, "--keep-request-ids", NULL));
  db = saved_db;
  g_clear_pointer (&o, g_free);
  g_clear_pointer (&e, g_free);
  g_assert_cmpint (run_komi_cli (&o, &e, "export", "--db", private_db, "--public", "--sgf",
                                 sgf_dir, "--calls", calls, "--csv", csv, NULL), ==, 0);

  for (guint w = 0; where[w] != NULL; w++)
    for (guint i = 0; planted[i] != NULL; i++)
      {
        found = files = 0;
        search_tree (where[w], planted[i], &found, &files);
        g_assert_cmpuint (files, >=, 3);
        if (found != 0)
          g_error ("%s: %u files hold \"%s\"", where[w], found, planted[i]);
      }
  /* What a reader needs is kept: the rate limit and retry advice, the
   * engine by its network's digest and its visits, the model by its
   * profile's name and model id. */
  page = read_file (site, "games", "game-1.html", NULL);
  text = page_calls (page);
  for (guint i = 0; kept[i] != NULL; i++)
    g_assert_nonnull (strstr (text, kept[i]));
  g_clear_pointer (&text, g_free);
  text = read_file (site, "games", "game-1.sgf", NULL);
  g_assert_nonnull (strstr (text, "beef0123"));
  g_assert_nonnull (strstr (text, "b6.bin.gz"));
  g_assert_nonnull (strstr (text, "\"visits\":200"));
  /* The model's name once ("rehearsal", not "rehearsal rehearsal-model"),
   * its model id in its settings. */
  g_assert_nonnull (strstr (text, "PB[rehearsal]"));
  g_assert_nonnull (strstr (text, "\"model\":\"rehearsal-model\""));
  g_clear_pointer (&text, g_free);
  /* A request id only when asked for. */
  page_ids = read_file (site_ids, "games", "game-1.html", NULL);
  text = page_calls (page_ids);
  g_assert_nonnull (strstr (text, "req_planted_0a9"));
  g_assert_null (strstr (text, "org-planted-7Qx2"));
}

/* With a frozen ladder the leaderboard shows the rating layer's estimate;
 * a series the library lacks is refused. */
static void
test_leaderboard (void)
{
  g_autofree char *site = g_build_filename (dir, "site-ladder", NULL);
  g_autofree char *ladder_path = g_build_filename (dir, "ladder.json", NULL);
  g_autofree char *out = NULL, *index = NULL, *o = NULL, *e = NULL, *want = NULL;
  g_autofree char *escaped = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(KomiStore) store = komi_store_open_reader (db, NULL);
  g_autoptr(GPtrArray) games = komi_store_list_games (store, KOMI_STORE_ALL_GAMES, NULL);
  g_autoptr(GArray) results = g_array_new (FALSE, FALSE, sizeof (KomiGameResult));
  g_autoptr(GPtrArray) rated = NULL;
  g_autoptr(GError) error = NULL;
  const char *ladder_json = "{\"protocol\": 1, \"date\": \"2026-11-30\", \"games\": 400, "
    "\"pinned\": \"random\", \"members\": [{\"label\": \"random\", \"rating\": 0, \"se\": 0, "
    "\"low\": 0, \"high\": 0, \"games\": 400}]}";

  g_assert_true (g_file_set_contents (ladder_path, ladder_json, -1, NULL));
  out = publish (site, "--ladder", ladder_path, "--series", "1", NULL);
  g_assert_null (strstr (out, "no ratings"));
  index = read_file (site, "index.html", NULL);

  ladder = komi_ladder_load (ladder_path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < games->len; i++)
    {
      KomiGameResult r;

      if (komi_game_result_from_store_game (games->pdata[i], &r))
        g_array_append_val (results, r);
    }
  rated = komi_rating_rate_subjects (ladder, (KomiGameResult *) (void *) results->data,
                                     results->len, &error);
  g_assert_no_error (error);
  want = komi_estimate_describe (&((KomiSubjectRating *) rated->pdata[0])->estimate);
  escaped = g_markup_escape_text (want, -1);
  g_assert_nonnull (strstr (index, escaped));
  g_assert_nonnull (strstr (index, "<th scope=\"row\">random</th>"));

  g_assert_cmpint (run_komi_cli (&o, &e, "publish", "--db", db, "--out", site, "--series",
                                 "99", NULL), ==, 1);
  g_assert_nonnull (strstr (e, "99"));
}

/* Every file under @a is under @b with the same bytes, and no more, but
 * for the index and the manifest (the index says when it was made). */
static guint
assert_same_tree (const char *a, const char *b)
{
  g_autoptr(GDir) d = g_dir_open (a, 0, NULL);
  g_autoptr(GDir) e = g_dir_open (b, 0, NULL);
  const char *name;
  guint files = 0, others = 0;

  g_assert_nonnull (d);
  g_assert_nonnull (e);
  while ((name = g_dir_read_name (e)) != NULL)
    others++;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *x = g_build_filename (a, name, NULL);
      g_autofree char *y = g_build_filename (b, name, NULL);
      g_autofree char *tx = NULL, *ty = NULL;
      gsize nx = 0, ny = 0;

      others--;
      if (g_file_test (x, G_FILE_TEST_IS_DIR))
        {
          files += assert_same_tree (x, y);
          continue;
        }
      files++;
      if (strcmp (name, "index.html") == 0 || strcmp (name, "MANIFEST.sha256") == 0)
        continue;
      g_assert_true (g_file_get_contents (x, &tx, &nx, NULL));
      g_assert_true (g_file_get_contents (y, &ty, &ny, NULL));
      if (nx != ny || memcmp (tx, ty, nx) != 0)
        g_error ("%s and %s differ", x, y);
    }
  g_assert_cmpuint (others, ==, 0);
  return files;
}

/* Game pages are made by several workers at once: one worker or four,
 * the site is the same, byte for byte, leaderboard included. */
static void
test_threads (void)
{
  g_autofree char *one = g_build_filename (dir, "site-one-thread", NULL);
  g_autofree char *four = g_build_filename (dir, "site-four-threads", NULL);
  KomiPublishOptions options = { .threads = 1 };
  KomiPublishStats a = { 0, }, b = { 0, };
  g_autoptr(GError) error = NULL;
  g_autofree char *board_one = NULL, *board_four = NULL;

  g_assert_true (komi_publish_site (db, one, &options, &a, &error));
  g_assert_no_error (error);
  options.threads = 4;
  g_assert_true (komi_publish_site (db, four, &options, &b, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (a.games, ==, 2);
  g_assert_cmpuint (b.games, ==, a.games);
  g_assert_cmpuint (b.written, ==, a.written);
  g_assert_cmpuint (b.bytes, ==, a.bytes);
  g_assert_cmpuint (assert_same_tree (one, four), >=, 11);
  board_one = leaderboard_of (one);
  board_four = leaderboard_of (four);
  g_assert_cmpstr (board_one, ==, board_four);
  komi_publish_stats_clear (&a);
  komi_publish_stats_clear (&b);
}

/* A game of engines alone: its page says nothing of a model that saw the
 * board (engines play on the real one) and offers no model's
 * probabilities; a model's game does both. */
static void
test_engine_game (void)
{
  g_autofree char *engines_db = g_build_filename (dir, "engines.db", NULL);
  g_autofree char *site = g_build_filename (dir, "site-engines", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *page = NULL, *model_page = NULL, *model_site = NULL;

  {
    g_autoptr(KomiStore) store = test_open_store (engines_db);

    test_add_series (store, "Engines alone", 5, "random", "gnugo:1", 1, FALSE);
  }
  if (run_komi_cli (&out, &err, "publish", "--db", engines_db, "--out", site, NULL) != 0)
    g_error ("komi-cli publish: %s", err);
  page = read_file (site, "games", "game-1.html", NULL);
  g_assert_null (strstr (page, "model saw"));
  g_assert_null (strstr (page, "shown to the players"));
  g_assert_nonnull (strstr (page, "Board in the game's orientation (O)"));
  g_assert_nonnull (strstr (page, "<label class=\"toggle\" hidden><input type=\"checkbox\" "
                                  "id=\"show-probs\""));

  model_site = g_build_filename (dir, "site-model-view", NULL);
  g_free (publish (model_site, NULL));
  model_page = read_file (model_site, "games", "game-1.html", NULL);
  g_assert_nonnull (strstr (model_page, "Board as the model saw it (O)"));
  g_assert_nonnull (strstr (model_page, "orientation shown to the model: "));
  g_assert_null (strstr (model_page, "toggle\" hidden"));
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("komi-publish-XXXXXX", NULL);
  db = g_build_filename (dir, "library.db", NULL);
  make_library ();

  g_test_add_func ("/komi/publish/no-key", test_no_key);
  g_test_add_func ("/komi/publish/downloads", test_downloads);
  g_test_add_func ("/komi/publish/again", test_again);
  g_test_add_func ("/komi/publish/again-stamp", test_again_stamp);
  g_test_add_func ("/komi/publish/threads", test_threads);
  g_test_add_func ("/komi/publish/leaderboard", test_leaderboard);
  g_test_add_func ("/komi/publish/methodology-ladder", test_methodology_ladder);
  g_test_add_func ("/komi/publish/awkward-text", test_awkward_text);
  g_test_add_func ("/komi/publish/private-values", test_private_values);
  g_test_add_func ("/komi/publish/engine-game", test_engine_game);
  status = g_test_run ();

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_cmpint (system (cmd), ==, 0);
  }
  g_free (db);
  g_free (dir);
  return status;
}
