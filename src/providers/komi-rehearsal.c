/* komi-rehearsal.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "komi-rehearsal.h"

#define DEFAULT_RETRY_AFTER_MS 1000
#define DEFAULT_HOLD_MS        600000

struct _KomiRehearsal
{
  GObject              parent_instance;

  /* Set before the thread starts, read-only afterwards. */
  KomiRehearsalOptions options;      /* strings owned */
  KomiRehearsalFaults *faults;
  GMainContext        *context;
  GMainLoop           *loop;
  GThread             *thread;
  char                *base_url;
  guint                port;

  /* The server thread only. */
  SoupServer          *server;
  GHashTable          *holds;        /* GSource* of pending delays and held timeouts */

  /* Under mutex: the start handshake and the counters. */
  GMutex               mutex;
  GCond                cond;
  gboolean             started;
  GError              *start_error;
  GHashTable          *counts;       /* path → count */
  guint                total;
  guint                in_flight;
  guint                max_in_flight;
  guint64              ordinal;
  char                *last_body;
};

G_DEFINE_FINAL_TYPE (KomiRehearsal, komi_rehearsal, G_TYPE_OBJECT)

/* A request as the model reads it. */
typedef enum { MODE_TEXT, MODE_BARE, MODE_JSON, MODE_JSON_STRING, MODE_TOOL } Mode;

typedef struct
{
  KomiRehearsalApi api;
  JsonNode        *node;
  char            *model;
  GPtrArray       *ids;              /* of char*, one per question */
  GPtrArray       *options;          /* of GStrv, one per question */
  Mode             mode;
  char            *property;         /* JSON or tool input member for the answer */
  char            *tool_name;
  gboolean         logprobs;
  guint            top_logprobs;
  gboolean         reasoning;
  gsize            body_len;
  guint64          hash;
} Request;

static void
request_clear (Request *r)
{
  g_clear_pointer (&r->node, json_node_unref);
  g_clear_pointer (&r->model, g_free);
  g_clear_pointer (&r->ids, g_ptr_array_unref);
  g_clear_pointer (&r->options, g_ptr_array_unref);
  g_clear_pointer (&r->property, g_free);
  g_clear_pointer (&r->tool_name, g_free);
}

/* One token of the answer text with its log probability and alternatives. */
typedef struct
{
  char      *text;
  double     logprob;
  GPtrArray *alt_text;
  GArray    *alt_logprob;
} Token;

static void
token_free (Token *t)
{
  g_free (t->text);
  g_ptr_array_unref (t->alt_text);
  g_array_unref (t->alt_logprob);
  g_free (t);
}

/* What the model says: the text, its tokens and the chosen options. */
typedef struct
{
  GString   *text;
  GPtrArray *tokens;
  GPtrArray *answers;                /* of char*, one per question */
  char      *answer_log;
  KomiRehearsalFault fault;
  guint      input_tokens, output_tokens, reasoning_tokens;
} Reply;

static void
reply_clear (Reply *a)
{
  g_string_free (a->text, TRUE);
  g_ptr_array_unref (a->tokens);
  g_ptr_array_unref (a->answers);
  g_free (a->answer_log);
}

/* Reading the request ---------------------------------------------------- */

static JsonNode *
path_get (JsonNode *node, const char *first, ...)
{
  va_list ap;

  va_start (ap, first);
  for (const char *m = first; m != NULL && node != NULL; m = va_arg (ap, const char *))
    node = JSON_NODE_HOLDS_OBJECT (node)
           ? json_object_get_member (json_node_get_object (node), m) : NULL;
  va_end (ap);
  return node;
}

static const char *
node_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
}

/* A message's text: a string, or the "text" of each part of an array. */
static void
append_text (JsonNode *content, GString *out)
{
  if (node_string (content) != NULL)
    g_string_append (out, node_string (content));
  else if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (content)); i++)
      {
        JsonNode *part = json_array_get_element (json_node_get_array (content), i);

        if (node_string (path_get (part, "text", NULL)) != NULL)
          g_string_append (out, node_string (path_get (part, "text", NULL)));
      }
}

/* The content of the last user turn of @turns (role missing counts). */
static void
last_user_text (JsonNode *turns, const char *content_member, GString *out)
{
  if (node_string (turns) != NULL || turns == NULL || !JSON_NODE_HOLDS_ARRAY (turns))
    {
      append_text (turns, out);
      return;
    }
  for (guint i = json_array_get_length (json_node_get_array (turns)); i > 0; i--)
    {
      JsonNode *turn = json_array_get_element (json_node_get_array (turns), i - 1);
      const char *role = node_string (path_get (turn, "role", NULL));

      if (role == NULL || g_str_equal (role, "user"))
        {
          append_text (path_get (turn, content_member, NULL), out);
          return;
        }
    }
}

static char *
first_property (JsonNode *schema)
{
  JsonNode *props = path_get (schema, "properties", NULL);
  g_autoptr(GList) names = NULL;

  if (props == NULL || !JSON_NODE_HOLDS_OBJECT (props))
    return NULL;
  names = json_object_get_members (json_node_get_object (props));
  return names != NULL ? g_strdup (names->data) : NULL;
}

static void
read_mode (Request *r)
{
  JsonNode *root = r->node, *schema = NULL;
  const char *type;

  r->mode = MODE_TEXT;
  switch (r->api)
    {
    case KOMI_REHEARSAL_API_CHAT:
      if (path_get (root, "structured_outputs", "choice", NULL) != NULL)
        r->mode = MODE_BARE;
      else if ((type = node_string (path_get (root, "response_format", "type", NULL))) != NULL
               && g_str_has_prefix (type, "json_"))
        {
          r->mode = MODE_JSON;
          schema = path_get (root, "response_format", "json_schema", "schema", NULL);
        }
      break;
    case KOMI_REHEARSAL_API_RESPONSES:
      if ((type = node_string (path_get (root, "text", "format", "type", NULL))) != NULL
          && g_str_has_prefix (type, "json_"))
        {
          r->mode = MODE_JSON;
          schema = path_get (root, "text", "format", "schema", NULL);
        }
      break;
    case KOMI_REHEARSAL_API_ANTHROPIC:
      type = node_string (path_get (root, "tool_choice", "type", NULL));
      if (g_strcmp0 (type, "tool") == 0 || g_strcmp0 (type, "any") == 0)
        {
          JsonNode *tools = path_get (root, "tools", NULL);
          const char *name = node_string (path_get (root, "tool_choice", "name", NULL));

          r->mode = MODE_TOOL;
          for (guint i = 0; tools != NULL && JSON_NODE_HOLDS_ARRAY (tools)
                            && i < json_array_get_length (json_node_get_array (tools)); i++)
            {
              JsonNode *tool = json_array_get_element (json_node_get_array (tools), i);
              const char *tname = node_string (path_get (tool, "name", NULL));

              if (name == NULL || g_strcmp0 (name, tname) == 0)
                {
                  r->tool_name = g_strdup (tname);
                  schema = path_get (tool, "input_schema", NULL);
                  break;
                }
            }
          if (r->tool_name == NULL)
            r->tool_name = g_strdup (name != NULL ? name : "answer");
        }
      else if (path_get (root, "output_config", "format", NULL) != NULL)
        {
          r->mode = MODE_JSON;
          schema = path_get (root, "output_config", "format", "schema", NULL);
        }
      break;
    case KOMI_REHEARSAL_API_GEMINI:
    default:
      type = node_string (path_get (root, "generationConfig", "responseMimeType", NULL));
      if (g_strcmp0 (type, "text/x.enum") == 0)
        r->mode = MODE_BARE;
      else if (g_strcmp0 (type, "application/json") == 0)
        {
          schema = path_get (root, "generationConfig", "responseSchema", NULL)
                   ?: path_get (root, "generationConfig", "responseJsonSchema", NULL);
          r->mode = path_get (schema, "properties", NULL) != NULL || schema == NULL
                    ? MODE_JSON : MODE_JSON_STRING;
        }
      break;
    }
  if (r->mode == MODE_JSON || r->mode == MODE_TOOL)
    r->property = first_property (schema) ?: g_strdup ("answer");
}

static gboolean
node_true (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_BOOLEAN && json_node_get_boolean (node);
}

static gint64
node_int (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) != G_TYPE_STRING ? json_node_get_int (node) : 0;
}

static gboolean
effort_asked (JsonNode *effort)
{
  return node_string (effort) != NULL && !g_str_equal (node_string (effort), "none");
}

static void
read_flags (Request *r)
{
  JsonNode *root = r->node, *include, *config, *budget;
  const char *thinking;

  switch (r->api)
    {
    case KOMI_REHEARSAL_API_CHAT:
      r->logprobs = node_true (path_get (root, "logprobs", NULL));
      r->top_logprobs = CLAMP (node_int (path_get (root, "top_logprobs", NULL)), 0, 20);
      r->reasoning = effort_asked (path_get (root, "reasoning_effort", NULL));
      break;
    case KOMI_REHEARSAL_API_RESPONSES:
      include = path_get (root, "include", NULL);
      for (guint i = 0; include != NULL && JSON_NODE_HOLDS_ARRAY (include)
                        && i < json_array_get_length (json_node_get_array (include)); i++)
        if (g_strcmp0 (node_string (json_array_get_element (json_node_get_array (include), i)),
                       "message.output_text.logprobs") == 0)
          r->logprobs = TRUE;
      r->top_logprobs = CLAMP (node_int (path_get (root, "top_logprobs", NULL)), 0, 20);
      r->reasoning = effort_asked (path_get (root, "reasoning", "effort", NULL));
      break;
    case KOMI_REHEARSAL_API_ANTHROPIC:
      thinking = node_string (path_get (root, "thinking", "type", NULL));
      r->reasoning = g_strcmp0 (thinking, "enabled") == 0 || g_strcmp0 (thinking, "adaptive") == 0
                     || effort_asked (path_get (root, "output_config", "effort", NULL));
      break;
    case KOMI_REHEARSAL_API_GEMINI:
    default:
      config = path_get (root, "generationConfig", NULL);
      r->logprobs = node_true (path_get (config, "responseLogprobs", NULL));
      r->top_logprobs = CLAMP (node_int (path_get (config, "logprobs", NULL)), 0, 20);
      budget = path_get (config, "thinkingConfig", "thinkingBudget", NULL);
      r->reasoning = (budget != NULL && node_int (budget) != 0)
                     || path_get (config, "thinkingConfig", "thinkingLevel", NULL) != NULL;
      break;
    }
}

/* Reads the API request and the Protocol 1 request inside it; on failure
 * returns a message for a 400 reply. */
static char *
request_parse (Request *r, KomiRehearsalApi api, const char *path_model, GBytes *body)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) inner = json_parser_new ();
  g_autoptr(GString) user = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize len;
  JsonNode *questions;

  r->api = api;
  data = g_bytes_get_data (body, &len);
  r->body_len = len;
  if (!json_parser_load_from_data (parser, data != NULL ? data : "", len, &error)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return g_strdup_printf ("We could not parse the JSON body of your request (%s).",
                            error != NULL ? error->message : "not an object");
  r->node = json_node_ref (json_parser_get_root (parser));
  r->model = g_strdup (path_model ?: node_string (path_get (r->node, "model", NULL)));
  if (r->model == NULL)
    return g_strdup ("model: Field required");
  if (api == KOMI_REHEARSAL_API_ANTHROPIC && path_get (r->node, "max_tokens", NULL) == NULL)
    return g_strdup ("max_tokens: Field required");

  if (api == KOMI_REHEARSAL_API_CHAT || api == KOMI_REHEARSAL_API_ANTHROPIC)
    last_user_text (path_get (r->node, "messages", NULL), "content", user);
  else if (api == KOMI_REHEARSAL_API_RESPONSES)
    last_user_text (path_get (r->node, "input", NULL), "content", user);
  else
    last_user_text (path_get (r->node, "contents", NULL), "parts", user);

  if (!json_parser_load_from_data (inner, user->str, user->len, NULL)
      || (questions = path_get (json_parser_get_root (inner), "questions", NULL)) == NULL
      || !JSON_NODE_HOLDS_ARRAY (questions)
      || json_array_get_length (json_node_get_array (questions)) == 0)
    return g_strdup ("The user content is not a Protocol 1 request: a JSON object with "
                     "\"state\" and a non-empty \"questions\" array.");

  r->ids = g_ptr_array_new_with_free_func (g_free);
  r->options = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint i = 0; i < json_array_get_length (json_node_get_array (questions)); i++)
    {
      JsonNode *q = json_array_get_element (json_node_get_array (questions), i);
      JsonNode *opts = path_get (q, "options", NULL);
      g_autoptr(GStrvBuilder) sb = g_strv_builder_new ();
      guint n = opts != NULL && JSON_NODE_HOLDS_ARRAY (opts)
                ? json_array_get_length (json_node_get_array (opts)) : 0;

      for (guint j = 0; j < n; j++)
        if (node_string (json_array_get_element (json_node_get_array (opts), j)) != NULL)
          g_strv_builder_add (sb, node_string (json_array_get_element (json_node_get_array (opts),
                                                                       j)));
      g_ptr_array_add (r->options, g_strv_builder_end (sb));
      if (g_strv_length (r->options->pdata[i]) == 0)
        return g_strdup_printf ("Question %u of the Protocol 1 request has no options.", i + 1);
      g_ptr_array_add (r->ids, g_strdup (node_string (path_get (q, "id", NULL)) ?: "answer"));
    }

  read_mode (r);
  read_flags (r);
  return NULL;
}

/* The model ----------------------------------------------------------------- */

/* FNV-1a: the request body, byte for byte, decides a random answer. */
static guint64
hash_bytes (GBytes *bytes, guint64 seed)
{
  gsize len;
  const guint8 *p = g_bytes_get_data (bytes, &len);
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  for (gsize i = 0; i < len; i++)
    h = (h ^ p[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  return komi_rehearsal_mix64 (h ^ komi_rehearsal_mix64 (seed));
}

static double
unit (guint64 x)
{
  return (komi_rehearsal_mix64 (x) >> 11) * 0x1.0p-53;
}

/* Log-probabilities of the options of question @q: a softmax over seeded
 * scores in which the chosen option is always the most likely. */
static double *
option_logprobs (const Request *r, guint q, guint n, guint chosen)
{
  double *lp = g_new (double, n), max = 0, sum = 0;

  for (guint i = 0; i < n; i++)
    {
      lp[i] = i == chosen ? 3.0 + 1.5 * unit (r->hash ^ (q * 7919 + 5))
                          : 3.0 * unit (r->hash ^ ((guint64) q << 32 | (i + 1)));
      max = MAX (max, lp[i]);
    }
  for (guint i = 0; i < n; i++)
    sum += exp (lp[i] - max);
  for (guint i = 0; i < n; i++)
    lp[i] = lp[i] - max - log (sum);
  return lp;
}

static void
add_token (Reply *a, const char *text, const Request *r, const char * const *options,
           const double *lp, guint chosen)
{
  Token *t = g_new0 (Token, 1);
  guint n = options != NULL ? g_strv_length ((GStrv) options) : 0;
  g_autofree guint *order = g_new (guint, MAX (n, 1));

  t->text = g_strdup (text);
  t->alt_text = g_ptr_array_new_with_free_func (g_free);
  t->alt_logprob = g_array_new (FALSE, FALSE, sizeof (double));
  /* Punctuation and member names are all but certain. */
  t->logprob = options != NULL ? (chosen < n ? lp[chosen] : log (0.5)) : -1.2e-6;
  if (options == NULL || chosen >= n)
    {
      g_ptr_array_add (t->alt_text, g_strdup (text));
      g_array_append_val (t->alt_logprob, t->logprob);
    }
  for (guint i = 0; i < n; i++)
    order[i] = i;
  for (guint i = 0; i < n; i++)  /* a few selection steps: only the top ones matter */
    for (guint j = i + 1; j < n && i < r->top_logprobs; j++)
      if (lp[order[j]] > lp[order[i]])
        {
          guint tmp = order[i];
          order[i] = order[j];
          order[j] = tmp;
        }
  for (guint i = 0; i < n && t->alt_text->len < r->top_logprobs; i++)
    {
      double v = lp[order[i]] + (chosen >= n ? log (0.5) : 0);

      g_ptr_array_add (t->alt_text, g_strdup (options[order[i]]));
      g_array_append_val (t->alt_logprob, v);
    }
  g_ptr_array_set_size (t->alt_text, MIN (t->alt_text->len, r->top_logprobs));
  g_array_set_size (t->alt_logprob, t->alt_text->len);
  g_string_append (a->text, text);
  g_ptr_array_add (a->tokens, t);
}

static void
add_literal (Reply *a, const Request *r, const char *text)
{
  add_token (a, text, r, NULL, NULL, 0);
}

/* Chooses an option per question by the policy and writes the text the
 * API returns, token by token. */
static void
reply_init (Reply *a, KomiRehearsal *self, const Request *r, KomiRehearsalFault fault)
{
  gboolean object = r->mode == MODE_JSON || r->mode == MODE_TOOL
                    || (r->mode == MODE_TEXT && r->ids->len > 1);

  a->text = g_string_new (NULL);
  a->tokens = g_ptr_array_new_with_free_func ((GDestroyNotify) token_free);
  a->answers = g_ptr_array_new_with_free_func (g_free);
  a->fault = fault;

  for (guint q = 0; q < r->ids->len; q++)
    {
      const char * const *opts = r->options->pdata[q];
      guint n = g_strv_length ((GStrv) opts);
      guint chosen = self->options.policy == KOMI_REHEARSAL_POLICY_FIRST
                     ? 0 : komi_rehearsal_mix64 (r->hash + q + 1) % n;
      g_autofree double *lp = option_logprobs (r, q, n, chosen);
      /* An invalid answer looks like an option but is none of them. */
      const char *answer = fault == KOMI_REHEARSAL_FAULT_INVALID
                           ? (strlen (opts[0]) <= 3 ? "Z9" : "resign") : opts[chosen];
      JsonNode *quoted = json_node_init_string (json_node_alloc (), answer);
      g_autofree char *json = json_to_string (quoted, FALSE);

      json_node_unref (quoted);
      if (object)
        {
          add_literal (a, r, q == 0 ? "{\"" : "\",\"");
          add_literal (a, r, r->ids->len > 1 ? r->ids->pdata[q] : r->property);
          add_literal (a, r, "\":\"");
        }
      else if (r->mode == MODE_JSON_STRING)
        add_literal (a, r, "\"");
      else if (q > 0)
        add_literal (a, r, "\n");
      json[strlen (json) - 1] = '\0';
      add_token (a, object || r->mode == MODE_JSON_STRING ? json + 1 : answer, r, opts, lp,
                 fault == KOMI_REHEARSAL_FAULT_INVALID ? n : chosen);
      g_ptr_array_add (a->answers, g_strdup (answer));
    }
  if (object)
    add_literal (a, r, "\"}");
  else if (r->mode == MODE_JSON_STRING)
    add_literal (a, r, "\"");

  if (fault == KOMI_REHEARSAL_FAULT_TRUNCATED)
    {
      /* Cut in the middle, on a token boundary, so the JSON is unfinished. */
      gsize keep = 0, half = a->text->len / 2;
      guint ntok = 0;

      while (ntok < a->tokens->len
             && keep + strlen (((Token *) a->tokens->pdata[ntok])->text) <= MAX (half, 1))
        keep += strlen (((Token *) a->tokens->pdata[ntok++])->text);
      g_ptr_array_set_size (a->tokens, ntok);
      g_string_truncate (a->text, keep);
    }
  g_ptr_array_add (a->answers, NULL);
  a->answer_log = fault == KOMI_REHEARSAL_FAULT_REFUSAL
                  ? g_strdup ("(refusal)")
                  : g_strjoinv (",", (GStrv) a->answers->pdata);
  if (fault == KOMI_REHEARSAL_FAULT_TRUNCATED)
    {
      g_autofree char *log = a->answer_log;
      a->answer_log = g_strdup_printf ("%s (truncated)", log);
    }
  g_ptr_array_set_size (a->answers, a->answers->len - 1);

  a->input_tokens = MAX (1, r->body_len / 4);
  a->output_tokens = a->text->len / 3 + 1 + (r->mode == MODE_TOOL ? 24 : 0);
  a->reasoning_tokens = r->reasoning ? 64 + r->hash % 448 : 0;
}

/* Replies in each API's shape ---------------------------------------------- */

#define REFUSAL_TEXT "I'm sorry, but I can't help with that."

static void
m_str (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
m_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
m_dbl (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

static void
m_bytes (JsonBuilder *b, const char *text)
{
  json_builder_set_member_name (b, "bytes");
  json_builder_begin_array (b);
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    json_builder_add_int_value (b, *p);
  json_builder_end_array (b);
}

/* OpenAI's token logprob objects, in Chat and Responses alike. */
static void
add_openai_logprobs (JsonBuilder *b, const Reply *a)
{
  json_builder_begin_array (b);
  for (guint i = 0; i < a->tokens->len; i++)
    {
      const Token *t = a->tokens->pdata[i];

      json_builder_begin_object (b);
      m_str (b, "token", t->text);
      m_dbl (b, "logprob", t->logprob);
      m_bytes (b, t->text);
      json_builder_set_member_name (b, "top_logprobs");
      json_builder_begin_array (b);
      for (guint k = 0; k < t->alt_text->len; k++)
        {
          json_builder_begin_object (b);
          m_str (b, "token", t->alt_text->pdata[k]);
          m_dbl (b, "logprob", g_array_index (t->alt_logprob, double, k));
          m_bytes (b, t->alt_text->pdata[k]);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
build_chat (JsonBuilder *b, const Request *r, const Reply *a, const char *id, const char *version)
{
  gboolean refused = a->fault == KOMI_REHEARSAL_FAULT_REFUSAL;
  g_autofree char *fp = g_strdup_printf ("fp_%08" G_GINT64_MODIFIER "x", r->hash >> 36);

  m_str (b, "id", id);
  m_str (b, "object", "chat.completion");
  m_int (b, "created", g_get_real_time () / G_USEC_PER_SEC);
  m_str (b, "model", version);
  json_builder_set_member_name (b, "choices");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  m_int (b, "index", 0);
  json_builder_set_member_name (b, "message");
  json_builder_begin_object (b);
  m_str (b, "role", "assistant");
  m_str (b, "content", refused ? NULL : a->text->str);
  m_str (b, "refusal", refused ? REFUSAL_TEXT : NULL);
  json_builder_set_member_name (b, "annotations");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "logprobs");
  if (r->logprobs && !refused)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "content");
      add_openai_logprobs (b, a);
      m_str (b, "refusal", NULL);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  m_str (b, "finish_reason", a->fault == KOMI_REHEARSAL_FAULT_TRUNCATED ? "length" : "stop");
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "usage");
  json_builder_begin_object (b);
  m_int (b, "prompt_tokens", a->input_tokens);
  m_int (b, "completion_tokens", a->output_tokens + a->reasoning_tokens);
  m_int (b, "total_tokens", a->input_tokens + a->output_tokens + a->reasoning_tokens);
  json_builder_set_member_name (b, "prompt_tokens_details");
  json_builder_begin_object (b);
  m_int (b, "cached_tokens", 0);
  m_int (b, "audio_tokens", 0);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "completion_tokens_details");
  json_builder_begin_object (b);
  m_int (b, "reasoning_tokens", a->reasoning_tokens);
  m_int (b, "audio_tokens", 0);
  m_int (b, "accepted_prediction_tokens", 0);
  m_int (b, "rejected_prediction_tokens", 0);
  json_builder_end_object (b);
  json_builder_end_object (b);
  m_str (b, "service_tier", "default");
  m_str (b, "system_fingerprint", fp);
}

static void
build_responses (JsonBuilder *b, const Request *r, const Reply *a, const char *id,
                 const char *version)
{
  gboolean cut = a->fault == KOMI_REHEARSAL_FAULT_TRUNCATED;
  g_autofree char *msg_id = g_strdup_printf ("msg_%s", id + 5);
  g_autofree char *rs_id = g_strdup_printf ("rs_%s", id + 5);

  m_str (b, "id", id);
  m_str (b, "object", "response");
  m_int (b, "created_at", g_get_real_time () / G_USEC_PER_SEC);
  m_str (b, "status", cut ? "incomplete" : "completed");
  m_str (b, "error", NULL);
  json_builder_set_member_name (b, "incomplete_details");
  if (cut)
    {
      json_builder_begin_object (b);
      m_str (b, "reason", "max_output_tokens");
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  m_str (b, "model", version);
  json_builder_set_member_name (b, "output");
  json_builder_begin_array (b);
  if (r->reasoning)
    {
      json_builder_begin_object (b);
      m_str (b, "id", rs_id);
      m_str (b, "type", "reasoning");
      json_builder_set_member_name (b, "summary");
      json_builder_begin_array (b);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_begin_object (b);
  m_str (b, "id", msg_id);
  m_str (b, "type", "message");
  m_str (b, "status", cut ? "incomplete" : "completed");
  m_str (b, "role", "assistant");
  json_builder_set_member_name (b, "content");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  if (a->fault == KOMI_REHEARSAL_FAULT_REFUSAL)
    {
      m_str (b, "type", "refusal");
      m_str (b, "refusal", REFUSAL_TEXT);
    }
  else
    {
      m_str (b, "type", "output_text");
      m_str (b, "text", a->text->str);
      json_builder_set_member_name (b, "annotations");
      json_builder_begin_array (b);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "logprobs");
      if (r->logprobs)
        add_openai_logprobs (b, a);
      else
        {
          json_builder_begin_array (b);
          json_builder_end_array (b);
        }
    }
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "usage");
  json_builder_begin_object (b);
  m_int (b, "input_tokens", a->input_tokens);
  json_builder_set_member_name (b, "input_tokens_details");
  json_builder_begin_object (b);
  m_int (b, "cached_tokens", 0);
  json_builder_end_object (b);
  m_int (b, "output_tokens", a->output_tokens + a->reasoning_tokens);
  json_builder_set_member_name (b, "output_tokens_details");
  json_builder_begin_object (b);
  m_int (b, "reasoning_tokens", a->reasoning_tokens);
  json_builder_end_object (b);
  m_int (b, "total_tokens", a->input_tokens + a->output_tokens + a->reasoning_tokens);
  json_builder_end_object (b);
}

static void
build_anthropic (JsonBuilder *b, const Request *r, const Reply *a, const char *id,
                 const char *version)
{
  gboolean refused = a->fault == KOMI_REHEARSAL_FAULT_REFUSAL;
  gboolean cut = a->fault == KOMI_REHEARSAL_FAULT_TRUNCATED;
  g_autofree char *tool_id = g_strdup_printf ("toolu_%s", id + 4);

  m_str (b, "id", id);
  m_str (b, "type", "message");
  m_str (b, "role", "assistant");
  m_str (b, "model", version);
  json_builder_set_member_name (b, "content");
  json_builder_begin_array (b);
  if (r->reasoning && !refused)
    {
      json_builder_begin_object (b);
      m_str (b, "type", "thinking");
      m_str (b, "thinking", "The rules are given; I pick one of the options.");
      m_str (b, "signature", id);
      json_builder_end_object (b);
    }
  if (r->mode == MODE_TOOL && !refused)
    {
      json_builder_begin_object (b);
      m_str (b, "type", "tool_use");
      m_str (b, "id", tool_id);
      m_str (b, "name", r->tool_name);
      json_builder_set_member_name (b, "input");
      json_builder_begin_object (b);
      /* max_tokens can cut a tool input; it then arrives empty here. */
      for (guint q = 0; q < a->answers->len && !cut; q++)
        m_str (b, r->ids->len > 1 ? r->ids->pdata[q] : r->property, a->answers->pdata[q]);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  else if (!refused)
    {
      json_builder_begin_object (b);
      m_str (b, "type", "text");
      m_str (b, "text", a->text->str);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  m_str (b, "stop_reason", refused ? "refusal" : cut ? "max_tokens"
                           : r->mode == MODE_TOOL ? "tool_use" : "end_turn");
  m_str (b, "stop_sequence", NULL);
  if (refused)
    {
      json_builder_set_member_name (b, "stop_details");
      json_builder_begin_object (b);
      m_str (b, "type", "refusal");
      m_str (b, "category", "general_harms");
      m_str (b, "explanation", NULL);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "usage");
  json_builder_begin_object (b);
  m_int (b, "input_tokens", a->input_tokens);
  m_int (b, "cache_creation_input_tokens", 0);
  m_int (b, "cache_read_input_tokens", 0);
  m_int (b, "output_tokens", a->output_tokens + a->reasoning_tokens);
  m_str (b, "service_tier", "standard");
  json_builder_end_object (b);
}

static void
gemini_candidate (JsonBuilder *b, const char *token, double logprob)
{
  json_builder_begin_object (b);
  m_str (b, "token", token);
  m_int (b, "tokenId", komi_rehearsal_mix64 (g_str_hash (token)) % 256000);
  m_dbl (b, "logProbability", logprob);
  json_builder_end_object (b);
}

static void
build_gemini (JsonBuilder *b, const Request *r, const Reply *a, const char *id,
              const char *version)
{
  gboolean refused = a->fault == KOMI_REHEARSAL_FAULT_REFUSAL;
  double sum = 0;

  json_builder_set_member_name (b, "candidates");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  if (!refused)
    {
      json_builder_set_member_name (b, "content");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "parts");
      json_builder_begin_array (b);
      json_builder_begin_object (b);
      m_str (b, "text", a->text->str);
      json_builder_end_object (b);
      json_builder_end_array (b);
      m_str (b, "role", "model");
      json_builder_end_object (b);
    }
  m_str (b, "finishReason", refused ? "SAFETY"
                            : a->fault == KOMI_REHEARSAL_FAULT_TRUNCATED ? "MAX_TOKENS" : "STOP");
  if (refused)
    {
      json_builder_set_member_name (b, "safetyRatings");
      json_builder_begin_array (b);
      json_builder_begin_object (b);
      m_str (b, "category", "HARM_CATEGORY_DANGEROUS_CONTENT");
      m_str (b, "probability", "HIGH");
      json_builder_set_member_name (b, "blocked");
      json_builder_add_boolean_value (b, TRUE);
      json_builder_end_object (b);
      json_builder_end_array (b);
    }
  m_int (b, "index", 0);
  if (r->logprobs && !refused)
    {
      json_builder_set_member_name (b, "logprobsResult");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "topCandidates");
      json_builder_begin_array (b);
      for (guint i = 0; i < a->tokens->len; i++)
        {
          const Token *t = a->tokens->pdata[i];

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "candidates");
          json_builder_begin_array (b);
          for (guint k = 0; k < t->alt_text->len; k++)
            gemini_candidate (b, t->alt_text->pdata[k], g_array_index (t->alt_logprob, double, k));
          json_builder_end_array (b);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "chosenCandidates");
      json_builder_begin_array (b);
      for (guint i = 0; i < a->tokens->len; i++)
        {
          const Token *t = a->tokens->pdata[i];

          gemini_candidate (b, t->text, t->logprob);
          sum += t->logprob;
        }
      json_builder_end_array (b);
      m_dbl (b, "logProbabilitySum", sum);
      json_builder_end_object (b);
      m_dbl (b, "avgLogprobs", sum / MAX (a->tokens->len, 1));
    }
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "usageMetadata");
  json_builder_begin_object (b);
  m_int (b, "promptTokenCount", a->input_tokens);
  if (!refused)
    m_int (b, "candidatesTokenCount", a->output_tokens);
  if (r->reasoning)
    m_int (b, "thoughtsTokenCount", a->reasoning_tokens);
  m_int (b, "totalTokenCount", a->input_tokens + a->reasoning_tokens
                               + (refused ? 0 : a->output_tokens));
  json_builder_end_object (b);
  m_str (b, "modelVersion", version);
  m_str (b, "responseId", id);
}

/* The model id a provider would answer with: a pinned snapshot. */
static char *
model_version (const char *model, KomiRehearsalApi api)
{
  static const char * const suffix[] = { "-2026-01-01", "-2026-01-01", "-20260101", "-001" };

  if (g_regex_match_simple ("-(\\d{4}-\\d\\d-\\d\\d|\\d{8}|\\d{3})$", model, 0, 0))
    return g_strdup (model);
  return g_strconcat (model, suffix[api], NULL);
}

static char *
make_id (const char *prefix, guint64 x, guint length)
{
  static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  GString *s = g_string_new (prefix);

  for (guint i = 0; i < length; i++)
    g_string_append_c (s, alphabet[(x = komi_rehearsal_mix64 (x)) % (sizeof alphabet - 1)]);
  return g_string_free (s, FALSE);
}

/* The whole 200 reply; a "malformed" fault cuts it in the middle. */
static void
reply_answer (SoupServerMessage *msg, const Request *r, const Reply *a, guint64 ordinal)
{
  static const char * const prefixes[] = { "chatcmpl-", "resp_", "msg_01", "" };
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *version = model_version (r->model, r->api);
  g_autofree char *id = make_id (prefixes[r->api], r->hash ^ ordinal,
                                 r->api == KOMI_REHEARSAL_API_RESPONSES ? 48 : 22);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  char *body;
  gsize len;

  json_builder_begin_object (b);
  if (r->api == KOMI_REHEARSAL_API_CHAT)
    build_chat (b, r, a, id, version);
  else if (r->api == KOMI_REHEARSAL_API_RESPONSES)
    build_responses (b, r, a, id, version);
  else if (r->api == KOMI_REHEARSAL_API_ANTHROPIC)
    {
      g_autofree char *request_id = make_id ("req_011C", r->hash ^ ~ordinal, 18);

      build_anthropic (b, r, a, id, version);
      soup_message_headers_replace (headers, "request-id", request_id);
      soup_message_headers_replace (headers, "anthropic-organization-id",
                                    "00000000-0000-4000-8000-00000000c0de");
    }
  else
    build_gemini (b, r, a, id, version);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  body = json_to_string (root, FALSE);
  len = strlen (body);
  if (a->fault == KOMI_REHEARSAL_FAULT_MALFORMED)
    body[len /= 2] = '\0';
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, r->api == KOMI_REHEARSAL_API_GEMINI
                                    ? "application/json; charset=UTF-8" : "application/json",
                                    SOUP_MEMORY_TAKE, body, len);
}

/* The server --------------------------------------------------------------- */

/* A delayed reply (a paused message) or a held "timeout" (a stolen
 * connection, closed when the hold ends or the server stops). */
typedef struct
{
  KomiRehearsal     *self;
  SoupServerMessage *msg;
  GIOStream         *stream;
  GSource           *source;
} Hold;

static void
end_flight (KomiRehearsal *self, SoupServerMessage *msg)
{
  /* Once per message: "finished" and a closed held connection both end it. */
  if (g_object_get_data (G_OBJECT (msg), "komi-in-flight") == NULL)
    return;
  g_object_set_data (G_OBJECT (msg), "komi-in-flight", NULL);
  g_mutex_lock (&self->mutex);
  self->in_flight--;
  g_mutex_unlock (&self->mutex);
}

static void
on_finished (SoupServerMessage *msg, gpointer data)
{
  end_flight (data, msg);
}

static void
hold_free (Hold *h)
{
  if (h->stream != NULL)
    {
      g_io_stream_close (h->stream, NULL, NULL);
      g_object_unref (h->stream);
      end_flight (h->self, h->msg);
    }
  g_object_unref (h->msg);
  g_free (h);
}

static gboolean
hold_done (gpointer data)
{
  Hold *h = data;

  if (h->stream == NULL)
    soup_server_message_unpause (h->msg);
  g_hash_table_remove (h->self->holds, h->source);
  return G_SOURCE_REMOVE;
}

static void
hold (KomiRehearsal *self, SoupServerMessage *msg, GIOStream *stream, guint ms)
{
  Hold *h = g_new0 (Hold, 1);

  h->self = self;
  h->msg = g_object_ref (msg);
  h->stream = stream;
  if (stream == NULL)
    soup_server_message_pause (msg);
  h->source = g_timeout_source_new (ms);
  g_source_set_callback (h->source, hold_done, h, (GDestroyNotify) hold_free);
  g_hash_table_add (self->holds, h->source);
  g_source_attach (h->source, self->context);
  g_source_unref (h->source);
}

static gboolean
route (const char *path, KomiRehearsalApi *api, char **model)
{
  static const char prefix[] = "/v1beta/models/", suffix[] = ":generateContent";

  if (g_str_equal (path, "/v1/chat/completions"))
    *api = KOMI_REHEARSAL_API_CHAT;
  else if (g_str_equal (path, "/v1/responses"))
    *api = KOMI_REHEARSAL_API_RESPONSES;
  else if (g_str_equal (path, "/v1/messages"))
    *api = KOMI_REHEARSAL_API_ANTHROPIC;
  else if (g_str_has_prefix (path, prefix) && g_str_has_suffix (path, suffix)
           && strlen (path) > strlen (prefix) + strlen (suffix))
    {
      *api = KOMI_REHEARSAL_API_GEMINI;
      *model = g_strndup (path + strlen (prefix), strlen (path) - strlen (prefix) - strlen (suffix));
    }
  else
    return FALSE;
  return TRUE;
}

/* Checks the key where @api carries it; @shown gets the wrong key as an
 * API would echo it (mostly masked), NULL when none was sent. */
static gboolean
key_ok (KomiRehearsal *self, SoupServerMessage *msg, KomiRehearsalApi api, GHashTable *query,
        char **shown)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *given = NULL, *auth;

  if (api == KOMI_REHEARSAL_API_ANTHROPIC)
    given = soup_message_headers_get_one (headers, "x-api-key");
  else if (api == KOMI_REHEARSAL_API_GEMINI)
    given = soup_message_headers_get_one (headers, "x-goog-api-key")
            ?: (query != NULL ? g_hash_table_lookup (query, "key") : NULL);
  else if ((auth = soup_message_headers_get_one (headers, "Authorization")) != NULL
           && g_str_has_prefix (auth, "Bearer "))
    given = auth + strlen ("Bearer ");

  if (g_strcmp0 (given, self->options.api_key) == 0)
    return TRUE;
  if (given != NULL)
    *shown = strlen (given) > 8 ? g_strdup_printf ("%.3s***%s", given, given + strlen (given) - 4)
                                : g_strdup ("***");
  return FALSE;
}

static guint64
begin_flight (KomiRehearsal *self, SoupServerMessage *msg, const char *path, GBytes *body,
              gboolean counted)
{
  guint64 ordinal = 0;
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

  g_object_set_data (G_OBJECT (msg), "komi-in-flight", GINT_TO_POINTER (1));
  g_signal_connect (msg, "finished", G_CALLBACK (on_finished), self);
  g_mutex_lock (&self->mutex);
  self->in_flight++;
  self->max_in_flight = MAX (self->max_in_flight, self->in_flight);
  self->total++;
  g_hash_table_insert (self->counts, g_strdup (path),
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->counts,
                                                                                path)) + 1));
  g_free (self->last_body);
  self->last_body = g_strndup (data != NULL ? data : "", len);
  if (counted)
    ordinal = ++self->ordinal;
  g_mutex_unlock (&self->mutex);
  return ordinal;
}

static void
handle_request (SoupServer *server, SoupServerMessage *msg, const char *path, GHashTable *query,
                gpointer data)
{
  KomiRehearsal *self = data;
  g_autoptr(GBytes) body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  const char *method = soup_server_message_get_method (msg);
  KomiRehearsalEvent event = { 0, method, path, 0, NULL, KOMI_REHEARSAL_FAULT_NONE };
  KomiRehearsalApi api = KOMI_REHEARSAL_API_CHAT;
  g_autofree char *model = NULL, *shown = NULL, *problem = NULL;
  gboolean known = route (path, &api, &model) && g_str_equal (method, "POST");
  Request r = { 0, };
  Reply a = { 0, };
  KomiRehearsalFault fault;

  event.ordinal = begin_flight (self, msg, path, body, known);
  fault = komi_rehearsal_faults_pick (self->faults, self->options.seed, event.ordinal);

  if (!known)
    {
      g_autofree char *what = g_strdup_printf ("%s %s", method, path);

      komi_rehearsal_reply_error (msg, g_str_has_prefix (path, "/v1beta/")
                                       ? KOMI_REHEARSAL_API_GEMINI : api,
                                  KOMI_REHEARSAL_REPLY_NOT_FOUND, what, 0);
    }
  else if (self->options.api_key != NULL && !key_ok (self, msg, api, query, &shown))
    komi_rehearsal_reply_error (msg, api, KOMI_REHEARSAL_REPLY_UNAUTHORIZED, shown, 0);
  else if (fault == KOMI_REHEARSAL_FAULT_TIMEOUT)
    {
      event.fault = fault;
      hold (self, msg, soup_server_message_steal_connection (msg), self->options.timeout_hold_ms);
      if (self->options.log_func != NULL)
        self->options.log_func (&event, self->options.log_data);
      return;
    }
  else if (fault >= KOMI_REHEARSAL_FAULT_RATE_LIMIT && fault <= KOMI_REHEARSAL_FAULT_OVERLOADED)
    {
      event.fault = fault;
      komi_rehearsal_reply_error (msg, api, fault == KOMI_REHEARSAL_FAULT_RATE_LIMIT
                                            ? KOMI_REHEARSAL_REPLY_RATE_LIMIT
                                            : fault == KOMI_REHEARSAL_FAULT_SERVER_ERROR
                                            ? KOMI_REHEARSAL_REPLY_SERVER_ERROR
                                            : KOMI_REHEARSAL_REPLY_OVERLOADED,
                                  NULL, self->options.retry_after_ms);
    }
  else if ((problem = request_parse (&r, api, model, body)) != NULL)
    komi_rehearsal_reply_error (msg, api, KOMI_REHEARSAL_REPLY_BAD_REQUEST, problem, 0);
  else
    {
      event.fault = fault;
      r.hash = hash_bytes (body, self->options.seed);
      reply_init (&a, self, &r, fault);
      reply_answer (msg, &r, &a, event.ordinal);
      event.answer = a.answer_log;
    }

  event.status = soup_server_message_get_status (msg);
  if (self->options.latency_ms > 0)
    hold (self, msg, NULL, self->options.latency_ms);
  if (self->options.log_func != NULL)
    self->options.log_func (&event, self->options.log_data);
  if (a.text != NULL)
    reply_clear (&a);
  request_clear (&r);
}

/* Runs on the server thread: drops what is held, closes every connection. */
static gboolean
stop_in_thread (gpointer data)
{
  KomiRehearsal *self = data;
  GList *sources = g_hash_table_get_keys (self->holds);

  g_hash_table_steal_all (self->holds);
  for (GList *l = sources; l != NULL; l = l->next)
    g_source_destroy (l->data);
  g_list_free (sources);
  soup_server_disconnect (self->server);
  g_main_loop_quit (self->loop);
  return G_SOURCE_REMOVE;
}

static gpointer
server_thread (gpointer data)
{
  KomiRehearsal *self = data;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_main_context_push_thread_default (self->context);
  self->server = soup_server_new ("server-header", "komi-rehearsal ", NULL);
  soup_server_add_handler (self->server, NULL, handle_request, self, NULL);
  ok = soup_server_listen_local (self->server, self->options.port,
                                 SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_mutex_lock (&self->mutex);
  if (ok)
    {
      GSList *uris = soup_server_get_uris (self->server);

      self->port = g_uri_get_port (uris->data);
      self->base_url = g_strdup_printf ("http://127.0.0.1:%u", self->port);
      g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
    self->start_error = g_error_new (KOMI_REHEARSAL_ERROR, KOMI_REHEARSAL_ERROR_LISTEN,
                                     "port %u on 127.0.0.1 is in use: choose another port, "
                                     "or 0 for any free one", self->options.port);
  else
    self->start_error = g_error_new (KOMI_REHEARSAL_ERROR, KOMI_REHEARSAL_ERROR_LISTEN,
                                     "cannot listen on 127.0.0.1:%u: %s",
                                     self->options.port, error->message);
  self->started = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);

  if (ok)
    g_main_loop_run (self->loop);
  g_clear_object (&self->server);
  /* Closing connections finishes in idle callbacks; let them run. */
  while (g_main_context_iteration (self->context, FALSE))
    ;
  g_main_context_pop_thread_default (self->context);
  return NULL;
}

static void
komi_rehearsal_finalize (GObject *object)
{
  KomiRehearsal *self = KOMI_REHEARSAL (object);

  if (self->thread != NULL)
    {
      if (self->base_url != NULL)
        {
          /* Not g_main_context_invoke(): it could run here, before the loop runs. */
          GSource *idle = g_idle_source_new ();

          g_source_set_callback (idle, stop_in_thread, self, NULL);
          g_source_attach (idle, self->context);
          g_source_unref (idle);
        }
      g_thread_join (self->thread);
    }
  g_clear_pointer (&self->loop, g_main_loop_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->faults, komi_rehearsal_faults_free);
  g_clear_pointer (&self->holds, g_hash_table_unref);
  g_clear_pointer (&self->counts, g_hash_table_unref);
  g_clear_error (&self->start_error);
  g_free ((char *) self->options.faults);
  g_free ((char *) self->options.api_key);
  g_free (self->base_url);
  g_free (self->last_body);
  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (komi_rehearsal_parent_class)->finalize (object);
}

static void
komi_rehearsal_class_init (KomiRehearsalClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = komi_rehearsal_finalize;
}

static void
komi_rehearsal_init (KomiRehearsal *self)
{
  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  self->holds = g_hash_table_new (NULL, NULL);
  self->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

KomiRehearsal *
komi_rehearsal_new (const KomiRehearsalOptions *options, GError **error)
{
  static const KomiRehearsalOptions defaults = { 0, };
  g_autoptr(KomiRehearsal) self = NULL;
  g_autoptr(KomiRehearsalFaults) faults = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  options = options != NULL ? options : &defaults;
  if ((faults = komi_rehearsal_faults_parse (options->faults, error)) == NULL)
    return NULL;

  self = g_object_new (KOMI_TYPE_REHEARSAL, NULL);
  self->options = *options;
  self->options.faults = g_strdup (options->faults);
  self->options.api_key = g_strdup (options->api_key);
  if (self->options.retry_after_ms == 0)
    self->options.retry_after_ms = DEFAULT_RETRY_AFTER_MS;
  if (self->options.timeout_hold_ms == 0)
    self->options.timeout_hold_ms = DEFAULT_HOLD_MS;
  self->faults = g_steal_pointer (&faults);
  self->context = g_main_context_new ();
  self->loop = g_main_loop_new (self->context, FALSE);
  self->thread = g_thread_new ("komi-rehearsal", server_thread, self);

  g_mutex_lock (&self->mutex);
  while (!self->started)
    g_cond_wait (&self->cond, &self->mutex);
  g_mutex_unlock (&self->mutex);
  if (self->start_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->start_error));
      return NULL;
    }
  return g_steal_pointer (&self);
}

const char *
komi_rehearsal_get_base_url (KomiRehearsal *self)
{
  g_return_val_if_fail (KOMI_IS_REHEARSAL (self), NULL);
  return self->base_url;
}

guint
komi_rehearsal_get_port (KomiRehearsal *self)
{
  g_return_val_if_fail (KOMI_IS_REHEARSAL (self), 0);
  return self->port;
}

guint
komi_rehearsal_get_request_count (KomiRehearsal *self, const char *path)
{
  guint n;

  g_return_val_if_fail (KOMI_IS_REHEARSAL (self), 0);
  g_mutex_lock (&self->mutex);
  n = path == NULL ? self->total : GPOINTER_TO_UINT (g_hash_table_lookup (self->counts, path));
  g_mutex_unlock (&self->mutex);
  return n;
}

guint
komi_rehearsal_get_max_in_flight (KomiRehearsal *self)
{
  guint n;

  g_return_val_if_fail (KOMI_IS_REHEARSAL (self), 0);
  g_mutex_lock (&self->mutex);
  n = self->max_in_flight;
  g_mutex_unlock (&self->mutex);
  return n;
}

char *
komi_rehearsal_dup_last_request_body (KomiRehearsal *self)
{
  char *body;

  g_return_val_if_fail (KOMI_IS_REHEARSAL (self), NULL);
  g_mutex_lock (&self->mutex);
  body = g_strdup (self->last_body);
  g_mutex_unlock (&self->mutex);
  return body;
}

void
komi_rehearsal_reset_counters (KomiRehearsal *self)
{
  g_return_if_fail (KOMI_IS_REHEARSAL (self));
  g_mutex_lock (&self->mutex);
  g_hash_table_remove_all (self->counts);
  self->total = 0;
  self->max_in_flight = self->in_flight;
  self->ordinal = 0;
  g_clear_pointer (&self->last_body, g_free);
  g_mutex_unlock (&self->mutex);
}
