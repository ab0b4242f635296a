/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reuse-chart.c: bandwidth or time against R for the data reuse lesson.
 * The size chart's x axis is in bytes, so this one lays out its own R axis
 * and draws with the shared steps of ms-draw.c. */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-lessons.h"
#include "ms-palette.h"
#include "ms-reuse-chart.h"

static gboolean
reuse_of (const MsCell *c, int *reuse, char *access, gsize len)
{
  access[0] = '\0';
  if (!ms_variant_get_int (c->variant, "R", reuse) || *reuse < 1)
    return FALSE;
  ms_variant_get (c->variant, "access", access, len);
  return TRUE;
}

int
ms_reuse_default_exponent (const MsResults *run)
{
  int best = -1, reuse;
  char access[16];
  for (gsize i = 0; run && i < run->n_cells; i++)
    if (reuse_of (&run->cells[i], &reuse, access, sizeof access) && run->cells[i].exponent > best)
      best = run->cells[i].exponent;
  return best;
}

/* Each named with what it does in a few words: the legend is read
 * without the caption; brief, the name alone, for a small chart's legend. */
static char *
series_label (MsMode mode, const char *access, gboolean brief)
{
  const char *title = ms_mode_title (mode);
  if (g_str_equal (access, "read"))
    /* TRANSLATORS: a memory mode whose kernel only reads host memory. */
    return g_strdup_printf (brief ? _("%s, reads only") : _("%s, reads only (c copied back)"),
                            title);
  if (g_str_equal (access, "write"))
    return g_strdup_printf (brief ? _("%s, writes only")
                                  : _("%s, writes only (a, b made on the GPU; R kernels write c)"),
                            title);
  if (g_str_equal (access, "write-in-kernel"))
    return g_strdup_printf (brief ? _("%s, writes only, one kernel")
                                  : _("%s, writes only (one kernel stores each element R times)"),
                            title);
  return g_strdup (title);
}

static void
add_point (MsChartData *d, MsChartSeries *s, const MsCell *c, int reuse, MsReuseMetric metric)
{
  const MsStat *e2e = &c->stats.e2e;
  gboolean ok = (c->status == MS_CELL_OK || c->status == MS_CELL_PARTIAL) && e2e->median > 0;
  if (!ok) {
    ms_chart_series_add (s, reuse, 0, 1, 0, TRUE);
    return;
  }
  /* The median's 95% interval, or below 6 repetitions every repetition
   * (min..max), as the legend then says: without them "a loss counts only
   * beyond the spread" was a rule the chart did not let a class check. */
  d->range_bars = d->range_bars || !e2e->ci_valid;
  if (metric == MS_REUSE_TIME) {
    ms_chart_series_add (s, reuse, e2e->median, e2e->ci_low, e2e->ci_high, FALSE);
    return;
  }
  double bytes = 3.0 * ms_vector_bytes (c->elements);
  double lo = e2e->ci_high > 0 ? bytes / e2e->ci_high * 1e-3 : 1;
  double hi = e2e->ci_low > 0 ? bytes / e2e->ci_low * 1e-3 : 0;
  ms_chart_series_add (s, reuse, c->stats.e2e_gbps, lo, hi, FALSE);
}

/* Whether two series have the same values (within 3 %) at every R: UVA
 * is zero-copy by another name, and its line lies exactly on zero-copy's. */
static gboolean
same_values (const MsChartSeries *a, const MsChartSeries *b)
{
  return ms_chart_series_same_values (a, b, 0.03);
}

/* A series with an earlier one's values is not drawn: the earlier one's
 * name says both ("Zero-copy (UVA: the same values)"), so that a class
 * reads one line, not two lines nudged apart. */
static void
fold_coinciding (MsChartData *d)
{
  for (guint i = d->series->len; i-- > 1;) {
    MsChartSeries *other = ms_chart_data_lies_on (d, i, same_values);
    if (!other)
      continue;
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    /* TRANSLATORS: a series in the reuse chart that stands for another
     * with the same values, not drawn, e.g. "Zero-copy and UVA (measured
     * the same: one line)". */
    char *label
        = g_strdup_printf (_ ("%s and %s (measured the same: one line)"), other->label,
                           s->short_label);
    g_free (other->label);
    other->label = label;
    label = g_strdup_printf (C_ ("line on another", "%s (= %s)"), other->short_label,
                             s->short_label);
    g_free (other->short_label);
    other->short_label = label;
    ms_chart_data_remove_series (d, i);
  }
}

/* What the compared lines are, in two plain lines (UVA at length is the
 * details'), and their times at the smallest R and at the headline's
 * (ms_lesson_reuse_crossover): with R = 1's alone, the crossing was read
 * off a log axis. The pair, once folded, are the lines not muted. */
static char *
pair_caption (MsChartData *d, const MsResults *run, int exponent)
{
  const MsChartSeries *pair[2] = { NULL, NULL };
  for (guint i = 0, k = 0; i < d->series->len && k < 2; i++)
    if (!((const MsChartSeries *) g_ptr_array_index (d->series, i))->muted)
      pair[k++] = g_ptr_array_index (d->series, i);
  if (!pair[1])
    return NULL;
  int cross = 0, largest;
  ms_lesson_reuse_crossover (run, exponent, &cross, &largest);
  for (int k = 0; k < 2; k++)
    for (guint i = 0; i < pair[k]->points->len; i++) {
      const MsChartPoint *p = &g_array_index (pair[k]->points, MsChartPoint, i);
      char t[32];
      if (p->failed || (i > 0 && p->x != cross))
        continue;
      ms_format_time_us (p->y, t, sizeof t);
      ms_chart_data_add_callout (d, p->x * exp2 (pair[k]->x_nudge), p->y, t);
    }
  /* TRANSLATORS: the reuse slide's two lines over its plot. */
  GString *text = g_string_new (_ ("Pinned: copied to the GPU and back over the link (the "
                                   "CPU–GPU connection). Zero-copy: the kernel reads and writes "
                                   "pinned host memory over the link."));
  if (strstr (pair[1]->label, ms_mode_title (MS_MODE_UVA)))
    /* How it differs from zero-copy, which the legend says it measured alike. */
    g_string_append_printf (text, " %s",
                            _ ("UVA (unified virtual addressing): the same memory, the kernel "
                               "given the host's own pointer, not a GPU one."));
  return g_string_free (text, FALSE);
}

/* The largest rate at which a writes-only series put R × c on the link,
 * had every store crossed: the chart's rates count a, b and c, a third of
 * them stored R times, so the link saw y × R / 3. */
static const MsChartPoint *
fastest_on_link (const MsChartSeries *writes, double *on_link)
{
  const MsChartPoint *best = NULL;
  *on_link = 0;
  for (guint k = 0; writes && k < writes->points->len; k++) {
    const MsChartPoint *p = &g_array_index (writes->points, MsChartPoint, k);
    if (!p->failed && p->y * p->x / 3 > *on_link) {
      best = p;
      *on_link = p->y * p->x / 3;
    }
  }
  return best;
}

/* The sentence for writes only (R = 1), whose rate passes the link line
 * by counting: it sends c alone, a third of the bytes counted; NULL
 * without that point. */
static char *
counting_sentence (const MsChartSeries *writes)
{
  for (guint k = 0; writes && k < writes->points->len; k++) {
    const MsChartPoint *p = &g_array_index (writes->points, MsChartPoint, k);
    if (!p->failed && p->x == 1)
      /* TRANSLATORS: a caption line of the data reuse chart; the figures
       * are GB/s, as counted and on the host link. */
      return g_strdup_printf (_("Rates count a, b and c: writes only (R = 1) sends c alone, so "
                                "its %.0f GB/s is %.0f on the link"),
                              p->y, p->y / 3);
  }
  return NULL;
}

/* The bandwidth form's caption: its rates count a, b and c once whatever
 * crossed the link. Each reason a rate passes the link line is given with
 * its figures: writes only at R = 1 counts bytes that never crossed, and a
 * writes-only series whose stores, had they all crossed, would pass the
 * link's rate had them merged on the way. */
static char *
reuse_caption (const MsChartSeries *const *writes, double link)
{
  GString *caption = g_string_new (NULL);
  g_autofree char *counting = counting_sentence (writes[0]);
  if (counting)
    g_string_append (caption, counting);
  for (int i = 0; i < 2; i++) {
    double on_link;
    const MsChartPoint *p = fastest_on_link (writes[i], &on_link);
    if (!p || !(link > 0) || on_link <= link)
      continue;
    if (caption->len)
      g_string_append (caption, ". ");
    /* TRANSLATORS: a caption line of the data reuse chart; a series name,
     * then R, then GB/s: R × c over the time, and the link's. */
    g_string_append_printf (caption,
                            _("%s at R = %.0f stores %.0f × c, %.0f GB/s if all of it "
                              "crossed: above the link's %.0f, so stores were merged before "
                              "they crossed"),
                            writes[i]->short_label, p->x, p->x, on_link, link);
    break;
  }
  if (!caption->len)
    g_string_append (caption,
                     _("Rates count a, b and c (3 × 4 bytes per element), not the link's "
                       "traffic"));
  return g_string_free (caption, FALSE);
}

MsChartData *
ms_reuse_chart_build (const MsResults *run, int exponent, MsReuseMetric metric)
{
  static const char *accesses[] = { "", "read", "write", "write-in-kernel" };
  MsChartData *d = ms_chart_data_new ();
  /* Log: managed memory's 11 ms must not flatten zero-copy's 0.7 ms
   * against pinned's 1 ms at R = 1, the lesson's point. */
  d->y_kind = MS_SCALE_LOG10;
  d->y_unit = metric == MS_REUSE_TIME ? MS_SCALE_TIME_US : MS_SCALE_PLAIN;
  d->x_label = g_strdup (_("R: accesses per element"));
  d->y_label = g_strdup (metric == MS_REUSE_TIME ? _("end-to-end time")
                                                 : _("end-to-end bandwidth (GB/s)"));
  d->unit = g_strdup (metric == MS_REUSE_TIME ? "µs" : "GB/s");
  d->empty_text = g_strdup (_("This run has no cells with an R setting: run the data reuse lesson"));
  if (exponent >= 0) {
    char size[32];
    ms_format_bytes (ms_exponent_bytes (exponent), size, sizeof size);
    /* TRANSLATORS: the reuse chart's title, the vectors named: "per
     * vector" left a class asking which. */
    d->title = g_strdup_printf (_("Data reuse: a, b, c of %s each"), size);
  }
  const MsChartSeries *writes[2] = { NULL, NULL }; /* R kernels, one kernel */
  for (int m = 0; run && m < MS_MODE_COUNT; m++)
    for (guint a = 0; a < G_N_ELEMENTS (accesses); a++) {
      MsChartSeries *s = NULL;
      for (gsize i = 0; i < run->n_cells; i++) {
        const MsCell *c = &run->cells[i];
        int reuse;
        char access[16];
        if (c->mode != (MsMode) m || c->exponent != exponent ||
            !reuse_of (c, &reuse, access, sizeof access) || !g_str_equal (access, accesses[a]))
          continue;
        if (!s) {
          g_autofree char *label = series_label (m, accesses[a], FALSE);
          /* A mode's own look; its reads-only and writes-only variants
           * each their own colour, marker and dash (ms-palette.c): five
           * series in one colour were one to a class. */
          guint color, shape, dash;
          MsMarkerFill fill;
          ms_mode_variant_look ((MsMode) m, a, &color, &shape, &dash, &fill);
          s = ms_chart_data_add_series (d, label, color % ms_chart_palette_size (), shape, dash);
          s->run = fill; /* ms_run_fill gives a fill back as itself */
          s->short_label = series_label (m, accesses[a], TRUE);
          /* The takeaway compares pinned copies with zero-copy reading a
           * and b and writing c: those two lines stand out. */
          s->muted = !((m == MS_MODE_PINNED || m == MS_MODE_ZERO_COPY) && a == 0);
          /* The pair's markers hollow (solid, they hid their bars), apart (said in the key). */
          s->run = s->muted ? s->run : MS_FILL_HOLLOW;
          s->x_nudge = s->muted ? 0 : m == MS_MODE_PINNED ? -0.12 : 0.12;
        }
        add_point (d, s, c, reuse, metric);
      }
      ms_chart_series_sort (s);
      if (s && a >= 2 && !writes[a - 2])
        writes[a - 2] = s;
    }
  double link = run ? ms_pcie_theoretical_gbps (run->device.pcie_gen, run->device.pcie_width) : 0;
  /* Before folding, which may free a writes series that coincides. */
  if (metric == MS_REUSE_BANDWIDTH && d->series->len)
    d->caption = reuse_caption (writes, link);
  fold_coinciding (d);
  if (metric == MS_REUSE_TIME)
    d->caption = pair_caption (d, run, exponent);
  /* The host link's rate per direction, as a line to read the rates by. */
  if (link > 0 && metric == MS_REUSE_BANDWIDTH && d->series->len) {
    g_autofree char *label = g_strdup_printf (_("host link, PCIe gen%d x%d: %.0f GB/s each way"),
                                              run->device.pcie_gen, run->device.pcie_width, link);
    ms_chart_data_add_ref (d, link, label);
  }
  return d;
}

/* ---- drawing ----------------------------------------------------------------- */

/* clear_lo: the pixels kept under the lowest point, for its value. */
static void
fit_scales (const MsChartData *d, MsReuseLayout *l, gboolean pair_only, double clear_lo)
{
  double x_lo = G_MAXDOUBLE, x_hi = 0, y_lo = G_MAXDOUBLE, y_hi = 0;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    /* Small, the series drawn alone set the range. */
    if (pair_only && s->muted)
      continue;
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      x_lo = MIN (x_lo, p->x);
      x_hi = MAX (x_hi, p->x);
      if (p->failed || !(p->y > 0))
        continue;
      y_hi = MAX (y_hi, MAX (p->y, p->lo <= p->hi ? p->hi : p->y));
      y_lo = MIN (y_lo, p->lo <= p->hi && p->lo > 0 ? p->lo : p->y);
    }
  }
  /* Half a step of room on each side of the first and last R. */
  l->xs = (MsScale){ MS_SCALE_LOG2, x_lo / sqrt (2), x_hi * sqrt (2), l->plot_x,
                     l->plot_x + l->plot_w };
  for (guint i = 0; i < d->refs->len; i++) {
    double y = g_array_index (d->refs, MsChartRefLine, i).y;
    y_lo = MIN (y_lo, y);
    y_hi = MAX (y_hi, y);
  }
  if (!(y_hi > 0))
    y_lo = 1, y_hi = 10;
  ms_scale_fit_tight (&l->ys, d->y_kind, d->y_kind == MS_SCALE_LOG10 ? y_lo : 0, y_hi);
  if (d->callouts->len)
    ms_scale_keep_clear (&l->ys, y_lo, y_hi, l->plot_h, clear_lo, 0);
  l->ys.unit = d->y_unit;
  l->ys.pixel_lo = l->plot_y + l->plot_h;
  l->ys.pixel_hi = l->plot_y;
}

static void
draw_axes (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsReuseLayout *l,
           double height)
{
  const double fs = ms_style_font_size (st), tfs = ms_draw_figure_size (cr, fs);
  MsTick yticks[32];
  /* Log 1-2-5 ticks lie almost evenly: closer than linear ones may. */
  guint ny = ms_axis_ticks (&l->ys, l->plot_h, tfs * 1.8, yticks, 32);
  ms_set_color (cr, &st->fg, st->high_contrast ? 0.3 : 0.12);
  ms_grid_path_y (cr, &l->ys, yticks, ny, l->plot_x, l->plot_x + l->plot_w, 1);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, st->high_contrast ? 1 : 0.8);
  for (guint i = 0; i < ny; i++)
    ms_draw_text (cr, yticks[i].label, l->plot_x - fs * 0.4,
                  round (ms_scale_to_pixel (&l->ys, yticks[i].value)), tfs, 1, 0.5, FALSE, NULL,
                  NULL);
  /* R is a whole number: a label at every power of two shown. */
  for (double r = 1; r <= l->xs.max; r *= 2) {
    if (r < l->xs.min)
      continue;
    char label[16];
    g_snprintf (label, sizeof label, "%.0f", r);
    ms_draw_text (cr, label, round (ms_scale_to_pixel (&l->xs, r)),
                  l->plot_y + l->plot_h + fs * 0.4, tfs, 0.5, 0, FALSE, NULL, NULL);
  }
  ms_set_color (cr, &st->fg, st->high_contrast ? 1 : 0.55);
  ms_frame_rect (cr, l->plot_x, l->plot_y, l->plot_w, l->plot_h, 1);
  ms_set_color (cr, &st->fg, 0.9);
  ms_draw_text (cr, d->x_label, l->plot_x + l->plot_w / 2, height - fs * 0.3, fs, 0.5, 1, FALSE,
                NULL, NULL);
  /* A short plot takes the unit alone ("GB/s"): the whole title ran out
   * of the drawing. Times need none, their ticks carry the unit. */
  const char *y_label = d->y_label;
  double tw = ms_draw_text_width (cr, y_label, fs, FALSE);
  if (tw > l->plot_h) {
    y_label = d->y_unit == MS_SCALE_TIME_US ? NULL : d->unit;
    if (y_label)
      ms_draw_text (cr, y_label, 0, 0, fs, -1, 0, FALSE, &tw, NULL);
  }
  if (!y_label || tw > l->plot_h)
    return;
  cairo_save (cr);
  cairo_translate (cr, fs * 0.3, l->plot_y + l->plot_h / 2 + tw / 2);
  cairo_rotate (cr, -G_PI / 2);
  ms_draw_text (cr, y_label, 0, 0, fs, 0, 0, FALSE, NULL, NULL);
  cairo_restore (cr);
}

/* Each point's bar, over its marker (the pair's are hollow) and with
 * caps wider than it: under solid markers the key's bars, and the rule
 * that needs them, were seen nowhere. */
static void
draw_bars (cairo_t *cr, const MsChartSeries *s, const MsReuseLayout *l, double r)
{
  for (guint k = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (p->failed || p->lo > p->hi || !(p->lo > 0))
      continue;
    double px = round (ms_scale_to_pixel (&l->xs, p->x * exp2 (s->x_nudge))) + 0.5;
    double y0 = ms_scale_to_pixel (&l->ys, p->lo), y1 = ms_scale_to_pixel (&l->ys, p->hi);
    cairo_move_to (cr, px, y0);
    cairo_line_to (cr, px, y1);
    for (int e = 0; e < 2; e++) {
      cairo_move_to (cr, px - r * 1.5, e ? y1 : y0);
      cairo_line_to (cr, px + r * 1.5, e ? y1 : y0);
    }
  }
  cairo_stroke (cr);
}

static void
draw_series (cairo_t *cr, const MsChartSeries *s, const MsChartStyle *st, const MsReuseLayout *l)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st) * (s->muted ? 0.6 : 1.3);
  const double r = fs * (s->muted ? 0.28 : 0.38) * sqrt (st->line_scale);
  MsColor c;
  ms_chart_palette_color (s->color, st->dark, &c);
  cairo_push_group (cr);
  ms_set_color (cr, &c, 1);
  cairo_set_line_width (cr, lw);
  ms_set_dash (cr, s->dash, lw);
  /* The line through the points, their markers after it (the first 64). */
  double xy[2 * 64];
  guint n = 0;
  for (guint k = 0, drawn = 0; k < s->points->len; k++) {
    const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (p->failed)
      continue;
    double px = ms_scale_to_pixel (&l->xs, p->x * exp2 (s->x_nudge));
    double py = ms_scale_to_pixel (&l->ys, p->y);
    (drawn++ ? cairo_line_to : cairo_move_to) (cr, px, py);
    if (n < G_N_ELEMENTS (xy) / 2)
      xy[2 * n] = px, xy[2 * n + 1] = py, n++;
  }
  cairo_stroke (cr);
  ms_set_dash (cr, 0, lw);
  ms_draw_markers (cr, s->shape, ms_run_fill (s->run), xy, n, r, lw * 0.8, &st->bg);
  ms_set_color (cr, &c, 1);
  cairo_set_line_width (cr, lw * 0.8);
  draw_bars (cr, s, l, r);
  /* As one group, so that a faint line's markers do not show it through. */
  cairo_pop_group_to_source (cr);
  cairo_paint_with_alpha (cr, s->muted ? MS_CHART_MUTED_ALPHA (st) : 1);
}

/* The host link's rate: a dashed line across the plot, named above its
 * right end. */
static void
draw_link_line (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsReuseLayout *l)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  for (guint i = 0; i < d->refs->len; i++) {
    const MsChartRefLine *ref = &g_array_index (d->refs, MsChartRefLine, i);
    double y = round (ms_scale_to_pixel (&l->ys, ref->y)) + 0.5;
    ms_set_color (cr, &st->fg, 0.65);
    ms_set_dash (cr, 1, lw);
    ms_draw_line (cr, lw * 0.8, l->plot_x, y, l->plot_x + l->plot_w, y);
    ms_set_dash (cr, 0, lw);
    /* Its label by the line, at the end (right first) and side where it
     * covers the least of the series (ms_chart_data_cover). */
    double tw, th;
    ms_draw_text (cr, ref->label, 0, 0, fs * 0.9, -1, 0, FALSE, &tw, &th);
    MsChartLayout at = { .xs = l->xs, .ys = l->ys };
    const double xs[2] = { l->plot_x + l->plot_w - fs * 0.4 - tw, l->plot_x + fs * 0.4 };
    const double ys[2] = { y - fs * 0.2 - th, y + fs * 0.2 };
    double best = G_MAXDOUBLE, bx = xs[0], by = ys[0];
    for (guint k = 0; k < 4; k++) {
      double cover = ms_chart_data_cover (d, &at, fs * 0.2, xs[k / 2], ys[k % 2], tw, th);
      if (cover < best)
        best = cover, bx = xs[k / 2], by = ys[k % 2];
    }
    MsChartRect box = { bx, by, tw, th };
    ms_chart_check_label (cr, d, &at, ref->label, &box);
    ms_set_color (cr, &st->fg, 0.85);
    ms_draw_text (cr, ref->label, bx, by, fs * 0.9, 0, 0, FALSE, NULL, NULL);
  }
}

/* The pair's values (the data's callouts), each on a patch of the
 * background, the lower of an R's two under its marker and the higher
 * over it: away from the lines, which rise to the right. */
static void
draw_values (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, const MsReuseLayout *l)
{
  const double fs = ms_style_font_size (st), tfs = ms_draw_figure_size (cr, fs);
  const double r = fs * 0.38 * sqrt (st->line_scale);
  for (guint i = 0; i < d->callouts->len; i++) {
    const MsChartCallout *c = &g_array_index (d->callouts, MsChartCallout, i);
    gboolean lowest = TRUE;
    for (guint k = 0; k < d->callouts->len; k++) /* of one R, each drawn a little off it */
      if (k != i && fabs (log2 (g_array_index (d->callouts, MsChartCallout, k).x / c->x)) < 0.5)
        lowest = c->y <= g_array_index (d->callouts, MsChartCallout, k).y;
    double tw, th, px = ms_scale_to_pixel (&l->xs, c->x), py = ms_scale_to_pixel (&l->ys, c->y);
    ms_draw_text (cr, c->label, 0, 0, tfs, -1, 0, FALSE, &tw, &th);
    /* On its R, a power of two: on nudged markers, R = 1's and 2's met on a narrow chart. */
    double y = lowest ? py + r * 1.5 : py - r * 1.5 - th;
    double x = ms_scale_to_pixel (&l->xs, exp2 (round (log2 (c->x)))) - tw / 2;
    /* The higher one past the first R over its marker, reaching left: centred, the line
     * rising on to the next R ran through it; further left, it was read as the first R's. */
    const MsChartCallout *first = &g_array_index (d->callouts, MsChartCallout, 0);
    double first_w = ms_draw_text_width (cr, first->label, tfs, FALSE);
    /* ... and clear of the first R's values (a narrow chart). */
    if (!lowest && log2 (c->x / first->x) > 0.5)
      x = MAX (px + r * 0.5 - tw,
               ms_scale_to_pixel (&l->xs, exp2 (round (log2 (first->x)))) + first_w / 2 + fs * 0.5);
    ms_set_color (cr, &st->bg, 0.85);
    cairo_rectangle (cr, x - fs * 0.15, y, tw + fs * 0.3, th);
    cairo_fill (cr);
    ms_set_color (cr, &st->fg, 1);
    ms_draw_text (cr, c->label, x, y, tfs, 0, 0, FALSE, NULL, NULL);
  }
}

/* The legend's entry for the bars, with the takeaway's rule on the time
 * form, wrapped to max_w. Returns its width; only measured without h,
 * else its height in *h. */
static double
draw_whisker_key (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double x, double y,
                  double max_w, double *h)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  const char *bars = d->range_bars ? _ ("bars: fastest to slowest repetition (a marker hides a short one)")
                                   /* xgettext: no-c-format */
                                   : _ ("bars: the median's 95% interval");
  /* TRANSLATORS: the reuse chart's key for its bars, then where each line
   * is drawn. A bar shorter than its marker is said to be there: on the
   * H200 no bar could be seen, so the takeaway's rule (a bar wholly above
   * pinned's) is the details', not a key's that no eye could check. */
  g_autofree char *text
      = d->y_unit == MS_SCALE_TIME_US
            ? g_strdup_printf (_ ("%s; pinned drawn left of each R, zero-copy right"), bars)
            : g_strdup (bars);
  double tw = MIN (ms_draw_text_width (cr, text, fs, FALSE), max_w - fs * 2);
  if (!h)
    return fs * 2 + tw;
  ms_set_color (cr, &st->fg, 0.8);
  cairo_set_line_width (cr, lw * 0.8);
  double cx = round (x + fs * 0.8) + 0.5;
  cairo_move_to (cr, cx, y + fs * 0.1);
  cairo_line_to (cr, cx, y + fs * 1.1);
  cairo_move_to (cr, cx - fs * 0.3, y + fs * 0.1);
  cairo_line_to (cr, cx + fs * 0.3, y + fs * 0.1);
  cairo_move_to (cr, cx - fs * 0.3, y + fs * 1.1);
  cairo_line_to (cr, cx + fs * 0.3, y + fs * 1.1);
  cairo_stroke (cr);
  ms_set_color (cr, &st->fg, 1);
  *h = ms_draw_text_wrapped (cr, text, x + fs * 2, y, fs, tw + 1, FALSE, TRUE);
  return fs * 2 + tw;
}

/* Whether any series drawn has a whisker (an interval, lo <= hi). */
static gboolean
any_whiskers (const MsChartData *d, gboolean pair_only)
{
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; k < s->points->len && !(pair_only && s->muted); k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (!p->failed && p->lo <= p->hi)
        return TRUE;
    }
  }
  return FALSE;
}

/* The entries under the title, wrapped into rows, the whiskers' key
 * last; returns the rows' height. */
static double
draw_legend (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double x, double y,
             double width, gboolean short_labels, gboolean pair_only)
{
  const double fs = ms_style_font_size (st);
  double lx = x, rows = 1;
  for (guint i = 0; i <= d->series->len; i++) {
    const MsChartSeries *s = i < d->series->len ? g_ptr_array_index (d->series, i) : NULL;
    /* On a projected slide the muted series are not drawn. */
    if (s && s->muted && pair_only)
      continue;
    /* The muted series by name alone: the caption says what each does,
     * and their long names took the plot a third of its height. */
    gboolean brief = s && (short_labels || s->muted) && s->short_label;
    const char *label = brief ? s->short_label : s ? s->label : NULL;
    double tw, th;
    /* The whiskers' key only where some are drawn: below 6 repetitions
     * there are none (add_point), and a key promised them. */
    if (s)
      ms_draw_text (cr, label, 0, 0, fs, -1, 0, FALSE, &tw, &th);
    else if (any_whiskers (d, pair_only))
      tw = draw_whisker_key (cr, d, st, 0, 0, width - x, NULL) - fs * 2;
    else
      break;
    /* The muted series start a row of their own, under the compared ones. */
    gboolean first_muted = s && s->muted && i > 0
                           && !((const MsChartSeries *) g_ptr_array_index (d->series, i - 1))->muted;
    if (lx > x && (lx + fs * 2 + tw > width || first_muted)) {
      lx = x;
      y += fs * 1.5;
      rows++;
    }
    if (!s) {
      double h;
      draw_whisker_key (cr, d, st, lx, y, width - lx, &h);
      /* A key wrapped to more lines takes a row's height for each line
       * after the first (a line is shorter than a row: counted by
       * height, its second line met the plot's top tick). */
      if (h > fs * 1.5)
        rows += (h - fs * 0.9) / (fs * 1.5);
      break;
    }
    MsColor c;
    ms_chart_palette_color (s->color, st->dark, &c);
    cairo_push_group (cr);
    ms_chart_draw_sample (cr, st, &c, 1, TRUE, s->dash, s->shape, s->run, lx, y + fs * 0.6,
                          fs * 1.6, fs * 0.35);
    cairo_pop_group_to_source (cr);
    cairo_paint_with_alpha (cr, s->muted ? MS_CHART_MUTED_KEY_ALPHA (st) : 1);
    ms_set_color (cr, &st->fg, s->muted ? MS_CHART_MUTED_TEXT_ALPHA : 1);
    ms_draw_text (cr, label, lx + fs * 2, y, fs, 0, 0, FALSE, NULL, NULL);
    lx += fs * 3 + tw;
  }
  return rows * fs * 1.5;
}

/* Projected, no word smaller than the body size (ms_draw_slide_sizes_begin,
 * as a lesson's own picture). */
void
ms_reuse_chart_draw (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double width,
                     double height, MsReuseLayout *layout)
{
  const double fs = ms_style_font_size (st);
  MsReuseLayout l = { 0 };
  MsLeastSizes least = ms_draw_slide_sizes_begin (cr, st, height);
  ms_draw_background (cr, st);
  double top = fs * 0.6;
  if (d->title) {
    /* Its size is its figure's: at a slide's figure size where larger.
     * A log axis says so here: a slide has no room for the axis's
     * title, whose ticks carry the unit. */
    double th;
    g_autofree char *title = d->y_kind == MS_SCALE_LOG10
                                 ? g_strdup_printf (_ ("%s (log scale)"), d->title)
                                 : g_strdup (d->title);
    const double size = ms_draw_figure_size (cr, fs * 1.15);
    double tw;
    ms_draw_text (cr, title, 0, 0, size, -1, 0, TRUE, &tw, &th);
    ms_set_color (cr, &st->fg, 1);
    /* Wrapped where it is wider than the picture (a narrow pane's). */
    if (tw <= width - fs)
      ms_draw_text (cr, title, width / 2, top, size, 0.5, 0, TRUE, NULL, NULL);
    else
      th = ms_draw_text_wrapped (cr, title, fs, top, size, width - 2 * fs, TRUE, TRUE);
    top += MAX (fs * 2, th + fs * 0.6);
  }
  /* Small (the lesson pane): the names alone and no caption line, which
   * the lesson's caption says; the plot kept a sliver. */
  gboolean small = height < fs * 26;
  /* A projected slide's chart: the compared pair alone. */
  gboolean pair_only = ms_draw_is_slide (st, height);
  if (d->caption && !small) {
    /* Writes only's rate above the link's line is counting or merged
     * stores, not a faster link: one line says which, with its figures. */
    /* Projected at full strength: grey washed out on a projector. */
    ms_set_color (cr, &st->fg, pair_only ? 1 : 0.75);
    top += ms_draw_text_wrapped (cr, d->caption, fs, top, fs * 0.9, width - 2 * fs, FALSE, TRUE) +
           fs * 0.4;
  }
  top += draw_legend (cr, d, st, fs, top, width - fs, small, pair_only);
  /* Room for the ticks at their size (a slide's figures are larger). */
  const double tfs = ms_draw_figure_size (cr, fs);
  l.plot_x = tfs * 4.6 + fs * 0.9;
  l.plot_y = top + fs * 0.5;
  l.plot_w = MAX (1, width - l.plot_x - fs * 1.5);
  l.plot_h = MAX (1, height - l.plot_y - fs * 2.3 - tfs * 1.2);
  l.n_series = d->series->len;
  if (d->series->len == 0) {
    ms_set_color (cr, &st->fg, 0.7);
    ms_draw_text (cr, d->empty_text ? d->empty_text : "", width / 2, height / 2, fs, 0.5, 0.5,
                  FALSE, NULL, NULL);
  } else {
    fit_scales (d, &l, pair_only, fs * 0.6 + tfs * 1.3);
    draw_axes (cr, d, st, &l, height);
    /* The data layer alone (ms_draw_data_only_begin) lifts the clip that
     * hides the rest for the lines and their markers. */
    gboolean data_only = ms_draw_is_data_only (cr);
    cairo_save (cr);
    if (data_only)
      cairo_reset_clip (cr);
    draw_link_line (cr, d, st, &l);
    /* Last to first: pinned and zero-copy, the compared pair, on top of
     * managed memory. */
    for (guint i = d->series->len; i-- > 0;) {
      const MsChartSeries *series = g_ptr_array_index (d->series, i);
      /* On a slide, the compared pair alone: five faint lines under it were
       * read as zero-copy winning. */
      if (!(pair_only && series->muted))
        draw_series (cr, series, st, &l);
    }
    cairo_restore (cr);
    draw_values (cr, d, st, &l);
  }
  ms_draw_slide_sizes_end (cr, least);
  if (layout)
    *layout = l;
}
