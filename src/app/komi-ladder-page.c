/* komi-ladder-page.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-ladder-page.h"
#include "komi-player-names.h"

/* Saved and copied pictures are this wide, whatever the window's size. */
#define IMAGE_WIDTH 960

struct _KomiLadderPage
{
  KomiListPage         parent_instance;

  KomiLadderScaleView *scale_view;
};

G_DEFINE_FINAL_TYPE (KomiLadderPage, komi_ladder_page, KOMI_TYPE_LIST_PAGE)

/* A model subject by its profile's name, never the profile's path (which
 * is the user's file system, and long); members and engines by their spec,
 * the ladder's own words. The spec whole is in the tooltip. */
static gboolean
is_model (KomiRatingItem *item)
{
  return item->kind == KOMI_RATING_ITEM_SUBJECT && g_str_has_prefix (item->label, "model:");
}

static char *
cell_label (gpointer p)
{
  KomiRatingItem *item = p;

  return is_model (item) ? komi_player_display_name (item->label) : g_strdup (item->label);
}

static char *
cell_label_note (gpointer p)
{
  KomiRatingItem *item = p;

  return is_model (item) ? komi_player_tooltip (item->label) : NULL;
}

static char *cell_rating (gpointer p) { return g_strdup (KOMI_RATING_ITEM (p)->rating); }
static char *cell_interval (gpointer p) { return g_strdup (KOMI_RATING_ITEM (p)->interval); }
static char *
cell_interval_note (gpointer p)
{
  return g_strdup (KOMI_RATING_ITEM (p)->interval_note);
}

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

static char *
cell_fit (gpointer p)
{
  KomiRatingItem *item = p;

  /* Only a subject with two members played has a fit to show. */
  return g_strdup (item->fit != NULL ? item->fit : "—");
}

/* The figures are never cut to "…": on a narrow window the table scrolls
 * sideways and the player's name gives way. Why a subject is not rated is
 * too long for a cell (it took the table's width from the other columns):
 * its cell says "not rated", the reason in its tooltip. */
static const KomiColumn columns[] = {
  { N_("Player"), cell_label, TRUE, 0, cell_label_note },
  { N_("Role"), cell_kind, FALSE, 0 },
  { N_("Elo"), cell_rating, FALSE, KOMI_CELL_NUMERIC | KOMI_CELL_WHOLE },
  /* xgettext:no-c-format */
  { N_("95% interval"), cell_interval, FALSE, KOMI_CELL_WHOLE, cell_interval_note },
  { N_("Games"), cell_games, FALSE, KOMI_CELL_NUMERIC | KOMI_CELL_WHOLE },
  { N_("Wins–losses–draws"), cell_record, FALSE, KOMI_CELL_NUMERIC | KOMI_CELL_WHOLE },
  { N_("Fit"), cell_fit, FALSE, 0 },
};

/* The library's problem, else why no subject is rated (or the fit
 * failed): over the ladder, which is shown even then, or in its place. */
static const char *
get_message (KomiListPage *page, KomiLibrary *library, GListModel *items, gboolean empty)
{
  const char *message = komi_library_get_message (library);

  return message != NULL ? message : komi_library_get_ratings_message (library);
}

/* The table's rows as the scale's: members by their role, subjects with
 * their interval or bound; subjects without a rated game are left out. */
static void
updated (KomiListPage *page, KomiLibrary *library)
{
  KomiLadderPage *self = KOMI_LADDER_PAGE (page);
  GListModel *items = library != NULL ? komi_library_get_ratings (library) : NULL;
  KomiScale *scale;

  if (self->scale_view == NULL)
    return;   /* not built yet */
  if (items == NULL || g_list_model_get_n_items (items) == 0)
    {
      komi_ladder_scale_view_set_scale (self->scale_view, NULL);
      return;
    }
  scale = komi_scale_new (komi_library_get_ratings_caption (library));
  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr(KomiRatingItem) item = g_list_model_get_item (items, i);
      KomiScaleRole role = item->kind == KOMI_RATING_ITEM_SUBJECT ? KOMI_SCALE_SUBJECT
                           : item->pinned ? KOMI_SCALE_PINNED : KOMI_SCALE_MEMBER;
      g_autofree char *name = cell_label (item);

      komi_scale_add (scale, name, role, item->elo, item->low, item->high, item->games);
    }
  komi_ladder_scale_view_set_scale (self->scale_view, scale);
}

KomiLadderScaleView *
komi_ladder_page_get_scale_view (KomiLadderPage *self)
{
  g_return_val_if_fail (KOMI_IS_LADDER_PAGE (self), NULL);
  return self->scale_view;
}

gboolean
komi_ladder_page_save_image (KomiLadderPage  *self,
                             const char      *path,
                             GError         **error)
{
  const KomiScale *scale;

  g_return_val_if_fail (KOMI_IS_LADDER_PAGE (self), FALSE);

  scale = komi_ladder_scale_view_get_scale (self->scale_view);
  if (scale == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("There is no scale to save yet: open a library with ratings"));
      return FALSE;
    }
  return komi_scale_save (scale, path, IMAGE_WIDTH, error);
}

static void
toast (KomiLadderPage *self, const char *text)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (text));
  else
    g_message ("%s", text);
}

static void
copy_image_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  KomiLadderPage *self = KOMI_LADDER_PAGE (widget);
  const KomiScale *scale = komi_ladder_scale_view_get_scale (self->scale_view);
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;

  if (scale == NULL)
    return;
  if ((png = komi_scale_to_png (scale, IMAGE_WIDTH, &error)) == NULL
      || (texture = gdk_texture_new_from_bytes (png, &error)) == NULL)
    {
      toast (self, error->message);
      return;
    }
  gdk_clipboard_set_texture (gtk_widget_get_clipboard (widget), texture);
  toast (self, _("The scale is copied as an image"));
}

static void
on_save_chosen (GtkNativeDialog *chooser,
                int              response,
                KomiLadderPage  *self)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && path != NULL)
    {
      if (komi_ladder_page_save_image (self, path, &error))
        {
          g_autofree char *text = g_strdup_printf (_("The scale is saved as %s"), path);

          toast (self, text);
        }
      else
        toast (self, error->message);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
save_image_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) png = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) svg = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Save the Rating Scale"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_file_filter_set_name (png, _("PNG image"));
  gtk_file_filter_add_suffix (png, "png");
  gtk_file_filter_set_name (svg, _("SVG drawing"));
  gtk_file_filter_add_suffix (svg, "svg");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), png);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), svg);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "komi-ladder.png");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_chosen), g_object_ref (widget));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
komi_ladder_page_class_init (KomiLadderPageClass *klass)
{
  KomiListPageClass *list_class = KOMI_LIST_PAGE_CLASS (klass);

  list_class->get_items = komi_library_get_ratings;
  list_class->get_message = get_message;
  list_class->updated = updated;
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "ladder.copy-image", NULL,
                                   copy_image_activated);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "ladder.save-image", NULL,
                                   save_image_activated);
}

/* The scale in a frame, as tall as its rows (the page scrolls, not the
 * scale inside it), under a row with its name and Copy and Save: over the
 * scale, on a phone's width, they hid its legend. */
static GtkWidget *
build_header (KomiLadderPage *self)
{
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *title = gtk_label_new (_("Rating scale"));
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  static const struct { const char *icon, *tip, *action; } actions[] = {
    { "edit-copy-symbolic", N_("Copy Image"), "ladder.copy-image" },
    { "document-save-as-symbolic", N_("Save Image…"), "ladder.save-image" },
  };

  self->scale_view = KOMI_LADDER_SCALE_VIEW (komi_ladder_scale_view_new ());
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_box_append (GTK_BOX (row), title);
  gtk_widget_set_margin_top (row, 6);
  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 6);
  gtk_widget_add_css_class (buttons, "linked");
  gtk_widget_set_valign (buttons, GTK_ALIGN_CENTER);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      GtkWidget *button = gtk_button_new_from_icon_name (actions[i].icon);

      gtk_widget_set_tooltip_text (button, _(actions[i].tip));
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _(actions[i].tip), -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), actions[i].action);
      gtk_box_append (GTK_BOX (buttons), button);
    }
  gtk_box_append (GTK_BOX (row), buttons);
  gtk_box_append (GTK_BOX (box), row);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->scale_view));
  gtk_frame_set_child (GTK_FRAME (frame), box);
  return frame;
}

static void
komi_ladder_page_init (KomiLadderPage *self)
{
  komi_list_page_set_header (KOMI_LIST_PAGE (self), build_header (self));
  komi_list_page_setup (KOMI_LIST_PAGE (self), "view-sort-descending-symbolic",
                        _("No Ratings Yet"), NULL, _("Ladder and ratings"),
                        columns, G_N_ELEMENTS (columns));
}
