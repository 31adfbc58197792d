/* publish-position-helper.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-test"

#include "config.h"

#include <stdio.h>

#include <json-glib/json-glib.h>

#include "komi-board.h"
#include "komi-coords.h"
#include "komi-orientation.h"
#include "komi-store.h"

/* For the browser test (test-publish-browser.sh): what the library says
 * of game GAME at its first model move from MIN on (a move with an
 * answered best_point call), independently of src/publish/: the stones
 * on the real board and on the board in the game's orientation, and the
 * calls for that move with their raw responses, as JSON on stdout.
 *
 *   publish-position-helper DB GAME MIN */

typedef struct
{
  guint      turn;
  JsonArray *calls;
  GArray    *ids;
} Found;

static gboolean
find_call (const KomiStoreCall *c, gpointer user_data, GError **error)
{
  GPtrArray *all = user_data;
  JsonObject *o = json_object_new ();
  gsize n = 0;
  const char *body = c->response_body ? g_bytes_get_data (c->response_body, &n) : NULL;
  g_autofree char *text = body ? g_utf8_make_valid (body, (gssize) n) : NULL;

  json_object_set_int_member (o, "turn", c->turn);
  json_object_set_int_member (o, "id", c->id);
  json_object_set_string_member (o, "question", c->question);
  json_object_set_string_member (o, "outcome", c->outcome);
  json_object_set_int_member (o, "decided", c->decided);
  json_object_set_string_member (o, "response_body", text);
  json_object_set_string_member (o, "request_body", c->request_body);
  g_ptr_array_add (all, o);
  return TRUE;
}

static int
by_id (gconstpointer a, gconstpointer b)
{
  gint64 x = json_object_get_int_member (*(JsonObject **) a, "id");
  gint64 y = json_object_get_int_member (*(JsonObject **) b, "id");

  return x < y ? -1 : x > y;
}

static JsonObject *
stones (const guint8 *colors, guint size, KomiOrientation orientation)
{
  JsonObject *o = json_object_new ();

  for (KomiPoint p = 0; p < (KomiPoint) (size * size); p++)
    if (colors[p] != KOMI_EMPTY)
      {
        char name[KOMI_NAME_LEN + 1];

        komi_point_to_name (size, komi_orientation_apply (orientation, size, p), name);
        json_object_set_string_member (o, name, colors[p] == KOMI_BLACK ? "X" : "O");
      }
  return o;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiStore) store = NULL;
  g_autoptr(KomiStoreGame) game = NULL;
  g_autoptr(GPtrArray) calls = g_ptr_array_new ();
  g_autoptr(KomiBoard) board = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;
  JsonObject *out = json_object_new ();
  JsonArray *turn_calls = json_array_new ();
  guint8 colors[KOMI_MAX_POINTS];
  guint min, turn = 0;

  if (argc != 4)
    {
      fprintf (stderr, "usage: %s DB GAME MIN\n", argv[0]);
      return 2;
    }
  min = (guint) g_ascii_strtoull (argv[3], NULL, 10);
  if ((store = komi_store_open_reader (argv[1], &error)) == NULL
      || (game = komi_store_load_game (store, g_ascii_strtoll (argv[2], NULL, 10), &error)) == NULL
      || !komi_store_foreach_game_call (store, game->id, find_call, calls, &error))
    g_error ("%s", error->message);
  g_ptr_array_sort (calls, by_id);
  for (guint i = 0; i < calls->len && turn == 0; i++)
    {
      JsonObject *c = calls->pdata[i];
      guint t = (guint) json_object_get_int_member (c, "turn");

      if (t >= min && g_strcmp0 (json_object_get_string_member (c, "question"), "best_point") == 0
          && g_strcmp0 (json_object_get_string_member (c, "outcome"), "answer") == 0)
        turn = t;
    }
  if (turn == 0)
    g_error ("game %s has no answered best_point call from move %u on", argv[2], min);
  for (guint i = 0; i < calls->len; i++)
    {
      JsonObject *c = calls->pdata[i];

      if ((guint) json_object_get_int_member (c, "turn") == turn)
        json_array_add_object_element (turn_calls, json_object_ref (c));
      json_object_unref (c);
    }

  /* The position after move @turn, by the rules core. */
  board = komi_board_new (game->size);
  for (guint i = 0; i < turn; i++)
    {
      const KomiMove *m = &g_array_index (game->moves, KomiMove, i);

      if (m->point != KOMI_PASS)
        komi_board_play (board, m->color, m->point);
    }
  komi_board_get_colors (board, colors);
  json_object_set_int_member (out, "move", turn);
  json_object_set_string_member (out, "orientation",
                                 komi_orientation_to_string (game->orientation));
  json_object_set_object_member (out, "real", stones (colors, game->size,
                                                      KOMI_ORIENTATION_IDENTITY));
  json_object_set_object_member (out, "shown", stones (colors, game->size, game->orientation));
  json_object_set_array_member (out, "calls", turn_calls);
  json_node_take_object (root, out);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  puts (text);
  return 0;
}
