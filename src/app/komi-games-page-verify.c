/* komi-games-page-verify.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-games-page-private.h"
#include "komi-ui-util.h"

/* Verify Library (win.verify-library) on the Games page: the library
 * verified on a worker thread by the code of `komi-cli verify`
 * (komi_verify_library_at: opened read-only as untrusted input, the
 * shipped ladder's pins), its progress in a bar over the list with
 * Cancel, then a "Verified" column: per game a mark, or a short word for
 * what failed and every problem in the cell's tooltip. The findings are
 * kept by game id across reloads of the library, until the next Verify
 * Library or another library. */

/* A short word for what found a problem (komi-verify.h). */
static const char *
check_word (KomiVerifyCheck check)
{
  switch (check)
    {
    case KOMI_VERIFY_MOVES: return _("Illegal move");
    case KOMI_VERIFY_RESULT: return _("Result differs");
    case KOMI_VERIFY_REQUEST: return _("Request differs");
    case KOMI_VERIFY_ANSWER: return _("Answer differs");
    case KOMI_VERIFY_ATTEMPTS: return _("Attempt missing");
    case KOMI_VERIFY_PIN: return _("Engine not as pinned");
    case KOMI_VERIFY_DEAD: return _("Dead stones differ");
    case KOMI_VERIFY_REPLAY: return _("Engine move differs");
    default: return _("Does not verify");
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_box_append (GTK_BOX (box), gtk_image_new ());
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (list_item, box);
}

/* Shows @v (NULL: not verified) in the cell of @list_item. */
static void
show_cell (GtkListItem *list_item, const KomiVerifiedGame *v)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *image = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (image);
  g_autofree char *text = NULL;
  g_autoptr(GString) tooltip = NULL;

  gtk_widget_remove_css_class (box, "success");
  gtk_widget_remove_css_class (box, "error");
  if (v == NULL)
    {
      gtk_image_clear (GTK_IMAGE (image));
      gtk_label_set_text (GTK_LABEL (label), "—");
      gtk_widget_set_tooltip_text (box, _("Not verified: the game had not ended, or came in "
                                          "after Verify Library"));
      return;
    }
  if (v->problems->len == 0)
    {
      gtk_image_set_from_icon_name (GTK_IMAGE (image), "emblem-ok-symbolic");
      gtk_label_set_text (GTK_LABEL (label), _("Verified"));
      gtk_widget_add_css_class (box, "success");
      gtk_widget_set_tooltip_text (box, _("Every move, request, answer and the result hold "
                                          "as recorded"));
      return;
    }
  gtk_image_set_from_icon_name (GTK_IMAGE (image), "dialog-warning-symbolic");
  if (v->problems->len == 1)
    gtk_label_set_text (GTK_LABEL (label),
                        check_word (g_array_index (v->checks, KomiVerifyCheck, 0)));
  else
    {
      /* Translators: what failed first, and how many problems more. */
      text = g_strdup_printf (ngettext ("%s (+%u more)", "%s (+%u more)", v->problems->len - 1),
                              check_word (g_array_index (v->checks, KomiVerifyCheck, 0)),
                              v->problems->len - 1);
      gtk_label_set_text (GTK_LABEL (label), text);
    }
  gtk_widget_add_css_class (box, "error");
  /* The problems as verify words them (English, like the record). */
  tooltip = g_string_new (NULL);
  for (guint i = 0; i < v->problems->len; i++)
    g_string_append_printf (tooltip, "%s• %s", i > 0 ? "\n" : "",
                            (const char *) g_ptr_array_index (v->problems, i));
  gtk_widget_set_tooltip_text (box, tooltip->str);
}

static const KomiVerifiedGame *
lookup (KomiGamesPage *self, gpointer item)
{
  gint64 id = KOMI_GAME_ITEM (item)->game->id;

  return self->verified != NULL ? g_hash_table_lookup (self->verified, &id) : NULL;
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  KomiGamesPage *self = data;

  if (self->verify_cells != NULL)
    g_hash_table_add (self->verify_cells, list_item);
  show_cell (list_item, lookup (self, gtk_list_item_get_item (list_item)));
}

static void
unbind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  KomiGamesPage *self = data;

  if (self->verify_cells != NULL)
    g_hash_table_remove (self->verify_cells, list_item);
}

/* Not verified, verified, failed: ascending puts the failures last. */
static int
rank (KomiGamesPage *self, gpointer item)
{
  const KomiVerifiedGame *v = lookup (self, item);

  return v == NULL ? 0 : v->problems->len == 0 ? 1 : 2;
}

static int
sort_verified (gconstpointer a, gconstpointer b, gpointer data)
{
  int x = rank (data, (gpointer) a), y = rank (data, (gpointer) b);
  gint64 i = KOMI_GAME_ITEM ((gpointer) a)->game->id, j = KOMI_GAME_ITEM ((gpointer) b)->game->id;

  if (x != y)
    return x < y ? -1 : 1;
  return (i > j) - (i < j);
}

/* The findings of @report shown, in the cells on screen too. */
static void
take_report (KomiGamesPage *self, KomiVerifyReport *report)
{
  GHashTableIter iter;
  gpointer cell;

  g_clear_pointer (&self->verified, g_hash_table_unref);
  self->verified = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
                                          (GDestroyNotify) komi_verified_game_free);
  for (guint i = 0; i < report->games->len; i++)
    {
      KomiVerifiedGame *v = g_ptr_array_index (report->games, i);

      /* The key lives in the value. */
      g_hash_table_insert (self->verified, &v->game_id, v);
    }
  g_ptr_array_set_free_func (report->games, NULL);
  gtk_column_view_column_set_visible (self->verify_column, TRUE);
  g_hash_table_iter_init (&iter, self->verify_cells);
  while (g_hash_table_iter_next (&iter, &cell, NULL))
    show_cell (cell, lookup (self, gtk_list_item_get_item (cell)));
}

static gboolean
tick (gpointer user_data)
{
  KomiGamesPage *self = user_data;

  komi_games_progress_show (&self->verify_progress, self->verify_bar);
  return G_SOURCE_CONTINUE;
}

static void
verify_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  KomiVerifyReport *report;

  /* The page outlives the task (it holds the page), and the progress is
   * the only thing of the page's the thread writes. */
  report = komi_verify_library_at (task_data, NULL, komi_games_progress_report,
                                   &KOMI_GAMES_PAGE (source)->verify_progress, cancellable,
                                   &error);
  if (report != NULL)
    g_task_return_pointer (task, report, (GDestroyNotify) komi_verify_report_free);
  else
    g_task_return_error (task, error);
}

/* The bar's line while verifying, and what came of it after. */
static void
show_state (KomiGamesPage *self, gboolean running, const char *text, gboolean failed)
{
  gtk_widget_set_visible (GTK_WIDGET (self->verify_bar), running);
  gtk_widget_set_visible (GTK_WIDGET (self->verify_cancel), running);
  gtk_widget_set_visible (GTK_WIDGET (self->verify_close), !running);
  gtk_label_set_text (self->verify_label, text);
  if (failed)
    gtk_widget_add_css_class (GTK_WIDGET (self->verify_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->verify_label), "error");
  gtk_revealer_set_reveal_child (self->verify_revealer, TRUE);
}

static void
verify_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  KomiGamesPage *self = KOMI_GAMES_PAGE (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiVerifyReport) report = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *text = NULL;

  /* A verification given up (another library, the page gone) says
   * nothing; Cancel, pressed on this one, says it was. */
  if (self->verify_cancellable == NULL
      || g_task_get_cancellable (G_TASK (result)) != self->verify_cancellable)
    return;
  g_clear_handle_id (&self->verify_tick, g_source_remove);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "games.cancel-verify", FALSE);
  /* Cancel pressed as the last game was done is still a Cancel. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_cancellable_is_cancelled (self->verify_cancellable))
    {
      g_clear_object (&self->verify_cancellable);
      show_state (self, FALSE, _("Verification cancelled: the marks shown are from before"),
                  FALSE);
      return;
    }
  g_clear_object (&self->verify_cancellable);
  if (report == NULL)
    {
      text = g_strdup_printf (_("The library was not verified: %s"), error->message);
      show_state (self, FALSE, text, TRUE);
      return;
    }
  if (report->n_failed == 0)
    text = g_strdup_printf (ngettext ("%u game verified: every one holds",
                                      "%u games verified: every one holds",
                                      report->games->len), report->games->len);
  else
    /* Translators: games verified, of them failing. */
    text = g_strdup_printf (ngettext ("%u game verified: %u failed (see the Verified column)",
                                      "%u games verified: %u failed (see the Verified column)",
                                      report->games->len),
                            report->games->len, report->n_failed);
  take_report (self, report);
  show_state (self, FALSE, text, report->n_failed > 0);
}

void
komi_games_page_verify (KomiGamesPage *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KOMI_IS_GAMES_PAGE (self));

  if (self->library == NULL || self->verify_cancellable != NULL)
    return;
  self->verify_cancellable = g_cancellable_new ();
  komi_games_progress_report (0, 0, &self->verify_progress);
  gtk_progress_bar_set_fraction (self->verify_bar, 0);
  gtk_progress_bar_set_text (self->verify_bar, "");
  show_state (self, TRUE, _("Verifying every game from its record…"), FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "games.cancel-verify", TRUE);
  self->verify_tick = g_timeout_add (100, tick, self);

  task = g_task_new (self, self->verify_cancellable, verify_done, NULL);
  g_task_set_source_tag (task, komi_games_page_verify);
  g_task_set_task_data (task, g_strdup (komi_library_get_path (self->library)), g_free);
  g_task_run_in_thread (task, verify_thread);
}

gboolean
komi_games_page_get_verifying (KomiGamesPage *self)
{
  g_return_val_if_fail (KOMI_IS_GAMES_PAGE (self), FALSE);
  return self->verify_cancellable != NULL;
}

const KomiVerifiedGame *
komi_games_page_get_verified (KomiGamesPage *self,
                              gint64         game_id)
{
  g_return_val_if_fail (KOMI_IS_GAMES_PAGE (self), NULL);
  return self->verified != NULL ? g_hash_table_lookup (self->verified, &game_id) : NULL;
}

static void
cancel_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  KomiGamesPage *self = KOMI_GAMES_PAGE (widget);

  if (self->verify_cancellable != NULL)
    g_cancellable_cancel (self->verify_cancellable);
}

static void
dismiss_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  KomiGamesPage *self = KOMI_GAMES_PAGE (widget);

  if (self->verify_cancellable == NULL)
    gtk_revealer_set_reveal_child (self->verify_revealer, FALSE);
}

/* The verification running given up: its findings will not be shown. */
static void
give_up (KomiGamesPage *self)
{
  g_autoptr(GCancellable) cancellable = g_steal_pointer (&self->verify_cancellable);

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
  g_clear_handle_id (&self->verify_tick, g_source_remove);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "games.cancel-verify", FALSE);
}

void
_komi_games_page_forget_verify (KomiGamesPage *self)
{
  give_up (self);
  g_clear_pointer (&self->verified, g_hash_table_unref);
  gtk_column_view_column_set_visible (self->verify_column, FALSE);
  gtk_revealer_set_reveal_child (self->verify_revealer, FALSE);
}

void
_komi_games_page_class_init_verify (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, verify_revealer);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, verify_label);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, verify_bar);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, verify_cancel);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, verify_close);
  gtk_widget_class_install_action (widget_class, "games.cancel-verify", NULL, cancel_activated);
  gtk_widget_class_install_action (widget_class, "games.dismiss-verify", NULL,
                                   dismiss_activated);
}

void
_komi_games_page_init_verify (KomiGamesPage *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = NULL;

  self->verify_cells = g_hash_table_new (NULL, NULL);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), self);
  self->verify_column = gtk_column_view_column_new (_("Verified"), g_object_ref (factory));
  sorter = GTK_SORTER (gtk_custom_sorter_new (sort_verified, self, NULL));
  gtk_column_view_column_set_sorter (self->verify_column, sorter);
  gtk_column_view_column_set_visible (self->verify_column, FALSE);
  /* After Result, so that it shows without scrolling. */
  gtk_column_view_insert_column (self->view, 6, self->verify_column);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "games.cancel-verify", FALSE);
}

void
_komi_games_page_dispose_verify (KomiGamesPage *self)
{
  give_up (self);
  g_clear_pointer (&self->verified, g_hash_table_unref);
  g_clear_pointer (&self->verify_cells, g_hash_table_unref);
  g_clear_object (&self->verify_column);
}
