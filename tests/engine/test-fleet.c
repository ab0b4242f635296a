/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fleet.c: the fleet report on generated samples files. 1,000 nodes
 * written through the engine's own CSV writer and stamped, with a few
 * outliers planted (a slow link, a degraded GPU among two, a narrow link,
 * slow zero-copy and CPU) and one unreadable file: the report must flag
 * exactly those, and read the whole fleet in seconds. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-fleet.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"

enum { N_NODES = 1000, SLOW_PINNED = 17, SLOW_ZERO_COPY = 250, GEN4 = 500, X8 = 999,
       GARBAGE = 800 };

static double
seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One node's sweep: pinned, zero-copy and host at 2^22 and 2^26, with a
 * pinned bandwidth a few percent either side of the fleet's (never 10%). */
static bool
write_node (const char *dir, int i)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  double jitter = 1 + 0.03 * ((i * 37 % 13) - 6) / 6.0;
  cfg.bandwidth_gbps[MS_MODE_PINNED] = 50 * jitter * (i == SLOW_PINNED ? 0.85 : 1);
  /* The test backend models the zero-copy and host kernels as latency
   * alone: a 25% longer one is a node 20% slower at both. */
  cfg.latency_us *= i == SLOW_ZERO_COPY ? 1.25 : 1;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  /* 6 repetitions: the fewest that give a 95% interval, without which the
   * verdict against the fleet's median (ms-compare.h) is ambiguous. */
  ms_test_sweep_init (&s, "pinned,zero-copy,host", 22, 26, 6);
  s.step = 4;
  /* As fleet-node runs it: the copies' figures need every repetition timed. */
  s.instr_reps = 0;
  s.warmup = 0;
  MsResults *r = NULL;
  char err[512], path[512];
  bool ok = ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err) == MS_RUN_OK;
  ms_backend_free (b);
  if (ok) {
    r->device.pcie_gen = 5;
    r->device.pcie_width = i == X8 ? 8 : 16;
    snprintf (path, sizeof path, "%s/node%04d-samples.csv", dir, i);
    ok = ms_csv_write_samples (r, path, err, sizeof err);
  }
  ms_results_free (r);
  MsFleetStamp stamp = { 0 };
  snprintf (stamp.node, sizeof stamp.node, "n%04d", i);
  snprintf (stamp.serials, sizeof stamp.serials, "16502240%05d,16502241%05d", i, i);
  /* Two GPUs; on one node the second trained down to gen4. The x8 node
   * has no stamp links: its samples file's own pcie-link speaks. */
  if (i != X8)
    snprintf (stamp.links, sizeof stamp.links, "gen5x16,%s", i == GEN4 ? "gen4x16" : "gen5x16");
  if (ok)
    ok = ms_fleet_stamp (path, &stamp, err, sizeof err);
  if (!ok)
    fprintf (stderr, "node %d: %s\n", i, err);
  return ok;
}

static void
check_flags (const MsFleetReport *r)
{
  int flagged = 0;
  for (size_t k = 0; k < r->n_nodes; k++) {
    const MsFleetNode *node = &r->nodes[k];
    int i = atoi (node->node + 1);
    unsigned want = 0;
    if (i == SLOW_PINNED)
      want = 1u << MS_FLEET_PINNED_H2D | 1u << MS_FLEET_PINNED_D2H;
    else if (i == SLOW_ZERO_COPY)
      want = 1u << MS_FLEET_ZERO_COPY | 1u << MS_FLEET_HOST;
    else if (i == GEN4 || i == X8)
      want = MS_FLEET_FLAG_LINK;
    if (i == GARBAGE) {
      g_assert_false (node->readable);
      g_assert_nonnull (strstr (node->error, "node0800"));
      continue;
    }
    g_assert_cmphex (node->flags, ==, want);
    flagged += node->flags != 0;
  }
  g_assert_cmpint (flagged, ==, 4);
  g_assert_cmpint (r->n_outliers, ==, 4);
  g_assert_cmpint (r->n_unreadable, ==, 1);
}

static void
test_fleet_1000 (void)
{
  const char *dir = ms_test_tmp_folder ("fleet");
  bool ok = true;
  for (int i = 0; i < N_NODES && ok; i++)
    ok = i == GARBAGE || write_node (dir, i);
  g_assert_true (ok);
  char path[512];
  snprintf (path, sizeof path, "%s/node%04d-samples.csv", dir, GARBAGE);
  FILE *f = fopen (path, "w");
  if (f) {
    fputs ("# memsweep samples file\nthis is not a samples file\n", f);
    fclose (f);
  }

  double t0 = seconds ();
  char err[512];
  MsFleetReport *r = ms_fleet_report_dir (dir, 0.10, err, sizeof err);
  double took = seconds () - t0;
  printf ("# report of %d nodes in %.2f s\n", N_NODES, took);
  g_assert_nonnull (r);
  if (r) {
    g_assert_cmpuint (r->n_nodes, ==, N_NODES);
    g_assert_cmpint (r->exponent[MS_FLEET_PINNED_H2D], ==, 26);
    g_assert_cmpint (r->common_gen, ==, 5);
    g_assert_cmpint (r->common_width, ==, 16);
    g_assert_cmpstr (r->nodes[0].node, ==, "n0000");
    g_assert_nonnull (strstr (r->nodes[3].serials, "1650224000003"));
    g_assert_cmpint (r->nodes[GEN4].pcie_gen, ==, 4);
    check_flags (r);
    g_assert_cmpfloat (r->nodes[SLOW_PINNED].deviation[MS_FLEET_PINNED_H2D], <, -0.10);
  }
  g_assert_cmpfloat (took, <, 10);
  ms_fleet_report_free (r);
}

/* The report's size is the largest one every node has; a node without a
 * mode at all does not hold the others back. */
static void
test_common_size (void)
{
  MsFleetReport r = { .threshold = 0.1 };
  MsFleetNode nodes[3] = { 0 };
  r.nodes = nodes;
  r.n_nodes = 3;
  for (int i = 0; i < 3; i++) {
    nodes[i].readable = true;
    nodes[i].at[MS_FLEET_PINNED_H2D][20] = 40;
    nodes[i].at[MS_FLEET_PINNED_H2D][22] = 50 + i;
  }
  nodes[1].at[MS_FLEET_PINNED_H2D][24] = 55; /* only one node went further */
  nodes[2].at[MS_FLEET_HOST][20] = 9;        /* only one node has host */
  ms_fleet_report_compute (&r);
  g_assert_cmpint (r.exponent[MS_FLEET_PINNED_H2D], ==, 22);
  g_assert_cmpfloat (fabs ((double)(r.median[MS_FLEET_PINNED_H2D]) - (double)(51)), <=, 1e-12);
  g_assert_cmpint (r.exponent[MS_FLEET_HOST], ==, 20);
  g_assert_true (r.exponent[MS_FLEET_ZERO_COPY] == -1);
  g_assert_true (r.n_outliers == 0);
  nodes[0].at[MS_FLEET_PINNED_H2D][22] = 45.8; /* 10.2% below 51 */
  ms_fleet_report_compute (&r);
  g_assert_cmphex (nodes[0].flags, ==, 1u << MS_FLEET_PINNED_H2D);
  g_assert_true (r.n_outliers == 1);
}

/* The fleet judges a node by the rule `memsweep compare` uses: 15% below
 * the median is flagged only when the node's interval is apart from it, and
 * a node as far above is flagged HIGH. */
static void
test_interval_verdicts (void)
{
  MsFleetReport r = { .threshold = 0.1 };
  MsFleetNode nodes[5] = { 0 };
  r.nodes = nodes;
  r.n_nodes = 5;
  for (int i = 0; i < 5; i++) {
    nodes[i].readable = true;
    nodes[i].at[MS_FLEET_PINNED_H2D][22] = 50;
  }
  nodes[0].at[MS_FLEET_PINNED_H2D][22] = 42.5; /* a wide interval reaching 50 */
  nodes[0].at_lo[MS_FLEET_PINNED_H2D][22] = 35;
  nodes[0].at_hi[MS_FLEET_PINNED_H2D][22] = 51;
  nodes[0].at_valid[MS_FLEET_PINNED_H2D][22] = true;
  nodes[1].at[MS_FLEET_PINNED_H2D][22] = 42.5; /* a narrow one */
  nodes[1].at_lo[MS_FLEET_PINNED_H2D][22] = 42;
  nodes[1].at_hi[MS_FLEET_PINNED_H2D][22] = 43;
  nodes[1].at_valid[MS_FLEET_PINNED_H2D][22] = true;
  nodes[2].at[MS_FLEET_PINNED_H2D][22] = 57.5; /* no interval: a point */
  ms_fleet_report_compute (&r);
  g_assert_cmpfloat (r.median[MS_FLEET_PINNED_H2D], ==, 50);
  g_assert_cmpint (nodes[0].verdict[MS_FLEET_PINNED_H2D], ==, MS_VERDICT_AMBIGUOUS);
  g_assert_cmphex (nodes[0].flags, ==, 0);
  g_assert_cmpint (nodes[1].verdict[MS_FLEET_PINNED_H2D], ==, MS_VERDICT_SLOWER);
  g_assert_cmphex (nodes[1].flags, ==, 1u << MS_FLEET_PINNED_H2D);
  g_assert_cmpint (nodes[2].verdict[MS_FLEET_PINNED_H2D], ==, MS_VERDICT_FASTER);
  g_assert_cmphex (nodes[2].flags, ==, MS_FLEET_FLAG_HIGH (MS_FLEET_PINNED_H2D));
  g_assert_cmpint (nodes[3].verdict[MS_FLEET_PINNED_H2D], ==, MS_VERDICT_SAME);
  g_assert_cmpint (r.n_outliers, ==, 2);
}

static void
test_stamp_twice (void)
{
  const char *path = ms_test_tmp_file ("stamp-samples.csv",
                                       "# memsweep samples file\n# device: X\nmode,elements\n");
  MsFleetStamp s = { .node = "a" };
  char err[256];
  g_assert_true (ms_fleet_stamp (path, &s, err, sizeof err));
  snprintf (s.node, sizeof s.node, "b\nc");
  g_assert_true (ms_fleet_stamp (path, &s, err, sizeof err));
  char buf[512] = "";
  FILE *f = fopen (path, "r");
  size_t n = f ? fread (buf, 1, sizeof buf - 1, f) : 0;
  buf[n] = '\0';
  if (f)
    fclose (f);
  g_assert_cmpstr (buf, ==,
                   "# memsweep samples file\n# device: X\n# node: b c\n# gpu-serials: "
                   "unknown\n# gpu-pcie-links: unknown\nmode,elements\n");
  g_assert_false (ms_fleet_stamp ("/nonexistent/x-samples.csv", &s, err, sizeof err));
  g_assert_nonnull (strstr (err, "/nonexistent"));
}

static size_t
entries_in (const char *dir)
{
  size_t n = 0;
  DIR *d = opendir (dir);
  for (struct dirent *e; d && (e = readdir (d));)
    n += e->d_name[0] != '.';
  if (d)
    closedir (d);
  return n;
}

/* A disk that fills up while the stamp is written (a file size limit, as
 * a nearly full disk): the stamp fails and the complete file stays as it
 * was, with no temporary beside it. */
static void
test_stamp_full_disk (void)
{
  const char *dir = ms_test_tmp_folder ("stamp-full");
  const char *path = ms_test_tmp_path ("stamp-full/n-samples.csv");
  enum { SIZE = 1 << 20 };
  char *text = malloc (SIZE);
  memset (text, 'x', SIZE);
  memcpy (text, "# memsweep samples file\n", 24);
  text[SIZE - 1] = '\n';
  FILE *f = fopen (path, "w");
  g_assert_true (f && fwrite (text, 1, SIZE, f) == SIZE && fclose (f) == 0);
  struct rlimit old, small = { SIZE / 2, SIZE / 2 };
  getrlimit (RLIMIT_FSIZE, &old);
  small.rlim_max = old.rlim_max;
  signal (SIGXFSZ, SIG_IGN);
  setrlimit (RLIMIT_FSIZE, &small);
  MsFleetStamp s = { .node = "n" };
  char err[512] = "";
  bool ok = ms_fleet_stamp (path, &s, err, sizeof err);
  setrlimit (RLIMIT_FSIZE, &old);
  g_assert_true (!ok);
  g_assert_true (strstr (err, path) && strstr (err, "File too large"));
  struct stat st;
  g_assert_true (stat (path, &st) == 0 && st.st_size == SIZE);
  g_assert_true (entries_in (dir) == 1);
  free (text);
}

/* The stamped file keeps the mode the run gave it (the user's umask), so
 * that others in a shared fleet folder can read it. */
static void
test_stamp_keeps_mode (void)
{
  const char *path = ms_test_tmp_path ("mode-samples.csv");
  mode_t mask = umask (022);
  FILE *f = fopen (path, "w");
  g_assert_true (f && fputs ("# memsweep samples file\nmode,elements\n", f) >= 0 && fclose (f) == 0);
  MsFleetStamp s = { .node = "n" };
  char err[512] = "";
  g_assert_true (ms_fleet_stamp (path, &s, err, sizeof err));
  umask (mask);
  struct stat st;
  g_assert_true (stat (path, &st) == 0 && (st.st_mode & 07777) == 0644);
}

/* GPU gpu of node, pinned at 50 GB/s times factor, as fleet-node writes it:
 * NODE-BUSID-samples.csv stamped with the GPU's index. */
static void
write_gpu (const char *dir, const char *node, int gpu, const char *bus_id, double factor)
{
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.bandwidth_gbps[MS_MODE_PINNED] = 50 * factor;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsSweep s;
  ms_test_sweep_init (&s, "pinned", 22, 22, 6);
  s.instr_reps = 0;
  s.warmup = 0;
  MsResults *r = NULL;
  char err[512], path[1024], file_bus[32];
  g_assert_true (ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err) == MS_RUN_OK);
  ms_backend_free (b);
  snprintf (file_bus, sizeof file_bus, "%s", bus_id);
  for (char *p = file_bus; *p; p++)
    *p = *p == ':' ? '-' : *p;
  snprintf (path, sizeof path, "%s/%s-%s-samples.csv", dir, node, file_bus);
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  ms_results_free (r);
  MsFleetStamp stamp = { 0 };
  snprintf (stamp.node, sizeof stamp.node, "%s", node);
  snprintf (stamp.gpu, sizeof stamp.gpu, "%d", gpu);
  snprintf (stamp.bus_id, sizeof stamp.bus_id, "%s", bus_id);
  g_assert_true (ms_fleet_stamp (path, &stamp, err, sizeof err));
}

static char *
read_text (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* A GPU's stamp goes where the file's metadata is: into the sidecar of a
 * plain CSV file, as lines of a file of the older format with its
 * metadata inline (no sidecar made); the report reads it from both. */
static void
test_gpu_stamp_sidecar_and_inline (void)
{
  const char *dir = ms_test_tmp_folder ("gpu-stamps");
  write_gpu (dir, "new", 3, "00000000:3B:00.0", 1.0);
  char path[1024], err[512];
  snprintf (path, sizeof path, "%s/new-00000000-3B-00.0-meta.json", dir);
  char *meta = read_text (path);
  g_assert_nonnull (strstr (meta, "\"gpu\": \"3\""));
  g_assert_nonnull (strstr (meta, "\"gpu-bus-id\": \"00000000:3B:00.0\""));
  g_free (meta);
  snprintf (path, sizeof path, "%s/old-samples.csv", dir);
  char *old = read_text (MS_OLD_FORMAT_DIR "/h100-default-samples.csv");
  g_assert_true (g_file_set_contents (path, old, -1, NULL));
  g_free (old);
  MsFleetStamp stamp = { .node = "old", .gpu = "1", .bus_id = "00000000:19:00.0" };
  g_assert_true (ms_fleet_stamp (path, &stamp, err, sizeof err));
  char *text = read_text (path);
  g_assert_nonnull (strstr (text, "\n# gpu: 1\n# gpu-bus-id: 00000000:19:00.0\n"));
  g_free (text);
  snprintf (path, sizeof path, "%s/old-meta.json", dir);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  MsFleetReport *r = ms_fleet_report_dir (dir, 0.10, err, sizeof err);
  g_assert_nonnull (r);
  if (!r)
    return;
  g_assert_cmpuint (r->n_nodes, ==, 2);
  g_assert_cmpint (r->n_unreadable, ==, 0);
  /* Sorted by node: "new" before "old". */
  g_assert_cmpstr (r->nodes[0].gpu, ==, "3");
  g_assert_cmpstr (r->nodes[0].bus_id, ==, "00000000:3B:00.0");
  g_assert_cmpstr (r->nodes[1].node, ==, "old");
  g_assert_cmpstr (r->nodes[1].gpu, ==, "1");
  g_assert_cmpstr (r->nodes[1].bus_id, ==, "00000000:19:00.0");
  ms_fleet_report_free (r);
}

/* Every line of OpenMetrics text: a family's TYPE and HELP before its
 * samples, samples as name{labels} value, and "# EOF" last. */
static void
check_openmetrics_syntax (const char *text)
{
  /* A label value: any character but a quote or backslash, or an escape. */
  GRegex *sample = g_regex_new ("^(memsweep_[a-z_]+)\\{[a-z_]+=\"([^\"\\\\]|\\\\.)*\""
                                "(,[a-z_]+=\"([^\"\\\\]|\\\\.)*\")*\\} -?[0-9.e+-]+$",
                                0, 0, NULL);
  char **lines = g_strsplit (text, "\n", -1);
  char family[128] = "";
  guint n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpstr (lines[n - 2], ==, "# EOF");
  g_assert_cmpstr (lines[n - 1], ==, "");
  for (guint i = 0; i + 2 < n; i++) {
    GMatchInfo *m = NULL;
    if (sscanf (lines[i], "# TYPE %127s gauge", family) == 1)
      continue;
    if (g_str_has_prefix (lines[i], "# HELP "))
      continue;
    if (!g_regex_match (sample, lines[i], 0, &m))
      g_error ("not an OpenMetrics sample: %s", lines[i]);
    char *name = g_match_info_fetch (m, 1);
    g_assert_cmpstr (name, ==, family);
    g_free (name);
    g_match_info_free (m);
  }
  g_strfreev (lines);
  g_regex_unref (sample);
}

/* One entry per GPU; the entries fleet expected and never got are listed
 * as missing; the OpenMetrics text has them all. */
static void
test_per_gpu_and_openmetrics (void)
{
  const char *dir = ms_test_tmp_folder ("per-gpu");
  write_gpu (dir, "a", 0, "00000000:19:00.0", 1.0);
  write_gpu (dir, "a", 1, "00000000:3B:00.0", 0.85);
  write_gpu (dir, "b", 0, "00000000:19:00.0", 1.01);
  char path[1024], err[512];
  snprintf (path, sizeof path, "%s/%s", dir, MS_FLEET_EXPECTED_FILE);
  g_assert_true (g_file_set_contents (path, "a 2 11\nb 2 12\nc 0 -\n", -1, NULL));
  MsFleetReport *r = ms_fleet_report_dir (dir, 0.10, err, sizeof err);
  g_assert_nonnull (r);
  if (!r)
    return;
  /* a/0 a/1 b/0 b/1 (missing) c (missing) */
  g_assert_cmpuint (r->n_nodes, ==, 5);
  g_assert_cmpuint (r->n_copies, ==, 0);
  g_assert_cmpint (r->n_missing, ==, 2);
  g_assert_cmpint (r->n_unreadable, ==, 0);
  g_assert_true (strcmp (r->nodes[1].node, "a") == 0 && strcmp (r->nodes[1].gpu, "1") == 0);
  g_assert_cmpstr (r->nodes[1].bus_id, ==, "00000000:3B:00.0");
  g_assert_cmphex (r->nodes[1].flags, ==, 1u << MS_FLEET_PINNED_H2D | 1u << MS_FLEET_PINNED_D2H);
  g_assert_true (r->nodes[3].missing && strcmp (r->nodes[3].gpu, "1") == 0);
  g_assert_true (r->nodes[4].missing && strcmp (r->nodes[4].node, "c") == 0);

  const char *om = ms_test_tmp_path ("per-gpu.prom");
  g_assert_true (ms_fleet_write_openmetrics (r, om, err, sizeof err));
  char *text = read_text (om);
  check_openmetrics_syntax (text);
  g_assert_nonnull (strstr (text, "memsweep_fleet_flag{node=\"a\",gpu=\"1\","
                                  "bus_id=\"00000000:3B:00.0\",figure=\"pinned h2d\"} -1\n"));
  g_assert_nonnull (strstr (text, "memsweep_fleet_flag{node=\"a\",gpu=\"0\","
                                  "bus_id=\"00000000:19:00.0\",figure=\"pinned h2d\"} 0\n"));
  g_assert_nonnull (strstr (text, "memsweep_fleet_reported{node=\"b\",gpu=\"1\",bus_id=\"\"} 0\n"));
  g_assert_nonnull (strstr (text, "memsweep_fleet_reported{node=\"c\",gpu=\"\",bus_id=\"\"} 0\n"));
  g_assert_nonnull (strstr (text, "memsweep_fleet_size_bytes{figure=\"pinned h2d\"} 16777216\n"));
  g_free (text);

  /* A label value with a quote, a backslash and a line break stays one
   * label. */
  snprintf (r->nodes[0].node, sizeof r->nodes[0].node, "x\"y\\z\nw");
  g_assert_true (ms_fleet_write_openmetrics (r, om, err, sizeof err));
  text = read_text (om);
  check_openmetrics_syntax (text);
  g_assert_nonnull (strstr (text, "node=\"x\\\"y\\\\z\\nw\""));
  g_free (text);
  ms_fleet_report_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fleet/stamp-twice", test_stamp_twice);
  g_test_add_func ("/fleet/per-gpu-and-openmetrics", test_per_gpu_and_openmetrics);
  g_test_add_func ("/fleet/common-size", test_common_size);
  g_test_add_func ("/fleet/interval-verdicts", test_interval_verdicts);
  g_test_add_func ("/fleet/fleet-1000", test_fleet_1000);
  g_test_add_func ("/fleet/stamp-full-disk", test_stamp_full_disk);
  g_test_add_func ("/fleet/stamp-keeps-mode", test_stamp_keeps_mode);
  g_test_add_func ("/fleet/gpu-stamp-sidecar-and-inline", test_gpu_stamp_sidecar_and_inline);
  int rc = g_test_run ();
  return rc;
}
