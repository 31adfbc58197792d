/* komi-library-items.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-store.h"

G_BEGIN_DECLS

/* The rows of the library's list models. Each is a small immutable GObject
 * built on the loading thread from one read of the library and never
 * changed afterwards (a reload replaces the rows), so widgets read the
 * fields directly; they are public, and read-only by contract. */

#define KOMI_TYPE_SERIES_ITEM (komi_series_item_get_type ())
G_DECLARE_FINAL_TYPE (KomiSeriesItem, komi_series_item, KOMI, SERIES_ITEM, GObject)

#define KOMI_TYPE_RESULT_ITEM (komi_result_item_get_type ())
G_DECLARE_FINAL_TYPE (KomiResultItem, komi_result_item, KOMI, RESULT_ITEM, GObject)

#define KOMI_TYPE_GAME_ITEM (komi_game_item_get_type ())
G_DECLARE_FINAL_TYPE (KomiGameItem, komi_game_item, KOMI, GAME_ITEM, GObject)

#define KOMI_TYPE_PLAYER_ITEM (komi_player_item_get_type ())
G_DECLARE_FINAL_TYPE (KomiPlayerItem, komi_player_item, KOMI, PLAYER_ITEM, GObject)

#define KOMI_TYPE_RATING_ITEM (komi_rating_item_get_type ())
G_DECLARE_FINAL_TYPE (KomiRatingItem, komi_rating_item, KOMI, RATING_ITEM, GObject)

struct _KomiSeriesItem
{
  GObject          parent_instance;
  KomiStoreSeries *series;      /* counts of games by status */
  GListStore      *results;     /* KomiResultItem, one per opponent */
  GListStore      *games;       /* KomiGameItem, in plan order */
};

/* Results against one opponent, both colours together, as the subject
 * sees them; wins, losses and draws count games ended by two passes or
 * the turn limit. */
struct _KomiResultItem
{
  GObject  parent_instance;
  char    *opponent;            /* player spec */
  guint    games;
  guint    wins;
  guint    losses;
  guint    draws;
  guint    wins_as[2];          /* as Black, as White */
  guint    losses_as[2];
  guint    turn_limit;
  guint    voids;
  guint    forfeits;
  guint    unfinished;
  double   margin_sum;          /* over counted games, subject's view */
  guint    margin_games;
};

struct _KomiGameItem
{
  GObject        parent_instance;
  KomiStoreGame *game;          /* a listing: no moves */
};

struct _KomiPlayerItem
{
  GObject  parent_instance;
  char    *spec;                /* "gnugo:1" */
  char    *name;                /* "GNU Go 3.8"; NULL until a game started */
  char    *settings;            /* JSON text of the last game it played; NULL: none */
  guint    games;
  guint    series;              /* series it took part in */
};

typedef enum
{
  KOMI_RATING_ITEM_LADDER,      /* a member of the frozen ladder */
  KOMI_RATING_ITEM_SUBJECT,     /* a subject rated against it */
} KomiRatingItemKind;

struct _KomiRatingItem
{
  GObject             parent_instance;
  KomiRatingItemKind  kind;
  char               *label;
  char               *rating;   /* "734", "> 1612" */
  char               *interval; /* "689 to 781", "not rated" */
  char               *interval_note; /* why not rated, in the cell's tooltip; or NULL */
  char               *record;   /* "12–3–1" (wins–losses–draws) */
  char               *fit;      /* a subject's fit: "p 0.41", "inconsistent (p 0.0003)"; or NULL */
  gboolean            inconsistent;  /* one Elo does not explain its results (p < 0.01) */
  guint               games;
  double              elo;      /* NAN: not rated; a bound's value for a bound */
  double              low;      /* the 95% interval; -INFINITY / INFINITY: open */
  double              high;
  gboolean            pinned;
};

KomiSeriesItem *komi_series_item_new           (KomiStoreSeries  *series);
/* Adds @game (taken) to its series, and its result to the opponent's row;
 * returns its row (owned by the series). */
KomiGameItem   *komi_series_item_add_game      (KomiSeriesItem   *self,
                                                KomiStoreGame    *game);
/* Finished games / all games, 0–1. */
double          komi_series_item_get_fraction  (KomiSeriesItem   *self);
/* "12 of 16 games played" */
char           *komi_series_item_describe      (KomiSeriesItem   *self);

/* "+3.5" or "—" */
char           *komi_result_item_format_margin (KomiResultItem   *self);

/* A row for @game (taken): an imported game, of no series. */
KomiGameItem   *komi_game_item_new             (KomiStoreGame    *game);

/* "B+3.5", "Void", "Pending" */
char           *komi_game_item_format_result   (KomiGameItem     *self);

KomiPlayerItem *komi_player_item_new           (const char       *spec);

KomiRatingItem *komi_rating_item_new           (KomiRatingItemKind kind,
                                                const char       *label);

G_END_DECLS
