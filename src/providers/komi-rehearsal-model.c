/* komi-rehearsal-model.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-rehearsal-private.h"

/* The model: one option per question, written token by token with log
 * probabilities so that every API can show the same answer in its own
 * logprob shape. All randomness is seeded by the request body and the
 * server's seed, never by time or a counter: the same request gets the
 * same answer and logprobs, which tests and replays rely on. */

static void
token_free (KomiRehearsalToken *t)
{
  g_free (t->text);
  g_ptr_array_unref (t->alt_text);
  g_array_unref (t->alt_logprob);
  g_free (t);
}

void
_komi_rehearsal_answer_clear (KomiRehearsalAnswer *a)
{
  g_string_free (a->text, TRUE);
  g_ptr_array_unref (a->tokens);
  g_ptr_array_unref (a->answers);
  g_free (a->answer_log);
}

/* FNV-1a: the request body, byte for byte, decides a random answer. */
guint64
_komi_rehearsal_hash_body (GBytes *bytes, guint64 seed)
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
 * scores in which the chosen option is always the most likely (3 or more). */
static double *
option_logprobs (const KomiRehearsalRequest *r, guint q, guint n, guint chosen)
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

/* Appends @text as one token. With @options it is an answer token: its
 * alternatives are the top options by @lp; @chosen == n marks an answer
 * that is no option, which then takes half the probability for itself. */
static void
add_token (KomiRehearsalAnswer *a, const char *text, const KomiRehearsalRequest *r,
           const char * const *options, const double *lp, guint chosen)
{
  KomiRehearsalToken *t = g_new0 (KomiRehearsalToken, 1);
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
  /* top_logprobs 0 asks for no alternatives, not even the token itself. */
  g_ptr_array_set_size (t->alt_text, MIN (t->alt_text->len, r->top_logprobs));
  g_array_set_size (t->alt_logprob, t->alt_text->len);
  g_string_append (a->text, text);
  g_ptr_array_add (a->tokens, t);
}

static void
add_literal (KomiRehearsalAnswer *a, const KomiRehearsalRequest *r, const char *text)
{
  add_token (a, text, r, NULL, NULL, 0);
}

/* Chooses an option per question by the policy and writes the text the
 * API returns, token by token. Several questions make an object keyed by
 * question id, unless the constraint allows only a string. */
void
_komi_rehearsal_answer_init (KomiRehearsalAnswer *a, KomiRehearsalPolicy policy,
                             const KomiRehearsalRequest *r, KomiRehearsalFault fault)
{
  gboolean object = r->mode == KOMI_REHEARSAL_MODE_JSON || r->mode == KOMI_REHEARSAL_MODE_TOOL
                    || (r->mode == KOMI_REHEARSAL_MODE_TEXT && r->ids->len > 1);

  a->text = g_string_new (NULL);
  a->tokens = g_ptr_array_new_with_free_func ((GDestroyNotify) token_free);
  a->answers = g_ptr_array_new_with_free_func (g_free);
  a->fault = fault;

  for (guint q = 0; q < r->ids->len; q++)
    {
      const char * const *opts = r->options->pdata[q];
      guint n = g_strv_length ((GStrv) opts);
      guint64 draw = komi_rehearsal_mix64 (r->hash + q + 1);
      /* A model that passes half its turns ends games before they start:
       * the random policy passes one time in ten, as a weak but willing
       * player would, and picks points uniformly. */
      guint chosen = policy == KOMI_REHEARSAL_POLICY_FIRST ? 0
                     : g_strcmp0 (r->ids->pdata[q], "play_or_pass") == 0 && n == 2
                     ? (draw % 10 == 0 ? 1 : 0)
                     : draw % n;
      g_autofree double *lp = option_logprobs (r, q, n, chosen);
      /* An invalid answer looks like an option but is none of them. */
      const char *answer = fault == KOMI_REHEARSAL_FAULT_INVALID
                           ? (strlen (opts[0]) <= 3 ? "Z9" : "resign") : opts[chosen];
      JsonNode *quoted = json_node_init_string (json_node_alloc (), answer);
      g_autofree char *json = json_to_string (quoted, FALSE);

      json_node_unref (quoted);
      /* In JSON the quotes go in the literal tokens around the answer, so
       * the answer token reads as the option, as its alternatives do. */
      if (object)
        {
          add_literal (a, r, q == 0 ? "{\"" : "\",\"");
          add_literal (a, r, r->ids->len > 1 ? r->ids->pdata[q] : r->property);
          add_literal (a, r, "\":\"");
        }
      else if (r->mode == KOMI_REHEARSAL_MODE_JSON_STRING)
        add_literal (a, r, "\"");
      else if (q > 0)
        add_literal (a, r, "\n");
      json[strlen (json) - 1] = '\0';
      add_token (a, object || r->mode == KOMI_REHEARSAL_MODE_JSON_STRING ? json + 1 : answer,
                 r, opts, lp, fault == KOMI_REHEARSAL_FAULT_INVALID ? n : chosen);
      g_ptr_array_add (a->answers, g_strdup (answer));
    }
  if (object)
    add_literal (a, r, "\"}");
  else if (r->mode == KOMI_REHEARSAL_MODE_JSON_STRING)
    add_literal (a, r, "\"");

  if (fault == KOMI_REHEARSAL_FAULT_TRUNCATED)
    {
      /* Cut in the middle, on a token boundary, so the JSON is unfinished. */
      gsize keep = 0, half = a->text->len / 2;
      guint ntok = 0;

      while (ntok < a->tokens->len
             && keep + strlen (((KomiRehearsalToken *) a->tokens->pdata[ntok])->text)
                <= MAX (half, 1))
        keep += strlen (((KomiRehearsalToken *) a->tokens->pdata[ntok++])->text);
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

  /* Plausible usage: about 4 bytes a token in, 3 out, plus a tool call's. */
  a->input_tokens = MAX (1, r->body_len / 4);
  a->output_tokens = a->text->len / 3 + 1 + (r->mode == KOMI_REHEARSAL_MODE_TOOL ? 24 : 0);
  a->reasoning_tokens = r->reasoning ? 64 + r->hash % 448 : 0;
}
