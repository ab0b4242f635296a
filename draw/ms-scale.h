/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-scale.h: axes, ticks and value <-> pixel mapping for the charts.
 * No widgets and no drawing, so it is tested without a display. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  MS_SCALE_LINEAR,
  MS_SCALE_LOG10,
  MS_SCALE_LOG2,
} MsScaleKind;

/* What the values count, for the tick labels: plain numbers, or a time in
 * µs labelled in the unit that reads best (µs, ms, s). */
typedef enum {
  MS_SCALE_PLAIN,
  MS_SCALE_TIME_US,
  MS_SCALE_COUNT, /* a log2 axis of counts (streams, uses, FMAs): "16", not "16 B" */
} MsScaleUnit;

typedef struct {
  MsScaleKind kind;
  double min, max;       /* data range shown */
  double pixel_lo, pixel_hi; /* pixels of min and max (hi < lo for y) */
  MsScaleUnit unit;      /* after the fields above, so older literals stay valid */
} MsScale;

typedef struct {
  double value;
  char label[32];
  gboolean major;
} MsTick;

/* Sets a range that covers lo..hi, padded to round values for the kind.
 * Linear ranges start at 0 when all data are positive. */
void ms_scale_fit (MsScale *scale, MsScaleKind kind, double lo, double hi);
/* As ms_scale_fit, but a log10 range ends at the round values just
 * beyond lo and hi with a tenth of room: a chart whose values span a
 * decade or two fills its height, none on the frame. */
void ms_scale_fit_tight (MsScale *scale, MsScaleKind kind, double lo, double hi);
/* A log10 range widened, to round values, until lo lies at least px_lo
 * and hi px_hi pixels inside its length_px ends: on a short axis a tenth
 * of the range was less than a marker, which then sat on the frame. */
void ms_scale_keep_clear (MsScale *scale, double lo, double hi, double length_px, double px_lo,
                          double px_hi);
double ms_scale_to_pixel (const MsScale *scale, double value);
gboolean ms_scale_contains (const MsScale *scale, double value);

/* Ticks with labels; at most max_ticks labelled ones. For LOG2 the values
 * are bytes, labelled "4 KiB", "1 MiB"; when more powers of two lie in the
 * range than fit, every second (fourth ...) counted down from the largest,
 * so that the last size is always labelled. Time scales carry their unit on
 * every label: one unit for a linear axis, each tick's own on a log axis.
 * Returns the number written. */
guint ms_scale_ticks (const MsScale *scale, MsTick *ticks, guint max_ticks);

/* "4 KiB", "512 B", "1 GiB": powers of two read by people. */
void ms_format_size_label (double bytes, char *buf, gsize len);
/* A power of two on a size axis as its tick says it: a count ("16") where the scale counts, else
 * a size ("16 KiB"). */
void ms_scale_size_label (const MsScale *scale, double value, char *buf, gsize len);
/* Three significant digits everywhere (0.25, 12.5, 1500, 495330 -> 495000):
 * the same precision for tooltips, read-outs and labels. */
void ms_format_value (double value, char *buf, gsize len);
/* A time in µs in the unit that keeps it under 1000: "3.2 µs", "495 ms",
 * "1.5 s", with ms_format_value's precision. */
void ms_format_time_us (double us, char *buf, gsize len);

G_END_DECLS
