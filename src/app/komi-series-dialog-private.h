/* komi-series-dialog-private.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-ladder.h"
#include "komi-library.h"
#include "komi-series.h"
#include "komi-series-dialog.h"
#include "komi-series-form.h"

G_BEGIN_DECLS

/* The New Series dialog's state, shared by its files: the fields and their
 * checks (komi-series-dialog.c), the keys and the player tests
 * (komi-series-dialog-players.c). */

struct _KomiSeriesDialog
{
  AdwWindow       parent_instance;

  GtkWindow      *runner;       /* the window whose win.run-definition runs it */
  KomiLibrary    *library;      /* the runner's library, a rating's ladder beside it; NULL: none */
  char           *definition;   /* the JSON of the fields when they are valid */
  KomiSeries     *series;       /* the same, parsed */
  GCancellable   *checks;       /* the player tests in flight */
  GPtrArray      *check_lines;  /* one line per player tested, in the fields' order */
  GCancellable   *keys;         /* the models' keys being looked up in the keyring */
  char           *keys_for;     /* the model players they were looked up for */
  char           *keys_error;   /* which key is missing and what to do; NULL: none */

  AdwEntryRow    *name_row;
  AdwEntryRow    *subject_row;
  GtkSwitch      *rate_switch;
  AdwEntryRow    *opponents_row;
  AdwEntryRow    *pairs_row;
  AdwEntryRow    *seed_row;
  AdwComboRow    *referee_row;
  AdwEntryRow    *jobs_row;
  AdwEntryRow    *budget_row;
  AdwPreferencesPage *page;
  GtkMenuButton  *profiles_button;
  char           *profiles_folder; /* where the provider dialog saves profiles */
  /* Each field's row, its error below it, whether the user has changed
   * it (no error is shown before), in KomiSeriesField order. */
  GtkWidget      *field_rows[KOMI_SERIES_N_FIELDS];
  GtkWidget      *error_rows[KOMI_SERIES_N_FIELDS];
  gboolean        touched[KOMI_SERIES_N_FIELDS];
  gboolean        tried;        /* Run was pressed: every error is shown */
  KomiLadder     *ladder;       /* beside the runner's library, when rating; NULL: none */
  char           *ladder_error; /* why there is none */
  GtkLabel       *error_label;
  GtkLabel       *summary_label;
  GtkLabel       *estimate_label;
  GtkLabel       *check_label;
};

const char *_komi_series_dialog_text_of        (AdwEntryRow      *row);
/* Judges the fields again; @source is the field the user changed (NULL:
 * none). */
void        _komi_series_dialog_changed        (KomiSeriesDialog *self,
                                                GtkWidget        *source);
/* Looks the models' keys up in the keyring when the model players the
 * fields name have changed; the fields are judged again when it answers. */
void        _komi_series_dialog_look_up_keys   (KomiSeriesDialog *self,
                                                const char       *definition);
/* The profiles_button's menu: each provider profile saved in the
 * profiles folder, read as it opens; choosing one makes it the subject. */
void        _komi_series_dialog_fill_profiles  (GtkMenuButton    *button,
                                                gpointer          user_data);
/* series.test: starts each player and asks it for one move. */
void        _komi_series_dialog_test_activated (GtkWidget        *widget,
                                                const char       *action_name,
                                                GVariant         *parameter);

G_END_DECLS
