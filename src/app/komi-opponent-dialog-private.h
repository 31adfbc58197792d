/* komi-opponent-dialog-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-opponent-dialog.h"
#include "komi-opponent-form.h"

G_BEGIN_DECLS

/* The opponent dialog's state, shared by its files: the fields, their
 * checks, Test and Add (komi-opponent-dialog.c) and the file choosers
 * (komi-opponent-dialog-files.c). */
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
  AdwEntryRow    *level_row;
  AdwEntryRow    *binary_row;
  AdwEntryRow    *model_row;
  AdwEntryRow    *config_row;
  AdwEntryRow    *visits_row;
  AdwEntryRow    *command_row;
  AdwEntryRow    *mix_row;
  /* Each field's row, its error under it, whether the user has changed
   * it (no error shows before), in KomiOpponentField order. */
  GtkWidget      *field_rows[KOMI_OPPONENT_N_FIELDS];
  GtkWidget      *error_rows[KOMI_OPPONENT_N_FIELDS];
  gboolean        touched[KOMI_OPPONENT_N_FIELDS];
  gboolean        tried;        /* Test or Add was pressed: every error shows */
  guint           kind;         /* the kind the fields were last judged for */
  gboolean        listed;       /* the spec is in the target's list already */
  gboolean        chosen;       /* the user changed something: "already has" may be said */
  GtkWidget      *status_group;  /* the three lines above the form */
  GtkLabel       *error_label;
  GtkLabel       *spec_label;
  GtkLabel       *test_label;
  GtkWidget      *test_button;
  GtkSpinner     *test_spinner;
  GtkWidget      *cancel_test_button;
  GtkWidget      *add_button;
};

/* opponent.choose-file: a file chooser for the row its parameter names
 * ("binary", "model", "config" or "command"). */
void _komi_opponent_dialog_choose_file_activated (GtkWidget  *widget,
                                                  const char *action_name,
                                                  GVariant   *parameter);
/* Closes the chooser, if one is open. */
void _komi_opponent_dialog_close_chooser         (KomiOpponentDialog *self);

G_END_DECLS
