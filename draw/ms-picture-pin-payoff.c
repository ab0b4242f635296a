/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-pin-payoff.c: the pin-payoff lesson's picture: the break-even
 * number of copies against the size, for pinned and for registered
 * memory: from that many copies on, the buffer's once-only cost has come
 * back. Sizes where it never comes back have no point; the caption names
 * them. */
#include <glib/gi18n.h>

#include "ms-chart.h"
#include "ms-lesson-pin-payoff.h"
#include "ms-lesson-picture.h"

static MsChartData *
build (const MsResults *run)
{
  MsChartData *d = ms_chart_data_new ();
  d->title = g_strdup (_ ("Copies until pinning pays off, against the size"));
  d->x_label = g_strdup (_ ("bytes per buffer"));
  d->y_label = g_strdup (_ ("break-even copies (N)"));
  d->y_kind = MS_SCALE_LOG10;
  d->direct_labels = TRUE;
  d->empty_text = g_strdup (_ ("The run has no size where pinned or registered memory pays "
                               "off against pageable."));
  const struct {
    MsMode mode;
    const char *label;
  } lines[] = {
    { MS_MODE_PINNED, N_ ("pinned (cudaMallocHost)") },
    { MS_MODE_REGISTERED, N_ ("registered (cudaHostRegister)") },
  };
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++) {
    MsChartSeries *s = NULL;
    for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
      double n = 0;
      if (ms_pin_payoff_break_even (run, lines[i].mode, e, &n) != 1)
        continue;
      if (!s)
        s = ms_chart_data_add_series (d, _ (lines[i].label), lines[i].mode, i, i);
      ms_chart_series_add (s, 4.0 * (double)(1ull << e), n, 1, 0, FALSE);
    }
  }
  if (d->series->len)
    ms_chart_data_add_ref (d, 1, _ ("pays off from the first copy"));
  return d;
}

void
ms_picture_pin_payoff (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  g_autoptr (MsChartData) data = build (run);
  if (data->series->len == 0) {
    ms_picture_empty (cr, style, width, height, data->empty_text);
    return;
  }
  ms_chart_draw (cr, data, style, width, height, -1, NULL);
}
