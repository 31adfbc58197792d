/* komi-shards-window.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-shard-status.h"
#include "komi-shards-window.h"

/* The progress of a series run as shards, as `komi-cli status` reads it
 * (komi_shard_status_read), shown and read again every few seconds. Each
 * read runs on a worker thread through read-only connections, so the
 * processes writing the libraries are never held up and the window never
 * waits on a file; a read starts only once the last one has been shown.
 * The widgets are built once per shape (the same series and libraries)
 * and their figures updated in place after that, so nothing jumps. */

typedef struct
{
  GtkWidget *progress;
  GtkWidget *figures;
  GtkWidget *row;
} ShardWidgets;

typedef struct
{
  GtkWidget *summary;
  GtkWidget *progress;
  GtkWidget *missing;
  GArray    *shards;     /* ShardWidgets */
} SeriesWidgets;

struct _KomiShardsWindow
{
  AdwWindow     parent_instance;

  GStrv         paths;
  guint         interval;
  guint         timeout_id;
  gboolean      reading;
  guint         reads;
  GCancellable *cancellable;

  AdwWindowTitle *title;
  GtkWidget      *error_label;
  GtkWidget      *content;    /* a box of the series, rebuilt when the shape changes */
  GtkWidget      *scrolled;
  char           *shape;
  GArray         *series;     /* SeriesWidgets */
};

G_DEFINE_FINAL_TYPE (KomiShardsWindow, komi_shards_window, ADW_TYPE_WINDOW)

static void
series_widgets_clear (SeriesWidgets *w)
{
  g_clear_pointer (&w->shards, g_array_unref);
}

/* The same series and libraries in the same order: the widgets stay. */
static char *
shape_of (GPtrArray *list)
{
  GString *shape = g_string_new (NULL);

  for (guint i = 0; i < list->len; i++)
    {
      KomiSeriesStatus *status = g_ptr_array_index (list, i);

      g_string_append_printf (shape, "%s:%u:%s|", status->series->digest, status->missing > 0,
                              status->series->name);
      for (guint j = 0; j < status->shards->len; j++)
        {
          KomiShardStatus *shard = g_ptr_array_index (status->shards, j);

          g_string_append_printf (shape, "%s:%s|", shard->path,
                                  shard->progress.shard != NULL ? shard->progress.shard : "");
        }
    }
  return g_string_free (shape, FALSE);
}

static GtkWidget *
label_new (const char *text, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
build (KomiShardsWindow *self, GPtrArray *list)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  gtk_widget_set_margin_start (content, 18);
  gtk_widget_set_margin_end (content, 18);
  gtk_widget_set_margin_top (content, 18);
  gtk_widget_set_margin_bottom (content, 18);
  g_array_set_size (self->series, 0);
  if (list->len == 0)
    gtk_box_append (GTK_BOX (content),
                    label_new (_("No series in these libraries yet."), "dim-label"));
  for (guint i = 0; i < list->len; i++)
    {
      KomiSeriesStatus *status = g_ptr_array_index (list, i);
      SeriesWidgets w = { 0, };
      GtkWidget *rows = gtk_list_box_new ();

      w.shards = g_array_new (FALSE, TRUE, sizeof (ShardWidgets));
      gtk_box_append (GTK_BOX (content), label_new (status->series->name, "title-3"));
      w.summary = label_new (NULL, NULL);
      gtk_widget_set_name (w.summary, "series-summary");
      gtk_box_append (GTK_BOX (content), w.summary);
      w.progress = gtk_progress_bar_new ();
      gtk_box_append (GTK_BOX (content), w.progress);
      gtk_list_box_set_selection_mode (GTK_LIST_BOX (rows), GTK_SELECTION_NONE);
      gtk_widget_add_css_class (rows, "boxed-list");
      gtk_widget_set_margin_bottom (rows, 6);
      for (guint j = 0; j < status->shards->len; j++)
        {
          KomiShardStatus *shard = g_ptr_array_index (status->shards, j);
          ShardWidgets s = { 0, };
          g_autofree char *base = g_path_get_basename (shard->path);
          g_autofree char *title = shard->progress.shard != NULL
            /* Translators: a shard of a series, "2/4": the second of four. */
            ? g_strdup_printf (_("Shard %s"), shard->progress.shard) : g_strdup (base);

          s.row = adw_action_row_new ();
          gtk_widget_set_name (s.row, "shard-row");
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (s.row), title);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (s.row), shard->path);
          gtk_widget_set_tooltip_text (s.row, shard->path);
          s.figures = gtk_label_new (NULL);
          gtk_widget_set_name (s.figures, "shard-figures");
          gtk_label_set_xalign (GTK_LABEL (s.figures), 1);
          gtk_widget_add_css_class (s.figures, "numeric");
          s.progress = gtk_progress_bar_new ();
          gtk_widget_set_valign (s.progress, GTK_ALIGN_CENTER);
          gtk_widget_set_size_request (s.progress, 120, -1);
          adw_action_row_add_suffix (ADW_ACTION_ROW (s.row), s.figures);
          adw_action_row_add_suffix (ADW_ACTION_ROW (s.row), s.progress);
          gtk_list_box_append (GTK_LIST_BOX (rows), s.row);
          g_array_append_val (w.shards, s);
        }
      gtk_box_append (GTK_BOX (content), rows);
      w.missing = label_new (NULL, "dim-label");
      gtk_widget_set_name (w.missing, "series-missing");
      gtk_box_append (GTK_BOX (content), w.missing);
      g_array_append_val (self->series, w);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), content);
  self->content = content;
}

static double
fraction (guint ended, guint total)
{
  return total > 0 ? (double) ended / total : 0;
}

static void
update (KomiShardsWindow *self, GPtrArray *list)
{
  for (guint i = 0; i < list->len; i++)
    {
      KomiSeriesStatus *status = g_ptr_array_index (list, i);
      SeriesWidgets *w = &g_array_index (self->series, SeriesWidgets, i);
      g_autofree char *eta = komi_shard_status_format_eta (status->eta);
      g_autofree char *summary = NULL;

      /* Translators: over all the shards of a series; the ETA is "M:SS",
       * "H:MM:SS" or "-" (unknown). */
      summary = g_strdup_printf (_("%u/%u games ended, %u running, ETA %s"), status->ended,
                                 status->total, status->running, eta);
      gtk_label_set_text (GTK_LABEL (w->summary), summary);
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (w->progress),
                                     fraction (status->ended, status->total));
      gtk_widget_set_visible (w->missing, status->missing > 0);
      if (status->missing > 0)
        {
          g_autofree char *missing = g_strdup_printf (
            g_dngettext (NULL, "%u game of the plan is in none of these libraries: shards not "
                               "started yet, or not opened here",
                         "%u games of the plan are in none of these libraries: shards not "
                         "started yet, or not opened here", status->missing), status->missing);

          gtk_label_set_text (GTK_LABEL (w->missing), missing);
        }
      for (guint j = 0; j < status->shards->len; j++)
        {
          KomiShardStatus *shard = g_ptr_array_index (status->shards, j);
          ShardWidgets *s = &g_array_index (w->shards, ShardWidgets, j);
          const KomiStoreProgress *p = &shard->progress;
          g_autofree char *shard_eta = komi_shard_status_format_eta (shard->eta);
          g_autofree char *figures = NULL;

          if (p->live)
            /* Translators: a shard's games ended of its own, running now, ETA. */
            figures = g_strdup_printf (_("%u/%u ended, %u running, ETA %s"), p->ended, p->total,
                                       p->running, shard_eta);
          else if (p->ended >= p->total)
            figures = g_strdup_printf (_("%u/%u ended"), p->ended, p->total);
          else
            /* Translators: no process runs the shard now; its games are not all ended. */
            figures = g_strdup_printf (_("%u/%u ended, stopped"), p->ended, p->total);
          gtk_label_set_text (GTK_LABEL (s->figures), figures);
          gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (s->progress),
                                         fraction (p->ended, p->total));
        }
    }
}

static void
show (KomiShardsWindow *self, GPtrArray *list)
{
  g_autofree char *shape = shape_of (list);

  if (g_strcmp0 (shape, self->shape) != 0)
    {
      build (self, list);
      g_free (self->shape);
      self->shape = g_steal_pointer (&shape);
    }
  update (self, list);
}

static void
read_in_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  const char * const *paths = data;
  GError *error = NULL;
  GPtrArray *list = komi_shard_status_read (paths, g_strv_length ((char **) paths), &error);

  if (list != NULL)
    g_task_return_pointer (task, list, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  KomiShardsWindow *self = KOMI_SHARDS_WINDOW (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = g_task_propagate_pointer (G_TASK (result), &error);

  self->reading = FALSE;
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  /* A failed read keeps the last figures and says why above them. */
  gtk_widget_set_visible (self->error_label, list == NULL);
  if (list == NULL)
    gtk_label_set_text (GTK_LABEL (self->error_label), error->message);
  else
    show (self, list);
  self->reads++;
}

static gboolean
refresh (gpointer data)
{
  KomiShardsWindow *self = data;
  g_autoptr(GTask) task = NULL;

  if (self->reading)
    return G_SOURCE_CONTINUE;
  self->reading = TRUE;
  task = g_task_new (self, self->cancellable, on_read, NULL);
  g_task_set_source_tag (task, refresh);
  g_task_set_task_data (task, g_strdupv (self->paths), (GDestroyNotify) g_strfreev);
  g_task_run_in_thread (task, read_in_thread);
  return G_SOURCE_CONTINUE;
}

static void
komi_shards_window_dispose (GObject *object)
{
  KomiShardsWindow *self = KOMI_SHARDS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  G_OBJECT_CLASS (komi_shards_window_parent_class)->dispose (object);
}

static void
komi_shards_window_finalize (GObject *object)
{
  KomiShardsWindow *self = KOMI_SHARDS_WINDOW (object);

  g_strfreev (self->paths);
  g_free (self->shape);
  g_array_unref (self->series);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (komi_shards_window_parent_class)->finalize (object);
}

static void
komi_shards_window_class_init (KomiShardsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = komi_shards_window_dispose;
  object_class->finalize = komi_shards_window_finalize;
}

static void
komi_shards_window_init (KomiShardsWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *loading;

  self->cancellable = g_cancellable_new ();
  self->series = g_array_new (FALSE, TRUE, sizeof (SeriesWidgets));
  g_array_set_clear_func (self->series, (GDestroyNotify) series_widgets_clear);
  gtk_window_set_title (GTK_WINDOW (self), _("Shards"));
  gtk_window_set_default_size (GTK_WINDOW (self), 760, 520);
  self->title = ADW_WINDOW_TITLE (adw_window_title_new (_("Shards"), NULL));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (box), header);
  self->error_label = label_new (NULL, "error");
  gtk_widget_set_name (self->error_label, "shards-error");
  gtk_widget_set_margin_start (self->error_label, 18);
  gtk_widget_set_margin_end (self->error_label, 18);
  gtk_widget_set_margin_top (self->error_label, 12);
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_box_append (GTK_BOX (box), self->error_label);
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (self->scrolled, TRUE);
  loading = label_new (_("Reading the libraries…"), "dim-label");
  gtk_widget_set_margin_start (loading, 18);
  gtk_widget_set_margin_top (loading, 18);
  gtk_widget_set_valign (loading, GTK_ALIGN_START);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), loading);
  gtk_box_append (GTK_BOX (box), self->scrolled);
  adw_window_set_content (ADW_WINDOW (self), box);
}

KomiShardsWindow *
komi_shards_window_new (GtkWindow          *parent,
                        const char * const *paths,
                        guint               interval_seconds)
{
  KomiShardsWindow *self;
  g_autofree char *subtitle = NULL;
  guint n;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  self = g_object_new (KOMI_TYPE_SHARDS_WINDOW, "transient-for", parent, NULL);
  /* Kept by the application like its other windows (and closed with it). */
  if (parent != NULL && gtk_window_get_application (parent) != NULL)
    gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
  self->paths = g_strdupv ((char **) paths);
  self->interval = MAX (interval_seconds, 1);
  n = g_strv_length (self->paths);
  subtitle = g_strdup_printf (g_dngettext (NULL, "%u library, read every %u s",
                                           "%u libraries, read every %u s", n), n,
                              self->interval);
  adw_window_title_set_subtitle (self->title, subtitle);
  refresh (self);
  self->timeout_id = g_timeout_add_seconds (self->interval, refresh, self);
  return self;
}

guint
komi_shards_window_get_reads (KomiShardsWindow *self)
{
  g_return_val_if_fail (KOMI_IS_SHARDS_WINDOW (self), 0);
  return self->reads;
}
