/* komi-store-foreign.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-store-private.h"

/* Libraries that strangers made (merge's sources, verify's subject) are
 * untrusted input: an SQLite file carries its own schema, and a schema can
 * hold triggers that run on a write, views that stand in for a table, and
 * functions called from CHECK constraints, defaults or index expressions.
 * Such a file is opened read-only, with SQLite's defences on, and refused
 * unless its integrity holds and its schema is, object for object and
 * word for word, the one Komi's migrations make at its version: then
 * every statement Komi runs on it means what it means on our own files. */

gboolean
_komi_store_defend (sqlite3 *db)
{
  int on = -1, off = -1, ext = -1;

  /* DEFENSIVE: no writable_schema, no shadow-table writes, no journal
   * tricks; TRUSTED_SCHEMA off: the schema may call innocuous functions
   * only; no extension can be loaded, by the C call or by SQL. */
  sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &off);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &ext);
  return on == 1 && off == 0 && ext == 0;
}

/* The schema objects of @schema as "type name tbl_name sql" lines, sorted;
 * SQLite's own statistics tables (ANALYZE) are left out: they steer the
 * query planner only. */
static GPtrArray *
schema_lines (sqlite3 *db, const char *schema, GError **error)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  char *sql = sqlite3_mprintf ("SELECT type, name, tbl_name, sql FROM \"%w\".sqlite_schema "
                               "WHERE name NOT LIKE 'sqlite\\_stat%%' ESCAPE '\\' "
                               "ORDER BY type, name", schema);
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  sqlite3_free (sql);
  while (rc == SQLITE_OK || rc == SQLITE_ROW)
    {
      const char *text;

      if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
        break;
      text = (const char *) sqlite3_column_text (stmt, 3);
      g_ptr_array_add (lines, g_strdup_printf ("%s\t%s\t%s\t%s",
                                               sqlite3_column_text (stmt, 0),
                                               sqlite3_column_text (stmt, 1),
                                               sqlite3_column_text (stmt, 2),
                                               text != NULL ? text : ""));
    }
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                   _("its schema cannot be read (%s)"), sqlite3_errmsg (db));
      sqlite3_finalize (stmt);
      return NULL;
    }
  sqlite3_finalize (stmt);
  return g_steal_pointer (&lines);
}

/* The schema the migrations make at @version, in a database in memory. */
static GPtrArray *
reference_lines (guint version, GError **error)
{
  const KomiStoreMigration *migrations;
  guint n_migrations, n = 0;
  sqlite3 *db = NULL;
  GPtrArray *lines = NULL;

  migrations = _komi_store_get_migrations (&n_migrations);
  while (n < n_migrations && migrations[n].version <= version)
    n++;
  if (n == 0 || sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                   _("its schema version %u is not one Komi ever wrote"), version);
      sqlite3_close (db);
      return NULL;
    }
  if (_komi_store_migrate (db, ":memory:", migrations, n, error))
    lines = schema_lines (db, "main", error);
  sqlite3_close (db);
  return lines;
}

/* What kind of object a schema line is, and its name. */
static void
describe_line (GString *text, const char *line, const char *how)
{
  g_auto(GStrv) parts = g_strsplit (line, "\t", 4);

  if (text->len > 0)
    g_string_append (text, "; ");
  if (g_strcmp0 (parts[0], "trigger") == 0)
    /* Translators: a name in the file's schema, then "extra", "changed" or "missing". */
    g_string_append_printf (text, _("a trigger “%s” (%s)"), parts[1], how);
  else if (g_strcmp0 (parts[0], "view") == 0)
    g_string_append_printf (text, _("a view “%s” (%s)"), parts[1], how);
  else if (g_strcmp0 (parts[0], "index") == 0)
    g_string_append_printf (text, _("an index “%s” (%s)"), parts[1], how);
  else
    g_string_append_printf (text, _("a table “%s” (%s)"), parts[1], how);
}

char *
_komi_store_schema_problem (sqlite3 *db, const char *schema, guint version)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) theirs = schema_lines (db, schema, &error);
  g_autoptr(GPtrArray) ours = theirs != NULL ? reference_lines (version, &error) : NULL;
  g_autoptr(GHashTable) expected = NULL;
  g_autoptr(GHashTable) names = NULL;
  GString *text;

  if (ours == NULL)
    return g_strdup (error->message);
  expected = g_hash_table_new (g_str_hash, g_str_equal);
  names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < ours->len; i++)
    {
      const char *line = g_ptr_array_index (ours, i);
      const char *tab = strchr (strchr (line, '\t') + 1, '\t');

      g_hash_table_add (expected, (gpointer) line);
      g_hash_table_add (names, g_strndup (line, (gsize) (tab - line)));
    }
  text = g_string_new (NULL);
  /* Triggers and views first: those are what would run or stand in. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < theirs->len; i++)
      {
        const char *line = g_ptr_array_index (theirs, i);
        gboolean active = g_str_has_prefix (line, "trigger\t") || g_str_has_prefix (line, "view\t");
        const char *tab = strchr (strchr (line, '\t') + 1, '\t');
        g_autofree char *name = g_strndup (line, (gsize) (tab - line));

        if ((pass == 0) != active || g_hash_table_contains (expected, line))
          continue;
        describe_line (text, line, g_hash_table_contains (names, name) ? _("changed")
                                                                        : _("extra"));
      }
  /* What theirs lacks; a changed object was named above already. */
  g_hash_table_remove_all (names);
  for (guint i = 0; i < theirs->len; i++)
    {
      const char *line = g_ptr_array_index (theirs, i);
      const char *tab = strchr (strchr (line, '\t') + 1, '\t');

      g_hash_table_add (names, g_strndup (line, (gsize) (tab - line)));
    }
  for (guint i = 0; i < ours->len; i++)
    {
      const char *line = g_ptr_array_index (ours, i);
      const char *tab = strchr (strchr (line, '\t') + 1, '\t');
      g_autofree char *name = g_strndup (line, (gsize) (tab - line));

      if (!g_hash_table_contains (names, name))
        describe_line (text, line, _("missing"));
    }
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

/* PRAGMA quick_check: the b-trees, NOT NULL and CHECK constraints. */
static char *
integrity_problem (sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  GString *text = g_string_new (NULL);
  int rc = sqlite3_prepare_v2 (db, "PRAGMA quick_check (5)", -1, &stmt, NULL);

  while (rc == SQLITE_OK || rc == SQLITE_ROW)
    {
      const char *line;

      if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
        break;
      line = (const char *) sqlite3_column_text (stmt, 0);
      if (g_strcmp0 (line, "ok") == 0)
        continue;
      g_string_append_printf (text, "%s%s", text->len > 0 ? "; " : "", line);
    }
  if (rc != SQLITE_DONE && text->len == 0)
    g_string_append (text, sqlite3_errmsg (db));
  sqlite3_finalize (stmt);
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

KomiStore *
komi_store_open_foreign (const char *path, GError **error)
{
  g_autoptr(KomiStore) self = NULL;
  g_autofree char *problem = NULL;
  guint version = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((self = _komi_store_open_connection (path, FALSE, error)) == NULL)
    return NULL;
  if (!_komi_store_defend (self->db))
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_OPEN,
                   _("%s: this SQLite cannot be made safe for a library from elsewhere "
                     "(defensive mode, untrusted schema); nothing was read"), path);
      return NULL;
    }
  if (!_komi_store_check_version (self->db, path, KOMI_STORE_SCHEMA_VERSION, &version, error))
    return NULL;
  if (version == 0)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                   _("%s is an empty file, not a Komi library; nothing was read"), path);
      return NULL;
    }
  if ((problem = integrity_problem (self->db)) != NULL)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                   _("%s is damaged (%s); nothing was read. Ask whoever sent it for a "
                     "good copy"), path, problem);
      return NULL;
    }
  if ((problem = _komi_store_schema_problem (self->db, "main", version)) != NULL)
    {
      g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_NOT_LIBRARY,
                   _("%s is not a library as Komi writes it (schema %u): it holds %s. "
                     "Nothing was read or run; ask whoever sent it for the library as Komi "
                     "wrote it"), path, version, problem);
      return NULL;
    }
  if (!_komi_store_configure (self, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  return g_steal_pointer (&self);
}

guint
komi_store_get_schema_version (KomiStore *self)
{
  sqlite3_stmt *stmt = NULL;
  guint version = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_mutex_lock (&self->mutex);
  if (sqlite3_prepare_v2 (self->db, "PRAGMA user_version", -1, &stmt, NULL) == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    version = (guint) sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  g_mutex_unlock (&self->mutex);
  return version;
}
