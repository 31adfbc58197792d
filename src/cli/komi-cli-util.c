/* komi-cli-util.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-demo-series.h"
#include "komi-coords.h"
#include "komi-untrusted.h"

/* An error may quote a server, a file or a foreign library: its control
 * characters are written out, never sent to the terminal. */
int
komi_cli_fail (const char *subcommand, const GError *error)
{
  g_autofree char *message = komi_untrusted_visible (error->message);

  fprintf (stderr, "komi-cli %s: %s\n", subcommand, message);
  return 1;
}

static void
print_message (const char *subcommand, const char *format, va_list args)
{
  g_autofree char *raw = g_strdup_vprintf (format, args);
  g_autofree char *message = komi_untrusted_visible (raw);

  fprintf (stderr, "komi-cli %s: %s\n", subcommand, message);
}

int
komi_cli_usage (const char *subcommand, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  print_message (subcommand, format, args);
  va_end (args);
  return 2;
}

int
komi_cli_error (const char *subcommand, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  print_message (subcommand, format, args);
  va_end (args);
  return 1;
}

GOptionGroup *
komi_cli_engine_option_group (KomiCliEngineOptions *options)
{
  /* The build's GNU Go path is not in the catalogue: the sentence is
   * translated here, and finds no msgid when GOptionContext looks it up. */
  char *gnugo_help = g_strdup_printf (_("GNU Go binary (default $KOMI_GNUGO, then %s)"),
                                      GNUGO_PATH);
  const GOptionEntry entries[] = {
    { "gnugo", 0, 0, G_OPTION_ARG_FILENAME, &options->gnugo, gnugo_help, N_("PATH") },
    { "katago-binary", 0, 0, G_OPTION_ARG_FILENAME, &options->katago_binary,
      N_("KataGo binary (default $KOMI_KATAGO)"), N_("PATH") },
    { "katago-model", 0, 0, G_OPTION_ARG_FILENAME, &options->katago_model,
      N_("KataGo network (default $KOMI_KATAGO_MODEL)"), N_("PATH") },
    { "katago-config", 0, 0, G_OPTION_ARG_FILENAME, &options->katago_config,
      N_("KataGo GTP config (default $KOMI_KATAGO_CONFIG)"), N_("PATH") },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &options->timeout_s,
      N_("Seconds an engine may take for one command (default 60)"), N_("S") },
    { "referee", 0, 0, G_OPTION_ARG_STRING, &options->referee,
      N_("Who judges dead stones: katago, gnugo or none (default katago when configured, "
         "else gnugo)"), N_("ENGINE") },
    { NULL }
  };
  /* The group owns the help text (its user data) and frees it with itself.
   * GOptionContext prints the group's description untranslated. */
  GOptionGroup *group = g_option_group_new ("engines", _("Engine options:"),
                                            N_("Show the engine options"), gnugo_help, g_free);

  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_group_add_entries (group, entries);
  return group;
}

/* Whether @n arguments are as many as @args asks for. */
static gboolean
args_count_ok (KomiCliArgs args, int n)
{
  switch (args)
    {
    case KOMI_CLI_ARGS_NONE:
      return n == 0;
    case KOMI_CLI_ARGS_ONE:
      return n == 1;
    case KOMI_CLI_ARGS_SOME:
      return n >= 1;
    case KOMI_CLI_ARGS_ANY:
    default:
      return TRUE;
    }
}

/* Prints the usage error for an option GLib refused, as @spec->hint
 * words it, and returns its exit status. */
static int
option_error (const KomiCliOptions *spec, const char *message)
{
  switch (spec->hint)
    {
    case KOMI_CLI_HINT_SEE_HELP:
      return komi_cli_usage (spec->command, _("%s (see 'komi-cli %s --help')"), message,
                             spec->command);
    case KOMI_CLI_HINT_FOR_OPTIONS:
      return komi_cli_usage (spec->command, _("%s; run 'komi-cli %s --help' for the options"),
                             message, spec->command);
    case KOMI_CLI_HINT_NONE:
    default:
      return komi_cli_usage (spec->command, "%s", message);
    }
}

gboolean
komi_cli_parse_options (const KomiCliOptions *spec, int *argc, char ***argv, int *status)
{
  g_autoptr(GOptionContext) context = g_option_context_new (spec->parameters);
  g_autoptr(GError) error = NULL;

  g_assert (spec->args == KOMI_CLI_ARGS_ANY || spec->wrong_args != NULL);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (spec->summary != NULL)
    g_option_context_set_summary (context, spec->summary);
  if (spec->description != NULL)
    g_option_context_set_description (context, spec->description);
  if (spec->entries != NULL)
    g_option_context_add_main_entries (context, spec->entries, GETTEXT_PACKAGE);
  if (spec->engines != NULL)
    g_option_context_add_group (context, komi_cli_engine_option_group (spec->engines));
  if (!g_option_context_parse (context, argc, argv, &error))
    *status = option_error (spec, error->message);
  else if (!args_count_ok (spec->args, *argc - 1))
    *status = komi_cli_usage (spec->command, "%s", _(spec->wrong_args));
  else
    *status = 0;
  return *status == 0;
}

void
komi_cli_engine_options_get (const KomiCliEngineOptions *options, KomiPlayerOptions *out)
{
  *out = (KomiPlayerOptions) {
    .gnugo_path = options->gnugo,
    .katago_binary = options->katago_binary,
    .katago_model = options->katago_model,
    .katago_config = options->katago_config,
    .timeout_ms = options->timeout_s > 0 ? (guint) options->timeout_s * 1000 : 0,
  };
}

void
komi_cli_engine_options_clear (KomiCliEngineOptions *options)
{
  g_clear_pointer (&options->gnugo, g_free);
  g_clear_pointer (&options->katago_binary, g_free);
  g_clear_pointer (&options->katago_model, g_free);
  g_clear_pointer (&options->katago_config, g_free);
  g_clear_pointer (&options->referee, g_free);
}

KomiReferee *
komi_cli_referee_new (const KomiCliEngineOptions *options, GError **error)
{
  KomiPlayerOptions popts;
  const char *which = options->referee;

  komi_cli_engine_options_get (options, &popts);
  if (which == NULL)
    {
      /* KataGo is the protocol's referee; GNU Go serves where none is set up. */
      gboolean have_katago = options->katago_binary != NULL
                             || g_getenv ("KOMI_KATAGO") != NULL;
      which = have_katago ? "katago" : "gnugo";
    }
  if (g_strcmp0 (which, "none") == 0)
    return NULL;
  if (g_strcmp0 (which, "gnugo") != 0 && g_strcmp0 (which, "katago") != 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--referee must be katago, gnugo or none, not “%s”"), which);
      return NULL;
    }
  return komi_referee_new (which, &popts, error);
}

const char *
komi_cli_end_reason_text (KomiEndReason reason)
{
  switch (reason)
    {
    case KOMI_END_NONE:        return _("not over");
    case KOMI_END_TWO_PASSES:  return _("two passes");
    case KOMI_END_TURN_LIMIT:  return _("turn limit");
    default:                   return komi_end_reason_to_string (reason);
    }
}

void
komi_cli_print_turn (FILE           *out,
                     guint           size,
                     guint           turn,
                     const KomiMove *move,
                     const char     *player)
{
  char name[KOMI_NAME_LEN + 1];

  if (move->point == KOMI_PASS)
    /* Translators: "Turn 12: X (gnugo:1) passes"; X and O are the protocol's stones */
    fprintf (out, _("\nTurn %u: %s (%s) passes\n"), turn, komi_color_to_protocol (move->color),
             player);
  else
    /* Translators: "Turn 12: X (gnugo:1) plays E5" */
    fprintf (out, _("\nTurn %u: %s (%s) plays %s\n"), turn,
             komi_color_to_protocol (move->color), player,
             komi_point_to_name (size, move->point, name));
}

void
komi_cli_print_board (FILE *out, const KomiGame *game, KomiPoint last_move)
{
  const KomiBoard *board = komi_game_get_board (game);
  guint size = komi_board_get_size (board);

  fputs ("   ", out);
  for (guint x = 0; x < size; x++)
    fprintf (out, " %c", komi_column_letter (x));
  fputc ('\n', out);
  for (guint y = 0; y < size; y++)
    {
      fprintf (out, "%2u ", size - y);
      for (guint x = 0; x < size; x++)
        {
          KomiPoint p = komi_point_from_xy (size, x, y);
          const char *stone = komi_color_to_protocol (komi_board_get (board, p));

          /* The last move stands in parentheses, eating the spaces around it. */
          if (p == last_move)
            fprintf (out, "(%s", stone);
          else if (x > 0 && komi_point_from_xy (size, x - 1, y) == last_move)
            fprintf (out, ")%s", stone);
          else
            fprintf (out, " %s", stone);
        }
      fprintf (out, "%s %u\n",
               komi_point_from_xy (size, size - 1, y) == last_move ? ")" : " ", size - y);
    }
  fputs ("   ", out);
  for (guint x = 0; x < size; x++)
    fprintf (out, " %c", komi_column_letter (x));
  fputc ('\n', out);
}

void
komi_cli_print_record_result (FILE *out, const KomiGameRecord *record)
{
  guint turns;

  if (record->outcome == KOMI_OUTCOME_VOID)
    {
      fprintf (out, _("Game void (not rated): %s\n"), record->void_reason);
      return;
    }
  if (record->outcome == KOMI_OUTCOME_FORFEIT)
    {
      fprintf (out, _("Game ended by forfeit (%s): %s\n"), record->result, record->void_reason);
      return;
    }
  turns = komi_game_get_turns_played (record->game);
  if (record->end_reason == KOMI_END_NONE)
    fprintf (out, g_dngettext (NULL, "The record ends after %u turn, before the game is over; "
                                     "counted as it stands.\n",
                               "The record ends after %u turns, before the game is over; "
                               "counted as it stands.\n", turns), turns);
  else
    fprintf (out, g_dngettext (NULL, "Game over after %u turn: %s.\n",
                               "Game over after %u turns: %s.\n", turns),
             turns, komi_cli_end_reason_text (record->end_reason));
  if (record->dead->len > 0)
    {
      guint size = komi_game_get_size (record->game);

      fprintf (out, _("Dead stones (judged by %s):"), record->referee);
      for (guint i = 0; i < record->dead->len; i++)
        {
          char name[KOMI_NAME_LEN + 1];
          fprintf (out, " %s",
                   komi_point_to_name (size, g_array_index (record->dead, KomiPoint, i), name));
        }
      fputc ('\n', out);
    }
  else
    /* Translators: %s is the engine that judged, or "nobody" */
    fprintf (out, _("Dead stones (judged by %s): none\n"),
             record->referee != NULL ? record->referee : _("nobody"));
  fprintf (out, _("X (Black, %s): %u stones + %u territory = %g\n"), record->black_name,
           record->score.black_stones, record->score.black_territory, record->score.black_total);
  fprintf (out, _("O (White, %s): %u stones + %u territory + komi %g = %g\n"),
           record->white_name, record->score.white_stones, record->score.white_territory,
           record->score.komi, record->score.white_total);
  if (record->score.winner == KOMI_EMPTY)
    fprintf (out, _("Result: draw (0)\n"));
  else
    /* Translators: "X (Black) wins by 3.5 (B+3.5)"; the last %s is the SGF result */
    fprintf (out, _("Result: %s wins by %g (%s)\n"),
             record->score.winner == KOMI_BLACK ? _("X (Black)") : _("O (White)"),
             record->score.margin, record->result);
}

/* Prints @text as printf's "%*s" would, @width counted in terminal
 * columns (a wide CJK character takes two): right-aligned for a positive
 * width, left-aligned for a negative one. */
static void
komi_cli_print_cell (FILE *out, const char *text, int width)
{
  int columns = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    columns += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  if (width > 0)
    fprintf (out, "%*s%s", MAX (width - columns, 0), "", text);
  else
    fprintf (out, "%s%*s", text, MAX (-width - columns, 0), "");
}

void
komi_cli_print_headings (FILE *out, const KomiCliHeading *headings, guint n_headings)
{
  for (guint i = 0; i < n_headings; i++)
    {
      fprintf (out, "%*s", (int) headings[i].gap, "");
      /* gettext ("") would be the catalogue's header. */
      komi_cli_print_cell (out, headings[i].text[0] != '\0' ? _(headings[i].text) : "",
                           headings[i].width);
    }
  fputc ('\n', out);
}

gboolean
komi_cli_write_file (const char *path, const char *contents, GError **error)
{
  if (g_strcmp0 (path, "-") == 0)
    {
      fputs (contents, stdout);
      return TRUE;
    }
  return g_file_set_contents (path, contents, -1, error);
}

/* A series of the CLI's own making (demo, bench) against one opponent. Its
 * definition is built as JSON, never printed: a player spec or a profile's
 * path may hold quotes, backslashes or any other character. */
KomiSeries *
komi_cli_series_new (const char  *name,
                     const char  *subject,
                     const char  *opponent,
                     guint        pairs,
                     guint64      seed,
                     const char  *referee,
                     guint        jobs,
                     GError     **error)
{
  const char *opponents[] = { opponent, NULL };
  g_autofree char *json = komi_series_definition_build (name, subject, opponents, pairs, seed,
                                                        referee, jobs);

  return komi_series_new_from_json (json, -1, error);
}

gboolean
komi_cli_parse_series (char   **texts,
                       GArray  *ids,
                       GError **error)
{
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    {
      gint64 id = g_ascii_strtoll (texts[i], NULL, 10);

      if (id <= 0)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--series takes a series id such as 3, not “%s”"), texts[i]);
          return FALSE;
        }
      g_array_append_val (ids, id);
    }
  return TRUE;
}
