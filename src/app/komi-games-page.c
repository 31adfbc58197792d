/* komi-games-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "komi-games-columns.h"
#include "komi-games-page-private.h"
#include "komi-player-names.h"

/* The model chain is the library's games (a GListStore replaced whole on
 * each read) → a filter → a sort by the view's sorter → a selection. The
 * view makes widgets for the rows on screen only and recycles them; one
 * filter function judges every criterion, and a criterion that changes
 * runs it once over the games (about a millisecond per thousand). */

G_DEFINE_FINAL_TYPE (KomiGamesPage, komi_games_page, ADW_TYPE_BIN)

static gboolean
contains_text (const char *haystack, const char *needle)
{
  gsize n = strlen (needle);

  if (haystack == NULL)
    return FALSE;
  for (; *haystack != '\0'; haystack++)
    if (g_ascii_strncasecmp (haystack, needle, n) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
game_matches (gpointer item, gpointer user_data)
{
  KomiGamesPage *self = user_data;
  const KomiStoreGame *g = KOMI_GAME_ITEM (item)->game;

  if (self->want_series >= 0 && g->series_id != self->want_series)
    return FALSE;
  if (self->want_player != NULL
      && g_strcmp0 (_komi_game_subject_spec (g), self->want_player) != 0)
    return FALSE;
  if (self->want_opponent != NULL
      && g_strcmp0 (_komi_game_opponent_spec (g), self->want_opponent) != 0)
    return FALSE;
  if (self->want_colour != KOMI_EMPTY && g->subject != self->want_colour)
    return FALSE;
  if (self->want_outcome != KOMI_GAME_OUTCOME_NONE && _komi_game_outcome (g) != self->want_outcome)
    return FALSE;
  if (self->want_ending != KOMI_GAME_ENDING_NONE && _komi_game_ending (g) != self->want_ending)
    return FALSE;
  if (self->want_text != NULL
      && !contains_text (g->series_name, self->want_text)
      && !contains_text (g->black_spec, self->want_text)
      && !contains_text (g->white_spec, self->want_text)
      && !contains_text (g->black_name, self->want_text)
      && !contains_text (g->white_name, self->want_text))
    return FALSE;
  return TRUE;
}

/* The string of @drop's selected entry, or NULL for the first ("all"). */
static char *
dup_choice (GtkDropDown *drop)
{
  guint i = gtk_drop_down_get_selected (drop);
  GtkStringObject *item = gtk_drop_down_get_selected_item (drop);
  GPtrArray *specs = g_object_get_data (G_OBJECT (drop), "komi-specs");

  if (i == 0 || i == GTK_INVALID_LIST_POSITION || item == NULL)
    return NULL;
  /* A player's entry shows the name; the games are filtered by spec. */
  if (specs != NULL)
    return i - 1 < specs->len ? g_strdup (g_ptr_array_index (specs, i - 1)) : NULL;
  return g_strdup (gtk_string_object_get_string (item));
}

static void
update_state (KomiGamesPage *self)
{
  guint total = self->library ? g_list_model_get_n_items (komi_library_get_games (self->library))
                              : 0;
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  g_autofree char *count = NULL;

  if (shown == total)
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u game", "%u games", total), total);
  else
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u game", "%u of %u games",
                                          total), shown, total);
  gtk_label_set_text (self->count_label, count);
  gtk_stack_set_visible_child_name (self->stack, total > 0 ? "browse" : "none");
  gtk_stack_set_visible_child_name (self->results_stack, shown > 0 ? "list" : "empty");
}

static void
on_filter_changed (KomiGamesPage *self)
{
  guint series = gtk_drop_down_get_selected (self->series_drop);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  const KomiColor colours[] = { KOMI_EMPTY, KOMI_BLACK, KOMI_WHITE };

  if (self->rebuilding)
    return;
  self->want_series = series > 0 && series <= self->series_ids->len
                      ? g_array_index (self->series_ids, gint64, series - 1) : -1;
  g_free (self->want_player);
  self->want_player = dup_choice (self->player_drop);
  g_free (self->want_opponent);
  self->want_opponent = dup_choice (self->opponent_drop);
  self->want_colour = colours[MIN (gtk_drop_down_get_selected (self->colour_drop), 2)];
  self->want_outcome = MIN (gtk_drop_down_get_selected (self->result_drop),
                            KOMI_GAME_OUTCOME_DRAW);
  self->want_ending = MIN (gtk_drop_down_get_selected (self->end_drop),
                           KOMI_GAME_ENDING_IMPORTED);
  g_free (self->want_text);
  self->want_text = text[0] != '\0' ? g_strdup (text) : NULL;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_state (self);
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Players by name, then by spec (two profiles may share a name). */
static int
compare_players (gconstpointer a, gconstpointer b)
{
  const char *spec_a = *(const char * const *) a, *spec_b = *(const char * const *) b;
  g_autofree char *name_a = komi_player_display_name (spec_a);
  g_autofree char *name_b = komi_player_display_name (spec_b);
  int by_name = g_utf8_collate (name_a, name_b);

  return by_name != 0 ? by_name : g_strcmp0 (spec_a, spec_b);
}

/* Replaces @drop's entries with @first and then @strings (sorted unless
 * @keep_order), keeping the entry selected before when it is still there.
 * @players: @strings are players' specs, shown by their names. */
static void
set_choices (GtkDropDown *drop, const char *first, GPtrArray *strings, gboolean keep_order,
             gboolean players)
{
  g_autofree char *was = dup_choice (drop);
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  GPtrArray *specs = players ? g_ptr_array_new_with_free_func (g_free) : NULL;
  guint selected = 0;

  if (players)
    g_ptr_array_sort (strings, compare_players);
  else if (!keep_order)
    g_ptr_array_sort (strings, compare_strings);
  gtk_string_list_append (list, first);
  for (guint i = 0; i < strings->len; i++)
    {
      const char *string = g_ptr_array_index (strings, i);
      g_autofree char *name = players ? komi_player_display_name (string) : NULL;

      if (was != NULL && g_strcmp0 (was, string) == 0)
        selected = i + 1;
      gtk_string_list_append (list, name != NULL ? name : string);
      if (specs != NULL)
        g_ptr_array_add (specs, g_strdup (string));
    }
  g_object_set_data_full (G_OBJECT (drop), "komi-specs", specs,
                          (GDestroyNotify) g_ptr_array_unref);
  gtk_drop_down_set_model (drop, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (drop, selected);
}

/* The keys of @table (borrowed), in no order; GLib 2.74 has no
 * g_hash_table_get_keys_as_ptr_array(). */
static GPtrArray *
keys_of (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_sized_new (g_hash_table_size (table));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  return keys;
}

/* The series, subjects and opponents the library has, as filter choices. */
static void
rebuild_choices (KomiGamesPage *self)
{
  GListModel *series = self->library ? komi_library_get_series (self->library) : NULL;
  GListModel *games = self->library ? komi_library_get_games (self->library) : NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) players = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) opponents = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) player_list = NULL;
  g_autoptr(GPtrArray) opponent_list = NULL;
  guint series_selected = gtk_drop_down_get_selected (self->series_drop);
  gint64 series_was = series_selected > 0 && series_selected <= self->series_ids->len
                      ? g_array_index (self->series_ids, gint64, series_selected - 1) : -1;
  guint n;

  self->rebuilding = TRUE;
  g_array_set_size (self->series_ids, 0);
  n = series ? g_list_model_get_n_items (series) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KomiSeriesItem) item = g_list_model_get_item (series, i);

      g_array_append_val (self->series_ids, item->series->id);
      /* Two series may share a name; their ids tell them apart. */
      g_ptr_array_add (names, g_strdup_printf ("%s (%" G_GINT64_FORMAT ")",
                                               item->series->name, item->series->id));
    }
  set_choices (self->series_drop, _("All series"), names, TRUE, FALSE);
  for (guint i = 0; i < self->series_ids->len; i++)
    if (g_array_index (self->series_ids, gint64, i) == series_was)
      gtk_drop_down_set_selected (self->series_drop, i + 1);

  /* The games outlive this function: their specs need no copies. */
  n = games ? g_list_model_get_n_items (games) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KomiGameItem) item = g_list_model_get_item (games, i);
      const char *subject = _komi_game_subject_spec (item->game);
      const char *opponent = _komi_game_opponent_spec (item->game);

      if (subject != NULL)
        g_hash_table_add (players, (gpointer) subject);
      if (opponent != NULL)
        g_hash_table_add (opponents, (gpointer) opponent);
    }
  player_list = keys_of (players);
  opponent_list = keys_of (opponents);
  set_choices (self->player_drop, _("All players"), player_list, FALSE, TRUE);
  set_choices (self->opponent_drop, _("All opponents"), opponent_list, FALSE, TRUE);
  self->rebuilding = FALSE;
  on_filter_changed (self);
}

static void
on_library_state (KomiGamesPage *self)
{
  if (komi_library_get_state (self->library) != KOMI_LIBRARY_STATE_LOADING)
    rebuild_choices (self);
}

void
komi_games_page_set_library (KomiGamesPage *self,
                             KomiLibrary   *library)
{
  g_return_if_fail (KOMI_IS_GAMES_PAGE (self));

  if (library != self->library)
    _komi_games_page_forget_verify (self);
  g_set_object (&self->library, library);
  gtk_filter_list_model_set_model (self->filtered,
                                   library ? komi_library_get_games (library) : NULL);
  g_signal_group_set_target (self->library_signals, library);
  rebuild_choices (self);
}

GListModel *
komi_games_page_get_rows (KomiGamesPage *self)
{
  g_return_val_if_fail (KOMI_IS_GAMES_PAGE (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

void
komi_games_page_clear_filters (KomiGamesPage *self)
{
  g_return_if_fail (KOMI_IS_GAMES_PAGE (self));

  self->rebuilding = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_drop_down_set_selected (self->series_drop, 0);
  gtk_drop_down_set_selected (self->player_drop, 0);
  gtk_drop_down_set_selected (self->opponent_drop, 0);
  gtk_drop_down_set_selected (self->colour_drop, 0);
  gtk_drop_down_set_selected (self->result_drop, 0);
  gtk_drop_down_set_selected (self->end_drop, 0);
  self->rebuilding = FALSE;
  on_filter_changed (self);
}

GArray *
komi_games_page_dup_selected_ids (KomiGamesPage *self)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GtkBitset) set = NULL;
  GtkBitsetIter iter;
  guint position;

  g_return_val_if_fail (KOMI_IS_GAMES_PAGE (self), ids);

  set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  for (gboolean more = gtk_bitset_iter_init_first (&iter, set, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr(KomiGameItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted),
                                                            position);

      if (item != NULL)
        g_array_append_val (ids, item->game->id);
    }
  return ids;
}

/* The button says how many games it would write. */
static void
update_export (KomiGamesPage *self)
{
  g_autoptr(GtkBitset) set =
    gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  guint64 n = gtk_bitset_get_size (set);
  g_autofree char *label = NULL;

  if (n == 0)
    label = g_strdup (_("_Export Selected…"));
  else
    label = g_strdup_printf (ngettext ("_Export %u Game…", "_Export %u Games…", (gulong) n),
                             (guint) n);
  gtk_button_set_label (self->export_button, label);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "games.export-selected", n > 0);
}

static void
export_selected_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  KomiGamesPage *self = KOMI_GAMES_PAGE (widget);
  g_autoptr(GArray) ids = komi_games_page_dup_selected_ids (self);

  if (ids->len == 0)
    return;
  gtk_widget_activate_action_variant (widget, "win.export-games",
                                      g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, ids->data,
                                                                 ids->len, sizeof (gint64)));
}

static void
on_view_activate (GtkColumnView *view,
                  guint          position,
                  KomiGamesPage *self)
{
  g_autoptr(KomiGameItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (item != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.review-game", "x", item->game->id);
}

/* Dropdown entries: long specs are cut, the tooltip has them whole. */
static void
setup_choice (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 22);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_choice (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  const char *text = gtk_string_object_get_string (gtk_list_item_get_item (list_item));
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, g_utf8_strlen (text, -1) > 22 ? text : NULL);
}

static void
komi_games_page_dispose (GObject *object)
{
  KomiGamesPage *self = KOMI_GAMES_PAGE (object);

  g_clear_object (&self->library_signals);
  g_clear_object (&self->library);
  gtk_column_view_set_model (self->view, NULL);
  _komi_games_page_dispose_verify (self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  G_OBJECT_CLASS (komi_games_page_parent_class)->dispose (object);
}

static void
komi_games_page_finalize (GObject *object)
{
  KomiGamesPage *self = KOMI_GAMES_PAGE (object);

  g_array_unref (self->series_ids);
  g_free (self->want_player);
  g_free (self->want_opponent);
  g_free (self->want_text);
  G_OBJECT_CLASS (komi_games_page_parent_class)->finalize (object);
}

static void
komi_games_page_class_init (KomiGamesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_games_page_dispose;
  object_class->finalize = komi_games_page_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-games-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, results_stack);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, series_drop);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, player_drop);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, opponent_drop);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, colour_drop);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, result_drop);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, end_drop);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, view);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, clear_button);
  gtk_widget_class_bind_template_child (widget_class, KomiGamesPage, export_button);
  gtk_widget_class_install_action (widget_class, "games.export-selected", NULL,
                                   export_selected_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_view_activate);
  gtk_widget_class_bind_template_callback (widget_class, komi_games_page_clear_filters);
  _komi_games_page_class_init_verify (widget_class);
}

static void
komi_games_page_init (KomiGamesPage *self)
{
  GtkDropDown *drops[6];
  GtkColumnViewColumn *date;
  self->library_signals = g_signal_group_new (KOMI_TYPE_LIBRARY);
  g_signal_group_connect_swapped (self->library_signals, "notify::state",
                                  G_CALLBACK (on_library_state), self);
  self->series_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->want_series = -1;
  self->want_colour = KOMI_EMPTY;
  self->rebuilding = TRUE;   /* the template sets the dropdowns' models */
  gtk_widget_init_template (GTK_WIDGET (self));

  drops[0] = self->series_drop;
  drops[1] = self->player_drop;
  drops[2] = self->opponent_drop;
  drops[3] = self->colour_drop;
  drops[4] = self->result_drop;
  drops[5] = self->end_drop;
  for (guint i = 0; i < G_N_ELEMENTS (drops); i++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      g_signal_connect (factory, "setup", G_CALLBACK (setup_choice), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_choice), NULL);
      gtk_drop_down_set_factory (drops[i], factory);
    }

  self->filter = gtk_custom_filter_new (game_matches, self, NULL);
  self->filtered = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  date = _komi_games_page_add_columns (self->view);
  _komi_games_page_init_verify (self);
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->view)));
  self->selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "selection-changed",
                            G_CALLBACK (update_export), self);
  update_export (self);
  gtk_column_view_sort_by_column (self->view, date, GTK_SORT_DESCENDING);
  self->rebuilding = FALSE;
  rebuild_choices (self);
}
