/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-timeline-view.c: MsTimelineView's cell, title, zoom and
 * drawing. */
#include "ms-views.h"
#include "ms-widget-test.h"

static void
test_cell_and_zoom (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  const MsResults *run = g_ptr_array_index (runs, 0);
  const MsCell *cell = ms_results_find (run, MS_MODE_PINNED, 20);
  g_assert_nonnull (cell);
  MsTimelineView *view = MS_TIMELINE_VIEW (ms_timeline_view_new ());
  /* The whole repetition, as asked: the default opens on the copies. */
  ms_timeline_view_set_show_setup (view, TRUE);
  guint title_n, zoomed_n;
  ms_test_watch (view, "title", &title_n);
  ms_test_watch (view, "zoomed", &zoomed_n);
  ms_timeline_view_set_cell (view, run, cell, 1, "pinned, repetition 2");
  g_assert_cmpuint (title_n, ==, 1);
  g_assert_cmpstr (ms_timeline_view_get_title (view), ==, "pinned, repetition 2");
  const MsTimeWindow *win = ms_timeline_view_get_window (view);
  g_assert_cmpfloat (win->t0, ==, 0);
  g_assert_cmpfloat (win->t1, ==, win->total_us);
  g_assert_cmpfloat (win->total_us, >, 0);

  ms_timeline_view_zoom (view, 2);
  g_assert_true (ms_timeline_view_get_zoomed (view));
  g_assert_cmpuint (zoomed_n, ==, 1);
  g_assert_cmpfloat (win->t1 - win->t0, <, win->total_us * 0.75);
  ms_timeline_view_reset_zoom (view);
  g_assert_false (ms_timeline_view_get_zoomed (view));
  g_assert_cmpuint (zoomed_n, ==, 2);

  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 900, 400);
  g_object_set (view, "text-scale", 2.0, "high-contrast", TRUE, NULL);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  /* A new cell shows the whole repetition again. */
  ms_timeline_view_zoom (view, 3);
  ms_timeline_view_set_cell (view, run, cell, 0, "pinned, repetition 1");
  g_assert_false (ms_timeline_view_get_zoomed (view));
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
  const MsResults *run = g_ptr_array_index (runs, 0);
  const MsCell *cell = ms_results_find (run, MS_MODE_PAGEABLE, 20);
  MsTimelineView *view = MS_TIMELINE_VIEW (g_object_ref_sink (ms_timeline_view_new ()));
  guint moved = 0;
  g_signal_connect (view, "window-changed", G_CALLBACK (count_signal), &moved);
  ms_timeline_view_set_cell (view, run, cell, 0, "pageable, repetition 1");
  g_assert_cmpuint (moved, >=, 1);
  const MsTimeWindow *win = ms_timeline_view_get_window (view);
  double t0, t1;
  g_assert_true (ms_timeline_view_movement_span (cell, 0, &t0, &t1));
  g_assert_cmpfloat (t0, >, 0); /* repetition 1 allocates first */
  g_assert_true (ms_timeline_view_get_zoomed (view));
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
  g_assert_false (ms_timeline_view_get_zoomed (view));
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
  GtkWidget *view = ms_timeline_view_new ();
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
  const MsResults *run = g_ptr_array_index (runs, 0);
  const MsCell *cell = ms_results_find (run, MS_MODE_STREAMS, 20);
  g_assert_nonnull (cell);
  MsTimelineView *view = MS_TIMELINE_VIEW (ms_timeline_view_new ());
  ms_timeline_view_set_cell (view, run, cell, 1, "streams");
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

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/timeline-view/cell-and-zoom", test_cell_and_zoom);
  g_test_add_func ("/timeline-view/opens-on-movement", test_opens_on_movement);
  g_test_add_func ("/timeline-view/tooltip-truthful", test_tooltip_truthful);
  g_test_add_func ("/timeline-view/no-cell", test_no_cell);
  g_test_add_func ("/timeline-view/run-closed-while-shown", test_run_closed_while_shown);
  return g_test_run ();
}
