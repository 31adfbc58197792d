/* komi-test-soup-server.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>
#include <string.h>

#include "komi-protocol-state.h"
#include "komi-provider.h"
#include "komi-test-util.h"

/* Shared by the provider tests: a loopback SoupServer, the canned replies
 * of each API kind, and the attempt recorder that checks for the key. */

/* Every exchange goes to a loopback SoupServer running on a thread of its
 * own, answering from a queue of canned replies. */

#define KEY_ENV "KOMI_TEST_PROVIDER_KEY"

extern const char example_diagram[];

/* Set by test_key_init (); every recorded field is checked against it. */
extern char *test_key;

extern const char chat_ok[];
extern const char responses_ok[];
extern const char anthropic_ok[];
extern const char gemini_ok[];

typedef struct
{
  guint  status;
  char  *header;      /* "name: value" or NULL */
  char  *body;
  guint  delay_ms;
} Reply;

typedef struct
{
  char        *path;
  SoupMessageHeaders *headers;
  char        *body;
  gint64       arrived;     /* g_get_monotonic_time () when the handler ran */
} Request;

typedef struct
{
  GMutex       lock;
  GMainContext *context;
  gint         stopping;   /* atomic: the server thread ends */
  GThread     *thread;
  SoupServer  *server;
  char        *base;         /* http://127.0.0.1:PORT */
  GQueue       replies;      /* Reply*, used in order; the last one repeats */
  GPtrArray   *requests;     /* Request* */
  guint        in_flight;
  guint        max_in_flight;
} Server;

void
server_add_reply (Server *server, guint status, const char *header, const char *body,
                  guint delay_ms);

Server *
server_new (void);

void
server_free (Server *server);

/* Attempts as recorded, copied; each is checked for the key on arrival. */
typedef struct
{
  char               *url, *request_headers, *request_body, *response_headers, *error;
  char               *model_version, *answer, *finish_reason, *probabilities;
  gint                status;
  gint64              tokens_input, tokens_output, tokens_reasoning, tokens_cached;
  KomiProviderOutcome outcome;
  gboolean            mismatch;
  guint               number;
} Attempt;

void
attempt_free (gpointer data);

void
assert_no_key (const char *text);

gboolean
record_attempt (const KomiProviderAttempt *attempt, gpointer data, GError **error);

KomiProviderProfile *
profile_for (const Server *server, const char *api, const char *extra);

void
example_state (KomiProtocolState *state);

/* One call of @question; returns the answer or NULL with @error set. */
char *
ask (Server *server, const char *api, const char *extra, KomiProtocolQuestion question,
     GPtrArray *attempts, GError **error);

/* A recognisable random key in KEY_ENV, checked against every recorded field. */
void
test_key_init (void);
