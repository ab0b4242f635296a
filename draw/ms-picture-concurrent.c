/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-concurrent.c: the concurrent-kernels lesson's picture: the
 * time of K kernels in single-kernel times against K, one line per
 * setting: on one stream it climbs with K, on K streams it stays near 1
 * unless each kernel needs the whole GPU. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "ms-chart.h"
#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"

static const struct {
  const char *variant; /* after "K=n/" */
  const char *label;
} lines[] = {
  { "streams=one", N_ ("one stream") },
  { "streams=many", N_ ("K streams") },
  { "streams=many/grid=sms", N_ ("K streams, one block per SM") },
  { "streams=many/grid=sms/smem=max", N_ ("K streams, block per SM, all shared memory") },
  { "streams=many/grid=full", N_ ("K streams, full grids") },
};

static double
median_at (const MsResults *run, int k, const char *setting)
{
  char v[MS_VARIANT_LEN];
  snprintf (v, sizeof v, "K=%d/%s", k, setting);
  return ms_picture_median (run, v);
}

/* Whether b lies on a: within a tenth of a's value at every K both have
 * (and they share at least two). */
static gboolean
lies_on (const MsChartSeries *a, const MsChartSeries *b)
{
  guint shared = 0;
  for (guint i = 0; i < b->points->len; i++) {
    const MsChartPoint *q = &g_array_index (b->points, MsChartPoint, i);
    for (guint k = 0; k < a->points->len; k++) {
      const MsChartPoint *p = &g_array_index (a->points, MsChartPoint, k);
      if (p->x != q->x)
        continue;
      if (fabs (p->y - q->y) > 0.1 * p->y)
        return FALSE;
      shared++;
    }
  }
  return shared >= 2;
}

/* A line on an earlier one says whose in its name: the names at the
 * lines' ends alone left the reader to guess which of five coincide. */
static void
name_coinciding (MsChartData *d)
{
  for (guint i = 1; i < d->series->len; i++) {
    MsChartSeries *s = g_ptr_array_index (d->series, i);
    const MsChartSeries *other = ms_chart_data_lies_on (d, i, lies_on);
    if (!other)
      continue;
    /* TRANSLATORS: a line of the concurrent-kernels picture that lies on
     * another, e.g. "K streams, full grids (= one stream)". */
    char *label = g_strdup_printf (C_ ("line on another", "%s (= %s)"), s->label, other->label);
    g_free (s->label);
    s->label = label;
  }
}

/* The full grids' line: the card's second half, kernels that each fill
 * the GPU. */
#define FILLED_LINE (G_N_ELEMENTS (lines) - 1)

/* A slide draws the lines that lie on none before them, and the full
 * grids' line, which lies on one stream's: five names for two visible
 * lines read as clutter, and one line named "one stream, or each filling
 * the GPU" left the headline's "unless each filled the GPU" undrawn.
 * Blocks with all shared memory, which lie on it too, are the note's. */
static void
leave_coinciding_out (MsChartData *d)
{
  for (guint i = d->series->len; i-- > 1;) {
    MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (i == FILLED_LINE) {
      g_free (s->label);
      s->label = g_strdup (_ ("K streams, GPU-filling"));
      s->dash = 2;
      /* At its own K, on one stream's line, hollow inside one stream's circles, ringed so that
       * they show round the triangles: drawn left of K, it read as slower than one stream. */
      s->run = MS_FILL_HOLLOW;
      ((MsChartSeries *)g_ptr_array_index (d->series, 0))->run = MS_FILL_HALO;
    } else if (ms_chart_data_lies_on (d, i, lies_on))
      ms_chart_data_remove_series (d, i);
  }
}

/* A slide's title: what y counts and one kernel's time, its unit. */
static char *
slide_title (const MsResults *run)
{
  int k;
  double one, many, serial;
  char t[32];
  if (!ms_concurrent_quoted (run, &k, &one, &many, &serial))
    return g_strdup (_ ("K kernels: their time ÷ one kernel's time (log scale)"));
  /* TRANSLATORS: the concurrent slide's title, e.g. "Each line: K kernels' time ÷ one kernel
   * alone (113 µs), log scale": the GPU-filling line's start at 1× read as its own divisor. */
  return g_strdup_printf (_ ("Each line: K kernels' time ÷ one kernel alone (%s), log scale"),
                          ms_caption_time (one, t, sizeof t));
}

/* Under a slide's chart: why K kernels on one stream take under K× (readers asked why 14.6×, not
 * 16×: one alone's time past its run, its cell's kernel time, is not paid K times), and what
 * filling the GPU is, in words a class knows ("grid", "block" and "multiprocessor" went
 * unexplained), and does, which the headline rests on. (The key says why triangles are off K.) */
static char *
slide_note (const MsResults *run, gboolean tall)
{
  GString *s = g_string_new (NULL);
  int k;
  double one, many, serial, ran = ms_concurrent_ran_alone (run);
  char t[32], t1[32], t2[32];
  gboolean quoted = ms_concurrent_quoted (run, &k, &one, &many, &serial);
  /* Only where there is room: in a pane the plot was left too low for its ticks. */
  if (tall && quoted && ran > 0 && serial > k * ran) {
    ms_caption_time (ran, t, sizeof t);
    /* TRANSLATORS: e.g. "Each kernel, small or GPU-filling, runs 100 µs; one alone took 113 µs,
     * 16 on one stream 16 × 100 µs + 50 µs: 14.6×, not 16×." */
    g_string_printf (s,
                     _ ("Each kernel, small or GPU-filling, runs %s; one alone took %s, %d on "
                        "one stream %d × %s + %s: %.1f×, not %d×. "),
                     t, ms_caption_time (one, t1, sizeof t1), k, k, t,
                     ms_caption_time (serial - k * ran, t2, sizeof t2), serial / one, k);
  }
  if (run->device.multiprocessors > 0)
    g_string_append_printf (
        s,
        _ ("Filling the GPU: each kernel starts as many groups of threads as all %d "
           "of the GPU's multiprocessors (its cores) can hold, so such kernels run "
           "one after another, as on one stream."),
        run->device.multiprocessors);
  /* Why K streams stay over 1× (readers asked why 1.7×, not 1×), from their cell's clock stamps. */
  double spread = quoted ? ms_concurrent_stagger (run, k) : 0;
  if (spread > 0)
    /* TRANSLATORS: e.g. " 16 streams, over the dotted 1×: the host launched the last kernel
     * 79 µs after the first." (the dotted line: one kernel's time, all at once) */
    g_string_append_printf (s,
                            _ (" %d streams, over the dotted 1×: the host launched the last "
                               "kernel %s after the first."),
                            k, ms_caption_time (spread, t, sizeof t));
  return g_string_free (s, FALSE);
}

/* Rings the points the line quotes at the most K, each with its time
 * and its single-kernel times as the caption writes them: K kernels on K
 * streams, on one stream and (on a slide) each filling the GPU, which
 * lies on one stream's line. The axis counts single-kernel times only,
 * and "1.7" was to be guessed on a log scale. */
static void
call_out_takeaway (MsChartData *d, const MsResults *run, int slide)
{
  int k;
  double one, many, serial;
  if (!ms_concurrent_quoted (run, &k, &one, &many, &serial))
    return;
  /* One stream's, then the last line's (each filling the GPU), then K streams': placed after the
   * two at the top, K streams' label took the spot left of the triangle and the triangle's leader
   * crossed it. A slide's GPU-filling ring, on one stream's point, names both (three crossed). */
  const MsChartSeries *last = g_ptr_array_index (d->series, d->series->len - 1);
  for (guint n = slide && last->run == MS_FILL_HOLLOW; n < d->series->len; n++) {
    guint i = n == 0 ? 0 : d->series->len - n;
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    double t = i == 0 ? serial : i == 1 ? many : 0;
    if (slide && s->run == MS_FILL_HOLLOW)
      t = ms_concurrent_written (run, k, lines[FILLED_LINE].variant);
    for (guint j = 0; t > 0 && j < s->points->len; j++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, j);
      if (p->x != k)
        continue;
      char time[32];
      ms_caption_time (t, time, sizeof time);
      /* TRANSLATORS: on a slide, a ring's label: its line and how many single-kernel times K
       * kernels took, e.g. "one stream: 14.6×"; the GPU-filling line's as the headline names it
       * and with one stream's, on which it lies, e.g. "GPU-filling: 14.3×, one stream: 14.6×".
       * Short, without times: with them the labels at K = 16 crowded its markers, and the
       * headline quotes none (the Details have them). Else its line, the time K kernels took and
       * the same ratio, e.g. "K streams: 188 µs · 1.7×". */
      g_autofree char *label
          = slide && s->run == MS_FILL_HOLLOW ? g_strdup_printf (
                _ ("GPU-filling: %.1f×, one stream: %.1f×"), t / one, serial / one)
            : slide > 1 || (slide && i == 0) ? g_strdup_printf (_ ("%s: %.1f×"), s->label, t / one)
            : slide ? g_strdup_printf ("%s · %.1f×", time, t / one) /* short: room for no name */
                    : g_strdup_printf (_ ("%s: %s · %.1f×"), s->label, time, t / one);
      ms_chart_data_add_callout (d, p->x, p->y, label);
      /* A slide rings what its headline quotes, K streams' and the GPU-filling line's, and
       * labels one stream's, which it names, without a ring: two rings there crowded. */
      g_array_index (d->callouts, MsChartCallout, d->callouts->len - 1).remark = slide && i == 0;
    }
  }
}

static MsChartData *
build (const MsResults *run, int slide)
{
  MsChartData *d = ms_chart_data_new ();
  double one = median_at (run, 1, lines[0].variant);
  /* The ratio spelt out and the scale named: the slide has no room for
   * the axis's own title. */
  d->title = g_strdup (_("K kernels: their time ÷ one kernel's time (log scale)"));
  /* A log axis says so: its even steps are factors. */
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("K"));
  d->y_label = g_strdup (_("single-kernel times"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  /* Lines that lie on one another are told apart by their names at their
   * ends, nudged apart, rather than by a legend below. */
  d->direct_labels = TRUE;
  d->direct_share = 0.36;
  d->x_unit = MS_SCALE_COUNT;
  d->empty_text = g_strdup (_("The run has no kernel alone (K = 1 on one stream) to count in."));
  if (!(one > 0))
    return d;
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++) {
    MsChartSeries *s = ms_chart_data_add_series (d, _(lines[i].label), i, i % 5, i == 0 ? 1 : 0);
    for (int k = 1; k <= 64; k++) {
      double m = median_at (run, k, lines[i].variant);
      if (m > 0)
        ms_chart_series_add (s, k, m / one, 1, 0, FALSE);
    }
  }
  if (slide) {
    /* The title says what y counts. */
    g_clear_pointer (&d->y_label, g_free);
    g_free (d->title);
    d->title = slide_title (run);
    leave_coinciding_out (d);
  } else
    name_coinciding (d);
  /* "together" beside a 1.7× that was not quite one kernel's time read
   * as a contradiction: the line is the limit, all at once. A slide's
   * note names it: its label there was crossed by K streams' leader. */
  ms_chart_data_add_ref (d, 1, slide > 1 ? NULL : _("all at once: one kernel's time"));
  /* Room under the line at 1 for its label, which found none by its line
   * above it and floated up beside K = 4. */
  d->y_min = 0.7, d->y_max = 1;
  call_out_takeaway (d, run, slide);
  return d;
}

static void
ms_picture_concurrent (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  /* A slide: the key of the grids and the y axis's title give way to the
   * plot (the title says what y counts), and the lines that lie on
   * others go. By the one rule of what a slide is: a height of its own
   * (30 lines) drew the slide on screen and five lines in its export at
   * the same size, whose picture is taller. */
  gboolean small = ms_draw_is_slide (style, height);
  /* A slide tall enough for K streams' label to say why it is over 1×,
   * under the line at 1 (lower, it covered the lines; in a pane the
   * decades' ticks met). */
  gboolean tall = small && height > 570 && width > 800;
  g_autoptr (MsChartData) data = build (run, small + tall);
  /* Where a slide has the height, room over the highest points for the
   * labels of the two lines there (in a short pane the decades' ticks
   * would meet). */
  if (small && height > 500)
    data->y_max = 60;
  if (tall)
    data->y_min = 0.25;
  if (data->series->len == 0) {
    ms_chart_draw (cr, data, style, width, height, -1, NULL);
    return;
  }
  /* Under the chart, what the lines' grids are where they are drawn (the
   * labels name only what differs); on a slide, the note. */
  g_autofree char *note
      = small ? slide_note (run, tall)
              : g_strdup (_ ("Each kernel is one block unless its line says: a block per SM, a "
                             "block per SM taking all of the SM's shared memory, or a full grid "
                             "that fills every SM's block slots."));
  ms_picture_chart_over_note (cr, data, style, width, height, note);
}

static const MsVariantWords words[] = {
  { "streams=one", N_ ("all work on one stream") },
  { "streams=many", N_ ("one stream per kernel") },
  /* TRANSLATORS: %s is a number from a variant ("K=4"). */
  { "K", N_ ("%s streams or kernels side by side") },
  { NULL },
};

const MsLessonLook ms_lesson_look_concurrent = {
  .picture = ms_picture_concurrent,
  .words = words,
};
