/* app-screenshots-shards.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

typedef gboolean (*ShotImport) (const char *out, GError **error);

/* The shards-watch screenshot: 4 `komi-cli run --shard K/4` processes
 * (@cli) writing libraries in @dir, watched over @parent in the Watch
 * Shards window once a few games have ended; @import takes the screen
 * into @out, then the shards are stopped. */
gboolean shards_shot_take (GtkWindow   *parent,
                           const char  *cli,
                           const char  *dir,
                           const char  *out,
                           ShotImport   import,
                           GError     **error);
