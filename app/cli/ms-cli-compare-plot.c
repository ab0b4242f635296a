/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-compare-plot.c: `memsweep compare --plot FILE`, the difference
 * chart (draw/ms-compare-chart.c) exported as PNG, SVG or PDF. */
#include "ms-cli-common.h"
#include "ms-cli-compare.h"
#include "ms-cli-draw.h"
#include "ms-drawing.h"
#include "ms-i18n.h"

typedef struct {
  const MsComparison *cmp;
  const MsChartData *data;
  MsChartStyle style;
} Job;

static void
draw (cairo_t *cr, double width, double height, gpointer user_data)
{
  Job *job = user_data;
  ms_draw_background (cr, &job->style);
  ms_compare_chart_draw (cr, job->cmp, job->data, &job->style, width, height, NULL);
}

bool
ms_cli_compare_plot_name_ok (const char *path)
{
  if (ms_export_format_known (path))
    return true;
  ms_cli_error (ms_gettext ("--plot %s: the name must end in .png, .svg or .pdf\n"), path);
  return false;
}

bool
ms_cli_compare_plot (const char *path, const MsComparison *cmp, const MsResults *a,
                     const MsResults *b)
{
  if (!ms_cli_draw_fonts_ready ())
    return false;
  g_autofree char *title = g_strdup_printf (ms_gettext ("B: %s against A: %s"), b->label, a->label);
  Job job = { .cmp = cmp, .data = ms_compare_chart_data (cmp, title) };
  ms_chart_style_init_light (&job.style);
  g_autoptr (GError) error = NULL;
  gboolean ok = ms_export_drawing (path, 1024, 768, draw, &job, &error);
  if (!ok)
    ms_cli_print_error (error);
  ms_chart_data_free ((MsChartData *)job.data);
  return ok;
}
