/* komi-review-calls.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "komi-record-text.h"
#include "komi-review-calls.h"
#include "komi-untrusted.h"

/* Longer texts with line breaks are written out below the JSON: the
 * protocol's state and questions are JSON in a string, unreadable with
 * every newline escaped. */
#define LONG_TEXT 160
#define RULES_MARK N_("[the rules text of the protocol, shown above]")

static void
fold_strings (JsonNode *node, const char *rules, GPtrArray *texts)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member))
        fold_strings (member, rules, texts);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        fold_strings (json_array_get_element (array, i), rules, texts);
    }
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *text = json_node_get_string (node);

      if (rules != NULL && *rules != '\0' && strstr (text, rules) != NULL)
        json_node_set_string (node, _(RULES_MARK));
      else if (strlen (text) > LONG_TEXT && strchr (text, '\n') != NULL)
        {
          g_autofree char *mark = g_strdup_printf (_("[text %u, below]"), texts->len + 1);

          g_ptr_array_add (texts, g_strdup (text));
          json_node_set_string (node, mark);
        }
    }
}

char *
komi_review_format_request (const char *body,
                            const char *rules)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  GString *out;

  if (body == NULL)
    return g_strdup (_("(no request recorded)"));
  /* A foreign library's record may hold anything: parsed bounded. */
  if ((root = komi_untrusted_parse_json (body, -1)) == NULL)
    return komi_untrusted_valid_utf8 (body, -1);   /* not JSON: as it was sent */
  fold_strings (root, rules, texts);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  json = json_generator_to_data (generator, NULL);
  out = g_string_new (json);
  for (guint i = 0; i < texts->len; i++)
    g_string_append_printf (out, _("\n\ntext %u:\n%s"), i + 1, (char *) texts->pdata[i]);
  return g_string_free (out, FALSE);
}

/* Single quotes for the shell: nothing inside is expanded. */
static void
append_quoted (GString *out, const char *text)
{
  g_string_append_c (out, '\'');
  for (const char *c = text; *c != '\0'; c++)
    if (*c == '\'')
      g_string_append (out, "'\\''");
    else
      g_string_append_c (out, *c);
  g_string_append_c (out, '\'');
}

const char *
komi_review_key_variable (const char *api,
                          const char *key_env)
{
  if (key_env != NULL && *key_env != '\0')
    return key_env;
  if (api != NULL && g_str_has_prefix (api, "openai"))
    return "OPENAI_API_KEY";
  if (g_strcmp0 (api, "anthropic") == 0)
    return "ANTHROPIC_API_KEY";
  if (g_strcmp0 (api, "gemini") == 0)
    return "GEMINI_API_KEY";
  return "API_KEY";
}

/* Whether the request carried a key: a redacted header, or one in the
 * query string. */
static gboolean
sends_key (const KomiStoreCall *call)
{
  return (call->request_headers != NULL && strstr (call->request_headers, "[redacted]") != NULL)
         || (call->request_url != NULL && strstr (call->request_url, "key=") != NULL);
}

char *
komi_review_curl_note (const KomiStoreCall  *call,
                       const char           *api,
                       const char           *key_env)
{
  const char *var = komi_review_key_variable (api, key_env);

  if (!sends_key (call))
    return g_strdup (_("Copied; the request was sent without a key, and so is the command"));
  if (key_env == NULL || *key_env == '\0')
    /* TRANSLATORS: %s is an environment variable, e.g. OPENAI_API_KEY. */
    return g_strdup_printf (_("Copied; it reads the key from $%s, the usual variable of this "
                              "API (the profile names none): set it before running it"), var);
  return g_strdup_printf (_("Copied; it reads the key from $%s"), var);
}

char *
komi_review_call_to_curl (const KomiStoreCall  *call,
                          const char           *api,
                          const char           *key_env)
{
  g_autoptr(JsonNode) headers = komi_untrusted_parse_json (call->request_headers, -1);
  const char *var = komi_review_key_variable (api, key_env);
  g_autofree char *url = g_strdup (call->request_url != NULL ? call->request_url : "");
  gboolean has_type = FALSE;
  GString *out = g_string_new ("curl -sS -X POST ");
  char *query_key;

  /* A key in the query string (older Gemini examples) is cut off too. */
  if ((query_key = strstr (url, "key=")) != NULL)
    query_key[4] = '\0';
  g_string_append_c (out, '"');
  for (const char *c = url; *c != '\0'; c++)
    {
      if (strchr ("\"\\$`", *c) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *c);
    }
  if (query_key != NULL)
    g_string_append_printf (out, "${%s}", var);
  g_string_append_c (out, '"');

  if (headers != NULL && JSON_NODE_HOLDS_OBJECT (headers))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, json_node_get_object (headers));
      while (json_object_iter_next (&iter, &name, &value))
        {
          const char *text = JSON_NODE_HOLDS_VALUE (value) ? json_node_get_string (value) : NULL;

          if (text == NULL)
            continue;
          has_type |= g_ascii_strcasecmp (name, "content-type") == 0;
          g_string_append (out, " \\\n  -H ");
          if (g_str_equal (text, "[redacted]"))
            /* Double quotes: the shell puts the key in when the command
             * runs; the text holds its name only. */
            g_string_append_printf (out, "\"%s: %s${%s}\"", name,
                                    g_ascii_strcasecmp (name, "authorization") == 0
                                    ? "Bearer " : "", var);
          else
            {
              g_autofree char *header = g_strdup_printf ("%s: %s", name, text);

              append_quoted (out, header);
            }
        }
    }
  if (!has_type)
    g_string_append (out, " \\\n  -H 'Content-Type: application/json'");
  g_string_append (out, " \\\n  --data-binary ");
  append_quoted (out, call->request_body != NULL ? call->request_body : "");
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

static void
copy_whole (GtkButton *button, gpointer data)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)),
                          g_object_get_data (G_OBJECT (button), "komi-text"));
  gtk_button_set_label (button, _("Copied"));
}

static GtkWidget *label (const char *text, const char *css_class);

/* A text view lays out a long line whole: a raw response of megabytes
 * froze the window for seconds. Longer texts show their start, and the
 * whole is one click away on the clipboard. */
static GtkWidget *
text_block (const char *text)
{
  GtkWidget *view = gtk_text_view_new ();
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  g_autofree char *head = komi_untrusted_head (text, KOMI_REVIEW_TEXT_SHOWN);
  GtkTextIter start, end;

  gtk_text_buffer_set_text (buffer, head != NULL ? head : text, -1);
  /* A long JSON string breaks between any two characters, and Pango would
   * put a hyphen at each break: one that is not in the text. */
  gtk_text_buffer_create_tag (buffer, "no-hyphens", "insert-hyphens", FALSE, NULL);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_apply_tag_by_name (buffer, "no-hyphens", &start, &end);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_CHAR);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 4);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 4);
  gtk_widget_add_css_class (view, "call-text");
  if (head != NULL)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *copy = gtk_button_new_with_label (_("Copy All"));
      g_autofree char *shown = g_format_size (strlen (head));
      g_autofree char *whole = g_format_size (strlen (text));
      /* TRANSLATORS: sizes, "64.0 kB" and "3.2 MB". */
      g_autofree char *note = g_strdup_printf (_("The first %s of %s are shown."), shown, whole);
      GtkWidget *caption = label (note, "caption");

      gtk_widget_set_hexpand (caption, TRUE);
      gtk_widget_add_css_class (caption, "call-text-cut");
      g_object_set_data_full (G_OBJECT (copy), "komi-text", g_strdup (text), g_free);
      g_signal_connect (copy, "clicked", G_CALLBACK (copy_whole), NULL);
      gtk_widget_set_valign (copy, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), view);
      gtk_box_append (GTK_BOX (row), caption);
      gtk_box_append (GTK_BOX (row), copy);
      gtk_box_append (GTK_BOX (box), row);
      return box;
    }
  return view;
}

static GtkWidget *
expander (const char *title, GtkWidget *child)
{
  GtkWidget *e = gtk_expander_new (title);

  gtk_expander_set_child (GTK_EXPANDER (e), child);
  return e;
}

static GtkWidget *
label (const char *text, const char *css_class)
{
  /* Names and errors may come from a foreign library: Pango takes UTF-8. */
  g_autofree char *valid = komi_untrusted_valid_utf8 (text, -1);
  GtkWidget *l = gtk_label_new (valid);
  PangoAttrList *attrs = pango_attr_list_new ();

  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (l), PANGO_WRAP_WORD_CHAR);
  /* Breaks inside a word show no hyphen the text does not have. */
  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (GTK_LABEL (l), attrs);
  pango_attr_list_unref (attrs);
  gtk_label_set_selectable (GTK_LABEL (l), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (l, css_class);
  return l;
}

/* "ok" and "answer" are answers; anything else is what went wrong. */
static gboolean
outcome_is_answer (const char *outcome)
{
  return g_strcmp0 (outcome, "ok") == 0 || g_strcmp0 (outcome, "answer") == 0;
}

/* Whether the attempt's answer decided the move, as the record says: a
 * reader never has to guess which of two answers counted. */
static GtkWidget *
decided_label (const KomiStoreCall *call)
{
  GtkWidget *l;
  const char *text;

  if (call->decided > 0)
    text = _("Decided the move");
  else if (call->decided == 0 && call->answer != NULL)
    text = _("Decided nothing: no move was made with this answer");
  else if (call->decided == 0)
    text = _("Decided nothing");
  else
    text = _("The move is not decided yet");
  l = label (text, "caption-heading");
  gtk_widget_add_css_class (l, "call-decided");
  gtk_widget_add_css_class (l, call->decided > 0 ? "success" : "dim-label");
  return l;
}

GtkWidget *
komi_review_call_widget (const KomiStoreCall  *call,
                         const char           *rules,
                         const char           *answer_shown)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button = gtk_button_new_with_label (_("Copy as curl"));
  g_autoptr(GString) facts = g_string_new (NULL);
  g_autofree char *title = NULL;
  g_autofree char *request = komi_review_format_request (call->request_body, rules);

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "call-attempt");
  g_object_set_data_full (G_OBJECT (box), "komi-outcome", g_strdup (call->outcome), g_free);
  g_object_set_data_full (G_OBJECT (box), "komi-question", g_strdup (call->question), g_free);
  g_object_set_data (G_OBJECT (box), "komi-call-id", GSIZE_TO_POINTER ((gsize) call->id));
  g_object_set_data (G_OBJECT (box), "komi-decided",
                     (gpointer) (call->decided > 0 ? "move" : call->decided == 0 ? "nothing"
                                                                                 : "open"));

  if (call->answer != NULL && answer_shown != NULL && g_strcmp0 (answer_shown, call->answer) != 0)
    /* TRANSLATORS: question, attempt, the answer as the model gave it, the
     * same point on the board as shown now. */
    title = g_strdup_printf (_("%s #%u: %s (%s on this board)"), call->question, call->attempt,
                             call->answer, answer_shown);
  else if (call->answer != NULL)
    title = g_strdup_printf (_("%s #%u: %s"), call->question, call->attempt, call->answer);
  else
    title = g_strdup_printf (_("%s #%u: no answer"), call->question, call->attempt);
  gtk_box_append (GTK_BOX (head), label (title, "heading"));
  gtk_widget_set_hexpand (gtk_widget_get_first_child (head), TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "review.copy-curl");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "x", call->id);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (head), button);
  gtk_box_append (GTK_BOX (box), head);
  gtk_box_append (GTK_BOX (box), decided_label (call));

  g_string_append_printf (facts, _("Outcome: %s"),
                          komi_record_text_outcome (call->outcome));
  if (call->response_status > 0)
    g_string_append_printf (facts, _(" · HTTP %d"), call->response_status);
  else
    g_string_append (facts, _(" · no response"));
  /* No response, no latency (recorded as unknown, not as a time). */
  if (call->latency_ms >= 0)
    g_string_append_printf (facts, _(" · %.0f ms"), call->latency_ms);
  if (call->tokens_input >= 0 && call->tokens_output >= 0)
    g_string_append_printf (facts, _(" · %" PRId64 " + %" PRId64 " tokens"),
                            call->tokens_input, call->tokens_output);
  if (call->tokens_reasoning > 0)
    g_string_append_printf (facts, _(" (%" PRId64 " reasoning)"),
                            call->tokens_reasoning);
  if (call->model_version != NULL)
    g_string_append_printf (facts, _(" · %s"), call->model_version);
  if (call->finish_reason != NULL)
    g_string_append_printf (facts, _(" · finish: %s"), call->finish_reason);
  gtk_box_append (GTK_BOX (box), label (facts->str, "caption"));
  if (call->error != NULL || !outcome_is_answer (call->outcome))
    gtk_box_append (GTK_BOX (box), label (call->error != NULL ? call->error
                                          : _("No reason was recorded."), "error"));

  if (strstr (request, _(RULES_MARK)) != NULL)
    gtk_box_append (GTK_BOX (box), expander (_("Rules text (the same in every request)"),
                                             text_block (rules)));
  gtk_box_append (GTK_BOX (box), expander (_("Request"), text_block (request)));
  if (call->response_body != NULL)
    {
      gsize length;
      const char *data = g_bytes_get_data (call->response_body, &length);
      g_autofree char *text = g_utf8_make_valid (data != NULL ? data : "", (gssize) length);

      gtk_box_append (GTK_BOX (box), expander (_("Raw response"), text_block (text)));
    }
  return box;
}
