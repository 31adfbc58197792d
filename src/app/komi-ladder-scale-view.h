/* komi-ladder-scale-view.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "komi-ladder-scale.h"

G_BEGIN_DECLS

#define KOMI_TYPE_LADDER_SCALE_VIEW (komi_ladder_scale_view_get_type ())
G_DECLARE_FINAL_TYPE (KomiLadderScaleView, komi_ladder_scale_view, KOMI, LADDER_SCALE_VIEW,
                      GtkWidget)

/* The rating scale (KomiScale) on screen, in the theme's colours, with
 * each row's numbers in its tooltip. */
GtkWidget       *komi_ladder_scale_view_new       (void);
/* Takes @scale (NULL: nothing drawn). */
void             komi_ladder_scale_view_set_scale (KomiLadderScaleView *self,
                                                   KomiScale           *scale);
const KomiScale *komi_ladder_scale_view_get_scale (KomiLadderScaleView *self);
/* The tooltip at (@x, @y) in widget coordinates, or NULL. */
char            *komi_ladder_scale_view_tooltip   (KomiLadderScaleView *self,
                                                   double               x,
                                                   double               y);

G_END_DECLS
