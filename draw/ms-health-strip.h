/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-health-strip.h: the health strip under the charts (ms-health-strip.c):
 * the run's link and clock health in words, then one box per size with
 * the PCIe link its cells read under load (against the device's maximum)
 * and whether a cell throttled or its clock moved, then a line of the
 * run's figures against their envelope. Cairo, Pango and GLib only. */
#pragma once

#include "ms-draw.h"

G_BEGIN_DECLS

/* The height the strip wants at style's text size. */
double ms_health_strip_height (const MsChartStyle *style);
/* Draws run's strip into width x height from the top left of cr;
 * envelope_line (may be NULL) is the envelope's one-line summary. */
void ms_health_strip_draw (cairo_t *cr, const MsResults *run, const char *envelope_line,
                           const MsChartStyle *style, double width, double height);

G_END_DECLS
