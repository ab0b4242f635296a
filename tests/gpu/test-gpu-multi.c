/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gpu-multi.c: the gpu suite's multi-GPU part. On a host with two or
 * more GPUs: the sweep on all of them at once (every cell verified), the
 * peer matrix with every method, and the portable pinned memory cases.
 * Exits 77 (skip) with the reason on a host with fewer than two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-modes.h"
#include "ms-multi.h"
#include "ms-peer-doubt.h"
#include "ms-peer-file.h"
#include "ms-sweep.h"
#include "ms-test.h"
#include "run/ms-backend.h"

/* CHECK as the gpu suite prints it, counted by ms-test.h. */
#define CHECK MS_CHECK

static void
check_multi (MsBackend *backend, const int *devices, int n)
{
  MsSweep s;
  ms_sweep_init_default (&s);
  memset (s.modes, 0, sizeof s.modes);
  s.modes[MS_MODE_PINNED] = s.modes[MS_MODE_ZERO_COPY] = s.modes[MS_MODE_STREAMS] = true;
  s.min_exp = 16;
  s.max_exp = 24;
  s.step = 8;
  s.reps = 5;
  s.reps_rule = MS_REPS_FIXED;
  MsMultiResults *r = NULL;
  char err[512] = "";
  MsRunStatus st = ms_multi_run (&s, devices, n, backend, NULL, NULL, NULL, &r, err, sizeof err);
  CHECK (st == MS_RUN_OK, "multi status %d: %s", st, err);
  for (int i = 0; r && i < n; i++) {
    const MsResults *d = r->per_device[i];
    CHECK (d->device.index == devices[i], "slot %d ran on device %d", i, d->device.index);
    CHECK ((int) d->n_cells == ms_sweep_n_cells (&s), "device %d: %zu cells", devices[i],
           d->n_cells);
    for (size_t k = 0; k < d->n_cells; k++) {
      const MsCell *c = &d->cells[k];
      CHECK (c->status == MS_CELL_OK && c->n_reps == 5, "device %d %s 2^%d: %s %s", devices[i],
             ms_mode_name (c->mode), c->exponent, ms_cell_status_name (c->status), c->message);
    }
  }
  MsMultiAggregate agg;
  if (r && ms_multi_aggregate (r, MS_MODE_PINNED, 24, &agg)) {
    printf ("multi: pinned 2^24 on %d GPUs at once: h2d %.1f GB/s in all (slowest %.1f), "
            "d2h %.1f (slowest %.1f)\n", agg.n_ok, agg.h2d_gbps, agg.h2d_min_gbps, agg.d2h_gbps,
            agg.d2h_min_gbps);
    CHECK (agg.n_ok == n && agg.h2d_min_gbps > 1 && agg.d2h_min_gbps > 1, "every GPU copied");
  }
  ms_multi_results_free (r);
}

static void
check_peer (const int *devices, int n)
{
  MsPeerResults *r = calloc (1, sizeof *r);
  if (!r)
    return;
  /* The slots' devices, for the links' nominal rates. */
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES];
  MsBackend *b = ms_backend_new_system ();
  for (int i = 0; i < n; i++) {
    memset (&info[i], 0, sizeof info[i]);
    ms_backend_query_device (b, devices[i], &info[i]);
  }
  ms_backend_free (b);
  bool ok = ms_peer_run (devices, n, 64ull << 20, 5, r);
  CHECK (ok, "peer: %s", r->error);
  for (int i = 0; ok && i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (i == j)
        continue;
      bool access = r->can_access[i][j] && r->can_access[j][i];
      for (int m = 0; m < MS_PEER_METHOD_COUNT; m++) {
        const MsPeerCell *c = &r->cell[m][i][j];
        bool needs = m == MS_PEER_COPY_ENABLED || m == MS_PEER_KERNEL_READ;
        if (needs && !access)
          continue;
        CHECK (c->ok && c->uni_gbps > 1 && c->bi_gbps > 1, "peer %s %d -> %d: %.1f / %.1f %s",
               ms_peer_method_name (m), devices[i], devices[j], c->uni_gbps, c->bi_gbps,
               c->note);
      }
      if (access) {
        double ours = r->cell[MS_PEER_COPY_ENABLED][i][j].uni_gbps;
        double ref = r->reference_gbps[i][j];
        printf ("peer %d -> %d: %d NVLinks, copy %.1f GB/s, reference loop %.1f, kernel read "
                "%.1f, bidirectional %.1f\n", devices[i], devices[j], r->topo.nvlinks[i][j],
                ours, ref, r->cell[MS_PEER_KERNEL_READ][i][j].uni_gbps,
                r->cell[MS_PEER_COPY_ENABLED][i][j].bi_gbps);
        CHECK (ref > 0 && ours > 0.8 * ref, "peer copy %.1f vs reference %.1f", ours, ref);
      }
      /* No copy faster than the link memsweep names (PITFALLS 36): on the
       * 4x H200 host the old count said PCIe beside 393 GB/s. */
      char what[96];
      CHECK (!ms_peer_link_in_doubt (r, info, i, j),
             "topology in doubt between %d and %d: %d NVLinks (%.0f GB/s nominal, %s), best copy "
             "%.1f GB/s", devices[i], devices[j], r->topo.nvlinks[i][j],
             ms_peer_nominal_gbps (r, info, i, j, what, sizeof what), what,
             ms_peer_best_gbps (r, i, j));
    }
  }
  free (r);
}

static void
check_portable (const int *devices, int n)
{
  MsPortableResults *r = calloc (1, sizeof *r);
  if (!r)
    return;
  bool ok = ms_portable_run (devices, n, 64ull << 20, 5, r);
  CHECK (ok, "portable: %s", r->error);
  for (int k = 0; ok && k < MS_PORTABLE_COUNT; k++) {
    for (int i = 0; i < n; i++) {
      const MsPortableCell *c = &r->cell[k][i];
      printf ("portable: %s, gpu %d: %s h2d %.1f d2h %.1f (%s)\n", ms_portable_case_name (k),
              devices[i], c->ok ? "ok" : "failed", c->h2d_gbps, c->d2h_gbps, c->note);
      /* The foreign buffer may fail or be slow: that is the finding. The
       * others must work. */
      if (k != MS_PORTABLE_FOREIGN)
        CHECK (c->ok && c->pinned_path && c->h2d_gbps > 1 && c->d2h_gbps > 1,
               "%s on gpu %d: %s", ms_portable_case_name (k), devices[i], c->note);
      else
        CHECK (c->ok || c->note[0], "a failure says why");
    }
  }
  free (r);
}

int
main (void)
{
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  if (!ms_backend_query_device (backend, 0, &info)) {
    printf ("SKIP: no usable CUDA device: %s\n", info.error);
    ms_backend_free (backend);
    return 77;
  }
  if (info.count < 2) {
    printf ("SKIP: %d CUDA device visible; the multi-GPU experiments need 2 or more\n",
            info.count);
    ms_backend_free (backend);
    return 77;
  }
  int devices[MS_MULTI_MAX_DEVICES], n = 0;
  char err[256];
  if (!ms_multi_parse_devices ("all", info.count, devices, &n, err, sizeof err)) {
    printf ("FAIL: %s\n", err);
    return 1;
  }
  printf ("%d devices: %s ...\n", n, info.name);
  check_multi (backend, devices, n);
  check_peer (devices, n);
  check_portable (devices, n);
  ms_backend_free (backend);
  printf ("%s\n", ms_test_failures ? "FAILED" : "PASSED");
  return ms_test_finish ();
}
