/* komi-opponent-dialog.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "komi-opponent-dialog.h"
#include "komi-player-check.h"
#include "komi-player-spec.h"
#include "komi-settings.h"
#include "komi-ui-util.h"

/* The kinds, in the order of the kind row's list. */
enum { KIND_RANDOM, KIND_GNUGO, KIND_KATAGO, KIND_GTP };

struct _KomiOpponentDialog
{
  AdwWindow       parent_instance;

  GtkEditable    *target;       /* weak */
  char           *spec;         /* the fields' spec when valid */
  GCancellable   *cancellable;  /* the Test in flight */
  GtkNativeDialog *chooser;     /* a file chooser open for one of the rows */
  AdwEntryRow    *chooser_row;

  AdwPreferencesGroup *engine_group;
  AdwComboRow    *kind_row;
  AdwActionRow   *level_row;
  GtkSpinButton  *level_spin;
  AdwEntryRow    *binary_row;
  AdwEntryRow    *model_row;
  AdwEntryRow    *config_row;
  AdwEntryRow    *visits_row;
  AdwEntryRow    *command_row;
  AdwEntryRow    *mix_row;
  GtkWidget      *error_rows[7]; /* under each field, in on_changed()'s order */
  GtkLabel       *error_label;
  GtkLabel       *spec_label;
  GtkLabel       *test_label;
  GtkWidget      *test_button;
  GtkSpinner     *test_spinner;
  GtkWidget      *cancel_test_button;
  GtkWidget      *add_button;
};

G_DEFINE_FINAL_TYPE (KomiOpponentDialog, komi_opponent_dialog, ADW_TYPE_WINDOW)

static char *
text_of (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

/* Where the engines live: KataGo's files from the fields (empty: the
 * KOMI_KATAGO* variables, as komi-cli reads them). Strings owned by @strs. */
/* How long Test waits for each engine command (a series waits 60 s). */
#define TEST_TIMEOUT_MS 15000

static KomiPlayerOptions
options_of (KomiOpponentDialog *self, GPtrArray *strs)
{
  KomiPlayerOptions opts = { 0 };
  AdwEntryRow *rows[] = { self->binary_row, self->model_row, self->config_row };
  const char **fields[] = { &opts.katago_binary, &opts.katago_model, &opts.katago_config };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      char *text = text_of (rows[i]);

      g_ptr_array_add (strs, text);
      *fields[i] = *text != '\0' ? text : NULL;
    }
  return opts;
}

static char *
engine_spec (KomiOpponentDialog *self)
{
  g_autofree char *visits = text_of (self->visits_row);
  g_autofree char *command = text_of (self->command_row);
  switch (adw_combo_row_get_selected (self->kind_row))
    {
    case KIND_GNUGO:
      return g_strdup_printf ("gnugo:%d", gtk_spin_button_get_value_as_int (self->level_spin));
    case KIND_KATAGO:
      return g_strconcat ("katago:", visits, NULL);
    case KIND_GTP:
      return g_strconcat ("gtp:", command, NULL);
    case KIND_RANDOM:
    default:
      return g_strdup ("random");
    }
}

static char *
build_spec (KomiOpponentDialog *self)
{
  g_autofree char *mix = text_of (self->mix_row);
  g_autofree char *engine = engine_spec (self);

  /* An engine with a chance of a random move: a ladder's bridging rung. */
  if (*mix != '\0' && adw_combo_row_get_selected (self->kind_row) != KIND_RANDOM)
    return g_strdup_printf ("mix:%s:%s", mix, engine);
  return g_steal_pointer (&engine);
}

/* The row a spec error is about: the spec parser's messages name what is
 * wrong in words, not by field. */
static GtkWidget *
row_for_error (KomiOpponentDialog *self, const GError *error)
{
  if (strstr (error->message, "chance of a random move") != NULL)
    return GTK_WIDGET (self->mix_row);
  switch (adw_combo_row_get_selected (self->kind_row))
    {
    case KIND_GNUGO:
      return GTK_WIDGET (self->level_row);
    case KIND_KATAGO:
      if (strstr (error->message, "visits") != NULL)
        return GTK_WIDGET (self->visits_row);
      if (strstr (error->message, "model not found") != NULL)
        return GTK_WIDGET (self->model_row);
      if (strstr (error->message, "config not found") != NULL)
        return GTK_WIDGET (self->config_row);
      return GTK_WIDGET (self->binary_row);
    case KIND_GTP:
      return GTK_WIDGET (self->command_row);
    default:
      return NULL;
    }
}

static void
on_changed (KomiOpponentDialog *self)
{
  GtkWidget *rows[] = {
    GTK_WIDGET (self->level_row), GTK_WIDGET (self->binary_row), GTK_WIDGET (self->model_row),
    GTK_WIDGET (self->config_row), GTK_WIDGET (self->visits_row), GTK_WIDGET (self->command_row),
    GTK_WIDGET (self->mix_row),
  };
  guint kind = adw_combo_row_get_selected (self->kind_row);
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions opts = options_of (self, strs);
  g_autofree char *spec = build_spec (self);
  g_autoptr(KomiPlayer) player = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *bad;

  gtk_widget_set_visible (GTK_WIDGET (self->level_row), kind == KIND_GNUGO);
  for (guint i = 1; i <= 4; i++)
    gtk_widget_set_visible (rows[i], kind == KIND_KATAGO);
  gtk_widget_set_visible (GTK_WIDGET (self->command_row), kind == KIND_GTP);
  gtk_widget_set_visible (GTK_WIDGET (self->mix_row), kind != KIND_RANDOM);
  adw_preferences_group_set_description (
    self->engine_group,
    kind == KIND_KATAGO ? _("Adding this opponent keeps its three files for every series "
                            "run from Komi.")
                        : NULL);
  G_STATIC_ASSERT (G_N_ELEMENTS (rows) == G_N_ELEMENTS (self->error_rows));
  for (guint i = 0; i < G_N_ELEMENTS (rows) && self->error_rows[i] != NULL; i++)
    komi_form_show_error (rows[i], self->error_rows[i], NULL, FALSE);
  g_clear_pointer (&self->spec, g_free);
  /* A result belongs to the fields it tested. */
  g_cancellable_cancel (self->cancellable);
  gtk_widget_set_visible (GTK_WIDGET (self->test_label), FALSE);
  gtk_spinner_set_spinning (self->test_spinner, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->test_spinner), FALSE);
  gtk_widget_set_visible (self->cancel_test_button, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.cancel-test", FALSE);

  /* Checks the spec and that its files exist; starts no process. */
  player = komi_player_new_from_spec (spec, &opts, &error);
  if (player == NULL)
    {
      const char *text = error->message;

      bad = row_for_error (self, error);
      /* The parser speaks to komi-cli's user; here the files are fields. */
      if (g_str_has_prefix (error->message, "KataGo needs")
          || strstr (error->message, "”: KataGo needs") != NULL)
        text = _("KataGo needs its binary, a network file and a GTP config: fill in the three "
                 "fields (empty fields take KOMI_KATAGO, KOMI_KATAGO_MODEL and "
                 "KOMI_KATAGO_CONFIG).");
      /* Under the field it is about; above the form when about none. */
      gtk_label_set_text (self->error_label, bad == NULL ? text : "");
      for (guint i = 0; i < G_N_ELEMENTS (rows) && self->error_rows[i] != NULL; i++)
        if (rows[i] == bad)
          komi_form_show_error (rows[i], self->error_rows[i], text, TRUE);
      gtk_label_set_text (self->spec_label, "");
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("A series names this opponent %s"), spec);

      gtk_label_set_text (self->spec_label, text);
      self->spec = g_steal_pointer (&spec);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->error_label),
                          self->spec == NULL && *gtk_label_get_text (self->error_label) != '\0');
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.test", self->spec != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.add",
                                 self->spec != NULL && self->target != NULL);
}

/* While a Test runs: a spinner and Cancel Test beside the Test button,
 * which waits for the one in flight. */
static void
set_testing (KomiOpponentDialog *self,
             gboolean            testing)
{
  gtk_spinner_set_spinning (self->test_spinner, testing);
  gtk_widget_set_visible (GTK_WIDGET (self->test_spinner), testing);
  gtk_widget_set_visible (self->cancel_test_button, testing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.cancel-test", testing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.test",
                                 !testing && self->spec != NULL);
}

static void
on_checked (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(KomiOpponentDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayerCheck) check = komi_player_check_finish (result, &error);
  g_autofree char *text = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* Cancel Test, a changed field or the dialog closing said so */
  set_testing (self, FALSE);
  if (check != NULL)
    {
      g_autofree char *outcome = komi_player_check_describe (check);

      text = g_strdup_printf ("✓ %s", outcome);
    }
  else
    text = g_strdup_printf ("✗ %s", error->message);
  gtk_label_set_text (self->test_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->test_label), TRUE);
}

static void
test_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (widget);
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions opts = options_of (self, strs);

  if (self->spec == NULL)
    return;
  /* A test is one move: an engine that does not answer it in seconds is
   * stopped and said so, not waited on for a series' minute. */
  opts.timeout_ms = TEST_TIMEOUT_MS;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  gtk_label_set_text (self->test_label, _("Starting the engine…"));
  gtk_widget_set_visible (GTK_WIDGET (self->test_label), TRUE);
  set_testing (self, TRUE);
  komi_player_check_with_options_async (self->spec, &opts, self->cancellable, on_checked,
                                        g_object_ref (self));
}

/* Stops the engine under test (the check's thread sees the cancellable
 * and the engine's process is ended with its player). */
static void
cancel_test_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (widget);

  g_cancellable_cancel (self->cancellable);
  set_testing (self, FALSE);
  gtk_label_set_text (self->test_label, _("Test cancelled: the engine was stopped."));
  gtk_widget_set_visible (GTK_WIDGET (self->test_label), TRUE);
}

static const char *katago_keys[] = { "katago-binary", "katago-model", "katago-config" };

/* KataGo's files as Komi's defaults: series run from the window use them
 * (komi-window-run.c), and the next Opponent dialog starts from them. */
static void
save_katago_files (KomiOpponentDialog *self)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  AdwEntryRow *rows[] = { self->binary_row, self->model_row, self->config_row };

  if (settings == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *text = text_of (rows[i]);

      g_settings_set_string (settings, katago_keys[i], text);
    }
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

static void
choose_file_activated (GtkWidget  *widget,
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

static void
add_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (widget);
  g_autofree char *list = NULL;
  g_autofree char *text = NULL;

  if (self->spec == NULL || self->target == NULL)
    return;
  /* Saved before the series' field changes: the New Series dialog judges
   * the new opponent with the paths in settings. */
  if (adw_combo_row_get_selected (self->kind_row) == KIND_KATAGO)
    save_katago_files (self);
  list = g_strstrip (g_strdup (gtk_editable_get_text (self->target)));
  text = *list != '\0' ? g_strconcat (list, ", ", self->spec, NULL) : g_strdup (self->spec);
  gtk_editable_set_text (self->target, text);
  gtk_window_close (GTK_WINDOW (self));
}

KomiOpponentDialog *
komi_opponent_dialog_new (GtkWindow   *parent,
                          GtkEditable *target)
{
  KomiOpponentDialog *self = g_object_new (KOMI_TYPE_OPPONENT_DIALOG,
                                           "transient-for", parent,
                                           NULL);

  if (target != NULL)
    {
      self->target = target;
      g_object_add_weak_pointer (G_OBJECT (target), (gpointer *) &self->target);
    }
  gtk_widget_set_visible (self->add_button, target != NULL);
  on_changed (self);
  return self;
}

const char *
komi_opponent_dialog_get_spec (KomiOpponentDialog *self)
{
  g_return_val_if_fail (KOMI_IS_OPPONENT_DIALOG (self), NULL);
  return self->spec;
}

/* Closed (gtk_window_destroy() unrealizes it; it is disposed only when
 * the last reference goes): the Test stops, and the dialog lets go of the
 * window it was opened over, which may be gone before a Test's callback
 * drops the dialog's last reference. */
static void
komi_opponent_dialog_unrealize (GtkWidget *widget)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (widget);

  g_cancellable_cancel (self->cancellable);
  GTK_WIDGET_CLASS (komi_opponent_dialog_parent_class)->unrealize (widget);
  gtk_window_set_transient_for (GTK_WINDOW (self), NULL);
}

static void
komi_opponent_dialog_dispose (GObject *object)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (object);

  if (self->target != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->target), (gpointer *) &self->target);
  self->target = NULL;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (self->chooser);
    }
  g_clear_object (&self->chooser);
  G_OBJECT_CLASS (komi_opponent_dialog_parent_class)->dispose (object);
}

static void
komi_opponent_dialog_finalize (GObject *object)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (object);

  g_free (self->spec);
  G_OBJECT_CLASS (komi_opponent_dialog_parent_class)->finalize (object);
}

static void
komi_opponent_dialog_class_init (KomiOpponentDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_opponent_dialog_dispose;
  widget_class->unrealize = komi_opponent_dialog_unrealize;
  object_class->finalize = komi_opponent_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-opponent-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, engine_group);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, kind_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, level_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, level_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, binary_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, model_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, config_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, visits_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, mix_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, spec_label);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, test_label);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, test_button);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, test_spinner);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, cancel_test_button);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, add_button);
  gtk_widget_class_bind_template_callback (widget_class, on_changed);

  gtk_widget_class_install_action (widget_class, "opponent.test", NULL, test_activated);
  gtk_widget_class_install_action (widget_class, "opponent.cancel-test", NULL,
                                   cancel_test_activated);
  gtk_widget_class_install_action (widget_class, "opponent.add", NULL, add_activated);
  gtk_widget_class_install_action (widget_class, "opponent.choose-file", "s",
                                   choose_file_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
komi_opponent_dialog_init (KomiOpponentDialog *self)
{
  const char *variables[] = { "KOMI_KATAGO", "KOMI_KATAGO_MODEL", "KOMI_KATAGO_CONFIG" };
  AdwEntryRow *rows[] = { NULL, NULL, NULL };
  g_autoptr(GSettings) settings = komi_settings_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  {
    GtkWidget *fields[] = {
      GTK_WIDGET (self->level_row), GTK_WIDGET (self->binary_row), GTK_WIDGET (self->model_row),
      GTK_WIDGET (self->config_row), GTK_WIDGET (self->visits_row),
      GTK_WIDGET (self->command_row), GTK_WIDGET (self->mix_row),
    };

    for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
      self->error_rows[i] = komi_form_add_error_row (fields[i]);
  }
  rows[0] = self->binary_row;
  rows[1] = self->model_row;
  rows[2] = self->config_row;
  /* KataGo's files as a series from the window finds them, to start from:
   * the ones saved by the last Add, else komi-cli's variables. */
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *saved = settings != NULL
        ? g_strstrip (g_settings_get_string (settings, katago_keys[i])) : NULL;

      if (saved != NULL && *saved != '\0')
        gtk_editable_set_text (GTK_EDITABLE (rows[i]), saved);
      else if (g_getenv (variables[i]) != NULL)
        gtk_editable_set_text (GTK_EDITABLE (rows[i]), g_getenv (variables[i]));
    }
  gtk_editable_set_text (GTK_EDITABLE (self->visits_row), "100");
  adw_combo_row_set_selected (self->kind_row, KIND_GNUGO);
}
