/* komi-i18n.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi"

#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "komi-i18n.h"

/* Where the catalogues are. A komi or komi-cli run from the build tree
 * reads the ones the build compiled (so `LANGUAGE=de _build/src/app/komi`
 * is German); an installed one reads BINDIR/../LOCALEDIR, which is
 * LOCALEDIR itself unless the installation was moved (meson install
 * --destdir, a relocated prefix), and LOCALEDIR when the binary's own path
 * cannot be read. */
static char *
find_locale_dir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *bindir = NULL;
  g_autofree char *relative = NULL;

  if (exe == NULL)
    return g_strdup (LOCALEDIR);
  if (g_str_has_prefix (exe, KOMI_BUILD_ROOT "/"))
    return g_strdup (KOMI_BUILD_LOCALE_DIR);
  bindir = g_path_get_dirname (exe);
  relative = g_build_filename (bindir, KOMI_RELATIVE_LOCALE_DIR, NULL);
  if (g_path_is_absolute (KOMI_RELATIVE_LOCALE_DIR)
      || !g_file_test (relative, G_FILE_TEST_IS_DIR))
    return g_strdup (LOCALEDIR);
  return g_canonicalize_filename (relative, NULL);
}

void
komi_i18n_init (void)
{
  g_autofree char *locale_dir = NULL;
  const char *messages;

  setlocale (LC_ALL, "");
  /* gettext ignores LANGUAGE in the "C" locale, the one a bare session or
   * a test runner often has; C.UTF-8 is C everywhere but there. Set in the
   * environment too, as gtk_init() calls setlocale (LC_ALL, "") again. */
  messages = setlocale (LC_MESSAGES, NULL);
  if (g_getenv ("LANGUAGE") != NULL && g_getenv ("LC_ALL") == NULL && messages != NULL
      && (strcmp (messages, "C") == 0 || strcmp (messages, "POSIX") == 0))
    {
      g_setenv ("LC_MESSAGES", "C.UTF-8", TRUE);
      setlocale (LC_MESSAGES, "");
    }

  locale_dir = find_locale_dir ();
  bindtextdomain (GETTEXT_PACKAGE, locale_dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
