/* komi-sgf-writer.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-sgf"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-coords.h"
#include "komi-sgf-writer.h"

/* Move nodes per line and points per line of a long list, so that files
 * stay readable in a text editor and in tools that read line by line. */
#define MOVES_PER_LINE  10
#define POINTS_PER_LINE 19

/* Appends @text as an SGF value body: ']' and '\\' escaped. SimpleText
 * (names, dates) cannot hold line breaks, so they become spaces there;
 * Text keeps "\n" line breaks and drops '\r'. */
static void
append_escaped (GString    *out,
                const char *text,
                gboolean    simple)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  for (const char *p = valid; *p != '\0'; p++)
    {
      char c = *p;

      if (c == '\r' && (p[1] == '\n' || !simple))
        continue;
      if (simple && (c == '\n' || c == '\r' || c == '\t'))
        c = ' ';
      if (c == ']' || c == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, c);
    }
}

static void
append_property (GString    *out,
                 const char *id,
                 const char *value,
                 gboolean    simple)
{
  if (value == NULL)
    return;
  g_string_append_printf (out, "%s[", id);
  append_escaped (out, value, simple);
  g_string_append_c (out, ']');
}

/* Writes @id with every point of @mask in board order, so each point is
 * listed once; nothing when the mask is empty. */
static void
append_points (GString       *out,
               const char    *id,
               guint          size,
               const gboolean *mask)
{
  guint written = 0;

  for (guint i = 0; i < size * size; i++)
    {
      char buf[3];

      if (!mask[i])
        continue;
      if (written == 0)
        g_string_append_printf (out, "\n%s", id);
      else if (written % POINTS_PER_LINE == 0)
        g_string_append (out, "\n  ");
      g_string_append_printf (out, "[%s]", komi_point_to_sgf (size, (KomiPoint) i, buf));
      written++;
    }
}

static void
append_colors (GString       *out,
               const char    *id,
               guint          size,
               const guint8  *colors,
               KomiColor      color)
{
  gboolean mask[KOMI_MAX_POINTS] = { FALSE, };

  for (guint i = 0; i < size * size; i++)
    mask[i] = colors[i] == color;
  append_points (out, id, size, mask);
}

static gboolean
game_is_valid (const KomiSgfGame *game)
{
  guint n_points = game->size * game->size;

  g_return_val_if_fail (game->size >= KOMI_MIN_SIZE && game->size <= KOMI_MAX_SIZE, FALSE);
  g_return_val_if_fail (isfinite (game->komi), FALSE);
  g_return_val_if_fail (game->n_moves == 0 || game->moves != NULL, FALSE);
  g_return_val_if_fail (game->n_dead == 0 || game->dead != NULL, FALSE);
  for (guint i = 0; i < game->n_moves; i++)
    {
      const KomiMove *move = &game->moves[i];

      g_return_val_if_fail (move->color == KOMI_BLACK || move->color == KOMI_WHITE, FALSE);
      g_return_val_if_fail (move->point == KOMI_PASS ||
                            (move->point >= 0 && (guint) move->point < n_points), FALSE);
    }
  for (guint i = 0; i < game->n_dead; i++)
    g_return_val_if_fail (game->dead[i] >= 0 && (guint) game->dead[i] < n_points, FALSE);
  return TRUE;
}

/* SBKS as Sabaki writes it: rounded to hundredths, no trailing zeros,
 * whatever the locale. */
static void
append_lead (GString *out, double black_lead)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (black_lead))
    return;
  g_ascii_formatd (buf, sizeof buf, "%.15g", round (black_lead * 100) / 100);
  g_string_append_printf (out, "SBKS[%s]", strcmp (buf, "-0") == 0 ? "0" : buf);
}

static void
append_root (GString *out, const KomiSgfGame *game)
{
  char komi[G_ASCII_DTOSTR_BUF_SIZE];
  gsize mark;

  /* 7.0 as "7", 6.5 as "6.5", whatever the locale; 17 digits only when 15
   * would not read back as the same double. */
  g_ascii_formatd (komi, sizeof komi, "%.15g", game->komi);
  if (g_ascii_strtod (komi, NULL) != game->komi)
    g_ascii_formatd (komi, sizeof komi, "%.17g", game->komi);
  g_string_append (out, "(;FF[4]GM[1]CA[UTF-8]");
  append_property (out, "AP", game->application, TRUE);
  g_string_append_printf (out, "SZ[%u]KM[%s]", game->size, komi);
  append_property (out, "RU", game->ruleset != NULL ? game->ruleset : "Chinese", TRUE);

  mark = out->len;
  g_string_append_c (out, '\n');
  append_property (out, "PB", game->black_name, TRUE);
  append_property (out, "PW", game->white_name, TRUE);
  append_property (out, "DT", game->date, TRUE);
  append_property (out, "EV", game->event, TRUE);
  append_property (out, "RO", game->round, TRUE);
  append_property (out, "GN", game->game_name, TRUE);
  append_property (out, "RE", game->result, TRUE);
  if (out->len == mark + 1)
    g_string_truncate (out, mark);

  if (game->rules_text != NULL)
    {
      g_string_append_c (out, '\n');
      append_property (out, "GC", game->rules_text, FALSE);
    }
  if (game->root_comment != NULL)
    {
      g_string_append_c (out, '\n');
      append_property (out, "C", game->root_comment, FALSE);
    }
  if (game->setup_colors != NULL)
    {
      append_colors (out, "AB", game->size, game->setup_colors, KOMI_BLACK);
      append_colors (out, "AW", game->size, game->setup_colors, KOMI_WHITE);
    }
  /* Black moves first unless told; a record that starts with White says so. */
  if (game->n_moves > 0 && game->moves[0].color == KOMI_WHITE)
    g_string_append (out, "PL[W]");
  if (game->has_root_lead)
    append_lead (out, game->root_black_lead);
}

/* BM and SBKS of a move's node; its comment is written by the caller, as
 * the final node shares its C with the count. */
static void
append_note (GString *out, const KomiSgfMoveNote *note)
{
  if (note->bad_move > 0)
    g_string_append_printf (out, "BM[%u]", MIN (note->bad_move, 2));
  if (note->has_lead)
    append_lead (out, note->black_lead);
}

/* MA, TB, TW and C of the final node, appended to the node being written;
 * @note_comment (the last move's review) goes first in the one C. */
static void
append_final (GString *out, const KomiSgfGame *game, const char *note_comment)
{
  g_autofree char *comment = NULL;

  gboolean mask[KOMI_MAX_POINTS] = { FALSE, };

  for (guint i = 0; i < game->n_dead; i++)
    mask[game->dead[i]] = TRUE;
  append_points (out, "MA", game->size, mask);
  if (game->owner != NULL)
    {
      append_colors (out, "TB", game->size, game->owner, KOMI_BLACK);
      append_colors (out, "TW", game->size, game->owner, KOMI_WHITE);
    }
  if (note_comment != NULL && game->final_comment != NULL)
    comment = g_strconcat (note_comment, "\n\n", game->final_comment, NULL);
  else
    comment = g_strdup (note_comment != NULL ? note_comment : game->final_comment);
  if (comment != NULL)
    {
      g_string_append_c (out, '\n');
      append_property (out, "C", comment, FALSE);
    }
}

char *
komi_sgf_write (const KomiSgfGame *game)
{
  g_autoptr(GString) out = NULL;
  const char *last_comment;
  gboolean has_final;

  g_return_val_if_fail (game != NULL, NULL);
  if (!game_is_valid (game))
    return NULL;

  out = g_string_new (NULL);
  append_root (out, game);
  g_string_append_c (out, '\n');

  for (guint i = 0; i < game->n_moves; i++)
    {
      const KomiMove *move = &game->moves[i];
      const KomiSgfMoveNote *note = game->notes != NULL ? &game->notes[i] : NULL;
      char buf[3];

      /* A reviewed move with a comment starts a line of its own. */
      if ((i > 0 && i % MOVES_PER_LINE == 0) || (note != NULL && note->comment != NULL))
        g_string_append_c (out, '\n');
      g_string_append_printf (out, ";%c[%s]", move->color == KOMI_BLACK ? 'B' : 'W',
                              komi_point_to_sgf (game->size, move->point, buf));
      if (note != NULL)
        {
          append_note (out, note);
          if (note->comment != NULL && i + 1 < game->n_moves)
            append_property (out, "C", note->comment, FALSE);
        }
    }

  last_comment = game->notes != NULL && game->n_moves > 0
                 ? game->notes[game->n_moves - 1].comment : NULL;
  has_final = game->n_dead > 0 || game->owner != NULL || game->final_comment != NULL
              || last_comment != NULL;
  if (has_final)
    {
      /* Without moves the root is not "the final node": markup gets its own. */
      if (game->n_moves == 0)
        g_string_append_c (out, ';');
      append_final (out, game, last_comment);
    }
  g_string_append (out, ")\n");
  return g_string_free (g_steal_pointer (&out), FALSE);
}
