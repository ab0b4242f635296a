/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-lesson-views.c: MsReuseView and MsTimelineStack: their
 * properties, notifications and drawing. */
#include "ms-lessons-page.h"
#include "ms-reuse-view.h"
#include "ms-timeline-stack.h"
#include "ms-widget-test.h"

static void
add_cell (MsResults *r, MsMode mode, int exp, const char *variant, double e2e_us)
{
  double times[6];
  for (int i = 0; i < 6; i++)
    times[i] = e2e_us * (1 + 0.01 * i);
  MsCell c = { .mode = mode, .exponent = exp, .elements = 1ull << exp, .n_reps = 6,
               .e2e_us = times, .status = MS_CELL_OK };
  g_snprintf (c.variant, sizeof c.variant, "%s", variant);
  ms_cell_compute_stats (&c);
  g_assert_true (ms_results_add_cell (r, &c));
}

static void
test_reuse_view (void)
{
  MsSweep s;
  ms_sweep_init_default (&s);
  MsResults *r = ms_results_new (&s, &(MsDeviceInfo){ 0 });
  for (int reuse = 1; reuse <= 16; reuse *= 2) {
    char v[16];
    g_snprintf (v, sizeof v, "R=%d", reuse);
    add_cell (r, MS_MODE_PINNED, 20, v, 500);
    add_cell (r, MS_MODE_ZERO_COPY, 20, v, 100.0 * reuse);
    add_cell (r, MS_MODE_ZERO_COPY, 18, v, 30.0 * reuse);
  }
  MsRun *run = ms_run_new (r, MS_RUN_KIND_LESSON);
  GtkWidget *view = ms_reuse_view_new ();
  guint time_n, exponent_n;
  ms_test_watch (view, "time", &time_n);
  ms_test_watch (view, "exponent", &exponent_n);
  ms_reuse_view_set_run (MS_REUSE_VIEW (view), run);
  g_object_unref (run); /* the view keeps its own reference */
  g_assert_cmpint (ms_reuse_view_get_shown_exponent (MS_REUSE_VIEW (view)), ==, 20);
  GtkWindow *window = ms_test_show (view, 900, 600);
  guint with_data = ms_test_ink (view);
  g_assert_cmpuint (with_data, >, 20);
  g_object_set (view, "time", FALSE, "exponent", 18, NULL);
  g_object_set (view, "time", FALSE, NULL);
  g_assert_cmpuint (time_n, ==, 1);
  g_assert_cmpuint (exponent_n, ==, 1);
  g_assert_cmpint (ms_reuse_view_get_shown_exponent (MS_REUSE_VIEW (view)), ==, 18);
  g_assert_cmpuint (ms_test_ink (view), >, 20);
  /* No R cells at that size: the empty text only. */
  g_object_set (view, "exponent", 12, NULL);
  g_assert_cmpuint (ms_test_ink (view), <, with_data / 2);
  ms_reuse_view_set_run (MS_REUSE_VIEW (view), NULL);
  g_assert_null (ms_reuse_view_get_run (MS_REUSE_VIEW (view)));
  ms_test_destroy (window, view);
}

static void
test_timeline_stack (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  const MsResults *r = ms_run_get_results (g_ptr_array_index (runs, 0));
  GtkWidget *stack = ms_timeline_stack_new ();
  MsTimelineStack *st = MS_TIMELINE_STACK (stack);
  guint rows_n, setup_n;
  ms_test_watch (stack, "n-rows", &rows_n);
  ms_test_watch (stack, "show-setup", &setup_n);
  GtkWindow *window = ms_test_show (stack, 900, 600);
  guint empty = ms_test_ink (stack);
  g_assert_true (ms_timeline_stack_add (st, ms_results_find (r, MS_MODE_PAGEABLE, 20), 1, "a"));
  g_assert_true (ms_timeline_stack_add (st, ms_results_find (r, MS_MODE_PINNED, 20), 1, "b"));
  g_assert_cmpint (ms_timeline_stack_get_n_rows (st), ==, 2);
  g_assert_cmpuint (rows_n, ==, 2);
  double t0, t1, all0, all1;
  ms_timeline_stack_get_window (st, &t0, &t1);
  g_assert_cmpfloat (t0, >, 0); /* init collapsed */
  g_assert_cmpuint (ms_test_ink (stack), >, empty + 20);
  g_object_set (stack, "show-setup", TRUE, NULL);
  g_assert_cmpuint (setup_n, ==, 1);
  ms_timeline_stack_get_window (st, &all0, &all1);
  g_assert_cmpfloat (all0, ==, 0);
  g_assert_cmpfloat (all1, >, t1);
  ms_timeline_stack_clear (st);
  g_assert_cmpint (ms_timeline_stack_get_n_rows (st), ==, 0);
  g_assert_cmpuint (rows_n, ==, 3);
  ms_test_destroy (window, stack);
}

static guint
count_cards (GtkWidget *root, gboolean visible_only)
{
  guint n = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (gtk_widget_has_css_class (c, "card") && (!visible_only || gtk_widget_get_visible (c)))
      n++;
    n += count_cards (c, visible_only);
  }
  return n;
}

static guint
built_topics (void)
{
  guint n = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    n += ms_lesson_topic_built (t);
  return n;
}

static gboolean
all_cards_shown (gpointer page)
{
  return count_cards (page, TRUE) == built_topics ();
}

/* The lesson cards come a few a frame once the page is shown, so that no
 * frame measures all their texts; all of them in the end. */
static void
test_lesson_cards_in_steps (void)
{
  GtkWidget *page = ms_lessons_page_new ();
  g_assert_cmpuint (count_cards (page, FALSE), ==, MS_TOPIC_COUNT);
  guint before = count_cards (page, TRUE);
  g_assert_cmpuint (before, >, 0);
  g_assert_cmpuint (before, <, built_topics ());
  GtkWindow *window = ms_test_show (page, 1200, 800);
  ms_test_wait_until (all_cards_shown, page, "every lesson card is shown");
  ms_test_destroy (window, page);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/lesson-views/reuse-view", test_reuse_view);
  g_test_add_func ("/lesson-views/timeline-stack", test_timeline_stack);
  g_test_add_func ("/lesson-views/lesson-cards-in-steps", test_lesson_cards_in_steps);
  return g_test_run ();
}
