/* bench-rules-bitboard.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Figures, not a test (built with the tests, never run by meson test, never
 * linked into Komi): Komi's rules core beside a careful whole-board bitboard
 * implementation of the same game, in one process, so both see the same
 * machine at the same moment.
 *
 * The game is `komi-cli bench`'s: 9x9 random-vs-random, no suicide,
 * positional superko, every turn's full legal list (superko checked for
 * every point), the random player's own-eye rule, two passes or 120 turns,
 * the area count at the end; one random stream (seed 1) across all games.
 * The bitboard side draws from the same stream in the same order
 * (KomiRng, komi-rng.h; the move rule of komi-random-player.c), so both
 * play the same games: `--digest` checks it move by move.
 *
 * The bitboard: the whole board is one 128-bit word, rows 10 bits apart
 * (the tenth column is always zero, so a shift by one never wraps into the
 * next row), groups are flood fills, liberties a dilation, and positional
 * superko a Zobrist hash of each earlier position in an open-addressed
 * table (64-bit hashes; equality of hashes is taken as a repeat, as such
 * programs do). Each turn the groups are filled once: the groups in atari
 * give the captures and the unsafe friendly stones, from which the legal
 * set follows for the whole board at once; each candidate's resulting
 * hash is looked up.
 *
 *   bench-rules-bitboard [--seconds S] [--rounds R]
 *       R rounds (default 6) of S seconds (default 2) per side, the order
 *       alternating, one thread pinned to one core: games/s, CPU time per
 *       turn, and Komi's speed over the bitboard's
 *   bench-rules-bitboard --digest GAMES
 *       plays GAMES games with both, compares every move, legal list and
 *       superko list and every count, and prints the digest
 *   bench-rules-bitboard --only komi|bitboard GAMES
 *       plays GAMES games with one side only (for callgrind's counts)
 */

#include <sched.h>   /* sched_getcpu: the build defines _GNU_SOURCE */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "komi-board-private.h"
#include "komi-game.h"
#include "komi-random-player.h"
#include "komi-score.h"

/* The bitboard ---------------------------------------------------------------*/

typedef unsigned __int128 BB;

#define BB_W 10  /* row stride: 9 points and a zero column */
#define BB_PASS (-1)
#define MAX_TURNS KOMI_PROTOCOL_MAX_TURNS
#define TABLE 256 /* > 2 * (MAX_TURNS + 1) positions */

static BB on_board;
static guint64 zobrist[3][9 * BB_W];
static guint8 point_of_bit[9 * BB_W];  /* bit -> board point (y * 9 + x) */

static inline BB
bb_bit (int i)
{
  return (BB) 1 << i;
}

static inline BB
bb_dilate (BB x)
{
  return ((x << 1) | (x >> 1) | (x << BB_W) | (x >> BB_W)) & on_board;
}

static inline guint
bb_count (BB x)
{
  return _komi_popcount ((guint64) x) + _komi_popcount ((guint64) (x >> 64));
}

static inline int
bb_lowest (BB x)
{
  guint64 lo = (guint64) x;

  return lo != 0 ? __builtin_ctzll (lo) : 64 + __builtin_ctzll ((guint64) (x >> 64));
}

static inline BB
bb_fill (BB seed, BB stones)
{
  BB g = seed, prev;

  do
    {
      prev = g;
      g = (g | bb_dilate (g)) & stones;
    }
  while (g != prev);
  return g;
}

/* Popcount and the rank select are the rules core's own
 * (komi-board-private.h), so neither side has the better one. */
static inline int
bb_select (BB x, guint k)
{
  guint64 lo = (guint64) x;
  guint c = _komi_popcount (lo);

  return k < c ? (int) _komi_select64 (lo, k)
               : 64 + (int) _komi_select64 ((guint64) (x >> 64), k - c);
}

typedef struct
{
  BB       stones[3];   /* [KOMI_BLACK], [KOMI_WHITE] */
  int      to_move;
  guint    passes, n_moves;
  /* Groups, kept move by move: each has a head (one of its stones); at
   * the head's bit index, the group's stones and liberties as bitboards.
   * @atari holds the heads of the groups with one liberty. */
  guint8   head[9 * BB_W];
  BB       group[9 * BB_W], libs[9 * BB_W];
  BB       atari;
  /* Superko: the Zobrist hash of the position, the hashes of every
   * position so far, and which stone counts have occurred (bit w of
   * seen[b]: b black and w white stones), so a candidate is looked up
   * only when a position with the counts it gives exists. */
  guint64  hash;
  guint64  table[TABLE]; /* 0 = free */
  BB       seen[KOMI_MAX_POINTS + 1];
  guint    count[3];
  /* This turn's (bb_turn): */
  BB       legal, superko, eyes;
} BBGame;

static void
bb_init_tables (void)
{
  KomiRng rng;

  komi_rng_init (&rng, 20261207);
  on_board = 0;
  for (int y = 0; y < 9; y++)
    for (int x = 0; x < 9; x++)
      {
        on_board |= bb_bit (y * BB_W + x);
        point_of_bit[y * BB_W + x] = (guint8) (y * 9 + x);
      }
  for (int c = 1; c <= 2; c++)
    for (int i = 0; i < 9 * BB_W; i++)
      zobrist[c][i] = komi_rng_next (&rng);
}

static inline void
bb_table_add (BBGame *g, guint64 h)
{
  guint i = (guint) h & (TABLE - 1);

  while (g->table[i] != 0 && g->table[i] != h)
    i = (i + 1) & (TABLE - 1);
  g->table[i] = h;
  g->seen[g->count[KOMI_BLACK]] |= bb_bit ((int) g->count[KOMI_WHITE]);
}

static inline gboolean
bb_table_has (const BBGame *g, guint64 h)
{
  guint i = (guint) h & (TABLE - 1);

  for (; g->table[i] != 0; i = (i + 1) & (TABLE - 1))
    if (g->table[i] == h)
      return TRUE;
  return FALSE;
}

static inline gboolean
bb_seen (const BBGame *g, guint black, guint white)
{
  return (g->seen[black] >> white) & 1;
}

/* The empty board's hash is a nonzero constant, so 0 can mark a free
 * slot. */
#define EMPTY_HASH G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)

static void
bb_game_init (BBGame *g)
{
  g->stones[1] = g->stones[2] = 0;
  g->to_move = KOMI_BLACK;
  g->passes = g->n_moves = 0;
  g->atari = 0;
  g->count[1] = g->count[2] = 0;
  g->hash = EMPTY_HASH;
  memset (g->table, 0, sizeof g->table);
  memset (g->seen, 0, sizeof g->seen);
  bb_table_add (g, g->hash);
}

static inline gboolean
bb_game_over (const BBGame *g)
{
  return g->passes >= 2 || g->n_moves >= MAX_TURNS;
}

static inline guint64
bb_hash_of (int color, BB set)
{
  guint64 h = 0;

  while (set != 0)
    {
      h ^= zobrist[color][bb_lowest (set)];
      set &= set - 1;
    }
  return h;
}

static inline void
bb_mark_atari (BBGame *g, int h)
{
  BB l = g->libs[h];

  if ((l & (l - 1)) == 0)
    g->atari |= bb_bit (h);
  else
    g->atari &= ~bb_bit (h);
}

/* This turn's legal set, superko set and own eyes. */
static void
bb_turn (BBGame *g)
{
  int me = g->to_move, other = 3 - me;
  BB mine = g->stones[me], theirs = g->stones[other];
  BB empty = on_board & ~(mine | theirs);
  BB unsafe = 0, capture = 0, cand, rest;
  guint n_mine = g->count[me] + 1, n_theirs = g->count[other];

  g->legal = g->superko = g->eyes = 0;
  if (bb_game_over (g))
    return;

  /* Friendly groups in atari are unsafe to extend; enemy ones are
   * captured at their liberty. */
  for (rest = g->atari & mine; rest != 0; rest &= rest - 1)
    unsafe |= g->group[bb_lowest (rest)];
  for (rest = g->atari & theirs; rest != 0; rest &= rest - 1)
    capture |= g->libs[bb_lowest (rest)];
  cand = empty & (bb_dilate (empty) | bb_dilate (mine & ~unsafe) | capture);

  /* Superko: the hash after each candidate, looked up when a position
   * with its stone counts occurred. */
  if (me == KOMI_BLACK ? bb_seen (g, n_mine, n_theirs) : bb_seen (g, n_theirs, n_mine))
    for (rest = cand & ~capture; rest != 0; rest &= rest - 1)
      {
        int i = bb_lowest (rest);

        if (bb_table_has (g, g->hash ^ zobrist[me][i]))
          g->superko |= bb_bit (i);
      }
  for (rest = cand & capture; rest != 0; rest &= rest - 1)
    {
      int i = bb_lowest (rest);
      BB p = bb_bit (i), gone = 0;
      guint left;

      for (BB a = g->atari & theirs; a != 0; a &= a - 1)
        {
          int h = bb_lowest (a);

          if (g->libs[h] == p)
            gone |= g->group[h];
        }
      left = n_theirs - bb_count (gone);
      if ((me == KOMI_BLACK ? bb_seen (g, n_mine, left) : bb_seen (g, left, n_mine))
          && bb_table_has (g, g->hash ^ zobrist[me][i] ^ bb_hash_of (other, gone)))
        g->superko |= p;
    }
  g->legal = cand & ~g->superko;
  g->eyes = g->legal & ~bb_dilate (empty | theirs);
}

/* The random player's move (komi-random-player.c's rule) from this turn's
 * sets: bit indices, BB_PASS for a pass. */
static inline int
bb_choose (KomiRng *rng, const BBGame *g)
{
  guint n = bb_count (g->legal), i;
  int list[KOMI_MAX_POINTS], first;

  if (n == 0)
    return BB_PASS;
  i = (guint) komi_rng_uniform (rng, n);
  first = bb_select (g->legal, i);
  if (!((g->eyes >> first) & 1))
    return first;

  n = 0;
  for (BB rest = g->legal; rest != 0; rest &= rest - 1)
    list[n++] = bb_lowest (rest);
  list[i] = list[--n];
  while (n > 0)
    {
      i = (guint) komi_rng_uniform (rng, n);
      if (!((g->eyes >> list[i]) & 1))
        return list[i];
      list[i] = list[--n];
    }
  return BB_PASS;
}

/* Plays a move of this turn's legal set (or a pass). */
static inline void
bb_play (BBGame *g, int i)
{
  int me = g->to_move, other = 3 - me, keep;
  BB p, near, empty, grp, libs, rest, captured = 0;

  g->n_moves++;
  g->to_move = other;
  if (i == BB_PASS)
    {
      g->passes++;
      return;
    }
  g->passes = 0;
  p = bb_bit (i);
  near = bb_dilate (p);
  g->stones[me] |= p;
  g->count[me]++;
  g->hash ^= zobrist[me][i];
  empty = on_board & ~(g->stones[1] | g->stones[2]);

  /* The new stone joins its friendly neighbours' groups, into the
   * largest (which relabels the fewest stones). */
  keep = i;
  grp = p;
  libs = near & empty;
  for (rest = near & g->stones[me]; rest != 0;)
    {
      int h = g->head[bb_lowest (rest)];

      rest &= ~g->group[h];
      if (keep == i || bb_count (g->group[h]) > bb_count (g->group[keep]))
        keep = h;
    }
  for (rest = near & g->stones[me]; rest != 0;)
    {
      int h = g->head[bb_lowest (rest)];

      rest &= ~g->group[h];
      grp |= g->group[h];
      libs |= g->libs[h];
      if (h != keep)
        {
          g->atari &= ~bb_bit (h);
          for (BB s = g->group[h]; s != 0; s &= s - 1)
            g->head[bb_lowest (s)] = (guint8) keep;
        }
    }
  g->head[i] = (guint8) keep;
  g->group[keep] = grp;
  g->libs[keep] = libs & ~p;
  if (keep != i)
    g->atari &= ~bb_bit (i);
  bb_mark_atari (g, keep);

  /* Enemy neighbours lose the point; those left without a liberty go. */
  for (rest = near & g->stones[other]; rest != 0;)
    {
      int h = g->head[bb_lowest (rest)];

      rest &= ~g->group[h];
      g->libs[h] &= ~p;
      if (g->libs[h] == 0)
        {
          captured |= g->group[h];
          g->atari &= ~bb_bit (h);
        }
      else
        bb_mark_atari (g, h);
    }
  if (captured != 0)
    {
      g->stones[other] &= ~captured;
      g->count[other] -= bb_count (captured);
      g->hash ^= bb_hash_of (other, captured);
      /* The emptied points are liberties of the groups around them. */
      for (rest = bb_dilate (captured) & g->stones[me]; rest != 0;)
        {
          int h = g->head[bb_lowest (rest)];

          rest &= ~g->group[h];
          g->libs[h] |= bb_dilate (g->group[h]) & captured;
          bb_mark_atari (g, h);
        }
    }
  bb_table_add (g, g->hash);
}

/* Black's area: stones and the empty regions bordering black only. */
static guint
bb_black_area (const BBGame *g)
{
  BB black = g->stones[KOMI_BLACK], white = g->stones[KOMI_WHITE];
  BB empty = on_board & ~(black | white), rest = empty;
  guint total = bb_count (black);

  while (rest != 0)
    {
      BB region = bb_fill (rest & -rest, empty), edge = bb_dilate (region);

      rest &= ~region;
      if ((edge & black) != 0 && (edge & white) == 0)
        total += bb_count (region);
    }
  return total;
}

/* The two sides' game loops ---------------------------------------------------*/

typedef struct
{
  guint   games;
  guint64 turns, checksum;
  double  seconds, cpu;
} Figures;

static double
now (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* `komi-cli bench`'s loop (src/cli/komi-cli-bench.c, bench_games). */
static void
komi_games (KomiRng *rng, guint games, Figures *f)
{
  KomiPoint buf[KOMI_MAX_POINTS];

  for (guint n = 0; n < games; n++)
    {
      g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
      KomiScore score;

      while (!komi_game_is_over (game))
        komi_game_play (game, komi_random_choose (rng, game, buf), NULL);
      komi_score_area (komi_game_get_board (game), NULL, 0, 7, &score);
      f->turns += komi_game_get_turns_played (game);
      f->checksum += (guint64) score.black_total;
      f->games++;
    }
}

static void
bb_games (KomiRng *rng, guint games, Figures *f)
{
  static BBGame game;
  BBGame *g = &game;

  for (guint n = 0; n < games; n++)
    {
      bb_game_init (g);
      while (!bb_game_over (g))
        {
          bb_turn (g);
          bb_play (g, bb_choose (rng, g));
        }
      f->turns += g->n_moves;
      f->checksum += bb_black_area (g);
      f->games++;
    }
}

typedef void (*GamesFunc) (KomiRng *rng, guint games, Figures *f);

static void
timed (GamesFunc func, double budget, Figures *f)
{
  double start = now (CLOCK_MONOTONIC), cpu = now (CLOCK_THREAD_CPUTIME_ID);
  KomiRng rng;

  komi_rng_init (&rng, 1);
  *f = (Figures) { 0, };
  do
    {
      func (&rng, 100, f);
      f->seconds = now (CLOCK_MONOTONIC) - start;
    }
  while (f->seconds < budget);
  f->cpu = now (CLOCK_THREAD_CPUTIME_ID) - cpu;
}

/* --digest: both sides on the same stream, compared at every turn. */
static guint64
mix (guint64 hash, guint64 value)
{
  return (hash ^ value) * G_GUINT64_CONSTANT (1099511628211);
}

static int
digest (guint games)
{
  KomiPoint buf[KOMI_MAX_POINTS], list[KOMI_MAX_POINTS];
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037), turns = 0;
  KomiRng komi_rng, bb_rng;
  static BBGame bb_game;
  BBGame *g = &bb_game;

  komi_rng_init (&komi_rng, 1);
  komi_rng_init (&bb_rng, 1);
  for (guint n = 0; n < games; n++)
    {
      g_autoptr(KomiGame) game = komi_game_new (9, KOMI_PROTOCOL_MAX_TURNS);
      KomiScore score;

      bb_game_init (g);
      while (!komi_game_is_over (game))
        {
          guint n_ko = komi_game_superko_points (game, list), n_legal;
          BB ko = 0, legal = 0;
          KomiPoint move;
          int bit;

          for (guint i = 0; i < n_ko; i++)
            {
              ko |= bb_bit (list[i] / 9 * BB_W + list[i] % 9);
              hash = mix (hash, (guint64) list[i] + 1000);
            }
          n_legal = komi_game_legal_points (game, list);
          for (guint i = 0; i < n_legal; i++)
            {
              legal |= bb_bit (list[i] / 9 * BB_W + list[i] % 9);
              hash = mix (hash, (guint64) list[i] + 5000);
            }
          move = komi_random_choose (&komi_rng, game, buf);
          hash = mix (hash, (guint64) (move + 2));
          bb_turn (g);
          bit = bb_choose (&bb_rng, g);
          if (bb_game_over (g) || g->legal != legal || g->superko != ko
              || (bit == BB_PASS ? KOMI_PASS : point_of_bit[bit]) != move)
            {
              fprintf (stderr, "Game %u, turn %u: the two sides differ.\n", n + 1,
                       komi_game_get_turns_played (game) + 1);
              return 1;
            }
          komi_game_play (game, move, NULL);
          bb_play (g, bit);
        }
      komi_score_area (komi_game_get_board (game), NULL, 0, 7, &score);
      if (!bb_game_over (g) || (guint) score.black_total != bb_black_area (g))
        {
          fprintf (stderr, "Game %u: the ends differ.\n", n + 1);
          return 1;
        }
      hash = mix (hash, (guint64) (score.black_total * 2 + 100000));
      turns += komi_game_get_turns_played (game);
    }
  printf ("9x9, %u games of one stream (seed 1), every turn's legal and superko points: "
          "%" G_GUINT64_FORMAT " turns, the same on both sides, digest %016" G_GINT64_MODIFIER "x\n",
          games, turns, hash);
  return 0;
}

static void
pin (void)
{
  cpu_set_t set;

  CPU_ZERO (&set);
  CPU_SET (sched_getcpu () >= 0 ? sched_getcpu () : 0, &set);
  if (sched_setaffinity (0, sizeof set, &set) != 0)
    fprintf (stderr, "Not pinned to one core.\n");
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (const double *sorted, guint n)
{
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

int
main (int argc, char *argv[])
{
  double budget = 2, *ratios, *cpu_ratios;
  guint rounds = 6;

  bb_init_tables ();
  if (argc == 3 && strcmp (argv[1], "--digest") == 0)
    return digest ((guint) atoi (argv[2]));
  if (argc == 4 && strcmp (argv[1], "--only") == 0)
    {
      gboolean komi = strcmp (argv[2], "komi") == 0;
      Figures f = { 0, };
      KomiRng rng;

      if (!komi && strcmp (argv[2], "bitboard") != 0)
        {
          fprintf (stderr, "--only takes komi or bitboard.\n");
          return 2;
        }
      komi_rng_init (&rng, 1);
      (komi ? komi_games : bb_games) (&rng, (guint) atoi (argv[3]), &f);
      printf ("%s: %u games, %" G_GUINT64_FORMAT " turns, checksum %" G_GUINT64_FORMAT "\n",
              argv[2], f.games, f.turns, f.checksum);
      return 0;
    }
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--seconds") == 0 && i + 1 < argc)
        budget = atof (argv[++i]);
      else if (strcmp (argv[i], "--rounds") == 0 && i + 1 < argc)
        {
          int n = atoi (argv[++i]);

          rounds = n > 0 ? (guint) n : 1;
        }
      else
        {
          fprintf (stderr, "usage: %s [--seconds S] [--rounds R] | --digest GAMES"
                   " | --only komi|bitboard GAMES\n", argv[0]);
          return 2;
        }
    }

  pin ();
  printf ("Komi's rules core and a bitboard, %u rounds of %.1f s each, one thread on one core\n",
          rounds, budget);
  ratios = g_new (double, rounds);
  cpu_ratios = g_new (double, rounds);
  for (guint r = 0; r < rounds; r++)
    {
      Figures k, b;

      if (r % 2 == 0)
        timed (komi_games, budget, &k), timed (bb_games, budget, &b);
      else
        timed (bb_games, budget, &b), timed (komi_games, budget, &k);
      printf ("round %u: Komi %.0f games/s (CPU %.3f us/turn), bitboard %.0f games/s "
              "(CPU %.3f us/turn); Komi/bitboard %.2f (CPU %.2f)\n",
              r + 1, k.games / k.seconds, k.cpu * 1e6 / k.turns, b.games / b.seconds,
              b.cpu * 1e6 / b.turns, (k.games / k.seconds) / (b.games / b.seconds),
              (b.cpu / b.turns) / (k.cpu / k.turns));
      ratios[r] = (k.games / k.seconds) / (b.games / b.seconds);
      cpu_ratios[r] = (b.cpu / b.turns) / (k.cpu / k.turns);
    }
  /* The middle of the rounds: one round that another process crowded
   * out moves it little. */
  qsort (ratios, rounds, sizeof *ratios, compare_doubles);
  qsort (cpu_ratios, rounds, sizeof *cpu_ratios, compare_doubles);
  printf ("median of %u rounds: Komi/bitboard %.2f (CPU %.2f)\n", rounds,
          median (ratios, rounds), median (cpu_ratios, rounds));
  g_free (ratios);
  g_free (cpu_ratios);
  return 0;
}
