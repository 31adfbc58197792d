/* komi-series-columns.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-library-items.h"
#include "komi-series-columns.h"
#include "komi-ui-util.h"

/* The columns of the series page's two tables: its results per opponent
 * (KomiResultItem rows) and its games (KomiGameItem rows). */

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
static char *cell_result (gpointer p) { return komi_game_item_format_result (p); }

static char *
cell_moves (gpointer p)
{
  return g_strdup_printf ("%u", KOMI_GAME_ITEM (p)->game->n_moves);
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
  { N_("Result"), cell_result, FALSE, KOMI_CELL_TOOLTIP },
  { N_("Moves"), cell_moves, FALSE, KOMI_CELL_NUMERIC },
};

void
_komi_series_page_add_columns (GtkColumnView *results,
                               GtkColumnView *games)
{
  komi_column_view_add_columns (results, result_columns, G_N_ELEMENTS (result_columns));
  komi_column_view_add_columns (games, game_columns, G_N_ELEMENTS (game_columns));
}
