/* komi-publish-manifest.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-publish"

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-coords.h"
#include "komi-publish-private.h"
#include "komi-sgf-record.h"

/* The site's manifest: MANIFEST.sha256 at its top, one line per file of
 * the site, "SHA256  PATH" in the format of `sha256sum` (so that
 * `sha256sum -c MANIFEST.sha256` checks a copy without Komi), sorted by
 * path. Publish writes it last, over every file under the folder, and
 * `komi-cli verify` checks it. What verify finds is English, like the
 * site itself. */

#define MANIFEST "MANIFEST.sha256"

static gboolean
list_files (const char *root, const char *rel, GPtrArray *paths, GError **error)
{
  g_autofree char *path = rel[0] != '\0' ? g_build_filename (root, rel, NULL)
                                         : g_strdup (root);
  g_autoptr(GDir) dir = g_dir_open (path, 0, error);
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child_rel = rel[0] != '\0' ? g_strconcat (rel, "/", name, NULL)
                                                  : g_strdup (name);
      g_autofree char *child = g_build_filename (root, child_rel, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        continue;
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        {
          if (!list_files (root, child_rel, paths, error))
            return FALSE;
        }
      else if (strcmp (child_rel, MANIFEST) != 0)
        g_ptr_array_add (paths, g_steal_pointer (&child_rel));
    }
  return TRUE;
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static char *
file_sha256 (const char *root, const char *rel)
{
  g_autofree char *path = g_build_filename (root, rel, NULL);
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);

  if (file == NULL)
    return NULL;
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                      (const guchar *) g_mapped_file_get_contents (file),
                                      g_mapped_file_get_length (file));
}

gboolean
_komi_publish_write_manifest (KomiPublishOut *out, GError **error)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) local = NULL;

  if (!list_files (out->dir, "", paths, &local))
    {
      g_set_error (error, KOMI_PUBLISH_ERROR, KOMI_PUBLISH_ERROR_WRITE, "%s", local->message);
      return FALSE;
    }
  g_ptr_array_sort (paths, compare_paths);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *known = out->digests != NULL ? g_hash_table_lookup (out->digests,
                                                                      paths->pdata[i]) : NULL;
      g_autofree char *digest = known != NULL ? g_strdup (known)
                                              : file_sha256 (out->dir, paths->pdata[i]);

      if (digest == NULL)
        {
          g_set_error (error, KOMI_PUBLISH_ERROR, KOMI_PUBLISH_ERROR_WRITE,
                       _("cannot read %s/%s back to write the site's manifest"), out->dir,
                       (const char *) paths->pdata[i]);
          return FALSE;
        }
      g_string_append_printf (text, "%s  %s\n", digest, (const char *) paths->pdata[i]);
    }
  return _komi_publish_write (out, MANIFEST, text->str, text->len, error);
}

gboolean
komi_publish_check_manifest (const char *dir, GPtrArray *problems, guint *n_files,
                             GError **error)
{
  g_autofree char *path = g_build_filename (dir, MANIFEST, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = NULL;

  *n_files = 0;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      g_set_error (error, KOMI_PUBLISH_ERROR, KOMI_PUBLISH_ERROR_WRITE,
                   _("%s has no %s: it is not a site published by this Komi, or it was "
                     "published before sites had manifests; publish it again"), dir, MANIFEST);
      return FALSE;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *rel = line + 66;
      g_autofree char *digest = NULL;

      if (line[0] == '\0')
        continue;
      if (strlen (line) < 67 || line[64] != ' ' || line[65] != ' ' || strstr (rel, "..") != NULL
          || rel[0] == '/')
        {
          g_ptr_array_add (problems, g_strdup_printf ("%s line %u is not “SHA256  PATH”",
                                                      MANIFEST, i + 1));
          continue;
        }
      (*n_files)++;
      g_hash_table_add (listed, g_strdup (rel));
      digest = file_sha256 (dir, rel);
      if (digest == NULL)
        g_ptr_array_add (problems, g_strdup_printf ("%s is in the manifest but missing", rel));
      else if (strncmp (digest, line, 64) != 0)
        g_ptr_array_add (problems, g_strdup_printf ("%s does not match the manifest (sha256 "
                                                    "%.12s…, the manifest says %.12s…)",
                                                    rel, digest, line));
    }
  if (list_files (dir, "", paths, NULL))
    for (guint i = 0; i < paths->len; i++)
      if (!g_hash_table_contains (listed, paths->pdata[i]))
        g_ptr_array_add (problems, g_strdup_printf ("%s is not in the manifest",
                                                    (const char *) paths->pdata[i]));
  return TRUE;
}

gboolean
komi_publish_check_games (const char *dir, KomiStore *store, GPtrArray *problems,
                          guint *n_games, GError **error)
{
  g_autofree char *games = g_build_filename (dir, "games", NULL);
  g_autoptr(GDir) folder = g_dir_open (games, 0, NULL);
  const char *name;

  *n_games = 0;
  while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
    {
      g_autoptr(KomiSgfRecord) sgf = NULL;
      g_autoptr(KomiStoreGame) g = NULL;
      g_autoptr(GError) local = NULL;
      g_autofree char *path = NULL;
      gint64 id = 0;
      char *end = NULL;
      gboolean same;

      if (!g_str_has_prefix (name, "game-") || !g_str_has_suffix (name, ".sgf"))
        continue;
      id = g_ascii_strtoll (name + 5, &end, 10);
      if (end == NULL || strcmp (end, ".sgf") != 0 || id <= 0)
        continue;
      (*n_games)++;
      path = g_build_filename (games, name, NULL);
      if ((sgf = komi_sgf_record_load (path, &local)) == NULL)
        {
          g_ptr_array_add (problems, g_strdup_printf ("games/%s cannot be read: %s", name,
                                                      local->message));
          continue;
        }
      if ((g = komi_store_load_game (store, id, &local)) == NULL)
        {
          if (!g_error_matches (local, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_FOUND))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return FALSE;
            }
          g_ptr_array_add (problems, g_strdup_printf ("games/%s: the library has no game %"
                                                      PRId64, name, id));
          continue;
        }
      same = sgf->moves->len == g->moves->len;
      for (guint i = 0; same && i < g->moves->len; i++)
        {
          const KomiMove *a = &g_array_index (sgf->moves, KomiMove, i);
          const KomiMove *b = &g_array_index (g->moves, KomiMove, i);

          same = a->color == b->color && a->point == b->point;
        }
      if (!same)
        g_ptr_array_add (problems, g_strdup_printf ("games/%s: its moves are not those of game "
                                                    "%" PRId64 " in the library", name, id));
      else if (g->result != NULL && g_strcmp0 (sgf->result, g->result) != 0)
        g_ptr_array_add (problems, g_strdup_printf ("games/%s: result %s, the library's game %"
                                                    PRId64 " has %s", name,
                                                    sgf->result ? sgf->result : "none", id,
                                                    g->result));
    }
  return TRUE;
}
