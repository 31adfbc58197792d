/* komi-library-load.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-library.h"

G_BEGIN_DECLS

/* One read of the whole library, done on a worker thread: the rows of
 * every model, ready to be swapped in on the main thread. */
typedef struct
{
  KomiLibraryState  state;
  char             *message;
  char             *ratings_message;
  char             *ratings_caption; /* the scale's name, under its axis */
  GPtrArray        *series;    /* KomiSeriesItem */
  GPtrArray        *players;   /* KomiPlayerItem */
  GPtrArray        *ratings;   /* KomiRatingItem: the ladder, then the subjects */
  GPtrArray        *games;     /* KomiGameItem: every game played or imported, the
                                * series' rows shared */
  GArray           *interrupted;  /* gint64 ids of series whose run died with games left */
} KomiLibraryContents;

/* Reads the library at @path; never NULL (a failure is a state with a
 * message). */
KomiLibraryContents *_komi_library_read           (const char          *path,
                                                   GCancellable        *cancellable);
void                 _komi_library_contents_free  (KomiLibraryContents *contents);
/* Where the frozen ladder of @protocol lives: beside the library, as
 * `komi-cli ratings calibrate` writes it. */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiLibraryContents, _komi_library_contents_free)

G_END_DECLS
