/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-intensity.c: the intensity lesson's picture: zero-copy ÷
 * pinned end to end against F, the dependent FMAs per element, with the
 * line at 1 where the two take the same time: below it zero-copy wins. */
#include <glib/gi18n.h>
#include <stdio.h>

#include "ms-chart.h"
#include "ms-lesson-picture.h"

static double
median_of (const MsResults *run, const char *mode, int f)
{
  char v[MS_VARIANT_LEN];
  snprintf (v, sizeof v, "mode=%s/F=%d", mode, f);
  const MsCell *c = ms_picture_cell (run, v);
  return c && c->n_reps > 0 && c->stats.e2e.median > 0 ? c->stats.e2e.median : 0;
}

static MsChartData *
build (const MsResults *run)
{
  MsChartData *d = ms_chart_data_new ();
  d->title = g_strdup (_ ("Zero-copy ÷ pinned, end to end, against arithmetic per element"));
  d->x_label = g_strdup (_ ("dependent FMAs per element (F)"));
  d->y_label = g_strdup (_ ("zero-copy ÷ pinned"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  d->x_unit = MS_SCALE_COUNT;
  d->direct_labels = TRUE;
  d->empty_text = g_strdup (_ ("The run has no F with both a zero-copy and a pinned cell."));
  MsChartSeries *s = NULL;
  for (int f = 1; f <= 1024; f++) {
    double zc = median_of (run, "zero-copy", f), pinned = median_of (run, "pinned", f);
    if (!(zc > 0 && pinned > 0))
      continue;
    if (!s)
      s = ms_chart_data_add_series (d, _ ("zero-copy ÷ pinned"), 0, 0, 0);
    ms_chart_series_add (s, f, zc / pinned, 1, 0, FALSE);
  }
  if (s)
    ms_chart_data_add_ref (d, 1, _ ("1: equal; below, zero-copy wins"));
  return d;
}

void
ms_picture_intensity (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                      double height)
{
  g_autoptr (MsChartData) data = build (run);
  if (data->series->len == 0) {
    ms_picture_empty (cr, style, width, height, data->empty_text);
    return;
  }
  ms_chart_draw (cr, data, style, width, height, -1, NULL);
}
