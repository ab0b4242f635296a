/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown.h: where the time of each mode goes at one size, as stacked
 * horizontal bars of phases, drawn with Cairo: the path every repetition
 * pays, which adds up to the end-to-end median (the Time view's), and
 * optionally beside it the one-time costs (allocate, initialise, register,
 * verify, free), which lie outside end-to-end. */
#pragma once

#include "memsweep.h"
#include "ms-draw.h"

G_BEGIN_DECLS

/* Below this factor a shrunk row says its phases' sum and the factor. */
#define MS_BREAKDOWN_SAID_SCALE 0.995

/* One repetition's path of a cell: the phases inside the end-to-end window
 * (launch, prefetch, h2d, kernel, d2h) and the rest of that window.
 *
 * How the phases add up to the median end-to-end time E: each phase is its
 * median over the repetitions (GPU time where it has one). When their sum S
 * is at most E, they are drawn at their medians and `rest` = E - S is the
 * part of the window no phase accounts for (the latch kernel, the final
 * synchronise, gaps between calls). When S > E the phases overlapped (the
 * streams mode, a launch enqueued while a copy runs): each is scaled by
 * E / S (`scale` < 1) so they share the window in proportion, and `rest` is
 * 0; the drawing then gives S and that factor after the row, so that no
 * shrunk bar is read as its phase's median. Either way the total is E. */
typedef struct {
  double phase[MS_PHASE_COUNT]; /* µs as drawn; 0 for phases outside the path */
  double rest;                  /* µs of the window no phase accounts for */
  double scale;                 /* 1, or E / S when the phases overlapped */
  double total;                 /* the median end-to-end time */
} MsBreakdownPath;

/* Whether a phase is a one-time cost (outside the end-to-end window). */
gboolean ms_breakdown_phase_is_one_time (MsPhase phase);
/* FALSE when the cell has no end-to-end time (failed, empty). */
gboolean ms_breakdown_path (const MsCell *cell, MsBreakdownPath *out);

/* One row per (run, mode) with a cell at 2^exponent, for every run given
 * (MsResults*): the per-repetition path; with one_time, the one-time costs
 * in a second, labelled group beside it. Many rows in little height shrink
 * their text; returns the height at which it stays legible (a widget asks
 * for it and scrolls). */
double ms_breakdown_draw_full (cairo_t *cr, GPtrArray *runs, int exponent, gboolean one_time,
                                 const MsChartStyle *style, double width, double height);

G_END_DECLS
