/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-labels.h: where a timeline's GPU bars get their labels
 * (bytes, time and rate): on the bar when it is wide enough, else just
 * after it (or before it) on its lane when the lane is free there. */
#pragma once

#include "ms-timeline.h"

G_BEGIN_DECLS

typedef struct {
  double x, y, w, h; /* the text's box */
  gboolean on_bar;   /* drawn over the bar (in ms_ink_on its colour), else on the lane */
  double size;       /* its text size */
  char text[128];
  MsPhase phase; /* the bar's, whose colour the text is set on */
  const MsEvent *event; /* the bar's */
  /* Placed away from its bar (ms_timeline_labels_call_out): an elbow
   * from the bar's edge up (or down) to the text's middle, then across
   * to the text. */
  gboolean leader;
  double leader_pts[3][2];
} MsBarLabel;

/* Labels for bars (MsTimelineBar, most important first) at size fs, among
 * obstacles (MsTimelineBar: every GPU bar drawn), between left and right;
 * rates: 1 where copies (that did not wait) may show their rate, 0 where
 * not, -1 where nor their time (the titles quote the rates); cell: the
 * bars' (its vector size and memory name them), or NULL. No label covers
 * another or a bar it does not name. Returns MsBarLabel, a bar without
 * room for any label left out. */
GArray *ms_timeline_labels_place (cairo_t *cr, const GArray *bars, const GArray *obstacles,
                                  double left, double right, double fs, int rates,
                                  const MsCell *cell);

/* Names the bars of bars that no label in placed names, where room is:
 * over the bar, a row or more up, beside an elbow leader to it, the
 * label and its leader clear of every bar in all_bars and every label
 * placed, within [left, right] and under top; a bar without such room
 * stays unnamed. The rightmost bar first, lowest: the leaders of bars
 * side by side then nest without crossing. Adds to placed. */
void ms_timeline_labels_call_out (cairo_t *cr, const GArray *bars, const GArray *all_bars,
                                  double left, double right, double top, double fs,
                                  GArray *placed);

G_END_DECLS
