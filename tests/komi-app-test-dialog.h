/* komi-app-test-dialog.h: driving the dialogs (New Series, provider,
 * opponent) as the UI tests and the screenshots do.
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-app-test-util.h"
#include "komi-opponent-dialog.h"
#include "komi-rehearsal.h"
#include "komi-series-dialog.h"

/* Opening a dialog. */

/* Presents @dialog (a GtkWindow) and waits until it is drawn at a size.
 * With @slot, a weak pointer there first (NULL once the dialog closes);
 * with @height above 0, the dialog 560 px wide and @height tall. */
void
app_test_present_dialog (gpointer dialog, gpointer *slot, int height);

/* The opponent dialog over @series, its Add going to the series'
 * opponents row, presented as app_test_present_dialog() does. */
KomiOpponentDialog *
app_test_open_opponent_dialog (KomiSeriesDialog *series, gpointer *slot, int height);

/* Resets each of @keys (@n_keys) in Komi's settings: the dialogs start
 * from the defaults, not from what the last test remembered. */
void
app_test_reset_settings (const char * const *keys, gsize n_keys);

/* The fields and their errors. */

/* The error shown under @row, a template child of @dialog of @type (the
 * next row of its boxed list), or NULL when none is. */
const char *
app_test_error_under (gpointer dialog, GType type, const char *row);

/* Of @rows (@n_rows template ids of @dialog), exactly those named in
 * @wrong (NULL-terminated pairs of a row and the words expected under it;
 * NULL: none) carry the "error" style and show an error under them that
 * contains their words; every other row shows none. */
void
app_test_assert_row_errors (gpointer            dialog,
                            GType               type,
                            const char * const *rows,
                            gsize               n_rows,
                            const char * const *wrong);

/* No row of @rows carries the "error" style or shows an error. */
#define app_test_assert_rows_quiet(dialog, type, rows, n_rows) \
  app_test_assert_row_errors (dialog, type, rows, n_rows, NULL)

/* The first GtkScrolledWindow in @widget's tree (itself first), or NULL. */
GtkScrolledWindow *
app_test_find_scroller (GtkWidget *widget);

typedef struct
{
  GtkWidget *dialog;
  GtkWidget *row;
} AppTestFocus;

/* A condition (@data an AppTestFocus): @dialog's focus is inside @row. */
gboolean
app_test_focus_in (gpointer data);

/* A condition: the GtkAdjustment @adjustment is scrolled down from its top. */
gboolean
app_test_scrolled (gpointer adjustment);

/* Test: the check a dialog runs on its players or its provider. */

/* A condition: the check that @label (a GtkLabel) reports is over: the
 * label is shown, says something, and no longer "…". */
gboolean
app_test_check_done (gpointer label);

/* Activates @action of @dialog (it must be enabled) and waits at most
 * @seconds for the check its template child @label reports to be over;
 * returns the label's text. */
const char *
app_test_run_check (gpointer    dialog,
                    GType       type,
                    const char *action,
                    const char *label,
                    guint       seconds);

/* While no check runs, the spinner ("test_spinner") and Cancel Test
 * ("cancel_test_button") are hidden; while one runs, both show, the
 * spinner spins and Test ("test_button") waits. */
void
app_test_assert_check_idle (gpointer dialog, GType type);

void
app_test_assert_check_running (gpointer dialog, GType type);

/* @object's references, counted before a check starts: the check holds
 * the dialog until its callback has run. */
typedef struct
{
  GObject *object;
  guint    refs;
} AppTestRefs;

/* A condition (@data an AppTestRefs): @object is back to @refs. */
gboolean
app_test_refs_back (gpointer data);

/* The provider dialog's fields for a server at @base_url: model
 * "rehearsal-1", the key's name @key_name (NULL: left as it is) and the
 * key @key. */
void
app_test_provider_fill (gpointer    dialog,
                        const char *base_url,
                        const char *key_name,
                        const char *key);

/* The OpenAI-style base URL of @rehearsal (its address and "/v1"). */
char *
app_test_rehearsal_url (KomiRehearsal *rehearsal);

/* File choosers (under Xvfb no portal runs: GTK's own dialog). */

/* A condition: a file chooser is shown; it is stored at @data (a
 * GtkWidget **). */
gboolean
app_test_find_chooser (gpointer data);

/* A condition: @chooser has a file selected (its folder has loaded). */
gboolean
app_test_chooser_has_file (gpointer chooser);
