/* test-app-review-calls.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "komi-app-test-util.h"
#include "komi-board.h"
#include "komi-coords.h"
#include "komi-review-calls.h"
#include "komi-store.h"
#include "komi-test-cli.h"
#include "test-app-review.h"

/* The call inspector of the review window, on test-app-review.c's
 * library: the board the model was shown is the one its request shows,
 * the inspector lists every attempt in order (a 429 and an invalid answer
 * injected), and Copy as curl gives a command that works and holds no
 * key. */

/* The recorded request of the model's best_point call at @turn, as JSON:
 * the protocol's state and questions (the user message of OpenAI Chat). */
static JsonObject *
request_state (const KomiStoreCall *call, JsonParser *parser)
{
  g_autoptr(JsonParser) outer = json_parser_new ();
  JsonArray *messages;
  const char *content;

  if (call == NULL)
    g_error ("no call");
  g_assert_true (json_parser_load_from_data (outer, call->request_body, -1, NULL));
  messages = json_object_get_array_member (json_node_get_object (json_parser_get_root (outer)),
                                           "messages");
  content = json_object_get_string_member (json_array_get_object_element (messages, 1),
                                           "content");
  g_assert_true (json_parser_load_from_data (parser, content, -1, NULL));
  return json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                        "state");
}

static void
test_as_the_model_saw_it (void)
{
  KomiReviewWindow *window = review_test_open (review_game_id);
  const KomiReview *review = komi_review_window_get_review (window);
  const KomiStoreGame *game = review->replay->game;
  const KomiBoardScene *scene;
  const KomiStoreCall *call = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *row = NULL;
  JsonArray *board;
  GtkDropDown *dropdown;
  KomiPoint real;
  char name[KOMI_NAME_LEN + 1];

  /* The library's seed gives a game turned; upright would prove little. */
  g_test_message ("the model saw the board %s", komi_orientation_to_string (game->orientation));
  g_assert_cmpint (game->orientation, !=, KOMI_ORIENTATION_IDENTITY);
  /* A model's game opens as the model saw it, and says so. */
  g_assert_cmpint (komi_review_window_get_orientation (window), ==, game->orientation);
  dropdown = GTK_DROP_DOWN (app_test_child (window, KOMI_TYPE_REVIEW_WINDOW,
                                            "orientation_dropdown"));
  g_assert_true (g_str_has_prefix (gtk_string_object_get_string (
                                     gtk_drop_down_get_selected_item (dropdown)),
                                   "As the model saw it"));

  /* The model's first point answered after a few moves. */
  for (guint i = 0; i < review->calls->len && call == NULL; i++)
    {
      const KomiStoreCall *c = review->calls->pdata[i];

      if (c->turn > 6 && g_strcmp0 (c->question, "best_point") == 0 && c->answer != NULL)
        call = c;
    }
  if (call == NULL)
    g_error ("the model answered no point after move 6");

  /* The board before that move, as the window shows it, is the request's
   * board text line by line. */
  komi_review_window_show_step (window, call->turn - 1);
  scene = komi_board_view_get_scene (komi_review_window_get_board_view (window));
  board = json_object_get_array_member (request_state (call, parser), "board");
  g_assert_cmpuint (json_array_get_length (board), ==, game->size + 1);
  for (guint y = 0; y < game->size; y++)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      g_string_append_printf (line, "%u", game->size - y);
      for (guint x = 0; x < game->size; x++)
        {
          KomiPoint shown = komi_point_from_xy (game->size, x, y);
          guint8 c = scene->colors[komi_board_scene_real_point (scene, shown)];

          g_string_append_printf (line, " %c", c == KOMI_BLACK ? 'X' : c == KOMI_WHITE ? 'O'
                                                                                     : '.');
        }
      g_assert_cmpstr (line->str, ==, json_array_get_string_element (board, y + 1));
    }

  /* The move list names the move as the model named it. */
  row = komi_review_window_dup_move_text (window, call->turn);
  g_assert_nonnull (strstr (row, call->answer));

  /* Upright, it is named by its real point. */
  komi_review_window_set_orientation (window, KOMI_ORIENTATION_IDENTITY);
  real = g_array_index (game->moves, KomiMove, call->turn - 1).point;
  komi_point_to_name (game->size, real, name);
  g_clear_pointer (&row, g_free);
  row = komi_review_window_dup_move_text (window, call->turn);
  g_assert_nonnull (strstr (row, name));

  /* o turns the board on through the eight. */
  review_test_press (window, "o");
  g_assert_cmpint (komi_review_window_get_orientation (window), ==, KOMI_ORIENTATION_ROTATE_90);
  g_assert_cmpint (komi_board_view_get_orientation (komi_review_window_get_board_view (window)),
                   ==, KOMI_ORIENTATION_ROTATE_90);
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  gint64   game_id;
  GString *seen;    /* "turn question outcome;" per attempt, in row order */
} CallLog;

static gboolean
log_call (const KomiStoreCall *call, gpointer user_data, GError **error)
{
  CallLog *log = user_data;

  if (call->game_id == log->game_id)
    g_string_append_printf (log->seen, "%" G_GINT64_FORMAT " %u %s %s;", call->id, call->turn,
                            call->question, call->outcome);
  return TRUE;
}

/* The inspector lists every attempt of a move, failed ones included, in
 * the order they were made, with their outcomes. */
static void
test_faults_in_order (void)
{
  KomiReviewWindow *window = review_test_open (review_game_id);
  const KomiReview *review = komi_review_window_get_review (window);
  g_autoptr(KomiStore) store = komi_store_open_reader (review_db, NULL);
  CallLog log = { review_game_id, g_string_new (NULL) };
  g_autoptr(GHashTable) turns = g_hash_table_new (NULL, NULL);
  GtkWidget *calls = app_test_child (window, KOMI_TYPE_REVIEW_WINDOW, "calls_box");
  guint faults = 0;

  g_assert_true (komi_store_foreach_call (store, 0 /* all */ + review->replay->game->series_id,
                                          log_call, &log, NULL));
  for (guint i = 0; i < review->calls->len; i++)
    {
      const KomiStoreCall *c = review->calls->pdata[i];

      if (g_strcmp0 (c->outcome, "answer") != 0)
        {
          faults++;
          g_hash_table_add (turns, GUINT_TO_POINTER (c->turn));
        }
    }
  /* The 429 and the invalid answer injected. */
  g_assert_cmpuint (faults, >=, 2);

  for (guint t = 1; t < review->replay->n_steps; t++)
    {
      g_autoptr(GString) shown = g_string_new (NULL);
      g_autoptr(GString) recorded = g_string_new (NULL);
      guint n = 0;

      if (!g_hash_table_contains (turns, GUINT_TO_POINTER (t)))
        continue;
      komi_review_window_show_step (window, t);
      guint deciding[2] = { 0, 0 };

      for (GtkWidget *w = gtk_widget_get_first_child (calls); w != NULL;
           w = gtk_widget_get_next_sibling (w), n++)
        {
          const char *question = g_object_get_data (G_OBJECT (w), "komi-question");
          const char *decided = g_object_get_data (G_OBJECT (w), "komi-decided");

          g_string_append_printf (shown, "%u %s %s %s;", t, question,
                                  (char *) g_object_get_data (G_OBJECT (w), "komi-outcome"),
                                  decided);
          if (g_str_equal (decided, "move"))
            deciding[g_str_equal (question, "best_point")]++;
        }
      /* Each question of a finished game's move: one answer decided it. */
      g_assert_cmpuint (deciding[0], ==, 1);
      g_assert_cmpuint (deciding[1], <=, 1);
      /* The store's attempts of that move, by row (the order made). */
      for (guint i = 0; i < review->calls->len; i++)
        {
          const KomiStoreCall *c = review->calls->pdata[i];
          g_autofree char *needle = g_strdup_printf ("%" G_GINT64_FORMAT " %u %s %s;", c->id,
                                                     c->turn, c->question, c->outcome);

          if (c->turn != t)
            continue;
          g_assert_nonnull (strstr (log.seen->str, needle));
          g_string_append_printf (recorded, "%u %s %s %s;", t, c->question, c->outcome,
                                  c->decided > 0 ? "move" : c->decided == 0 ? "nothing"
                                                                            : "open");
          if (i > 0 && ((KomiStoreCall *) review->calls->pdata[i - 1])->turn == t)
            g_assert_cmpint (((KomiStoreCall *) review->calls->pdata[i - 1])->id, <, c->id);
        }
      g_test_message ("move %u: %s", t, shown->str);
      g_assert_cmpuint (n, >=, 2);
      g_assert_cmpstr (shown->str, ==, recorded->str);
    }
  g_string_free (log.seen, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
on_text (GObject *clipboard, GAsyncResult *result, gpointer user_data)
{
  *(char **) user_data = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (clipboard), result,
                                                         NULL);
}

static gboolean
is_set (gpointer pointer)
{
  return *(char **) pointer != NULL;
}

/* A text view of the call inspector under @widget, or NULL; expanders
 * are opened on the way (a closed one holds its text out of the tree). */
static gboolean
is_call_text (GtkWidget *widget, gpointer data)
{
  if (GTK_IS_EXPANDER (widget))
    gtk_expander_set_expanded (GTK_EXPANDER (widget), TRUE);
  return GTK_IS_TEXT_VIEW (widget) && gtk_widget_has_css_class (widget, "call-text");
}

static GtkWidget *
find_call_text (GtkWidget *widget)
{
  return app_test_find_widget (widget, is_call_text, NULL);
}

static gboolean
has_toast (gpointer window)
{
  return review_test_find_label (window, "Copied") != NULL;
}

/* Copy as curl puts a command in the clipboard that names the key's
 * variable and never holds the key; run with the variable set, it gets the
 * server's answer. */
static void
test_copy_as_curl (void)
{
  KomiReviewWindow *window = review_test_open (review_game_id);
  const KomiReview *review = komi_review_window_get_review (window);
  const KomiStoreCall *call = review->calls->pdata[0];
  g_autofree char *text = NULL;
  g_autofree char *out = NULL;
  g_autofree char *curl = NULL;
  g_autofree char *script = g_build_filename (review_dir, "curl.sh", NULL);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;

  komi_review_window_show_step (window, call->turn);
  /* The request's long strings wrap where they must, with no hyphen Pango
   * would add at a break inside a word: the whole text says so. */
  {
    GtkWidget *view = find_call_text (GTK_WIDGET (window));
    GtkTextBuffer *buffer;
    GtkTextIter start, end;
    GtkTextTag *tag;
    gboolean hyphens = TRUE, set = FALSE;

    g_assert_nonnull (view);
    buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
    tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "no-hyphens");
    g_assert_nonnull (tag);
    g_object_get (tag, "insert-hyphens", &hyphens, "insert-hyphens-set", &set, NULL);
    g_assert_false (hyphens);
    g_assert_true (set);
    gtk_text_buffer_get_bounds (buffer, &start, &end);
    g_assert_true (gtk_text_iter_starts_tag (&start, tag));
    g_assert_true (gtk_text_iter_ends_tag (&end, tag));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "review.copy-curl", "x",
                                             call->id));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (window)), NULL, on_text,
                                 &text);
  g_assert_true (app_test_wait (is_set, &text));
  g_test_message ("%.200s", text);
  g_assert_true (g_str_has_prefix (text, "curl "));
  g_assert_nonnull (strstr (text, "${" REVIEW_KEY_ENV "}"));
  g_assert_nonnull (strstr (text, call->request_url));
  g_assert_null (strstr (text, REVIEW_KEY));
  /* The toast says where the key comes from. */
  g_assert_true (app_test_wait (has_toast, window));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (review_test_find_label (GTK_WIDGET (window), "Copied"))),
                   ==, "Copied; it reads the key from $" REVIEW_KEY_ENV);
  /* A request sent without a key (a local server): the command has none
   * either, and the note says so instead of naming a variable; a profile
   * that names no variable gets the API's usual one, said as such. */
  {
    KomiStoreCall keyless = *call;
    g_autofree char *command = NULL;
    g_autofree char *note = NULL;

    keyless.request_headers = (char *) "{\"Content-Type\": \"application/json\"}";
    command = komi_review_call_to_curl (&keyless, review->api, NULL);
    g_assert_null (strstr (command, "${"));
    note = komi_review_curl_note (&keyless, review->api, NULL);
    g_assert_cmpstr (note, ==, "Copied; the request was sent without a key, and so is the "
                     "command");
    g_free (note);
    note = komi_review_curl_note (call, "openai-chat", NULL);
    g_assert_nonnull (strstr (note, "$OPENAI_API_KEY, the usual variable of this API"));
  }

  curl = g_find_program_in_path ("curl");
  if (curl == NULL)
    {
      g_test_message ("no curl: the command is not run");
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  /* The server refuses any other key: an answer proves the header. */
  g_assert_true (g_file_set_contents (script, text, -1, NULL));
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "sh", script, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out, "\"choices\""));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
is_expander (GtkWidget *widget, gpointer data)
{
  if (GTK_IS_EXPANDER (widget)
      && g_strcmp0 (gtk_expander_get_label (GTK_EXPANDER (widget)), data) == 0)
    {
      gtk_expander_set_expanded (GTK_EXPANDER (widget), TRUE);
      return TRUE;
    }
  return FALSE;
}

static gboolean
is_text_view (GtkWidget *widget, gpointer data)
{
  return GTK_IS_TEXT_VIEW (widget);
}

static gboolean
is_button_labelled (GtkWidget *widget, gpointer data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), data) == 0;
}

/* A raw response of 3 MB with bytes that are not text, and an error and a
 * model name that are not UTF-8 (a foreign library): the inspector shows
 * the start, valid (G_DEBUG=fatal-warnings makes Pango's warning about
 * invalid UTF-8 a failure), and Copy All gives the whole. */
static void
test_long_and_broken_response (void)
{
  KomiReviewWindow *window = review_test_open (review_game_id);
  const KomiReview *review = komi_review_window_get_review (window);
  KomiStoreCall call = *(const KomiStoreCall *) review->calls->pdata[0];
  GString *body = g_string_new ("{\"x\":\"\xff\xfe");
  g_autoptr(GBytes) bytes = NULL;
  GtkWidget *widget, *expander, *view, *copy;
  g_autofree char *text = NULL;
  GtkTextIter start, end;
  gint64 began;

  while (body->len < 3 * 1000 * 1000)
    g_string_append (body, "0123456789abcdef");
  g_string_append (body, "\"}");
  bytes = g_string_free_to_bytes (body);
  call.response_body = bytes;
  call.error = (char *) "bad \xc3\x28 byte";
  call.model_version = (char *) "model\xff";
  began = g_get_monotonic_time ();
  widget = g_object_ref_sink (komi_review_call_widget (&call, NULL, NULL));
  g_test_message ("call widget with a 3 MB response built in %.0f ms",
                  (g_get_monotonic_time () - began) / 1000.0);
  expander = app_test_find_widget (widget, is_expander, (gpointer) "Raw response");
  g_assert_nonnull (expander);
  view = app_test_find_widget (expander, is_text_view, NULL);
  g_assert_nonnull (view);
  gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), &start, &end);
  text = gtk_text_iter_get_text (&start, &end);
  g_assert_cmpuint (strlen (text), <=, KOMI_REVIEW_TEXT_SHOWN);
  g_assert_true (g_str_has_prefix (text, "{\"x\":\"\xef\xbf\xbd\xef\xbf\xbd" "0123"));
  {
    GtkWidget *cut = review_test_find_label (widget, "The first ");

    g_assert_nonnull (cut);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (cut)), ==,
                     "The first 65.5\302\240kB of 3.0\302\240MB are shown.");
  }
  g_assert_nonnull (review_test_find_label (widget, "bad \xef\xbf\xbd( byte"));
  copy = app_test_find_widget (expander, is_button_labelled, (gpointer) "Copy All");
  g_assert_nonnull (copy);
  g_free (text);
  text = NULL;
  g_signal_emit_by_name (copy, "clicked");
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (copy), NULL, on_text, &text);
  g_assert_true (app_test_wait (is_set, &text));
  g_assert_cmpuint (strlen (text), >=, 3 * 1000 * 1000);
  g_assert_true (g_str_has_suffix (text, "cdef\"}"));
  g_object_unref (widget);
  gtk_window_destroy (GTK_WINDOW (window));
}

void
review_test_add_calls (void)
{
  g_test_add_func ("/komi/app/review/long-and-broken-response", test_long_and_broken_response);
  g_test_add_func ("/komi/app/review/as-the-model-saw-it", test_as_the_model_saw_it);
  g_test_add_func ("/komi/app/review/faults-in-order", test_faults_in_order);
  g_test_add_func ("/komi/app/review/copy-as-curl", test_copy_as_curl);
}
