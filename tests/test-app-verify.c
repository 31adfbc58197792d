/* test-app-verify.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-test"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "komi-app-test-util.h"
#include "komi-games-page.h"
#include "komi-library.h"
#include "komi-test-cli.h"
#include "komi-window-private.h"

/* Verify Library in the window (win.verify-library, in the main menu):
 * it shows the Games page and verifies there, in the background; each
 * game's row then says "Verified". A move of one game altered in the
 * SQLite file (onto a stone already there) and verified again: that row
 * says "Illegal move", with the whole reason in its tooltip, and the other
 * row stays verified. A verification cancelled as it starts keeps the
 * marks it had and says it was cancelled. */

static char *dir;
static char *db;

static gboolean
games_listed (gpointer library)
{
  GListModel *games = komi_library_get_games (library);

  return komi_library_get_state (library) != KOMI_LIBRARY_STATE_LOADING && games != NULL
         && g_list_model_get_n_items (games) == 2;
}

static gboolean
verify_over (gpointer page)
{
  return !komi_games_page_get_verifying (page);
}

typedef struct
{
  const char *text;
  guint       n;
  GtkWidget  *found;   /* the last label with the text */
} Labels;

/* The mapped labels under @widget whose text is @l->text. */
static void
count_labels (GtkWidget *widget, Labels *l)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), l->text) == 0)
    {
      l->n++;
      l->found = widget;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    count_labels (c, l);
}

static guint
labels_shown (GtkWidget *page, const char *text, GtkWidget **found)
{
  Labels l = { text, 0, NULL };

  count_labels (page, &l);
  if (found != NULL)
    *found = l.found;
  return l.n;
}

static const char *
line_of (KomiGamesPage *page)
{
  return gtk_label_get_text (GTK_LABEL (gtk_widget_get_template_child (
                               GTK_WIDGET (page), KOMI_TYPE_GAMES_PAGE, "verify_label")));
}

/* Both rows' cells of the Verified column drawn (the column shows once
 * a verification is done). */
static gboolean
cells_shown (gpointer page)
{
  return labels_shown (page, "Verified", NULL) + labels_shown (page, "Illegal move", NULL)
         == 2 + 1;   /* + the column's title */
}

static void
verify_and_wait (KomiWindow *window, KomiGamesPage *page)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.verify-library", NULL));
  g_assert_cmpstr (komi_window_get_page (window), ==, "games");
  g_assert_true (komi_games_page_get_verifying (page));
  g_assert_true (app_test_wait (verify_over, page));
  g_assert_true (app_test_wait (cells_shown, page));
}

static void
test_verify_library (void)
{
  g_autoptr(KomiLibrary) library = komi_library_new (db);
  KomiWindow *window = komi_window_new (NULL, library);
  KomiGamesPage *page = window->games_page;
  GtkWidget *cell = NULL;
  const KomiVerifiedGame *v;
  const char *tooltip;
  g_autofree char *changed = NULL;

  komi_library_reload (library);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait (games_listed, library));

  /* Honest: both games verified, each row says so. */
  verify_and_wait (window, page);
  g_assert_cmpstr (line_of (page), ==, "2 games verified: every one holds");
  for (gint64 id = 1; id <= 2; id++)
    {
      v = komi_games_page_get_verified (page, id);
      g_assert_nonnull (v);
      g_assert_cmpuint (v->problems->len, ==, 0);
    }
  g_assert_cmpuint (labels_shown (GTK_WIDGET (page), "Verified", NULL), ==, 2 + 1);  /* + title */

  /* Move 3 of game 1 onto move 1's stone, as anyone could with sqlite3. */
  changed = sql_text (db, "UPDATE moves SET point = (SELECT point FROM moves "
                          "  WHERE game_id = 1 AND turn = 1) "
                          "WHERE game_id = 1 AND turn = 3 RETURNING point");
  g_assert_nonnull (changed);
  komi_library_reload (library);
  g_assert_true (app_test_wait (games_listed, library));
  verify_and_wait (window, page);
  g_assert_cmpstr (line_of (page), ==,
                   "2 games verified: 1 failed (see the Verified column)");
  v = komi_games_page_get_verified (page, 1);
  g_assert_cmpuint (v->problems->len, ==, 1);
  g_assert_cmpint (g_array_index (v->checks, KomiVerifyCheck, 0), ==, KOMI_VERIFY_MOVES);
  g_assert_cmpuint (komi_games_page_get_verified (page, 2)->problems->len, ==, 0);
  g_assert_cmpuint (labels_shown (GTK_WIDGET (page), "Illegal move", &cell), ==, 1);
  g_assert_cmpuint (labels_shown (GTK_WIDGET (page), "Verified", NULL), ==, 1 + 1);
  tooltip = gtk_widget_get_tooltip_text (gtk_widget_get_parent (cell));
  g_assert_nonnull (strstr (tooltip, "move 3 (Black "));
  g_assert_nonnull (strstr (tooltip, "is illegal"));

  /* Cancelled at once: the marks stay those of before. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.verify-library", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "games.cancel-verify", NULL));
  g_assert_true (app_test_wait (verify_over, page));
  g_assert_cmpstr (line_of (page), ==, "Verification cancelled: the marks shown are from before");
  g_assert_cmpuint (komi_games_page_get_verified (page, 1)->problems->len, ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A library of an older schema is refused on the page's line, in words. */
static void
test_older_refused (void)
{
  g_autofree char *old = g_build_filename (dir, "old.db", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(KomiLibrary) library = NULL;
  KomiWindow *window;
  gsize len = 0;

  g_assert_true (g_file_get_contents (db, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (old, contents, (gssize) len, NULL));
  /* Schema 6 made schema 5: its one column dropped, its number back. */
  g_free (sql_text (old, "ALTER TABLE calls DROP COLUMN decided"));
  g_free (sql_text (old, "PRAGMA user_version = 5"));
  library = komi_library_new (old);
  window = komi_window_new (NULL, library);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.verify-library", NULL));
  g_assert_true (app_test_wait (verify_over, window->games_page));
  g_assert_nonnull (strstr (line_of (window->games_page), "written by an older Komi"));
  g_assert_nonnull (strstr (line_of (window->games_page), "komi-cli merge --db NEW.db"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  g_autofree char *series = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status;

  app_test_init (&argc, &argv);
  dir = g_dir_make_tmp ("komi-app-verify-XXXXXX", NULL);
  db = g_build_filename (dir, "library.db", NULL);
  series = g_build_filename (dir, "series.json", NULL);
  g_assert_true (g_file_set_contents (series,
                                      "{\"name\": \"Verified\", \"protocol\": 1, \"subject\": "
                                      "\"random\", \"opponents\": [\"random\"], \"pairs\": 1, "
                                      "\"seed\": 5, \"referee\": \"none\"}", -1, NULL));
  if (run_komi_cli (&out, &err, "run", series, "--db", db, NULL) != 0)
    g_error ("komi-cli run: %s", err);

  g_test_add_func ("/komi/app/verify/library", test_verify_library);
  g_test_add_func ("/komi/app/verify/older-refused", test_older_refused);
  status = g_test_run ();

  remove_test_dir (dir);
  g_free (db);
  g_free (dir);
  return status;
}
