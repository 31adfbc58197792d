/* komi-series-columns.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-library-items.h"
#include "komi-live-run.h"
#include "komi-player-names.h"
#include "komi-series-columns.h"
#include "komi-ui-util.h"

/* The columns of the series page's two tables: its results per opponent
 * (KomiResultItem rows) and its games (KomiGameItem rows). */

/* Rows of the list of series */

static void
setup_series_row (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *progress = gtk_progress_bar_new ();
  GtkWidget *count = gtk_label_new (NULL);

  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_lines (GTK_LABEL (name), 2);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (name, "heading");
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (count), 0);
  gtk_widget_add_css_class (count, "caption");
  gtk_widget_add_css_class (count, "numeric");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), subtitle);
  gtk_box_append (GTK_BOX (box), progress);
  gtk_box_append (GTK_BOX (box), count);
  gtk_list_item_set_child (list_item, box);
}

/* "gnugo:1 against random, gnugo:5" */
static char *
describe_opponents (KomiSeriesItem *item)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GListModel *results = G_LIST_MODEL (item->results);
  g_autofree char *subject = komi_player_display_name (item->series->subject);

  for (guint i = 0; i < g_list_model_get_n_items (results); i++)
    {
      g_autoptr(KomiResultItem) row = g_list_model_get_item (results, i);
      g_autofree char *name = komi_player_display_name (row->opponent);

      g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", name);
    }
  return g_strdup_printf (_("%s against %s"), subject, text->str);
}

static void
bind_series_row (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  KomiSeriesItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *subtitle = gtk_widget_get_next_sibling (name);
  GtkWidget *progress = gtk_widget_get_next_sibling (subtitle);
  GtkWidget *count = gtk_widget_get_next_sibling (progress);
  g_autofree char *opponents = describe_opponents (item);
  g_autofree char *played = komi_series_item_describe (item);

  gtk_label_set_text (GTK_LABEL (name), item->series->name);
  gtk_label_set_text (GTK_LABEL (subtitle), opponents);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (progress),
                                 komi_series_item_get_fraction (item));
  gtk_label_set_text (GTK_LABEL (count), played);
}

void
_komi_series_page_set_series_rows (GtkListView *list)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_series_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_series_row), NULL);
  gtk_list_view_set_factory (list, factory);
  g_object_unref (factory);
}

/* Cells of the results table */

static char *cell_opponent (gpointer p) { return g_strdup (KOMI_RESULT_ITEM (p)->opponent); }
static char *cell_wins (gpointer p) { return g_strdup_printf ("%u", KOMI_RESULT_ITEM (p)->wins); }
static char *
cell_losses (gpointer p)
{
  return g_strdup_printf ("%u", KOMI_RESULT_ITEM (p)->losses);
}

static char *cell_draws (gpointer p) { return g_strdup_printf ("%u", KOMI_RESULT_ITEM (p)->draws); }
static char *cell_margin (gpointer p) { return komi_result_item_format_margin (p); }

static char *
cell_as (KomiResultItem *r, int side)
{
  return g_strdup_printf ("%u–%u", r->wins_as[side], r->losses_as[side]);
}

static char *cell_as_black (gpointer p) { return cell_as (p, 0); }
static char *cell_as_white (gpointer p) { return cell_as (p, 1); }

static char *
cell_apart (gpointer p)
{
  KomiResultItem *r = p;
  g_autoptr(GString) text = g_string_new (NULL);
  const struct { guint n; const char *what; } parts[] = {
    { r->turn_limit, N_("turn limit") },
    { r->voids, N_("void") },
    { r->forfeits, N_("forfeit") },
    { r->unfinished, N_("to play") },
  };

  /* Games that are not plain wins or losses, each kind named; only the
   * kinds there are. */
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i].n > 0)
      g_string_append_printf (text, "%s%u %s", text->len > 0 ? " · " : "", parts[i].n,
                              _(parts[i].what));
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : g_strdup ("—");
}

/* Cells of the games list */

static char *
cell_game_number (gpointer p)
{
  return g_strdup_printf ("%d", KOMI_GAME_ITEM (p)->game->plan_index + 1);
}

static char *
cell_subject_color (gpointer p)
{
  KomiColor c = KOMI_GAME_ITEM (p)->game->subject;

  return g_strdup (c == KOMI_BLACK ? _("Black") : c == KOMI_WHITE ? _("White") : "—");
}

static char *
cell_opponent_spec (gpointer p)
{
  const KomiStoreGame *g = KOMI_GAME_ITEM (p)->game;

  return g_strdup (g->subject == KOMI_BLACK ? g->white_spec : g->black_spec);
}
/* The result whole ("W+88.5"); how the game ended is its tooltip. */
static char *
cell_result (const KomiStoreGame *g)
{
  switch (g->status)
    {
    case KOMI_GAME_STATUS_PENDING: return g_strdup (_("Pending"));
    case KOMI_GAME_STATUS_RUNNING: return g_strdup (_("Started"));
    case KOMI_GAME_STATUS_VOID: return g_strdup (_("Void"));
    default: break;
    }
  if (g->result == NULL)
    return g_strdup ("—");
  return g_strdup (g_str_equal (g->result, "0") ? _("Draw") : g->result);   /* SGF's draw */
}

static const char *
game_ending (const KomiStoreGame *g)
{
  switch (g->status)
    {
    case KOMI_GAME_STATUS_PENDING: return NULL;
    case KOMI_GAME_STATUS_RUNNING: return _("Playing");
    case KOMI_GAME_STATUS_FORFEIT: return _("Forfeit");
    case KOMI_GAME_STATUS_VOID: return _("Void");
    default: break;
    }
  return g->end_reason == KOMI_END_TURN_LIMIT ? _("Turn limit") : _("Two passes");
}

/* Asked for when the pointer rests (see komi-ui-util.c: never set on bind). */
static gboolean
on_result_tooltip (GtkWidget *label, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                   GtkListItem *list_item)
{
  KomiGameItem *item = gtk_list_item_get_item (list_item);
  const char *ending = item != NULL ? game_ending (item->game) : NULL;
  g_autofree char *text = NULL;

  if (ending == NULL)
    return FALSE;
  text = g_strdup_printf ("%s · %s", gtk_label_get_text (GTK_LABEL (label)), ending);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* The result whole, never cut. (Not of a fixed width: any width beyond
 * what the rows need folds the list of series away at 1200 px, see
 * test-app-window's narrow-window-folds-list.) */
/* The characters of the widest result a cell can show: a word, or a
 * score of three figures. */
static int
result_chars (void)
{
  const char *texts[] = { _("Pending"), _("Started"), _("Void"), _("Draw"), "W+188.5" };
  int chars = 0;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    chars = MAX (chars, (int) g_utf8_strlen (texts[i], -1));
  return chars;
}

static void
setup_result (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* As wide for "Pending" as for "W+88.5": the column keeps its width as
   * results arrive, and so does the Opponent column beside it. */
  gtk_label_set_width_chars (GTK_LABEL (label), result_chars ());
  gtk_label_set_max_width_chars (GTK_LABEL (label), result_chars ());
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (on_result_tooltip), list_item);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_result (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  KomiGameItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = cell_result (item->game);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static const KomiColumn result_columns[] = {
  { N_("Opponent"), cell_opponent, TRUE, KOMI_CELL_PLAYER },
  { N_("Wins"), cell_wins, FALSE, KOMI_CELL_NUMERIC },
  { N_("Losses"), cell_losses, FALSE, KOMI_CELL_NUMERIC },
  { N_("Draws"), cell_draws, FALSE, KOMI_CELL_NUMERIC },
  { N_("As Black"), cell_as_black, FALSE, KOMI_CELL_NUMERIC },
  { N_("As White"), cell_as_white, FALSE, KOMI_CELL_NUMERIC },
  { N_("Margin"), cell_margin, FALSE, KOMI_CELL_NUMERIC },
  { N_("Apart"), cell_apart, FALSE, 0 },
};

static const KomiColumn game_columns[] = {
  { "#", cell_game_number, FALSE, KOMI_CELL_NUMERIC },
  { N_("Subject as"), cell_subject_color, FALSE, 0 },
  { N_("Opponent"), cell_opponent_spec, TRUE, KOMI_CELL_PLAYER },
};

/* The Moves column is live: a game in play in the window's run counts
 * each move as the run tells of it. Each cell listens to the run for as
 * long as its row lives. */
static void
set_moves (GtkListItem *list_item, KomiLiveRun *live)
{
  KomiGameItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  if (item == NULL || label == NULL)
    return;
  text = g_strdup_printf ("%u", komi_live_run_count_moves (live, item->game->id,
                                                           item->game->n_moves));
  gtk_label_set_text (GTK_LABEL (label), text);
}

static void
on_live_game (KomiLiveRun *live, gint64 game_id, guint kind, GtkListItem *list_item)
{
  KomiGameItem *item = gtk_list_item_get_item (list_item);

  if (item != NULL && item->game->id == game_id && kind == KOMI_RUN_EVENT_MOVE_PLAYED)
    set_moves (list_item, live);
}

static void
setup_moves (GtkSignalListItemFactory *factory, GtkListItem *list_item, KomiLiveRun *live)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1.0f);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
  g_signal_connect_object (live, "game-changed", G_CALLBACK (on_live_game), list_item, 0);
}

static void
bind_moves (GtkSignalListItemFactory *factory, GtkListItem *list_item, KomiLiveRun *live)
{
  set_moves (list_item, live);
}

void
_komi_series_page_add_columns (GtkColumnView *results,
                               GtkColumnView *games,
                               KomiLiveRun   *live)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkListItemFactory *result_factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) result = NULL;
  g_autoptr(GtkColumnViewColumn) moves = NULL;

  komi_column_view_add_columns (results, result_columns, G_N_ELEMENTS (result_columns));
  komi_column_view_add_columns (games, game_columns, G_N_ELEMENTS (game_columns));
  /* Moves, three figures at most, is never wider than its title. */
  g_signal_connect (result_factory, "setup", G_CALLBACK (setup_result), NULL);
  g_signal_connect (result_factory, "bind", G_CALLBACK (bind_result), NULL);
  result = gtk_column_view_column_new (_("Result"), result_factory);
  gtk_column_view_column_set_resizable (result, TRUE);
  gtk_column_view_append_column (games, result);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_moves), live);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_moves), live);
  moves = gtk_column_view_column_new (_("Moves"), factory);
  gtk_column_view_column_set_resizable (moves, TRUE);
  gtk_column_view_append_column (games, moves);
}
