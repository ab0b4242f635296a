/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-sync-async.c: the synchronous-and-asynchronous-copies
 * lesson's picture: host-to-device and device-to-host side by side, the
 * call's host time (solid) and the time until the copy is done (dashed)
 * against the size, one colour per call and memory, the kernel ahead as a
 * reference line: where solid lies far under dashed, the call returned
 * before the copy was done. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-chart.h"
#include "ms-palette.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-lessons.h"

static const struct {
  MsSaApi api;
  MsMode memory;
  const char *label;
} lines[] = {
  { MS_SA_MEMCPY, MS_MODE_PAGEABLE, N_ ("cudaMemcpy, pageable") },
  { MS_SA_MEMCPY, MS_MODE_PINNED, N_ ("cudaMemcpy, pinned") },
  { MS_SA_ASYNC, MS_MODE_PAGEABLE, N_ ("Async, pageable") },
  { MS_SA_ASYNC, MS_MODE_PINNED, N_ ("Async, pinned") },
};

/* The line the takeaway reads: cudaMemcpyAsync from pageable memory. */
#define TAKEAWAY_LINE 2
/* A slide's two lines beside it, what it moves between: cudaMemcpy from
 * pinned memory (waits for the kernel ahead) and cudaMemcpyAsync from
 * pinned memory (returns at once). One rising line alone, read against
 * the dotted one, showed no change of behaviour. */
#define SYNC_LINE 1
#define ASYNC_LINE 3

static gboolean
on_slide (guint line)
{
  return line == TAKEAWAY_LINE || line == SYNC_LINE || line == ASYNC_LINE;
}

/* Two markers of a slide's lines at one size closer than this, in
 * decades, overlap: at 4 MiB cudaMemcpy's 310 µs lay under the pageable
 * call's 409 µs ring on the H100 (0.12 decades). */
#define OVERLAP_DECADES 0.2
/* How far left of its size such a marker is drawn, in octaves: a
 * marker clear of the ring round the takeaway's on a projected slide. */
#define DODGE_OCTAVES 0.5

/* The size at which a slide draws line i's call at exponent e, host to
 * device: its own, or a little left of it where its marker would overlap
 * the takeaway line's, which keeps its place on the size's tick (and the
 * axis its range). */
static double
slide_x (const MsResults *run, guint i, int e)
{
  const MsCell *c
      = ms_sa_cell (run, lines[i].memory, e, lines[i].api, MS_SA_H2D, MS_SA_CALL, FALSE);
  if (!c || !(c->stats.e2e.median > 0))
    return (double) ms_exponent_bytes (e);
  double bytes = (double) ms_vector_bytes (c->elements);
  const MsCell *t = i == TAKEAWAY_LINE ? NULL
                                       : ms_sa_cell (run, lines[TAKEAWAY_LINE].memory, e,
                                                     lines[TAKEAWAY_LINE].api, MS_SA_H2D,
                                                     MS_SA_CALL, FALSE);
  if (t && t->stats.e2e.median > 0
      && fabs (log10 (c->stats.e2e.median / t->stats.e2e.median)) < OVERLAP_DECADES)
    return bytes * exp2 (-DODGE_OCTAVES);
  return bytes;
}

/* Whether a slide draws any marker of its lines left of its size
 * (slide_x), which its key then says: unsaid, cudaMemcpy's 4 MiB marker
 * read as about 3 MiB. */
static gboolean
any_dodged (const MsResults *run)
{
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    for (int e = MS_MIN_EXPONENT; on_slide (i) && e <= MS_MAX_EXPONENT; e++) {
      const MsCell *c
          = ms_sa_cell (run, lines[i].memory, e, lines[i].api, MS_SA_H2D, MS_SA_CALL, FALSE);
      if (c && c->stats.e2e.median > 0
          && slide_x (run, i, e) != (double) ms_vector_bytes (c->elements))
        return TRUE;
    }
  return FALSE;
}

static MsChartData *
build (const MsResults *run, MsSaDir dir, gboolean slide)
{
  MsChartData *d = ms_chart_data_new ();
  int ahead_us = ms_sa_ahead_us (run);
  char ahead[32];
  ms_caption_time (ahead_us, ahead, sizeof ahead);
  /* A slide says how to read its one line where the eye starts: said
   * only in grey under the chart, "returned early" meant nothing; with
   * the kernel's length, "early" was read as early against anything. */
  d->title = slide && dir == MS_SA_H2D
                 /* TRANSLATORS: the sync-async slide's panel title, one line;
                  * %s is the kernel's time, e.g. "200 µs". */
                 ? g_strdup_printf (_ ("Host to device: early = returned before the %s kernel "
                                       "ahead ended"),
                                    ahead)
                 : g_strdup (dir == MS_SA_H2D ? _ ("Host to device") : _ ("Device to host"));
  /* A log axis says so: its even steps are factors. */
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("bytes per copy"));
  /* A slide draws when the calls returned alone: "time from the call"
   * read there as from the call to anything. */
  d->y_label = g_strdup (slide ? _ ("how long the call took") : _ ("time from the call"));
  d->y_kind = MS_SCALE_LOG10;
  d->y_unit = MS_SCALE_TIME_US;
  d->empty_text = g_strdup (_ ("The run has no copies in this direction."));
  gboolean any = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    for (int what = 0; what < MS_SA_WHAT_COUNT; what++) {
      g_autofree char *label = g_strdup_printf ("%s: %s", _ (lines[i].label),
                                                what == MS_SA_CALL ? _ ("call") : _ ("done"));
      MsChartSeries *s = NULL;
      for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
        const MsCell *c
            = ms_sa_cell (run, lines[i].memory, e, lines[i].api, dir, (MsSaWhat)what, FALSE);
        if (!c)
          continue;
        if (!s) {
          s = ms_chart_data_add_series (d, label, i, i, what == MS_SA_CALL ? 0 : 1);
          s->no_markers = what == MS_SA_DONE;
        }
        /* A slide has no bars: each point is read against the dotted
         * line, decades away, and the intervals of a few small sizes,
         * up to ten times their median, stood out as clutter. */
        const MsStat *st = &c->stats.e2e;
        double x = slide && dir == MS_SA_H2D && on_slide (i) && what == MS_SA_CALL
                       ? slide_x (run, i, e)
                       : (double) ms_vector_bytes (c->elements);
        ms_chart_series_add (s, x, st->median, slide ? 1 : st->min, slide ? 0 : st->max, FALSE);
        any = TRUE;
      }
    }
  if (any && ahead_us > 0) {
    /* TRANSLATORS: the sync-async picture's reference line; %s is the
     * kernel's time, e.g. "200 µs". */
    g_autofree char *label = g_strdup_printf (_ ("the kernel ahead, %s"), ahead);
    /* A slide names it in its key: in the plot its label's pointer met
     * cudaMemcpy's line, and a ring's leader ran through its words. */
    ms_chart_data_add_ref (d, ahead_us, slide && dir == MS_SA_H2D ? NULL : label);
  }
  return d;
}

/* The finding at the largest size both calls have from pinned memory,
 * host to device: when the asynchronous call returned against when its
 * copy was done, and when the synchronous one returned. NULL without. */
static char *
takeaway (const MsResults *run)
{
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--) {
    const MsCell *call
        = ms_sa_cell (run, MS_MODE_PINNED, e, MS_SA_ASYNC, MS_SA_H2D, MS_SA_CALL, FALSE);
    const MsCell *done
        = ms_sa_cell (run, MS_MODE_PINNED, e, MS_SA_ASYNC, MS_SA_H2D, MS_SA_DONE, FALSE);
    const MsCell *sync
        = ms_sa_cell (run, MS_MODE_PINNED, e, MS_SA_MEMCPY, MS_SA_H2D, MS_SA_CALL, FALSE);
    if (!call || !done || !sync || !(call->stats.e2e.median > 0) || !(done->stats.e2e.median > 0)
        || !(sync->stats.e2e.median > 0))
      continue;
    char size[32], tc[32], td[32], ts[32];
    ms_format_size_label ((double) ms_vector_bytes (call->elements), size, sizeof size);
    ms_caption_time (call->stats.e2e.median, tc, sizeof tc);
    ms_caption_time (done->stats.e2e.median, td, sizeof td);
    ms_caption_time (sync->stats.e2e.median, ts, sizeof ts);
    return g_strdup_printf (_ ("%s from pinned memory to the device: cudaMemcpyAsync returned "
                               "after %s, its copy was done after %s; cudaMemcpy returned after "
                               "%s."),
                            size, tc, td, ts);
  }
  return NULL;
}

/* The second part, in a fresh process with CUDA_LAUNCH_BLOCKING=1: a row
 * per direction, named, and in it a group per call and memory, a marker
 * per size measured (small to large) in the line's colour and shape,
 * filled where the call still returned before its copy was done, hollow
 * where it waited: unnamed squares in one row were not read. The calls
 * and the early ones are counted into *measured and *early. Returns the
 * height; only measured unless draw. */
static double
blocking_rows (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double y0, double width,
               gboolean draw, int *measured, int *early)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  const double r = fs * 0.36, pitch = r * 2.7, group_gap = fs;
  const char *dir_label[MS_SA_DIR_COUNT] = { _ ("host to device"), _ ("device to host") };
  double label_w = 0, tw, th = fs * 1.2, y = y0;
  for (int dir = 0; dir < MS_SA_DIR_COUNT; dir++) {
    ms_draw_text (cr, dir_label[dir], 0, 0, fs, -1, 0, FALSE, &tw, &th);
    label_w = MAX (label_w, tw);
  }
  *measured = *early = 0;
  for (int dir = 0; dir < MS_SA_DIR_COUNT; dir++) {
    double x = fs + label_w + fs, row_h = MAX (th, pitch);
    gboolean any = FALSE;
    for (guint i = 0; i < G_N_ELEMENTS (lines); i++, x += group_gap) {
      MsColor col;
      ms_chart_palette_color (i, st->dark, &col);
      for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
        const MsCell *call
            = ms_sa_cell (run, lines[i].memory, e, lines[i].api, (MsSaDir)dir, MS_SA_CALL, TRUE);
        const MsCell *done
            = ms_sa_cell (run, lines[i].memory, e, lines[i].api, (MsSaDir)dir, MS_SA_DONE, TRUE);
        if (!call || !done)
          continue;
        gboolean is_early = ms_sa_returned_early (call, done);
        (*measured)++;
        *early += is_early;
        any = TRUE;
        if (x + pitch > width - fs)
          x = fs + label_w + fs, y += row_h;
        if (draw) {
          const double at[2] = { x + pitch / 2, y + row_h / 2 };
          ms_set_color (cr, &col, 1);
          ms_draw_markers (cr, i, is_early ? MS_FILL_SOLID : MS_FILL_HOLLOW, at, 1, r, lw, &st->bg);
        }
        x += pitch;
      }
    }
    if (!any)
      continue;
    if (draw) {
      ms_set_color (cr, &st->fg, 0.95);
      ms_draw_text (cr, dir_label[dir], fs, y + row_h / 2, fs, 0, 0.5, FALSE, NULL, NULL);
    }
    y += row_h + fs * 0.15;
  }
  return *measured ? y - y0 : 0;
}

/* That part's finding and how to read its markers over its rows; 0
 * without that part. */
static double
blocking_strip (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double y0, double width,
                gboolean draw)
{
  const double fs = ms_style_font_size (st);
  int measured, early;
  double rows_h = blocking_rows (cr, run, st, 0, width, FALSE, &measured, &early);
  if (measured == 0)
    return 0;
  /* TRANSLATORS: over the sync-async picture's markers, one per call
   * measured with CUDA_LAUNCH_BLOCKING=1, e.g. "... 8 of 56 calls ...". */
  g_autofree char *count
      = g_strdup_printf (_ ("With CUDA_LAUNCH_BLOCKING=1, %d of %d calls returned before their "
                            "copy was done (a marker per call and size: filled if it did)"),
                         early, measured);
  ms_set_color (cr, &st->fg, 0.95);
  double text_h = ms_draw_text_wrapped (cr, count, fs, y0, fs, width - 2 * fs, FALSE, draw);
  if (draw)
    blocking_rows (cr, run, st, y0 + text_h + fs * 0.2, width, TRUE, &measured, &early);
  return text_h + fs * 0.2 + rows_h;
}

/* A slide's key of line i: the call in full and, for the lines beside
 * the takeaway's, what they did at every size, as measured. */
static char *
slide_key (const MsResults *run, guint i)
{
  static const char *const names[]
      = { N_ ("cudaMemcpy, pageable"), N_ ("cudaMemcpy, pinned"), N_ ("cudaMemcpyAsync, pageable"),
          N_ ("cudaMemcpyAsync, pinned") };
  G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (lines));
  int behaviour
      = i == TAKEAWAY_LINE ? -1 : ms_sa_behaviour (run, lines[i].memory, lines[i].api, MS_SA_H2D);
  if (behaviour == 1)
    /* TRANSLATORS: a key on the sync-async slide, e.g. "cudaMemcpyAsync,
     * pinned: early at every size". */
    return g_strdup_printf (_ ("%s: early at every size"), _ (names[i]));
  if (behaviour == 0)
    /* TRANSLATORS: e.g. "cudaMemcpy, pinned: after the kernel at every
     * size" (returned after the kernel ahead: "blocked" was read as a
     * rule of sizes). */
    return g_strdup_printf (_ ("%s: after the kernel at every size"), _ (names[i]));
  return g_strdup (_ (names[i]));
}

/* A slide's note, two lines (a third pushed the rings' labels over other
 * markers): why the pageable call stopped returning early, as the CUDA
 * documentation of pageable cudaMemcpyAsync says (it returns once its data
 * is staged), with the sizes' times: "pageable ≤ 1 MiB" alone read as a
 * size rule of the API. The other direction, not drawn, is the details'. */
static char *
slide_note (const MsResults *run)
{
  char why[320];
  if (!ms_sa_staging_note (run, why, sizeof why))
    g_strlcpy (why, _ ("Pageable calls return once the CPU has copied the data to a staging "
                       "buffer: later for larger copies."),
               sizeof why);
  return g_strconcat (why, any_dodged (run) ? " " : "",
                      any_dodged (run) ? _ ("A marker that would cover another is moved a little "
                                            "left.")
                                       : "",
                      NULL);
}

/* One legend under both panels: a line per call and memory (its colour
 * and marker), then what solid and dashed mean, with blocking the
 * CUDA_LAUNCH_BLOCKING=1 part's markers, then the finding. Beside each
 * panel it took a third of the panel. Returns the height; only measured
 * unless draw. */
static double
shared_legend (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double y0, double width,
               gboolean blocking, gboolean draw)
{
  const double fs = ms_style_font_size (st), lw = ms_style_line_width (st);
  double x = fs, y = y0, tw, th = fs;
  /* A slide (no room for the strip) is about the takeaway's line: the
   * others' keys go as their lines do. */
  const gboolean focus = !blocking;
  /* On a slide the takeaway's line first, then the early one and the
   * waiting one, low to high as the chart has them. */
  static const guint slide_order[] = { TAKEAWAY_LINE, ASYNC_LINE, SYNC_LINE, 0 };
  G_STATIC_ASSERT (G_N_ELEMENTS (slide_order) == G_N_ELEMENTS (lines));
  for (guint k = 0; k < G_N_ELEMENTS (lines); k++) {
    guint i = focus ? slide_order[k] : k;
    if (focus && !on_slide (i))
      continue;
    g_autofree char *label = focus ? slide_key (run, i) : g_strdup (_ (lines[i].label));
    const gboolean bold = i == TAKEAWAY_LINE && focus;
    ms_draw_text (cr, label, 0, 0, fs, -1, 0, bold, &tw, &th);
    /* Wider than the picture, on rows of its own, wrapped ("cudaMemcpy,
     * pinned: after the kernel at every size" ran off a narrow pane). */
    const double room = width - fs * 4;
    if (x > fs && (tw > room || x + fs * 2 + tw > width - fs))
      x = fs, y += th * 1.3;
    if (draw)
      ms_picture_key_line (cr, st, i, x, y, th, fs, lw);
    if (tw > room) {
      ms_set_color (cr, &st->fg, 1);
      y += ms_draw_text_wrapped (cr, label, x + fs * 2, y, fs, room, bold, draw) - th;
      x = width;
      continue;
    }
    if (draw) {
      ms_set_color (cr, &st->fg, 1);
      ms_draw_text (cr, label, x + fs * 2, y, fs, 0, 0, bold, NULL, NULL);
    }
    x += fs * 3 + tw;
  }
  int ahead_us = ms_sa_ahead_us (run);
  if (focus && ahead_us > 0) {
    /* Its time is the panel title's, at a figure's size: here, in the
     * key's, it was too small for a back row. */
    const char *label = _ ("dotted: the kernel ahead");
    ms_draw_text (cr, label, 0, 0, fs, -1, 0, FALSE, &tw, &th);
    /* Only on the lines' last row: a row of its own squeezed a narrow
     * pane's plot (the panel's title names the kernel there too). */
    if (draw && x + fs * 2 + tw <= width - fs) {
      /* Dotted as the chart draws it. */
      ms_set_color (cr, &st->fg, 0.9);
      cairo_set_line_width (cr, lw * 1.1);
      ms_set_dash (cr, 2, lw * 1.5);
      ms_draw_line (cr, lw * 1.1, x, y + th / 2, x + fs * 1.6, y + th / 2);
      ms_set_dash (cr, 0, lw);
      ms_set_color (cr, &st->fg, 1);
      ms_draw_text (cr, label, x + fs * 2, y, fs, 0, 0, FALSE, NULL, NULL);
    }
  }
  y += th * 1.3;
  g_autofree char *note
      = focus ? slide_note (run)
              : g_strdup (_ ("solid line with markers: when the call returned; dashed line: "
                             "when the copy was done"));
  y += ms_draw_note (cr, st, note, fs, y, width - 2 * fs, draw);
  /* A slide does not list what it leaves to a larger view (two grey
   * lines of API names under the key): Details is over it. */
  if (blocking)
    y += blocking_strip (cr, run, st, y + fs * 0.2, width, draw) + fs * 0.2;
  /* The pinned copy's finding where the slide is not about one line. */
  g_autofree char *take = focus ? NULL : takeaway (run);
  if (take) {
    ms_set_color (cr, &st->fg, 0.95);
    y += fs * 0.2;
    y += ms_draw_text_wrapped (cr, take, fs, y, fs, width - 2 * fs, TRUE, draw);
  }
  return y - y0 + fs * 0.3;
}

/* Rings the two sizes the takeaway names on cudaMemcpyAsync from pageable
 * memory to the device, each with when the call returned. */
static void
call_out_takeaway (const MsResults *run, MsChartData *h2d, const int named[2])
{
  for (int k = 0; k < 2; k++) {
    const MsCell *c = named[k] >= 0 ? ms_sa_cell (run, MS_MODE_PAGEABLE, named[k], MS_SA_ASYNC,
                                                  MS_SA_H2D, MS_SA_CALL, FALSE)
                                    : NULL;
    if (!c)
      continue;
    char t[32], size[32];
    ms_caption_time (c->stats.e2e.median, t, sizeof t);
    ms_format_size_label ((double) ms_vector_bytes (c->elements), size, sizeof size);
    /* Each label names its size: where the plot leaves no free spot, the
     * 4 MiB label sat under the 1 MiB ring at 1024x768 and read as that
     * point's. */
    /* TRANSLATORS: a ring's label on the sync-async chart: the size, then
     * when the call returned, read against the kernel ahead's dotted line
     * ("4 MiB: waited 409 µs" implied a wait for the copy's own end,
     * which the chart does not draw; a longer label found no spot clear
     * of the lines). */
    g_autofree char *label = g_strdup_printf (_ ("%s: returned after %s"), size, t);
    ms_chart_data_add_callout (h2d, slide_x (run, TAKEAWAY_LINE, named[k]), c->stats.e2e.median,
                               label);
  }
}

static void
ms_picture_sync_async (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  /* The default part's two directions in the panels; the blocking part
   * under them, a marker per call. */
  /* The blocking part where the panels keep three fifths of the picture
   * (a projected Lessons page has the panels alone: the strip left them
   * half of it, and the slide read as a table of markers). */
  gboolean blocking = TRUE;
  double legend_h = shared_legend (cr, run, style, 0, width, blocking, FALSE);
  if (ms_draw_is_slide (style, height) || height - legend_h < height * 0.6) {
    blocking = FALSE;
    legend_h = shared_legend (cr, run, style, 0, width, blocking, FALSE);
  }
  double panel_h = round (height - legend_h);
  /* A slide (no room for the strip) keeps the direction its takeaway
   * reads, at the full width: two half-width panels of four lines each
   * asked a class to find one line in eight. */
  const int n_panels = blocking ? MS_SA_DIR_COUNT : 1;
  const double panel_w = width / n_panels;
  MsChartData *panels[MS_SA_DIR_COUNT];
  int named[2];
  ms_sa_pageable_sizes (run, &named[0], &named[1]);
  for (int dir = 0; dir < MS_SA_DIR_COUNT; dir++) {
    panels[dir] = build (run, (MsSaDir)dir, !blocking);
  }
  /* One time axis for both: the same time at the same height. */
  ms_picture_share_range (panels, MS_SA_DIR_COUNT);
  if (!blocking) {
    call_out_takeaway (run, panels[MS_SA_H2D], named);
    /* Room over the top line for its ring's label at a back row's size:
     * without it "4 MiB: returned after 374 µs" found no spot off the lines. */
    if (panels[MS_SA_H2D]->y_max > 0)
      panels[MS_SA_H2D]->y_max *= 3;
  }
  for (int dir = 0; dir < MS_SA_DIR_COUNT; dir++) {
    MsChartData *data = panels[dir];
    if (dir >= n_panels) {
      ms_chart_data_free (data);
      continue;
    }
    data->no_legend = TRUE;
    /* A slide: when the call returned, on the takeaway's line and the
     * two it moves between (on_slide); faint, the other three still piled
     * up between 200 and 600 µs over it. */
    for (guint k = data->series->len; !blocking && k-- > 0;) {
      const MsChartSeries *series = g_ptr_array_index (data->series, k);
      /* Its copy's end too goes: at the kernel ahead's 200 µs up to
       * 1 MiB, dashed on the dotted line, it was a third line there. */
      if (!on_slide (series->color) || series->no_markers)
        ms_chart_data_remove_series (data, k);
    }
    /* The kernel's dotted line over cudaMemcpy's, which waits for it and
     * so runs along it: under it, the line was not seen. */
    data->refs_over = !blocking;
    /* The sizes the caption names keep their ticks, in both panels. */
    for (int k = 0; k < 2; k++)
      if (named[k] >= 0)
        data->x_marks[k] = (double) ms_exponent_bytes (named[k]);
    /* And the guide's 64 KiB, which the caption sets cudaMemcpy against. */
    data->x_marks[2] = 64 * 1024;
    /* Small panels keep their plots: the ticks say sizes and times (and
     * the note under them what the times are), the time axis's title
     * first: ellipsized, it read "time from the ...". */
    if (panel_h < height * 0.6)
      g_clear_pointer (&data->y_label, g_free);
    if (panel_h < height * 0.55)
      g_clear_pointer (&data->x_label, g_free);
    cairo_save (cr);
    cairo_translate (cr, dir * panel_w, 0);
    cairo_rectangle (cr, 0, 0, panel_w, panel_h);
    cairo_clip (cr);
    ms_chart_draw (cr, data, style, panel_w, panel_h, -1, NULL);
    cairo_restore (cr);
    ms_chart_data_free (data);
  }
  cairo_save (cr);
  cairo_rectangle (cr, 0, panel_h, width, height - panel_h);
  cairo_clip (cr);
  ms_draw_background (cr, style);
  cairo_restore (cr);
  shared_legend (cr, run, style, panel_h, width, blocking, TRUE);
}

const MsLessonLook ms_lesson_look_sync_async = {
  .picture = ms_picture_sync_async,
};
