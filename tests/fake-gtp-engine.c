/* fake-gtp-engine.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A tiny GTP engine for the tests: it plays the first empty point from the
 * top-left (it knows no captures) and misbehaves on request:
 *   --crash-after N    exit with status 3 on genmove number N+1
 *   --crash-once FILE  with --crash-after: crash only if FILE does not exist
 *                      yet, and create it (a crash that a restart cures)
 *   --hang-after N     stop answering on genmove number N+1
 *   --resign-after N   answer "resign" from genmove number N+1 on
 *   --pass-after N     answer "pass" from genmove number N+1 on
 *   --illegal          answer an occupied point when there is one
 *   --garbage          answer genmove with text that is not GTP
 *   --exit-at-start    exit with status 2 before reading anything
 *   --dead TEXT        the answer to final_status_list ("/" = newline)
 *   --log FILE         append every command received to FILE
 *   --delay MS         think MS milliseconds before each genmove answer */

#define G_LOG_DOMAIN "fake-gtp-engine"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#define MAX_SIZE 19

static const char columns[] = "ABCDEFGHJKLMNOPQRST";

static int size = 19;
static char board[MAX_SIZE * MAX_SIZE];

static int crash_after = -1;
static char *crash_once;
static int hang_after = -1;
static int delay_ms;
static int resign_after = -1;
static int pass_after = -1;
static gboolean illegal;
static gboolean garbage;
static gboolean exit_at_start;
static char *dead_text;
static char *log_path;

static void
answer (const char *id,
        gboolean    ok,
        const char *text)
{
  printf ("%c%s %s\n\n", ok ? '=' : '?', id, text);
  fflush (stdout);
}

static int
parse_vertex (const char *v)
{
  const char *col;
  int row;

  if (v == NULL || v[0] == '\0')
    return -2;
  if (g_ascii_strcasecmp (v, "pass") == 0)
    return -1;
  col = strchr (columns, g_ascii_toupper (v[0]));
  row = atoi (v + 1);
  if (col == NULL || col - columns >= size || row < 1 || row > size)
    return -2;
  return (size - row) * size + (int) (col - columns);
}

static void
vertex_name (int point,
             char buf[8])
{
  g_snprintf (buf, 8, "%c%d", columns[point % size], size - point / size);
}

static char *
genmove (char color)
{
  int pick = -1;

  for (int p = 0; p < size * size && pick < 0 && illegal; p++)
    if (board[p] != 0)
      pick = p;
  for (int p = 0; p < size * size && pick < 0; p++)
    if (board[p] == 0)
      pick = p;
  if (pick < 0)
    return g_strdup ("PASS");
  board[pick] = color;
  {
    char name[8];
    vertex_name (pick, name);
    return g_strdup (name);
  }
}

static char *
list_stones (char color)
{
  GString *out = g_string_new (NULL);

  for (int p = 0; p < size * size; p++)
    if (board[p] == color)
      {
        char name[8];
        vertex_name (p, name);
        if (out->len > 0)
          g_string_append_c (out, ' ');
        g_string_append (out, name);
      }
  return g_string_free (out, FALSE);
}

static void
handle (char  *line,
        int   *n_genmoves)
{
  g_auto(GStrv) words = NULL;
  const char *id = "";
  char **w;
  char color;

  g_strstrip (line);
  if (line[0] == '\0' || line[0] == '#')
    return;
  words = g_strsplit_set (line, " \t", -1);
  w = words;
  if (g_ascii_isdigit (w[0][0]))
    id = *w++;
  if (*w == NULL)
    return;

  color = w[1] != NULL && g_ascii_tolower (w[1][0]) == 'w' ? 'w' : 'b';

  if (g_str_equal (w[0], "protocol_version"))
    answer (id, TRUE, "2");
  else if (g_str_equal (w[0], "name"))
    answer (id, TRUE, "Fake GTP");
  else if (g_str_equal (w[0], "version"))
    answer (id, TRUE, "1.0");
  else if (g_str_equal (w[0], "boardsize"))
    {
      int n = w[1] != NULL ? atoi (w[1]) : 0;
      if (n < 2 || n > MAX_SIZE)
        {
          answer (id, FALSE, "unacceptable size");
          return;
        }
      size = n;
      memset (board, 0, sizeof board);
      answer (id, TRUE, "");
    }
  else if (g_str_equal (w[0], "clear_board"))
    {
      memset (board, 0, sizeof board);
      answer (id, TRUE, "");
    }
  else if (g_str_equal (w[0], "komi") || g_str_equal (w[0], "kata-set-rules"))
    answer (id, TRUE, "");
  else if (g_str_equal (w[0], "play"))
    {
      int p = w[1] != NULL ? parse_vertex (w[2]) : -2;
      if (p == -2 || (p >= 0 && board[p] != 0))
        answer (id, FALSE, "illegal move");
      else
        {
          if (p >= 0)
            board[p] = color;
          answer (id, TRUE, "");
        }
    }
  else if (g_str_equal (w[0], "genmove"))
    {
      g_autofree char *move = NULL;
      int n = (*n_genmoves)++;

      if (n == crash_after
          && (crash_once == NULL || !g_file_test (crash_once, G_FILE_TEST_EXISTS)))
        {
          if (crash_once != NULL)
            g_file_set_contents (crash_once, "", 0, NULL);
          exit (3);
        }
      if (n == hang_after)
        for (;;)
          pause ();
      if (resign_after >= 0 && n >= resign_after)
        {
          answer (id, TRUE, "resign");
          return;
        }
      if (pass_after >= 0 && n >= pass_after)
        {
          answer (id, TRUE, "pass");
          return;
        }
      if (garbage)
        {
          printf ("this is not gtp\n\n");
          fflush (stdout);
          return;
        }
      if (delay_ms > 0)
        g_usleep ((gulong) delay_ms * 1000);
      move = genmove (color);
      answer (id, TRUE, move);
    }
  else if (g_str_equal (w[0], "list_stones"))
    {
      g_autofree char *stones = list_stones (color);
      answer (id, TRUE, stones);
    }
  else if (g_str_equal (w[0], "final_status_list"))
    {
      g_autofree char *text = g_strdup (dead_text != NULL ? dead_text : "");
      g_strdelimit (text, "/", '\n');
      answer (id, TRUE, text);
    }
  else if (g_str_equal (w[0], "quit"))
    {
      answer (id, TRUE, "");
      exit (0);
    }
  else
    answer (id, FALSE, "unknown command");
}

int
main (int   argc,
      char *argv[])
{
  GOptionEntry entries[] = {
    { "crash-after", 0, 0, G_OPTION_ARG_INT, &crash_after, "Exit on genmove N+1", "N" },
    { "crash-once", 0, 0, G_OPTION_ARG_FILENAME, &crash_once,
      "Crash only when FILE does not exist, then create it", "FILE" },
    { "hang-after", 0, 0, G_OPTION_ARG_INT, &hang_after, "Hang on genmove N+1", "N" },
    { "delay", 0, 0, G_OPTION_ARG_INT, &delay_ms, "Think MS ms before each move", "MS" },
    { "resign-after", 0, 0, G_OPTION_ARG_INT, &resign_after, "Resign from genmove N+1", "N" },
    { "pass-after", 0, 0, G_OPTION_ARG_INT, &pass_after, "Pass from genmove N+1", "N" },
    { "illegal", 0, 0, G_OPTION_ARG_NONE, &illegal, "Answer occupied points", NULL },
    { "garbage", 0, 0, G_OPTION_ARG_NONE, &garbage, "Answer genmove with garbage", NULL },
    { "exit-at-start", 0, 0, G_OPTION_ARG_NONE, &exit_at_start, "Exit at once", NULL },
    { "dead", 0, 0, G_OPTION_ARG_STRING, &dead_text, "Dead stones to report", "TEXT" },
    { "log", 0, 0, G_OPTION_ARG_FILENAME, &log_path, "Log commands to FILE", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- a fake GTP engine");
  g_autoptr(GError) error = NULL;
  FILE *log = NULL;
  char line[4096];
  int n_genmoves = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "fake-gtp-engine: %s\n", error->message);
      return 1;
    }
  if (exit_at_start)
    {
      fprintf (stderr, "fake-gtp-engine: exiting at start as asked\n");
      return 2;
    }
  if (log_path != NULL && (log = fopen (log_path, "a")) == NULL)
    {
      fprintf (stderr, "fake-gtp-engine: cannot open %s\n", log_path);
      return 1;
    }

  while (fgets (line, sizeof line, stdin) != NULL)
    {
      if (log != NULL)
        {
          fputs (line, log);
          fflush (log);
        }
      handle (line, &n_genmoves);
    }
  return 0;
}
