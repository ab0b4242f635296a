/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-session.c: MsSession and MsRun, the model the pages follow:
 * adding, naming, renaming, removing and putting back runs, with their
 * notifications, and every object finalised. */
#include "ms-chart-page.h"
#include "ms-session.h"
#include "ms-timeline-page.h"
#include "ms-widget-test.h"
#include "ms-sweep-test.h"
#include "model/ms-results.h"
#include "ms-plot-view.h"

static MsRun *
reference_run (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  return g_object_ref (g_ptr_array_index (runs, 0));
}

typedef struct {
  guint calls, position, removed, added;
} Changes;

static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, Changes *c)
{
  c->calls++;
  c->position = position;
  c->removed = removed;
  c->added = added;
}

static void
test_add_rename_remove (void)
{
  MsSession *session = g_object_new (MS_TYPE_SESSION, NULL);
  MsRun *run = reference_run ();
  Changes c = { 0 };
  guint n_runs_n;
  g_signal_connect (ms_session_get_runs (session), "items-changed", G_CALLBACK (on_items_changed),
                    &c);
  ms_test_watch (session, "n-runs", &n_runs_n);

  g_assert_true (ms_session_add_run (session, run));
  g_assert_cmpuint (c.calls, ==, 1);
  g_assert_cmpuint (c.added, ==, 1);
  g_assert_cmpuint (n_runs_n, ==, 1);
  /* The same run, or the same file read again, is shown once. */
  g_assert_false (ms_session_add_run (session, run));
  g_autoptr (MsRun) again = reference_run ();
  g_assert_false (ms_session_add_run (session, again));
  g_assert_cmpuint (ms_session_get_n_runs (session), ==, 1);

  /* A run of another kind with the same name gets a number. */
  MsResults *copy = ms_results_new (&(MsSweep){ 0 }, &ms_run_get_results (run)->device);
  g_snprintf (copy->label, sizeof copy->label, "%s", ms_run_get_name (run));
  MsRun *second = ms_run_new (copy, MS_RUN_KIND_LESSON);
  g_assert_true (ms_session_add_run (session, second));
  g_autofree char *want = g_strdup_printf ("%s #2", ms_run_get_name (run));
  g_assert_cmpstr (ms_run_get_name (second), ==, want);

  /* Renaming notifies once, and never gives two runs one name. */
  guint name_n;
  ms_test_watch (second, "name", &name_n);
  ms_session_rename_run (session, second, "baseline");
  g_assert_cmpstr (ms_run_get_name (second), ==, "baseline");
  g_assert_cmpuint (name_n, ==, 1);
  ms_session_rename_run (session, second, "baseline");
  g_assert_cmpuint (name_n, ==, 1);
  ms_session_rename_run (session, run, "baseline");
  g_assert_cmpstr (ms_run_get_name (run), ==, "baseline #2");
  guint note_n;
  ms_test_watch (second, "note", &note_n);
  ms_run_set_note (second, "fan at 100%,\nroom 21 °C");
  g_assert_cmpstr (ms_run_get_note (second), ==, "fan at 100%, room 21 °C");
  g_assert_cmpuint (note_n, ==, 1);

  /* Removing says where it was; putting it back restores the order. */
  guint position = 99;
  g_assert_true (ms_session_remove_run (session, run, &position));
  g_assert_cmpuint (position, ==, 0);
  g_assert_cmpuint (c.removed, ==, 1);
  g_assert_false (ms_session_remove_run (session, run, NULL));
  ms_session_insert_run (session, run, position);
  g_assert_true (ms_session_get_run (session, 0) == run);

  g_object_unref (second);
  g_object_unref (run);
  ms_session_clear_runs (session);
  g_assert_cmpuint (ms_session_get_n_runs (session), ==, 0);
  g_assert_finalize_object (session);
}

static void
count (guint *n)
{
  (*n)++;
}

/* The run a sweep fills cannot be closed while it runs; clearing keeps it. */
static void
test_live_run (void)
{
  MsSession *session = g_object_new (MS_TYPE_SESSION, NULL);
  MsRun *file = reference_run ();
  g_assert_true (ms_session_add_run (session, file));
  MsRun *live = ms_run_new (ms_test_results_new (NULL), MS_RUN_KIND_SWEEP);
  guint live_n, cells_n = 0;
  ms_test_watch (session, "live-run", &live_n);
  g_object_set (session, "sweeping", TRUE, NULL);
  ms_session_add_sweep (session, live);
  g_assert_true (ms_session_get_live_run (session) == live);
  g_assert_cmpuint (live_n, ==, 1);
  g_assert_cmpstr (ms_run_get_name (live), ==, "Host CPU · sweep 1");
  g_assert_false (ms_session_remove_run (session, live, NULL));
  g_signal_connect_swapped (live, "cells-changed", G_CALLBACK (count), &cells_n);
  ms_run_cells_changed (live);
  g_assert_cmpuint (cells_n, ==, 1);
  ms_session_clear_runs (session);
  g_assert_cmpuint (ms_session_get_n_runs (session), ==, 1);
  g_object_set (session, "sweeping", FALSE, NULL);
  g_assert_true (ms_session_remove_run (session, live, NULL));
  g_assert_null (ms_session_get_live_run (session));
  g_object_unref (live);
  g_assert_finalize_object (session);
  g_assert_finalize_object (file);
}

/* A page follows its session: runs added and removed reach its view
 * without anyone pushing them; the page lets the session go with itself. */
static void
test_page_follows_session (void)
{
  MsSession *session = g_object_new (MS_TYPE_SESSION, NULL);
  MsChartPage *page = g_object_ref_sink (g_object_new (MS_TYPE_CHART_PAGE, NULL));
  ms_page_set_session (MS_PAGE (page), session);
  MsPlotView *view = ms_chart_page_get_view (page);
  GPtrArray *shown = NULL;
  g_object_get (view, "runs", &shown, NULL);
  g_assert_cmpuint (shown ? shown->len : 0, ==, 0);
  g_clear_pointer (&shown, g_ptr_array_unref);
  MsRun *run = reference_run ();
  ms_session_add_run (session, run);
  g_object_get (view, "runs", &shown, NULL);
  g_assert_cmpuint (shown->len, ==, 1);
  g_assert_true (g_ptr_array_index (shown, 0) == run);
  g_clear_pointer (&shown, g_ptr_array_unref);
  ms_session_remove_run (session, run, NULL);
  g_object_get (view, "runs", &shown, NULL);
  g_assert_cmpuint (shown->len, ==, 0);
  g_clear_pointer (&shown, g_ptr_array_unref);
  g_assert_finalize_object (run);
  g_assert_finalize_object (page);
  g_assert_finalize_object (session);
}

/* The chart's series label naming run (and no other). */
static const MsChartSeries *
series_of (MsPlotView *view, const char *run)
{
  const MsChartData *data = ms_plot_view_get_data (view);
  g_autofree char *suffix = g_strdup_printf ("(%s)", run);
  for (guint i = 0; i < data->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (data->series, i);
    if (g_str_has_suffix (s->label, suffix))
      return s;
  }
  return NULL;
}

static gboolean
list_has (GListModel *list, const char *text)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (list), i), text) == 0)
      return TRUE;
  return FALSE;
}

/* A rename reaches every view that names the run: the chart's legend (a
 * series hidden there stays hidden) and the timeline's run picker, which
 * keeps the run it shows. */
static void
test_rename_reaches_views (void)
{
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  MsChartPage *chart =
    g_object_ref_sink (g_object_new (MS_TYPE_CHART_PAGE, "session", session, NULL));
  MsTimelinePage *timeline =
    g_object_ref_sink (g_object_new (MS_TYPE_TIMELINE_PAGE, "session", session, NULL));
  g_autoptr (MsRun) first = ms_test_read_run ("h100-default-samples.csv.gz", "first");
  g_autoptr (MsRun) second = ms_test_read_run ("h200-default-samples.csv.gz", "second");
  g_assert_true (ms_session_add_run (session, first));
  g_assert_true (ms_session_add_run (session, second));
  MsPlotView *plot = ms_chart_page_get_view (chart);
  const MsChartSeries *s = series_of (plot, "first");
  g_assert_nonnull (s);
  ms_plot_view_set_series_hidden (plot, s->label, TRUE);
  GtkDropDown *runs_dd =
    GTK_DROP_DOWN (ms_test_find (GTK_WIDGET (timeline), GTK_TYPE_DROP_DOWN, NULL));
  gtk_drop_down_set_selected (runs_dd, 0);
  g_assert_true (ms_test_get_pointer (session, "selected-run") == first);

  ms_session_rename_run (session, first, "renamed");
  g_assert_null (series_of (plot, "first"));
  s = series_of (plot, "renamed");
  g_assert_nonnull (s);
  g_assert_true (s->hidden);
  GListModel *names = G_LIST_MODEL (gtk_drop_down_get_model (runs_dd));
  g_assert_true (list_has (names, "renamed"));
  g_assert_false (list_has (names, "first"));
  g_assert_cmpuint (gtk_drop_down_get_selected (runs_dd), ==, 0);
  g_assert_true (ms_test_get_pointer (session, "selected-run") == first);
  g_assert_finalize_object (timeline);
  g_assert_finalize_object (chart);
}

/* Runs opened together join in one change (one items-changed, one n-runs
 * notification), so that the pages follow once for all of them; within the
 * batch too, a file read twice is shown once and names stay apart. */
static void
test_add_together (void)
{
  g_autoptr (MsSession) session = g_object_new (MS_TYPE_SESSION, NULL);
  Changes c = { 0 };
  guint n_runs_n;
  g_signal_connect (ms_session_get_runs (session), "items-changed", G_CALLBACK (on_items_changed),
                    &c);
  ms_test_watch (session, "n-runs", &n_runs_n);
  g_autoptr (GPtrArray) none = ms_session_add_runs (session, NULL, 0);
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (c.calls, ==, 0);

  g_autoptr (MsRun) first = ms_test_read_run ("h100-default-samples.csv.gz", "same");
  g_autoptr (MsRun) second = ms_test_read_run ("h200-default-samples.csv.gz", "same");
  g_autoptr (MsRun) again = ms_test_read_run ("h100-default-samples.csv.gz", "again");
  MsRun *runs[] = { first, second, again, second };
  g_autoptr (GPtrArray) added = ms_session_add_runs (session, runs, G_N_ELEMENTS (runs));
  g_assert_cmpuint (added->len, ==, 2);
  g_assert_true (g_ptr_array_index (added, 0) == first);
  g_assert_true (g_ptr_array_index (added, 1) == second);
  g_assert_cmpuint (c.calls, ==, 1);
  g_assert_cmpuint (c.position, ==, 0);
  g_assert_cmpuint (c.added, ==, 2);
  g_assert_cmpuint (n_runs_n, ==, 1);
  g_assert_cmpstr (ms_run_get_name (first), ==, "same");
  g_assert_cmpstr (ms_run_get_name (second), ==, "same #2");

  /* Appended after the runs shown, the duplicates of those left out. */
  g_autoptr (MsRun) third = ms_test_read_run ("h100-default-samples.csv.gz", "third");
  /* Another date: another file of the same GPU. */
  g_strlcpy (ms_run_get_results (third)->date, "2026-01-09T00:00:00Z",
             sizeof ms_run_get_results (third)->date);
  MsRun *more[] = { again, third };
  g_autoptr (GPtrArray) added2 = ms_session_add_runs (session, more, G_N_ELEMENTS (more));
  g_assert_cmpuint (added2->len, ==, 1);
  g_assert_cmpuint (c.calls, ==, 2);
  g_assert_cmpuint (c.position, ==, 2);
  g_assert_cmpuint (c.added, ==, 1);
  g_assert_true (ms_session_get_run (session, 2) == third);
}

/* Runs of files get short names (the GPU's model and the day), numbered
 * where they clash; the long form stays their description, which follows
 * the name where none was given. */
static void
test_short_names (void)
{
  MsSession *session = g_object_new (MS_TYPE_SESSION, NULL);
  MsRun *runs[2];
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++) {
    runs[i] = reference_run ();
    MsResults *r = ms_run_get_results (runs[i]);
    g_autofree char *description = ms_plot_run_label (r);
    g_autofree char *name = ms_run_short_name (r);
    ms_run_set_name (runs[i], name);
    ms_run_set_description (runs[i], description);
    /* Two files: another moment each. */
    r->date[18] = (char)('0' + i);
  }
  const MsResults *r = ms_run_get_results (runs[0]);
  g_autofree char *model = g_strdup (r->device.name + strlen ("NVIDIA "));
  *strchr (model, ' ') = '\0';
  g_autofree char *want = g_strdup_printf ("%s %.5s", model, r->date + 5);
  g_assert_cmpstr (ms_run_get_name (runs[0]), ==, want);
  g_assert_cmpuint (strlen (ms_run_get_name (runs[0])), <,
                    strlen (ms_run_get_description (runs[0])));
  /* A file without its metadata names no device: unknown, not the host alone's "CPU". */
  MsResults lone = *r;
  lone.device.name[0] = '\0';
  lone.device.present = false;
  g_strlcpy (lone.metadata_unknown, "run-meta.json: not found", sizeof lone.metadata_unknown);
  g_autofree char *unknown = ms_run_short_name (&lone);
  g_assert_true (g_str_has_prefix (unknown, "Unknown device"));
  lone.label[0] = '\0';
  g_autofree char *described = ms_plot_run_label (&lone);
  g_assert_true (g_str_has_prefix (described, "unknown device"));
  lone.metadata_unknown[0] = '\0';
  g_autofree char *host = ms_run_short_name (&lone);
  g_assert_true (g_str_has_prefix (host, "CPU"));
  g_autoptr (GPtrArray) added = ms_session_add_runs (session, runs, G_N_ELEMENTS (runs));
  g_assert_cmpuint (added->len, ==, 2);
  g_autofree char *numbered = g_strdup_printf ("%s #2", want);
  g_assert_cmpstr (ms_run_get_name (runs[1]), ==, numbered);
  g_assert_true (g_str_has_prefix (ms_run_get_description (runs[1]), "H100"));
  /* A description given stays through renames; without one, the name. */
  guint description_n;
  ms_test_watch (runs[1], "description", &description_n);
  ms_session_rename_run (session, runs[1], "after the update");
  g_assert_cmpuint (description_n, ==, 0);
  ms_run_set_description (runs[1], NULL);
  g_assert_cmpstr (ms_run_get_description (runs[1]), ==, "after the update");
  g_assert_cmpuint (description_n, ==, 1);
  ms_session_rename_run (session, runs[1], "before");
  g_assert_cmpuint (description_n, ==, 2);
  g_clear_pointer (&added, g_ptr_array_unref);
  ms_session_clear_runs (session);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    g_assert_finalize_object (runs[i]);
  g_assert_finalize_object (session);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/session/add-rename-remove", test_add_rename_remove);
  g_test_add_func ("/session/add-together", test_add_together);
  g_test_add_func ("/session/live-run", test_live_run);
  g_test_add_func ("/session/page-follows-session", test_page_follows_session);
  g_test_add_func ("/session/rename-reaches-views", test_rename_reaches_views);
  g_test_add_func ("/session/short-names", test_short_names);
  return g_test_run ();
}
