/* komi-untrusted.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <string.h>

#include "komi-untrusted.h"

#define REDACTED "[redacted]"

/* One pass over the text as JSON's lexer sees it: the nesting depth
 * outside strings, and where the \u0000 escapes are (offsets of their
 * backslash), so that they can be turned into \ufffd in a copy. */
static gboolean
scan_json (const char *data, gsize len, GArray *nuls)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '"')
            in_string = FALSE;
          else if (c == '\\' && i + 1 < len)
            {
              if (data[i + 1] == 'u' && i + 5 < len && memcmp (data + i + 2, "0000", 4) == 0)
                {
                  guint at = (guint) i;

                  g_array_append_val (nuls, at);
                }
              i++;
            }
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > KOMI_UNTRUSTED_JSON_MAX_DEPTH)
            return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

/* Whether @data holds more than one JSON value (then white space): not
 * JSON. json-glib 1.6 reads on after the first value (it takes
 * `5{"a":1}` and `[1]{"a":1}`) and leaks what it read when the rest then
 * fails (`5 [1] x`, `[1,2]{"a":1}(`, seen with LeakSanitizer), so such a
 * text is refused here before it is parsed. */
static const char *
skip_string (const char *p, const char *end)
{
  for (p++; p < end && *p != '"'; p++)
    if (*p == '\\' && p + 1 < end)
      p++;
  return p < end ? p + 1 : end;
}

static gboolean
more_after_value (const char *data, gsize size)
{
  const char *p = data, *end = data + size;

  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  if (p == end)
    return FALSE;
  if (*p == '{' || *p == '[')
    {
      guint depth = 0;

      while (p < end)
        {
          if (*p == '"')
            {
              p = skip_string (p, end);
              continue;
            }
          if (*p == '{' || *p == '[')
            depth++;
          else if ((*p == '}' || *p == ']') && --depth == 0)
            {
              p++;
              break;
            }
          p++;
        }
    }
  else if (*p == '"')
    p = skip_string (p, end);
  else
    while (p < end && strchr (" \t\r\n{}[],:\"", *p) == NULL)
      p++;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  return p < end;
}

JsonNode *
komi_untrusted_parse_json (const char *data, gssize len)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) nuls = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *copy = NULL;
  gsize size;
  JsonNode *root;

  if (data == NULL)
    return NULL;
  size = len < 0 ? strlen (data) : (gsize) len;
  /* json-glib wants valid UTF-8 and stops at a NUL. */
  if (size > G_MAXUINT || !g_utf8_validate (data, (gssize) size, NULL)
      || !scan_json (data, size, nuls))
    return NULL;
  if (nuls->len > 0)
    {
      copy = g_memdup2 (data, size);
      for (guint i = 0; i < nuls->len; i++)
        memcpy (copy + g_array_index (nuls, guint, i) + 2, "fffd", 4);
      data = copy;
    }
  if (more_after_value (data, size)
      || !json_parser_load_from_data (parser, data, (gssize) size, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  return root != NULL ? json_node_ref (root) : NULL;
}

const char *
komi_untrusted_json_refusal (const char *data, gsize len)
{
  g_autoptr(GArray) nuls = g_array_new (FALSE, FALSE, sizeof (guint));

  if (data == NULL || len == 0)
    return NULL;
  if (memchr (data, '\0', len) != NULL)
    return "holds a NUL byte";
  if (len > G_MAXUINT || !g_utf8_validate (data, (gssize) len, NULL))
    return "is not valid UTF-8";
  if (!scan_json (data, len, nuls))
    return "nests deeper than " G_STRINGIFY (KOMI_UNTRUSTED_JSON_MAX_DEPTH) " levels";
  return NULL;
}

char *
komi_untrusted_valid_utf8 (const char *data, gssize len)
{
  GString *out;
  const char *p, *end;

  if (data == NULL)
    return NULL;
  if (len < 0)
    len = (gssize) strlen (data);
  end = data + len;
  if (g_utf8_validate (data, len, NULL))
    return g_strndup (data, (gsize) len);
  out = g_string_sized_new ((gsize) len + 16);
  for (p = data; p < end;)
    {
      const char *stop;

      if (g_utf8_validate (p, end - p, &stop))
        stop = end;
      g_string_append_len (out, p, stop - p);
      if (stop < end)
        {
          g_string_append (out, "\xef\xbf\xbd");
          stop++;
        }
      p = stop;
    }
  return g_string_free (out, FALSE);
}

static gboolean
needs_writing_out (gunichar c)
{
  return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)
         || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

char *
komi_untrusted_visible (const char *text)
{
  g_autofree char *valid = komi_untrusted_valid_utf8 (text, -1);
  GString *out;

  if (valid == NULL)
    return NULL;
  out = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!needs_writing_out (c))
        g_string_append_unichar (out, c);
      else if (c < 0x80)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_printf (out, "\\u%04x", c);
    }
  return g_string_free (out, FALSE);
}

char *
komi_untrusted_head (const char *text, gsize max_bytes)
{
  const char *cut;

  if (text == NULL || strlen (text) <= max_bytes)
    return NULL;
  cut = g_utf8_find_prev_char (text, text + max_bytes + 1);
  return g_strndup (text, cut != NULL ? (gsize) (cut - text) : max_bytes);
}

/* The redactor. */

struct _KomiRedactor
{
  char      *secret;
  gsize      len;
  guint     *fail;     /* Knuth-Morris-Pratt failure table of secret */
  GPtrArray *encoded;  /* base64 and hex forms, matched as they are */
};

static void
add_encoded (GPtrArray *encoded, char *form)
{
  /* Too short a form would match ordinary text. */
  if (strlen (form) >= 8 && !g_ptr_array_find_with_equal_func (encoded, form, g_str_equal, NULL))
    g_ptr_array_add (encoded, form);
  else
    g_free (form);
}

/* Base64 of the secret wherever it starts in the encoded stream: the
 * characters that depend on its bytes alone, for each of the three
 * alignments, in both alphabets. */
static void
add_base64 (GPtrArray *encoded, const char *secret, gsize len)
{
  for (gsize skip = 0; skip < 3 && skip < len; skip++)
    {
      gsize whole = (len - skip) / 3 * 3;
      g_autofree char *b64 = whole > 0 ? g_base64_encode ((const guchar *) secret + skip, whole)
                                       : NULL;

      if (b64 == NULL)
        continue;
      add_encoded (encoded, g_strdup (b64));
      g_strdelimit (b64, "+", '-');
      g_strdelimit (b64, "/", '_');
      add_encoded (encoded, g_strdup (b64));
    }
}

KomiRedactor *
komi_redactor_new (const char *secret)
{
  KomiRedactor *self;
  GString *hex;

  if (secret == NULL || secret[0] == '\0')
    return NULL;
  self = g_new0 (KomiRedactor, 1);
  self->secret = g_strdup (secret);
  self->len = strlen (secret);
  self->fail = g_new0 (guint, self->len + 1);
  for (gsize i = 1, k = 0; i < self->len; i++)
    {
      while (k > 0 && secret[i] != secret[k])
        k = self->fail[k - 1];
      if (secret[i] == secret[k])
        k++;
      self->fail[i] = (guint) k;
    }
  self->encoded = g_ptr_array_new_with_free_func (g_free);
  add_base64 (self->encoded, secret, self->len);
  hex = g_string_new (NULL);
  for (gsize i = 0; i < self->len; i++)
    g_string_append_printf (hex, "%02x", (guchar) secret[i]);
  add_encoded (self->encoded, g_ascii_strup (hex->str, -1));
  add_encoded (self->encoded, g_string_free (hex, FALSE));
  return self;
}

void
komi_redactor_free (KomiRedactor *self)
{
  if (self == NULL)
    return;
  memset (self->secret, 0, self->len);
  g_free (self->secret);
  g_free (self->fail);
  g_ptr_array_unref (self->encoded);
  g_free (self);
}

typedef struct
{
  gsize start, end;
} Span;

/* The byte at @data[@i] as a JSON string or a URL would decode it, and
 * how many raw bytes that took. Characters beyond ASCII decode to 0x80,
 * which no key holds. */
static guchar
decode_at (const char *data, gsize len, gsize i, gsize *width)
{
  *width = 1;
  if (data[i] == '\\' && i + 5 < len && data[i + 1] == 'u'
      && g_ascii_isxdigit (data[i + 2]) && g_ascii_isxdigit (data[i + 3])
      && g_ascii_isxdigit (data[i + 4]) && g_ascii_isxdigit (data[i + 5]))
    {
      guint v = 0;

      for (gsize k = 2; k < 6; k++)
        v = v * 16 + (guint) g_ascii_xdigit_value (data[i + k]);
      *width = 6;
      return v < 0x80 ? (guchar) v : 0x80;
    }
  if (data[i] == '\\' && i + 1 < len && strchr ("/\\\"", data[i + 1]) != NULL
      && data[i + 1] != '\0')
    {
      *width = 2;
      return (guchar) data[i + 1];
    }
  if (data[i] == '%' && i + 2 < len && g_ascii_isxdigit (data[i + 1])
      && g_ascii_isxdigit (data[i + 2]))
    {
      *width = 3;
      return (guchar) (g_ascii_xdigit_value (data[i + 1]) * 16
                       + g_ascii_xdigit_value (data[i + 2]));
    }
  return (guchar) data[i];
}

static void
add_span (GArray *spans, gsize start, gsize end)
{
  g_array_append_val (spans, ((Span) { start, end }));
}

/* Every raw span that decodes to the secret: one pass, a ring of the raw
 * offsets where the last len decoded bytes began. */
static void
find_decoded (const KomiRedactor *self, const char *data, gsize len, GArray *spans)
{
  g_autofree gsize *starts = g_new (gsize, self->len);
  gsize matched = 0, count = 0;

  for (gsize i = 0, width; i < len; i += width)
    {
      guchar b = decode_at (data, len, i, &width);

      starts[count++ % self->len] = i;
      while (matched > 0 && b != (guchar) self->secret[matched])
        matched = self->fail[matched - 1];
      if (b == (guchar) self->secret[matched])
        matched++;
      if (matched == self->len)
        {
          add_span (spans, starts[(count - self->len) % self->len], i + width);
          matched = self->fail[matched - 1];
        }
    }
  /* A text cut short may end with the secret's first part. */
  if (matched >= 8 && matched < self->len && count >= matched)
    add_span (spans, starts[(count - matched) % self->len], len);
}

static int
span_compare (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* NULL when nothing matched; else the redacted copy. */
static GString *
redact (const KomiRedactor *self, const char *data, gsize len)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
  GString *out;
  gsize at = 0;

  find_decoded (self, data, len, spans);
  for (guint k = 0; k < self->encoded->len; k++)
    {
      const char *form = g_ptr_array_index (self->encoded, k);
      gsize flen = strlen (form);

      for (const char *p = data; (p = memmem (p, len - (gsize) (p - data), form, flen)) != NULL;
           p += flen)
        add_span (spans, (gsize) (p - data), (gsize) (p - data) + flen);
    }
  if (spans->len == 0)
    return NULL;
  g_array_sort (spans, span_compare);
  out = g_string_sized_new (len);
  for (guint k = 0; k < spans->len; k++)
    {
      Span *s = &g_array_index (spans, Span, k);

      if (s->end <= at)
        continue;
      if (s->start > at)
        g_string_append_len (out, data + at, (gssize) (s->start - at));
      if (s->start >= at)
        g_string_append (out, REDACTED);
      at = s->end;
    }
  g_string_append_len (out, data + at, (gssize) (len - at));
  return out;
}

gboolean
komi_redactor_apply (const KomiRedactor *self, char **text)
{
  GString *out;

  if (self == NULL || *text == NULL)
    return FALSE;
  out = redact (self, *text, strlen (*text));
  if (out == NULL)
    return FALSE;
  g_free (*text);
  *text = g_string_free (out, FALSE);
  return TRUE;
}

gboolean
komi_redactor_apply_bytes (const KomiRedactor *self, GBytes **bytes)
{
  const char *data;
  gsize len;
  GString *out;

  if (self == NULL || *bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (*bytes, &len);
  out = redact (self, data != NULL ? data : "", len);
  if (out == NULL)
    return FALSE;
  g_bytes_unref (*bytes);
  *bytes = g_string_free_to_bytes (out);
  return TRUE;
}
