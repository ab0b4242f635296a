/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-drawing.h: the drawing library's front door, all that the app (ui/)
 * and the command line (app/) include of draw/: every drawing on any
 * cairo_t, the export to files, the report and the lesson handout. The
 * rest of draw/ (the palette, the breakdown's bars, the timeline's lanes,
 * labels and queues, the SVG text, the pictures' shared parts) is its own;
 * the `front-doors` test (tools/front-doors.py) checks. Each header below
 * says which file defines what it declares. */
#pragma once

/* What every drawing shares: colours, text, scales */
#include "ms-draw.h"
#include "ms-scale.h"
/* The views: charts and their data, timelines, the health strip, the
 * difference chart, heat maps, the topology, the reuse chart */
#include "ms-chart.h"
#include "ms-compare-chart.h"
#include "ms-health-strip.h"
#include "ms-matrix.h"
#include "ms-plots.h"
#include "ms-reuse-chart.h"
#include "ms-timeline-rows.h"
#include "ms-timeline.h"
#include "ms-topology.h"
/* The lessons: their pictures and the cells that answer them */
#include "ms-lesson-answer.h"
#include "ms-lesson-picture.h"
#include "ms-lesson-rows.h"
/* A run in words */
#include "ms-run-describe.h"
/* Files: PNG, SVG, PDF, the report and the lesson handout */
#include "ms-export.h"
#include "report/ms-report-content.h"
#include "report/ms-report-handout.h"
#include "report/ms-report-views.h"
