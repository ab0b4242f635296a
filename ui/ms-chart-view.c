/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-view.c: the base of the drawing widgets (ms-chart-view.h). */
#include "ms-chart-view.h"
#include "ms-props.h"
#include "ms-view-cache.h"

typedef struct {
  MsViewScale scale;
  double fade; /* the marks' strength, the words at full strength */
  MsViewCache picture;
  double pointer_x, pointer_y; /* where the pointer is over the view; x < 0: not over it */
} MsChartViewPrivate;

/* One switch for every view: the pointer highlighted for a projector. */
static gboolean highlight_pointer;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (MsChartView, ms_chart_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_FADE, PROP_TEXT_SCALE, PROP_LINE_SCALE, PROP_HIGH_CONTRAST, N_PROPS };
static GParamSpec *props[N_PROPS];

const MsViewScale *
ms_chart_view_get_scale (MsChartView *self)
{
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  return &priv->scale;
}

void
ms_chart_view_get_style (MsChartView *self, MsChartStyle *style)
{
  ms_view_style_from_widget (GTK_WIDGET (self), ms_chart_view_get_scale (self), style);
}

void
ms_chart_view_drop_picture (MsChartView *self)
{
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  ms_view_cache_clear (&priv->picture);
}

void
ms_chart_view_redraw (MsChartView *self)
{
  ms_chart_view_drop_picture (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ms_chart_view_property_changed (gpointer view)
{
  ms_chart_view_redraw (MS_CHART_VIEW (view));
}

typedef struct {
  MsChartView *self;
  const MsChartStyle *style;
  int w, h;
} FadedDraw;

static gboolean
draw_subclass (cairo_t *cr, gpointer data)
{
  FadedDraw *f = data;
  MS_CHART_VIEW_GET_CLASS (f->self)->draw (f->self, cr, f->style, f->w, f->h);
  return TRUE;
}

/* The subclass's picture, its marks at the view's fade (the words again
 * at full strength: ms_draw_faded), as a lesson's own picture fades. */
static void
draw_faded (MsChartView *self, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  FadedDraw f = { self, style, w, h };
  ms_draw_faded (cr, ms_draw_fade_alpha (style, priv->fade), draw_subclass, &f);
}

static void
append_kept_picture (MsChartView *self, GtkSnapshot *snapshot, const MsChartStyle *style, int w,
                     int h)
{
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  if (w <= 0 || h <= 0)
    return;
  if (!ms_view_cache_holds (&priv->picture, w, h, scale, style)) {
    cairo_t *cr = ms_view_cache_begin (&priv->picture, w, h, scale, style);
    draw_faded (self, cr, style, w, h);
    ms_view_cache_end (&priv->picture, cr);
  }
  ms_view_cache_append (&priv->picture, snapshot);
}

/* The accent colour (libadwaita's, following light, dark and high
 * contrast): 3:1 from the view's background, as WCAG asks of a focus
 * indicator. */
static GdkRGBA
accent_color (GtkWidget *widget)
{
  GdkRGBA accent = { 0.21, 0.52, 0.89, 1 };
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "accent_color", &accent);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return accent;
}

/* A ring inside the edge while the canvas has the keyboard focus: the
 * keys of a view (the timeline's arrows, zoom) go to it then. Drawn over
 * the picture, never into the kept one. */
static void
append_focus_ring (GtkWidget *widget, GtkSnapshot *snapshot, int w, int h)
{
  const float width = 3;
  GdkRGBA accent = accent_color (widget);
  GskRoundedRect ring;
  gsk_rounded_rect_init_from_rect (&ring, &GRAPHENE_RECT_INIT (0, 0, w, h), 6);
  gtk_snapshot_append_border (snapshot, &ring, (float[4]){ width, width, width, width },
                              (GdkRGBA[4]){ accent, accent, accent, accent });
}

/* A translucent disc with a ring around the pointer, for a class watching
 * a projector: the cursor alone is too small to follow. */
static void
append_pointer_highlight (GtkWidget *widget, GtkSnapshot *snapshot, double x, double y)
{
  const float r = 28;
  GdkRGBA fill = { 1.0, 0.85, 0.0, 0.30 }, edge = { 0.9, 0.55, 0.0, 0.85 };
  GskRoundedRect disc;
  gsk_rounded_rect_init_from_rect (&disc, &GRAPHENE_RECT_INIT (x - r, y - r, 2 * r, 2 * r), r);
  gtk_snapshot_push_rounded_clip (snapshot, &disc);
  gtk_snapshot_append_color (snapshot, &fill, &disc.bounds);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_append_border (snapshot, &disc, (float[4]){ 3, 3, 3, 3 },
                              (GdkRGBA[4]){ edge, edge, edge, edge });
}

static void
draw_picture (MsChartView *self, GtkSnapshot *snapshot, int w, int h)
{
  MsChartStyle style;
  ms_chart_view_get_style (self, &style);
  if (MS_CHART_VIEW_GET_CLASS (self)->keeps_picture) {
    append_kept_picture (self, snapshot, &style, w, h);
    return;
  }
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  draw_faded (self, cr, &style, w, h);
  cairo_destroy (cr);
}

static void
ms_chart_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsChartView *self = MS_CHART_VIEW (widget);
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  if (w <= 0 || h <= 0)
    return;
  draw_picture (self, snapshot, w, h);
  /* In front of a class no ring frames the picture (presentation mode:
   * the window's "presentation" style class); the keys work the same. */
  GtkRoot *root = gtk_widget_get_root (widget);
  gboolean projected = root && gtk_widget_has_css_class (GTK_WIDGET (root), "presentation");
  if (gtk_widget_has_focus (widget) && !projected)
    append_focus_ring (widget, snapshot, w, h);
  if (highlight_pointer && priv->pointer_x >= 0)
    append_pointer_highlight (widget, snapshot, priv->pointer_x, priv->pointer_y);
}

gboolean
ms_chart_view_get_highlight_pointer (void)
{
  return highlight_pointer;
}

void
ms_chart_view_set_highlight_pointer (gboolean highlight)
{
  highlight_pointer = highlight;
}

static void
on_pointer_motion (GtkEventControllerMotion *motion, double x, double y, MsChartView *self)
{
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  priv->pointer_x = x;
  priv->pointer_y = y;
  if (highlight_pointer)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_pointer_leave (GtkEventControllerMotion *motion, MsChartView *self)
{
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  priv->pointer_x = -1;
  if (highlight_pointer)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A click gives the canvas the keyboard focus (its keys work from then
 * on), without taking the click from the view's own gestures. */
static void
on_pressed (GtkGestureClick *click, int n_press, double x, double y, MsChartView *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
add_controllers (MsChartView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "enter", G_CALLBACK (on_pointer_motion), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_pointer_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_pointer_leave), self);
  gtk_widget_add_controller (widget, motion);
  GtkEventController *focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_widget_add_controller (widget, focus);
  GtkGesture *click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));
}

static void
ms_chart_view_real_draw (MsChartView *self, cairo_t *cr, const MsChartStyle *style, int width,
                         int height)
{
}

static void
ms_chart_view_dispose (GObject *object)
{
  ms_chart_view_drop_picture (MS_CHART_VIEW (object));
  /* What the subclass's properties hold (ms-props.h). */
  ms_props_clear (object);
  G_OBJECT_CLASS (ms_chart_view_parent_class)->dispose (object);
}

/* Through the class, so that a subclass's override is called. */
static void
on_system_style (MsChartView *self)
{
  MS_CHART_VIEW_GET_CLASS (self)->style_changed (self);
}

/* Every set of a scale property, changed or not (as a binding sets it).
 * Larger text may want more room (the health strip, the timeline stack
 * measure their text): the view is measured again. A kept picture goes by
 * itself: it was drawn in another style. */
static void
scale_set (gpointer self)
{
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
contrast_set (gpointer self)
{
  scale_set (self);
  if (MS_CHART_VIEW_GET_CLASS (self)->contrast_set)
    MS_CHART_VIEW_GET_CLASS (self)->contrast_set (self);
}

/* The fields are the private part's, whose offset is known from
 * class_init on. */
#define PRIVATE_FIELD(field) ((gssize) G_PRIVATE_OFFSET (MsChartView, field))
static MsProp prop_table[N_PROPS];

static void
ms_chart_view_class_init (MsChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_chart_view_dispose;
  widget_class->snapshot = ms_chart_view_snapshot;
  klass->draw = ms_chart_view_real_draw;
  klass->style_changed = ms_chart_view_redraw;

  /* Under a lesson's takeaway that decides nothing its answer steps back:
   * the marks at this strength, the words still at full strength. */
  prop_table[PROP_FADE] = (MsProp){ "fade", G_TYPE_DOUBLE, PRIVATE_FIELD (fade), 0.0, 1.0, 1.0,
                                    .changed = ms_chart_view_property_changed };
  prop_table[PROP_TEXT_SCALE] = (MsProp){ "text-scale", G_TYPE_DOUBLE,
                                          PRIVATE_FIELD (scale.text_scale), 0.1, 10.0, 1.0,
                                          .changed = scale_set, .always_changed = TRUE };
  prop_table[PROP_LINE_SCALE] = (MsProp){ "line-scale", G_TYPE_DOUBLE,
                                          PRIVATE_FIELD (scale.line_scale), 0.1, 10.0, 1.0,
                                          .changed = scale_set, .always_changed = TRUE };
  prop_table[PROP_HIGH_CONTRAST] = (MsProp){ "high-contrast", G_TYPE_BOOLEAN,
                                             PRIVATE_FIELD (scale.high_contrast),
                                             .changed = contrast_set, .always_changed = TRUE };
  ms_props_install (object_class, prop_table, props, N_PROPS);
  /* Every chart is a picture to assistive technologies; subclasses inherit
   * the role. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ms_chart_view_init (MsChartView *self)
{
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  priv->scale = (MsViewScale){ 1, 1 };
  priv->fade = 1;
  priv->pointer_x = -1;
  /* A canvas takes the keyboard focus (Tab, a click, the focus key of the
   * window) and shows it with a ring. */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  add_controllers (self);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  ms_view_follow_style (GTK_WIDGET (self), G_CALLBACK (on_system_style));
}
