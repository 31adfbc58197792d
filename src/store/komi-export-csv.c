/* komi-export-csv.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "komi-export.h"
#include "komi-untrusted.h"

/* The results as CSV, one row per game, as RFC 4180 says: CRLF line ends,
 * a field with a comma, a quote or a line break in double quotes, quotes
 * doubled. Numbers use a '.' whatever the locale. The columns are listed
 * in docs/library.md; new ones are only ever added at the end. */

static const char * const columns[] = {
  "series_id", "series", "game_id", "game", "opponent", "pair", "game_in_pair",
  "black", "white", "black_spec", "white_spec", "subject", "orientation", "seed",
  "black_seed", "white_seed", "status", "result", "winner", "margin", "end_reason",
  "turns", "seconds", "referee", "void_reason", "date", "source", "calls", "cost_usd",
};

/* Every field is appended with a ',' before it; a row drops its first. */
static void
add_field (GString *row, const char *value)
{
  g_autofree char *valid = NULL;

  g_string_append_c (row, ',');
  if (value == NULL)
    return;
  /* A name from a foreign library may hold any byte: the file is UTF-8. */
  if (!g_utf8_validate (value, -1, NULL))
    value = valid = komi_untrusted_valid_utf8 (value, -1);
  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      g_string_append (row, value);
      return;
    }
  g_string_append_c (row, '"');
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (row, '"');
      g_string_append_c (row, *p);
    }
  g_string_append_c (row, '"');
}

static void
add_number (GString *row, const char *format, double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  add_field (row, isnan (value) ? NULL : g_ascii_formatd (buf, sizeof buf, format, value));
}

static void
add_int (GString *row, gint64 value)
{
  char buf[32];

  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, value);
  add_field (row, buf);
}

static void
add_seed (GString *row, guint64 value)
{
  char buf[32];

  g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, value);
  add_field (row, buf);
}

static const char *
winner_text (const KomiStoreGame *g)
{
  if (!g->has_winner)
    return NULL;
  return g->winner == KOMI_BLACK ? "B" : g->winner == KOMI_WHITE ? "W" : "draw";
}

static const char *
end_text (KomiEndReason reason)
{
  return reason == KOMI_END_TWO_PASSES ? "two passes"
         : reason == KOMI_END_TURN_LIMIT ? "turn limit" : NULL;
}

static void
append_row (GString *out, const KomiStoreGame *g)
{
  g_autoptr(GString) row = g_string_new (NULL);
  gboolean ours = g->series_id > 0;

  if (ours)
    add_int (row, g->series_id);
  else
    add_field (row, NULL);
  add_field (row, g->series_name);
  add_int (row, g->id);
  if (ours)
    {
      add_int (row, g->plan_index + 1);
      add_int (row, g->opponent);
      add_int (row, g->pair + 1);
      add_int (row, g->game_in_pair + 1);
    }
  else
    for (guint i = 0; i < 4; i++)
      add_field (row, NULL);
  add_field (row, g->black_name);
  add_field (row, g->white_name);
  add_field (row, g->black_spec);
  add_field (row, g->white_spec);
  add_field (row, g->subject == KOMI_BLACK ? "B" : g->subject == KOMI_WHITE ? "W" : NULL);
  add_field (row, komi_orientation_to_string (g->orientation));
  if (ours)
    {
      add_seed (row, g->seed);
      add_seed (row, g->black_seed);
      add_seed (row, g->white_seed);
    }
  else
    for (guint i = 0; i < 3; i++)
      add_field (row, NULL);
  add_field (row, komi_game_status_to_string (g->status));
  add_field (row, g->result);
  add_field (row, winner_text (g));
  add_number (row, "%g", g->margin);
  add_field (row, end_text (g->end_reason));
  add_int (row, g->n_moves);
  add_number (row, "%.3f", g->status == KOMI_GAME_STATUS_FINISHED
                           || g->status == KOMI_GAME_STATUS_VOID
                           || g->status == KOMI_GAME_STATUS_FORFEIT ? g->seconds : NAN);
  add_field (row, g->referee);
  add_field (row, g->void_reason);
  add_field (row, g->date);
  add_field (row, g->source);
  /* Model call attempts and their cost; empty for a game without calls. */
  if (g->n_calls > 0)
    {
      add_int (row, g->n_calls);
      add_number (row, "%.6f", isnan (g->cost_usd) ? 0 : g->cost_usd);
    }
  else
    {
      add_field (row, NULL);
      add_field (row, NULL);
    }
  g_string_append (out, row->str + 1);
  g_string_append (out, "\r\n");
}

gboolean
komi_export_csv (KomiStore   *store,
                 gint64       series_id,
                 const char  *path,
                 guint       *n_rows,
                 GError     **error)
{
  return komi_export_csv_public (store, series_id, path, NULL, n_rows, error);
}

gboolean
komi_export_csv_public (KomiStore   *store,
                        gint64       series_id,
                        const char  *path,
                        KomiPublic  *pub,
                        guint       *n_rows,
                        GError     **error)
{
  g_autoptr(GPtrArray) games = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) header = g_string_new (NULL);

  g_return_val_if_fail (store != NULL && path != NULL, FALSE);

  if ((games = komi_store_list_games (store, series_id, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    add_field (header, columns[i]);
  g_string_append_printf (out, "%s\r\n", header->str + 1);
  for (guint i = 0; i < games->len; i++)
    {
      g_auto(KomiPublicGame) view = { 0, };
      const KomiStoreGame *g = g_ptr_array_index (games, i);

      append_row (out, pub != NULL ? komi_public_game (pub, g, &view) : g);
    }
  /* g_file_set_contents writes a temporary file and renames it. */
  if (!g_file_set_contents (path, out->str, out->len, error))
    return FALSE;
  if (n_rows != NULL)
    *n_rows = games->len;
  return TRUE;
}
