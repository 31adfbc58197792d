/* test-form-checks.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "komi-opponent-form.h"
#include "komi-provider-form.h"
#include "komi-series-form.h"

/* The checks behind the three forms (opponent, provider, New Series),
 * called as the dialogs call them but with no dialog and no display: this
 * program links the application's model and no GTK. Each bad value is
 * refused at its own field in the words the user reads under it; each good
 * one passes. (tests/test-app-forms.c and the dialogs' tests drive the
 * same checks through the widgets.) */

/* --- opponent ---------------------------------------------------------- */

typedef struct
{
  KomiOpponentFields  fields;
  char               *problems[KOMI_OPPONENT_N_FIELDS];
} Opponent;

static gboolean
check_opponent (Opponent *o)
{
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    g_clear_pointer (&o->problems[i], g_free);
  return komi_opponent_form_check (&o->fields, o->problems);
}

static void
opponent_clear (Opponent *o)
{
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    g_clear_pointer (&o->problems[i], g_free);
}

/* Refused at @field alone, in @words. */
static void
assert_opponent_refused (Opponent *o, KomiOpponentField field, const char *words)
{
  g_assert_false (check_opponent (o));
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    if (i == (int) field)
      g_assert_cmpstr (o->problems[i], ==, words);
    else
      g_assert_null (o->problems[i]);
}

/* @text in @field refused there alone, in @words; the field as it was
 * afterwards. */
static void
refuse_one (Opponent *o, KomiOpponentField field, const char *text, const char *words)
{
  const char *was = o->fields.text[field];

  o->fields.text[field] = text;
  assert_opponent_refused (o, field, words);
  o->fields.text[field] = was;
}

static void
assert_opponent_good (Opponent *o)
{
  g_assert_true (check_opponent (o));
  for (int i = 0; i < KOMI_OPPONENT_N_FIELDS; i++)
    g_assert_null (o->problems[i]);
}

static void
test_opponent_gnugo (void)
{
  Opponent o = { { KOMI_OPPONENT_KIND_GNUGO, { NULL } } };
  const char *level = "The GNU Go level must be a whole number from 0 (weakest) to 10 "
                      "(strongest)";
  const char *chance = "The chance of a random move must be a number from 0 to 1, like 0.25 "
                       "(empty: none)";
  g_autofree char *spec = NULL;

  o.fields.text[KOMI_OPPONENT_FIELD_LEVEL] = "7";
  assert_opponent_good (&o);
  spec = komi_opponent_form_spec (&o.fields);
  g_assert_cmpstr (spec, ==, "gnugo:7");
  /* Out of range is refused, not made 10; no sign, no fraction, not empty. */
  for (const char *const *bad = (const char *[]) { "11", "15", "-1", "+3", "2.5", "", "three",
                                                   NULL };
       *bad != NULL; bad++)
    {
      o.fields.text[KOMI_OPPONENT_FIELD_LEVEL] = *bad;
      assert_opponent_refused (&o, KOMI_OPPONENT_FIELD_LEVEL, level);
    }
  o.fields.text[KOMI_OPPONENT_FIELD_LEVEL] = "0";
  assert_opponent_good (&o);
  o.fields.text[KOMI_OPPONENT_FIELD_LEVEL] = "10";
  assert_opponent_good (&o);

  /* A bridging rung: its chance from 0 to 1; empty is none. */
  o.fields.text[KOMI_OPPONENT_FIELD_MIX] = "0.25";
  assert_opponent_good (&o);
  g_clear_pointer (&spec, g_free);
  spec = komi_opponent_form_spec (&o.fields);
  g_assert_cmpstr (spec, ==, "mix:0.25:gnugo:10");
  for (const char *const *bad = (const char *[]) { "2", "-0.5", "half", "0.25x", NULL };
       *bad != NULL; bad++)
    {
      o.fields.text[KOMI_OPPONENT_FIELD_MIX] = *bad;
      assert_opponent_refused (&o, KOMI_OPPONENT_FIELD_MIX, chance);
    }
  /* A field the kind does not ask for is not judged. */
  o.fields.text[KOMI_OPPONENT_FIELD_MIX] = "";
  o.fields.text[KOMI_OPPONENT_FIELD_VISITS] = "many";
  o.fields.text[KOMI_OPPONENT_FIELD_COMMAND] = "";
  assert_opponent_good (&o);
  opponent_clear (&o);
}

static void
test_opponent_katago (void)
{
  g_autofree char *here = g_build_filename (g_getenv ("KOMI_SOURCE_DIR"), "tests",
                                            "test-form-checks.c", NULL);
  Opponent o = { { KOMI_OPPONENT_KIND_KATAGO, { NULL } } };
  g_autofree char *spec = NULL;
  g_autofree char *not_program = NULL;

  /* Whatever KataGo the suite runs with: this test names its own files. */
  g_unsetenv ("KOMI_KATAGO");
  g_unsetenv ("KOMI_KATAGO_MODEL");
  g_unsetenv ("KOMI_KATAGO_CONFIG");
  o.fields.text[KOMI_OPPONENT_FIELD_BINARY] = "";
  o.fields.text[KOMI_OPPONENT_FIELD_MODEL] = "";
  o.fields.text[KOMI_OPPONENT_FIELD_CONFIG] = "";
  o.fields.text[KOMI_OPPONENT_FIELD_VISITS] = "0";
  /* Every field at once, each in its own words. */
  g_assert_false (check_opponent (&o));
  g_assert_cmpstr (o.problems[KOMI_OPPONENT_FIELD_BINARY], ==,
                   "Choose the KataGo program (or set KOMI_KATAGO before starting Komi)");
  g_assert_cmpstr (o.problems[KOMI_OPPONENT_FIELD_MODEL], ==,
                   "Choose KataGo’s network file, a .bin.gz (or set KOMI_KATAGO_MODEL before "
                   "starting Komi)");
  g_assert_cmpstr (o.problems[KOMI_OPPONENT_FIELD_CONFIG], ==,
                   "Choose KataGo’s GTP config file, a .cfg (or set KOMI_KATAGO_CONFIG before "
                   "starting Komi)");
  g_assert_cmpstr (o.problems[KOMI_OPPONENT_FIELD_VISITS], ==,
                   "Visits per move must be a whole number from 1 to 10,000,000");
  g_assert_null (o.problems[KOMI_OPPONENT_FIELD_LEVEL]);
  g_assert_null (o.problems[KOMI_OPPONENT_FIELD_COMMAND]);
  g_assert_null (o.problems[KOMI_OPPONENT_FIELD_MIX]);

  /* Files that exist (a program found in PATH, this file as network and
   * config: the form judges only that they are there). */
  o.fields.text[KOMI_OPPONENT_FIELD_BINARY] = "sh";
  o.fields.text[KOMI_OPPONENT_FIELD_MODEL] = here;
  o.fields.text[KOMI_OPPONENT_FIELD_CONFIG] = here;
  o.fields.text[KOMI_OPPONENT_FIELD_VISITS] = "10000000";
  assert_opponent_good (&o);
  spec = komi_opponent_form_spec (&o.fields);
  g_assert_cmpstr (spec, ==, "katago:10000000");
  /* Each bad value refused at its own field, the others good. */
  refuse_one (&o, KOMI_OPPONENT_FIELD_VISITS, "10000001",
              "Visits per move must be a whole number from 1 to 10,000,000");
  refuse_one (&o, KOMI_OPPONENT_FIELD_BINARY, "/nonexistent/katago",
              "There is no program at /nonexistent/katago: choose the KataGo program");
  /* A file that is not a program is not one. */
  not_program = g_strdup_printf ("There is no program at %s: choose the KataGo program", here);
  refuse_one (&o, KOMI_OPPONENT_FIELD_BINARY, here, not_program);
  refuse_one (&o, KOMI_OPPONENT_FIELD_MODEL, "/nonexistent/model.bin.gz",
              "There is no file at /nonexistent/model.bin.gz: choose KataGo’s network file");
  refuse_one (&o, KOMI_OPPONENT_FIELD_CONFIG, "/nonexistent/gtp.cfg",
              "There is no file at /nonexistent/gtp.cfg: choose KataGo’s GTP config file");

  /* An empty file field takes the variable komi-cli reads, when it names
   * a file that is there. */
  o.fields.text[KOMI_OPPONENT_FIELD_CONFIG] = "";
  g_setenv ("KOMI_KATAGO_CONFIG", here, TRUE);
  assert_opponent_good (&o);
  g_setenv ("KOMI_KATAGO_CONFIG", "/nonexistent/from-the-variable.cfg", TRUE);
  assert_opponent_refused (&o, KOMI_OPPONENT_FIELD_CONFIG,
                           "There is no file at /nonexistent/from-the-variable.cfg: choose "
                           "KataGo’s GTP config file");
  g_unsetenv ("KOMI_KATAGO_CONFIG");
  opponent_clear (&o);
}

static void
test_opponent_gtp (void)
{
  Opponent o = { { KOMI_OPPONENT_KIND_GTP, { NULL } } };
  g_autofree char *spec = NULL;

  o.fields.text[KOMI_OPPONENT_FIELD_COMMAND] = "";
  assert_opponent_refused (&o, KOMI_OPPONENT_FIELD_COMMAND,
                           "Give the command that starts the program, its full path first, "
                           "such as /usr/games/gnugo --mode gtp");
  /* What the command names is the spec parser's to judge, not the form's. */
  o.fields.text[KOMI_OPPONENT_FIELD_COMMAND] = "/usr/games/gnugo --mode gtp";
  assert_opponent_good (&o);
  spec = komi_opponent_form_spec (&o.fields);
  g_assert_cmpstr (spec, ==, "gtp:/usr/games/gnugo --mode gtp");

  /* Random asks for nothing. */
  o.fields.kind = KOMI_OPPONENT_KIND_RANDOM;
  o.fields.text[KOMI_OPPONENT_FIELD_COMMAND] = "";
  o.fields.text[KOMI_OPPONENT_FIELD_MIX] = "nonsense";
  assert_opponent_good (&o);
  g_clear_pointer (&spec, g_free);
  spec = komi_opponent_form_spec (&o.fields);
  g_assert_cmpstr (spec, ==, "random");

  /* Where an opponent already stands in a series' list. */
  g_assert_cmpint (komi_opponent_form_find ("random, gnugo:1,, mix:0.5:gnugo:2", "gnugo:1"),
                   ==, 1);
  g_assert_cmpint (komi_opponent_form_find ("random, gnugo:1,, mix:0.5:gnugo:2",
                                            "mix:0.5:gnugo:2"), ==, 2);
  g_assert_cmpint (komi_opponent_form_find ("random, gnugo:1", "gnugo:2"), ==, -1);
  g_assert_cmpint (komi_opponent_form_find (NULL, "random"), ==, -1);
  opponent_clear (&o);
}

/* --- New Series -------------------------------------------------------- */

static void
assert_series (KomiSeriesField field, const char *text, const char *words)
{
  KomiPlayerOptions engines = { 0 };
  g_autofree char *problem = komi_series_form_check (field, text, &engines, NULL);

  g_assert_cmpstr (problem, ==, words);
}

static void
test_series_fields (void)
{
  const char *pairs = "Pairs per opponent must be a whole number from 1 to 100,000";
  const char *seed = "The seed must be a whole number, 0 or more (digits only): the same seed "
                     "plays the same games";
  const char *jobs = "Games at once must be a whole number from 1 to 64";
  const char *budget = "Budget must be a positive amount in US dollars, like 5 or 2.50 "
                       "(empty: no budget)";

  assert_series (KOMI_SERIES_FIELD_NAME, "", "Give the series a name");
  assert_series (KOMI_SERIES_FIELD_NAME, "   ", "Give the series a name");
  assert_series (KOMI_SERIES_FIELD_NAME, " Weekly ", NULL);

  assert_series (KOMI_SERIES_FIELD_SUBJECT, "",
                 "Name the subject, the player being measured: a saved provider profile "
                 "(model:PROFILE.json) or an engine such as gnugo:3");
  assert_series (KOMI_SERIES_FIELD_SUBJECT, "random", NULL);

  assert_series (KOMI_SERIES_FIELD_OPPONENTS, "",
                 "Add at least one opponent, such as random or gnugo:1");
  assert_series (KOMI_SERIES_FIELD_OPPONENTS, " , ,",
                 "Add at least one opponent, such as random or gnugo:1");
  assert_series (KOMI_SERIES_FIELD_OPPONENTS, "random, random",
                 "“random” is listed twice: list each opponent once (more pairs play it more)");
  assert_series (KOMI_SERIES_FIELD_OPPONENTS, "random", NULL);

  for (const char *const *bad = (const char *[]) { "0", "100001", "-1", "+5", "1 000", "", NULL };
       *bad != NULL; bad++)
    assert_series (KOMI_SERIES_FIELD_PAIRS, *bad, pairs);
  assert_series (KOMI_SERIES_FIELD_PAIRS, " 100000 ", NULL);
  assert_series (KOMI_SERIES_FIELD_PAIRS, "1", NULL);

  for (const char *const *bad = (const char *[]) { "-1", "0x10", "1e3", "18446744073709551616",
                                                   "", NULL };
       *bad != NULL; bad++)
    assert_series (KOMI_SERIES_FIELD_SEED, *bad, seed);
  assert_series (KOMI_SERIES_FIELD_SEED, "0", NULL);
  assert_series (KOMI_SERIES_FIELD_SEED, "18446744073709551615", NULL);

  for (const char *const *bad = (const char *[]) { "0", "65", "two", "", NULL }; *bad != NULL;
       bad++)
    assert_series (KOMI_SERIES_FIELD_JOBS, *bad, jobs);
  assert_series (KOMI_SERIES_FIELD_JOBS, "64", NULL);

  for (const char *const *bad = (const char *[]) { "0", "-5", "5$", "$5", "inf", "nan", "2,50",
                                                   NULL };
       *bad != NULL; bad++)
    assert_series (KOMI_SERIES_FIELD_BUDGET, *bad, budget);
  assert_series (KOMI_SERIES_FIELD_BUDGET, "", NULL);
  assert_series (KOMI_SERIES_FIELD_BUDGET, "2.50", NULL);
  assert_series (KOMI_SERIES_FIELD_BUDGET, ".5", NULL);
}

/* A player the spec parser refuses is said in the parser's words; a model
 * refused for want of its key, where the key goes. */
static void
test_series_players (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("komi-form-checks-XXXXXX", &error);
  g_autofree char *profile = NULL;
  g_autofree char *subject = NULL;
  g_autofree char *problem = NULL;
  KomiPlayerOptions engines = { 0 };
  const char *where = "Put the key of “Form provider” in the keyring";

  g_assert_no_error (error);
  problem = komi_series_form_check (KOMI_SERIES_FIELD_SUBJECT, "nonsense:1", &engines, NULL);
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (problem, "nonsense"));
  g_clear_pointer (&problem, g_free);
  /* Each refused opponent on a line of its own. */
  problem = komi_series_form_check (KOMI_SERIES_FIELD_OPPONENTS, "nonsense:1, random, random",
                                    &engines, NULL);
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (problem, "nonsense"));
  g_assert_true (g_str_has_suffix (problem, "\n“random” is listed twice: list each opponent "
                                   "once (more pairs play it more)"));
  g_clear_pointer (&problem, g_free);

  profile = g_build_filename (dir, "form.json", NULL);
  g_file_set_contents (profile, "{\"name\": \"Form provider\", \"api\": \"openai-chat\", "
                       "\"base_url\": \"http://127.0.0.1:9/v1\", \"model\": \"m\", "
                       "\"key_env\": \"KOMI_TEST_FORM_CHECKS_NO_KEY\"}", -1, &error);
  g_assert_no_error (error);
  g_unsetenv ("KOMI_TEST_FORM_CHECKS_NO_KEY");
  subject = g_strconcat ("model:", profile, NULL);
  problem = komi_series_form_check (KOMI_SERIES_FIELD_SUBJECT, subject, &engines, where);
  g_assert_cmpstr (problem, ==, where);
  g_clear_pointer (&problem, g_free);
  /* Without a word on the key: the player's own refusal. */
  problem = komi_series_form_check (KOMI_SERIES_FIELD_SUBJECT, subject, &engines, NULL);
  g_assert_nonnull (problem);
  g_assert_cmpstr (problem, !=, where);
  g_clear_pointer (&problem, g_free);
  /* A profile that does not read is never a matter of the key. */
  g_clear_pointer (&subject, g_free);
  subject = g_strconcat ("model:", dir, "/missing.json", NULL);
  problem = komi_series_form_check (KOMI_SERIES_FIELD_SUBJECT, subject, &engines, where);
  g_assert_nonnull (problem);
  g_assert_cmpstr (problem, !=, where);

  g_assert_cmpint (g_remove (profile), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* --- provider ---------------------------------------------------------- */

/* The provider dialog's rows, in its order. */
static const char *const provider_fields[] = {
  "name", "api", "base_url", "model", "key_env", "temperature", "max_output_tokens",
  "reasoning_effort", "thinking_budget", "max_concurrent", "requests_per_minute",
  "price_input_per_mtok", "price_output_per_mtok", "typical_latency_seconds",
};
#define N_PROVIDER_FIELDS G_N_ELEMENTS (provider_fields)

typedef struct
{
  char     *problems[N_PROVIDER_FIELDS];
  char     *other;
  gboolean  valid;
} Provider;

static void
provider_clear (Provider *p)
{
  for (guint i = 0; i < N_PROVIDER_FIELDS; i++)
    g_clear_pointer (&p->problems[i], g_free);
  g_clear_pointer (&p->other, g_free);
}

static guint
provider_row (const char *field)
{
  for (guint i = 0; i < N_PROVIDER_FIELDS; i++)
    if (g_str_equal (provider_fields[i], field))
      return i;
  g_assert_not_reached ();
}

/* @json judged as the dialog judges its fields. */
static void
check_provider (Provider *p, const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = json_from_string (json, &error);

  g_assert_no_error (error);
  provider_clear (p);
  p->valid = komi_provider_form_check (json_node_get_object (root), provider_fields,
                                       N_PROVIDER_FIELDS, p->problems, &p->other);
}

/* The fields given (NULL-terminated pairs of a field and its words) are
 * refused, each in its words, and no other. */
static void
assert_provider_refused (Provider *p, const char *json, ...)
{
  const char *expected[N_PROVIDER_FIELDS] = { NULL };
  const char *field;
  va_list args;

  check_provider (p, json);
  va_start (args, json);
  while ((field = va_arg (args, const char *)) != NULL)
    expected[provider_row (field)] = va_arg (args, const char *);
  va_end (args);
  g_assert_false (p->valid);
  g_assert_null (p->other);
  for (guint i = 0; i < N_PROVIDER_FIELDS; i++)
    g_assert_cmpstr (p->problems[i], ==, expected[i]);
}

#define GOOD_PROFILE "\"name\": \"Form provider\", \"api\": \"openai-chat\", " \
                     "\"base_url\": \"http://127.0.0.1:9/v1\", \"model\": \"m-2025-01-01\""

static void
test_provider_fields (void)
{
  Provider p = { { NULL } };
  g_autofree char *file = NULL;

  check_provider (&p, "{" GOOD_PROFILE ", \"temperature\": 0.5, \"max_concurrent\": 4}");
  g_assert_true (p.valid);
  g_assert_null (p.other);
  for (guint i = 0; i < N_PROVIDER_FIELDS; i++)
    g_assert_null (p.problems[i]);

  assert_provider_refused (&p, "{" GOOD_PROFILE ", \"temperature\": 3}",
                           "temperature",
                           "Temperature must be a number from 0 to 2 (empty: not sent)", NULL);
  assert_provider_refused (&p, "{" GOOD_PROFILE ", \"max_concurrent\": 0}",
                           "max_concurrent",
                           "Requests at once must be a whole number from 1 to 1,024", NULL);
  /* Every field at once: each one the parser refuses is set aside and the
   * rest judged again. */
  assert_provider_refused (&p, "{\"name\": \"\", \"api\": \"openai-chat\", "
                           "\"base_url\": \"ftp://example.com\", \"model\": \"m\", "
                           "\"key_env\": \"sk-not a name\", \"temperature\": -1, "
                           "\"requests_per_minute\": -5, \"price_input_per_mtok\": -0.15}",
                           "name", "Give the profile a name",
                           "base_url",
                           "The base URL must start with http:// or https:// (empty: the API’s "
                           "own)",
                           "key_env",
                           "The key name must be letters, digits and _ such as OPENAI_API_KEY, "
                           "not the key itself (that goes in API key)",
                           "temperature",
                           "Temperature must be a number from 0 to 2 (empty: not sent)",
                           "requests_per_minute",
                           "Requests per minute must be a number from 0 to 1,000,000 (empty: no "
                           "cap)",
                           "price_input_per_mtok",
                           "The input price must be an amount in US dollars per million tokens, "
                           "0 or more, like 0.15",
                           NULL);

  /* A member of a hand-written file that no row shows: said above the
   * form, in the parser's words. */
  check_provider (&p, "{" GOOD_PROFILE ", \"retries\": \"often\"}");
  g_assert_false (p.valid);
  g_assert_nonnull (p.other);
  g_assert_nonnull (strstr (p.other, "retries"));
  for (guint i = 0; i < N_PROVIDER_FIELDS; i++)
    g_assert_null (p.problems[i]);
  provider_clear (&p);

  file = komi_provider_form_file_name ("My model/v2 (test)");
  g_assert_cmpstr (file, ==, "My-model-v2--test-.json");
}

int
main (int argc, char *argv[])
{
  /* The C locale's figures (grouped with ","), whatever runs the tests. */
  g_unsetenv ("LC_ALL");
  g_setenv ("LC_NUMERIC", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/app-model/forms/opponent/gnugo", test_opponent_gnugo);
  g_test_add_func ("/komi/app-model/forms/opponent/katago", test_opponent_katago);
  g_test_add_func ("/komi/app-model/forms/opponent/gtp-and-random", test_opponent_gtp);
  g_test_add_func ("/komi/app-model/forms/series/fields", test_series_fields);
  g_test_add_func ("/komi/app-model/forms/series/players", test_series_players);
  g_test_add_func ("/komi/app-model/forms/provider/fields", test_provider_fields);
  return g_test_run ();
}
