/* komi-public.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-store"

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "komi-public.h"

/* What may leave the machine. The library keeps every call as it was
 * (minus the key); a public copy keeps what a reader of a benchmark needs
 * and nothing that names the machine, its user, its files or the
 * account: response headers by an allowlist (an organisation id or a
 * cookie is never on it), paths cut to file names, the base URL's host
 * and the key's variable hidden wherever they appear. */

struct _KomiPublic
{
  KomiPublicFlags  flags;
  GPtrArray       *hosts;     /* "gpu-box.corp:8000", "gpu-box.corp" */
  GPtrArray       *key_envs;  /* "OPENAI_API_KEY" */
};

/* Response headers a reader needs: the content type and date, rate limits
 * and retry advice (why an attempt waited), the model and API version,
 * the provider's processing time. Names are lower-case; a name ending in
 * '*' is a prefix. */
static const char * const response_allowed[] = {
  "content-type", "date", "retry-after", "retry-after-ms", "x-should-retry",
  "x-ratelimit-*", "ratelimit-*", "anthropic-ratelimit-*", "openai-version",
  "openai-model", "anthropic-version", "x-model", "openai-processing-ms", NULL,
};
/* Request headers: what the request declared; the key headers appear as
 * "[redacted]" so that a reader sees where the key went. */
static const char * const request_allowed[] = {
  "content-type", "accept", "anthropic-version", "anthropic-beta", "user-agent", NULL,
};
static const char * const key_headers[] = {
  "authorization", "x-api-key", "x-goog-api-key", NULL,
};
/* Kept only when asked (KOMI_PUBLIC_KEEP_REQUEST_IDS). */
static const char * const request_ids[] = {
  "x-request-id", "request-id", "anthropic-request-id", "x-goog-request-id", NULL,
};
/* Settings members that name where and how the key is found. */
static const char * const private_members[] = { "url", "base_url", "key_env", NULL };

KomiPublic *
komi_public_new (KomiPublicFlags flags)
{
  KomiPublic *self = g_new0 (KomiPublic, 1);

  self->flags = flags;
  self->hosts = g_ptr_array_new_with_free_func (g_free);
  self->key_envs = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
komi_public_free (KomiPublic *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->hosts);
  g_ptr_array_unref (self->key_envs);
  g_free (self);
}

static gboolean
listed (const char * const *list, const char *name)
{
  for (guint i = 0; list[i] != NULL; i++)
    {
      gsize n = strlen (list[i]);

      if (list[i][n - 1] == '*' ? g_ascii_strncasecmp (name, list[i], n - 1) == 0
                                : g_ascii_strcasecmp (name, list[i]) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
add_word (GPtrArray *words, const char *word, gsize length)
{
  /* A word of one or two letters would hide half of every text. */
  if (length < 3)
    return;
  for (guint i = 0; i < words->len; i++)
    if (strlen (words->pdata[i]) == length && memcmp (words->pdata[i], word, length) == 0)
      return;
  g_ptr_array_add (words, g_strndup (word, length));
  /* The longer first, so that "host:8000" goes before "host". */
  for (guint i = words->len - 1; i > 0 && strlen (words->pdata[i]) > strlen (words->pdata[i - 1]);
       i--)
    {
      gpointer t = words->pdata[i];

      words->pdata[i] = words->pdata[i - 1];
      words->pdata[i - 1] = t;
    }
}

KomiPublic *
komi_public_copy (const KomiPublic *self)
{
  KomiPublic *copy = komi_public_new (self->flags);

  komi_public_absorb (copy, self);
  return copy;
}

void
komi_public_absorb (KomiPublic *self, const KomiPublic *other)
{
  for (guint i = 0; i < other->hosts->len; i++)
    add_word (self->hosts, other->hosts->pdata[i], strlen (other->hosts->pdata[i]));
  for (guint i = 0; i < other->key_envs->len; i++)
    add_word (self->key_envs, other->key_envs->pdata[i], strlen (other->key_envs->pdata[i]));
}

void
komi_public_learn_url (KomiPublic *self, const char *url)
{
  const char *start = url != NULL ? strstr (url, "://") : NULL;
  const char *end, *colon;

  if (start == NULL)
    return;
  start += 3;
  end = start + strcspn (start, "/?#");
  /* user:password@host: the credentials and the host. */
  for (const char *at = memchr (start, '@', end - start); at != NULL;
       at = memchr (start, '@', end - start))
    {
      add_word (self->hosts, start, at - start);
      start = at + 1;
    }
  add_word (self->hosts, start, end - start);
  colon = memchr (start, ':', end - start);
  if (colon != NULL)
    add_word (self->hosts, start, colon - start);
}

static void
learn_node (KomiPublic *self, JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (o);

      for (GList *l = members; l != NULL; l = l->next)
        {
          JsonNode *child = json_object_get_member (o, l->data);
          const char *text = JSON_NODE_HOLDS_VALUE (child)
                             && json_node_get_value_type (child) == G_TYPE_STRING
                             ? json_node_get_string (child) : NULL;

          if (text != NULL && strcmp (l->data, "key_env") == 0)
            add_word (self->key_envs, text, strlen (text));
          else if (text != NULL && (strcmp (l->data, "url") == 0
                                    || strcmp (l->data, "base_url") == 0))
            komi_public_learn_url (self, text);
          else
            learn_node (self, child);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (a); i++)
        learn_node (self, json_array_get_element (a, i));
    }
}

void
komi_public_learn_settings (KomiPublic *self, const char *settings)
{
  g_autoptr(JsonNode) root = settings != NULL ? json_from_string (settings, NULL) : NULL;

  if (root != NULL)
    learn_node (self, root);
}

/* Where a path may begin: the start, a space, a quote, or a sign that
 * separates a value from its name. */
static gboolean
path_may_start (const char *text, const char *p)
{
  return p == text || strchr (" \t\r\n'\"=:([{,<>", p[-1]) != NULL;
}

static gsize
path_token_length (const char *p)
{
  return strcspn (p, " \t\r\n'\",;)]}<>");
}

/* A URL's "scheme://host[:port]" as "[host]", the rest kept. */
static gsize
url_prefix_length (const char *p)
{
  const char *after;

  if (g_ascii_strncasecmp (p, "http://", 7) == 0)
    after = p + 7;
  else if (g_ascii_strncasecmp (p, "https://", 8) == 0)
    after = p + 8;
  else
    return 0;
  return (after - p) + strcspn (after, "/?#\"' \t\r\n");
}

static void
append_hiding_words (KomiPublic *self, GString *out, const char *text, gsize length)
{
  const char *p = text, *end = text + length;

  while (p < end)
    {
      gboolean hidden = FALSE;

      for (guint k = 0; k < 2 && !hidden; k++)
        {
          GPtrArray *words = k == 0 ? self->hosts : self->key_envs;

          for (guint i = 0; i < words->len && !hidden; i++)
            {
              gsize n = strlen (words->pdata[i]);

              if ((gsize) (end - p) >= n && memcmp (p, words->pdata[i], n) == 0)
                {
                  g_string_append (out, k == 0 ? "[host]" : "[key variable]");
                  p += n;
                  hidden = TRUE;
                }
            }
        }
      if (!hidden)
        g_string_append_c (out, *p++);
    }
}

char *
komi_public_text (KomiPublic *self, const char *text)
{
  GString *out;
  const char *plain;

  if (text == NULL)
    return NULL;
  out = g_string_sized_new (strlen (text) + 16);
  plain = text;
  for (const char *p = text; *p != '\0';)
    {
      gsize url = url_prefix_length (p);
      gsize n;
      const char *slash;

      if (url > 0)
        {
          append_hiding_words (self, out, plain, p - plain);
          g_string_append (out, "[host]");
          p += url;
          plain = p;
          continue;
        }
      if ((p[0] == '/' || (p[0] == '~' && p[1] == '/')) && path_may_start (text, p)
          && (n = path_token_length (p)) > 2
          && (slash = memchr (p + 1 + (p[0] == '~'), '/', n - 1 - (p[0] == '~'))) != NULL)
        {
          const char *base = p + n;

          /* The file name: after the last slash that is not at the end. */
          while (base > p && base[-1] == '/')
            base--;
          {
            const char *stop = base;

            while (base > p && base[-1] != '/')
              base--;
            append_hiding_words (self, out, plain, p - plain);
            if (stop > base)
              g_string_append_len (out, base, stop - base);
            else
              g_string_append (out, "…");
          }
          p += n;
          plain = p;
          continue;
        }
      p++;
    }
  append_hiding_words (self, out, plain, strlen (plain));
  return g_string_free (out, FALSE);
}

static JsonNode *
public_node (KomiPublic *self, JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr(JsonObject) copy = json_object_new ();
      g_autoptr(GList) members = json_object_get_members (o);

      for (GList *l = members; l != NULL; l = l->next)
        if (!g_strv_contains (private_members, l->data))
          json_object_set_member (copy, l->data,
                                  public_node (self, json_object_get_member (o, l->data)));
      return json_node_init_object (json_node_alloc (), copy);
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);
      g_autoptr(JsonArray) copy = json_array_sized_new (json_array_get_length (a));

      for (guint i = 0; i < json_array_get_length (a); i++)
        json_array_add_element (copy, public_node (self, json_array_get_element (a, i)));
      return json_node_init_array (json_node_alloc (), copy);
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_autofree char *text = komi_public_text (self, json_node_get_string (node));
      JsonNode *copy = json_node_alloc ();

      json_node_init_string (copy, text);
      return copy;
    }
  return json_node_copy (node);
}

char *
komi_public_settings (KomiPublic *self, const char *settings)
{
  g_autoptr(JsonNode) root = settings != NULL ? json_from_string (settings, NULL) : NULL;
  g_autoptr(JsonNode) copy = NULL;

  if (settings == NULL)
    return NULL;
  if (root == NULL)
    return komi_public_text (self, settings);
  komi_public_learn_settings (self, settings);
  copy = public_node (self, root);
  return json_to_string (copy, FALSE);
}

char *
komi_public_headers (KomiPublic *self, const char *headers, gboolean request)
{
  g_autoptr(JsonNode) root = headers != NULL ? json_from_string (headers, NULL) : NULL;
  g_autoptr(JsonObject) kept = json_object_new ();
  g_autoptr(GList) members = NULL;
  JsonObject *o;

  if (headers == NULL)
    return NULL;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return g_strdup ("{}");
  o = json_node_get_object (root);
  members = json_object_get_members (o);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (o, name);
      const char *text = JSON_NODE_HOLDS_VALUE (value)
                         && json_node_get_value_type (value) == G_TYPE_STRING
                         ? json_node_get_string (value) : "";

      if (request && listed (key_headers, name))
        json_object_set_string_member (kept, name, "[redacted]");
      else if (listed (request ? request_allowed : response_allowed, name)
               || ((self->flags & KOMI_PUBLIC_KEEP_REQUEST_IDS) && listed (request_ids, name)))
        {
          g_autofree char *shown = komi_public_text (self, text);

          json_object_set_string_member (kept, name, shown);
        }
    }
  {
    g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), kept);

    return json_to_string (node, FALSE);
  }
}

static const char *
own (GPtrArray *owned, char *text)
{
  if (text != NULL)
    g_ptr_array_add (owned, text);
  return text;
}

/* Bodies are the record: only a learnt host or key variable is hidden in
 * them (a provider echoing its address), paths are left as they are. */
static char *
hide_words (KomiPublic *self, const char *text, gsize length)
{
  GString *out;

  if (text == NULL)
    return NULL;
  out = g_string_sized_new (length + 1);
  append_hiding_words (self, out, text, length);
  return g_string_free (out, FALSE);
}

static gboolean
holds_word (KomiPublic *self, const char *text, gsize length)
{
  for (guint k = 0; k < 2; k++)
    {
      GPtrArray *words = k == 0 ? self->hosts : self->key_envs;

      for (guint i = 0; i < words->len; i++)
        if (memmem (text, length, words->pdata[i], strlen (words->pdata[i])) != NULL)
          return TRUE;
    }
  return FALSE;
}

const KomiStoreCall *
komi_public_call (KomiPublic *self, const KomiStoreCall *call, KomiPublicCall *view)
{
  view->call = *call;
  view->owned = g_ptr_array_new_with_free_func (g_free);
  view->body = NULL;
  komi_public_learn_url (self, call->request_url);
  view->call.request_url = own (view->owned, komi_public_text (self, call->request_url));
  view->call.request_headers = own (view->owned,
                                    komi_public_headers (self, call->request_headers, TRUE));
  view->call.response_headers = own (view->owned,
                                     komi_public_headers (self, call->response_headers, FALSE));
  if (call->request_body != NULL
      && holds_word (self, call->request_body, strlen (call->request_body)))
    view->call.request_body = own (view->owned, hide_words (self, call->request_body,
                                                            strlen (call->request_body)));
  if (call->response_body != NULL)
    {
      gsize n = 0;
      const char *data = g_bytes_get_data (call->response_body, &n);

      if (n > 0 && holds_word (self, data, n))
        {
          /* Every byte kept but the words: a NUL is not the end. */
          GString *text = g_string_sized_new (n + 1);

          append_hiding_words (self, text, data, n);
          view->body = g_string_free_to_bytes (text);
          view->call.response_body = view->body;
        }
    }
  view->call.error = own (view->owned, komi_public_text (self, call->error));
  return &view->call;
}

void
komi_public_call_clear (KomiPublicCall *view)
{
  g_clear_pointer (&view->owned, g_ptr_array_unref);
  g_clear_pointer (&view->body, g_bytes_unref);
}

const KomiStoreGame *
komi_public_game (KomiPublic *self, const KomiStoreGame *game, KomiPublicGame *view)
{
  view->game = *game;
  view->owned = g_ptr_array_new_with_free_func (g_free);
  /* The settings first: they teach the hosts and key variables. */
  komi_public_learn_settings (self, game->black_settings);
  komi_public_learn_settings (self, game->white_settings);
  view->game.black_settings = (char *) own (view->owned,
                                            komi_public_settings (self, game->black_settings));
  view->game.white_settings = (char *) own (view->owned,
                                            komi_public_settings (self, game->white_settings));
#define TEXT(field) view->game.field = (char *) own (view->owned, komi_public_text (self, game->field))
  TEXT (series_name);
  TEXT (black_spec);
  TEXT (white_spec);
  TEXT (black_name);
  TEXT (white_name);
  TEXT (referee);
  TEXT (void_reason);
  TEXT (source);
  TEXT (event);
#undef TEXT
  return &view->game;
}

void
komi_public_game_clear (KomiPublicGame *view)
{
  g_clear_pointer (&view->owned, g_ptr_array_unref);
}
