/* komi-series-dialog.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-app"

#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "komi-ladder.h"
#include "komi-ladder-ship.h"
#include "komi-library-load.h"
#include "komi-opponent-dialog.h"
#include "komi-player-check.h"
#include "komi-series.h"
#include "komi-series-dialog.h"
#include "komi-series-estimate.h"
#include "komi-series-keys.h"
#include "komi-settings.h"
#include "komi-window.h"

struct _KomiSeriesDialog
{
  AdwWindow       parent_instance;

  GtkWindow      *runner;       /* the window whose win.run-definition runs it */
  char           *definition;   /* the JSON of the fields when they are valid */
  KomiSeries     *series;       /* the same, parsed */
  GCancellable   *checks;       /* the player tests in flight */
  GPtrArray      *check_lines;  /* one line per player tested, in the fields' order */
  GCancellable   *keys;         /* the models' keys being looked up in the keyring */
  char           *keys_for;     /* the model players they were looked up for */
  char           *keys_error;   /* which key is missing and what to do; NULL: none */

  AdwEntryRow    *name_row;
  AdwEntryRow    *subject_row;
  GtkSwitch      *rate_switch;
  AdwEntryRow    *opponents_row;
  AdwActionRow   *pairs_row;
  GtkSpinButton  *pairs_spin;
  AdwEntryRow    *seed_row;
  AdwComboRow    *referee_row;
  AdwActionRow   *jobs_row;
  GtkSpinButton  *jobs_spin;
  AdwEntryRow    *budget_row;
  KomiLadder     *ladder;       /* beside the runner's library, when rating; NULL: none */
  char           *ladder_error; /* why there is none */
  GtkLabel       *error_label;
  GtkLabel       *summary_label;
  GtkLabel       *estimate_label;
  GtkLabel       *check_label;
};

G_DEFINE_FINAL_TYPE (KomiSeriesDialog, komi_series_dialog, ADW_TYPE_WINDOW)

static const char *
text_of (AdwEntryRow *row)
{
  return gtk_editable_get_text (GTK_EDITABLE (row));
}

/* The ladder frozen beside the runner's library, read when rating is
 * switched on (it may have been calibrated since the dialog opened). */
static void
load_ladder (KomiSeriesDialog *self, gboolean rating)
{
  g_autoptr(GError) error = NULL;
  const char *path;

  g_clear_pointer (&self->ladder, komi_ladder_free);
  g_clear_pointer (&self->ladder_error, g_free);
  if (!rating)
    return;
  if (self->runner == NULL || !KOMI_IS_WINDOW (self->runner))
    {
      self->ladder_error = g_strdup (_("No library to rate in."));
      return;
    }
  path = komi_library_get_path (komi_window_get_library (KOMI_WINDOW (self->runner)));
  self->ladder = komi_ladder_resolve (komi_settings_rating_ladder (), path,
                                      KOMI_PROTOCOL_LATEST, &error);
  if (self->ladder == NULL)
    self->ladder_error = g_strdup_printf (_("No ladder to rate against: %s"), error->message);
}

/* The fields as a series definition, exactly as a file would hold it, so
 * the series parser judges them: one set of rules for files and dialog. */
static char *
build_definition (KomiSeriesDialog *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_auto(GStrv) opponents = g_strsplit (text_of (self->opponents_row), ",", -1);
  g_autofree char *name = g_strstrip (g_strdup (text_of (self->name_row)));
  g_autofree char *subject = g_strstrip (g_strdup (text_of (self->subject_row)));
  g_autofree char *seed = g_strstrip (g_strdup (text_of (self->seed_row)));
  g_autofree char *budget = g_strstrip (g_strdup (text_of (self->budget_row)));
  GtkStringObject *referee = adw_combo_row_get_selected_item (self->referee_row);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "protocol");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "subject");
  json_builder_add_string_value (b, subject);
  json_builder_set_member_name (b, "opponents");
  json_builder_begin_array (b);
  for (guint i = 0; self->ladder == NULL && opponents[i] != NULL; i++)
    if (*g_strstrip (opponents[i]) != '\0')
      json_builder_add_string_value (b, opponents[i]);
  /* A rating: every member, the pairs chosen as it runs (komi-rate-run.h). */
  for (guint i = 0; self->ladder != NULL && i < self->ladder->members->len; i++)
    json_builder_add_string_value (b, ((KomiLadderMember *) self->ladder->members->pdata[i])->label);
  json_builder_end_array (b);
  json_builder_set_member_name (b, self->ladder != NULL ? "pair_order" : "pairs");
  if (self->ladder != NULL)
    json_builder_add_value (b, json_node_init_array (json_node_alloc (), json_array_new ()));
  else
    json_builder_add_int_value (b, gtk_spin_button_get_value_as_int (self->pairs_spin));
  /* As typed, in a string (the parser takes digits there, seeds past 2^53
   * included, and names the field for anything else); absent when empty. */
  if (*seed != '\0')
    {
      json_builder_set_member_name (b, "seed");
      json_builder_add_string_value (b, seed);
    }
  json_builder_set_member_name (b, "referee");
  json_builder_add_string_value (b, referee ? gtk_string_object_get_string (referee) : "none");
  json_builder_set_member_name (b, "jobs");
  json_builder_add_int_value (b, gtk_spin_button_get_value_as_int (self->jobs_spin));
  /* A number when it reads as one; anything else as typed, for the parser
   * to refuse by name. */
  if (*budget != '\0')
    {
      char *end = NULL;
      double dollars = g_ascii_strtod (budget, &end);

      json_builder_set_member_name (b, "budget_usd");
      if (end != budget && *end == '\0' && isfinite (dollars))
        json_builder_add_double_value (b, dollars);
      else
        json_builder_add_string_value (b, budget);
    }
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}

/* The row a field error of the series parser is about: its messages start
 * with the field's name in quotes. */
static GtkWidget *
row_for_error (KomiSeriesDialog *self, const GError *error)
{
  static const struct { const char *field; gsize offset; } rows[] = {
    { "name", G_STRUCT_OFFSET (KomiSeriesDialog, name_row) },
    { "subject", G_STRUCT_OFFSET (KomiSeriesDialog, subject_row) },
    { "opponents", G_STRUCT_OFFSET (KomiSeriesDialog, opponents_row) },
    { "pairs", G_STRUCT_OFFSET (KomiSeriesDialog, pairs_row) },
    { "seed", G_STRUCT_OFFSET (KomiSeriesDialog, seed_row) },
    { "referee", G_STRUCT_OFFSET (KomiSeriesDialog, referee_row) },
    { "jobs", G_STRUCT_OFFSET (KomiSeriesDialog, jobs_row) },
    { "budget_usd", G_STRUCT_OFFSET (KomiSeriesDialog, budget_row) },
  };

  if (!g_error_matches (error, KOMI_SERIES_ERROR, KOMI_SERIES_ERROR_FIELD))
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *quoted = g_strdup_printf ("“%s", rows[i].field);

      if (g_str_has_prefix (error->message, quoted))
        return G_STRUCT_MEMBER (GtkWidget *, self, rows[i].offset);
    }
  return NULL;
}

static char *
describe (const KomiSeries *series)
{
  guint games = komi_series_count_games (series);
  GString *text = g_string_new (NULL);

  if (series->pair_order != NULL)
    {
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                                 "Rated against the %u member of the ladder, "
                                                 "%u games at once.",
                                                 "Rated against the %u members of the ladder, "
                                                 "%u games at once.", series->opponents->len),
                              series->opponents->len, series->jobs);
      return g_string_free (text, FALSE);
    }
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u game", "%u games", games),
                          games);
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                             " against %u opponent, %u at once.",
                                             " against %u opponents, %u at once.",
                                             series->opponents->len),
                          series->opponents->len, series->jobs);
  return g_string_free (text, FALSE);
}

static char *
money (double dollars)
{
  if (dollars > 0 && dollars < 0.005)
    return g_strdup (_("under $0.01"));
  return g_strdup_printf (_("$%.2f"), dollars);
}

/* "About 1,920 model calls (at most 5,760) · about $0.19, at most $2.88",
 * and what the budget does, from komi_series_estimate(). */
static char *
describe_estimate (const KomiSeriesEstimate *e)
{
  GString *text = g_string_new (NULL);
  g_autofree char *cost = money (e->cost);
  g_autofree char *cost_max = money (e->cost_max);
  g_autofree char *budget = money (e->budget);

  if (e->model_games == 0)
    return g_strdup (_("No model calls: nothing to pay."));
  /* ' groups digits as the locale does. */
  g_string_append_printf (text, _("About %'" PRIu64 " model calls (at most %'"
                                  PRIu64 ")"), e->calls, e->calls_max);
  if (!e->priced)
    g_string_append (text, _(" · price not set"));
  else if (e->cost_max < 0)
    g_string_append_printf (text, _(" · about %s; no upper bound without max output tokens "
                                    "in the profile"), cost);
  else
    g_string_append_printf (text, _(" · about %s, at most %s"), cost, cost_max);
  if (e->budget > 0 && !e->priced)
    g_string_append (text, _("\nThe budget cannot stop the series while a price is not set."));
  else if (e->games_in_budget < e->games)
    g_string_append_printf (text, _("\nThe budget of %s stops the series after about %u of %u "
                                    "games; it can be continued later."),
                            budget, e->games_in_budget, e->games);
  else if (e->budget_may_stop)
    g_string_append_printf (text, _("\nThe budget of %s may stop the series early."), budget);
  return g_string_free (text, FALSE);
}

static void on_changed (KomiSeriesDialog *self);

/* The model players the fields name, one per line: what the keys were
 * looked up for. */
static char *
model_players (KomiSeriesDialog *self)
{
  g_auto(GStrv) opponents = g_strsplit (text_of (self->opponents_row), ",", -1);
  g_autofree char *subject = g_strstrip (g_strdup (text_of (self->subject_row)));
  GString *models = g_string_new (NULL);

  if (g_str_has_prefix (subject, "model:"))
    g_string_append_printf (models, "%s\n", subject);
  for (guint i = 0; opponents[i] != NULL; i++)
    if (g_str_has_prefix (g_strstrip (opponents[i]), "model:"))
      g_string_append_printf (models, "%s\n", opponents[i]);
  return g_string_free (models, FALSE);
}

static void
on_keys_prepared (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  KomiSeriesDialog *self = user_data;
  g_autoptr(GError) error = NULL;

  /* Cancelled in dispose: @self may be gone (no reference is held, so
   * the dialog is finalized when it is destroyed, not by this callback). */
  if (!komi_series_keys_prepare_finish (result, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->keys);
  g_free (self->keys_error);
  self->keys_error = error != NULL ? g_strdup (error->message) : NULL;
  on_changed (self);
}

/* A model's key may be in the keyring only: it is looked up (once per set
 * of model players) before the parser, which reads the key table, can
 * accept the model. */
static void
look_up_keys (KomiSeriesDialog *self, const char *definition)
{
  g_autofree char *models = model_players (self);

  if (g_strcmp0 (models, self->keys_for) == 0)
    return;
  g_cancellable_cancel (self->keys);
  g_clear_object (&self->keys);
  g_clear_pointer (&self->keys_error, g_free);
  g_free (self->keys_for);
  self->keys_for = g_steal_pointer (&models);
  if (*self->keys_for == '\0')
    return;
  self->keys = g_cancellable_new ();
  komi_series_keys_prepare_async (NULL, definition, self->keys, on_keys_prepared, self);
}

static void
on_changed (KomiSeriesDialog *self)
{
  GtkWidget *rows[] = {
    GTK_WIDGET (self->name_row), GTK_WIDGET (self->subject_row),
    GTK_WIDGET (self->opponents_row), GTK_WIDGET (self->pairs_row),
    GTK_WIDGET (self->seed_row), GTK_WIDGET (self->referee_row), GTK_WIDGET (self->jobs_row),
    GTK_WIDGET (self->budget_row),
  };
  gboolean rating = gtk_switch_get_active (self->rate_switch);
  g_autofree char *definition = (load_ladder (self, rating), build_definition (self));
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *estimate = NULL;
  KomiSeriesEstimate figures;
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions engines = { 0 };
  GtkWidget *bad;

  look_up_keys (self, definition);
  gtk_widget_set_visible (GTK_WIDGET (self->opponents_row), !rating);
  gtk_widget_set_visible (GTK_WIDGET (self->pairs_row), !rating);
  if (rating && self->ladder == NULL)
    {
      gtk_label_set_text (self->error_label, self->ladder_error);
      gtk_label_set_text (self->summary_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->estimate_label), FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "series.run", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "series.test", FALSE);
      g_clear_pointer (&self->definition, g_free);
      g_clear_pointer (&self->series, komi_series_free);
      return;
    }
  /* Read each time: the Opponent dialog may have saved KataGo's files. */
  komi_settings_engine_options (&engines, strs);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    gtk_widget_remove_css_class (rows[i], "error");
  g_clear_pointer (&self->definition, g_free);
  /* Tests of players the fields no longer name are dropped. */
  g_cancellable_cancel (self->checks);
  g_ptr_array_set_size (self->check_lines, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->check_label), FALSE);
  g_clear_pointer (&self->series, komi_series_free);

  series = komi_series_new_from_json_with_engines (definition, -1, &engines, &error);
  if (series == NULL)
    {
      gboolean players = FALSE;

      bad = row_for_error (self, error);
      if (bad != NULL)
        gtk_widget_add_css_class (bad, "error");
      players = bad == GTK_WIDGET (self->subject_row) || bad == GTK_WIDGET (self->opponents_row);
      /* A model refused for want of a key: say where the key goes (until
       * the lookup ends, the parser's words, which name the variable). */
      if (players && self->keys == NULL && self->keys_error != NULL)
        gtk_label_set_text (self->error_label, self->keys_error);
      else
        gtk_label_set_text (self->error_label, error->message);
      gtk_label_set_text (self->summary_label, "");
      gtk_label_set_text (self->estimate_label, "");
    }
  else
    {
      summary = describe (series);
      gtk_label_set_text (self->summary_label, summary);
      /* Reads each model's profile (small local files) once per change. */
      if (rating)
        estimate = g_strdup (_("Games and cost are decided pair by pair; the budget stops the "
                               "rating before a pair could overspend it."));
      else if (komi_series_estimate (&figures, series, &error))
        estimate = describe_estimate (&figures);
      else
        estimate = g_strdup (error->message);
      gtk_label_set_text (self->estimate_label, estimate);
      self->definition = g_steal_pointer (&definition);
      self->series = g_steal_pointer (&series);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), self->series == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->estimate_label), self->series != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "series.run", self->series != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "series.test", self->series != NULL);
}

/* Player tests */

typedef struct
{
  KomiSeriesDialog *self;
  guint             index;
  char             *spec;
} CheckData;

static void
show_checks (KomiSeriesDialog *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->check_lines->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "",
                            (const char *) g_ptr_array_index (self->check_lines, i));
  gtk_label_set_text (self->check_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->check_label), text->len > 0);
}

static void
on_checked (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  CheckData *data = user_data;
  KomiSeriesDialog *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(KomiPlayerCheck) check = komi_player_check_finish (result, &error);
  g_autofree char *outcome = NULL;

  /* A cancelled test belongs to fields since changed: its line is gone. */
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      && data->index < self->check_lines->len)
    {
      outcome = check != NULL ? komi_player_check_describe (check) : g_strdup (error->message);
      g_free (self->check_lines->pdata[data->index]);
      self->check_lines->pdata[data->index] = g_strdup_printf ("%s %s: %s",
                                                               check ? "✓" : "✗",
                                                               data->spec, outcome);
      show_checks (self);
    }
  g_object_unref (self);
  g_free (data->spec);
  g_free (data);
}

static void
test_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KomiSeriesDialog *self = KOMI_SERIES_DIALOG (widget);
  g_autoptr(GPtrArray) specs = g_ptr_array_new ();

  if (self->series == NULL)
    return;
  /* The engines as the series will run them: its paths, then settings. */
  g_cancellable_cancel (self->checks);
  g_clear_object (&self->checks);
  self->checks = g_cancellable_new ();
  g_ptr_array_set_size (self->check_lines, 0);

  g_ptr_array_add (specs, self->series->subject);
  for (guint i = 0; i < self->series->opponents->len; i++)
    g_ptr_array_add (specs, ((KomiSeriesOpponent *)
                             g_ptr_array_index (self->series->opponents, i))->player);
  for (guint i = 0; i < specs->len; i++)
    {
      CheckData *data = g_new0 (CheckData, 1);

      data->self = g_object_ref (self);
      data->index = i;
      data->spec = g_strdup (specs->pdata[i]);
      g_ptr_array_add (self->check_lines,
                       g_strdup_printf ("… %s: %s", (const char *) specs->pdata[i],
                                        _("starting…")));
      komi_player_check_with_options_async (specs->pdata[i], &self->series->engines,
                                            self->checks, on_checked, data);
    }
  show_checks (self);
}

/* The opponent dialog adds its spec to the opponents' field. */
static void
add_opponent_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  KomiSeriesDialog *self = KOMI_SERIES_DIALOG (widget);

  gtk_window_present (GTK_WINDOW (komi_opponent_dialog_new (GTK_WINDOW (self),
                                                            GTK_EDITABLE (self->opponents_row))));
}

static void
run_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KomiSeriesDialog *self = KOMI_SERIES_DIALOG (widget);

  if (self->definition == NULL || self->runner == NULL)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self->runner), "win.run-definition", "s",
                              self->definition);
  gtk_window_close (GTK_WINDOW (self));
}

KomiSeriesDialog *
komi_series_dialog_new (GtkWindow *runner)
{
  KomiSeriesDialog *self = g_object_new (KOMI_TYPE_SERIES_DIALOG,
                                         "transient-for", runner,
                                         NULL);

  self->runner = runner;
  g_object_add_weak_pointer (G_OBJECT (runner), (gpointer *) &self->runner);
  return self;
}

const char *
komi_series_dialog_get_definition (KomiSeriesDialog *self)
{
  g_return_val_if_fail (KOMI_IS_SERIES_DIALOG (self), NULL);
  return self->definition;
}

static void
komi_series_dialog_dispose (GObject *object)
{
  KomiSeriesDialog *self = KOMI_SERIES_DIALOG (object);

  if (self->runner != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->runner), (gpointer *) &self->runner);
  self->runner = NULL;
  g_cancellable_cancel (self->checks);
  g_clear_object (&self->checks);
  g_cancellable_cancel (self->keys);
  g_clear_object (&self->keys);
  G_OBJECT_CLASS (komi_series_dialog_parent_class)->dispose (object);
}

static void
komi_series_dialog_finalize (GObject *object)
{
  KomiSeriesDialog *self = KOMI_SERIES_DIALOG (object);

  g_free (self->definition);
  g_free (self->keys_for);
  g_free (self->keys_error);
  g_free (self->ladder_error);
  g_clear_pointer (&self->ladder, komi_ladder_free);
  g_clear_pointer (&self->series, komi_series_free);
  g_ptr_array_unref (self->check_lines);
  G_OBJECT_CLASS (komi_series_dialog_parent_class)->finalize (object);
}

static void
komi_series_dialog_class_init (KomiSeriesDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = komi_series_dialog_dispose;
  object_class->finalize = komi_series_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/komigo/Komi/komi-series-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, subject_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, rate_switch);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, opponents_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, pairs_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, pairs_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, seed_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, referee_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, jobs_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, jobs_spin);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, budget_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, estimate_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, check_label);
  gtk_widget_class_bind_template_callback (widget_class, on_changed);

  gtk_widget_class_install_action (widget_class, "series.run", NULL, run_activated);
  gtk_widget_class_install_action (widget_class, "series.test", NULL, test_activated);
  gtk_widget_class_install_action (widget_class, "series.add-opponent", NULL,
                                   add_opponent_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
komi_series_dialog_init (KomiSeriesDialog *self)
{
  g_autofree char *seed = NULL;
  g_autofree char *referee = NULL;
  GListModel *referees;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->check_lines = g_ptr_array_new_with_free_func (g_free);

  /* A start that runs as it is: the demo's players, a fresh seed. */
  seed = g_strdup_printf ("%u", g_random_int_range (1, 1000000));
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), _("New series"));
  gtk_editable_set_text (GTK_EDITABLE (self->subject_row), "gnugo:1");
  gtk_editable_set_text (GTK_EDITABLE (self->opponents_row), "random");
  gtk_editable_set_text (GTK_EDITABLE (self->seed_row), seed);
  /* The Preferences' defaults; the referee list is the key's choices. */
  gtk_spin_button_set_value (self->jobs_spin, komi_settings_default_jobs ());
  referee = komi_settings_default_referee ();
  referees = adw_combo_row_get_model (self->referee_row);
  for (guint i = 0; i < g_list_model_get_n_items (referees); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (referees, i);

      if (g_strcmp0 (gtk_string_object_get_string (item), referee) == 0)
        adw_combo_row_set_selected (self->referee_row, i);
    }
  on_changed (self);
}
