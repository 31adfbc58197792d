/* komi-opponent-dialog-files.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "komi-opponent-dialog-private.h"

/* The opponent dialog's file choosers: KataGo's three files and a GTP
 * program, each starting in the folder of the file its row names. */

static char *
text_of (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

/* A path as a shell word: quoted only when it has to be. */
static char *
shell_word (const char *path)
{
  for (const char *p = path; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("/._+-=:,@%", *p) == NULL)
      return g_shell_quote (path);
  return g_strdup (path);
}

static void
on_chooser_response (GtkNativeDialog    *chooser,
                     int                 response,
                     KomiOpponentDialog *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file != NULL)
    path = g_file_get_path (file);
  if (path != NULL && self->chooser_row == self->command_row)
    {
      /* The program replaces the command's first word; its arguments stay. */
      g_autofree char *command = text_of (self->command_row);
      g_auto(GStrv) argv = NULL;
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *program = shell_word (path);

      g_string_append (text, program);
      if (*command != '\0' && g_shell_parse_argv (command, NULL, &argv, NULL))
        for (guint i = 1; argv[i] != NULL; i++)
          {
            g_autofree char *word = shell_word (argv[i]);

            g_string_append_printf (text, " %s", word);
          }
      gtk_editable_set_text (GTK_EDITABLE (self->command_row), text->str);
    }
  else if (path != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->chooser_row), path);
  g_clear_object (&self->chooser);
  self->chooser_row = NULL;
}

void
_komi_opponent_dialog_choose_file_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (widget);
  const char *which = g_variant_get_string (parameter, NULL);
  g_autoptr(GtkFileFilter) filter = NULL;
  g_autofree char *current = NULL;
  const char *title;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  if (g_str_equal (which, "binary"))
    {
      self->chooser_row = self->binary_row;
      title = _("KataGo Binary");
    }
  else if (g_str_equal (which, "model"))
    {
      self->chooser_row = self->model_row;
      title = _("KataGo Network File");
      filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, _("KataGo networks"));
      gtk_file_filter_add_pattern (filter, "*.bin.gz");
      gtk_file_filter_add_pattern (filter, "*.txt.gz");
      gtk_file_filter_add_pattern (filter, "*.bin");
    }
  else if (g_str_equal (which, "config"))
    {
      self->chooser_row = self->config_row;
      title = _("KataGo GTP Config");
      filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, _("Config files"));
      gtk_file_filter_add_pattern (filter, "*.cfg");
    }
  else
    {
      self->chooser_row = self->command_row;
      title = _("GTP Program");
    }

  self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                                                  GTK_FILE_CHOOSER_ACTION_OPEN,
                                                                  _("_Choose"), _("_Cancel")));
  if (filter != NULL)
    {
      g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
      gtk_file_filter_set_name (all, _("All files"));
      gtk_file_filter_add_pattern (all, "*");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), all);
    }
  /* Start where the current file is. */
  current = text_of (self->chooser_row);
  if (self->chooser_row == self->command_row && *current != '\0')
    {
      g_auto(GStrv) argv = NULL;

      if (g_shell_parse_argv (current, NULL, &argv, NULL))
        {
          g_free (current);
          current = g_strdup (argv[0]);
        }
    }
  if (g_path_is_absolute (current))
    {
      g_autofree char *dir = g_path_get_dirname (current);
      g_autoptr(GFile) folder = g_file_new_for_path (dir);

      if (g_file_test (dir, G_FILE_TEST_IS_DIR))
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  gtk_native_dialog_show (self->chooser);
}

void
_komi_opponent_dialog_close_chooser (KomiOpponentDialog *self)
{
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (self->chooser);
    }
  g_clear_object (&self->chooser);
  self->chooser_row = NULL;
}
