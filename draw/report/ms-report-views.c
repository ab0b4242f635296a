/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-views.c: views without widgets, and their caption. */
#include "ms-run-describe.h"
#include "ms-report-views.h"

#include <glib/gi18n.h>

#include "ms-breakdown.h"
#include "ms-chart.h"
#include "ms-engine.h"
#include "ms-plots.h"
#include "ms-timeline.h"

static const char *const view_names[MS_REPORT_N_VIEWS] = {
  MS_REPORT_VIEW_LIST (MS_REPORT_VIEW_NAME_ITEM)
};

gboolean
ms_report_view_from_name (const char *name, MsReportView *out)
{
  for (int v = 0; v < MS_REPORT_N_VIEWS; v++)
    if (g_strcmp0 (name, view_names[v]) == 0) {
      *out = v;
      return TRUE;
    }
  return FALSE;
}

const char *
ms_report_view_name (MsReportView view)
{
  return (unsigned) view < MS_REPORT_N_VIEWS ? view_names[view] : "";
}

const MsCell *
ms_report_timeline_cell (const MsResults *run, int *rep)
{
  const MsCell *best = NULL;
  gboolean best_gpu = FALSE;
  for (size_t i = 0; i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    if (!c->n_events || !c->n_reps)
      continue;
    /* Steps the GPU timed first: a batched run's plain repetitions keep
     * the call's host time alone. */
    gboolean pinned = c->mode == MS_MODE_PINNED, best_pinned = best && best->mode == MS_MODE_PINNED;
    gboolean gpu = ms_cell_has_gpu_steps (c);
    if (!best || (gpu && !best_gpu)
        || (gpu == best_gpu
            && ((pinned && !best_pinned)
                || (pinned == best_pinned && c->exponent > best->exponent))))
      best = c, best_gpu = gpu;
  }
  *rep = best ? ms_cell_default_timeline_rep (best) : 0;
  return best;
}

int
ms_report_run_largest_exponent (const MsResults *run)
{
  int e = -1;
  for (size_t i = 0; i < run->n_cells; i++)
    if (run->cells[i].status == MS_CELL_OK && run->cells[i].stats.e2e.n > 0)
      e = MAX (e, run->cells[i].exponent);
  return e;
}

/* The largest size with a cell that has data, for the breakdown. */
static int
ms_report_breakdown_exponent (GPtrArray *runs)
{
  int e = -1;
  for (guint r = 0; r < runs->len; r++)
    e = MAX (e, ms_report_run_largest_exponent (g_ptr_array_index (runs, r)));
  return e;
}

const char *
ms_report_view_unavailable (GPtrArray *runs, MsReportView view)
{
  if (!runs || runs->len == 0)
    return _("no runs");
  int rep;
  const MsResults *first = g_ptr_array_index (runs, 0);
  if (view == MS_REPORT_VIEW_TIMELINE && !ms_report_timeline_cell (first, &rep))
    return first->from_summary
             ? _("a summary file has no per-repetition events; open the samples file")
             : _("no cell of the run has events to show");
  if (view == MS_REPORT_VIEW_BREAKDOWN && ms_report_breakdown_exponent (runs) < 0)
    return _("no cell of the runs has data");
  return NULL;
}

static void
draw_timeline (cairo_t *cr, const MsReportViewJob *job, double width, double height)
{
  int rep = job->timeline_rep;
  const MsResults *run = g_ptr_array_index (job->runs, 0);
  const MsCell *cell = job->timeline_cell ? job->timeline_cell : ms_report_timeline_cell (run, &rep);
  MsTimeWindow win;
  ms_time_window_open (&win, cell, rep, NULL, job->timeline_all_phases);
  char size[32] = "";
  if (cell)
    ms_format_bytes (ms_vector_bytes (cell->elements), size, sizeof size);
  /* The run is named: beside other runs' charts a timeline is one run's. */
  g_autofree char *run_label = ms_plot_run_label (run);
  /* A lesson's cells differ by variant: the title says which. */
  g_autofree char *what = cell && cell->variant[0]
                            ? g_strdup_printf ("%s (%s)", ms_mode_title (cell->mode), cell->variant)
                            : g_strdup (cell ? ms_mode_title (cell->mode) : "");
  g_autofree char *title =
    cell ? g_strdup_printf (_("%s at %s per vector, repetition %d · %s"), what, size, rep + 1,
                            run_label)
         : NULL;
  ms_timeline_draw (cr, cell, rep, &win, &job->style, width, height, title, NULL);
}

void
ms_report_view_draw (cairo_t *cr, double width, double height, gpointer data)
{
  const MsReportViewJob *job = data;
  static const MsMetric metrics[] = {
    [MS_REPORT_VIEW_BANDWIDTH] = MS_METRIC_E2E_BANDWIDTH,
    [MS_REPORT_VIEW_H2D] = MS_METRIC_H2D_BANDWIDTH,
    [MS_REPORT_VIEW_D2H] = MS_METRIC_D2H_BANDWIDTH,
    [MS_REPORT_VIEW_TIME] = MS_METRIC_E2E_TIME,
  };
  switch (job->view) {
  case MS_REPORT_VIEW_TIMELINE:
    draw_timeline (cr, job, width, height);
    break;
  case MS_REPORT_VIEW_BREAKDOWN:
    /* The per-repetition path alone, as the view opens. */
    ms_breakdown_draw_full (cr, job->runs, ms_report_breakdown_exponent (job->runs), FALSE,
                            &job->style, width, height);
    break;
  default: {
    /* Sizes and values span decades: log axes, as the app opens them. */
    g_autoptr (MsChartData) chart = ms_plot_build (job->runs, metrics[job->view], TRUE, NULL);
    ms_chart_draw (cr, chart, &job->style, width, height, -1, NULL);
    break;
  }
  }
}

static char *
ms_report_device_line (const MsResults *run)
{
  const MsDeviceInfo *d = &run->device;
  /* Without its metadata (a sidecar missing, damaged or another run's),
   * what the reader defaults to is not this run's. */
  GString *s = g_string_new (run->metadata_unknown[0]             ? _("device unknown")
                             : d->present && d->name[0] ? d->name
                                                        : _("no GPU: CPU baseline"));
  if (d->pcie_gen > 0)
    g_string_append_printf (s, " · PCIe gen%d x%d", d->pcie_gen, d->pcie_width);
  if (d->driver_release[0] && g_strcmp0 (d->driver_release, "unknown") != 0)
    g_string_append_printf (s, _(" · driver %s"), d->driver_release);
  if (run->date[0]) {
    g_autofree char *date = ms_run_describe_date (run->date);
    g_string_append_printf (s, " · %s", date);
  }
  g_string_append_printf (s, " · memsweep %s", run->version[0] ? run->version : MS_VERSION);
  if (run->from_summary)
    g_string_append (s, _(" · from a summary file"));
  return g_string_free (s, FALSE);
}

/* A lesson's run: the sizes its cells hold and how each was repeated. Its
 * sweep settings describe only its first part (a sweep's sizes, streams and
 * order), which a lesson sets per cell. */
static char *
lesson_settings_text (const MsResults *run, const char *reps)
{
  int lo = -1, hi = -1;
  for (size_t i = 0; i < run->n_cells; i++) {
    /* A probe lesson's cell of one element is a setting, not a size. */
    int e = run->cells[i].exponent;
    if (e > 0) {
      lo = lo < 0 || e < lo ? e : lo;
      hi = e > hi ? e : hi;
    }
  }
  if (lo < 0)
    return g_strdup_printf (_("%s · %d warm-up · %d round(s)"), reps, run->sweep.warmup,
                            run->sweep.rounds);
  /* In bytes, as the lesson's picture gives its sizes. */
  char from[32], to[32];
  ms_format_bytes (ms_exponent_bytes (lo), from, sizeof from);
  ms_format_bytes (ms_exponent_bytes (hi), to, sizeof to);
  return g_strdup_printf (_("%s to %s per vector · %s · %d warm-up · %d round(s)"), from, to,
                          reps, run->sweep.warmup, run->sweep.rounds);
}

char *
ms_report_settings_text (const MsResults *run)
{
  const MsSweep *w = &run->sweep;
  if (run->metadata_unknown[0])
    return g_strdup (_("settings unknown (the run's metadata is missing)"));
  g_autofree char *reps =
    w->reps_rule == MS_REPS_FIXED
      ? g_strdup_printf (_("%d repetitions"), w->reps)
      : g_strdup_printf (_("at least %d repetitions, until the median is known to ±%g %% or %g ms "
                           "are spent"), w->min_reps, w->ci_target_pct, w->cell_budget_ms);
  if (run->experiment[0])
    return lesson_settings_text (run, reps);
  return g_strdup_printf (_("sizes 2^%d..2^%d step %d · %s · %d warm-up · %d streams %s · %d "
                            "round(s)"),
                          w->min_exp, w->max_exp, w->step, reps, w->warmup, w->streams,
                          w->order == MS_ORDER_BREADTH_FIRST ? _("breadth-first")
                                                            : _("depth-first"),
                          w->rounds);
}

char *
ms_report_caption (GPtrArray *runs)
{
  GString *s = g_string_new (NULL);
  g_autoptr (GPtrArray) settings = g_ptr_array_new_with_free_func (g_free);
  gboolean same = TRUE;
  for (guint r = 0; runs && r < runs->len; r++) {
    g_autofree char *line = ms_report_device_line (g_ptr_array_index (runs, r));
    g_string_append_printf (s, "%s\n", line);
    g_ptr_array_add (settings, ms_report_settings_text (g_ptr_array_index (runs, r)));
    same = same && g_strcmp0 (settings->pdata[r], settings->pdata[0]) == 0;
  }
  /* One settings line when the runs share them; else each run's own, so
   * that no run is described by another's. */
  for (guint r = 0; r < (same ? MIN (settings->len, 1) : settings->len); r++)
    if (same)
      g_string_append_printf (s, "%s\n", (char *) settings->pdata[r]);
    else
      /* TRANSLATORS: a run's name, then its settings. */
      g_string_append_printf (s, _("%s: %s\n"),
                              ((const MsResults *) g_ptr_array_index (runs, r))->label,
                              (char *) settings->pdata[r]);
  if (s->len && s->str[s->len - 1] == '\n')
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}

char *
ms_report_lesson_caption (const char *takeaway, const MsResults *run)
{
  g_autoptr (GPtrArray) one = g_ptr_array_new ();
  g_ptr_array_add (one, (gpointer) run);
  g_autofree char *device = ms_report_caption (one);
  return takeaway && takeaway[0] ? g_strdup_printf ("%s\n%s", takeaway, device)
                                 : g_steal_pointer (&device);
}

char *
ms_report_chart_caption (GPtrArray *runs)
{
  /* The charts' bars are explained on screen beside the chart, not in
   * it: an exported chart says it under it. */
  g_autofree char *runs_caption = ms_report_caption (runs);
  /* xgettext:no-c-format */
  const char *bars = _("Bars: the median's 95% interval.");
  return g_strdup_printf ("%s\n%s", bars, runs_caption);
}

char *
ms_report_view_caption (GPtrArray *runs, MsReportView view)
{
  if (view <= MS_REPORT_VIEW_TIME)
    return ms_report_chart_caption (runs);
  if (view != MS_REPORT_VIEW_TIMELINE || !runs || runs->len < 2)
    return ms_report_caption (runs);
  /* The timeline shows the first run alone: its caption names only it. */
  return ms_report_lesson_caption (NULL, g_ptr_array_index (runs, 0));
}
