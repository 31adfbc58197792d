/* main.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include "komi-application.h"
#include "komi-i18n.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(KomiApplication) app = NULL;

  komi_i18n_init ();
  app = komi_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
