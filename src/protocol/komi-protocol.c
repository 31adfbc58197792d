/* komi-protocol.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-protocol"

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "komi-protocol-private.h"
#include "komi-resources.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-protocol-error-quark, komi_protocol_error)

#define RULES_1_PATH "/io/github/komigo/Komi/protocol-1/rules.txt"

/* Longest part of a model's answer quoted back in an error message. */
#define MAX_QUOTED_CHARS 60

/* Each question text is split around the colour letter of the side to move. */
static const struct
{
  const char *id;
  const char *before;
  const char *after;
} questions[KOMI_PROTOCOL_N_QUESTIONS] = {
  { "play_or_pass", "Should ",
    " place a stone now or pass, to win the game under the rules given?" },
  { "best_point", "If ",
    " places a stone now, which point should it be, to win the game under the rules given?" },
};

gboolean
komi_protocol_is_known (guint protocol)
{
  return protocol == 1;
}

/* The resource is compiled in, so a failed lookup is a broken build, not an
 * error a user could act on. The GBytes points into the binary's own data
 * and is kept for the life of the process. */
static GBytes *
rules_1 (void)
{
  static GBytes *bytes = NULL;

  if (g_once_init_enter (&bytes))
    {
      GError *error = NULL;
      GBytes *found = g_resource_lookup_data (komi_get_resource (), RULES_1_PATH,
                                              G_RESOURCE_LOOKUP_FLAGS_NONE, &error);

      g_assert_no_error (error);
      g_once_init_leave (&bytes, found);
    }
  return bytes;
}

GBytes *
komi_protocol_dup_rules (guint protocol)
{
  if (!komi_protocol_is_known (protocol))
    return NULL;
  return g_bytes_ref (rules_1 ());
}

const char *
komi_protocol_get_rules_text (guint protocol, gsize *length)
{
  GBytes *bytes;

  g_return_val_if_fail (komi_protocol_is_known (protocol), NULL);

  /* GResource data is always followed by a NUL byte not counted in its size. */
  bytes = rules_1 ();
  return g_bytes_get_data (bytes, length);
}

const char *
komi_protocol_question_id (KomiProtocolQuestion question)
{
  g_return_val_if_fail (question < KOMI_PROTOCOL_N_QUESTIONS, NULL);

  return questions[question].id;
}

void
komi_protocol_append_question (GString              *out,
                               KomiProtocolQuestion  question,
                               KomiColor             to_move)
{
  g_return_if_fail (question < KOMI_PROTOCOL_N_QUESTIONS);
  g_return_if_fail (to_move == KOMI_BLACK || to_move == KOMI_WHITE);

  /* Neither part has anything JSON would escape. */
  g_string_append (out, questions[question].before);
  g_string_append_c (out, komi_color_to_protocol (to_move)[0]);
  g_string_append (out, questions[question].after);
}

char *
komi_protocol_dup_question_text (KomiProtocolQuestion question, KomiColor to_move)
{
  GString *out = g_string_sized_new (100);

  komi_protocol_append_question (out, question, to_move);
  return g_string_free (out, FALSE);
}

char *
_komi_protocol_trim_answer (const char *answer)
{
  const char *end = answer + strlen (answer);

  while (g_ascii_isspace (*answer))
    answer++;
  while (end > answer && g_ascii_isspace (end[-1]))
    end--;
  return g_strndup (answer, end - answer);
}

char *
_komi_protocol_quote_answer (const char *trimmed)
{
  g_autofree char *valid = g_utf8_make_valid (trimmed, -1);

  if (g_utf8_strlen (valid, -1) > MAX_QUOTED_CHARS)
    {
      g_autofree char *head = g_utf8_substring (valid, 0, MAX_QUOTED_CHARS);

      return g_strdup_printf ("“%s…”", head);
    }
  return g_strdup_printf ("“%s”", valid);
}

gboolean
komi_protocol_parse_play_or_pass (const char  *answer,
                                  gboolean    *place_stone,
                                  GError     **error)
{
  g_autofree char *quoted = NULL;
  g_autofree char *trimmed = NULL;

  g_return_val_if_fail (answer != NULL, FALSE);
  g_return_val_if_fail (place_stone != NULL, FALSE);

  trimmed = _komi_protocol_trim_answer (answer);
  if (strcmp (trimmed, KOMI_PROTOCOL_OPTION_PLACE_STONE) == 0)
    {
      *place_stone = TRUE;
      return TRUE;
    }
  if (strcmp (trimmed, KOMI_PROTOCOL_OPTION_PASS) == 0)
    {
      *place_stone = FALSE;
      return TRUE;
    }
  quoted = _komi_protocol_quote_answer (trimmed);
  /* Protocol text, never translated: stored with the attempt and in the
   * forfeit reason of a model that keeps answering like this. */
  g_set_error (error, KOMI_PROTOCOL_ERROR, KOMI_PROTOCOL_ERROR_INVALID_OPTION,
               "The answer %s to play_or_pass is not one of its options; "
               "it must be exactly “" KOMI_PROTOCOL_OPTION_PLACE_STONE "” or “"
               KOMI_PROTOCOL_OPTION_PASS "”", quoted);
  return FALSE;
}

void
komi_protocol_append_json_string (GString *out, const char *text, gssize length)
{
  static const char hex[] = "0123456789abcdef";
  const char *p, *end, *run;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  end = text + (length < 0 ? strlen (text) : (gsize) length);
  g_string_append_c (out, '"');
  /* Runs of characters that need no escape are copied in one go. */
  for (p = run = text; p < end; p++)
    {
      guchar c = (guchar) *p;
      char esc;

      if (c >= 0x20 && c != '"' && c != '\\')
        continue;
      g_string_append_len (out, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"':  esc = '"';  break;
        case '\\': esc = '\\'; break;
        case '\n': esc = 'n';  break;
        case '\r': esc = 'r';  break;
        case '\t': esc = 't';  break;
        case '\b': esc = 'b';  break;
        case '\f': esc = 'f';  break;
        default:   esc = 'u';  break;
        }
      g_string_append_c (out, '\\');
      g_string_append_c (out, esc);
      if (esc == 'u')
        {
          g_string_append (out, "00");
          g_string_append_c (out, hex[c >> 4]);
          g_string_append_c (out, hex[c & 0xf]);
        }
    }
  g_string_append_len (out, run, p - run);
  g_string_append_c (out, '"');
}
