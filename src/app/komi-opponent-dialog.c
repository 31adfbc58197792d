/* komi-opponent-dialog.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "komi-opponent-dialog-private.h"
#include "komi-opponent-form.h"
#include "komi-player-check.h"
#include "komi-player-spec.h"
#include "komi-settings.h"
#include "komi-ui-util.h"

G_DEFINE_FINAL_TYPE (KomiOpponentDialog, komi_opponent_dialog, ADW_TYPE_WINDOW)

static char *
text_of (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

/* How long Test waits for each engine command (a series waits 60 s). */
#define TEST_TIMEOUT_MS 15000

/* Where the engines live: KataGo's files from the fields (empty: the
 * KOMI_KATAGO* variables, as komi-cli reads them). Strings owned by @strs. */
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

/* The fields as typed; strings owned by @strs. */
static KomiOpponentFields
fields_of (KomiOpponentDialog *self, GPtrArray *strs)
{
  KomiOpponentFields fields = { 0 };

  fields.kind = adw_combo_row_get_selected (self->kind_row);
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    if (ADW_IS_ENTRY_ROW (self->field_rows[i]))
      {
        char *text = text_of (ADW_ENTRY_ROW (self->field_rows[i]));

        g_ptr_array_add (strs, text);
        fields.text[i] = text;
      }
  return fields;
}

/* The field a spec parser's error is about, from the part its code names
 * (its message is in the user's language); KOMI_OPPONENT_N_FIELDS for
 * none: said above the form. */
static KomiOpponentField
field_for_error (guint kind, const GError *error)
{
  if (error->domain != KOMI_PLAYER_SPEC_ERROR)
    return KOMI_OPPONENT_N_FIELDS;
  switch ((KomiPlayerSpecError) error->code)
    {
    case KOMI_PLAYER_SPEC_ERROR_LEVEL:
      return KOMI_OPPONENT_FIELD_LEVEL;
    case KOMI_PLAYER_SPEC_ERROR_VISITS:
      return KOMI_OPPONENT_FIELD_VISITS;
    case KOMI_PLAYER_SPEC_ERROR_CHANCE:
      return KOMI_OPPONENT_FIELD_MIX;
    case KOMI_PLAYER_SPEC_ERROR_BINARY:
      /* GNU Go's program has no field: the kind's is its level. */
      return kind == KOMI_OPPONENT_KIND_GNUGO ? KOMI_OPPONENT_FIELD_LEVEL
                                              : KOMI_OPPONENT_FIELD_BINARY;
    case KOMI_PLAYER_SPEC_ERROR_MODEL:
      return KOMI_OPPONENT_FIELD_MODEL;
    case KOMI_PLAYER_SPEC_ERROR_CONFIG:
      return KOMI_OPPONENT_FIELD_CONFIG;
    case KOMI_PLAYER_SPEC_ERROR_COMMAND:
    case KOMI_PLAYER_SPEC_ERROR_PROGRAM:
      return KOMI_OPPONENT_FIELD_COMMAND;
    case KOMI_PLAYER_SPEC_ERROR_KIND:
    case KOMI_PLAYER_SPEC_ERROR_SYNTAX:
    default:
      return KOMI_OPPONENT_N_FIELDS;
    }
}

/* The lines above the form (an error about no one field, the spec, the
 * test's outcome) shown only when one of them has something to say: an
 * empty group still takes its place, a gap over the form. */
static void
show_status (KomiOpponentDialog *self)
{
  gtk_widget_set_visible (self->status_group,
                          gtk_widget_get_visible (GTK_WIDGET (self->error_label))
                          || gtk_widget_get_visible (GTK_WIDGET (self->spec_label))
                          || gtk_widget_get_visible (GTK_WIDGET (self->test_label)));
}

/* Judges the fields again; @source is what the user changed (a field's
 * row, or a property of the kind row). Each
 * field's error shows under it once the user has changed it, or once
 * Test or Add was pressed: all of them at once. */
static void
on_changed (KomiOpponentDialog *self, gpointer source)
{
  guint kind = adw_combo_row_get_selected (self->kind_row);
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions opts = options_of (self, strs);
  KomiOpponentFields fields = fields_of (self, strs);
  g_autofree char *spec = komi_opponent_form_spec (&fields);
  char *problems[KOMI_OPPONENT_N_FIELDS] = { NULL, };
  g_autofree char *other = NULL;
  g_autofree char *summary = NULL;
  guint hidden = 0;

  /* Another kind is another form: its fields start without errors. */
  if (kind != self->kind)
    {
      self->kind = kind;
      self->tried = FALSE;
      memset (self->touched, 0, sizeof self->touched);
      /* Choosing GNU Go is what "GNU Go not found" is about: said at once. */
      self->touched[KOMI_OPPONENT_FIELD_LEVEL] = TRUE;
    }
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    self->touched[i] |= source != NULL && source == self->field_rows[i];
  self->chosen |= source != NULL;
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    gtk_widget_set_visible (self->field_rows[i], komi_opponent_form_shows (kind, i));
  adw_preferences_group_set_description (
    self->engine_group,
    kind == KOMI_OPPONENT_KIND_KATAGO ? _("Adding this opponent keeps its three files for "
                                          "every series run from Komi.")
                                      : NULL);
  g_clear_pointer (&self->spec, g_free);
  self->listed = FALSE;
  /* A result belongs to the fields it tested. */
  g_cancellable_cancel (self->cancellable);
  gtk_widget_set_visible (GTK_WIDGET (self->test_label), FALSE);
  gtk_spinner_set_spinning (self->test_spinner, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->test_spinner), FALSE);
  gtk_widget_set_visible (self->cancel_test_button, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.cancel-test", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.test", TRUE);

  /* Each field alone, then the spec parser over the whole (it checks that
   * the files exist and starts no process). */
  if (komi_opponent_form_check (&fields, problems))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KomiPlayer) player = komi_player_new_from_spec (spec, &opts, &error);
      KomiOpponentField bad = player == NULL ? field_for_error (kind, error)
                                             : KOMI_OPPONENT_N_FIELDS;

      if (g_error_matches (error, KOMI_PLAYER_SPEC_ERROR, KOMI_PLAYER_SPEC_ERROR_PROGRAM))
        {
          g_auto(GStrv) argv = NULL;

          /* The spec parser's words are a definition file's ("after
           * gtp:"); here the program is the command's first word. */
          if (g_shell_parse_argv (fields.text[KOMI_OPPONENT_FIELD_COMMAND], NULL, &argv, NULL))
            /* TRANSLATORS: %s is the program the command starts. */
            problems[bad] = g_strdup_printf (_("The program %s was not found or is not "
                                               "executable: give its full path, or choose it "
                                               "with the button beside the field"), argv[0]);
          else
            problems[bad] = g_strdup (error->message);
        }
      else if (player == NULL && bad < KOMI_OPPONENT_N_FIELDS)
        problems[bad] = g_strdup (error->message);
      else if (player == NULL)
        other = g_strdup (error->message);
      else
        self->spec = g_steal_pointer (&spec);
    }
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    {
      komi_form_show_error (self->field_rows[i], self->error_rows[i], problems[i],
                            self->touched[i] || self->tried);
      hidden += problems[i] != NULL && !gtk_widget_get_visible (self->error_rows[i]);
      g_free (problems[i]);
    }

  /* Above the form: what is about no field, and what is left to see. */
  if (self->spec != NULL && self->target != NULL
      && komi_opponent_form_find (gtk_editable_get_text (self->target), self->spec) >= 0)
    {
      self->listed = TRUE;
      /* Said once the user has chosen something: as the dialog opens,
       * its proposal is no choice of theirs (Add is off all the same). */
      if (self->chosen || self->tried)
        /* TRANSLATORS: %s is an opponent as a series names it, e.g. gnugo:3. */
        other = g_strdup_printf (_("The series already has %s: list each opponent once (more "
                                   "pairs play it more)"), self->spec);
    }
  else if (hidden > 0)
    other = g_strdup (self->target != NULL
                      ? _("Some fields need a change: press Test or Add to see which.")
                      : _("Some fields need a change: press Test to see which."));
  gtk_label_set_text (self->error_label, other != NULL ? other : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), other != NULL);
  /* TRANSLATORS: %s is an opponent as a series names it, e.g. gnugo:3. */
  summary = self->spec != NULL ? g_strdup_printf (_("A series names this opponent %s"), self->spec)
                               : NULL;
  gtk_label_set_text (self->spec_label, summary != NULL ? summary : "");
  gtk_widget_set_visible (GTK_WIDGET (self->spec_label), summary != NULL);
  show_status (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.add",
                                 self->target != NULL && !self->listed);
}

/* Test or Add with a field in error: every error shows, and the first
 * field in error comes into view. Returns TRUE when there was one. */
static gboolean
refuse (KomiOpponentDialog *self)
{
  if (self->spec != NULL)
    return FALSE;
  self->tried = TRUE;
  on_changed (self, NULL);
  komi_form_focus_first_error (self->field_rows, self->error_rows, KOMI_OPPONENT_N_FIELDS);
  return TRUE;
}

static void
set_testing (KomiOpponentDialog *self,
             gboolean            testing)
{
  gtk_spinner_set_spinning (self->test_spinner, testing);
  gtk_widget_set_visible (GTK_WIDGET (self->test_spinner), testing);
  gtk_widget_set_visible (self->cancel_test_button, testing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.cancel-test", testing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "opponent.test", !testing);
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
  show_status (self);
}

static void
test_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (widget);
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions opts = options_of (self, strs);

  if (refuse (self))
    return;
  /* A test is one move: an engine that does not answer it in seconds is
   * stopped and said so, not waited on for a series' minute. */
  opts.timeout_ms = TEST_TIMEOUT_MS;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  gtk_label_set_text (self->test_label, _("Starting the engine…"));
  gtk_widget_set_visible (GTK_WIDGET (self->test_label), TRUE);
  show_status (self);
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
  show_status (self);
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

static void
add_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KomiOpponentDialog *self = KOMI_OPPONENT_DIALOG (widget);
  g_autofree char *list = NULL;
  g_autofree char *text = NULL;

  if (self->target == NULL || refuse (self) || self->listed)
    return;
  /* Saved before the series' field changes: the New Series dialog judges
   * the new opponent with the paths in settings. */
  if (adw_combo_row_get_selected (self->kind_row) == KOMI_OPPONENT_KIND_KATAGO)
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
  on_changed (self, NULL);
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
  _komi_opponent_dialog_close_chooser (self);
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
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, binary_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, model_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, config_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, visits_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, mix_row);
  gtk_widget_class_bind_template_child (widget_class, KomiOpponentDialog, status_group);
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
                                   _komi_opponent_dialog_choose_file_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
komi_opponent_dialog_init (KomiOpponentDialog *self)
{
  const char *variables[] = { "KOMI_KATAGO", "KOMI_KATAGO_MODEL", "KOMI_KATAGO_CONFIG" };
  AdwEntryRow *rows[] = { NULL, NULL, NULL };
  g_autoptr(GSettings) settings = komi_settings_new ();

  self->kind = G_MAXUINT;   /* judged for no kind yet */
  gtk_widget_init_template (GTK_WIDGET (self));
  self->field_rows[KOMI_OPPONENT_FIELD_LEVEL] = GTK_WIDGET (self->level_row);
  self->field_rows[KOMI_OPPONENT_FIELD_BINARY] = GTK_WIDGET (self->binary_row);
  self->field_rows[KOMI_OPPONENT_FIELD_MODEL] = GTK_WIDGET (self->model_row);
  self->field_rows[KOMI_OPPONENT_FIELD_CONFIG] = GTK_WIDGET (self->config_row);
  self->field_rows[KOMI_OPPONENT_FIELD_VISITS] = GTK_WIDGET (self->visits_row);
  self->field_rows[KOMI_OPPONENT_FIELD_COMMAND] = GTK_WIDGET (self->command_row);
  self->field_rows[KOMI_OPPONENT_FIELD_MIX] = GTK_WIDGET (self->mix_row);
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    self->error_rows[i] = komi_form_add_error_row (self->field_rows[i]);
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
  gtk_editable_set_text (GTK_EDITABLE (self->level_row), "1");
  gtk_editable_set_text (GTK_EDITABLE (self->visits_row), "100");
  adw_combo_row_set_selected (self->kind_row, KOMI_OPPONENT_KIND_GNUGO);
  /* Set by the dialog, not typed: no error shows until the user changes
   * a field or presses Test or Add. */
  memset (self->touched, 0, sizeof self->touched);
  self->chosen = FALSE;
  on_changed (self, NULL);
}
