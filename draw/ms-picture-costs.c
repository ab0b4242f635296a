/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-costs.c: the costs lesson's picture: what each call took,
 * with its free, as dots on a log time axis (the costs span three
 * decades; bars from the axis's start read as lengths, and 11.4 ms looked
 * half of 240 ms): a CUDA context first in the process and again, then
 * the allocations at the size the caption speaks of, stream-ordered ones
 * from the device's pool last. */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"

static const struct {
  MsMode mode;
  const char *variant;
  const char *label;
  gboolean sized; /* at the caption's size; a context has none */
} costs[] = {
  { MS_MODE_DEVICE, "cost=context-first", N_ ("context, first (one call)"), FALSE },
  /* What "again" was: "each later time" left a class asking when. */
  { MS_MODE_DEVICE, "cost=context", N_ ("context, after cudaDeviceReset"), FALSE },
  /* "first cudaMalloc" was read as the headline's cudaMalloc. */
  { MS_MODE_DEVICE, "cost=first-malloc", N_ ("cudaMalloc, first in a context"), TRUE },
  { MS_MODE_DEVICE, "cost=malloc", N_ ("cudaMalloc"), TRUE },
  { MS_MODE_REGISTERED, "cost=register", N_ ("cudaHostRegister (no malloc)"), TRUE },
  /* "touch" went unexplained: every byte is written (memset); and why
   * it is here, beside the pinning calls, is said in a word. Short: a
   * longer name shrank every row's. */
  { MS_MODE_PAGEABLE, "cost=malloc", N_ ("malloc + memset, unpinned"), TRUE },
  { MS_MODE_PINNED, "cost=malloc-host", N_ ("cudaMallocHost"), TRUE },
  /* TRANSLATORS: cudaMallocAsync from the device's pool trimmed to
   * nothing before each call ("first" left a class asking first what). */
  { MS_MODE_DEVICE, "cost=pool-first", N_ ("cudaMallocAsync, empty pool"), TRUE },
  /* TRANSLATORS: cudaMallocAsync again from the default pool as CUDA
   * sets it up (release threshold 0): it gives its memory back at every
   * synchronisation. Short: a handout's label column holds about 30
   * characters. */
  { MS_MODE_DEVICE, "cost=pool/threshold=0", N_ ("cudaMallocAsync, default pool"), TRUE },
  /* TRANSLATORS: cudaMallocAsync again, the pool's release threshold
   * raised so that it keeps its memory and hands it out again. */
  { MS_MODE_DEVICE, "cost=pool/threshold=keep", N_ ("cudaMallocAsync, pool kept"), TRUE },
};

/* The headline's two rows: costs[]'s plain cudaMalloc and kept pool. */
#define MALLOC_ROW 3
#define KEPT_ROW 9

static const MsCell *
cost_cell (const MsResults *run, guint i, int exponent)
{
  for (size_t k = 0; k < run->n_cells; k++) {
    const MsCell *c = &run->cells[k];
    if (c->mode == costs[i].mode && strcmp (c->variant, costs[i].variant) == 0
        && (!costs[i].sized || c->exponent == exponent) && c->status == MS_CELL_OK
        && c->stats.e2e.median > 0)
      return c;
  }
  return NULL;
}

/* The size the caption speaks of: the largest with two sized costs. */
static int
caption_exponent (const MsResults *run)
{
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--) {
    int n = 0;
    for (guint i = 0; i < G_N_ELEMENTS (costs); i++)
      n += costs[i].sized && cost_cell (run, i, e);
    if (n >= 2)
      return e;
  }
  return -1;
}

/* A dot at the cost and its total right of it, in the margin past the
 * axis where the dot lies at its end: one neutral colour, as the row's
 * label names the call. What a dot includes is the title's, for every row
 * alike: a free's share beside some dots and not others (where it did not
 * fit) left a class asking whether the others had one. */
static void
draw_dot (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, const MsCell *c, double cy,
          double bar_h, const MsCell *malloc_cell, double label_end, double width)
{
  const double fs = ms_style_font_size (st), vfs = ms_draw_figure_size (cr, fs * 0.9);
  double x1 = ms_scale_to_pixel (xs, c->stats.e2e.median), r = MAX (3, bar_h * 0.3);
  /* Its calls' spread, fastest to slowest, where it has more than one:
   * slide 16's cudaMallocHost, of another run, lies within this one's. */
  double xl = ms_scale_to_pixel (xs, c->stats.e2e.min);
  double xr = ms_scale_to_pixel (xs, c->stats.e2e.max);
  ms_set_color (cr, &st->fg, 0.6);
  ms_draw_line (cr, ms_style_line_width (st) * 1.5, xl, cy, xr, cy);
  ms_set_color (cr, &st->fg, 0.85);
  cairo_arc (cr, x1, cy, r, 0, 2 * G_PI);
  cairo_fill (cr);
  char total[96], t[32];
  ms_caption_time (c->stats.e2e.median, t, sizeof t);
  g_strlcpy (total, t, sizeof total);
  /* The kept pool's row ties the headline's ratio to both its rows (a
   * class asked which cudaMalloc it was against), where it fits. */
  if (malloc_cell)
    g_snprintf (total, sizeof total, _ ("%s, %.0f× faster than cudaMalloc"), t,
                malloc_cell->stats.e2e.median / c->stats.e2e.median);
  if (MAX (x1, xr) + r + fs * 0.3 + ms_draw_text_width (cr, total, vfs, FALSE) > width)
    g_strlcpy (total, t, sizeof total);
  /* The contexts' left of their dots, both alike: a margin for them
   * right of the axis left a decade unlabelled. */
  gboolean left = g_str_has_prefix (c->variant, "cost=context");
  ms_set_color (cr, &st->fg, 0.95);
  /* cudaMallocHost's spread in words left of it, and any row's whose line
   * spans a factor of 2 or more (malloc's: new pages in its first calls,
   * reused memory after), where it fits right of the row's name
   * (label_end): a class compares them with slides 4 and 16, whose costs
   * are new memory's, and a strict reader asked why one long line had
   * its ends in numbers and another not. */
  char spread[96], hi_t[32];
  double sx = MIN (x1, xl) - r - fs * 0.3;
  /* Its line's ends, every row alike, bracketed and in one unit, the slower end's: "1.74
   * ms–10.2 ms" left of the dot, the median right of it, was read as two figures of one kind.
   * "range …" did not fit malloc's row, nor "its 5 calls:" one row where another's did. */
  ms_caption_time (c->stats.e2e.max, hi_t, sizeof hi_t);
  double lo = strstr (hi_t, "ms") ? c->stats.e2e.min / 1000 : c->stats.e2e.min;
  /* TRANSLATORS: a cost's line, fastest call to slowest, e.g. "(0.902–12.5 ms)". */
  g_snprintf (spread, sizeof spread, _ ("(%.3g–%s)"), lo, hi_t);
  gboolean spread_shown = strcmp (c->variant, "cost=malloc-host") == 0
                         || c->stats.e2e.max >= 2 * c->stats.e2e.min;
  if (spread_shown && c->stats.e2e.n > 1
      && sx - ms_draw_text_width (cr, spread, vfs, FALSE) > label_end + fs * 0.5)
    ms_draw_text (cr, spread, sx, cy, vfs, 1, 0.5, FALSE, NULL, NULL);
  ms_draw_text (cr, total, left ? MIN (x1, xl) - r - fs * 0.3 : MAX (x1, xr) + r + fs * 0.3, cy,
                vfs, left, 0.5, FALSE, NULL, NULL);
}

static void
ms_picture_costs (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                  double height)
{
  const double fs = ms_style_font_size (style);
  ms_draw_background (cr, style);
  int e = caption_exponent (run);
  const MsCell *cells[G_N_ELEMENTS (costs)];
  /* The rows' names at a figure's size: a back row read them at 13 px. */
  const double vfs = ms_draw_figure_size (cr, fs * 0.9);
  double lfs = ms_draw_figure_size (cr, fs);
  double lo = G_MAXDOUBLE, hi = 0, label_w = 0, value_w = 0;
  guint n = 0;
  for (guint i = 0; i < G_N_ELEMENTS (costs); i++) {
    cells[i] = cost_cell (run, i, e);
    if (!cells[i])
      continue;
    n++;
    lo = MIN (lo, cells[i]->stats.e2e.min);
    hi = MAX (hi, cells[i]->stats.e2e.max);
    label_w = MAX (label_w, ms_draw_text_width (cr, _ (costs[i].label), lfs, FALSE));
    char total[32];
    ms_caption_time (cells[i]->stats.e2e.median, total, sizeof total);
    value_w = MAX (value_w, costs[i].sized ? ms_draw_text_width (cr, total, vfs, FALSE) : 0);
  }
  if (n < 2) {
    ms_picture_empty (cr, style, width, height, _ ("This run has fewer than two costs measured."));
    return;
  }
  /* Where the names would take more than their column (a handout's
   * page), smaller, down to the text's size, rather than cut. */
  if (label_w > width * 0.45) {
    lfs = MAX (fs, lfs * width * 0.44 / label_w);
    label_w = 0;
    for (guint i = 0; i < G_N_ELEMENTS (costs); i++)
      if (cells[i])
        label_w = MAX (label_w, ms_draw_text_width (cr, _ (costs[i].label), lfs, FALSE));
  }
  char size[32] = "";
  if (e >= 0)
    ms_format_size_label ((double)(UINT64_C (1) << e) * 4, size, sizeof size);
  /* What a dot is, for each kind of row, and of how many calls it is
   * the median: "one call and its free" did not fit the contexts. */
  int reps = 0;
  for (guint i = 0; i < G_N_ELEMENTS (costs); i++)
    if (cells[i] && costs[i].sized)
      reps = MAX (reps, cells[i]->stats.e2e.n);
  g_autofree char *title = g_strdup_printf (
      _ ("Each dot: median of %d calls, line: fastest to slowest (log scale); a call: one %s "
         "allocation and its free, or a context's creation"),
      reps, size);
  /* The context and the pools glossed (the details alone left "kept"
   * unread); why slides 4 and 16 give other figures for the same calls is
   * the details', but malloc's in a clause: its median is mostly memory it
   * reused (glibc maps the first calls' afresh), and readers set it
   * against slide 16's new pages. */
  g_autofree char *other = g_strdup_printf (
      _ ("Context: a process's CUDA state; cudaDeviceReset destroys it. Unpinned: the baseline "
         "for pinning; malloc maps new pages in its first calls, then reuses freed ones. Pool: "
         "empty gets memory from the GPU; default returns it at each synchronisation; kept keeps "
         "it."));
  double th = ms_picture_title (cr, style, title, width);
  /* The other slide only where every row keeps room for its label: a
   * pane beside the cards at its least height has not. */
  double oh = ms_draw_text_wrapped (cr, other, 0, 0, fs, width - fs, FALSE, FALSE);
  if ((height - th - oh - fs * 3) / n >= MAX (lfs, ms_draw_figure_size (cr, fs)) * 1.3)
    th += ms_draw_note (cr, style, other, fs * 0.5, fs * 0.4 + th, width - fs, TRUE);
  /* Under the rows, the axis's labels at their size (a figure's). */
  double top = fs * 0.7 + th, bottom = height - fs * 0.5 - ms_draw_figure_size (cr, fs) * 1.3;
  double x0 = fs * 0.8 + MIN (label_w, width * 0.45), right = width - fs * 0.5;
  double row_h = (bottom - top) / n, bar_h = MIN (row_h * 0.62, fs * 2.2);
  /* Every allocation's total right of its dot: the axis ends short of the
   * canvas by the widest (cudaMallocHost's alone sat left of its dot). From
   * the fastest call to the slowest, not whole decades: each decade's label fits. */
  double axis_end = right - value_w - MAX (3, bar_h * 0.3) - fs * 0.3;
  MsScale xs = { MS_SCALE_LOG10, lo / 1.1, hi, x0, axis_end, MS_SCALE_TIME_US };
  ms_draw_time_axis (cr, style, &xs, top, bottom, fs * 2.5, right);
  guint row = 0;
  for (guint i = 0; i < G_N_ELEMENTS (costs); i++) {
    if (!cells[i])
      continue;
    double cy = top + (row + 0.5) * row_h;
    ms_set_color (cr, &style->fg, 0.9);
    ms_draw_text_max (cr, _ (costs[i].label), fs * 0.4, cy - lfs * 0.6, lfs, x0 - fs * 0.8);
    draw_dot (cr, style, &xs, cells[i], cy, bar_h, i == KEPT_ROW ? cells[MALLOC_ROW] : NULL,
              fs * 0.8 + ms_draw_text_width (cr, _ (costs[i].label), lfs, FALSE), width);
    /* A line between the contexts and the allocations of one size. */
    if (row > 0 && costs[i].sized && !costs[i - 1].sized) {
      ms_set_color (cr, &style->fg, 0.35);
      ms_draw_line (cr, ms_style_line_width (style), fs * 0.4, round (top + row * row_h) + 0.5,
                    right, round (top + row * row_h) + 0.5);
    }
    row++;
  }
}

const MsLessonLook ms_lesson_look_costs = {
  .picture = ms_picture_costs,
  /* The costs draw their own picture beside the card; the Table view, a
   * button away, lists every call. */
  .view = { "table", "device,pinned,pageable,registered", MS_METRIC_E2E_TIME, TRUE },
};
