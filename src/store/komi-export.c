/* komi-export.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "komi-coords.h"
#include "komi-export.h"
#include "komi-untrusted.h"
#include "komi-protocol.h"
#include "komi-sgf-writer.h"

/* SGF */

/* What a reader of the file needs to reproduce the game: protocol, seeds,
 * orientation and both players' exact settings. */
static char *
root_comment (const KomiStoreGame *g)
{
  if (g->status == KOMI_GAME_STATUS_IMPORTED)
    return g_strdup_printf ("Imported into the Komi library (game %" G_GINT64_FORMAT ") from %s",
                            g->id, g->source != NULL ? g->source : "an SGF file");
  g_autofree char *calls = NULL;

  /* A model's game says what its calls cost, as the CSV and the JSONL do. */
  if (g->n_calls > 0)
    {
      char cost[G_ASCII_DTOSTR_BUF_SIZE];

      /* Nothing spent is "$0", as everywhere else, not "$0.000000". */
      if (isnan (g->cost_usd) || g->cost_usd == 0)
        g_strlcpy (cost, "0", sizeof cost);
      else
        g_ascii_formatd (cost, sizeof cost, "%.6f", g->cost_usd);
      calls = g_strdup_printf ("; model calls: %u attempts costing $%s at the profiles' prices",
                               g->n_calls, cost);
    }
  return g_strdup_printf ("Protocol %u; series %" G_GINT64_FORMAT " \"%s\", game %d, "
                          "library game %" G_GINT64_FORMAT "; seed %" G_GUINT64_FORMAT
                          "; orientation %s; Black settings %s; White settings %s%s",
                          g->protocol, g->series_id, g->series_name, g->plan_index + 1, g->id,
                          g->seed, komi_orientation_to_string (g->orientation),
                          g->black_settings != NULL ? g->black_settings : "{}",
                          g->white_settings != NULL ? g->white_settings : "{}",
                          calls != NULL ? calls : "");
}

static char *
final_comment (const KomiStoreGame *g, const KomiGameRecord *record)
{
  switch (g->status)
    {
    case KOMI_GAME_STATUS_FINISHED:
    case KOMI_GAME_STATUS_VOID:
    case KOMI_GAME_STATUS_FORFEIT:
      return komi_game_record_describe (record);
    case KOMI_GAME_STATUS_RUNNING:
      return g_strdup_printf ("Unfinished: play stopped after move %u; resuming the series "
                              "continues this game", g->n_moves);
    case KOMI_GAME_STATUS_PENDING:
    case KOMI_GAME_STATUS_IMPORTED:
    default:
      return NULL;
    }
}

/* Black's lead from a lead in the mover's view. */
static double
black_lead (KomiColor mover, double lead)
{
  return mover == KOMI_BLACK ? lead : -lead;
}

/* The review of each move as SGF notes: BM[2] on blunders and BM[1] on
 * mistakes, because FF[4] defines BM as "bad move" with 2 for emphasis
 * while DO (doubtful) is for a move whose badness is not established, and
 * the engine measured a loss; a comment on those moves saying what and by
 * whose judgement; and SBKS, which Sabaki reads as Black's score lead in
 * the node's position for its score graph (src/modules/sabaki.js,
 * scoreLeadData; enginesyncer negates White's leads before writing it). */
static KomiSgfMoveNote *
analysis_notes (const KomiStoreGame *g, const KomiStoreAnalysis *a, GPtrArray *texts)
{
  KomiSgfMoveNote *notes = g_new0 (KomiSgfMoveNote, a->moves->len);

  for (guint i = 0; i < a->moves->len; i++)
    {
      const KomiStoreAnalysisMove *m = &g_array_index (a->moves, KomiStoreAnalysisMove, i);
      KomiMoveClass c = komi_store_analysis_classify (a, m);
      char best[KOMI_NAME_LEN + 1];

      notes[i].has_lead = isfinite (m->lead_after);
      notes[i].black_lead = black_lead (m->color, m->lead_after);
      if (c == KOMI_MOVE_CLASS_GOOD)
        continue;
      notes[i].bad_move = c == KOMI_MOVE_CLASS_BLUNDER ? 2 : 1;
      g_ptr_array_add (texts, g_strdup_printf ("%s: lost %.1f points, best was %s (%s)",
                                               c == KOMI_MOVE_CLASS_BLUNDER ? "Blunder"
                                                                            : "Mistake",
                                               m->loss,
                                               m->best == KOMI_NO_POINT
                                               ? "to resign"
                                               : komi_point_to_name (g->size, m->best, best),
                                               a->label));
      notes[i].comment = g_ptr_array_index (texts, texts->len - 1);
    }
  /* The notes point into @texts, which the caller frees after writing. */
  return notes;
}

char *
komi_export_game_sgf (const KomiStoreGame *g, GError **error)
{
  return komi_export_game_sgf_with_analysis (g, NULL, error);
}

/* The protocol's rules text as the players were shown it (GC). It says
 * KataGo judges the dead stones; when another referee did, a note after
 * it says which, so that the record does not contradict its own count. */
static char *
rules_text (const KomiStoreGame *g)
{
  const char *rules;

  /* A game under a protocol this Komi does not know has no rules text. */
  if (!komi_protocol_is_known (g->protocol)
      || (rules = komi_protocol_get_rules_text (g->protocol, NULL)) == NULL)
    return NULL;
  if (g->referee == NULL || *g->referee == '\0' || strstr (g->referee, "KataGo") != NULL)
    return g_strdup (rules);
  return g_strdup_printf ("%s\n\n(Komi: in this game the dead stones were judged by %s, the "
                          "series' referee, not by KataGo; the text above is the rules text "
                          "as the players were shown it.)", rules, g->referee);
}

/* A player in the game's name (GN): an engine by its spec ("gnugo:1",
 * its level with it), a model by the name it played under (its profile's
 * name and model id, as PB and PW give it), never by its profile's path. */
static const char *
game_name_player (const char *spec, const char *name)
{
  if (spec != NULL && g_str_has_prefix (spec, "model:") && name != NULL && *name != '\0')
    return name;
  return spec;
}

char *
komi_export_game_sgf_with_analysis (const KomiStoreGame     *g,
                                    const KomiStoreAnalysis *analysis,
                                    GError                 **error)
{
  g_autoptr(KomiGameRecord) record = NULL;
  g_autofree KomiSgfMoveNote *notes = NULL;
  g_autoptr(GPtrArray) note_texts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *root = NULL;
  g_autofree char *last = NULL;
  g_autofree char *round = NULL;
  g_autofree char *name = NULL;
  g_autofree char *rules = NULL;
  KomiSgfGame sgf = { 0, };
  guint n_moves;
  gboolean ours = g->status != KOMI_GAME_STATUS_IMPORTED;

  g_return_val_if_fail (g != NULL && g->moves != NULL, NULL);

  if ((record = komi_store_game_to_record (g, error)) == NULL)
    return NULL;
  root = root_comment (g);
  last = final_comment (g, record);
  if (ours)
    {
      round = g_strdup_printf ("pair %u, game %u", g->pair + 1, g->game_in_pair + 1);
      name = g_strdup_printf ("%s: game %d, %s vs %s", g->series_name, g->plan_index + 1,
                              game_name_player (g->black_spec, record->black_name),
                              game_name_player (g->white_spec, record->white_name));
    }
  sgf.size = g->size;
  sgf.komi = g->komi;
  sgf.black_name = record->black_name;
  sgf.white_name = record->white_name;
  sgf.date = g->date;
  sgf.event = ours ? g->series_name : g->event;
  sgf.round = round;
  sgf.game_name = name;
  sgf.ruleset = ours ? NULL : g->ruleset;
  rules = ours ? rules_text (g) : NULL;
  sgf.rules_text = rules;
  sgf.result = g->result;
  sgf.application = "Komi:" PACKAGE_VERSION;
  sgf.root_comment = root;
  sgf.moves = komi_game_get_moves (record->game, &n_moves);
  sgf.n_moves = n_moves;
  sgf.setup_colors = g->setup;
  sgf.dead = (const KomiPoint *) record->dead->data;
  sgf.n_dead = record->dead->len;
  /* Only our count gives an area; another tool's record keeps its MA. */
  if (g->counted)
    sgf.owner = record->score.owner;
  sgf.final_comment = last;
  /* An analysis of other moves (the game went on after it) is left out. */
  if (analysis != NULL && analysis->moves->len == n_moves && n_moves > 0)
    {
      const KomiStoreAnalysisMove *first = &g_array_index (analysis->moves,
                                                           KomiStoreAnalysisMove, 0);
      g_autofree char *with_review = NULL;

      notes = analysis_notes (g, analysis, note_texts);
      sgf.notes = notes;
      sgf.has_root_lead = isfinite (first->lead_before);
      sgf.root_black_lead = black_lead (first->color, first->lead_before);
      with_review = g_strdup_printf ("%s\n\nReviewed by %s (%s %s): moves marked bad lost %g "
                                     "points or more (mistakes), very bad %g or more "
                                     "(blunders); the score graph is Black's lead after each "
                                     "move", root, analysis->label,
                                     analysis->engine, analysis->engine_version, analysis->mistake,
                                     analysis->blunder);
      g_free (root);
      root = g_steal_pointer (&with_review);
      sgf.root_comment = root;
    }
  return komi_sgf_write (&sgf);
}

/* Lower-case letters and digits; anything else becomes one '-', but a ':'
 * before a digit goes ("gnugo:1" -> "gnugo1"). */
static void
append_slug (GString *out, const char *text)
{
  gsize start = out->len;

  for (const char *p = text != NULL ? text : ""; *p != '\0' && out->len - start < 24; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (out, g_ascii_tolower (*p));
      else if (*p == ':' && g_ascii_isdigit (p[1]))
        continue;
      else if (out->len > start && out->str[out->len - 1] != '-')
        g_string_append_c (out, '-');
    }
  while (out->len > start && out->str[out->len - 1] == '-')
    g_string_truncate (out, out->len - 1);
  if (out->len == start)
    g_string_append (out, "player");
}

/* A player as its file name part: a model by its profile's file name
 * ("model:/home/a/.config/komi/providers/gpt-4o.json" -> "gpt-4o"), a GTP
 * program by its program's name, any other spec as written. */
static void
append_player_slug (GString *out, const char *spec)
{
  g_autofree char *name = NULL;

  if (spec != NULL && g_str_has_prefix (spec, "model:"))
    {
      name = g_path_get_basename (spec + strlen ("model:"));
      if (g_str_has_suffix (name, ".json"))
        name[strlen (name) - strlen (".json")] = '\0';
    }
  else if (spec != NULL && g_str_has_prefix (spec, "gtp:"))
    {
      g_auto(GStrv) argv = NULL;

      if (g_shell_parse_argv (spec + strlen ("gtp:"), NULL, &argv, NULL) && argv[0] != NULL)
        name = g_path_get_basename (argv[0]);
    }
  append_slug (out, name != NULL ? name : spec);
}

char *
komi_export_sgf_file_name (const KomiStoreGame *g)
{
  GString *s = g_string_new (NULL);

  if (g->status == KOMI_GAME_STATUS_IMPORTED)
    {
      g_string_append_printf (s, "imported-%" G_GINT64_FORMAT "-", g->id);
      append_slug (s, g->black_name != NULL ? g->black_name : "black");
      g_string_append (s, "-vs-");
      append_slug (s, g->white_name != NULL ? g->white_name : "white");
    }
  else
    {
      g_string_append_printf (s, "series-%" G_GINT64_FORMAT "-game-%04d-", g->series_id,
                              g->plan_index + 1);
      append_player_slug (s, g->black_spec);
      g_string_append (s, "-vs-");
      append_player_slug (s, g->white_spec);
    }
  g_string_append (s, ".sgf");
  return g_string_free (s, FALSE);
}

static gboolean
make_dir (const char *dir, GError **error)
{
  if (g_mkdir_with_parents (dir, 0755) == 0)
    return TRUE;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
               _("Cannot create the folder %s: %s"), dir, g_strerror (errno));
  return FALSE;
}

gboolean
komi_export_sgf (KomiStore   *store,
                 gint64       series_id,
                 const char  *dir,
                 guint       *n_files,
                 GError     **error)
{
  return komi_export_sgf_public (store, series_id, dir, NULL, n_files, error);
}

gboolean
komi_export_sgf_public (KomiStore   *store,
                        gint64       series_id,
                        const char  *dir,
                        KomiPublic  *pub,
                        guint       *n_files,
                        GError     **error)
{
  g_autoptr(GPtrArray) games = NULL;
  guint written = 0;

  g_return_val_if_fail (store != NULL && dir != NULL, FALSE);

  if ((games = komi_store_list_games (store, series_id, error)) == NULL || !make_dir (dir, error))
    return FALSE;
  for (guint i = 0; i < games->len; i++)
    {
      const KomiStoreGame *listed = g_ptr_array_index (games, i);
      g_autoptr(KomiStoreGame) game = NULL;
      g_autofree char *text = NULL;
      g_autofree char *file = NULL;
      g_autofree char *path = NULL;

      if (listed->status == KOMI_GAME_STATUS_PENDING)
        continue;
      /* One game at a time: memory stays flat however large the library. */
      g_autoptr(KomiStoreAnalysis) analysis = NULL;
      g_auto(KomiPublicGame) view = { 0, };
      const KomiStoreGame *shown;

      if ((game = komi_store_load_game (store, listed->id, error)) == NULL)
        return FALSE;
      shown = pub != NULL ? komi_public_game (pub, game, &view) : game;
      /* The analysis goes in when there is one. */
      analysis = komi_store_load_analysis (store, listed->id, error);
      if ((analysis == NULL && error != NULL && *error != NULL)
          || (text = komi_export_game_sgf_with_analysis (shown, analysis, error)) == NULL)
        return FALSE;
      file = komi_export_sgf_file_name (shown);
      path = g_build_filename (dir, file, NULL);
      if (!g_file_set_contents (path, text, -1, error))
        return FALSE;
      written++;
    }
  if (n_files != NULL)
    *n_files = written;
  return TRUE;
}

/* JSON Lines
 *
 * Written straight into one string, byte for byte what json-glib 1.6's
 * generator writes for the same values (test-export checks the two
 * against each other on calls of every shape): a published library's
 * million calls are each turned into a line, and json-glib's builder
 * spent most of publish's time building and freeing nodes. Only what a
 * server wrote as a JSON object (headers, probabilities) still goes
 * through json-glib, parsed bounded and written back as it reads it. */

/* What json-glib 1.6 escapes: '"', '\\', the control characters below
 * 0x1f (the short forms where JSON has one; 0x1f itself it leaves as it
 * is) and DEL. */
static const char *const json_escapes[128] = {
  [0x01] = "\\u0001", [0x02] = "\\u0002", [0x03] = "\\u0003", [0x04] = "\\u0004",
  [0x05] = "\\u0005", [0x06] = "\\u0006", [0x07] = "\\u0007", [0x08] = "\\b",
  [0x09] = "\\t", [0x0a] = "\\n", [0x0b] = "\\u000b", [0x0c] = "\\f", [0x0d] = "\\r",
  [0x0e] = "\\u000e", [0x0f] = "\\u000f", [0x10] = "\\u0010", [0x11] = "\\u0011",
  [0x12] = "\\u0012", [0x13] = "\\u0013", [0x14] = "\\u0014", [0x15] = "\\u0015",
  [0x16] = "\\u0016", [0x17] = "\\u0017", [0x18] = "\\u0018", [0x19] = "\\u0019",
  [0x1a] = "\\u001a", [0x1b] = "\\u001b", [0x1c] = "\\u001c", [0x1d] = "\\u001d",
  [0x1e] = "\\u001e", ['"'] = "\\\"", ['\\'] = "\\\\", [0x7f] = "\\u007f",
};

/* Whether none of the 8 bytes of @w needs a second look: no control
 * character, '"', '\\', DEL or byte of a multi-byte character (each test
 * may flag a byte that is fine, never misses one that is not). */
static inline gboolean
plain_word (guint64 w)
{
  const guint64 ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  guint64 quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
  guint64 control = (w - ones * 0x20) & ~w;

  return ((control | ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash)
           | w | (w + ones)) & high) == 0;
}

/* @text as a JSON string at the end of @s, escaped as json-glib escapes
 * it, when it is valid UTF-8 without NUL; else FALSE, @s as it was. Runs
 * of plain ASCII go eight bytes at a time. */
static gboolean
json_append_escaped (GString *s, const char *text, gsize length)
{
  const guchar *p = (const guchar *) text, *end = p + length;
  gsize start = s->len;

  g_string_append_c (s, '"');
  while (p < end)
    {
      const guchar *stop = p + MIN ((gsize) (end - p), 4096);
      gsize at = s->len;
      char *o;

      g_string_set_size (s, at + 6 * (stop - p));
      o = s->str + at;
      while (p < stop)
        {
          guint64 w;
          const guchar *bytes_end;

          if (stop - p >= 8 && (memcpy (&w, p, 8), plain_word (w)))
            {
              memcpy (o, p, 8);
              o += 8, p += 8;
              continue;
            }
          /* These eight bytes one at a time, before the next look at a word. */
          for (bytes_end = MIN (p + 8, stop); p < bytes_end;)
            if (*p >= 0x80)
              {
                /* One character, checked whole (it may end past @stop). */
                const guchar *next = (const guchar *) g_utf8_next_char (p);

                if (next > end
                    || (gint32) g_utf8_get_char_validated ((const char *) p, end - p) < 0)
                  {
                    g_string_truncate (s, start);
                    return FALSE;
                  }
                while (p < next)
                  *o++ = (char) *p++;
                if (p > stop)
                  stop = bytes_end = p;
              }
            else if (json_escapes[*p] != NULL)
              for (const char *e = json_escapes[*p++]; *e != '\0'; e++)
                *o++ = *e;
            else if (*p == 0)
              {
                g_string_truncate (s, start);
                return FALSE;
              }
            else
              *o++ = (char) *p++;
        }
      g_string_truncate (s, o - s->str);
    }
  g_string_append_c (s, '"');
  return TRUE;
}

void
komi_export_append_json_string (GString *s, const char *text, gssize length)
{
  gsize n = length >= 0 ? (gsize) length : strlen (text);

  if (!json_append_escaped (s, text, n))
    {
      g_autofree char *valid = komi_untrusted_valid_utf8 (text, (gssize) n);

      json_append_escaped (s, valid, strlen (valid));
    }
}

static void
json_member (GString *s, const char *member)
{
  if (s->len > 0 && s->str[s->len - 1] != '{')
    g_string_append_c (s, ',');
  g_string_append_c (s, '"');
  g_string_append (s, member);
  g_string_append (s, "\":");
}

static void
add_string_len (GString *s, const char *member, const char *text, gsize length)
{
  json_member (s, member);
  if (text == NULL)
    g_string_append (s, "null");
  else
    komi_export_append_json_string (s, text, (gssize) length);
}

static void
add_string (GString *s, const char *member, const char *text)
{
  if (text == NULL)
    {
      json_member (s, member);
      g_string_append (s, "null");
    }
  else
    add_string_len (s, member, text, strlen (text));
}

/* Stored header objects are embedded as objects; anything else as text.
 * What a server or a foreign library wrote is parsed bounded (no deep
 * nesting) and written as valid UTF-8. */
static void
add_json_or_text (GString *s, const char *member, const char *text)
{
  g_autoptr(JsonNode) root = komi_untrusted_parse_json (text, -1);

  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autofree char *object = NULL;

      json_generator_set_root (gen, root);
      object = json_generator_to_data (gen, NULL);
      json_member (s, member);
      g_string_append (s, object);
    }
  else
    add_string (s, member, text);
}

static void
add_count (GString *s, const char *member, gint64 value)
{
  json_member (s, member);
  if (value >= 0)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, value);
  else
    g_string_append (s, "null");
}

/* A number, or null when negative (not known, or none); as json-glib
 * writes a double: %.17g, with ".0" when that has no point. */
static void
add_number (GString *s, const char *member, double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  json_member (s, member);
  if (value < 0)
    {
      g_string_append (s, "null");
      return;
    }
  g_ascii_dtostr (buf, sizeof buf, value);
  g_string_append (s, buf);
  if (strchr (buf, '.') == NULL)
    g_string_append (s, ".0");
}

static void
add_boolean (GString *s, const char *member, gboolean value)
{
  json_member (s, member);
  g_string_append (s, value ? "true" : "false");
}

/* Unknown values are null, never 0 or "": a published log must not
 * claim a token count or a status that was not reported. */
char *
komi_export_call_to_json (const KomiStoreCall *c)
{
  gsize size = 0;
  const char *data = c->response_body != NULL ? g_bytes_get_data (c->response_body, &size)
                                              : NULL;
  GString *s = g_string_sized_new (1024 + (c->request_body ? strlen (c->request_body) : 0)
                                   + size + size / 8);

  g_string_append_c (s, '{');
  add_count (s, "series_id", c->series_id > 0 ? c->series_id : -1);
  add_count (s, "game_id", c->game_id);
  add_count (s, "turn", c->turn);
  add_string (s, "question", c->question);
  add_count (s, "attempt", c->attempt);
  add_string (s, "started", c->started);
  json_member (s, "request");
  g_string_append_c (s, '{');
  add_string (s, "url", c->request_url);
  add_json_or_text (s, "headers", c->request_headers);
  add_string (s, "body", c->request_body);
  g_string_append (s, "}");
  json_member (s, "response");
  g_string_append_c (s, '{');
  add_count (s, "status", c->response_status > 0 ? c->response_status : -1);
  add_json_or_text (s, "headers", c->response_headers);
  if (data == NULL)
    add_string (s, "body", NULL);
  else
    {
      /* The raw bytes are the record: text as is (checked as it is
       * escaped), anything else also in base64, which keeps the bytes
       * exactly; "body" is then them as text, each invalid byte and NUL
       * shown as U+FFFD, for a reader. */
      json_member (s, "body");
      if (!json_append_escaped (s, data, size))
        {
          g_autofree char *shown = komi_untrusted_valid_utf8 (data, (gssize) size);
          g_autofree char *encoded = g_base64_encode ((const guchar *) data, size);

          json_append_escaped (s, shown, strlen (shown));
          add_string (s, "body_base64", encoded);
        }
    }
  g_string_append (s, "}");
  add_number (s, "latency_ms", c->latency_ms);
  json_member (s, "tokens");
  g_string_append_c (s, '{');
  add_count (s, "input", c->tokens_input);
  add_count (s, "output", c->tokens_output);
  add_count (s, "reasoning", c->tokens_reasoning);
  add_count (s, "cached", c->tokens_cached);
  g_string_append (s, "}");
  add_string (s, "model_version", c->model_version);
  add_boolean (s, "model_mismatch", c->model_mismatch);
  add_string (s, "system_fingerprint", c->system_fingerprint);
  add_string (s, "response_id", c->response_id);
  add_string (s, "finish_reason", c->finish_reason);
  add_string (s, "answer", c->answer);
  add_boolean (s, "logprobs_requested", c->logprobs_requested);
  add_json_or_text (s, "option_probabilities", c->option_probabilities);
  add_string (s, "outcome", c->outcome);
  add_string (s, "error", c->error);
  add_number (s, "retry_delay", c->retry_delay);
  add_number (s, "cost_usd", c->cost_usd);
  json_member (s, "decided");
  g_string_append (s, c->decided < 0 ? "null" : c->decided > 0 ? "true" : "false");
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

typedef struct
{
  GOutputStream *out;
  KomiPublic    *pub;
  guint          n;
} CallsOut;

static gboolean
write_call (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  CallsOut *calls = user_data;
  g_auto(KomiPublicCall) view = { 0, };
  g_autofree char *line = komi_export_call_to_json (calls->pub != NULL
                                                    ? komi_public_call (calls->pub, call, &view)
                                                    : call);

  calls->n++;
  return g_output_stream_write_all (calls->out, line, strlen (line), NULL, NULL, error)
         && g_output_stream_write_all (calls->out, "\n", 1, NULL, NULL, error);
}

/* A stream that replaces @path only when closed without error. */
static GOutputStream *
open_output (const char *path, GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *dir = parent != NULL ? g_file_get_path (parent) : NULL;

  if (dir != NULL && !make_dir (dir, error))
    return NULL;
  return G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                          NULL, error));
}

static gboolean
finish_output (GOutputStream *out, gboolean ok, const char *path, GError **error)
{
  if (!ok)
    {
      /* Cancelling the close keeps the old file in place. */
      g_autoptr(GCancellable) cancel = g_cancellable_new ();

      g_cancellable_cancel (cancel);
      g_output_stream_close (out, cancel, NULL);
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  if (g_output_stream_close (out, NULL, error))
    return TRUE;
  g_prefix_error (error, "%s: ", path);
  return FALSE;
}

gboolean
komi_export_calls (KomiStore   *store,
                   gint64       series_id,
                   const char  *path,
                   guint       *n_lines,
                   GError     **error)
{
  return komi_export_calls_public (store, series_id, path, NULL, n_lines, error);
}

gboolean
komi_export_calls_public (KomiStore   *store,
                          gint64       series_id,
                          const char  *path,
                          KomiPublic  *pub,
                          guint       *n_lines,
                          GError     **error)
{
  g_autoptr(GOutputStream) out = NULL;
  CallsOut calls = { NULL, pub, 0 };
  gboolean ok;

  g_return_val_if_fail (store != NULL && path != NULL, FALSE);

  if ((out = open_output (path, error)) == NULL)
    return FALSE;
  calls.out = out;
  ok = komi_store_foreach_call (store, series_id, write_call, &calls, error);
  if (!finish_output (out, ok, path, error))
    return FALSE;
  if (n_lines != NULL)
    *n_lines = calls.n;
  return TRUE;
}
