/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-numa.c: the NUMA-placement lesson's picture: two heat maps,
 * host to device and device to host, of the pinned copy rate with the
 * buffer's node in rows and the thread's node in columns; the GPU's own
 * node is marked. A host of one node gets the reason instead. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "ms-lesson-picture.h"
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
    m->value[r][k] = (double)c->elements * sizeof (float) / c->stats.e2e.median / 1e3;
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

void
ms_picture_numa (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                 double height)
{
  MsMatrixData m[2];
  gboolean h2d = build (run, 0, &m[0]), d2h = build (run, 1, &m[1]);
  if (!h2d && !d2h) {
    const char *why = reason (run);
    g_autofree char *text
        = why && strcmp (why, "this host has one NUMA node") == 0 ? g_strdup (
              _ ("This host has one NUMA node: there is no other node for the buffers or "
                 "the thread, so there is nothing to compare."))
          : why ? g_strdup_printf (_ ("No copy was measured: %s."), why)
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
