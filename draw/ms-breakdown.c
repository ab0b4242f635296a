/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown.c: stacked phase bars per (run, mode) at one size, in steps:
 * rows, title, panels (the per-repetition path, and the one-time costs when
 * asked for) each with its time axis and bars, legend. */
#include "ms-breakdown.h"

#include "ms-engine.h"
#include "ms-plots.h"

#include <glib/gi18n.h>

/* The order phases are drawn in, left to right, in each group. */
static const MsPhase path_phases[] = { MS_PHASE_PREFETCH, MS_PHASE_H2D, MS_PHASE_LAUNCH,
                                       MS_PHASE_KERNEL, MS_PHASE_D2H };
static const MsPhase one_time_phases[] = { MS_PHASE_ALLOC,  MS_PHASE_INIT,       MS_PHASE_REGISTER,
                                           MS_PHASE_VERIFY, MS_PHASE_UNREGISTER, MS_PHASE_FREE };

gboolean
ms_breakdown_phase_is_one_time (MsPhase phase)
{
  /* Registration is timed outside the end-to-end window (docs/measuring.md: what
   * end-to-end covers); a program registers a buffer once and reuses it. */
  for (guint i = 0; i < G_N_ELEMENTS (one_time_phases); i++)
    if (one_time_phases[i] == phase)
      return TRUE;
  return FALSE;
}

static gboolean
cell_has_phase (const MsCell *c, MsPhase p)
{
  return c->status == MS_CELL_OK && c->stats.phase[p].n > 0;
}

gboolean
ms_breakdown_path (const MsCell *c, MsBreakdownPath *out)
{
  memset (out, 0, sizeof *out);
  out->scale = 1;
  if (c->status != MS_CELL_OK || c->stats.e2e.n <= 0)
    return FALSE;
  double sum = 0;
  for (guint i = 0; i < G_N_ELEMENTS (path_phases); i++)
    if (cell_has_phase (c, path_phases[i]))
      sum += out->phase[path_phases[i]] = c->stats.phase[path_phases[i]].median;
  /* The rule is ms-breakdown.h's: a remainder, or phases scaled down. */
  out->total = c->stats.e2e.median;
  if (sum > out->total && sum > 0) {
    out->scale = out->total / sum;
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      out->phase[p] *= out->scale;
  } else {
    out->rest = out->total - sum;
  }
  return TRUE;
}

typedef struct {
  GPtrArray *cells;   /* const MsCell*, one per row; NULL: a run's heading */
  GPtrArray *labels;  /* char*, one per row */
  GPtrArray *notes;   /* char*, one per row: why a cell has no bar, or NULL */
  double max_path;    /* µs, the longest per-repetition path */
  double max_once;    /* µs, the longest one-time group */
  gboolean scaled;    /* some row's phases overlapped and were scaled */
  double label_w;
} MsBreakdownRows;

/* Every (run, mode) with a cell at this size, its label measured; with
 * several runs, each run's name on a row of its own before its modes. */
static void
breakdown_rows (cairo_t *cr, GPtrArray *runs, int exponent, double fs, MsBreakdownRows *rows)
{
  *rows = (MsBreakdownRows){ g_ptr_array_new (), g_ptr_array_new_with_free_func (g_free),
                             g_ptr_array_new_with_free_func (g_free) };
  for (guint r = 0; runs && r < runs->len; r++) {
    const MsResults *res = g_ptr_array_index (runs, r);
    gboolean heading = runs->len > 1;
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      const MsCell *c = ms_results_find (res, m, exponent);
      if (!c)
        continue;
      if (heading) {
        g_ptr_array_add (rows->cells, NULL);
        g_ptr_array_add (rows->labels, g_strdup (res->label));
        g_ptr_array_add (rows->notes, NULL);
        heading = FALSE;
      }
      MsBreakdownPath path;
      if (ms_breakdown_path (c, &path)) {
        rows->max_path = MAX (rows->max_path, path.total);
        rows->scaled = rows->scaled || path.scale < 1;
      }
      /* The one-time costs: the medians of its one-time phases. */
      double once = 0;
      for (guint i = 0; i < G_N_ELEMENTS (one_time_phases); i++)
        if (cell_has_phase (c, one_time_phases[i]))
          once += c->stats.phase[one_time_phases[i]].median;
      rows->max_once = MAX (rows->max_once, once);
      char *label = g_strdup (ms_mode_title (m));
      rows->label_w = MAX (rows->label_w, ms_draw_text_width (cr, label, fs, FALSE));
      g_ptr_array_add (rows->cells, (gpointer) c);
      g_ptr_array_add (rows->labels, label);
      g_ptr_array_add (rows->notes, ms_plot_cell_note (res, c));
    }
  }
}

/* A group of phases with its own time axis: the per-repetition path or
 * the one-time costs. */
typedef struct {
  gboolean one_time;
  MsScale xs;
} MsBreakdownPanel;

static void
draw_segment (cairo_t *cr, const MsChartStyle *st, const char *name, const MsColor *col,
              gboolean dark_text, double x, double w, double y, double row_h, double fs)
{
  double tw;
  ms_set_color (cr, col, 1);
  cairo_rectangle (cr, x, y + row_h * 0.15, MAX (w, 0.5), row_h * 0.7);
  cairo_fill (cr);
  ms_draw_text (cr, name, 0, 0, fs * 0.85, -1, 0, FALSE, &tw, NULL);
  if (w > tw + fs * 0.5) {
    if (dark_text)
      cairo_set_source_rgb (cr, 0, 0, 0);
    else
      ms_set_color (cr, &st->fg, 0.9);
    ms_draw_text (cr, name, x + w / 2, y + row_h / 2, fs * 0.85, 0.5, 0.5, FALSE, NULL, NULL);
  }
}

/* The figure after a row's path: its end-to-end median, and where the
 * phases' medians added up to more, that sum and the factor the bars were
 * drawn at, so that a shrunk bar is never read as the phase's median. */
static char *
path_total_label (const MsBreakdownPath *path)
{
  char total[32], sum[32];
  ms_format_time_us (path->total, total, sizeof total);
  /* Under half a per cent the shrink cannot be seen, and its factor
   * printed "×1.00", which read as a contradiction. */
  if (!(path->scale < MS_BREAKDOWN_SAID_SCALE))
    return g_strdup (total);
  ms_format_time_us (path->total / path->scale, sum, sizeof sum);
  /* TRANSLATORS: after a breakdown row whose phases' medians add up to
   * more than its end-to-end median: that median, the phases' sum and the
   * factor its bars were shrunk by, e.g. "2.21 ms · phases 2.37 ms, drawn
   * at ×0.93". */
  return g_strdup_printf (C_ ("breakdown", "%s · phases %s, drawn at ×%.2f"), total, sum,
                          path->scale);
}

/* The widest figure after a row's path. */
static double
path_total_width (cairo_t *cr, const MsBreakdownRows *rows, double fs)
{
  double widest = 0;
  for (guint i = 0; i < rows->cells->len; i++) {
    const MsCell *c = g_ptr_array_index (rows->cells, i);
    MsBreakdownPath path;
    if (!c || !ms_breakdown_path (c, &path))
      continue;
    g_autofree char *t = path_total_label (&path);
    widest = MAX (widest, ms_draw_text_width (cr, t, fs * 0.9, FALSE));
  }
  return widest;
}

/* One row's segments in a panel, named where they are wide enough, and
 * the total after them; marks the phases drawn in seen, and *rest_seen. */
static void
breakdown_bar (cairo_t *cr, const MsCell *c, const MsChartStyle *st, const MsBreakdownPanel *pn,
               double y, double row_h, double fs, gboolean seen[MS_PHASE_COUNT],
               gboolean *rest_seen)
{
  MsBreakdownPath path;
  double value[MS_PHASE_COUNT] = { 0 }, x = pn->xs.pixel_lo, total = 0;
  if (!pn->one_time && !ms_breakdown_path (c, &path))
    return;
  const MsPhase *order = pn->one_time ? one_time_phases : path_phases;
  guint n = pn->one_time ? G_N_ELEMENTS (one_time_phases) : G_N_ELEMENTS (path_phases);
  for (guint i = 0; i < n; i++) {
    MsPhase p = order[i];
    if (!cell_has_phase (c, p))
      continue;
    value[p] = pn->one_time ? c->stats.phase[p].median : path.phase[p];
    double w = ms_scale_to_pixel (&pn->xs, total + value[p]) - ms_scale_to_pixel (&pn->xs, total);
    MsColor col;
    ms_phase_color (p, st->dark, &col);
    /* Host CPU adds on the host: no kernel runs there. */
    const char *name = !ms_mode_uses_gpu (c->mode) && p == MS_PHASE_KERNEL
                         ? C_ ("breakdown segment", "CPU add")
                         : ms_phase_name (p);
    draw_segment (cr, st, name, &col, TRUE, x, w, y, row_h, fs);
    seen[p] = TRUE;
    x += w;
    total += value[p];
  }
  if (!pn->one_time && path.rest > 0) {
    double w = ms_scale_to_pixel (&pn->xs, total + path.rest) - ms_scale_to_pixel (&pn->xs, total);
    MsColor rest = st->fg;
    rest.alpha *= 0.3;
    /* TRANSLATORS: the part of the end-to-end time that no phase covers. */
    draw_segment (cr, st, C_ ("breakdown", "rest"), &rest, FALSE, x, w, y, row_h, fs);
    *rest_seen = TRUE;
    x += w;
    total += path.rest;
  }
  g_autofree char *t = pn->one_time ? NULL : path_total_label (&path);
  char once[32];
  if (pn->one_time)
    ms_format_time_us (total, once, sizeof once);
  ms_set_color (cr, &st->fg, 0.8);
  ms_draw_text (cr, t ? t : once, x + fs * 0.4, y + row_h / 2, fs * 0.9, 0, 0.5, FALSE, NULL,
                NULL);
}

/* Under the phase swatches: what the grey "rest" is and, when some row's
 * phases overlapped, that they were scaled. Returns the height. */
static double
rest_legend (cairo_t *cr, const MsChartStyle *st, gboolean scaled, const char *kernel_note,
             double x, double y, double max_w, gboolean draw)
{
  const double fs = ms_style_font_size (st);
  const char *text =
    scaled ? _("Grey: the rest of the end-to-end time (synchronisation and gaps between "
               "calls). A row whose phase medians add up to more than its end-to-end median "
               "(phases that overlap, medians of different repetitions) is drawn shrunk by the "
               "factor after it.")
           : _("Grey: the rest of the end-to-end time (synchronisation and gaps between "
               "calls).");
  if (draw) {
    ms_set_color (cr, &st->fg, 0.3);
    cairo_rectangle (cr, x, y + fs * 0.2, fs, fs);
    cairo_fill (cr);
    ms_set_color (cr, &st->fg, 0.9);
  }
  /* The phases' short names spelled out once, for a class new to them. */
  g_autofree char *said =
    g_strconcat (text, " ", _("h2d = copy host to device, d2h = copy device to host."),
                 kernel_note ? " " : NULL, kernel_note, NULL);
  return ms_draw_text_wrapped (cr, said, x + fs * 1.3, y, fs, max_w - fs * 1.3, FALSE, draw);
}

/* Modes whose kernel bar holds the data's trip over the link: said, so
 * that a long "kernel" does not read as a slow kernel. NULL: none drawn. */
static char *
kernel_note (const MsBreakdownRows *rows)
{
  gboolean mapped = FALSE, managed = FALSE;
  for (guint i = 0; i < rows->cells->len; i++) {
    const MsCell *c = g_ptr_array_index (rows->cells, i);
    if (!c || c->status != MS_CELL_OK)
      continue;
    /* Its record says where the kernel finds the data, and a mode with a
     * phase that moves it (prefetch) has it on the device before. */
    if (ms_mode_to_device_phase (c->mode) != MS_PHASE_COUNT)
      continue;
    mapped = mapped || ms_mode_memory (c->mode) == MS_MEMORY_MAPPED;
    managed = managed || ms_mode_memory (c->mode) == MS_MEMORY_MANAGED;
  }
  const char *m = _("Zero-copy, UVA: the kernel reads and writes host memory over the link, so "
                    "its bar holds the copies.");
  const char *g = _("Managed: pages move to the GPU while the kernel runs, inside its bar.");
  if (mapped && managed)
    return g_strconcat (m, " ", g, NULL);
  return mapped ? g_strdup (m) : managed ? g_strdup (g) : NULL;
}

/* Each panel's heading over its axis range. */
static void
panel_headings (cairo_t *cr, const MsBreakdownPanel *pn, guint n, const MsChartStyle *st,
                double y, double fs)
{
  for (guint i = 0; i < n; i++) {
    const char *text = pn[i].one_time ? _("One-time costs (outside end-to-end)")
                                      : _("Every repetition (adds up to end-to-end)");
    ms_set_color (cr, &st->fg, 0.9);
    ms_draw_text_max (cr, text, pn[i].xs.pixel_lo, y, fs, pn[i].xs.pixel_hi - pn[i].xs.pixel_lo);
  }
}

/* The least row text, a fraction of the chart's: below it a projected
 * class cannot read the rows (4 runs' 44 rows at 1024x768 drew 5 px text). */
#define MS_BREAKDOWN_LEGIBLE 0.75

/* The plot under the title at top: headings, axes, labelled rows, legend;
 * rows share the height left so that the plot fills the drawing. Returns
 * the height at which its rows' text stays legible. */
static double
breakdown_plot (cairo_t *cr, const MsBreakdownRows *rows, gboolean one_time,
                const MsChartStyle *st, double width, double height, double top)
{
  const double fs = ms_style_font_size (st);
  double tw, th;
  /* Room right of each panel for its longest total ("888.8 ms"). */
  ms_draw_text (cr, "888.8 ms", 0, 0, fs, -1, 0, FALSE, &tw, &th);
  double right = tw + fs, path_right = MAX (right, path_total_width (cr, rows, fs) + fs);
  gboolean present[MS_PHASE_COUNT] = { FALSE };
  for (guint i = 0; i < rows->cells->len; i++) {
    const MsCell *c = g_ptr_array_index (rows->cells, i);
    for (int p = 0; c && p < MS_PHASE_COUNT; p++)
      present[p] = present[p] ||
                   (cell_has_phase (c, p) && (one_time || !ms_breakdown_phase_is_one_time (p)));
  }
  g_autofree char *note = kernel_note (rows);
  double legend_h = ms_draw_phase_legend (cr, present, st, fs, 0, width - fs, FALSE) + fs * 0.3 +
                    rest_legend (cr, st, rows->scaled, note, fs, 0, width - 2 * fs, FALSE) +
                    fs * 0.5;
  double heading_h = one_time ? th * 1.3 : 0, axis_h = th + fs;
  double row_h =
    MIN (fs * 6, (height - top - heading_h - legend_h - axis_h) / rows->cells->len);
  /* The row height that shrinks the text to MS_BREAKDOWN_LEGIBLE (below). */
  double legible_h = top + heading_h + legend_h + axis_h +
                     rows->cells->len * th * MS_BREAKDOWN_LEGIBLE / 0.9 + fs;
  /* Many rows in little height: the row text shrinks to the row. */
  double rfs = th > row_h * 0.95 ? fs * row_h * 0.9 / th : fs;
  double left = rows->label_w * rfs / fs + fs * 1.5;
  double avail = MAX (20, width - left - path_right - (one_time ? right : 0));
  MsBreakdownPanel pn[2] = { { FALSE }, { TRUE } };
  guint n_panels = one_time ? 2 : 1;
  for (guint k = 0; k < n_panels; k++) {
    double pw = avail / n_panels;
    ms_scale_fit (&pn[k].xs, MS_SCALE_LINEAR, 0, k ? rows->max_once : rows->max_path);
    pn[k].xs.pixel_lo = left + k * (pw + path_right);
    pn[k].xs.pixel_hi = pn[k].xs.pixel_lo + pw;
  }
  if (one_time)
    panel_headings (cr, pn, n_panels, st, top, fs);
  top += heading_h;
  double plot_bottom = top + row_h * rows->cells->len;
  for (guint k = 0; k < n_panels; k++)
    ms_draw_time_axis (cr, st, &pn[k].xs, top, plot_bottom, fs * 6,
                       k + 1 < n_panels ? pn[k + 1].xs.pixel_lo - fs : width - fs * 0.3);

  gboolean seen[MS_PHASE_COUNT] = { FALSE }, rest_seen = FALSE;
  for (guint i = 0; i < rows->cells->len; i++) {
    const MsCell *c = g_ptr_array_index (rows->cells, i);
    double y = top + i * row_h;
    ms_set_color (cr, &st->fg, 0.9);
    if (!c) {
      ms_draw_text (cr, g_ptr_array_index (rows->labels, i), fs, y + row_h / 2, rfs, 0, 0.5, TRUE,
                    NULL, NULL);
      continue;
    }
    ms_draw_text (cr, g_ptr_array_index (rows->labels, i), left - fs * 0.5, y + row_h / 2, rfs, 1,
                  0.5, FALSE, NULL, NULL);
    if (c->status == MS_CELL_OK) {
      for (guint k = 0; k < n_panels; k++)
        breakdown_bar (cr, c, st, &pn[k], y, row_h, rfs, seen, &rest_seen);
    } else {
      ms_set_color (cr, &st->fg, MS_TEXT_FAINT_ALPHA);
      ms_draw_text_max (cr, g_ptr_array_index (rows->notes, i), left + fs * 0.3,
                        y + row_h / 2 - th * rfs / fs / 2, rfs, width - left - fs * 0.6);
    }
  }
  double ly = plot_bottom + axis_h + fs * 0.2;
  ly += ms_draw_phase_legend (cr, seen, st, fs, ly, width - fs, TRUE) + fs * 0.3;
  if (rest_seen || rows->scaled || note)
    rest_legend (cr, st, rows->scaled, note, fs, ly, width - 2 * fs, TRUE);
  return legible_h;
}

double
ms_breakdown_draw_full (cairo_t *cr, GPtrArray *runs, int exponent, gboolean one_time,
                        const MsChartStyle *st, double width, double height)
{
  double legible_h = 0;
  const double fs = ms_style_font_size (st);
  double th;
  cairo_save (cr);
  ms_draw_background (cr, st);
  MsBreakdownRows rows;
  breakdown_rows (cr, runs, exponent, fs, &rows);

  char size[32], title[256];
  ms_format_bytes (ms_exponent_bytes (exponent), size, sizeof size);
  g_snprintf (title, sizeof title,
              _("Where one repetition's time goes at 2^%d (%s per vector): phase medians adding "
                "up to the median end-to-end time"),
              exponent, size);
  ms_set_color (cr, &st->fg, 1);
  th = ms_draw_text_wrapped (cr, title, fs, fs * 0.5, fs * 1.15, width - 2 * fs, TRUE, TRUE);
  double top = fs * 0.5 + th + fs;
  if (rows.cells->len == 0 || rows.max_path <= 0) {
    ms_set_color (cr, &st->fg, MS_TEXT_FAINT_ALPHA);
    ms_draw_text (cr, _("No measurements at this size"), width / 2, height / 2, fs * 1.2, 0.5, 0.5,
                  FALSE, NULL, NULL);
  } else {
    legible_h = breakdown_plot (cr, &rows, one_time, st, width, height, top);
  }
  g_ptr_array_unref (rows.cells);
  g_ptr_array_unref (rows.labels);
  g_ptr_array_unref (rows.notes);
  cairo_restore (cr);
  return legible_h;
}
