/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-matrix.h: a heat map with the numbers in its cells: device x device
 * peer rates, or devices x sizes for a sweep on several GPUs, in GB/s, with
 * a colour scale and its legend. Cells without a value are marked n/a; the
 * diagonal of a device x device matrix is dashed and empty. Cairo, Pango
 * and GLib only. */
#pragma once

#include "ms-draw.h"
#include "ms-engine.h"

G_BEGIN_DECLS

#define MS_MATRIX_MAX 32

typedef struct {
  int n_rows, n_cols;
  char row_label[MS_MATRIX_MAX][48];
  char col_label[MS_MATRIX_MAX][48];
  char row_title[64]; /* e.g. "source" */
  char col_title[64]; /* e.g. "destination" */
  char title[160];
  double value[MS_MATRIX_MAX][MS_MATRIX_MAX]; /* GB/s; <= 0: none */
  gboolean square;    /* device x device: the diagonal is no pair */
  /* Optional, zero for the peer and multi matrices: a text drawn in a
   * cell instead of its number, a fixed colour scale (when scale_max >
   * scale_min; values outside take the end colours) and the legend's unit
   * ("" for GB/s). */
  char cell_text[MS_MATRIX_MAX][MS_MATRIX_MAX][32];
  /* Cells whose number the colour scale leaves out (the picture says why):
   * drawn hatched, as n/a is, with their text. */
  gboolean muted[MS_MATRIX_MAX][MS_MATRIX_MAX];
  /* The key's word for the hatched cells when they are muted ones (the
   * word their text says); empty: "n/a". */
  char muted_label[32];
  double scale_min, scale_max;
  char unit[32];
} MsMatrixData;

/* Where things went, for hit tests and the render tests. */
typedef struct {
  double x0, y0;         /* the first cell's top-left corner */
  double cell_w, cell_h;
  double font_size;      /* of the numbers in the cells */
  double text_w[MS_MATRIX_MAX][MS_MATRIX_MAX]; /* width of each cell's text, 0: none */
  double legend_x, legend_y, legend_w, legend_h; /* the colour bar */
  double vmin, vmax;     /* the colour scale's range */
  double axes_y;         /* the line under the title; both wrap to wrap_w */
  double wrap_w;
  double row_font_size;  /* of the row labels: no larger than a row */
  double col_font_size, col_labels_h; /* the column labels, wrapped to a cell */
} MsMatrixLayout;

/* The matrix of a peer method (MS_PEER_METHOD_COUNT: the reference loop),
 * one way or both. */
void ms_matrix_data_from_peer (MsMatrixData *data, const MsPeerResults *peer, int method,
                               gboolean bidirectional);
/* Devices x sizes of a sweep on several GPUs: one row per run (MsResults*,
 * one per device), one column per size any of them has, the median h2d
 * (direction 0), d2h (1) or end-to-end (2) GB/s of mode. */
void ms_matrix_data_from_runs (MsMatrixData *data, GPtrArray *runs, MsMode mode, int direction);
/* The colour of value on the scale vmin..vmax: a sequential ramp, light
 * (low) to dark (high), the same on light and dark styles. */
void ms_matrix_color (double value, double vmin, double vmax, gboolean dark, MsColor *out);

/* A colour-bar label of the scale in layout: whole numbers, or tenths on a
 * scale narrower than 10; a value that rounds to zero is "0", not "-0". */
void ms_matrix_legend_label (const MsMatrixLayout *layout, double value, char *out, gsize size);

/* Draws into width x height; layout (may be NULL) says where. With no rows
 * it says so in the middle. */
void ms_matrix_draw (cairo_t *cr, const MsMatrixData *data, const MsChartStyle *style,
                     double width, double height, MsMatrixLayout *layout);

/* text centred at (cx, cy), shrunk until it fits a box_w x box_h box (3
 * units inside each side); returns the width drawn. The topology uses it
 * too. */
double ms_text_in_box (cairo_t *cr, const char *text, double cx, double cy, double box_w,
                       double box_h, double size, gboolean bold);

/* The cell under (x, y), FALSE outside the cells. */
gboolean ms_matrix_hit (const MsMatrixLayout *layout, const MsMatrixData *data, double x,
                        double y, int *row, int *col);

G_END_DECLS
