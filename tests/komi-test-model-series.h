/* komi-test-model-series.h: a model's series played by komi-cli against
 * the rehearsal server, the library the review and publish tests read.
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

/* Plays one pair, a model against random (seed 5, no referee, one game at
 * a time), into the library @db with `komi-cli run`; fails the test when
 * komi-cli does. The model's profile (@dir/model.json, with logprobs)
 * names the provider at @base_url (the rehearsal server's address, "/v1"
 * added) and its key's variable @key_env, which is set to @key; with
 * @quick_retries it retries after 10 ms (50 ms at most) instead of
 * seconds. The series file is @dir/series.json, the series named @name. */
void
test_run_model_series (const char *dir, const char *db, const char *name, const char *base_url,
                       const char *key_env, const char *key, gboolean quick_retries);
