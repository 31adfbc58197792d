/* komi-library-items.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-library"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "komi-library-items.h"

G_DEFINE_FINAL_TYPE (KomiSeriesItem, komi_series_item, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (KomiResultItem, komi_result_item, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (KomiGameItem, komi_game_item, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (KomiPlayerItem, komi_player_item, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (KomiRatingItem, komi_rating_item, G_TYPE_OBJECT)

/* Series */

static void
komi_series_item_finalize (GObject *object)
{
  KomiSeriesItem *self = KOMI_SERIES_ITEM (object);

  g_clear_pointer (&self->series, komi_store_series_free);
  g_clear_object (&self->results);
  g_clear_object (&self->games);
  G_OBJECT_CLASS (komi_series_item_parent_class)->finalize (object);
}

static void
komi_series_item_class_init (KomiSeriesItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = komi_series_item_finalize;
}

static void
komi_series_item_init (KomiSeriesItem *self)
{
  self->results = g_list_store_new (KOMI_TYPE_RESULT_ITEM);
  self->games = g_list_store_new (KOMI_TYPE_GAME_ITEM);
}

KomiSeriesItem *
komi_series_item_new (KomiStoreSeries *series)
{
  KomiSeriesItem *self = g_object_new (KOMI_TYPE_SERIES_ITEM, NULL);

  self->series = series;
  return self;
}

static KomiResultItem *
result_for (KomiSeriesItem *self, guint opponent, const char *spec)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->results));
  KomiResultItem *row;

  /* Rows are in opponent order: the plan lists every game of opponent k
   * before those of k + 1. */
  while (n <= opponent)
    {
      row = g_object_new (KOMI_TYPE_RESULT_ITEM, NULL);
      g_list_store_append (self->results, row);
      g_object_unref (row);
      n++;
    }
  row = g_list_model_get_item (G_LIST_MODEL (self->results), opponent);
  g_object_unref (row);   /* the store keeps it */
  if (row->opponent == NULL)
    row->opponent = g_strdup (spec);
  return row;
}

KomiGameItem *
komi_series_item_add_game (KomiSeriesItem *self,
                           KomiStoreGame  *game)
{
  g_autoptr(KomiGameItem) item = komi_game_item_new (game);
  KomiResultItem *row;
  int side;

  g_return_val_if_fail (KOMI_IS_SERIES_ITEM (self), NULL);

  g_list_store_append (self->games, item);
  if (game->subject != KOMI_BLACK && game->subject != KOMI_WHITE)
    return item;

  side = game->subject == KOMI_BLACK ? 0 : 1;
  row = result_for (self, game->opponent,
                    game->subject == KOMI_BLACK ? game->white_spec : game->black_spec);
  row->games++;
  switch (game->status)
    {
    case KOMI_GAME_STATUS_FINISHED:
      if (game->has_winner && game->winner == game->subject)
        {
          row->wins++;
          row->wins_as[side]++;
        }
      else if (game->has_winner && game->winner == KOMI_EMPTY)
        row->draws++;
      else if (game->has_winner)
        {
          row->losses++;
          row->losses_as[side]++;
        }
      if (game->end_reason == KOMI_END_TURN_LIMIT)
        row->turn_limit++;
      if (!isnan (game->margin) && game->has_winner)
        {
          double m = game->winner == KOMI_EMPTY ? 0 : game->margin;

          row->margin_sum += game->winner == game->subject || game->winner == KOMI_EMPTY ? m : -m;
          row->margin_games++;
        }
      break;
    case KOMI_GAME_STATUS_VOID:
      row->voids++;
      break;
    case KOMI_GAME_STATUS_FORFEIT:
      row->forfeits++;
      break;
    default:
      row->unfinished++;
      break;
    }
  return item;   /* the series' store keeps it */
}

double
komi_series_item_get_fraction (KomiSeriesItem *self)
{
  const KomiStoreSeries *s = self->series;

  if (s->n_games == 0)
    return 0;
  return (double) (s->n_games - s->n_unfinished) / s->n_games;
}

char *
komi_series_item_describe (KomiSeriesItem *self)
{
  const KomiStoreSeries *s = self->series;

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u game played",
                                       "%u of %u games played", s->n_games),
                          s->n_games - s->n_unfinished, s->n_games);
}

/* Results */

static void
komi_result_item_finalize (GObject *object)
{
  g_free (KOMI_RESULT_ITEM (object)->opponent);
  G_OBJECT_CLASS (komi_result_item_parent_class)->finalize (object);
}

static void
komi_result_item_class_init (KomiResultItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = komi_result_item_finalize;
}

static void
komi_result_item_init (KomiResultItem *self)
{
}

char *
komi_result_item_format_margin (KomiResultItem *self)
{
  if (self->margin_games == 0)
    return g_strdup ("—");
  return g_strdup_printf ("%+.1f", self->margin_sum / self->margin_games);
}

/* Games */

static void
komi_game_item_finalize (GObject *object)
{
  g_clear_pointer (&KOMI_GAME_ITEM (object)->game, komi_store_game_free);
  G_OBJECT_CLASS (komi_game_item_parent_class)->finalize (object);
}

static void
komi_game_item_class_init (KomiGameItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = komi_game_item_finalize;
}

static void
komi_game_item_init (KomiGameItem *self)
{
}

KomiGameItem *
komi_game_item_new (KomiStoreGame *game)
{
  KomiGameItem *self = g_object_new (KOMI_TYPE_GAME_ITEM, NULL);

  g_return_val_if_fail (game != NULL, self);

  self->game = game;
  return self;
}

char *
komi_game_item_format_result (KomiGameItem *self)
{
  const KomiStoreGame *g = self->game;

  switch (g->status)
    {
    case KOMI_GAME_STATUS_PENDING:
      return g_strdup (_("Pending"));
    case KOMI_GAME_STATUS_RUNNING:
      return g_strdup (_("Started"));
    case KOMI_GAME_STATUS_VOID:
      return g_strdup (_("Void"));
    default:
      break;
    }
  if (g->result == NULL)
    return g_strdup ("—");
  if (g_str_equal (g->result, "0"))   /* SGF's draw */
    return g_strdup (g->end_reason == KOMI_END_TURN_LIMIT ? _("Draw (turn limit)") : _("Draw"));
  if (g->end_reason == KOMI_END_TURN_LIMIT)
    return g_strdup_printf (_("%s (turn limit)"), g->result);
  return g_strdup (g->result);
}

/* Players */

static void
komi_player_item_finalize (GObject *object)
{
  KomiPlayerItem *self = KOMI_PLAYER_ITEM (object);

  g_free (self->spec);
  g_free (self->name);
  g_free (self->settings);
  G_OBJECT_CLASS (komi_player_item_parent_class)->finalize (object);
}

static void
komi_player_item_class_init (KomiPlayerItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = komi_player_item_finalize;
}

static void
komi_player_item_init (KomiPlayerItem *self)
{
}

KomiPlayerItem *
komi_player_item_new (const char *spec)
{
  KomiPlayerItem *self = g_object_new (KOMI_TYPE_PLAYER_ITEM, NULL);

  self->spec = g_strdup (spec);
  return self;
}

/* Ratings */

static void
komi_rating_item_finalize (GObject *object)
{
  KomiRatingItem *self = KOMI_RATING_ITEM (object);

  g_free (self->label);
  g_free (self->rating);
  g_free (self->interval);
  g_free (self->interval_note);
  g_free (self->record);
  g_free (self->fit);
  G_OBJECT_CLASS (komi_rating_item_parent_class)->finalize (object);
}

static void
komi_rating_item_class_init (KomiRatingItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = komi_rating_item_finalize;
}

static void
komi_rating_item_init (KomiRatingItem *self)
{
}

KomiRatingItem *
komi_rating_item_new (KomiRatingItemKind  kind,
                      const char         *label)
{
  KomiRatingItem *self = g_object_new (KOMI_TYPE_RATING_ITEM, NULL);

  self->kind = kind;
  self->label = g_strdup (label);
  self->elo = self->low = self->high = NAN;
  return self;
}
