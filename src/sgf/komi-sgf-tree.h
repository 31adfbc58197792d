/* komi-sgf-tree.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KOMI_SGF_ERROR (komi_sgf_error_quark ())
GQuark komi_sgf_error_quark (void);

typedef enum
{
  KOMI_SGF_ERROR_SYNTAX,        /* not well-formed SGF */
  KOMI_SGF_ERROR_ENCODING,      /* NUL bytes, or a charset that cannot be converted */
  KOMI_SGF_ERROR_TOO_LARGE,
  KOMI_SGF_ERROR_NO_GAME,       /* no game tree, or the asked game does not exist */
  KOMI_SGF_ERROR_UNSUPPORTED,   /* not Go, board size outside 5..19, setup mid-game */
  KOMI_SGF_ERROR_BAD_VALUE,     /* a property value we cannot read (point, number) */
  KOMI_SGF_ERROR_ILLEGAL_MOVE,  /* a move our rules forbid, or out of turn */
} KomiSgfError;

/* Larger inputs are refused rather than parsed: a 9x9 record is a few KiB. */
#define KOMI_SGF_MAX_INPUT (64u * 1024u * 1024u)

/* One property of a node: the identifier with lower-case letters dropped
 * (FF[3] "AddBlack" is "AB") and its values with escapes and soft line
 * breaks resolved. Duplicated identifiers in a node are merged into one. */
typedef struct
{
  char      *id;
  GPtrArray *values;     /* char *, at least one */
  guint      line;       /* where the identifier starts, 1-based */
  guint      column;
} KomiSgfProperty;

typedef struct _KomiSgfNode KomiSgfNode;

/* A node. The tree owns every node; parent and children are plain links.
 * The first child is the main line. */
struct _KomiSgfNode
{
  KomiSgfNode *parent;       /* NULL for a game's root */
  GPtrArray   *properties;   /* KomiSgfProperty *, in file order; NULL when none */
  GPtrArray   *children;     /* KomiSgfNode *; NULL when none */
  guint        line;         /* where its ';' is */
  guint        column;
};

typedef struct _KomiSgfTree KomiSgfTree;

/* Parses a collection of SGF FF[1]-FF[4] game trees. Text that is not valid
 * UTF-8 is converted from its CA charset, else from ISO-8859-1. Text before
 * the first "(;" and after the last complete game tree is ignored. Errors
 * carry "line L, column C: …"; nesting depth is bounded only by the input. */
KomiSgfTree       *komi_sgf_parse                 (const char        *text,
                                                   gsize              length,
                                                   GError           **error);
void               komi_sgf_tree_free             (KomiSgfTree       *tree);

guint              komi_sgf_tree_get_n_games      (const KomiSgfTree *tree);
KomiSgfNode       *komi_sgf_tree_get_game         (const KomiSgfTree *tree,
                                                   guint              index);
/* Every node of every game, in file order. */
guint              komi_sgf_tree_get_n_nodes      (const KomiSgfTree *tree);

guint              komi_sgf_node_get_n_children   (const KomiSgfNode *node);
KomiSgfNode       *komi_sgf_node_get_child        (const KomiSgfNode *node,
                                                   guint              index);
/* The first child, or NULL at the end of a line. */
KomiSgfNode       *komi_sgf_node_get_main_child   (const KomiSgfNode *node);
/* The property with identifier @id ("SZ"), or NULL. */
const KomiSgfProperty *komi_sgf_node_lookup       (const KomiSgfNode *node,
                                                   const char        *id);
/* The first value of property @id, or NULL. */
const char        *komi_sgf_node_get_value        (const KomiSgfNode *node,
                                                   const char        *id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiSgfTree, komi_sgf_tree_free)

G_END_DECLS
