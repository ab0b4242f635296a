/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-health-view.h: the health strip under the chart (ms-health-strip.h)
 * as a widget: a run's link and clock health per size and its figures
 * against their reference envelope (docs/envelopes.md). */
#pragma once

#include <gtk/gtk.h>

#include "ms-chart-view.h"

#include "ms-run.h"

G_BEGIN_DECLS

#define MS_TYPE_HEALTH_VIEW (ms_health_view_get_type ())
G_DECLARE_FINAL_TYPE (MsHealthView, ms_health_view, MS, HEALTH_VIEW, MsChartView)

/* Properties: "run" (MsRun, the run shown, or NULL), "warns" (read-only:
 * the run's link ran below its maximum or a cell throttled), "envelope"
 * (read-only: the run's figures against their envelope, one line), and
 * the text-scale / line-scale / high-contrast of MsChartView. */
void ms_health_view_set_run (MsHealthView *self, MsRun *run);

G_END_DECLS
