/* komi-cli-ladder-check.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-cli"

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "komi-cli.h"
#include "komi-cli-util.h"
#include "komi-coords.h"
#include "komi-ladder-pins.h"
#include "komi-ladder-ship.h"

/* `ladder check` and `ladder record`: the ladder's members checked by what
 * they do. Engines are seeded and deterministic, so a calibration game
 * played again with the same seed repeats move for move; Komi ships a few
 * such games with every move (data/ladder/protocol-N-replays.json, made by
 * `ladder record`), and `check` plays each again on this machine and
 * compares every move and the result. An engine that reports the same
 * name but plays otherwise (other visits, another config, another level)
 * is caught at the first move that differs. */

typedef struct
{
  char    *black;
  char    *white;
  guint64  seed;
  guint    orientation;
  char    *result;       /* SGF RE as recorded (judged by the ladder's referee) */
  char    *end_reason;   /* "two-passes", "turn-limit" */
  GArray  *moves;        /* KomiPoint, Black first, colours alternating */
} Replay;

static void
replay_free (Replay *replay)
{
  g_free (replay->black);
  g_free (replay->white);
  g_free (replay->result);
  g_free (replay->end_reason);
  if (replay->moves != NULL)
    g_array_unref (replay->moves);
  g_free (replay);
}

/* What playing one replay again gave. */
typedef enum
{
  REPLAY_SAME,
  REPLAY_MOVE_DIFFERS,     /* @turn: @expected, @got */
  REPLAY_RESULT_DIFFERS,   /* the same moves, another result */
  REPLAY_PINS_DIFFER,      /* the same moves, but @color's identity is not the pinned one */
  REPLAY_CANNOT_PLAY,      /* @reason */
} ReplayStatus;

typedef struct
{
  const Replay     *replay;
  guint             index;      /* 1-based, in the file */
  ReplayStatus      status;
  guint             turn;       /* 1-based: the move that differs */
  KomiColor         color;      /* whose move or identity differs */
  char             *expected;
  char             *got;
  char             *reason;
  char             *referee;    /* who judged the dead stones */
  KomiGameRecord   *record;
} ReplayRun;

static void
replay_run_clear (ReplayRun *run)
{
  g_free (run->expected);
  g_free (run->got);
  g_free (run->reason);
  g_free (run->referee);
  g_clear_pointer (&run->record, komi_game_record_free);
}

static char *
move_text (KomiPoint point)
{
  char buf[KOMI_NAME_LEN + 1];

  return g_strdup (komi_point_to_name (9, point, buf));
}

static const char *
color_text (KomiColor color)
{
  return color == KOMI_BLACK ? _("Black") : _("White");
}

static KomiLadder *
load_ladder (const char *path, GError **error)
{
  return path != NULL ? komi_ladder_load (path, error) : komi_ladder_shipped (1, error);
}

/* --- the file ------------------------------------------------------------ */

static gboolean
parse_moves (const char *text, GArray *moves, GError **error)
{
  g_auto(GStrv) words = g_strsplit_set (text, " \t\n", -1);

  for (guint i = 0; words[i] != NULL; i++)
    {
      KomiPoint point;

      if (words[i][0] == '\0')
        continue;
      if (!komi_point_from_name (9, words[i], &point))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“%s” is not a move on the 9x9 board"), words[i]);
          return FALSE;
        }
      g_array_append_val (moves, point);
    }
  return TRUE;
}

static GPtrArray *
replays_parse (const char *text, gsize length, const char *name, guint *protocol,
               GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) replays = g_ptr_array_new_with_free_func ((GDestroyNotify) replay_free);
  g_autoptr(GError) local = NULL;
  JsonObject *root;
  JsonArray *games;
  JsonNode *node;

  if (!json_parser_load_from_data (parser, text, (gssize) length, &local)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not a file of recorded games: %s"), name,
                   local != NULL ? local->message : _("it is not a JSON object"));
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  *protocol = (guint) json_object_get_int_member_with_default (root, "protocol", 0);
  node = json_object_get_member (root, "games");
  games = node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  if (games == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not a file of recorded games: it has no “games” list"), name);
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (games); i++)
    {
      JsonNode *element = json_array_get_element (games, i);
      JsonObject *game = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                          : NULL;
      Replay *replay = g_new0 (Replay, 1);
      const char *seed = NULL, *moves = NULL;

      g_ptr_array_add (replays, replay);
      replay->moves = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
      if (game != NULL)
        {
          replay->black = g_strdup (json_object_get_string_member_with_default (game, "black",
                                                                                 NULL));
          replay->white = g_strdup (json_object_get_string_member_with_default (game, "white",
                                                                                 NULL));
          seed = json_object_get_string_member_with_default (game, "seed", NULL);
          moves = json_object_get_string_member_with_default (game, "moves", NULL);
          replay->orientation =
            (guint) json_object_get_int_member_with_default (game, "orientation", 0);
          replay->result = g_strdup (json_object_get_string_member_with_default (game, "result",
                                                                                  NULL));
          replay->end_reason =
            g_strdup (json_object_get_string_member_with_default (game, "end_reason", NULL));
        }
      if (replay->black == NULL || replay->white == NULL || seed == NULL || moves == NULL
          || !g_ascii_string_to_unsigned (seed, 10, 0, G_MAXUINT64, &replay->seed, NULL)
          || replay->orientation >= KOMI_N_ORIENTATIONS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s, game %u: a recorded game needs black, white, a seed (a whole "
                         "number as text), an orientation 0-7 and its moves"), name, i + 1);
          return NULL;
        }
      if (!parse_moves (moves, replay->moves, &local))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s, game %u: %s"), name,
                       i + 1, local->message);
          return NULL;
        }
    }
  return g_steal_pointer (&replays);
}

static GPtrArray *
replays_load (const char *path, guint protocol, GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize length = 0;
  guint file_protocol = 0;
  GPtrArray *replays;

  if (path != NULL)
    {
      if (!g_file_get_contents (path, &text, &length, error))
        return NULL;
      return replays_parse (text, length, path, &file_protocol, error);
    }
  bytes = komi_ladder_shipped_replays (protocol);
  if (bytes == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Komi ships no recorded games for Protocol %u; give some with --games "
                     "(made by 'komi-cli ladder record')"), protocol);
      return NULL;
    }
  replays = replays_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                           _("the shipped recorded games"), &file_protocol, error);
  return replays;
}

/* Reads the games to record: CSV with a header naming at least black,
 * white and seed (the shipped protocol-N-games.csv has these, orientation,
 * result and end_reason). */
static GPtrArray *
picks_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL, header = NULL;
  g_autoptr(GPtrArray) replays = g_ptr_array_new_with_free_func ((GDestroyNotify) replay_free);
  int col[6] = { -1, -1, -1, -1, -1, -1 };
  static const char *const names[] = { "black", "white", "seed", "orientation", "result",
                                       "end_reason" };

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  header = g_strsplit (g_strstrip (lines[0]), ",", -1);
  for (guint c = 0; header[c] != NULL; c++)
    for (guint k = 0; k < G_N_ELEMENTS (names); k++)
      if (strcmp (header[c], names[k]) == 0)
        col[k] = (int) c;
  if (col[0] < 0 || col[1] < 0 || col[2] < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: the first line must name the columns, among them black, white and "
                     "seed"), path);
      return NULL;
    }
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cells = NULL;
      Replay *replay;
      guint n;
      guint64 orientation = 0;

      if (*g_strstrip (lines[i]) == '\0')
        continue;
      cells = g_strsplit (lines[i], ",", -1);
      n = g_strv_length (cells);
      replay = g_new0 (Replay, 1);
      g_ptr_array_add (replays, replay);
      replay->moves = g_array_new (FALSE, FALSE, sizeof (KomiPoint));
      if ((guint) MAX (col[0], MAX (col[1], col[2])) >= n
          || !g_ascii_string_to_unsigned (cells[col[2]], 10, 0, G_MAXUINT64, &replay->seed,
                                          NULL)
          || (col[3] >= 0 && ((guint) col[3] >= n
                              || !g_ascii_string_to_unsigned (cells[col[3]], 10, 0,
                                                              KOMI_N_ORIENTATIONS - 1,
                                                              &orientation, NULL))))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s, line %u: a game needs black, white, a seed (a whole number) and "
                         "an orientation 0-7"), path, i + 1);
          return NULL;
        }
      replay->black = g_strdup (cells[col[0]]);
      replay->white = g_strdup (cells[col[1]]);
      replay->orientation = (guint) orientation;
      if (col[4] >= 0 && (guint) col[4] < n && cells[col[4]][0] != '\0')
        replay->result = g_strdup (cells[col[4]]);
      if (col[5] >= 0 && (guint) col[5] < n && cells[col[5]][0] != '\0')
        replay->end_reason = g_strdup (cells[col[5]]);
    }
  return g_steal_pointer (&replays);
}

/* --- playing a replay ------------------------------------------------------ */

typedef struct
{
  const KomiLadder *ladder;
  ReplayRun        *run;
  gboolean          recording;  /* no moves to compare: they are being recorded */
} PlayData;

/* The players' identities against their pins, once they have started. */
static gboolean
replay_started (const KomiGameRecord *record, gpointer user_data, GError **error)
{
  PlayData *data = user_data;
  ReplayRun *run = data->run;
  const char *labels[2] = { run->replay->black, run->replay->white };
  const char *names[2] = { record->black_name, record->white_name };
  const char *settings[2] = { record->black_settings, record->white_settings };

  for (guint c = 0; c < 2 && run->reason == NULL; c++)
    {
      const KomiLadderMember *member = komi_ladder_lookup (data->ladder, labels[c]);

      if (member != NULL && member->pins != NULL
          && !komi_ladder_pins_match (member->pins, names[c], settings[c], &run->reason))
        run->color = c == 0 ? KOMI_BLACK : KOMI_WHITE;
    }
  return TRUE;
}

/* Every move against the recorded one; the first that differs stops the
 * game (what follows would differ anyway). */
static gboolean
replay_moved (const KomiGame *game, const KomiMove *move, gpointer user_data, GError **error)
{
  PlayData *data = user_data;
  ReplayRun *run = data->run;
  guint turn = komi_game_get_turns_played (game);
  const GArray *moves = run->replay->moves;

  if (data->recording
      || (turn <= moves->len && g_array_index (moves, KomiPoint, turn - 1) == move->point))
    return TRUE;
  run->status = REPLAY_MOVE_DIFFERS;
  run->turn = turn;
  run->color = move->color;
  run->expected = turn <= moves->len
                  ? move_text (g_array_index (moves, KomiPoint, turn - 1))
                  : g_strdup (_("the end of the game"));
  run->got = move_text (move->point);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "move differs");
  return FALSE;
}

static void
replay_play (const KomiLadder        *ladder,
             gboolean                 recording,
             const KomiPlayerOptions *opts,
             KomiReferee             *referee,
             ReplayRun               *run)
{
  const Replay *replay = run->replay;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayer) black = komi_player_new_from_spec (replay->black, opts, &error);
  g_autoptr(KomiPlayer) white = NULL;
  PlayData data = { ladder, run, recording };
  KomiMatchSettings settings = {
    .size = 9, .komi = 7, .max_turns = KOMI_PROTOCOL_MAX_TURNS,
    .seed = replay->seed, .orientation = (KomiOrientation) replay->orientation,
    .referee = referee, .on_start = replay_started, .on_move = replay_moved,
    .user_data = &data,
  };
  KomiGameRecord *record = NULL;

  run->status = REPLAY_SAME;
  if (black != NULL)
    white = komi_player_new_from_spec (replay->white, opts, &error);
  if (white != NULL)
    {
      settings.black = black;
      settings.white = white;
      record = komi_match_play_game (&settings, NULL, &error);
    }
  if (run->status == REPLAY_MOVE_DIFFERS)
    return;
  if (record == NULL)
    {
      run->status = REPLAY_CANNOT_PLAY;
      g_free (run->reason);
      run->reason = g_strdup (error->message);
      return;
    }
  run->record = record;
  run->referee = g_strdup (record->referee);
  if (replay->moves->len > 0 && komi_game_get_turns_played (record->game) < replay->moves->len)
    {
      /* Ended early: voided by an engine fault, most likely. */
      run->status = REPLAY_MOVE_DIFFERS;
      run->turn = komi_game_get_turns_played (record->game) + 1;
      run->color = run->turn % 2 == 1 ? KOMI_BLACK : KOMI_WHITE;
      run->expected = move_text (g_array_index (replay->moves, KomiPoint, run->turn - 1));
      run->got = g_strdup (record->void_reason != NULL ? record->void_reason
                                                       : _("the end of the game"));
      return;
    }
  if (run->reason != NULL)
    {
      run->status = REPLAY_PINS_DIFFER;
      return;
    }
  if (referee != NULL && replay->result != NULL && g_strcmp0 (record->result, replay->result) != 0)
    {
      run->status = REPLAY_RESULT_DIFFERS;
      run->expected = g_strdup (replay->result);
      run->got = g_strdup (record->result);
    }
}

/* Worker threads take the next replay until none is left. */
typedef struct
{
  const KomiLadder           *ladder;
  const KomiCliEngineOptions *engines;
  gboolean                    referee_wanted;
  gboolean                    recording;
  ReplayRun                  *runs;
  guint                       n_runs;
  gint                        next;     /* atomic */
  GMutex                      lock;
  guint                       done;
  gboolean                    progress;
} Pool;

static gpointer
pool_worker (gpointer user_data)
{
  Pool *pool = user_data;
  g_autoptr(KomiReferee) referee = NULL;
  g_autoptr(GError) error = NULL;
  KomiPlayerOptions opts;

  komi_cli_engine_options_get (pool->engines, &opts);
  if (pool->referee_wanted)
    referee = komi_cli_referee_new (pool->engines, &error);
  for (;;)
    {
      guint i = (guint) g_atomic_int_add (&pool->next, 1);

      if (i >= pool->n_runs)
        break;
      if (pool->referee_wanted && referee == NULL && error != NULL)
        {
          pool->runs[i].status = REPLAY_CANNOT_PLAY;
          pool->runs[i].reason = g_strdup (error->message);
        }
      else
        replay_play (pool->ladder, pool->recording, &opts, referee, &pool->runs[i]);
      g_mutex_lock (&pool->lock);
      pool->done++;
      if (pool->progress)
        {
          fputc ('\r', stderr);
          fprintf (stderr, _("%u of %u games replayed"), pool->done, pool->n_runs);
          fflush (stderr);
        }
      g_mutex_unlock (&pool->lock);
    }
  return NULL;
}

static void
pool_run (Pool *pool, guint jobs)
{
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();

  g_mutex_init (&pool->lock);
  jobs = CLAMP (jobs, 1, MAX (pool->n_runs, 1));
  for (guint j = 0; j < jobs; j++)
    g_ptr_array_add (threads, g_thread_new ("komi-replay", pool_worker, pool));
  for (guint j = 0; j < threads->len; j++)
    g_thread_join (threads->pdata[j]);
  if (pool->progress)
    fputc ('\n', stderr);
  g_mutex_clear (&pool->lock);
}

static char *
seconds_text (double seconds)
{
  if (seconds < 60)
    return g_strdup_printf (_("%.1f s"), seconds);
  return g_strdup_printf (_("%u min %02u s"), (guint) (seconds / 60), (guint) seconds % 60);
}

static gboolean
replay_has (const Replay *replay, const char *label)
{
  return strcmp (replay->black, label) == 0 || strcmp (replay->white, label) == 0;
}

/* The player whose move (or identity) @run names. */
static const char *
run_culprit (const ReplayRun *run)
{
  return run->color == KOMI_WHITE ? run->replay->white : run->replay->black;
}

static char *
run_describe (const ReplayRun *run)
{
  const Replay *replay = run->replay;
  g_autofree char *game = g_strdup_printf (_("game %u (%s against %s, seed %" PRIu64 ")"),
                                           run->index, replay->black, replay->white,
                                           replay->seed);

  switch (run->status)
    {
    case REPLAY_MOVE_DIFFERS:
      return g_strdup_printf (_("%s, move %u (%s): expected %s, got %s"), game, run->turn,
                              color_text (run->color), run->expected, run->got);
    case REPLAY_RESULT_DIFFERS:
      return g_strdup_printf (_("%s: the same moves, but the result is %s where the ladder's "
                                "referee gave %s (judged by %s)"), game, run->got,
                              run->expected, run->referee != NULL ? run->referee
                                                                  : _("no referee"));
    case REPLAY_PINS_DIFFER:
      return g_strdup_printf (_("%s: the same moves, but %s"), game, run->reason);
    case REPLAY_CANNOT_PLAY:
      return g_strdup_printf (_("%s cannot be played: %s"), game, run->reason);
    case REPLAY_SAME:
    default:
      return g_strdup (game);
    }
}

/* --- ladder check ---------------------------------------------------------- */

int
komi_cli_ladder_check (int argc, char **argv)
{
  g_auto(KomiCliEngineOptions) engines = { 0, };
  g_autofree char *path = NULL, *games_path = NULL, *took = NULL;
  g_auto(GStrv) members = NULL;
  int jobs = 2, status;
  gboolean progress = FALSE;
  const GOptionEntry entries[] = {
    { "ladder", 'l', 0, G_OPTION_ARG_FILENAME, &path,
      N_("A ladder file instead of the shipped Protocol 1 ladder"), N_("FILE") },
    { "games", 'g', 0, G_OPTION_ARG_FILENAME, &games_path,
      N_("Recorded games instead of the shipped ones (made by komi-cli ladder record)"),
      N_("FILE") },
    { "member", 'm', 0, G_OPTION_ARG_STRING_ARRAY, &members,
      N_("Check only this member: the recorded games it played (repeatable)"), N_("LABEL") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, N_("Games played at once (default 2)"),
      N_("N") },
    { "progress", 0, 0, G_OPTION_ARG_NONE, &progress,
      N_("Count the games replayed on stderr as they end"), NULL },
    { NULL }
  };
  const KomiCliOptions parse = { "ladder", N_("- replay the ladder's recorded games with this "
    "machine's engines and compare every move"), .entries = entries, .engines = &engines };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GPtrArray) replays = NULL;
  g_autoptr(GPtrArray) selected = g_ptr_array_new ();
  g_autoptr(GArray) runs = g_array_new (FALSE, TRUE, sizeof (ReplayRun));
  g_autoptr(GHashTable) named = g_hash_table_new (g_str_hash, g_str_equal);
  Pool pool = { 0, };
  gint64 start;
  guint differ = 0;
  gboolean referee_ok = TRUE;

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  /* Counted here: a wrong --jobs is said before an argument too many. */
  if (jobs < 1)
    return komi_cli_usage ("ladder", "%s", _("--jobs must be 1 or more"));
  if (argc != 1)
    return komi_cli_usage ("ladder", "%s", _("unexpected argument (see komi-cli ladder check "
                                             "--help)"));
  if ((ladder = load_ladder (path, &error)) == NULL
      || (replays = replays_load (games_path, ladder->protocol, &error)) == NULL)
    return komi_cli_fail ("ladder", error);
  for (guint m = 0; members != NULL && members[m] != NULL; m++)
    if (komi_ladder_lookup (ladder, members[m]) == NULL)
      {
        g_autoptr(GString) list = g_string_new (NULL);

        for (guint i = 0; i < ladder->members->len; i++)
          g_string_append_printf (list, "%s%s", i > 0 ? ", " : "",
                                  ((KomiLadderMember *) ladder->members->pdata[i])->label);
        return komi_cli_usage ("ladder", _("“%s” is not a member of the ladder; its members "
                                           "are %s"), members[m], list->str);
      }
  for (guint i = 0; i < ladder->members->len; i++)
    {
      KomiLadderMember *member = ladder->members->pdata[i];

      if (members == NULL || g_strv_contains ((const char *const *) members, member->label))
        g_ptr_array_add (selected, member);
    }
  /* The games of the members checked, each once. */
  for (guint r = 0; r < replays->len; r++)
    for (guint i = 0; i < selected->len; i++)
      if (replay_has (replays->pdata[r], ((KomiLadderMember *) selected->pdata[i])->label))
        {
          ReplayRun run = { .replay = replays->pdata[r], .index = r + 1 };

          g_array_append_val (runs, run);
          break;
        }

  printf (g_dngettext (GETTEXT_PACKAGE,
                       "Replaying %u recorded calibration game of the Protocol %u ladder with "
                       "this machine's engines, every move compared (%d at a time):\n",
                       "Replaying %u recorded calibration games of the Protocol %u ladder with "
                       "this machine's engines, every move compared (%d at a time):\n",
                       runs->len), runs->len, ladder->protocol, jobs);
  fflush (stdout);
  start = g_get_monotonic_time ();
  pool.ladder = ladder;
  pool.engines = &engines;
  pool.referee_wanted = ladder->referee != NULL && g_strcmp0 (engines.referee, "none") != 0;
  pool.runs = (ReplayRun *) (void *) runs->data;
  pool.n_runs = runs->len;
  pool.progress = progress;
  pool_run (&pool, (guint) jobs);

  for (guint i = 0; i < selected->len; i++)
    {
      const KomiLadderMember *member = selected->pdata[i];
      guint games = 0, own = 0, cut = 0;
      const ReplayRun *bad = NULL;

      for (guint r = 0; r < runs->len; r++)
        {
          const ReplayRun *run = &g_array_index (runs, ReplayRun, r);

          if (!replay_has (run->replay, member->label))
            continue;
          games++;
          /* The same moves with another count is the referee's judgement
           * of the dead stones (KataGo's search is not the same from one
           * run to the next), not the members': said below, apart. */
          if (run->status == REPLAY_SAME || run->status == REPLAY_RESULT_DIFFERS)
            for (guint t = 0; t < run->replay->moves->len; t++)
              own += strcmp (t % 2 == 0 ? run->replay->black : run->replay->white,
                             member->label) == 0;
          else if (run->status == REPLAY_CANNOT_PLAY
                   || strcmp (run_culprit (run), member->label) == 0)
            bad = bad != NULL ? bad : run;
          else
            cut++;   /* its opponent differs: the game stopped there */
        }
      if (games == 0)
        printf (_("  %-20s has no recorded game: not checked\n"), member->label);
      else if (bad != NULL)
        {
          g_autofree char *what = run_describe (bad);

          printf (_("  %-20s differs: %s\n"), member->label, what);
          g_hash_table_add (named, (gpointer) member->label);
          differ++;
        }
      else if (cut == games)
        printf (_("  %-20s not checked: its opponents differ first\n"), member->label);
      else
        {
          printf (g_dngettext (GETTEXT_PACKAGE, "  %-20s plays as recorded: %u game, %u of "
                                                "its moves",
                               "  %-20s plays as recorded: %u games, %u of its moves",
                               games - cut),
                  member->label, games - cut, own);
          if (cut > 0)
            printf (g_dngettext (GETTEXT_PACKAGE, " (%u more stopped where its opponent differs)",
                                 " (%u more stopped where its opponents differ)", cut), cut);
          putchar ('\n');
        }
    }
  /* An opponent that differs where the member checked did not. */
  for (guint r = 0; r < runs->len; r++)
    {
      const ReplayRun *run = &g_array_index (runs, ReplayRun, r);

      if (run->status == REPLAY_RESULT_DIFFERS)
        {
          g_autofree char *what = run_describe (run);

          printf (_("  Note: %s. Every move is as recorded; the referee judged the dead stones "
                    "otherwise this time, which is not counted against the members.\n"), what);
        }

      if (run->status == REPLAY_MOVE_DIFFERS || run->status == REPLAY_PINS_DIFFER)
        if (!g_hash_table_contains (named, run_culprit (run)))
          {
            g_autofree char *what = run_describe (run);

            printf (_("  %-20s differs: %s\n"), run_culprit (run), what);
            g_hash_table_add (named, (gpointer) run_culprit (run));
            differ++;
          }
      if (pool.referee_wanted && run->referee != NULL && referee_ok
          && g_strcmp0 (run->referee, ladder->referee) != 0)
        {
          printf (_("  The dead stones were judged by %s, not by the ladder's referee %s\n"),
                  run->referee, ladder->referee);
          referee_ok = FALSE;
        }
    }
  took = seconds_text ((double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);
  printf (_("Replayed %u games in %s.\n"), runs->len, took);
  for (guint r = 0; r < runs->len; r++)
    replay_run_clear (&g_array_index (runs, ReplayRun, r));
  if (differ == 0 && referee_ok)
    {
      printf (_("Every member checked plays its recorded games move for move: games against "
                "them are rated on the ladder's scale.\n"));
      return 0;
    }
  if (differ > 0)
    printf (g_dngettext (GETTEXT_PACKAGE,
                         "%u member does not match the ladder's: games against it would not "
                         "be on the ladder's scale. Install the engine build, network and "
                         "settings the ladder names (komi-cli ladder show --json lists them), or "
                         "point --gnugo/--katago-* at them.\n",
                         "%u members do not match the ladder's: games against them would not "
                         "be on the ladder's scale. Install the engine builds, network and "
                         "settings the ladder names (komi-cli ladder show --json lists them), or "
                         "point --gnugo/--katago-* at them.\n", differ), differ);
  return 1;
}

/* --- ladder record --------------------------------------------------------- */

/* As the calibration games' CSV writes it. */
static const char *
end_code (KomiEndReason reason)
{
  return reason == KOMI_END_TWO_PASSES ? "two-passes"
         : reason == KOMI_END_TURN_LIMIT ? "turn-limit" : komi_end_reason_to_string (reason);
}

static void
set_string (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

static void
add_moves (JsonBuilder *builder, const KomiGame *game)
{
  guint n = 0;
  const KomiMove *moves = komi_game_get_moves (game, &n);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      char buf[KOMI_NAME_LEN + 1];

      g_string_append_printf (text, "%s%s", i > 0 ? " " : "",
                              komi_point_to_name (9, moves[i].point, buf));
    }
  set_string (builder, "moves", text->str);
}

int
komi_cli_ladder_record (int argc, char **argv)
{
  static const char usage[] = N_("record needs --games PICKED.csv and --out REPLAYS.json, and "
                                 "--jobs 1 or more");
  g_auto(KomiCliEngineOptions) engines = { 0, };
  g_autofree char *path = NULL, *picks_path = NULL, *out = NULL, *took = NULL, *text = NULL;
  int jobs = 2, status;
  const GOptionEntry entries[] = {
    { "ladder", 'l', 0, G_OPTION_ARG_FILENAME, &path,
      N_("A ladder file instead of the shipped Protocol 1 ladder"), N_("FILE") },
    { "games", 'g', 0, G_OPTION_ARG_FILENAME, &picks_path,
      N_("The calibration games to play again: CSV lines of protocol-N-games.csv, with their "
         "header"), N_("FILE") },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, N_("Write the recorded games to FILE"),
      N_("FILE") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, N_("Games played at once (default 2)"),
      N_("N") },
    { NULL }
  };
  const KomiCliOptions parse = {
    "ladder", N_("- play calibration games again and record every move, for ladder check"),
    .entries = entries, .engines = &engines, .args = KOMI_CLI_ARGS_NONE, .wrong_args = usage };
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) ladder = NULL;
  g_autoptr(GPtrArray) picks = NULL;
  g_autoptr(GArray) runs = g_array_new (FALSE, TRUE, sizeof (ReplayRun));
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d");
  g_autofree char *referee = NULL;
  Pool pool = { 0, };
  gint64 start;
  guint wrong = 0;

  if (!komi_cli_parse_options (&parse, &argc, &argv, &status))
    return status;
  if (jobs < 1 || picks_path == NULL || out == NULL)
    return komi_cli_usage ("ladder", "%s", _(usage));
  if ((ladder = load_ladder (path, &error)) == NULL
      || (picks = picks_load (picks_path, &error)) == NULL)
    return komi_cli_fail ("ladder", error);
  for (guint r = 0; r < picks->len; r++)
    {
      ReplayRun run = { .replay = picks->pdata[r], .index = r + 1 };

      g_array_append_val (runs, run);
    }
  start = g_get_monotonic_time ();
  pool.ladder = ladder;
  pool.engines = &engines;
  pool.referee_wanted = TRUE;
  pool.recording = TRUE;
  pool.runs = (ReplayRun *) (void *) runs->data;
  pool.n_runs = runs->len;
  pool.progress = TRUE;
  pool_run (&pool, (guint) jobs);
  took = seconds_text ((double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "protocol");
  json_builder_add_int_value (builder, ladder->protocol);
  set_string (builder, "date", date);
  json_builder_set_member_name (builder, "games");
  json_builder_begin_array (builder);
  for (guint r = 0; r < runs->len; r++)
    {
      ReplayRun *run = &g_array_index (runs, ReplayRun, r);
      const Replay *pick = run->replay;
      const char *end = NULL;

      /* Without recorded moves every move "differs"; only a game that
       * could not be played, a pin that does not hold or another result
       * or end than the calibration's is wrong here. */
      if (run->record == NULL || run->status == REPLAY_PINS_DIFFER)
        {
          g_autofree char *what = NULL;

          if (run->status == REPLAY_MOVE_DIFFERS)
            run->status = REPLAY_CANNOT_PLAY, run->reason = g_strdup (run->got);
          what = run_describe (run);
          fprintf (stderr, "%s\n", what);
          wrong++;
          continue;
        }
      end = end_code (run->record->end_reason);
      if ((pick->result != NULL && g_strcmp0 (pick->result, run->record->result) != 0)
          || (pick->end_reason != NULL && g_strcmp0 (pick->end_reason, end) != 0))
        {
          fprintf (stderr, _("game %u (%s against %s, seed %" PRIu64 ") ended %s by %s where "
                             "the calibration game ended %s by %s: this machine's engines do "
                             "not play as the calibration's did\n"),
                   run->index, pick->black, pick->white, pick->seed, run->record->result, end,
                   pick->result != NULL ? pick->result : "?",
                   pick->end_reason != NULL ? pick->end_reason : "?");
          wrong++;
          continue;
        }
      if (referee == NULL)
        referee = g_strdup (run->record->referee);
      printf (_("game %u: %s against %s, %u moves, %.1f s, %s as in the calibration\n"),
              run->index, pick->black, pick->white,
              komi_game_get_turns_played (run->record->game), run->record->seconds,
              run->record->result);
      text = g_strdup_printf ("%" PRIu64, pick->seed);
      json_builder_begin_object (builder);
      set_string (builder, "black", pick->black);
      set_string (builder, "white", pick->white);
      set_string (builder, "seed", text);
      json_builder_set_member_name (builder, "orientation");
      json_builder_add_int_value (builder, pick->orientation);
      set_string (builder, "result", run->record->result);
      set_string (builder, "end_reason", end);
      g_clear_pointer (&text, g_free);
      add_moves (builder, run->record->game);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  set_string (builder, "referee", referee);
  json_builder_end_object (builder);
  for (guint r = 0; r < runs->len; r++)
    replay_run_clear (&g_array_index (runs, ReplayRun, r));
  if (wrong > 0)
    return komi_cli_error ("ladder", g_dngettext (GETTEXT_PACKAGE,
                                                  "%u game did not replay as the calibration "
                                                  "played it; nothing is written",
                                                  "%u games did not replay as the calibration "
                                                  "played them; nothing is written", wrong),
                           wrong);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  if (!komi_cli_write_file (out, text, &error))
    return komi_cli_fail ("ladder", error);
  printf (_("%u games played again in %s and written to %s\n"), runs->len, took, out);
  return 0;
}
