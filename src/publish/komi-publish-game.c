/* komi-publish-game.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-publish"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "komi-board.h"
#include "komi-coords.h"
#include "komi-export.h"
#include "komi-orientation.h"
#include "komi-protocol.h"
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
  guint     turn;
  gint64    id;
  JsonNode *meta;   /* a JSON object: the attempt's details */
  char     *raw;    /* JSON text, an array: url, request headers, body, status,
                     * response headers, body */
  char     *line;   /* the export's JSON line */
} CallRow;

static char *mark_rules (const char *body);

static void
call_row_clear (gpointer data)
{
  CallRow *r = data;

  g_clear_pointer (&r->meta, json_node_unref);
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

/* Text from the library as a JSON string (null when absent); bytes that
 * are not UTF-8 are shown as U+FFFD rather than breaking the page. */
static void
add_text (JsonBuilder *b,
          const char  *text,
          gssize       length)
{
  g_autofree char *valid = NULL;

  if (text == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  if (length >= 0 || !g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, length);
  json_builder_add_string_value (b, text);
}

static void
set_text (JsonBuilder *b,
          const char  *name,
          const char  *text)
{
  json_builder_set_member_name (b, name);
  add_text (b, text, -1);
}

/* The same as JSON text of its own (the page's script parses it), escaped
 * as the export's lines are. */
static void
append_text (GString    *s,
             const char *text,
             gssize      length)
{
  if (text == NULL)
    g_string_append (s, "null");
  else
    komi_export_append_json_string (s, text, length);
}

static void
set_count (JsonBuilder *b,
           const char  *name,
           gint64       value)
{
  if (value < 0)
    return;
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* Probabilities are the store's JSON object text, handed to the page as
 * that text (the page's script parses it): numbers stay as recorded
 * (0.41, where a generator writes 0.40999999999999998). */
static void
set_probabilities (JsonBuilder *b,
                   const char  *text)
{
  if (text == NULL || text[0] != '{')
    return;
  set_text (b, "probs", text);
}

typedef struct
{
  GArray           *rows;
  KomiPublic       *pub;
  KomiPublishUsage *usage;   /* this game's, when it has a subject; or NULL */
  GHashTable       *asked;   /* turn * 2 + question: the questions seen */
  GHashTable       *turns;
} Collect;

void
_komi_publish_usage_add (KomiPublishUsage *to, const KomiPublishUsage *u)
{
  to->games += u->games;
  to->moves += u->moves;
  to->questions += u->questions;
  to->invalid += u->invalid;
  to->transport += u->transport;
  to->tokens += u->tokens;
  to->token_calls += u->token_calls;
  to->ms += u->ms;
  to->cost += u->cost;
  to->cost_calls += u->cost_calls;
}

/* The game's usage as the page keeps it (so that publishing again can
 * count a page it leaves as it is): ten numbers, the two sums to the
 * last bit, so that the leaderboard comes out the same either way. */
static char *
usage_to_text (const KomiPublishUsage *u)
{
  char ms[G_ASCII_DTOSTR_BUF_SIZE], cost[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup_printf ("%u %u %u %u %u %" G_GUINT64_FORMAT " %u %s %s %u", u->games,
                          u->moves, u->questions, u->invalid, u->transport, u->tokens,
                          u->token_calls, g_ascii_formatd (ms, sizeof ms, "%.17g", u->ms),
                          g_ascii_formatd (cost, sizeof cost, "%.17g", u->cost), u->cost_calls);
}

static gboolean
usage_from_text (const char *text, KomiPublishUsage *u)
{
  g_auto(GStrv) parts = g_strsplit (text, " ", -1);

  if (g_strv_length (parts) != 10)
    return FALSE;
  u->games = (guint) g_ascii_strtoull (parts[0], NULL, 10);
  u->moves = (guint) g_ascii_strtoull (parts[1], NULL, 10);
  u->questions = (guint) g_ascii_strtoull (parts[2], NULL, 10);
  u->invalid = (guint) g_ascii_strtoull (parts[3], NULL, 10);
  u->transport = (guint) g_ascii_strtoull (parts[4], NULL, 10);
  u->tokens = g_ascii_strtoull (parts[5], NULL, 10);
  u->token_calls = (guint) g_ascii_strtoull (parts[6], NULL, 10);
  u->ms = g_ascii_strtod (parts[7], NULL);
  u->cost = g_ascii_strtod (parts[8], NULL);
  u->cost_calls = (guint) g_ascii_strtoull (parts[9], NULL, 10);
  return TRUE;
}

/* What the game's files are made from, as a digest: the listed game (its
 * status, result, moves, calls, cost, players, series name), its
 * analysis, and the site's salt. */
static char *
game_stamp (KomiPublishOut *out, const KomiStoreGame *g, const KomiStoreAnalysis *a)
{
  char cost[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *text = g_strdup_printf (
    "%s|%" G_GINT64_FORMAT "|%d|%d|%s|%u|%u|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s", out->salt, g->id,
    g->status, g->end_reason, g->result ? g->result : "", g->n_moves, g->n_calls,
    g_ascii_formatd (cost, sizeof cost, "%.9g", g->cost_usd), g->finished ? g->finished : "",
    g->series_name ? g->series_name : "", g->black_spec ? g->black_spec : "",
    g->white_spec ? g->white_spec : "", g->black_name ? g->black_name : "",
    g->white_name ? g->white_name : "", a != NULL && a->created ? a->created : "",
    a != NULL && a->settings ? a->settings : "", g->void_reason ? g->void_reason : "");

  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
}

/* The content of <meta name="NAME" content="…"> in @head, or NULL. */
static char *
meta_content (const char *head, const char *name)
{
  g_autofree char *start = g_strdup_printf ("<meta name=\"%s\" content=\"", name);
  const char *p = strstr (head, start), *end;

  if (p == NULL)
    return NULL;
  p += strlen (start);
  end = strchr (p, '"');
  return end != NULL ? g_strndup (p, end - p) : NULL;
}

static gboolean
file_size (KomiPublishOut *out, const char *relpath, guint64 *size)
{
  g_autofree char *path = g_build_filename (out->dir, relpath, NULL);
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return FALSE;
  *size = (guint64) st.st_size;
  return TRUE;
}

/* Publishing again: when the page on disk has this stamp and its SGF and
 * calls are there, the game is left as it is (its files counted as
 * unchanged, its usage read back from the page) without reading its calls
 * or making its page. */
static gboolean
keep_unchanged (KomiPublishOut *out, const KomiStoreGame *g, const char *stamp,
                KomiPublishUsage *usage)
{
  g_autofree char *base = g_strdup_printf ("games/game-%" G_GINT64_FORMAT, g->id);
  g_autofree char *html = g_strconcat (base, ".html", NULL);
  g_autofree char *sgf = g_strconcat (base, ".sgf", NULL);
  g_autofree char *calls = g_strconcat (base, "-calls.jsonl.gz", NULL);
  g_autofree char *path = g_build_filename (out->dir, html, NULL);
  g_autofree char *old_stamp = NULL, *old_usage = NULL;
  char head[2048];
  guint64 sizes[3] = { 0, 0, 0 };
  gsize n;
  FILE *f = g_fopen (path, "rb");
  KomiPublishUsage u = { 0, };

  if (f == NULL)
    return FALSE;
  n = fread (head, 1, sizeof head - 1, f);
  fclose (f);
  head[n] = '\0';
  if ((old_stamp = meta_content (head, "komi-stamp")) == NULL || strcmp (old_stamp, stamp) != 0
      || (old_usage = meta_content (head, "komi-usage")) == NULL
      || !usage_from_text (old_usage, &u)
      || !file_size (out, html, &sizes[0]) || !file_size (out, sgf, &sizes[1])
      || (g->n_calls > 0 && !file_size (out, calls, &sizes[2])))
    return FALSE;
  out->stats->unchanged += g->n_calls > 0 ? 3 : 2;
  out->stats->bytes += sizes[0] + sizes[1] + sizes[2];
  if (usage != NULL)
    _komi_publish_usage_add (usage, &u);
  return TRUE;
}

static void
count_usage (Collect *collect, const KomiStoreCall *c)
{
  KomiPublishUsage *u = collect->usage;
  const char *out = c->outcome != NULL ? c->outcome : "answer";
  guint key = c->turn * 2 + (g_strcmp0 (c->question, "best_point") == 0);

  if (u == NULL)
    return;
  if (g_hash_table_add (collect->turns, GUINT_TO_POINTER (c->turn + 1)))
    u->moves++;
  if (g_hash_table_add (collect->asked, GUINT_TO_POINTER (key + 1)))
    u->questions++;
  if (strcmp (out, "transport-error") == 0 || strcmp (out, "http-error") == 0)
    u->transport++;
  else if (strcmp (out, "refusal") == 0 || strcmp (out, "truncated") == 0
           || strcmp (out, "filtered") == 0 || strcmp (out, "invalid-option") == 0)
    u->invalid++;
  if (c->tokens_input >= 0 || c->tokens_output >= 0)
    {
      u->tokens += MAX (c->tokens_input, 0) + MAX (c->tokens_output, 0);
      u->token_calls++;
    }
  u->ms += c->latency_ms > 0 ? c->latency_ms : 0;
  if (c->cost_usd >= 0)
    {
      u->cost += c->cost_usd;
      u->cost_calls++;
    }
}

static gboolean
collect_call (const KomiStoreCall *stored,
              gpointer             user_data,
              GError             **error)
{
  Collect *collect = user_data;
  GArray *rows = collect->rows;
  g_auto(KomiPublicCall) view = { 0, };
  const KomiStoreCall *c = komi_public_call (collect->pub, stored, &view);
  CallRow row = { c->turn, c->id, NULL, NULL, NULL };
  g_autoptr(JsonBuilder) m = json_builder_new ();
  gsize n = 0;
  const char *bytes = c->response_body ? g_bytes_get_data (c->response_body, &n) : NULL;

  json_builder_begin_object (m);
  json_builder_set_member_name (m, "t");
  json_builder_add_int_value (m, c->turn);
  set_text (m, "q", c->question);
  json_builder_set_member_name (m, "n");
  json_builder_add_int_value (m, c->attempt);
  set_text (m, "ans", c->answer);
  set_text (m, "out", c->outcome);
  set_text (m, "err", c->error);
  /* Whether this answer decided the move: 1, 0, or -1 (not yet known). */
  json_builder_set_member_name (m, "dec");
  json_builder_add_int_value (m, c->decided);
  set_text (m, "model", c->model_version);
  json_builder_set_member_name (m, "status");
  json_builder_add_int_value (m, c->response_status);
  json_builder_set_member_name (m, "ms");
  json_builder_add_int_value (m, (gint64) round (c->latency_ms));
  set_count (m, "tin", c->tokens_input);
  set_count (m, "tout", c->tokens_output);
  set_count (m, "treason", c->tokens_reasoning);
  if (c->cost_usd >= 0)
    {
      json_builder_set_member_name (m, "cost");
      json_builder_add_double_value (m, round (c->cost_usd * 1e6) / 1e6);
    }
  set_probabilities (m, c->option_probabilities);
  json_builder_end_object (m);

  /* The raw exchange as text, as the library holds it. */
  {
    g_autofree char *marked = mark_rules (c->request_body);
    GString *raw = g_string_sized_new (1024 + n + (c->request_body ? strlen (c->request_body) : 0));

    g_string_append_c (raw, '[');
    append_text (raw, c->request_url, -1);
    g_string_append_c (raw, ',');
    append_text (raw, c->request_headers, -1);
    g_string_append_c (raw, ',');
    append_text (raw, marked != NULL ? marked : c->request_body, -1);
    g_string_append_printf (raw, ",%d,", c->response_status);
    append_text (raw, c->response_headers, -1);
    g_string_append_c (raw, ',');
    append_text (raw, bytes, bytes != NULL ? (gssize) n : -1);
    g_string_append_c (raw, ']');
    row.raw = g_string_free (raw, FALSE);
  }

  count_usage (collect, stored);
  row.meta = json_builder_get_root (m);
  row.line = komi_export_call_to_json (c);
  g_array_append_val (rows, row);
  return TRUE;
}

/* gzip at @level (the header has no name and no time: the same data gives
 * the same bytes, so an unchanged game is not written again). */
static GByteArray *
gzip_data (const char *data, gsize length, int level, GError **error)
{
  g_autoptr(GZlibCompressor) zlib = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, level);
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
  return g_steal_pointer (&out);
}

/* gzip, then base64: what DecompressionStream ("gzip") reads back. */
static char *
gzip_base64 (const char *data, gsize length, GError **error)
{
  g_autoptr(GByteArray) out = gzip_data (data, length, 1, error);

  return out != NULL ? g_base64_encode (out->data, out->len) : NULL;
}

/* The rules text as it stands, JSON-escaped, in every request body. The
 * page carries it once and each body with RULES_MARK in its place; the
 * script puts it back, so the bodies shown are the bytes sent. */
#define RULES_MARK "\001rules\001"

static const char *
rules_escaped (void)
{
  static gsize once = 0;
  static char *text = NULL;

  if (g_once_init_enter (&once))
    {
      GString *s = g_string_new (NULL);

      komi_protocol_append_json_string (s, komi_protocol_get_rules_text (1, NULL), -1);
      /* Without the quotes: the text inside a JSON string. */
      g_string_erase (s, 0, 1);
      g_string_truncate (s, s->len - 1);
      text = g_string_free (s, FALSE);
      g_once_init_leave (&once, 1);
    }
  return text;
}

/* @body with each escaped rules text as RULES_MARK; NULL when it has none. */
static char *
mark_rules (const char *body)
{
  const char *rules = rules_escaped ();
  gsize n = strlen (rules);
  const char *p, *at;
  GString *s;

  if (body == NULL || strchr (body, '\001') != NULL || (at = strstr (body, rules)) == NULL)
    return NULL;
  s = g_string_sized_new (strlen (body));
  for (p = body; at != NULL; p = at + n, at = strstr (p, rules))
    {
      g_string_append_len (s, p, at - p);
      g_string_append (s, RULES_MARK);
    }
  g_string_append (s, p);
  return g_string_free (s, FALSE);
}

static void
add_point_name (JsonBuilder *b, guint size, KomiPoint point)
{
  char name[KOMI_NAME_LEN + 1];

  json_builder_add_string_value (b, point == KOMI_PASS ? "pass"
                                    : komi_point_to_name (size, point, name));
}

/* The board after each move (and before the first): one string of
 * size * size characters ".XO" per position. */
static void
add_positions (JsonBuilder *b, const KomiStoreGame *game)
{
  g_autoptr(KomiBoard) board = komi_board_new (game->size);
  guint n = game->size * game->size;
  guint8 colors[KOMI_MAX_POINTS];
  char row[KOMI_MAX_POINTS + 1];
  static const char glyph[] = ".XO";

  if (game->setup != NULL)
    komi_board_set_colors (board, game->setup);
  json_builder_set_member_name (b, "positions");
  json_builder_begin_array (b);
  for (guint i = 0; i <= game->moves->len; i++)
    {
      if (i > 0)
        {
          const KomiMove *m = &g_array_index (game->moves, KomiMove, i - 1);

          /* A stored move always replays (the store checks it); a pass
           * or an impossible one leaves the board as it is. */
          if (m->point != KOMI_PASS
              && komi_board_check (board, m->color, m->point) == KOMI_MOVE_OK)
            komi_board_play (board, m->color, m->point);
        }
      komi_board_get_colors (board, colors);
      for (guint p = 0; p < n; p++)
        row[p] = glyph[colors[p] <= 2 ? colors[p] : 0];
      row[n] = '\0';
      json_builder_add_string_value (b, row);
    }
  json_builder_end_array (b);
}

/* JSON text for a page's <script> element: '<' only ever stands inside a
 * string there, and as \u003c it can never close the element. */
static char *
generate_for_script (JsonNode *root,
                     gsize    *length)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  GString *s;

  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  s = g_string_sized_new (strlen (text) + 64);
  for (const char *p = text; *p != '\0';)
    {
      gsize n = strcspn (p, "<");

      g_string_append_len (s, p, (gssize) n);
      p += n;
      if (*p == '<')
        {
          g_string_append (s, "\\u003c");
          p++;
        }
    }
  if (length != NULL)
    *length = s->len;
  return g_string_free (s, FALSE);
}

static JsonNode *
build_data (const KomiStoreGame *game,
            GArray              *rows,
            const char          *blob,
            guint                forfeit_turn,
            const char          *why)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n = game->size * game->size;
  g_autofree char *count = game->counted ? komi_score_describe (&game->score) : NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_int_value (b, game->id);
  json_builder_set_member_name (b, "size");
  json_builder_add_int_value (b, game->size);
  set_text (b, "orientation", komi_orientation_to_string (game->orientation));
  set_text (b, "subject", game->subject == KOMI_BLACK ? "B"
                          : game->subject == KOMI_WHITE ? "W" : NULL);
  /* Where each real point appears on the board the model was shown. */
  json_builder_set_member_name (b, "map");
  json_builder_begin_array (b);
  for (guint p = 0; p < n; p++)
    json_builder_add_int_value (b, komi_orientation_apply (game->orientation, game->size, p));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "moves");
  json_builder_begin_array (b);
  for (guint i = 0; i < game->moves->len; i++)
    {
      const KomiMove *m = &g_array_index (game->moves, KomiMove, i);

      json_builder_begin_array (b);
      json_builder_add_string_value (b, m->color == KOMI_BLACK ? "B" : "W");
      add_point_name (b, game->size, m->point);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
  add_positions (b, game);
  json_builder_set_member_name (b, "dead");
  json_builder_begin_array (b);
  for (guint i = 0; game->dead != NULL && i < game->dead->len; i++)
    add_point_name (b, game->size, g_array_index (game->dead, KomiPoint, i));
  json_builder_end_array (b);
  set_text (b, "count", count);
  /* The turn the model forfeited (its calls, no move), or 0. */
  json_builder_set_member_name (b, "forfeit");
  json_builder_add_int_value (b, forfeit_turn);
  set_text (b, "why", why);
  json_builder_set_member_name (b, "turnLimit");
  json_builder_add_boolean_value (b, game->status == KOMI_GAME_STATUS_FINISHED
                                     && game->end_reason == KOMI_END_TURN_LIMIT);
  json_builder_set_member_name (b, "calls");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      CallRow *r = &g_array_index (rows, CallRow, i);

      json_object_set_int_member (json_node_get_object (r->meta), "k", i);
      json_builder_add_value (b, g_steal_pointer (&r->meta));
    }
  json_builder_end_array (b);
  set_text (b, "raw", blob);
  set_text (b, "rules", rules_escaped ());
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
append_page (GString             *s,
             const KomiStoreGame *game,
             const char          *sgf_name,
             const char          *data_text,
             guint                forfeit_turn,
             const char          *why,
             gboolean             has_calls)
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
                               "%s: %s · komi %g",
                            black, white, result, game->moves->len,
                            has_calls ? "orientation shown to the model"
                                      : "orientation (shown to no model: engines play on the "
                                        "real board)",
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
                             "value=\"%u\">\n", MAX (game->moves->len, forfeit_turn),
                          MAX (game->moves->len, forfeit_turn));
  /* A game of engines alone: no model saw the board, engines play on
   * the real one, and no model gave probabilities. */
  g_string_append_printf (s, "<label class=\"toggle\"><input type=\"checkbox\" "
                             "id=\"model-view\"> %s (O)</label>\n"
                             "<label class=\"toggle\"%s><input type=\"checkbox\" "
                             "id=\"show-probs\" checked> Model's probabilities (P)</label>\n"
                             "</div>\n",
                          has_calls ? "Board as the model saw it" : "Board in the game's orientation",
                          has_calls ? "" : " hidden");
  g_string_append (s, "<h2 class=\"visually-hidden\">Position as text</h2>\n"
                      "<pre id=\"board-text\" class=\"board-text\" "
                      "aria-label=\"The position as text rows, X black, O white\"></pre>\n");
  g_string_append (s, "<div class=\"final\"><h2>End of the game</h2><p>");
  _komi_html_append_printf (s, "Result %s", result);
  if (count != NULL)
    {
      g_string_append (s, ". Area count: ");
      _komi_html_append (s, count);
    }
  g_string_append (s, "</p>");
  if (game->status == KOMI_GAME_STATUS_FINISHED && game->end_reason == KOMI_END_TURN_LIMIT)
    g_string_append (s, "<p class=\"turn-limit-mark\" id=\"turn-limit\"><strong>Turn limit"
                        "</strong>: the game reached the protocol's limit of turns before two "
                        "passes and was scored there; it is counted apart (<a href=\""
                        "../methodology.html#turn-limit\">methodology</a>).</p>");
  if (why != NULL)
    {
      g_string_append (s, "<p id=\"why\">");
      _komi_html_append (s, why);
      g_string_append (s, "</p>");
    }
  if (forfeit_turn > 0)
    g_string_append_printf (s, "<p class=\"forfeit-mark\" id=\"forfeit\"><strong>Forfeit"
                               "</strong> at turn %u: the model gave no valid answer; "
                               "<a href=\"#move=%u\">the turn and its rejected answers</a> "
                               "(<a href=\"../methodology.html#forfeit\">what a forfeit is"
                               "</a>).</p>", forfeit_turn, forfeit_turn);
  g_string_append (s, "<p id=\"dead-stones\"></p></div>\n<p class=\"downloads\">Download: ");
  g_string_append_printf (s, "<a href=\"game-%" G_GINT64_FORMAT ".sgf\" download=\"",
                          game->id);
  _komi_html_append (s, sgf_name);
  g_string_append (s, "\">SGF</a>");
  /* An engine game has no calls, and no calls file. */
  if (has_calls)
    g_string_append_printf (s, " · <a href=\"game-%" G_GINT64_FORMAT "-calls.jsonl.gz\" "
                               "download>calls (JSON Lines, gzip)</a>", game->id);
  g_string_append (s, "</p>\n</section>\n");
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
                         KomiPublishUsage    *usage,
                         GError             **error)
{
  g_autoptr(KomiStoreGame) loaded = NULL;
  g_auto(KomiPublicGame) view = { 0, };
  KomiPublishUsage game_usage = { 0, };
  g_autofree char *stamp = NULL;
  const KomiStoreGame *game;
  Collect collect = { NULL, out->pub, NULL, NULL, NULL };
  g_autoptr(GHashTable) asked = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) turns = g_hash_table_new (NULL, NULL);
  g_autoptr(KomiGameRecord) record = NULL;
  g_autofree char *why = NULL;
  guint last_turn = 0, forfeit_turn = 0;
  g_autoptr(KomiStoreAnalysis) analysis = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (CallRow));
  g_autoptr(GString) raw = NULL;
  g_autoptr(GString) lines = NULL;
  g_autoptr(JsonNode) data = NULL;
  g_autofree char *data_text = NULL;
  gsize data_length = 0;
  g_autoptr(GString) page = NULL;
  g_autofree char *blob = NULL;
  g_autofree char *sgf = NULL;
  g_autofree char *sgf_name = NULL;
  g_autofree char *base = NULL;
  g_autofree char *file = NULL;
  GError *local = NULL;

  *usage = (KomiPublishUsage) { 0, };
  analysis = komi_store_load_analysis (store, listed->id, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  stamp = game_stamp (out, listed, analysis);
  if (keep_unchanged (out, listed, stamp, usage))
    return TRUE;
  if ((loaded = komi_store_load_game (store, listed->id, error)) == NULL)
    return FALSE;
  /* The public view: no path, host or key variable (komi-public.h). */
  game = komi_public_game (out->pub, loaded, &view);
  g_array_set_clear_func (rows, call_row_clear);
  collect.rows = rows;
  collect.asked = asked;
  collect.turns = turns;
  if (listed->subject != KOMI_EMPTY)
    collect.usage = &game_usage;
  if (!komi_store_foreach_game_call (store, game->id, collect_call, &collect, error))
    return FALSE;
  g_array_sort (rows, call_row_compare);
  game_usage.games = rows->len > 0;
  if (listed->subject != KOMI_EMPTY)
    *usage = game_usage;
  /* A forfeit's last turn has calls but no move: the replay reaches it. */
  if (rows->len > 0)
    last_turn = g_array_index (rows, CallRow, rows->len - 1).turn;
  /* Why the game ended, as the SGF's last comment says it. */
  if ((record = komi_store_game_to_record (loaded, NULL)) != NULL
      && loaded->status != KOMI_GAME_STATUS_RUNNING)
    {
      g_autofree char *described = komi_game_record_describe (record);

      why = komi_public_text (out->pub, described);
    }
  forfeit_turn = game->status == KOMI_GAME_STATUS_FORFEIT && last_turn > game->moves->len
                 ? last_turn : 0;

  raw = g_string_sized_new (rows->len * 4096 + 2);
  lines = g_string_sized_new (rows->len * 4096 + 1);
  g_string_append_c (raw, '[');
  for (guint i = 0; i < rows->len; i++)
    {
      CallRow *r = &g_array_index (rows, CallRow, i);

      if (i > 0)
        g_string_append_c (raw, ',');
      g_string_append (raw, r->raw);
      g_string_append (lines, r->line);
      g_string_append_c (lines, '\n');
    }
  g_string_append_c (raw, ']');
  if ((blob = gzip_base64 (raw->str, raw->len, error)) == NULL)
    return FALSE;

  if ((sgf = komi_export_game_sgf_with_analysis (game, analysis, error)) == NULL)
    return FALSE;
  sgf_name = komi_export_sgf_file_name (game);

  data = build_data (game, rows, blob, forfeit_turn, why);
  data_text = generate_for_script (data, &data_length);
  page = g_string_sized_new (data_length + 8192);
  append_page (page, game, sgf_name, data_text, forfeit_turn, why, rows->len > 0);
  /* The stamp and the game's usage, in the head where publishing again
   * reads them (keep_unchanged). */
  {
    const char *charset = "<meta charset=\"utf-8\">\n";
    const char *at = strstr (page->str, charset);
    g_autofree char *usage_text = usage_to_text (&game_usage);
    g_autofree char *metas = g_strdup_printf ("<meta name=\"komi-stamp\" content=\"%s\">\n"
                                              "<meta name=\"komi-usage\" content=\"%s\">\n",
                                              stamp, usage_text);

    g_assert (at != NULL);
    g_string_insert (page, (at - page->str) + strlen (charset), metas);
  }

  base = g_strdup_printf ("games/game-%" G_GINT64_FORMAT, game->id);
  file = g_strconcat (base, ".sgf", NULL);
  if (!_komi_publish_write (out, file, sgf, strlen (sgf), error))
    return FALSE;
  g_free (file);
  /* The calls, byte for byte the export's lines, gzipped: the rules text
   * and the options repeat in every request. */
  if (rows->len > 0)
    {
      g_autoptr(GByteArray) gz = gzip_data (lines->str, lines->len, 1, error);

      file = g_strconcat (base, "-calls.jsonl.gz", NULL);
      if (gz == NULL || !_komi_publish_write (out, file, (const char *) gz->data, gz->len, error))
        return FALSE;
      g_free (file);
    }
  file = g_strconcat (base, ".html", NULL);
  return _komi_publish_write (out, file, page->str, page->len, error);
}
