/* komi-window-export.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <errno.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "komi-export.h"
#include "komi-library-items.h"
#include "komi-window-private.h"

/* The window's exports, all through src/store/komi-export.h: a game as SGF
 * (dead stones and the engine review written in), a series' SGF files
 * into a folder, a series' call log as JSON Lines, and Open in Sabaki (the
 * game's SGF in the cache, opened with the default SGF handler). Each
 * action takes a game or series id; 0 is the one selected on the series
 * page, for the main menu and the page's own menu. The files are written
 * on a worker thread; a toast says how it went. */

typedef enum
{
  EXPORT_GAME,
  EXPORT_SERIES,
  EXPORT_CALLS,
  EXPORT_SABAKI,
  EXPORT_GAMES,     /* a selection of games, each its SGF file in a folder */
} ExportKind;

typedef struct
{
  ExportKind  kind;
  char       *library;
  gint64      id;
  char       *path;     /* the file or folder written; for Sabaki, chosen by the thread */
  guint       n;        /* files or lines written */
  GArray     *ids;      /* EXPORT_GAMES: the games (gint64) */
} Export;

static void
export_free (Export *e)
{
  g_free (e->library);
  g_free (e->path);
  g_clear_pointer (&e->ids, g_array_unref);
  g_free (e);
}

static void
toast (KomiWindow *self, const char *text)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
}

/* One game as SGF text, its analysis (if any) written in. */
static char *
game_sgf (KomiStore *store, gint64 id, char **file_name, GError **error)
{
  g_autoptr(KomiStoreGame) game = komi_store_load_game (store, id, error);
  g_autoptr(KomiStoreAnalysis) analysis = NULL;

  if (game == NULL)
    return NULL;
  analysis = komi_store_load_analysis (store, id, error);
  if (analysis == NULL && error != NULL && *error != NULL)
    return NULL;
  if (file_name != NULL)
    *file_name = komi_export_sgf_file_name (game);
  return komi_export_game_sgf_with_analysis (game, analysis, error);
}

/* Each game of @ids as its own SGF file in the folder @dir; names that
 * two games would share get the game's id in front. */
static gboolean
write_games (KomiStore *store, GArray *ids, const char *dir, guint *n, GError **error)
{
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  *n = 0;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot create the folder %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      g_autofree char *name = NULL;
      g_autofree char *text = game_sgf (store, id, &name, error);
      g_autofree char *path = NULL;

      if (text == NULL)
        return FALSE;
      if (g_hash_table_contains (used, name))
        {
          g_autofree char *unique = g_strdup_printf ("%" G_GINT64_FORMAT "-%s", id, name);

          g_free (name);
          name = g_steal_pointer (&unique);
        }
      g_hash_table_add (used, g_strdup (name));
      path = g_build_filename (dir, name, NULL);
      if (!g_file_set_contents (path, text, -1, error))
        return FALSE;
      (*n)++;
    }
  return TRUE;
}

static void
export_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Export *e = task_data;
  g_autoptr(KomiStore) store = NULL;
  g_autofree char *text = NULL;
  g_autofree char *name = NULL;
  GError *error = NULL;
  gboolean ok = FALSE;

  store = komi_store_open_reader (e->library, &error);
  if (store != NULL)
    switch (e->kind)
      {
      case EXPORT_GAME:
        ok = (text = game_sgf (store, e->id, NULL, &error)) != NULL
             && g_file_set_contents (e->path, text, -1, &error);
        break;
      case EXPORT_SABAKI:
        {
          g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "komi", "sgf", NULL);

          ok = (text = game_sgf (store, e->id, &name, &error)) != NULL;
          if (ok && g_mkdir_with_parents (dir, 0700) != 0)
            {
              int saved = errno;

              ok = FALSE;
              g_set_error (&error, G_IO_ERROR, g_io_error_from_errno (saved),
                           _("Cannot create the folder %s: %s"), dir, g_strerror (saved));
            }
          if (ok)
            {
              e->path = g_build_filename (dir, name, NULL);
              ok = g_file_set_contents (e->path, text, -1, &error);
            }
        }
        break;
      case EXPORT_SERIES:
        ok = komi_export_sgf (store, e->id, e->path, &e->n, &error);
        break;
      case EXPORT_CALLS:
        ok = komi_export_calls (store, e->id, e->path, &e->n, &error);
        break;
      case EXPORT_GAMES:
        ok = write_games (store, e->ids, e->path, &e->n, &error);
        break;
      default:
        g_assert_not_reached ();
      }
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* A toast of @text that offers the folder @dir in the file manager. */
static void
toast_folder (KomiWindow *self, const char *text, const char *dir)
{
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autofree char *uri = g_file_get_uri (folder);
  AdwToast *t = adw_toast_new (text);

  adw_toast_set_button_label (t, _("Open _Folder"));
  adw_toast_set_action_name (t, "win.open-folder");
  adw_toast_set_action_target_value (t, g_variant_new_string (uri));
  adw_toast_set_timeout (t, 10);
  adw_toast_overlay_add_toast (self->toast_overlay, t);
}

static void
open_folder_finished (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(KomiWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    toast (self, error->message);
}

/* "win.open-folder" (s: a folder's URI): shown by the file manager. */
static void
open_folder_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  g_app_info_launch_default_for_uri_async (g_variant_get_string (parameter, NULL), NULL, NULL,
                                           open_folder_finished, g_object_ref (widget));
}

typedef struct
{
  KomiWindow *window;
  char       *path;
} Launch;

static void
sabaki_launched (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Launch *launch = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    {
      /* No handler (or a broken one): the file is there; offer its folder. */
      g_autofree char *dir = g_path_get_dirname (launch->path);
      g_autofree char *text = NULL;

      g_debug ("Opening %s: %s", launch->path, error->message);
      text = g_strdup_printf (_("No application to open SGF files is set up; the game was "
                                "saved in %s"), dir);
      toast_folder (launch->window, text, dir);
    }
  g_object_unref (launch->window);
  g_free (launch->path);
  g_free (launch);
}

static void
export_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  KomiWindow *self = KOMI_WINDOW (source);
  Export *e = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *base = NULL;
  g_autofree char *dir = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      text = g_strdup_printf (_("Nothing was exported: %s"), error->message);
      toast (self, text);
      return;
    }
  /* Where the files went, in full, and the folder one click away. */
  base = g_path_get_basename (e->path);
  dir = e->kind == EXPORT_SERIES || e->kind == EXPORT_GAMES ? g_strdup (e->path)
                                                            : g_path_get_dirname (e->path);
  switch (e->kind)
    {
    case EXPORT_GAME:
      /* Translators: a file's name, then the folder it is in */
      text = g_strdup_printf (_("Game saved as %s in %s"), base, dir);
      break;
    case EXPORT_SERIES:
    case EXPORT_GAMES:
      text = g_strdup_printf (ngettext ("%u SGF file written to %s",
                                        "%u SGF files written to %s", e->n), e->n, dir);
      break;
    case EXPORT_CALLS:
      /* Translators: a number of calls, a file's name, then the folder it is in */
      text = g_strdup_printf (ngettext ("%u call written to %s in %s",
                                        "%u calls written to %s in %s", e->n),
                              e->n, base, dir);
      break;
    case EXPORT_SABAKI:
      {
        Launch *launch = g_new0 (Launch, 1);
        g_autoptr(GFile) file = g_file_new_for_path (e->path);
        g_autofree char *uri = g_file_get_uri (file);

        launch->window = g_object_ref (self);
        launch->path = g_strdup (e->path);
        g_app_info_launch_default_for_uri_async (uri, NULL, NULL, sabaki_launched, launch);
        return;
      }
    default:
      g_assert_not_reached ();
    }
  toast_folder (self, text, dir);
}

static void
run_export_ids (KomiWindow *self, ExportKind kind, gint64 id, GArray *ids, const char *path)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, export_done, NULL);
  Export *e = g_new0 (Export, 1);

  e->kind = kind;
  e->ids = ids != NULL ? g_array_ref (ids) : NULL;
  e->library = g_strdup (komi_library_get_path (self->library));
  e->id = id;
  e->path = g_strdup (path);
  g_task_set_source_tag (task, run_export_ids);
  g_task_set_task_data (task, e, (GDestroyNotify) export_free);
  g_task_run_in_thread (task, export_thread);
}

static void
run_export (KomiWindow *self, ExportKind kind, gint64 id, const char *path)
{
  run_export_ids (self, kind, id, NULL, path);
}

void
_komi_window_export_games_to (KomiWindow   *self,
                              const gint64 *ids,
                              guint         n_ids,
                              const char   *folder)
{
  g_autoptr(GArray) array = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_array_append_vals (array, ids, n_ids);
  run_export_ids (self, EXPORT_GAMES, 0, array, folder);
}

void
_komi_window_export_game_to (KomiWindow *self,
                             gint64      game_id,
                             const char *path)
{
  run_export (self, EXPORT_GAME, game_id, path);
}

/* Save locations */

typedef struct
{
  KomiWindow *window;
  ExportKind  kind;
  gint64      id;
  GArray     *ids;      /* EXPORT_GAMES */
} Choice;

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  Choice *choice = user_data;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL && (path = g_file_get_path (file)) == NULL)
    toast (choice->window, _("Choose a place on this computer"));
  if (path != NULL)
    {
      gboolean folder = choice->kind == EXPORT_SERIES || choice->kind == EXPORT_GAMES;

      /* The next export starts where this one went. */
      g_object_set_data_full (G_OBJECT (choice->window), "komi-export-folder",
                              folder ? g_strdup (path) : g_path_get_dirname (path), g_free);
      run_export_ids (choice->window, choice->kind, choice->id, choice->ids, path);
    }
  g_object_unref (choice->window);
  g_clear_pointer (&choice->ids, g_array_unref);
  g_free (choice);
  g_object_unref (dialog);
}

static Choice *
choose (KomiWindow *self, ExportKind kind, gint64 id, const char *title, const char *name)
{
  GtkFileChooserNative *chooser;
  Choice *choice = g_new0 (Choice, 1);
  gboolean folder = kind == EXPORT_SERIES || kind == EXPORT_GAMES;

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                         folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
                                                : GTK_FILE_CHOOSER_ACTION_SAVE,
                                         folder ? _("_Export") : _("_Save"),
                                         _("_Cancel"));
  if (name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  /* Where the last export went, else the Documents folder, else home. */
  {
    const char *last = g_object_get_data (G_OBJECT (self), "komi-export-folder");
    const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
    const char *start = last != NULL && g_file_test (last, G_FILE_TEST_IS_DIR) ? last
                        : documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR)
                        ? documents : g_get_home_dir ();
    g_autoptr(GFile) dir = g_file_new_for_path (start);

    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), dir, NULL);
  }
  choice->window = g_object_ref (self);
  choice->kind = kind;
  choice->id = id;
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), choice);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
  return choice;
}

/* The id an action names, or the selected one for 0; 0 when there is none. */
static gint64
game_of (KomiWindow *self, GVariant *parameter)
{
  gint64 id = g_variant_get_int64 (parameter);
  const KomiReplay *replay;

  if (id > 0)
    return id;
  replay = komi_series_page_get_replay (self->series_page, NULL);
  if (replay == NULL)
    toast (self, _("Choose a game first"));
  return replay != NULL ? replay->game->id : 0;
}

static gint64
series_of (KomiWindow *self, GVariant *parameter)
{
  gint64 id = g_variant_get_int64 (parameter);

  if (id <= 0)
    id = komi_series_page_get_series_id (self->series_page);
  if (id <= 0)
    toast (self, _("Choose a series first"));
  return id;
}

static void
export_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KomiWindow *self = KOMI_WINDOW (widget);
  gint64 id;

  if (g_str_equal (action_name, "win.export-game") && (id = game_of (self, parameter)) > 0)
    {
      GListModel *games = komi_library_get_games (komi_window_get_library (self));
      g_autofree char *name = NULL;

      /* The export's own name ("series-3-game-0007-gnugo1-vs-random.sgf"),
       * from the library's listing of the game. */
      for (guint i = 0; name == NULL && i < g_list_model_get_n_items (games); i++)
        {
          g_autoptr(KomiGameItem) item = g_list_model_get_item (games, i);

          if (item->game->id == id)
            name = komi_export_sgf_file_name (item->game);
        }
      if (name == NULL)
        name = g_strdup_printf ("game-%" G_GINT64_FORMAT ".sgf", id);
      choose (self, EXPORT_GAME, id, _("Export the Game as SGF"), name);
    }
  else if (g_str_equal (action_name, "win.open-in-sabaki")
           && (id = game_of (self, parameter)) > 0)
    run_export (self, EXPORT_SABAKI, id, NULL);
  else if (g_str_equal (action_name, "win.export-series")
           && (id = series_of (self, parameter)) > 0)
    choose (self, EXPORT_SERIES, id, _("Export the Series’ Games as SGF"), NULL);
  else if (g_str_equal (action_name, "win.export-games"))
    {
      gsize n = 0;
      const gint64 *ids = g_variant_get_fixed_array (parameter, &n, sizeof (gint64));
      Choice *choice;

      if (n == 0)
        {
          toast (self, _("Choose a game first"));
          return;
        }
      choice = choose (self, EXPORT_GAMES, 0, _("Export the Selected Games as SGF"), NULL);
      choice->ids = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_array_append_vals (choice->ids, ids, n);
    }
  else if (g_str_equal (action_name, "win.export-calls")
           && (id = series_of (self, parameter)) > 0)
    {
      g_autofree char *name = g_strdup_printf ("series-%" G_GINT64_FORMAT "-calls.jsonl", id);

      choose (self, EXPORT_CALLS, id, _("Export the Call Log"), name);
    }
}

/* The exports of what the series page shows are greyed out while there is
 * nothing to export: no game shown or one not begun, no series selected
 * or none of its games begun. */
static void
update_exports (KomiWindow *self)
{
  const KomiReplay *replay = komi_series_page_get_replay (self->series_page, NULL);
  gboolean game = replay != NULL && replay->game->status != KOMI_GAME_STATUS_PENDING;
  gboolean series = komi_series_page_has_played (self->series_page);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-game", game);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-in-sabaki", game);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-series", series);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-calls", series);
}

void
_komi_window_init_export (KomiWindow *self)
{
  g_signal_connect_object (self->series_page, "selection-changed", G_CALLBACK (update_exports),
                           self, G_CONNECT_SWAPPED);
  update_exports (self);
}

void
_komi_window_class_init_export (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export-game", "x", export_activated);
  gtk_widget_class_install_action (widget_class, "win.export-series", "x", export_activated);
  gtk_widget_class_install_action (widget_class, "win.export-games", "ax", export_activated);
  gtk_widget_class_install_action (widget_class, "win.export-calls", "x", export_activated);
  gtk_widget_class_install_action (widget_class, "win.open-in-sabaki", "x", export_activated);
  gtk_widget_class_install_action (widget_class, "win.open-folder", "s",
                                   open_folder_activated);
}
