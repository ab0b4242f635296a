/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-parts.h: what the lessons' pictures share
 * (draw/ms-picture-parts.c defines it). */
#pragma once

#include "memsweep.h"
#include "ms-chart.h"
#include "ms-draw.h"
#include "ms-timeline-rows.h"

G_BEGIN_DECLS

/* A run's cell by mode and variant at any size
 * (the probes' cells are one size each), or NULL; and the text drawn in
 * the middle when a picture has nothing to show. */
const MsCell *ms_picture_cell (const MsResults *run, const char *variant);
/* That cell's end-to-end median, or 0 where it has none. */
double ms_picture_median (const MsResults *run, const char *variant);
void ms_picture_empty (cairo_t *cr, const MsChartStyle *style, double width, double height,
                       const char *text);
/* A picture's bold title at its top left, wrapped to width; returns its
 * height (the pictures' content starts a little under it). */
double ms_picture_title (cairo_t *cr, const MsChartStyle *style, const char *title, double width);
/* Its height, measured as it is drawn (measured at another size, a second line went under a
 * picture's panels). */
double ms_picture_title_height (cairo_t *cr, const MsChartStyle *style, const char *title,
                                double width);
/* A key's sample of series i (the chart palette's colour and marker): a
 * line fs * 1.6 long from x, across the middle of a text line at y of
 * height th. */
void ms_picture_key_line (cairo_t *cr, const MsChartStyle *st, guint i, double x, double y,
                          double th, double fs, double lw);

/* A bar from x0 to x1 (at least a pixel: the slowest rate still shows),
 * h high about cy, in c at alpha. */
void ms_picture_bar (cairo_t *cr, const MsColor *c, double alpha, double x0, double x1, double cy,
                     double h);
/* A bar's figure at size after its end x1, or inside that end in the
 * background's colour where it would run past right; returns where the
 * figure ends on the right. */
double ms_picture_bar_figure (cairo_t *cr, const MsChartStyle *st, const char *text, double size,
                              gboolean bold, double x1, double cy, double right);

/* On the background, data's chart over note, which is wrapped under it
 * across the width in the foreground's colour, a little smaller than the
 * text (what the chart needs said in words). */
void ms_picture_chart_over_note (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                                 double width, double height, const char *note);

/* One y range for the n panels, from their values, intervals and
 * reference lines: the same time at the same height in each. */
void ms_picture_share_range (MsChartData *const *panels, int n);

/* One bar of ms_picture_time_bars: its name, a time's median and 95%
 * interval in µs, its colour (the chart palette's index), and whether its
 * interval is too wide to trust its median (no bar then: its interval
 * alone, and "too noisy" with its ends in words). */
typedef struct {
  const char *name;
  double median, lo, hi;
  guint colour;
  gboolean noisy;
} MsTimeBar;
/* A slide's comparison of n times, as the takeaway quotes them: title at
 * the top, one bar each on one scale from zero, named at its left (or
 * over it) and timed at its end, its interval a thin line under it, and
 * note (one line) at the bottom. The scale ends at 2.5 times the longest bar: an
 * interval past it ends in an arrowhead, and
 * ms_picture_time_bars_cut () says whether one does (for the note). */
void ms_picture_time_bars (cairo_t *cr, const MsChartStyle *style, const char *title,
                           const char *note, const MsTimeBar *bars, int n, double width,
                           double height);
gboolean ms_picture_time_bars_cut (const MsTimeBar *bars, int n);
/* A bar's interval as those bars draw it: a thin, lighter line from lo to
 * up (pixels) at cy, with end caps cap high, or an arrowhead at up where
 * cut (the interval runs on past the scale's end). */
void ms_picture_interval (cairo_t *cr, const MsChartStyle *style, double lo, double up,
                          gboolean cut, double cy, double cap);
/* The rows' timelines on the window they need (expand: with the set-up
 * shown, ms_timeline_rows_window) in the band height tall from y down,
 * width wide; clip: nothing of them outside the band (they paint their
 * own background, which must not cover what is above or below). */
void ms_picture_timelines (cairo_t *cr, MsTimelineRows *rows, gboolean expand, gboolean clip,
                           const MsChartStyle *style, double y, double width, double height);

/* A total time against n uses (ms-picture-cost-lines.c): once_us + n ×
 * per_use_us, named at its end over that sum; in mode's colour and dash,
 * dotted where dotted, in the text's colour where plain. */
#define MS_COST_LINES_MAX 4
typedef struct {
  const char *name;
  double once_us, per_use_us;
  MsMode mode;
  gboolean dotted, plain;
} MsCostLine;
/* A dashed mark down the plot at n, its words over it (brief: where the
 * words of two marks would touch). */
typedef struct {
  double n;
  char label[96], brief[48];
} MsCostMark;
/* m at n, where two lines cross, said so, with the headline's whole n
 * beside it. */
void ms_picture_cost_cross (MsCostMark *m, double n, int whole);
/* The lines from n_min to n_max left of x1 in y0..y1, their ticks and
 * x_label included, named at their ends where named, and the marks. */
void ms_picture_cost_lines (cairo_t *cr, const MsChartStyle *st, const MsCostLine *l,
                            guint n_lines, double n_min, double n_max, gboolean named,
                            const MsCostMark *marks, guint n_marks, const char *x_label, double x1,
                            double y0, double y1);
/* A line's sample in a key, from x to x + len at y. */
void ms_picture_cost_key (cairo_t *cr, const MsChartStyle *st, const MsCostLine *l, double x,
                          double y, double len);

G_END_DECLS
