/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-page-export.c: what Export Chart writes of each page
 * (MsPage's drawing): the drawing each page shows, by kind and title, or
 * why it has none; the Lessons page's run shown, which Export Handout
 * follows, and its PgUp/PgDn. */
#include "ms-chart-page.h"
#include "ms-compare-page.h"
#include "ms-devices-page.h"
#include "ms-lessons-page.h"
#include "ms-table-page.h"
#include "ms-timeline-page.h"
#include "ms-tmp-test.h"
#include "ms-widget-test.h"

/* The page's drawing, drawn once at 800x600; its kind. */
static const char *
drawing_kind (GtkWidget *page, char **title)
{
  g_auto (MsPageDrawing) drawing = { NULL };
  g_autofree char *why = NULL;
  if (!ms_page_get_drawing (MS_PAGE (page), &drawing, &why)) {
    g_assert_nonnull (why);
    return NULL;
  }
  g_assert_null (why);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 600);
  cairo_t *cr = cairo_create (s);
  MsChartStyle style;
  ms_chart_style_init_light (&style);
  drawing.draw (MS_PAGE (page), cr, &style, 800, 600);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  *title = g_strdup (drawing.title);
  return drawing.kind;
}

static GPtrArray *
one_run (const char *file, const char *name)
{
  GPtrArray *runs = ms_run_array_new ();
  g_ptr_array_add (runs, ms_test_read_run (file, name));
  return runs;
}

/* The lesson shown: its picture (not the other runs' bandwidth chart),
 * titled with the lesson; the reuse lesson its chart; none shown: none. */
static void
test_lessons_page (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_autofree char *title = NULL;
  g_assert_null (drawing_kind (page, &title));
  g_autoptr (GPtrArray) runs = one_run ("h100-lesson-concurrent-samples.csv.gz", "concurrent");
  g_ptr_array_add (runs, ms_test_read_run ("h100-lesson-reuse-samples.csv.gz", "reuse"));
  g_ptr_array_add (runs, ms_test_read_run ("h100-default-samples.csv.gz", "default"));
  ms_page_show_runs (MS_PAGE (page), runs);
  ms_lessons_page_show (MS_LESSONS_PAGE (page), MS_TOPIC_CONCURRENT);
  g_assert_cmpstr (drawing_kind (page, &title), ==, "lesson-picture");
  g_assert_cmpstr (title, ==, ms_lesson_topic (MS_TOPIC_CONCURRENT)->title);
  g_clear_pointer (&title, g_free);
  ms_lessons_page_show (MS_LESSONS_PAGE (page), MS_TOPIC_REUSE);
  g_assert_cmpstr (drawing_kind (page, &title), ==, "lesson-reuse");
  ms_test_destroy (window, page);
}

static gboolean
has_key (GtkWidget *page, guint keyval)
{
  for (guint i = 0;; i++) {
    g_autoptr (GObject) c = g_list_model_get_item (gtk_widget_observe_controllers (page), i);
    if (!c)
      return FALSE;
    if (!GTK_IS_SHORTCUT_CONTROLLER (c))
      continue;
    for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++) {
      g_autoptr (GtkShortcut) s = g_list_model_get_item (G_LIST_MODEL (c), k);
      GtkShortcutTrigger *t = gtk_shortcut_get_trigger (s);
      if (GTK_IS_KEYVAL_TRIGGER (t) &&
          gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (t)) == keyval)
        return TRUE;
    }
  }
}

static const char *
shown (GtkWidget *page)
{
  static char name[64];
  g_autofree char *topic = NULL;
  g_object_get (page, "shown-topic", &topic, NULL);
  g_snprintf (name, sizeof name, "%s", topic ? topic : "");
  return name;
}

static void
count_notify (GObject *object, GParamSpec *pspec, int *count)
{
  (*count)++;
}

/* Export Handout follows "shown-run": the run of the lesson shown, NULL
 * with no lesson shown or a lesson shown without a run; notified when it
 * changes. */
static void
test_lessons_page_shown_run (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  int notified = 0;
  g_signal_connect (page, "notify::shown-run", G_CALLBACK (count_notify), &notified);
  g_assert_null (ms_lessons_page_get_shown_run (MS_LESSONS_PAGE (page)));
  g_autoptr (GPtrArray) runs = one_run ("h100-lesson-duplex-samples.csv.gz", "duplex");
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_null (ms_lessons_page_get_shown_run (MS_LESSONS_PAGE (page)));
  ms_lessons_page_show (MS_LESSONS_PAGE (page), MS_TOPIC_DUPLEX);
  g_autoptr (MsRun) run = NULL;
  g_object_get (page, "shown-run", &run, NULL);
  g_assert_true (run == g_ptr_array_index (runs, 0));
  g_assert_cmpint (notified, ==, 1);
  /* A lesson without a run: nothing to hand out. */
  ms_lessons_page_show (MS_LESSONS_PAGE (page), MS_TOPIC_CONCURRENT);
  g_assert_null (ms_lessons_page_get_shown_run (MS_LESSONS_PAGE (page)));
  g_assert_cmpint (notified, ==, 2);
  ms_test_destroy (window, page);
}

/* PgDn and PgUp (a clicker's keys) step to the next and previous lesson
 * built, from the first; past either end they do nothing. */
static void
test_lesson_stepping (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_object_set (page, "can-run", TRUE, NULL);
  g_assert_true (has_key (page, GDK_KEY_Page_Down));
  g_assert_true (has_key (page, GDK_KEY_Page_Up));
  int first = 0, second = 1;
  while (!ms_lesson_topic_built (first))
    first++;
  second = first + 1;
  while (!ms_lesson_topic_built (second))
    second++;
  g_assert_false (ms_lessons_page_step (MS_LESSONS_PAGE (page), -1) &&
                  g_str_equal (shown (page), ""));
  ms_lessons_page_show (MS_LESSONS_PAGE (page), first);
  g_assert_true (ms_lessons_page_step (MS_LESSONS_PAGE (page), 1));
  g_assert_cmpstr (shown (page), ==, ms_lesson_topic (second)->name);
  g_assert_true (ms_lessons_page_step (MS_LESSONS_PAGE (page), -1));
  g_assert_cmpstr (shown (page), ==, ms_lesson_topic (first)->name);
  g_assert_false (ms_lessons_page_step (MS_LESSONS_PAGE (page), -1));
  g_assert_cmpstr (shown (page), ==, ms_lesson_topic (first)->name);
  ms_test_destroy (window, page);
}

/* The timeline of the run picked, titled with its mode, size and
 * repetition. */
static void
test_timeline_page (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_TIMELINE_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_autofree char *title = NULL;
  g_assert_null (drawing_kind (page, &title));
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  ms_page_show_runs (MS_PAGE (page), runs);
  g_assert_cmpstr (drawing_kind (page, &title), ==, "timeline");
  g_assert_nonnull (strstr (title, "2^"));
  g_assert_nonnull (strstr (title, "repetition 2 of"));
  ms_test_destroy (window, page);
}

/* The chart page: its chart, by metric. */
static void
test_chart_page (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_CHART_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  ms_page_show_runs (MS_PAGE (page), runs);
  g_autofree char *title = NULL;
  g_assert_cmpstr (drawing_kind (page, &title), ==, "bandwidth");
  g_clear_pointer (&title, g_free);
  g_object_set (page, "metric", MS_METRIC_E2E_TIME, NULL);
  g_assert_cmpstr (drawing_kind (page, &title), ==, "time");
  ms_test_destroy (window, page);
}

/* The table has no drawing: the page says so. */
static void
test_table_page (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_TABLE_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_auto (MsPageDrawing) drawing = { NULL };
  g_autofree char *why = NULL;
  g_assert_false (ms_page_get_drawing (MS_PAGE (page), &drawing, &why));
  g_assert_nonnull (strstr (why, "CSV"));
  ms_test_destroy (window, page);
}

/* Whether text opens with what a label under root reads (of at least a
 * line: the verdicts' count, not a lone word). */
static gboolean
opens_with_label (GtkWidget *root, const char *text)
{
  const char *own = GTK_IS_LABEL (root) ? gtk_label_get_text (GTK_LABEL (root)) : NULL;
  if (own && strlen (own) > 20 && g_str_has_prefix (text, own))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    if (opens_with_label (c, text))
      return TRUE;
  return FALSE;
}

/* The Compare page: its chart, and the verdict table beside it, which
 * never replaces a run's file. */
static void
test_compare_page (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_COMPARE_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_autoptr (GPtrArray) runs = one_run ("h100-default-1-samples.csv.gz", "one");
  g_ptr_array_add (runs, ms_test_read_run ("h100-default-2-samples.csv.gz", "two"));
  ms_page_show_runs (MS_PAGE (page), runs);
  g_autofree char *title = NULL;
  g_assert_cmpstr (drawing_kind (page, &title), ==, "compare");
  g_assert_nonnull (strstr (title, "two"));
  g_auto (MsPageDrawing) drawing = { NULL };
  g_autofree char *why = NULL;
  g_assert_true (ms_page_get_drawing (MS_PAGE (page), &drawing, &why));
  /* The caption opens with what the page says under its chart: the
   * verdicts' count first. */
  g_assert_nonnull (drawing.caption);
  g_assert_true (opens_with_label (page, drawing.caption));
  g_autoptr (GError) error = NULL;
  g_autofree char *csv =
    drawing.write_beside (MS_PAGE (page), ms_test_tmp_path ("chart.png"), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (csv, ==, ms_test_tmp_path ("chart-verdicts.csv"));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "mode,exponent,"));
  g_assert_nonnull (strstr (text, ",verdict,"));
  /* Never onto a file holding a run's samples: refused, the run unchanged
   * (the output plan's rules, ms_output_plan_check_file). */
  char err[512];
  const char *run_file = ms_test_tmp_path ("run-verdicts.csv");
  g_assert_true (ms_csv_write_samples (ms_run_get_results (g_ptr_array_index (runs, 0)), run_file,
                                       err, sizeof err));
  g_autofree char *before = NULL, *after = NULL;
  g_assert_true (g_file_get_contents (run_file, &before, NULL, NULL));
  g_autofree char *refused =
    drawing.write_beside (MS_PAGE (page), ms_test_tmp_path ("run.png"), &error);
  g_assert_null (refused);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_true (g_file_get_contents (run_file, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
  ms_test_destroy (window, page);
}

/* The GPUs page: nothing until a heat map is shown, then the heat map. */
static void
test_devices_page (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_DEVICES_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_autofree char *title = NULL;
  g_assert_null (drawing_kind (page, &title));
  g_autofree char *peer =
    g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), "h200x2-peer.csv.gz", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_devices_page_open_path (MS_DEVICES_PAGE (page), peer, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (drawing_kind (page, &title), ==, "matrix");
  g_assert_cmpstr (title, ==,
                   ms_matrix_view_get_data (ms_test_child (page, "matrix_view"))->title);
  ms_test_destroy (window, page);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/page-export/lessons-page", test_lessons_page);
  g_test_add_func ("/page-export/lessons-page-shown-run", test_lessons_page_shown_run);
  g_test_add_func ("/page-export/lesson-stepping", test_lesson_stepping);
  g_test_add_func ("/page-export/timeline-page", test_timeline_page);
  g_test_add_func ("/page-export/chart-page", test_chart_page);
  g_test_add_func ("/page-export/table-page", test_table_page);
  g_test_add_func ("/page-export/compare-page", test_compare_page);
  g_test_add_func ("/page-export/devices-page", test_devices_page);
  return g_test_run ();
}
