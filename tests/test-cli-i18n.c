/* test-cli-i18n.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "komi-test-cli.h"

/* komi-cli in German and Chinese, as LANGUAGE asks: its help and its
 * errors are translated, while what scripts read (JSON, SGF, JSON Lines,
 * CSV) is byte for byte what it is in English. */

/* Runs komi-cli with LANGUAGE=@language (unset when NULL) and the
 * NULL-terminated arguments. */
static void
run_in (KomiCliRun *run, const char *language, ...)
{
  va_list ap;

  va_start (ap, language);
  run->status = run_komi_cli_language_va (language, &run->out, &run->err, ap);
  va_end (ap);
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* `komi-cli --help` and a command's --help speak the language asked for;
 * command and option names stay as typed. */
static void
test_help (void)
{
  g_auto(KomiCliRun) en = { 0, };
  g_auto(KomiCliRun) de = { 0, };
  g_auto(KomiCliRun) zh = { 0, };
  g_auto(KomiCliRun) de_export = { 0, };
  g_auto(KomiCliRun) zh_export = { 0, };

  run_in (&en, NULL, "--help", NULL);
  g_assert_cmpint (en.status, ==, 0);
  g_assert_true (g_str_has_prefix (en.out, "Usage: komi-cli COMMAND [OPTION…]\n"));
  g_assert_nonnull (strstr (en.out, "  ratings   the ladder and each subject's rating"));

  run_in (&de, "de", "--help", NULL);
  g_assert_cmpint (de.status, ==, 0);
  g_assert_true (g_str_has_prefix (de.out, "Aufruf: komi-cli BEFEHL [OPTION…]\n"));
  g_assert_nonnull (strstr (de.out, "\nBefehle:\n"));
  g_assert_nonnull (strstr (de.out, "  ratings   die Leiter und die Wertung jedes Prüflings"));
  g_assert_null (strstr (de.out, "Usage"));

  run_in (&zh, "zh_CN", "--help", NULL);
  g_assert_cmpint (zh.status, ==, 0);
  g_assert_true (g_str_has_prefix (zh.out, "用法：komi-cli 命令 [选项…]\n"));
  g_assert_nonnull (strstr (zh.out, "  export    把对局库中的对局写成 SGF"));

  /* GOptionContext's texts: the summary, the description, the options. */
  run_in (&de_export, "de", "export", "--help", NULL);
  g_assert_cmpint (de_export.status, ==, 0);
  g_assert_nonnull (strstr (de_export.out,
                            "- die Partien der Bibliothek als SGF, JSON Lines und CSV schreiben"));
  g_assert_nonnull (strstr (de_export.out, "--db=PFAD"));
  g_assert_nonnull (strstr (de_export.out, "Eine SGF-Datei pro Partie in diesen Ordner"));
  g_assert_nonnull (strstr (de_export.out, "Mindestens eine der Optionen --sgf, --calls und "
                                           "--csv wird gebraucht."));
  run_in (&zh_export, "zh_CN", "export", "--help", NULL);
  g_assert_cmpint (zh_export.status, ==, 0);
  g_assert_nonnull (strstr (zh_export.out, "--series=ID"));
  g_assert_nonnull (strstr (zh_export.out, "只导出这个系列"));
}

/* A bad argument is refused in the user's language, with the same exit
 * status and the option names as they are typed. */
static void
test_errors (void)
{
  g_auto(KomiCliRun) en = { 0, };
  g_auto(KomiCliRun) de = { 0, };
  g_auto(KomiCliRun) de_orientation = { 0, };
  g_auto(KomiCliRun) zh_unknown = { 0, };

  run_in (&en, NULL, "play", "--black", "random", NULL);
  g_assert_cmpint (en.status, ==, 2);
  g_assert_cmpstr (en.err, ==, "komi-cli play: give both players, e.g. --black gnugo:1 "
                               "--white random\n");
  run_in (&de, "de", "play", "--black", "random", NULL);
  g_assert_cmpint (de.status, ==, 2);
  g_assert_cmpstr (de.out, ==, "");
  g_assert_cmpstr (de.err, ==, "komi-cli play: geben Sie beide Spieler an, z. B. --black "
                               "gnugo:1 --white random\n");

  run_in (&de_orientation, "de", "request", "--orientation", "9", NULL);
  g_assert_cmpint (de_orientation.status, ==, 2);
  g_assert_cmpstr (de_orientation.err, ==, "komi-cli request: --orientation muss von 0 bis 7 "
                                           "sein, nicht 9\n");

  run_in (&zh_unknown, "zh_CN", "frobnicate", NULL);
  g_assert_cmpint (zh_unknown.status, ==, 2);
  g_assert_cmpstr (zh_unknown.err, ==, "komi-cli: 未知命令 'frobnicate'；运行 'komi-cli "
                                       "--help' 查看列表。\n");
}

/* Writes the library's exports with LANGUAGE=@language into @dir. */
static void
export_in (const char *language, const char *db, const char *dir, char **said)
{
  g_autofree char *sgf = g_build_filename (dir, "sgf", NULL);
  g_autofree char *calls = g_build_filename (dir, "calls.jsonl", NULL);
  g_autofree char *csv = g_build_filename (dir, "results.csv", NULL);
  g_auto(KomiCliRun) run = { 0, };

  run_in (&run, language, "export", "--db", db, "--sgf", sgf, "--calls", calls, "--csv", csv,
          NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  *said = g_steal_pointer (&run.out);
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char **) a, *(char **) b);
}

/* What export_in() wrote into @dir, as paths below it, sorted. */
static GPtrArray *
list_exported (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "sgf", NULL);
  g_autoptr(GDir) listing = g_dir_open (path, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    g_ptr_array_add (names, g_build_filename ("sgf", name, NULL));
  g_ptr_array_add (names, g_strdup ("calls.jsonl"));
  g_ptr_array_add (names, g_strdup ("results.csv"));
  g_ptr_array_sort (names, compare_paths);
  return names;
}

/* Output for scripts is the same in every language: `request --json`,
 * `ratings --json`, and the SGF, JSON Lines and CSV of `export` over a
 * library that a German demo (model calls and all) and an import wrote. */
static void
test_machine_output (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-cli-i18n-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *en_dir = g_build_filename (dir, "en", NULL);
  g_autofree char *de_dir = g_build_filename (dir, "de", NULL);
  g_autofree char *sgf = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests", "sgf",
                                           "cgos.sgf", NULL);
  g_autofree char *results = g_build_filename (dir, "results.csv", NULL);
  g_autofree char *en_said = NULL, *de_said = NULL;
  g_autoptr(GPtrArray) en_files = NULL, de_files = NULL;
  g_auto(KomiCliRun) demo = { 0, };
  g_auto(KomiCliRun) import = { 0, };
  g_auto(KomiCliRun) en_request = { 0, };
  g_auto(KomiCliRun) de_request = { 0, };
  g_auto(KomiCliRun) en_ratings = { 0, };
  g_auto(KomiCliRun) zh_ratings = { 0, };

  run_in (&en_request, NULL, "request", "--moves", "E5 C3", "--json", NULL);
  run_in (&de_request, "de", "request", "--moves", "E5 C3", "--json", NULL);
  g_assert_cmpint (en_request.status, ==, 0);
  g_assert_cmpint (de_request.status, ==, 0);
  g_assert_true (g_str_has_prefix (en_request.out, "{\n"));
  g_assert_cmpstr (de_request.out, ==, en_request.out);

  g_assert_true (g_file_set_contents (results,
                                      "protocol,black,white,winner,subject\n"
                                      "1,random,gnugo:1,white,\n"
                                      "1,gnugo:1,random,black,\n"
                                      "1,random,gnugo:1,black,\n"
                                      "1,model-x,random,black,black\n"
                                      "1,random,model-x,black,white\n", -1, NULL));
  run_in (&en_ratings, NULL, "ratings", "--results", results, "--json", NULL);
  run_in (&zh_ratings, "zh_CN", "ratings", "--results", results, "--json", NULL);
  g_assert_cmpint (en_ratings.status, ==, 0);
  g_assert_cmpint (zh_ratings.status, ==, 0);
  g_assert_nonnull (strstr (en_ratings.out, "\"model-x\""));
  g_assert_cmpstr (zh_ratings.out, ==, en_ratings.out);

  run_in (&demo, "de", "demo", "--opponent", "random", "--latency-ms", "0", "--quiet",
          "--db", db, NULL);
  g_assert_cmpint (demo.status, ==, 0);
  g_assert_nonnull (strstr (demo.out, "2 Partien gespielt; das Modell machte "));
  run_in (&import, NULL, "import", "--db", db, sgf, NULL);
  g_assert_cmpint (import.status, ==, 0);

  export_in (NULL, db, en_dir, &en_said);
  export_in ("de", db, de_dir, &de_said);
  /* The sentences about the files are German; the files are not. */
  g_assert_nonnull (strstr (en_said, "Wrote 4 SGF files to "));
  g_assert_nonnull (strstr (de_said, "4 SGF-Dateien nach "));
  en_files = list_exported (en_dir);
  de_files = list_exported (de_dir);
  g_assert_cmpuint (en_files->len, ==, 4 + 2);
  g_assert_cmpuint (de_files->len, ==, en_files->len);
  for (guint i = 0; i < en_files->len; i++)
    {
      g_autofree char *en_path = g_build_filename (en_dir, en_files->pdata[i], NULL);
      g_autofree char *de_path = g_build_filename (de_dir, de_files->pdata[i], NULL);
      g_autofree char *en_text = read_file (en_path);
      g_autofree char *de_text = read_file (de_path);

      g_assert_cmpstr (de_files->pdata[i], ==, en_files->pdata[i]);
      g_assert_cmpstr (de_text, ==, en_text);
      /* What the German demo wrote into the library is not German either. */
      if (g_strcmp0 (en_files->pdata[i], "results.csv") == 0)
        g_assert_nonnull (strstr (en_text, ",Demo: the rehearsal model against random,"));
      if (g_strcmp0 (en_files->pdata[i], "calls.jsonl") == 0)
        g_assert_nonnull (strstr (en_text, "\"question\":\"play_or_pass\""));
      g_unlink (en_path);
      g_unlink (de_path);
    }
  for (const char *const *sub = (const char *const[]) { "en/sgf", "de/sgf", "en", "de", NULL };
       *sub != NULL; sub++)
    {
      g_autofree char *path = g_build_filename (dir, *sub, NULL);

      g_rmdir (path);
    }
  remove_test_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/cli-i18n/help", test_help);
  g_test_add_func ("/komi/cli-i18n/errors", test_errors);
  g_test_add_func ("/komi/cli-i18n/machine-output", test_machine_output);

  return g_test_run ();
}
