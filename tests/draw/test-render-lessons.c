/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-lessons.c: the lessons' drawings in image surfaces: the reuse
 * chart (a series' colour where its point is, nothing drawn without R
 * cells), timelines on one time axis (rows aligned where the data movement
 * starts, the window opening on it, every row drawn), and the streams
 * settings of a run in words. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ms-backend-test.h"
#include "ms-lesson-picture.h"
#include "ms-reuse-chart.h"
#include "ms-run-describe.h"
#include "ms-setup-differences.h"
#include "ms-timeline-queue.h"
#include "ms-timeline-rows.h"
#include "ms-sweep-test.h"
#include "model/ms-results.h"
#include "model/ms-rounds.h"
#include "ms-modes.h"

#define W 900
#define H 560

static cairo_surface_t *surface;
static cairo_t *cr;

static gboolean
color_near (int x0, int y0, int x1, int y1, const MsColor *col)
{
  cairo_surface_flush (surface);
  const unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  for (int y = MAX (0, y0); y < MIN (H, y1); y++)
    for (int x = MAX (0, x0); x < MIN (W, x1); x++) {
      guint32 p = *(const guint32 *) (data + y * stride + x * 4);
      if (fabs (((p >> 16) & 0xff) / 255.0 - col->red) < 0.08 &&
          fabs (((p >> 8) & 0xff) / 255.0 - col->green) < 0.08 &&
          fabs ((p & 0xff) / 255.0 - col->blue) < 0.08)
        return TRUE;
    }
  return FALSE;
}

static void
add_cell (MsResults *r, MsMode mode, int exp, const char *variant, double e2e_us)
{
  double times[6];
  for (int i = 0; i < 6; i++)
    times[i] = e2e_us * (1 + 0.01 * (i - 3));
  MsCell c = { .mode = mode, .exponent = exp, .elements = 1ull << exp, .n_reps = 6,
               .e2e_us = times, .status = MS_CELL_OK };
  g_snprintf (c.variant, sizeof c.variant, "%s", variant);
  ms_cell_compute_stats (&c);
  g_assert_true (ms_results_add_cell (r, &c));
}

static MsResults *
reuse_run (void)
{
  MsResults *r = ms_test_results_new (NULL);
  for (int exp = 18; exp <= 20; exp += 2)
    for (int reuse = 1; reuse <= 16; reuse *= 2) {
      char v[MS_VARIANT_LEN];
      g_snprintf (v, sizeof v, "R=%d", reuse);
      add_cell (r, MS_MODE_PINNED, exp, v, 400);
      add_cell (r, MS_MODE_ZERO_COPY, exp, v, 50.0 * reuse);
      g_snprintf (v, sizeof v, "R=%d/access=read", reuse);
      add_cell (r, MS_MODE_ZERO_COPY, exp, v, 30.0 * reuse);
    }
  g_snprintf (r->experiment, sizeof r->experiment, "reuse");
  return r;
}

static void
test_reuse_chart (void)
{
  MsResults *r = reuse_run ();
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  g_assert_cmpint (ms_reuse_default_exponent (r), ==, 20);
  MsChartData *d = ms_reuse_chart_build (r, 20, MS_REUSE_TIME);
  g_assert_cmpuint (d->series->len, ==, 3); /* pinned, zero-copy, zero-copy read only */
  MsReuseLayout l;
  ms_reuse_chart_draw (cr, d, &st, W, H, &l);
  g_assert_cmpuint (l.n_series, ==, 3);
  /* Zero-copy at R = 16 takes 800 µs: its colour is drawn there (a little
   * right of 16, pinned's a little left of 1, as the key says). */
  MsColor zc, pin;
  ms_chart_palette_color (MS_MODE_ZERO_COPY, FALSE, &zc);
  ms_chart_palette_color (MS_MODE_PINNED, FALSE, &pin);
  int px = (int) ms_scale_to_pixel (&l.xs, 16 * exp2 (0.12)), py = (int) ms_scale_to_pixel (&l.ys, 800);
  g_assert_true (color_near (px - 4, py - 4, px + 5, py + 5, &zc));
  g_assert_false (color_near (px - 4, py - 4, px + 5, py + 5, &pin));
  int qx = (int) ms_scale_to_pixel (&l.xs, exp2 (-0.12)), qy = (int) ms_scale_to_pixel (&l.ys, 400);
  g_assert_true (color_near (qx - 4, qy - 4, qx + 5, qy + 5, &pin));
  /* Points in R order, whatever the cells' order. */
  const MsChartSeries *s = g_ptr_array_index (d->series, 1);
  for (guint k = 1; k < s->points->len; k++)
    g_assert_cmpfloat (g_array_index (s->points, MsChartPoint, k - 1).x, <,
                       g_array_index (s->points, MsChartPoint, k).x);
  ms_chart_data_free (d);

  /* Bandwidth: 3 vectors over the median time (of 0.97 .. 1.02 x 400 µs). */
  d = ms_reuse_chart_build (r, 18, MS_REUSE_BANDWIDTH);
  s = g_ptr_array_index (d->series, 0);
  g_assert_cmpfloat_with_epsilon (g_array_index (s->points, MsChartPoint, 0).y,
                                  3.0 * (1 << 18) * 4 / (400 * 0.995) * 1e-3, 1e-3);
  ms_chart_data_free (d);

  /* A size without R cells: nothing but the empty text. */
  d = ms_reuse_chart_build (r, 12, MS_REUSE_TIME);
  g_assert_cmpuint (d->series->len, ==, 0);
  ms_reuse_chart_draw (cr, d, &st, W, H, &l);
  g_assert_false (color_near (0, 0, W, H, &zc));
  ms_chart_data_free (d);
  ms_results_free (r);
}

/* Writes only at 16 MiB on a gen5 x16 link: R kernels put R × c on it
 * at 51 GB/s; one kernel storing R times, up to 127 GB/s at R = 16 when
 * merged, or at 45 when not. */
static MsResults *
writes_run (gboolean merged)
{
  MsResults *r = ms_test_results_new ("reuse");
  r->device.pcie_gen = 5;
  r->device.pcie_width = 16;
  for (int reuse = 1; reuse <= 16; reuse *= 2) {
    char v[MS_VARIANT_LEN];
    g_snprintf (v, sizeof v, "R=%d/access=write", reuse);
    add_cell (r, MS_MODE_ZERO_COPY, 22, v, 330.0 * reuse);
    g_snprintf (v, sizeof v, "R=%d/access=write-in-kernel", reuse);
    add_cell (r, MS_MODE_ZERO_COPY, 22, v, merged ? 330.0 + 120.0 * (reuse - 1) : 375.0 * reuse);
  }
  return r;
}

/* A writes-only rate above the link is given its reason on the chart:
 * merged stores where R × c over the time passes the link's rate, the
 * counting of a, b and c otherwise. */
static void
test_reuse_chart_link (void)
{
  for (int merged = 0; merged < 2; merged++) {
    MsResults *r = writes_run (merged);
    MsChartData *d = ms_reuse_chart_build (r, 22, MS_REUSE_BANDWIDTH);
    g_assert_cmpuint (d->series->len, ==, 2);
    g_assert_nonnull (d->caption);
    g_test_message ("%s", d->caption);
    g_assert_true (!strstr (d->caption, "stores were merged before they crossed") == !merged);
    if (merged)
      g_assert_nonnull (strstr (d->caption, "writes only, one kernel at R = 16 stores 16 × c, "
                                            "127 GB/s if all of it crossed: above the link's 63"));
    /* R = 1's rate passes the line by counting, merged stores or not. */
    g_assert_nonnull (strstr (d->caption, "writes only (R = 1) sends c alone"));
    ms_chart_data_free (d);
    ms_results_free (r);
  }
}

static MsResults *
backend_run (const char *modes, int streams, MsIssueOrder order)
{
  MsTestBackendConfig cfg;
  MsSweep s;
  ms_test_sweep_init (&s, modes, 16, 16, 2);
  s.streams = streams;
  s.order = order;
  ms_test_backend_config_init (&cfg);
  return ms_test_sweep_run (&s, &cfg);
}

/* Repetition 1 of a cell with consistent clocks: init on the host, then
 * h2d, kernel and d2h on stream 0 (the host blocked for the copies), then
 * a 100 µs verify; repetition 0's events lie 5000 µs earlier. */
static MsCell
synthetic_row (MsMode mode, double init, double h2d, double d2h)
{
  const MsPhase phases[] = { MS_PHASE_INIT, MS_PHASE_H2D, MS_PHASE_KERNEL, MS_PHASE_D2H,
                             MS_PHASE_VERIFY };
  const double lens[] = { init, h2d, 20, d2h, 100 };
  MsCell c = { .mode = mode, .exponent = 16, .elements = 1 << 16, .status = MS_CELL_OK };
  c.events = calloc (2 * G_N_ELEMENTS (phases), sizeof (MsEvent)); /* ms_cell_clear frees */
  for (int rep = 0; rep < 2; rep++) {
    double t = 1000 + rep * 5000;
    for (guint i = 0; i < G_N_ELEMENTS (phases); i++) {
      gboolean gpu = phases[i] != MS_PHASE_INIT && phases[i] != MS_PHASE_VERIFY;
      c.events[c.n_events++] = (MsEvent){ .phase = phases[i], .lane = gpu, .rep = rep,
                                          .host_start_us = t, .host_us = lens[i],
                                          .gpu_start_us = gpu ? t : -1,
                                          .gpu_us = gpu ? lens[i] : -1 };
      t += lens[i];
    }
  }
  return c;
}

/* The start of the first event of phase in a row. */
static double
phase_start (const MsCell *c, MsPhase phase)
{
  double t = INFINITY;
  for (size_t i = 0; i < c->n_events; i++)
    if (c->events[i].phase == phase)
      t = MIN (t, c->events[i].host_start_us);
  return t;
}

static void
test_timeline_rows (void)
{
  MsCell pageable = synthetic_row (MS_MODE_PAGEABLE, 300, 200, 150);
  MsCell pinned = synthetic_row (MS_MODE_PINNED, 100, 80, 60);
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  g_assert_true (ms_timeline_rows_add (&rows, &pageable, 1, "pageable"));
  g_assert_true (ms_timeline_rows_add (&rows, &pinned, 1, "pinned"));
  g_assert_false (ms_timeline_rows_add (&rows, &pinned, 7,
                                        "no such repetition"));
  g_assert_cmpint (rows.n, ==, 2);
  /* Both rows' movement starts where pageable's does, after its longer
   * init; the longest row ends with pageable's verify. */
  g_assert_cmpfloat_with_epsilon (rows.move_t0, 300, 1e-9);
  g_assert_cmpfloat_with_epsilon (rows.move_t1, 300 + 200 + 20 + 150, 1e-9);
  g_assert_cmpfloat_with_epsilon (rows.total_us, 300 + 200 + 20 + 150 + 100, 1e-9);
  for (int i = 0; i < rows.n; i++) {
    g_assert_cmpfloat_with_epsilon (phase_start (&rows.cells[i], MS_PHASE_H2D), rows.move_t0,
                                    1e-6);
    g_assert_cmpfloat (phase_start (&rows.cells[i], MS_PHASE_INIT), <, rows.move_t0);
  }
  MsTimeWindow win, all;
  ms_timeline_rows_window (&rows, FALSE, &win);
  ms_timeline_rows_window (&rows, TRUE, &all);
  /* Init and verify collapsed: the window opens on the movement. */
  g_assert_cmpfloat (win.t0, >, 0);
  g_assert_cmpfloat (win.t1, <, all.t1);
  g_assert_cmpfloat (win.t0, <=, rows.move_t0);
  g_assert_cmpfloat (win.t1, >=, rows.move_t1);

  MsChartStyle st;
  MsTimelineLayout layouts[2];
  ms_chart_style_init_light (&st);
  ms_timeline_layout_init (&layouts[0]);
  ms_timeline_layout_init (&layouts[1]);
  ms_timeline_rows_draw (cr, &rows, &win, &st, W, H, layouts);
  /* An h2d bar in each half of the image. */
  MsColor h2d;
  ms_phase_color (MS_PHASE_H2D, FALSE, &h2d);
  g_assert_true (color_near (0, 0, W, H / 2, &h2d));
  g_assert_true (color_near (0, H / 2, W, H, &h2d));
  g_assert_cmpuint (layouts[0].bars->len, >, 0);
  g_assert_cmpuint (layouts[1].bars->len, >, 0);
  /* The same time lands on the same x in both rows. */
  g_assert_cmpfloat_with_epsilon (layouts[0].plot_x, layouts[1].plot_x, 1e-9);
  ms_timeline_layout_clear (&layouts[0]);
  ms_timeline_layout_clear (&layouts[1]);
  ms_timeline_rows_clear (&rows);
  g_assert_cmpint (rows.n, ==, 0);
  ms_cell_clear (&pageable);
  ms_cell_clear (&pinned);
}

static void
record_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  g_ptr_array_add (data, g_strdup (text));
}

static gboolean
drew_text (GPtrArray *texts, const char *text)
{
  for (guint i = 0; i < texts->len; i++)
    if (strcmp (g_ptr_array_index (texts, i), text) == 0)
      return TRUE;
  return FALSE;
}

/* The window opened on the movement ends after the last copy's bar (none
 * cut at the frame), and the legend names only the phases it shows: not
 * the verification left out of it. */
static void
test_timeline_window_and_legend (void)
{
  MsCell pinned = synthetic_row (MS_MODE_PINNED, 100, 80, 60);
  /* The verification a while after the copies, as a host's check is. */
  for (size_t i = 0; i < pinned.n_events; i++)
    if (pinned.events[i].phase == MS_PHASE_VERIFY)
      pinned.events[i].host_start_us += 500;
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  g_assert_true (ms_timeline_rows_add (&rows, &pinned, 1, "pinned"));
  MsTimeWindow win;
  ms_timeline_rows_window (&rows, FALSE, &win);
  const MsCell *c = &rows.cells[0];
  for (size_t i = 0; i < c->n_events; i++) {
    const MsEvent *ev = &c->events[i];
    if (ms_phase_moves_data (ev->phase) && ev->gpu_start_us < win.t1)
      g_assert_cmpfloat (ev->gpu_start_us + ev->gpu_us, <, win.t1);
  }
  gboolean seen[MS_PHASE_COUNT];
  ms_timeline_seen_in (c, 0, NULL, &win, seen);
  g_assert_true (seen[MS_PHASE_H2D] && seen[MS_PHASE_D2H]);
  g_assert_false (seen[MS_PHASE_VERIFY]);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  ms_draw_set_text_recorder (record_text, texts);
  ms_timeline_rows_draw (cr, &rows, &win, &st, W, H, NULL);
  ms_draw_set_text_recorder (NULL, NULL);
  g_assert_true (drew_text (texts, ms_phase_name (MS_PHASE_H2D)));
  g_assert_false (drew_text (texts, ms_phase_name (MS_PHASE_VERIFY)));
  /* Setup and verification hidden: the row draws no bar of either, even
   * where another row's longer movement would bring them into the window. */
  const MsCell *drawn = ms_timeline_rows_cell (&rows, 0);
  for (size_t i = 0; i < drawn->n_events; i++)
    g_assert_true (drawn->events[i].phase != MS_PHASE_VERIFY &&
                   drawn->events[i].phase != MS_PHASE_INIT);
  /* The axis reads from 0 where the data movement starts, not the run's
   * clock nor the window's margin before it. */
  g_assert_cmpfloat (win.origin_us, ==, rows.move_t0);
  g_assert_cmpfloat (win.t0, <, win.origin_us);
  /* Expanded, the whole repetition, with room after its last bar. */
  ms_timeline_rows_window (&rows, TRUE, &win);
  g_assert_cmpfloat (win.t1, >, rows.total_us);
  ms_timeline_rows_clear (&rows);
  ms_cell_clear (&pinned);
}

/* Two copies of one direction on two streams, the second's stream reaching
 * it while the first still ran: it began to copy when the first ended. */
static void
test_copies_waited (void)
{
  MsEvent ev[2] = {
    { .phase = MS_PHASE_H2D, .lane = 1, .gpu_start_us = 0, .gpu_us = 100, .host_us = 1 },
    { .phase = MS_PHASE_H2D, .lane = 2, .gpu_start_us = 10, .gpu_us = 190, .host_us = 1 },
  };
  const MsEvent *evs[] = { &ev[1], &ev[0] };
  double began[2];
  ms_copy_queue_began (evs, 2, began);
  g_assert_cmpfloat (began[1], ==, 0);
  g_assert_cmpfloat (began[0], ==, 100);
  MsCell c = { .mode = MS_MODE_STREAMS, .events = ev, .n_events = 2 };
  MsTimeWindow win;
  ms_time_window_reset (&win, 200);
  g_assert_true (ms_timeline_copies_waited (&c, 0, NULL, &win));
  g_assert_true (ms_timeline_hints (&c, 0, NULL, &win) & MS_TIMELINE_HINT_WAITED);
  /* One after the other: nobody waited. */
  ev[1].gpu_start_us = 100;
  ev[1].gpu_us = 100;
  g_assert_false (ms_timeline_copies_waited (&c, 0, NULL, &win));
}

/* Two threads on the legacy default stream: a kernel on one lane whose
 * events began while a copy on the other still ran waited for it, though
 * they are of different phases; on per-thread streams nothing waits. */
static void
test_one_stream_waited (void)
{
  MsEvent ev[2] = {
    { .phase = MS_PHASE_H2D, .lane = 1, .gpu_start_us = 0, .gpu_us = 100, .host_us = 1 },
    { .phase = MS_PHASE_KERNEL, .lane = 2, .gpu_start_us = 10, .gpu_us = 190, .host_us = 1 },
  };
  MsCell c = { .mode = MS_MODE_PINNED, .events = ev, .n_events = 2 };
  g_snprintf (c.variant, sizeof c.variant, "threads=2/stream=legacy");
  MsTimeWindow win;
  ms_time_window_reset (&win, 200);
  g_assert_true (ms_timeline_one_stream (&c));
  g_assert_true (ms_timeline_one_stream_waited (&c, 0, NULL, &win));
  g_assert_true (ms_timeline_hints (&c, 0, NULL, &win) & MS_TIMELINE_HINT_ONE_STREAM);
  g_snprintf (c.variant, sizeof c.variant, "threads=2/stream=per-thread");
  g_assert_false (ms_timeline_one_stream_waited (&c, 0, NULL, &win));
  g_assert_false (ms_timeline_hints (&c, 0, NULL, &win) & MS_TIMELINE_HINT_ONE_STREAM);
}

static void
test_describe_streams (void)
{
  MsResults *r = backend_run ("pinned", 4, MS_ORDER_BREADTH_FIRST);
  g_assert_null (ms_run_describe_streams (r));
  ms_results_free (r);
  r = backend_run ("streams", 4, MS_ORDER_BREADTH_FIRST);
  g_autofree char *plain = ms_run_describe_streams (r);
  g_assert_cmpstr (plain, ==, "4 streams, breadth-first");
  /* An experiment: the settings its cells cover. */
  MsCell c = r->cells[0];
  c.e2e_us = NULL;
  c.events = NULL;
  c.n_reps = 0;
  c.n_events = 0;
  const char *variants[] = { "queue=single/order=depth/K=1", "queue=default/order=breadth/K=16" };
  for (guint i = 0; i < G_N_ELEMENTS (variants); i++) {
    g_snprintf (c.variant, sizeof c.variant, "%s", variants[i]);
    g_assert_true (ms_results_put_cell (r, &c));
  }
  g_autofree char *exp = ms_run_describe_streams (r);
  g_assert_cmpstr (exp, ==, "1–16 streams, depth-first and breadth-first, one hardware queue "
                            "and the default queues");
  ms_results_free (r);
}

/* One date form in every view: the files' ISO form shortened, anything
 * else left as it is. */
static void
test_describe_date (void)
{
  const struct {
    const char *in, *out;
  } cases[] = {
    { "2026-11-22T14:48:30Z", "2026-11-22 14:48 UTC" },
    { "2026-11-22T14:48Z", "2026-11-22 14:48 UTC" },
    { "2026-11-22T14:48:30", "2026-11-22 14:48" },
    { "2026-11-22 14:48:30Z", "2026-11-22 14:48 UTC" },
    { "yesterday", "yesterday" },
    { "", "" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *d = ms_run_describe_date (cases[i].in);
    g_assert_cmpstr (d, ==, cases[i].out);
  }
  g_autofree char *none = ms_run_describe_date (NULL);
  g_assert_cmpstr (none, ==, "");
}

/* Two runs whose inputs were written by different numbers of threads
 * say so; a file that does not say counts as one thread. */
static void
test_describe_prep_threads (void)
{
  MsResults *a = ms_results_new (NULL, NULL), *b = ms_results_new (NULL, NULL);
  g_assert_null (ms_setup_differences (a, b));
  b->device.prep_threads = 1;
  g_assert_null (ms_setup_differences (a, b));
  b->device.prep_threads = 16;
  g_autofree char *text = ms_setup_differences (a, b);
  g_assert_nonnull (strstr (text, "threads writing large inputs (1 / 16)"));
  ms_results_free (a);
  ms_results_free (b);
}

/* The lessons' looks: every variant part is said by one lesson only (one
 * place for each fact), a key's words hold its value once, a part nobody
 * knows has no words; every look's rows are within what the timelines
 * stack. */
static void
test_looks (void)
{
  g_autoptr (GHashTable) parts = g_hash_table_new (g_str_hash, g_str_equal);
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonLook *look = ms_lesson_look ((MsLessonTopic) t);
    g_assert_nonnull (look);
    g_assert_true (ms_lesson_picture_has ((MsLessonTopic) t) == (look->picture != NULL));
    g_assert_true (look->n_rows == 0 || look->rows);
    g_assert_cmpint (look->n_rows, <=, MS_TIMELINE_MAX_ROWS);
    for (const MsVariantWords *w = look->words; w && w->part; w++) {
      g_assert_false (g_hash_table_contains (parts, w->part));
      g_hash_table_add (parts, (gpointer) w->part);
      if (strchr (w->part, '='))
        g_assert_true (ms_lesson_variant_words (w->part) == w);
      else {
        g_autofree char *part = g_strdup_printf ("%s=12", w->part);
        g_assert_true (ms_lesson_variant_words (part) == w);
        g_assert_nonnull (strstr (w->words, "%s"));
        g_assert_null (strstr (strstr (w->words, "%s") + 2, "%s"));
      }
    }
  }
  g_assert_cmpuint (g_hash_table_size (parts), >, 0);
  g_assert_null (ms_lesson_variant_words ("no-such-key=1"));
  g_assert_null (ms_lesson_variant_words ("K"));
  g_assert_null (ms_lesson_look (MS_TOPIC_COUNT));
}

/* A slide by its height, or at any height where the style says so (the
 * export of a slide shown, whose picture has more height than on
 * screen). */
static void
test_slide_style (void)
{
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  g_assert_true (ms_draw_is_slide (&st, ms_style_font_size (&st) * 20));
  g_assert_false (ms_draw_is_slide (&st, ms_style_font_size (&st) * 60));
  st.slide = TRUE;
  g_assert_true (ms_draw_is_slide (&st, ms_style_font_size (&st) * 60));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cr = cairo_create (surface);
  g_test_add_func ("/render-lessons/slide-style", test_slide_style);
  g_test_add_func ("/render-lessons/reuse-chart", test_reuse_chart);
  g_test_add_func ("/render-lessons/reuse-chart-link", test_reuse_chart_link);
  g_test_add_func ("/render-lessons/timeline-rows", test_timeline_rows);
  g_test_add_func ("/render-lessons/timeline-window-and-legend", test_timeline_window_and_legend);
  g_test_add_func ("/render-lessons/copies-waited", test_copies_waited);
  g_test_add_func ("/render-lessons/one-stream-waited", test_one_stream_waited);
  g_test_add_func ("/render-lessons/describe-streams", test_describe_streams);
  g_test_add_func ("/render-lessons/describe-date", test_describe_date);
  g_test_add_func ("/render-lessons/describe-prep-threads", test_describe_prep_threads);
  g_test_add_func ("/render-lessons/looks", test_looks);
  int status = g_test_run ();
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return status;
}
