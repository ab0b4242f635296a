/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fleet.c: the fleet report on generated samples files. 1,000 nodes
 * written through the engine's own CSV writer and stamped, with a few
 * outliers planted (a slow link, a degraded GPU among two, a narrow link,
 * slow zero-copy and CPU) and one unreadable file: the report must flag
 * exactly those. How long the report took is printed, not judged: the
 * CPU suite holds no timed verdict, and on the shared 2-core machine the
 * same report took 0.94 to 3.73 s in six full runs of 2026-11-26 (a limit
 * of 10 s, one heavier load away). */
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
#include "files/ms-csv-io.h"
#include "files/ms-run-to-run-file.h"
#include "model/ms-results.h"
#include "model/ms-run-to-run.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"

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
   * alone: a 25% longer one is a node 20% slower at both. The others
   * spread a few percent too, as real nodes do: the fleet's spread is what
   * the nodes, which have no run-to-run profile, are judged with. */
  cfg.latency_us *= (1 + 0.03 * ((i * 11 % 7) - 3) / 3.0) * (i == SLOW_ZERO_COPY ? 1.25 : 1);
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

/* A calibration that found sd of ln(median) between processes for mode at
 * every size from 2^14 (the report's sizes' band). */
static void
set_profile (MsRunToRun *rr, MsMode mode, double sd)
{
  ms_run_to_run_clear (rr);
  rr->valid = true;
  rr->runs = 10;
  snprintf (rr->date, sizeof rr->date, "2026-11-24T00:00:00Z");
  for (int e = 14; e <= MS_MAX_EXPONENT; e++)
    rr->sd[mode][e] = sd;
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
  g_setenv ("MEMSWEEP_PROFILES_DIR", "/nonexistent", TRUE);
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
    /* No node has a profile and the test GPU none shipped: every figure
     * is judged by the fleet's spread over the 999 readable nodes. */
    for (int fig = 0; fig < MS_FLEET_N_FIGURES; fig++) {
      g_assert_cmpint (r->n_spread_uses[fig], ==, 1);
      g_assert_cmpint (r->spread_use[fig][0].source, ==, MS_FLEET_SPREAD_FLEET);
      g_assert_cmpint (r->spread_use[fig][0].n_nodes, ==, N_NODES - 1);
      g_assert_cmpint (r->spread_use[fig][0].entries, ==, N_NODES - 1);
    }
    g_assert_cmpint (r->nodes[SLOW_PINNED].why[MS_FLEET_PINNED_H2D], ==, MS_WHY_OUTSIDE);
  }
  ms_fleet_report_free (r);
}

/* A node's own run-to-run profile, as the report reads it from the node's
 * file: pinned, at sd. */
static void
set_node_profile (MsFleetNode *node, double sd)
{
  set_profile (&node->profile, MS_MODE_PINNED, sd);
  node->profile_source = MS_FLEET_SPREAD_OWN;
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
  /* 10.2% below 51, judged with a very quiet profile. */
  nodes[0].at[MS_FLEET_PINNED_H2D][22] = 45.8;
  set_node_profile (&nodes[0], 0.0005);
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
    set_node_profile (&nodes[i], 0.001);
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
  g_assert_cmpint (nodes[0].why[MS_FLEET_PINNED_H2D], ==, MS_WHY_CROSSES);
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
 * NODE-BUSID-samples.csv stamped with the GPU's index; with its own
 * run-to-run profile of pinned sd profile_sd, none where that is < 0. */
static void
write_gpu_profiled (const char *dir, const char *node, int gpu, const char *bus_id, double factor,
                    double profile_sd)
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
  if (profile_sd >= 0)
    set_profile (&r->run_to_run, MS_MODE_PINNED, profile_sd);
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  ms_results_free (r);
  MsFleetStamp stamp = { 0 };
  snprintf (stamp.node, sizeof stamp.node, "%s", node);
  snprintf (stamp.gpu, sizeof stamp.gpu, "%d", gpu);
  snprintf (stamp.bus_id, sizeof stamp.bus_id, "%s", bus_id);
  g_assert_true (ms_fleet_stamp (path, &stamp, err, sizeof err));
}

static void
write_gpu (const char *dir, const char *node, int gpu, const char *bus_id, double factor)
{
  write_gpu_profiled (dir, node, gpu, bus_id, factor, -1);
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
  /* Each file with its own quiet profile: a 15% slower GPU is SLOWER. */
  const char *dir = ms_test_tmp_folder ("per-gpu");
  write_gpu_profiled (dir, "a", 0, "00000000:19:00.0", 1.0, 0.01);
  write_gpu_profiled (dir, "a", 1, "00000000:3B:00.0", 0.85, 0.01);
  write_gpu_profiled (dir, "b", 0, "00000000:19:00.0", 1.01, 0.01);
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
  /* Every judged entry's verdict, why and spread source, flagged or not. */
  g_assert_nonnull (strstr (text, "memsweep_fleet_verdict{node=\"a\",gpu=\"1\","
                                  "bus_id=\"00000000:3B:00.0\",figure=\"pinned h2d\","
                                  "verdict=\"slower\",why=\"outside\",spread=\"own-profile\"} 1\n"));
  g_assert_nonnull (strstr (text, "memsweep_fleet_verdict{node=\"b\",gpu=\"0\","
                                  "bus_id=\"00000000:19:00.0\",figure=\"pinned d2h\","
                                  "verdict=\"same\",why=\"inside\",spread=\"own-profile\"} 1\n"));
  g_assert_nonnull (strstr (text, "memsweep_fleet_between_process_sd{node=\"a\",gpu=\"0\","
                                  "bus_id=\"00000000:19:00.0\",figure=\"pinned h2d\","
                                  "spread=\"own-profile\"} 0.01"));
  g_assert_nonnull (strstr (text, "memsweep_fleet_spread_entries{figure=\"pinned h2d\","
                                  "spread=\"own-profile\",device=\"\",measured_over=\"\"} 3\n"));
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

/* ---- the spread between processes each verdict takes ------------------ */

static const char *const buses[] = { "00000000:19:00.0", "00000000:3B:00.0" };

/* Four GPUs of the test model, one about 12% slower than the others (the
 * fewest entries that leave the fleet's own spread out): each file with
 * its own profile of pinned sd own_sd, none where that is < 0. The slow
 * one sorts last. */
static const char *
write_four (const char *name, double own_sd)
{
  const char *dir = ms_test_tmp_folder (name);
  write_gpu_profiled (dir, "n1", 0, buses[0], 1.0, own_sd);
  write_gpu_profiled (dir, "n2", 0, buses[0], 1.0, own_sd);
  write_gpu_profiled (dir, "n3", 0, buses[0], 1.01, own_sd);
  write_gpu_profiled (dir, "slow", 0, buses[0], 0.88, own_sd);
  return dir;
}

/* A folder of shipped profiles holding the test GPU's, pinned at sd; the
 * report reads it from MEMSWEEP_PROFILES_DIR. */
static void
ship_profile (const char *name, double sd)
{
  char path[1024], err[256];
  const char *dir = ms_test_tmp_folder (name);
  MsDeviceInfo device = { 0 };
  snprintf (device.name, sizeof device.name, "Test GPU");
  MsResults *like = ms_results_new (NULL, &device);
  MsRunToRun rr;
  set_profile (&rr, MS_MODE_PINNED, sd);
  snprintf (path, sizeof path, "%s/test-gpu.csv", dir);
  g_assert_true (ms_run_to_run_write_profile (&rr, like, path, err, sizeof err));
  ms_results_free (like);
  g_setenv ("MEMSWEEP_PROFILES_DIR", dir, TRUE);
}

static MsFleetReport *
report_of (const char *dir)
{
  char err[512];
  MsFleetReport *r = ms_fleet_report_dir (dir, 0.10, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpuint (r->n_nodes, >=, 4);
  return r;
}

static void
assert_judged (const MsFleetNode *node, MsVerdict verdict, MsVerdictWhy why,
               MsFleetSpreadSource source)
{
  for (int f = MS_FLEET_PINNED_H2D; f <= MS_FLEET_PINNED_D2H; f++) {
    g_assert_cmpint (node->verdict[f], ==, verdict);
    g_assert_cmpint (node->why[f], ==, why);
    g_assert_cmpint (node->spread[f].source, ==, source);
  }
  unsigned slow = 1u << MS_FLEET_PINNED_H2D | 1u << MS_FLEET_PINNED_D2H;
  g_assert_cmphex (node->flags, ==, verdict == MS_VERDICT_SLOWER ? slow : 0);
}

/* Without any profile and with fewer than 5 entries nothing measures the
 * spread between processes: the slow GPU is AMBIGUOUS for want of it, never
 * SLOWER. A quiet shipped profile of its model makes it SLOWER, a noisy one
 * AMBIGUOUS again; the file's own profile comes before the shipped one. */
static void
test_spread_profiles (void)
{
  g_setenv ("MEMSWEEP_PROFILES_DIR", "/nonexistent", TRUE);
  const char *dir = write_four ("spread-none", -1);
  MsFleetReport *r = report_of (dir);
  const MsFleetNode *slow = &r->nodes[3];
  g_assert_cmpstr (slow->node, ==, "slow");
  g_assert_cmpfloat (slow->deviation[MS_FLEET_PINNED_H2D], <, -0.10);
  g_assert_cmpfloat (slow->deviation[MS_FLEET_PINNED_H2D], >, -0.13);
  assert_judged (slow, MS_VERDICT_AMBIGUOUS, MS_WHY_NO_SPREAD, MS_FLEET_SPREAD_UNKNOWN);
  assert_judged (&r->nodes[0], MS_VERDICT_SAME, MS_WHY_INSIDE, MS_FLEET_SPREAD_UNKNOWN);
  g_assert_cmpint (r->n_outliers, ==, 0);
  g_assert_cmpint (r->n_no_spread, ==, 1);
  g_assert_cmpint (r->n_spread_uses[MS_FLEET_PINNED_H2D], ==, 1);
  g_assert_cmpint (r->spread_use[MS_FLEET_PINNED_H2D][0].source, ==, MS_FLEET_SPREAD_UNKNOWN);
  g_assert_cmpint (r->spread_use[MS_FLEET_PINNED_H2D][0].entries, ==, 4);
  ms_fleet_report_free (r);

  ship_profile ("shipped-quiet", 0.005);
  r = report_of (dir);
  assert_judged (&r->nodes[3], MS_VERDICT_SLOWER, MS_WHY_OUTSIDE, MS_FLEET_SPREAD_SHIPPED);
  assert_judged (&r->nodes[0], MS_VERDICT_SAME, MS_WHY_INSIDE, MS_FLEET_SPREAD_SHIPPED);
  g_assert_cmpint (r->n_outliers, ==, 1);
  g_assert_cmpint (r->n_no_spread, ==, 0);
  const MsFleetSpreadUse *use = &r->spread_use[MS_FLEET_PINNED_H2D][0];
  g_assert_true (r->n_spread_uses[MS_FLEET_PINNED_H2D] == 1 && use->entries == 4);
  g_assert_cmpstr (use->device, ==, "Test GPU");
  char what[512];
  ms_fleet_spread_use_describe (use, what, sizeof what);
  g_assert_nonnull (strstr (what, "Test GPU"));
  ms_fleet_report_free (r);

  ship_profile ("shipped-noisy", 0.1);
  r = report_of (dir);
  assert_judged (&r->nodes[3], MS_VERDICT_AMBIGUOUS, MS_WHY_CROSSES, MS_FLEET_SPREAD_SHIPPED);
  g_assert_cmpint (r->n_outliers, ==, 0);
  ms_fleet_report_free (r);

  /* Each file's own quiet profile, with the noisy one still shipped. */
  r = report_of (write_four ("spread-own", 0.005));
  assert_judged (&r->nodes[3], MS_VERDICT_SLOWER, MS_WHY_OUTSIDE, MS_FLEET_SPREAD_OWN);
  g_assert_cmpint (r->spread_use[MS_FLEET_PINNED_H2D][0].source, ==, MS_FLEET_SPREAD_OWN);
  ms_fleet_report_free (r);
  g_setenv ("MEMSWEEP_PROFILES_DIR", "/nonexistent", TRUE);
}

/* With no profile, 12 entries of one model give the fleet's own spread
 * (1.4826 MAD of ln(rate), 11 degrees of freedom): the one 15% slower is
 * SLOWER by it, the others SAME. Values that tie measure no spread. */
static void
test_spread_fleet (void)
{
  g_setenv ("MEMSWEEP_PROFILES_DIR", "/nonexistent", TRUE);
  const char *dir = ms_test_tmp_folder ("spread-fleet");
  char node[16];
  for (int i = 0; i < 12; i++) {
    snprintf (node, sizeof node, "n%02d", i);
    write_gpu (dir, node, 0, buses[0], i == 11 ? 0.85 : 1 + 0.005 * (i % 5 - 2));
  }
  MsFleetReport *r = report_of (dir);
  assert_judged (&r->nodes[11], MS_VERDICT_SLOWER, MS_WHY_OUTSIDE, MS_FLEET_SPREAD_FLEET);
  assert_judged (&r->nodes[0], MS_VERDICT_SAME, MS_WHY_INSIDE, MS_FLEET_SPREAD_FLEET);
  const MsFleetSpread *sp = &r->nodes[11].spread[MS_FLEET_PINNED_H2D];
  g_assert_cmpint (sp->n_nodes, ==, 12);
  g_assert_cmpint (sp->df, ==, 11);
  g_assert_cmpfloat (sp->sd, >, 0.001);
  g_assert_cmpfloat (sp->sd, <, 0.02);
  g_assert_cmpint (r->n_outliers, ==, 1);
  const MsFleetSpreadUse *use = &r->spread_use[MS_FLEET_PINNED_H2D][0];
  g_assert_true (use->source == MS_FLEET_SPREAD_FLEET && use->n_nodes == 12);
  char what[512];
  ms_fleet_spread_use_describe (use, what, sizeof what);
  g_assert_nonnull (strstr (what, "12"));
  ms_fleet_report_free (r);

  dir = ms_test_tmp_folder ("spread-ties");
  for (int i = 0; i < 6; i++) {
    snprintf (node, sizeof node, "n%02d", i);
    write_gpu (dir, node, 0, buses[0], i == 5 ? 0.85 : 1);
  }
  r = report_of (dir);
  assert_judged (&r->nodes[5], MS_VERDICT_AMBIGUOUS, MS_WHY_NO_SPREAD, MS_FLEET_SPREAD_UNKNOWN);
  ms_fleet_report_free (r);
}

/* Entries that name no GPU model ("none": runs without a GPU) have no
 * fleet spread, however many; named ones of a model with 5 entries do. */
static void
test_spread_no_model (void)
{
  MsFleetReport r = { .threshold = 0.1 };
  MsFleetNode nodes[6] = { 0 };
  r.nodes = nodes;
  r.n_nodes = 6;
  for (int i = 0; i < 6; i++) {
    nodes[i].readable = true;
    snprintf (nodes[i].device, sizeof nodes[i].device, "none");
    nodes[i].at[MS_FLEET_HOST][20] = i == 5 ? 7 : 10 + 0.1 * i;
  }
  ms_fleet_report_compute (&r);
  g_assert_cmpint (nodes[5].spread[MS_FLEET_HOST].source, ==, MS_FLEET_SPREAD_UNKNOWN);
  g_assert_cmpint (nodes[5].why[MS_FLEET_HOST], ==, MS_WHY_NO_SPREAD);
  for (int i = 0; i < 6; i++)
    snprintf (nodes[i].device, sizeof nodes[i].device, "%s", i == 0 ? "Other GPU" : "Test GPU");
  ms_fleet_report_compute (&r);
  g_assert_cmpint (nodes[0].spread[MS_FLEET_HOST].source, ==, MS_FLEET_SPREAD_UNKNOWN);
  g_assert_cmpint (nodes[5].spread[MS_FLEET_HOST].source, ==, MS_FLEET_SPREAD_FLEET);
  g_assert_cmpint (nodes[5].spread[MS_FLEET_HOST].n_nodes, ==, 5);
  g_assert_cmpint (nodes[5].verdict[MS_FLEET_HOST], ==, MS_VERDICT_SLOWER);
  g_assert_cmpint (r.n_spread_uses[MS_FLEET_HOST], ==, 2);
}

/* Replaces the first occurrence of from in the file with to. */
static void
edit_file (const char *path, const char *from, const char *to)
{
  char *text = read_text (path);
  char *at = strstr (text, from);
  g_assert_nonnull (at);
  *at = '\0';
  char *edited = g_strconcat (text, to, at + strlen (from), NULL);
  g_assert_true (g_file_set_contents (path, edited, -1, NULL));
  g_free (edited);
  g_free (text);
}

/* A node file whose own profile is damaged is still read: the damage is
 * named and the node judged by what comes next (a damaged run-to-run line:
 * the shipped profile; a damaged pinned line: the profile knows nothing of
 * pinned, so the fleet's spread or none). */
static void
test_spread_damaged_profile (void)
{
  ship_profile ("shipped-for-damaged", 0.005);
  const char *dir = write_four ("spread-damaged", 0.005);
  char path[1024];
  snprintf (path, sizeof path, "%s/n1-00000000-19-00.0-meta.json", dir);
  edit_file (path, "\"run-to-run\": \"10 runs", "\"run-to-run\": \"ten runs");
  snprintf (path, sizeof path, "%s/slow-00000000-19-00.0-meta.json", dir);
  edit_file (path, "\"run-to-run-sd-pinned\": \"14=", "\"run-to-run-sd-pinned\": \"14=x");
  MsFleetReport *r = report_of (dir);
  g_assert_cmpint (r->n_unreadable, ==, 0);
  g_assert_nonnull (strstr (r->nodes[0].profile_error, "run-to-run line"));
  g_assert_cmpint (r->nodes[0].spread[MS_FLEET_PINNED_H2D].source, ==, MS_FLEET_SPREAD_SHIPPED);
  g_assert_cmpstr (r->nodes[1].profile_error, ==, "");
  g_assert_cmpint (r->nodes[1].spread[MS_FLEET_PINNED_H2D].source, ==, MS_FLEET_SPREAD_OWN);
  g_assert_nonnull (strstr (r->nodes[3].profile_error, "run-to-run-sd-pinned"));
  assert_judged (&r->nodes[3], MS_VERDICT_AMBIGUOUS, MS_WHY_NO_SPREAD, MS_FLEET_SPREAD_UNKNOWN);
  ms_fleet_report_free (r);
  g_setenv ("MEMSWEEP_PROFILES_DIR", "/nonexistent", TRUE);
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
  g_test_add_func ("/fleet/spread-profiles", test_spread_profiles);
  g_test_add_func ("/fleet/spread-fleet", test_spread_fleet);
  g_test_add_func ("/fleet/spread-no-model", test_spread_no_model);
  g_test_add_func ("/fleet/spread-damaged-profile", test_spread_damaged_profile);
  int rc = g_test_run ();
  return rc;
}
