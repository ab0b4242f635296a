/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app-lessons.c: every lesson card opened from reference runs, as
 * without a GPU: the bundled data/reference/lesson-* files where present,
 * tiny reference-like files made with the test backend otherwise. Each
 * card's caption must say something with numbers, and the view beside the
 * cards must show the lesson. A card without a reference run says why; the
 * window's runs caption the cards a plain sweep answers. With
 * MEMSWEEP_LESSONS_SHOT=DIR the page is also saved as PNGs. */
#include <adwaita.h>
#include <glib/gstdio.h>

#include "ms-application.h"
#include "ms-backend-test.h"
#include "ms-chart-page.h"
#include "ms-lesson-picture.h"
#include "ms-lessons-page.h"
#include "ms-run.h"
#include "ms-timeline-page.h"
#include "ms-app-test.h"
#include "ms-reference-runs.h"
#include "ms-window.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "lessons/ms-lesson-run.h"
#include "model/ms-results.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"
#include "lessons/ms-run-read.h"
#include "ms-plot-view.h"
#include "ms-host-link-test.h"

static const char *refdir;
static char *bundled; /* data/reference */

static void
write_run (MsResults *r, const char *topic)
{
  char err[256];
  g_autofree char *name = g_strdup_printf ("lesson-%s-samples.csv", topic);
  g_autofree char *path = g_build_filename (refdir, name, NULL);
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  g_autofree char *summary = g_build_filename (refdir, "summary.csv", NULL);
  g_remove (summary);
}

/* A reference-like run of topic on the test backend. */
static void
make_reference (MsLessonTopic t)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (t);
  MsSweep s;
  char err[256] = "";
  ms_test_sweep_init (&s, info->experiment[0] ? NULL : info->modes, 16, 18, 3);
  s.step = 2;
  s.warmup = 0;
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = NULL;
  if (info->experiment[0]) {
    g_assert_cmpint (ms_lesson_run (info->experiment, &s, b, NULL, NULL, NULL, NULL, NULL, &r,
                                    err, sizeof err), ==, MS_RUN_OK);
  } else {
    g_assert_cmpint (ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err), ==, MS_RUN_OK);
  }
  g_snprintf (r->device.name, sizeof r->device.name, "Test GPU");
  write_run (r, info->name);
  ms_results_free (r);
  ms_backend_free (b);
}

/* The bundled lesson files, or ones made here, in a folder of our own. */
static void
prepare_references (void)
{
  bundled = g_strdup (g_getenv ("MEMSWEEP_REFERENCE_DIR"));
  g_assert_nonnull (bundled);
  refdir = ms_test_tmp_folder ("references");
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic (t);
    if (!ms_lesson_topic_built (t))
      continue;
    const char *names[] = { info->name, info->experiment };
    gboolean found = FALSE;
    for (guint i = 0; i < G_N_ELEMENTS (names) && !found && names[i][0]; i++) {
      g_autofree char *file = g_strdup_printf ("lesson-%s-samples.csv", names[i]);
      g_autofree char *src = g_build_filename (bundled, file, NULL);
      g_autofree char *contents = NULL;
      gsize len;
      if (g_file_get_contents (src, &contents, &len, NULL)) {
        g_autofree char *dst = g_build_filename (refdir, file, NULL);
        g_assert_true (g_file_set_contents (dst, contents, len, NULL));
        found = TRUE;
      }
    }
    if (!found)
      make_reference (t);
  }
  g_setenv ("MEMSWEEP_REFERENCE_DIR", refdir, TRUE);
  g_assert_cmpstr (ms_reference_dir (), ==, refdir);
}

static void
wait_idle (MsLessonsPage *page)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (ms_lessons_page_is_busy (page) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (ms_lessons_page_is_busy (page));
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
save_shot (GtkWidget *window, const char *name)
{
  const char *dir = g_getenv ("MEMSWEEP_LESSONS_SHOT");
  if (!dir)
    return;
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  GdkPaintable *paintable = gtk_widget_paintable_new (window);
  int w = gtk_widget_get_width (window), h = gtk_widget_get_height (window);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  if (node && renderer) {
    g_autoptr (GdkTexture) texture =
      gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
    g_autofree char *path = g_build_filename (dir, name, NULL);
    gdk_texture_save_to_png (texture, path);
  }
  g_object_unref (paintable);
}

static void
count (guint *counter)
{
  (*counter)++;
}

static gboolean
has_digit (const char *text)
{
  return text && strpbrk (text, "0123456789") != NULL;
}

static void
check_card (MsLessonsPage *page, MsLessonTopic t)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (t);
  ms_lessons_page_activate (page, t);
  wait_idle (page);
  const char *caption = ms_lessons_page_get_caption (page, t);
  const MsResults *run = ms_lessons_page_get_run (page, t);
  g_test_message ("%s: %s", info->name, caption);
  g_assert_nonnull (run);
  g_assert_true (ms_lesson_topic_matches (t, run));
  g_assert_true (caption && caption[0]);
  /* On one NUMA node (this machine, and the reference GPUs) the NUMA card
   * explains why there is nothing to measure: no figure to state. */
  if (t != MS_TOPIC_NUMA)
    g_assert_true (has_digit (caption));
  /* The card states the effect: the run has what the caption needs. */
  char buf[MS_LESSON_CAPTION_MAX];
  gboolean stated = ms_lesson_caption (t, run, -1, buf, sizeof buf);
  g_assert_true (stated || t == MS_TOPIC_NUMA);
  g_assert_cmpstr (buf, ==, caption);
  g_autofree char *shown = NULL;
  g_object_get (page, "shown-topic", &shown, NULL);
  g_assert_cmpstr (shown, ==, info->name);
  /* A probe lesson draws its own picture of the card's run. */
  if (ms_lesson_picture_has (t)) {
    g_autoptr (MsRun) pictured = NULL;
    g_object_get (ms_test_child (page, "picture_view"), "run", &pictured, NULL);
    g_assert_nonnull (pictured);
    g_assert_true (ms_run_get_results (pictured) == run);
    return;
  }
  /* The portable flag on one GPU: the pinned copy alone. */
  if (t != MS_TOPIC_COSTS && t != MS_TOPIC_REUSE)
    g_assert_cmpint (ms_timeline_stack_get_n_rows (ms_test_child (page, "timeline_stack")), >=,
                     t == MS_TOPIC_PORTABLE ? 1 : 2);
  if (t == MS_TOPIC_PORTABLE)
    g_assert_nonnull (strstr (caption, "cudaHostAllocPortable changes nothing here"));
  if (t == MS_TOPIC_REUSE)
    g_assert_true (ms_reuse_view_get_run (ms_test_child (page, "reuse_view")) == run);
}

static void
test_cards_from_references (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gtk_window_present (GTK_WINDOW (window));
  guint added = 0, views = 0;
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  ms_page_set_session (MS_PAGE (page), session);
  g_signal_connect_swapped (ms_session_get_runs (session), "items-changed", G_CALLBACK (count),
                            &added);
  g_signal_connect_swapped (page, "show-view", G_CALLBACK (count), &views);
  guint built = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    if (!ms_lesson_topic_built (t))
      continue;
    built++;
    check_card (MS_LESSONS_PAGE (page), t);
    g_autofree char *name = g_strdup_printf ("lessons-%s.png", ms_lesson_topic (t)->name);
    save_shot (window, name);
  }
  g_assert_cmpuint (added, ==, built);
  g_assert_cmpuint (views, ==, 0); /* Show stays on the lessons page, the costs too */
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_missing_reference (void)
{
  g_autofree char *path = g_build_filename (refdir, "lesson-duplex-samples.csv", NULL);
  g_assert_cmpint (g_remove (path), ==, 0);
  GtkWidget *page = g_object_ref_sink (g_object_new (MS_TYPE_LESSONS_PAGE, NULL));
  ms_lessons_page_activate (MS_LESSONS_PAGE (page), MS_TOPIC_DUPLEX);
  wait_idle (MS_LESSONS_PAGE (page));
  const char *caption = ms_lessons_page_get_caption (MS_LESSONS_PAGE (page), MS_TOPIC_DUPLEX);
  g_assert_nonnull (strstr (caption, "lesson-duplex-samples.csv"));
  g_assert_null (ms_lessons_page_get_run (MS_LESSONS_PAGE (page), MS_TOPIC_DUPLEX));
  g_object_unref (page);
}

/* The session's runs: a plain sweep captions pinned against pageable; the
 * page follows the session as runs come and go. */
static void
test_window_runs (void)
{
  char err[256];
  g_autofree char *path = g_build_filename (bundled, "h100-default-samples.csv.gz", NULL);
  MsResults *results = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (results);
  g_autoptr (MsRun) r = ms_run_new (results, MS_RUN_KIND_REFERENCE);
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  g_assert_true (ms_session_add_run (session, r));
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = g_object_ref (g_object_new (MS_TYPE_LESSONS_PAGE, NULL));
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_window_present (GTK_WINDOW (window));
  ms_page_set_session (MS_PAGE (page), session);
  ms_lessons_page_show (MS_LESSONS_PAGE (page), MS_TOPIC_PINNED_PAGEABLE);
  g_assert_cmpint (ms_timeline_stack_get_n_rows (ms_test_child (page, "timeline_stack")), ==, 2);
  save_shot (window, "lessons-1024-h100.png");
  const char *caption = ms_lessons_page_get_caption (MS_LESSONS_PAGE (page),
                                                     MS_TOPIC_PINNED_PAGEABLE);
  g_assert_nonnull (strstr (caption, "pinned copies are"));
  g_assert_true (has_digit (caption));
  g_assert_true (ms_lessons_page_get_run (MS_LESSONS_PAGE (page), MS_TOPIC_REUSE) == NULL);
  ms_session_clear_runs (session);
  g_assert_null (ms_lessons_page_get_run (MS_LESSONS_PAGE (page), MS_TOPIC_PINNED_PAGEABLE));
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (page);
}

/* ---- each slide from its lesson's own run ---------------------------------- */

/* Whether the bundled reference folder holds a run of the lesson's own
 * experiment (on any GPU). */
static gboolean
bundled_has_own (MsLessonTopic t)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (t);
  if (!info->experiment[0])
    return FALSE;
  g_autofree char *tail = g_strdup_printf ("-lesson-%s-samples.csv", info->experiment);
  g_autofree char *tail_gz = g_strconcat (tail, ".gz", NULL);
  g_autoptr (GDir) d = g_dir_open (bundled, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, tail) || g_str_has_suffix (name, tail_gz))
      return TRUE;
  return FALSE;
}

/* Steps through every lesson as PgDn does, asserting that each slide that
 * has a run of its own shows it and that every slide shows a run: a
 * lesson this host cannot measure is a slide too, marked (issue 84: the
 * numa lesson was passed over with no sign of it). */
static void
step_all_lessons (MsLessonsPage *page)
{
  guint stepped = 0, own = 0;
  while (stepped <= MS_TOPIC_COUNT && ms_lessons_page_step (page, 1)) {
    wait_idle (page);
    g_autofree char *shown = NULL;
    g_object_get (page, "shown-topic", &shown, NULL);
    MsLessonTopic t = ms_lesson_topic_from_name (shown);
    const MsResults *run = ms_lessons_page_get_run (page, t);
    g_test_message ("%s: %s", shown, run ? run->experiment : "(none)");
    g_assert_nonnull (run);
    if (bundled_has_own (t)) {
      g_assert_cmpstr (run->experiment, ==, ms_lesson_topic (t)->experiment);
      own++;
    }
    stepped++;
  }
  g_assert_cmpuint (stepped, ==, MS_TOPIC_COUNT);
  g_assert_cmpuint (own, >=, 16);
}

/* Every reference run open (as memsweep-gtk given every file of data/reference): the
 * default sweeps answer managed-touch too, yet its slide is its own run's. */
static void
test_all_open_own_runs (void)
{
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  g_autoptr (GDir) d = g_dir_open (bundled, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, "-samples.csv") || g_str_has_suffix (name, "-samples.csv.gz"))
      g_ptr_array_add (names, g_strdup (name));
  /* The default sweeps first, as a shell's glob would give them. */
  g_ptr_array_sort (names, ms_compare_names);
  g_assert_cmpuint (names->len, >=, 40);
  for (guint i = 0; i < names->len; i++) {
    char err[256];
    g_autofree char *path = g_build_filename (bundled, names->pdata[i], NULL);
    MsResults *r = ms_csv_read_samples (path, err, sizeof err);
    g_assert_nonnull (r);
    g_autoptr (MsRun) run = ms_run_new (r, MS_RUN_KIND_REFERENCE);
    ms_run_set_source_file (run, path);
    g_assert_true (ms_session_add_run (session, run));
  }
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_window_present (GTK_WINDOW (window));
  ms_page_set_session (MS_PAGE (page), session);
  step_all_lessons (MS_LESSONS_PAGE (page));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* No run open, a default sweep among the reference runs: stepping opens
 * each lesson's own reference run, not the sweep that an earlier lesson
 * opened and that answers this one too. */
static void
test_none_open_own_runs (void)
{
  g_autofree char *src = g_build_filename (bundled, "h100-default-samples.csv.gz", NULL);
  g_autofree char *dst = g_build_filename (refdir, "h100-default-samples.csv.gz", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (dst, contents, len, NULL));
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_present (GTK_WINDOW (window));
  ms_page_set_session (MS_PAGE (page), session);
  step_all_lessons (MS_LESSONS_PAGE (page));
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_remove (dst), ==, 0);
}

/* ---- the cards beside the lesson ------------------------------------------- */

typedef struct {
  GtkWidget *cards; /* the cards' scrolled window */
  GtkWidget *title; /* a card's title */
} CardInView;

/* The card's title lies inside the scrolled window's visible part. */
static gboolean
card_in_view (gpointer data)
{
  CardInView *v = data;
  graphene_rect_t r;
  if (!gtk_widget_get_mapped (v->cards) || !gtk_widget_get_mapped (v->title)
      || !gtk_widget_compute_bounds (v->title, v->cards, &r))
    return FALSE;
  return r.origin.y >= 0 && r.origin.y + r.size.height <= gtk_widget_get_height (v->cards);
}

static gboolean
cards_hidden (gpointer cards)
{
  return !gtk_widget_get_mapped (cards);
}

/* A lesson opened from elsewhere brings its card into view; in
 * presentation mode the cards fold away and come back on that card; a
 * card says where its answer comes from in a line, not the caption. */
static void
test_card_in_view (void)
{
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = g_object_ref (g_object_new (MS_TYPE_LESSONS_PAGE, NULL));
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_window_present (GTK_WINDOW (window));
  ms_page_set_session (MS_PAGE (page), session);
  MsLessonsPage *lessons = MS_LESSONS_PAGE (page);
  /* The last lesson's card lies far below the window's edge. */
  MsLessonTopic last = MS_TOPIC_COUNT - 1;
  while (!ms_lesson_topic_built (last))
    last--;
  CardInView v = { ms_test_find (page, GTK_TYPE_SCROLLED_WINDOW, NULL),
                   ms_test_find_label (page, ms_lesson_topic (last)->title) };
  g_assert_nonnull (v.title);
  g_assert_true (ms_lessons_page_get_list_shown (lessons));
  ms_lessons_page_activate (lessons, last);
  wait_idle (lessons);
  ms_test_wait_until (card_in_view, &v, "the card of the lesson opened comes into view");
  /* The caption is beside the cards, not on the card too. */
  const char *caption = ms_lessons_page_get_caption (lessons, last);
  g_assert_null (ms_test_find_label (v.cards, caption));
  g_assert_nonnull (ms_test_find_label (page, "Not opened yet"));
  g_assert_null (ms_test_find_label (v.cards, "Not opened yet: without a GPU, Open Reference Run (or "
                                       "Show) opens the run measured for this lesson on a "
                                       "reference GPU."));
  /* In front of a class the lesson takes the page... */
  g_object_set (page, "presentation", TRUE, NULL);
  g_assert_false (ms_lessons_page_get_list_shown (lessons));
  ms_test_wait_until (cards_hidden, v.cards, "the cards fold away");
  /* ...and another lesson opened keeps it so; the cards come back on its card. */
  ms_lessons_page_show (lessons, MS_TOPIC_PINNED_PAGEABLE);
  g_assert_false (ms_lessons_page_get_list_shown (lessons));
  ms_lessons_page_show (lessons, last);
  ms_lessons_page_set_list_shown (lessons, TRUE);
  ms_test_wait_until (card_in_view, &v, "the cards come back on the lesson's card");
  /* Folding is there outside presentation mode too. */
  g_object_set (page, "presentation", FALSE, NULL);
  g_object_set (page, "list-shown", FALSE, NULL);
  ms_test_wait_until (cards_hidden, v.cards, "the cards fold away outside presentation mode");
  g_object_set (page, "list-shown", TRUE, NULL);
  ms_test_wait_until (card_in_view, &v, "the cards come back");
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (page);
}

/* ---- the window's views and --lesson --------------------------------------- */

static MsChartPage *
chart_page_with_modes (GtkWidget *root, const char *modes)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (MS_IS_CHART_PAGE (c)) {
      g_autofree char *m = NULL;
      g_object_get (c, "modes", &m, NULL);
      if (g_strcmp0 (m, modes) == 0)
        return MS_CHART_PAGE (c);
    }
    MsChartPage *found = chart_page_with_modes (c, modes);
    if (found)
      return found;
  }
  return NULL;
}

static gboolean
discovery_ended (gpointer session)
{
  return !ms_session_get_discovering (session);
}

static gboolean
is_not_busy (gpointer page)
{
  return !ms_lessons_page_is_busy (page);
}

/* The card was shown (after device discovery) and its Run has ended. */
static gboolean
register_card_done (gpointer page)
{
  g_autofree char *shown = NULL;
  g_object_get (page, "shown-topic", &shown, NULL);
  return g_strcmp0 (shown, "register-allocate") == 0 && !ms_lessons_page_is_busy (page);
}

/* Open in the Bandwidth View: the window's chart shows the lesson's series
 * and scale (and says so), the timeline the cell of the caption. */
static void
on_activate_view (GApplication *app)
{
  MsWindow *win = MS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  MsLessonsPage *page =
    MS_LESSONS_PAGE (ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL));
  /* A sweep of every mode beside the lesson's run. */
  g_autofree char *path = g_build_filename (bundled, "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, path, NULL));
  g_assert_false (ms_window_open_lesson (win, "no-such-lesson", FALSE));
  g_assert_true (ms_window_open_lesson (win, "register-allocate", TRUE));
  ms_test_wait_until (register_card_done, page, "the register card has run");
  g_assert_true (ms_lessons_page_get_run (page, MS_TOPIC_REGISTER) !=
                 ms_test_window_run (win, 0)); /* its own run, not the sweep's */
  g_assert_true (ms_lessons_page_open_view (page));
  g_assert_cmpint (ms_window_get_view (win), ==, MS_VIEW_BANDWIDTH);
  MsChartPage *chart = chart_page_with_modes (GTK_WIDGET (win), "registered,pinned");
  g_assert_nonnull (chart);
  int metric;
  gboolean log_scale;
  g_object_get (chart, "metric", &metric, "log-scale", &log_scale, NULL);
  g_assert_cmpint (metric, ==, MS_METRIC_H2D_BANDWIDTH);
  g_assert_true (log_scale);
  /* Registered and pinned of both runs. */
  const MsChartData *data = ms_plot_view_get_data (ms_chart_page_get_view (chart));
  g_assert_cmpuint (data->series->len, ==, 4);
  GtkWidget *timeline = ms_test_find (GTK_WIDGET (win), MS_TYPE_TIMELINE_PAGE, NULL);
  int mode, exponent;
  g_object_get (timeline, "mode", &mode, "exponent", &exponent, NULL);
  g_assert_cmpint (mode, ==, MS_MODE_PINNED);
  g_assert_cmpint (exponent, ==,
                   ms_lesson_answer_exponent (MS_TOPIC_REGISTER,
                                              ms_lessons_page_get_run (page, MS_TOPIC_REGISTER)));
  g_assert_cmpint (exponent, >=, 0);
  /* Leaving the lesson: Show All gives the chart every series back. */
  GtkWidget *show_all = ms_test_find (GTK_WIDGET (chart), GTK_TYPE_BUTTON, "Show _All");
  g_signal_emit_by_name (show_all, "clicked");
  g_assert_null (ms_plot_view_get_modes (ms_chart_page_get_view (chart)));
  g_assert_cmpuint (ms_plot_view_get_data (ms_chart_page_get_view (chart))->series->len, >, 4);
  gtk_window_close (GTK_WINDOW (win));
}

static void
test_window_view (void)
{
  g_autoptr (MsApplication) app = ms_test_app_new (on_activate_view);
  char *args[] = { "memsweep-gtk", NULL };
  g_assert_cmpint (ms_test_app_run (app, args), ==, 0);
}

/* A card asked to run before discovery ended (--lesson NAME --run) must
 * measure once a GPU is found, not open the reference run: the page has
 * to know the GPU by the time the session says discovery is over. */
static void
on_activate_discovery (GApplication *app)
{
  MsWindow *win = MS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  MsLessonsPage *page =
    MS_LESSONS_PAGE (ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL));
  MsSession *session = (MsSession *) ms_test_get_pointer (win, "session");
  ms_test_wait_until (discovery_ended, session, "device discovery ends");
  ms_session_set_devices (session, NULL); /* discovering again */
  g_assert_true (ms_window_open_lesson (win, "pinned-pageable", TRUE));
  g_assert_false (ms_lessons_page_is_busy (page)); /* waits for discovery */
  g_autoptr (GArray) devices = g_array_new (FALSE, TRUE, sizeof (MsDeviceInfo));
  MsDeviceInfo gpu = { .present = true, .count = 1, .name = "Test GPU" };
  g_array_append_val (devices, gpu);
  ms_session_set_devices (session, devices);
  gboolean can_run = FALSE;
  g_object_get (page, "can-run", &can_run, NULL);
  g_assert_true (can_run);
  g_assert_true (ms_lessons_page_is_busy (page));
  g_assert_cmpstr (ms_lessons_page_get_caption (page, MS_TOPIC_PINNED_PAGEABLE), ==, "Measuring…");
  /* Without a real GPU the measurement fails quickly; let it end. */
  ms_test_wait_until (is_not_busy, page, "the card's run ends");
  gtk_window_close (GTK_WINDOW (win));
}

/* In a process of its own: an application names itself once per process. */
static void
test_discovery_then_run (void)
{
  if (g_test_subprocess ()) {
    g_autoptr (MsApplication) app = ms_test_app_new (on_activate_discovery);
    char *args[] = { "memsweep-gtk", NULL };
    exit (ms_test_app_run (app, args));
  }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* memsweep-gtk --lesson NAME --run with the probe (-Dprofiling=true): one
 * line on stdout when the card's run ends, then the application quits by
 * itself. Here, without
 * a GPU, Run opens the reference run; on a GPU it measures. */
static void
test_command_line (void)
{
#ifndef MS_PROFILING
  g_test_skip ("the lesson line is the profiling probe's: build with -Dprofiling=true");
  return;
#endif
  if (g_test_subprocess ()) {
    g_setenv ("MEMSWEEP_PROBE", "1", TRUE);
    g_setenv ("MEMSWEEP_QUIT_AFTER_LESSON", "1", TRUE);
    g_autoptr (MsApplication) app = ms_test_app_new (NULL);
    char *args[] = { "memsweep-gtk", "--lesson", "pinned-pageable", "--run", NULL };
    exit (ms_test_app_run (app, args));
  }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*lesson pinned-pageable: done (* on *, *), caption: On this *, pinned copies are "
                             "* than pageable at *\n*");
}

/* An unknown name is refused before any window, naming the lessons. */
static void
test_command_line_unknown (void)
{
  if (g_test_subprocess ()) {
    g_autoptr (MsApplication) app = ms_test_app_new (NULL);
    char *args[] = { "memsweep-gtk", "--lesson", "no-such-lesson", NULL };
    exit (ms_test_app_run (app, args));
  }
  g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*no-such-lesson*pinned-pageable*portable*");
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  ms_test_host_link_run ();
  adw_init ();
  /* The application registers the resources once for every application of
   * the tests (registering them twice loops GIO's list of them). */
  g_object_unref (ms_application_new ());
  prepare_references ();
  g_test_add_func ("/lessons/cards-from-references", test_cards_from_references);
  g_test_add_func ("/lessons/all-open-own-runs", test_all_open_own_runs);
  g_test_add_func ("/lessons/none-open-own-runs", test_none_open_own_runs);
  g_test_add_func ("/lessons/missing-reference", test_missing_reference);
  g_test_add_func ("/lessons/window-runs", test_window_runs);
  g_test_add_func ("/lessons/card-in-view", test_card_in_view);
  g_test_add_func ("/lessons/window-view", test_window_view);
  g_test_add_func ("/lessons/discovery-then-run", test_discovery_then_run);
  g_test_add_func ("/lessons/command-line", test_command_line);
  g_test_add_func ("/lessons/command-line-unknown", test_command_line_unknown);
  int status = g_test_run ();
  g_free (bundled);
  return status;
}
