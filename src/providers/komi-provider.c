/* komi-provider.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-providers"

#include "config.h"

#include <string.h>
#include <time.h>
#include <glib/gi18n-lib.h>

#include "komi-provider.h"
#include "komi-provider-keys.h"
#include "komi-transport.h"
#include "komi-untrusted.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-provider-error-quark, komi_provider_error)

/* One provider object is shared by every game that asks the same model:
 * it holds the caps, the key and one SoupSession. libsoup ≥ 3.2 lets any
 * thread send on a session configured (here, in komi_provider_new) before
 * its first request; nothing else is called on it until the last unref.
 * Worker threads use the blocking API, so each exchange runs its I/O on
 * the asking thread and nothing needs a main loop. */
struct _KomiProvider
{
  KomiProviderProfile  *profile;
  char                 *key;       /* NULL: none; never logged or recorded */
  KomiRedactor         *redactor;  /* the key, in any form a server echoes it */
  char                 *url;
  SoupSession          *session;
  GPtrArray            *headers;      /* name, value, …, NULL: the same for every call */
  char                 *headers_json; /* what the record keeps of them, redacted */
  KomiTransportLimiter  limiter;
  gint                  logprobs_rejected;   /* atomic */
};

static void
provider_clear (gpointer data)
{
  KomiProvider *self = data;

  if (self->key != NULL)
    memset (self->key, 0, strlen (self->key));
  g_free (self->key);
  komi_redactor_free (self->redactor);
  g_free (self->url);
  /* Some header values hold the key. */
  for (guint i = 0; self->headers != NULL && i + 1 < self->headers->len; i++)
    memset (g_ptr_array_index (self->headers, i), 0,
            strlen (g_ptr_array_index (self->headers, i)));
  g_clear_pointer (&self->headers, g_ptr_array_unref);
  g_free (self->headers_json);
  g_clear_object (&self->session);
  komi_transport_limiter_clear (&self->limiter);
  komi_provider_profile_free (self->profile);
}

static GPtrArray *build_headers (KomiProvider *self);
static void       scrub         (const KomiProvider *self, char **text);

KomiProvider *
komi_provider_new (const KomiProviderProfile *profile, GError **error)
{
  const char *key = NULL;
  char *held = NULL;
  KomiProvider *self;

  g_return_val_if_fail (profile != NULL, NULL);

  if (profile->key_env != NULL)
    {
      /* The process's table (the keyring, through the app) first. */
      held = komi_provider_keys_dup (profile->key_env);
      key = held != NULL ? held : g_getenv (profile->key_env);
      if (key == NULL || key[0] == '\0')
        {
          g_set_error (error, KOMI_PROVIDER_ERROR, KOMI_PROVIDER_ERROR_FATAL,
                       _("Set the environment variable %s to your API key (provider “%s”)"),
                       profile->key_env, profile->name);
          return NULL;
        }
    }
  self = komi_provider_new_with_key (profile, key, error);
  komi_provider_keys_free (held);
  return self;
}

KomiProvider *
komi_provider_new_with_key (const KomiProviderProfile  *profile,
                            const char                 *key,
                            GError                    **error)
{
  KomiProvider *self;

  g_return_val_if_fail (profile != NULL, NULL);

  if (key != NULL && key[0] == '\0')
    key = NULL;
  self = g_atomic_rc_box_new0 (KomiProvider);
  self->profile = komi_provider_profile_copy (profile);
  self->key = g_strdup (key);
  self->redactor = komi_redactor_new (key);
  self->url = komi_provider_profile_dup_url (profile);
  self->session = komi_transport_session_new (profile->max_concurrent, profile->timeout_seconds);
  self->headers = build_headers (self);
  self->headers_json = komi_transport_redact_headers ((const char *const *) self->headers->pdata);
  scrub (self, &self->headers_json);
  komi_transport_limiter_init (&self->limiter, profile->max_concurrent,
                               profile->requests_per_minute);
  return self;
}

KomiProvider *
komi_provider_ref (KomiProvider *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
komi_provider_unref (KomiProvider *self)
{
  g_atomic_rc_box_release_full (self, provider_clear);
}

const KomiProviderProfile *
komi_provider_get_profile (KomiProvider *self)
{
  return self->profile;
}

double
komi_provider_attempt_cost (const KomiProviderProfile *profile,
                            const KomiProviderAttempt *attempt)
{
  return (MAX (attempt->tokens_input, 0) * profile->price_input
          + MAX (attempt->tokens_output, 0) * profile->price_output) / 1e6;
}

char *
komi_cost_text (double usd)
{
  g_return_val_if_fail (usd >= 0, g_strdup ("?"));

  if (usd == 0)
    return g_strdup ("$0");
  if (usd < 0.00005)
    return g_strdup ("< $0.0001");
  return g_strdup_printf ("$%.4f", usd);
}

/* A pinned alias may come back as its dated snapshot ("gpt-4o" as
 * "gpt-4o-2024-08-06"): that is the same pin, anything else is not. */
static gboolean
model_matches (const char *pinned, const char *returned)
{
  gsize len = strlen (pinned);

  if (g_str_has_prefix (pinned, "models/"))
    return model_matches (pinned + 7, returned);
  return strcmp (pinned, returned) == 0
    || (strncmp (pinned, returned, len) == 0 && returned[len] == '-'
        && g_ascii_isdigit (returned[len + 1]));
}

/* The key must appear in no record, even if a server echoes it. */
static void
scrub (const KomiProvider *self, char **text)
{
  komi_redactor_apply (self->redactor, text);
}

static GPtrArray *
build_headers (KomiProvider *self)
{
  GPtrArray *h = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (h, g_strdup ("accept"));
  g_ptr_array_add (h, g_strdup ("application/json"));
  switch (self->profile->api)
    {
    case KOMI_PROVIDER_API_OPENAI_CHAT:
    case KOMI_PROVIDER_API_OPENAI_RESPONSES:
      if (self->key != NULL)
        {
          g_ptr_array_add (h, g_strdup ("Authorization"));
          g_ptr_array_add (h, g_strconcat ("Bearer ", self->key, NULL));
        }
      break;
    case KOMI_PROVIDER_API_ANTHROPIC:
      g_ptr_array_add (h, g_strdup ("anthropic-version"));
      g_ptr_array_add (h, g_strdup ("2023-06-01"));
      if (self->key != NULL)
        {
          g_ptr_array_add (h, g_strdup ("x-api-key"));
          g_ptr_array_add (h, g_strdup (self->key));
        }
      break;
    case KOMI_PROVIDER_API_GEMINI:
      if (self->key != NULL)
        {
          g_ptr_array_add (h, g_strdup ("x-goog-api-key"));
          g_ptr_array_add (h, g_strdup (self->key));
        }
      break;
    case KOMI_PROVIDER_N_APIS:
    default:
      g_assert_not_reached ();
    }
  g_ptr_array_add (h, NULL);
  return h;
}

/* OpenAI says "Unsupported parameter: 'logprobs'", Gemini "Logprobs is
 * not supported for this model": any case. */
static gboolean
mentions_logprobs (const char *data, gsize len)
{
  for (gsize i = 0; data != NULL && i + 7 <= len; i++)
    if (g_ascii_strncasecmp (data + i, "logprob", 7) == 0)
      return TRUE;
  return FALSE;
}

static void visible (const KomiProvider *self, char **field);

static void
redact_exchange (const KomiProvider *self, KomiTransportExchange *x)
{
  scrub (self, &x->response_headers);
  /* libsoup's error may quote what the server sent. */
  visible (self, &x->error);
  komi_redactor_apply_bytes (self->redactor, &x->response_body);
}

/* What was decoded from a server's bytes is shown in the window and the
 * terminal: no control characters, valid UTF-8, and the key nowhere
 * (also when a server built it from pieces the body-wide pass missed). */
static void
visible (const KomiProvider *self, char **field)
{
  char *shown;

  if (*field == NULL)
    return;
  shown = komi_untrusted_visible (*field);
  g_free (*field);
  *field = shown;
  scrub (self, field);
}

static void
clean_response (const KomiProvider *self, KomiWireResponse *r)
{
  visible (self, &r->error);
  visible (self, &r->refusal);
  visible (self, &r->finish_reason);
  visible (self, &r->model);
  visible (self, &r->fingerprint);
  visible (self, &r->response_id);
  visible (self, &r->error_code);
}

/* Judges one exchange: sets the outcome, the error text and, for a
 * transport fault, the delay the server asked for (-1: none). */
static void
classify (KomiProvider *self, const KomiTransportExchange *x, const char *const *options,
          gboolean logprobs, KomiWireResponse *r, double *hint)
{
  const KomiProviderProfile *p = self->profile;
  gsize len = 0;
  const char *data = x->response_body != NULL ? g_bytes_get_data (x->response_body, &len) : NULL;
  g_autofree char *message = NULL;

  *hint = -1;
  if (x->status == 0 || x->cut_short)
    {
      r->outcome = x->cancelled ? KOMI_PROVIDER_OUTCOME_CANCELLED
        : KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR;
      r->error = g_strdup (x->error);
      return;
    }
  if (x->status >= 200 && x->status < 300)
    {
      komi_wire_decode (p->api, p->anthropic_tool, data != NULL ? data : "", len, r);
      komi_wire_response_finish (r, options);
      if (r->outcome == KOMI_PROVIDER_OUTCOME_REFUSAL && r->error == NULL)
        r->error = g_strdup_printf ("The model refused: %s", r->refusal);
      else if (r->outcome == KOMI_PROVIDER_OUTCOME_TRUNCATED && r->error == NULL)
        r->error = g_strdup_printf ("The answer was cut short (%s)", r->finish_reason);
      else if (r->outcome == KOMI_PROVIDER_OUTCOME_FILTERED && r->error == NULL)
        r->error = g_strdup_printf ("The answer was filtered (%s)", r->finish_reason);
      return;
    }

  komi_wire_decode_error (data != NULL ? data : "", len, r);
  message = g_strdup_printf ("HTTP %u%s%s", x->status, r->error != NULL ? ": " : "",
                             r->error != NULL ? r->error : "");
  g_free (r->error);
  r->outcome = KOMI_PROVIDER_OUTCOME_FATAL;
  if (x->status == 401 || x->status == 403)
    r->error = g_strdup_printf ("%s. The provider refused the request: check that %s holds a "
                                "valid API key with access to model “%s”", message,
                                p->key_env != NULL ? p->key_env : "the key (no key_env is set)",
                                p->model);
  else if (x->status == 404)
    r->error = g_strdup_printf ("%s. Not found: check \"model\" (%s) and \"base_url\" (%s) in "
                                "the profile", message, p->model, p->base_url);
  else if (x->status == 402 || r->quota)
    r->error = g_strdup_printf ("%s. Out of quota, credits or over the spend limit: add credit "
                                "or raise the limit with the provider", message);
  else if (komi_transport_is_retryable (x->status, x->should_retry))
    {
      r->outcome = KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR;
      r->error = g_steal_pointer (&message);
      *hint = x->retry_after >= 0 ? x->retry_after : r->retry_delay;
    }
  else
    {
      /* A model that rejects logprobs is asked without them from now on. */
      if (x->status == 400 && logprobs && mentions_logprobs (data, len))
        g_atomic_int_set (&self->logprobs_rejected, TRUE);
      r->outcome = KOMI_PROVIDER_OUTCOME_HTTP_ERROR;
      r->error = g_steal_pointer (&message);
    }
}

/* A call's error is stored with its attempt and exported in the call log,
 * so it stays English whatever the user's language. */
static gboolean
fail (GError **error, gint code, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError **error, gint code, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (KOMI_PROVIDER_ERROR, code, format, args));
  va_end (args);
  return FALSE;
}

/* The request half of an attempt, as recorded before it is sent. */
static void
attempt_init (KomiProvider *self, KomiProviderAttempt *a, const char *question, guint number,
              const char *started, const char *body, gboolean logprobs)
{
  *a = (KomiProviderAttempt) {
    .in_flight = TRUE,
    .question = question,
    .attempt = number,
    .started = started,
    .request_url = self->url,
    .request_headers = self->headers_json,
    .request_body = body,
    .tokens_input = -1,
    .tokens_output = -1,
    .tokens_reasoning = -1,
    .tokens_cached = -1,
    .outcome = KOMI_PROVIDER_OUTCOME_IN_FLIGHT,
    .logprobs_requested = logprobs,
    .retry_delay = -1,
    .cost_usd = -1,
  };
}

/* Completes @a from one judged exchange and hands it to @on_attempt. */
static gboolean
report (KomiProvider *self, KomiProviderAttempt *a, KomiTransportExchange *x,
        KomiWireResponse *r, const char *const *options, double delay,
        KomiProviderAttemptFunc on_attempt, gpointer user_data, GError **error)
{
  g_autofree char *probabilities = NULL;

  if (on_attempt == NULL)
    return TRUE;
  probabilities = komi_wire_option_probabilities (r, options);
  a->in_flight = FALSE;
  a->response_status = x->status;
  a->response_headers = x->response_headers;
  a->response_body = x->response_body;
  a->latency_ms = x->latency_ms;
  a->tokens_input = r->tokens_input;
  a->tokens_output = r->tokens_output;
  a->tokens_reasoning = r->tokens_reasoning;
  a->tokens_cached = r->tokens_cached;
  a->model_version = r->model;
  a->finish_reason = r->finish_reason;
  a->answer = r->answer;
  a->outcome = r->outcome;
  a->error = r->error;
  a->system_fingerprint = r->fingerprint;
  a->response_id = r->response_id;
  a->model_mismatch = r->model != NULL && !model_matches (self->profile->model, r->model);
  a->option_probabilities = probabilities;
  a->retry_delay = delay;
  a->cost_usd = komi_provider_attempt_cost (self->profile, a);
  return on_attempt (a, user_data, error);
}

/* "2026-03-14T09:26:53.589Z": the form the library writes itself. */
static void
format_now (char buf[32])
{
  gint64 now = g_get_real_time ();
  time_t seconds = (time_t) (now / G_USEC_PER_SEC);
  struct tm tm;

  gmtime_r (&seconds, &tm);
  g_snprintf (buf, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
              tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
              (int) (now % G_USEC_PER_SEC / 1000));
}

gboolean
komi_provider_ask (KomiProvider             *self,
                   const KomiProtocolState  *state,
                   KomiProtocolQuestion      question,
                   KomiProviderAttemptFunc   on_attempt,
                   gpointer                  user_data,
                   char                    **answer,
                   GCancellable             *cancellable,
                   GError                  **error)
{
  const KomiProviderProfile *p;
  g_auto(GStrv) options = NULL;
  g_autoptr(GString) request = g_string_new (NULL);
  KomiWireQuestion q = { 0 };
  gint64 deadline;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (state != NULL, FALSE);
  g_return_val_if_fail (question < KOMI_PROTOCOL_N_QUESTIONS, FALSE);
  g_return_val_if_fail (komi_protocol_state_has_questions (state), FALSE);
  g_return_val_if_fail (answer != NULL, FALSE);

  p = self->profile;
  options = komi_protocol_state_dup_options (state, question);
  komi_protocol_write_request_for_question (request, state, question);
  q.profile = p;
  q.rules = komi_protocol_get_rules_text (state->protocol, &q.rules_len);
  q.request = request->str;
  q.question_id = komi_protocol_question_id (question);
  q.options = (const char *const *) options;
  deadline = g_get_monotonic_time () + (gint64) (p->retry_seconds * G_USEC_PER_SEC);

  for (guint number = 1;; number++)
    {
      g_auto(KomiTransportExchange) x = { 0 };
      g_auto(KomiWireResponse) r;
      KomiProviderAttempt a;
      char started[32];
      g_autofree char *body = NULL;
      double hint, delay = -1;
      gboolean retry_now = FALSE;

      komi_wire_response_init (&r);
      q.logprobs = p->logprobs && !g_atomic_int_get (&self->logprobs_rejected);
      body = komi_wire_build_body (&q);
      if (!komi_transport_limiter_acquire (&self->limiter, cancellable))
        return !g_cancellable_set_error_if_cancelled (cancellable, error);
      /* Recorded before a byte is sent: a crash from here on leaves the
       * request in the record, marked in flight. */
      format_now (started);
      attempt_init (self, &a, q.question_id, number, started, body, q.logprobs);
      if (on_attempt != NULL && !on_attempt (&a, user_data, error))
        {
          komi_transport_limiter_release (&self->limiter);
          return FALSE;
        }
      komi_transport_post (self->session, self->url, (const char *const *) self->headers->pdata,
                           body, p->timeout_seconds, p->max_response_bytes, &x, cancellable);
      komi_transport_limiter_release (&self->limiter);
      /* Before anything reads it: every field decoded from the body, and
       * the error text that also goes to the caller, come out clean. */
      redact_exchange (self, &x);
      classify (self, &x, q.options, q.logprobs, &r, &hint);
      clean_response (self, &r);

      if (r.outcome == KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR)
        {
          double left = (deadline - g_get_monotonic_time ()) / (double) G_USEC_PER_SEC;

          delay = hint >= 0 ? hint : komi_transport_backoff (number, p->retry_base_ms,
                                                             p->retry_cap_ms);
          if (number >= p->retry_attempts || delay > left)
            delay = -1;
        }
      retry_now = r.outcome == KOMI_PROVIDER_OUTCOME_HTTP_ERROR && q.logprobs
        && g_atomic_int_get (&self->logprobs_rejected) && number < p->retry_attempts;

      if (!report (self, &a, &x, &r, q.options, delay, on_attempt, user_data, error))
        return FALSE;

      switch (r.outcome)
        {
        case KOMI_PROVIDER_OUTCOME_ANSWER:
          *answer = g_steal_pointer (&r.answer);
          return TRUE;
        case KOMI_PROVIDER_OUTCOME_REFUSAL:
        case KOMI_PROVIDER_OUTCOME_TRUNCATED:
        case KOMI_PROVIDER_OUTCOME_FILTERED:
        case KOMI_PROVIDER_OUTCOME_INVALID_OPTION:
          return fail (error, KOMI_PROVIDER_ERROR_MODEL_FAULT, "%s", r.error);
        case KOMI_PROVIDER_OUTCOME_CANCELLED:
          return !g_cancellable_set_error_if_cancelled (cancellable, error);
        case KOMI_PROVIDER_OUTCOME_FATAL:
          return fail (error, KOMI_PROVIDER_ERROR_FATAL, "%s: %s", p->name, r.error);
        case KOMI_PROVIDER_OUTCOME_HTTP_ERROR:
          if (retry_now)
            continue;
          return fail (error, KOMI_PROVIDER_ERROR_FATAL, "%s: %s", p->name, r.error);
        case KOMI_PROVIDER_OUTCOME_TRANSPORT_ERROR:
          if (delay < 0)
            return fail (error, KOMI_PROVIDER_ERROR_TRANSPORT_BUDGET,
                         /* What follows is the caller's to say: a series pauses
                          * (komi-model-player.c), a Test just failed. */
                         "%s: no answer after %u attempts (last: %s)", p->name, number,
                         r.error);
          if (!komi_transport_sleep (delay, cancellable))
            return !g_cancellable_set_error_if_cancelled (cancellable, error);
          break;
        case KOMI_PROVIDER_OUTCOME_IN_FLIGHT:
        default:
          g_assert_not_reached ();
        }
    }
}
