/* komi-ladder-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-ladder-page.h"
#include "komi-ui-util.h"

struct _KomiLadderPage
{
  AdwBin          parent_instance;

  KomiLibrary    *library;

  GtkStack       *stack;
  AdwStatusPage  *empty_page;
  GtkLabel       *note_label;
  GtkColumnView  *view;
};

G_DEFINE_FINAL_TYPE (KomiLadderPage, komi_ladder_page, ADW_TYPE_BIN)

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

static void
update_state (KomiLadderPage *self)
{
  GListModel *ratings = self->library ? komi_library_get_ratings (self->library) : NULL;
  const char *message = NULL;

  if (self->library != NULL)
    {
      message = komi_library_get_message (self->library);
      if (message == NULL)
        message = komi_library_get_ratings_message (self->library);
    }
  if (ratings != NULL && g_list_model_get_n_items (ratings) > 0)
    {
      /* A ladder with no subject rated (or a failed fit) still shows the
       * ladder, with the reason above it. */
      gtk_label_set_text (self->note_label, message ? message : "");
      gtk_widget_set_visible (GTK_WIDGET (self->note_label), message != NULL);
      gtk_stack_set_visible_child_name (self->stack, "list");
      return;
    }
  adw_status_page_set_description (self->empty_page, message);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

void
komi_ladder_page_set_library (KomiLadderPage *self,
                              KomiLibrary    *library)
{
  g_autoptr(GtkNoSelection) model = NULL;

  g_return_if_fail (KOMI_IS_LADDER_PAGE (self));

  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_set_object (&self->library, library);
  if (library != NULL)
    {
      model = gtk_no_selection_new (g_object_ref (komi_library_get_ratings (library)));
      g_signal_connect_swapped (library, "notify::state", G_CALLBACK (update_state), self);
    }
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (model));
  update_state (self);
}

static void
komi_ladder_page_dispose (GObject *object)
{
  KomiLadderPage *self = KOMI_LADDER_PAGE (object);

  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_clear_object (&self->library);
  G_OBJECT_CLASS (komi_ladder_page_parent_class)->dispose (object);
}

static void
komi_ladder_page_class_init (KomiLadderPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_ladder_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-ladder-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiLadderPage, stack);
  gtk_widget_class_bind_template_child (widget_class, KomiLadderPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, KomiLadderPage, note_label);
  gtk_widget_class_bind_template_child (widget_class, KomiLadderPage, view);
}

static void
komi_ladder_page_init (KomiLadderPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  komi_column_view_add_columns (self->view, columns, G_N_ELEMENTS (columns));
  update_state (self);
}
