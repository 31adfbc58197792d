/* test-app-i18n.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "komi-app-test-util.h"
#include "komi-library.h"
#include "komi-record-text.h"
#include "komi-window.h"

/* The main window in another language, with the catalogues the build
 * compiled (po/), as `LANGUAGE=de _build/src/app/komi` shows it: the
 * sidebar's sections are translated where GtkBuilder reads the template. */

/* Some GtkLabel under @widget reads @text. */
static gboolean
has_label (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_label (child, text))
      return TRUE;
  return FALSE;
}

/* Switches the messages to @language: gettext reads LANGUAGE again once
 * setlocale() has run (and ignores it in the plain "C" locale). A
 * setlocale() to the locale already set keeps the translations gettext
 * has looked up; textdomain() forgets them. */
static void
use_language (const char *language)
{
  g_setenv ("LANGUAGE", language, TRUE);
  setlocale (LC_MESSAGES, "C.UTF-8");
  textdomain (textdomain (NULL));
}

static void
test_window_in (gconstpointer data)
{
  const char * const *expect = data;   /* language, sidebar label, English label */
  g_autofree char *dir = g_dir_make_tmp ("komi-i18n-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "library.db", NULL);
  g_autoptr(KomiLibrary) library = komi_library_new (path);
  KomiWindow *window;

  use_language (expect[0]);
  g_assert_cmpstr (_("Series"), ==, expect[1]);

  window = komi_window_new (NULL, library);
  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_has_size, window));
  g_assert_true (has_label (GTK_WIDGET (window), expect[1]));
  g_assert_false (has_label (GTK_WIDGET (window), expect[2]));
  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
}

/* The review window's count is in the user's language; the record's
 * count (the SGF's last comment) stays English. A stored call outcome is
 * shown translated. */
static void
test_score_in (gconstpointer data)
{
  const char * const *expect = data;   /* language, the count shown */
  KomiScore score = {
    .black_stones = 44, .black_territory = 37, .black_total = 81,
    .white_stones = 0, .white_territory = 0, .komi = 7, .white_total = 7,
    .winner = KOMI_BLACK, .margin = 74, .white_dead = 2,
  };
  g_autofree char *shown = NULL;
  g_autofree char *recorded = NULL;

  use_language (expect[0]);
  shown = komi_record_text_score (&score);
  recorded = komi_score_describe (&score);
  g_assert_cmpstr (shown, ==, expect[1]);
  g_assert_cmpstr (recorded, ==, "X: 44 stones + 37 territory = 81; O: 0 stones + 0 territory "
                   "+ komi 7 = 7; X wins by 74 (dead removed: 0 X, 2 O)");
  g_assert_cmpstr (komi_record_text_outcome ("invalid-option"), ==, expect[2]);
  g_assert_cmpstr (komi_record_text_outcome ("no-such-outcome"), ==, "no-such-outcome");
}

int
main (int argc, char *argv[])
{
  static const char *german[] = { "de", "Serien", "Series" };
  static const char *chinese[] = { "zh_CN", "系列", "Series" };
  static const char *german_score[] = {
    "de", "Schwarz: 44 Steine + 37 Gebiet = 81; Weiß: 0 Steine + 0 Gebiet + Komi 7 = 7; "
    "Schwarz gewinnt mit 74; tote Steine entfernt: 0 schwarze, 2 weiße", "ungültige Option"
  };
  static const char *chinese_score[] = {
    "zh_CN", "黑方：44 子 + 37 目 = 81；白方：0 子 + 0 目 + 贴目 7 = 7；黑方胜 74；"
    "已提除死子：黑 0，白 2", "无效选项"
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, KOMI_BUILD_LOCALE_DIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* GLib decides once, at the first g_dgettext(), whether to translate at
   * all: not when the locale is neither C nor en_* and the default domain
   * has no catalogue. So a catalogue is in use before GTK starts (and its
   * gtk_test_init() sets the locale again). */
  use_language ("de");
  app_test_init (&argc, &argv);
  use_language ("de");

  g_test_add_data_func ("/komi/app/i18n/german", german, test_window_in);
  g_test_add_data_func ("/komi/app/i18n/chinese", chinese, test_window_in);
  g_test_add_data_func ("/komi/app/i18n/score-german", german_score, test_score_in);
  g_test_add_data_func ("/komi/app/i18n/score-chinese", chinese_score, test_score_in);
  return g_test_run ();
}
