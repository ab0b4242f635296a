/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-implicit-sync.c: the implicit-synchronisation lesson's
 * picture: the matrix of operations x (stream kind, queues) as a heat map
 * from one to two kernel times, each cell saying whether the kernels
 * overlapped, and below it the timeline of one serialised cell's
 * instrumented sample, where the second kernel starts as the first ends. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-implicit-sync.h"
#include "ms-lesson-picture.h"
#include "ms-matrix.h"
#include "ms-timeline.h"

/* compact: a small picture's cells say the word alone, large enough to
 * read; the colour and the timeline-free picture carry the rest. */
static void
fill_matrix (MsMatrixData *d, const MsResults *run, gboolean compact)
{
  g_snprintf (d->title, sizeof d->title, "%s",
              _("Two kernels, one operation between the launches: time in kernel times"));
  g_snprintf (d->row_title, sizeof d->row_title, "%s", _("operation"));
  g_snprintf (d->col_title, sizeof d->col_title, "%s",
              _("stream kind, hardware queues (1 or the default)"));
  g_snprintf (d->unit, sizeof d->unit, "%s", _("× kernel"));
  g_snprintf (d->muted_label, sizeof d->muted_label, "%s", _("unclear"));
  d->scale_min = 1;
  d->scale_max = 2; /* serialised kernels take two kernel times; more, to the largest */
  d->n_cols = MS_SYNC_N_COLUMNS;
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++)
    g_snprintf (d->col_label[col], sizeof d->col_label[col], "%s",
                ms_implicit_sync_column_label (col));
  for (int op = MS_SYNC_OP_NONE; op < MS_SYNC_OP_COUNT && d->n_rows < MS_MATRIX_MAX; op++) {
    int i = d->n_rows++;
    g_snprintf (d->row_label[i], sizeof d->row_label[i], "%s",
                _(ms_implicit_sync_op_label ((MsSyncOp) op)));
    for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
      MsSyncJudged j;
      MsSyncVerdict v = ms_implicit_sync_judge (run, (MsSyncOp) op, col, &j);
      d->value[i][col] = v == MS_SYNC_MISSING ? -1 : j.times;
      const char *word = v == MS_SYNC_SERIALISED ? _("serial")
                       : v == MS_SYNC_OVERLAPPED ? _("overlap")
                                                 : _("unclear");
      if (v != MS_SYNC_MISSING && compact)
        g_snprintf (d->cell_text[i][col], sizeof d->cell_text[i][col], "%s", word);
      else if (v != MS_SYNC_MISSING)
        g_snprintf (d->cell_text[i][col], sizeof d->cell_text[i][col], "%s %.2f×", word, j.times);
      /* An unclear cell's ratio holds the call's own time: coloured, it
       * outranked the serialised cells it is no evidence for. */
      d->muted[i][col] = v == MS_SYNC_UNDECIDED;
      if (v != MS_SYNC_MISSING && !d->muted[i][col] && j.times > d->scale_max)
        d->scale_max = ceil (j.times * 4) / 4;
    }
  }
}

/* What the cells' words mean, from the limits the engine judged them by
 * (ms_implicit_sync_judge): the range of the serialised-above limits over
 * the decided cells and the call share that leaves a cell undecided. */
static char *
verdict_text (const MsResults *run)
{
  double lo = INFINITY, hi = 0;
  for (int op = MS_SYNC_OP_NONE; op < MS_SYNC_OP_COUNT; op++)
    for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
      MsSyncJudged j;
      MsSyncVerdict v = ms_implicit_sync_judge (run, (MsSyncOp) op, col, &j);
      if ((v == MS_SYNC_SERIALISED || v == MS_SYNC_OVERLAPPED) && j.serial_above > 0) {
        lo = MIN (lo, j.serial_above);
        hi = MAX (hi, j.serial_above);
      }
    }
  if (!isfinite (lo))
    return g_strdup (_("No cell of this run was decided: the words say why."));
  /* Each cell has its own limit; they lie close, so one figure: their
   * middle, to a tenth. */
  return g_strdup_printf (_("serial: the kernels ran one after the other (above the cell's "
                            "limit, about %.1f×); overlap: below it; unclear: the call alone "
                            "took over %.0f%% of a kernel's time."),
                          (lo + hi) / 2, 100 * MS_SYNC_UNDECIDED_CALL_SHARE);
}

/* The cell whose timeline teaches most: a serialised cudaMalloc on
 * blocking streams if there is one, else the first serialised cell, else
 * nothing between the kernels. */
static const MsCell *
pick_cell (const MsResults *run, MsSyncOp *op_out, int *col_out)
{
  MsSyncJudged j;
  int best_op = -1, best_col = 0;
  if (ms_implicit_sync_judge (run, MS_SYNC_OP_MALLOC, 1, &j) == MS_SYNC_SERIALISED)
    best_op = MS_SYNC_OP_MALLOC, best_col = 1;
  for (int op = MS_SYNC_OP_MALLOC; op < MS_SYNC_OP_COUNT && best_op < 0; op++)
    for (int col = 0; col < MS_SYNC_N_COLUMNS && best_op < 0; col++)
      if (ms_implicit_sync_judge (run, (MsSyncOp) op, col, &j) == MS_SYNC_SERIALISED)
        best_op = op, best_col = col;
  if (best_op < 0)
    best_op = MS_SYNC_OP_NONE, best_col = 1;
  char v[MS_VARIANT_LEN];
  ms_implicit_sync_variant (v, sizeof v, (MsSyncOp) best_op, best_col >= 2, best_col % 2);
  *op_out = (MsSyncOp) best_op;
  *col_out = best_col;
  return ms_picture_cell (run, v);
}

static void
draw_timeline (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
               double height)
{
  MsSyncOp op;
  int col;
  const MsCell *cell = pick_cell (run, &op, &col);
  g_autofree char *title =
    g_strdup_printf (_("Timeline of one instrumented sample: %s, %s"),
                     _(ms_implicit_sync_op_label (op)), ms_implicit_sync_column_label (col));
  double extent = cell ? ms_timeline_extent (cell, 0) : 0;
  if (!(extent > 0)) {
    ms_timeline_draw_message (cr, style, width, height, title,
                              _("This cell has no instrumented sample to draw."));
    return;
  }
  MsTimeWindow win;
  ms_time_window_reset (&win, extent);
  ms_time_window_end_after (&win, extent);
  ms_timeline_draw (cr, cell, 0, &win, style, width, height, title, NULL);
}

void
ms_picture_implicit_sync (cairo_t *cr, const MsResults *run, const MsChartStyle *style,
                          double width, double height)
{
  double fs = ms_style_font_size (style), wrap = width - 2 * fs;
  /* In a small picture (the chart's share of a window) the matrix keeps
   * the room and the timeline goes: its lanes would be a few pixels. */
  gboolean small = width < 45 * fs || height < 32 * fs;
  g_autofree MsMatrixData *data = g_new0 (MsMatrixData, 1);
  fill_matrix (data, run, small);
  g_autofree char *verdicts = verdict_text (run);
  ms_draw_background (cr, style);
  double text_h = ms_draw_text_wrapped (cr, verdicts, 0, 0, fs * 0.9, wrap, FALSE, FALSE);
  double bottom = small ? 0 : round (height * 0.36);
  double top = round (height - bottom - text_h - fs * 0.5);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, top);
  cairo_clip (cr);
  ms_matrix_draw (cr, data, style, width, top, NULL);
  cairo_restore (cr);
  ms_set_color (cr, &style->fg, 0.8);
  ms_draw_text_wrapped (cr, verdicts, fs, top, fs * 0.9, wrap, FALSE, TRUE);
  if (small)
    return;
  cairo_save (cr);
  cairo_translate (cr, 0, height - bottom);
  cairo_rectangle (cr, 0, 0, width, bottom);
  cairo_clip (cr);
  draw_timeline (cr, run, style, width, bottom);
  cairo_restore (cr);
}
