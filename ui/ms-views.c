/* ms-views.c: the drawing widgets. */
#include "ms-views.h"

#include <adwaita.h>
#include <math.h>

void
ms_view_style_from_widget (GtkWidget *widget, const MsViewScale *scale, MsChartStyle *style)
{
  GtkStyleContext *ctx = gtk_widget_get_style_context (widget);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  if (dark)
    ms_chart_style_init_dark (style);
  else
    ms_chart_style_init_light (style);
  /* Named colours from libadwaita follow light, dark and high contrast. */
  GdkRGBA bg = { style->bg.red, style->bg.green, style->bg.blue, style->bg.alpha };
  GdkRGBA fg = { style->fg.red, style->fg.green, style->fg.blue, style->fg.alpha };
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_lookup_color (ctx, "view_bg_color", &bg);
  gtk_style_context_lookup_color (ctx, "view_fg_color", &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  style->bg = (MsColor){ bg.red, bg.green, bg.blue, bg.alpha };
  style->fg = (MsColor){ fg.red, fg.green, fg.blue, fg.alpha };
  if (scale) {
    style->text_scale = scale->text_scale;
    style->line_scale = scale->line_scale;
    style->high_contrast = scale->high_contrast;
  }
  style->high_contrast =
    style->high_contrast || adw_style_manager_get_high_contrast (adw_style_manager_get_default ());
}

/* ---- MsPlotView --------------------------------------------------------- */

struct _MsPlotView {
  GtkWidget parent_instance;
  GPtrArray *runs; /* borrowed */
  MsMetric metric;
  gboolean log_y;
  MsViewScale scale;
  GHashTable *hidden; /* labels switched off in the legend */
  MsChartData *data;  /* built lazily from runs */
  MsChartLayout layout;
  double hover_x;
  /* The chart without the crosshair, at the widget's size and scale:
   * hovering repaints this and the crosshair only. */
  cairo_surface_t *cache;
  int cache_w, cache_h, cache_scale;
  gboolean cache_dark;
};

G_DEFINE_FINAL_TYPE (MsPlotView, ms_plot_view, GTK_TYPE_WIDGET)

static MsChartData *
plot_data (MsPlotView *self)
{
  if (!self->data)
    self->data = ms_plot_build (self->runs, self->metric, self->log_y, self->hidden);
  return self->data;
}

const MsChartData *
ms_plot_view_get_data (MsPlotView *self)
{
  return plot_data (self);
}

static void
drop_cache (MsPlotView *self)
{
  g_clear_pointer (&self->cache, cairo_surface_destroy);
}

void
ms_plot_view_invalidate (MsPlotView *self)
{
  g_clear_pointer (&self->data, ms_chart_data_free);
  drop_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ms_plot_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsPlotView *self = MS_PLOT_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  MsChartStyle style;
  ms_view_style_from_widget (widget, &self->scale, &style);
  if (w <= 0 || h <= 0)
    return;
  if (self->cache && (self->cache_w != w || self->cache_h != h || self->cache_scale != scale ||
                      self->cache_dark != style.dark))
    drop_cache (self);
  if (!self->cache) {
    /* Device scale keeps lines and text crisp on HiDPI screens. */
    self->cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, h * scale);
    cairo_surface_set_device_scale (self->cache, scale, scale);
    cairo_t *cc = cairo_create (self->cache);
    ms_chart_draw (cc, plot_data (self), &style, w, h, -1, &self->layout);
    cairo_destroy (cc);
    self->cache_w = w;
    self->cache_h = h;
    self->cache_scale = scale;
    self->cache_dark = style.dark;
  }
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_set_source_surface (cr, self->cache, 0, 0);
  cairo_paint (cr);
  ms_chart_draw_crosshair (cr, plot_data (self), &style, &self->layout, self->hover_x);
  cairo_destroy (cr);
}

gboolean
ms_plot_view_get_series_hidden (MsPlotView *self, const char *label)
{
  return g_hash_table_contains (self->hidden, label);
}

void
ms_plot_view_set_series_hidden (MsPlotView *self, const char *label, gboolean hidden)
{
  if (hidden)
    g_hash_table_add (self->hidden, g_strdup (label));
  else
    g_hash_table_remove (self->hidden, label);
  ms_plot_view_invalidate (self);
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
  ms_plot_view_invalidate (self);
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

static void
on_style_changed (MsPlotView *self)
{
  drop_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ms_plot_view_dispose (GObject *object)
{
  MsPlotView *self = MS_PLOT_VIEW (object);
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  g_clear_pointer (&self->data, ms_chart_data_free);
  drop_cache (self);
  G_OBJECT_CLASS (ms_plot_view_parent_class)->dispose (object);
}

static void
ms_plot_view_finalize (GObject *object)
{
  MsPlotView *self = MS_PLOT_VIEW (object);
  g_hash_table_unref (self->hidden);
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
  gtk_widget_class_set_css_name (widget_class, "msplotview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ms_plot_view_init (MsPlotView *self)
{
  self->hidden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->hover_x = -1;
  self->scale = (MsViewScale){ 1, 1 };
  ms_chart_layout_init (&self->layout);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 240);

  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_plot_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_plot_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_plot_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (on_style_changed), self);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::high-contrast",
                            G_CALLBACK (on_style_changed), self);
}

GtkWidget *
ms_plot_view_new (MsMetric metric)
{
  MsPlotView *self = g_object_new (MS_TYPE_PLOT_VIEW, NULL);
  self->metric = metric;
  return GTK_WIDGET (self);
}

void
ms_plot_view_set_runs (MsPlotView *self, GPtrArray *runs)
{
  self->runs = runs;
  ms_plot_view_invalidate (self);
}

void
ms_plot_view_set_metric (MsPlotView *self, MsMetric metric)
{
  self->metric = metric;
  ms_plot_view_invalidate (self);
}

void
ms_plot_view_set_log_y (MsPlotView *self, gboolean log_y)
{
  self->log_y = log_y;
  ms_plot_view_invalidate (self);
}

void
ms_plot_view_set_scale (MsPlotView *self, const MsViewScale *scale)
{
  self->scale = *scale;
  drop_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- MsTimelineView ----------------------------------------------------- */

struct _MsTimelineView {
  GtkWidget parent_instance;
  MsCell cell; /* a copy */
  gboolean has_cell;
  int rep;
  char *title;
  MsTimeWindow window;
  MsTimelineLayout layout;
  MsViewScale scale;
  double drag_t0;
  double pointer_x;
};

G_DEFINE_FINAL_TYPE (MsTimelineView, ms_timeline_view, GTK_TYPE_WIDGET)

static void
ms_timeline_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  MsChartStyle style;
  ms_view_style_from_widget (widget, &self->scale, &style);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  ms_timeline_draw (cr, self->has_cell ? &self->cell : NULL, self->rep, &self->window, &style, w,
                    h, self->title, &self->layout);
  cairo_destroy (cr);
}

static double
pixel_to_time (MsTimelineView *self, double x)
{
  const MsTimelineLayout *l = &self->layout;
  if (l->plot_w <= 0)
    return self->window.t0;
  return self->window.t0 + (x - l->plot_x) / l->plot_w * (self->window.t1 - self->window.t0);
}

static void
on_timeline_motion (GtkEventControllerMotion *c, double x, double y, MsTimelineView *self)
{
  self->pointer_x = x;
}

static gboolean
on_timeline_scroll (GtkEventControllerScroll *c, double dx, double dy, MsTimelineView *self)
{
  /* Wheel zooms around the pointer; horizontal scrolling pans. */
  if (dy != 0)
    ms_time_window_zoom (&self->window, pow (1.2, -dy), pixel_to_time (self, self->pointer_x));
  else if (dx != 0)
    ms_time_window_pan (&self->window, dx * (self->window.t1 - self->window.t0) * 0.05);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *g, double x, double y, MsTimelineView *self)
{
  self->drag_t0 = self->window.t0;
}

static void
on_drag_update (GtkGestureDrag *g, double dx, double dy, MsTimelineView *self)
{
  double span = self->window.t1 - self->window.t0;
  double per_px = self->layout.plot_w > 0 ? span / self->layout.plot_w : 0;
  double t0 = self->drag_t0 - dx * per_px;
  ms_time_window_pan (&self->window, t0 - self->window.t0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_timeline_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                     gpointer data)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (widget);
  const MsTimelineBar *bar = ms_timeline_layout_hit (&self->layout, x, y);
  if (!bar)
    return FALSE;
  const MsEvent *ev = bar->event;
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "<b>%s</b>%s\n", ms_phase_name (ev->phase),
                          bar->host_part ? " (host call)" : ev->gpu_us >= 0 ? " (on the GPU)" : "");
  g_string_append_printf (s, "start %.2f µs (host clock)\nhost %.2f µs", ev->host_start_us,
                          ev->host_us);
  if (ev->gpu_us >= 0) {
    g_string_append_printf (s, "\nGPU %.2f µs, starting at %.2f µs", ev->gpu_us,
                            ev->gpu_start_us);
    if (ms_event_blocked_host (ev))
      g_string_append (s, "\nthe call blocked the host while the GPU worked");
  }
  if (ev->bytes) {
    char b[32];
    ms_format_bytes (ev->bytes, b, sizeof b);
    double t = ev->gpu_us >= 0 ? ev->gpu_us : ev->host_us;
    g_string_append_printf (s, "\n%s", b);
    if (t > 0 && ev->phase != MS_PHASE_REGISTER && ev->phase != MS_PHASE_UNREGISTER)
      g_string_append_printf (s, ", %.2f GB/s", ev->bytes / t * 1e-3);
  }
  if (ev->lane > 0)
    g_string_append_printf (s, "\nstream %d, chunk %d", ev->lane - 1, ev->chunk);
  gtk_tooltip_set_markup (tooltip, s->str);
  g_string_free (s, TRUE);
  return TRUE;
}

static void
ms_timeline_view_finalize (GObject *object)
{
  MsTimelineView *self = MS_TIMELINE_VIEW (object);
  if (self->has_cell)
    ms_cell_clear (&self->cell);
  g_free (self->title);
  ms_timeline_layout_clear (&self->layout);
  G_OBJECT_CLASS (ms_timeline_view_parent_class)->finalize (object);
}

static void
ms_timeline_view_dispose (GObject *object)
{
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), object);
  G_OBJECT_CLASS (ms_timeline_view_parent_class)->dispose (object);
}

static void
ms_timeline_view_class_init (MsTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->finalize = ms_timeline_view_finalize;
  object_class->dispose = ms_timeline_view_dispose;
  widget_class->snapshot = ms_timeline_view_snapshot;
  gtk_widget_class_set_css_name (widget_class, "mstimelineview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ms_timeline_view_init (MsTimelineView *self)
{
  self->scale = (MsViewScale){ 1, 1 };
  ms_timeline_layout_init (&self->layout);
  ms_time_window_reset (&self->window, 1);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_timeline_tooltip), NULL);
  GtkEventController *scroll =
    gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_timeline_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_timeline_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  GtkGesture *drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (gtk_widget_queue_draw), self);
}

GtkWidget *
ms_timeline_view_new (void)
{
  return g_object_new (MS_TYPE_TIMELINE_VIEW, NULL);
}

void
ms_timeline_view_set_cell (MsTimelineView *self, const MsCell *cell, int rep, const char *title)
{
  if (self->has_cell)
    ms_cell_clear (&self->cell);
  self->has_cell = cell && ms_cell_copy (&self->cell, cell);
  self->rep = rep;
  g_free (self->title);
  self->title = g_strdup (title);
  ms_time_window_reset (&self->window, self->has_cell ? ms_timeline_extent (&self->cell, rep) : 1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ms_timeline_view_set_scale (MsTimelineView *self, const MsViewScale *scale)
{
  self->scale = *scale;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ms_timeline_view_zoom (MsTimelineView *self, double factor)
{
  ms_time_window_zoom (&self->window, factor, (self->window.t0 + self->window.t1) / 2);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ms_timeline_view_reset_zoom (MsTimelineView *self)
{
  ms_time_window_reset (&self->window, self->window.total_us);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const MsTimeWindow *
ms_timeline_view_get_window (MsTimelineView *self)
{
  return &self->window;
}

/* ---- MsBreakdownView ---------------------------------------------------- */

struct _MsBreakdownView {
  GtkWidget parent_instance;
  GPtrArray *runs; /* borrowed */
  int exponent;
  MsViewScale scale;
};

G_DEFINE_FINAL_TYPE (MsBreakdownView, ms_breakdown_view, GTK_TYPE_WIDGET)

static void
ms_breakdown_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MsBreakdownView *self = MS_BREAKDOWN_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  MsChartStyle style;
  ms_view_style_from_widget (widget, &self->scale, &style);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  ms_breakdown_draw (cr, self->runs, self->exponent, &style, w, h);
  cairo_destroy (cr);
}

static void
ms_breakdown_view_dispose (GObject *object)
{
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), object);
  G_OBJECT_CLASS (ms_breakdown_view_parent_class)->dispose (object);
}

static void
ms_breakdown_view_class_init (MsBreakdownViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ms_breakdown_view_dispose;
  GTK_WIDGET_CLASS (klass)->snapshot = ms_breakdown_view_snapshot;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "msbreakdownview");
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ms_breakdown_view_init (MsBreakdownView *self)
{
  self->scale = (MsViewScale){ 1, 1 };
  self->exponent = 20;
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (gtk_widget_queue_draw), self);
}

GtkWidget *
ms_breakdown_view_new (void)
{
  return g_object_new (MS_TYPE_BREAKDOWN_VIEW, NULL);
}

void
ms_breakdown_view_set_runs (MsBreakdownView *self, GPtrArray *runs, int exponent)
{
  self->runs = runs;
  self->exponent = exponent;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ms_breakdown_view_set_scale (MsBreakdownView *self, const MsViewScale *scale)
{
  self->scale = *scale;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
