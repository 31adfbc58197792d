/* main.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "komi-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(KomiApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = komi_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
