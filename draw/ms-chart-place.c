/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart-place.c: how much of the drawn data a box would cover, so that
 * a chart's annotations go where no series passes. */
#include "ms-chart.h"

#include <math.h>

/* Whether the segment (x0, y0)-(x1, y1) meets the rectangle: Liang and
 * Barsky's clipping, kept to its verdict. */
static gboolean
segment_meets_rect (double x0, double y0, double x1, double y1, double rx, double ry, double rw,
                    double rh)
{
  double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
  const double p[4] = { -dx, dx, -dy, dy };
  const double q[4] = { x0 - rx, rx + rw - x0, y0 - ry, ry + rh - y0 };
  for (int i = 0; i < 4; i++) {
    if (p[i] == 0) {
      if (q[i] < 0)
        return FALSE;
      continue;
    }
    double t = q[i] / p[i];
    if (p[i] < 0)
      t0 = MAX (t0, t);
    else
      t1 = MIN (t1, t);
    if (t0 > t1)
      return FALSE;
  }
  return TRUE;
}

gboolean
ms_chart_point_shown (const MsChartData *d, const MsChartPoint *p)
{
  return !p->failed && (d->y_kind == MS_SCALE_LINEAR || p->y > 0);
}

double
ms_chart_data_cover (const MsChartData *d, const MsChartLayout *l, double margin, double x,
                     double y, double w, double h)
{
  double cover = 0;
  x -= margin, y -= margin, w += 2 * margin, h += 2 * margin;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    double px = 0, py = 0;
    gboolean prev = FALSE;
    for (guint k = 0; !s->hidden && k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      if (!ms_chart_point_shown (d, p)) {
        prev = FALSE;
        continue;
      }
      double qx = ms_scale_to_pixel (&l->xs, p->x * exp2 (s->x_nudge));
      double qy = ms_scale_to_pixel (&l->ys, p->y);
      /* A marker counts more than a stretch of line: it is a measurement;
       * its edge under a label hides it as its centre does. A muted one
       * weighs half: a label may lie on it rather than on a point that is
       * not, but not where a free spot beside it is no further ("0: no
       * difference" covered the faint K = 1 points). A halo's ring is its edge. */
      const double r = l->marker_r * (ms_run_fill (s->run) == MS_FILL_HALO ? 1.7 : 1);
      if (qx >= x - r && qx <= x + w + r && qy >= y - r && qy <= y + h + r)
        cover += p->muted ? 1 : 2;
      if (p->muted) {
        px = qx, py = qy, prev = !p->partial;
        continue;
      }
      /* An error bar as a stretch of line: a label on it hid how far the
       * point may lie from its median. */
      if (p->lo < p->hi
          && segment_meets_rect (qx, ms_scale_to_pixel (&l->ys, p->lo), qx,
                                 ms_scale_to_pixel (&l->ys, p->hi), x, y, w, h))
        cover += 1;
      if (prev && !p->partial && segment_meets_rect (px, py, qx, qy, x, y, w, h))
        cover += 1;
      px = qx, py = qy;
      prev = !p->partial;
    }
  }
  /* A reference line as a stretch of line too: a label on "the kernel
   * ahead, 200 µs" cut the line a class reads the markers against. */
  for (guint i = 0; d->refs && i < d->refs->len; i++) {
    const MsChartRefLine *r = &g_array_index (d->refs, MsChartRefLine, i);
    if (d->y_kind != MS_SCALE_LINEAR && r->y <= 0)
      continue;
    double ry = ms_scale_to_pixel (&l->ys, r->y);
    if (segment_meets_rect (l->plot_x, ry, l->plot_x + l->plot_w, ry, x, y, w, h))
      cover += 1;
  }
  return cover;
}

gboolean
ms_chart_rects_overlap (const MsChartRect *a, const MsChartRect *b)
{
  return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

typedef struct {
  MsChartLabelCheck check;
  gpointer data;
} LabelCheck;

static GPrivate label_check_key = G_PRIVATE_INIT (g_free);

void
ms_chart_set_label_check (MsChartLabelCheck check, gpointer data)
{
  LabelCheck *c = g_private_get (&label_check_key);
  if (!c) {
    c = g_new0 (LabelCheck, 1);
    g_private_set (&label_check_key, c);
  }
  c->check = check;
  c->data = data;
}

void
ms_chart_check_label (cairo_t *cr, const MsChartData *d, const MsChartLayout *l, const char *label,
                      const MsChartRect *box)
{
  LabelCheck *c = g_private_get (&label_check_key);
  if (!c || !c->check)
    return;
  /* The box's corners in device pixels (no rotation in a chart). */
  double x0 = box->x, y0 = box->y, x1 = box->x + box->w, y1 = box->y + box->h;
  cairo_user_to_device (cr, &x0, &y0);
  cairo_user_to_device (cr, &x1, &y1);
  MsChartRect device = { MIN (x0, x1), MIN (y0, y1), fabs (x1 - x0), fabs (y1 - y0) };
  c->check (label, ms_chart_data_cover (d, l, 0, box->x, box->y, box->w, box->h), &device,
            c->data);
}
