/* komi-sgf-tree.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-sgf"

#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "komi-sgf-tree.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-sgf-error-quark, komi_sgf_error)

struct _KomiSgfTree
{
  GPtrArray *games;   /* KomiSgfNode *, the roots; borrowed from nodes */
  GPtrArray *nodes;   /* owns every node, so freeing never recurses */
};

/* A byte cursor that knows its line and column. Columns count characters,
 * not bytes (UTF-8 continuation bytes do not advance them). */
typedef struct
{
  const char *p;
  const char *end;
  guint       line;
  guint       column;
} Scanner;

/* An open '(' of the parse: the node its sequence hangs from. Nodes may not
 * follow a variation in the same sequence, so we remember whether one closed. */
typedef struct
{
  KomiSgfNode *parent;
  guint        line;
  guint        column;
  gboolean     has_variations;
} Frame;

static void set_error (GError **error, int code, guint line, guint column,
                       const char *format, ...) G_GNUC_PRINTF (5, 6);

static void
set_error (GError     **error,
           int          code,
           guint        line,
           guint        column,
           const char  *format,
           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: where in the SGF file, then what is wrong there. */
  g_set_error (error, KOMI_SGF_ERROR, code, _("line %u, column %u: %s"), line, column, message);
}

static void
scanner_advance (Scanner *s)
{
  char c = *s->p++;

  /* "\r\n" is one line break: the '\r' only moves the column. */
  if (c == '\n' || (c == '\r' && (s->p == s->end || *s->p != '\n')))
    {
      s->line++;
      s->column = 1;
    }
  else if (((guchar) c & 0xC0) != 0x80)
    s->column++;
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}

static void
scanner_skip_space (Scanner *s)
{
  while (s->p < s->end && is_space (*s->p))
    scanner_advance (s);
}

/* The character at the cursor, quoted for a message (input is valid UTF-8). */
static char *
describe_char (const Scanner *s)
{
  gunichar c;

  if (s->p >= s->end)
    return g_strdup (_("end of file"));
  c = g_utf8_get_char (s->p);
  if (g_unichar_isgraph (c))
    return g_strdup_printf ("'%.*s'", (int) (g_utf8_next_char (s->p) - s->p), s->p);
  return g_strdup_printf ("U+%04X", c);
}

static void
property_free (gpointer data)
{
  KomiSgfProperty *prop = data;

  g_free (prop->id);
  g_ptr_array_unref (prop->values);
  g_free (prop);
}

static void
node_free (gpointer data)
{
  KomiSgfNode *node = data;

  g_clear_pointer (&node->properties, g_ptr_array_unref);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_free (node);
}

static KomiSgfTree *
tree_new (void)
{
  KomiSgfTree *tree = g_new0 (KomiSgfTree, 1);

  tree->games = g_ptr_array_new ();
  tree->nodes = g_ptr_array_new_with_free_func (node_free);
  return tree;
}

void
komi_sgf_tree_free (KomiSgfTree *tree)
{
  if (tree == NULL)
    return;
  g_ptr_array_unref (tree->games);
  g_ptr_array_unref (tree->nodes);
  g_free (tree);
}

/* The CA value of raw bytes, found without parsing (we cannot parse yet). */
static char *
find_charset (const char *text, gsize length)
{
  for (gsize i = 0; i + 3 < length; i++)
    {
      gsize j;

      if (text[i] != 'C' || text[i + 1] != 'A' || text[i + 2] != '[')
        continue;
      if (i > 0 && g_ascii_isupper (text[i - 1]))
        continue;
      for (j = i + 3; j < length && j - i < 64; j++)
        if (!g_ascii_isalnum (text[j]) && text[j] != '-' && text[j] != '_' && text[j] != '.')
          break;
      if (j < length && text[j] == ']' && j > i + 3)
        return g_strndup (text + i + 3, j - i - 3);
      return NULL;
    }
  return NULL;
}

/* Returns UTF-8 text in @out (owned) or NULL when @text already is. */
static gboolean
ensure_utf8 (const char  *text,
             gsize        length,
             char       **out,
             gsize       *out_length,
             GError     **error)
{
  const char *nul = memchr (text, '\0', length);
  g_autofree char *charset = NULL;

  *out = NULL;
  if (nul != NULL)
    {
      Scanner s = { text, nul, 1, 1 };

      while (s.p < s.end)
        scanner_advance (&s);
      set_error (error, KOMI_SGF_ERROR_ENCODING, s.line, s.column,
                 _("NUL byte: this is not an SGF text file"));
      return FALSE;
    }
  if (g_utf8_validate (text, (gssize) length, NULL))
    return TRUE;

  charset = find_charset (text, length);
  if (charset != NULL && g_ascii_strcasecmp (charset, "UTF-8") != 0)
    *out = g_convert (text, (gssize) length, "UTF-8", charset, NULL, out_length, NULL);
  /* Files that say nothing, or lie, are most often Latin-1, which always converts. */
  if (*out == NULL)
    *out = g_convert (text, (gssize) length, "UTF-8", "ISO-8859-1", NULL, out_length, NULL);
  if (*out == NULL)
    {
      g_set_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_ENCODING,
                   _("line 1, column 1: the text is neither UTF-8 nor %s"),
                   charset != NULL ? charset : "ISO-8859-1");
      return FALSE;
    }
  return TRUE;
}

/* Moves to the first '(' followed by ';'; text before it is ignored. */
static gboolean
find_first_game (Scanner *s, GError **error)
{
  Scanner first;

  scanner_skip_space (s);
  first = *s;
  while (s->p < s->end)
    {
      if (*s->p == '(')
        {
          const char *q = s->p + 1;

          while (q < s->end && is_space (*q))
            q++;
          if (q < s->end && *q == ';')
            return TRUE;
        }
      scanner_advance (s);
    }
  if (first.p == first.end)
    set_error (error, KOMI_SGF_ERROR_NO_GAME, first.line, first.column,
               _("empty file: no game tree"));
  else
    set_error (error, KOMI_SGF_ERROR_NO_GAME, first.line, first.column,
               _("no game tree: an SGF file starts with \"(;\""));
  return FALSE;
}

/* Reads "[…]" at the cursor into @buf, resolving escapes and soft line breaks. */
static gboolean
read_value (Scanner     *s,
            const char  *id,
            GString     *buf,
            GError     **error)
{
  guint line = s->line, column = s->column;

  scanner_advance (s);
  g_string_truncate (buf, 0);
  while (s->p < s->end)
    {
      char c = *s->p;

      if (c == ']')
        {
          scanner_advance (s);
          return TRUE;
        }
      if (c == '\\')
        {
          scanner_advance (s);
          if (s->p == s->end)
            break;
          c = *s->p;
          if (c == '\n' || c == '\r')
            {
              /* A soft line break: "\\\n", "\\\r\n", "\\\n\r" or "\\\r" vanish. */
              scanner_advance (s);
              if (s->p < s->end && (*s->p == '\n' || *s->p == '\r') && *s->p != c)
                scanner_advance (s);
              continue;
            }
        }
      g_string_append_c (buf, c);
      scanner_advance (s);
    }
  set_error (error, KOMI_SGF_ERROR_SYNTAX, line, column,
             _("unterminated property value: %s[ has no closing ']'"), id);
  return FALSE;
}

/* Reads one property (identifier and values) into @node. @seen maps the
 * node's identifiers to their properties so duplicates merge in linear time. */
static gboolean
read_property (Scanner      *s,
               KomiSgfNode  *node,
               GHashTable   *seen,
               GString      *buf,
               GError      **error)
{
  guint line = s->line, column = s->column;
  g_autoptr(GString) id = g_string_new (NULL);
  KomiSgfProperty *prop;

  while (s->p < s->end && g_ascii_isalpha (*s->p))
    {
      if (g_ascii_isupper (*s->p))
        g_string_append_c (id, *s->p);
      scanner_advance (s);
    }
  if (id->len == 0)
    {
      set_error (error, KOMI_SGF_ERROR_SYNTAX, line, column,
                 _("property identifier without an upper-case letter"));
      return FALSE;
    }
  scanner_skip_space (s);
  if (s->p == s->end || *s->p != '[')
    {
      g_autofree char *what = describe_char (s);

      set_error (error, KOMI_SGF_ERROR_SYNTAX, s->line, s->column,
                 /* Translators: the property (B, W, SZ…), then the character found or
                  * "end of file". */
                 _("expected '[' after property %s, found %s"), id->str, what);
      return FALSE;
    }

  prop = g_hash_table_lookup (seen, id->str);
  if (prop == NULL)
    {
      prop = g_new0 (KomiSgfProperty, 1);
      prop->id = g_string_free (g_steal_pointer (&id), FALSE);
      prop->values = g_ptr_array_new_with_free_func (g_free);
      prop->line = line;
      prop->column = column;
      if (node->properties == NULL)
        node->properties = g_ptr_array_new_with_free_func (property_free);
      g_ptr_array_add (node->properties, prop);
      g_hash_table_insert (seen, prop->id, prop);
    }

  while (s->p < s->end && *s->p == '[')
    {
      if (!read_value (s, prop->id, buf, error))
        return FALSE;
      g_ptr_array_add (prop->values, g_strndup (buf->str, buf->len));
      scanner_skip_space (s);
    }
  return TRUE;
}

static KomiSgfNode *
add_node (KomiSgfTree *tree, KomiSgfNode *parent, const Scanner *s)
{
  KomiSgfNode *node = g_new0 (KomiSgfNode, 1);

  node->parent = parent;
  node->line = s->line;
  node->column = s->column;
  g_ptr_array_add (tree->nodes, node);
  if (parent == NULL)
    g_ptr_array_add (tree->games, node);
  else
    {
      if (parent->children == NULL)
        parent->children = g_ptr_array_new ();
      g_ptr_array_add (parent->children, node);
    }
  return node;
}

/* The collection, from the first '(' on. An explicit stack of open '('
 * replaces recursion, so nesting depth cannot overflow the C stack. */
static gboolean
parse_collection (Scanner *s, KomiSgfTree *tree, GError **error)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) buf = g_string_new (NULL);
  KomiSgfNode *current = NULL;

  for (;;)
    {
      char c;

      scanner_skip_space (s);
      if (s->p == s->end)
        {
          const Frame *open;

          if (stack->len == 0)
            return TRUE;
          open = &g_array_index (stack, Frame, stack->len - 1);
          set_error (error, KOMI_SGF_ERROR_SYNTAX, s->line, s->column,
                     _("unexpected end of file: the game tree opened at line %u, column %u "
                       "is not closed"), open->line, open->column);
          return FALSE;
        }

      c = *s->p;
      if (c == '(')
        {
          Frame frame = { current, s->line, s->column, FALSE };

          g_array_append_val (stack, frame);
          scanner_advance (s);
          scanner_skip_space (s);
          if (s->p == s->end || *s->p != ';')
            {
              g_autofree char *what = describe_char (s);

              set_error (error, KOMI_SGF_ERROR_SYNTAX, s->line, s->column,
                         _("expected ';' after '(', found %s"), what);
              return FALSE;
            }
        }
      else if (c == ';' && stack->len > 0)
        {
          if (g_array_index (stack, Frame, stack->len - 1).has_variations)
            {
              set_error (error, KOMI_SGF_ERROR_SYNTAX, s->line, s->column,
                         _("a node cannot follow a variation in the same sequence"));
              return FALSE;
            }
          current = add_node (tree, current, s);
          scanner_advance (s);
          if (g_hash_table_size (seen) > 0)
            g_hash_table_remove_all (seen);
          scanner_skip_space (s);
          while (s->p < s->end && g_ascii_isalpha (*s->p))
            if (!read_property (s, current, seen, buf, error))
              return FALSE;
        }
      else if (c == ')' && stack->len > 0)
        {
          current = g_array_index (stack, Frame, stack->len - 1).parent;
          g_array_set_size (stack, stack->len - 1);
          scanner_advance (s);
          if (stack->len > 0)
            g_array_index (stack, Frame, stack->len - 1).has_variations = TRUE;
          else
            {
              /* A game is complete: another may follow; anything else is ignored. */
              scanner_skip_space (s);
              if (s->p == s->end || *s->p != '(')
                return TRUE;
            }
        }
      else
        {
          g_autofree char *what = describe_char (s);

          set_error (error, KOMI_SGF_ERROR_SYNTAX, s->line, s->column,
                     _("unexpected %s: expected ';', '(' or ')'"), what);
          return FALSE;
        }
    }
}

KomiSgfTree *
komi_sgf_parse (const char  *text,
                gsize        length,
                GError     **error)
{
  g_autoptr(KomiSgfTree) tree = NULL;
  g_autofree char *converted = NULL;
  gsize converted_length = 0;
  Scanner s;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length > KOMI_SGF_MAX_INPUT)
    {
      g_set_error (error, KOMI_SGF_ERROR, KOMI_SGF_ERROR_TOO_LARGE,
                   _("the file is too large for a game record (%zu bytes)"),
                   length);
      return NULL;
    }
  if (length > 0 && !ensure_utf8 (text, length, &converted, &converted_length, error))
    return NULL;
  if (converted != NULL)
    {
      text = converted;
      length = converted_length;
    }

  s.p = text != NULL ? text : "";
  s.end = s.p + length;
  s.line = 1;
  s.column = 1;
  if (!find_first_game (&s, error))
    return NULL;

  tree = tree_new ();
  if (!parse_collection (&s, tree, error))
    return NULL;
  return g_steal_pointer (&tree);
}

guint
komi_sgf_tree_get_n_games (const KomiSgfTree *tree)
{
  g_return_val_if_fail (tree != NULL, 0);
  return tree->games->len;
}

KomiSgfNode *
komi_sgf_tree_get_game (const KomiSgfTree *tree, guint index)
{
  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (index < tree->games->len, NULL);
  return g_ptr_array_index (tree->games, index);
}

guint
komi_sgf_tree_get_n_nodes (const KomiSgfTree *tree)
{
  g_return_val_if_fail (tree != NULL, 0);
  return tree->nodes->len;
}

guint
komi_sgf_node_get_n_children (const KomiSgfNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->children != NULL ? node->children->len : 0;
}

KomiSgfNode *
komi_sgf_node_get_child (const KomiSgfNode *node, guint index)
{
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (index < komi_sgf_node_get_n_children (node), NULL);
  return g_ptr_array_index (node->children, index);
}

KomiSgfNode *
komi_sgf_node_get_main_child (const KomiSgfNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  if (node->children == NULL || node->children->len == 0)
    return NULL;
  return g_ptr_array_index (node->children, 0);
}

const KomiSgfProperty *
komi_sgf_node_lookup (const KomiSgfNode *node, const char *id)
{
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  if (node->properties == NULL)
    return NULL;
  for (guint i = 0; i < node->properties->len; i++)
    {
      const KomiSgfProperty *prop = g_ptr_array_index (node->properties, i);

      if (strcmp (prop->id, id) == 0)
        return prop;
    }
  return NULL;
}

const char *
komi_sgf_node_get_value (const KomiSgfNode *node, const char *id)
{
  const KomiSgfProperty *prop = komi_sgf_node_lookup (node, id);

  return prop != NULL ? g_ptr_array_index (prop->values, 0) : NULL;
}
