/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-plots.c: what each chart shows. */
#include "ms-run-describe.h"
#include "ms-plots.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-lessons.h"

/* Lesson runs made before their labels were cleared carry the temporary
 * file of a lesson part ("memsweep-lesson-2Zu38p"): no name either. */
static gboolean
is_a_name (const char *label)
{
  return label[0] && !g_str_has_suffix (label, ".csv")
         && !g_str_has_prefix (label, "memsweep-lesson-");
}

/* The kind of run in words: the lesson's title, "summary" for a summary
 * file, else "sweep". */
static const char *
run_kind (const MsResults *run)
{
  MsLessonTopic t = ms_lesson_topic_for_experiment (run->experiment);
  if (run->experiment[0] && g_strcmp0 (run->experiment, "sweep") != 0 && t < MS_TOPIC_COUNT)
    return g_dgettext (GETTEXT_PACKAGE, ms_lesson_topic (t)->title);
  return run->from_summary ? _ ("summary") : _ ("sweep");
}

/* The setting a sweep most often differs by: sizes other than the default. */
static char *
differing_setting (const MsResults *run)
{
  MsSweep def;
  ms_sweep_init_default (&def);
  if (run->experiment[0] && g_strcmp0 (run->experiment, "sweep") != 0)
    return NULL;
  if (run->sweep.min_exp == def.min_exp && run->sweep.max_exp == def.max_exp)
    return NULL;
  /* TRANSLATORS: the sizes a sweep covered, as powers of two of floats. */
  return g_strdup_printf (_ ("2^%d…2^%d"), run->sweep.min_exp, run->sweep.max_exp);
}

gboolean
ms_plot_run_drawn (const MsResults *run)
{
  return !run->experiment[0];
}

char *
ms_plot_run_label (const MsResults *run)
{
  /* A run's name (the window names every run; the user may rename it, a
   * file may carry one); a file's bare name says nothing, so device, kind,
   * date and the setting that sets it apart stand in for it. */
  if (is_a_name (run->label))
    return g_strdup (run->label);
  const char *name = run->device.name[0] && g_strcmp0 (run->device.name, "none") != 0
                         ? run->device.name
                     : ms_results_device_unknown (run) ? _ ("unknown device")
                                                       : _ ("no GPU");
  /* "NVIDIA H100 80GB HBM3" -> "H100 80GB HBM3": the vendor is implied. */
  if (g_str_has_prefix (name, "NVIDIA "))
    name += 7;
  GString *s = g_string_new (name);
  /* On a host with several GPUs the runs differ by the device. */
  if (run->device.count > 1 || run->device.index > 0)
    g_string_append_printf (s, _ (" · GPU %d"), run->device.index);
  g_string_append_printf (s, " · %s", run_kind (run));
  if (strlen (run->date) >= 16) {
    g_autofree char *date = ms_run_describe_date (run->date);
    g_string_append_printf (s, " · %s", date);
  }
  g_autofree char *differs = differing_setting (run);
  if (differs)
    g_string_append_printf (s, " · %s", differs);
  return g_string_free (s, FALSE);
}

char *
ms_plot_runs_line (GPtrArray *runs)
{
  if (!runs || runs->len == 0)
    return NULL;
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < runs->len; i++) {
    const MsResults *run = g_ptr_array_index (runs, i);
    g_autofree char *label = ms_plot_run_label (run);
    if (i > 0)
      g_string_append (s, C_ ("runs line", "; "));
    g_string_append (s, label);
    /* A name the user gave may not say the machine: the GPU after it. */
    const char *gpu = run->device.name;
    if (g_str_has_prefix (gpu, "NVIDIA "))
      gpu += 7;
    if (is_a_name (run->label) && gpu[0] && g_strcmp0 (gpu, "none") != 0 && !strstr (label, gpu))
      g_string_append_printf (s, C_ ("runs line", " (%s)"), gpu);
  }
  return g_string_free (s, FALSE);
}

char *
ms_plot_series_label (const MsResults *run, MsMode mode, gboolean comparing)
{
  if (!comparing)
    return g_strdup (ms_mode_title (mode));
  g_autofree char *run_label = ms_plot_run_label (run);
  return g_strdup_printf ("%s (%s)", ms_mode_title (mode), run_label);
}

/* The bars: the median's 95% interval where there are enough repetitions
 * for one (ms_median_ci), else min and max. */
static void
bar_ends (const MsStat *t, double *lo, double *hi)
{
  *lo = t->ci_valid ? t->ci_low : t->min;
  *hi = t->ci_valid ? t->ci_high : t->max;
}

/* The phase a copy's rate is of: the copy to the device (h2d) or to the
 * host (d2h); MS_PHASE_COUNT for none (end to end, or a mode without
 * that copy). */
static MsPhase
copy_phase (MsMode mode, MsMetric metric)
{
  if (metric == MS_METRIC_H2D_BANDWIDTH)
    return ms_mode_to_device_phase (mode);
  if (metric == MS_METRIC_D2H_BANDWIDTH)
    return ms_mode_to_host_phase (mode);
  return MS_PHASE_COUNT;
}

static gboolean
mode_has_metric (MsMode mode, MsMetric metric)
{
  return metric == MS_METRIC_E2E_TIME || metric == MS_METRIC_E2E_BANDWIDTH
         || copy_phase (mode, metric) < MS_PHASE_COUNT;
}

/* The two states of the last point added, in the metric's unit (end-to-end
 * times and rates only); 1 when set. */
static int
set_states (MsChartSeries *s, const MsCell *c, MsMetric metric)
{
  MsChartPoint *p = &g_array_index (s->points, MsChartPoint, s->points->len - 1);
  const MsTwoStates *t = &c->stats.states;
  double bytes = 3.0 * ms_vector_bytes (c->elements);
  if (metric == MS_METRIC_E2E_TIME) {
    p->state_lo = t->low_us;
    p->state_hi = t->high_us;
  } else if (metric == MS_METRIC_E2E_BANDWIDTH) {
    p->state_lo = bytes / t->high_us * 1e-3;
    p->state_hi = bytes / t->low_us * 1e-3;
  } else
    return 0;
  return 1;
}

/* End-to-end bars cover another run's median when the run carries a
 * run-to-run profile (ms-run-to-run.c), else the run's own interval. */
static gboolean
metric_value (const MsResults *run, const MsCell *c, MsMetric metric, double *y, double *lo,
              double *hi)
{
  const MsCellStats *st = &c->stats;
  double e2e_lo, e2e_hi;
  if (!ms_run_to_run_interval (&run->run_to_run, c, &e2e_lo, &e2e_hi))
    bar_ends (&st->e2e, &e2e_lo, &e2e_hi);
  if (metric == MS_METRIC_E2E_TIME) {
    *y = st->e2e.median;
    *lo = e2e_lo;
    *hi = e2e_hi;
    return st->e2e.n > 0;
  }
  /* a and b go to the device, c comes back: all three end to end. */
  MsPhase p = copy_phase (c->mode, metric);
  const MsStat *t = metric == MS_METRIC_E2E_BANDWIDTH ? &st->e2e : &st->phase[p];
  double bytes = (metric == MS_METRIC_E2E_BANDWIDTH   ? 3.0
                  : metric == MS_METRIC_H2D_BANDWIDTH ? 2.0
                                                      : 1.0)
                 * ms_vector_bytes (c->elements);
  if (!mode_has_metric (c->mode, metric) || t->n == 0 || !(t->median > 0))
    return FALSE;
  /* GB/s from µs; the slow end of the interval gives the low end. */
  *y = bytes / t->median * 1e-3;
  double fast = e2e_lo, slow = e2e_hi;
  if (t != &st->e2e)
    bar_ends (t, &fast, &slow);
  *lo = slow > 0 ? bytes / slow * 1e-3 : *y;
  *hi = fast > 0 ? bytes / fast * 1e-3 : *y;
  return TRUE;
}

char *
ms_plot_cell_note (const MsResults *run, const MsCell *c)
{
  gboolean fixed = run->sweep.reps_rule == MS_REPS_FIXED;
  int planned = fixed ? run->sweep.reps : run->sweep.min_reps;
  switch (c->status) {
  case MS_CELL_OK:
    return NULL;
  case MS_CELL_CANCELLED:
  case MS_CELL_PARTIAL:
    if (planned > 0 && fixed)
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "cancelled after %d of %d repetition",
                                           "cancelled after %d of %d repetitions", planned),
                              c->n_reps, planned);
    /* An adaptive cell runs at least min_reps, then until its interval is
     * narrow enough. */
    if (planned > 0)
      return g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "cancelled after %d of at least %d repetition",
                       "cancelled after %d of at least %d repetitions", planned),
          c->n_reps, planned);
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "cancelled after %d repetition",
                                         "cancelled after %d repetitions", c->n_reps),
                            c->n_reps);
  case MS_CELL_UNSUPPORTED:
    return g_strdup_printf (_ ("not supported: %s"),
                            c->message[0] ? c->message : _ ("this device cannot run the mode"));
  default:
    return g_strdup_printf (_ ("failed: %s"),
                            c->message[0] ? c->message : ms_cell_status_name (c->status));
  }
}

/* A (run, mode) series: the mode's colour, marker and dash, the run's
 * marker fill, and the run's name as its legend heading when comparing. */
static MsChartSeries *
plot_series (MsChartData *d, const MsResults *run, guint r, MsMode m, gboolean comparing,
             GHashTable *hidden)
{
  g_autofree char *label = ms_plot_series_label (run, m, comparing);
  guint color, shape, dash;
  ms_mode_look (m, &color, &shape, &dash);
  MsChartSeries *s = ms_chart_data_add_series (d, label, color, shape, dash);
  s->run = r;
  s->short_label = g_strdup (ms_mode_title (m));
  s->group = comparing ? ms_plot_run_label (run) : NULL;
  s->hidden = hidden && g_hash_table_contains (hidden, label);
  return s;
}

/* Whether two series of one run lie on one line: values within 1 % at
 * every size, measured at the same sizes (zero-copy and UVA, the pinned
 * modes at large sizes). */
static gboolean
same_line (const MsChartSeries *a, const MsChartSeries *b)
{
  /* A line already named after another is not named after again. */
  return !a->shown_name && a->run == b->run && ms_chart_series_same_values (a, b, 0.01);
}

/* A series whose line lies on an earlier one's says so where it is
 * named, since only the line drawn last shows. */
static void
name_coinciding (MsChartData *d)
{
  for (guint i = 1; i < d->series->len; i++) {
    MsChartSeries *s = g_ptr_array_index (d->series, i);
    const MsChartSeries *other = ms_chart_data_lies_on (d, i, same_line);
    if (!other)
      continue;
    const char *name = s->group && s->short_label ? s->short_label : s->label;
    const char *other_name = other->group && other->short_label ? other->short_label : other->label;
    s->shown_name = g_strdup_printf (_ ("%s (the same values as %s)"), name, other_name);
  }
}

/* The best pinned figure of the metric shown, saying what it is: the
 * lesson cards and the report quote other pinned figures (the copies
 * alone, one large cudaMemcpy), and a bare "best pinned" read as if they
 * disagreed. Lesson runs are left out, as from the curves. */
static void
add_best_pinned (MsChartData *d, GPtrArray *runs, MsMetric metric)
{
  const MsResults *best_run = NULL;
  const MsCell *best_cell = NULL;
  double best = 0;
  for (guint r = 0; runs && r < runs->len; r++) {
    const MsResults *run = g_ptr_array_index (runs, r);
    for (size_t i = 0; ms_plot_run_drawn (run) && i < run->n_cells; i++) {
      const MsCell *c = &run->cells[i];
      double y, lo, hi;
      if (c->mode == MS_MODE_PINNED && c->status == MS_CELL_OK
          && metric_value (run, c, metric, &y, &lo, &hi) && y > best)
        best = y, best_run = run, best_cell = c;
    }
  }
  if (!best_cell)
    return;
  char bytes[32];
  ms_format_bytes (ms_vector_bytes (best_cell->elements), bytes, sizeof bytes);
  /* "4 MiB" stays on one line where a long label wraps. */
  g_auto (GStrv) parts = g_strsplit (bytes, " ", -1);
  g_autofree char *size = g_strjoinv ("\u00a0", parts);
  gboolean several = FALSE;
  for (guint r = 0; r < runs->len; r++)
    several |= g_ptr_array_index (runs, r) != best_run
               && ms_plot_run_drawn (g_ptr_array_index (runs, r));
  /* TRANSLATORS: where the best pinned figure was measured when several
   * runs are drawn: a size per vector and a device ("4 MiB on NVIDIA H200"). */
  g_autofree char *where = several && best_run->device.name[0]
                               ? g_strdup_printf (_ ("%s on %s"), size, best_run->device.name)
                               : g_strdup (size);
  g_autofree char *label = NULL;
  if (metric == MS_METRIC_H2D_BANDWIDTH)
    label = g_strdup_printf (
        _ ("the Pinned mode's best copy to the device: %.1f GB/s (median at %s)"), best, where);
  else if (metric == MS_METRIC_D2H_BANDWIDTH)
    label = g_strdup_printf (
        _ ("the Pinned mode's best copy to the host: %.1f GB/s (median at %s)"), best, where);
  else
    label = g_strdup_printf (_ ("the Pinned mode's best end to end: %.1f GB/s (copies and kernel, "
                                "median at %s)"),
                             best, where);
  /* Measured at one size: the label's leader ends there ("median at 4 MiB"). */
  ms_chart_data_add_ref (d, best, label);
  g_array_index (d->refs, MsChartRefLine, d->refs->len - 1).x
      = (double) ms_vector_bytes (best_cell->elements);
}

/* The host link's theoretical rate per direction, as a reference line. */
static void
add_pcie_line (MsChartData *d, MsMetric metric, int gen, int width)
{
  double pcie = ms_pcie_theoretical_gbps (gen, width);
  if (pcie <= 0)
    return;
  /* End to end counts bytes both ways at once: a rate above one
   * direction's limit is no error, and the line must say so. */
  g_autofree char *label
      = metric == MS_METRIC_H2D_BANDWIDTH || metric == MS_METRIC_D2H_BANDWIDTH
            ? g_strdup_printf (_ ("PCIe gen%d x%d: %.1f GB/s per direction"), gen, width, pcie)
            : g_strdup_printf (_ ("PCIe gen%d x%d: %.1f GB/s per direction (end to end adds both "
                                  "directions and can pass it)"),
                               gen, width, pcie);
  ms_chart_data_add_ref (d, pcie, label);
}

/* Whether a series of mode is drawn, its short label the mode's title;
 * shown_only: one not hidden. */
static gboolean
has_mode (const MsChartData *d, MsMode mode, gboolean shown_only)
{
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (!(shown_only && s->hidden) && g_strcmp0 (s->short_label, ms_mode_title (mode)) == 0)
      return TRUE;
  }
  return FALSE;
}

/* Device only and Host CPU count their bytes as the link's modes do but
 * move none over the link: a rate chart says so, or a class reads 1000
 * GB/s as a link's. */
static void
add_no_link_note (MsChartData *d)
{
  gboolean device = has_mode (d, MS_MODE_DEVICE, FALSE), host = has_mode (d, MS_MODE_HOST, FALSE);
  if (device && host)
    /* TRANSLATORS: %s are the modes' titles, "Device only" and "Host CPU". */
    d->foot_note = g_strdup_printf (_ ("%s and %s move no data over the link: a reference for "
                                       "the GPU's and the CPU's own memory."),
                                    ms_mode_title (MS_MODE_DEVICE), ms_mode_title (MS_MODE_HOST));
  else if (device)
    /* TRANSLATORS: %s is the mode's title, "Device only". */
    d->foot_note = g_strdup_printf (_ ("%s moves no data over the link: a reference for the "
                                       "GPU's own memory."),
                                    ms_mode_title (MS_MODE_DEVICE));
  else if (host)
    /* TRANSLATORS: %s is the mode's title, "Host CPU". */
    d->foot_note = g_strdup_printf (_ ("%s moves no data over the link: a reference for the "
                                       "CPU's own memory."),
                                    ms_mode_title (MS_MODE_HOST));
}

/* A line under the others of the chart's foot note. */
static void
append_foot_note (MsChartData *d, const char *note)
{
  char *joined = d->foot_note ? g_strdup_printf ("%s\n%s", d->foot_note, note) : g_strdup (note);
  g_free (d->foot_note);
  d->foot_note = joined;
}

/* Of two series' shared sizes, how many lie within 3 % of each other:
 * closer than a marker at any projected size. */
static guint
near_points (const MsChartSeries *a, const MsChartSeries *b, guint *shared)
{
  guint near = 0;
  *shared = 0;
  for (guint k = 0; k < a->points->len; k++) {
    const MsChartPoint *p = &g_array_index (a->points, MsChartPoint, k);
    for (guint j = 0; !p->failed && j < b->points->len; j++) {
      const MsChartPoint *q = &g_array_index (b->points, MsChartPoint, j);
      if (q->x != p->x || q->failed)
        continue;
      (*shared)++;
      near += fabs (p->y - q->y) <= 0.03 * MAX (p->y, q->y);
    }
  }
  return near;
}

/* Lines that hide each other at most sizes, though not at every one (those
 * are named at the line, name_coinciding): the foot note says which, or a
 * class reads "UVA" where zero-copy lies beneath it. At most two pairs,
 * and for one run only: several runs' lines lie on each other by design. */
static void
add_hidden_lines_note (MsChartData *d)
{
  GString *note = g_string_new (NULL);
  guint pairs = 0;
  for (guint i = 1; i < d->series->len && pairs < 2; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (s->hidden || s->shown_name || s->group)
      continue;
    for (guint k = 0; k < i && pairs < 2; k++) {
      const MsChartSeries *o = g_ptr_array_index (d->series, k);
      guint shared, near = 0;
      if (o->hidden || o->run != s->run)
        continue;
      near = near_points (o, s, &shared);
      if (shared < 3 || near * 4 < shared * 3)
        continue;
      if (note->len)
        g_string_append (note, " ");
      /* TRANSLATORS: a chart's foot note, e.g. "UVA lies on Zero-copy at 10 of
       * 11 sizes (within 3%): one line hides the other." */
      g_string_append_printf (note,
                              _ ("%s lies on %s at %u of %u sizes (within 3%%): one line "
                                 "hides the other."),
                              s->label, o->label, near, shared);
      pairs++;
      break;
    }
  }
  /* After any note already there (a rate past the link's matters more),
   * on a line of its own: the chart drops the last lines where room is
   * short. */
  if (note->len)
    append_foot_note (d, note->str);
  g_string_free (note, TRUE);
}

/* Where prefetching made managed memory clearly slower (the two medians'
 * intervals apart) at the smallest size, a line says what the prefetch
 * itself took there, or a class reads it as a mistake. One run only. */
static void
add_prefetch_note (MsChartData *d, GPtrArray *runs)
{
  if (!runs || runs->len != 1 || !has_mode (d, MS_MODE_MANAGED, TRUE)
      || !has_mode (d, MS_MODE_MANAGED_PREFETCH, TRUE))
    return;
  const MsResults *run = g_ptr_array_index (runs, 0);
  const MsCell *m = NULL, *p = NULL;
  for (int e = run->sweep.min_exp; e <= run->sweep.max_exp && !(m && p); e++) {
    m = ms_results_find (run, MS_MODE_MANAGED, e);
    p = ms_results_find (run, MS_MODE_MANAGED_PREFETCH, e);
  }
  const MsStat *fetch = p ? &p->stats.phase[MS_PHASE_PREFETCH] : NULL;
  if (!m || !p || m->status != MS_CELL_OK || p->status != MS_CELL_OK || fetch->n <= 0
      || !(p->stats.e2e.ci_low > m->stats.e2e.ci_high))
    return;
  char size[32], took[32], whole[32];
  ms_format_size_label ((double) ms_vector_bytes (p->elements), size, sizeof size);
  ms_caption_time (fetch->median, took, sizeof took);
  ms_caption_time (m->stats.e2e.median, whole, sizeof whole);
  /* TRANSLATORS: a chart's foot note, e.g. "At 4 KiB Managed + prefetch is
   * slower than Managed: its prefetch alone took 78.4 µs, Managed 38.8 µs
   * end to end." */
  g_autofree char *note = g_strdup_printf (
      _ ("At %s %s is slower than %s: its prefetch alone took %s, %s %s end to "
         "end."),
      size, ms_mode_title (MS_MODE_MANAGED_PREFETCH), ms_mode_title (MS_MODE_MANAGED), took,
      ms_mode_title (MS_MODE_MANAGED), whole);
  append_foot_note (d, note);
}

/* Pageable copies go through the CPU, so their figure depends on the
 * state the host left the inputs in: the chart names the one memsweep
 * measures, or a reader compares it with a loop that resends unchanged
 * buffers (the cache-state lesson shows both). */
static void
add_pageable_note (MsChartData *d)
{
  if (!has_mode (d, MS_MODE_PAGEABLE, FALSE))
    return;
  /* TRANSLATORS: a chart's foot note; %s is the mode's title, "Pageable". */
  g_autofree char *note = g_strdup_printf (
      _ ("%s: a and b rewritten before every repetition; unchanged buffers may copy faster "
         "(cache-state lesson)."),
      ms_mode_title (MS_MODE_PAGEABLE));
  append_foot_note (d, note);
}

/* Under a chart that draws two-state cells: what the wide ticks are. */
static void
add_two_states_note (MsChartData *d, int cells)
{
  if (cells == 0)
    return;
  /* TRANSLATORS: a chart's foot note. */
  g_autofree char *note = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "Wide ticks: %d cell in two states, the median between them.",
                   "Wide ticks: %d cells in two states, the median between them.", cells),
      cells);
  append_foot_note (d, note);
}

/* One run's series, a point per cell; returns how many cells were drawn
 * with two states. */
static int
add_run_series (MsChartData *d, const MsResults *run, guint r, MsMetric metric,
                gboolean comparing, GHashTable *hidden)
{
  int two_states = 0;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    if (!mode_has_metric (m, metric))
      continue;
    MsChartSeries *s = NULL;
    for (size_t i = 0; i < run->n_cells; i++) {
      const MsCell *c = &run->cells[i];
      if ((int)c->mode != m)
        continue;
      if (!s)
        s = plot_series (d, run, r, m, comparing, hidden);
      double y = 0, lo = 1, hi = 0;
      gboolean usable = c->status == MS_CELL_OK || (c->status == MS_CELL_PARTIAL && c->n_reps);
      gboolean ok = usable && metric_value (run, c, metric, &y, &lo, &hi);
      ms_chart_series_add (s, (double) ms_vector_bytes (c->elements), y, lo, hi, !ok);
      /* One run's two-state cells are drawn as such; with several the
       * ticks would bury the lines. */
      if (ok && c->stats.states.found && !comparing)
        two_states += set_states (s, c, metric);
      if (c->status != MS_CELL_OK) {
        g_autofree char *note = ms_plot_cell_note (run, c);
        ms_chart_series_note_last (s, ok, note);
      }
    }
    /* In size order whatever order the cells came in. */
    ms_chart_series_sort (s);
  }
  return two_states;
}

MsChartData *
ms_plot_build (GPtrArray *runs, MsMetric metric, gboolean log_y, GHashTable *hidden)
{
  MsChartData *d = ms_chart_data_new ();
  gboolean comparing = runs && runs->len > 1;
  gboolean time = metric == MS_METRIC_E2E_TIME;
  static const char *titles[] = {
    [MS_METRIC_E2E_BANDWIDTH] = N_ ("End-to-end bandwidth: bytes moved (a and b in, c out: "
                                    "3 × 4 bytes per element) / time to the result on the host"),
    [MS_METRIC_H2D_BANDWIDTH] = N_ ("Host to device copy bandwidth (a and b: 2 × 4 bytes per "
                                    "element)"),
    [MS_METRIC_D2H_BANDWIDTH] = N_ ("Device to host copy bandwidth (c: 4 bytes per element)"),
    /* xgettext: no-c-format */
    [MS_METRIC_E2E_TIME] = N_ ("End-to-end time, median with its 95% interval"),
  };
  gboolean any_rr = FALSE;
  for (guint r = 0; runs && r < runs->len; r++)
    any_rr = any_rr || ((const MsResults *)g_ptr_array_index (runs, r))->run_to_run.valid;
  /* With a run-to-run profile the bars say where another run would land. */
  if (time && any_rr)
    /* xgettext: no-c-format */
    d->title = g_strdup (_ ("End-to-end time, median with its 95% interval for another run "
                            "(memsweep calibrate)"));
  else
    d->title = g_strdup (_ (titles[metric]));
  d->x_label = g_strdup (_ ("size per vector (log₂)"));
  /* Times carry their unit (µs, ms, s) on every tick. */
  /* GB/s are decimal (10⁹ bytes a second) while the sizes are binary
   * (KiB, MiB): the rate's axis says so, or 4 MiB / 1 ms reads as 4 GB/s. */
  /* A log axis gets "(log scale)" from the chart itself. */
  d->y_label = g_strdup (time ? _ ("time") : _ ("GB/s = 10⁹ B/s"));
  d->unit = g_strdup (time ? NULL : "GB/s");
  d->y_unit = time ? MS_SCALE_TIME_US : MS_SCALE_PLAIN;
  d->y_kind = log_y ? MS_SCALE_LOG10 : MS_SCALE_LINEAR;
  d->empty_text
      = g_strdup (_ ("No results yet: run a sweep, or open a CSV file or a reference run"));

  int pcie_gen = 0, pcie_width = 0, two_states = 0;
  guint lessons = 0;
  for (guint r = 0; runs && r < runs->len; r++) {
    const MsResults *run = g_ptr_array_index (runs, r);
    /* On a size axis a lesson's cells would read as a curve. */
    if (!ms_plot_run_drawn (run)) {
      lessons++;
      continue;
    }
    if (!pcie_gen && run->device.pcie_gen_max > 0) {
      pcie_gen = run->device.pcie_gen_max;
      pcie_width = run->device.pcie_width_max;
    } else if (!pcie_gen && run->device.pcie_gen > 0) {
      pcie_gen = run->device.pcie_gen;
      pcie_width = run->device.pcie_width;
    }
    two_states += add_run_series (d, run, r, metric, comparing, hidden);
  }
  /* Every run open is a lesson: the chart says where they are shown. */
  if (lessons && lessons == runs->len) {
    g_free (d->empty_text);
    d->empty_text = g_strdup (_ ("The runs open are lessons: the Lessons page shows each on its "
                                 "card, the Table shows their cells. Run a sweep or open one to "
                                 "see curves here."));
  }
  name_coinciding (d);
  if (!time) {
    add_pcie_line (d, metric, pcie_gen, pcie_width);
    add_best_pinned (d, runs, metric);
    add_no_link_note (d);
  }
  add_hidden_lines_note (d);
  add_prefetch_note (d, runs);
  add_pageable_note (d);
  add_two_states_note (d, two_states);
  return d;
}

/* Whether a series (its short label is its mode's title) is one of the
 * modes in list. */
static gboolean
series_in_modes (const MsChartSeries *s, const char *list)
{
  g_auto (GStrv) names = g_strsplit (list, ",", -1);
  for (guint i = 0; names[i]; i++) {
    MsMode mode;
    if (ms_mode_from_name (g_strstrip (names[i]), &mode)
        && g_strcmp0 (s->short_label, ms_mode_title (mode)) == 0)
      return TRUE;
  }
  return FALSE;
}

void
ms_plot_keep_modes (MsChartData *data, const char *modes, gboolean runs_open)
{
  if (!modes || !modes[0])
    return;
  MsChartData *dropped = ms_chart_data_new ();
  for (guint i = data->series->len; i-- > 0;) {
    MsChartSeries *s = g_ptr_array_index (data->series, i);
    if (!series_in_modes (s, modes))
      g_ptr_array_add (dropped->series, g_ptr_array_steal_index (data->series, i));
  }
  ms_chart_data_free (dropped);
  /* The note names only the references still drawn. */
  if (data->foot_note) {
    g_clear_pointer (&data->foot_note, g_free);
    add_no_link_note (data);
  }
  /* Runs are open: "no results yet" would be wrong, the filter hides them. */
  if (data->series->len == 0 && runs_open) {
    g_free (data->empty_text);
    data->empty_text = g_strdup (_ ("None of the open runs has the modes this chart is limited "
                                    "to: Show All draws every mode"));
  }
}
