/* fuzz-sgf.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "fuzz-sgf"

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "komi-sgf-record.h"

/* libFuzzer entry points; declared here because nothing else calls them. */
int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Besides "no crash", the fuzzer checks properties that a wrong reader or
 * writer would break: error messages are valid UTF-8 and located, and a
 * record read from any input can be written and read back unchanged. */

G_GNUC_NORETURN static void
fail (const char *what, const char *detail)
{
  fprintf (stderr, "fuzz-sgf: %s\n%s\n", what, detail != NULL ? detail : "");
  abort ();
}

static void
check_error (const GError *error)
{
  if (error == NULL)
    fail ("failure without a GError", NULL);
  if (error->domain != KOMI_SGF_ERROR)
    fail ("error outside KOMI_SGF_ERROR", error->message);
  if (!g_utf8_validate (error->message, -1, NULL))
    fail ("error message is not UTF-8", NULL);
  if (error->code != KOMI_SGF_ERROR_ILLEGAL_MOVE && error->code != KOMI_SGF_ERROR_TOO_LARGE &&
      error->code != KOMI_SGF_ERROR_NO_GAME && !g_str_has_prefix (error->message, "line "))
    fail ("error without a line and column", error->message);
}

static gboolean
same_array (const GArray *a, const GArray *b)
{
  return a->len == b->len &&
         (a->len == 0 || memcmp (a->data, b->data, a->len * g_array_get_element_size ((GArray *) a)) == 0);
}

/* Setup and area arrays may be absent or all empty: the same position. */
static gboolean
same_points (const guint8 *a, const guint8 *b, guint n)
{
  for (guint i = 0; i < n; i++)
    if ((a != NULL ? a[i] : 0) != (b != NULL ? b[i] : 0))
      return FALSE;
  return TRUE;
}

static void
check_rewrite (const KomiSgfRecord *record)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSgfRecord) again = NULL;
  g_autofree char *text = NULL;
  guint n_points = record->size * record->size;
  KomiSgfGame game;

  komi_sgf_record_as_game (record, &game);
  text = komi_sgf_write (&game);
  if (text == NULL || !g_str_has_suffix (text, ")\n"))
    fail ("writer refused a record the reader accepted", NULL);
  again = komi_sgf_record_from_text (text, strlen (text), &error);
  if (again == NULL)
    fail (error->message, text);
  if (again->size != record->size || again->komi != record->komi)
    fail ("the rewritten size or komi differs", text);
  if (!same_array (again->moves, record->moves) || !same_array (again->dead, record->dead))
    fail ("the rewritten moves or dead stones differ", text);
  if (!same_points (again->setup_colors, record->setup_colors, n_points) ||
      !same_points (again->owner, record->owner, n_points))
    fail ("the rewritten setup or area differs", text);
  if (g_strcmp0 (again->black_name, record->black_name) != 0 ||
      g_strcmp0 (again->result, record->result) != 0 ||
      g_strcmp0 (again->final_comment, record->final_comment) != 0)
    fail ("the rewritten text differs", text);
  if (record->moves->len > 0 && again->first_to_move != record->first_to_move)
    fail ("the rewritten record starts with the other colour", text);
}

/* A critical from g_return_if_fail is a bug. abort() rather than GLib's
 * breakpoint trap, so that libFuzzer saves the input. */
static void
log_handler (const char     *domain,
             GLogLevelFlags  level,
             const char     *message,
             gpointer        user_data)
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

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiSgfTree) tree = NULL;

  tree = komi_sgf_parse ((const char *) data, size, &error);
  if (tree == NULL)
    {
      check_error (error);
      return 0;
    }
  if (komi_sgf_tree_get_n_games (tree) == 0)
    fail ("a parsed collection without a game", NULL);

  for (guint i = 0; i < MIN (komi_sgf_tree_get_n_games (tree), 3); i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(KomiSgfRecord) record = komi_sgf_record_from_tree (tree, i, &local_error);
      g_autoptr(KomiGame) game = NULL;

      if (record == NULL)
        {
          check_error (local_error);
          continue;
        }
      check_rewrite (record);
      game = komi_sgf_record_replay (record, 0, &local_error);
      if (game == NULL)
        check_error (local_error);
      else if (komi_game_get_turns_played (game) != record->moves->len)
        fail ("replay lost moves", NULL);
    }
  return 0;
}
