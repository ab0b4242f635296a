/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-topology.c: the diagram of a host's GPUs (ms-topology.h).
 *
 * The host box sits on top, the GPUs in a row under it (two rows from nine
 * GPUs on), each joined to the host by its PCIe link. NVLinks are arcs under
 * the row; where every pair has the same links (an NVSwitch) one bar under
 * the row says so instead of n (n - 1) / 2 arcs. The PCIe paths of the
 * pairs without NVLinks are listed under it, grouped by path. */
#include <glib/gi18n.h>

#include "ms-matrix.h"
#include "ms-topology.h"

#define ROW_MAX 8

static int
links_between (const MsPeerResults *r, int i, int j)
{
  return MAX (r->topo.nvlinks[i][j], r->topo.nvlinks[j][i]);
}

/* Every pair with the same nonzero count: a switch, not point-to-point. */
static gboolean
nvlink_fabric (const MsPeerResults *r, int *links)
{
  *links = r->n_devices > 2 ? links_between (r, 0, 1) : 0;
  for (int i = 0; i < r->n_devices; i++)
    for (int j = i + 1; j < r->n_devices; j++)
      if (links_between (r, i, j) != *links)
        return FALSE;
  return *links > 0;
}

static void
box (cairo_t *cr, double x, double y, double w, double h, const MsColor *color, double lw)
{
  double rad = 6;
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - rad, y + rad, rad, -G_PI / 2, 0);
  cairo_arc (cr, x + w - rad, y + h - rad, rad, 0, G_PI / 2);
  cairo_arc (cr, x + rad, y + h - rad, rad, G_PI / 2, G_PI);
  cairo_arc (cr, x + rad, y + rad, rad, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  ms_set_color (cr, color, 0.22);
  cairo_fill_preserve (cr);
  ms_set_color (cr, color, 1);
  cairo_set_line_width (cr, lw);
  cairo_stroke (cr);
}

/* Lines of text in a box, each shrunk to fit: the widest. */
static double
box_lines (cairo_t *cr, const MsChartStyle *style, const char *const *lines, int n, double x,
           double y, double w, double line_h, double fs)
{
  double widest = 0;
  for (int k = 0; k < n; k++) {
    ms_set_color (cr, &style->fg, k == 0 ? 1 : 0.8);
    double tw = ms_text_in_box (cr, lines[k], x + w / 2, y + (k + 0.75) * line_h, w, line_h,
                                k == 0 ? fs : fs * 0.9, k == 0);
    widest = MAX (widest, tw);
  }
  return widest;
}

static void
lay_out (const MsPeerFile *file, double fs, double width, double height, MsTopologyLayout *lay)
{
  int n = MIN (file->peer.n_devices, MS_MULTI_MAX_DEVICES);
  int per_row = n > ROW_MAX ? (n + 1) / 2 : MAX (n, 1);
  double margin = fs, gap = fs * 1.2, line_h = fs * 1.45;
  lay->n_gpus = n;
  lay->host_w = MIN (360, width - 2 * margin);
  lay->host_h = 2 * line_h + fs * 0.6;
  lay->host_x = (width - lay->host_w) / 2;
  lay->host_y = margin;
  lay->gpu_w = MIN (260, (width - 2 * margin - (per_row - 1) * gap) / per_row);
  lay->gpu_h = 3 * line_h + fs * 0.6;
  double row_gap = MAX (3 * fs, MIN (6 * fs, height * 0.12));
  double row_w = per_row * lay->gpu_w + (per_row - 1) * gap;
  for (int i = 0; i < n; i++) {
    int row = i / per_row, col = i % per_row;
    lay->gpu_x[i] = (width - row_w) / 2 + col * (lay->gpu_w + gap);
    lay->gpu_y[i] = lay->host_y + lay->host_h + row_gap + row * (lay->gpu_h + gap);
  }
}

static void
draw_host (cairo_t *cr, const MsPeerFile *file, const MsChartStyle *style, MsTopologyLayout *lay,
           double fs)
{
  g_autofree char *name = file->host[0] ? g_strdup_printf (_("host %s"), file->host)
                                        : g_strdup (_("this host"));
  const char *lines[] = { _("CPU and host memory"), name };
  box (cr, lay->host_x, lay->host_y, lay->host_w, lay->host_h, &style->fg,
       ms_style_line_width (style));
  lay->host_text_w = box_lines (cr, style, lines, 2, lay->host_x, lay->host_y + fs * 0.3,
                                lay->host_w, fs * 1.45, fs);
}

static void
draw_gpus (cairo_t *cr, const MsPeerFile *file, const MsChartStyle *style, MsTopologyLayout *lay,
           double fs)
{
  double lw = ms_style_line_width (style);
  double hx = lay->host_x + lay->host_w / 2, hy = lay->host_y + lay->host_h;
  for (int i = 0; i < lay->n_gpus; i++) {
    const MsDeviceInfo *d = &file->device[i];
    double cx = lay->gpu_x[i] + lay->gpu_w / 2;
    /* The PCIe link up to the host, behind the boxes. */
    ms_set_color (cr, &style->fg, 0.55);
    cairo_set_line_width (cr, lw * (d->pcie_width >= 16 ? 2 : 1));
    cairo_move_to (cr, hx, hy);
    cairo_curve_to (cr, hx, hy + fs * 2, cx, lay->gpu_y[i] - fs * 2, cx, lay->gpu_y[i]);
    cairo_stroke (cr);
  }
  for (int i = 0; i < lay->n_gpus; i++) {
    const MsDeviceInfo *d = &file->device[i];
    /* Neutral, as the host's box: the palette's colours mean modes. */
    box (cr, lay->gpu_x[i], lay->gpu_y[i], lay->gpu_w, lay->gpu_h, &style->fg, lw * 1.5);
    g_autofree char *title = g_strdup_printf (_("GPU %d"), file->peer.devices[i]);
    g_autofree char *link = d->pcie_gen > 0
                              ? g_strdup_printf (_("PCIe gen%d x%d"), d->pcie_gen, d->pcie_width)
                              : g_strdup (_("PCIe link unknown"));
    const char *lines[] = { title, d->name[0] ? d->name : _("unknown GPU"), link };
    lay->gpu_text_w[i] = box_lines (cr, style, lines, 3, lay->gpu_x[i], lay->gpu_y[i] + fs * 0.3,
                                    lay->gpu_w, fs * 1.45, fs);
  }
}

/* Returns the label's height (it may be two lines). */
static double
edge_label (cairo_t *cr, const MsChartStyle *style, const char *text, double x, double y,
            double fs)
{
  double w, h;
  ms_draw_text (cr, text, 0, 0, fs * 0.85, -1, 0, FALSE, &w, &h);
  ms_set_color (cr, &style->bg, 0.9);
  cairo_rectangle (cr, x - w / 2 - 3, y - h / 2, w + 6, h);
  cairo_fill (cr);
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text (cr, text, x, y, fs * 0.85, 0.5, 0.5, FALSE, NULL, NULL);
  return h;
}

/* The links' rate in theory beside the best measured copy, so that the
 * matrix's 393 is not read against a 450 with nothing between them. A copy
 * faster than the links named cannot have used them: then the links are
 * misread, and the label says so instead of showing both figures. */
static char *
nvlink_text (const MsPeerFile *file, int i, int j)
{
  char what[96];
  double nominal = ms_peer_nominal_gbps (&file->peer, file->device, i, j, what, sizeof what);
  int links = links_between (&file->peer, i, j);
  double best = ms_peer_best_gbps (&file->peer, i, j);
  if (ms_peer_link_in_doubt (&file->peer, file->device, i, j))
    /* TRANSLATORS: under an NVLink arc when a copy measured over it was
     * faster than the links counted allow. */
    return g_strdup_printf (ngettext ("%d NVLink read: topology in doubt\n(a copy ran faster "
                                      "than it allows)",
                                      "%d NVLinks read: topology in doubt\n(a copy ran faster "
                                      "than they allow)",
                                      links),
                            links);
  if (best > 0 && nominal > 0)
    /* TRANSLATORS: two lines under an NVLink arc, e.g. "18 NVLinks: 450 GB/s
     * each way in theory\nbest copy measured: 393 GB/s (87%)". */
    return g_strdup_printf (ngettext ("%d NVLink: %.0f GB/s each way in theory\nbest copy "
                                      "measured: %.0f GB/s (%.0f%%)",
                                      "%d NVLinks: %.0f GB/s each way in theory\nbest copy "
                                      "measured: %.0f GB/s (%.0f%%)",
                                      links),
                            links, nominal, best, 100 * best / nominal);
  return g_strdup_printf (ngettext ("%d NVLink, %.0f GB/s", "%d NVLinks, %.0f GB/s",
                                       links),
                          links, nominal);
}

/* Arcs under the row between the boxes' bottoms; returns where they end. */
static double
draw_nvlinks (cairo_t *cr, const MsPeerFile *file, const MsChartStyle *style,
              MsTopologyLayout *lay, double fs)
{
  const MsPeerResults *r = &file->peer;
  double bottom = 0, lw = ms_style_line_width (style);
  for (int i = 0; i < lay->n_gpus; i++)
    bottom = MAX (bottom, lay->gpu_y[i] + lay->gpu_h);
  int links;
  MsColor nv = { 0.46, 0.72, 0.0, 1 }; /* NVIDIA green, for the links */
  if (nvlink_fabric (r, &links)) {
    double x0 = lay->gpu_x[0] + lay->gpu_w / 2, x1 = x0, y = bottom + 2 * fs;
    for (int i = 0; i < lay->n_gpus; i++)
      x1 = MAX (x1, lay->gpu_x[i] + lay->gpu_w / 2);
    ms_set_color (cr, &nv, 1);
    cairo_set_line_width (cr, 3 * lw);
    for (int i = 0; i < lay->n_gpus; i++) {
      cairo_move_to (cr, lay->gpu_x[i] + lay->gpu_w / 2, lay->gpu_y[i] + lay->gpu_h);
      cairo_line_to (cr, lay->gpu_x[i] + lay->gpu_w / 2, y);
    }
    cairo_move_to (cr, x0, y);
    cairo_line_to (cr, x1, y);
    cairo_stroke (cr);
    g_autofree char *each = nvlink_text (file, 0, 1);
    g_autofree char *text = g_strdup_printf (_("every pair: %s"), each);
    double h;
    ms_draw_text (cr, text, 0, 0, fs * 0.85, -1, 0, FALSE, NULL, &h);
    edge_label (cr, style, text, (x0 + x1) / 2, y + fs * 0.4 + h / 2, fs);
    lay->n_nvlink_edges = 1;
    return y + fs * 0.4 + h + fs * 0.6;
  }
  double deepest = bottom;
  for (int i = 0; i < lay->n_gpus; i++) {
    for (int j = i + 1; j < lay->n_gpus; j++) {
      if (links_between (r, i, j) == 0)
        continue;
      double xi = lay->gpu_x[i] + lay->gpu_w / 2, xj = lay->gpu_x[j] + lay->gpu_w / 2;
      double yi = lay->gpu_y[i] + lay->gpu_h, yj = lay->gpu_y[j] + lay->gpu_h;
      double depth = fs * (1.5 + 1.6 * (j - i));
      double y = MAX (yi, yj) + depth;
      ms_set_color (cr, &nv, 1);
      cairo_set_line_width (cr, 3 * lw);
      cairo_move_to (cr, xi, yi);
      cairo_curve_to (cr, xi, y, xj, y, xj, yj);
      cairo_stroke (cr);
      g_autofree char *text = nvlink_text (file, i, j);
      /* A cubic with both control points at y reaches 3/4 of the way. */
      double apex = MAX (yi, yj) + depth * 0.75;
      double h = edge_label (cr, style, text, (xi + xj) / 2, apex, fs);
      deepest = MAX (deepest, apex + h / 2 + fs * 0.5);
      lay->n_nvlink_edges++;
    }
  }
  return deepest + fs;
}

/* The pairs without NVLinks on PCIe path p whose copies it allows, or
 * (p < 0) whose copies ran faster than their path allows: "0–1, 2–3";
 * NULL for none. */
static char *
pairs_text (const MsPeerFile *file, int n_gpus, int p)
{
  const MsPeerResults *r = &file->peer;
  GString *line = g_string_new (NULL);
  for (int i = 0; i < n_gpus; i++)
    for (int j = i + 1; j < n_gpus; j++)
      if (links_between (r, i, j) == 0 && (p < 0 || (int) r->topo.pcie_path[i][j] == p)
          && ms_peer_link_in_doubt (r, file->device, i, j) == (p < 0))
        g_string_append_printf (line, "%s%d–%d", line->len ? ", " : "", r->devices[i],
                                r->devices[j]);
  return g_string_free (line, line->len == 0);
}

/* "PCIe path host bridge: GPUs 0–1, 2–3", one line per path, after a
 * line naming the pairs whose copies put their path in doubt. */
static void
draw_paths (cairo_t *cr, const MsPeerFile *file, const MsChartStyle *style,
            MsTopologyLayout *lay, double y, double width, double fs)
{
  const MsPeerResults *r = &file->peer;
  ms_set_color (cr, &style->fg, 0.85);
  if (!r->topo.nvml) {
    const char *why = r->topo.error[0] ? r->topo.error
                                       : _("NVML not available: NVLinks and PCIe paths unknown");
    ms_draw_text_max (cr, why, fs, y, fs * 0.9, width - 2 * fs);
    lay->n_path_lines = 0;
    return;
  }
  for (int p = MS_LINK_UNKNOWN - 1; p <= MS_LINK_SYSTEM; p++) {
    g_autofree char *pairs = pairs_text (file, lay->n_gpus, p);
    if (!pairs)
      continue;
    g_autofree char *text
      = p < 0 ? g_strdup_printf (
                  /* TRANSLATORS: %s lists pairs of GPUs, "0–1, 2–3". */
                  _("Topology in doubt: GPUs %s copied faster than their PCIe path allows"), pairs)
              : g_strdup_printf (_("PCIe path %s: GPUs %s"), ms_link_path_name (p), pairs);
    ms_draw_text_max (cr, text, fs, y, fs * 0.9, width - 2 * fs);
    y += fs * 1.4;
    lay->n_path_lines++;
  }
}

void
ms_topology_draw (cairo_t *cr, const MsPeerFile *file, const MsChartStyle *style, double width,
                  double height, MsTopologyLayout *layout)
{
  MsTopologyLayout local;
  MsTopologyLayout *lay = layout ? layout : &local;
  memset (lay, 0, sizeof *lay);
  double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  if (!file || file->peer.n_devices <= 0) {
    ms_set_color (cr, &style->fg, 0.6);
    ms_draw_text (cr, _("No GPUs to show"), width / 2, height / 2, fs, 0.5, 0.5, FALSE, NULL,
                  NULL);
    return;
  }
  lay_out (file, fs, width, height, lay);
  draw_gpus (cr, file, style, lay, fs);
  draw_host (cr, file, style, lay, fs);
  double y = draw_nvlinks (cr, file, style, lay, fs);
  draw_paths (cr, file, style, lay, y, width, fs);
}
