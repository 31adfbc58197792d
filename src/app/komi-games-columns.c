/* komi-games-columns.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "komi-games-columns.h"
#include "komi-provider.h"
#include "komi-ui-util.h"

/* The Games page's table: one KomiGameItem per row. Every column sorts;
 * each comparison ends on the game's id, so equal rows keep one order. */

const char *
_komi_game_subject_spec (const KomiStoreGame *g)
{
  return g->subject == KOMI_BLACK ? g->black_spec : g->subject == KOMI_WHITE ? g->white_spec
                                                                             : NULL;
}

const char *
_komi_game_opponent_spec (const KomiStoreGame *g)
{
  return g->subject == KOMI_BLACK ? g->white_spec : g->subject == KOMI_WHITE ? g->black_spec
                                                                             : NULL;
}

KomiGameOutcome
_komi_game_outcome (const KomiStoreGame *g)
{
  /* As the Series page counts: wins, losses and draws are counted games
   * (two passes or the turn limit); forfeits and void games are apart. */
  if (g->subject == KOMI_EMPTY || !g->has_winner || g->status != KOMI_GAME_STATUS_FINISHED)
    return KOMI_GAME_OUTCOME_NONE;
  if (g->winner == KOMI_EMPTY)
    return KOMI_GAME_OUTCOME_DRAW;
  return g->winner == g->subject ? KOMI_GAME_OUTCOME_WIN : KOMI_GAME_OUTCOME_LOSS;
}

KomiGameEnding
_komi_game_ending (const KomiStoreGame *g)
{
  switch (g->status)
    {
    case KOMI_GAME_STATUS_FINISHED:
      return g->end_reason == KOMI_END_TURN_LIMIT ? KOMI_GAME_ENDING_TURN_LIMIT
                                                  : KOMI_GAME_ENDING_TWO_PASSES;
    case KOMI_GAME_STATUS_FORFEIT: return KOMI_GAME_ENDING_FORFEIT;
    case KOMI_GAME_STATUS_VOID: return KOMI_GAME_ENDING_VOID;
    case KOMI_GAME_STATUS_IMPORTED: return KOMI_GAME_ENDING_IMPORTED;
    default: return KOMI_GAME_ENDING_NONE;
    }
}

/* The margin as the subject sees it (negative: lost by); the winner's for
 * an imported game; NAN when not known. */
static double
subject_margin (const KomiStoreGame *g)
{
  if (isnan (g->margin) || !g->has_winner)
    return NAN;
  if (g->subject == KOMI_EMPTY || g->winner == KOMI_EMPTY || g->winner == g->subject)
    return g->margin;
  return -g->margin;
}

/* Unchecked: the sorters run n log n times over rows known to be games. */
#define GAME(p) ((const KomiStoreGame *) ((const KomiGameItem *) (p))->game)

/* Cells */

static char *
cell_date (gpointer p)
{
  const KomiStoreGame *g = GAME (p);
  char *text;

  if (g->started == NULL)
    return g_strdup (g->date != NULL ? g->date : "—");
  /* "2026-11-29T18:22:10Z" → "2026-11-29 18:22" (UTC, as recorded) */
  text = g_strndup (g->started, 16);
  if (strlen (text) > 10 && text[10] == 'T')
    text[10] = ' ';
  return text;
}

static char *
cell_series (gpointer p)
{
  const KomiStoreGame *g = GAME (p);

  if (g->series_id == 0)
    return g_strdup (_("Imported"));
  return g_strdup_printf ("%s #%d", g->series_name, g->plan_index + 1);
}

static char *
cell_subject (gpointer p)
{
  const char *spec = _komi_game_subject_spec (GAME (p));

  return g_strdup (spec != NULL ? spec : GAME (p)->black_spec);
}

static char *
cell_opponent (gpointer p)
{
  const char *spec = _komi_game_opponent_spec (GAME (p));

  return g_strdup (spec != NULL ? spec : GAME (p)->white_spec);
}

static char *
cell_colour (gpointer p)
{
  KomiColor c = GAME (p)->subject;

  return g_strdup (c == KOMI_BLACK ? _("Black") : c == KOMI_WHITE ? _("White") : "—");
}

static char *
cell_result (gpointer p)
{
  const KomiStoreGame *g = GAME (p);
  const char *words[] = { NULL, N_("Win"), N_("Loss"), N_("Draw") };
  KomiGameOutcome outcome = _komi_game_outcome (g);

  if (outcome == KOMI_GAME_OUTCOME_NONE)
    return g_strdup (g->result != NULL ? g->result : "—");
  if (g->result == NULL || g_str_equal (g->result, "0"))
    return g_strdup (_(words[outcome]));
  return g_strdup_printf ("%s · %s", _(words[outcome]), g->result);
}

static char *
cell_ending (gpointer p)
{
  const char *words[] = { N_("Playing"), N_("Two passes"), N_("Turn limit"), N_("Forfeit"),
                          N_("Void"), N_("Imported") };

  return g_strdup (_(words[_komi_game_ending (GAME (p))]));
}

static char *
cell_margin (gpointer p)
{
  double m = subject_margin (GAME (p));

  if (isnan (m))
    return g_strdup ("—");
  if (m == 0)
    return g_strdup ("0");
  return g_strdup_printf ("%s%.1f", m > 0 ? "+" : "−", fabs (m));
}

static char *cell_moves (gpointer p) { return g_strdup_printf ("%u", GAME (p)->n_moves); }
static char *cell_calls (gpointer p) { return g_strdup_printf ("%u", GAME (p)->n_calls); }

static char *
cell_cost (gpointer p)
{
  double cost = GAME (p)->cost_usd;

  return isnan (cost) ? g_strdup ("—") : komi_cost_text (cost);
}

/* Sorters */

static int
by_id (const KomiStoreGame *a, const KomiStoreGame *b)
{
  return (a->id > b->id) - (a->id < b->id);
}

static int
by_text (const char *x, const char *y, const KomiStoreGame *a, const KomiStoreGame *b)
{
  int c = g_strcmp0 (x, y);

  return c != 0 ? (c > 0) - (c < 0) : by_id (a, b);
}

/* Unknown (NAN) below every value. */
static int
by_double (double x, double y, const KomiStoreGame *a, const KomiStoreGame *b)
{
  if (isnan (x) != isnan (y))
    return isnan (x) ? -1 : 1;
  if (!isnan (x) && x != y)
    return x < y ? -1 : 1;
  return by_id (a, b);
}

static int
sort_date (gconstpointer p, gconstpointer q, gpointer data)
{
  const KomiStoreGame *a = GAME (p), *b = GAME (q);

  return by_text (a->started != NULL ? a->started : a->date,
                  b->started != NULL ? b->started : b->date, a, b);
}

static int
sort_series (gconstpointer p, gconstpointer q, gpointer data)
{
  const KomiStoreGame *a = GAME (p), *b = GAME (q);
  int c = g_strcmp0 (a->series_name, b->series_name);

  if (c != 0)
    return (c > 0) - (c < 0);
  if (a->plan_index != b->plan_index)
    return a->plan_index < b->plan_index ? -1 : 1;
  return by_id (a, b);
}

static int
sort_subject (gconstpointer p, gconstpointer q, gpointer data)
{
  return by_text (_komi_game_subject_spec (GAME (p)), _komi_game_subject_spec (GAME (q)),
                  GAME (p), GAME (q));
}

static int
sort_opponent (gconstpointer p, gconstpointer q, gpointer data)
{
  return by_text (_komi_game_opponent_spec (GAME (p)), _komi_game_opponent_spec (GAME (q)),
                  GAME (p), GAME (q));
}

static int
sort_colour (gconstpointer p, gconstpointer q, gpointer data)
{
  return by_double (GAME (p)->subject, GAME (q)->subject, GAME (p), GAME (q));
}

static int
sort_result (gconstpointer p, gconstpointer q, gpointer data)
{
  /* Losses, draws, wins: ascending is worst first. */
  const int rank[] = { 0, 3, 1, 2 };

  return by_double (rank[_komi_game_outcome (GAME (p))], rank[_komi_game_outcome (GAME (q))],
                    GAME (p), GAME (q));
}

static int
sort_ending (gconstpointer p, gconstpointer q, gpointer data)
{
  return by_double (_komi_game_ending (GAME (p)), _komi_game_ending (GAME (q)),
                    GAME (p), GAME (q));
}

static int
sort_margin (gconstpointer p, gconstpointer q, gpointer data)
{
  return by_double (subject_margin (GAME (p)), subject_margin (GAME (q)), GAME (p), GAME (q));
}

static int
sort_moves (gconstpointer p, gconstpointer q, gpointer data)
{
  return by_double (GAME (p)->n_moves, GAME (q)->n_moves, GAME (p), GAME (q));
}

static int
sort_calls (gconstpointer p, gconstpointer q, gpointer data)
{
  return by_double (GAME (p)->n_calls, GAME (q)->n_calls, GAME (p), GAME (q));
}

static int
sort_cost (gconstpointer p, gconstpointer q, gpointer data)
{
  return by_double (GAME (p)->cost_usd, GAME (q)->cost_usd, GAME (p), GAME (q));
}

static const struct
{
  KomiColumn       column;
  GCompareDataFunc sort;
} columns[] = {
  /* Short cells whole; series and players' specs give way (ellipsized,
   * whole in their tooltips). */
  { { N_("Date"), cell_date, FALSE, KOMI_CELL_NUMERIC | KOMI_CELL_WHOLE }, sort_date },
  { { N_("Series"), cell_series, TRUE, 0 }, sort_series },
  { { N_("Subject"), cell_subject, TRUE, KOMI_CELL_PLAYER }, sort_subject },
  { { N_("Opponent"), cell_opponent, TRUE, KOMI_CELL_PLAYER }, sort_opponent },
  { { N_("As"), cell_colour, FALSE, KOMI_CELL_WHOLE }, sort_colour },
  { { N_("Result"), cell_result, FALSE, KOMI_CELL_WHOLE }, sort_result },
  { { N_("Ending"), cell_ending, FALSE, KOMI_CELL_WHOLE }, sort_ending },
  { { N_("Margin"), cell_margin, FALSE, KOMI_CELL_NUMERIC | KOMI_CELL_WHOLE }, sort_margin },
  { { N_("Moves"), cell_moves, FALSE, KOMI_CELL_NUMERIC | KOMI_CELL_WHOLE }, sort_moves },
  { { N_("Calls"), cell_calls, FALSE, KOMI_CELL_NUMERIC | KOMI_CELL_WHOLE }, sort_calls },
  { { N_("Cost"), cell_cost, FALSE, KOMI_CELL_NUMERIC | KOMI_CELL_WHOLE }, sort_cost },
};

GtkColumnViewColumn *
_komi_games_page_add_columns (GtkColumnView *view)
{
  GtkColumnViewColumn *first = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkColumnViewColumn *column =
        komi_column_view_add_text (view, g_dgettext (GETTEXT_PACKAGE, columns[i].column.title),
                                   columns[i].column.func, columns[i].column.expand,
                                   columns[i].column.flags);
      GtkCustomSorter *sorter = gtk_custom_sorter_new (columns[i].sort, NULL, NULL);

      gtk_column_view_column_set_sorter (column, GTK_SORTER (sorter));
      g_object_unref (sorter);
      if (first == NULL)
        first = column;
    }
  return first;
}
