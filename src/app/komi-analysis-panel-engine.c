/* komi-analysis-panel-engine.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <glib/gi18n.h>

#include "komi-analysis-panel-private.h"
#include "komi-settings.h"
#include "komi-ui-util.h"

/* The engine of an engine review, chosen in the panel beside the game:
 * KataGo with its visits a position, or GNU Go at a level (its estimate:
 * play-outs counted). Until the user chooses, KataGo when the preferences
 * or the environment name it, else GNU Go level 5 — as komi-cli analyse
 * does. The choice is kept in the settings (`analysis-engine`,
 * `analysis-visits`, `analysis-level`). */

enum
{
  ENGINE_KATAGO,
  ENGINE_GNUGO,
};

static const char * const engine_keys[] = { "katago", "gnugo" };

static gboolean
katago_configured (void)
{
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions opts = { 0, };

  komi_settings_engine_options (&opts, strs);
  return opts.katago_binary != NULL || g_getenv ("KOMI_KATAGO") != NULL;
}

/* The strength that matters for the engine chosen: visits or a level. */
static void
show_strength (KomiAnalysisPanel *self)
{
  gboolean katago = gtk_drop_down_get_selected (self->engine_drop) == ENGINE_KATAGO;

  gtk_widget_set_visible (GTK_WIDGET (self->visits_spin), katago);
  gtk_widget_set_visible (self->visits_label, katago);
  gtk_widget_set_visible (GTK_WIDGET (self->level_spin), !katago);
  gtk_widget_set_visible (self->level_label, !katago);
}

static void
on_engine_chosen (KomiAnalysisPanel *self)
{
  guint chosen = gtk_drop_down_get_selected (self->engine_drop);

  show_strength (self);
  if (self->settings != NULL && chosen < G_N_ELEMENTS (engine_keys))
    g_settings_set_string (self->settings, "analysis-engine", engine_keys[chosen]);
}

static void
on_strength_changed (KomiAnalysisPanel *self, GtkSpinButton *spin)
{
  if (self->settings != NULL)
    g_settings_set_int (self->settings, spin == self->visits_spin ? "analysis-visits"
                                                                  : "analysis-level",
                        gtk_spin_button_get_value_as_int (spin));
}

/* Until the user chooses, the engine follows the preferences and the
 * environment as they are now (set after the window opened, too). */
static void
follow_default (KomiAnalysisPanel *self)
{
  g_autofree char *engine = NULL;
  guint chosen;

  if (self->settings != NULL)
    engine = g_settings_get_string (self->settings, "analysis-engine");
  if (g_strcmp0 (engine, "katago") == 0)
    chosen = ENGINE_KATAGO;
  else if (g_strcmp0 (engine, "gnugo") == 0)
    chosen = ENGINE_GNUGO;
  else
    chosen = katago_configured () ? ENGINE_KATAGO : ENGINE_GNUGO;
  g_signal_handlers_block_by_func (self->engine_drop, on_engine_chosen, self);
  gtk_drop_down_set_selected (self->engine_drop, chosen);
  g_signal_handlers_unblock_by_func (self->engine_drop, on_engine_chosen, self);
  show_strength (self);
}

char *
_komi_analysis_panel_engine_spec (KomiAnalysisPanel *self)
{
  follow_default (self);
  if (gtk_drop_down_get_selected (self->engine_drop) == ENGINE_KATAGO)
    return g_strdup_printf ("katago:%d", gtk_spin_button_get_value_as_int (self->visits_spin));
  return g_strdup_printf ("gnugo:%d", gtk_spin_button_get_value_as_int (self->level_spin));
}

char *
_komi_analysis_panel_engine_problem (KomiAnalysisPanel *self)
{
  follow_default (self);
  if (gtk_drop_down_get_selected (self->engine_drop) == ENGINE_KATAGO && !katago_configured ())
    return g_strdup (_("KataGo is not set up: give its binary, network and GTP config in "
                       "Preferences, or choose GNU Go"));
  return NULL;
}

void
_komi_analysis_panel_class_init_engine (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, engine_box);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, engine_drop);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, visits_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, visits_label);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, level_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, level_label);
  gtk_widget_class_bind_template_child (widget_class, KomiAnalysisPanel, refusal_label);
}

void
_komi_analysis_panel_init_engine (KomiAnalysisPanel *self)
{
  if (self->settings != NULL)
    {
      gtk_spin_button_set_value (self->visits_spin,
                                 g_settings_get_int (self->settings, "analysis-visits"));
      gtk_spin_button_set_value (self->level_spin,
                                 g_settings_get_int (self->settings, "analysis-level"));
    }
  /* A figure out of range is refused with the range, under the row. */
  komi_spin_button_refuse_out_of_range (self->level_spin, _("Level"),
                                        GTK_WIDGET (self->refusal_label));
  komi_spin_button_refuse_out_of_range (self->visits_spin, _("Visits"),
                                        GTK_WIDGET (self->refusal_label));
  /* The user's choices from here on are kept. */
  g_signal_connect_swapped (self->engine_drop, "notify::selected",
                            G_CALLBACK (on_engine_chosen), self);
  g_signal_connect_swapped (self->visits_spin, "value-changed",
                            G_CALLBACK (on_strength_changed), self);
  g_signal_connect_swapped (self->level_spin, "value-changed",
                            G_CALLBACK (on_strength_changed), self);
  follow_default (self);
  g_signal_connect_swapped (self, "map", G_CALLBACK (follow_default), self);
}
