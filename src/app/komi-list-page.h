/* komi-list-page.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-library.h"
#include "komi-ui-util.h"

G_BEGIN_DECLS

#define KOMI_TYPE_LIST_PAGE (komi_list_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (KomiListPage, komi_list_page, KOMI, LIST_PAGE, AdwBin)

/* A page showing one of the library's lists (Players, Ladder): a status
 * page while the list is empty, else a column view with a note above. */
struct _KomiListPageClass
{
  AdwBinClass parent_class;

  /* The library's list the page shows. */
  GListModel *(*get_items)   (KomiLibrary  *library);
  /* Over a list with rows (@empty FALSE): the note above it, NULL for
   * none. Over an empty one: why it is empty, NULL for the page's own
   * description. */
  const char *(*get_message) (KomiListPage *self,
                              KomiLibrary  *library,
                              GListModel   *items,
                              gboolean      empty);
  /* After the page has shown the library's list anew (may be NULL). */
  void        (*updated)     (KomiListPage *self,
                              KomiLibrary  *library);
};

/* For a subclass's init: the empty page's icon, title and description,
 * the list's accessible name, and its columns. */
void           komi_list_page_setup       (KomiListPage     *self,
                                           const char       *icon_name,
                                           const char       *empty_title,
                                           const char       *empty_description,
                                           const char       *list_label,
                                           const KomiColumn *columns,
                                           guint             n_columns);
void           komi_list_page_set_library (KomiListPage     *self,
                                           KomiLibrary      *library);
KomiLibrary   *komi_list_page_get_library (KomiListPage     *self);
/* Puts @widget between the note and the list, shown with the list. */
void           komi_list_page_set_header  (KomiListPage     *self,
                                           GtkWidget        *widget);
GtkColumnView *komi_list_page_get_view    (KomiListPage     *self);

G_END_DECLS
