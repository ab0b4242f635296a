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
} MsBarLabel;

/* Labels for bars (MsTimelineBar, most important first) at size fs, among
 * obstacles (MsTimelineBar: every GPU bar drawn), between left and right;
 * rates: copies that did not wait may show their rate. No label covers
 * another or a bar it does not name. Returns MsBarLabel, a bar without
 * room for any label left out. */
GArray *ms_timeline_labels_place (cairo_t *cr, const GArray *bars, const GArray *obstacles,
                                  double left, double right, double fs, gboolean rates,
                                  double vector_bytes);

G_END_DECLS
