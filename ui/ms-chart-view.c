/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-view.c: the base of the drawing widgets (ms-chart-view.h). */
#include "ms-chart-view.h"
#include "ms-props.h"
#include "ms-view-cache.h"

typedef struct {
  MsViewScale scale;
  MsViewCache picture;
} MsChartViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (MsChartView, ms_chart_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SCALE_FIRST };

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
    MS_CHART_VIEW_GET_CLASS (self)->draw (self, cr, style, w, h);
    ms_view_cache_end (&priv->picture, cr);
  }
  ms_view_cache_append (&priv->picture, snapshot);
}

static void
ms_chart_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsChartView *self = MS_CHART_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  MsChartStyle style;
  ms_chart_view_get_style (self, &style);
  if (MS_CHART_VIEW_GET_CLASS (self)->keeps_picture) {
    append_kept_picture (self, snapshot, &style, w, h);
    return;
  }
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  MS_CHART_VIEW_GET_CLASS (self)->draw (self, cr, &style, w, h);
  cairo_destroy (cr);
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

static void
ms_chart_view_set_property (GObject *object, guint prop_id, const GValue *value,
                            GParamSpec *pspec)
{
  MsChartView *self = MS_CHART_VIEW (object);
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  if (!ms_view_scale_set (object, &priv->scale, prop_id - PROP_SCALE_FIRST, value)) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  if (MS_CHART_VIEW_GET_CLASS (self)->scale_set)
    MS_CHART_VIEW_GET_CLASS (self)->scale_set (self, pspec);
}

static void
ms_chart_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MsChartView *self = MS_CHART_VIEW (object);
  if (!ms_view_scale_get (ms_chart_view_get_scale (self), prop_id - PROP_SCALE_FIRST, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ms_chart_view_class_init (MsChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_chart_view_dispose;
  object_class->set_property = ms_chart_view_set_property;
  object_class->get_property = ms_chart_view_get_property;
  widget_class->snapshot = ms_chart_view_snapshot;
  klass->draw = ms_chart_view_real_draw;
  klass->style_changed = ms_chart_view_redraw;

  ms_view_scale_install (object_class, PROP_SCALE_FIRST);
  /* Every chart is a picture to assistive technologies; subclasses inherit
   * the role. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ms_chart_view_init (MsChartView *self)
{
  MsChartViewPrivate *priv = ms_chart_view_get_instance_private (self);
  priv->scale = (MsViewScale){ 1, 1 };
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  ms_view_follow_style (GTK_WIDGET (self), G_CALLBACK (on_system_style));
}
