/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-experiment: the run-to-run experiment switches (ms-experiment.h):
 * parsing, and the cell orders a sweep visits under them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-experiment.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "model/ms-results.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"
#include "lessons/ms-run-read.h"
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
test_parse (void)
{
  MsExperiment x;
  char err[256] = "", text[96];
  g_assert_true (ms_experiment_parse (NULL, &x, err, sizeof err) && !x.hugepages && !x.fixed_cpu &&
              !x.keep_buffers && !x.copy_warm && x.order == MS_ORDER_CELLS_SIZE_MAJOR);
  ms_experiment_format (&x, text, sizeof text);
  g_assert_cmpstr (text, ==, "");
  g_assert_true (ms_experiment_parse ("order=shuffle,copy-warm,thp,buffers-per-size,cpu-fixed,"
                                      "one-thread-prep", &x, err, sizeof err));
  g_assert_true (x.hugepages && x.fixed_cpu && x.keep_buffers && x.copy_warm &&
                 x.one_thread_prep && x.order == MS_ORDER_CELLS_SHUFFLED);
  ms_experiment_format (&x, text, sizeof text);
  g_assert_cmpstr (text, ==,
                   "thp,cpu-fixed,buffers-per-size,copy-warm,one-thread-prep,order=shuffle");
  static const char *const bad[] = { "thp,hugepages", "order=random", "order=", "THP", "thp;x" };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = '\0';
    g_assert_true (!ms_experiment_parse (bad[i], &x, err, sizeof err) &&
                strstr (err, "MEMSWEEP_EXPERIMENT: unknown switch") && !x.hugepages);
  }
  /* Every item a switch, each once. */
  static const char *const slips[] = { "inject=5,inject=10", "thp,thp", "inject=5,", ",", ",thp" };
  for (size_t i = 0; i < sizeof slips / sizeof slips[0]; i++) {
    err[0] = '\0';
    g_assert_true (!ms_experiment_parse (slips[i], &x, err, sizeof err) &&
                   strstr (err, "names a switch twice, or an empty one") && !x.inject_pct);
  }
  char long_text[400];
  memset (long_text, 'a', sizeof long_text - 1);
  long_text[sizeof long_text - 1] = '\0';
  g_assert_true (!ms_experiment_parse (long_text, &x, err, sizeof err) && strstr (err, "too long"));
}

typedef struct {
  int n;
  int exps[512], modes[512];
} Visits;

static void
on_cell (int index, int n_cells, const MsCell *cell, void *user)
{
  Visits *v = user;
  (void) n_cells;
  if (index < 512) {
    v->exps[index] = cell->exponent;
    v->modes[index] = cell->mode;
    v->n = index + 1;
  }
}

static void
run_visits (Visits *v, MsResults **out)
{
  MsSweep s;
  char err[256] = "";
  ms_test_sweep_init (&s, NULL, 10, 14, 3);
  memset (v, 0, sizeof *v);
  MsBackend *b = ms_backend_new_test (NULL);
  g_assert_true (ms_sweep_run (&s, b, on_cell, v, NULL, out, err, sizeof err) == MS_RUN_OK);
  ms_backend_free (b);
}

/* The process's switches are read once: this test sets them first. */
/* The self-comparison benchmark's known change: 1..100 per cent, plain
 * digits, recorded as it was given. */
static void
test_inject (void)
{
  MsExperiment x;
  char err[256], text[64];
  g_assert_true (ms_experiment_parse ("inject=10,thp", &x, err, sizeof err));
  g_assert_cmpint (x.inject_pct, ==, 10);
  ms_experiment_format (&x, text, sizeof text);
  g_assert_cmpstr (text, ==, "thp,inject=10");
  const char *bad[] = { "inject=0", "inject=101", "inject=", "inject=1e1", "inject=+5",
                        "inject=10%", "inject=1000" };
  for (size_t i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_assert_false (ms_experiment_parse (bad[i], &x, err, sizeof err));
    g_assert_nonnull (strstr (err, "inject=1..100"));
    g_assert_cmpint (x.inject_pct, ==, 0);
  }
}

static void
test_shuffled_order (void)
{
  setenv ("MEMSWEEP_EXPERIMENT", "order=shuffle", 1);
  Visits a, b;
  MsResults *ra = NULL, *rb = NULL;
  run_visits (&a, &ra);
  run_visits (&b, &rb);
  int n_cells = 5 * MS_MODE_COUNT;
  g_assert_true (a.n == n_cells && b.n == n_cells);
  bool seen[MS_MODE_COUNT][15] = { { false } };
  bool same = true, size_major = true;
  for (int i = 0; i < a.n; i++) {
    g_assert_true (!seen[a.modes[i]][a.exps[i]]);
    seen[a.modes[i]][a.exps[i]] = true;
    same = same && a.exps[i] == b.exps[i] && a.modes[i] == b.modes[i];
    size_major = size_major && (i == 0 || a.exps[i] >= a.exps[i - 1]);
  }
  g_assert_true (same);
  g_assert_true (!size_major);
  g_assert_true (ra && strcmp (ra->device.experiment_switches, "order=shuffle") == 0);
  g_assert_true (ra->device.prep_threads >= 1);
  /* Every cell measured as in size-major order. */
  for (size_t i = 0; ra && i < ra->n_cells; i++)
    g_assert_true (ra->cells[i].status == MS_CELL_OK);
  char err[256] = "";
  const char *path = ms_test_tmp_path ("shuffle-samples.csv");
  /* Helpers' count round-trips; one thread is not written. */
  ra->device.prep_threads = 5;
  g_assert_true (ra && ms_csv_write_samples (ra, path, err, sizeof err));
  MsResults *five = ms_run_read_samples (path, err, sizeof err);
  g_assert_true (five && five->device.prep_threads == 5);
  ms_results_free (five);
  ra->device.prep_threads = 1;
  g_assert_true (ms_csv_write_samples (ra, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_true (back && back->device.prep_threads == 0);
  g_assert_true (back && strcmp (back->device.experiment_switches, "order=shuffle") == 0 &&
              back->device.node_known == ra->device.node_known &&
              back->device.measuring_node == ra->device.measuring_node);
  ms_results_free (back);
  ms_results_free (ra);
  ms_results_free (rb);
}

/* one-thread-prep: the run records that its measuring thread alone
 * wrote the inputs; without it, as many threads as fills use now. In a
 * subprocess of its own, as the switches are read once a process. */
static void
test_one_thread_prep (void)
{
  if (g_test_subprocess ()) {
    Visits v;
    MsResults *r = NULL;
    setenv ("MEMSWEEP_EXPERIMENT", "one-thread-prep", 1);
    run_visits (&v, &r);
    g_assert_true (r && r->device.prep_threads == 1);
    g_assert_cmpstr (r->device.experiment_switches, ==, "one-thread-prep");
    ms_results_free (r);
    return;
  }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/experiment/one-thread-prep", test_one_thread_prep);
  g_test_add_func ("/experiment/parse", test_parse);
  g_test_add_func ("/experiment/inject", test_inject);
  g_test_add_func ("/experiment/shuffled-order", test_shuffled_order);
  int rc = g_test_run ();
  return rc;
}
