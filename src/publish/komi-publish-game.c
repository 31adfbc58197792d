/* komi-publish-game.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-publish"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-board.h"
#include "komi-coords.h"
#include "komi-export.h"
#include "komi-orientation.h"
#include "komi-publish-private.h"
#include "komi-score.h"

/* A game's page: the position after every move computed here, by the
 * rules core (the page's script draws, it never plays Go), the map of
 * the orientation the model saw, and every call attempt. The attempts'
 * requests and raw responses, which repeat the rules text and the option
 * lists hundreds of times, go in as one gzip stream in base64 that the
 * script opens with the browser's DecompressionStream when one is asked
 * for: a 120-turn game with 3 attempts per question stays far below
 * 300 KB. Nothing here carries a date, so an unchanged game gives the
 * same bytes and is not written again. */

typedef struct
{
  guint   turn;
  gint64  id;
  char   *meta;   /* a JSON object without its closing brace */
  char   *raw;    /* a JSON array: url, request headers, body, status, response headers, body */
  char   *line;   /* the export's JSON line */
} CallRow;

static void
call_row_clear (gpointer data)
{
  CallRow *r = data;

  g_free (r->meta);
  g_free (r->raw);
  g_free (r->line);
}

static int
call_row_compare (gconstpointer a, gconstpointer b)
{
  const CallRow *x = a, *y = b;

  if (x->turn != y->turn)
    return x->turn < y->turn ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static void
append_count (GString *s, const char *key, gint64 value)
{
  if (value >= 0)
    g_string_append_printf (s, ",\"%s\":%" G_GINT64_FORMAT, key, value);
}

/* Probabilities are the store's JSON object text; anything else is left out. */
static void
append_probabilities (GString *s, const char *text)
{
  if (text == NULL || text[0] != '{' || strchr (text, '<') != NULL)
    return;
  g_string_append (s, ",\"probs\":");
  g_string_append (s, text);
}

static gboolean
collect_call (const KomiStoreCall *c,
              gpointer             user_data,
              GError             **error)
{
  GArray *rows = user_data;
  CallRow row = { c->turn, c->id, NULL, NULL, NULL };
  g_autoptr(GString) m = g_string_sized_new (256);
  g_autoptr(GString) r = g_string_sized_new (4096);
  g_autofree char *body = NULL;
  gsize n = 0;
  const char *bytes = c->response_body ? g_bytes_get_data (c->response_body, &n) : NULL;
  char seconds[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (m, "{\"t\":%u,\"q\":", c->turn);
  _komi_json_append_string (m, c->question, -1);
  g_string_append_printf (m, ",\"n\":%u,\"ans\":", c->attempt);
  _komi_json_append_string (m, c->answer, -1);
  g_string_append (m, ",\"out\":");
  _komi_json_append_string (m, c->outcome, -1);
  g_string_append (m, ",\"err\":");
  _komi_json_append_string (m, c->error, -1);
  /* Whether this answer decided the move: 1, 0, or -1 (not yet known). */
  g_string_append_printf (m, ",\"dec\":%d", c->decided);
  g_string_append (m, ",\"model\":");
  _komi_json_append_string (m, c->model_version, -1);
  g_string_append_printf (m, ",\"status\":%d,\"ms\":%s", c->response_status,
                          g_ascii_formatd (seconds, sizeof seconds, "%.0f", c->latency_ms));
  append_count (m, "tin", c->tokens_input);
  append_count (m, "tout", c->tokens_output);
  append_count (m, "treason", c->tokens_reasoning);
  if (c->cost_usd >= 0)
    g_string_append_printf (m, ",\"cost\":%s",
                            g_ascii_formatd (seconds, sizeof seconds, "%.6f", c->cost_usd));
  append_probabilities (m, c->option_probabilities);

  /* The raw response as text: bytes that are not UTF-8 are shown as U+FFFD. */
  if (bytes != NULL)
    body = g_utf8_make_valid (bytes, (gssize) n);
  g_string_append_c (r, '[');
  _komi_json_append_string (r, c->request_url, -1);
  g_string_append_c (r, ',');
  _komi_json_append_string (r, c->request_headers, -1);
  g_string_append_c (r, ',');
  _komi_json_append_string (r, c->request_body, -1);
  g_string_append_printf (r, ",%d,", c->response_status);
  _komi_json_append_string (r, c->response_headers, -1);
  g_string_append_c (r, ',');
  _komi_json_append_string (r, body, -1);
  g_string_append_c (r, ']');

  row.meta = g_string_free (g_steal_pointer (&m), FALSE);
  row.raw = g_string_free (g_steal_pointer (&r), FALSE);
  row.line = komi_export_call_to_json (c);
  g_array_append_val (rows, row);
  return TRUE;
}

/* gzip, then base64: what DecompressionStream ("gzip") reads back. */
static char *
gzip_base64 (const char *data, gsize length, GError **error)
{
  g_autoptr(GZlibCompressor) zlib = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  g_autoptr(GByteArray) out = g_byte_array_sized_new (length / 8 + 64);
  gsize done = 0;
  GConverterResult result;

  do
    {
      guint8 buf[16384];
      gsize read = 0, written = 0;

      result = g_converter_convert (G_CONVERTER (zlib), data + done, length - done, buf,
                                    sizeof buf, G_CONVERTER_INPUT_AT_END, &read, &written,
                                    error);
      if (result == G_CONVERTER_ERROR)
        return NULL;
      done += read;
      g_byte_array_append (out, buf, (guint) written);
    }
  while (result != G_CONVERTER_FINISHED);
  return g_base64_encode (out->data, out->len);
}

static void
append_point_name (GString *s, guint size, KomiPoint point)
{
  char name[KOMI_NAME_LEN + 1];

  if (point == KOMI_PASS)
    g_string_append (s, "\"pass\"");
  else
    g_string_append_printf (s, "\"%s\"", komi_point_to_name (size, point, name));
}

/* The board after each move (and before the first): one string of
 * size * size characters ".XO" per position. */
static void
append_positions (GString *s, const KomiStoreGame *game)
{
  g_autoptr(KomiBoard) board = komi_board_new (game->size);
  guint n = game->size * game->size;
  guint8 colors[KOMI_MAX_POINTS];
  static const char glyph[] = ".XO";

  if (game->setup != NULL)
    komi_board_set_colors (board, game->setup);
  g_string_append (s, ",\"positions\":[");
  for (guint i = 0; i <= game->moves->len; i++)
    {
      if (i > 0)
        {
          const KomiMove *m = &g_array_index (game->moves, KomiMove, i - 1);

          /* A stored move always replays (the store checks it); a pass
           * or an impossible one leaves the board as it is. */
          if (m->point != KOMI_PASS
              && komi_board_check (board, m->color, m->point, NULL) == KOMI_MOVE_OK)
            komi_board_play (board, m->color, m->point);
          g_string_append_c (s, ',');
        }
      komi_board_get_colors (board, colors);
      g_string_append_c (s, '"');
      for (guint p = 0; p < n; p++)
        g_string_append_c (s, glyph[colors[p] <= 2 ? colors[p] : 0]);
      g_string_append_c (s, '"');
    }
  g_string_append_c (s, ']');
}

static void
append_data (GString             *s,
             const KomiStoreGame *game,
             GArray              *rows,
             const char          *blob)
{
  guint n = game->size * game->size;
  g_autofree char *count = game->counted ? komi_score_describe (&game->score) : NULL;

  g_string_append_printf (s, "{\"id\":%" G_GINT64_FORMAT ",\"size\":%u,\"orientation\":",
                          game->id, game->size);
  _komi_json_append_string (s, komi_orientation_to_string (game->orientation), -1);
  g_string_append (s, ",\"subject\":");
  g_string_append (s, game->subject == KOMI_BLACK ? "\"B\""
                      : game->subject == KOMI_WHITE ? "\"W\"" : "null");
  /* Where each real point appears on the board the model was shown. */
  g_string_append (s, ",\"map\":[");
  for (guint p = 0; p < n; p++)
    g_string_append_printf (s, p ? ",%d" : "%d",
                            komi_orientation_apply (game->orientation, game->size, p));
  g_string_append (s, "],\"moves\":[");
  for (guint i = 0; i < game->moves->len; i++)
    {
      const KomiMove *m = &g_array_index (game->moves, KomiMove, i);

      g_string_append_printf (s, i ? ",[\"%c\"," : "[\"%c\",", m->color == KOMI_BLACK ? 'B' : 'W');
      append_point_name (s, game->size, m->point);
      g_string_append_c (s, ']');
    }
  g_string_append_c (s, ']');
  append_positions (s, game);
  g_string_append (s, ",\"dead\":[");
  for (guint i = 0; game->dead != NULL && i < game->dead->len; i++)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      append_point_name (s, game->size, g_array_index (game->dead, KomiPoint, i));
    }
  g_string_append (s, "],\"count\":");
  _komi_json_append_string (s, count, -1);
  g_string_append (s, ",\"calls\":[");
  for (guint i = 0; i < rows->len; i++)
    g_string_append_printf (s, "%s%s,\"k\":%u}", i ? ",\n" : "",
                            g_array_index (rows, CallRow, i).meta, i);
  g_string_append (s, "],\"raw\":");
  _komi_json_append_string (s, blob, -1);
  g_string_append_c (s, '}');
}

static void
append_page (GString             *s,
             const KomiStoreGame *game,
             const char          *sgf_name,
             const char          *data_text)
{
  g_autofree char *black = _komi_publish_player_label (game->black_spec, game->black_name);
  g_autofree char *white = _komi_publish_player_label (game->white_spec, game->white_name);
  g_autofree char *result = _komi_publish_result_text (game);
  g_autofree char *title = g_strdup_printf ("Game %" G_GINT64_FORMAT ": %s vs %s", game->id,
                                            black, white);
  g_autofree char *count = game->counted ? komi_score_describe (&game->score) : NULL;

  _komi_publish_page_start (s, title, "../");
  g_string_append (s, "<h1>");
  _komi_html_append (s, title);
  g_string_append (s, "</h1>\n<p class=\"meta\">");
  if (game->series_id > 0)
    {
      g_string_append_printf (s, "<a href=\"../series-%" G_GINT64_FORMAT ".html\">",
                              game->series_id);
      _komi_html_append_printf (s, "Series %" G_GINT64_FORMAT ": %s", game->series_id,
                                game->series_name ? game->series_name : "");
      g_string_append_printf (s, "</a>, game %d · ", game->plan_index + 1);
    }
  _komi_html_append_printf (s, "Black: %s · White: %s · Result: %s · %u moves · "
                               "orientation shown to the players: %s · komi %g",
                            black, white, result, game->moves->len,
                            komi_orientation_to_string (game->orientation), game->komi);
  g_string_append (s, "</p>\n<div class=\"replay\" id=\"replay\">\n"
    "<section class=\"board-pane\" aria-label=\"Board\">\n"
    "<div class=\"board\" id=\"board\" role=\"img\" aria-labelledby=\"position-caption\"></div>\n"
    "<p id=\"position-caption\" class=\"caption\" aria-live=\"polite\"></p>\n"
    "<div class=\"controls\" role=\"group\" aria-label=\"Replay controls\">\n"
    "<button type=\"button\" id=\"first\" aria-label=\"First position (Home)\" "
    "title=\"First position (Home)\">«</button>\n"
    "<button type=\"button\" id=\"prev\" aria-label=\"Previous move (Left arrow)\" "
    "title=\"Previous move (Left arrow)\">◀</button>\n"
    "<button type=\"button\" id=\"next\" aria-label=\"Next move (Right arrow)\" "
    "title=\"Next move (Right arrow)\">▶</button>\n"
    "<button type=\"button\" id=\"last\" aria-label=\"Last position (End)\" "
    "title=\"Last position (End)\">»</button>\n"
    "<label for=\"slider\" class=\"slider-label\">Move</label>\n");
  g_string_append_printf (s, "<input type=\"range\" id=\"slider\" min=\"0\" max=\"%u\" "
                             "value=\"%u\">\n", game->moves->len, game->moves->len);
  g_string_append (s, "<label class=\"toggle\"><input type=\"checkbox\" id=\"model-view\"> "
                      "Board as the model saw it (O)</label>\n"
                      "<label class=\"toggle\"><input type=\"checkbox\" id=\"show-probs\" "
                      "checked> Model's probabilities (P)</label>\n</div>\n"
                      "<h2 class=\"visually-hidden\">Position as text</h2>\n"
                      "<pre id=\"board-text\" class=\"board-text\" "
                      "aria-label=\"The position as text rows, X black, O white\"></pre>\n");
  g_string_append (s, "<div class=\"final\"><h2>End of the game</h2><p>");
  _komi_html_append_printf (s, "Result %s", result);
  if (count != NULL)
    {
      g_string_append (s, ". Area count: ");
      _komi_html_append (s, count);
    }
  g_string_append (s, "</p><p id=\"dead-stones\"></p></div>\n<p class=\"downloads\">Download: ");
  g_string_append_printf (s, "<a href=\"game-%" G_GINT64_FORMAT ".sgf\" download=\"",
                          game->id);
  _komi_html_append (s, sgf_name);
  g_string_append_printf (s, "\">SGF</a> · <a href=\"game-%" G_GINT64_FORMAT "-calls.jsonl\" "
                             "download>calls (JSON Lines)</a></p>\n</section>\n", game->id);
  g_string_append (s, "<section class=\"calls-pane\" aria-labelledby=\"calls-title\">\n"
                      "<h2 id=\"calls-title\">Calls</h2>\n<div id=\"calls\"></div>\n"
                      "</section>\n</div>\n<noscript><p>The replay needs JavaScript; the "
                      "game's SGF and calls are in the downloads above.</p></noscript>\n"
                      "<script type=\"application/json\" id=\"game-data\">");
  g_string_append (s, data_text);
  g_string_append (s, "</script>\n<script src=\"../assets/replay.js\"></script>\n");
  _komi_publish_page_end (s);
}

gboolean
_komi_publish_game_page (KomiPublishOut      *out,
                         KomiStore           *store,
                         const KomiStoreGame *listed,
                         GError             **error)
{
  g_autoptr(KomiStoreGame) game = komi_store_load_game (store, listed->id, error);
  g_autoptr(KomiStoreAnalysis) analysis = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (CallRow));
  g_autoptr(GString) raw = NULL;
  g_autoptr(GString) lines = NULL;
  g_autoptr(GString) data = NULL;
  g_autoptr(GString) page = NULL;
  g_autofree char *blob = NULL;
  g_autofree char *sgf = NULL;
  g_autofree char *sgf_name = NULL;
  g_autofree char *base = NULL;
  g_autofree char *file = NULL;
  GError *local = NULL;

  if (game == NULL)
    return FALSE;
  g_array_set_clear_func (rows, call_row_clear);
  if (!komi_store_foreach_game_call (store, game->id, collect_call, rows, error))
    return FALSE;
  g_array_sort (rows, call_row_compare);

  raw = g_string_sized_new (rows->len * 4096 + 2);
  lines = g_string_sized_new (rows->len * 4096 + 1);
  g_string_append_c (raw, '[');
  for (guint i = 0; i < rows->len; i++)
    {
      const CallRow *r = &g_array_index (rows, CallRow, i);

      g_string_append (raw, i ? ",\n" : "");
      g_string_append (raw, r->raw);
      g_string_append (lines, r->line);
      g_string_append_c (lines, '\n');
    }
  g_string_append_c (raw, ']');
  if ((blob = gzip_base64 (raw->str, raw->len, error)) == NULL)
    return FALSE;

  analysis = komi_store_load_analysis (store, game->id, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if ((sgf = komi_export_game_sgf_with_analysis (game, analysis, error)) == NULL)
    return FALSE;
  sgf_name = komi_export_sgf_file_name (game);

  data = g_string_sized_new (8192 + rows->len * 300 + strlen (blob));
  append_data (data, game, rows, blob);
  page = g_string_sized_new (data->len + 8192);
  append_page (page, game, sgf_name, data->str);

  base = g_strdup_printf ("games/game-%" G_GINT64_FORMAT, game->id);
  file = g_strconcat (base, ".sgf", NULL);
  if (!_komi_publish_write (out, file, sgf, strlen (sgf), error))
    return FALSE;
  g_free (file);
  file = g_strconcat (base, "-calls.jsonl", NULL);
  if (!_komi_publish_write (out, file, lines->str, lines->len, error))
    return FALSE;
  g_free (file);
  file = g_strconcat (base, ".html", NULL);
  return _komi_publish_write (out, file, page->str, page->len, error);
}
