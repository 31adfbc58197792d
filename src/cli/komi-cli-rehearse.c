/* komi-cli-rehearse.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-rehearsal.h"

/* Called on the server's thread; one line per request, flushed so a pipe
 * or a log file follows along. */
static void
print_event (const KomiRehearsalEvent *event, gpointer user_data)
{
  g_autoptr(GString) line = g_string_new (NULL);

  g_string_append_printf (line, "%s %s -> ", event->method, event->path);
  if (event->fault == KOMI_REHEARSAL_FAULT_TIMEOUT)
    g_string_append (line, _("held (timeout)"));
  else
    g_string_append_printf (line, "%u", event->status);
  if (event->answer != NULL)
    g_string_append_printf (line, " %s", event->answer);
  if (event->fault != KOMI_REHEARSAL_FAULT_NONE && event->fault != KOMI_REHEARSAL_FAULT_TIMEOUT)
    g_string_append_printf (line, _(" [fault %s]"),
                            komi_rehearsal_fault_to_string (event->fault));
  printf ("%s\n", line->str);
  fflush (stdout);
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_CONTINUE;
}

/* `rehearse`: the rehearsal provider in the foreground until Ctrl-C. */
int
komi_cli_rehearse (int argc, char **argv)
{
  int port = 0, latency_ms = 0;
  gint64 seed = 0;
  g_autofree char *faults = NULL, *policy = NULL, *key_env = NULL;
  gboolean reject_logprobs = FALSE;
  const GOptionEntry entries[] = {
    { "port", 0, 0, G_OPTION_ARG_INT, &port, N_("Port on 127.0.0.1 (0, the default: any free "
      "port)"), N_("P") },
    { "latency-ms", 0, 0, G_OPTION_ARG_INT, &latency_ms, N_("Delay every reply by L ms"),
      N_("L") },
    { "faults", 0, 0, G_OPTION_ARG_STRING, &faults, N_("Faults to inject: KIND:PROBABILITY or "
      "KIND@N, comma-separated (429, 500, 529, timeout, malformed, truncated, refusal, "
      "invalid)"), N_("SPEC") },
    { "policy", 0, 0, G_OPTION_ARG_STRING, &policy, N_("How the model answers: random (seeded "
      "by the request, the default) or first"), N_("POLICY") },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, N_("Seed of answers and faults (default 0)"),
      N_("S") },
    { "key-env", 0, 0, G_OPTION_ARG_STRING, &key_env, N_("Require the API key held in the "
      "environment variable NAME"), N_("NAME") },
    { "reject-logprobs", 0, 0, G_OPTION_ARG_NONE, &reject_logprobs, N_("Play a model without "
      "log probabilities: a request asking for them gets the API's 400"), NULL },
    { NULL }
  };
  const KomiCliOptions parse = { "rehearse", N_("- a loopback model server for dry runs (OpenAI, "
    "Anthropic, Gemini)"), .entries = entries, .args = KOMI_CLI_ARGS_NONE,
    .wrong_args = N_("this command takes no file arguments; see --help") };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiRehearsal) rehearsal = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  KomiRehearsalOptions options = { 0, };
  guint sigint, sigterm;
  int status;

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (port < 0 || port > 65535)
    return komi_cli_usage ("rehearse", "%s", _("--port must be between 0 and 65535 (0: any "
                                               "free port)"));
  if (latency_ms < 0)
    return komi_cli_usage ("rehearse", "%s", _("--latency-ms must be 0 or more"));
  if (policy != NULL && strcmp (policy, "random") != 0 && strcmp (policy, "first") != 0)
    return komi_cli_usage ("rehearse", "%s", _("--policy must be random or first"));

  options.port = port;
  options.reject_logprobs = reject_logprobs;
  options.latency_ms = latency_ms;
  options.seed = (guint64) seed;
  options.faults = faults;
  options.policy = g_strcmp0 (policy, "first") == 0
                   ? KOMI_REHEARSAL_POLICY_FIRST : KOMI_REHEARSAL_POLICY_RANDOM;
  options.log_func = print_event;
  if (key_env != NULL)
    {
      options.api_key = g_getenv (key_env);
      if (options.api_key == NULL || *options.api_key == '\0')
        return komi_cli_error ("rehearse", _("the environment variable %s is empty or not set; "
                                             "export it, or leave out --key-env"), key_env);
    }

  if ((rehearsal = komi_rehearsal_new (&options, &error)) == NULL)
    return komi_cli_fail ("rehearse", error);

  /* `bench --models` reads the address from the first line, up to a space. */
  printf (_("Rehearsal provider at %s (Ctrl-C stops it)\n"),
          komi_rehearsal_get_base_url (rehearsal));
  printf ("  OpenAI Chat:      POST /v1/chat/completions\n"
          "  OpenAI Responses: POST /v1/responses\n"
          "  Anthropic:        POST /v1/messages\n"
          "  Gemini:           POST /v1beta/models/MODEL:generateContent\n");
  fflush (stdout);

  loop = g_main_loop_new (NULL, FALSE);
  sigint = g_unix_signal_add (SIGINT, quit_loop, loop);
  sigterm = g_unix_signal_add (SIGTERM, quit_loop, loop);
  g_main_loop_run (loop);
  g_source_remove (sigint);
  g_source_remove (sigterm);

  {
    guint n = komi_rehearsal_get_request_count (rehearsal, NULL);

    printf (g_dngettext (NULL, "Stopped after %u request.\n", "Stopped after %u requests.\n",
                         n), n);
  }
  return 0;
}
