/* ms-timeline.c: lanes of phase bars, and the phase breakdown. */
#include "ms-timeline.h"

#include <math.h>
#include <string.h>

void
ms_time_window_reset (MsTimeWindow *w, double total_us)
{
  w->total_us = total_us > 0 ? total_us : 1;
  w->t0 = 0;
  w->t1 = w->total_us;
}

static void
clamp_window (MsTimeWindow *w)
{
  double span = w->t1 - w->t0;
  double max_span = w->total_us * 1.05;
  if (span > max_span)
    span = max_span;
  if (span < 0.05) /* 50 ns: below the event resolution */
    span = 0.05;
  if (w->t0 < 0)
    w->t0 = 0;
  if (w->t0 + span > max_span)
    w->t0 = MAX (0, max_span - span);
  w->t1 = w->t0 + span;
}

void
ms_time_window_zoom (MsTimeWindow *w, double factor, double anchor_us)
{
  if (!(factor > 0))
    return;
  w->t0 = anchor_us - (anchor_us - w->t0) / factor;
  w->t1 = anchor_us + (w->t1 - anchor_us) / factor;
  clamp_window (w);
}

void
ms_time_window_pan (MsTimeWindow *w, double delta_us)
{
  w->t0 += delta_us;
  w->t1 += delta_us;
  clamp_window (w);
}

void
ms_timeline_layout_init (MsTimelineLayout *l)
{
  memset (l, 0, sizeof *l);
  l->bars = g_array_new (FALSE, TRUE, sizeof (MsTimelineBar));
}

void
ms_timeline_layout_clear (MsTimelineLayout *l)
{
  g_clear_pointer (&l->bars, g_array_unref);
}

/* Phase colours: the chart palette, with neutral greys for allocation and
 * release, which are bookkeeping rather than data movement. */
void
ms_phase_color (MsPhase phase, gboolean dark, GdkRGBA *out)
{
  static const int map[MS_PHASE_COUNT] = {
    [MS_PHASE_ALLOC] = -1,     [MS_PHASE_INIT] = 3,   [MS_PHASE_REGISTER] = 6,
    [MS_PHASE_PREFETCH] = 2,   [MS_PHASE_H2D] = 4,    [MS_PHASE_KERNEL] = 0,
    [MS_PHASE_D2H] = 1,        [MS_PHASE_VERIFY] = 5, [MS_PHASE_UNREGISTER] = 7,
    [MS_PHASE_FREE] = -2,
  };
  int m = (unsigned) phase < MS_PHASE_COUNT ? map[phase] : -1;
  if (m >= 0) {
    ms_chart_palette_color (m, dark, out);
    return;
  }
  double g = m == -1 ? (dark ? 0.55 : 0.6) : (dark ? 0.42 : 0.45);
  *out = (GdkRGBA){ g, g, g, 1 };
}

gboolean
ms_event_blocked_host (const MsEvent *ev)
{
  return ev->gpu_us > 2 && ev->host_us >= 0.75 * ev->gpu_us;
}

double
ms_timeline_extent (const MsCell *cell, int rep)
{
  double end = 0;
  for (size_t i = 0; i < cell->n_events; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep != rep)
      continue;
    end = MAX (end, ev->host_start_us + ev->host_us);
    if (ev->gpu_us >= 0)
      end = MAX (end, ev->gpu_start_us + ev->gpu_us);
  }
  return end;
}

static void
set_rgba (cairo_t *cr, const GdkRGBA *c, double alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

/* A row of phase swatches from (x, y); returns where the row ends. */
static double
draw_phase_legend (cairo_t *cr, const gboolean seen[MS_PHASE_COUNT], const MsChartStyle *st,
                   double x, double y, double fs)
{
  double tw;
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    if (!seen[p])
      continue;
    GdkRGBA c;
    ms_phase_color (p, st->dark, &c);
    set_rgba (cr, &c, 1);
    cairo_rectangle (cr, x, y + fs * 0.2, fs, fs);
    cairo_fill (cr);
    set_rgba (cr, &st->fg, 0.9);
    ms_draw_text (cr, ms_phase_name (p), x + fs * 1.3, y, fs, 0, 0, FALSE, &tw, NULL);
    x += tw + fs * 2.3;
  }
  return x;
}

static void
format_us (double us, char *buf, gsize len)
{
  if (us >= 1000)
    g_snprintf (buf, len, "%.2f ms", us / 1000);
  else if (us >= 10)
    g_snprintf (buf, len, "%.1f µs", us);
  else
    g_snprintf (buf, len, "%.2f µs", us);
}

void
ms_timeline_draw (cairo_t *cr, const MsCell *cell, int rep, const MsTimeWindow *win,
                  const MsChartStyle *st, double width, double height, const char *title,
                  MsTimelineLayout *layout)
{
  const double fs = 12.0 * st->text_scale;
  double tw, th;
  if (layout)
    g_array_set_size (layout->bars, 0);

  cairo_save (cr);
  set_rgba (cr, &st->bg, 1);
  cairo_paint (cr);
  set_rgba (cr, &st->fg, 1);
  double top = fs * 0.5;
  if (title) {
    ms_draw_text (cr, title, fs, top, fs * 1.15, 0, 0, TRUE, NULL, &th);
    top += th + fs * 0.5;
  }
  if (!cell || cell->n_events == 0) {
    set_rgba (cr, &st->fg, 0.6);
    ms_draw_text (cr, cell ? cell->message : "Run a sweep or open a CSV file to see a timeline",
                  width / 2, height / 2, fs * 1.2, 0.5, 0.5, FALSE, NULL, NULL);
    cairo_restore (cr);
    return;
  }

  int max_lane = 0;
  for (size_t i = 0; i < cell->n_events; i++)
    if (cell->events[i].rep == rep)
      max_lane = MAX (max_lane, cell->events[i].lane);
  int n_lanes = max_lane + 1;

  ms_draw_text (cr, "stream 00", 0, 0, fs, -1, 0, FALSE, &tw, &th);
  double left = tw + fs * 1.5;
  double legend_h = th * 1.6;
  double axis_h = th + fs;
  double px0 = left, pw = MAX (10, width - left - fs);
  double py0 = top, ph = MAX (10, height - top - axis_h - legend_h - fs * 0.5);
  double lane_h = MIN (ph / n_lanes, fs * 5);
  ph = lane_h * n_lanes;
  if (layout) {
    layout->plot_x = px0;
    layout->plot_y = py0;
    layout->plot_w = pw;
    layout->plot_h = ph;
  }
  double span = win->t1 - win->t0;
#define TX(t) (px0 + ((t) - win->t0) / span * pw)

  /* Lanes. */
  for (int lane = 0; lane < n_lanes; lane++) {
    double y = py0 + lane * lane_h;
    set_rgba (cr, &st->fg, lane % 2 ? 0.03 : 0.07);
    cairo_rectangle (cr, px0, y, pw, lane_h);
    cairo_fill (cr);
    char name[32];
    if (lane == 0)
      g_snprintf (name, sizeof name, "host");
    else
      g_snprintf (name, sizeof name, "stream %d", lane - 1);
    set_rgba (cr, &st->fg, 0.85);
    ms_draw_text (cr, name, px0 - fs * 0.5, y + lane_h / 2, fs, 1, 0.5, FALSE, NULL, NULL);
  }

  /* Time axis, in ms once the window is long enough to need it. */
  gboolean in_ms = span >= 2000;
  double unit = in_ms ? 1000 : 1;
  MsScale xs = { MS_SCALE_LINEAR, win->t0 / unit, win->t1 / unit, px0, px0 + pw };
  MsTick ticks[16];
  guint n = ms_scale_ticks (&xs, ticks, MIN (16, MAX (2, (guint) (pw / (fs * 7)))));
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < n; i++) {
    double x = round (TX (ticks[i].value * unit)) + 0.5;
    set_rgba (cr, &st->fg, 0.12);
    cairo_move_to (cr, x, py0);
    cairo_line_to (cr, x, py0 + ph);
    cairo_stroke (cr);
    char label[40];
    g_snprintf (label, sizeof label, "%s %s", ticks[i].label, in_ms ? "ms" : "µs");
    set_rgba (cr, &st->fg, 0.8);
    ms_draw_text (cr, label, x, py0 + ph + fs * 0.3, fs, 0.5, 0, FALSE, NULL, NULL);
  }

  /* Bars are collected per phase and kind and filled in one go each: ten
   * thousand separate fills cost a hundred times more than ten. */
  enum { K_GPU, K_HOST_WORK, K_HOST_BLOCKED, K_HOST_ASYNC, K_KINDS };
  GArray *rects[MS_PHASE_COUNT][K_KINDS];
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    for (int k = 0; k < K_KINDS; k++)
      rects[p][k] = NULL;
  double label_w[MS_PHASE_COUNT];
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    ms_draw_text (cr, ms_phase_name (p), 0, 0, fs * 0.9, -1, 0, FALSE, &label_w[p], NULL);
  double blocked_w;
  ms_draw_text (cr, "blocked", 0, 0, fs * 0.85, -1, 0, FALSE, &blocked_w, NULL);
  GArray *labels = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
  GArray *blocked_labels = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));

  for (size_t i = 0; i < cell->n_events; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep != rep || (unsigned) ev->phase >= MS_PHASE_COUNT)
      continue;
    gboolean on_stream = ev->gpu_us >= 0;
    /* The GPU's view: a solid bar on the stream's lane. */
    if (on_stream) {
      double x = TX (ev->gpu_start_us), w = MAX (1.5, ev->gpu_us / span * pw);
      double y = py0 + ev->lane * lane_h + lane_h * 0.15, h = lane_h * 0.7;
      if (x + w >= px0 && x <= px0 + pw) {
        MsTimelineBar bar = { x, y, w, h, ev, FALSE };
        if (!rects[ev->phase][K_GPU])
          rects[ev->phase][K_GPU] = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
        g_array_append_val (rects[ev->phase][K_GPU], bar);
        if (w > label_w[ev->phase] + fs * 0.6)
          g_array_append_val (labels, bar);
        if (layout)
          g_array_append_val (layout->bars, bar);
      }
    }
    /* The host's view: solid for host work; for a stream operation the API
     * call, hatched when asynchronous and outlined in full when it blocked
     * the host for about as long as the GPU worked. */
    double x = TX (ev->host_start_us), w = MAX (1.5, ev->host_us / span * pw);
    double y = py0 + lane_h * 0.15, h = lane_h * 0.7;
    if (x + w < px0 || x > px0 + pw)
      continue;
    int kind = !on_stream ? K_HOST_WORK : ms_event_blocked_host (ev) ? K_HOST_BLOCKED : K_HOST_ASYNC;
    if (kind == K_HOST_ASYNC) {
      y += h * 0.3;
      h *= 0.4;
    }
    MsTimelineBar bar = { x, y, w, h, ev, on_stream };
    if (kind == K_HOST_BLOCKED && w > blocked_w + fs * 0.6)
      g_array_append_val (blocked_labels, bar);
    if (!rects[ev->phase][kind])
      rects[ev->phase][kind] = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
    g_array_append_val (rects[ev->phase][kind], bar);
    if (layout)
      g_array_append_val (layout->bars, bar);
  }

  cairo_save (cr);
  cairo_rectangle (cr, px0, py0, pw, ph);
  cairo_clip (cr);
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    GdkRGBA c;
    ms_phase_color (p, st->dark, &c);
    for (int k = 0; k < K_KINDS; k++) {
      GArray *a = rects[p][k];
      if (!a)
        continue;
      for (guint i = 0; i < a->len; i++) {
        const MsTimelineBar *b = &g_array_index (a, MsTimelineBar, i);
        cairo_rectangle (cr, b->x, b->y, b->w, b->h);
      }
      switch (k) {
      case K_GPU:
      case K_HOST_WORK:
        set_rgba (cr, &c, 1);
        cairo_fill (cr);
        break;
      case K_HOST_BLOCKED:
        set_rgba (cr, &c, 0.35);
        cairo_fill (cr);
        set_rgba (cr, &c, 1);
        cairo_set_line_width (cr, 2 * st->line_scale);
        for (guint i = 0; i < a->len; i++) {
          const MsTimelineBar *b = &g_array_index (a, MsTimelineBar, i);
          cairo_rectangle (cr, b->x + 1, b->y + 1, MAX (0.5, b->w - 2), b->h - 2);
        }
        cairo_stroke (cr);
        break;
      case K_HOST_ASYNC: {
        /* Hatching through a repeating pattern: one fill for all bars. */
        cairo_surface_t *tile = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 6, 6);
        cairo_t *tc = cairo_create (tile);
        set_rgba (tc, &c, 0.9);
        cairo_set_line_width (tc, 1.2);
        cairo_move_to (tc, -1, 7);
        cairo_line_to (tc, 7, -1);
        cairo_stroke (tc);
        cairo_destroy (tc);
        cairo_pattern_t *pat = cairo_pattern_create_for_surface (tile);
        cairo_pattern_set_extend (pat, CAIRO_EXTEND_REPEAT);
        cairo_set_source (cr, pat);
        cairo_fill (cr);
        cairo_pattern_destroy (pat);
        cairo_surface_destroy (tile);
        break;
      }
      }
      g_array_unref (a);
    }
  }
  cairo_set_source_rgb (cr, 0, 0, 0);
  for (guint i = 0; i < labels->len; i++) {
    const MsTimelineBar *b = &g_array_index (labels, MsTimelineBar, i);
    ms_draw_text (cr, ms_phase_name (b->event->phase), b->x + b->w / 2, b->y + b->h / 2,
                  fs * 0.9, 0.5, 0.5, FALSE, NULL, NULL);
  }
  g_array_unref (labels);
  /* "blocked" inside wide enough blocked host bars. */
  set_rgba (cr, &st->fg, 1);
  for (guint i = 0; i < blocked_labels->len; i++) {
    const MsTimelineBar *b = &g_array_index (blocked_labels, MsTimelineBar, i);
    ms_draw_text (cr, "blocked", b->x + b->w / 2, b->y + b->h / 2, fs * 0.85, 0.5, 0.5, FALSE,
                  NULL, NULL);
  }
  g_array_unref (blocked_labels);
  cairo_restore (cr);

  /* Legend: the phases present, and the host-bar conventions. */
  double lx = px0, ly = py0 + ph + axis_h + fs * 0.2;
  gboolean seen[MS_PHASE_COUNT] = { FALSE };
  for (size_t i = 0; i < cell->n_events; i++)
    if (cell->events[i].rep == rep)
      seen[cell->events[i].phase] = TRUE;
  lx = draw_phase_legend (cr, seen, st, lx, ly, fs);
  set_rgba (cr, &st->fg, 0.7);
  ms_draw_text (cr, "host lane: hatched = asynchronous call, outlined = call blocked the host",
                lx + fs, ly, fs * 0.9, 0, 0, FALSE, NULL, NULL);
#undef TX
  cairo_restore (cr);
}

const MsTimelineBar *
ms_timeline_layout_hit (const MsTimelineLayout *l, double x, double y)
{
  /* Last drawn wins: stream bars come before host bars of the same event. */
  for (guint i = l->bars ? l->bars->len : 0; i-- > 0;) {
    const MsTimelineBar *b = &g_array_index (l->bars, MsTimelineBar, i);
    if (x >= b->x - 1 && x <= b->x + b->w + 1 && y >= b->y && y <= b->y + b->h)
      return b;
  }
  return NULL;
}

void
ms_breakdown_draw (cairo_t *cr, GPtrArray *runs, int exponent, const MsChartStyle *st,
                   double width, double height)
{
  const double fs = 12.0 * st->text_scale;
  double tw, th;
  cairo_save (cr);
  set_rgba (cr, &st->bg, 1);
  cairo_paint (cr);

  /* Rows: every (run, mode) with a cell at this size. */
  GPtrArray *cells = g_ptr_array_new ();
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  double max_total = 0, label_w = 0;
  for (guint r = 0; runs && r < runs->len; r++) {
    const MsResults *res = g_ptr_array_index (runs, r);
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      const MsCell *c = ms_results_find (res, m, exponent);
      if (!c)
        continue;
      double total = 0;
      for (int p = 0; p < MS_PHASE_COUNT; p++)
        if (c->status == MS_CELL_OK && c->stats.phase[p].n)
          total += c->stats.phase[p].median;
      max_total = MAX (max_total, total);
      char *label = runs->len > 1 ? g_strdup_printf ("%s · %s", ms_mode_title (m), res->label)
                                  : g_strdup (ms_mode_title (m));
      ms_draw_text (cr, label, 0, 0, fs, -1, 0, FALSE, &tw, &th);
      label_w = MAX (label_w, tw);
      g_ptr_array_add (cells, (gpointer) c);
      g_ptr_array_add (labels, label);
    }
  }
  char size[32], title[96];
  ms_format_bytes ((1ull << exponent) * sizeof (float), size, sizeof size);
  g_snprintf (title, sizeof title, "Where the time goes at 2^%d (%s per vector): median per phase",
              exponent, size);
  set_rgba (cr, &st->fg, 1);
  ms_draw_text (cr, title, fs, fs * 0.5, fs * 1.15, 0, 0, TRUE, NULL, &th);
  double top = fs * 0.5 + th + fs;
  if (cells->len == 0 || max_total <= 0) {
    set_rgba (cr, &st->fg, 0.6);
    ms_draw_text (cr, "No measurements at this size", width / 2, height / 2, fs * 1.2, 0.5, 0.5,
                  FALSE, NULL, NULL);
    goto out;
  }
  double left = label_w + fs * 1.5, right = fs * 6;
  double legend_h = th * 1.8, axis_h = th + fs;
  double pw = MAX (10, width - left - right);
  double row_h = MIN (fs * 2.6, (height - top - legend_h - axis_h) / cells->len);
  MsScale xs;
  /* The axis counts in ms once bars are long enough to need it. */
  gboolean in_ms = max_total >= 2000;
  double unit = in_ms ? 1000 : 1;
  ms_scale_fit (&xs, MS_SCALE_LINEAR, 0, max_total / unit);
  xs.pixel_lo = left;
  xs.pixel_hi = left + pw;
  MsTick ticks[16];
  guint n = ms_scale_ticks (&xs, ticks, MIN (16, MAX (2, (guint) (pw / (fs * 6)))));
  double plot_bottom = top + row_h * cells->len;
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < n; i++) {
    double x = round (ms_scale_to_pixel (&xs, ticks[i].value)) + 0.5;
    set_rgba (cr, &st->fg, 0.12);
    cairo_move_to (cr, x, top);
    cairo_line_to (cr, x, plot_bottom);
    cairo_stroke (cr);
    char label[40];
    g_snprintf (label, sizeof label, "%s %s", ticks[i].label, in_ms ? "ms" : "µs");
    set_rgba (cr, &st->fg, 0.8);
    ms_draw_text (cr, label, x, plot_bottom + fs * 0.3, fs, 0.5, 0, FALSE, NULL, NULL);
  }
  gboolean seen[MS_PHASE_COUNT] = { FALSE };
  for (guint i = 0; i < cells->len; i++) {
    const MsCell *c = g_ptr_array_index (cells, i);
    double y = top + i * row_h;
    set_rgba (cr, &st->fg, 0.9);
    ms_draw_text (cr, g_ptr_array_index (labels, i), left - fs * 0.5, y + row_h / 2, fs, 1, 0.5,
                  FALSE, NULL, NULL);
    if (c->status != MS_CELL_OK) {
      set_rgba (cr, &st->fg, 0.6);
      ms_draw_text (cr, ms_cell_status_name (c->status), left + fs * 0.3, y + row_h / 2, fs, 0,
                    0.5, FALSE, NULL, NULL);
      continue;
    }
    double x = left, total = 0;
    for (int p = 0; p < MS_PHASE_COUNT; p++) {
      if (!c->stats.phase[p].n)
        continue;
      double v = c->stats.phase[p].median;
      double w = ms_scale_to_pixel (&xs, (total + v) / unit) - ms_scale_to_pixel (&xs, total / unit);
      GdkRGBA col;
      ms_phase_color (p, st->dark, &col);
      set_rgba (cr, &col, 1);
      cairo_rectangle (cr, x, y + row_h * 0.15, MAX (w, 0.5), row_h * 0.7);
      cairo_fill (cr);
      ms_draw_text (cr, ms_phase_name (p), 0, 0, fs * 0.85, -1, 0, FALSE, &tw, NULL);
      if (w > tw + fs * 0.5) {
        cairo_set_source_rgb (cr, 0, 0, 0);
        ms_draw_text (cr, ms_phase_name (p), x + w / 2, y + row_h / 2, fs * 0.85, 0.5, 0.5, FALSE,
                      NULL, NULL);
      }
      seen[p] = TRUE;
      x += w;
      total += v;
    }
    char t[32];
    format_us (total, t, sizeof t);
    set_rgba (cr, &st->fg, 0.8);
    ms_draw_text (cr, t, x + fs * 0.4, y + row_h / 2, fs * 0.9, 0, 0.5, FALSE, NULL, NULL);
  }
  draw_phase_legend (cr, seen, st, left, plot_bottom + axis_h + fs * 0.2, fs);
out:
  g_ptr_array_unref (cells);
  g_ptr_array_unref (labels);
  cairo_restore (cr);
}
