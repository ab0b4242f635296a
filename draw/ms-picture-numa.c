/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-numa.c: the NUMA-placement lesson's picture: two heat maps,
 * host to device and device to host, of the pinned copy rate with the
 * buffer's node in rows and the thread's node in columns; the GPU's own
 * node is marked. A host of one node gets the reason instead. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-matrix.h"

static const char *const dirs[] = { "h2d", "d2h" };

/* The index of node in ids (added when new), or -1 when full. */
static int
slot (int *ids, int *n, int node)
{
  for (int i = 0; i < *n; i++)
    if (ids[i] == node)
      return i;
  if (*n >= MS_MATRIX_MAX)
    return -1;
  ids[*n] = node;
  return (*n)++;
}

/* One direction's matrix; FALSE when it has no measured cell. */
static gboolean
build (const MsResults *run, int d, MsMatrixData *m)
{
  int bufs[MS_MATRIX_MAX], thrs[MS_MATRIX_MAX], nb = 0, nt = 0, gpu = -1;
  gboolean any = FALSE;
  memset (m, 0, sizeof *m);
  for (size_t i = 0; i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    char dir[8];
    int b, t, g;
    if (sscanf (c->variant, "dir=%3[a-z2]/buf=%d/thr=%d", dir, &b, &t) != 3
        || strcmp (dir, dirs[d]) != 0)
      continue;
    if (gpu < 0 && sscanf (c->message, "gpu-node=%d;", &g) == 1)
      gpu = g;
    int r = slot (bufs, &nb, b), k = slot (thrs, &nt, t);
    if (r < 0 || k < 0 || c->status != MS_CELL_OK || c->n_reps <= 0 || !(c->stats.e2e.median > 0))
      continue;
    m->value[r][k] = (double) ms_vector_bytes (c->elements) / c->stats.e2e.median / 1e3;
    any = TRUE;
  }
  m->n_rows = nb;
  m->n_cols = nt;
  for (int i = 0; i < nb; i++)
    if (bufs[i] == gpu)
      g_snprintf (m->row_label[i], sizeof m->row_label[i], _ ("node %d (GPU)"), bufs[i]);
    else
      g_snprintf (m->row_label[i], sizeof m->row_label[i], _ ("node %d"), bufs[i]);
  for (int i = 0; i < nt; i++)
    g_snprintf (m->col_label[i], sizeof m->col_label[i], _ ("node %d"), thrs[i]);
  g_snprintf (m->row_title, sizeof m->row_title, "%s", _ ("buffer"));
  g_snprintf (m->col_title, sizeof m->col_title, "%s", _ ("thread"));
  g_snprintf (m->title, sizeof m->title, "%s",
              d == 0 ? _ ("Host to device, GB/s") : _ ("Device to host, GB/s"));
  return any;
}

/* Why nothing was measured: the first cell's reason. */
static const char *
reason (const MsResults *run)
{
  for (size_t i = 0; i < run->n_cells; i++)
    if (run->cells[i].status != MS_CELL_OK && run->cells[i].message[0])
      return run->cells[i].message;
  return NULL;
}

/* A box with a bold name and a line under it, centred on cx. */
static void
node_box (cairo_t *cr, const MsChartStyle *st, const char *name, const char *line, double cx,
          double y, double w, double h)
{
  const double fs = ms_style_font_size (st);
  ms_set_color (cr, &st->fg, 0.08);
  cairo_rectangle (cr, cx - w / 2, y, w, h);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 0.6);
  ms_frame_rect (cr, round (cx - w / 2), round (y), round (w), round (h), ms_style_line_width (st));
  ms_set_color (cr, &st->fg, 0.95);
  ms_draw_text (cr, name, cx, y + h / 2 - fs * 0.1, fs, 0.5, 1, TRUE, NULL, NULL);
  ms_set_color (cr, &st->fg, 0.75);
  ms_draw_text (cr, line, cx, y + h / 2 + fs * 0.1, fs * 0.9, 0.5, 0, FALSE, NULL, NULL);
}

/* A host of one node: the node with the thread and the buffers, the GPU
 * beside it, and why nothing was compared under them. */
static void
draw_one_node (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width,
               double height)
{
  const double fs = ms_style_font_size (st);
  const char *gpu = run->device.name[0] ? run->device.name : _ ("GPU");
  ms_draw_background (cr, st);
  /* Not the caption again: what the picture would be, and why it is
   * not. */
  g_autofree char *text = g_strdup (
      _ ("On a host of two or more NUMA nodes, a buffer in another node's memory reaches the GPU "
         "across the link between the sockets, and this picture is a table: the copy rate for "
         "each pairing of the buffer's node and the thread's node. This host has one node: every "
         "buffer is near the GPU, so no copy was timed."));
  double tw = width - fs * 2;
  double text_h = ms_draw_text_wrapped (cr, text, fs, 0, fs, tw, FALSE, FALSE);
  double box_h = fs * 3.2, gap = fs * 1.2;
  double y = MAX (fs * 0.5, round ((height - box_h - gap - text_h) / 2));
  double gw, nw;
  ms_draw_text (cr, gpu, 0, 0, fs, -1, 0, TRUE, &gw, NULL);
  ms_draw_text (cr, _ ("the one NUMA node"), 0, 0, fs, -1, 0, TRUE, &nw, NULL);
  nw = MIN (nw + fs * 2, width * 0.42);
  gw = MIN (gw + fs * 2, width * 0.46);
  double link = MAX (fs, width - nw - gw - fs * 2);
  link = MIN (link, fs * 6);
  /* Where it fits, the node a larger host would add, dashed and faint,
   * its buffers one link further from the GPU: the picture of what this
   * host cannot show, which the text under it says in words. */
  double hw;
  ms_draw_text (cr, _ ("another node"), 0, 0, fs, -1, 0, TRUE, &hw, NULL);
  double ghost_line_w;
  ms_draw_text (cr, _ ("not on this host"), 0, 0, fs * 0.9, -1, 0, FALSE, &ghost_line_w, NULL);
  hw = MAX (hw, ghost_line_w) + fs * 2;
  /* With it the links shorten to three font sizes: at six, the 1024
   * slide had no room for it. */
  gboolean ghost = nw + gw + hw + fs * 8 <= width;
  if (ghost)
    link = MIN (link, MAX (fs * 3, (width - nw - gw - hw - fs * 2) / 2));
  double left = (width - nw - gw - link - (ghost ? hw + link : 0)) / 2;
  if (ghost) {
    ms_set_color (cr, &st->fg, 0.45);
    cairo_set_line_width (cr, ms_style_line_width (st));
    cairo_set_dash (cr, (double[]){ 5, 4 }, 2, 0);
    cairo_rectangle (cr, round (left) + 0.5, round (y) + 0.5, round (hw), round (box_h));
    cairo_move_to (cr, left + hw, round (y + box_h / 2));
    cairo_line_to (cr, left + hw + link, round (y + box_h / 2));
    cairo_stroke (cr);
    cairo_set_dash (cr, NULL, 0, 0);
    ms_set_color (cr, &st->fg, 0.75);
    ms_draw_text (cr, _ ("another node"), left + hw / 2, y + box_h / 2 - fs * 0.1, fs, 0.5, 1,
                  TRUE, NULL, NULL);
    ms_draw_text (cr, _ ("not on this host"), left + hw / 2, y + box_h / 2 + fs * 0.1, fs * 0.9,
                  0.5, 0, FALSE, NULL, NULL);
    left += hw + link;
  }
  node_box (cr, st, _ ("the one NUMA node"), _ ("thread and buffers"), left + nw / 2, y, nw, box_h);
  node_box (cr, st, gpu, _ ("the GPU"), left + nw + link + gw / 2, y, gw, box_h);
  ms_set_color (cr, &st->fg, 0.6);
  cairo_set_line_width (cr, 2 * ms_style_line_width (st));
  cairo_move_to (cr, left + nw, round (y + box_h / 2));
  cairo_line_to (cr, left + nw + link, round (y + box_h / 2));
  cairo_stroke (cr);
  ms_set_color (cr, &st->fg, 0.9);
  ms_draw_text_wrapped (cr, text, fs, y + box_h + gap, fs, tw, FALSE, TRUE);
}

static void
ms_picture_numa (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                 double height)
{
  MsMatrixData m[2];
  gboolean h2d = build (run, 0, &m[0]), d2h = build (run, 1, &m[1]);
  if (!h2d && !d2h) {
    const char *why = reason (run);
    if (why && strcmp (why, "this host has one NUMA node") == 0) {
      draw_one_node (cr, run, style, width, height);
      return;
    }
    const char *gpu = run->device.name[0] ? run->device.name : _ ("GPU");
    g_autofree char *text
        = why ? g_strdup_printf (_ ("No copy was measured on the %s: %s."), gpu, why)
              : g_strdup (_ ("The run has no measured copy."));
    ms_picture_empty (cr, style, width, height, text);
    return;
  }
  ms_draw_background (cr, style);
  double half = width / 2;
  for (int d = 0; d < 2; d++) {
    cairo_save (cr);
    cairo_translate (cr, d * half, 0);
    cairo_rectangle (cr, 0, 0, half, height);
    cairo_clip (cr);
    ms_matrix_draw (cr, &m[d], style, half, height, NULL);
    cairo_restore (cr);
  }
}

const MsLessonLook ms_lesson_look_numa = {
  .picture = ms_picture_numa,
};
