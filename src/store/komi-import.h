/* komi-import.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-store.h"

G_BEGIN_DECLS

/* Game records from SGF files (Komi's own and other tools') brought into
 * the library for review, with status "imported": names, result as given,
 * setup, moves, dead stones (MA) and the file they came from. Every game of
 * a collection is imported, in one transaction. */

/* Imports @path. A record that does not replay under our rules is refused
 * with the reader's error naming the file and the move. A file whose exact
 * content is already in the library is not imported again: *duplicate is
 * set and @game_ids receives the games it gave before. @game_ids (gint64)
 * receives the library ids of the games. */
gboolean komi_import_sgf_file (KomiStore   *store,
                               const char  *path,
                               GArray      *game_ids,
                               gboolean    *duplicate,
                               GError     **error);

G_END_DECLS
