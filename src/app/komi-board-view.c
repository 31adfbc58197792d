/* komi-board-view.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-board"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "komi-board-view.h"
#include "komi-coords.h"
#include "komi-ui-util.h"

struct _KomiBoardView
{
  GtkWidget        parent_instance;

  KomiBoardScene   scene;
  gboolean         dark;
};

G_DEFINE_FINAL_TYPE (KomiBoardView, komi_board_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SIZE,
  PROP_SHOW_COORDINATES,
  PROP_SHOW_NUMBERS,
  PROP_CURSOR,
  PROP_ORIENTATION,
  PROP_DARK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GtkWidget *
komi_board_view_new (void)
{
  return g_object_new (KOMI_TYPE_BOARD_VIEW, NULL);
}

char *
komi_board_view_describe_point (KomiBoardView *self,
                                KomiPoint      point)
{
  const KomiBoardScene *s = &self->scene;
  char name[KOMI_NAME_LEN + 1];
  GString *text;
  KomiPoint shown = point;

  g_return_val_if_fail (KOMI_IS_BOARD_VIEW (self), NULL);
  g_return_val_if_fail (point >= 0 && (guint) point < s->size * s->size, NULL);

  /* Named as shown; what stands there is read at the real point. */
  text = g_string_new (komi_point_to_name (s->size, shown, name));
  point = komi_board_scene_real_point (s, shown);
  if (s->colors[point] == KOMI_BLACK)
    g_string_append (text, _(", black stone"));
  else if (s->colors[point] == KOMI_WHITE)
    g_string_append (text, _(", white stone"));
  else
    g_string_append (text, _(", empty"));
  if (s->colors[point] != KOMI_EMPTY && s->numbers[point] > 0)
    g_string_append_printf (text, _(", move %u"), s->numbers[point]);
  if (point == s->last_move)
    g_string_append (text, _(", last move"));
  if (point == s->best_move)
    g_string_append (text, _(", the engine’s better move"));
  if (s->show_territory && s->colors[point] != KOMI_EMPTY && s->dead[point])
    g_string_append (text, _(", dead"));
  if (s->show_territory && s->territory[point] == KOMI_BLACK)
    g_string_append (text, _(", black's area"));
  else if (s->show_territory && s->territory[point] == KOMI_WHITE)
    g_string_append (text, _(", white's area"));
  return g_string_free (text, FALSE);
}

/* The label says where the cursor is, so a screen reader follows it. */
static void
update_accessible (KomiBoardView *self)
{
  g_autofree char *label = NULL;
  g_autofree char *point = NULL;

  if (self->scene.cursor >= 0)
    {
      point = komi_board_view_describe_point (self, self->scene.cursor);
      label = g_strdup_printf (_("Board, %u by %u: %s"), self->scene.size, self->scene.size,
                               point);
    }
  else
    label = g_strdup_printf (_("Board, %u by %u"), self->scene.size, self->scene.size);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
}

static void
on_dark_changed (KomiBoardView *self)
{
  gboolean dark = komi_style_is_dark ();

  if (dark == self->dark)
    return;
  self->dark = dark;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

void
komi_board_view_set_position (KomiBoardView *self,
                              guint          size,
                              const guint8  *colors,
                              KomiPoint      last_move)
{
  gboolean size_changed;
  gboolean show_coordinates, show_numbers;
  KomiOrientation orientation;
  KomiPoint cursor;

  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));
  g_return_if_fail (size >= KOMI_MIN_SIZE && size <= KOMI_MAX_SIZE);

  size_changed = size != self->scene.size;
  show_coordinates = self->scene.show_coordinates;
  show_numbers = self->scene.show_numbers;
  orientation = self->scene.orientation;
  cursor = size_changed ? KOMI_NO_POINT : self->scene.cursor;
  komi_board_scene_init (&self->scene, size);
  self->scene.show_coordinates = show_coordinates;
  self->scene.show_numbers = show_numbers;
  self->scene.orientation = orientation;
  self->scene.cursor = cursor;
  if (colors != NULL)
    memcpy (self->scene.colors, colors, size * size);
  if (last_move >= 0 && (guint) last_move < size * size)
    self->scene.last_move = last_move;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  if (size_changed)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIZE]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURSOR]);
    }
}

void
komi_board_view_set_numbers (KomiBoardView *self,
                             const guint   *numbers)
{
  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));

  if (numbers != NULL)
    memcpy (self->scene.numbers, numbers, self->scene.size * self->scene.size * sizeof (guint));
  else
    memset (self->scene.numbers, 0, sizeof self->scene.numbers);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
}

void
komi_board_view_set_marks (KomiBoardView   *self,
                           const KomiPoint *dead,
                           guint            n_dead,
                           const guint8    *territory)
{
  guint n_points;

  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));

  n_points = self->scene.size * self->scene.size;
  memset (self->scene.dead, 0, sizeof self->scene.dead);
  for (guint i = 0; dead != NULL && i < n_dead; i++)
    if (dead[i] >= 0 && (guint) dead[i] < n_points)
      self->scene.dead[dead[i]] = TRUE;
  if (territory != NULL)
    memcpy (self->scene.territory, territory, n_points);
  else
    memset (self->scene.territory, 0, sizeof self->scene.territory);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
}

void
komi_board_view_set_heat (KomiBoardView *self,
                          const double  *values)
{
  guint n_points;

  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));

  n_points = self->scene.size * self->scene.size;
  self->scene.show_heat = values != NULL;
  for (guint i = 0; i < G_N_ELEMENTS (self->scene.heat); i++)
    self->scene.heat[i] = values != NULL && i < n_points ? (float) values[i] : -1.0f;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
komi_board_view_set_best_move (KomiBoardView *self,
                               KomiPoint      point)
{
  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));

  if (point < 0 || (guint) point >= self->scene.size * self->scene.size)
    point = KOMI_NO_POINT;
  if (point == self->scene.best_move)
    return;
  self->scene.best_move = point;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
}

guint
komi_board_view_get_size (KomiBoardView *self)
{
  g_return_val_if_fail (KOMI_IS_BOARD_VIEW (self), 0);
  return self->scene.size;
}

gboolean
komi_board_view_get_show_coordinates (KomiBoardView *self)
{
  g_return_val_if_fail (KOMI_IS_BOARD_VIEW (self), FALSE);
  return self->scene.show_coordinates;
}

void
komi_board_view_set_show_coordinates (KomiBoardView *self,
                                      gboolean       show)
{
  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));

  show = !!show;
  if (show == self->scene.show_coordinates)
    return;
  self->scene.show_coordinates = show;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_COORDINATES]);
}

gboolean
komi_board_view_get_show_numbers (KomiBoardView *self)
{
  g_return_val_if_fail (KOMI_IS_BOARD_VIEW (self), FALSE);
  return self->scene.show_numbers;
}

void
komi_board_view_set_show_numbers (KomiBoardView *self,
                                  gboolean       show)
{
  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));

  show = !!show;
  if (show == self->scene.show_numbers)
    return;
  self->scene.show_numbers = show;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_NUMBERS]);
}

KomiOrientation
komi_board_view_get_orientation (KomiBoardView *self)
{
  g_return_val_if_fail (KOMI_IS_BOARD_VIEW (self), KOMI_ORIENTATION_IDENTITY);
  return self->scene.orientation;
}

void
komi_board_view_set_orientation (KomiBoardView   *self,
                                 KomiOrientation  orientation)
{
  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));
  g_return_if_fail (orientation < KOMI_N_ORIENTATIONS);

  if (orientation == self->scene.orientation)
    return;
  self->scene.orientation = orientation;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIENTATION]);
}

KomiPoint
komi_board_view_get_cursor (KomiBoardView *self)
{
  g_return_val_if_fail (KOMI_IS_BOARD_VIEW (self), KOMI_NO_POINT);
  return self->scene.cursor;
}

void
komi_board_view_set_cursor (KomiBoardView *self,
                            KomiPoint      point)
{
  g_return_if_fail (KOMI_IS_BOARD_VIEW (self));

  if (point < 0 || (guint) point >= self->scene.size * self->scene.size)
    point = KOMI_NO_POINT;
  if (point == self->scene.cursor)
    return;
  self->scene.cursor = point;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURSOR]);
}

const KomiBoardScene *
komi_board_view_get_scene (KomiBoardView *self)
{
  g_return_val_if_fail (KOMI_IS_BOARD_VIEW (self), NULL);
  return &self->scene;
}

gboolean
komi_board_view_get_dark (KomiBoardView *self)
{
  g_return_val_if_fail (KOMI_IS_BOARD_VIEW (self), FALSE);
  return self->dark;
}

/* Arrow keys move the cursor one point, stopping at the edges. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                KomiBoardView         *self)
{
  guint size = self->scene.size;
  int x, y;

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0)
    return FALSE;
  if (self->scene.cursor < 0)
    {
      if (keyval != GDK_KEY_Left && keyval != GDK_KEY_Right
          && keyval != GDK_KEY_Up && keyval != GDK_KEY_Down)
        return FALSE;
      /* The first arrow puts the cursor on the last move, or the centre. */
      komi_board_view_set_cursor (self, self->scene.last_move >= 0
                                        ? komi_orientation_apply (self->scene.orientation, size,
                                                                  self->scene.last_move)
                                        : komi_point_from_xy (size, size / 2, size / 2));
      return TRUE;
    }
  x = (int) komi_point_x (size, self->scene.cursor);
  y = (int) komi_point_y (size, self->scene.cursor);
  switch (keyval)
    {
    case GDK_KEY_Left:  x--; break;
    case GDK_KEY_Right: x++; break;
    case GDK_KEY_Up:    y--; break;
    case GDK_KEY_Down:  y++; break;
    default:
      return FALSE;
    }
  x = CLAMP (x, 0, (int) size - 1);
  y = CLAMP (y, 0, (int) size - 1);
  komi_board_view_set_cursor (self, komi_point_from_xy (size, (guint) x, (guint) y));
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            KomiBoardView   *self)
{
  KomiPoint point = komi_board_scene_hit (&self->scene,
                                          gtk_widget_get_width (GTK_WIDGET (self)),
                                          gtk_widget_get_height (GTK_WIDGET (self)), x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (point != KOMI_NO_POINT)
    komi_board_view_set_cursor (self, point);
}

static gboolean
on_query_tooltip (KomiBoardView *self,
                  int            x,
                  int            y,
                  gboolean       keyboard,
                  GtkTooltip    *tooltip)
{
  g_autofree char *text = NULL;
  KomiPoint point = keyboard ? self->scene.cursor
                             : komi_board_scene_hit (&self->scene,
                                                     gtk_widget_get_width (GTK_WIDGET (self)),
                                                     gtk_widget_get_height (GTK_WIDGET (self)),
                                                     x, y);

  if (point < 0)
    return FALSE;
  text = komi_board_view_describe_point (self, point);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
komi_board_view_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  KomiBoardView *self = KOMI_BOARD_VIEW (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width < 1 || height < 1)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  komi_board_scene_paint (&self->scene, cr, width, height, self->dark);
  cairo_destroy (cr);
}

static void
komi_board_view_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  /* Square: at least 8 px a line, naturally 32. */
  KomiBoardView *self = KOMI_BOARD_VIEW (widget);

  *minimum = (int) (self->scene.size + 2) * 8;
  *natural = MAX (*minimum, for_size > 0 ? for_size : (int) (self->scene.size + 2) * 32);
}

/* The cursor shows once the keyboard (or a click) puts it on a point, and
 * goes when the board loses the focus. */
static void
komi_board_view_focus_changed (KomiBoardView *self)
{
  if (!gtk_widget_has_focus (GTK_WIDGET (self)))
    komi_board_view_set_cursor (self, KOMI_NO_POINT);
}

static void
komi_board_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KomiBoardView *self = KOMI_BOARD_VIEW (object);

  switch (prop_id)
    {
    case PROP_SIZE: g_value_set_uint (value, self->scene.size); break;
    case PROP_SHOW_COORDINATES: g_value_set_boolean (value, self->scene.show_coordinates); break;
    case PROP_SHOW_NUMBERS: g_value_set_boolean (value, self->scene.show_numbers); break;
    case PROP_CURSOR: g_value_set_int (value, self->scene.cursor); break;
    case PROP_ORIENTATION: g_value_set_uint (value, self->scene.orientation); break;
    case PROP_DARK: g_value_set_boolean (value, self->dark); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_board_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  KomiBoardView *self = KOMI_BOARD_VIEW (object);

  switch (prop_id)
    {
    case PROP_SHOW_COORDINATES:
      komi_board_view_set_show_coordinates (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_NUMBERS:
      komi_board_view_set_show_numbers (self, g_value_get_boolean (value));
      break;
    case PROP_CURSOR:
      komi_board_view_set_cursor (self, g_value_get_int (value));
      break;
    case PROP_ORIENTATION:
      komi_board_view_set_orientation (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
komi_board_view_class_init (KomiBoardViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->get_property = komi_board_view_get_property;
  object_class->set_property = komi_board_view_set_property;
  widget_class->snapshot = komi_board_view_snapshot;
  widget_class->measure = komi_board_view_measure;

  properties[PROP_SIZE] =
    g_param_spec_uint ("size", NULL, NULL, KOMI_MIN_SIZE, KOMI_MAX_SIZE, 9, ro);
  properties[PROP_SHOW_COORDINATES] =
    g_param_spec_boolean ("show-coordinates", NULL, NULL, TRUE, rw);
  properties[PROP_SHOW_NUMBERS] =
    g_param_spec_boolean ("show-numbers", NULL, NULL, FALSE, rw);
  properties[PROP_CURSOR] =
    g_param_spec_int ("cursor", NULL, NULL, KOMI_NO_POINT, KOMI_MAX_POINTS - 1, KOMI_NO_POINT,
                      rw);
  properties[PROP_ORIENTATION] =
    g_param_spec_uint ("orientation", NULL, NULL, 0, KOMI_N_ORIENTATIONS - 1, 0, rw);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "komiboard");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
komi_board_view_init (KomiBoardView *self)
{
  GtkEventController *key = gtk_event_controller_key_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  komi_board_scene_init (&self->scene, 9);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect (self, "notify::has-focus", G_CALLBACK (komi_board_view_focus_changed), NULL);

  self->dark = komi_style_is_dark ();
  komi_style_watch_dark (GTK_WIDGET (self), G_CALLBACK (on_dark_changed));
  update_accessible (self);
}
