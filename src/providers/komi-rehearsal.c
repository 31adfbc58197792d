/* komi-rehearsal.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "komi-rehearsal-private.h"

/* The rehearsal server itself: the GObject, its thread, the routing of a
 * request to its API, the faults that answer before the body is read, the
 * latency and the counters tests read. What the model says and how each API
 * spells it are in komi-rehearsal-request.c, -model.c and -reply.c.
 *
 * One request is decided in a single pass on the server thread: route,
 * key, then any HTTP-level fault (these never read the body, so they also
 * hit a request that would be a 400), then the body, then an answer, which
 * a content fault may spoil. */

#define DEFAULT_RETRY_AFTER_MS 1000
/* Ten minutes, twice a profile's default timeout_seconds: normally the
 * client's own timeout ends a "timeout" fault, as with a server that hangs. */
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

/* Holds @msg for @ms: with @stream NULL pauses it (the reply is already
 * set and goes out after), else keeps the stolen @stream open, silent. */
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

/* The API of @path; Gemini's path also names the model, put in @model. */
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
      *model = g_strndup (path + strlen (prefix),
                          strlen (path) - strlen (prefix) - strlen (suffix));
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

  /* Gemini also takes the key in the query, as its REST examples do. */
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

/* Counts @msg in every counter; returns its ordinal, the request number
 * "KIND@N" faults count, or 0 when not @counted (a path that is no API):
 * a stray request must not shift which request a scheduled fault hits. */
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
  KomiRehearsalRequest r = { 0, };
  KomiRehearsalAnswer a = { 0, };
  KomiRehearsalFault fault;

  event.ordinal = begin_flight (self, msg, path, body, known);
  /* Drawn even for a request the key then rejects, so that a request's
   * fault depends only on the seed and its ordinal. */
  fault = komi_rehearsal_faults_pick (self->faults, self->options.seed, event.ordinal);

  if (!known)
    {
      g_autofree char *what = g_strdup_printf ("%s %s", method, path);

      /* Under Gemini's prefix, a 404 in Gemini's error shape. */
      komi_rehearsal_reply_error (msg, g_str_has_prefix (path, "/v1beta/")
                                       ? KOMI_REHEARSAL_API_GEMINI : api,
                                  KOMI_REHEARSAL_REPLY_NOT_FOUND, what, 0);
    }
  else if (self->options.api_key != NULL && !key_ok (self, msg, api, query, &shown))
    komi_rehearsal_reply_error (msg, api, KOMI_REHEARSAL_REPLY_UNAUTHORIZED, shown, 0);
  else if (fault == KOMI_REHEARSAL_FAULT_TIMEOUT)
    {
      /* No reply at all: the connection is held open, silent. */
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
  else if ((problem = _komi_rehearsal_request_parse (&r, api, model, body)) != NULL)
    komi_rehearsal_reply_error (msg, api, KOMI_REHEARSAL_REPLY_BAD_REQUEST, problem, 0);
  else if (self->options.reject_logprobs && r.logprobs)
    komi_rehearsal_reply_error (msg, api, KOMI_REHEARSAL_REPLY_BAD_REQUEST,
                                api == KOMI_REHEARSAL_API_GEMINI
                                ? "Logprobs is not supported for this model."
                                : "Unsupported parameter: 'logprobs' is not supported with "
                                  "this model.", 0);
  else
    {
      event.fault = fault;
      r.hash = _komi_rehearsal_hash_body (body, self->options.seed);
      _komi_rehearsal_answer_init (&a, self->options.policy, &r, fault);
      _komi_rehearsal_reply_answer (msg, &r, &a, event.ordinal);
      event.answer = a.answer_log;
    }

  event.status = soup_server_message_get_status (msg);
  /* Errors are delayed too; the log is written when the reply is decided. */
  if (self->options.latency_ms > 0)
    hold (self, msg, NULL, self->options.latency_ms);
  if (self->options.log_func != NULL)
    self->options.log_func (&event, self->options.log_data);
  if (a.text != NULL)
    _komi_rehearsal_answer_clear (&a);
  _komi_rehearsal_request_clear (&r);
}

/* Runs on the server thread: drops what is held, closes every connection. */
static gboolean
stop_in_thread (gpointer data)
{
  KomiRehearsal *self = data;
  GList *sources = g_hash_table_get_keys (self->holds);

  /* Emptied first, as destroying a source frees its Hold. A paused reply
   * is dropped with its connection rather than sent early. */
  g_hash_table_steal_all (self->holds);
  for (GList *l = sources; l != NULL; l = l->next)
    g_source_destroy (l->data);
  g_list_free (sources);
  soup_server_disconnect (self->server);
  g_main_loop_quit (self->loop);
  return G_SOURCE_REMOVE;
}

/* Listens, reports to komi_rehearsal_new(), serves until stop_in_thread();
 * the SoupServer lives and dies here, never touched from another thread. */
static gpointer
server_thread (gpointer data)
{
  KomiRehearsal *self = data;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_main_context_push_thread_default (self->context);
  /* The trailing space makes libsoup append its own product token. */
  self->server = soup_server_new ("server-header", "komi-rehearsal ", NULL);
  soup_server_add_handler (self->server, NULL, handle_request, self, NULL);
  /* IPv4 only, as the base URL names 127.0.0.1, not "localhost". */
  ok = soup_server_listen_local (self->server, self->options.port,
                                 SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_mutex_lock (&self->mutex);
  if (ok)
    {
      /* The port actually bound, which differs when port 0 was asked. */
      GSList *uris = soup_server_get_uris (self->server);

      self->port = g_uri_get_port (uris->data);
      self->base_url = g_strdup_printf ("http://127.0.0.1:%u", self->port);
      g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
    self->start_error = g_error_new (KOMI_REHEARSAL_ERROR, KOMI_REHEARSAL_ERROR_LISTEN,
                                     _("port %u on 127.0.0.1 is in use: choose another port, "
                                       "or 0 for any free one"), self->options.port);
  else
    self->start_error = g_error_new (KOMI_REHEARSAL_ERROR, KOMI_REHEARSAL_ERROR_LISTEN,
                                     _("cannot listen on 127.0.0.1:%u: %s"),
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
      /* Without a base URL the thread failed to listen and has returned. */
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
  /* A bad fault spec fails here, before any thread starts. */
  if ((faults = komi_rehearsal_faults_parse (options->faults, error)) == NULL)
    return NULL;

  /* Copied: the thread reads them for as long as it lives. */
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

  /* Once the server listens, the base URL is good: no first request fails. */
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
  /* Requests still in flight keep counting, so the maximum starts from them. */
  self->max_in_flight = self->in_flight;
  self->ordinal = 0;
  g_clear_pointer (&self->last_body, g_free);
  g_mutex_unlock (&self->mutex);
}

gboolean
komi_rehearsal_write_profile (const char  *path,
                              const char  *name,
                              const char  *base_url,
                              gboolean     logprobs,
                              guint        max_concurrent,
                              GError     **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;

  g_return_val_if_fail (path != NULL && name != NULL && base_url != NULL, FALSE);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "api");
  json_builder_add_string_value (b, "openai-chat");
  json_builder_set_member_name (b, "base_url");
  json_builder_add_string_value (b, base_url);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, "rehearsal-model");
  if (logprobs)
    {
      json_builder_set_member_name (b, "logprobs");
      json_builder_add_boolean_value (b, TRUE);
    }
  if (max_concurrent > 0)
    {
      json_builder_set_member_name (b, "max_concurrent");
      json_builder_add_int_value (b, max_concurrent);
      json_builder_set_member_name (b, "requests_per_minute");
      json_builder_add_int_value (b, 0);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json = json_to_string (root, TRUE);
  return g_file_set_contents (path, json, -1, error);
}
