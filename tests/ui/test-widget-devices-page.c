/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-devices-page.c: MsDevicesPage with four fake GPUs (the test
 * backend and a fake peer run): a click runs the ticked GPUs at once (they
 * overlap, the barrier holds, one run per GPU comes out), the peer matrix
 * fills and the pickers drive the view; with 8 and 16 fake GPUs the same
 * runs and the peer matrix fill; without a GPU the page says why and
 * opens a saved peer file. */
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>

#include "ms-backend-test.h"
#include "ms-devices-page.h"
#include "ms-multi-file.h"
#include "ms-peer-test.h"
#include "ms-runs-library.h"
#include "ms-widget-test.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "model/ms-results.h"
#include "run/ms-backend.h"

#define N_FAKE 4

static gboolean
is_idle (gpointer page)
{
  gboolean busy;
  g_object_get (page, "busy", &busy, NULL);
  return !busy;
}

static void
small_sweep (MsSweep *sweep)
{
  ms_test_sweep_init (sweep, "pinned,pageable", 10, 14, 3);
  sweep->warmup = 1;
}

/* The runs of the page's last sweep or file, as its matrix shows them. */
static GPtrArray *
matrix_runs (MsDevicesPage *page)
{
  GPtrArray *runs = NULL;
  g_object_get (ms_test_child (page, "matrix_view"), "runs", &runs, NULL);
  g_object_set_data_full (G_OBJECT (page), "test-runs", runs, (GDestroyNotify) g_ptr_array_unref);
  return runs;
}

/* A session whose sweep settings make the small sweep above. */
static MsSession *
small_session (GArray *devices)
{
  MsSession *session = g_object_new (MS_TYPE_SESSION, NULL);
  const char *modes[] = { "pageable", "pinned", NULL };
  g_object_set (ms_session_get_sweep_settings (session), "min-exp", 10, "max-exp", 14, "reps", 3,
                "warmup", 1, "modes", modes, NULL);
  MsSweep want, got;
  char err[256];
  small_sweep (&want);
  g_assert_true (ms_session_get_sweep (session, &got, err, sizeof err));
  g_assert_cmpint (got.min_exp, ==, want.min_exp);
  g_assert_cmpint (got.reps, ==, want.reps);
  ms_session_set_devices (session, devices);
  return session;
}

static GArray *
fake_devices (MsBackend *backend)
{
  GArray *devices = g_array_new (FALSE, TRUE, sizeof (MsDeviceInfo));
  /* As many as the backend has (N_FAKE, or the many-GPU hosts'). */
  for (int i = 0, n = 1; i < n; i++) {
    MsDeviceInfo info = { 0 };
    g_assert_true (ms_backend_query_device (backend, i, &info));
    g_array_append_val (devices, info);
    n = info.count;
  }
  return devices;
}

/* A page over the fake GPUs of backend (which it takes), following a
 * session (its devices, a small sweep) that gets the runs it makes. */
static MsDevicesPage *
page_with_fakes (MsBackend *backend)
{
  g_autoptr (GArray) devices = fake_devices (backend);
  g_autoptr (MsSession) session = small_session (devices);
  ms_session_set_engine (session, backend, ms_test_peer_run);
  return g_object_new (MS_TYPE_DEVICES_PAGE, "session", session, NULL);
}

static char *
status_of (MsDevicesPage *page)
{
  char *status;
  g_object_get (page, "status", &status, NULL);
  return status;
}

/* Ticks or unticks GPU device's check button, as a user does. */
static gboolean
select_gpu (GtkWidget *root, int device, gboolean selected)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (GTK_IS_CHECK_BUTTON (c) && g_object_get_data (G_OBJECT (c), "ms-device") &&
        GPOINTER_TO_INT (g_object_get_data (G_OBJECT (c), "ms-device")) == device) {
      gtk_check_button_set_active (GTK_CHECK_BUTTON (c), selected);
      return TRUE;
    }
    if (select_gpu (c, device, selected))
      return TRUE;
  }
  return FALSE;
}

static void
click (MsDevicesPage *page, const char *label)
{
  GtkWidget *button = ms_test_find (GTK_WIDGET (page), GTK_TYPE_BUTTON, label);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  if (g_strcmp0 (label, _("_Run on All Selected at Once")) == 0)
    g_assert_true (gtk_widget_has_css_class (button, "suggested-action"));
  g_signal_emit_by_name (button, "clicked");
}

static void
check_runs (GPtrArray *runs, const int *want, guint n_want, MsMatrixView *view)
{
  g_assert_nonnull (runs);
  g_assert_cmpuint (runs->len, ==, n_want);
  for (guint i = 0; i < runs->len; i++) {
    const MsResults *r = ms_run_get_results (g_ptr_array_index (runs, i));
    g_assert_cmpint (r->device.index, ==, want[i]);
    g_assert_cmpuint (r->n_cells, ==, 2 * 5);
    for (size_t c = 0; c < r->n_cells; c++)
      g_assert_cmpint (r->cells[c].status, ==, MS_CELL_OK);
    /* The labels differ by the device, so the window keeps every run. */
    for (guint j = 0; j < i; j++)
      g_assert_cmpstr (r->label, !=, ms_run_get_name (g_ptr_array_index (runs, j)));
  }
  int method;
  g_object_get (view, "method", &method, NULL);
  g_assert_cmpint (method, ==, MS_MATRIX_SHOW_RUNS);
  const MsMatrixData *d = ms_matrix_view_get_data (view);
  g_assert_cmpint (d->n_rows, ==, (int) n_want + 1); /* the GPUs and their sum */
  double sum = 0;
  for (guint i = 0; i < n_want; i++)
    sum += ms_results_find (ms_run_get_results (g_ptr_array_index (runs, i)), MS_MODE_PINNED, 12)->stats.h2d_gbps;
  g_assert_cmpfloat (fabs (d->value[n_want][2] - sum), <, 1e-9);
  g_assert_cmpint (d->n_cols, ==, 5);
  const MsResults *r = ms_run_get_results (g_ptr_array_index (runs, n_want - 1));
  g_assert_cmpfloat (d->value[n_want - 1][4], ==,
                     ms_results_find (r, MS_MODE_PINNED, 14)->stats.h2d_gbps);
}

static void
check_peer (MsDevicesPage *page)
{
  MsMatrixView *view = ms_test_child (page, "matrix_view");
  g_autoptr (MsPeerFile) peer = NULL;
  g_object_get (page, "peer", &peer, NULL);
  g_assert_nonnull (peer);
  g_assert_cmpint (peer->peer.n_devices, ==, N_FAKE);
  g_assert_true (ms_test_get_pointer (view, "peer") == peer);
  g_assert_true (ms_test_get_pointer (ms_test_child (page, "topology_view"), "peer") == peer);
  int method;
  g_object_get (view, "method", &method, NULL);
  g_assert_cmpint (method, ==, MS_PEER_COPY_ENABLED);
  const MsMatrixData *d = ms_matrix_view_get_data (view);
  g_assert_cmpint (d->n_rows, ==, N_FAKE);
  g_assert_cmpfloat (d->value[0][1], ==, ms_test_peer_gbps (MS_PEER_COPY_ENABLED, 0, 1, 0));
  g_assert_cmpfloat (d->value[0][2], <, 0);
  g_assert_cmpstr (peer->device[3].name, ==, "Test GPU");
  g_assert_cmpint (peer->device[3].index, ==, 3);
  /* The direction picker drives the view. */
  GtkWidget *method_dropdown = ms_test_find (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, NULL);
  GtkDropDown *direction = GTK_DROP_DOWN (
    gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (method_dropdown)));
  gtk_drop_down_set_selected (direction, 1);
  g_assert_cmpfloat (d->value[3][2], ==, ms_test_peer_gbps (MS_PEER_COPY_ENABLED, 3, 2, 1));
  /* And the method picker: the staged copies, the reference loop. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (method_dropdown), MS_PEER_STAGED);
  g_assert_cmpfloat (d->value[0][2], ==, ms_test_peer_gbps (MS_PEER_STAGED, 0, 2, 1));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (method_dropdown), MS_MATRIX_SHOW_REFERENCE);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (direction)), ==, 1);
  g_assert_cmpfloat (d->value[0][1], ==, peer->peer.reference_gbps[0][1]);
}

static gboolean
is_written (gpointer library)
{
  return !ms_runs_library_is_writing (library);
}

static void
test_run_all (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = N_FAKE;
  cfg.hold_us = 3000;
  MsBackend *backend = ms_backend_new_test (&cfg);
  MsDevicesPage *page = page_with_fakes (backend);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1200, 800);

  guint n;
  g_object_get (page, "n-selected", &n, NULL);
  g_assert_cmpuint (n, ==, N_FAKE);
  /* Not while the window's own sweep runs. */
  g_object_set (page, "window-sweeping", TRUE, NULL);
  g_assert_false (gtk_widget_is_sensitive (
    ms_test_find (GTK_WIDGET (page), GTK_TYPE_BUTTON, _("_Run on All Selected at Once"))));
  g_object_set (page, "window-sweeping", FALSE, NULL);
  click (page, _("_Run on All Selected at Once"));
  g_assert_false (is_idle (page));
  ms_test_wait_until (is_idle, page, "the GPUs ran at once");
  static const int all[] = { 0, 1, 2, 3 }, some[] = { 0, 1, 3 };
  GPtrArray *runs = matrix_runs (page);
  check_runs (runs, all, N_FAKE, ms_test_child (page, "matrix_view"));
  /* The session has them too, for the charts. */
  g_assert_cmpuint (ms_session_get_n_runs (ms_page_get_session (MS_PAGE (page))), ==, N_FAKE);
  /* Each GPU's run is kept in the runs library (a folder of the tests'). */
  MsRunsLibrary *library = ms_runs_library_get_default ();
  ms_test_wait_until (is_written, library, "the GPUs' runs are written");
  for (guint i = 0; i < runs->len; i++) {
    g_autofree char *kept =
      ms_runs_library_dup_path (library, ms_run_get_results (runs->pdata[i]));
    g_assert_nonnull (kept);
    g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
  }
  /* Four threads held their cells together, in step. */
  g_assert_cmpint (ms_test_backend_max_concurrent (backend), ==, N_FAKE);
  g_assert_cmpint (ms_test_backend_barrier_violations (backend), ==, 0);
  g_autofree char *status = status_of (page);
  g_assert_nonnull (strstr (status, "4 GPUs"));

  /* Only the GPUs ticked run. */
  g_assert_true (select_gpu (GTK_WIDGET (page), 2, FALSE));
  g_object_get (page, "n-selected", &n, NULL);
  g_assert_cmpuint (n, ==, N_FAKE - 1);
  click (page, _("_Run on All Selected at Once"));
  ms_test_wait_until (is_idle, page, "three GPUs ran at once");
  check_runs (matrix_runs (page), some, G_N_ELEMENTS (some),
              ms_test_child (page, "matrix_view"));

  g_assert_true (select_gpu (GTK_WIDGET (page), 2, TRUE));
  click (page, _("_Peer Matrix"));
  ms_test_wait_until (is_idle, page, "the peer matrix filled");
  check_peer (page);
  g_assert_cmpuint (ms_test_ink (ms_test_child (page, "matrix_view")), >, 50);
  g_assert_cmpuint (ms_test_ink (ms_test_child (page, "topology_view")), >, 20);
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* The hosts behind NVSwitch the lent machines rarely are: 8 and 16 fake
 * GPUs run at once in step, one run each, and the peer matrix and its
 * diagram fill with every GPU. */
static void
test_many_gpus (void)
{
  static const int counts[] = { 8, 16 };
  for (guint k = 0; k < G_N_ELEMENTS (counts); k++) {
    int n = counts[k], all[MS_MULTI_MAX_DEVICES];
    MsTestBackendConfig cfg;
    ms_test_backend_config_init (&cfg);
    cfg.n_devices = n;
    cfg.hold_us = 1000;
    MsBackend *backend = ms_backend_new_test (&cfg);
    MsDevicesPage *page = page_with_fakes (backend);
    GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1600, 1000);
    guint selected;
    g_object_get (page, "n-selected", &selected, NULL);
    g_assert_cmpuint (selected, ==, (guint) n);
    click (page, _("_Run on All Selected at Once"));
    ms_test_wait_until (is_idle, page, "the many GPUs ran at once");
    for (int i = 0; i < n; i++)
      all[i] = i;
    check_runs (matrix_runs (page), all, (guint) n, ms_test_child (page, "matrix_view"));
    g_assert_cmpint (ms_test_backend_max_concurrent (backend), ==, n);
    g_assert_cmpint (ms_test_backend_barrier_violations (backend), ==, 0);
    click (page, _("_Peer Matrix"));
    ms_test_wait_until (is_idle, page, "the many GPUs' peer matrix filled");
    g_autoptr (MsPeerFile) peer = NULL;
    g_object_get (page, "peer", &peer, NULL);
    g_assert_nonnull (peer);
    g_assert_cmpint (peer->peer.n_devices, ==, n);
    g_assert_cmpint (ms_peer_pairs_in_doubt (&peer->peer, peer->device), ==, 0);
    g_assert_cmpint (ms_matrix_view_get_data (ms_test_child (page, "matrix_view"))->n_rows, ==,
                     n);
    g_assert_cmpuint (ms_test_ink (ms_test_child (page, "topology_view")), >, 20);
    ms_test_destroy (window, GTK_WIDGET (page));
  }
}

/* One GPU fails a cell: the others' results stay, the page says so. */
static void
test_one_fails (void)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = N_FAKE;
  cfg.fail_device = 1;
  cfg.fail_mode = MS_MODE_PINNED;
  cfg.fail_exponent = 12;
  cfg.fail_rep = 0;
  cfg.fail_phase = MS_PHASE_H2D;
  cfg.fail_status = MS_CELL_FAILED;
  MsBackend *backend = ms_backend_new_test (&cfg);
  MsDevicesPage *page = page_with_fakes (backend);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  click (page, _("_Run on All Selected at Once"));
  ms_test_wait_until (is_idle, page, "the GPUs ran at once");
  GPtrArray *runs = matrix_runs (page);
  g_assert_cmpuint (runs->len, ==, N_FAKE);
  for (guint i = 0; i < runs->len; i++) {
    const MsResults *r = ms_run_get_results (g_ptr_array_index (runs, i));
    const MsCell *c = ms_results_find (r, MS_MODE_PINNED, 12);
    g_assert_cmpint (c->status, ==, i == 1 ? MS_CELL_FAILED : MS_CELL_OK);
  }
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* The label showing text, depth first. */
static GtkWidget *
label_with_text (GtkWidget *root, const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (GTK_IS_LABEL (c) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (c)), text) == 0)
      return c;
    GtkWidget *found = label_with_text (c, text);
    if (found)
      return found;
  }
  return NULL;
}

static void
test_no_gpu (void)
{
  g_autoptr (GArray) devices = g_array_new (FALSE, TRUE, sizeof (MsDeviceInfo));
  MsDeviceInfo none = { .present = FALSE, .error = "no CUDA-capable device is detected" };
  g_array_append_val (devices, none);
  MsDevicesPage *page = g_object_new (MS_TYPE_DEVICES_PAGE, NULL);
  ms_devices_page_set_devices (page, devices);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  g_autofree char *status = status_of (page);
  /* A plain sentence; CUDA's words only in the small line under it. */
  g_assert_nonnull (strstr (status, "No NVIDIA GPU was found"));
  g_assert_null (strstr (status, "no CUDA-capable device is detected"));
  g_assert_nonnull (label_with_text (GTK_WIDGET (page),
                                     "CUDA said: no CUDA-capable device is detected"));
  GtkWidget *run = ms_test_find (GTK_WIDGET (page), GTK_TYPE_BUTTON,
                                 _("_Run on All Selected at Once"));
  g_assert_false (gtk_widget_is_sensitive (run));
  /* Disabled, it is a plain button (a faded blue one was unreadable). */
  g_assert_false (gtk_widget_has_css_class (run, "suggested-action"));

  const char *path = ms_test_tmp_path ("h200x2-peer.csv");
  MsPeerFile *file = g_new0 (MsPeerFile, 1);
  ms_test_peer_file (2, file);
  char err[512];
  g_assert_true (ms_peer_file_write (file, path, err, sizeof err));
  g_free (file);
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_devices_page_open_path (page, path, &error));
  g_assert_no_error (error);
  const MsMatrixData *d = ms_matrix_view_get_data (ms_test_child (page, "matrix_view"));
  g_assert_cmpint (d->n_rows, ==, 2);
  g_assert_cmpfloat (d->value[1][0], ==, ms_test_peer_gbps (MS_PEER_COPY_ENABLED, 1, 0, 0));
  g_free (status);
  status = status_of (page);
  g_assert_nonnull (strstr (status, "h200x2-peer.csv"));
  /* The explanation can be selected with the mouse but does not take the
   * keyboard's focus, where GTK would select all of it. */
  GtkWidget *label = label_with_text (GTK_WIDGET (page), status);
  g_assert_nonnull (label);
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (label)));
  g_assert_false (gtk_widget_get_focusable (label));
  /* Without its sidecar the matrix still opens, and the status says the
   * host, date and devices are unknown rather than naming none. */
  g_assert_cmpint (g_unlink (ms_test_tmp_path ("h200x2-peer-meta.json")), ==, 0);
  g_assert_true (ms_devices_page_open_path (page, path, &error));
  g_free (status);
  status = status_of (page);
  g_assert_nonnull (strstr (status, "unknown"));
  g_assert_nonnull (strstr (status, "h200x2-peer-meta.json"));
  /* A samples file is not a peer file: refused with the reason. */
  g_autofree char *ref = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"),
                                           "h100-lesson-costs-samples.csv.gz", NULL);
  g_assert_false (ms_devices_page_open_path (page, ref, &error));
  g_assert_nonnull (strstr (error->message, "peer"));
  g_assert_cmpuint (ms_test_ink (ms_test_child (page, "matrix_view")), >, 50);
  ms_test_destroy (window, GTK_WIDGET (page));
}

static void
keep_result (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

/* What `memsweep multi --out DIR/node7` leaves for three GPUs:
 * node7-gpuN-samples.csv (their paths in samples) and node7-multi.csv,
 * whose path it returns. */
static char *
write_multi (const char *dir, char samples[3][600])
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.n_devices = 3;
  MsBackend *backend = ms_backend_new_test (&cfg);
  MsSweep sweep;
  small_sweep (&sweep);
  int devices[] = { 0, 1, 2 };
  MsMultiResults *multi = NULL;
  char err[512];
  g_assert_cmpint (ms_multi_run (&sweep, devices, 3, backend, NULL, NULL, NULL, &multi, err,
                                 sizeof err), ==, MS_RUN_OK);
  ms_backend_free (backend);
  g_autofree char *prefix = g_build_filename (dir, "node7", NULL);
  char *path = g_strconcat (prefix, "-multi.csv", NULL);
  for (int i = 0; i < 3; i++) {
    g_snprintf (samples[i], sizeof samples[i], "%s-gpu%d-samples.csv", prefix, i);
    g_assert_true (ms_csv_write_samples (multi->per_device[i], samples[i], err, sizeof err));
  }
  MsMultiFile *file = g_new0 (MsMultiFile, 1);
  ms_multi_file_init (file, multi, prefix);
  g_assert_true (ms_multi_file_write (file, path, err, sizeof err));
  g_free (file);
  ms_multi_results_free (multi);
  return path;
}

/* The page makes the GPUs' runs from a multi file, even with one file
 * gone. */
static void
test_open_multi (void)
{
  const char *dir = ms_test_tmp_folder ("open-multi");
  char samples[3][600];
  g_autofree char *path = write_multi (dir, samples);
  MsDevicesPage *page = g_object_new (MS_TYPE_DEVICES_PAGE, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_devices_page_open_path (page, path, &error));
  static const int all[] = { 0, 1, 2 }, two[] = { 0, 2 };
  check_runs (matrix_runs (page), all, 3, ms_test_child (page, "matrix_view"));
  /* The same read on a worker thread, shown when it finishes. */
  GAsyncResult *result = NULL;
  ms_devices_page_open_path_async (page, path, keep_result, &result);
  while (!result)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (ms_devices_page_open_path_finish (page, result, &error));
  g_object_unref (result);
  check_runs (matrix_runs (page), all, 3, ms_test_child (page, "matrix_view"));
  g_unlink (samples[1]);
  g_assert_true (ms_devices_page_open_path (page, path, &error));
  GPtrArray *runs = matrix_runs (page);
  check_runs (runs, two, 2, ms_test_child (page, "matrix_view"));
  g_autofree char *status = status_of (page);
  g_assert_nonnull (strstr (status, "node7-gpu1-samples.csv"));
  g_assert_nonnull (strstr (ms_run_get_name (g_ptr_array_index (runs, 0)), "GPU 0"));
  g_unlink (samples[0]);
  g_unlink (samples[2]);
  g_assert_false (ms_devices_page_open_path (page, path, &error));
  g_assert_nonnull (error);
  ms_test_destroy (window, GTK_WIDGET (page));
}

/* With a session, the GPUs' runs of a multi file join it, in one change. */
static void
test_open_multi_session (void)
{
  const char *dir = ms_test_tmp_folder ("open-multi-session");
  char samples[3][600];
  g_autofree char *path = write_multi (dir, samples);
  MsSession *session = g_object_new (MS_TYPE_SESSION, NULL);
  guint n_runs_n = 0;
  ms_test_watch (session, "n-runs", &n_runs_n);
  MsDevicesPage *page = g_object_new (MS_TYPE_DEVICES_PAGE, "session", session, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_devices_page_open_path (page, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ms_session_get_n_runs (session), ==, 3);
  g_assert_cmpuint (n_runs_n, ==, 1);
  ms_test_destroy (window, GTK_WIDGET (page));
  g_assert_finalize_object (session);
}

/* A sibling check opened says its result; the reference peer matrix
 * brings the check shipped beside it. */
static void
test_siblings (void)
{
  const char *path = ms_test_tmp_path ("node7-siblings.json");
  g_assert_true (g_file_set_contents (
      path,
      "{\"schema\":\"memsweep-siblings\",\"schema_version\":2,\"result\":\"differs\","
      "\"threshold_pct\":10,\"processes_per_gpu\":3,\"seconds\":68,\"gpus\":[{\"index\":1,"
      "\"bus_id\":\"0000:00:07.0\",\"differs\":true,\"modes\":[{\"mode\":\"pinned\","
      "\"verdict\":\"slower\",\"differs\":true,\"ratio\":1.2}]}]}",
      -1, NULL));
  MsDevicesPage *page = g_object_new (MS_TYPE_DEVICES_PAGE, NULL);
  GtkWindow *window = ms_test_show (GTK_WIDGET (page), 1024, 768);
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_devices_page_open_path (page, path, &error));
  g_autofree char *line = NULL;
  g_object_get (page, "siblings", &line, NULL);
  g_assert_cmpstr (line, ==,
                   "Sibling check (1 GPU, 68 s): GPU\u00a01 differs: pinned\u00a01.20×");
  g_assert_nonnull (label_with_text (GTK_WIDGET (page), line));
  g_autofree char *ref = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"),
                                           "h200x4-peer.csv.gz", NULL);
  g_assert_true (ms_devices_page_open_path (page, ref, &error));
  g_free (line);
  g_object_get (page, "siblings", &line, NULL);
  g_assert_cmpstr (line, ==,
                   "Sibling check (4 GPUs, 49 s): undecided: 30 comparisons of two GPUs still open");
  ms_test_destroy (window, GTK_WIDGET (page));
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/devices-page/run-all", test_run_all);
  g_test_add_func ("/devices-page/many-gpus", test_many_gpus);
  g_test_add_func ("/devices-page/one-fails", test_one_fails);
  g_test_add_func ("/devices-page/no-gpu", test_no_gpu);
  g_test_add_func ("/devices-page/open-multi", test_open_multi);
  g_test_add_func ("/devices-page/open-multi-session", test_open_multi_session);
  g_test_add_func ("/devices-page/siblings", test_siblings);
  return g_test_run ();
}
