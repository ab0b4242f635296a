/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-multi: every multi-GPU experiment against a plain reference loop in
 * the same process, with a PASS or FAIL line per comparison:
 *  1. pinned h2d and d2h at 2^26: memsweep's multi-GPU sweep against
 *     cudaMemcpyAsync loops, each GPU alone and all GPUs at once;
 *  2. the peer matrix: cudaMemcpyPeerAsync as memsweep times it against a
 *     loop of ten per event pair, and against the link's nominal rate;
 *  3. portable pinned memory: the shared buffer against one per GPU.
 * Exits 77 with fewer than two GPUs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-fixture.h"
#include "model/ms-results.h"
#include "ms-kernels.h"
#include "ms-multi.h"

#define EXP 26
static int fails;

/* PASS when got reaches min_ratio of want. */
static void
verdict (const char *what, const char *got_name, double got, const char *want_name,
         double want, double min_ratio)
{
  bool pass = want > 0 && got >= min_ratio * want;
  printf ("%s %s: %s %.2f vs %s %.2f GB/s, ratio %.3f (at least %.2f)\n",
          pass ? "PASS" : "FAIL", what, got_name, got, want_name, want,
          want > 0 ? got / want : 0, min_ratio);
  fails += !pass;
}

typedef struct {
  int device, to_device;
  pthread_barrier_t *start;
  double gbps;
  char err[256];
} RefJob;

static void *
ref_thread (void *data)
{
  RefJob *j = data;
  uint64_t bytes = 4ull << EXP;
  if (j->start)
    pthread_barrier_wait (j->start);
  double us = ms_k_reference_copy_us (j->device, bytes, j->to_device, 2, 11, 10,
                                      MS_K_HOST_REUSED, j->err, sizeof j->err);
  j->gbps = us > 0 ? bytes / (us * 1e3) : 0;
  ms_k_shutdown ();
  return NULL;
}

/* The reference on devices at once (n > 1) or one alone. */
static void
reference (const int *devices, int n, int to_device, double *gbps)
{
  pthread_barrier_t start;
  pthread_t tid[MS_MULTI_MAX_DEVICES];
  RefJob job[MS_MULTI_MAX_DEVICES];
  pthread_barrier_init (&start, NULL, (unsigned) n);
  for (int i = 0; i < n; i++) {
    job[i] = (RefJob) { .device = devices[i], .to_device = to_device, .start = &start };
    pthread_create (&tid[i], NULL, ref_thread, &job[i]);
  }
  for (int i = 0; i < n; i++) {
    pthread_join (tid[i], NULL);
    gbps[i] = job[i].gbps;
    if (job[i].err[0])
      printf ("reference on gpu %d: %s\n", devices[i], job[i].err);
  }
  pthread_barrier_destroy (&start);
}

static MsMultiResults *
memsweep_multi (MsBackend *backend, const int *devices, int n)
{
  MsSweep s;
  bench_one_cell_sweep (&s, MS_MODE_PINNED, EXP, 11);
  s.warmup = 2;
  MsMultiResults *r = NULL;
  char err[512] = "";
  if (ms_multi_run (&s, devices, n, backend, NULL, NULL, NULL, &r, err, sizeof err) != MS_RUN_OK)
    printf ("memsweep multi: %s\n", err);
  return r;
}

static double
cell_gbps (const MsMultiResults *r, int slot, bool h2d)
{
  const MsCell *c = r ? ms_results_find (r->per_device[slot], MS_MODE_PINNED, EXP) : NULL;
  if (!c || c->status != MS_CELL_OK)
    return 0;
  return h2d ? c->stats.h2d_gbps : c->stats.d2h_gbps;
}

static void
bench_copies (MsBackend *backend, const int *devices, int n)
{
  printf ("\n1. pinned copies of 256 MiB, GB/s: memsweep (h2d + kernel + d2h per repetition) "
          "vs reference (10 cudaMemcpyAsync per event pair)\n");
  for (int dir = 1; dir >= 0; dir--) {
    const char *name = dir ? "h2d" : "d2h";
    double ref_alone[MS_MULTI_MAX_DEVICES], ref_all[MS_MULTI_MAX_DEVICES], sum_ref = 0,
                                                                           sum_ms = 0;
    MsMultiResults *all = memsweep_multi (backend, devices, n);
    reference (devices, n, dir, ref_all);
    for (int i = 0; i < n; i++) {
      MsMultiResults *alone = memsweep_multi (backend, &devices[i], 1);
      reference (&devices[i], 1, dir, &ref_alone[i]);
      double ms_alone = cell_gbps (alone, 0, dir), ms_all = cell_gbps (all, i, dir);
      char what[96];
      snprintf (what, sizeof what, "%s gpu %d alone", name, devices[i]);
      verdict (what, "memsweep", ms_alone, "reference", ref_alone[i], 0.9);
      snprintf (what, sizeof what, "%s gpu %d with all %d at once", name, devices[i], n);
      verdict (what, "memsweep", ms_all, "reference", ref_all[i], 0.85);
      sum_ref += ref_all[i];
      sum_ms += ms_all;
      ms_multi_results_free (alone);
    }
    printf ("     %s all at once, sum over GPUs: memsweep %.2f, reference %.2f GB/s\n", name,
            sum_ms, sum_ref);
    ms_multi_results_free (all);
  }
}

static void
bench_peer (const int *devices, int n)
{
  MsPeerResults *r = calloc (1, sizeof *r);
  if (!r || !ms_peer_run (devices, n, 4ull << EXP, 11, r)) {
    printf ("FAIL peer: %s\n", r ? r->error : "out of memory");
    fails++;
    free (r);
    return;
  }
  printf ("\n2. peer copies of 256 MiB, GB/s per direction\n");
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (i == j)
        continue;
      int links = r->topo.nvlinks[i][j];
      printf ("     gpu %d -> %d: %d NVLinks, peer access %s; on %.1f off %.1f kernel %.1f "
              "staged %.1f; bidirectional on %.1f\n", devices[i], devices[j], links,
              r->can_access[i][j] ? "yes" : "no",
              r->cell[MS_PEER_COPY_ENABLED][i][j].uni_gbps,
              r->cell[MS_PEER_COPY_DISABLED][i][j].uni_gbps,
              r->cell[MS_PEER_KERNEL_READ][i][j].uni_gbps, r->cell[MS_PEER_STAGED][i][j].uni_gbps,
              r->cell[MS_PEER_COPY_ENABLED][i][j].bi_gbps);
      if (!r->can_access[i][j])
        continue;
      double ours = r->cell[MS_PEER_COPY_ENABLED][i][j].uni_gbps, ref = r->reference_gbps[i][j];
      char what[96];
      snprintf (what, sizeof what, "peer %d -> %d", devices[i], devices[j]);
      verdict (what, "memsweep", ours, "reference loop", ref, 0.9);
      if (links > 0) {
        snprintf (what, sizeof what, "peer %d -> %d over %d NVLinks x 25 GB/s", devices[i],
                  devices[j], links);
        verdict (what, "reference loop", ref, "nominal", links * 25.0, 0.7);
      }
    }
  }
  free (r);
}

static void
bench_portable (const int *devices, int n)
{
  MsPortableResults *r = calloc (1, sizeof *r);
  if (!r || !ms_portable_run (devices, n, 4ull << EXP, 11, r)) {
    printf ("FAIL portable: %s\n", r ? r->error : "out of memory");
    fails++;
    free (r);
    return;
  }
  printf ("\n3. pinned memory across GPUs, 256 MiB, GB/s\n");
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
      const MsPortableCell *c = &r->cell[k][i];
      printf ("     gpu %d, %s: %s h2d %.2f d2h %.2f (%s)\n", devices[i],
              ms_portable_case_name (k), c->ok ? "ok" : "FAILED", c->h2d_gbps, c->d2h_gbps,
              c->note);
    }
    double own = r->cell[MS_PORTABLE_PER_DEVICE][i].h2d_gbps;
    double shared = r->cell[MS_PORTABLE_SHARED][i].h2d_gbps;
    char what[96];
    snprintf (what, sizeof what, "portable buffer on gpu %d, h2d", devices[i]);
    verdict (what, "shared", shared, "its own buffer", own, 0.9);
  }
  free (r);
}

int
main (void)
{
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  if (!ms_backend_query_device (backend, 0, &info) || info.count < 2) {
    printf ("SKIP: needs 2 or more GPUs (%s)\n", info.present ? "1 visible" : info.error);
    ms_backend_free (backend);
    return 77;
  }
  int devices[MS_MULTI_MAX_DEVICES], n = 0;
  char err[256];
  ms_multi_parse_devices ("all", info.count, devices, &n, err, sizeof err);
  printf ("%d x %s, PCIe gen%d x%d\n", n, info.name, info.pcie_gen, info.pcie_width);
  bench_copies (backend, devices, n);
  bench_peer (devices, n);
  bench_portable (devices, n);
  ms_backend_free (backend);
  printf ("\n%s: %d comparison%s failed\n", fails ? "FAILED" : "PASSED", fails,
          fails == 1 ? "" : "s");
  return fails ? 1 : 0;
}
