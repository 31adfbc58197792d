/* komi-app-test-util.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include <adwaita.h>

#include "komi-store-test-util.h"
#include "komi-review-window.h"
#include "komi-window.h"

/* Shared by the UI tests (run under Xvfb): starting GTK and libadwaita,
 * waiting on the main loop for a condition, and rendering a widget to an
 * image exactly as it is drawn on screen. */

/* No session bus runs under `xvfb-run` in CI; GTK says so once. That is
 * the only warning a UI test may survive. */
gboolean
app_test_log_filter (const char     *log_domain,
                     GLogLevelFlags  log_level,
                     const char     *message,
                     gpointer        user_data);

void
app_test_init (int *argc, char ***argv);

typedef gboolean (*AppTestCondition) (gpointer data);

/* Runs the main loop until @cond holds, for at most @seconds. */
gboolean
app_test_wait_seconds (AppTestCondition cond, gpointer data, guint seconds);

/* The same for at most a minute: a cap only a failing test reaches. */
gboolean
app_test_wait (AppTestCondition cond, gpointer data);

gboolean
app_test_has_size (gpointer widget);

/* A template child of @dialog, a widget of @type, by its id. */
GtkWidget *
app_test_child (gpointer dialog, GType type, const char *name);

void
app_test_set_text (gpointer dialog, GType type, const char *row, const char *text);

/* How the dialogs judge their fields: of @rows (@n_rows ids), only @row
 * carries the "error" style, and the dialog's "error_label" shows a
 * message containing @expected. With @row NULL: no row is marked and the
 * label is hidden. */
void
app_test_assert_marked (gpointer dialog, GType type, const char * const *rows, gsize n_rows,
                        const char *row, const char *expected);

/* Draws @widget as it is on screen (its own snapshot) into an image
 * surface of its allocated size. */
cairo_surface_t *
app_test_render (GtkWidget *widget);

/* Compares two images: the share of pixels (0–1) whose colour differs by
 * more than @threshold in some channel, over the whole image and in the
 * worst 16x16 tile (a missing mark is small but all in one place). Both
 * are 1 when the sizes differ. */
#define APP_TEST_TILE 16

void
app_test_compare (cairo_surface_t *a,
                  cairo_surface_t *b,
                  int              threshold,
                  double          *whole,
                  double          *worst_tile);

/* KataGo's files as the test run names them (KOMI_KATAGO,
 * KOMI_KATAGO_MODEL and KOMI_KATAGO_CONFIG: `build-aux/dev test` sets
 * them to the KataGo beside the checkout). app_test_katago_keep() reads
 * them, in main() before anything unsets them; app_test_katago() gives
 * the three kept, or NULL when KOMI_KATAGO was not set. */
void
app_test_katago_keep (void);

const char * const *
app_test_katago (void);

/* Sets the variables to the files kept again; without them, skips the
 * test ("KOMI_KATAGO is not set") and returns FALSE. */
gboolean
app_test_katago_restore (void);

/* Unsets the three variables: KataGo's files then come from the
 * settings or the dialogs' fields, whatever the machine has. */
void
app_test_unset_katago (void);

/* A series started from @window has its job: not at once, as a series
 * starts once its API keys are looked up. */
gboolean
app_test_job_started (gpointer window);

/* The series @window started has ended, however it ended. */
gboolean
app_test_job_over (gpointer window);

/* A window on a library in a new temporary folder (not created yet: the
 * first run makes it), on screen. */
typedef struct
{
  char       *dir;
  char       *path;
  KomiWindow *window;   /* NULL once a test closed it */
} AppWindowFixture;

void
app_window_fixture_open (AppWindowFixture *f, const char *dir_template);

void
app_window_fixture_close (AppWindowFixture *f);

/* The first widget in @widget's tree (itself first, then each child's
 * tree in order) for which @match holds, or NULL. */
GtkWidget *
app_test_find_widget (GtkWidget  *widget,
                      gboolean  (*match) (GtkWidget *widget, gpointer data),
                      gpointer    data);

/* Whether the items of the menus under @widget (the main menu's too)
 * labelled @label ("Export the _Game as SGF…") are sensitive: their action
 * is enabled. There must be one. */
gboolean
app_test_item_sensitive (GtkWidget *widget, const char *label);

/* The first toplevel of @type that is visible and mapped, or NULL. */
GtkWindow *
app_test_find_toplevel (GType type);

/* @window (a KomiReviewWindow) has read its game. */
gboolean
app_test_review_loaded (gpointer window);

/* The review of game @id of @library in a window of its own (over
 * @parent, or NULL), as large as the screen's work area, shown and
 * loaded: as the tests and the screenshots open one. */
KomiReviewWindow *
app_test_open_review (GtkWindow *parent, KomiLibrary *library, gint64 id);
