/* test-ladder.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-ladder-pins.h"
#include "komi-ladder-ship.h"
#include "komi-test-cli.h"

/* The shipped ladder: anyone can refit it from its games, its members are
 * pinned, and a game against a member counts only when the engine that
 * played it is the pinned one. */

static KomiLadder *
load_json_ladder (const char *text)
{
  g_autoptr(GError) error = NULL;
  KomiLadder *ladder = komi_ladder_new_from_json (text, -1, &error);

  g_assert_no_error (error);
  return ladder;
}

/* The refit: `ratings calibrate --results` over the shipped games gives
 * the shipped ratings, intervals and game counts to the printed
 * precision (whole Elo) and the shipped covariance, and the compiled-in
 * ladder is the file in data/. */
static void
test_refit (void)
{
  g_autofree char *games = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "data", "ladder",
                                             "protocol-1-games.csv", NULL);
  g_autofree char *file = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "data", "ladder",
                                            "protocol-1.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiLadder) shipped = komi_ladder_shipped (1, &error);
  g_autoptr(KomiLadder) in_file = NULL;
  g_autoptr(KomiLadder) refit = NULL;
  g_auto(KomiCliRun) run = { 0, };

  g_assert_no_error (error);
  g_assert_cmpint (shipped->origin, ==, KOMI_LADDER_ORIGIN_SHIPPED);
  in_file = komi_ladder_load (file, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (in_file->members->len, ==, shipped->members->len);

  run.status = run_komi_cli (&run.out, &run.err, "ratings", "calibrate", "--results", games,
                             "--pin", shipped->pinned, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  refit = load_json_ladder (run.out);
  g_assert_cmpuint (refit->games, ==, shipped->games);
  g_assert_cmpuint (refit->members->len, ==, shipped->members->len);
  for (guint i = 0; i < shipped->members->len; i++)
    {
      const KomiLadderMember *s = shipped->members->pdata[i];
      const KomiLadderMember *f = komi_ladder_lookup (refit, s->label);
      const KomiLadderMember *d = komi_ladder_lookup (in_file, s->label);

      g_assert_nonnull (f);
      g_assert_nonnull (d);
      g_assert_cmpfloat (round (f->rating), ==, round (s->rating));
      g_assert_cmpfloat (round (f->low), ==, round (s->low));
      g_assert_cmpfloat (round (f->high), ==, round (s->high));
      g_assert_cmpuint (f->games, ==, s->games);
      g_assert_cmpfloat (d->rating, ==, s->rating);
      /* Every member is pinned; KataGo by its network. */
      g_assert_nonnull (s->pins);
      if (g_str_has_prefix (s->label, "katago:") || strstr (s->label, ":katago:") != NULL)
        {
          g_autofree char *pins = json_to_string (s->pins, FALSE);

          g_assert_nonnull (strstr (pins, "\"model_sha256\":\""));
        }
      if (i > 0)
        g_assert_cmpfloat (round (f->step), ==, round (s->step));
      /* The shipped covariance is the refit's (same fit, same games), row
       * by row in the same member order. */
      g_assert_nonnull (shipped->covariance);
      g_assert_nonnull (refit->covariance);
      g_assert_cmpstr (((KomiLadderMember *) refit->members->pdata[i])->label, ==, s->label);
      for (guint j = 0; j < shipped->members->len; j++)
        g_assert_cmpfloat_with_epsilon (shipped->covariance[i * shipped->members->len + j],
                                        refit->covariance[i * shipped->members->len + j], 0.25);
    }
  g_assert_nonnull (shipped->referee);
  g_assert_true (g_str_has_prefix (shipped->referee, "KataGo "));
}

static const char katago_settings[] =
  "{\"engine\":\"katago\",\"binary\":\"/opt/katago\",\"argv\":[\"/opt/katago\",\"gtp\","
  "\"-override-config\",\"maxVisits=16,numSearchThreads=1,nnRandSeed=5\"],\"seed\":\"5\","
  "\"visits\":16,\"model\":\"/opt/net.bin.gz\",\"model_sha256\":\"%s\",\"timeout_ms\":60000}";

/* Pins are made from a record and match what fixes strength, whatever the
 * paths and seeds; a different network, level or name is named. */
static void
test_pins (void)
{
  g_autofree char *ours = g_strdup_printf (katago_settings, "f5d32604e3675c480c7c8f6aa579a1ea"
                                                            "857135628a0afccc8fa56330fbacd38d");
  g_autofree char *theirs = g_strdup_printf (katago_settings, "0123456789abcdef0123456789ab"
                                                              "cdef0123456789abcdef0123456789ab");
  g_autofree char *other_path = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(JsonNode) pins = komi_ladder_pins_from_record ("KataGo 1.17.2+g170", ours);
  g_autoptr(JsonNode) gnugo = NULL;
  g_autoptr(JsonNode) mix = NULL;
  const char *mix_settings =
    "{\"kind\":\"mix\",\"p\":0.20000000000000001,\"seed\":\"9\",\"coin\":\"c\",\"random\":\"r\","
    "\"engine_spec\":\"gnugo:1\",\"engine\":{\"engine\":\"gnugo\",\"binary\":\"/usr/games/gnugo\","
    "\"level\":1,\"seed\":\"9\"}}";

  g_assert_nonnull (pins);
  g_assert_true (komi_ladder_pins_match (pins, "KataGo 1.17.2+g170", ours, &reason));
  g_assert_null (reason);

  /* Another machine: other paths and seeds, the same engine. */
  other_path = g_strdup (ours);
  memcpy (strstr (other_path, "/opt/net"), "/srv/net", 8);
  g_assert_true (komi_ladder_pins_match (pins, "KataGo 1.17.2+g170", other_path, NULL));

  g_assert_false (komi_ladder_pins_match (pins, "KataGo 1.17.2+g170", theirs, &reason));
  g_assert_cmpstr (reason, ==, "KataGo network differs: sha256 0123456789ab… where the ladder "
                               "pins f5d32604e367…");
  g_clear_pointer (&reason, g_free);
  g_assert_false (komi_ladder_pins_match (pins, "KataGo 1.16.0", ours, &reason));
  g_assert_nonnull (strstr (reason, "“KataGo 1.16.0”"));
  g_clear_pointer (&reason, g_free);

  gnugo = komi_ladder_pins_from_record ("GNU Go 3.8", "{\"engine\":\"gnugo\",\"level\":1,"
                                                      "\"seed\":\"1\"}");
  g_assert_false (komi_ladder_pins_match (gnugo, "GNU Go 3.8",
                                          "{\"engine\":\"gnugo\",\"level\":3}", &reason));
  g_assert_cmpstr (reason, ==, "level is 3 where the ladder pins 1");
  g_clear_pointer (&reason, g_free);
  g_assert_false (komi_ladder_pins_match (gnugo, "GNU Go 3.8", "not json", &reason));
  g_clear_pointer (&reason, g_free);

  /* A mix: its chance to 1e-9, and its engine's pins nested. */
  mix = komi_ladder_pins_from_record ("GNU Go with 20% random moves 3.8", mix_settings);
  g_assert_true (komi_ladder_pins_match (mix, "GNU Go with 20% random moves 3.8",
                                         mix_settings, NULL));
  g_assert_false (komi_ladder_pins_match (mix, "GNU Go with 20% random moves 3.8",
                                          "{\"kind\":\"mix\",\"p\":0.2,\"coin\":\"c\","
                                          "\"random\":\"r\",\"engine_spec\":\"gnugo:1\","
                                          "\"engine\":{\"engine\":\"gnugo\",\"level\":2}}",
                                          &reason));
  g_assert_cmpstr (reason, ==, "engine.level is 2 where the ladder pins 1");
}

/* A subject's games in a real library against ladder members: rated when
 * the member's recorded identity and the referee match the pins, set apart
 * with the reason when not. The shipped ladder's referee is KataGo, so a
 * game judged by GNU Go is set apart from it. */
static void
test_set_apart (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-ladder-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "library.db", NULL);
  g_autofree char *series = g_build_filename (dir, "series.json", NULL);
  g_autofree char *ladder = g_build_filename (dir, "ladder.json", NULL);
  g_autoptr(KomiLadder) shipped = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(KomiCliRun) run = { 0, };
  g_auto(KomiCliRun) apart = { 0, };
  g_auto(KomiCliRun) mine = { 0, };

  g_assert_true (g_file_set_contents (series,
                                      "{\"name\": \"set apart\", \"protocol\": 1,"
                                      " \"subject\": \"gnugo:0\", \"seed\": 3,"
                                      " \"referee\": \"gnugo\", \"jobs\": 2, \"opponents\": ["
                                      "  {\"player\": \"random\", \"pairs\": 1},"
                                      "  {\"player\": \"mix:0.9:gnugo:1\", \"pairs\": 1}]}",
                                      -1, NULL));
  run.status = run_komi_cli (&run.out, &run.err, "run", series, "--db", db, NULL);
  g_assert_cmpint (run.status, ==, 0);

  apart.status = run_komi_cli (&apart.out, &apart.err, "ratings", "--db", db, NULL);
  g_assert_cmpint (apart.status, ==, 1);
  g_assert_nonnull (strstr (apart.err, "no game could be rated"));
  g_assert_nonnull (strstr (apart.out, "The Protocol 1 ladder shipped with Komi"));
  g_assert_nonnull (strstr (apart.out, "Set apart, not rated: 4 games"));
  g_assert_nonnull (strstr (apart.out, "gnugo:0 against random: 2 games"));
  g_assert_nonnull (strstr (apart.out, "dead stones judged by GNU Go 3.8, not by the ladder's "
                                       "referee KataGo"));

  /* The same pins with GNU Go as the referee, and one member pinned to
   * another level: its games alone are set apart. */
  shipped = komi_ladder_shipped (1, &error);
  g_assert_no_error (error);
  g_free (shipped->referee);
  shipped->referee = g_strdup ("GNU Go 3.8");
  json_object_set_int_member (json_object_get_object_member (
                                json_object_get_object_member (
                                  json_node_get_object (((KomiLadderMember *)
                                    komi_ladder_lookup (shipped, "mix:0.9:gnugo:1"))->pins),
                                  "settings"), "engine"), "level", 5);
  g_assert_true (komi_ladder_save (shipped, ladder, &error));
  g_assert_no_error (error);
  mine.status = run_komi_cli (&mine.out, &mine.err, "ratings", "--db", db, "--ladder", ladder,
                              NULL);
  g_assert_cmpint (mine.status, ==, 0);
  g_assert_nonnull (strstr (mine.out, "Set apart, not rated: 2 games"));
  g_assert_nonnull (strstr (mine.out, "gnugo:0 against mix:0.9:gnugo:1: 2 games"));
  g_assert_nonnull (strstr (mine.out, "engine.level is 1 where the ladder pins 5"));
  /* The games against random are rated. */
  g_assert_nonnull (strstr (mine.out, "Subject gnugo:0"));
  g_assert_null (strstr (mine.out, "gnugo:0 against random"));

  remove_test_dir (dir);
}

/* `ladder check` against a real KataGo: the network the ladder pins
 * matches; the same weights in another file (recompressed, so its SHA-256
 * differs) play the same moves but are named as a different network, and
 * the check fails. (Moves that differ: test-ladder-check.c.) */
static void
test_check_katago (void)
{
  g_autofree char *dir = NULL, *ladder = NULL, *other = NULL, *network = NULL, *sha = NULL;
  g_autofree char *command = NULL, *text = NULL, *random_pins = NULL;
  g_autoptr(KomiLadder) shipped = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(KomiCliRun) same = { 0, };
  g_auto(KomiCliRun) changed = { 0, };
  gsize length = 0;
  int wait_status = 0;

  if (g_getenv ("KOMI_KATAGO") == NULL)
    {
      g_test_skip ("KOMI_KATAGO is not set");
      return;
    }
  dir = g_dir_make_tmp ("komi-ladder-XXXXXX", NULL);
  ladder = g_build_filename (dir, "ladder.json", NULL);
  other = g_build_filename (dir, "recompressed.bin.gz", NULL);
  g_assert_true (g_file_get_contents (g_getenv ("KOMI_KATAGO_MODEL"), &network, &length,
                                      &error));
  sha = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) network, length);
  command = g_strdup_printf ("sh -c 'gzip -dc \"$0\" | gzip -1 > \"$1\"' '%s' '%s'",
                             g_getenv ("KOMI_KATAGO_MODEL"), other);
  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, &wait_status, &error));
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));

  shipped = komi_ladder_shipped (1, &error);
  g_assert_no_error (error);
  random_pins = json_to_string (((KomiLadderMember *) komi_ladder_lookup (shipped,
                                                                          "random"))->pins,
                                FALSE);
  text = g_strdup_printf ("{\"protocol\": 1, \"pinned\": \"random\", \"games\": 10,"
                          " \"referee\": \"%s\", \"members\": ["
                          " {\"label\": \"random\", \"rating\": 0, \"pins\": %s},"
                          " {\"label\": \"katago:1\", \"rating\": 1500, \"se\": 50,"
                          "  \"pins\": {\"settings\": {\"engine\": \"katago\", \"visits\": 1,"
                          "  \"model_sha256\": \"%s\"}}}]}", shipped->referee, random_pins, sha);
  g_assert_true (g_file_set_contents (ladder, text, -1, NULL));

  same.status = run_komi_cli (&same.out, &same.err, "ladder", "check", "--ladder", ladder,
                              "--member", "katago:1", NULL);
  g_assert_cmpint (same.status, ==, 0);
  g_assert_nonnull (strstr (same.out, "Every member checked plays its recorded games move for "
                                      "move"));

  changed.status = run_komi_cli (&changed.out, &changed.err, "ladder", "check", "--ladder",
                                 ladder, "--member", "katago:1", "--katago-model", other, NULL);
  g_assert_cmpint (changed.status, ==, 1);
  g_assert_nonnull (strstr (changed.out, "  katago:1             differs: game "));
  g_assert_nonnull (strstr (changed.out, "the same moves, but KataGo network differs: sha256 "));
  g_assert_nonnull (strstr (changed.out, "1 member does not match the ladder's"));
  remove_test_dir (dir);
}

/* `ladder --fit`: the shipped ratings predict their calibration games,
 * the long-range pairs too; games where a member two steps up loses to
 * the bottom, as no Elo difference allows, are shown as a misfit. */
static void
test_fit (void)
{
  g_autofree char *dir = g_dir_make_tmp ("komi-ladder-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "games.csv", NULL);
  g_autoptr(GString) games = g_string_new ("protocol,black,white,winner\n");
  g_auto(KomiCliRun) shipped = { 0, };
  g_auto(KomiCliRun) planted = { 0, };

  shipped.status = run_komi_cli (&shipped.out, &shipped.err, "ladder", "--fit", NULL);
  g_assert_cmpint (shipped.status, ==, 0);
  g_assert_nonnull (strstr (shipped.out, "  katago:64 – katago:16                    2    128 "
                                         "    108.0     109.1  -0.28\n"));
  g_assert_nonnull (strstr (shipped.out, "Further apart (2 steps or more, the check that the "
                                         "steps add up): Σz² 2.4 on 7 pairs, p 0.93."));
  g_assert_nonnull (strstr (shipped.out, "All pairs: Σz² 4.9 on 26 pairs less 19 fitted "
                                         "ratings = 7 degrees of freedom, p 0.67."));

  /* mix:0.75:gnugo:1 (294) against random (0): it should take 84%. */
  for (guint i = 0; i < 40; i++)
    g_string_append_printf (games, "1,%s,%s,%s\n", i % 2 ? "random" : "mix:0.75:gnugo:1",
                            i % 2 ? "mix:0.75:gnugo:1" : "random",
                            i < 20 ? "black" : "white");
  g_string_append (games, "1,mix:0.9:gnugo:1,random,black\n1,random,mix:0.9:gnugo:1,black\n");
  g_assert_true (g_file_set_contents (csv, games->str, -1, NULL));
  planted.status = run_komi_cli (&planted.out, &planted.err, "ladder", "--fit", "--results",
                                 csv, NULL);
  g_assert_cmpint (planted.status, ==, 0);
  g_assert_nonnull (strstr (planted.out, "  mix:0.75:gnugo:1 – random     2     40      20.0"
                                         "      33.8  -6.02\n"));
  g_assert_nonnull (strstr (planted.out, "Σz² 36.3 on 1 pairs, p 1.7e-09."));
  remove_test_dir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/komi/ladder/refit", test_refit);
  g_test_add_func ("/komi/ladder/pins", test_pins);
  g_test_add_func ("/komi/ladder/set-apart", test_set_apart);
  g_test_add_func ("/komi/ladder/fit", test_fit);
  g_test_add_func ("/komi/ladder/check-katago", test_check_katago);
  return g_test_run ();
}
