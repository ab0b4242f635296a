/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-layout.c: every chart kind drawn from the reference runs at
 * 1024x768 with presentation text, at the size the chart gets in the window
 * there, and at 1600x1000, light and dark, with every text box recorded
 * (ms_draw_set_text_recorder): no label may leave the drawing or cover
 * another. MEMSWEEP_RENDER_DIR=dir keeps the images for a look. Also the
 * series palette's colour distances, with normal vision and with
 * deuteranopia and protanopia simulated. */
#include <math.h>
#include <string.h>

#include "ms-breakdown.h"
#include "ms-color-test.h"
#include "ms-plots.h"
#include "ms-lesson-picture.h"
#include "ms-lesson-rows.h"
#include "ms-matrix.h"
#include "ms-palette-rules.h"
#include "ms-picture-parts.h"
#include "ms-reuse-chart.h"
#include "ms-timeline-rows.h"
#include "model/ms-results.h"
#include "ms-modes.h"
#include "lessons/ms-run-read.h"
#include "ms-host-link-test.h"
#include "ms-tmp-test.h"
#include "report/ms-report-content.h"

typedef struct {
  char *text;
  double x, y, w, h;
} TextBox;

/* The light or the dark style: every layout rule is checked in both. */
static void
style_init (MsChartStyle *st, gboolean dark)
{
  if (dark)
    ms_chart_style_init_dark (st);
  else
    ms_chart_style_init_light (st);
}

/* style at a projector's text and line sizes (presentation mode). */
static void
projected_style (MsChartStyle *st, gboolean dark)
{
  style_init (st, dark);
  st->text_scale = 1.6;
  st->line_scale = 2;
}

static void
record (const char *text, double x, double y, double w, double h, gpointer data)
{
  TextBox b = { g_strdup (text), x, y, w, h };
  g_array_append_val ((GArray *) data, b);
}

static void
clear_box (gpointer p)
{
  g_free (((TextBox *) p)->text);
}

/* Pango's logical boxes include line spacing: a pixel of overlap between
 * neighbours is not a visible collision. */
#define SLACK 1.0

/* The first text that leaves the drawing or covers another, in words;
 * NULL when there is none. */
static char *
box_problem (GArray *boxes, const char *what, double width, double height)
{
  g_assert_cmpuint (boxes->len, >, 3);
  for (guint i = 0; i < boxes->len; i++) {
    const TextBox *a = &g_array_index (boxes, TextBox, i);
    if (a->x < -SLACK || a->y < -SLACK || a->x + a->w > width + SLACK ||
        a->y + a->h > height + SLACK)
      return g_strdup_printf ("%s: \"%s\" (%.0f,%.0f %.0fx%.0f) leaves the %.0fx%.0f drawing",
                              what, a->text, a->x, a->y, a->w, a->h, width, height);
    for (guint k = i + 1; k < boxes->len; k++) {
      const TextBox *b = &g_array_index (boxes, TextBox, k);
      double ox = MIN (a->x + a->w, b->x + b->w) - MAX (a->x, b->x);
      double oy = MIN (a->y + a->h, b->y + b->h) - MAX (a->y, b->y);
      if (ox > SLACK && oy > SLACK)
        return g_strdup_printf ("%s: \"%s\" (%.0f,%.0f %.0fx%.0f) covers \"%s\" "
                                "(%.0f,%.0f %.0fx%.0f)",
                                what, a->text, a->x, a->y, a->w, a->h, b->text, b->x, b->y,
                                b->w, b->h);
    }
  }
  return NULL;
}

static void
check_boxes (GArray *boxes, const char *what, double width, double height)
{
  g_autofree char *problem = box_problem (boxes, what, width, height);
  if (problem)
    g_error ("%s", problem);
}

/* A lesson picture on a projector: no text under about 13 px (a logical
 * box of 16 px with DejaVu Sans; heat-map cells once had 7 px capitals). */
#define MIN_PRESENTATION_TEXT_H 16.0

static void
check_text_size (GArray *boxes, const char *what)
{
  for (guint i = 0; i < boxes->len; i++) {
    const TextBox *a = &g_array_index (boxes, TextBox, i);
    if (a->h < MIN_PRESENTATION_TEXT_H)
      g_error ("%s: \"%s\" is %.1f px high, too small to read on a projector", what, a->text,
               a->h);
  }
}

typedef struct {
  int width, height;
  double text_scale;
  const char *name;
  gboolean lessons_only; /* a size only lesson pictures are drawn at */
} Size;

static const Size sizes[] = {
  { 1024, 768, 1.6, "1024x768-presentation" },
  /* The chart's share of a 1024x768 window in presentation mode. */
  { 700, 560, 1.6, "window-share-presentation" },
  /* A lesson picture's pane beside the lesson cards at 1024x768 in
   * presentation mode, at the least height the app keeps for it. */
  { 600, 384, 1.6, "lesson-pane-presentation", TRUE },
  /* The same pane in a 1024x768 window, the cards beside it: a teacher who
   * left full screen found the priority strips' names on each other. */
  { 340, 480, 1.0, "lesson-pane-1024x768", TRUE },
  /* Lower, as a smaller window gives it: drawn as a slide (under 34
   * lines), but with a window's figures (a projector's ran off it). */
  { 340, 400, 1.0, "lesson-pane-low", TRUE },
  /* The least width the app gives a lesson picture (MsLessonPictureView):
   * intensity's axis title and copy-kinds' row names ran off it. */
  { 320, 480, 1.0, "lesson-least-width", TRUE },
  { 1280, 720, 1.6, "1280x720-presentation" },
  { 1600, 1000, 1.0, "1600x1000" },
};

/* For draw functions that record themselves: the boxes array as data. */
#define MS_RECORDED_BOXES GINT_TO_POINTER (-1)

typedef void (*DrawFunc) (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w,
                          double h, gpointer data);
static GArray *recorded_texts (GPtrArray *runs, DrawFunc draw, gpointer data);

/* Whether (x, y) lies in the box b. */
static gboolean
in_box (const MsChartBox *b, double x, double y)
{
  return x >= b->x && x <= b->x + b->w && y >= b->y && y <= b->y + b->h;
}

/* No annotation (a reference line's label, on its opaque background) may
 * hide a measurement: neither a marker nor a stretch of line of a series
 * shown may pass under its box (the line walked in one-pixel steps). */
static void
check_notes_clear (const MsChartData *d, const MsChartLayout *l)
{
  for (guint n = 0; n < l->notes->len; n++) {
    const MsChartBox *b = &g_array_index (l->notes, MsChartBox, n);
    for (guint i = 0; i < d->series->len; i++) {
      const MsChartSeries *s = g_ptr_array_index (d->series, i);
      double px = 0, py = 0;
      gboolean prev = FALSE;
      for (guint k = 0; !s->hidden && k < s->points->len; k++) {
        const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
        if (p->failed || (d->y_kind != MS_SCALE_LINEAR && p->y <= 0)) {
          prev = FALSE;
          continue;
        }
        double x = ms_scale_to_pixel (&l->xs, p->x), y = ms_scale_to_pixel (&l->ys, p->y);
        if (in_box (b, x, y))
          g_error ("\"%s\" covers %s at %.0f bytes", g_array_index (d->refs, MsChartRefLine,
                                                                    b->series).label,
                   s->label, p->x);
        double steps = prev && !p->partial ? ceil (hypot (x - px, y - py)) : 0;
        for (double t = 1; t < steps; t++)
          if (in_box (b, px + (x - px) * t / steps, py + (y - py) * t / steps))
            g_error ("\"%s\" covers the line of %s before %.0f bytes",
                     g_array_index (d->refs, MsChartRefLine, b->series).label, s->label, p->x);
        px = x, py = y, prev = !p->partial;
      }
    }
  }
}

static void
draw_plot (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w, double h,
           gpointer data)
{
  int kind = GPOINTER_TO_INT (data);
  MsMetric metric = kind % 4;
  g_autoptr (MsChartData) d = ms_plot_build (runs, metric, kind < 4, NULL);
  d->direct_labels = st->high_contrast;
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_chart_draw (cr, d, st, w, h, -1, &l);
  check_notes_clear (d, &l);
  ms_chart_layout_clear (&l);
}

/* The read-out alone over a chart of the data: its rows must not cover
 * each other or leave the drawing. The chart under it is not recorded. */
static void
draw_readout (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w, double h,
              gpointer data)
{
  GArray *boxes = data;
  g_autoptr (MsChartData) d = ms_plot_build (runs, MS_METRIC_E2E_BANDWIDTH, TRUE, NULL);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_draw_set_text_recorder (NULL, NULL);
  ms_chart_draw (cr, d, st, w, h, -1, &l);
  ms_draw_set_text_recorder (record, boxes);
  /* Near either end, then at 64 KiB on the default sweep (kept in boxes). */
  const double at[] = { 0.1, 0.7, 0.4 };
  for (guint i = 0; i < G_N_ELEMENTS (at); i++) {
    g_array_set_size (boxes, 0);
    ms_chart_draw_crosshair (cr, d, st, &l, l.plot_x + l.plot_w * at[i]);
    check_boxes (boxes, "read-out", w, h);
  }
  ms_chart_layout_clear (&l);
}

static void
draw_breakdown (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w, double h,
                gpointer data)
{
  ms_breakdown_draw_full (cr, runs, GPOINTER_TO_INT (data), FALSE, st, w, h);
}

/* A timeline case: the cell of a mode (and variant) at a size, opened on
 * its data movement as the app and `memsweep plot` open it, or on all of
 * its phases. */
typedef struct {
  MsMode mode;
  int exponent;
  const char *variant;
  gboolean all_phases;
} TimelineCase;

static void
draw_timeline (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w, double h,
               gpointer data)
{
  const TimelineCase *tc = data;
  const MsResults *r = g_ptr_array_index (runs, 0);
  const MsCell *c = ms_results_find_variant (r, tc->mode, tc->exponent, tc->variant);
  g_assert_nonnull (c);
  MsTimeWindow win;
  ms_time_window_open (&win, c, 1, NULL, tc->all_phases);
  g_autofree char *title = g_strdup_printf ("%s %s at 2^%d, repetition 2",
                                            ms_mode_title (c->mode), c->variant, c->exponent);
  ms_timeline_draw (cr, c, 1, &win, st, w, h, title, NULL);
}

/* The issue-order lesson's four timelines, as its card stacks them: K
 * streams on one hardware queue and on the default, each in both orders. */
static void
draw_timeline_rows (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w, double h,
                    gpointer data)
{
  const MsResults *r = g_ptr_array_index (runs, 0);
  const char **variants = data;
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  for (int i = 0; variants[i]; i++) {
    const MsCell *c = ms_results_find_variant (r, MS_MODE_STREAMS, 22, variants[i]);
    g_assert_nonnull (c);
    g_assert_true (ms_timeline_rows_add (&rows, c, 1, variants[i]));
  }
  MsTimeWindow win;
  ms_timeline_rows_window (&rows, FALSE, &win);
  ms_timeline_rows_draw (cr, &rows, &win, st, w, h, NULL);
  ms_timeline_rows_clear (&rows);
}

static void
render_all_sizes (GPtrArray *runs, const char *what, DrawFunc draw, gpointer data)
{
  const char *dir = g_getenv ("MEMSWEEP_RENDER_DIR");
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (int dark = 0; dark < 2; dark++) {
      const Size *sz = &sizes[i];
      if (sz->lessons_only && !g_str_has_prefix (what, "lesson-"))
        continue;
      MsChartStyle st;
      style_init (&st, dark);
      st.text_scale = sz->text_scale;
      st.line_scale = sz->text_scale > 1 ? 2 : 1;
      st.high_contrast = sz->text_scale > 1;
      cairo_surface_t *surf =
        cairo_image_surface_create (CAIRO_FORMAT_ARGB32, sz->width, sz->height);
      cairo_t *cr = cairo_create (surf);
      g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (TextBox));
      g_array_set_clear_func (boxes, clear_box);
      ms_draw_set_text_recorder (record, boxes);
      draw (cr, runs, &st, sz->width, sz->height, data == MS_RECORDED_BOXES ? boxes : data);
      ms_draw_set_text_recorder (NULL, NULL);
      g_autofree char *name = g_strdup_printf ("%s-%s-%s", what, sz->name, dark ? "dark" : "light");
      if (dir) {
        g_autofree char *path = g_strdup_printf ("%s/%s.png", dir, name);
        cairo_surface_write_to_png (surf, path);
      }
      check_boxes (boxes, name, sz->width, sz->height);
      if (g_str_has_prefix (what, "lesson-") && sz->text_scale > 1 && sz->width >= 1024)
        check_text_size (boxes, name);
      cairo_destroy (cr);
      cairo_surface_destroy (surf);
    }
}

/* The first n of files (NULL: the default sweeps of the H100 and the H200
 * and the H100's large one). */
static GPtrArray *
reference_files (const char *const *files, guint n)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ms_results_free);
  for (guint i = 0; i < n; i++) {
    char err[512];
    g_autofree char *path = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), files[i], NULL);
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    if (!r)
      g_error ("%s", err);
    g_autofree char *label = ms_plot_run_label (r);
    g_snprintf (r->label, sizeof r->label, "%s", label);
    g_ptr_array_add (runs, r);
  }
  return runs;
}

static GPtrArray *
reference_runs (guint n)
{
  static const char *const files[] = { "h100-default-samples.csv.gz", "h200-default-samples.csv.gz",
                                       "h100-large-samples.csv.gz" };
  return reference_files (files, n);
}

static void
test_charts (void)
{
  g_autoptr (GPtrArray) one = reference_runs (1);
  g_autoptr (GPtrArray) three = reference_runs (3);
  static const char *kinds[] = { "bandwidth-log", "h2d-log", "d2h-log", "time-log",
                                 "bandwidth", "h2d", "d2h", "time" };
  for (int k = 0; k < 8; k++)
    render_all_sizes (one, kinds[k], draw_plot, GINT_TO_POINTER (k));
  render_all_sizes (three, "compare-3-runs", draw_plot, GINT_TO_POINTER (0));
  render_all_sizes (three, "compare-3-runs-time", draw_plot, GINT_TO_POINTER (3));
  render_all_sizes (three, "read-out-3-runs", draw_readout, MS_RECORDED_BOXES);
  render_all_sizes (one, "read-out", draw_readout, MS_RECORDED_BOXES);
}

static void
test_breakdown_and_timeline (void)
{
  g_autoptr (GPtrArray) one = reference_runs (1);
  g_autoptr (GPtrArray) two = reference_runs (2);
  render_all_sizes (one, "breakdown", draw_breakdown, GINT_TO_POINTER (20));
  render_all_sizes (two, "breakdown-2-runs", draw_breakdown, GINT_TO_POINTER (12));
  static const TimelineCase pinned = { MS_MODE_PINNED, 20, "", FALSE };
  static const TimelineCase pinned_all = { MS_MODE_PINNED, 20, "", TRUE };
  static const TimelineCase streams = { MS_MODE_STREAMS, 20, "", FALSE };
  render_all_sizes (one, "timeline-pinned", draw_timeline, (gpointer) &pinned);
  render_all_sizes (one, "timeline-pinned-all", draw_timeline, (gpointer) &pinned_all);
  render_all_sizes (one, "timeline-streams", draw_timeline, (gpointer) &streams);
}

/* The issue-order lesson's timelines: 17 lanes alone and four such rows
 * stacked, where names that do not fit go compact and rows that would
 * get stripes for lanes are left out. */
static void
test_many_lanes (void)
{
  static const char *const file[] = { "h100-lesson-issue-order-samples.csv.gz" };
  g_autoptr (GPtrArray) lesson = reference_files (file, 1);
  static const TimelineCase k16 = { MS_MODE_STREAMS, 22, "queue=single/order=depth/K=16/timers=per-step",
                                    FALSE };
  render_all_sizes (lesson, "timeline-k16", draw_timeline, (gpointer) &k16);
  static const char *four[] = { "queue=single/order=depth/K=16", "queue=single/order=breadth/K=16",
                                "queue=default/order=depth/K=16",
                                "queue=default/order=breadth/K=16", NULL };
  render_all_sizes (lesson, "timeline-rows-k16", draw_timeline_rows, four);
  static const char *two[] = { "queue=single/order=depth/K=4", "queue=single/order=breadth/K=4",
                               NULL };
  render_all_sizes (lesson, "timeline-rows-k4", draw_timeline_rows, two);
}

static void
draw_lesson_picture (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w, double h,
                     gpointer data)
{
  g_assert_true (ms_lesson_picture_draw (cr, GPOINTER_TO_INT (data), g_ptr_array_index (runs, 0),
                                         st, w, h));
}

static void
draw_reuse (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w, double h,
            gpointer data)
{
  const MsResults *r = g_ptr_array_index (runs, 0);
  g_autoptr (MsChartData) d =
    ms_reuse_chart_build (r, ms_reuse_default_exponent (r), GPOINTER_TO_INT (data));
  ms_reuse_chart_draw (cr, d, st, w, h, NULL);
}

/* A lesson's timelines as its card stacks them, on the data movement. */
static void
draw_lesson_rows (cairo_t *cr, GPtrArray *runs, const MsChartStyle *st, double w, double h,
                  gpointer data)
{
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  g_assert_cmpint (ms_lesson_rows_fill (&rows, GPOINTER_TO_INT (data),
                                        g_ptr_array_index (runs, 0)), >=, 1);
  MsTimeWindow win;
  ms_timeline_rows_window (&rows, FALSE, &win);
  ms_timeline_rows_draw (cr, &rows, &win, st, w, h, NULL);
  ms_timeline_rows_clear (&rows);
}

/* The H100's reference run that answers lesson t: its own, or the default
 * sweep for a lesson that a plain sweep answers. NULL, and said, where it
 * has not been measured yet (a lesson just added without a GPU): the
 * reference-completeness test names the runs missing and the command that
 * makes them (HACKING.md, "Add a sweep lesson"). */
static GPtrArray *
lesson_reference_run (int t)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (t);
  g_autofree char *file = info->experiment[0]
                            ? g_strdup_printf ("h100-lesson-%s-samples.csv.gz", info->experiment)
                            : g_strdup ("h100-default-samples.csv.gz");
  g_autofree char *path = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), file, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS)) {
    g_test_message ("lesson %s left out: %s not measured yet (reference-completeness)", info->name,
                    file);
    return NULL;
  }
  const char *files[] = { file };
  return reference_files (files, 1);
}

/* Every lesson picture of its own from the H100's reference run of the
 * lesson, at every size: what a class is shown first. */
static void
test_lesson_pictures (void)
{
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic (t);
    /* The H100's host has one NUMA node: that picture says why there is
     * nothing to compare. */
    if (!ms_lesson_picture_has (t))
      continue;
    /* The portable lesson is a sweep of pinned memory: the default one. */
    g_autoptr (GPtrArray) run = lesson_reference_run (t);
    if (!run)
      continue;
    /* Their pictures keep the names they had as timelines alone
     * (docs/screenshots). */
    gboolean was_rows = t == MS_TOPIC_PORTABLE || t == MS_TOPIC_REGISTER;
    g_autofree char *what = g_strdup_printf ("lesson-%s%s", info->name,
                                             was_rows ? "-timelines" : "");
    render_all_sizes (run, what, draw_lesson_picture, GINT_TO_POINTER (t));
  }
  /* The lessons that answer with timelines: their lesson's run, else the
   * default sweep. */
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic (t);
    if (ms_lesson_picture_has (t) || t == MS_TOPIC_REUSE || t == MS_TOPIC_COSTS)
      continue;
    g_autoptr (GPtrArray) run = lesson_reference_run (t);
    if (!run)
      continue;
    g_autofree char *what = g_strdup_printf ("lesson-%s-timelines", info->name);
    render_all_sizes (run, what, draw_lesson_rows, GINT_TO_POINTER (t));
  }
  /* batched's H200 run draws what the H100's does not: the call's own time dotted, a third line
   * in its key (it ran off a picture 700 px wide), a time tick at the top of the frame (under the
   * panels' names, which covered it). */
  static const char *const batched[] = { "h200-lesson-batched-samples.csv.gz" };
  g_autoptr (GPtrArray) h200 = reference_files (batched, 1);
  render_all_sizes (h200, "lesson-batched-h200", draw_lesson_picture,
                    GINT_TO_POINTER (MS_TOPIC_BATCHED));
  static const char *const reuse[] = { "h100-lesson-reuse-samples.csv.gz" };
  g_autoptr (GPtrArray) run = reference_files (reuse, 1);
  render_all_sizes (run, "lesson-reuse-time", draw_reuse, GINT_TO_POINTER (MS_REUSE_TIME));
  render_all_sizes (run, "lesson-reuse-bandwidth", draw_reuse,
                    GINT_TO_POINTER (MS_REUSE_BANDWIDTH));
}

/* issue-order's verdict under a cell's pair of bars: "the same", the longer
 * order and its ratio where their ranges lie apart ("depth-first 1.20×";
 * "(lines apart)" after it was read as jargon), "cannot tell" where the
 * rule cannot call a pair the same (the H100 run's untimed pairs), or "not
 * measured" (its usual queues with timers). */
static gboolean
is_pair_verdict (const char *text)
{
  double v;
  int used = 0;
  const char *ratio = strchr (text, ' ');
  return strcmp (text, "the same") == 0 || strcmp (text, "cannot tell") == 0
         || strcmp (text, "not measured") == 0
         || ((g_str_has_prefix (text, "depth-first ") || g_str_has_prefix (text, "breadth-first "))
             && sscanf (ratio + 1, "%lf×%n", &v, &used) == 1 && used == (int)strlen (ratio + 1));
}

/* sync-async's ring labels, each to be led by its size; the slide's keys
 * of the lines beside it ("after the kernel at every size") are no ring's. */
static gboolean
is_ring_label (const char *text)
{
  return (strstr (text, "waited ") || strstr (text, "returned after "))
         && !g_str_has_suffix (text, " at every size");
}

/* One squeezed lesson picture's text: none of it leaves the picture, and
 * each slide keeps the marks its takeaway depends on. */
static void
check_lesson_boxes (int t, const char *name, GArray *boxes, int margin, int w, int h,
                    double text_scale)
{
  gboolean terms = FALSE, hatched = FALSE, listed = FALSE, prose = FALSE, band = FALSE;
  gboolean slow = FALSE, sized = TRUE, other_queue = FALSE, timed_bar = FALSE;
  gboolean pair = FALSE, batch_sides = FALSE, range = FALSE, far_node = FALSE, defined = FALSE;
  int orders = 0, calls = 0, verdicts = 0, marks = 0;
  /* implicit-sync's heads: a column of one hardware queue, and the two
   * levels of stream kind over queues. */
  gboolean one_queue = FALSE, two_levels = FALSE;
  for (guint i = 0; i < boxes->len; i++) {
    const TextBox *b = &g_array_index (boxes, TextBox, i);
    /* The recorder gets device coordinates: the area starts at margin. */
    if (b->x < margin - SLACK || b->y < margin - SLACK || b->x + b->w > margin + w + SLACK ||
        b->y + b->h > margin + h + SLACK)
      g_error ("%s: \"%s\" (%.0f,%.0f %.0fx%.0f) leaves the picture", name, b->text,
               b->x - margin, b->y - margin, b->w, b->h);
    terms = terms || strstr (b->text, "CUDA_DEVICE_MAX_CONNECTIONS=1");
    one_queue = one_queue || strstr (b->text, "1 hardware queue")
                || strcmp (b->text, "1 queue") == 0;
    two_levels = two_levels || strcmp (b->text, "non-blocking") == 0
                 || strcmp (b->text, "non-blocking streams") == 0;
    hatched = hatched || g_str_has_prefix (b->text, "serial: ");
    listed = listed || g_str_has_prefix (b->text, "On the textbooks' list")
             || g_str_has_prefix (b->text, "On the CUDA C Programming Guide's list");
    prose = prose || g_str_has_prefix (b->text, "*: ") || g_str_has_suffix (b->text, " *")
            || g_str_has_prefix (b->text, "Not on the list, ")
            || g_str_has_prefix (b->text, "blocking streams wait");
    /* Its long name, or the short one where the axis is narrow. */
    band = band || g_str_has_suffix (b->text, "%: the same time")
           || g_str_has_suffix (b->text, "%: the same");
    slow = slow || strcmp (b->text, "slow host function alone") == 0;
    /* sync-async's ring labels, each led by its size. */
    other_queue = other_queue || strcmp (b->text, "default queues") == 0;
    pair = pair || strcmp (b->text, "one batched call") == 0;
    marks += g_strv_contains ((const char *const[]){ "✓", "?", "✗", NULL }, b->text);
    batch_sides = batch_sides || strstr (b->text, "the batch faster (bars apart)") != NULL;
    range = range || g_str_has_prefix (b->text, "One call per copy ÷ one batch");
    far_node = far_node || strcmp (b->text, "far buffer") == 0;
    timed_bar = timed_bar || strstr (b->text, "s · 0.") || strstr (b->text, "s · 1.");
    /* issue-order's grid: its columns' queue settings, its orders defined, a verdict a cell. */
    orders += strcmp (b->text, "one queue") == 0 || strcmp (b->text, "the usual 8 queues") == 0;
    defined = defined || g_str_has_prefix (b->text, "depth-first: one stream's");
    verdicts += is_pair_verdict (b->text);
    calls += g_str_has_prefix (b->text, "cudaLaunchHostFunc after ")
             || g_str_has_prefix (b->text, "cudaStreamAddCallback after ");
    if (is_ring_label (b->text))
      sized = sized && strstr (b->text, "iB: ") != NULL;
  }
  /* host-func's slide: both halves its line names, how soon and what a
   * slow one holds back (the second, left to a larger view, went unread). */
  if (t == MS_TOPIC_HOST_FUNC) {
    g_assert_true (slow || h < 430);
    /* Its bars named by the calls in full, no key to a log scale. */
    g_assert_true (calls == 4 || h < 430);
  }
  /* Where a ring has room for its label, the label says which size
   * it is. */
  if (t == MS_TOPIC_SYNC_ASYNC)
    g_assert_true (sized);
  /* issue-order's slide: a grid of both orders' bars, a column a queue
   * setting (one queue, the usual ones), a row a workload (copies and add;
   * kernels alone or one queue timed), a verdict a cell, the orders defined
   * by their colours; the chart's "default queues" key not on it. */
  if (t == MS_TOPIC_ISSUE_ORDER) {
    g_assert_false (other_queue);
    g_assert_true ((orders == 2 && verdicts == 4 && defined) || h < 430);
  }
  /* cache-state's slide: each row's ratio and verdict, no median time;
   * the band says what it is, at its top. */
  if (t == MS_TOPIC_CACHE_STATE)
    g_assert_true (!timed_bar && band);
  /* batched's slide: each call's times a copy over the sizes, its lines named under the chart at
   * every size, a verdict over each of both sources' seven sizes (with the count in the key alone
   * a teacher zoomed in), the count where there is room; the range in words is the headline's. */
  if (t == MS_TOPIC_BATCHED) {
    g_assert_true (batch_sides || h < 430);
    g_assert_true (pair && !range && marks == 14);
  }
  /* numa's slide on one node: the two-node host, its far buffer. */
  if (t == MS_TOPIC_NUMA)
    g_assert_true (far_node || h < 430);
  /* A slide: the colour key under the grid, the textbooks' list a
   * subheading, not a star and its footnote; the prose is a larger
   * view's. */
  if (t == MS_TOPIC_IMPLICIT_SYNC) {
    /* With the text made larger twice, the grid held at the slide's least
     * text fills the picture: the cells' own words stand, the corner and
     * the key are the details'. */
    g_assert_true (terms || !one_queue || text_scale > 1.6);
    /* The shipped runs' takeaway is "On blocking streams, ...": the slide
     * draws that column, under one line of heads, and no term to look up
     * in a corner. */
    g_assert_false (two_levels);
    g_assert_false (one_queue);
    g_assert_true (hatched || text_scale > 1.6);
    g_assert_true (listed);
    g_assert_false (prose);
  }
}

/* Every lesson picture where the window leaves it least room at 1024x768
 * in presentation mode: the header revealed (a picture some 380 px high)
 * and the text made larger twice (1.6 x 1.15 x 1.15), or the picture's
 * least height. No text may leave the picture's area (drawn on a larger
 * canvas, to see it leave), and the implicit-sync grid keeps its key:
 * the serial cells' line and, in its corner, what "1 hardware queue"
 * is. */
static void
test_lesson_pictures_inside (void)
{
  static const struct {
    int height;
    double text_scale;
  } squeezed[] = { { 380, 1.6 * 1.15 * 1.15 }, { 300, 1.6 }, { 430, 1.6 } };
  const int margin = 40, w = 1024;
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic (t);
    if (!ms_lesson_picture_has (t))
      continue;
    g_autoptr (GPtrArray) run = lesson_reference_run (t);
    if (!run)
      continue;
    for (guint k = 0; k < G_N_ELEMENTS (squeezed); k++) {
      const int h = squeezed[k].height;
      MsChartStyle st;
      ms_chart_style_init_light (&st);
      st.text_scale = squeezed[k].text_scale;
      st.line_scale = 2;
      st.high_contrast = TRUE;
      cairo_surface_t *surf =
        cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w + 2 * margin, h + 2 * margin);
      cairo_t *cr = cairo_create (surf);
      cairo_translate (cr, margin, margin);
      g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (TextBox));
      g_array_set_clear_func (boxes, clear_box);
      ms_draw_set_text_recorder (record, boxes);
      draw_lesson_picture (cr, run, &st, w, h, GINT_TO_POINTER (t));
      ms_draw_set_text_recorder (NULL, NULL);
      g_autofree char *name = g_strdup_printf ("lesson-%s-%dx%d-text-%.2f", info->name, w, h,
                                               st.text_scale);
      const char *dir = g_getenv ("MEMSWEEP_RENDER_DIR");
      if (dir) {
        g_autofree char *path = g_strdup_printf ("%s/%s.png", dir, name);
        cairo_surface_write_to_png (surf, path);
      }
      check_lesson_boxes (t, name, boxes, margin, w, h, st.text_scale);
      cairo_destroy (cr);
      cairo_surface_destroy (surf);
    }
  }
}

/* A breakdown row whose phases' medians add up to more than its
 * end-to-end median (managed memory, whose page faults overlap the
 * timed phases, on a reference sweep) says so: after its bar, that sum
 * and the factor the bars were drawn at, both computed from the cell. */
static const MsCell *
first_shrunk_cell (GPtrArray *runs, guint *run_out)
{
  for (guint r = 0; r < runs->len; r++) {
    const MsResults *res = g_ptr_array_index (runs, r);
    for (guint i = 0; i < res->n_cells; i++) {
      MsBreakdownPath path;
      if (ms_breakdown_path (&res->cells[i], &path) && path.scale < MS_BREAKDOWN_SAID_SCALE) {
        *run_out = r;
        return &res->cells[i];
      }
    }
  }
  return NULL;
}

static void
test_breakdown_says_shrunk (void)
{
  g_autoptr (GPtrArray) three = reference_runs (3);
  guint r = 0;
  const MsCell *c = first_shrunk_cell (three, &r);
  g_assert_nonnull (c);
  MsBreakdownPath path;
  g_assert_true (ms_breakdown_path (c, &path));
  char sum[32], factor[32];
  ms_format_time_us (path.total / path.scale, sum, sizeof sum);
  g_snprintf (factor, sizeof factor, "×%.2f", path.scale);
  g_autoptr (GPtrArray) one = g_ptr_array_new ();
  g_ptr_array_add (one, g_ptr_array_index (three, r));
  g_autoptr (GArray) boxes = recorded_texts (one, draw_breakdown, GINT_TO_POINTER (c->exponent));
  guint said = 0;
  for (guint i = 0; i < boxes->len; i++) {
    const char *text = g_array_index (boxes, TextBox, i).text;
    said += strstr (text, sum) && strstr (text, factor);
  }
  g_assert_cmpuint (said, >=, 1);
  /* Rows whose phases fit are drawn at their own times: the device
   * baseline's, with no copies to overlap. */
  const MsCell *device = ms_results_find (g_ptr_array_index (three, r), MS_MODE_DEVICE,
                                          c->exponent);
  g_assert_true (ms_breakdown_path (device, &path));
  g_assert_cmpfloat (path.scale, ==, 1);
}

/* A linear axis's tick labels sit centred on their values, the lowest
 * too where it lies on the plot's bottom edge (the issue-order picture's
 * "-2.5" was drawn above its value, sat on the edge) unless a size's
 * label lies under that corner. */
static void
test_linear_ticks_centred (void)
{
  g_autoptr (MsChartData) d = ms_chart_data_new ();
  d->y_kind = MS_SCALE_LINEAR;
  d->x_unit = MS_SCALE_COUNT;
  MsChartSeries *s = ms_chart_data_add_series (d, "a", 0, 0, 0);
  const double ys[] = { -2.5, 0.1, 0.3, 0.8, 8.9 };
  for (int k = 0; k < 5; k++)
    ms_chart_series_add (s, 1 << k, ys[k], 1, 0, FALSE);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  st.text_scale = 1.6;
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 420);
  cairo_t *cr = cairo_create (surf);
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (TextBox));
  g_array_set_clear_func (boxes, clear_box);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_draw_set_text_recorder (record, boxes);
  ms_chart_draw (cr, d, &st, 900, 420, -1, &l);
  ms_draw_set_text_recorder (NULL, NULL);
  guint checked = 0, on_edge = 0;
  for (guint i = 0; i < boxes->len; i++) {
    const TextBox *b = &g_array_index (boxes, TextBox, i);
    char *end;
    double v = g_ascii_strtod (b->text, &end);
    /* The y ticks: numbers left of the plot. */
    if (end == b->text || *end || b->x + b->w > l.plot_x)
      continue;
    double py = ms_scale_to_pixel (&l.ys, v);
    g_assert_cmpfloat (fabs (b->y + b->h / 2 - py), <, 2);
    on_edge += fabs (py - (l.plot_y + l.plot_h)) < 1;
    checked++;
  }
  g_assert_cmpuint (checked, >=, 3);
  /* The case in question is drawn: a tick on the bottom edge. */
  g_assert_cmpuint (on_edge, ==, 1);
  ms_chart_layout_clear (&l);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
}

/* A reference line near the plot's bottom, as concurrent's line at one
 * kernel's time (its values as the H100's run gave them), its label
 * drawn big as on a slide: the label's box stays clear of its own line by
 * more than the line is wide, however the plot's edge crowds it ("together:
 * one kernel's time" sat on its line). */
static void
test_ref_label_off_its_line (void)
{
  g_autoptr (MsChartData) d = ms_chart_data_new ();
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  d->x_unit = MS_SCALE_COUNT;
  d->direct_labels = TRUE;
  const double one[] = { 1, 1.9, 3.7, 7.4, 14.6 }, many[] = { 0.98, 1.03, 1.1, 1.3, 1.7 };
  MsChartSeries *a = ms_chart_data_add_series (d, "one stream", 0, 0, 1);
  MsChartSeries *b = ms_chart_data_add_series (d, "K streams", 1, 1, 0);
  for (int k = 0; k < 5; k++) {
    ms_chart_series_add (a, 1 << k, one[k], 1, 0, FALSE);
    ms_chart_series_add (b, 1 << k, many[k], 1, 0, FALSE);
  }
  ms_chart_data_add_ref (d, 1, "all at once: one kernel's time");
  MsChartStyle st;
  projected_style (&st, FALSE);
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1010, 520);
  cairo_t *cr = cairo_create (surf);
  MsChartLayout l;
  ms_chart_layout_init (&l);
  ms_chart_draw (cr, d, &st, 1010, 520, -1, &l);
  g_assert_cmpuint (l.labels->len, ==, 1);
  const MsChartBox *box = &g_array_index (l.labels, MsChartBox, 0);
  double py = round (ms_scale_to_pixel (&l.ys, 1)) + 0.5, half = ms_style_line_width (&st) / 2;
  g_test_message ("line at %.1f, label %.1f to %.1f", py, box->y, box->y + box->h);
  g_assert_true (py + half < box->y || py - half > box->y + box->h);
  ms_chart_layout_clear (&l);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
}

/* The cache-state slide from the H100's reference run, whose pageable
 * row the run cannot tell: every memory the slide keeps is drawn, its 1×
 * a row, those rows with their medians and "too noisy to say" beside them (as
 * one line of words under the axis, "cannot tell" was taken on trust and
 * the lower third of the slide stood empty), pinned with its bars, and the
 * band says what it is; at the least a slide's picture takes at 1024x768
 * presentation (1014x612: tests/draw/test-render-slides.c). */
static GArray *
slide_text (MsLessonTopic topic, const char *file, int height)
{
  const char *files[] = { file };
  g_autoptr (GPtrArray) run = reference_files (files, 1);
  MsChartStyle st;
  projected_style (&st, FALSE);
  st.slide = TRUE;
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1014, height);
  cairo_t *cr = cairo_create (surf);
  GArray *boxes = g_array_new (FALSE, FALSE, sizeof (TextBox));
  g_array_set_clear_func (boxes, clear_box);
  ms_draw_set_text_recorder (record, boxes);
  g_assert_true (ms_lesson_picture_draw (cr, topic, g_ptr_array_index (run, 0), &st, 1014, height));
  ms_draw_set_text_recorder (NULL, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
  return boxes;
}

/* The H200's slide, whose pinned copies are slower after ordinary stores:
 * at the least picture and at the picture its one-line question and
 * headline leave at 1024x768 (1014x636), the key keeps what its marks are
 * and the line on what the GPU's clock says of them. */
static void
test_cache_state_engine_drawn (void)
{
  for (int height = 612; height <= 636; height += 24) {
    g_autoptr (GArray) boxes
        = slide_text (MS_TOPIC_CACHE_STATE, "h200-lesson-cache-state-samples.csv.gz", height);
    int key = 0, engine = 0, figures = 0;
    double left = G_MAXDOUBLE, right = 0;
    for (guint i = 0; i < boxes->len; i++) {
      const TextBox *b = &g_array_index (boxes, TextBox, i);
      key += strstr (b->text, "Dot: a memory's cached time over its uncached time (1×)") != NULL;
      engine += strstr (b->text, "Pinned, cached (ordinary stores): ") != NULL;
      /* Every row's figures in one column, those of the rows whose marks
       * pass the band too ("1.20×: longer" right of its mark was read as
       * pushed out of its column). */
      if ((g_ascii_isdigit (b->text[0]) && strstr (b->text, "×: "))
          || g_str_has_prefix (b->text, "1× = ")) {
        figures++;
        left = MIN (left, b->x);
        right = MAX (right, b->x);
      }
    }
    g_assert_cmpint (key, ==, 1);
    /* With a row a memory, even the least picture has its room. */
    g_assert_cmpint (engine, ==, 1);
    /* Pageable's and pinned's 1× and their rows after ordinary stores:
     * write-combined's is a larger view's. */
    g_assert_cmpint (figures, ==, 4);
    g_assert_cmpfloat (right - left, <, 1);
  }
}

static void
test_cache_state_untold_drawn (void)
{
  g_autoptr (GArray) boxes
      = slide_text (MS_TOPIC_CACHE_STATE, "h100-lesson-cache-state-samples.csv.gz", 612);
  int folded = 0, untold_rows = 0, reaching = 0, same_rows = 0, ones = 0, band = 0, key = 0;
  for (guint i = 0; i < boxes->len; i++) {
    const TextBox *b = &g_array_index (boxes, TextBox, i);
    folded += strstr (b->text, "its ranges run from") != NULL;
    /* The median's ratio first, then the bar's ends, then the verdict:
     * a dot without its number was hunted for, and a bar ending a pixel
     * short of 1× left a class asking why it was too noisy. */
    double ratio, lo, hi;
    gboolean untold = strstr (b->text, "): too noisy") != NULL;
    untold_rows += untold;
    reaching += untold && sscanf (b->text, "%lf× (%lf–%lf)", &ratio, &lo, &hi) == 3 && lo <= 1
                && hi >= 1 && lo <= ratio && ratio <= hi;
    /* The same said as the band it lies in: "the same" beside a bar wholly over 1× was
     * doubted. */
    same_rows += strstr (b->text, "×: within ±") != NULL;
    /* Each memory's 1×, a row of its own: "not a row" was looked for. */
    ones += g_str_has_prefix (b->text, "1× = ");
    band += g_str_has_suffix (b->text, "%: the same time");
    /* The key, which says what 1×, a dot and its bar are: squeezed out,
     * the marks went unexplained. */
    key += g_str_has_prefix (b->text, "Dot: a memory's cached time over its uncached time");
  }
  /* Each memory's row after ordinary stores alone, against its 1× (three
   * memories by four ways of writing were twelve cases to take in), and
   * pageable's and pinned's alone: write-combined's is a larger view's. */
  g_assert_cmpint (folded, ==, 0);
  g_assert_cmpint (untold_rows, ==, 1);
  g_assert_cmpint (reaching, ==, 1);
  g_assert_cmpint (same_rows, ==, 1);
  g_assert_cmpint (ones, ==, 2);
  g_assert_cmpint (band, ==, 1);
  g_assert_cmpint (key, ==, 1);
}

/* host-func's slide from the H200's reference run, whose rows after a copy
 * are one trusted and one too noisy: the two after a kernel, which the
 * line quotes, first, then those after a copy (mixed, a class compared
 * unlike rows), the noisy one last. */
static void
test_host_func_rows_grouped (void)
{
  g_autoptr (GArray) boxes = slide_text (MS_TOPIC_HOST_FUNC, "h200-lesson-host-func-samples.csv.gz",
                                         612);
  double kernel_end = 0, copy_start = G_MAXDOUBLE;
  int rows = 0;
  for (guint i = 0; i < boxes->len; i++) {
    const TextBox *b = &g_array_index (boxes, TextBox, i);
    if (g_str_has_suffix (b->text, " after a kernel"))
      kernel_end = MAX (kernel_end, b->y), rows++;
    if (g_str_has_suffix (b->text, " after a copy"))
      copy_start = MIN (copy_start, b->y), rows++;
  }
  g_assert_cmpint (rows, ==, 4);
  g_assert_cmpfloat (kernel_end, <, copy_start);
}

/* The cache-state picture from the H100's reference run: every state the
 * caption words is a bar (pageable's too), and every figure beside a bar
 * or over a group is the number the caption gives for the same thing. */
static void
test_cache_state_figures (void)
{
  static const char *const files[] = { "h100-lesson-cache-state-samples.csv.gz" };
  g_autoptr (GPtrArray) run = reference_files (files, 1);
  const MsResults *r = g_ptr_array_index (run, 0);
  char caption[2048], t[32], ratio[32];
  g_assert_true (ms_lesson_caption (MS_TOPIC_CACHE_STATE, r, -1, caption, sizeof caption));
  g_test_message ("%s", caption);
  MsCacheStateRow rows[MS_CACHE_STATE_MAX_ROWS];
  int n = ms_cache_state_rows (r, -1, rows, MS_CACHE_STATE_MAX_ROWS);
  /* Pageable 2, pinned 3, write-combined 2, the check 1. */
  g_assert_cmpint (n, ==, 8);
  g_assert_cmpint (rows[0].mode, ==, MS_MODE_PAGEABLE);
  for (int i = 0; i < n; i++) {
    g_autofree char *bar = ms_picture_cache_state_row_text (&rows[i]);
    g_autofree char *group = ms_picture_cache_state_group_text (&rows[i]);
    g_assert_nonnull (strstr (bar, ms_caption_time (rows[i].median_us, t, sizeof t)));
    g_assert_nonnull (strstr (group, ms_caption_time (rows[i].reference_us, t, sizeof t)));
    g_snprintf (ratio, sizeof ratio, "%.2f×", rows[i].judgement.ratio);
    g_assert_nonnull (strstr (bar, ratio));
    /* Every state is named in the caption, by itself or as one of every
     * state of its memory, and its ratio where it is not the same as its
     * reference. */
    g_autofree char *whole = g_strdup_printf ("%s: every state", ms_mode_title (rows[i].mode));
    if (rows[i].state != MS_CACHE_STATE_READ_WC)
      g_assert_true (strstr (caption, ms_cache_state_name (rows[i].state))
                     || strstr (caption, whole));
    /* Where the run cannot tell, its median, as the slide gives it, and
     * its range. */
    if (rows[i].judgement.verdict == MS_VERDICT_AMBIGUOUS
        && rows[i].state != MS_CACHE_STATE_READ_WC)
      g_snprintf (ratio, sizeof ratio, "(%.2f×, %.2f–%.2f×)", rows[i].judgement.ratio,
                  rows[i].judgement.lo, rows[i].judgement.hi);
    if (rows[i].judgement.verdict != MS_VERDICT_SAME)
      g_assert_nonnull (strstr (caption, ratio));
  }
  /* The check: the very medians the bar and its group give. */
  g_assert_cmpint (rows[n - 1].state, ==, MS_CACHE_STATE_READ_WC);
  g_assert_nonnull (strstr (caption, ms_caption_time (rows[n - 1].median_us, t, sizeof t)));
  g_assert_nonnull (strstr (caption, ms_caption_time (rows[n - 1].reference_us, t, sizeof t)));
}

/* Every lesson row draws the repetition nearest the median its title
 * quotes, and says which: the managed-touch lesson's prefetched first
 * touch drew a repetition of half its median. */
static void
test_rows_typical_rep (void)
{
  static const char *const files[] = { "h100-lesson-managed-touch-samples.csv.gz" };
  g_autoptr (GPtrArray) run = reference_files (files, 1);
  const MsResults *r = g_ptr_array_index (run, 0);
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  g_assert_cmpint (ms_lesson_rows_fill (&rows, MS_TOPIC_MANAGED, r), >=, 3);
  for (int i = 0; i < rows.n; i++) {
    const MsCell *c
        = ms_results_find_variant (r, rows.cells[i].mode, rows.cells[i].exponent,
                                   rows.cells[i].variant);
    g_assert_nonnull (c);
    /* No repetition with events lies nearer the median than the one drawn. */
    double gap = fabs (rows.drawn_us[i] - c->stats.e2e.median);
    g_autofree int *reps = g_new (int, c->n_reps);
    int timed = ms_cell_timeline_reps (c, reps, c->n_reps);
    g_assert_cmpint (timed, ==, rows.rep_n[i]);
    for (int k = 0; k < timed; k++)
      g_assert_cmpfloat (fabs (c->e2e_instr_us[reps[k]] - c->stats.e2e.median), >=, gap);
    g_assert_true (rows.rep_typical[i]);
    g_autofree char *title = ms_timeline_rows_title (&rows, i, MS_ROWS_TITLE_LONG);
    g_autofree char *want = g_strdup_printf ("repetition %d of %d with timers, the one closest "
                                             "to the median",
                                             rows.rep_k[i], rows.rep_n[i]);
    g_assert_nonnull (strstr (title, want));
  }
  ms_timeline_rows_clear (&rows);
}

/* The reference run with pinned cut short: a cancelled cell at 2^14, a
 * partial one at 2^15 and a failed one at 2^16. */
static GPtrArray *
cut_short_runs (void)
{
  GPtrArray *one = reference_runs (1);
  MsResults *r = g_ptr_array_index (one, 0);
  int marked = 0;
  for (size_t i = 0; i < r->n_cells && marked < 3; i++) {
    MsCell *c = &r->cells[i];
    if (c->mode != MS_MODE_PINNED || c->exponent < 14)
      continue;
    c->status = marked == 0 ? MS_CELL_CANCELLED : marked == 1 ? MS_CELL_PARTIAL : MS_CELL_FAILED;
    c->n_reps = marked == 0 ? 0 : marked == 1 ? 3 : c->n_reps; /* fewer: the arrays stay valid */
    g_snprintf (c->message, sizeof c->message, "out of memory");
    marked++;
  }
  return one;
}

/* The text boxes that draw records on a light 1000x700 canvas. */
static GArray *
recorded_texts (GPtrArray *runs, DrawFunc draw, gpointer data)
{
  GArray *boxes = g_array_new (FALSE, FALSE, sizeof (TextBox));
  g_array_set_clear_func (boxes, clear_box);
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 700);
  cairo_t *cr = cairo_create (surf);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  ms_draw_set_text_recorder (record, boxes);
  draw (cr, runs, &st, 1000, 700, data == MS_RECORDED_BOXES ? boxes : data);
  ms_draw_set_text_recorder (NULL, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
  return boxes;
}

static gboolean
has_text (GArray *boxes, const char *text)
{
  for (guint i = 0; i < boxes->len; i++)
    if (g_strcmp0 (g_array_index (boxes, TextBox, i).text, text) == 0)
      return TRUE;
  return FALSE;
}

/* The chart data say why, the chart and the breakdown lay out. */
static void
test_cut_short (void)
{
  g_autoptr (GPtrArray) one = cut_short_runs ();
  g_autoptr (MsChartData) d = ms_plot_build (one, MS_METRIC_E2E_BANDWIDTH, TRUE, NULL);
  gboolean cancelled = FALSE, failed = FALSE;
  const MsResults *r = g_ptr_array_index (one, 0);
  g_autofree char *cut = g_strdup_printf ("cancelled after 3 of at least %d repetitions",
                                          r->sweep.min_reps);
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    for (guint k = 0; k < s->points->len; k++) {
      const MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
      cancelled = cancelled || (p->partial && g_strcmp0 (p->note, cut) == 0);
      failed = failed || g_strcmp0 (p->note, "failed: out of memory") == 0;
    }
  }
  g_assert_true (cancelled && failed);
  g_assert_true (ms_chart_data_has_notes (d));
  render_all_sizes (one, "cut-short", draw_plot, GINT_TO_POINTER (0));
  render_all_sizes (one, "cut-short-breakdown", draw_breakdown, GINT_TO_POINTER (14));
  /* The breakdown says why the cancelled cell has no bar. */
  g_autoptr (GArray) boxes = recorded_texts (one, draw_breakdown, GINT_TO_POINTER (14));
  g_autofree char *none = g_strdup_printf ("cancelled after 0 of at least %d repetitions",
                                           r->sweep.min_reps);
  g_assert_true (has_text (boxes, none));
}

/* Hovering the cancelled cell says so; values read with three digits. */
static void
test_cut_short_read_out (void)
{
  g_autoptr (GPtrArray) one = cut_short_runs ();
  g_autoptr (GArray) boxes = recorded_texts (one, draw_readout, MS_RECORDED_BOXES);
  const MsResults *r = g_ptr_array_index (one, 0);
  g_autofree char *none = g_strdup_printf ("Pinned: cancelled after 0 of at least %d repetitions",
                                           r->sweep.min_reps);
  g_assert_true (has_text (boxes, none));
  for (guint i = 0; i < boxes->len; i++) {
    /* "Pageable: 2.19 GB/s": no more than three significant digits. */
    const char *t = g_array_index (boxes, TextBox, i).text, *colon = strstr (t, ": ");
    int digits = 0;
    for (const char *c = colon ? colon + 2 : ""; g_ascii_isdigit (*c) || *c == '.'; c++)
      digits += g_ascii_isdigit (*c) && !(digits == 0 && *c == '0');
    g_assert_cmpint (digits, <=, 3);
  }
}

/* The planned range holds the axis still: the x scale is the same with
 * one size measured as with all of them. */
static void
test_planned_range (void)
{
  g_autoptr (GPtrArray) one = reference_runs (1);
  g_autoptr (MsChartData) d = ms_plot_build (one, MS_METRIC_E2E_BANDWIDTH, TRUE, NULL);
  MsChartLayout early, full;
  ms_chart_layout_init (&early);
  ms_chart_layout_init (&full);
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 600);
  cairo_t *cr = cairo_create (surf);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  ms_chart_draw (cr, d, &st, 800, 600, -1, &full);
  g_autoptr (MsChartData) first = ms_chart_data_new ();
  MsChartSeries *s = ms_chart_data_add_series (first, "Pinned", 1, 1, 0);
  ms_chart_series_add (s, full.xs.min * 4, 5, 1, 0, FALSE);
  first->x_min = full.xs.min * 2;
  first->x_max = full.xs.max / 2;
  ms_chart_draw (cr, first, &st, 800, 600, -1, &early);
  g_assert_cmpfloat (early.xs.min, ==, full.xs.min);
  g_assert_cmpfloat (early.xs.max, ==, full.xs.max);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
  ms_chart_layout_clear (&early);
  ms_chart_layout_clear (&full);
}

/* Every mode's colour, against its background and against every other
 * mode's, in both styles, by the palette's rules (ms-palette-rules.h, where
 * each rule says why; tools/palette-colours proposes colours that pass). */
static void
test_palette_distances (void)
{
  guint n = ms_chart_palette_size ();
  g_assert_cmpuint (n, ==, MS_MODE_COUNT);
  for (int dark = 0; dark < 2; dark++)
    for (guint i = 0; i < n; i++) {
      MsColor a, b;
      char why[160];
      ms_chart_palette_color (i, dark, &a);
      if (!ms_palette_rule_background (&a, dark, why, sizeof why))
        g_error ("series %u (%s): %s", i, ms_mode_name ((MsMode) i), why);
      for (guint k = i + 1; k < n; k++) {
        ms_chart_palette_color (k, dark, &b);
        if (!ms_palette_rule_pair (&a, &b, dark, why, sizeof why))
          g_error ("series %u (%s) and %u (%s): %s", i, ms_mode_name ((MsMode) i), k,
                   ms_mode_name ((MsMode) k), why);
      }
    }
  /* No two modes look alike even in grey: marker and dash pairs differ. */
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int k = m + 1; k < MS_MODE_COUNT; k++) {
      guint c1, s1, d1, c2, s2, d2;
      ms_mode_look (m, &c1, &s1, &d1);
      ms_mode_look (k, &c2, &s2, &d2);
      g_assert_cmpuint (c1, !=, c2);
      g_assert_false (s1 == s2 && d1 == d2);
    }
  /* Pinned, registered, write-combined and streams lie on top of each other
   * on the default chart: each differs from the others in marker and dash. */
  const MsMode close[] = { MS_MODE_PINNED, MS_MODE_REGISTERED, MS_MODE_WRITE_COMBINED,
                           MS_MODE_STREAMS };
  for (guint i = 0; i < G_N_ELEMENTS (close); i++)
    for (guint k = i + 1; k < G_N_ELEMENTS (close); k++) {
      guint c1, s1, d1, c2, s2, d2;
      ms_mode_look (close[i], &c1, &s1, &d1);
      ms_mode_look (close[k], &c2, &s2, &d2);
      g_assert_cmpuint (s1, !=, s2);
      g_assert_cmpuint (d1, !=, d2);
    }
}

/* Every phase's bar and key swatch stands 3:1 (WCAG's contrast for
 * graphics) from the background in both styles: a darkened launch colour
 * once vanished on dark. d2h on white alone may not (ms-palette.c says
 * why), but no less than Okabe & Ito's sky blue. */
static void
test_phase_contrast (void)
{
  for (int dark = 0; dark < 2; dark++) {
    MsChartStyle st;
    style_init (&st, dark);
    for (int p = 0; p < MS_PHASE_COUNT; p++) {
      MsColor c;
      ms_phase_color (p, dark, &c);
      double least = !dark && p == MS_PHASE_D2H ? 2.3 : 3.0;
      if (ms_test_contrast (&c, &st.bg) < least)
        g_error ("phase %s: %.2f:1 against the %s background", ms_phase_name (p),
                 ms_test_contrast (&c, &st.bg), dark ? "dark" : "light");
    }
  }
}

/* A mode is one hue in light and dark (ms_palette_rule_hue). */
static void
test_palette_same_hue (void)
{
  for (guint i = 0; i < ms_chart_palette_size (); i++) {
    MsColor l, d;
    char why[160];
    ms_chart_palette_color (i, FALSE, &l);
    ms_chart_palette_color (i, TRUE, &d);
    if (!ms_palette_rule_hue (&l, &d, why, sizeof why))
      g_error ("series %u (%s): %s", i, ms_mode_name ((MsMode) i), why);
  }
}

/* The two copy directions sit side by side on every timeline: they must
 * read as two colours on either background, with normal vision and with
 * deuteranopia or protanopia. */
static void
test_copy_colours_apart (void)
{
  for (int dark = 0; dark < 2; dark++)
    for (int vision = 0; vision < 3; vision++) {
      MsColor h2d, d2h;
      double a[3], b[3];
      ms_phase_color (MS_PHASE_H2D, dark, &h2d);
      ms_phase_color (MS_PHASE_D2H, dark, &d2h);
      ms_test_lab (&h2d, vision, a);
      ms_test_lab (&d2h, vision, b);
      double de = ms_test_ciede2000 (a, b);
      if (de < MS_PALETTE_MIN_DE_NORMAL)
        g_error ("h2d and d2h too close (%s, vision %d): %.1f", dark ? "dark" : "light", vision,
                 de);
    }
}

/* A heat map's colour means the same value in light and dark. */
static void
test_matrix_colour_direction (void)
{
  MsColor lo_light, lo_dark, hi_light, hi_dark;
  ms_matrix_color (1, 1, 2, FALSE, &lo_light);
  ms_matrix_color (1, 1, 2, TRUE, &lo_dark);
  ms_matrix_color (2, 1, 2, FALSE, &hi_light);
  ms_matrix_color (2, 1, 2, TRUE, &hi_dark);
  g_assert_cmpfloat (fabs (lo_light.red - lo_dark.red) + fabs (lo_light.blue - lo_dark.blue), <,
                     0.01);
  g_assert_cmpfloat (fabs (hi_light.red - hi_dark.red) + fabs (hi_light.blue - hi_dark.blue), <,
                     0.01);
}

static void
test_ciede2000_reference (void)
{
  /* Sharma, Wu and Dalal's test data (2005), pairs 1, 7 and 17. */
  const double pairs[][7] = {
    { 50.0, 2.6772, -79.7751, 50.0, 0.0, -82.7485, 2.0425 },
    { 50.0, 0.0, 0.0, 50.0, -1.0, 2.0, 2.3669 },
    { 50.0, 2.5, 0.0, 73.0, 25.0, -18.0, 27.1492 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    g_assert_cmpfloat_with_epsilon (ms_test_ciede2000 (pairs[i], pairs[i] + 3), pairs[i][6],
                                    1e-4);
}

/* The pinned-against-pageable lesson projected at 1024x768: each row's
 * title leads with the caption's figure, says what the bars are and gives
 * the median copy rate the takeaway compares; the bars give bytes and
 * time, no rate of their own (the drawn repetition's 8.4 GB/s under the
 * takeaway's median 8.3 GB/s read as a second answer). */
static void
test_lesson_key_numbers (void)
{
  static const char *const files[] = { "h100-default-samples.csv.gz" };
  g_autoptr (GPtrArray) run = reference_files (files, 1);
  for (int dark = 0; dark < 2; dark++) {
    MsChartStyle st;
    projected_style (&st, dark);
    st.high_contrast = TRUE;
    cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1024, 768);
    cairo_t *cr = cairo_create (surf);
    g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (TextBox));
    g_array_set_clear_func (boxes, clear_box);
    ms_draw_set_text_recorder (record, boxes);
    draw_lesson_rows (cr, run, &st, 1024, 768, GINT_TO_POINTER (MS_TOPIC_PINNED_PAGEABLE));
    ms_draw_set_text_recorder (NULL, NULL);
    /* Each title leads with the figures the caption quotes: the cell's
     * h2d rate and end-to-end median without timers, as the caption
     * writes them. */
    const MsResults *r = g_ptr_array_index (run, 0);
    char caption[4096];
    g_assert_true (ms_lesson_caption (MS_TOPIC_PINNED_PAGEABLE, r, -1, caption, sizeof caption));
    int rates = 0, titles = 0;
    for (guint i = 0; i < boxes->len; i++) {
      const char *text = g_array_index (boxes, TextBox, i).text;
      gboolean title = strstr (text, "end to end (median)") && strstr (text, "with timers");
      rates += !title && strstr (text, "GB/s") != NULL;
      if (!title)
        continue;
      for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--) {
        const MsCell *c =
          ms_results_find (r, g_str_has_prefix (text, "Pinned") ? MS_MODE_PINNED
                                                                : MS_MODE_PAGEABLE, e);
        char median[32];
        if (!c || c->n_events == 0)
          continue;
        ms_caption_time (c->stats.e2e.median, median, sizeof median);
        g_assert_nonnull (strstr (text, median));
        g_assert_nonnull (strstr (caption, median));
        /* And the copy rates the takeaway compares, which a short pinned
         * h2d bar has no room to carry, said to be of a whole repetition. */
        g_autofree char *rate = g_strdup_printf ("h2d %.1f GB/s, d2h %.1f GB/s; a repetition (a and b in, c = a + b, c back)",
                                                 c->stats.h2d_gbps, c->stats.d2h_gbps);
        g_assert_nonnull (strstr (text, rate));
        titles++;
        break;
      }
    }
    /* Two rows, the rates in their titles alone. */
    g_assert_cmpint (rates, ==, 0);
    g_assert_cmpint (titles, ==, 2);
    check_boxes (boxes, "pinned-pageable key numbers", 1024, 768);
    cairo_destroy (cr);
    cairo_surface_destroy (surf);
  }
}

/* The report's summary table: its column titles each within its column ("95% interval ±%" was
 * wrapped at the first column's width and ran over "E2E GB/s"). */
static void
test_report_table_headings (void)
{
  g_autoptr (GPtrArray) runs = reference_runs (1);
  MsReportInput in = { runs, "2026-12-01T12:00:00Z" };
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (TextBox));
  g_array_set_clear_func (boxes, clear_box);
  ms_draw_set_text_recorder (record, boxes);
  g_autoptr (GError) error = NULL;
  gboolean written = ms_report_write_pdf (ms_test_tmp_path ("report.pdf"), &in, &error);
  ms_draw_set_text_recorder (NULL, NULL);
  g_assert_no_error (error);
  g_assert_true (written);
  g_autoptr (GArray) headings = g_array_new (FALSE, FALSE, sizeof (TextBox));
  for (guint i = 0; i < boxes->len; i++) {
    const TextBox *b = &g_array_index (boxes, TextBox, i);
    gboolean seen = FALSE;
    for (guint k = 0; k < headings->len; k++)
      seen |= !strcmp (g_array_index (headings, TextBox, k).text, b->text);
    for (guint c = 0; !seen && c < MS_REPORT_TABLE_COLUMNS; c++)
      if (!strcmp (b->text, ms_report_table_heading (c)))
        g_array_append_val (headings, *b);
  }
  g_assert_cmpuint (headings->len, ==, MS_REPORT_TABLE_COLUMNS);
  for (guint i = 0; i < headings->len; i++)
    for (guint k = i + 1; k < headings->len; k++) {
      const TextBox *a = &g_array_index (headings, TextBox, i);
      const TextBox *b = &g_array_index (headings, TextBox, k);
      if (MIN (a->x + a->w, b->x + b->w) - MAX (a->x, b->x) > SLACK
          && MIN (a->y + a->h, b->y + b->h) - MAX (a->y, b->y) > SLACK)
        g_error ("\"%s\" covers \"%s\"", a->text, b->text);
    }
}

/* The pin-payoff slide's lines and crossings, as the H100's reference
 * run gave them, drawn big as on a slide: each crossing's words start at
 * its own dashed line, not before it and not past the next (centred, the
 * first held off the plot's edge, the two read as one label, "n = 0.99
 * → 1  n = 8.5 → 9"). The marks' places come from the x ticks' labels,
 * centred under 0 and 20. */
static void
test_cost_marks_at_their_lines (void)
{
  const MsCostLine l[3] = { { "cudaMallocHost", 11370, 352.8, MS_MODE_PINNED, FALSE, FALSE },
                            { "malloc, new pages", 9509, 2228, MS_MODE_PAGEABLE, FALSE, FALSE },
                            { "malloc, reused pages", 35.78, 1679, MS_MODE_PAGEABLE, TRUE,
                              FALSE } };
  MsCostMark m[2];
  ms_picture_cost_cross (&m[0], 0.99, 1);
  ms_picture_cost_cross (&m[1], 8.546, 9);
  MsChartStyle st;
  projected_style (&st, FALSE);
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1014, 480);
  cairo_t *cr = cairo_create (surf);
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (TextBox));
  g_array_set_clear_func (boxes, clear_box);
  ms_draw_set_text_recorder (record, boxes);
  ms_picture_cost_lines (cr, &st, l, 3, 0, 20, TRUE, m, 2, "copies (n)", 1014, 0, 480);
  ms_draw_set_text_recorder (NULL, NULL);
  double at0 = NAN, at20 = NAN, label[2] = { NAN, NAN }, bottom = 0;
  for (guint i = 0; i < boxes->len; i++)
    bottom = MAX (bottom, g_array_index (boxes, TextBox, i).y);
  for (guint i = 0; i < boxes->len; i++) {
    const TextBox *b = &g_array_index (boxes, TextBox, i);
    if (b->y > bottom - 80 && g_str_equal (b->text, "0"))
      at0 = b->x + b->w / 2;
    else if (b->y > bottom - 80 && g_str_equal (b->text, "20"))
      at20 = b->x + b->w / 2;
    for (int k = 0; k < 2; k++)
      if (g_str_equal (b->text, m[k].brief))
        label[k] = b->x;
  }
  g_assert_true (isfinite (at0) && isfinite (at20));
  g_assert_true (isfinite (label[0]) && isfinite (label[1]));
  const double fs = ms_style_font_size (&st);
  for (int k = 0; k < 2; k++) {
    double line = at0 + (at20 - at0) * m[k].n / 20;
    g_test_message ("%s: line at %.1f, words from %.1f", m[k].brief, line, label[k]);
    g_assert_cmpfloat (label[k], >=, line);
    g_assert_cmpfloat (label[k], <, line + fs);
  }
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ms_test_host_link_run ();
  g_test_add_func ("/render-layout/ciede2000-reference", test_ciede2000_reference);
  g_test_add_func ("/render-layout/palette-distances", test_palette_distances);
  g_test_add_func ("/render-layout/palette-same-hue", test_palette_same_hue);
  g_test_add_func ("/render-layout/phase-contrast", test_phase_contrast);
  g_test_add_func ("/render-layout/copy-colours-apart", test_copy_colours_apart);
  g_test_add_func ("/render-layout/matrix-colour-direction", test_matrix_colour_direction);
  g_test_add_func ("/render-layout/charts", test_charts);
  g_test_add_func ("/render-layout/breakdown-and-timeline", test_breakdown_and_timeline);
  g_test_add_func ("/render-layout/many-lanes", test_many_lanes);
  g_test_add_func ("/render-layout/lesson-pictures", test_lesson_pictures);
  g_test_add_func ("/render-layout/lesson-key-numbers", test_lesson_key_numbers);
  g_test_add_func ("/render-layout/lesson-pictures-inside", test_lesson_pictures_inside);
  g_test_add_func ("/render-layout/breakdown-says-shrunk", test_breakdown_says_shrunk);
  g_test_add_func ("/render-layout/linear-ticks-centred", test_linear_ticks_centred);
  g_test_add_func ("/render-layout/ref-label-off-its-line", test_ref_label_off_its_line);
  g_test_add_func ("/render-layout/cache-state-figures", test_cache_state_figures);
  g_test_add_func ("/render-layout/cache-state-untold-drawn", test_cache_state_untold_drawn);
  g_test_add_func ("/render-layout/host-func-rows-grouped", test_host_func_rows_grouped);
  g_test_add_func ("/render-layout/cache-state-engine-drawn", test_cache_state_engine_drawn);
  g_test_add_func ("/render-layout/rows-typical-rep", test_rows_typical_rep);
  g_test_add_func ("/render-layout/cut-short", test_cut_short);
  g_test_add_func ("/render-layout/cut-short-read-out", test_cut_short_read_out);
  g_test_add_func ("/render-layout/planned-range", test_planned_range);
  g_test_add_func ("/render-layout/cost-marks-at-their-lines", test_cost_marks_at_their_lines);
  g_test_add_func ("/render-layout/report-table-headings", test_report_table_headings);
  return g_test_run ();
}
