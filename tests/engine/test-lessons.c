/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lessons.c: each lesson's bookkeeping on the test backend: which
 * parts it runs with which settings, the variants its cells carry, the
 * isolated parts handed to the front end grouped by environment, the
 * merged result and its metadata, and the costs table. */
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-costs.h"
#include "ms-lesson-issue-order.h"
#include "ms-lesson-record.h"
#include "ms-sidecar-test.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "lessons/ms-lesson-run.h"
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "run/ms-backend.h"
#include "lessons/ms-run-read.h"

static void
base_sweep (MsSweep *s)
{
  ms_test_sweep_init (s, NULL, 16, 18, 3);
  s->step = 2;
  s->warmup = 0;
}

static MsResults *
run_lesson (const char *name, MsBackend *b, MsIsolatedFunc isolated, void *user)
{
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  base_sweep (&s);
  MsRunStatus st = ms_lesson_run (name, &s, b, isolated, user, NULL, NULL, NULL, &r, err,
                                  sizeof err);
  g_assert_cmpint (st, ==, MS_RUN_OK);
  g_assert_true (r);
  if (r)
    g_assert_cmpstr (r->experiment, ==, name);
  return r;
}

static double
e2e (const MsResults *r, MsMode mode, int e, const char *variant)
{
  const MsCell *c = ms_results_find_variant (r, mode, e, variant);
  g_assert_true (c);
  g_assert_cmpint (c->status, ==, MS_CELL_OK);
  return c ? c->stats.e2e.median : -1;
}

static void
test_reuse (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("reuse", b, NULL, NULL);
  if (r) {
    /* 5 R x (4 modes + 3 zero-copy variants) x 2 sizes. */
    g_assert_cmpuint (r->n_cells, ==, 5 * 7 * 2);
    /* In the model zero-copy pays every access, pinned none. */
    g_assert_true (e2e (r, MS_MODE_ZERO_COPY, 18, "R=16")
                   > 4 * e2e (r, MS_MODE_ZERO_COPY, 18, "R=1"));
    g_assert_cmpfloat (fabs ((double)(e2e (r, MS_MODE_PINNED, 18, "R=16"))
                             - (double)(e2e (r, MS_MODE_PINNED, 18, "R=1"))),
                       <=, 1e-6);
    g_assert_true (e2e (r, MS_MODE_ZERO_COPY, 18, "R=4/access=read") > 0);
    g_assert_true (e2e (r, MS_MODE_ZERO_COPY, 18, "R=4/access=write") > 0);
    /* Writes only is R kernels: R × c crosses; one kernel storing R
     * times crosses less in the model (merged stores). */
    g_assert_true (e2e (r, MS_MODE_ZERO_COPY, 18, "R=16/access=write")
                   > 4 * e2e (r, MS_MODE_ZERO_COPY, 18, "R=1/access=write"));
    g_assert_true (e2e (r, MS_MODE_ZERO_COPY, 18, "R=16/access=write-in-kernel")
                   < e2e (r, MS_MODE_ZERO_COPY, 18, "R=16/access=write"));
    g_assert_null (ms_results_find_variant (r, MS_MODE_PINNED, 18, "R=4/access=read"));
    g_assert_true (r->sweep.modes[MS_MODE_UVA]);
    g_assert_false (r->sweep.modes[MS_MODE_STREAMS]);
    g_assert_true (r->sweep.knobs.reuse == 0);
    g_assert_true (r->sweep.variant[0] == '\0');
  }
  ms_results_free (r);
  ms_backend_free (b);
}

static void
test_duplex (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("duplex", b, NULL, NULL);
  if (r) {
    const MsCell *both = ms_results_find_variant (r, MS_MODE_PINNED, 18, "copy=duplex");
    const MsCell *h2d = ms_results_find_variant (r, MS_MODE_PINNED, 18, "copy=h2d");
    g_assert_true (both);
    g_assert_true (h2d);
    g_assert_true (both->stats.phase[MS_PHASE_H2D].n == 3);
    g_assert_true (both->stats.phase[MS_PHASE_D2H].n == 3);
    g_assert_true (h2d->stats.phase[MS_PHASE_D2H].n == 0);
    /* Overlapping in the model: both together take as long as one. */
    g_assert_cmpfloat (fabs ((double)(e2e (r, MS_MODE_PINNED, 18, "copy=duplex"))
                             - (double)(e2e (r, MS_MODE_PINNED, 18, "copy=h2d"))),
                       <=, 1e-6);
    g_assert_cmpuint (r->n_cells, ==, 3 * 2);
  }
  ms_results_free (r);
  ms_backend_free (b);
}

/* The front end's side of isolated parts, recorded: runs them here. */
typedef struct {
  MsBackend *backend;
  int calls;
  int parts;
  char first_variant[MS_VARIANT_LEN];
} Isolated;

static MsResults *
fake_isolated (const char *name, const MsSweep *base, const int *parts, int n_parts, void *user,
               char *err, size_t errlen)
{
  Isolated *iso = user;
  MsLessonPart all[MS_LESSON_MAX_PARTS];
  int n = ms_lesson_parts (name, base, all, MS_LESSON_MAX_PARTS);
  for (int i = 0; i < n_parts; i++)
    g_assert_true (parts[i] < n && all[parts[i]].isolated
                   && (all[parts[i]].env == all[parts[0]].env)
                   && all[parts[i]].env_unset == all[parts[0]].env_unset);
  if (iso->calls++ == 0)
    snprintf (iso->first_variant, sizeof iso->first_variant, "%s", all[parts[0]].sweep.variant);
  iso->parts += n_parts;
  MsResults *r = NULL;
  ms_lesson_run_parts (name, base, parts, n_parts, iso->backend, NULL, NULL, NULL, &r, err,
                       errlen);
  return r;
}

/* A front end whose second child fails. */
static MsResults *
failing_isolated (const char *name, const MsSweep *base, const int *parts, int n_parts,
                  void *user, char *err, size_t errlen)
{
  Isolated *iso = user;
  if (iso->calls == 1) {
    snprintf (err, errlen, "child failed");
    return NULL;
  }
  return fake_isolated (name, base, parts, n_parts, user, err, errlen);
}

static void
test_child_fails (void)
{
  Isolated iso = { .backend = ms_backend_new_test (NULL) };
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  base_sweep (&s);
  MsRunStatus st = ms_lesson_run ("issue-order", &s, iso.backend, failing_isolated, &iso, NULL,
                                  NULL, NULL, &r, err, sizeof err);
  /* The first child's cells stay, the run says it stopped and why. */
  g_assert_true (st == MS_RUN_CANCELLED && r && r->n_cells == 26 * 2
                 && strstr (err, "child failed"));
  ms_results_free (r);
  ms_backend_free (iso.backend);
}

static void
test_issue_order (void)
{
  Isolated iso = { .backend = ms_backend_new_test (NULL) };
  MsResults *r = run_lesson ("issue-order", iso.backend, fake_isolated, &iso);
  /* queue=single (the variable set, plain and with per-step timers), then
   * the default (removed), with the host-work parts in the same process as
   * the default ones; the one-queue process also runs K = 16 with
   * memsweep's habits left out and kernels alone, after the others; the
   * default one, kernels alone too. */
  g_assert_true (iso.calls == 2 && iso.parts == 40);
  g_assert_cmpstr (iso.first_variant, ==, "queue=single/order=depth/K=1");
  if (r) {
    g_assert_true (r->n_cells == 40 * 2);
    g_assert_nonnull (ms_results_find_variant (r, MS_MODE_STREAMS, 18,
                                               "queue=single/order=depth/K=16/around=kept"));
    const MsCell *kd, *kb;
    g_assert_true (ms_issue_order_kernels (r, 18, true, &kd, &kb));
    g_assert_true (ms_issue_order_kernels (r, 18, false, &kd, &kb));
    /* The timers cells' end-to-end times are the instrumented ones: no
     * plain repetition beside them, so no overhead of their own. */
    const MsCell *timed = ms_results_find_variant (
      r, MS_MODE_STREAMS, 18, "queue=single/order=breadth/K=16/timers=per-step");
    const MsCell *plain = ms_results_find_variant (r, MS_MODE_STREAMS, 18,
                                                   "queue=single/order=breadth/K=16");
    g_assert_true (timed && plain && timed->n_events == plain->n_events &&
                !ms_cell_instr_overhead (timed, NULL, NULL) &&
                ms_cell_instr_overhead (plain, NULL, NULL));
    const MsCell *c = ms_results_find_variant (r, MS_MODE_STREAMS, 18,
                                               "queue=single/order=breadth/K=16");
    int lanes = 0;
    for (size_t i = 0; c && i < c->n_events; i++)
      lanes = c->events[i].lane > lanes ? c->events[i].lane : lanes;
    g_assert_cmpint (lanes, ==, 16);
    g_assert_nonnull (ms_results_find_variant (r, MS_MODE_STREAMS, 16,
                                               "queue=default/order=depth/K=4/host=work"));
  }
  MsLessonPart parts[MS_LESSON_MAX_PARTS];
  MsSweep s;
  base_sweep (&s);
  int n = ms_lesson_parts ("issue-order", &s, parts, MS_LESSON_MAX_PARTS);
  g_assert_true (n == 40 && parts[0].env
                 && strcmp (parts[0].env, "CUDA_DEVICE_MAX_CONNECTIONS=1") == 0);
  /* The habits left out: plain repetitions back to back, inputs kept. */
  g_assert_true (parts[20].sweep.instr_reps == 1 && !parts[20].sweep.knobs.inputs_kept &&
                 strstr (parts[20].sweep.variant, "around=plain"));
  /* Whole, not cut to the variant's length. */
  g_assert_cmpstr (parts[21].sweep.variant, ==, "queue=single/order=breadth/K=16/around=plain");
  g_assert_true (parts[22].sweep.knobs.inputs_kept
                 && strstr (parts[22].sweep.variant, "around=kept"));
  /* Kernels alone, on one queue. */
  g_assert_cmpstr (parts[25].sweep.variant, ==, "queue=single/order=breadth/K=16/work=kernels");
  g_assert_true (parts[25].sweep.knobs.spin_us == MS_ISSUE_ORDER_SPIN_US && parts[25].env);
  /* And on the usual queues, in their process. */
  g_assert_cmpstr (parts[37].sweep.variant, ==, "queue=default/order=breadth/K=16/work=kernels");
  g_assert_true (parts[37].sweep.knobs.spin_us == MS_ISSUE_ORDER_SPIN_US && parts[37].env_unset);
  g_assert_true (parts[n - 1].sweep.knobs.host_work && parts[n - 1].env_unset);
  ms_results_free (r);
  ms_backend_free (iso.backend);
}

static void
test_cache_state_and_managed (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("cache-state", b, NULL, NULL);
  g_assert_true (r);
  /* Streamed and ordinary in three modes, fresh in two, kept in two, the
   * read of write-combined memory, at two sizes. */
  g_assert_true (r->n_cells == (3 * 2 + 2 + 2 + 1) * 2);
  /* The model's input states: kept pageable inputs copy fastest, dirty
   * lines slowest. */
  g_assert_true (e2e (r, MS_MODE_PAGEABLE, 18, "stores=kept")
                 < e2e (r, MS_MODE_PAGEABLE, 18, "stores=streamed"));
  g_assert_true (e2e (r, MS_MODE_PAGEABLE, 18, "stores=ordinary")
                 > e2e (r, MS_MODE_PAGEABLE, 18, "stores=streamed"));
  g_assert_true (r);
  g_assert_true (
      ms_results_find_variant (r, MS_MODE_WRITE_COMBINED, 16, "stores=streamed/read=wc"));
  ms_results_free (r);
  r = run_lesson ("managed-touch", b, NULL, NULL);
  g_assert_true (r);
  g_assert_true (r->n_cells == 3 * 2);
  if (r)
    g_assert_true (e2e (r, MS_MODE_MANAGED, 18, "touch=resident")
                   < e2e (r, MS_MODE_MANAGED, 18, "touch=first"));
  ms_results_free (r);
  ms_backend_free (b);
}

/* The fields a file must keep of a cell's unified-memory counts. */
static bool
same_um (const MsUmCounts *a, const MsUmCounts *b)
{
  return a->state == b->state && a->gpu_faults == b->gpu_faults &&
         a->cpu_faults == b->cpu_faults && a->h2d_bytes == b->h2d_bytes &&
         a->d2h_bytes == b->d2h_bytes && strcmp (a->reason, b->reason) == 0;
}

/* Writes r as samples, reads it back and compares the counts cell by
 * cell. (The summary file carries the same metadata lines, but its reader
 * keeps no variants, so a lesson's summary does not read back.) */
static void
check_um_round_trip (const MsResults *r)
{
  char err[256] = "";
  const char *path = ms_test_tmp_path ("um-samples.csv");
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_true (back);
  for (size_t i = 0; back && i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    const MsCell *b = ms_results_find_variant (back, c->mode, c->exponent, c->variant);
    g_assert_true (b);
    g_assert_true (same_um (&b->um, &c->um));
  }
  ms_results_free (back);
}

static void
test_managed_counts (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("managed-touch", b, NULL, NULL);
  for (int e = 16; r && e <= 18; e += 2) {
    uint64_t vec = (1ull << e) * sizeof (float);
    const MsCell *first = ms_results_find_variant (r, MS_MODE_MANAGED, e, "touch=first");
    const MsCell *res = ms_results_find_variant (r, MS_MODE_MANAGED, e, "touch=resident");
    const MsCell *pre = ms_results_find_variant (r, MS_MODE_MANAGED_PREFETCH, e, "touch=first");
    g_assert_true (first);
    g_assert_true (res);
    g_assert_true (pre);
    if (!first || !res || !pre)
      continue;
    g_assert_cmpint (first->um.state, ==, MS_UM_COUNTED);
    g_assert_cmpint (res->um.state, ==, MS_UM_COUNTED);
    g_assert_cmpint (pre->um.state, ==, MS_UM_COUNTED);
    /* The model's counts reach the cells unchanged. */
    g_assert_cmpuint (first->um.gpu_faults, ==, 2 * vec / 65536);
    g_assert_cmpuint (first->um.h2d_bytes, ==, 2 * vec);
    g_assert_true (first->um.d2h_bytes == vec);
    g_assert_true (first->um.cpu_faults == vec / 4096);
    g_assert_true (res->um.gpu_faults == 0);
    g_assert_true (res->um.h2d_bytes == 0);
    g_assert_true (pre->um.gpu_faults == 0);
    g_assert_true (pre->um.h2d_bytes == 2 * vec);
    /* Counting is one extra repetition: the timed ones stay as many. */
    g_assert_cmpint (first->n_reps, ==, 3);
  }
  if (r)
    check_um_round_trip (r);
  ms_results_free (r);

  /* Other lessons and plain sweeps ask for no counts. */
  r = run_lesson ("duplex", b, NULL, NULL);
  for (size_t i = 0; r && i < r->n_cells; i++)
    g_assert_cmpint (r->cells[i].um.state, ==, MS_UM_NONE);
  ms_results_free (r);
  ms_backend_free (b);

  /* CUPTI refusing: the cells say why, and the times are still there. */
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.um_unavailable = true;
  cfg.um_reason = "CUPTI cannot count here: CUPTI_ERROR_NOT_SUPPORTED";
  b = ms_backend_new_test (&cfg);
  r = run_lesson ("managed-touch", b, NULL, NULL);
  const MsCell *c = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 18, "touch=first") : NULL;
  g_assert_true (c);
  g_assert_cmpint (c->um.state, ==, MS_UM_UNAVAILABLE);
  g_assert_cmpstr (c->um.reason, ==, cfg.um_reason);
  g_assert_cmpint (c->status, ==, MS_CELL_OK);
  g_assert_true (c->n_reps == 3);
  if (r)
    check_um_round_trip (r);
  ms_results_free (r);
  ms_backend_free (b);
}

/* Malformed or foreign "# um-counts:" lines are ignored; the file reads. */
static void
test_bad_um_lines (void)
{
  static const char *const lines[] = {
    "# um-counts: managed 65536 touch=first counted 1 2 3\n",          /* short */
    "# um-counts: nosuch 65536 touch=first counted 1 2 3 4\n",         /* mode */
    "# um-counts: managed 65535 touch=first counted 1 2 3 4\n",        /* size */
    "# um-counts: managed 65536 touch=none counted 1 2 3 4\n",         /* no cell */
    "# um-counts: managed 65536 touch=first maybe 1 2 3 4\n",          /* state */
    "# um-counts: managed 65536 touch=first counted -1 2 3 4\n",       /* sign */
    "# um-counts: managed 65536 touch=first counted 1 2 3 18446744073709551616\n", /* 2^64 */
    "# um-counts: managed 65536 touch=first counted 123456789012345678901 2 3\n",  /* long */
    "# um-counts: managed 65536 touch=first counted 1 2 3 4 5\n",      /* extra */
    "# um-counts: managed 65536 touch=first counted 1 2 3 4x\n",       /* junk */
    "# um-counts: managed -65536 touch=first counted 1 2 3 4\n",       /* size sign */
    "# um-counts: managed 262144 touch=first unavailable told so\n",    /* valid */
  };
  char err[256] = "";
  const char *path = ms_test_tmp_path ("bad-um-samples.csv");
  /* A lesson's file without counts, the lines put into its metadata. */
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *orig = run_lesson ("managed-touch", b, NULL, NULL);
  ms_backend_free (b);
  for (size_t i = 0; orig && i < orig->n_cells; i++)
    orig->cells[i].um.state = MS_UM_NONE;
  g_assert_true (orig);
  g_assert_true (ms_csv_write_samples (orig, path, err, sizeof err));
  ms_results_free (orig);
  ms_test_sidecar_add_lines (path, lines, sizeof lines / sizeof lines[0]);
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (r);
  const MsCell *small = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 16, "touch=first") : NULL;
  const MsCell *big = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 18, "touch=first") : NULL;
  g_assert_true (small);
  g_assert_cmpint (small->um.state, ==, MS_UM_NONE);
  g_assert_true (big);
  g_assert_cmpint (big->um.state, ==, MS_UM_UNAVAILABLE);
  g_assert_cmpstr (big->um.reason, ==, "told so");
  ms_results_free (r);
}

/* A managed-touch file from before the counts (the H100 reference run of
 * session 7, kept in tests/data/old-format) reads with none. */
static void
test_old_managed_file (void)
{
  char err[256] = "";
  MsResults *r = ms_run_read_samples (MS_OLD_FORMAT_DIR "/h100-lesson-managed-touch-"
                                      "samples.csv", err, sizeof err);
  g_assert_true (r);
  g_assert_true (r->n_cells > 0);
  for (size_t i = 0; r && i < r->n_cells; i++)
    g_assert_cmpint (r->cells[i].um.state, ==, MS_UM_NONE);
  ms_results_free (r);
}

/* The bundled reference runs carry the counts their GPUs measured: faults
 * and migration on first touch, none once resident. */
static void
test_reference_counts (void)
{
  const char *files[] = { MS_REFERENCE_DIR "/h100-lesson-managed-touch-samples.csv.gz",
                          MS_REFERENCE_DIR "/h200-lesson-managed-touch-samples.csv.gz" };
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char err[256] = "";
    MsResults *r = ms_run_read_samples (files[f], err, sizeof err);
    g_assert_nonnull (r);
    const MsCell *first = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 22, "touch=first") : NULL;
    const MsCell *res = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 22, "touch=resident") : NULL;
    g_assert_true (first);
    g_assert_cmpint (first->um.state, ==, MS_UM_COUNTED);
    g_assert_true (first->um.gpu_faults > 0);
    g_assert_true (first->um.h2d_bytes > 0);
    g_assert_true (res);
    g_assert_cmpint (res->um.state, ==, MS_UM_COUNTED);
    g_assert_true (res->um.gpu_faults == 0);
    ms_results_free (r);
  }
}

/* The costs lesson's device pool: its steady state when it keeps the
 * buffer against its first allocation, and what it kept, read from the
 * cell; the caption's sentence. */
static void
test_costs_pool (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("costs", b, NULL, NULL);
  const MsCell *reg = ms_results_find_variant (r, MS_MODE_REGISTERED, 18, "cost=register");
  /* The device pool: its steady state when it keeps everything against
   * its first allocation, and what it kept, read from the cell. */
  const MsCell *first_pool = ms_results_find_variant (r, MS_MODE_DEVICE, 18, "cost=pool-first");
  const MsCell *keep
      = ms_results_find_variant (r, MS_MODE_DEVICE, 18, "cost=pool/threshold=keep");
  const MsCell *zero = ms_results_find_variant (r, MS_MODE_DEVICE, 18, "cost=pool/threshold=0");
  g_assert_true (first_pool && keep && zero);
  g_assert_cmpint (keep->status, ==, MS_CELL_OK);
  g_assert_cmpfloat (keep->stats.phase_host[MS_PHASE_ALLOC].median, <,
                     first_pool->stats.phase_host[MS_PHASE_ALLOC].median);
  uint64_t reserved = 0, used = 1;
  g_assert_true (ms_costs_pool_kept (keep, &reserved, &used));
  g_assert_cmpuint (reserved, ==, keep->elements * sizeof (float));
  g_assert_cmpuint (used, ==, 0);
  g_assert_true (ms_costs_pool_kept (zero, &reserved, &used));
  g_assert_cmpuint (reserved, ==, 0);
  g_assert_false (ms_costs_pool_kept (reg, &reserved, &used));
  char buf[2048];
  g_assert_true (ms_lesson_caption (MS_TOPIC_COSTS, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "cudaMallocAsync and cudaFreeAsync from the device's pool "
                                 "took"));
  g_assert_nonnull (strstr (buf, "with the threshold at 976.6 GiB"));
  ms_results_free (r);
  ms_backend_free (b);
}

/* The keeping pool's threshold is an option, checked as every lesson's;
 * a device without pools says so and the rest is measured. */
static void
test_costs_pool_option (void)
{
  char why[256], buf[2048];
  g_assert_true (ms_lesson_check_options ("costs", "pool-keep-mib=1", why, sizeof why));
  g_assert_false (ms_lesson_check_options ("costs", "pool-keep-mib=0", why, sizeof why));
  g_assert_nonnull (strstr (why, "outside"));
  g_assert_false (ms_lesson_check_options ("costs", "pool-keep-mib=1.5", why, sizeof why));
  g_assert_nonnull (strstr (why, "whole number"));
  {
    MsSweep ks;
    MsResults *kr = NULL;
    MsBackend *kb = ms_backend_new_test (NULL);
    base_sweep (&ks);
    snprintf (ks.options, sizeof ks.options, "pool-keep-mib=1");
    g_assert_cmpint (ms_lesson_run ("costs", &ks, kb, NULL, NULL, NULL, NULL, NULL, &kr, why,
                                    sizeof why),
                     ==, MS_RUN_OK);
    uint64_t kept = 0, in_use = 0;
    /* The threshold is the size: the pool keeps the buffer. */
    g_assert_true (ms_costs_pool_kept (
        ms_results_find_variant (kr, MS_MODE_DEVICE, 18, "cost=pool/threshold=keep"), &kept,
        &in_use));
    g_assert_cmpuint (kept, ==, 1 << 20);
    g_assert_true (ms_lesson_caption (MS_TOPIC_COSTS, kr, -1, buf, sizeof buf));
    g_assert_nonnull (strstr (buf, "with the threshold at 1 MiB"));
    ms_results_free (kr);
    ms_backend_free (kb);
  }
  /* A device without pools: their cells say so, the caption names it and
   * the other costs are measured. */
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.no_pools = true;
  MsBackend *no_pools = ms_backend_new_test (&cfg);
  MsResults *r = run_lesson ("costs", no_pools, NULL, NULL);
  const MsCell *pool = ms_results_find_variant (r, MS_MODE_DEVICE, 18, "cost=pool-first");
  g_assert_true (pool);
  g_assert_cmpint (pool->status, ==, MS_CELL_UNSUPPORTED);
  g_assert_nonnull (strstr (pool->message, "no memory pools"));
  g_assert_cmpint (ms_results_find_variant (r, MS_MODE_DEVICE, 18, "cost=malloc")->status, ==,
                   MS_CELL_OK);
  char cap[2048];
  g_assert_true (ms_lesson_caption (MS_TOPIC_COSTS, r, -1, cap, sizeof cap));
  g_assert_nonnull (strstr (cap, "from the device's pool was not measured: unsupported:"));
  ms_results_free (r);
  ms_backend_free (no_pools);
}

static void
test_costs (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("costs", b, NULL, NULL);
  /* context-first once, context 3 times, eight per-size calls x 2 sizes x 3. */
  g_assert_cmpint (ms_test_backend_cost_calls (b), ==, 1 + 3 + 8 * 2 * 3);
  if (r) {
    g_assert_cmpuint (r->n_cells, ==, 2 + 8 * 2);
    const MsCell *first = ms_results_find_variant (r, MS_MODE_DEVICE, 16, "cost=context-first");
    const MsCell *reg = ms_results_find_variant (r, MS_MODE_REGISTERED, 18, "cost=register");
    g_assert_true (first);
    g_assert_true (first->n_reps == 1);
    g_assert_true (reg);
    g_assert_true (reg->stats.phase[MS_PHASE_REGISTER].n == 3);
    g_assert_true (reg->stats.phase[MS_PHASE_UNREGISTER].n == 3);
    g_assert_true (reg->stats.phase[MS_PHASE_ALLOC].n == 0);
    g_assert_true (ms_results_find_variant (r, MS_MODE_PAGEABLE, 18, "cost=malloc"));
    g_assert_true (ms_results_find_variant (r, MS_MODE_DEVICE, 18, "cost=malloc"));
    /* Through the CSV and back, as the app reads it. */
    char err[256];
    const char *path = ms_test_tmp_path ("costs-samples.csv");
    g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
    MsResults *back = ms_run_read_samples (path, err, sizeof err);
    g_assert_true (back);
    g_assert_true (back->n_cells == r->n_cells);
    g_assert_cmpstr (back->experiment, ==, "costs");
    /* What the pool kept comes back too. */
    uint64_t reserved = 0, used = 1;
    g_assert_true (ms_costs_pool_kept (
        ms_results_find_variant (back, MS_MODE_DEVICE, 18, "cost=pool/threshold=keep"), &reserved,
        &used));
    g_assert_cmpuint (reserved, ==, 1 << 20);
    ms_results_free (back);
  }
  ms_results_free (r);
  /* Without a device the first context fails and says why. */
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.no_device = true;
  MsBackend *none = ms_backend_new_test (&cfg);
  MsSweep s;
  char err[256] = "";
  base_sweep (&s);
  r = NULL;
  g_assert_cmpint (
      ms_lesson_run ("costs", &s, none, NULL, NULL, NULL, NULL, NULL, &r, err, sizeof err), ==,
      MS_RUN_NO_DEVICE);
  g_assert_true (r);
  g_assert_true (r->n_cells == 1);
  g_assert_cmpint (r->cells[0].status, ==, MS_CELL_FAILED);
  ms_results_free (r);
  ms_backend_free (none);
  ms_backend_free (b);
}

static void
test_unknown_and_invalid (void)
{
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  base_sweep (&s);
  MsBackend *b = ms_backend_new_test (NULL);
  g_assert_cmpint (ms_lesson_run ("nope", &s, b, NULL, NULL, NULL, NULL, NULL, &r, err, sizeof err),
                   ==, MS_RUN_INVALID);
  g_assert_nonnull (strstr (err, "nope"));
  /* K = 16 streams need 16 elements: every part is checked before any runs. */
  s.min_exp = 2;
  s.max_exp = 2;
  g_assert_cmpint (
      ms_lesson_run ("issue-order", &s, b, NULL, NULL, NULL, NULL, NULL, &r, err, sizeof err), ==,
      MS_RUN_INVALID);
  g_assert_null (r);
  g_assert_true (ms_test_backend_steps (b) == 0);
  for (int i = 0; i < ms_lesson_count (); i++)
    g_assert_nonnull (ms_lesson_settings (ms_lesson_nth (i)->name));
  ms_backend_free (b);
}

/* Every lesson has one name, which the app's cards, the command line and
 * the files share; an old name is accepted as its alias; the card's
 * experiment follows its kind (ms-lesson-list.h). */
static void
test_one_name (void)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLesson *l = ms_lesson_record ((MsLessonTopic) t);
    g_assert_nonnull (l);
    g_assert_true (g_hash_table_add (names, (gpointer) l->card.name));
    if (l->card.alias)
      g_assert_true (g_hash_table_add (names, (gpointer) l->card.alias));
    g_assert_cmpint (ms_lesson_topic_from_name (l->card.name), ==, t);
    bool plain = ms_lesson_kind ((MsLessonTopic) t) == MS_LESSON_KIND_PLAIN;
    g_assert_cmpstr (ms_lesson_topic ((MsLessonTopic)t)->experiment, ==, plain ? "" : l->card.name);
    bool probe = ms_lesson_kind ((MsLessonTopic) t) == MS_LESSON_KIND_PROBE;
    g_assert_true (!plain || l->parts == NULL);
    g_assert_true (probe || plain || l->parts != NULL);
    g_assert_true ((l->cells != NULL) == probe);
    g_assert_nonnull (l->caption);
  }
  g_assert_cmpint (ms_lesson_topic_from_name ("managed-touch"), ==, MS_TOPIC_MANAGED);
  g_assert_cmpint (ms_lesson_topic_from_name ("managed-prefetch"), ==, MS_TOPIC_MANAGED);
  g_assert_cmpint (ms_lesson_topic_for_experiment ("managed-prefetch"), ==, MS_TOPIC_MANAGED);
  g_assert_true (ms_lesson_find ("managed-prefetch") == ms_lesson_find ("managed-touch"));
  g_assert_null (ms_lesson_find ("pinned-pageable"));
  g_assert_cmpint (ms_lesson_topic_from_name ("nope"), ==, MS_TOPIC_COUNT);
}

/* Every lesson with an experiment has parts, a plain one none; a probe
 * lesson that lists none of its own is one probe part, its part 0. */
static void
test_parts_by_kind (void)
{
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLesson *l = ms_lesson_record ((MsLessonTopic)t);
    MsLessonKind kind = ms_lesson_kind ((MsLessonTopic)t);
    MsLessonPart parts[MS_LESSON_MAX_PARTS];
    MsSweep s;
    base_sweep (&s);
    int n = ms_lesson_parts (l->card.name, &s, parts, MS_LESSON_MAX_PARTS);
    g_assert_cmpint (n > 0, ==, kind != MS_LESSON_KIND_PLAIN);
    for (int i = 0; i < n; i++)
      g_assert_cmpint (parts[i].probe, ==, kind == MS_LESSON_KIND_PROBE);
    if (kind == MS_LESSON_KIND_PROBE && !l->parts)
      g_assert_true (n == 1 && parts[0].probe_part == 0);
  }
}

/* The command line's findings come from the lessons' records: each lesson
 * with one finds lines in its reference run, each ending in a newline; a
 * lesson without one, or no run, finds nothing. Which lessons time
 * one-time costs or run on several GPUs is theirs to say. */
static void
test_findings (void)
{
  int with = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLesson *l = ms_lesson_record ((MsLessonTopic) t);
    char buf[8192] = "x", path[512], err[256] = "";
    ms_lesson_finding ((MsLessonTopic) t, NULL, buf, sizeof buf);
    g_assert_cmpstr (buf, ==, "");
    g_assert_true (ms_lesson_times_costs ((MsLessonTopic) t) == l->one_time_costs);
    g_assert_true (ms_lesson_multi_gpu ((MsLessonTopic) t) == l->multi_gpu);
    g_snprintf (path, sizeof path, "%s/h100-lesson-%s-samples.csv.gz", MS_REFERENCE_DIR,
                l->card.name);
    MsResults *r = g_file_test (path, G_FILE_TEST_EXISTS)
                     ? ms_run_read_samples (path, err, sizeof err)
                     : NULL;
    if (!r)
      continue;
    ms_lesson_finding ((MsLessonTopic) t, r, buf, sizeof buf);
    if (l->finding) {
      with++;
      g_assert_cmpuint (strlen (buf), >, 0);
      g_assert_true (g_str_has_suffix (buf, "\n"));
    } else {
      g_assert_cmpstr (buf, ==, "");
    }
    ms_results_free (r);
  }
  g_assert_cmpint (with, >, 0);
  g_assert_false (ms_lesson_times_costs (MS_TOPIC_COUNT));
  g_assert_false (ms_lesson_multi_gpu (MS_TOPIC_COUNT));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lessons/reuse", test_reuse);
  g_test_add_func ("/lessons/duplex", test_duplex);
  g_test_add_func ("/lessons/issue-order", test_issue_order);
  g_test_add_func ("/lessons/child-fails", test_child_fails);
  g_test_add_func ("/lessons/cache-state-and-managed", test_cache_state_and_managed);
  g_test_add_func ("/lessons/managed-counts", test_managed_counts);
  g_test_add_func ("/lessons/old-managed-file", test_old_managed_file);
  g_test_add_func ("/lessons/reference-counts", test_reference_counts);
  g_test_add_func ("/lessons/bad-um-lines", test_bad_um_lines);
  g_test_add_func ("/lessons/costs", test_costs);
  g_test_add_func ("/lessons/costs-pool", test_costs_pool);
  g_test_add_func ("/lessons/costs-pool-option", test_costs_pool_option);
  g_test_add_func ("/lessons/unknown-and-invalid", test_unknown_and_invalid);
  g_test_add_func ("/lessons/one-name", test_one_name);
  g_test_add_func ("/lessons/parts-by-kind", test_parts_by_kind);
  g_test_add_func ("/lessons/findings", test_findings);
  int rc = g_test_run ();
  return rc;
}
