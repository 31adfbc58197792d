/* fuzz-wire.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "fuzz-wire"

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "komi-untrusted.h"
#include "komi-wire-common.h"

/* libFuzzer entry points; declared here because nothing else calls them. */
int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Any bytes a server sends go through every API's response decoder, the
 * error decoder, answer validation and the probability assembly. Besides
 * "no crash", an ANSWER must name an option and texts must be UTF-8. */

static const char *const options[] = { "place a stone", "pass", "B9", "C9", "C8", NULL };

G_GNUC_NORETURN static void
fail (const char *what, const char *detail)
{
  fprintf (stderr, "fuzz-wire: %s\n%s\n", what, detail != NULL ? detail : "");
  abort ();
}

/* A critical from g_return_if_fail is a bug: abort so that the input is kept. */
static void
log_handler (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    fail (domain != NULL ? domain : "log", message);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_log_set_default_handler (log_handler, NULL);
  return 0;
}

static void
check (KomiWireResponse *response)
{
  g_autofree char *probabilities = NULL;

  komi_wire_response_finish (response, options);
  if (response->outcome == KOMI_PROVIDER_OUTCOME_ANSWER
      && (response->answer == NULL || !g_strv_contains (options, response->answer)))
    fail ("an answer that is not an option", response->answer);
  if (response->error != NULL && !g_utf8_validate (response->error, -1, NULL))
    fail ("error text is not UTF-8", NULL);
  probabilities = komi_wire_option_probabilities (response, options);
  if (probabilities != NULL && !g_utf8_validate (probabilities, -1, NULL))
    fail ("probabilities are not UTF-8", NULL);
}

/* What the terminal and the record get of a server's bytes: visible text
 * holds no control byte, and a redacted body no longer holds the key,
 * even when the input was built around it. */
static void
check_untrusted (const uint8_t *data, size_t size)
{
  static const char key[] = "sk-fuzz-0123456789abcdef";
  g_autoptr(KomiRedactor) redactor = komi_redactor_new (key);
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *shown = komi_untrusted_visible (text);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GString) planted = g_string_new_len ((const char *) data, (gssize) size);
  gsize len;
  const char *out;

  if (!g_utf8_validate (shown, -1, NULL))
    fail ("visible text is not UTF-8", NULL);
  for (const char *p = shown; *p != '\0'; p++)
    if (((guchar) *p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
      fail ("visible text holds a control byte", shown);
  g_string_insert (planted, (gssize) (size / 2), key);
  bytes = g_string_free_to_bytes (g_steal_pointer (&planted));
  komi_redactor_apply_bytes (redactor, &bytes);
  out = g_bytes_get_data (bytes, &len);
  if (memmem (out, len, key, strlen (key)) != NULL)
    fail ("the key survived redaction", NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  check_untrusted (data, size);
  for (guint api = 0; api < KOMI_PROVIDER_N_APIS; api++)
    for (guint tool = 0; tool < 2; tool++)
      {
        g_auto(KomiWireResponse) response;

        komi_wire_response_init (&response);
        komi_wire_decode (api, tool, (const char *) data, size, &response);
        check (&response);
      }
  {
    g_auto(KomiWireResponse) response;

    komi_wire_response_init (&response);
    komi_wire_decode_error ((const char *) data, size, &response);
  }
  return 0;
}
