/* ms-views.h: the drawing widgets: a line chart (bandwidth, time), a
 * timeline of one repetition, and the phase breakdown. Each draws with the
 * same Cairo routines as the exports. */
#pragma once

#include <gtk/gtk.h>

#include "memsweep.h"
#include "ms-chart.h"
#include "ms-plots.h"
#include "ms-timeline.h"

G_BEGIN_DECLS

/* Text and line scale shared by every view (presentation mode, Ctrl+±). */
typedef struct {
  double text_scale;
  double line_scale;
  gboolean high_contrast; /* presentation mode */
} MsViewScale;

/* The style a view paints with: libadwaita's named colours, so that dark
 * mode and high contrast follow the system. */
void ms_view_style_from_widget (GtkWidget *widget, const MsViewScale *scale, MsChartStyle *style);

#define MS_TYPE_PLOT_VIEW (ms_plot_view_get_type ())
G_DECLARE_FINAL_TYPE (MsPlotView, ms_plot_view, MS, PLOT_VIEW, GtkWidget)

GtkWidget *ms_plot_view_new (MsMetric metric);
/* runs: MsResults*, owned by the caller, alive until the next call. */
void ms_plot_view_set_runs (MsPlotView *self, GPtrArray *runs);
void ms_plot_view_set_metric (MsPlotView *self, MsMetric metric);
void ms_plot_view_set_log_y (MsPlotView *self, gboolean log_y);
void ms_plot_view_set_scale (MsPlotView *self, const MsViewScale *scale);
void ms_plot_view_invalidate (MsPlotView *self);
/* The data as drawn now (for exports and tests). */
const MsChartData *ms_plot_view_get_data (MsPlotView *self);
gboolean ms_plot_view_get_series_hidden (MsPlotView *self, const char *label);
void ms_plot_view_set_series_hidden (MsPlotView *self, const char *label, gboolean hidden);
/* Toggles a series as a legend click does; returns FALSE if none is there. */
gboolean ms_plot_view_click (MsPlotView *self, double x, double y);

#define MS_TYPE_TIMELINE_VIEW (ms_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (MsTimelineView, ms_timeline_view, MS, TIMELINE_VIEW, GtkWidget)

GtkWidget *ms_timeline_view_new (void);
void ms_timeline_view_set_cell (MsTimelineView *self, const MsCell *cell, int rep,
                                const char *title);
void ms_timeline_view_set_scale (MsTimelineView *self, const MsViewScale *scale);
void ms_timeline_view_zoom (MsTimelineView *self, double factor);
void ms_timeline_view_reset_zoom (MsTimelineView *self);
const MsTimeWindow *ms_timeline_view_get_window (MsTimelineView *self);

#define MS_TYPE_BREAKDOWN_VIEW (ms_breakdown_view_get_type ())
G_DECLARE_FINAL_TYPE (MsBreakdownView, ms_breakdown_view, MS, BREAKDOWN_VIEW, GtkWidget)

GtkWidget *ms_breakdown_view_new (void);
void ms_breakdown_view_set_runs (MsBreakdownView *self, GPtrArray *runs, int exponent);
void ms_breakdown_view_set_scale (MsBreakdownView *self, const MsViewScale *scale);

G_END_DECLS
