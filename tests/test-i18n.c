/* test-i18n.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "komi-export.h"
#include "komi-provider-profile.h"
#include "komi-sgf-record.h"
#include "komi-store-test-util.h"
#include "komi-test-play.h"

/* The core libraries in two languages: what a person reads (a bad series
 * file, profile, SGF file or library) follows LANGUAGE, through the
 * catalogues this build compiled; what is recorded (the SGF, the library,
 * a void reason, the count in the game's comment) is the same bytes in
 * German as in English. */

static const char *fake_engine;

/* Switches the messages' language; NULL is the untranslated English. */
static void
use_language (const char *language)
{
  if (language != NULL)
    g_setenv ("LANGUAGE", language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  setlocale (LC_MESSAGES, "");
  /* gettext keeps what it has looked up across a setlocale() to the same
   * locale; textdomain() makes it forget. */
  textdomain (textdomain (NULL));
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Fails at the first byte where @got differs from @want, with its context. */
static void
assert_same_bytes (const char *got, const char *want)
{
  gsize i = 0;

  while (got[i] != '\0' && got[i] == want[i])
    i++;
  if (got[i] != want[i])
    g_error ("the records differ at byte %" G_GSIZE_FORMAT ": “%.80s” against “%.80s”", i,
             got + (i > 40 ? i - 40 : 0), want + (i > 40 ? i - 40 : 0));
}

static char *
error_message (GError *error)
{
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

static void
assert_contains (const char *text, const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("“%s” does not contain “%s”", text, part);
}

/* A series, a profile, a player, an SGF file and a library, each wrong in
 * a way a user makes; their messages in the language of the moment. */
static char **
user_errors (const char *dir)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new ();
  g_autoptr(JsonNode) profile = json_from_string ("{\"name\": \"x\", \"api\": \"telnet\"}",
                                                  NULL);
  g_autofree char *not_library = g_build_filename (dir, "notes.txt", NULL);
  GError *error = NULL;

  g_assert_null (komi_series_new_from_json ("[]", -1, &error));
  g_ptr_array_add (messages, error_message (error));
  g_clear_error (&error);
  g_assert_null (komi_provider_profile_new_from_json (profile, &error));
  g_ptr_array_add (messages, error_message (error));
  g_clear_error (&error);
  g_assert_null (komi_player_new_from_spec ("nobody", NULL, &error));
  g_ptr_array_add (messages, error_message (error));
  g_clear_error (&error);
  g_assert_null (komi_sgf_record_from_text ("(;GM[1]SZ[9:5])", 15, &error));
  g_ptr_array_add (messages, error_message (error));
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (not_library, "Not a database, but a long enough text "
                                      "file that SQLite reads its header and gives up.\n",
                                      -1, NULL));
  g_assert_null (komi_store_open (not_library, &error));
  g_ptr_array_add (messages, error_message (error));
  g_clear_error (&error);
  g_ptr_array_add (messages, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&messages), FALSE);
}

static void
test_errors_german (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-i18n-XXXXXX", NULL);
  g_auto(GStrv) de = NULL;
  g_auto(GStrv) en = NULL;

  use_language ("de");
  de = user_errors (dir);
  use_language (NULL);
  en = user_errors (dir);

  assert_contains (de[0], "Die Serie muss ein JSON-Objekt sein");
  assert_contains (en[0], "The series must be a JSON object");
  assert_contains (de[1], "„api“: muss eines von");
  assert_contains (en[1], "“api”: must be one of");
  assert_contains (de[2], "Unbekannter Spieler „nobody“");
  assert_contains (en[2], "Unknown player “nobody”");
  assert_contains (de[3], "Zeile 1, Spalte");
  assert_contains (de[3], "Rechteckige Bretter werden nicht unterstützt");
  assert_contains (en[3], "rectangular boards are not supported");
  assert_contains (de[4], "ist keine Komi-Bibliothek");
  assert_contains (en[4], "is not a Komi library");
  remove_test_dir (dir);
}

/* Everything a game leaves behind, as one text: its comment, its SGF and
 * its void reason, for a counted game and two void ones (an engine's
 * illegal move, an engine that crashed); then a library's SGF export. */
static char *
records (const char *dir)
{
  static const char *const faults[] = { NULL, "--illegal", "--crash-after 3" };
  g_autoptr(GString) all = g_string_new (NULL);
  g_autoptr(TestSeries) series = test_series_new ("records", 5, 1);
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) files = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *sgf_dir = g_build_filename (dir, "sgf", NULL);
  KomiSeriesSink *sink;
  gint64 series_id;
  const char *name;

  for (guint i = 0; i < G_N_ELEMENTS (faults); i++)
    {
      g_autofree char *white = faults[i] == NULL ? g_strdup ("random")
                               : g_strconcat ("gtp:", fake_engine, " ", faults[i], NULL);
      g_autoptr(KomiGameRecord) record = play_game ("random", white, NULL, 3, NULL);
      g_autofree char *comment = komi_game_record_describe (record);
      g_autofree char *sgf = komi_game_record_to_sgf (record);

      g_string_append_printf (all, "%s\n%s\n%s\n", comment, sgf,
                              record->void_reason != NULL ? record->void_reason : "");
    }

  /* The library: one game played to its count, one stopped after five
   * moves, exported as SGF. */
  store = komi_store_open (db, &error);
  g_assert_no_error (error);
  sink = komi_store_new_sink (store);
  g_assert_true (sink->klass->begin_series (sink, &series->series, series->plan, &series_id,
                                            &error));
  g_assert_no_error (error);
  komi_game_record_free (sink_play_game (sink, test_planned (series, 0), 0));
  g_assert_null (sink_play_game (sink, test_planned (series, 1), 5));
  komi_store_sink_free (sink);
  g_assert_true (komi_export_sgf (store, series_id, sgf_dir, NULL, &error));
  g_assert_no_error (error);

  files = g_dir_open (sgf_dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (files)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_assert_cmpuint (names->len, ==, 2);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (sgf_dir, g_ptr_array_index (names, i), NULL);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (path, &text, NULL, &error));
      g_string_append_printf (all, "%s\n%s\n", (char *) g_ptr_array_index (names, i), text);
    }
  return g_string_free (g_steal_pointer (&all), FALSE);
}

static void
test_records_english (void)
{
  g_autofree char *dir_de = g_dir_make_tmp ("komi-i18n-de-XXXXXX", NULL);
  g_autofree char *dir_en = g_dir_make_tmp ("komi-i18n-en-XXXXXX", NULL);
  g_autofree char *de = NULL;
  g_autofree char *en = NULL;

  if (fake_engine == NULL)
    {
      g_test_skip ("no fake engine given");
      return;
    }
  use_language ("de");
  /* Not a vacuous pass: German is on while the German records are made. */
  g_assert_cmpstr (_("Cannot read the library"), ==, "Die Bibliothek kann nicht gelesen werden");
  de = records (dir_de);
  use_language (NULL);
  en = records (dir_en);

  assert_same_bytes (de, en);
  /* And the words are the records' English ones. */
  assert_contains (en, "stones + ");
  assert_contains (en, "two passes");
  assert_contains (en, "the point is occupied");
  assert_contains (en, "exited with status 3");
  remove_test_dir (dir_de);
  remove_test_dir (dir_en);
}

int
main (int argc, char **argv)
{
  /* gettext ignores LANGUAGE in the C locale (see src/app/main.c);
   * C.UTF-8 is C but for that. */
  g_unsetenv ("LC_ALL");
  g_setenv ("LC_MESSAGES", "C.UTF-8", TRUE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, KOMI_BUILD_LOCALE_DIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  g_test_init (&argc, &argv, NULL);
  fake_engine = argc > 1 ? argv[1] : NULL;
  g_test_add_func ("/komi/i18n/errors-german", test_errors_german);
  g_test_add_func ("/komi/i18n/records-english", test_records_english);
  return g_test_run ();
}
