/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-page.c: the bandwidth and time pages. */
#include "ms-chart-page.h"

#include "ms-health-view.h"
#include "ms-engine.h"
#include "ms-props.h"
#include "ms-views.h"
#include "ms-plot-view.h"

#include <glib/gi18n.h>

struct _MsChartPage {
  MsPage parent_instance;
  MsMetric metric;
  gboolean log_scale;

  /* Template children. */
  MsPlotView *view;
  GtkWidget *metric_box;
  GtkDropDown *metric_dropdown;
  GtkWidget *log_toggle;
  GtkBox *series_box;
  GtkWidget *filter_bar;
  GtkLabel *filter_label;
  MsHealthView *health;
  GtkInfoBar *health_warning;
  GtkLabel *health_warning_label;
  GtkLabel *health_title;
  MsRun *health_run; /* the strip's, followed for its name; not a reference */
  guint n_runs;
};

G_DEFINE_FINAL_TYPE (MsChartPage, ms_chart_page, MS_TYPE_PAGE)

enum { PROP_0, PROP_METRIC, PROP_LOG_SCALE, PROP_MODES, N_PROPS };
static GParamSpec *props[N_PROPS];

static void show_health (MsChartPage *self, GPtrArray *runs);

static gboolean
is_bandwidth (MsMetric metric)
{
  return metric != MS_METRIC_E2E_TIME;
}

/* The metric picker and the log toggle's tooltip for the metric shown;
 * also the metric property's change hook. */
static void
show_metric (gpointer page)
{
  MsChartPage *self = page;
  MsMetric metric = self->metric;
  gtk_widget_set_visible (self->metric_box, is_bandwidth (metric));
  gtk_widget_set_tooltip_text (self->log_toggle, is_bandwidth (metric)
                                                   ? _("Logarithmic bandwidth axis")
                                                   : _("Logarithmic time axis"));
  if (is_bandwidth (metric))
    gtk_drop_down_set_selected (self->metric_dropdown, metric);
}

static void
on_metric_selected (MsChartPage *self)
{
  guint selected = gtk_drop_down_get_selected (self->metric_dropdown);
  if (is_bandwidth (self->metric) && selected <= MS_METRIC_D2H_BANDWIDTH)
    g_object_set (self, "metric", selected, NULL);
}

/* The legend from the keyboard: check buttons rebuilt from the chart's
 * series each time the popover opens. */
static void
on_series_check_toggled (GtkCheckButton *check, MsPlotView *view)
{
  ms_plot_view_set_series_hidden (view, gtk_check_button_get_label (check),
                                  !gtk_check_button_get_active (check));
}

static void
on_series_popover_show (GtkPopover *popover, MsChartPage *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->series_box))))
    gtk_box_remove (self->series_box, child);
  const MsChartData *data = ms_plot_view_get_data (self->view);
  for (guint i = 0; i < data->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (data->series, i);
    GtkWidget *check = gtk_check_button_new_with_label (s->label);
    gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !s->hidden);
    g_signal_connect_object (check, "toggled", G_CALLBACK (on_series_check_toggled), self->view,
                             0);
    gtk_box_append (self->series_box, check);
  }
  if (data->series->len == 0)
    gtk_box_append (self->series_box, gtk_label_new (_("No series yet")));
}

/* Up and Down move between the check buttons, as in a menu: a popover,
 * unlike a window, has no arrow keys of its own, and its directional focus
 * does not move down a box; the tab order is the list's. */
static gboolean
on_series_key_pressed (GtkEventControllerKey *keys, guint keyval, guint keycode,
                       GdkModifierType state, MsChartPage *self)
{
  GtkDirectionType dir;
  if (keyval == GDK_KEY_Up || keyval == GDK_KEY_KP_Up)
    dir = GTK_DIR_TAB_BACKWARD;
  else if (keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down)
    dir = GTK_DIR_TAB_FORWARD;
  else
    return FALSE;
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK))
    return FALSE;
  gtk_widget_child_focus (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (keys)), dir);
  return TRUE;
}

/* The chart's filter stays in sight with a way out, so that a lesson never
 * leaves the chart short of series without saying so. */
static void
on_view_modes (MsChartPage *self)
{
  const char *modes = ms_plot_view_get_modes (self->view);
  gtk_widget_set_visible (self->filter_bar, modes != NULL);
  if (modes) {
    g_auto (GStrv) names = g_strsplit (modes, ",", -1);
    g_autoptr (GString) titles = g_string_new (NULL);
    for (guint i = 0; names[i]; i++) {
      MsMode mode;
      if (ms_mode_from_name (g_strstrip (names[i]), &mode))
        g_string_append_printf (titles, titles->len ? ", %s" : "%s", ms_mode_title (mode));
    }
    /* TRANSLATORS: the memory modes a lesson left on the chart. */
    g_autofree char *text = g_strdup_printf (_("Showing only: %s"), titles->str);
    gtk_label_set_text (self->filter_label, text);
  }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODES]);
}

static void
on_show_all_clicked (MsChartPage *self)
{
  g_object_set (self->view, "modes", NULL, NULL);
}

/* "modes" is the view's. */
static void
set_modes (MsChartPage *self, const char *modes)
{
  g_object_set (self->view, "modes", modes, NULL);
}

static const char *
get_modes (MsChartPage *self)
{
  return ms_plot_view_get_modes (self->view);
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_METRIC] = { "metric", G_TYPE_INT, MS_PROP_FIELD (MsChartPage, metric),
                    MS_METRIC_E2E_BANDWIDTH, MS_METRIC_E2E_TIME, MS_METRIC_E2E_BANDWIDTH,
                    .changed = show_metric },
  /* Bandwidths span three decades (0.1 to 1000 GB/s) and times more: log
   * by default, the chart the teaching material draws. */
  [PROP_LOG_SCALE] = { "log-scale", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsChartPage, log_scale),
                       .def = TRUE },
  [PROP_MODES] = { "modes", G_TYPE_STRING, MS_PROP_NO_FIELD, .setter = G_CALLBACK (set_modes),
                   .getter = G_CALLBACK (get_modes) },
};

static void
draw_chart (MsPage *page, cairo_t *cr, const MsChartStyle *style, double width, double height)
{
  const MsChartData *data = ms_plot_view_get_data (MS_CHART_PAGE (page)->view);
  ms_chart_draw (cr, data, style, width, height, -1, NULL);
}

/* The chart with the series shown, of every run it draws. */
static char *
ms_chart_page_get_drawing (MsPage *page, MsPageDrawing *drawing)
{
  MsChartPage *self = MS_CHART_PAGE (page);
  const MsChartData *data = ms_plot_view_get_data (self->view);
  drawing->kind = is_bandwidth (self->metric) ? "bandwidth" : "time";
  drawing->title = g_strdup (data && data->title ? data->title : "");
  g_autoptr (GPtrArray) results = ms_run_array_results (ms_page_get_runs (page));
  /* As the command line and the reports caption the same chart. */
  drawing->caption = results->len ? ms_report_chart_caption (results) : NULL;
  drawing->draw = draw_chart;
  return NULL;
}

static void
ms_chart_page_runs_changed (MsPage *page, GPtrArray *runs)
{
  MsChartPage *self = MS_CHART_PAGE (page);
  g_object_set (self->view, "runs", runs, NULL);
  show_health (self, runs);
}

static void
ms_chart_page_class_init (MsChartPageClass *klass)
{
  MS_PAGE_CLASS (klass)->scaled_views = "view";
  MS_PAGE_CLASS (klass)->runs_changed = ms_chart_page_runs_changed;
  MS_PAGE_CLASS (klass)->get_drawing = ms_chart_page_get_drawing;
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ms_props_install (G_OBJECT_CLASS (klass), prop_table, props, N_PROPS);

  g_type_ensure (MS_TYPE_PLOT_VIEW);
  g_type_ensure (MS_TYPE_HEALTH_VIEW);
#define CHILD(name) MS_TEMPLATE_CHILD (MsChartPage, name)
  static const MsTemplateBind binds[] = {
    CHILD (view), CHILD (metric_box), CHILD (metric_dropdown), CHILD (log_toggle),
    CHILD (series_box), CHILD (filter_bar), CHILD (filter_label), CHILD (health),
    CHILD (health_warning), CHILD (health_warning_label), CHILD (health_title),
    MS_TEMPLATE_CALLBACK (on_show_all_clicked), MS_TEMPLATE_CALLBACK (on_series_popover_show),
    MS_TEMPLATE_CALLBACK (on_series_key_pressed), MS_TEMPLATE_CALLBACK (on_metric_selected)
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-chart-page", binds, G_N_ELEMENTS (binds));
}

static void update_health_title (MsChartPage *self);

static void
ms_chart_page_init (MsChartPage *self)
{
  self->log_scale = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  show_metric (self);
  g_signal_connect_object (self->health, "notify::visible", G_CALLBACK (update_health_title), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::modes", G_CALLBACK (on_view_modes), self,
                           G_CONNECT_SWAPPED);
}

/* The strip's heading: the run it describes, by name, and which of the
 * runs shown that is. */
static void
update_health_title (MsChartPage *self)
{
  MsRun *run = self->health_run;
  /* Hidden with the strip (presentation mode hides it). */
  gtk_widget_set_visible (GTK_WIDGET (self->health_title),
                          run != NULL && gtk_widget_get_visible (GTK_WIDGET (self->health)));
  if (!run)
    return;
  g_autofree char *title =
    self->n_runs > 1
      /* TRANSLATORS: the health strip's heading: a run's name, then how
       * many runs the charts show. */
      ? g_strdup_printf (ngettext ("Link health of %s, the last of the %u runs shown",
                                   "Link health of %s, the last of the %u runs shown",
                                   self->n_runs),
                         ms_run_get_name (run), self->n_runs)
      : g_strdup_printf (_("Link health of %s"), ms_run_get_name (run));
  gtk_label_set_text (self->health_title, title);
}

static void
follow_health_run (MsChartPage *self, MsRun *run, guint n_runs)
{
  if (self->health_run != run) {
    if (self->health_run)
      g_signal_handlers_disconnect_by_func (self->health_run, update_health_title, self);
    self->health_run = run;
    /* Renamed in the Runs popover: the heading follows. */
    if (run)
      g_signal_connect_object (run, "notify::name", G_CALLBACK (update_health_title), self,
                               G_CONNECT_SWAPPED);
  }
  self->n_runs = n_runs;
  ms_health_view_set_run (self->health, run);
  update_health_title (self);
}

/* The strip shows the last run the chart draws (the newest, or the one measuring); the warning
 * names every such run whose link ran below its maximum or that throttled. A lesson's run, which
 * the curves leave out (ms_plot_run_drawn), is not one: stepping the deck opened 17 of them, and the
 * strip told of the last, "the last of the 19 runs shown", beside a chart of 2. */
static void
show_health (MsChartPage *self, GPtrArray *all)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  for (guint i = 0; all && i < all->len; i++)
    if (ms_plot_run_drawn (ms_run_get_results (g_ptr_array_index (all, i))))
      g_ptr_array_add (runs, g_ptr_array_index (all, i));
  g_autoptr (GString) warning = g_string_new (NULL);
  for (guint i = 0; i < runs->len; i++) {
    MsRun *run = g_ptr_array_index (runs, i);
    MsHealth h;
    char sentence[1024];
    ms_health_compute (ms_run_get_results (run), &h);
    if (!ms_health_warns (&h))
      continue;
    ms_health_describe (ms_run_get_results (run), sentence, sizeof sentence);
    /* TRANSLATORS: a run's name, then its health in words. */
    g_string_append_printf (warning, warning->len ? "\n%s: %s" : "%s: %s", ms_run_get_name (run),
                            sentence);
  }
  follow_health_run (self, runs->len ? g_ptr_array_index (runs, runs->len - 1) : NULL, runs->len);
  gtk_label_set_text (self->health_warning_label, warning->str);
  gtk_info_bar_set_revealed (self->health_warning, warning->len > 0);
}

MsHealthView *
ms_chart_page_get_health (MsChartPage *self)
{
  return self->health;
}

MsPlotView *
ms_chart_page_get_view (MsChartPage *self)
{
  return self->view;
}
