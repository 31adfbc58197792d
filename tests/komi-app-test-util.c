/* komi-app-test-util.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-app-test-util.h"

gboolean
app_test_log_filter (const char     *log_domain,
                     GLogLevelFlags  log_level,
                     const char     *message,
                     gpointer        user_data)
{
  return strstr (message, "session bus") == NULL;
}

void
app_test_init (int *argc, char ***argv)
{
  g_setenv ("GSK_RENDERER", "cairo", FALSE);   /* Xvfb has no GPU */
  g_setenv ("GTK_A11Y", "none", FALSE);
  gtk_test_init (argc, argv, NULL);
  g_test_log_set_fatal_handler (app_test_log_filter, NULL);
  adw_init ();
}

gboolean
app_test_wait_seconds (AppTestCondition cond, gpointer data, guint seconds)
{
  gint64 end = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

gboolean
app_test_wait (AppTestCondition cond, gpointer data)
{
  return app_test_wait_seconds (cond, data, 60);
}

gboolean
app_test_has_size (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 1;
}

GtkWidget *
app_test_child (gpointer dialog, GType type, const char *name)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (dialog), type, name));
}

void
app_test_set_text (gpointer dialog, GType type, const char *row, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (app_test_child (dialog, type, row)), text);
}

void
app_test_assert_marked (gpointer dialog, GType type, const char * const *rows, gsize n_rows,
                        const char *row, const char *expected)
{
  GtkWidget *error_label = app_test_child (dialog, type, "error_label");

  for (gsize i = 0; i < n_rows; i++)
    g_assert_cmpint (gtk_widget_has_css_class (app_test_child (dialog, type, rows[i]), "error"),
                     ==, row != NULL && g_str_equal (rows[i], row));
  g_assert_cmpint (gtk_widget_get_visible (error_label), ==, row != NULL);
  if (row != NULL)
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (error_label)), expected));
}

cairo_surface_t *
app_test_render (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  /* The paintable has nothing to give until the widget has been drawn
   * once: the main loop runs until it has (a minute at most). */
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (node == NULL && g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node == NULL)
        g_usleep (1000);
    }
  g_assert_nonnull (node);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

void
app_test_compare (cairo_surface_t *a,
                  cairo_surface_t *b,
                  int              threshold,
                  double          *whole,
                  double          *worst_tile)
{
  int w = cairo_image_surface_get_width (a);
  int h = cairo_image_surface_get_height (a);
  int tiles_x = (w + APP_TEST_TILE - 1) / APP_TEST_TILE;
  int tiles_y = (h + APP_TEST_TILE - 1) / APP_TEST_TILE;
  g_autofree guint *tiles = NULL;
  guint differing = 0, worst = 0;

  *whole = *worst_tile = 1.0;
  if (w != cairo_image_surface_get_width (b) || h != cairo_image_surface_get_height (b))
    return;
  tiles = g_new0 (guint, tiles_x * tiles_y);
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  for (int y = 0; y < h; y++)
    {
      const guint8 *ra = cairo_image_surface_get_data (a) + y * cairo_image_surface_get_stride (a);
      const guint8 *rb = cairo_image_surface_get_data (b) + y * cairo_image_surface_get_stride (b);

      for (int x = 0; x < w; x++)
        for (int c = 0; c < 4; c++)
          if (ABS ((int) ra[4 * x + c] - (int) rb[4 * x + c]) > threshold)
            {
              differing++;
              tiles[(y / APP_TEST_TILE) * tiles_x + x / APP_TEST_TILE]++;
              break;
            }
    }
  for (int i = 0; i < tiles_x * tiles_y; i++)
    worst = MAX (worst, tiles[i]);
  *whole = (double) differing / ((double) w * h);
  *worst_tile = (double) worst / (APP_TEST_TILE * APP_TEST_TILE);
}

static const char * const katago_variables[] = {
  "KOMI_KATAGO", "KOMI_KATAGO_MODEL", "KOMI_KATAGO_CONFIG",
};
static char *katago_kept[G_N_ELEMENTS (katago_variables)];

void
app_test_katago_keep (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (katago_variables); i++)
    {
      g_free (katago_kept[i]);
      katago_kept[i] = g_strdup (g_getenv (katago_variables[i]));
    }
}

const char * const *
app_test_katago (void)
{
  return katago_kept[0] != NULL ? (const char * const *) katago_kept : NULL;
}

gboolean
app_test_katago_restore (void)
{
  if (katago_kept[0] == NULL)
    {
      g_test_skip ("KOMI_KATAGO is not set");
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (katago_variables); i++)
    g_setenv (katago_variables[i], katago_kept[i], TRUE);
  return TRUE;
}

void
app_test_unset_katago (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (katago_variables); i++)
    g_unsetenv (katago_variables[i]);
}

gboolean
app_test_job_started (gpointer window)
{
  return komi_window_get_job (window) != NULL;
}

gboolean
app_test_job_over (gpointer window)
{
  KomiSeriesJob *job = komi_window_get_job (window);

  return job != NULL && !komi_series_job_get_running (job);
}

void
app_window_fixture_open (AppWindowFixture *f, const char *dir_template)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLibrary) library = NULL;

  f->dir = g_dir_make_tmp (dir_template, &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "library.db", NULL);
  library = komi_library_new (f->path);
  f->window = komi_window_new (NULL, library);
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (f->window));
}

void
app_window_fixture_close (AppWindowFixture *f)
{
  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  remove_test_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

GtkWidget *
app_test_find_widget (GtkWidget  *widget,
                      gboolean  (*match) (GtkWidget *widget, gpointer data),
                      gpointer    data)
{
  if (match (widget, data))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = app_test_find_widget (c, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A menu's items are made when it first opens. */
static void
build_menus (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget))
      && gtk_widget_get_mapped (widget))
    {
      gtk_menu_button_popup (GTK_MENU_BUTTON (widget));
      gtk_menu_button_popdown (GTK_MENU_BUTTON (widget));
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    build_menus (c);
}

/* Menu items (GtkModelButton, whose action the menu keeps to itself) by
 * their text. */
static void
collect_items (GtkWidget *widget, const char *label, guint *found, guint *sensitive)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkModelButton"))
    {
      g_autofree char *text = NULL;
      g_autoptr(GString) plain = g_string_new (label);

      /* The item's text has its mnemonic's underscore taken out. */
      g_string_replace (plain, "_", "", 0);
      g_object_get (widget, "text", &text, NULL);
      if (g_strcmp0 (text, plain->str) == 0)
        {
          (*found)++;
          *sensitive += gtk_widget_get_sensitive (widget);
        }
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_items (c, label, found, sensitive);
}

gboolean
app_test_item_sensitive (GtkWidget *widget, const char *label)
{
  guint found = 0, sensitive = 0;

  build_menus (widget);
  collect_items (widget, label, &found, &sensitive);
  if (found == 0)
    g_error ("no menu under %s has an item %s", G_OBJECT_TYPE_NAME (widget), label);
  /* All or none: one action, one state. */
  g_assert_true (sensitive == 0 || sensitive == found);
  return sensitive > 0;
}

GtkWindow *
app_test_find_toplevel (GType type)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type) && gtk_widget_get_visible (l->data)
        && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

gboolean
app_test_review_loaded (gpointer window)
{
  return komi_review_window_get_review (window) != NULL;
}

KomiReviewWindow *
app_test_open_review (GtkWindow *parent, KomiLibrary *library, gint64 id)
{
  KomiReviewWindow *window = komi_review_window_new (parent, library, id);

  gtk_window_set_default_size (GTK_WINDOW (window), 1366, 740);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (app_test_review_loaded, window));
  return window;
}
