/* app-screenshots.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "komi-app-test-util.h"
#include "komi-window.h"

/* Screenshots of the main window for data/screenshots/: each section, light
 * and dark, on a 1366x768 screen, taken with ImageMagick's `import -window
 * root` as a person would see them. Not a test: run it by hand under Xvfb,
 *
 *   xvfb-run -a -s "-screen 0 1366x768x24" _build/tests/app-screenshots \
 *     --db LIBRARY.db data/screenshots
 *
 * and look at every image it writes. */

typedef struct
{
  const char *name;
  const char *page;
  gboolean    dark;
  int         width;    /* 0: the window's default size */
  gboolean    missing;  /* a library that does not exist yet */
} Shot;

static const Shot shots[] = {
  { "series-light", "series", FALSE, 0, FALSE },
  { "series-dark", "series", TRUE, 0, FALSE },
  { "players-light", "players", FALSE, 0, FALSE },
  { "ladder-light", "ladder", FALSE, 0, FALSE },
  { "series-folded", "series", FALSE, 640, FALSE },   /* as narrow as it goes */
  { "first-start-dark", "series", TRUE, 0, TRUE },
};

static gboolean
settled (gpointer library)
{
  return komi_library_get_state (library) != KOMI_LIBRARY_STATE_LOADING;
}

static gboolean
game_shown (gpointer page)
{
  guint step;
  const KomiReplay *replay = komi_series_page_get_replay (page, &step);

  return replay != NULL && step + 1 == replay->n_steps;
}

static gboolean
elapsed (gpointer end)
{
  return g_get_monotonic_time () > *(gint64 *) end;
}

static void
pause_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  app_test_wait (elapsed, &end);
}

static gboolean
take (const Shot *shot, const char *db, const char *dir, GError **error)
{
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "komi-no-library",
                                               "library.db", NULL);
  g_autoptr(KomiLibrary) library = komi_library_new (shot->missing ? missing : db);
  g_autofree char *out = g_strdup_printf ("%s/%s.png", dir, shot->name);
  const char *argv[] = { "import", "-window", "root", out, NULL };
  KomiWindow *window;
  int status;

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      shot->dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                 : ADW_COLOR_SCHEME_FORCE_LIGHT);
  window = komi_window_new (NULL, library);
  if (shot->width > 0)
    gtk_window_set_default_size (GTK_WINDOW (window), shot->width, 700);
  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (window));
  if (!app_test_wait (settled, library))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "the library did not load");
      return FALSE;
    }
  komi_window_show_page (window, shot->page);
  if (!shot->missing && g_str_equal (shot->page, "series")
      && komi_series_page_select (komi_window_get_series_page (window), 0, 2))
    app_test_wait (game_shown, komi_window_get_series_page (window));
  pause_ms (700);   /* the stack's crossfade and a frame */

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                     &status, error)
      || !g_spawn_check_wait_status (status, error))
    return FALSE;
  printf ("%s\n", out);
  gtk_window_destroy (GTK_WINDOW (window));
  pause_ms (200);
  return TRUE;
}

int
main (int argc, char *argv[])
{
  g_autofree char *db = NULL;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "The library to show", "PATH" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("OUTPUT-FOLDER");
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || db == NULL || argc != 2)
    {
      fprintf (stderr, "usage: app-screenshots --db LIBRARY OUTPUT-FOLDER (under xvfb-run)\n");
      return 2;
    }
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  gtk_init ();
  adw_init ();
  for (guint i = 0; i < G_N_ELEMENTS (shots); i++)
    if (!take (&shots[i], db, argv[1], &error))
      {
        fprintf (stderr, "app-screenshots: %s: %s\n", shots[i].name, error->message);
        return 1;
      }
  return 0;
}
