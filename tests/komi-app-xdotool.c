/* komi-app-xdotool.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-app-xdotool.h"

char *xdotool ;

char *
xdotool_keys (const char *accelerator)
{
  guint keyval;
  GdkModifierType mods;
  GString *keys = g_string_new (NULL);

  g_assert_true (gtk_accelerator_parse (accelerator, &keyval, &mods));
  if (mods & GDK_CONTROL_MASK)
    g_string_append (keys, "ctrl+");
  if (mods & GDK_ALT_MASK)
    g_string_append (keys, "alt+");
  if (mods & GDK_SHIFT_MASK)
    g_string_append (keys, "shift+");
  g_string_append (keys, gdk_keyval_name (keyval));
  return g_string_free (keys, FALSE);
}

void
xdotool_run (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_ptr_array_add (argv, xdotool);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("xdotool %s: %s", args[0], err);
}

gboolean
window_active (gpointer window)
{
  return gtk_window_is_active (window);
}

void
xdotool_focus (gpointer window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_autofree char *xid = NULL;

  g_assert_true (GDK_IS_X11_SURFACE (surface));
  xid = g_strdup_printf ("%lu", (unsigned long) gdk_x11_surface_get_xid (surface));
  xdotool_run ((const char *[]) { "windowfocus", "--sync", xid, NULL });
  g_assert_true (app_test_wait (window_active, window));
}
