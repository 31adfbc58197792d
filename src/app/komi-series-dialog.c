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
#include "komi-series.h"
#include "komi-series-dialog-private.h"
#include "komi-series-estimate.h"
#include "komi-series-form.h"
#include "komi-settings.h"
#include "komi-ui-util.h"


G_DEFINE_FINAL_TYPE (KomiSeriesDialog, komi_series_dialog, ADW_TYPE_WINDOW)

const char *
_komi_series_dialog_text_of (AdwEntryRow *row)
{
  return gtk_editable_get_text (GTK_EDITABLE (row));
}

/* The ladder frozen beside the dialog's library, read when rating is
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
  if (self->library == NULL)
    {
      self->ladder_error = g_strdup (_("No library to rate in."));
      return;
    }
  path = komi_library_get_path (self->library);
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
  g_auto(GStrv) opponents = g_strsplit (_komi_series_dialog_text_of (self->opponents_row), ",", -1);
  g_autofree char *name = g_strstrip (g_strdup (_komi_series_dialog_text_of (self->name_row)));
  g_autofree char *subject = g_strstrip (g_strdup (_komi_series_dialog_text_of (self->subject_row)));
  g_autofree char *seed = g_strstrip (g_strdup (_komi_series_dialog_text_of (self->seed_row)));
  g_autofree char *budget = g_strstrip (g_strdup (_komi_series_dialog_text_of (self->budget_row)));
  guint64 pairs = 0, jobs = 0;
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
    {
      json_builder_begin_array (b);
      json_builder_end_array (b);
    }
  else if (komi_series_form_parse_uint (_komi_series_dialog_text_of (self->pairs_row), 1, G_MAXINT, &pairs))
    json_builder_add_int_value (b, (gint64) pairs);
  else
    json_builder_add_string_value (b, _komi_series_dialog_text_of (self->pairs_row));
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
  if (komi_series_form_parse_uint (_komi_series_dialog_text_of (self->jobs_row), 1, G_MAXINT, &jobs))
    json_builder_add_int_value (b, (gint64) jobs);
  else
    json_builder_add_string_value (b, _komi_series_dialog_text_of (self->jobs_row));
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


/* Each field judged alone, its error under it once the user has changed
 * it (or pressed Run); returns the first field in error, or -1, and sets
 * @n_problems to how many fields are in error, shown or not yet. */
static int
check_fields (KomiSeriesDialog *self, gboolean rating, guint *n_problems)
{
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions engines = { 0 };
  /* Until the keyring answers, a model's key may still be found there. */
  const char *key_error = self->keys != NULL ? _("Looking up the model’s key in the keyring…")
                                             : self->keys_error;
  int first = -1;

  *n_problems = 0;
  /* Read each time: the Opponent dialog may have saved KataGo's files. */
  komi_settings_engine_options (&engines, strs);
  for (int i = 0; i < KOMI_SERIES_N_FIELDS; i++)
    {
      gboolean hidden = rating && (i == KOMI_SERIES_FIELD_OPPONENTS
                                   || i == KOMI_SERIES_FIELD_PAIRS);
      g_autofree char *problem = hidden ? NULL
        : komi_series_form_check (i, _komi_series_dialog_text_of (ADW_ENTRY_ROW (self->field_rows[i])), &engines,
                                  key_error);
      if (problem != NULL && first < 0)
        first = i;
      *n_problems += problem != NULL;
      komi_form_show_error (self->field_rows[i], self->error_rows[i], problem,
                            self->touched[i] || self->tried);
    }
  return first;
}

void
_komi_series_dialog_changed (KomiSeriesDialog *self, GtkWidget *source)
{
  gboolean rating = gtk_switch_get_active (self->rate_switch);
  g_autofree char *definition = (load_ladder (self, rating), build_definition (self));
  g_autoptr(KomiSeries) series = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *estimate = NULL;
  KomiSeriesEstimate figures;
  g_autoptr(GPtrArray) strs = g_ptr_array_new_with_free_func (g_free);
  KomiPlayerOptions engines = { 0 };
  int first;
  guint n_problems;

  for (int i = 0; i < KOMI_SERIES_N_FIELDS; i++)
    if (source != NULL && source == self->field_rows[i])
      self->touched[i] = TRUE;
  _komi_series_dialog_look_up_keys (self, definition);
  gtk_widget_set_visible (GTK_WIDGET (self->opponents_row), !rating);
  gtk_widget_set_visible (GTK_WIDGET (self->pairs_row), !rating);
  gtk_widget_remove_css_class (GTK_WIDGET (self->referee_row), "error");
  g_clear_pointer (&self->definition, g_free);
  g_clear_pointer (&self->series, komi_series_free);
  /* Tests of players the fields no longer name are dropped. */
  g_cancellable_cancel (self->checks);
  g_ptr_array_set_size (self->check_lines, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->check_label), FALSE);
  first = check_fields (self, rating, &n_problems);
  gtk_label_set_text (self->error_label, "");
  gtk_label_set_text (self->summary_label, "");
  gtk_label_set_text (self->estimate_label, "");

  if (rating && self->ladder == NULL)
    gtk_label_set_text (self->error_label, self->ladder_error);
  else if (first >= 0)
    {
      guint shown = 0;
      g_autofree char *text = NULL;

      /* Said under each field; here, how many are left to change: every
       * field in error counts, the ones not said yet too (a field the
       * user has not typed in says nothing until Run). */
      for (int i = 0; i < KOMI_SERIES_N_FIELDS; i++)
        shown += gtk_widget_get_visible (self->error_rows[i]);
      if (shown == 0)
        text = g_strdup (_("Some fields need a change before the series can run: press Run "
                           "to see which."));
      else if (shown < n_problems)
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u field needs a change: press Run to see which.",
                                             "%u fields need a change: press Run to see which.",
                                             n_problems), n_problems);
      else
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u field needs a change, as said under it.",
                                             "%u fields need a change, as said under each.",
                                             n_problems), n_problems);
      gtk_label_set_text (self->error_label, text);
    }
  else
    {
      komi_settings_engine_options (&engines, strs);
      series = komi_series_new_from_json_with_engines (definition, -1, &engines, &error);
      if (series == NULL)
        {
          /* Nothing a field check saw: the parser's words, at its row. */
          GtkWidget *bad = row_for_error (self, error);

          if (bad != NULL)
            gtk_widget_add_css_class (bad, "error");
          gtk_label_set_text (self->error_label, error->message);
        }
      else
        {
          summary = komi_series_form_describe (series);
          gtk_label_set_text (self->summary_label, summary);
          /* Reads each model's profile (small local files) once per change. */
          if (rating)
            estimate = g_strdup (_("Games and cost are decided pair by pair; the budget stops "
                                   "the rating before a pair could overspend it."));
          else if (komi_series_estimate (&figures, series, &error))
            estimate = komi_series_form_describe_estimate (&figures);
          else
            estimate = g_strdup (error->message);
          gtk_label_set_text (self->estimate_label, estimate);
          self->definition = g_steal_pointer (&definition);
          self->series = g_steal_pointer (&series);
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->error_label),
                          *gtk_label_get_text (self->error_label) != '\0');
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), self->series != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->estimate_label), self->series != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "series.test", self->series != NULL);
}

static void
choose_subject_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  KomiSeriesDialog *self = KOMI_SERIES_DIALOG (widget);

  gtk_editable_set_text (GTK_EDITABLE (self->subject_row), g_variant_get_string (parameter, NULL));
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
  g_autoptr(GSettings) settings = NULL;

  if (self->definition == NULL)
    {
      /* Every error at once, and the first field in error in sight. */
      self->tried = TRUE;
      _komi_series_dialog_changed (self, NULL);
      komi_form_focus_first_error (self->field_rows, self->error_rows, KOMI_SERIES_N_FIELDS);
      return;
    }
  if (self->runner == NULL)
    return;
  /* The next New Series starts from this one (a fresh seed aside). */
  if ((settings = komi_settings_new ()) != NULL)
    {
      g_settings_set_string (settings, "series-subject", _komi_series_dialog_text_of (self->subject_row));
      g_settings_set_string (settings, "series-opponents", _komi_series_dialog_text_of (self->opponents_row));
      g_settings_set_string (settings, "series-pairs", _komi_series_dialog_text_of (self->pairs_row));
      g_settings_set_string (settings, "series-budget", _komi_series_dialog_text_of (self->budget_row));
      g_settings_set_boolean (settings, "series-rate", gtk_switch_get_active (self->rate_switch));
    }
  gtk_widget_activate_action (GTK_WIDGET (self->runner), "win.run-definition", "s",
                              self->definition);
  gtk_window_close (GTK_WINDOW (self));
}

KomiSeriesDialog *
komi_series_dialog_new (GtkWindow   *runner,
                        KomiLibrary *library)
{
  KomiSeriesDialog *self;

  g_return_val_if_fail (library == NULL || KOMI_IS_LIBRARY (library), NULL);
  self = g_object_new (KOMI_TYPE_SERIES_DIALOG, "transient-for", runner, NULL);
  self->runner = runner;
  self->library = library != NULL ? g_object_ref (library) : NULL;
  g_object_add_weak_pointer (G_OBJECT (runner), (gpointer *) &self->runner);
  return self;
}

void
komi_series_dialog_set_profiles_folder (KomiSeriesDialog *self,
                                        const char       *folder)
{
  g_return_if_fail (KOMI_IS_SERIES_DIALOG (self));
  g_return_if_fail (folder != NULL);
  g_free (self->profiles_folder);
  self->profiles_folder = g_strdup (folder);
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
  g_clear_object (&self->library);
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
  g_free (self->profiles_folder);
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
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, seed_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, referee_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, jobs_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, page);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, profiles_button);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, budget_row);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, estimate_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, KomiSeriesDialog, check_label);
  gtk_widget_class_bind_template_callback_full (widget_class, "on_changed",
                                                G_CALLBACK (_komi_series_dialog_changed));

  gtk_widget_class_install_action (widget_class, "series.run", NULL, run_activated);
  gtk_widget_class_install_action (widget_class, "series.test", NULL,
                                   _komi_series_dialog_test_activated);
  gtk_widget_class_install_action (widget_class, "series.choose-subject", "s",
                                   choose_subject_activated);
  gtk_widget_class_install_action (widget_class, "series.add-opponent", NULL,
                                   add_opponent_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
komi_series_dialog_init (KomiSeriesDialog *self)
{
  g_autoptr(GSettings) settings = komi_settings_new ();
  g_autofree char *seed = NULL;
  g_autofree char *referee = NULL;
  g_autofree char *jobs = NULL;
  GListModel *referees;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->check_lines = g_ptr_array_new_with_free_func (g_free);
  self->profiles_folder = g_build_filename (g_get_user_config_dir (), "komi", "providers", NULL);
  gtk_menu_button_set_create_popup_func (self->profiles_button,
                                         _komi_series_dialog_fill_profiles, self, NULL);
  self->field_rows[KOMI_SERIES_FIELD_NAME] = GTK_WIDGET (self->name_row);
  self->field_rows[KOMI_SERIES_FIELD_SUBJECT] = GTK_WIDGET (self->subject_row);
  self->field_rows[KOMI_SERIES_FIELD_OPPONENTS] = GTK_WIDGET (self->opponents_row);
  self->field_rows[KOMI_SERIES_FIELD_PAIRS] = GTK_WIDGET (self->pairs_row);
  self->field_rows[KOMI_SERIES_FIELD_SEED] = GTK_WIDGET (self->seed_row);
  self->field_rows[KOMI_SERIES_FIELD_JOBS] = GTK_WIDGET (self->jobs_row);
  self->field_rows[KOMI_SERIES_FIELD_BUDGET] = GTK_WIDGET (self->budget_row);
  for (int i = 0; i < KOMI_SERIES_N_FIELDS; i++)
    self->error_rows[i] = komi_form_add_error_row (self->field_rows[i]);

  /* A start that runs as it is: the last series' players and settings,
   * else the demo's; a fresh seed. */
  seed = g_strdup_printf ("%u", g_random_int_range (1, 1000000));
  jobs = g_strdup_printf ("%d", komi_settings_default_jobs ());
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), _("New series"));
  gtk_editable_set_text (GTK_EDITABLE (self->subject_row), "gnugo:1");
  gtk_editable_set_text (GTK_EDITABLE (self->opponents_row), "random");
  gtk_editable_set_text (GTK_EDITABLE (self->pairs_row), "8");
  if (settings != NULL)
    {
      static const struct { const char *key; gsize offset; } remembered[] = {
        { "series-subject", G_STRUCT_OFFSET (KomiSeriesDialog, subject_row) },
        { "series-opponents", G_STRUCT_OFFSET (KomiSeriesDialog, opponents_row) },
        { "series-pairs", G_STRUCT_OFFSET (KomiSeriesDialog, pairs_row) },
        { "series-budget", G_STRUCT_OFFSET (KomiSeriesDialog, budget_row) },
      };

      for (guint i = 0; i < G_N_ELEMENTS (remembered); i++)
        {
          g_autofree char *text = g_settings_get_string (settings, remembered[i].key);

          if (*text != '\0')
            gtk_editable_set_text (G_STRUCT_MEMBER (GtkEditable *, self, remembered[i].offset),
                                   text);
        }
      gtk_switch_set_active (self->rate_switch, g_settings_get_boolean (settings, "series-rate"));
    }
  gtk_editable_set_text (GTK_EDITABLE (self->seed_row), seed);
  /* The Preferences' defaults; the referee list is the key's choices. */
  gtk_editable_set_text (GTK_EDITABLE (self->jobs_row), jobs);
  referee = komi_settings_default_referee ();
  referees = adw_combo_row_get_model (self->referee_row);
  for (guint i = 0; i < g_list_model_get_n_items (referees); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (referees, i);

      if (g_strcmp0 (gtk_string_object_get_string (item), referee) == 0)
        adw_combo_row_set_selected (self->referee_row, i);
    }
  /* Set by the dialog, not typed: no error shows until the user changes
   * a field or presses Run. */
  memset (self->touched, 0, sizeof self->touched);
  _komi_series_dialog_changed (self, NULL);
}
