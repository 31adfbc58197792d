/* komi-ladder-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-ladder-page.h"

struct _KomiLadderPage
{
  KomiListPage parent_instance;
};

G_DEFINE_FINAL_TYPE (KomiLadderPage, komi_ladder_page, KOMI_TYPE_LIST_PAGE)

static char *cell_label (gpointer p) { return g_strdup (KOMI_RATING_ITEM (p)->label); }
static char *cell_rating (gpointer p) { return g_strdup (KOMI_RATING_ITEM (p)->rating); }
static char *cell_interval (gpointer p) { return g_strdup (KOMI_RATING_ITEM (p)->interval); }
static char *cell_games (gpointer p) { return g_strdup_printf ("%u", KOMI_RATING_ITEM (p)->games); }

static char *
cell_kind (gpointer p)
{
  return g_strdup (KOMI_RATING_ITEM (p)->kind == KOMI_RATING_ITEM_LADDER ? _("Ladder")
                                                                         : _("Subject"));
}

static char *
cell_record (gpointer p)
{
  KomiRatingItem *item = p;

  /* Ladder members were rated from calibration games, not kept here. */
  return g_strdup (item->record != NULL ? item->record : "—");
}

static const KomiColumn columns[] = {
  { N_("Player"), cell_label, TRUE, 0 },
  { N_("Role"), cell_kind, FALSE, 0 },
  { N_("Elo"), cell_rating, FALSE, KOMI_CELL_NUMERIC },
  /* xgettext:no-c-format */
  { N_("95% interval"), cell_interval, FALSE, 0 },
  { N_("Games"), cell_games, FALSE, KOMI_CELL_NUMERIC },
  { N_("Wins–losses–draws"), cell_record, FALSE, KOMI_CELL_NUMERIC },
};

/* The library's problem, else why no subject is rated (or the fit
 * failed): over the ladder, which is shown even then, or in its place. */
static const char *
get_message (KomiListPage *page, KomiLibrary *library, GListModel *items, gboolean empty)
{
  const char *message = komi_library_get_message (library);

  return message != NULL ? message : komi_library_get_ratings_message (library);
}

static void
komi_ladder_page_class_init (KomiLadderPageClass *klass)
{
  KomiListPageClass *list_class = KOMI_LIST_PAGE_CLASS (klass);

  list_class->get_items = komi_library_get_ratings;
  list_class->get_message = get_message;
}

static void
komi_ladder_page_init (KomiLadderPage *self)
{
  komi_list_page_setup (KOMI_LIST_PAGE (self), "view-sort-descending-symbolic",
                        _("No Ratings Yet"), NULL, _("Ladder and ratings"),
                        columns, G_N_ELEMENTS (columns));
}
