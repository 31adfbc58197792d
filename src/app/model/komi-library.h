/* komi-library.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "komi-library-items.h"
#include "komi-replay.h"

G_BEGIN_DECLS

/* The user's library as the application sees it: list models of its
 * series (with per-opponent results and games), its players and the
 * ratings against the frozen ladder. Every read happens on a worker thread
 * on a reader connection of its own; the models change on the main
 * thread only, all at once when a read completes. */

#define KOMI_TYPE_LIBRARY (komi_library_get_type ())
G_DECLARE_FINAL_TYPE (KomiLibrary, komi_library, KOMI, LIBRARY, GObject)

typedef enum
{
  KOMI_LIBRARY_STATE_LOADING,
  KOMI_LIBRARY_STATE_READY,
  KOMI_LIBRARY_STATE_MISSING,   /* no file yet: nothing has been run */
  KOMI_LIBRARY_STATE_FAILED,    /* the message says why and what to do */
} KomiLibraryState;

KomiLibrary      *komi_library_new                (const char           *path);
const char       *komi_library_get_path           (KomiLibrary          *self);
KomiLibraryState  komi_library_get_state          (KomiLibrary          *self);
/* Why the library is missing or failed, in words that say what to do. */
const char       *komi_library_get_message        (KomiLibrary          *self);
/* Why there are no ratings (no ladder yet, or the fit failed); NULL when
 * there are. */
const char       *komi_library_get_ratings_message (KomiLibrary         *self);
/* "Elo on the Protocol 1 ladder shipped with Komi", or NULL: no ladder. */
const char       *komi_library_get_ratings_caption (KomiLibrary         *self);
/* TRUE while a read's rows replace the old ones: selection changes seen
 * then are the models', not the user's. */
gboolean          komi_library_is_replacing       (KomiLibrary          *self);
GListModel       *komi_library_get_series         (KomiLibrary          *self);
GListModel       *komi_library_get_players        (KomiLibrary          *self);
GListModel       *komi_library_get_ratings        (KomiLibrary          *self);
/* Every game started, ended or imported (KomiGameItem), in the store's
 * order; the rows are those of the series' games lists. */
GListModel       *komi_library_get_games          (KomiLibrary          *self);
/* A series whose last run died (the process killed or crashed, not
 * stopped) with games left, as of the last read: the latest such, or
 * NULL. A series running now in any process is never one. */
KomiSeriesItem   *komi_library_dup_interrupted    (KomiLibrary          *self);
/* The user chose not to continue @series_id's dead run: recorded (a
 * "dismissed" run end) so that it is not offered again. */
void              komi_library_dismiss_interrupted_async  (KomiLibrary         *self,
                                                           gint64               series_id,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean          komi_library_dismiss_interrupted_finish (KomiLibrary         *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
/* Reads the library again, off the main thread; "state" is notified when
 * the read is done. */
void              komi_library_reload             (KomiLibrary          *self);

G_END_DECLS
