/* komi-sgf-record.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-sgf"

#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-coords.h"
#include "komi-sgf-record.h"

/* Game information read from the first main-line node that has it. */
static const struct
{
  const char *id;
  gsize       offset;
  gboolean    text;     /* Text keeps line breaks; SimpleText does not */
} info_fields[] = {
  { "PB", G_STRUCT_OFFSET (KomiSgfRecord, black_name),  FALSE },
  { "PW", G_STRUCT_OFFSET (KomiSgfRecord, white_name),  FALSE },
  { "BR", G_STRUCT_OFFSET (KomiSgfRecord, black_rank),  FALSE },
  { "WR", G_STRUCT_OFFSET (KomiSgfRecord, white_rank),  FALSE },
  { "DT", G_STRUCT_OFFSET (KomiSgfRecord, date),        FALSE },
  { "EV", G_STRUCT_OFFSET (KomiSgfRecord, event),       FALSE },
  { "RO", G_STRUCT_OFFSET (KomiSgfRecord, round),       FALSE },
  { "GN", G_STRUCT_OFFSET (KomiSgfRecord, game_name),   FALSE },
  { "PC", G_STRUCT_OFFSET (KomiSgfRecord, place),       FALSE },
  { "RU", G_STRUCT_OFFSET (KomiSgfRecord, ruleset),     FALSE },
  { "RE", G_STRUCT_OFFSET (KomiSgfRecord, result),      FALSE },
  { "GC", G_STRUCT_OFFSET (KomiSgfRecord, rules_text),  TRUE  },
};

static gboolean prop_error (GError **error, int code, const KomiSgfProperty *prop,
                            const char *format, ...) G_GNUC_PRINTF (4, 5);

/* Sets an error located at @prop; always returns FALSE. */
static gboolean
prop_error (GError                 **error,
            int                      code,
            const KomiSgfProperty   *prop,
            const char              *format,
            ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: where in the SGF file, then what is wrong there. */
  g_set_error (error, KOMI_SGF_ERROR, code, _("line %u, column %u: %s"),
               prop->line, prop->column, message);
  return FALSE;
}

/* A value short enough to quote in a message. */
static char *
quote_value (const char *value)
{
  if (g_utf8_strlen (value, -1) <= 16)
    return g_strdup (value);
  return g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (value, 16) - value), value);
}

/* SimpleText turns every line break and other white space into a space;
 * Text turns "\r\n", "\n\r" and "\r" into "\n". */
static char *
normalize_text (const char *value, gboolean text)
{
  GString *out = g_string_sized_new (strlen (value));

  for (const char *p = value; *p != '\0'; p++)
    {
      char c = *p;

      if (c == '\r' || c == '\n')
        {
          if ((p[1] == '\r' || p[1] == '\n') && p[1] != c)
            p++;
          g_string_append_c (out, text ? '\n' : ' ');
        }
      else if (c == '\t' || c == '\v' || c == '\f')
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, c);
    }
  return g_string_free (out, FALSE);
}

/* GM[1] is Go; files without GM are taken to be Go too. */
static gboolean
read_game_kind (const KomiSgfNode *root, GError **error)
{
  const KomiSgfProperty *prop = komi_sgf_node_lookup (root, "GM");
  g_autofree char *value = NULL;

  if (prop == NULL)
    return TRUE;
  value = g_strstrip (g_strdup (g_ptr_array_index (prop->values, 0)));
  if (strcmp (value, "1") != 0)
    {
      g_autofree char *quoted = quote_value (value);

      return prop_error (error, KOMI_SGF_ERROR_UNSUPPORTED, prop,
                         _("GM[%s]: this is not a game of Go"), quoted);
    }
  return TRUE;
}

static gboolean
read_size (KomiSgfRecord *record, const KomiSgfNode *root, GError **error)
{
  const KomiSgfProperty *prop = komi_sgf_node_lookup (root, "SZ");
  const char *value;
  g_auto(GStrv) parts = NULL;
  guint64 size = 0, rows = 0;

  record->size = 19;
  if (prop == NULL)
    return TRUE;
  value = g_ptr_array_index (prop->values, 0);
  parts = g_strsplit (value, ":", 2);
  if (parts[0] == NULL ||
      !g_ascii_string_to_unsigned (g_strstrip (parts[0]), 10, 1, 52, &size, NULL) ||
      (parts[1] != NULL &&
       !g_ascii_string_to_unsigned (g_strstrip (parts[1]), 10, 1, 52, &rows, NULL)))
    {
      g_autofree char *quoted = quote_value (value);

      return prop_error (error, KOMI_SGF_ERROR_BAD_VALUE, prop,
                         _("SZ[%s] is not a board size"), quoted);
    }
  if (parts[1] != NULL && rows != size)
    return prop_error (error, KOMI_SGF_ERROR_UNSUPPORTED, prop,
                       _("SZ[%s]: rectangular boards are not supported"), value);
  if (size < KOMI_MIN_SIZE || size > KOMI_MAX_SIZE)
    return prop_error (error, KOMI_SGF_ERROR_UNSUPPORTED, prop,
                       _("SZ[%s]: board size %u is not supported (%u to %u)"),
                       value, (guint) size, KOMI_MIN_SIZE, KOMI_MAX_SIZE);
  record->size = (guint) size;
  return TRUE;
}

static gboolean
read_komi (KomiSgfRecord *record, const KomiSgfProperty *prop, GError **error)
{
  const char *value = g_ptr_array_index (prop->values, 0);
  g_autofree char *copy = g_strstrip (g_strdup (value));
  char *end = NULL;
  double komi;

  komi = g_ascii_strtod (copy, &end);
  if (copy[0] == '\0' || end == NULL || *end != '\0' || !isfinite (komi) || fabs (komi) > 1000)
    {
      g_autofree char *quoted = quote_value (value);

      return prop_error (error, KOMI_SGF_ERROR_BAD_VALUE, prop, _("KM[%s] is not a komi"), quoted);
    }
  record->komi = komi;
  record->has_komi = TRUE;
  return TRUE;
}

/* Marks the points of a point-list property in @mask: single points and
 * FF[4] compressed rectangles "aa:cc"; an empty value is an empty list. */
static gboolean
read_points (const KomiSgfProperty *prop, guint size, guint8 *mask, GError **error)
{
  for (guint i = 0; i < prop->values->len; i++)
    {
      const char *value = g_ptr_array_index (prop->values, i);
      g_auto(GStrv) corners = g_strsplit (value, ":", 2);
      KomiPoint a, b;
      guint x0, x1, y0, y1;

      if (value[0] == '\0')
        continue;
      if (!komi_point_from_sgf (size, corners[0], &a) || a == KOMI_PASS ||
          !komi_point_from_sgf (size, corners[1] != NULL ? corners[1] : corners[0], &b) ||
          b == KOMI_PASS)
        {
          g_autofree char *quoted = quote_value (value);

          return prop_error (error, KOMI_SGF_ERROR_BAD_VALUE, prop,
                             _("%s[%s] is not a point on a %ux%u board"),
                             prop->id, quoted, size, size);
        }
      x0 = MIN (komi_point_x (size, a), komi_point_x (size, b));
      x1 = MAX (komi_point_x (size, a), komi_point_x (size, b));
      y0 = MIN (komi_point_y (size, a), komi_point_y (size, b));
      y1 = MAX (komi_point_y (size, a), komi_point_y (size, b));
      for (guint y = y0; y <= y1; y++)
        for (guint x = x0; x <= x1; x++)
          mask[komi_point_from_xy (size, x, y)] = TRUE;
    }
  return TRUE;
}

/* AB, AW and AE before the first move build the start position; Komi's
 * games are alternating play from one position, so later setup is refused. */
static gboolean
read_setup (KomiSgfRecord *record, const KomiSgfNode *node, GError **error)
{
  static const struct { const char *id; KomiColor color; } kinds[] = {
    { "AE", KOMI_EMPTY }, { "AB", KOMI_BLACK }, { "AW", KOMI_WHITE },
  };
  guint n_points = record->size * record->size;

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      const KomiSgfProperty *prop = komi_sgf_node_lookup (node, kinds[k].id);
      guint8 mask[KOMI_MAX_POINTS] = { 0, };

      if (prop == NULL)
        continue;
      if (record->moves->len > 0)
        return prop_error (error, KOMI_SGF_ERROR_UNSUPPORTED, prop,
                           _("setup stones (%s) after move %u are not supported"),
                           prop->id, record->moves->len);
      if (!read_points (prop, record->size, mask, error))
        return FALSE;
      if (record->setup_colors == NULL)
        record->setup_colors = g_malloc0 (n_points);
      for (guint i = 0; i < n_points; i++)
        if (mask[i])
          record->setup_colors[i] = (guint8) kinds[k].color;
    }
  return TRUE;
}

static gboolean
read_move (KomiSgfRecord *record, const KomiSgfNode *node, GError **error)
{
  const KomiSgfProperty *black = komi_sgf_node_lookup (node, "B");
  const KomiSgfProperty *white = komi_sgf_node_lookup (node, "W");
  const KomiSgfProperty *prop = black != NULL ? black : white;
  const char *value;
  KomiMove move;

  if (prop == NULL)
    return TRUE;
  if (black != NULL && white != NULL)
    return prop_error (error, KOMI_SGF_ERROR_BAD_VALUE, white,
                       _("move %u: a node cannot hold both B and W"), record->moves->len + 1);
  if (prop->values->len != 1)
    return prop_error (error, KOMI_SGF_ERROR_BAD_VALUE, prop,
                       _("move %u: %s has %u values"), record->moves->len + 1, prop->id,
                       prop->values->len);
  value = g_ptr_array_index (prop->values, 0);
  move.color = prop == black ? KOMI_BLACK : KOMI_WHITE;
  if (!komi_point_from_sgf (record->size, value, &move.point))
    {
      g_autofree char *quoted = quote_value (value);

      return prop_error (error, KOMI_SGF_ERROR_BAD_VALUE, prop,
                         _("move %u: %s[%s] is not a point on a %ux%u board"),
                         record->moves->len + 1, prop->id, quoted, record->size, record->size);
    }
  g_array_append_val (record->moves, move);
  return TRUE;
}

/* MA, TB and TW of the last node: dead stones and area, as Komi writes them. */
static gboolean
read_final (KomiSgfRecord *record, const KomiSgfNode *node, GError **error)
{
  const KomiSgfProperty *prop;
  guint n_points = record->size * record->size;

  if ((prop = komi_sgf_node_lookup (node, "MA")) != NULL)
    {
      guint8 mask[KOMI_MAX_POINTS] = { 0, };

      if (!read_points (prop, record->size, mask, error))
        return FALSE;
      for (guint i = 0; i < n_points; i++)
        if (mask[i])
          {
            KomiPoint point = (KomiPoint) i;

            g_array_append_val (record->dead, point);
          }
    }

  for (guint k = 0; k < 2; k++)
    {
      guint8 mask[KOMI_MAX_POINTS] = { 0, };

      if ((prop = komi_sgf_node_lookup (node, k == 0 ? "TB" : "TW")) == NULL)
        continue;
      if (!read_points (prop, record->size, mask, error))
        return FALSE;
      if (record->owner == NULL)
        record->owner = g_malloc0 (n_points);
      for (guint i = 0; i < n_points; i++)
        if (mask[i])
          record->owner[i] = (guint8) (k == 0 ? KOMI_BLACK : KOMI_WHITE);
    }
  return TRUE;
}

static gboolean
read_node (KomiSgfRecord      *record,
           const KomiSgfNode  *node,
           KomiColor          *player,
           GError            **error)
{
  const KomiSgfProperty *prop;
  const char *value;

  for (guint i = 0; i < G_N_ELEMENTS (info_fields); i++)
    {
      char **field = G_STRUCT_MEMBER_P (record, info_fields[i].offset);

      if (*field == NULL && (value = komi_sgf_node_get_value (node, info_fields[i].id)) != NULL)
        *field = normalize_text (value, info_fields[i].text);
    }
  if (!record->has_komi && (prop = komi_sgf_node_lookup (node, "KM")) != NULL &&
      !read_komi (record, prop, error))
    return FALSE;
  if (record->moves->len == 0 && (value = komi_sgf_node_get_value (node, "PL")) != NULL)
    {
      g_autofree char *who = g_strstrip (g_strdup (value));

      /* FF[1] wrote 1 and 2 for the colours. */
      if (g_ascii_strcasecmp (who, "B") == 0 || strcmp (who, "1") == 0)
        *player = KOMI_BLACK;
      else if (g_ascii_strcasecmp (who, "W") == 0 || strcmp (who, "2") == 0)
        *player = KOMI_WHITE;
    }
  return read_setup (record, node, error) && read_move (record, node, error);
}

KomiSgfRecord *
komi_sgf_record_from_tree (const KomiSgfTree  *tree,
                           guint               index,
                           GError            **error)
{
  g_autoptr(KomiSgfRecord) record = NULL;
  const KomiSgfNode *root, *node, *last = NULL;
  const char *value;
  KomiColor player = KOMI_EMPTY;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (index >= komi_sgf_tree_get_n_games (tree))
    {
      g_set_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_NO_GAME,
                   _("the file holds %u games; there is no game %u"),
                   komi_sgf_tree_get_n_games (tree), index + 1);
      return NULL;
    }
  root = komi_sgf_tree_get_game (tree, index);

  record = g_new0 (KomiSgfRecord, 1);
  record->moves = g_array_new (FALSE, FALSE, sizeof (KomiMove));
  record->dead = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
  record->n_games = komi_sgf_tree_get_n_games (tree);

  if (!read_game_kind (root, error) || !read_size (record, root, error))
    return NULL;
  if ((value = komi_sgf_node_get_value (root, "AP")) != NULL)
    record->application = normalize_text (value, FALSE);
  if ((value = komi_sgf_node_get_value (root, "C")) != NULL)
    record->root_comment = normalize_text (value, TRUE);

  /* The main line, iteratively: it may be as long as the file. */
  for (node = root; node != NULL; node = komi_sgf_node_get_main_child (node))
    {
      if (!read_node (record, node, &player, error))
        return NULL;
      last = node;
    }
  if (!read_final (record, last, error))
    return NULL;
  if (last != root && (value = komi_sgf_node_get_value (last, "C")) != NULL)
    record->final_comment = normalize_text (value, TRUE);

  if (record->moves->len > 0)
    record->first_to_move = g_array_index (record->moves, KomiMove, 0).color;
  else
    record->first_to_move = player != KOMI_EMPTY ? player : KOMI_BLACK;
  return g_steal_pointer (&record);
}

KomiSgfRecord *
komi_sgf_record_from_text (const char  *text,
                           gsize        length,
                           GError     **error)
{
  g_autoptr(KomiSgfTree) tree = komi_sgf_parse (text, length, error);

  if (tree == NULL)
    return NULL;
  return komi_sgf_record_from_tree (tree, 0, error);
}

KomiSgfRecord *
komi_sgf_record_load (const char *path, GError **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *display = NULL;
  KomiSgfRecord *record;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;
  record = komi_sgf_record_from_text (contents, length, error);
  if (record == NULL)
    {
      display = g_filename_display_basename (path);
      g_prefix_error (error, "%s: ", display);
    }
  return record;
}

void
komi_sgf_record_free (KomiSgfRecord *record)
{
  if (record == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (info_fields); i++)
    g_free (G_STRUCT_MEMBER (char *, record, info_fields[i].offset));
  g_free (record->application);
  g_free (record->root_comment);
  g_free (record->final_comment);
  g_free (record->setup_colors);
  g_free (record->owner);
  g_array_unref (record->moves);
  g_array_unref (record->dead);
  g_free (record);
}

static void
move_error (GError          **error,
            guint             number,
            guint             size,
            const KomiMove   *move,
            const char       *reason)
{
  char name[KOMI_NAME_LEN + 1];
  char sgf[3];

  komi_point_to_name (size, move->point, name);
  komi_point_to_sgf (size, move->point, sgf);
  g_set_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_ILLEGAL_MOVE,
               /* Translators: the move number, the colour (Black or White), the point
                * as on the board (C3) and as SGF writes it (cg), then why it is illegal. */
               _("move %u, %s %s [%s]: %s"), number, komi_color_to_name (move->color),
               name, sgf, reason);
}

KomiGame *
komi_sgf_record_replay (const KomiSgfRecord  *record,
                        guint                 max_turns,
                        GError              **error)
{
  g_autoptr(KomiGame) game = NULL;

  g_return_val_if_fail (record != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (record->setup_colors != NULL || record->first_to_move == KOMI_WHITE)
    {
      g_autoptr(KomiBoard) board = komi_board_new (record->size);

      if (record->setup_colors != NULL)
        komi_board_set_colors (board, record->setup_colors);
      game = komi_game_new_from_board (board, record->first_to_move, max_turns);
    }
  else
    game = komi_game_new (record->size, max_turns);

  for (guint i = 0; i < record->moves->len; i++)
    {
      const KomiMove *move = &g_array_index (record->moves, KomiMove, i);
      KomiMoveError why;

      if (komi_game_is_over (game))
        {
          g_autofree char *reason = g_strdup_printf (_("the game is already over (%s)"),
                                                     komi_end_reason_to_string (komi_game_get_end_reason (game)));
          move_error (error, i + 1, record->size, move, reason);
          return NULL;
        }
      if (move->color != komi_game_get_to_move (game))
        {
          g_set_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_ILLEGAL_MOVE,
                       _("move %u: %s plays twice in a row; Komi replays only alternating games"),
                       i + 1, komi_color_to_name (move->color));
          return NULL;
        }
      why = komi_game_check (game, move->point);
      if (why != KOMI_MOVE_OK)
        {
          move_error (error, i + 1, record->size, move, komi_move_error_to_string (why));
          return NULL;
        }
      if (!komi_game_play (game, move->point, error))
        return NULL;
    }
  return g_steal_pointer (&game);
}

void
komi_sgf_record_as_game (const KomiSgfRecord *record, KomiSgfGame *game)
{
  g_return_if_fail (record != NULL);
  g_return_if_fail (game != NULL);

  *game = (KomiSgfGame) {
    .size = record->size,
    .komi = record->komi,
    .black_name = record->black_name,
    .white_name = record->white_name,
    .date = record->date,
    .event = record->event,
    .round = record->round,
    .game_name = record->game_name,
    .ruleset = record->ruleset,
    .rules_text = record->rules_text,
    .result = record->result,
    .application = record->application,
    .root_comment = record->root_comment,
    .moves = (const KomiMove *) (gpointer) record->moves->data,
    .n_moves = record->moves->len,
    .setup_colors = record->setup_colors,
    .dead = (const KomiPoint *) (gpointer) record->dead->data,
    .n_dead = record->dead->len,
    .owner = record->owner,
    .final_comment = record->final_comment,
  };
}
