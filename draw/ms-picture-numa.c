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
  ms_set_color (cr, &st->fg, 0.06);
  cairo_rectangle (cr, cx - w / 2, y, w, h);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 0.6);
  ms_frame_rect (cr, round (cx - w / 2), round (y), round (w), round (h), ms_style_line_width (st));
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, name, cx, y + fs * 0.4, fs, 0.5, 0, TRUE, NULL, NULL);
  ms_draw_text (cr, line, cx, y + fs * 1.7, fs, 0.5, 0, FALSE, NULL, NULL);
}

/* A buffer in a node's memory: a square of its path's colour centred on
 * (cx, cy), named at its right (its copy leaves it down or left). */
static void
buffer_mark (cairo_t *cr, const MsChartStyle *st, const MsColor *colour, const char *name,
             double cx, double cy)
{
  const double fs = ms_style_font_size (st);
  ms_set_color (cr, colour, 1);
  cairo_rectangle (cr, round (cx - fs * 0.45), round (cy - fs * 0.45), round (fs * 0.9),
                   round (fs * 0.9));
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, name, cx + fs * 0.8, cy, fs, 0, 0.5, FALSE, NULL, NULL);
}

/* A copy's way from a buffer to the GPU through the points (x, y pairs),
 * with an arrow head at the end; dashed for the far buffer's. */
static void
copy_path (cairo_t *cr, const MsChartStyle *st, const MsColor *colour, gboolean dashed,
           const double *pts, int n)
{
  const double lw = ms_style_line_width (st) * 2, head = ms_style_font_size (st) * 0.6;
  ms_set_color (cr, colour, 1);
  cairo_set_line_width (cr, lw);
  if (dashed)
    cairo_set_dash (cr, (double[]){ lw * 3, lw * 2 }, 2, 0);
  cairo_move_to (cr, pts[0], pts[1]);
  for (int i = 1; i < n; i++)
    cairo_line_to (cr, pts[2 * i], pts[2 * i + 1]);
  /* The last stretch stops at the head's base. */
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  double x1 = pts[2 * n - 2], y1 = pts[2 * n - 1], x0 = pts[2 * n - 4], y0 = pts[2 * n - 3];
  double a = atan2 (y1 - y0, x1 - x0);
  cairo_move_to (cr, x1, y1);
  cairo_line_to (cr, x1 - head * cos (a - 0.45), y1 - head * sin (a - 0.45));
  cairo_line_to (cr, x1 - head * cos (a + 0.45), y1 - head * sin (a + 0.45));
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* Where the parts of the two-node diagram go in a band from top. */
typedef struct {
  double fs, left, right, node_w, node_h, top, gpu_y, gpu_w, gpu_h, link_y;
} NodesLayout;

/* The diagram's places in width, its boxes narrower where the room is
 * short; FALSE where its words do not fit beside its paths. */
static gboolean
nodes_layout (cairo_t *cr, const MsChartStyle *st, double width, double top, double height,
              NodesLayout *l)
{
  *l = (NodesLayout){ .fs = ms_style_font_size (st), .top = top };
  const double fs = l->fs;
  double near_w = ms_draw_text_width (cr, _ ("near: one hop"), fs, TRUE);
  double far_w = ms_draw_text_width (cr, _ ("far: across the socket link too"), fs, TRUE);
  double buf_w = ms_draw_text_width (cr, _ ("near buffer"), fs, FALSE);
  double link_w = ms_draw_text_width (cr, _ ("socket link"), fs * 0.9, FALSE);
  for (double share = 1; share >= 0.6; share -= 0.1) {
    l->node_w = MIN (width * 0.34, fs * 16) * share;
    /* The near path's words left of it, the far path's right of its own. */
    l->left = MAX (width * 0.3, fs + near_w + l->node_w * 0.32);
    l->right = MIN (width - l->left, width - l->node_w / 2 - fs * 0.5);
    /* The link's name between the boxes, clear of their edges. */
    gboolean apart = l->right - l->left >= l->node_w + MAX (fs * 2, link_w + fs);
    gboolean far_fits = l->left + l->node_w * 0.32 + fs * 0.5 + far_w <= width - fs * 0.5;
    gboolean buf_fits = buf_w + fs * 1.4 <= l->node_w * 0.64;
    if (apart && far_fits && buf_fits)
      break;
    if (share < 0.65)
      return FALSE;
  }
  l->node_h = MAX (fs * 5.2, height * 0.5);
  /* The buffers, and the link the far one's copy crosses, under the
   * node's two lines of text. */
  l->link_y = round (top + MAX (fs * 4, l->node_h * 0.62));
  l->gpu_h = fs * 2.8;
  l->gpu_w = l->node_w * 0.8;
  l->gpu_y = top + height - l->gpu_h;
  return TRUE;
}

static double
width_mid (const NodesLayout *l)
{
  return (l->left + l->right) / 2;
}

/* The picture a host of two nodes gives: two sockets, each a CPU and its
 * memory, joined by the link between them; the GPU under node 0; a
 * buffer on each node and the way each one's copy takes to the GPU. */
static void
draw_two_nodes (cairo_t *cr, const MsChartStyle *st, const NodesLayout *l, const char *gpu)
{
  const double fs = l->fs, lw = ms_style_line_width (st);
  MsColor near, far;
  ms_chart_palette_color (0, st->dark, &near);
  ms_chart_palette_color (1, st->dark, &far);
  /* The link between the sockets, under the boxes' edges. */
  ms_set_color (cr, &st->fg, 0.6);
  ms_draw_line (cr, 3 * lw, l->left + l->node_w / 2, l->link_y, l->right - l->node_w / 2,
                l->link_y);
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, _ ("socket link"), width_mid (l), l->link_y - fs * 0.5, fs * 0.9, 0.5, 1,
                FALSE, NULL, NULL);
  node_box (cr, st, _ ("node 0"), _ ("CPU and memory"), l->left, l->top, l->node_w, l->node_h);
  node_box (cr, st, _ ("node 1"), _ ("CPU and memory"), l->right, l->top, l->node_w, l->node_h);
  double near_x = l->left - l->node_w * 0.32, far_x = l->right - l->node_w * 0.32;
  buffer_mark (cr, st, &near, _ ("near buffer"), near_x, l->link_y);
  buffer_mark (cr, st, &far, _ ("far buffer"), far_x, l->link_y);
  node_box (cr, st, gpu, _ ("the GPU, on node 0"), l->left, l->gpu_y, l->gpu_w, l->gpu_h);
  /* Near: straight down to the GPU. Far: out of its socket along the
   * link, into node 0, then down to the GPU. */
  double near_pts[] = { near_x, l->link_y + fs * 0.6, near_x, l->gpu_y - lw };
  copy_path (cr, st, &near, FALSE, near_pts, 2);
  double turn_x = l->left + l->node_w * 0.32;
  double far_pts[] = { far_x - fs * 0.6, l->link_y, turn_x, l->link_y, turn_x, l->gpu_y - lw };
  copy_path (cr, st, &far, TRUE, far_pts, 3);
  double mid = l->top + l->node_h + (l->gpu_y - l->top - l->node_h) / 2;
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, _ ("near: one hop"), near_x - fs * 0.5, mid, fs, 1, 0.5, TRUE, NULL, NULL);
  ms_draw_text (cr, _ ("far: across the socket link too"), turn_x + fs * 0.5, mid, fs, 0, 0.5,
                TRUE, NULL, NULL);
}

/* A host of one node: what the lesson shows on two, drawn (no shipped
 * run has two nodes), and, marked, why this host measured nothing. */
static void
draw_one_node (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width,
               double height)
{
  const double fs = ms_style_font_size (st);
  const char *gpu = run->device.name[0] ? run->device.name : _ ("GPU");
  if (g_str_has_prefix (gpu, "NVIDIA "))
    gpu += strlen ("NVIDIA ");
  ms_draw_background (cr, st);
  /* NUMA spelt out, and plainly that nothing was measured; no "copying
   * thread" that nothing drew. */
  const char *why = _ ("The run's host has one NUMA node: every buffer is near the GPU, so there "
                       "is no far buffer to time.");
  double tw = width - fs * 2;
  double badge_h = ms_draw_text_wrapped (cr, why, fs, 0, fs, tw - fs * 1.6, FALSE, FALSE) + fs * 2.4;
  double y = ms_picture_title (cr, st,
                               _ ("The idea: a host of two NUMA nodes (Non-Uniform Memory "
                                  "Access), two sockets, each a CPU with its own memory"),
                               width)
             + fs;
  /* The diagram no taller than it needs (a tall pane drew tall empty
   * boxes), the card's parts together in the middle of the room. */
  double room = height - y - badge_h - fs * 1.5, band = MIN (room, fs * 17);
  y += MAX (0, (room - band) / 2);
  NodesLayout l;
  if (band >= fs * 10 && nodes_layout (cr, st, width, y, band, &l)) {
    draw_two_nodes (cr, st, &l, gpu);
    y += band + fs;
  } else {
    /* No room for the diagram: what it would show, in words. */
    const char *what = _ ("On such a host the lesson times a copy from a buffer near the GPU "
                          "and from one on the other node.");
    ms_set_color (cr, &st->fg, 1);
    y += ms_draw_text_wrapped (cr, what, fs, y, fs, tw, FALSE, TRUE) + fs * 0.8;
  }
  /* Marked: this host did not measure it. */
  double bx = fs * 0.5, bw = width - fs;
  ms_set_color (cr, &st->fg, 0.08);
  cairo_rectangle (cr, bx, y, bw, badge_h);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 0.8);
  ms_frame_rect (cr, round (bx), round (y), round (bw), round (badge_h),
                 2 * ms_style_line_width (st));
  ms_set_color (cr, &st->fg, 1);
  ms_draw_text (cr, _ ("Nothing measured on this slide"), bx + fs * 0.8, y + fs * 0.5, fs * 1.1, 0,
                0, TRUE, NULL, NULL);
  ms_draw_text_wrapped (cr, why, bx + fs * 0.8, y + fs * 1.9, fs, bw - fs * 1.6, FALSE, TRUE);
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
