/* test-hostile.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sqlite3.h>
#include <string.h>
#include <sys/resource.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "komi-test-cli.h"

/* A model server written to misbehave, on loopback in this process, and
 * `komi-cli run` against it in another, as a user would meet one: a body
 * nested 100,000 levels deep, the key echoed back in every encoding, an
 * endless body, a 50 MB one, one trickled a byte at a time, bytes that
 * are not text, an answer with a NUL and a script after it, and an error
 * text full of terminal escapes. Komi must not crash, must finish or
 * pause with the right fault, keep the key out of every byte it writes,
 * stay bounded in memory and time, export valid UTF-8 and print no
 * control character. The server's mode is the first part of the path of
 * the profile's base_url. */

#define KEY_ENV "KOMI_TEST_HOSTILE_KEY"
#define KEY     "sk-hostile-4c1f9e27b05d83a6e1bd"

/* The service accepts on a thread of its own, with its own main context:
 * the test's thread waits for komi-cli meanwhile. */
typedef struct
{
  GSocketService *service;
  guint16         port;
  gint            requests;   /* atomic */
  GMainContext   *context;
  GMainLoop      *loop;
  GThread        *thread;
  GMutex          lock;
  GCond           ready;
} Hostile;

/* The request, read whole: its path and the key it carried. */
static gboolean
read_request (GDataInputStream *in, char **path, char **key)
{
  gsize length = 0;

  for (guint line = 0;; line++)
    {
      g_autofree char *text = g_data_input_stream_read_line (in, NULL, NULL, NULL);
      g_auto(GStrv) words = NULL;

      if (text == NULL)
        return FALSE;
      g_strchomp (text);
      if (text[0] == '\0')
        break;
      if (line == 0)
        {
          words = g_strsplit (text, " ", 3);
          if (words[0] == NULL || words[1] == NULL)
            return FALSE;
          *path = g_strdup (words[1]);
          continue;
        }
      if (g_ascii_strncasecmp (text, "content-length:", 15) == 0)
        length = (gsize) g_ascii_strtoull (text + 15, NULL, 10);
      else if (g_ascii_strncasecmp (text, "authorization: Bearer ", 22) == 0)
        *key = g_strdup (text + 22);
      else if (g_ascii_strncasecmp (text, "x-api-key: ", 11) == 0
               || g_ascii_strncasecmp (text, "x-goog-api-key: ", 16) == 0)
        *key = g_strdup (strchr (text, ' ') + 1);
    }
  {
    g_autofree char *body = g_malloc (length + 1);

    return g_input_stream_read_all (G_INPUT_STREAM (in), body, length, NULL, NULL, NULL);
  }
}

static gboolean
put (GOutputStream *out, const char *data, gssize len)
{
  return g_output_stream_write_all (out, data, len < 0 ? strlen (data) : (gsize) len, NULL,
                                    NULL, NULL);
}

static void
reply (GOutputStream *out, guint status, const char *headers, const char *body, gsize len)
{
  g_autofree char *head = g_strdup_printf ("HTTP/1.1 %u X\r\nContent-Type: application/json\r\n"
                                           "Content-Length: %" G_GSIZE_FORMAT "\r\n%s"
                                           "Connection: close\r\n\r\n", status, len,
                                           headers != NULL ? headers : "");

  if (put (out, head, -1))
    put (out, body, (gssize) len);
}

/* A successful answer of the API the path names, its text given as a
 * JSON string literal, with @extra members. */
static char *
answer_body (const char *path, const char *text, const char *model, const char *extra)
{
  if (strstr (path, "/messages") != NULL)
    return g_strdup_printf ("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                            "\"model\":\"%s\",\"content\":[{\"type\":\"text\",\"text\":%s}],"
                            "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":5,"
                            "\"output_tokens\":1}%s}", model, text, extra);
  if (strstr (path, "generateContent") != NULL)
    return g_strdup_printf ("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":"
                            "[{\"text\":%s}]},\"finishReason\":\"STOP\"}],\"modelVersion\":"
                            "\"%s\"%s}", text, model, extra);
  if (strstr (path, "/responses") != NULL)
    return g_strdup_printf ("{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\","
                            "\"model\":\"%s\",\"output\":[{\"type\":\"message\",\"role\":"
                            "\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":%s}]}]"
                            "%s}", model, text, extra);
  return g_strdup_printf ("{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"%s\","
                          "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                          "\"content\":%s},\"finish_reason\":\"stop\"}]%s}", model, text, extra);
}

/* The forms a server may echo a key in. */
static char *
escaped_u (const char *key)
{
  GString *s = g_string_new (NULL);

  for (const char *p = key; *p != '\0'; p++)
    g_string_append_printf (s, p - key < 4 ? "%c" : "\\u%04X", *p);
  return g_string_free (s, FALSE);
}

static char *
escaped_percent (const char *key)
{
  GString *s = g_string_new (NULL);

  for (const char *p = key; *p != '\0'; p++)
    g_string_append_printf (s, "%%%02x", (guchar) *p);
  return g_string_free (s, FALSE);
}

static char *
hex (const char *key)
{
  GString *s = g_string_new (NULL);

  for (const char *p = key; *p != '\0'; p++)
    g_string_append_printf (s, "%02x", (guchar) *p);
  return g_string_free (s, FALSE);
}

/* "ab" + key, base64: the key at another alignment of the stream. */
static char *
base64_shifted (const char *key)
{
  g_autofree char *shifted = g_strconcat ("ab", key, NULL);

  return g_base64_encode ((const guchar *) shifted, strlen (shifted));
}

static void
serve_echo (GOutputStream *out, const char *path, const char *key, guint n)
{
  g_autofree char *u = escaped_u (key), *pct = escaped_percent (key), *hx = hex (key);
  g_autofree char *b64 = g_base64_encode ((const guchar *) key, strlen (key));
  g_autofree char *b64s = base64_shifted (key);
  g_autofree char *headers = g_strdup_printf ("x-echo: %s\r\nset-cookie: session=%s\r\n", key, u);

  if (n % 2 == 1)
    {
      g_autofree char *body = g_strdup_printf ("{\"error\":{\"message\":\"Overloaded, key %s "
                                               "(%s)\",\"type\":\"overloaded_error\"}}", u, key);

      reply (out, 503, headers, body, strlen (body));
    }
  else
    {
      g_autofree char *extra = g_strdup_printf (",\"echo\":{\"u\":\"%s\",\"b64\":\"%s\","
                                                "\"b64s\":\"%s\",\"pct\":\"%s\",\"hex\":\"%s\"}",
                                                u, b64, b64s, pct, hx);
      g_autofree char *text = g_strdup_printf ("\"pass\"");
      g_autofree char *body = answer_body (path, text, key, extra);

      reply (out, 200, headers, body, strlen (body));
    }
}

/* Writes @chunk until the client goes. */
static void
flood (GOutputStream *out, const char *head)
{
  char chunk[64 * 1024];

  memset (chunk, 'x', sizeof chunk);
  if (!put (out, head, -1))
    return;
  while (put (out, chunk, sizeof chunk))
    ;
}

static gboolean
on_run (GThreadedSocketService *service, GSocketConnection *connection, GObject *source,
        gpointer data)
{
  Hostile *self = data;
  g_autoptr(GDataInputStream) in =
    g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autofree char *path = NULL, *key = NULL, *mode = NULL;
  guint n;

  g_data_input_stream_set_newline_type (in, G_DATA_STREAM_NEWLINE_TYPE_CR_LF);
  if (!read_request (in, &path, &key) || path[0] != '/')
    return TRUE;
  n = (guint) g_atomic_int_add (&self->requests, 1);
  mode = g_strndup (path + 1, strcspn (path + 1, "/"));
  if (key == NULL)
    key = g_strdup ("none");

  if (strcmp (mode, "deep") == 0)
    {
      GString *body = g_string_new ("{\"x\":");

      for (guint i = 0; i < 100000; i++)
        g_string_append_c (body, '[');
      for (guint i = 0; i < 100000; i++)
        g_string_append_c (body, ']');
      g_string_append_c (body, '}');
      reply (out, 200, NULL, body->str, body->len);
      g_string_free (body, TRUE);
    }
  else if (strcmp (mode, "echo") == 0)
    serve_echo (out, path, key, n);
  else if (strcmp (mode, "endless") == 0)
    flood (out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
           "{\"choices\":[{\"message\":{\"content\":\"");
  else if (strcmp (mode, "huge") == 0)
    flood (out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
           "Content-Length: 50000000\r\n\r\n{\"choices\":[{\"message\":{\"content\":\"");
  else if (strcmp (mode, "trickle") == 0)
    {
      g_autofree char *body = answer_body (path, "\"pass\"", "m", "");
      g_autofree char *head = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: application/json"
                                               "\r\nContent-Length: %zu\r\n\r\n", strlen (body));

      if (put (out, head, -1))
        for (const char *p = body; *p != '\0' && put (out, p, 1); p++)
          g_usleep (400 * 1000);
    }
  else if (strcmp (mode, "binary") == 0)
    {
      static const char body[] = "{\"choices\":[{\"message\":{\"content\":\"pass\xff\xfe\"}}],"
                                 "\"z\":\"a\0b\"}";

      reply (out, 200, "x-odd: caf\xe9\r\n", body, sizeof body - 1);
    }
  else if (strcmp (mode, "nul") == 0)
    {
      g_autofree char *body = answer_body (path, "\"pass\\u0000<script>alert(1)</script>\"",
                                           "m\\ud800x", "");

      reply (out, 200, NULL, body, strlen (body));
    }
  else if (strcmp (mode, "escape") == 0)
    {
      static const char body[] = "{\"error\":{\"message\":\"\\u001b]0;PWNED-TITLE\\u0007"
                                 "\\u001b[2J\\u001b[31mred \\u009b31m\",\"type\":\"invalid\"}}";

      reply (out, 400, "x-note: \033[2J\r\n", body, sizeof body - 1);
    }
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

static gboolean on_run (GThreadedSocketService *service, GSocketConnection *connection,
                        GObject *source, gpointer data);

static gpointer
serve (gpointer data)
{
  Hostile *self = data;
  g_autoptr(GError) error = NULL;

  g_main_context_push_thread_default (self->context);
  self->service = g_threaded_socket_service_new (16);
  g_signal_connect (self->service, "run", G_CALLBACK (on_run), self);
  g_mutex_lock (&self->lock);
  self->port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (self->service), NULL,
                                                    &error);
  g_assert_no_error (error);
  g_socket_service_start (self->service);
  g_cond_signal (&self->ready);
  g_mutex_unlock (&self->lock);
  g_main_loop_run (self->loop);
  g_socket_service_stop (self->service);
  g_socket_listener_close (G_SOCKET_LISTENER (self->service));
  g_clear_object (&self->service);
  g_main_context_pop_thread_default (self->context);
  return NULL;
}

static Hostile *
hostile_new (void)
{
  Hostile *self = g_new0 (Hostile, 1);

  g_mutex_init (&self->lock);
  g_cond_init (&self->ready);
  self->context = g_main_context_new ();
  self->loop = g_main_loop_new (self->context, FALSE);
  g_mutex_lock (&self->lock);
  self->thread = g_thread_new ("hostile", serve, self);
  while (self->port == 0)
    g_cond_wait (&self->ready, &self->lock);
  g_mutex_unlock (&self->lock);
  return self;
}

static void
hostile_free (Hostile *self)
{
  g_main_loop_quit (self->loop);
  g_thread_join (self->thread);
  g_main_loop_unref (self->loop);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->ready);
  g_free (self);
}

/* komi-cli's output, as bytes: it must be valid for a terminal whatever
 * the server sent. */
typedef struct
{
  int    status;   /* exit status; -1: killed by a signal */
  GBytes *out, *err;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_bytes_unref);
  g_clear_pointer (&run->err, g_bytes_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static Run
run_cli (const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli", "komi-cli",
                                           NULL);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { 0 };

  g_ptr_array_add (argv, cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                            &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, NULL, NULL, &run.out, &run.err, &error);
  g_assert_no_error (error);
  run.status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
  if (run.status < 0)
    g_test_message ("komi-cli %s was killed by signal %d", args[0],
                    g_subprocess_get_term_sig (proc));
  return run;
}

/* No byte that a terminal would act on: C0 controls but newline and tab,
 * DEL, and the C1 controls as UTF-8 (U+0080 to U+009F). */
static void
assert_terminal_safe (GBytes *bytes)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);

  g_assert_true (g_utf8_validate ((const char *) data, (gssize) len, NULL));
  for (gsize i = 0; i < len; i++)
    {
      if ((data[i] < 0x20 && data[i] != '\n' && data[i] != '\t') || data[i] == 0x7f)
        g_error ("control byte 0x%02x at %" G_GSIZE_FORMAT " of: %.*s", data[i], i, (int) len,
                 data);
      if (data[i] == 0xc2 && i + 1 < len && data[i + 1] >= 0x80 && data[i + 1] <= 0x9f)
        g_error ("C1 control at %" G_GSIZE_FORMAT, i);
    }
}

static char *
text_of (GBytes *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  return g_strndup (data, len);
}

static char *
write_profile (const char *dir, const char *name, Hostile *server, const char *mode,
               const char *api, const char *extra)
{
  g_autofree char *file = g_strdup_printf ("%s.json", name);
  char *path = g_build_filename (dir, file, NULL);
  g_autofree char *json = g_strdup_printf (
    "{\"name\": \"%s\", \"api\": \"%s\", \"base_url\": \"http://127.0.0.1:%u/%s%s\","
    " \"model\": \"m\", \"key_env\": \"" KEY_ENV "\", \"retry_base_ms\": 10,"
    " \"retry_cap_ms\": 20, \"retry_attempts\": 2%s}",
    name, api, server->port, mode, g_str_has_prefix (api, "openai") ? "/v1" : "",
    extra != NULL ? extra : "");

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  return path;
}

static char *
write_series (const char *dir, const char *name, const char *profile, guint pairs)
{
  g_autofree char *file = g_strdup_printf ("%s-series.json", name);
  char *path = g_build_filename (dir, file, NULL);
  g_autofree char *json = g_strdup_printf (
    "{\"name\": \"%s\", \"protocol\": 1, \"subject\": \"model:%s\", \"opponents\": [\"random\"],"
    " \"pairs\": %u, \"seed\": 3, \"referee\": \"none\", \"jobs\": 1}", name, profile, pairs);

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  return path;
}

/* One series of @mode against random into @db; what komi-cli printed
 * must be safe for a terminal whatever happened. */
static Run
run_mode (const char *dir, const char *db, Hostile *server, const char *mode, const char *api,
          const char *extra, guint pairs)
{
  g_autofree char *name = g_strdup_printf ("%s-%s", mode, api);
  g_autofree char *profile = write_profile (dir, name, server, mode, api, extra);
  g_autofree char *series = write_series (dir, name, profile, pairs);
  const char *args[] = { "run", series, "--db", db, NULL };
  Run run = run_cli (args);

  assert_terminal_safe (run.out);
  assert_terminal_safe (run.err);
  return run;
}

typedef struct
{
  double latency_ms;
  char  *outcome, *error;
  gsize  body_len;
} Call;

static void
call_clear (gpointer data)
{
  Call *c = data;

  g_free (c->outcome);
  g_free (c->error);
}

/* The attempts recorded for the series named @name, in order. */
static GArray *
read_calls (const char *db, const char *name)
{
  GArray *calls = g_array_new (FALSE, TRUE, sizeof (Call));
  sqlite3 *conn = NULL;
  sqlite3_stmt *stmt = NULL;

  g_array_set_clear_func (calls, call_clear);
  g_assert_cmpint (sqlite3_open_v2 (db, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (conn,
    "SELECT c.latency_ms, c.outcome, c.error, length (c.response_body) FROM calls c "
    "JOIN games g ON g.id = c.game_id JOIN series s ON s.id = g.series_id "
    "WHERE s.name = ?1 ORDER BY c.id", -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      Call c = {
        .latency_ms = sqlite3_column_double (stmt, 0),
        .outcome = g_strdup ((const char *) sqlite3_column_text (stmt, 1)),
        .error = g_strdup ((const char *) sqlite3_column_text (stmt, 2)),
        .body_len = (gsize) sqlite3_column_int64 (stmt, 3),
      };

      g_array_append_val (calls, c);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (conn);
  return calls;
}

static void
test_deep (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-hostile-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  Hostile *server = hostile_new ();
  const char *apis[] = { "openai-chat", "anthropic", "gemini" };

  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    {
      g_auto(Run) run = run_mode (dir, db, server, "deep", apis[i], NULL, 1);
      g_autofree char *err = text_of (run.err);
      g_autofree char *name = g_strdup_printf ("deep-%s", apis[i]);
      g_autoptr(GArray) calls = read_calls (db, name);

      /* The series pauses (a transport fault past its budget); no crash. */
      g_assert_cmpint (run.status, >, 0);
      g_assert_nonnull (strstr (err, "nests deeper than 64 levels"));
      g_assert_cmpuint (calls->len, ==, 2);
      for (guint k = 0; k < calls->len; k++)
        {
          Call *c = &g_array_index (calls, Call, k);

          g_assert_cmpstr (c->outcome, ==, "transport-error");
          g_assert_nonnull (strstr (c->error, "nests deeper than 64 levels"));
        }
    }
  hostile_free (server);
  remove_test_dir (dir);
}

/* Each timeout and cap holds: every attempt ends within a second of its
 * timeout, keeps no more than the start of its body, and the process
 * stays small. */
static void
test_limits (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-hostile-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  Hostile *server = hostile_new ();
  struct { const char *mode, *extra, *says; double timeout; } cases[] = {
    { "endless", ", \"timeout_seconds\": 3, \"max_response_bytes\": 1048576",
      "passed the size cap, max_response_bytes 1048576", 3 },
    { "huge", ", \"timeout_seconds\": 3",
      "passed the size cap, max_response_bytes 4194304: it announced 50000000 bytes", 3 },
    { "trickle", ", \"timeout_seconds\": 2", "No whole response within timeout_seconds (2 s): "
      "", 2 },
  };
  struct rusage usage;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) run = run_mode (dir, db, server, cases[i].mode, "openai-chat", cases[i].extra,
                                  1);
      g_autofree char *err = text_of (run.err);
      g_autofree char *name = g_strdup_printf ("%s-openai-chat", cases[i].mode);
      g_autoptr(GArray) calls = read_calls (db, name);

      g_assert_cmpint (run.status, >, 0);
      g_assert_nonnull (strstr (err, cases[i].says));
      g_assert_cmpuint (calls->len, ==, 2);
      for (guint k = 0; k < calls->len; k++)
        {
          Call *c = &g_array_index (calls, Call, k);

          g_test_message ("%s: attempt of %.0f ms, %" G_GSIZE_FORMAT " bytes kept: %s",
                          cases[i].mode, c->latency_ms, c->body_len, c->error);
          g_assert_cmpstr (c->outcome, ==, "transport-error");
          g_assert_nonnull (strstr (c->error, cases[i].says));
          if (strcmp (cases[i].mode, "trickle") == 0)
            g_assert_nonnull (strstr (c->error, " bytes of the 145 announced had arrived"));
          else
            g_assert_cmpuint (c->body_len, ==, 64 * 1024);
          g_assert_cmpfloat (c->latency_ms, <=, cases[i].timeout * 1000 + 1000);
          g_assert_cmpuint (c->body_len, <=, 64 * 1024);
        }
    }
  /* Every komi-cli of this test, at its peak: the endless body alone was
   * 1.2 GB before the cap; the bound is generous for ASan
   * builds. */
  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &usage), ==, 0);
  g_test_message ("peak RSS of komi-cli: %ld KiB", usage.ru_maxrss);
  g_assert_cmpint (usage.ru_maxrss, <, 400 * 1024);
  hostile_free (server);
  remove_test_dir (dir);
}

/* Every file under @dir, decompressed where gzipped, with what it holds. */
static void
collect_files (const char *dir, GPtrArray *paths)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          collect_files (path, paths);
          g_free (path);
        }
      else
        g_ptr_array_add (paths, path);
    }
}

static GBytes *
file_bytes (const char *path)
{
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GConverter) unzip = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
      g_autoptr(GInputStream) raw = g_memory_input_stream_new_from_data (g_steal_pointer (&data), (gssize) len, g_free);
      g_autoptr(GInputStream) in = g_converter_input_stream_new (raw, unzip);
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

      g_assert_cmpint (g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, NULL), >=, 0);
      return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
    }
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

static void
assert_no_key_in (GBytes *bytes, const char *where)
{
  g_autofree char *b64 = g_base64_encode ((const guchar *) KEY, strlen (KEY));
  g_autofree char *b64s = base64_shifted (KEY);
  g_autofree char *u = escaped_u (KEY), *pct = escaped_percent (KEY), *hx = hex (KEY);
  /* The middle of the shifted form: what depends on the key alone. */
  g_autofree char *b64s_mid = g_strndup (b64s + 4, 24);
  const char *forms[] = { KEY, KEY + 4, u, pct, hx, b64, b64s_mid };
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  if (len == 0)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    if (memmem (data, len, forms[i], strlen (forms[i])) != NULL)
      g_error ("%s holds the key (as %s)", where, forms[i]);
}

/* The key echoed in the body (model, extra members, error text), in
 * headers and in encodings: no byte that Komi writes holds it, in the
 * library, its exports, the published site or the terminal. */
static void
test_echo (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-hostile-XXXXXX", NULL);
  g_autofree char *out_dir = g_build_filename (dir, "out", NULL);
  g_autofree char *db = g_build_filename (out_dir, "library.db", NULL);
  g_autofree char *sgf = g_build_filename (out_dir, "sgf", NULL);
  g_autofree char *calls = g_build_filename (out_dir, "calls.jsonl", NULL);
  g_autofree char *csv = g_build_filename (out_dir, "results.csv", NULL);
  g_autofree char *site = g_build_filename (out_dir, "site", NULL);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  Hostile *server = hostile_new ();
  const char *apis[] = { "openai-chat", "openai-responses", "anthropic", "gemini" };
  const char *export_args[] = { "export", "--db", db, "--sgf", sgf, "--calls", calls,
                                "--csv", csv, NULL };
  const char *publish_args[] = { "publish", "--db", db, "--out", site, NULL };

  g_assert_cmpint (g_mkdir (out_dir, 0700), ==, 0);
  g_setenv (KEY_ENV, KEY, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    {
      g_auto(Run) run = run_mode (dir, db, server, "echo", apis[i], ", \"retry_attempts\": 4", 1);
      g_autofree char *err = text_of (run.err);

      if (run.status != 0)
        g_error ("%s: komi-cli run: %s", apis[i], err);
      assert_no_key_in (run.out, "komi-cli run's output");
      assert_no_key_in (run.err, "komi-cli run's errors");
    }
  {
    g_auto(Run) run = run_cli (export_args);

    g_assert_cmpint (run.status, ==, 0);
    assert_no_key_in (run.out, "komi-cli export's output");
  }
  {
    g_auto(Run) run = run_cli (publish_args);

    if (run.status != 0)
      g_error ("komi-cli publish: %s", (const char *) g_bytes_get_data (run.err, NULL));
  }
  collect_files (out_dir, files);
  g_assert_cmpuint (files->len, >, 5);
  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = file_bytes (g_ptr_array_index (files, i));

      assert_no_key_in (bytes, g_ptr_array_index (files, i));
    }
  /* What the server sent otherwise is there: the echo was recorded,
   * redacted, not dropped. */
  {
    g_autoptr(GBytes) bytes = file_bytes (calls);

    g_assert_nonnull (memmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                              "[redacted]", 10));
  }
  hostile_free (server);
  remove_test_dir (dir);
}

static void
assert_jsonl_valid (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  gsize len;
  guint replaced = 0;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  g_assert_true (g_utf8_validate (text, (gssize) len, NULL));
  g_assert_null (memchr (text, '\0', len));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      if (lines[i][0] == '\0')
        continue;
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      if (strstr (lines[i], "\xef\xbf\xbd") != NULL)
        replaced++;
    }
  /* The invalid bytes were replaced visibly, not dropped. */
  g_assert_cmpuint (replaced, >, 0);
}

/* Bytes that are not text and an answer with a NUL: the store keeps the
 * bytes exactly, the exports are valid UTF-8 JSON and CSV, and the answer
 * with a NUL is invalid, not the option before it. */
static void
test_bytes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-hostile-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *calls = g_build_filename (dir, "calls.jsonl", NULL);
  g_autofree char *csv = g_build_filename (dir, "results.csv", NULL);
  g_autofree char *csv_text = NULL;
  Hostile *server = hostile_new ();
  const char *export_args[] = { "export", "--db", db, "--calls", calls, "--csv", csv, NULL };
  sqlite3 *conn = NULL;
  sqlite3_stmt *stmt = NULL;
  static const char sent[] = "{\"choices\":[{\"message\":{\"content\":\"pass\xff\xfe\"}}],"
                             "\"z\":\"a\0b\"}";
  gsize len;

  {
    g_auto(Run) run = run_mode (dir, db, server, "binary", "openai-chat", NULL, 1);
    g_autofree char *err = text_of (run.err);

    g_assert_cmpint (run.status, >, 0);
    g_assert_nonnull (strstr (err, "The response body holds a NUL byte"));
  }
  {
    g_auto(Run) run = run_mode (dir, db, server, "nul", "openai-chat", NULL, 1);
    g_autoptr(GArray) nul_calls = read_calls (db, "nul-openai-chat");

    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpuint (nul_calls->len, >=, 3);
    for (guint k = 0; k < nul_calls->len; k++)
      {
        Call *c = &g_array_index (nul_calls, Call, k);

        g_assert_cmpstr (c->outcome, ==, "invalid-option");
        g_assert_nonnull (strstr (c->error, "pass\xef\xbf\xbd<script>"));
      }
  }
  /* The raw body, byte for byte. */
  g_assert_cmpint (sqlite3_open_v2 (db, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (conn, "SELECT response_body FROM calls ORDER BY id LIMIT 1",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_bytes (stmt, 0), ==, sizeof sent - 1);
  g_assert_cmpmem (sqlite3_column_blob (stmt, 0), sizeof sent - 1, sent, sizeof sent - 1);
  sqlite3_finalize (stmt);
  sqlite3_close (conn);

  {
    g_auto(Run) run = run_cli (export_args);

    g_assert_cmpint (run.status, ==, 0);
  }
  assert_jsonl_valid (calls);
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (calls, &text, NULL, NULL));
    /* The bytes that are not text: readable with U+FFFD, exact in base64. */
    g_assert_nonnull (strstr (text, "\"body\":\"{\\\"choices\\\":[{\\\"message\\\":{\\\"content\\\":"
                              "\\\"pass\xef\xbf\xbd\xef\xbf\xbd\\\"}}],\\\"z\\\":\\\"a\xef\xbf\xbd"));
    g_assert_nonnull (strstr (text, "\"body_base64\":"));
    g_assert_nonnull (strstr (text, "caf\xef\xbf\xbd"));
  }
  g_assert_true (g_file_get_contents (csv, &csv_text, &len, NULL));
  g_assert_true (g_utf8_validate (csv_text, (gssize) len, NULL));
  hostile_free (server);
  remove_test_dir (dir);
}

/* An error text of terminal escapes reaches the terminal written out. */
static void
test_terminal (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-hostile-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  Hostile *server = hostile_new ();
  g_auto(Run) run = run_mode (dir, db, server, "escape", "openai-chat", NULL, 1);
  g_autofree char *err = text_of (run.err);

  g_assert_cmpint (run.status, >, 0);
  g_assert_nonnull (strstr (err, "HTTP 400: \\x1b]0;PWNED-TITLE\\x07\\x1b[2J"));
  g_assert_nonnull (strstr (err, "\\u009b31m"));

  /* A library's own names (a stranger's, merged) reach listings written
   * out: a series named with a screen-clearing escape. */
  {
    g_autofree char *profile = write_profile (dir, "named", server, "echo", "openai-chat",
                                              ", \"retry_attempts\": 4");
    g_autofree char *series = write_series (dir, "evil\\u001b[2J\\u001b]0;T\\u0007", profile, 1);
    const char *run_args[] = { "run", series, "--db", db, NULL };
    const char *status_args[] = { "status", db, NULL };
    const char *ratings_args[] = { "ratings", "--db", db, NULL };
    const char *series_args[] = { "series", "--db", db, NULL };
    g_auto(Run) played = run_cli (run_args);
    g_auto(Run) listing = run_cli (series_args);
    g_auto(Run) status = run_cli (status_args);
    g_auto(Run) ratings = run_cli (ratings_args);
    g_autofree char *listed = text_of (status.out);

    assert_terminal_safe (played.out);
    assert_terminal_safe (played.err);
    assert_terminal_safe (status.out);
    assert_terminal_safe (ratings.out);
    assert_terminal_safe (ratings.err);
    assert_terminal_safe (listing.out);
    g_assert_cmpint (listing.status, ==, 0);
    g_assert_nonnull (strstr (listed, "evil\\x1b[2J\\x1b]0;T\\x07"));
  }
  hostile_free (server);
  remove_test_dir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_setenv (KEY_ENV, KEY, TRUE);
  g_test_add_func ("/komi/hostile/deep", test_deep);
  g_test_add_func ("/komi/hostile/limits", test_limits);
  g_test_add_func ("/komi/hostile/echo", test_echo);
  g_test_add_func ("/komi/hostile/bytes", test_bytes);
  g_test_add_func ("/komi/hostile/terminal", test_terminal);
  return g_test_run ();
}
