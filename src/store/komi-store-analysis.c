/* komi-store-analysis.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <glib/gi18n-lib.h>

#include "komi-coords.h"
#include "komi-store-private.h"

/* Engine review in the library (schema 5): the tables analysis and
 * analysis_moves. The store keeps what the review layer measured; it
 * classifies moves by the thresholds stored with them, so an export shows
 * what the analysis showed when it was made. */

KomiStoreAnalysis *
komi_store_analysis_new (void)
{
  KomiStoreAnalysis *a = g_new0 (KomiStoreAnalysis, 1);

  a->moves = g_array_new (FALSE, TRUE, sizeof (KomiStoreAnalysisMove));
  a->mistake = 3;
  a->blunder = 6;
  return a;
}

void
komi_store_analysis_free (KomiStoreAnalysis *a)
{
  if (a == NULL)
    return;
  g_free (a->engine);
  g_free (a->engine_version);
  g_free (a->label);
  g_free (a->settings);
  g_free (a->created);
  g_clear_pointer (&a->moves, g_array_unref);
  g_free (a);
}

KomiMoveClass
komi_store_analysis_classify (const KomiStoreAnalysis     *analysis,
                              const KomiStoreAnalysisMove *move)
{
  g_return_val_if_fail (analysis != NULL && move != NULL, KOMI_MOVE_CLASS_GOOD);

  /* A move whose loss could not be measured is not judged. */
  if (isnan (move->loss))
    return KOMI_MOVE_CLASS_GOOD;
  if (move->loss >= analysis->blunder)
    return KOMI_MOVE_CLASS_BLUNDER;
  if (move->loss >= analysis->mistake)
    return KOMI_MOVE_CLASS_MISTAKE;
  return KOMI_MOVE_CLASS_GOOD;
}

const char *
komi_move_class_to_string (KomiMoveClass move_class)
{
  switch (move_class)
    {
    case KOMI_MOVE_CLASS_MISTAKE: return "mistake";
    case KOMI_MOVE_CLASS_BLUNDER: return "blunder";
    case KOMI_MOVE_CLASS_GOOD:
    default:                      return "";
    }
}

static void
bind_double (KomiStoreStmt *stmt, int index, double value)
{
  if (isfinite (value))
    sqlite3_bind_double (stmt, index, value);
  else
    sqlite3_bind_null (stmt, index);
}

static double
column_double (KomiStoreStmt *stmt, int index)
{
  return sqlite3_column_type (stmt, index) == SQLITE_NULL ? NAN
                                                          : sqlite3_column_double (stmt, index);
}

static gboolean
put_analysis_txn (KomiStore *self, gpointer user_data, GError **error)
{
  const KomiStoreAnalysis *a = user_data;
  g_auto(KomiStoreGameRow) row = { 0, };
  g_autoptr(GArray) recorded = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  KomiStoreStmt *stmt;

  if (!_komi_store_get_game_row (self, a->game_id, &row, error)
      || !_komi_store_read_moves (self, a->game_id, row.size, recorded, error))
    return FALSE;
  /* An analysis of other moves than the record's would annotate the wrong
   * nodes of every export. */
  if (recorded->len != a->moves->len)
    goto conflict;
  for (guint i = 0; i < recorded->len; i++)
    {
      const KomiMove *m = &g_array_index (recorded, KomiMove, i);
      const KomiStoreAnalysisMove *am = &g_array_index (a->moves, KomiStoreAnalysisMove, i);

      if (am->turn != i + 1 || am->color != m->color || am->point != m->point)
        goto conflict;
    }

  /* Replacing: the old rows go first (the foreign key cascades too, but
   * not on a connection opened without foreign keys). */
  stmt = _komi_store_prepare (self, "DELETE FROM analysis_moves WHERE game_id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, a->game_id);
  if (!_komi_store_step_done (self, stmt, error))
    return FALSE;
  stmt = _komi_store_prepare (self, "DELETE FROM analysis WHERE game_id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, a->game_id);
  if (!_komi_store_step_done (self, stmt, error))
    return FALSE;

  stmt = _komi_store_prepare (self, "INSERT INTO analysis (game_id, engine, engine_version, "
                                    "label, settings, mistake, blunder, seconds) "
                                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, a->game_id);
  _komi_store_bind_text (stmt, 2, a->engine);
  _komi_store_bind_text (stmt, 3, a->engine_version != NULL ? a->engine_version : "");
  _komi_store_bind_text (stmt, 4, a->label != NULL ? a->label : a->engine);
  _komi_store_bind_text (stmt, 5, a->settings != NULL ? a->settings : "{}");
  sqlite3_bind_double (stmt, 6, a->mistake);
  sqlite3_bind_double (stmt, 7, a->blunder);
  bind_double (stmt, 8, a->seconds);
  if (!_komi_store_step_done (self, stmt, error))
    return FALSE;

  for (guint i = 0; i < a->moves->len; i++)
    {
      const KomiStoreAnalysisMove *m = &g_array_index (a->moves, KomiStoreAnalysisMove, i);
      char point[KOMI_NAME_LEN + 1], best[KOMI_NAME_LEN + 1];

      stmt = _komi_store_prepare (self, "INSERT INTO analysis_moves (game_id, turn, color, "
                                        "point, lead_before, lead_after, loss, best) "
                                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, a->game_id);
      sqlite3_bind_int (stmt, 2, m->turn);
      _komi_store_bind_text (stmt, 3, _komi_store_color_code (m->color));
      _komi_store_bind_text (stmt, 4, komi_point_to_name (row.size, m->point, point));
      bind_double (stmt, 5, m->lead_before);
      bind_double (stmt, 6, m->lead_after);
      bind_double (stmt, 7, m->loss);
      _komi_store_bind_text (stmt, 8, m->best == KOMI_NO_POINT ? NULL
                                      : komi_point_to_name (row.size, m->best, best));
      if (!_komi_store_step_done (self, stmt, error))
        return FALSE;
    }
  return TRUE;

conflict:
  g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_CONFLICT,
               _("The analysis of game %" PRId64 " is of other moves than the "
                 "library records for it; analyse the game again"), a->game_id);
  return FALSE;
}

gboolean
komi_store_put_analysis (KomiStore               *self,
                         const KomiStoreAnalysis *analysis,
                         GError                 **error)
{
  g_return_val_if_fail (self != NULL && analysis != NULL, FALSE);
  g_return_val_if_fail (analysis->engine != NULL && analysis->moves != NULL, FALSE);
  g_return_val_if_fail (analysis->mistake > 0 && analysis->blunder >= analysis->mistake, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return _komi_store_transaction (self, TRUE, put_analysis_txn, (gpointer) analysis, error);
}

typedef struct
{
  gint64             game_id;
  KomiStoreAnalysis *result;
} LoadData;

static gboolean
load_analysis_txn (KomiStore *self, gpointer user_data, GError **error)
{
  LoadData *data = user_data;
  g_autoptr(KomiStoreAnalysis) a = NULL;
  g_auto(KomiStoreGameRow) row = { 0, };
  g_autoptr(KomiStoreStmt) head = NULL;
  g_autoptr(KomiStoreStmt) moves = NULL;
  int rc;

  if (!_komi_store_get_game_row (self, data->game_id, &row, error))
    return FALSE;
  head = _komi_store_prepare (self, "SELECT engine, engine_version, label, settings, mistake, "
                                    "blunder, created, seconds FROM analysis "
                                    "WHERE game_id = ?1", error);
  if (head == NULL)
    return FALSE;
  sqlite3_bind_int64 (head, 1, data->game_id);
  if ((rc = sqlite3_step (head)) == SQLITE_DONE)
    return TRUE;
  if (rc != SQLITE_ROW)
    {
      _komi_store_set_error (self, rc, error, _("Cannot read the library"));
      return FALSE;
    }
  a = komi_store_analysis_new ();
  a->game_id = data->game_id;
  a->engine = g_strdup ((const char *) sqlite3_column_text (head, 0));
  a->engine_version = g_strdup ((const char *) sqlite3_column_text (head, 1));
  a->label = g_strdup ((const char *) sqlite3_column_text (head, 2));
  a->settings = g_strdup ((const char *) sqlite3_column_text (head, 3));
  a->mistake = sqlite3_column_double (head, 4);
  a->blunder = sqlite3_column_double (head, 5);
  a->created = g_strdup ((const char *) sqlite3_column_text (head, 6));
  a->seconds = column_double (head, 7);

  moves = _komi_store_prepare (self, "SELECT turn, color, point, lead_before, lead_after, "
                                     "loss, best FROM analysis_moves WHERE game_id = ?1 "
                                     "ORDER BY turn", error);
  if (moves == NULL)
    return FALSE;
  sqlite3_bind_int64 (moves, 1, data->game_id);
  while ((rc = sqlite3_step (moves)) == SQLITE_ROW)
    {
      KomiStoreAnalysisMove m = { 0, };
      const char *best = (const char *) sqlite3_column_text (moves, 6);

      m.turn = (guint) sqlite3_column_int (moves, 0);
      m.color = _komi_store_color_parse ((const char *) sqlite3_column_text (moves, 1));
      m.lead_before = column_double (moves, 3);
      m.lead_after = column_double (moves, 4);
      m.loss = column_double (moves, 5);
      m.best = KOMI_NO_POINT;
      if (!komi_point_from_name (row.size, (const char *) sqlite3_column_text (moves, 2),
                                 &m.point)
          || (best != NULL && !komi_point_from_name (row.size, best, &m.best)))
        {
          g_set_error (error, KOMI_STORE_ERROR, KOMI_STORE_ERROR_INVALID,
                       _("The analysis of game %" PRId64 " is damaged at move %u; "
                         "analyse the game again"), data->game_id, m.turn);
          return FALSE;
        }
      g_array_append_val (a->moves, m);
    }
  if (rc != SQLITE_DONE)
    {
      _komi_store_set_error (self, rc, error, _("Cannot read the library"));
      return FALSE;
    }
  data->result = g_steal_pointer (&a);
  return TRUE;
}

KomiStoreAnalysis *
komi_store_load_analysis (KomiStore  *self,
                          gint64      game_id,
                          GError    **error)
{
  LoadData data = { game_id, NULL };

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_komi_store_transaction (self, FALSE, load_analysis_txn, &data, error))
    return NULL;
  return data.result;
}
