/* komi-review-window-calls.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The review window's side of a move: the model's probabilities drawn on
 * the board where it decided, its calls for the move shown, and for a
 * move no model made (an engine's) what was played and the engine
 * review's view of it. */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "komi-coords.h"
#include "komi-player-names.h"
#include "komi-protocol.h"
#include "komi-review-calls.h"
#include "komi-review-window-private.h"

/* The model's answer @name (a point as the model was shown it) named on
 * the board as shown now; NULL when it is no point. */
static char *
answer_as_shown (KomiReviewWindow *self, const char *name)
{
  guint size = self->review->replay->size;
  char buf[KOMI_NAME_LEN + 1];
  KomiPoint p;

  if (name == NULL || !komi_point_from_name (size, name, &p) || p == KOMI_PASS)
    return NULL;
  _komi_review_window_shown_name (self, komi_orientation_unapply (_komi_review_window_model_orientation (self), size, p), buf);
  return g_strdup (buf);
}

/* The model's probabilities drawn where it decided: on the position shown,
 * those of its calls for the next move (the last answered best_point
 * call as a heat map, the play_or_pass split beside it). Drawn after the
 * move they would lie under its stone. */
void
_komi_review_window_show_probabilities (KomiReviewWindow *self)
{
  const KomiReplay *r = self->review->replay;
  guint turn = self->step + 1;
  g_autofree double *heat = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->review->calls->len; i++)
    {
      const KomiStoreCall *c = self->review->calls->pdata[i];
      g_autoptr(GHashTable) table = NULL;
      GHashTableIter iter;
      gpointer name, value;

      if (c->turn != turn || (table = komi_review_call_probabilities (c)) == NULL)
        continue;
      if (g_str_equal (c->question, "play_or_pass"))
        {
          double *place = g_hash_table_lookup (table, KOMI_PROTOCOL_OPTION_PLACE_STONE);
          double *pass = g_hash_table_lookup (table, KOMI_PROTOCOL_OPTION_PASS);

          g_string_truncate (text, 0);
          g_string_append_printf (text, _("Move %u: place a stone %.0f%% · pass %.0f%%"), turn,
                                  place ? 100 * *place : 0, pass ? 100 * *pass : 0);
          continue;
        }
      g_clear_pointer (&heat, g_free);
      heat = g_new (double, r->size * r->size);
      for (guint p = 0; p < r->size * r->size; p++)
        heat[p] = -1;
      g_hash_table_iter_init (&iter, table);
      while (g_hash_table_iter_next (&iter, &name, &value))
        {
          KomiPoint p;

          if (komi_point_from_name (r->size, name, &p) && p >= 0)
            heat[komi_orientation_unapply (_komi_review_window_model_orientation (self), r->size, p)] =
              *(double *) value;
        }
    }
  komi_board_view_set_heat (self->board_view, heat);
  if (heat != NULL && text->len > 0)
    g_string_append_printf (text, " · %s",
                            _("the model’s probability of each point is drawn on the board (per cent)"));
  else if (heat != NULL)
    /* TRANSLATORS: %u is the move the model was deciding on this position. */
    g_string_append_printf (text, _("Move %u: the model’s probability of each point is drawn "
                                    "on the board (per cent)"), turn);
  gtk_label_set_text (self->heat_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->heat_label), text->len > 0);
}

static GtkWidget *
card_label (const char *text, const char *css_class)
{
  GtkWidget *l = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (l), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (l), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (l, css_class);
  return l;
}

/* "Black is ahead by 3.5 points" from @lead, the mover's lead. */
static char *
lead_text (const char *mover, double lead)
{
  if (lead >= 0.05)
    /* TRANSLATORS: the side to move ("Black"), its lead in points. */
    return g_strdup_printf (_("%s is ahead by %.1f points"), mover, lead);
  if (lead <= -0.05)
    return g_strdup_printf (_("%s is behind by %.1f points"), mover, -lead);
  return g_strdup_printf (_("%s is even"), mover);
}

/* A move no model made (the opponent's, an engine's): who played what,
 * and what the engine review says of it, or how to get one. */
static GtkWidget *
engine_move_card (KomiReviewWindow *self)
{
  const KomiStoreGame *g = self->review->replay->game;
  const KomiMove *move = &g_array_index (g->moves, KomiMove, self->step - 1);
  const KomiStoreAnalysis *a = _komi_review_window_current_analysis (self);
  const char *colour = move->color == KOMI_BLACK ? _("Black") : _("White");
  g_autofree char *player = komi_player_display_name (move->color == KOMI_BLACK ? g->black_spec
                                                                                : g->white_spec);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  g_autofree char *head = NULL;
  g_autoptr(GString) view = g_string_new (NULL);
  char name[KOMI_NAME_LEN + 1];

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "engine-move");
  gtk_widget_set_margin_top (box, 4);
  _komi_review_window_shown_name (self, move->point, name);
  if (move->point == KOMI_PASS)
    /* TRANSLATORS: "White (GNU Go level 3) passed". */
    head = g_strdup_printf (_("%s (%s) passed"), colour, player);
  else
    /* TRANSLATORS: "White (GNU Go level 3) played C5". */
    head = g_strdup_printf (_("%s (%s) played %s"), colour, player, name);
  gtk_box_append (GTK_BOX (box), card_label (head, "heading"));

  if (a != NULL && self->step <= a->moves->len)
    {
      const KomiStoreAnalysisMove *m = &g_array_index (a->moves, KomiStoreAnalysisMove,
                                                       self->step - 1);
      KomiMoveClass mc = komi_store_analysis_classify (a, m);

      /* TRANSLATORS: %s is the analysis' label, "GNU Go estimate" or "KataGo". */
      g_string_append_printf (view, _("The engine review (%s):"), a->label);
      if (!isnan (m->lead_before))
        {
          g_autofree char *before = lead_text (colour, m->lead_before);

          g_string_append_printf (view, "\n%s %s", _("Before the move:"), before);
        }
      if (!isnan (m->lead_after))
        {
          g_autofree char *after = lead_text (colour, m->lead_after);

          g_string_append_printf (view, "\n%s %s", _("After it:"), after);
        }
      if (!isnan (m->loss) && m->loss > 0)
        {
          g_string_append_c (view, '\n');
          if (mc == KOMI_MOVE_CLASS_BLUNDER)
            g_string_append_printf (view, _("A blunder: %.1f points lost"), m->loss);
          else if (mc == KOMI_MOVE_CLASS_MISTAKE)
            g_string_append_printf (view, _("A mistake: %.1f points lost"), m->loss);
          else
            g_string_append_printf (view, _("%.1f points lost"), m->loss);
        }
      if (m->best == move->point)
        g_string_append_printf (view, "\n%s", _("The engine would have played the same move."));
      else if (m->best != KOMI_NO_POINT)
        {
          char best[KOMI_NAME_LEN + 1];

          _komi_review_window_shown_name (self, m->best, best);
          g_string_append_printf (view, "\n");
          g_string_append_printf (view, _("The engine would have played %s."),
                                  m->best == KOMI_PASS ? _("a pass") : best);
        }
    }
  else
    g_string_append (view, _("No engine review of this game yet: choose Engine Review and "
                             "Analyse to see the engine’s view of this move."));
  gtk_box_append (GTK_BOX (box), card_label (view->str, NULL));
  return box;
}

void
_komi_review_window_show_calls (KomiReviewWindow *self)
{
  GtkWidget *child;
  guint n = 0;
  guint protocol = self->review->replay->game->protocol;
  /* Imported games have no protocol (0), and no calls to fold it into. */
  const char *rules = komi_protocol_is_known (protocol)
                      ? komi_protocol_get_rules_text (protocol, NULL) : NULL;
  g_autofree char *title = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->calls_box))) != NULL)
    gtk_box_remove (self->calls_box, child);
  for (guint i = 0; i < self->review->calls->len; i++)
    {
      const KomiStoreCall *c = self->review->calls->pdata[i];
      g_autofree char *shown = NULL;

      if (c->turn != self->step)
        continue;
      shown = answer_as_shown (self, c->answer);
      gtk_box_append (self->calls_box, komi_review_call_widget (c, rules, shown));
      n++;
    }
  if (self->step == 0)
    title = g_strdup (_("Choose a move to see the model’s calls for it"));
  else if (n == 0)
    {
      title = g_strdup_printf (_("Move %u: no model call"), self->step);
      gtk_box_append (self->calls_box, engine_move_card (self));
    }
  else
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Move %u: %u attempt",
                                          "Move %u: %u attempts", n), self->step, n);
  gtk_label_set_text (self->calls_title, title);
}

