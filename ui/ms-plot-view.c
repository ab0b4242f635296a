/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-plot-view.c: the line chart widget. */
#include <glib/gi18n.h>

#include "ms-plot-view.h"
#include "ms-props.h"
#include "ms-run.h"

#include "ms-engine.h"
#include "ms-views.h"

#include <math.h>
#include <string.h>

struct _MsPlotView {
  MsChartView parent_instance;
  GPtrArray *runs;
  MsMetric metric;
  gboolean log_scale;
  gboolean direct_labels;
  int planned_min_exp, planned_max_exp; /* -1: none */
  GHashTable *hidden; /* labels switched off in the legend */
  GHashTable *run_labels; /* MsRun* -> its label when the series were last named */
  char *modes;        /* "pageable,pinned": only these modes' series; NULL: all */
  MsChartData *data;  /* built lazily from runs */
  MsChartLayout layout;
  double hover_x;
};

G_DEFINE_FINAL_TYPE (MsPlotView, ms_plot_view, MS_TYPE_CHART_VIEW)

static MsChartData *
plot_data (MsPlotView *self)
{
  if (!self->data) {
    g_autoptr (GPtrArray) results = ms_run_array_results (self->runs);
    self->data = ms_plot_build (results, self->metric, self->log_scale, self->hidden);
    ms_plot_keep_modes (self->data, self->modes, self->runs && self->runs->len > 0);
    self->data->direct_labels = self->direct_labels;
    if (self->planned_min_exp >= 0 && self->planned_max_exp >= self->planned_min_exp) {
      self->data->x_min = (double) ms_exponent_bytes (self->planned_min_exp);
      self->data->x_max = (double) ms_exponent_bytes (self->planned_max_exp);
    }
  }
  return self->data;
}

const MsChartData *
ms_plot_view_get_data (MsPlotView *self)
{
  return plot_data (self);
}

/* The chart is built again at the next frame; also the properties'
 * change hook (ms-props.h). */
static void
invalidate (gpointer view)
{
  MsPlotView *self = view;
  g_clear_pointer (&self->data, ms_chart_data_free);
  ms_chart_view_redraw (MS_CHART_VIEW (self));
}

/* The crosshair and its read-out in a node only as large as what they
 * cover: recorded first to learn where they ink, so that a frame redraws
 * that much of the window and not all of it. */
static void
append_crosshair (MsPlotView *self, GtkSnapshot *snapshot, const MsChartStyle *style)
{
  cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *rc = cairo_create (rec);
  ms_chart_draw_crosshair (rc, plot_data (self), style, &self->layout, self->hover_x);
  cairo_destroy (rc);
  double x, y, w, h;
  cairo_recording_surface_ink_extents (rec, &x, &y, &w, &h);
  if (w > 0 && h > 0) {
    double x0 = floor (x), y0 = floor (y);
    graphene_rect_t bounds = GRAPHENE_RECT_INIT (x0, y0, ceil (x + w) - x0, ceil (y + h) - y0);
    cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &bounds);
    cairo_set_source_surface (cr, rec, 0, 0);
    cairo_paint (cr);
    cairo_destroy (cr);
  }
  cairo_surface_destroy (rec);
}

/* The chart without the crosshair, kept by the base class: hovering draws
 * the crosshair over it and nothing else. */
static void
ms_plot_view_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsPlotView *self = MS_PLOT_VIEW (view);
  /* The picture names its runs (the header bar does not, and is hidden
   * when projected). */
  g_autoptr (GPtrArray) results = ms_run_array_results (self->runs);
  g_autofree char *line = ms_plot_runs_line (results);
  double strip = ms_draw_runs_line_height (cr, style, line, h);
  ms_chart_draw (cr, plot_data (self), style, w, h - strip, -1, &self->layout);
  ms_draw_runs_line (cr, style, line, w, h);
}

static void
ms_plot_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsPlotView *self = MS_PLOT_VIEW (widget);
  GTK_WIDGET_CLASS (ms_plot_view_parent_class)->snapshot (widget, snapshot);
  if (self->hover_x >= 0 && gtk_widget_get_width (widget) > 0 &&
      gtk_widget_get_height (widget) > 0) {
    MsChartStyle style;
    ms_chart_view_get_style (MS_CHART_VIEW (self), &style);
    append_crosshair (self, snapshot, &style);
  }
}

void
ms_plot_view_set_series_hidden (MsPlotView *self, const char *label, gboolean hidden)
{
  if (hidden)
    g_hash_table_add (self->hidden, g_strdup (label));
  else
    g_hash_table_remove (self->hidden, label);
  invalidate (self);
}

gboolean
ms_plot_view_click (MsPlotView *self, double x, double y)
{
  int i = ms_chart_layout_hit_legend (&self->layout, x, y);
  if (i < 0)
    return FALSE;
  const MsChartSeries *s = g_ptr_array_index (plot_data (self)->series, i);
  if (!g_hash_table_remove (self->hidden, s->label))
    g_hash_table_add (self->hidden, g_strdup (s->label));
  invalidate (self);
  return TRUE;
}

static void
on_plot_pressed (GtkGestureClick *gesture, int n_press, double x, double y, MsPlotView *self)
{
  if (ms_plot_view_click (self, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_plot_motion (GtkEventControllerMotion *c, double x, double y, MsPlotView *self)
{
  double hover = ms_chart_layout_in_plot (&self->layout, x, y) ? x : -1;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self),
                                   ms_chart_layout_hit_legend (&self->layout, x, y) >= 0
                                     ? "pointer"
                                     : NULL);
  if (hover != self->hover_x) {
    self->hover_x = hover;
    gtk_widget_queue_draw (GTK_WIDGET (self));
  }
}

static void
on_plot_leave (GtkEventControllerMotion *c, MsPlotView *self)
{
  self->hover_x = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* NULL for none, though "" (every mode too) may have been set. */
const char *
ms_plot_view_get_modes (MsPlotView *self)
{
  return self->modes && self->modes[0] ? self->modes : NULL;
}

static void follow_renames (MsPlotView *self, GPtrArray *runs);

/* The hidden series follow renamed runs, and the chart is made again. */
static void
runs_changed (gpointer view)
{
  MsPlotView *self = view;
  follow_renames (self, self->runs);
  invalidate (self);
}

enum {
  PROP_0,
  PROP_RUNS,
  PROP_METRIC,
  PROP_LOG_SCALE,
  PROP_DIRECT_LABELS,
  PROP_PLANNED_MIN_EXPONENT,
  PROP_PLANNED_MAX_EXPONENT,
  PROP_MODES,
  N_PROPS
};
static GParamSpec *props[N_PROPS];
static const MsProp prop_table[N_PROPS] = {
  /* Always rebuilt: the same array may have changed in place. */
  [PROP_RUNS] = { "runs", G_TYPE_BOXED, MS_PROP_FIELD (MsPlotView, runs),
                  .get_type = g_ptr_array_get_type, .changed = runs_changed,
                  .always_changed = TRUE },
  [PROP_METRIC] = { "metric", G_TYPE_INT, MS_PROP_FIELD (MsPlotView, metric),
                    MS_METRIC_E2E_BANDWIDTH, MS_METRIC_E2E_TIME, MS_METRIC_E2E_BANDWIDTH,
                    .changed = invalidate },
  [PROP_LOG_SCALE] = { "log-scale", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsPlotView, log_scale),
                       .changed = invalidate },
  [PROP_DIRECT_LABELS] = { "direct-labels", G_TYPE_BOOLEAN,
                           MS_PROP_FIELD (MsPlotView, direct_labels), .changed = invalidate },
  /* A sweep's planned sizes (2^e elements), -1 for none: the x axis covers
   * them from the first cell on, so points do not move as results come. */
  [PROP_PLANNED_MIN_EXPONENT] = { "planned-min-exponent", G_TYPE_INT,
                                  MS_PROP_FIELD (MsPlotView, planned_min_exp), -1, 62, -1,
                                  .changed = invalidate },
  [PROP_PLANNED_MAX_EXPONENT] = { "planned-max-exponent", G_TYPE_INT,
                                  MS_PROP_FIELD (MsPlotView, planned_max_exp), -1, 62, -1,
                                  .changed = invalidate },
  /* Mode names, comma-separated: only their series are drawn (a lesson
   * shows the modes it compares); NULL or "": every mode. */
  [PROP_MODES] = { "modes", G_TYPE_STRING, MS_PROP_FIELD (MsPlotView, modes),
                   .changed = invalidate },
};

static void
ms_plot_view_contrast_set (MsChartView *view)
{
  /* Presentation mode (high contrast) names the lines at their ends;
   * leaving it goes back to the legend alone. Either can be changed
   * afterwards. */
  g_object_set (view, "direct-labels", ms_chart_view_get_scale (view)->high_contrast, NULL);
}

static void
ms_plot_view_dispose (GObject *object)
{
  MsPlotView *self = MS_PLOT_VIEW (object);
  g_clear_pointer (&self->data, ms_chart_data_free);
  G_OBJECT_CLASS (ms_plot_view_parent_class)->dispose (object);
}

static void
ms_plot_view_finalize (GObject *object)
{
  MsPlotView *self = MS_PLOT_VIEW (object);
  g_hash_table_unref (self->hidden);
  g_hash_table_unref (self->run_labels);
  ms_chart_layout_clear (&self->layout);
  G_OBJECT_CLASS (ms_plot_view_parent_class)->finalize (object);
}

static void
ms_plot_view_class_init (MsPlotViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_plot_view_dispose;
  object_class->finalize = ms_plot_view_finalize;
  widget_class->snapshot = ms_plot_view_snapshot;
  MS_CHART_VIEW_CLASS (klass)->draw = ms_plot_view_draw;
  MS_CHART_VIEW_CLASS (klass)->keeps_picture = TRUE;
  MS_CHART_VIEW_CLASS (klass)->contrast_set = ms_plot_view_contrast_set;
  ms_props_install (object_class, prop_table, props, N_PROPS);

  gtk_widget_class_set_css_name (widget_class, "msplotview");
}

char *
ms_plot_view_legend_tooltip (MsPlotView *self, double x, double y)
{
  int i = ms_chart_layout_hit_legend (&self->layout, x, y);
  if (i < 0)
    return NULL;
  /* A series' colour is its mode's (ms_mode_look): the legend's short
   * names (UVA, Zero-copy) are said in full on hover. */
  const MsChartSeries *s = g_ptr_array_index (plot_data (self)->series, i);
  if (s->color >= MS_MODE_COUNT)
    return NULL;
  /* TRANSLATORS: a legend entry's tooltip: the mode and what it does. */
  return g_strdup_printf (C_("legend tooltip", "%s: %s"), ms_mode_title (s->color),
                          ms_mode_description (s->color));
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer data)
{
  g_autofree char *text = keyboard ? NULL : ms_plot_view_legend_tooltip (MS_PLOT_VIEW (widget),
                                                                          x, y);
  if (!text)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ms_plot_view_init (MsPlotView *self)
{
  self->hidden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->run_labels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->hover_x = -1;
  self->planned_min_exp = self->planned_max_exp = -1;
  ms_chart_layout_init (&self->layout);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 240);

  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_plot_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_plot_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_plot_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

/* Renames hidden series ending in "(old)" to end in "(now)". */
static void
rename_hidden (GHashTable *hidden, const char *old, const char *now)
{
  g_autofree char *old_end = g_strdup_printf ("(%s)", old);
  g_autoptr (GPtrArray) renamed = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter it;
  const char *label;
  g_hash_table_iter_init (&it, hidden);
  while (g_hash_table_iter_next (&it, (gpointer *) &label, NULL))
    if (g_str_has_suffix (label, old_end)) {
      int head = (int) (strlen (label) - strlen (old_end));
      g_ptr_array_add (renamed, g_strdup_printf ("%.*s(%s)", head, label, now));
      g_hash_table_iter_remove (&it);
    }
  for (guint k = 0; k < renamed->len; k++)
    g_hash_table_add (hidden, g_strdup (g_ptr_array_index (renamed, k)));
}

/* A renamed run's series stay hidden: their labels end in the run's label
 * in parentheses (ms_plot_series_label), which the rename changed. The
 * runs last shown are alive here (the caller's array held them), so a run
 * is known by its address. */
static void
follow_renames (MsPlotView *self, GPtrArray *runs)
{
  GHashTable *labels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint i = 0; runs && i < runs->len; i++) {
    MsRun *run = g_ptr_array_index (runs, i);
    char *now = ms_plot_run_label (ms_run_get_results (run));
    const char *old = g_hash_table_lookup (self->run_labels, run);
    if (old && strcmp (old, now) != 0)
      rename_hidden (self->hidden, old, now);
    g_hash_table_replace (labels, run, now);
  }
  g_hash_table_unref (self->run_labels);
  self->run_labels = labels;
}
