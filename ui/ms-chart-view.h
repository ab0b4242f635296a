/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-view.h: the base of the drawing widgets (ms-chart-view.c): the
 * text and line scale, presentation mode and a fade as properties, the style they
 * paint with, following the system's dark and high-contrast styles, and a
 * snapshot that hands a subclass a Cairo context to draw on. */
#pragma once

#include <gtk/gtk.h>

#include "ms-drawing.h"

G_BEGIN_DECLS

#define MS_TYPE_CHART_VIEW (ms_chart_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (MsChartView, ms_chart_view, MS, CHART_VIEW, GtkWidget)

struct _MsChartViewClass {
  GtkWidgetClass parent_class;

  /* What the default snapshot calls: the picture on cr, width x height
   * user units, in style. A view that keeps its picture overrides the
   * snapshot instead. */
  void (*draw) (MsChartView *self, cairo_t *cr, const MsChartStyle *style, int width, int height);
  /* The system turned dark or high contrast; the default is
   * ms_chart_view_redraw. */
  void (*style_changed) (MsChartView *self);
  /* "high-contrast" was set (changed or not, as a binding sets it); may
   * be NULL. */
  void (*contrast_set) (MsChartView *self);
  /* TRUE: the default snapshot keeps what draw drew as a texture
   * (ms-view-cache.h) until the size, the style or the subclass's data
   * changes (ms_chart_view_redraw), so that frames that change nothing of
   * the picture (hover, focus, a tooltip) do not draw it again. */
  gboolean keeps_picture;

  gpointer padding[4];
};

G_END_DECLS

/* After the type: ms-views.h includes the views, which derive from it. */
#include "ms-views.h"

G_BEGIN_DECLS

const MsViewScale *ms_chart_view_get_scale (MsChartView *self);
/* The style the view paints with now. */
void ms_chart_view_get_style (MsChartView *self, MsChartStyle *style);
/* Forgets the kept picture (keeps_picture): what it shows changed. */
void ms_chart_view_drop_picture (MsChartView *self);
/* Forgets the kept picture and queues a draw: the default style_changed. */
void ms_chart_view_redraw (MsChartView *self);
/* ms_chart_view_redraw as the change hook of a subclass's property
 * (MsProp.changed, ms-props.h) that the picture shows as it is. */
void ms_chart_view_property_changed (gpointer view);

/* Whether every view draws a translucent ring around the pointer (for a
 * projector); a view shows the change at the pointer's next move. */
gboolean ms_chart_view_get_highlight_pointer (void);
void ms_chart_view_set_highlight_pointer (gboolean highlight);

G_END_DECLS
