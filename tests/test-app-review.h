/* test-app-review.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-library.h"
#include "komi-rehearsal.h"
#include "komi-review-window.h"

G_BEGIN_DECLS

/* What test-app-review.c sets up once for all the review tests: the
 * rehearsal model's games against random, recorded by komi-cli in
 * review_db, the model keyed with REVIEW_KEY from REVIEW_KEY_ENV. */

#define REVIEW_KEY "sk-komi-review-planted-5c1e0b7d93"
#define REVIEW_KEY_ENV "KOMI_TEST_REVIEW_KEY"

extern char *review_dir;
extern char *review_db;
extern KomiRehearsal *review_server;
extern KomiLibrary *review_library;
extern gint64 review_game_id;

KomiReviewWindow *review_test_open  (gint64            id);
void              review_test_press (KomiReviewWindow *window,
                                     const char       *keys);
GtkWidget        *review_test_find_label (GtkWidget  *widget,
                                          const char *prefix);

/* test-app-review-calls.c: the call inspector's tests. */
void review_test_add_calls (void);

G_END_DECLS
