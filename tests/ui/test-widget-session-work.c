/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-session-work.c: the work MsSession runs, on the test
 * backend: a sweep fills its live run cell by cell while a chart page
 * follows the session, its progress and end are said through properties
 * and a signal, the run is kept in the runs library; one sweep at a time,
 * invalid settings refused with the reason, a stopped sweep keeps what it
 * measured; a lesson's run joins the session. Every object finalised. */
#include <glib/gi18n.h>

#include "ms-backend-test.h"
#include "ms-chart-page.h"
#include "ms-runs-library.h"
#include "ms-session.h"
#include "ms-widget-test.h"

/* A session whose sweep is small: two modes at five sizes, on the test
 * backend's GPU. */
static MsSession *
small_session (void)
{
  MsSession *session = g_object_new (MS_TYPE_SESSION, NULL);
  const char *modes[] = { "pageable", "pinned", NULL };
  g_object_set (ms_session_get_sweep_settings (session), "min-exp", 10, "max-exp", 14, "reps", 3,
                "warmup", 1, "modes", modes, NULL);
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  ms_session_set_engine (session, ms_backend_new_test (&cfg), NULL);
  return session;
}

static gboolean
not_sweeping (gpointer session)
{
  return !ms_session_get_sweeping (session);
}

static gboolean
is_written (gpointer library)
{
  return !ms_runs_library_is_writing (library);
}

static void
keep_message (MsSession *session, const char *message, GPtrArray *messages)
{
  g_ptr_array_add (messages, g_strdup (message));
}

/* The runs a chart page shows. */
static guint
n_charted (MsChartPage *page)
{
  g_autoptr (GPtrArray) runs = NULL;
  g_object_get (ms_chart_page_get_view (page), "runs", &runs, NULL);
  return runs ? runs->len : 0;
}

static void
check_finished_sweep (MsSession *session, MsRun *live, GPtrArray *messages)
{
  g_assert_cmpuint (messages->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (messages, 0), ==, _("Sweep finished"));
  g_assert_false (ms_session_get_busy (session));
  g_assert_cmpfloat (ms_test_get_double (session, "progress"), ==, 1.0);
  g_assert_nonnull (strstr (ms_test_get_string (session, "progress-text"), "cell 10 of 10"));
  /* The cells came live; the device's facts at the end. */
  const MsResults *r = ms_run_get_results (live);
  g_assert_cmpuint (r->n_cells, ==, 2 * 5);
  for (size_t c = 0; c < r->n_cells; c++)
    g_assert_cmpint (r->cells[c].status, ==, MS_CELL_OK);
  g_assert_cmpstr (r->device.name, ==, "Test GPU");
  MsRunsLibrary *library = ms_runs_library_get_default ();
  ms_test_wait_until (is_written, library, "the sweep's run is written");
  g_autofree char *kept = ms_runs_library_dup_path (library, r);
  g_assert_nonnull (kept);
  g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
}

static void
test_sweep (void)
{
  MsSession *session = small_session ();
  MsChartPage *page =
    g_object_ref_sink (g_object_new (MS_TYPE_CHART_PAGE, "session", session, NULL));
  g_autoptr (GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (session, "sweep-ended", G_CALLBACK (keep_message), messages);
  guint sweeping_n = 0, busy_n = 0, progress_n = 0;
  ms_test_watch (session, "sweeping", &sweeping_n);
  ms_test_watch (session, "busy", &busy_n);
  ms_test_watch (session, "progress", &progress_n);

  g_autoptr (GError) error = NULL;
  g_assert_true (ms_session_run_sweep (session, &error));
  g_assert_no_error (error);
  g_assert_true (ms_session_get_sweeping (session));
  g_assert_true (ms_session_get_busy (session));
  g_assert_cmpstr (ms_test_get_string (session, "progress-text"), ==, _("Starting…"));
  MsRun *live = ms_session_get_live_run (session);
  g_assert_nonnull (live);
  g_assert_cmpuint (n_charted (page), ==, 1);
  /* One sweep at a time: the second ask is no error, only refused. */
  g_assert_false (ms_session_run_sweep (session, &error));
  g_assert_no_error (error);
  ms_test_wait_until (not_sweeping, session, "the sweep ends");
  check_finished_sweep (session, live, messages);
  g_assert_cmpuint (sweeping_n, ==, 2);
  g_assert_cmpuint (busy_n, ==, 2);
  g_assert_cmpuint (progress_n, >=, 2);

  /* Invalid settings: refused with the reason, nothing starts. */
  g_object_set (ms_session_get_sweep_settings (session), "min-exp", 16, NULL);
  MsSweep s;
  char err[256];
  g_assert_false (ms_session_get_sweep (session, &s, err, sizeof err));
  g_assert_false (ms_session_run_sweep (session, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, err);
  g_clear_error (&error);
  g_assert_cmpuint (ms_session_get_n_runs (session), ==, 1);
  g_object_set (ms_session_get_sweep_settings (session), "min-exp", 10, NULL);

  /* Stopped at once: said so, and the run stays beside the first. Each
   * cell holds its thread 50 ms, so that the stop comes before the last
   * cell ends: on a loaded machine the fast backend had finished all ten
   * before the stop was asked, and rightly said "Sweep finished". */
  MsTestBackendConfig slow;
  ms_test_backend_config_init (&slow);
  slow.hold_us = 50000;
  ms_session_set_engine (session, ms_backend_new_test (&slow), NULL);
  g_assert_true (ms_session_run_sweep (session, NULL));
  ms_session_stop_sweep (session);
  ms_test_wait_until (not_sweeping, session, "the stopped sweep ends");
  g_assert_cmpuint (messages->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (messages, 1), ==,
                   _("Sweep stopped; the cells measured so far are kept"));
  g_assert_cmpuint (ms_session_get_n_runs (session), ==, 2);
  g_assert_true (ms_session_get_run (session, 1) == ms_session_get_live_run (session));
  g_assert_cmpuint (n_charted (page), ==, 2);

  g_assert_finalize_object (page);
  g_assert_finalize_object (session);
}

typedef struct {
  int topic;
  MsRun *run;
  guint calls;
} LessonEnd;

static void
on_lesson_finished (MsSession *session, int topic, MsRun *run, gpointer portable,
                    const char *error, LessonEnd *end)
{
  end->calls++;
  end->topic = topic;
  g_set_object (&end->run, run);
}

static gboolean
lesson_done (gpointer data)
{
  return ((LessonEnd *) data)->calls > 0;
}

/* A lesson that is a plain sweep runs on the same backend; its run joins
 * the session before the page that asked hears of it. */
static void
test_lesson (void)
{
  MsSession *session = small_session ();
  LessonEnd end = { -1, NULL, 0 };
  g_signal_connect (session, "lesson-finished", G_CALLBACK (on_lesson_finished), &end);
  g_assert_true (ms_session_run_lesson (session, MS_TOPIC_PINNED_PAGEABLE));
  g_assert_true (ms_session_get_lesson_running (session, MS_TOPIC_PINNED_PAGEABLE));
  g_assert_true (ms_session_get_busy (session));
  g_assert_false (ms_session_run_lesson (session, MS_TOPIC_PINNED_PAGEABLE));
  ms_test_wait_until (lesson_done, &end, "the lesson's run ends");
  g_assert_cmpuint (end.calls, ==, 1);
  g_assert_cmpint (end.topic, ==, MS_TOPIC_PINNED_PAGEABLE);
  g_assert_nonnull (end.run);
  g_assert_false (ms_session_get_lesson_running (session, MS_TOPIC_PINNED_PAGEABLE));
  g_assert_false (ms_session_get_busy (session));
  g_assert_cmpuint (ms_session_get_n_runs (session), ==, 1);
  g_assert_true (ms_session_get_run (session, 0) == end.run);
  g_assert_true (ms_lesson_topic_matches (MS_TOPIC_PINNED_PAGEABLE, ms_run_get_results (end.run)));
  ms_test_wait_until (is_written, ms_runs_library_get_default (), "the lesson's run is written");
  ms_session_clear_runs (session);
  g_assert_finalize_object (g_steal_pointer (&end.run));
  g_assert_finalize_object (session);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/session-work/sweep", test_sweep);
  g_test_add_func ("/session-work/lesson", test_lesson);
  return g_test_run ();
}
