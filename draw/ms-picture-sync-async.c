/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-sync-async.c: the synchronous-and-asynchronous-copies
 * lesson's picture: host-to-device and device-to-host side by side, the
 * call's host time (solid) and the time until the copy is done (dashed)
 * against the size, one colour per call and memory, the kernel ahead as a
 * reference line: where solid lies far under dashed, the call returned
 * before the copy was done. */
#include <glib/gi18n.h>

#include "ms-chart.h"
#include "ms-lesson-picture.h"
#include "ms-lesson-sync-async.h"

static const struct {
  MsSaApi api;
  MsMode memory;
  const char *label;
} lines[] = {
  { MS_SA_MEMCPY, MS_MODE_PAGEABLE, N_ ("cudaMemcpy, pageable") },
  { MS_SA_MEMCPY, MS_MODE_PINNED, N_ ("cudaMemcpy, pinned") },
  { MS_SA_ASYNC, MS_MODE_PAGEABLE, N_ ("Async, pageable") },
  { MS_SA_ASYNC, MS_MODE_PINNED, N_ ("Async, pinned") },
};

static MsChartData *
build (const MsResults *run, MsSaDir dir)
{
  MsChartData *d = ms_chart_data_new ();
  d->title = g_strdup (dir == MS_SA_H2D ? _ ("Host to device") : _ ("Device to host"));
  d->x_label = g_strdup (_ ("bytes per copy"));
  d->y_label = g_strdup (_ ("time from the call"));
  d->y_kind = MS_SCALE_LOG10;
  d->y_unit = MS_SCALE_TIME_US;
  d->empty_text = g_strdup (_ ("The run has no copies in this direction."));
  gboolean any = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    for (int what = 0; what < MS_SA_WHAT_COUNT; what++) {
      g_autofree char *label = g_strdup_printf ("%s: %s", _ (lines[i].label),
                                                what == MS_SA_CALL ? _ ("call") : _ ("done"));
      MsChartSeries *s = NULL;
      for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
        const MsCell *c
            = ms_sa_cell (run, lines[i].memory, e, lines[i].api, dir, (MsSaWhat)what, FALSE);
        if (!c)
          continue;
        if (!s)
          s = ms_chart_data_add_series (d, label, i, i, what == MS_SA_CALL ? 0 : 1);
        ms_chart_series_add (s, (double)c->elements * sizeof (float), c->stats.e2e.median,
                             c->stats.e2e.min, c->stats.e2e.max, FALSE);
        any = TRUE;
      }
    }
  int ahead = ms_sa_ahead_us (run);
  if (any && ahead > 0)
    ms_chart_data_add_ref (d, ahead, _ ("the kernel ahead"));
  return d;
}

void
ms_picture_sync_async (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  /* The default part's two directions; the blocking part is told in the
   * caption (every call there takes as long as its copy). */
  for (int dir = 0; dir < MS_SA_DIR_COUNT; dir++) {
    g_autoptr (MsChartData) data = build (run, (MsSaDir)dir);
    cairo_save (cr);
    cairo_translate (cr, dir * width / 2, 0);
    cairo_rectangle (cr, 0, 0, width / 2, height);
    cairo_clip (cr);
    ms_chart_draw (cr, data, style, width / 2, height, -1, NULL);
    cairo_restore (cr);
  }
}
