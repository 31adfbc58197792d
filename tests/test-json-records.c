/* test-json-records.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "komi-model-player.h"
#include "komi-provider.h"
#include "komi-random-player.h"
#include "komi-store.h"
#include "komi-test-cli.h"
#include "komi-test-util.h"

/* Every JSON Komi writes is built with json-glib, so any text a user can
 * put into one (a model id, a URL, a path, a player spec) comes back out
 * of it unchanged. Each test feeds these through one such path. */
static const char *const awkward[] = {
  "org/m\"x",
  "back\\slash\\\\ and \\\"",
  "new\nline\ttab\r",
  "Gō 碁 é ünïcode",
  /* Not U+001F: json-glib 1.6 writes it unescaped, which SQLite's JSON
   * functions then reject (fixed in later json-glib). */
  "\x01 control \x7f",
};

/* @text parsed as a JSON object: fails the test when it is not one. */
static JsonObject *
parse_object (const char *text, JsonNode **root)
{
  g_autoptr(GError) error = NULL;

  *root = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (*root));
  return json_node_get_object (*root);
}

/* A model's recorded settings carry its id and URL whatever they hold:
 * the Players page and the review parse them. */
static void
test_model_settings (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (awkward); i++)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) profile_root = NULL;
      g_autoptr(JsonNode) settings_root = NULL;
      g_autoptr(KomiProviderProfile) profile = NULL;
      g_autoptr(KomiProvider) provider = NULL;
      g_autoptr(KomiPlayer) player = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *base_url = g_strconcat ("http://127.0.0.1:9/", awkward[i], NULL);
      g_autofree char *url = NULL;
      JsonObject *settings;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, awkward[i]);
      json_builder_set_member_name (b, "api");
      json_builder_add_string_value (b, "openai-chat");
      json_builder_set_member_name (b, "base_url");
      json_builder_add_string_value (b, base_url);
      json_builder_set_member_name (b, "model");
      json_builder_add_string_value (b, awkward[i]);
      json_builder_set_member_name (b, "key_env");
      json_builder_add_string_value (b, "KOMI_TEST_KEY");
      json_builder_end_object (b);
      profile_root = json_builder_get_root (b);
      profile = komi_provider_profile_new_from_json (profile_root, &error);
      g_assert_no_error (error);
      provider = komi_provider_new_with_key (profile, "sk-test", &error);
      g_assert_no_error (error);
      player = komi_model_player_new ("model:/profiles/awkward.json", provider);

      settings = parse_object (player->settings, &settings_root);
      url = komi_provider_profile_dup_url (profile);
      g_assert_cmpstr (json_object_get_string_member (settings, "kind"), ==, "model");
      g_assert_cmpstr (json_object_get_string_member (settings, "api"), ==, "openai-chat");
      g_assert_cmpstr (json_object_get_string_member (settings, "url"), ==, url);
      g_assert_cmpstr (json_object_get_string_member (settings, "model"), ==, awkward[i]);
      g_assert_cmpstr (json_object_get_string_member (settings, "key_env"), ==,
                       "KOMI_TEST_KEY");
      /* Never the key. */
      g_assert_null (strstr (player->settings, "sk-test"));
    }
}

/* The random player's settings: the seed as a string of digits, whole. */
static void
test_random_settings (void)
{
  g_autoptr(KomiPlayer) player = komi_random_player_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  KomiGameSetup setup = { 0, };
  JsonObject *settings;

  setup.size = 9;
  setup.color = KOMI_BLACK;
  setup.seed = G_MAXUINT64;
  g_assert_true (komi_player_start_game (player, &setup, NULL, &error));
  g_assert_no_error (error);
  settings = parse_object (player->settings, &root);
  g_assert_cmpstr (json_object_get_string_member (settings, "kind"), ==, "random");
  g_assert_cmpstr (json_object_get_string_member (settings, "seed"), ==,
                   "18446744073709551615");
}

/* A run's end is recorded as JSON the library reads back: were it not
 * valid, the series would be offered as interrupted for ever. */
static void
test_run_end (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-json-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GError) error = NULL;

  store = komi_store_open (db, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (awkward); i++)
    {
      g_autoptr(GArray) interrupted = NULL;
      int fd = -1;

      g_assert_true (komi_store_begin_run (store, i + 1, &fd, &error));
      g_assert_no_error (error);
      g_assert_true (komi_store_end_run (store, i + 1, fd, awkward[i], &error));
      g_assert_no_error (error);
      interrupted = komi_store_list_interrupted (store, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (interrupted->len, ==, 0);
    }
  g_clear_pointer (&store, komi_store_unref);
  remove_test_dir (dir);
}

/* `komi-cli demo` writes a profile in a temporary folder and a series
 * naming it and the opponent: a folder and an opponent spec with quotes,
 * backslashes, newlines and non-ASCII in them are recorded as given. */
static void
test_cli_demo (void)
{
  g_autofree char *top = g_dir_make_tmp ("komi-json-XXXXXX", NULL);
  g_autofree char *tmp = g_build_filename (top, "tmp \"q\" \\b\\ \nGō 碁", NULL);
  g_autofree char *db = g_build_filename (tmp, "lib \"1\" \\ é.db", NULL);
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  const char *gnugo = g_getenv ("KOMI_GNUGO") != NULL ? g_getenv ("KOMI_GNUGO") : GNUGO_PATH;
  /* The same GNU Go level 1 that "gnugo:1" is, spelt with quotes, a
   * backslash and a newline that the shell-like parsing of gtp: removes. */
  g_autofree char *opponent = g_strdup_printf ("gtp:\"%s\" --mode \"gtp\"\n--level \\1", gnugo);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL, *want = NULL;
  KomiStoreSeries *s;

  if (!have_gnugo ())
    return;
  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "TMPDIR", tmp, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  proc = g_subprocess_launcher_spawn (launcher, &error, cli, "demo", "--quiet", "--pairs", "1",
                                      "--latency-ms", "0", "--db", db, "--opponent", opponent,
                                      NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);

  store = komi_store_open_reader (db, &error);
  g_assert_no_error (error);
  series = komi_store_list_series (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 1);
  s = g_ptr_array_index (series, 0);
  want = g_strconcat ("Demo: the rehearsal model against ", opponent, NULL);
  g_assert_cmpstr (s->name, ==, want);
  /* The profile was in the temporary folder, deleted since. */
  g_assert_true (g_str_has_prefix (s->subject, "model:"));
  g_assert_true (g_str_has_prefix (s->subject + strlen ("model:"), tmp));
  g_assert_cmpuint (s->n_games, ==, 2);
  g_assert_cmpuint (s->n_unfinished, ==, 0);

  /* Both players' recorded settings are JSON objects. */
  games = komi_store_list_games (store, s->id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (games->len, ==, 2);
  for (guint i = 0; i < games->len; i++)
    {
      KomiStoreGame *listed = g_ptr_array_index (games, i);
      g_autoptr(KomiStoreGame) game = komi_store_load_game (store, listed->id, &error);
      g_autoptr(JsonNode) black = NULL, white = NULL;

      g_assert_no_error (error);
      parse_object (game->black_settings, &black);
      parse_object (game->white_settings, &white);
    }
  g_clear_pointer (&store, komi_store_unref);
  remove_test_dir (tmp);
  g_rmdir (top);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/json/model-settings", test_model_settings);
  g_test_add_func ("/komi/json/random-settings", test_random_settings);
  g_test_add_func ("/komi/json/run-end", test_run_end);
  g_test_add_func ("/komi/json/cli-demo", test_cli_demo);

  return g_test_run ();
}
