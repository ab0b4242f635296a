/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-labels.c: a bar's label in its most complete form that finds
 * room: on the bar, then after it, then before it; the phase's name and
 * the bytes go before the time, the time before the rate: the rate is
 * what a lesson's finding is read off. */
#include "ms-engine.h"
#include "ms-timeline-labels.h"
#include "ms-timeline-queue.h"

#include <glib/gi18n.h>

#define N_TEXTS 9

/* The label's forms, most complete first; returns how many. */
static int
label_texts (const MsEvent *ev, int rates, const MsCell *cell, char texts[N_TEXTS][128])
{
  /* A copy on the host lane alone is the CPU touching managed memory,
   * its pages faulting across: no copy engine's d2h, so not named one. */
  gboolean cpu = ev->lane == MS_LANE_HOST && ev->gpu_us < 0;
  /* Managed memory's way back on a stream is a prefetch to the host
   * (kernels/mode-managed.cu): named "d2h", it read as a copy. */
  gboolean prefetch_back = !cpu && ev->phase == MS_PHASE_D2H && cell
                           && ms_mode_memory (cell->mode) == MS_MEMORY_MANAGED;
  double vector_bytes = cell ? (double) ms_vector_bytes (cell->elements) : 0;
  const char *name = prefetch_back                 ? C_ ("timeline bar", "prefetch back")
                     : !cpu                        ? ms_phase_label (ev->phase)
                     : ev->phase == MS_PHASE_D2H ? C_ ("timeline bar", "CPU reads")
                                                 : C_ ("timeline bar", "CPU writes");
  char bytes[48] = "", time[32] = "";
  /* A bar on the host lane lasts its host time. */
  double us = ev->lane == MS_LANE_HOST ? ev->host_us : ev->gpu_us;
  /* Where the titles quote the median rates, a copy's time of the one
   * repetition drawn gave a second ratio (5.3× beside the headline's 5.1×). */
  if (us > 0 && !(rates < 0 && ms_phase_is_copy (ev->phase)))
    ms_format_time_us (us, time, sizeof time);
  /* A prefetch says what it moves too: "prefetch 801 µs" read as one
   * copy where it moved both inputs. */
  if (ev->bytes > 0 && (ms_phase_is_copy (ev->phase) || ev->phase == MS_PHASE_PREFETCH))
    ms_format_size_label ((double) ev->bytes, bytes, sizeof bytes);
  /* Both input vectors in one copy: its bytes are not the size per vector
   * that the title and the takeaway give, so the bar names that size
   * twice (a class read "at 4 MiB" against "a+b, 8 MiB" as a mismatch). */
  gboolean ab = bytes[0] && (ev->phase == MS_PHASE_H2D || ev->phase == MS_PHASE_PREFETCH)
                && vector_bytes > 0
                && (double) ev->bytes == 2 * vector_bytes;
  if (ab) {
    char one[32];
    ms_format_size_label (vector_bytes, one, sizeof one);
    /* Translators: a copy's bytes that are both input vectors a and b,
     * each of the size given, e.g. "a+b, 2 × 16 MiB" (a bar then reads
     * "h2d a+b, 2 × 16 MiB · 635 µs"). */
    g_snprintf (bytes, sizeof bytes, C_("timeline bar", "a+b, 2 × %s"), one);
  }
  int n = 0;
  if (bytes[0] && time[0]) {
    double gbps = ev->bytes / (us * 1e3);
    if (rates > 0) {
      /* Translators: a timeline bar: phase, bytes, time and rate, e.g.
       * "h2d 8 MiB · 160 µs · 52.4 GB/s". */
      g_snprintf (texts[n++], 128, C_("timeline bar", "%s %s · %s · %.1f GB/s"), name, bytes,
                  time, gbps);
      /* Translators: a timeline bar without its phase: bytes, time and
       * rate, e.g. "8 MiB · 160 µs · 52.4 GB/s". */
      /* A CPU's bar keeps its name over its bytes: drawn in d2h's
       * colour without it, it read as a copy (managed-touch). */
      g_snprintf (texts[n++], 128, C_("timeline bar", "%s · %s · %.1f GB/s"), cpu ? name : bytes,
                  time, gbps);
      /* Translators: a timeline bar: time and rate, e.g. "160 µs · 52.4 GB/s". */
      g_snprintf (texts[n++], 128, C_("timeline bar", "%s · %.1f GB/s"), time, gbps);
      /* Translators: a timeline bar: its rate alone, e.g. "52.4 GB/s". */
      g_snprintf (texts[n++], 128, C_("timeline bar", "%.1f GB/s"), gbps);
    }
    /* Translators: a timeline bar: phase, bytes and time, e.g. "d2h 4 MiB · 80 µs". */
    g_snprintf (texts[n++], 128, C_("timeline bar", "%s %s · %s"), name, bytes, time);
    /* Translators: a timeline bar without its phase: bytes and time, e.g. "4 MiB · 80 µs". */
    g_snprintf (texts[n++], 128, C_("timeline bar", "%s · %s"), bytes, time);
  }
  if (bytes[0] || time[0])
    /* Translators: a timeline bar: phase and bytes or time, e.g. "d2h 4 MiB". */
    g_snprintf (texts[n++], 128, C_("timeline bar", "%s %s"), name, time[0] ? time : bytes);
  /* Where "h2d" alone finds room, what it carries: a class asked which
   * copy a bare "h2d" was. */
  if (ab)
    /* Translators: a timeline bar too short for its bytes: the phase and
     * that it carries both inputs, e.g. "h2d a+b". */
    g_snprintf (texts[n++], 128, C_ ("timeline bar", "%s a+b"), name);
  g_snprintf (texts[n++], 128, "%s", name);
  return n;
}

/* The free stretch of the bar's lane around it: the end of the bar
 * before it and the start of the one after it (a bar overlapping it
 * leaves no room on its side). */
static void
lane_room (const MsTimelineBar *b, const GArray *obstacles, double *lo, double *hi)
{
  for (guint i = 0; i < obstacles->len; i++) {
    const MsTimelineBar *o = &g_array_index (obstacles, MsTimelineBar, i);
    if (o->event == b->event || o->y + o->h <= b->y || o->y >= b->y + b->h)
      continue;
    /* A bar that overlaps this one closes the side it reaches past. */
    if (o->x >= b->x + b->w - 0.5 || o->x + o->w > b->x + b->w)
      *hi = MIN (*hi, o->x);
    if (o->x + o->w <= b->x + 0.5 || o->x < b->x)
      *lo = MAX (*lo, o->x + o->w);
  }
}

static gboolean
covers_placed (const GArray *placed, double x, double y, double w, double h, double pad)
{
  for (guint i = 0; i < placed->len; i++) {
    const MsBarLabel *p = &g_array_index (placed, MsBarLabel, i);
    if (x < p->x + p->w + pad && p->x < x + w + pad && y < p->y + p->h && p->y < y + h)
      return TRUE;
    /* And its leader's two segments. */
    for (int k = 0; p->leader && k < 2; k++) {
      double x0 = MIN (p->leader_pts[k][0], p->leader_pts[k + 1][0]) - 1;
      double x1 = MAX (p->leader_pts[k][0], p->leader_pts[k + 1][0]) + 1;
      double y0 = MIN (p->leader_pts[k][1], p->leader_pts[k + 1][1]) - 1;
      double y1 = MAX (p->leader_pts[k][1], p->leader_pts[k + 1][1]) + 1;
      if (x < x1 + pad && x0 < x + w + pad && y < y1 && y0 < y + h)
        return TRUE;
    }
  }
  return FALSE;
}

/* text at size on the bar, after it or before it: the first place that
 * fits and covers no label placed. */
static gboolean
place_text (cairo_t *cr, const MsTimelineBar *b, double lo, double hi, double size,
            const char *text, const GArray *placed, MsBarLabel *out)
{
  /* A bar's label is a figure: on a slide, at least a back row's size. */
  size = ms_draw_figure_size (cr, size);
  const double pad = size / 3;
  double tw, th;
  ms_draw_text (cr, text, 0, 0, size, -1, 0, FALSE, &tw, &th);
  double y = b->y + b->h / 2 - th / 2;
  /* On the bar, its part in view: zoomed in, a bar that began left of the view had its label
   * centred on the whole, cut at the edge ("h2d 2 MiB · 53.8 µs" read "3.8 µs"). */
  const double v0 = MAX (b->x, lo), v1 = MIN (b->x + b->w, hi);
  const double xs[] = { v0 + (v1 - v0 - tw) / 2, b->x + b->w + pad, b->x - pad - tw };
  const gboolean fits[] = { tw + 2 * pad < v1 - v0, b->x + b->w + pad + tw + pad <= hi,
                            b->x - pad - tw - pad >= lo };
  for (int k = 0; k < 3; k++) {
    if (!fits[k] || covers_placed (placed, xs[k], y, tw, th, pad))
      continue;
    *out = (MsBarLabel) { xs[k], y, tw, th, k == 0, size, "", b->event->phase, b->event };
    g_strlcpy (out->text, text, sizeof out->text);
    return TRUE;
  }
  return FALSE;
}

/* The shortest form with the rate, in smaller text. */
static gboolean
place_rate_smaller (cairo_t *cr, const MsTimelineBar *b, double lo, double hi, double fs,
                    char texts[][128], int n, const GArray *placed, MsBarLabel *out)
{
  for (int i = n - 1; i >= 0; i--)
    if (strstr (texts[i], "GB/s"))
      return place_text (cr, b, lo, hi, fs * 0.72, texts[i], placed, out);
  return FALSE;
}

/* The first form and place that fits: on the bar, after it, before it.
 * A copy's rate, its key figure, may take a fifth smaller text before a
 * form without it does: at 1024x768 in presentation a pinned h2d bar held
 * "h2d" alone, its 52 GB/s a few pixels too wide. */
static gboolean
place_one (cairo_t *cr, const MsTimelineBar *b, double lo, double hi, double fs, int rates,
           const MsCell *cell, const GArray *placed, MsBarLabel *out)
{
  char texts[N_TEXTS][128];
  int n = label_texts (b->event, rates, cell, texts);
  for (int i = 0; i < n; i++)
    if (strstr (texts[i], "GB/s") && place_text (cr, b, lo, hi, fs * 0.9, texts[i], placed, out))
      return TRUE;
  if (place_rate_smaller (cr, b, lo, hi, fs, texts, n, placed, out))
    return TRUE;
  for (int i = 0; i < n; i++)
    if (!strstr (texts[i], "GB/s") && place_text (cr, b, lo, hi, fs * 0.9, texts[i], placed, out))
      return TRUE;
  return FALSE;
}

GArray *
ms_timeline_labels_place (cairo_t *cr, const GArray *bars, const GArray *obstacles, double left,
                          double right, double fs, int rates, const MsCell *cell)
{
  GArray *placed = g_array_new (FALSE, FALSE, sizeof (MsBarLabel));
  for (guint i = 0; i < bars->len; i++) {
    const MsTimelineBar *b = &g_array_index (bars, MsTimelineBar, i);
    double lo = left, hi = right;
    MsBarLabel l;
    lane_room (b, obstacles, &lo, &hi);
    if (place_one (cr, b, lo, hi, fs, rates, cell, placed, &l))
      g_array_append_val (placed, l);
  }
  return placed;
}

static int
cmp_right_first (gconstpointer a, gconstpointer b)
{
  const MsTimelineBar *x = a, *y = b;
  return (x->x < y->x) - (x->x > y->x);
}

static gboolean
named (const GArray *placed, const MsEvent *event)
{
  for (guint i = 0; i < placed->len; i++)
    if (g_array_index (placed, MsBarLabel, i).event == event)
      return TRUE;
  return FALSE;
}

static gboolean
covers_bar (const GArray *all_bars, double x, double y, double w, double h, double pad)
{
  for (guint i = 0; i < all_bars->len; i++) {
    const MsTimelineBar *o = &g_array_index (all_bars, MsTimelineBar, i);
    if (x < o->x + o->w + pad && o->x < x + w + pad && y < o->y + o->h + pad && o->y < y + h + pad)
      return TRUE;
  }
  return FALSE;
}

/* Whether a riser at x from y0 down to y1 runs within pad of a bar
 * beside it, or through one: beside the launch's sliver it read as a
 * second one. */
static gboolean
riser_beside_bar (const GArray *all_bars, double x, double y0, double y1, double pad)
{
  for (guint i = 0; i < all_bars->len; i++) {
    const MsTimelineBar *o = &g_array_index (all_bars, MsTimelineBar, i);
    if (x > o->x - pad && x < o->x + o->w + pad && y0 < o->y + o->h && o->y < y1)
      return TRUE;
  }
  return FALSE;
}

/* text for bar b at size over it: a row up, two, three, and right of an
 * elbow's riser from the bar's middle (or a little either side of it),
 * the first spot where neither the text nor its leader covers a bar or
 * a label, nor the riser runs beside another bar; *out the text's box and
 * the leader. */
static gboolean
call_out_text (cairo_t *cr, const MsTimelineBar *b, const char *text, const GArray *all_bars,
               double left, double right, double top, double size, const GArray *placed,
               MsBarLabel *out)
{
  size = ms_draw_figure_size (cr, size);
  const double pad = size * 0.25;
  double tw, th;
  ms_draw_text (cr, text, 0, 0, size, -1, 0, FALSE, &tw, &th);
  for (int level = 0; level < 3; level++) {
    double y = b->y - pad - th - level * (th + pad);
    if (y < top)
      break;
    double mid_y = y + th / 2;
    for (int k = 0; k <= 8; k++) {
      /* The riser, within the bar's middle four fifths. */
      double ax = b->x + b->w / 2 + (k % 2 ? 1 : -1) * ((k + 1) / 2) * b->w * 0.1;
      if (b->w < 8 && k > 0)
        break;
      for (int shift = 0; shift <= 16; shift++) {
        double x = ax + size * 0.7 + shift * size * 0.5;
        if (x + tw > right || ax < left)
          break;
        /* The text, the riser (from the bar's top to the text's middle)
         * and the arm across to it. */
        if (covers_bar (all_bars, x, y, tw, th, pad) || covers_placed (placed, x, y, tw, th, pad)
            || riser_beside_bar (all_bars, ax, mid_y, b->y - 1, pad)
            || covers_placed (placed, ax - 1, mid_y, 2, b->y - mid_y, pad)
            || covers_bar (all_bars, ax, mid_y - 1, x - ax, 2, 0)
            || covers_placed (placed, ax, mid_y - 1, x - ax, 2, pad))
          continue;
        *out = (MsBarLabel) { x, y, tw, th, FALSE, size, "", b->event->phase, b->event };
        g_strlcpy (out->text, text, sizeof out->text);
        out->leader = TRUE;
        const double pts[3][2] = { { ax, b->y }, { ax, mid_y }, { x - pad, mid_y } };
        memcpy (out->leader_pts, pts, sizeof pts);
        return TRUE;
      }
    }
  }
  return FALSE;
}

/* Bar b's name over it (call_out_text), with its time where that fits; a kernel drawn as wide as a
 * speck (a third of the text size, ms-timeline.c) said to be ("kernel 16.2 µs" on a bar six times
 * its width was read as drawn to scale). */
static gboolean
call_out_one (cairo_t *cr, const MsTimelineBar *b, const GArray *all_bars, double left,
              double right, double top, double size, const GArray *placed, MsBarLabel *out)
{
  char texts[N_TEXTS][128];
  /* Its rate first, as the transfers named on their bars give theirs: a
   * prefetch without one was the transfer a reader could not compare. */
  if (label_texts (b->event, 1, NULL, texts) > 0 && strstr (texts[0], "GB/s")
      && call_out_text (cr, b, texts[0], all_bars, left, right, top, size, placed, out))
    return TRUE;
  int n = label_texts (b->event, FALSE, NULL, texts);
  for (int i = 0; b->event->phase == MS_PHASE_KERNEL && b->w < size / 0.9 / 3 && i < n; i++)
    g_strlcat (texts[i], _ (" (drawn wider to be seen)"), sizeof texts[i]);
  /* Its name, bytes and time where they fit ("prefetch 32 MiB · 1.4 ms":
   * without its size a prefetch's was asked for), else fewer. */
  const int forms[] = { 0, MAX (n - 2, 0), n - 1 };
  for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
    if (call_out_text (cr, b, texts[forms[f]], all_bars, left, right, top, size, placed, out))
      return TRUE;
  return FALSE;
}

void
ms_timeline_labels_call_out (cairo_t *cr, const GArray *bars, const GArray *all_bars, double left,
                             double right, double top, double fs, GArray *placed)
{
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (MsTimelineBar), bars->len);
  g_array_append_vals (order, bars->data, bars->len);
  g_array_sort (order, cmp_right_first);
  for (guint i = 0; i < order->len; i++) {
    const MsTimelineBar *b = &g_array_index (order, MsTimelineBar, i);
    MsBarLabel l;
    if (!b->host_part && b->event->gpu_us >= 0 && !named (placed, b->event)
        && call_out_one (cr, b, all_bars, left, right, top, fs * 0.9, placed, &l))
      g_array_append_val (placed, l);
  }
}
