/* komi-wire-logprobs.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-wire-common.h"

/* Assembling option probabilities from token logprobs. The answer is a
 * span of the returned text (the value of "answer" in JSON, or the text
 * itself) split over several tokens. The chosen option's probability is the
 * product over its tokens. Another option gets the probability of the path
 * that leaves the chosen one at some token for an alternative from
 * top_logprobs, when that alternative names the option or is a prefix of
 * no other option (constrained decoding then forces the rest). Options
 * that no alternative reaches are left out: this is a lower bound of the
 * model's distribution, recorded only, never used to choose a move. */

static const char *
find_answer_span (const char *all, gsize *end)
{
  const char *key = strstr (all, "\"answer\"");
  const char *start, *stop;

  if (key != NULL)
    {
      start = key + strlen ("\"answer\"");
      while (g_ascii_isspace (*start))
        start++;
      if (*start != ':')
        return NULL;
      start++;
      while (g_ascii_isspace (*start))
        start++;
      if (*start != '"')
        return NULL;
      start++;
      stop = strchr (start, '"');
      *end = (stop != NULL ? stop : start + strlen (start)) - all;
      return start;
    }
  start = all;
  while (g_ascii_isspace (*start))
    start++;
  if (*start == '"')
    start++;
  stop = all + strlen (all);
  while (stop > start && (g_ascii_isspace (stop[-1]) || stop[-1] == '"'))
    stop--;
  *end = stop - all;
  return start;
}

/* The one option that @prefix (complete when it ended with a quote) can
 * still become, or -1. */
static gint
option_for_prefix (const char *const *options, const char *prefix, gboolean complete)
{
  gint found = -1;

  for (gint i = 0; options[i] != NULL; i++)
    if (complete ? strcmp (options[i], prefix) == 0 : g_str_has_prefix (options[i], prefix))
      {
        if (found >= 0)
          return -1;
        found = i;
      }
  return found;
}

char *
komi_wire_option_probabilities (const KomiWireResponse *response, const char *const *options)
{
  g_autoptr(GString) all = g_string_new (NULL);
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GString) out = NULL;
  g_autofree double *probs = NULL;
  const char *span;
  gsize a, b, n_options = options != NULL ? g_strv_length ((char **) options) : 0;
  double before = 0, chosen = 0;
  gboolean any = FALSE;

  if (response->tokens == NULL || response->tokens->len == 0 || n_options == 0)
    return NULL;
  for (guint i = 0; i < response->tokens->len; i++)
    {
      KomiWireToken *token = g_ptr_array_index (response->tokens, i);

      g_array_append_val (starts, all->len);
      g_string_append (all, token->token);
    }
  span = find_answer_span (all->str, &b);
  if (span == NULL)
    return NULL;
  a = span - all->str;
  probs = g_new (double, n_options);
  for (gsize i = 0; i < n_options; i++)
    probs[i] = NAN;

  for (guint i = 0; i < response->tokens->len; i++)
    {
      KomiWireToken *token = g_ptr_array_index (response->tokens, i);
      gsize start = g_array_index (starts, gsize, i), len = strlen (token->token);
      gsize skip = start < a ? a - start : 0;

      if (start + len <= a || start >= b)
        continue;
      for (guint j = 0; j < token->top->len; j++)
        {
          KomiWireAlternative *alt = &g_array_index (token->top, KomiWireAlternative, j);
          g_autoptr(GString) prefix = NULL;
          char *quote;
          gint option;

          if (strcmp (alt->token, token->token) == 0 || strlen (alt->token) < skip
              || strncmp (alt->token, all->str + start, skip) != 0)
            continue;
          prefix = g_string_new_len (all->str + a, start + skip - a);
          g_string_append (prefix, alt->token + skip);
          quote = strchr (prefix->str, '"');
          if (quote != NULL)
            *quote = '\0';
          option = option_for_prefix (options, prefix->str, quote != NULL);
          if (option >= 0 && isnan (probs[option]))
            probs[option] = exp (before + alt->logprob);
        }
      before += token->logprob;
    }
  chosen = exp (before);
  for (gsize i = 0; i < n_options; i++)
    if (response->answer != NULL && strcmp (options[i], response->answer) == 0
        && all->len >= b && b - a == strlen (options[i])
        && strncmp (all->str + a, options[i], b - a) == 0)
      probs[i] = chosen;

  out = g_string_new ("{");
  for (gsize i = 0; i < n_options; i++)
    if (!isnan (probs[i]) && isfinite (probs[i]))
      {
        char number[G_ASCII_DTOSTR_BUF_SIZE];
        g_autoptr(JsonNode) name = json_node_init_string (json_node_alloc (), options[i]);
        g_autofree char *quoted = json_to_string (name, FALSE);

        g_string_append_printf (out, "%s%s: %s", any ? ", " : "", quoted,
                                g_ascii_formatd (number, sizeof number, "%.6g", probs[i]));
        any = TRUE;
      }
  g_string_append_c (out, '}');
  return any ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}
