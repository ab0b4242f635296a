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

typedef struct {
  MsScaleKind kind;
  double min, max;       /* data range shown */
  double pixel_lo, pixel_hi; /* pixels of min and max (hi < lo for y) */
} MsScale;

typedef struct {
  double value;
  char label[32];
  gboolean major;
} MsTick;

/* Sets a range that covers lo..hi, padded to round values for the kind.
 * Linear ranges start at 0 when all data are positive. */
void ms_scale_fit (MsScale *scale, MsScaleKind kind, double lo, double hi);
double ms_scale_to_pixel (const MsScale *scale, double value);
double ms_scale_from_pixel (const MsScale *scale, double pixel);
gboolean ms_scale_contains (const MsScale *scale, double value);

/* Ticks with labels; at most max_ticks labelled ones. For LOG2 the values
 * are bytes, labelled "4 KiB", "1 MiB". Returns the number written. */
guint ms_scale_ticks (const MsScale *scale, MsTick *ticks, guint max_ticks);

/* "4 KiB", "512 B", "1 GiB": powers of two read by people. */
void ms_format_size_label (double bytes, char *buf, gsize len);
/* 0.25, 12.5, 1500: short value labels. */
void ms_format_value (double value, char *buf, gsize len);

G_END_DECLS
