/* komi-app-test-dialog.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-app-test-dialog.h"
#include "komi-settings.h"

void
app_test_present_dialog (gpointer dialog, gpointer *slot, int height)
{
  if (slot != NULL)
    g_object_add_weak_pointer (G_OBJECT (dialog), slot);
  if (height > 0)
    gtk_window_set_default_size (GTK_WINDOW (dialog), 560, height);
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (app_test_wait (app_test_has_size, dialog));
}

KomiOpponentDialog *
app_test_open_opponent_dialog (KomiSeriesDialog *series, gpointer *slot, int height)
{
  GtkWidget *opponents = app_test_child (series, KOMI_TYPE_SERIES_DIALOG, "opponents_row");
  KomiOpponentDialog *dialog = komi_opponent_dialog_new (GTK_WINDOW (series),
                                                         GTK_EDITABLE (opponents));

  if (slot != NULL)
    *slot = dialog;
  app_test_present_dialog (dialog, slot, height);
  return dialog;
}

void
app_test_reset_settings (const char * const *keys, gsize n_keys)
{
  g_autoptr(GSettings) settings = komi_settings_new ();

  for (gsize i = 0; i < n_keys; i++)
    g_settings_reset (settings, keys[i]);
}

const char *
app_test_error_under (gpointer dialog, GType type, const char *row)
{
  GtkWidget *below = gtk_widget_get_next_sibling (app_test_child (dialog, type, row));

  g_assert_true (ADW_IS_PREFERENCES_ROW (below));
  if (!gtk_widget_get_visible (below))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (below))));
}

void
app_test_assert_row_errors (gpointer            dialog,
                            GType               type,
                            const char * const *rows,
                            gsize               n_rows,
                            const char * const *wrong)
{
  for (gsize i = 0; i < n_rows; i++)
    {
      const char *words = NULL;
      const char *shown = app_test_error_under (dialog, type, rows[i]);

      for (gsize j = 0; wrong != NULL && wrong[j] != NULL; j += 2)
        if (g_str_equal (wrong[j], rows[i]))
          words = wrong[j + 1];
      g_assert_cmpint (gtk_widget_has_css_class (app_test_child (dialog, type, rows[i]),
                                                 "error"), ==, words != NULL);
      if (words == NULL)
        g_assert_null (shown);
      else if (shown == NULL || strstr (shown, words) == NULL)
        g_error ("under %s: “%s”, expected “%s”", rows[i], shown, words);
    }
}

static gboolean
is_scroller (GtkWidget *widget, gpointer data)
{
  return GTK_IS_SCROLLED_WINDOW (widget);
}

GtkScrolledWindow *
app_test_find_scroller (GtkWidget *widget)
{
  return GTK_SCROLLED_WINDOW (app_test_find_widget (widget, is_scroller, NULL));
}

gboolean
app_test_focus_in (gpointer data)
{
  AppTestFocus *watch = data;
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (watch->dialog));

  return focus != NULL && gtk_widget_is_ancestor (focus, watch->row);
}

gboolean
app_test_scrolled (gpointer adjustment)
{
  return gtk_adjustment_get_value (adjustment) > 0;
}

gboolean
app_test_check_done (gpointer label)
{
  const char *text = gtk_label_get_text (GTK_LABEL (label));

  return gtk_widget_get_visible (label) && *text != '\0' && strstr (text, "…") == NULL;
}

const char *
app_test_run_check (gpointer    dialog,
                    GType       type,
                    const char *action,
                    const char *label,
                    guint       seconds)
{
  GtkWidget *widget = app_test_child (dialog, type, label);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), action, NULL));
  g_assert_true (app_test_wait_seconds (app_test_check_done, widget, seconds));
  return gtk_label_get_text (GTK_LABEL (widget));
}

void
app_test_assert_check_idle (gpointer dialog, GType type)
{
  g_assert_false (gtk_widget_get_visible (app_test_child (dialog, type, "test_spinner")));
  g_assert_false (gtk_widget_get_visible (app_test_child (dialog, type, "cancel_test_button")));
}

void
app_test_assert_check_running (gpointer dialog, GType type)
{
  GtkWidget *spinner = app_test_child (dialog, type, "test_spinner");

  g_assert_true (gtk_widget_get_visible (spinner));
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  g_assert_true (gtk_widget_get_visible (app_test_child (dialog, type, "cancel_test_button")));
  g_assert_false (gtk_widget_get_sensitive (app_test_child (dialog, type, "test_button")));
}

gboolean
app_test_refs_back (gpointer data)
{
  AppTestRefs *w = data;

  return g_atomic_int_get ((int *) &w->object->ref_count) == (int) w->refs;
}

void
app_test_provider_fill (gpointer    dialog,
                        const char *base_url,
                        const char *key_name,
                        const char *key)
{
  GType type = G_OBJECT_TYPE (dialog);

  app_test_set_text (dialog, type, "model_row", "rehearsal-1");
  app_test_set_text (dialog, type, "base_url_row", base_url);
  if (key_name != NULL)
    app_test_set_text (dialog, type, "key_name_row", key_name);
  app_test_set_text (dialog, type, "key_row", key);
}

char *
app_test_rehearsal_url (KomiRehearsal *rehearsal)
{
  return g_strconcat (komi_rehearsal_get_base_url (rehearsal), "/v1", NULL);
}

gboolean
app_test_find_chooser (gpointer data)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_FILE_CHOOSER (l->data) && gtk_widget_get_visible (l->data))
      {
        *(GtkWidget **) data = l->data;
        return TRUE;
      }
  return FALSE;
}

gboolean
app_test_chooser_has_file (gpointer chooser)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (chooser);

  return file != NULL;
}
