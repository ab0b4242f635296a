/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-batched.c: the batched-copies lesson's picture: the time per
 * copy against the copy's size, one line per submission and source (one
 * call each, one batch with each source-access order; pinned solid,
 * pageable dashed). */
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-chart.h"
#include "ms-lesson-picture.h"

static const struct {
  const char *variant; /* after "n=N/" */
  const char *label;
} subs[] = {
  { "call=each", N_ ("one call each") },
  { "call=batch/order=stream", N_ ("batch, stream order") },
  { "call=batch/order=any", N_ ("batch, any order") },
  { "call=batch/order=api", N_ ("batch, during the call") },
};

static const MsCell *
find (const MsResults *run, MsMode mode, int exp, int count, const char *sub)
{
  char v[MS_VARIANT_LEN];
  snprintf (v, sizeof v, "n=%d/%s", count, sub);
  for (size_t i = 0; i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    if (c->mode == mode && c->exponent == exp && strcmp (c->variant, v) == 0)
      return c->n_reps > 0 && c->stats.e2e.median > 0 ? c : NULL;
  }
  return NULL;
}

static MsChartData *
build (const MsResults *run)
{
  MsChartData *d = ms_chart_data_new ();
  int count = 0;
  for (size_t i = 0; i < run->n_cells && count <= 0; i++)
    if (sscanf (run->cells[i].variant, "n=%d/", &count) != 1)
      count = 0;
  d->title = count > 0 ? g_strdup_printf (_ ("%d host-to-device copies: time per copy"), count)
                       : g_strdup (_ ("Host-to-device copies: time per copy"));
  d->x_label = g_strdup (_ ("bytes per copy"));
  d->y_label = g_strdup (_ ("time per copy"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  /* Lines that lie on one another are told apart by their names at their
   * ends, nudged apart, rather than by a legend below. */
  d->direct_labels = TRUE;
  d->direct_share = 0.36;
  d->y_unit = MS_SCALE_TIME_US;
  d->empty_text = g_strdup (_ ("The run has no measured copies."));
  if (count <= 0)
    return d;
  const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_PAGEABLE };
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint s = 0; s < G_N_ELEMENTS (subs); s++) {
      g_autofree char *label
          = g_strdup_printf ("%s, %s", ms_mode_name (modes[m]), _ (subs[s].label));
      MsChartSeries *series = NULL;
      for (int e = 0; e <= 30; e++) {
        const MsCell *c = find (run, modes[m], e, count, subs[s].variant);
        if (!c)
          continue;
        if (!series)
          series = ms_chart_data_add_series (d, label, s, s, m);
        double per = c->stats.e2e.median / count;
        ms_chart_series_add (series, (double)c->elements * sizeof (float), per,
                             c->stats.e2e.ci_low / count, c->stats.e2e.ci_high / count, FALSE);
      }
    }
  return d;
}

/* The best batch over the one-call-each time at each size of mode: the
 * smallest and largest such ratio over the sizes; FALSE when none. */
static gboolean
batch_ratio_range (const MsResults *run, MsMode mode, int count, double *lo, double *hi)
{
  *lo = INFINITY, *hi = -INFINITY;
  for (int e = 0; e <= 30; e++) {
    const MsCell *each = find (run, mode, e, count, subs[0].variant);
    double best = INFINITY;
    for (guint s = 1; each && s < G_N_ELEMENTS (subs); s++) {
      const MsCell *b = find (run, mode, e, count, subs[s].variant);
      if (b)
        best = MIN (best, b->stats.e2e.median / each->stats.e2e.median);
    }
    if (isfinite (best))
      *lo = MIN (*lo, best), *hi = MAX (*hi, best);
  }
  return isfinite (*lo);
}

/* Under the chart: what the line styles and the orders mean, then the
 * finding from the run. Returns the height; only measured unless draw. */
static double
footer (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width, double y0,
        gboolean draw)
{
  const double fs = ms_style_font_size (st);
  int count = 0;
  for (size_t i = 0; i < run->n_cells && count <= 0; i++)
    if (sscanf (run->cells[i].variant, "n=%d/", &count) != 1)
      count = 0;
  double y = y0;
  ms_set_color (cr, &st->fg, 0.8);
  y += ms_draw_text_wrapped (cr,
                             _ ("solid: pinned, dashed: pageable. The order says when the batch "
                                "may read its sources: during the call, in any order, or in "
                                "stream order."),
                             fs * 0.5, y, fs * 0.9, width - fs, FALSE, draw);
  GString *take = g_string_new (NULL);
  const MsMode modes[] = { MS_MODE_PINNED, MS_MODE_PAGEABLE };
  for (guint m = 0; m < G_N_ELEMENTS (modes) && count > 0; m++) {
    double lo, hi;
    if (!batch_ratio_range (run, modes[m], count, &lo, &hi))
      continue;
    if (take->len)
      g_string_append (take, "; ");
    g_string_append_printf (take, _ ("from %s memory the best batch took %.2f–%.2f× the time of "
                                     "one call each"),
                            ms_mode_name (modes[m]), lo, hi);
  }
  if (take->len) {
    g_string_append (take, ".");
    take->str[0] = g_ascii_toupper (take->str[0]);
    ms_set_color (cr, &st->fg, 0.95);
    y += fs * 0.2;
    y += ms_draw_text_wrapped (cr, take->str, fs * 0.5, y, fs, width - fs, TRUE, draw);
  }
  g_string_free (take, TRUE);
  return y - y0 + fs * 0.3;
}

void
ms_picture_batched (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                    double height)
{
  g_autoptr (MsChartData) data = build (run);
  if (data->series->len == 0) {
    ms_chart_draw (cr, data, style, width, height, -1, NULL);
    return;
  }
  ms_draw_background (cr, style);
  double foot_h = footer (cr, run, style, width, 0, FALSE);
  double chart_h = round (height - foot_h);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, chart_h);
  cairo_clip (cr);
  ms_chart_draw (cr, data, style, width, chart_h, -1, NULL);
  cairo_restore (cr);
  footer (cr, run, style, width, chart_h, TRUE);
}
