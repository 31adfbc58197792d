/* komi-ladder-page.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "komi-ladder-scale-view.h"
#include "komi-list-page.h"

G_BEGIN_DECLS

/* The frozen ladder beside the library and each subject rated against
 * it, with a 95% interval and its record (wins–losses–draws). */
#define KOMI_TYPE_LADDER_PAGE (komi_ladder_page_get_type ())
G_DECLARE_FINAL_TYPE (KomiLadderPage, komi_ladder_page, KOMI, LADDER_PAGE, KomiListPage)

/* The scale drawn above the table (its rows are the table's). */
KomiLadderScaleView *komi_ladder_page_get_scale_view (KomiLadderPage  *self);
/* What "Save Image…" writes: @path's extension (.png, .svg) picks the
 * format. */
gboolean             komi_ladder_page_save_image     (KomiLadderPage  *self,
                                                      const char      *path,
                                                      GError         **error);

G_END_DECLS
