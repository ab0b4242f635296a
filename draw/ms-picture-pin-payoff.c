/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-pin-payoff.c: the pin-payoff lesson's picture: the break-even
 * number of copies against the size, for pinned and for registered
 * memory: from that many copies on, the buffer's once-only cost has come
 * back. Sizes where it never comes back have no point; the caption names
 * them. Beside it, when the run has its second part, two rows of numbers
 * against the share of memory held pinned: what one pinned allocation
 * takes and how fast a pageable copy runs. */
#include <glib/gi18n.h>

#include "ms-chart.h"
#include "ms-lesson-pin-payoff.h"
#include "ms-lesson-picture.h"
#include "ms-matrix.h"

#define MAX_LEVELS 16

static MsChartData *
build (const MsResults *run)
{
  MsChartData *d = ms_chart_data_new ();
  d->title = g_strdup (_ ("Copies until pinning pays off, against the size"));
  d->x_label = g_strdup (_ ("bytes per buffer"));
  d->y_label = g_strdup (_ ("break-even copies (N)"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
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

/* One row against the held shares: the allocation's time (what == 0) or
 * the copy's rate; FALSE when the run has no such figure. */
static gboolean
build_held (const MsPinHeld *lv, int n, int what, MsMatrixData *m)
{
  memset (m, 0, sizeof *m);
  gboolean any = FALSE;
  for (int i = 0; i < n && i < MS_MATRIX_MAX; i++) {
    double v = what == 0 ? lv[i].alloc_us * 1e-3 : lv[i].copy_gbps;
    g_snprintf (m->col_label[i], sizeof m->col_label[i], "%.3g%%", lv[i].held_pct);
    m->value[0][i] = v > 0 ? v : 0;
    /* The unit is the colour bar's: the number alone stays large in a
     * cell a fifth of half the picture wide. */
    if (v > 0)
      g_snprintf (m->cell_text[0][i], sizeof m->cell_text[0][i], "%.3g", v);
    any |= v > 0;
  }
  m->n_rows = 1;
  m->n_cols = MIN (n, MS_MATRIX_MAX);
  g_snprintf (m->row_label[0], sizeof m->row_label[0], "%s",
              what == 0 ? _ ("time") : _ ("rate"));
  g_snprintf (m->row_title, sizeof m->row_title, "%s", _ ("figure"));
  g_snprintf (m->col_title, sizeof m->col_title, "%s", _ ("memory held pinned"));
  g_snprintf (m->title, sizeof m->title, "%s",
              what == 0 ? _ ("Pinned allocation, 64 MiB") : _ ("Pageable copy, 64 MiB"));
  g_snprintf (m->unit, sizeof m->unit, "%s", what == 0 ? _ ("ms") : "");
  return any;
}

/* The second part's two rows, one above the other, in width x height. */
static void
draw_held (cairo_t *cr, const MsPinHeld *lv, int n, const MsChartStyle *style, double width,
           double height)
{
  for (int what = 0; what < 2; what++) {
    MsMatrixData m;
    build_held (lv, n, what, &m);
    cairo_save (cr);
    cairo_translate (cr, 0, what * height / 2);
    cairo_rectangle (cr, 0, 0, width, height / 2);
    cairo_clip (cr);
    ms_matrix_draw (cr, &m, style, width, height / 2, NULL);
    cairo_restore (cr);
  }
}

void
ms_picture_pin_payoff (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  g_autoptr (MsChartData) data = build (run);
  MsPinHeld lv[MAX_LEVELS];
  int n = ms_pin_payoff_held (run, lv, MAX_LEVELS);
  if (data->series->len == 0 && n == 0) {
    ms_picture_empty (cr, style, width, height, data->empty_text);
    return;
  }
  double chart_w = n > 0 ? width / 2 : width;
  ms_draw_background (cr, style);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, chart_w, height);
  cairo_clip (cr);
  if (data->series->len)
    ms_chart_draw (cr, data, style, chart_w, height, -1, NULL);
  else
    ms_picture_empty (cr, style, chart_w, height, data->empty_text);
  cairo_restore (cr);
  if (n == 0)
    return;
  cairo_save (cr);
  cairo_translate (cr, chart_w, 0);
  draw_held (cr, lv, n, style, width - chart_w, height);
  cairo_restore (cr);
}
