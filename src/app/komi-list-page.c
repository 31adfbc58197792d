/* komi-list-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include "komi-list-page.h"

typedef struct
{
  KomiLibrary    *library;
  GSignalGroup   *library_signals;
  char           *empty_description;

  GtkStack       *stack;
  AdwStatusPage  *empty_page;
  GtkLabel       *note_label;
  GtkBox         *list_box;
  GtkColumnView  *view;
} KomiListPagePrivate;

G_DEFINE_TYPE_WITH_PRIVATE (KomiListPage, komi_list_page, ADW_TYPE_BIN)

static void
update_state (KomiListPage *self)
{
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (self);
  KomiListPageClass *klass = KOMI_LIST_PAGE_GET_CLASS (self);
  GListModel *items = priv->library ? klass->get_items (priv->library) : NULL;
  gboolean empty = items == NULL || g_list_model_get_n_items (items) == 0;
  const char *message = priv->library
                        ? klass->get_message (self, priv->library, items, empty) : NULL;

  if (!empty)
    {
      gtk_label_set_text (priv->note_label, message ? message : "");
      gtk_widget_set_visible (GTK_WIDGET (priv->note_label), message != NULL);
      gtk_stack_set_visible_child_name (priv->stack, "list");
    }
  else
    {
      adw_status_page_set_description (priv->empty_page,
                                       message ? message : priv->empty_description);
      gtk_stack_set_visible_child_name (priv->stack, "empty");
    }
  if (klass->updated != NULL)
    klass->updated (self, priv->library);
}

void
komi_list_page_set_header (KomiListPage *self,
                           GtkWidget    *widget)
{
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (self);

  g_return_if_fail (KOMI_IS_LIST_PAGE (self));
  gtk_box_insert_child_after (priv->list_box, widget, GTK_WIDGET (priv->note_label));
}

void
komi_list_page_setup (KomiListPage     *self,
                      const char       *icon_name,
                      const char       *empty_title,
                      const char       *empty_description,
                      const char       *list_label,
                      const KomiColumn *columns,
                      guint             n_columns)
{
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (self);

  g_return_if_fail (KOMI_IS_LIST_PAGE (self));

  adw_status_page_set_icon_name (priv->empty_page, icon_name);
  adw_status_page_set_title (priv->empty_page, empty_title);
  g_free (priv->empty_description);
  priv->empty_description = g_strdup (empty_description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (priv->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  list_label, -1);
  komi_column_view_add_columns (priv->view, columns, n_columns);
  update_state (self);
}

void
komi_list_page_set_library (KomiListPage *self,
                            KomiLibrary  *library)
{
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (self);
  g_autoptr(GtkNoSelection) model = NULL;

  g_return_if_fail (KOMI_IS_LIST_PAGE (self));

  g_set_object (&priv->library, library);
  g_signal_group_set_target (priv->library_signals, library);
  if (library != NULL)
    model = gtk_no_selection_new (g_object_ref (KOMI_LIST_PAGE_GET_CLASS (self)->get_items (library)));
  gtk_column_view_set_model (priv->view, GTK_SELECTION_MODEL (model));
  update_state (self);
}

KomiLibrary *
komi_list_page_get_library (KomiListPage *self)
{
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (self);

  g_return_val_if_fail (KOMI_IS_LIST_PAGE (self), NULL);
  return priv->library;
}

GtkColumnView *
komi_list_page_get_view (KomiListPage *self)
{
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (self);

  g_return_val_if_fail (KOMI_IS_LIST_PAGE (self), NULL);
  return priv->view;
}

static void
komi_list_page_dispose (GObject *object)
{
  KomiListPage *self = KOMI_LIST_PAGE (object);
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (self);

  g_clear_object (&priv->library_signals);
  g_clear_object (&priv->library);
  G_OBJECT_CLASS (komi_list_page_parent_class)->dispose (object);
}

static void
komi_list_page_finalize (GObject *object)
{
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (KOMI_LIST_PAGE (object));

  g_free (priv->empty_description);
  G_OBJECT_CLASS (komi_list_page_parent_class)->finalize (object);
}

static void
komi_list_page_class_init (KomiListPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_list_page_dispose;
  object_class->finalize = komi_list_page_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-list-page.ui");
  gtk_widget_class_bind_template_child_private (widget_class, KomiListPage, stack);
  gtk_widget_class_bind_template_child_private (widget_class, KomiListPage, empty_page);
  gtk_widget_class_bind_template_child_private (widget_class, KomiListPage, note_label);
  gtk_widget_class_bind_template_child_private (widget_class, KomiListPage, list_box);
  gtk_widget_class_bind_template_child_private (widget_class, KomiListPage, view);
}

static void
komi_list_page_init (KomiListPage *self)
{
  KomiListPagePrivate *priv = komi_list_page_get_instance_private (self);

  gtk_widget_init_template (GTK_WIDGET (self));
  priv->library_signals = g_signal_group_new (KOMI_TYPE_LIBRARY);
  g_signal_group_connect_swapped (priv->library_signals, "notify::state",
                                  G_CALLBACK (update_state), self);
}
