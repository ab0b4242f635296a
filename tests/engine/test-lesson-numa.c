/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-numa.c: the NUMA-placement lesson without a GPU or a second
 * socket: the sysfs reader on fake trees (tests/data/numa-*), the options,
 * the cells of two nodes, a run through the engine where the buffer's node
 * matters and one where it does not, a host of one node, and the variants
 * and notes through a samples file. */
#define _GNU_SOURCE
#include <glib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-probe-test.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-record.h"
#include "ms-numa.h"
#include "ms-probe-cells.h"
#include "ms-tmp-test.h"
#include "files/ms-csv-io.h"
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"

#define TWO MS_TEST_DATA_DIR "/numa-two-nodes"
#define ONE MS_TEST_DATA_DIR "/numa-one-node"

/* arg[] of the probe (engine/lessons/ms-lesson-numa.c). */
enum { ARG_DIR, ARG_BUF_NODE, ARG_THR_NODE };

typedef struct {
  double near_gbps, far_gbps; /* buffer on the GPU's node (1), elsewhere */
  int calls;
} Model;

static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  Model *m = user;
  g_assert_cmpint (a->lesson, ==, MS_TOPIC_NUMA);
  m->calls++;
  double gbps = a->arg[ARG_BUF_NODE] == 1 ? m->near_gbps : m->far_gbps;
  /* The thread's node costs a little: 2 % off the thread is far. */
  if (a->arg[ARG_THR_NODE] != 1)
    gbps *= 0.98;
  out->value_us = (double)a->bytes / gbps / 1e3;
  return MS_CELL_OK;
}

static MsResults *
run_with (Model *m, const char *options)
{
  return ms_test_lesson_run_model ("numa", options, model, m, 3, 0);
}

static void
test_cpulist (void)
{
  cpu_set_t set;
  g_assert_true (ms_numa_parse_cpulist ("0-3,8,10-11\n", &set));
  g_assert_cmpint (CPU_COUNT (&set), ==, 7);
  g_assert_true (CPU_ISSET (8, &set) && !CPU_ISSET (9, &set) && CPU_ISSET (11, &set));
  g_assert_true (ms_numa_parse_cpulist ("\n", &set));
  g_assert_cmpint (CPU_COUNT (&set), ==, 0);
  g_assert_false (ms_numa_parse_cpulist ("x", &set));
  g_assert_false (ms_numa_parse_cpulist ("3-1", &set));
  g_assert_false (ms_numa_parse_cpulist ("1,,2", &set));
  g_assert_false (ms_numa_parse_cpulist ("1-", &set));
  g_assert_false (ms_numa_parse_cpulist ("99999999", &set));
}

static void
test_topology (void)
{
  static MsNumaTopology t;
  ms_numa_read (TWO, &t);
  g_assert_cmpint (t.n, ==, 2);
  g_assert_cmpint (t.nodes[0].id, ==, 0);
  g_assert_cmpint (t.nodes[1].id, ==, 1);
  g_assert_cmpint (CPU_COUNT (&t.nodes[0].cpus), ==, 8);
  g_assert_true (CPU_ISSET (12, &t.nodes[1].cpus) && !CPU_ISSET (12, &t.nodes[0].cpus));
  g_assert_nonnull (ms_numa_find (&t, 1));
  g_assert_null (ms_numa_find (&t, 2));
  /* CUDA's and NVML's spellings of the bus id, and unknown ones. */
  g_assert_cmpint (ms_numa_device_node (TWO, "00000000:10:00.0"), ==, 1);
  g_assert_cmpint (ms_numa_device_node (TWO, "0000:10:00.0"), ==, 1);
  g_assert_cmpint (ms_numa_device_node (TWO, "0000:11:00.0"), ==, -1);
  g_assert_cmpint (ms_numa_device_node (TWO, "garbage"), ==, -1);
  ms_numa_read (ONE, &t);
  g_assert_cmpint (t.n, ==, 1);
  ms_numa_read (MS_TEST_DATA_DIR "/no-such-tree", &t);
  g_assert_cmpint (t.n, ==, 0);
  /* This machine's own tree reads without harm. */
  ms_numa_read ("/sys", &t);
  g_assert_cmpint (t.n, >=, 0);
}

static void
test_options (void)
{
  char err[256];
  g_assert_true (
      ms_lesson_check_options ("numa", "exp=20,buffer-node=1,thread-node=-1", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("numa", "bad=1", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("numa", "exp=40", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("numa", "buffer-node=-2", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("numa", "thread-node=0.5", err, sizeof err));
}

static void
test_cells (void)
{
  static MsProbeCell cells[MS_PROBE_MAX_CELLS];
  g_assert_true (ms_lesson_record (MS_TOPIC_NUMA) == ms_lesson_record_find ("numa"));
  ms_numa_set_root (TWO);
  int n = ms_test_lesson_cells ("numa", "", cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, 2 * 2 * 2);
  const char *want[] = { "dir=h2d/buf=0/thr=0", "dir=h2d/buf=0/thr=1", "dir=h2d/buf=1/thr=0",
                         "dir=h2d/buf=1/thr=1", "dir=d2h/buf=0/thr=0", "dir=d2h/buf=0/thr=1",
                         "dir=d2h/buf=1/thr=0", "dir=d2h/buf=1/thr=1" };
  for (int i = 0; i < n; i++) {
    g_assert_cmpstr (cells[i].variant, ==, want[i]);
    g_assert_cmpint (cells[i].mode, ==, MS_MODE_PINNED);
    g_assert_cmpint (cells[i].exponent, ==, 24);
    g_assert_cmpint (cells[i].arg[ARG_DIR], ==, i / 4);
    g_assert_cmpint (cells[i].arg[ARG_BUF_NODE], ==, i / 2 % 2);
    g_assert_cmpint (cells[i].arg[ARG_THR_NODE], ==, i % 2);
  }
  /* A chosen node: only its pairings. */
  n = ms_test_lesson_cells ("numa", "buffer-node=1,exp=20", cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, 4);
  for (int i = 0; i < n; i++) {
    g_assert_cmpint (cells[i].arg[ARG_BUF_NODE], ==, 1);
    g_assert_cmpint (cells[i].exponent, ==, 20);
  }
  ms_numa_set_root (ONE);
  n = ms_test_lesson_cells ("numa", "", cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, 2);
  g_assert_cmpstr (cells[0].variant, ==, "dir=h2d/buf=0/thr=0");
  ms_numa_set_root (NULL);
  g_assert_true (ms_numa_root_is_host ());
}

static void
test_matters (void)
{
  ms_numa_set_root (TWO);
  Model m = { .near_gbps = 50, .far_gbps = 30 };
  MsResults *r = run_with (&m, "exp=20");
  g_assert_cmpuint (r->n_cells, ==, 8);
  g_assert_cmpint (m.calls, ==, 8 * 3);
  for (size_t i = 0; i < r->n_cells; i++) {
    g_assert_cmpint (r->cells[i].status, ==, MS_CELL_OK);
    /* The injected tree is not this host's: nothing was bound. */
    g_assert_true (g_str_has_prefix (r->cells[i].message, "gpu-node=1;"));
    g_assert_nonnull (strstr (r->cells[i].message, "not bound"));
  }
  char cap[2048] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_NUMA, r, -1, cap, sizeof cap));
  g_test_message ("%s", cap);
  g_assert_nonnull (strstr (cap, "attached to node 1"));
  g_assert_nonnull (strstr (cap, "Host to device: 50.0 GB/s at best (buffer on node 1, thread on "
                                 "node 1), 29.4 GB/s at worst (buffer on node 0, thread on node "
                                 "0), 41 % lower."));
  g_assert_nonnull (strstr (cap, "Device to host"));
  g_assert_nonnull (strstr (cap, "the placement matters: the NUMA node"));
  g_assert_null (strstr (cap, "less than a tenth"));

  const char *path = ms_test_tmp_path ("numa.csv");
  char err[256] = "";
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->n_cells, ==, r->n_cells);
  for (size_t i = 0; i < r->n_cells; i++)
    g_assert_nonnull (ms_results_find_variant (back, MS_MODE_PINNED, 20, r->cells[i].variant));
  char cap2[2048] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_NUMA, back, -1, cap2, sizeof cap2));
  g_assert_cmpstr (cap, ==, cap2);
  ms_results_free (back);
  ms_results_free (r);
  ms_numa_set_root (NULL);
}

static void
test_no_effect (void)
{
  ms_numa_set_root (TWO);
  Model m = { .near_gbps = 50, .far_gbps = 50 };
  MsResults *r = run_with (&m, "exp=18");
  char cap[2048] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_NUMA, r, -1, cap, sizeof cap));
  g_test_message ("%s", cap);
  g_assert_nonnull (strstr (cap, "less than a tenth"));
  g_assert_null (strstr (cap, "placement matters"));
  ms_results_free (r);
  ms_numa_set_root (NULL);
}

static void
test_one_node (void)
{
  ms_numa_set_root (ONE);
  Model m = { .near_gbps = 50, .far_gbps = 50 };
  MsResults *r = run_with (&m, "");
  g_assert_cmpuint (r->n_cells, ==, 2);
  g_assert_cmpint (m.calls, ==, 0);
  for (size_t i = 0; i < r->n_cells; i++) {
    g_assert_cmpint (r->cells[i].status, ==, MS_CELL_UNSUPPORTED);
    g_assert_cmpstr (r->cells[i].message, ==, "this host has one NUMA node");
  }
  char cap[2048] = "";
  g_assert_false (ms_lesson_caption (MS_TOPIC_NUMA, r, -1, cap, sizeof cap));
  g_assert_nonnull (strstr (cap, "Nothing measured: the host of this run's"));
  ms_results_free (r);
  ms_numa_set_root (NULL);
}

/* Binding on this host's own first node, and back. */
static void
test_bind (void)
{
  static MsNumaTopology t;
  ms_numa_read ("/sys", &t);
  if (t.n < 1) {
    g_test_skip ("this host shows no NUMA node in sysfs");
    return;
  }
  cpu_set_t before, saved, during, after;
  g_assert_cmpint (sched_getaffinity (0, sizeof before, &before), ==, 0);
  char why[256] = "";
  g_assert_false (
      ms_numa_bind (&t, t.nodes[0].id, 4242 % MS_NUMA_MAX_NODES + 1000, &saved, why, sizeof why));
  g_assert_nonnull (strstr (why, "no NUMA node"));
  if (!ms_numa_bind (&t, t.nodes[0].id, t.nodes[0].id, &saved, why, sizeof why)) {
    g_test_skip (why); /* a container may refuse set_mempolicy */
    return;
  }
  g_assert_cmpint (sched_getaffinity (0, sizeof during, &during), ==, 0);
  cpu_set_t want;
  CPU_AND (&want, &t.nodes[0].cpus, &before);
  g_assert_true (CPU_EQUAL (&during, &want));
  ms_numa_unbind (&saved);
  g_assert_cmpint (sched_getaffinity (0, sizeof after, &after), ==, 0);
  g_assert_true (CPU_EQUAL (&after, &before));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson-numa/cpulist", test_cpulist);
  g_test_add_func ("/lesson-numa/topology", test_topology);
  g_test_add_func ("/lesson-numa/options", test_options);
  g_test_add_func ("/lesson-numa/cells", test_cells);
  g_test_add_func ("/lesson-numa/matters", test_matters);
  g_test_add_func ("/lesson-numa/no-effect", test_no_effect);
  g_test_add_func ("/lesson-numa/one-node", test_one_node);
  g_test_add_func ("/lesson-numa/bind", test_bind);
  return g_test_run ();
}
