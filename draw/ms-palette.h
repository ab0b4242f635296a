/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-palette.h: the colours and looks every drawing picks from: the series
 * palette (one colour per memory mode), the phase colours, how a mode's
 * series looks (colour, marker shape, dash) and how a run's markers are
 * filled, each with a light and a dark variant where it has colour. GLib
 * only: no drawing here (ms-draw.h draws what this names). */
#pragma once

#include <glib.h>

#include "memsweep.h"

G_BEGIN_DECLS

/* A colour with components in 0..1; GdkRGBA has the same layout. */
typedef struct {
  double red, green, blue, alpha;
} MsColor;

/* The series palette: one colour per memory mode, chosen for distance
 * from each other and from the background with normal vision and with
 * deuteranopia and protanopia simulated, one variant for light and one for
 * dark styles (test-render-layout checks the distances). */
guint ms_chart_palette_size (void);
void ms_chart_palette_color (guint index, gboolean dark, MsColor *out);

/* Markers: 0 circle, 1 square, 2 triangle, 3 diamond, 4 triangle pointing
 * down. */
#define MS_MARKER_SHAPES 5

/* How a mode's series looks: its palette colour, marker and dash (0 solid,
 * 1 dashed, 2 dotted, 3 dash-dot). No two modes share a marker and dash
 * pair, and modes that often lie on top of each other (pinned, registered,
 * write-combined, streams) differ in both. */
void ms_mode_look (MsMode mode, guint *color, guint *shape, guint *dash);

/* How a run's markers are filled when runs are overlaid: the mode already
 * takes colour, shape and dash, so runs differ by what is inside the
 * marker's outline. Eight, so that eight runs never repeat a look. */
typedef enum {
  MS_FILL_SOLID,
  MS_FILL_HOLLOW,
  MS_FILL_DOT,         /* outline, a solid dot in the middle */
  MS_FILL_LOWER_HALF,  /* outline, the lower half filled */
  MS_FILL_HALO,        /* solid inside a ring of its own shape */
  MS_FILL_LEFT_HALF,   /* outline, the left half filled */
  MS_FILL_UPPER_HALF,  /* outline, the upper half filled */
  MS_FILL_RIGHT_HALF,  /* outline, the right half filled */
  MS_RUN_STYLES
} MsMarkerFill;

/* The fill of the run-th run shown (from 0); after MS_RUN_STYLES runs
 * the fills come round again. */
MsMarkerFill ms_run_fill (guint run);

/* How the variant-th variant of a mode looks where one chart draws
 * several of it (the reuse chart's reads only, writes only and writes in
 * one kernel, variant 1 to 3; variant 0 is the mode itself, as
 * ms_mode_look): each its own colour (of a mode the chart has not), its
 * own dash and marker (a triangle pointing up, which no mode there has,
 * filled in its own way), so that they are told apart without the hue,
 * in grayscale print too. */
void ms_mode_variant_look (MsMode mode, guint variant, guint *color, guint *shape, guint *dash,
                           MsMarkerFill *fill);

/* Phase colours: Okabe & Ito's palette, greys for allocation and release. */
void ms_phase_color (MsPhase phase, gboolean dark, MsColor *out);
/* A phase's name as a key and a bar show it, translated ("kernel");
 * files and the command line's tables keep ms_phase_name. */
const char *ms_phase_label (MsPhase phase);

/* The colour of text set on fill: black where it reads 4.5:1 on it (WCAG
 * AA), as on most phase colours, else white where that reads better
 * (h2d's #0072B2 gives black 4.05:1, white 5.17:1). */
void ms_ink_on (const MsColor *fill, MsColor *out);
/* Text in the foreground colour at this opacity (notes, hidden legend
 * entries, a chart's empty-plot line) still reads 4.5:1 (WCAG AA) on the
 * background in both styles, over a grid line too: the least opacity any
 * text may have (tests/draw/test-contrast.c). */
#define MS_TEXT_FAINT_ALPHA 0.75
/* Grid lines: the foreground at this opacity (more in high contrast). */
#define MS_GRID_ALPHA 0.12
#define MS_GRID_ALPHA_HIGH_CONTRAST 0.3

G_END_DECLS
