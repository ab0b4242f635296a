/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gpu-lessons.c: the gpu suite's lesson checks. Runs every lesson
 * through the command line (MEMSWEEP lesson NAME, so the isolated parts run
 * in child processes as they do for a user) at 4 and 16 MiB, or reads the
 * runs `tools/gpu.sh lesson-checks` made (MS_LESSONS_DIR), and checks what was
 * measured: every cell verified, the phases each variant must have, and
 * orderings that follow from what each variant does. Ratios the lessons
 * are about are printed, not assumed; and one lesson written with
 * --compress. Exits 77 without a device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-lesson-implicit-sync.h"
#include "ms-lesson-costs.h"
#include "ms-test.h"
#include "lessons/ms-lesson-issue-order.h"
#include "model/ms-results.h"
#include "ms-modes.h"
#include "run/ms-backend.h"
#include "lessons/ms-run-read.h"

#define CHECK MS_CHECK

#define BIG 22 /* 16 MiB per vector: the size the checks look at */

static const MsCell *
cell (const MsResults *r, MsMode mode, const char *variant)
{
  const MsCell *c = ms_results_find_variant (r, mode, BIG, variant);
  CHECK (c && c->status == MS_CELL_OK, "%s %s: %s", ms_mode_name (mode), variant,
         c ? c->message : "missing");
  return c && c->status == MS_CELL_OK ? c : NULL;
}

static double
phase (const MsCell *c, MsPhase p)
{
  return c ? c->stats.phase[p].median : -1;
}

static void
check_all_ok (const MsResults *r)
{
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    bool allowed = c->status == MS_CELL_UNSUPPORTED && c->mode == MS_MODE_MANAGED_PREFETCH
                   && !r->device.concurrent_managed_access;
    /* A driver without pools says so in the pool's cells, and only there. */
    allowed = allowed
              || (c->status == MS_CELL_UNSUPPORTED
                  && (strstr (c->variant, "pool") || strstr (c->variant, "mallocasync")
                      || strstr (c->variant, "freeasync"))
                  && strncmp (c->message, "unsupported:", 12) == 0);
    /* pin-payoff skips what would pass its safe share of memory, and says so. */
    allowed = allowed
              || (c->status == MS_CELL_UNSUPPORTED && strcmp (r->experiment, "pin-payoff") == 0
                  && strncmp (c->message, "skipped:", 8) == 0);
    CHECK (c->status == MS_CELL_OK || allowed, "%s 2^%d %s: %s: %s", ms_mode_name (c->mode),
           c->exponent, c->variant, ms_cell_status_name (c->status), c->message);
    CHECK (c->variant[0] != '\0', "%s 2^%d without a variant", ms_mode_name (c->mode), c->exponent);
  }
}

static void
check_reuse (const MsResults *r)
{
  const MsCell *z1 = cell (r, MS_MODE_ZERO_COPY, "R=1"), *z16 = cell (r, MS_MODE_ZERO_COPY, "R=16");
  const MsCell *p1 = cell (r, MS_MODE_PINNED, "R=1"), *p16 = cell (r, MS_MODE_PINNED, "R=16");
  const MsCell *w16 = cell (r, MS_MODE_ZERO_COPY, "R=16/access=write");
  const MsCell *w1 = cell (r, MS_MODE_ZERO_COPY, "R=1/access=write");
  const MsCell *rd = cell (r, MS_MODE_ZERO_COPY, "R=4/access=read");
  if (!z1 || !z16 || !p1 || !p16 || !w1 || !w16 || !rd)
    return;
  /* Zero-copy's kernel reads (writes) 16 times instead of once: it cannot
   * take less time (how much more is the lesson, printed below). Pinned
   * copies once, whatever the kernel does afterwards. */
  CHECK (phase (z16, MS_PHASE_KERNEL) > 1.05 * phase (z1, MS_PHASE_KERNEL),
         "zero-copy kernel R=16 %.1f us vs R=1 %.1f us", phase (z16, MS_PHASE_KERNEL),
         phase (z1, MS_PHASE_KERNEL));
  CHECK (phase (w16, MS_PHASE_KERNEL) > 1.05 * phase (w1, MS_PHASE_KERNEL),
         "write-only kernel R=16 %.1f us vs R=1 %.1f us", phase (w16, MS_PHASE_KERNEL),
         phase (w1, MS_PHASE_KERNEL));
  double ph = phase (p16, MS_PHASE_H2D) / phase (p1, MS_PHASE_H2D);
  CHECK (ph > 0.67 && ph < 1.5, "pinned h2d moved with R: ratio %.2f", ph);
  double zr = z16->stats.e2e.median / z1->stats.e2e.median;
  double pr = p16->stats.e2e.median / p1->stats.e2e.median;
  CHECK (zr > pr, "zero-copy e2e grows %.2fx with R, pinned %.2fx", zr, pr);
  CHECK (rd->stats.phase[MS_PHASE_D2H].n == ms_cell_timeline_reps (rd, NULL, 0), "read-only copies its result back");
  /* Writes only is 16 kernels each storing c once: 16 × c crosses, so
   * its rate cannot pass the link's. One kernel storing 16 times may
   * (merged stores): printed, not asserted. */
  double link = ms_pcie_theoretical_gbps (r->device.pcie_gen, r->device.pcie_width);
  double c_bytes = (double) w16->elements * sizeof (float);
  double on_link = 16 * c_bytes / w16->stats.e2e.median * 1e-3;
  CHECK (!(link > 0) || on_link < 1.02 * link,
         "writes only in 16 kernels put %.1f GB/s on a %.0f GB/s link", on_link, link);
  const MsCell *one = cell (r, MS_MODE_ZERO_COPY, "R=16/access=write-in-kernel");
  if (one)
    printf ("reuse writes only R=16: 16 kernels %.1f GB/s, one kernel %.1f GB/s (16 x c over e2e), "
            "link %.0f\n",
            on_link, 16 * c_bytes / one->stats.e2e.median * 1e-3, link);
  printf ("reuse 16 MiB: e2e R=16/R=1 zero-copy %.2fx, pinned %.2fx; zero-copy/pinned at R=1 "
          "%.2f; zero-copy kernel R=16/R=1 %.2fx\n",
          zr, pr, z1->stats.e2e.median / p1->stats.e2e.median,
          phase (z16, MS_PHASE_KERNEL) / phase (z1, MS_PHASE_KERNEL));
}

static void
check_duplex (const MsResults *r)
{
  const MsCell *h = cell (r, MS_MODE_PINNED, "copy=h2d"), *d = cell (r, MS_MODE_PINNED, "copy=d2h");
  const MsCell *b = cell (r, MS_MODE_PINNED, "copy=duplex");
  if (!h || !d || !b)
    return;
  CHECK (b->stats.phase[MS_PHASE_H2D].n == ms_cell_timeline_reps (b, NULL, 0) && b->stats.phase[MS_PHASE_D2H].n == ms_cell_timeline_reps (b, NULL, 0)
             && h->stats.phase[MS_PHASE_D2H].n == 0 && d->stats.phase[MS_PHASE_H2D].n == 0,
         "duplex phases");
  /* Both at once cannot beat the faster alone by much, nor take much
   * longer than the two one after the other. (Against the slower alone it
   * failed once on the H100: d2h alone's median of 5 came out 30% slow,
   * the host hiccups issue 7 measured.) */
  double hb = h->stats.e2e.median, db = d->stats.e2e.median, bb = b->stats.e2e.median;
  CHECK (bb > 0.9 * (hb < db ? hb : db) && bb < 1.2 * (hb + db),
         "duplex %.1f us against h2d %.1f and d2h %.1f", bb, hb, db);
  printf ("duplex 16 MiB: h2d %.1f us, d2h %.1f us, both %.1f us (%.2f of serial; %d copy "
          "engines)\n",
          hb, db, bb, bb / (hb + db), r->device.async_engine_count);
}

/* The observer effect: on one queue, the timers=per-step cells (an event
 * pair around every step, e2e from those repetitions) against the plain
 * cells. Which order wins is the lesson's finding and is only printed; what
 * must hold is consistency: the timers never make a cell faster than its
 * plain sequence (median against the plain interval). */
static void
check_issue_order_timers (const MsResults *r)
{
  static const int ks[] = { 1, 2, 4, 8, 16 };
  for (int i = 0; i < 5; i++) {
    double ratio[2] = { 0, 0 }; /* breadth / depth: plain, timers */
    for (int timers = 0; timers < 2; timers++)
      for (int o = 0; o < 2; o++) {
        char v[MS_VARIANT_LEN], vt[MS_VARIANT_LEN + 20];
        ms_lesson_streams_variant (v, sizeof v, true,
                                   o ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST, ks[i]);
        snprintf (vt, sizeof vt, "%s/timers=per-step", v);
        const MsCell *plain = cell (r, MS_MODE_STREAMS, v), *timed = cell (r, MS_MODE_STREAMS, vt);
        CHECK (plain && timed, "%s: missing", vt);
        if (!plain || !timed)
          continue;
        /* Never faster beyond the spread: the timed cell's interval may not
         * lie wholly below the plain one's (at K = 1 the timers cost a few
         * us in a millisecond, within the noise of both). The two cells are
         * measured seconds apart and the machine drifts between them more
         * than either interval holds: on lent H100s the timed K = 1 cell
         * read 3.5 % below the plain one's interval once, and 5.3 % once
         * (docs/measurements/2026-11-27-h100-21utc/suite.txt; it passed in
         * the two runs after, gpu-lessons-twice.log), hence 10 %. Timers that
         * made every cell faster would still be caught. */
        if (timers)
          CHECK (timed->stats.e2e.ci_high * 1.10 >= plain->stats.e2e.ci_low,
                 "%s: %.1f us (high %.1f), faster than the plain %.1f us (low %.1f)", vt,
                 timed->stats.e2e.median, timed->stats.e2e.ci_high, plain->stats.e2e.median,
                 plain->stats.e2e.ci_low);
        const MsCell *c = timers ? timed : plain;
        ratio[timers] = o ? c->stats.e2e.median / ratio[timers] : c->stats.e2e.median;
      }
    printf ("issue order one queue K=%d: breadth/depth plain %.2f, per-step timers %.2f\n",
            ks[i], ratio[0], ratio[1]);
  }
}

/* Kernels alone: every step one block spinning MS_ISSUE_ORDER_SPIN_US on the GPU's clock, so
 * each middle spin the timers saw lasted at least that (the kernel phase is their span, far
 * longer); the result, made after, still checked. Which order is longer is the lesson's finding,
 * printed. */
static void
check_issue_order_kernels (const MsResults *r)
{
  for (int single = 1; single >= 0; single--) {
    const MsCell *d, *b;
    CHECK (ms_issue_order_kernels (r, r->sweep.max_exp, single, &d, &b),
           "kernels alone: missing on %s", single ? "one queue" : "the usual queues");
    if (!d || !b)
      continue;
    for (int o = 0; o < 2; o++) {
      const MsCell *c = o ? b : d;
      int spins = 0;
      for (size_t e = 0; e < c->n_events; e++)
        if (c->events[e].phase == MS_PHASE_KERNEL && c->events[e].gpu_us >= 0) {
          spins++;
          CHECK (c->events[e].gpu_us >= MS_ISSUE_ORDER_SPIN_US * 0.99,
                 "%s: a spin of %.1f us, under %g", c->variant, c->events[e].gpu_us,
                 MS_ISSUE_ORDER_SPIN_US);
        }
      CHECK (spins > 0, "%s: no spin timed", c->variant);
      CHECK (c->status == MS_CELL_OK && c->mismatches == 0, "%s: not verified", c->variant);
    }
    printf ("issue order kernels alone %s: depth %.1f us, breadth %.1f us (%.2f)\n",
            single ? "one queue" : "usual queues", d->stats.e2e.median, b->stats.e2e.median,
            d->stats.e2e.median / b->stats.e2e.median);
  }
}

static void
check_issue_order (const MsResults *r)
{
  static const int ks[] = { 1, 2, 4, 8, 16 };
  for (int q = 0; q < 2; q++)
    for (int i = 0; i < 5; i++) {
      char vd[MS_VARIANT_LEN], vb[MS_VARIANT_LEN];
      const char *queue = q ? "default" : "single";
      ms_lesson_streams_variant (vd, sizeof vd, !q, MS_ORDER_DEPTH_FIRST, ks[i]);
      ms_lesson_streams_variant (vb, sizeof vb, !q, MS_ORDER_BREADTH_FIRST, ks[i]);
      const MsCell *d = cell (r, MS_MODE_STREAMS, vd), *b = cell (r, MS_MODE_STREAMS, vb);
      if (!d || !b)
        continue;
      int lanes = 0;
      for (size_t e = 0; e < b->n_events; e++)
        lanes = b->events[e].lane > lanes ? b->events[e].lane : lanes;
      CHECK (lanes == ks[i], "%s: %d lanes", vb, lanes);
      double ratio = b->stats.e2e.median / d->stats.e2e.median;
      CHECK (isfinite (ratio) && ratio > 0, "%s: no time", vb);
      /* The material says breadth-first cannot serialise more than
       * depth-first on one hardware queue (Fermi's false dependencies).
       * Whether that holds on this GPU is the lesson's finding, so it is
       * reported, not asserted: on the lent H100 breadth-first came out
       * 1.15x slower at K=2 with one connection. */
      printf ("issue order 16 MiB queue=%s K=%d: depth %.1f us, breadth %.1f us (%.2f)%s\n", queue,
              ks[i], d->stats.e2e.median, b->stats.e2e.median, ratio,
              q == 0 && ks[i] > 1 && ratio >= 1.1 ? "  <- breadth-first slower: the old rule "
                                                    "does not hold here"
                                                  : "");
    }
  check_issue_order_timers (r);
  check_issue_order_kernels (r);
  const MsCell *w = cell (r, MS_MODE_STREAMS, "queue=default/order=depth/K=4/host=work");
  double work = -1;
  for (size_t e = 0; w && e < w->n_events; e++)
    if (w->events[e].rep == 0 && w->events[e].phase == MS_PHASE_INIT && w->events[e].chunk == 1)
      work = w->events[e].host_us;
  CHECK (!w || work > 0, "no host-work event");
  if (w && work > 0)
    printf ("host work beside the copies (K=4, depth): e2e %.1f us, host work %.1f us\n",
            w->stats.e2e.median, work);
}

static void
check_cache_state (const MsResults *r)
{
  const MsCell *s = cell (r, MS_MODE_WRITE_COMBINED, "stores=streamed");
  const MsCell *wc = cell (r, MS_MODE_WRITE_COMBINED, "stores=streamed/read=wc");
  const MsCell *ps = cell (r, MS_MODE_PINNED, "stores=streamed");
  const MsCell *pf = cell (r, MS_MODE_PINNED, "stores=fresh");
  const MsCell *po = cell (r, MS_MODE_PINNED, "stores=ordinary");
  if (!s || !wc || !ps || !pf || !po)
    return;
  /* The material's penalty for the CPU reading write-combined memory is
   * reported, not asserted: in the lent VMs the read from WC memory came
   * out faster than from cached memory (5.6 vs 6.7 ms at 16 MiB on the
   * H100), as if the guest maps it cached. */
  CHECK (phase (wc, MS_PHASE_VERIFY) > 0 && phase (s, MS_PHASE_VERIFY) > 0,
         "verify from WC %.1f us, from cached %.1f us", phase (wc, MS_PHASE_VERIFY),
         phase (s, MS_PHASE_VERIFY));
  /* Fresh buffers are allocated in the init phase. */
  CHECK (phase (pf, MS_PHASE_INIT) > phase (ps, MS_PHASE_INIT), "fresh init %.1f vs %.1f",
         phase (pf, MS_PHASE_INIT), phase (ps, MS_PHASE_INIT));
  printf ("cache state 16 MiB pinned h2d GB/s: streamed %.2f, ordinary %.2f, fresh %.2f; "
          "verify from WC %.1fx slower\n",
          ps->stats.h2d_gbps, po->stats.h2d_gbps, pf->stats.h2d_gbps,
          phase (wc, MS_PHASE_VERIFY) / phase (s, MS_PHASE_VERIFY));
}

/* CUPTI's counts of the counted repetitions, or why there are none. */
static void
check_managed_counts (const MsCell *f, const MsCell *res, const MsCell *pre)
{
  double vec = (double) f->elements * sizeof (float);
  CHECK (f->um.state != MS_UM_NONE && res->um.state != MS_UM_NONE, "no counted repetition ran");
  /* Unknown is what the engine shows instead of a count that lost
   * records: honest, but on these GPUs the counts must be whole. */
  CHECK (f->um.state != MS_UM_UNKNOWN, "first touch counts unknown: %s", f->um.reason);
  CHECK (res->um.state != MS_UM_UNKNOWN, "resident counts unknown: %s", res->um.reason);
  CHECK (!pre || pre->um.state != MS_UM_UNKNOWN, "prefetch counts unknown: %s", pre->um.reason);
  if (f->um.state != MS_UM_COUNTED || res->um.state != MS_UM_COUNTED) {
    printf ("managed counts unavailable: %s\n",
            f->um.state == MS_UM_UNAVAILABLE ? f->um.reason : res->um.reason);
    return;
  }
  /* First touch faults a and b over; resident pages need (almost) none. */
  CHECK (f->um.gpu_faults > 0, "first touch without GPU faults");
  CHECK (f->um.h2d_bytes >= 0.9 * vec, "first touch migrated %llu bytes to the device",
         (unsigned long long) f->um.h2d_bytes);
  CHECK (res->um.gpu_faults * 20 <= f->um.gpu_faults, "resident %llu GPU faults, first %llu",
         (unsigned long long) res->um.gpu_faults, (unsigned long long) f->um.gpu_faults);
  CHECK (res->um.h2d_bytes < 0.1 * vec, "resident migrated %llu bytes to the device",
         (unsigned long long) res->um.h2d_bytes);
  printf ("managed 16 MiB counted: first touch %llu GPU faults, %llu CPU faults, %.1f MiB h2d, "
          "%.1f MiB d2h; resident %llu GPU faults, %.1f MiB h2d\n",
          (unsigned long long) f->um.gpu_faults, (unsigned long long) f->um.cpu_faults,
          f->um.h2d_bytes / 1048576.0, f->um.d2h_bytes / 1048576.0,
          (unsigned long long) res->um.gpu_faults, res->um.h2d_bytes / 1048576.0);
  if (pre && pre->status == MS_CELL_OK && pre->um.state == MS_UM_COUNTED) {
    CHECK (pre->um.h2d_bytes >= 0.9 * vec, "prefetch migrated %llu bytes to the device",
           (unsigned long long) pre->um.h2d_bytes);
    printf ("managed-prefetch 16 MiB counted: %llu GPU faults, %.1f MiB h2d, %.1f MiB d2h\n",
            (unsigned long long) pre->um.gpu_faults, pre->um.h2d_bytes / 1048576.0,
            pre->um.d2h_bytes / 1048576.0);
  }
}

static void
check_managed (const MsResults *r)
{
  const MsCell *f = cell (r, MS_MODE_MANAGED, "touch=first");
  const MsCell *res = cell (r, MS_MODE_MANAGED, "touch=resident");
  if (!f || !res)
    return;
  CHECK (res->stats.phase[MS_PHASE_PREFETCH].n == ms_cell_timeline_reps (res, NULL, 0), "resident: first kernel recorded");
  /* The faulting kernel moves the pages; the second one finds them there. */
  CHECK (phase (res, MS_PHASE_KERNEL) < phase (f, MS_PHASE_KERNEL),
         "kernel on resident pages %.1f us, on first touch %.1f us", phase (res, MS_PHASE_KERNEL),
         phase (f, MS_PHASE_KERNEL));
  const MsCell *pre = ms_results_find_variant (r, MS_MODE_MANAGED_PREFETCH, BIG, "touch=first");
  printf ("managed 16 MiB kernel: first touch %.1f us, resident %.1f us, after prefetch %.1f us\n",
          phase (f, MS_PHASE_KERNEL), phase (res, MS_PHASE_KERNEL),
          pre && pre->status == MS_CELL_OK ? phase (pre, MS_PHASE_KERNEL) : -1);
  check_managed_counts (f, res, pre);
  /* Every size, the first cell of the process included: it once read all
   * zeros, the buffers made before CUPTI's first session. */
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    CHECK (c->um.state != MS_UM_UNKNOWN, "%s 2^%d %s: counts unknown: %s",
           ms_mode_name (c->mode), c->exponent, c->variant, c->um.reason);
    if (c->mode == MS_MODE_MANAGED && strcmp (c->variant, "touch=first") == 0 &&
        c->um.state == MS_UM_COUNTED)
      CHECK (c->um.gpu_faults > 0 && c->um.h2d_bytes >= 0.9 * c->elements * sizeof (float),
             "first touch at 2^%d: %llu GPU faults, %llu bytes to the device", c->exponent,
             (unsigned long long) c->um.gpu_faults, (unsigned long long) c->um.h2d_bytes);
  }
}

static void
check_costs (const MsResults *r)
{
  const MsCell *first
      = ms_results_find_variant (r, MS_MODE_DEVICE, r->sweep.min_exp, "cost=context-first");
  CHECK (first && first->status == MS_CELL_OK && first->n_reps == 1, "first context");
  const MsCell *reg = cell (r, MS_MODE_REGISTERED, "cost=register");
  const MsCell *host = cell (r, MS_MODE_PINNED, "cost=malloc-host");
  if (!first || !reg || !host)
    return;
  CHECK (reg->stats.phase_host[MS_PHASE_REGISTER].median > 0
             && host->stats.phase_host[MS_PHASE_ALLOC].median > 0,
         "register and cudaMallocHost timed");
  printf ("costs: first context %.0f us; 16 MiB cudaMallocHost %.0f us, cudaHostRegister %.0f us\n",
          first->stats.phase_host[MS_PHASE_ALLOC].median,
          host->stats.phase_host[MS_PHASE_ALLOC].median,
          reg->stats.phase_host[MS_PHASE_REGISTER].median);
  /* The device pool, where the driver has one: a pool that kept its
   * memory hands it out faster than its first allocation, and holds at
   * least the size, none of it in use, after the free. */
  const MsCell *pool_first = ms_results_find_variant (r, MS_MODE_DEVICE, BIG, "cost=pool-first");
  const MsCell *keep = ms_results_find_variant (r, MS_MODE_DEVICE, BIG, "cost=pool/threshold=keep");
  const MsCell *zero = ms_results_find_variant (r, MS_MODE_DEVICE, BIG, "cost=pool/threshold=0");
  CHECK (pool_first && keep && zero, "costs: the three device-pool cells at 2^%d", BIG);
  if (!pool_first || !keep || !zero || pool_first->status != MS_CELL_OK
      || keep->status != MS_CELL_OK || zero->status != MS_CELL_OK) {
    printf ("costs: device pool not measured: %s\n", pool_first ? pool_first->message : "missing");
    return;
  }
  uint64_t reserved = 0, used = 0, reserved0 = 0, used0 = 0;
  CHECK (ms_costs_pool_kept (keep, &reserved, &used) && ms_costs_pool_kept (zero, &reserved0, &used0),
         "costs: the pool's reserved and used bytes recorded");
  double a_first = pool_first->stats.phase_host[MS_PHASE_ALLOC].median;
  double a_keep = keep->stats.phase_host[MS_PHASE_ALLOC].median;
  CHECK (a_keep < a_first, "costs: the kept pool's allocation %.1f us, its first %.1f us", a_keep,
         a_first);
  CHECK (reserved >= keep->elements * sizeof (float) && used == 0 && used0 == 0,
         "costs: the kept pool holds %llu bytes (%llu in use) after the free, the released one "
         "%llu in use",
         (unsigned long long) reserved, (unsigned long long) used, (unsigned long long) used0);
  printf ("costs: 16 MiB cudaMallocAsync first %.1f us, threshold 0 %.1f us, kept %.1f us; "
          "reserved after the free %llu and %llu bytes\n",
          a_first, zero->stats.phase_host[MS_PHASE_ALLOC].median, a_keep,
          (unsigned long long) reserved0, (unsigned long long) reserved);
}

/* Two fixed-duration kernels (500 us by default) on two streams with
 * nothing between them overlap: a measured fact every column must show,
 * in the figure and in the kernels' own stamps. What the operations do is
 * printed, not checked. */
static void
check_implicit_sync (const MsResults *r)
{
  static const char *const cols[] = { "s=block/q=1", "s=block/q=def", "s=nonblock/q=1",
                                      "s=nonblock/q=def" };
  for (int i = 0; i < 4; i++) {
    char v[64], va[64];
    snprintf (v, sizeof v, "op=none/%s", cols[i]);
    snprintf (va, sizeof va, "op=alone/s=block/q=%s", i % 2 ? "def" : "1");
    const MsCell *none = ms_results_find_variant (r, MS_MODE_STREAMS, 0, v);
    const MsCell *alone = ms_results_find_variant (r, MS_MODE_STREAMS, 0, va);
    CHECK (none && alone, "implicit-sync: %s or %s missing", v, va);
    if (!none || !alone)
      continue;
    double a = alone->stats.e2e.median, n = none->stats.e2e.median;
    CHECK (a >= 500 && a < 750, "implicit-sync %s: one 500 us kernel took %.0f us", va, a);
    CHECK (n < 1.5 * a, "implicit-sync %s: two kernels took %.0f us, one %.0f us", v, n, a);
    /* The instrumented sample: the second kernel starts before the first
     * ends. */
    double end0 = -1, start1 = -1;
    for (size_t e = 0; e < none->n_events; e++) {
      const MsEvent *ev = &none->events[e];
      if (ev->phase == MS_PHASE_KERNEL && ev->lane == 1)
        end0 = ev->gpu_start_us + ev->gpu_us;
      if (ev->phase == MS_PHASE_KERNEL && ev->lane == 2)
        start1 = ev->gpu_start_us;
    }
    CHECK (end0 > 0 && start1 >= 0 && start1 < end0,
           "implicit-sync %s: stamps: the second kernel starts at %.0f us, the first ends at "
           "%.0f us", v, start1, end0);
    printf ("implicit-sync %s: one kernel %.0f us, two %.0f us\n", cols[i], a, n);
    /* The allocations, classic and stream-ordered: each measured cell
     * took at least one kernel's time and has a verdict; which one is
     * printed, not assumed. */
    static const char *const allocs[] = { "malloc", "free", "mallocasync", "freeasync" };
    static const MsSyncOp alloc_ops[] = { MS_SYNC_OP_MALLOC, MS_SYNC_OP_FREE,
                                          MS_SYNC_OP_MALLOC_ASYNC, MS_SYNC_OP_FREE_ASYNC };
    for (int k = 0; k < 4; k++) {
      char vo[64];
      snprintf (vo, sizeof vo, "op=%s/%s", allocs[k], cols[i]);
      const MsCell *c = ms_results_find_variant (r, MS_MODE_STREAMS, 0, vo);
      CHECK (c != NULL, "implicit-sync: %s missing", vo);
      if (!c || c->status != MS_CELL_OK)
        continue;
      MsSyncJudged j;
      MsSyncVerdict verdict = ms_implicit_sync_judge (r, alloc_ops[k], i, &j);
      CHECK (c->stats.e2e.median >= 0.9 * a && verdict != MS_SYNC_MISSING,
             "implicit-sync %s: %.0f us against one kernel's %.0f us, verdict %d", vo,
             c->stats.e2e.median, a, (int) verdict);
      printf ("implicit-sync %s: %.0f us (%.2f kernel times, call %.0f us): %s\n", vo, j.us,
              j.times, j.call_us,
              verdict == MS_SYNC_SERIALISED   ? "serialised"
              : verdict == MS_SYNC_OVERLAPPED ? "overlapped"
                                              : "undecided");
    }
  }
}

/* pin-payoff: every kind has its setup, release and copy at every size
 * where any of them was measured; a host pool that kept its memory hands
 * it out faster than a new pool's first allocation. Which pageable kind
 * is cheaper is printed, not assumed. */
static void
check_pin_payoff (const MsResults *r)
{
  static const char *const kinds[]
      = { "pageable", "pageable-reused", "pinned", "registered", "pool-first", "pool-kept" };
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
    double setup[6] = { 0 };
    for (int k = 0; k < 6; k++) {
      int ok = 0;
      for (int step = 0; step < 3; step++) {
        static const char *const steps[] = { "setup", "release", "copy" };
        char v[64];
        snprintf (v, sizeof v, "mode=%s/step=%s", kinds[k], steps[step]);
        for (size_t i = 0; i < r->n_cells; i++) {
          const MsCell *c = &r->cells[i];
          if (c->exponent == e && strcmp (c->variant, v) == 0 && c->status == MS_CELL_OK
              && c->stats.e2e.median > 0) {
            ok++;
            if (step == 0)
              setup[k] = c->stats.e2e.median;
          }
        }
      }
      CHECK (ok == 0 || ok == 3, "pin-payoff 2^%d %s: %d of its three steps measured", e,
             kinds[k], ok);
    }
    if (setup[4] > 0 && setup[5] > 0) {
      CHECK (setup[5] < setup[4],
             "pin-payoff 2^%d: a kept pool's allocation %.1f us, a new pool's first %.1f us", e,
             setup[5], setup[4]);
      printf ("pin-payoff 2^%d: host pool first %.1f us, kept %.1f us\n", e, setup[4], setup[5]);
    }
    if (setup[0] > 0 && setup[1] > 0)
      printf ("pin-payoff 2^%d: fresh pageable %.1f us, reused heap %.1f us\n", e, setup[0],
              setup[1]);
  }
}

/* The first cell whose variant starts with prefix, or NULL. */
static const MsCell *
cell_prefixed (const MsResults *r, const char *prefix)
{
  for (size_t i = 0; i < r->n_cells; i++)
    if (strncmp (r->cells[i].variant, prefix, strlen (prefix)) == 0)
      return &r->cells[i];
  return NULL;
}

/* A host function runs after the work queued before it: every latency is
 * measured, and positive (the function's start after the copy's or the
 * kernel's end). */
static void
check_host_func (const MsResults *r)
{
  static const char *const cells[] = {
    "latency/api=launch-host-func/after=copy", "latency/api=launch-host-func/after=kernel",
    "latency/api=stream-callback/after=copy", "latency/api=stream-callback/after=kernel",
  };
  for (int i = 0; i < 4; i++) {
    const MsCell *c = cell_prefixed (r, cells[i]);
    CHECK (c && c->status == MS_CELL_OK, "host-func: %s measured", cells[i]);
    if (!c || c->status != MS_CELL_OK)
      continue;
    CHECK (c->stats.e2e.min > 0 && c->stats.e2e.median < 10000,
           "host-func %s: latency %.1f us (min %.1f) after the work before it", cells[i],
           c->stats.e2e.median, c->stats.e2e.min);
    printf ("host-func %s: %.1f us\n", cells[i], c->stats.e2e.median);
  }
}

/* The priority range is the device's, and the lesson measured its cells
 * exactly where the device has more than one priority. */
static void
check_priority (const MsResults *r)
{
  bool range = r->device.priority_least != r->device.priority_greatest;
  CHECK (r->device.priority_least >= r->device.priority_greatest,
         "priority: range %d (least) .. %d (greatest) read from the device",
         r->device.priority_least, r->device.priority_greatest);
  const MsCell *high = cell_prefixed (r, "prio=high/wait"), *low = cell_prefixed (r, "prio=low/wait");
  CHECK (high && low, "priority: both wait cells present");
  if (!high || !low)
    return;
  CHECK ((high->status == MS_CELL_OK) == range && (low->status == MS_CELL_OK) == range,
         "priority: cells measured (%s, %s) where the device has %s",
         ms_cell_status_name (high->status), ms_cell_status_name (low->status),
         range ? "a range" : "one priority");
  printf ("priority: range %d..%d, wait %.1f us high, %.1f us low\n", r->device.priority_least,
          r->device.priority_greatest, high->stats.e2e.median, low->stats.e2e.median);
}

/* Default stream: on one stream a kernel starts after the copy ahead of
 * it has ended. The copies are timed with events and the kernels with
 * clock stamps, so this checks that the two clocks are aligned: before
 * the reference event was recorded behind the stamp (kp_origin), kernels
 * were drawn starting 10-76 us before their own copy's end. */
static void
check_default_stream (const MsResults *r)
{
  double worst = INFINITY;
  int pairs = 0;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    for (size_t a = 0; a < c->n_events; a++) {
      const MsEvent *h2d = &c->events[a];
      if (h2d->phase != MS_PHASE_H2D || h2d->gpu_start_us < 0)
        continue;
      for (size_t b = 0; b < c->n_events; b++) {
        const MsEvent *k = &c->events[b];
        if (k->phase != MS_PHASE_KERNEL || k->rep != h2d->rep || k->lane != h2d->lane
            || k->gpu_start_us < 0)
          continue;
        double gap = k->gpu_start_us - (h2d->gpu_start_us + h2d->gpu_us);
        worst = gap < worst ? gap : worst;
        pairs++;
      }
    }
  }
  CHECK (pairs > 0, "default-stream: no copy and kernel on one lane");
  /* A microsecond or two either way is the events' resolution. */
  CHECK (pairs == 0 || worst > -2, "default-stream: a kernel starts %.1f us before its copy ends",
         -worst);
  printf ("default stream: %d copy-kernel pairs, kernel start - copy end >= %.1f us\n", pairs,
          worst);
}

static const struct {
  const char *name;
  void (*check) (const MsResults *r);
  const char *args; /* when the suite runs it; NULL: the sweep lessons' */
} lessons[] = {
  { "reuse", check_reuse },
  { "duplex", check_duplex },
  { "issue-order", check_issue_order },
  { "cache-state", check_cache_state },
  { "managed-touch", check_managed },
  { "costs", check_costs },
  { "implicit-sync", check_implicit_sync },
  { "host-func", check_host_func },
  { "priority", check_priority },
  { "default-stream", check_default_stream, "--reps 5" },
  /* Up to 4 MiB: the kinds and the pool, not the held part, are checked. */
  { "pin-payoff", check_pin_payoff, "--option max-exp=20 --option held-max-pct=1 --reps 3" },
};

/* lesson --out PREFIX --compress: the lesson's pair gzipped, under its
 * names with .gz, read back as the lesson's run (docs/cli.md, "Output"). */
static void
check_compressed (const char *memsweep, const char *dir)
{
  char cmd[1400], path[600], err[512];
  snprintf (cmd, sizeof cmd,
            "'%s' lesson pin-payoff --option max-exp=20 --option held-max-pct=1 --reps 3 "
            "--quiet --compress --out '%s/packed' >/dev/null",
            memsweep, dir);
  CHECK (system (cmd) == 0, "%s", cmd);
  for (int i = 0; i < 2; i++) {
    snprintf (path, sizeof path, "%s/packed-%s.csv", dir, i ? "summary" : "samples");
    CHECK (access (path, F_OK) != 0, "%s written plain", path);
    strcat (path, ".gz");
    FILE *f = fopen (path, "rb");
    unsigned char magic[2] = { 0 };
    CHECK (f && fread (magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b,
           "%s: no gzip bytes", path);
    if (f)
      fclose (f);
  }
  snprintf (path, sizeof path, "%s/packed-samples.csv.gz", dir);
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  CHECK (r != NULL, "%s", err);
  if (r) {
    CHECK (strcmp (r->experiment, "pin-payoff") == 0, "--compress: experiment '%s'",
           r->experiment);
    check_all_ok (r);
    ms_results_free (r);
  }
}

int
main (int argc, char **argv)
{
  const char *dir = getenv ("MS_LESSONS_DIR");
  char tmp[] = "/tmp/ms-gpu-lessons-XXXXXX", path[600], cmd[1400];
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  bool have = ms_backend_query_device (backend, 0, &info);
  ms_backend_free (backend);
  if (!have || argc < 2) {
    printf ("SKIP: no usable CUDA device: %s\n", have ? "no memsweep given" : info.error);
    return 77;
  }
  if (!dir && !(dir = mkdtemp (tmp)))
    return 1;
  for (size_t i = 0; i < sizeof lessons / sizeof lessons[0]; i++) {
    snprintf (path, sizeof path, "%s/lesson-%s-samples.csv", dir, lessons[i].name);
    if (!getenv ("MS_LESSONS_DIR")) {
      snprintf (cmd, sizeof cmd,
                "'%s' lesson %s %s --quiet --out "
                "'%s/lesson-%s' >/dev/null",
                argv[1], lessons[i].name,
                lessons[i].args ? lessons[i].args : "--sizes 20:22:2 --reps 5", dir,
                lessons[i].name);
      CHECK (system (cmd) == 0, "%s", cmd);
    }
    char err[512];
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    CHECK (r != NULL, "%s", err);
    if (!r)
      continue;
    CHECK (strcmp (r->experiment, lessons[i].name) == 0, "experiment '%s'", r->experiment);
    check_all_ok (r);
    lessons[i].check (r);
    ms_results_free (r);
  }
  if (!getenv ("MS_LESSONS_DIR")) {
    check_compressed (argv[1], dir);
    snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system (cmd) != 0)
      return 1;
  }
  printf ("%s\n", ms_test_failures ? "FAILED" : "PASSED");
  return ms_test_finish ();
}
