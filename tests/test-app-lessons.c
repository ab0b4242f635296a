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

#include "ms-backend-test.h"
#include "ms-lessons-page.h"
#include "ms-run.h"
#include "ms-window.h"

void ms_register_resource (void);

static char *refdir;
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
  ms_sweep_init_default (&s);
  s.min_exp = 16;
  s.max_exp = 18;
  s.step = 2;
  s.reps = 3;
  s.reps_rule = MS_REPS_FIXED;
  s.warmup = 0;
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = NULL;
  if (info->experiment[0]) {
    g_assert_cmpint (ms_lesson_run (info->experiment, &s, b, NULL, NULL, NULL, NULL, NULL, &r,
                                    err, sizeof err), ==, MS_RUN_OK);
  } else {
    g_assert_true (ms_sweep_set_modes (&s, info->modes, err, sizeof err));
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
  refdir = g_dir_make_tmp ("memsweep-lessons-XXXXXX", NULL);
  g_assert_nonnull (refdir);
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic (t);
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
  g_assert_true (has_digit (caption));
  /* The card states the effect: the run has what the caption needs. */
  char buf[1024];
  g_assert_true (ms_lesson_caption (t, run, -1, buf, sizeof buf));
  g_assert_cmpstr (buf, ==, caption);
  g_autofree char *shown = NULL;
  g_object_get (page, "shown-topic", &shown, NULL);
  g_assert_cmpstr (shown, ==, info->name);
  if (t != MS_TOPIC_COSTS && t != MS_TOPIC_REUSE)
    g_assert_cmpint (ms_timeline_stack_get_n_rows (ms_lessons_page_get_timeline_stack (page)), >=,
                     2);
  if (t == MS_TOPIC_REUSE)
    g_assert_true (ms_reuse_view_get_run (ms_lessons_page_get_reuse_view (page)) == run);
}

static void
test_cards_from_references (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = ms_lessons_page_new ();
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gtk_window_present (GTK_WINDOW (window));
  guint added = 0, views = 0;
  g_signal_connect_swapped (page, "run-added", G_CALLBACK (count), &added);
  g_signal_connect_swapped (page, "show-view", G_CALLBACK (count), &views);
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    check_card (MS_LESSONS_PAGE (page), t);
    g_autofree char *name = g_strdup_printf ("lessons-%s.png", ms_lesson_topic (t)->name);
    save_shot (window, name);
  }
  g_assert_cmpuint (added, ==, MS_TOPIC_COUNT);
  g_assert_cmpuint (views, ==, 1); /* the costs, in the window's table */
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_missing_reference (void)
{
  g_autofree char *path = g_build_filename (refdir, "lesson-duplex-samples.csv", NULL);
  g_assert_cmpint (g_remove (path), ==, 0);
  GtkWidget *page = g_object_ref_sink (ms_lessons_page_new ());
  ms_lessons_page_activate (MS_LESSONS_PAGE (page), MS_TOPIC_DUPLEX);
  wait_idle (MS_LESSONS_PAGE (page));
  const char *caption = ms_lessons_page_get_caption (MS_LESSONS_PAGE (page), MS_TOPIC_DUPLEX);
  g_assert_nonnull (strstr (caption, "lesson-duplex-samples.csv"));
  g_assert_null (ms_lessons_page_get_run (MS_LESSONS_PAGE (page), MS_TOPIC_DUPLEX));
  g_object_unref (page);
}

/* The window's runs: a plain sweep captions pinned against pageable. */
static void
test_window_runs (void)
{
  char err[256];
  g_autofree char *path = g_build_filename (bundled, "h100-default-samples.csv", NULL);
  MsResults *r = ms_run_new (ms_csv_read_samples (path, err, sizeof err));
  g_assert_nonnull (r);
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  g_ptr_array_add (runs, r);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = g_object_ref (ms_lessons_page_new ());
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_window_present (GTK_WINDOW (window));
  ms_lessons_page_set_runs (MS_LESSONS_PAGE (page), runs);
  ms_lessons_page_show (MS_LESSONS_PAGE (page), MS_TOPIC_PINNED_PAGEABLE);
  g_assert_cmpint (ms_timeline_stack_get_n_rows (ms_lessons_page_get_timeline_stack (
                     MS_LESSONS_PAGE (page))), ==, 2);
  save_shot (window, "lessons-1024-h100.png");
  const char *caption = ms_lessons_page_get_caption (MS_LESSONS_PAGE (page),
                                                     MS_TOPIC_PINNED_PAGEABLE);
  g_assert_nonnull (strstr (caption, "pinned copies are"));
  g_assert_true (has_digit (caption));
  g_assert_true (ms_lessons_page_get_run (MS_LESSONS_PAGE (page), MS_TOPIC_REUSE) == NULL);
  ms_lessons_page_set_runs (MS_LESSONS_PAGE (page), NULL);
  g_assert_null (ms_lessons_page_get_run (MS_LESSONS_PAGE (page), MS_TOPIC_PINNED_PAGEABLE));
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (page);
}

static void
remove_refdir (void)
{
  g_autoptr (GDir) d = g_dir_open (refdir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d))) {
    g_autofree char *p = g_build_filename (refdir, name, NULL);
    g_remove (p);
  }
  g_rmdir (refdir);
  g_free (refdir);
  g_free (bundled);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  ms_register_resource ();
  prepare_references ();
  g_test_add_func ("/lessons/cards-from-references", test_cards_from_references);
  g_test_add_func ("/lessons/missing-reference", test_missing_reference);
  g_test_add_func ("/lessons/window-runs", test_window_runs);
  int status = g_test_run ();
  remove_refdir ();
  return status;
}
