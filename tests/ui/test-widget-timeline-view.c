/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-timeline-view.c: MsTimelineView's cell, title, zoom and
 * drawing. */
#include "ms-views.h"
#include "ms-widget-test.h"
#include "ms-sweep-test.h"
#include "model/ms-results.h"
#include "ms-timeline-view.h"

static void
test_cell_and_zoom (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsRun *held = g_ptr_array_index (runs, 0);
  const MsResults *run = ms_run_get_results (held);
  const MsCell *cell = ms_results_find (run, MS_MODE_PINNED, 20);
  g_assert_nonnull (cell);
  MsTimelineView *view = MS_TIMELINE_VIEW (g_object_new (MS_TYPE_TIMELINE_VIEW, NULL));
  /* The whole repetition, as asked: the default opens on the copies. */
  g_object_set (view, "show-setup", TRUE, NULL);
  guint title_n, zoomed_n;
  ms_test_watch (view, "title", &title_n);
  ms_test_watch (view, "zoomed", &zoomed_n);
  ms_timeline_view_set_cell (view, held, cell, 1, "pinned, repetition 2");
  g_assert_cmpuint (title_n, ==, 1);
  g_assert_cmpstr (ms_timeline_view_get_title (view), ==, "pinned, repetition 2");
  const MsTimeWindow *win = ms_timeline_view_get_window (view);
  /* From the repetition's first event, where the axis reads 0. */
  g_assert_cmpfloat (win->t0, ==, win->origin_us);
  g_assert_cmpfloat (win->t0, >=, 0);
  /* To a little after the last bar's end, which no frame then cuts. */
  g_assert_cmpfloat (win->t1, >, win->total_us);
  g_assert_cmpfloat (win->t1, <=, win->total_us * 1.05);
  g_assert_cmpfloat (win->total_us, >, 0);

  ms_timeline_view_zoom (view, 2);
  g_assert_true (ms_test_get_boolean (view, "zoomed"));
  g_assert_cmpuint (zoomed_n, ==, 1);
  g_assert_cmpfloat (win->t1 - win->t0, <, win->total_us * 0.75);
  ms_timeline_view_reset_zoom (view);
  g_assert_false (ms_test_get_boolean (view, "zoomed"));
  g_assert_cmpuint (zoomed_n, ==, 2);

  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 400);
  g_object_set (view, "text-scale", 2.0, "high-contrast", TRUE, NULL);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  /* A new cell shows the whole repetition again. */
  ms_timeline_view_zoom (view, 3);
  ms_timeline_view_set_cell (view, held, cell, 0, "pinned, repetition 1");
  g_assert_false (ms_test_get_boolean (view, "zoomed"));
  ms_test_destroy (window, GTK_WIDGET (view));
}

static void
count_signal (gpointer object, guint *n)
{
  (*n)++;
}

/* A cell opens on its data movement: the allocation and the initialisation
 * before it, the verification after it are outside the window until asked
 * for. Panning and zooming stay inside the repetition. */
static void
test_opens_on_movement (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsRun *held = g_ptr_array_index (runs, 0);
  const MsResults *run = ms_run_get_results (held);
  const MsCell *cell = ms_results_find (run, MS_MODE_PAGEABLE, 20);
  MsTimelineView *view = g_object_ref_sink (g_object_new (MS_TYPE_TIMELINE_VIEW, NULL));
  guint moved = 0;
  g_signal_connect (view, "window-changed", G_CALLBACK (count_signal), &moved);
  ms_timeline_view_set_cell (view, held, cell, 0, "pageable, repetition 1");
  g_assert_cmpuint (moved, >=, 1);
  const MsTimeWindow *win = ms_timeline_view_get_window (view);
  double t0, t1;
  g_assert_true (ms_timeline_movement_span (cell, 0, NULL, &t0, &t1));
  g_assert_cmpfloat (t0, >, 0); /* repetition 1 allocates first */
  g_assert_true (ms_test_get_boolean (view, "zoomed"));
  g_assert_cmpfloat (win->t0, <=, t0);
  g_assert_cmpfloat (win->t1, >=, t1);
  g_assert_cmpfloat (win->t1 - win->t0, <, (t1 - t0) * 1.1);
  /* The allocation and the verification reach out of the window. */
  for (size_t i = 0; i < cell->n_events; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep == 0 && (ev->phase == MS_PHASE_ALLOC || ev->phase == MS_PHASE_VERIFY))
      g_assert_true (ev->host_start_us < win->t0 || ev->host_start_us + ev->host_us > win->t1);
  }

  guint setup_n;
  ms_test_watch (view, "show-setup", &setup_n);
  g_object_set (view, "show-setup", TRUE, NULL);
  g_assert_cmpuint (setup_n, ==, 1);
  g_assert_false (ms_test_get_boolean (view, "zoomed"));
  g_object_set (view, "show-setup", FALSE, NULL);
  g_assert_cmpfloat (win->t0, <=, t0);

  double span = win->t1 - win->t0;
  ms_timeline_view_pan (view, -10 * win->total_us);
  g_assert_cmpfloat (win->t0, ==, 0);
  g_assert_cmpfloat_with_epsilon (win->t1 - win->t0, span, 1e-6);
  ms_timeline_view_center_on (view, t1);
  g_assert_cmpfloat_with_epsilon ((win->t0 + win->t1) / 2, t1, span * 1e-6 + 1e-9);
  g_object_unref (view);
}

/* The tooltip says "blocked the host" only when the call was still running
 * while the GPU worked, whatever the durations. */
static void
test_tooltip_truthful (void)
{
  /* A kernel launch that returned before the GPU started, though it took
   * as long as the kernel. */
  MsEvent queued = { .phase = MS_PHASE_KERNEL, .lane = 1, .host_start_us = 100, .host_us = 50,
                     .gpu_start_us = 160, .gpu_us = 55 };
  g_autofree char *a = ms_timeline_view_describe_event (&queued, TRUE);
  g_assert_null (strstr (a, "blocked"));
  g_assert_nonnull (strstr (a, "returned 10.00 µs before the GPU started"));
  /* A pageable copy: the call spans the GPU work. */
  MsEvent copy = { .phase = MS_PHASE_H2D, .lane = 0, .host_start_us = 100, .host_us = 300,
                   .gpu_start_us = 120, .gpu_us = 200, .bytes = 1 << 20 };
  g_autofree char *b = ms_timeline_view_describe_event (&copy, TRUE);
  g_assert_nonnull (strstr (b, "blocked the host for 200.00 µs of the GPU work"));
}

static void
test_no_cell (void)
{
  GtkWidget *view = g_object_new (MS_TYPE_TIMELINE_VIEW, NULL);
  ms_timeline_view_set_cell (MS_TIMELINE_VIEW (view), NULL, NULL, 0, NULL);
  g_assert_null (ms_timeline_view_get_title (MS_TIMELINE_VIEW (view)));
  GtkWindow *window = ms_test_show (view, 400, 300);
  g_assert_cmpuint (ms_test_ink (view), <, 100);
  ms_test_destroy (window, view);
}

/* The view holds the run it shows: closing the run (the window drops its
 * reference) leaves the view drawing and hit-testing valid data, and the
 * view does not copy the cell. */
static void
test_run_closed_while_shown (void)
{
  GPtrArray *runs = ms_test_reference_runs ();
  MsRun *held = g_ptr_array_index (runs, 0);
  const MsResults *run = ms_run_get_results (held);
  const MsCell *cell = ms_results_find (run, MS_MODE_STREAMS, 20);
  g_assert_nonnull (cell);
  MsTimelineView *view = MS_TIMELINE_VIEW (g_object_new (MS_TYPE_TIMELINE_VIEW, NULL));
  ms_timeline_view_set_cell (view, held, cell, 1, "streams");
  double total = ms_timeline_view_get_window (view)->total_us;
  g_ptr_array_unref (runs);
  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 400);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  g_assert_cmpfloat (ms_timeline_view_get_window (view)->total_us, ==, total);
  /* Another cell, or none, lets the closed run go. */
  ms_timeline_view_set_cell (view, NULL, NULL, 0, NULL);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), <, 100);
  ms_test_destroy (window, GTK_WIDGET (view));
}

/* A run of one cell with n_reps repetitions of a copy and a kernel each
 * (the kernel of repetition r written after repetition r + 1's copy, so
 * that the repetitions interleave), and events of no repetition. */
static MsRun *
many_events_run (int n_reps)
{
  MsResults *r = ms_test_results_new (NULL);
  MsCell c = { .mode = MS_MODE_PINNED, .exponent = 10, .elements = 1024, .n_reps = n_reps,
               .status = MS_CELL_OK };
  c.e2e_us = g_new (double, n_reps);
  c.events = g_new0 (MsEvent, 2 * (size_t) n_reps + 2);
  size_t n = 0;
  c.events[n++] = (MsEvent){ .phase = MS_PHASE_ALLOC, .rep = -1, .host_us = 1 };
  for (int k = 0; k < n_reps; k++) {
    double t = 10.0 * (k % 7);
    c.e2e_us[k] = 10;
    c.events[n++] = (MsEvent){ .phase = MS_PHASE_H2D, .rep = k, .host_start_us = t,
                               .host_us = 4, .gpu_start_us = t + 1, .gpu_us = 3 + k % 5 };
    if (k > 0)
      c.events[n++] = (MsEvent){ .phase = MS_PHASE_KERNEL, .rep = k - 1, .lane = 0,
                                 .host_start_us = t + 4, .host_us = 1, .gpu_start_us = t + 5,
                                 .gpu_us = 2 };
  }
  c.events[n++] = (MsEvent){ .phase = MS_PHASE_FREE, .rep = -1, .host_us = 1 };
  c.n_events = n;
  ms_cell_compute_stats (&c);
  g_assert_true (ms_results_add_cell (r, &c));
  g_free (c.e2e_us);
  g_free (c.events);
  return ms_run_new (r, MS_RUN_KIND_REFERENCE);
}

/* The map, read in steps, gives each repetition a range holding all its
 * events, and the extent read through it is the whole scan's. */
static void
test_rep_map (void)
{
  g_autoptr (MsRun) held = many_events_run (1000);
  const MsCell *cell = &ms_run_get_results (held)->cells[0];
  g_autoptr (MsRepMap) map = ms_rep_map_new (cell);
  g_assert_true (ms_rep_map_matches (map, cell));
  g_assert_false (ms_rep_map_complete (map));
  /* A deadline already past still reads a step, and the rest next time. */
  while (!ms_rep_map_fill (map, cell, 1))
    ;
  g_assert_true (ms_rep_map_complete (map));
  for (int rep = 0; rep < 1000; rep += 37) {
    size_t first, end, n = 0;
    ms_rep_map_range (map, rep, &first, &end);
    for (size_t i = 0; i < cell->n_events; i++)
      if (cell->events[i].rep == rep) {
        g_assert_true (i >= first && i < end);
        n++;
      }
    g_assert_cmpuint (n, ==, rep < 999 ? 2 : 1);
    g_assert_cmpfloat (ms_timeline_rep_extent (cell, rep, map), ==,
                       ms_timeline_extent (cell, rep));
  }
  size_t first, end;
  ms_rep_map_range (map, 1000, &first, &end);
  g_assert_cmpuint (end, ==, 0);
  ms_rep_map_range (map, -1, &first, &end);
  g_assert_cmpuint (end, ==, 0);
  /* Another cell's events are not this map's. */
  g_autoptr (MsRun) other = many_events_run (10);
  g_assert_false (ms_rep_map_matches (map, &ms_run_get_results (other)->cells[0]));
}

/* A cell of many events is indexed in idle slices: set_cell returns at
 * once, the view says it is indexing, and the window opens on the
 * repetition once the index is done. */
static void
test_large_cell_in_slices (void)
{
  g_autoptr (MsRun) held = many_events_run (200000);
  const MsCell *cell = &ms_run_get_results (held)->cells[0];
  MsTimelineView *view = MS_TIMELINE_VIEW (g_object_new (MS_TYPE_TIMELINE_VIEW, NULL));
  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 400);
  guint changed = 0;
  g_signal_connect (view, "window-changed", G_CALLBACK (count_signal), &changed);
  g_object_set (view, "show-setup", TRUE, NULL);
  changed = 0;
  ms_timeline_view_set_cell (view, held, cell, 5, "many");
  size_t first, end;
  g_assert_false (ms_timeline_view_get_rep_range (view, &first, &end));
  g_assert_cmpfloat (ms_timeline_view_get_window (view)->total_us, ==, 1);
  guint before = changed;
  while (changed == before)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (ms_timeline_view_get_rep_range (view, &first, &end));
  g_assert_cmpuint (end - first, <=, 4);
  const MsTimeWindow *win = ms_timeline_view_get_window (view);
  g_assert_cmpfloat (win->total_us, ==, ms_timeline_extent (cell, 5));
  g_assert_cmpfloat (win->t1, >=, win->total_us);
  g_assert_cmpfloat (win->t1, <=, win->total_us * 1.05);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  /* Another repetition of the same cell needs no new index. */
  ms_timeline_view_set_cell (view, held, cell, 9, "many");
  g_assert_true (ms_timeline_view_get_rep_range (view, &first, &end));
  g_assert_cmpfloat (win->total_us, ==, ms_timeline_extent (cell, 9));
  ms_test_destroy (window, GTK_WIDGET (view));
}

/* The lanes are drawn once and kept (a texture) while nothing changes
 * them; zooming, panning, another cell, the text scale and a resize draw
 * them again. */
static void
test_picture_kept_and_redrawn (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  MsRun *held = g_ptr_array_index (runs, 0);
  const MsResults *run = ms_run_get_results (held);
  MsTimelineView *view = MS_TIMELINE_VIEW (g_object_new (MS_TYPE_TIMELINE_VIEW, NULL));
  ms_timeline_view_set_cell (view, held, ms_results_find (run, MS_MODE_PINNED, 20), 0, "pinned");
  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 400);
  MsTestViewFrame first = ms_test_view_frame (GTK_WIDGET (view));
  MsTestViewFrame again = ms_test_view_frame (GTK_WIDGET (view));
  g_assert_true (again.texture == first.texture);
  g_object_unref (again.texture);
  GdkTexture *prev = first.texture;
  for (int step = 0; step < 5; step++) {
    if (step == 0)
      ms_timeline_view_zoom (view, 2);
    else if (step == 1)
      ms_timeline_view_pan (view, 1);
    else if (step == 2)
      ms_timeline_view_set_cell (view, held, ms_results_find (run, MS_MODE_PAGEABLE, 20), 0,
                                 "pageable");
    else if (step == 3)
      g_object_set (view, "text-scale", 1.5, NULL);
    else {
      gtk_window_set_default_size (window, 700, 300);
      ms_test_wait_until (ms_test_is_laid_out, view, "the window is resized");
    }
    MsTestViewFrame f = ms_test_view_frame (GTK_WIDGET (view));
    if (f.texture == prev)
      g_error ("step %d kept the old picture", step);
    g_object_unref (prev);
    prev = f.texture;
  }
  g_object_unref (prev);
  ms_test_destroy (window, GTK_WIDGET (view));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/timeline-view/cell-and-zoom", test_cell_and_zoom);
  g_test_add_func ("/timeline-view/picture-kept-and-redrawn", test_picture_kept_and_redrawn);
  g_test_add_func ("/timeline-view/opens-on-movement", test_opens_on_movement);
  g_test_add_func ("/timeline-view/tooltip-truthful", test_tooltip_truthful);
  g_test_add_func ("/timeline-view/no-cell", test_no_cell);
  g_test_add_func ("/timeline-view/run-closed-while-shown", test_run_closed_while_shown);
  g_test_add_func ("/timeline-view/rep-map", test_rep_map);
  g_test_add_func ("/timeline-view/large-cell-in-slices", test_large_cell_in_slices);
  return g_test_run ();
}
