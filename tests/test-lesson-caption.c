/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-caption.c: the lessons' captions from runs of the test
 * backend: the numbers come from the cells, the reuse crossover is found,
 * reported absent when zero-copy always wins, and missing cells are named
 * rather than guessed. */
#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-caption.h"
#include "ms-test.h"

/* Runs modes under variant with every bandwidth divided by slow[mode]
 * (1 when 0) and merges the cells into *all. */
static void
add_part (MsResults **all, const char *modes, const char *variant, const double *slow)
{
  MsTestBackendConfig cfg;
  MsSweep s;
  char err[256];
  ms_sweep_init_default (&s);
  s.min_exp = 16;
  s.max_exp = 18;
  s.reps = 3;
  s.reps_rule = MS_REPS_FIXED;
  MS_CHECK (ms_sweep_set_modes (&s, modes, err, sizeof err), "%s", err);
  snprintf (s.variant, sizeof s.variant, "%s", variant);
  ms_test_backend_config_init (&cfg);
  cfg.latency_us = 0.01;
  for (int m = 0; slow && m < MS_MODE_COUNT; m++)
    cfg.bandwidth_gbps[m] /= slow[m] > 0 ? slow[m] : 1;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsResults *r = NULL;
  MS_CHECK (ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err) == MS_RUN_OK, "%s", err);
  ms_backend_free (b);
  if (!*all) {
    *all = r;
    return;
  }
  for (size_t i = 0; r && i < r->n_cells; i++)
    ms_results_put_cell (*all, &r->cells[i]);
  ms_results_free (r);
}

/* A cell with three repetitions of e2e_us each, and no events. */
static void
add_synthetic (MsResults *r, MsMode mode, int exp, const char *variant, double e2e_us)
{
  double times[3] = { e2e_us, e2e_us * 1.01, e2e_us * 0.99 };
  MsCell c = { .mode = mode, .exponent = exp, .elements = 1ull << exp, .n_reps = 3,
               .e2e_us = times, .status = MS_CELL_OK };
  snprintf (c.variant, sizeof c.variant, "%s", variant);
  ms_cell_compute_stats (&c);
  MS_CHECK (ms_results_add_cell (r, &c), "add");
}

/* A reuse experiment at 2^16..2^18: zero-copy takes zc_us * R^2 (the test
 * backend's zero-copy moves no bytes), pinned 100 µs at every R. */
static MsResults *
make_reuse (double zc_us)
{
  MsSweep s;
  ms_sweep_init_default (&s);
  MsResults *all = ms_results_new (&s, &(MsDeviceInfo){ 0 });
  for (int exp = 16; exp <= 18; exp++)
    for (int reuse = 1; reuse <= 16; reuse *= 2) {
      char variant[MS_VARIANT_LEN];
      snprintf (variant, sizeof variant, "R=%d", reuse);
      add_synthetic (all, MS_MODE_PINNED, exp, variant, 100);
      add_synthetic (all, MS_MODE_ZERO_COPY, exp, variant, zc_us * reuse * reuse);
    }
  snprintf (all->experiment, sizeof all->experiment, "reuse");
  return all;
}

/* The first R (of 1, 2, 4, 8, 16) where zero-copy's median is above
 * pinned's, read from the cells directly; 0 when none. */
static int
expected_crossover (const MsResults *r, int exp)
{
  for (int reuse = 1; reuse <= 16; reuse *= 2) {
    char v[16];
    snprintf (v, sizeof v, "R=%d", reuse);
    const MsCell *zc = ms_results_find_variant (r, MS_MODE_ZERO_COPY, exp, v);
    const MsCell *pin = ms_results_find_variant (r, MS_MODE_PINNED, exp, v);
    if (zc && pin && zc->stats.e2e.median > pin->stats.e2e.median)
      return reuse;
  }
  return 0;
}

static void
test_reuse_found (void)
{
  /* Zero-copy starts 20x faster and slows by R^2: it loses at R = 8. */
  MsResults *r = make_reuse (5);
  int want = expected_crossover (r, 18), cross = 0, largest = 0;
  MS_CHECK (want == 8, "the model crosses at R = 8 (%d)", want);
  MS_CHECK (ms_lesson_reuse_crossover (r, 18, &cross, &largest) == 1, "found");
  MS_CHECK (cross == want, "crossover %d, want %d", cross, want);
  MS_CHECK (largest == 16, "largest %d", largest);
  char buf[512], expect[64];
  MS_CHECK (ms_lesson_caption (MS_TOPIC_REUSE, r, -1, buf, sizeof buf), "%s", buf);
  snprintf (expect, sizeof expect, "from R = %d accesses", want);
  MS_CHECK (strstr (buf, expect) && strstr (buf, "1 MiB") && strstr (buf, "320 µs against 100 µs"),
            "%s", buf);
  MS_CHECK (ms_lesson_topic_matches (MS_TOPIC_REUSE, r), "matches");
  MS_CHECK (!ms_lesson_topic_matches (MS_TOPIC_PINNED_PAGEABLE, r), "not a plain sweep");
  ms_results_free (r);
}

static void
test_reuse_not_found (void)
{
  /* 1000x faster at R = 1: still 4x faster at R = 16. */
  MsResults *r = make_reuse (0.1);
  int cross = -1, largest = 0;
  MS_CHECK (expected_crossover (r, 17) == 0, "the model never crosses");
  MS_CHECK (ms_lesson_reuse_crossover (r, 17, &cross, &largest) == 0, "not found");
  MS_CHECK (largest == 16, "largest %d", largest);
  char buf[512];
  MS_CHECK (ms_lesson_caption (MS_TOPIC_REUSE, r, 17, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "beats pinned at every R measured up to 16 at 512 KiB"), "%s", buf);
  ms_results_free (r);

  /* Zero-copy slower from the first R: said as such, not as a crossover. */
  r = make_reuse (400);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_REUSE, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "at every R measured, from R = 1"), "%s", buf);
  ms_results_free (r);
}

static void
test_missing (void)
{
  MsResults *r = NULL;
  char buf[512];
  add_part (&r, "pinned", "", NULL);
  int cross, largest;
  MS_CHECK (ms_lesson_reuse_crossover (r, 18, &cross, &largest) == -1, "no reuse cells");
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    /* The portable flag is explained from pinned copies alone. */
    if (t == MS_TOPIC_PORTABLE)
      continue;
    MS_CHECK (!ms_lesson_caption (t, r, -1, buf, sizeof buf), "topic %d: %s", t, buf);
    MS_CHECK (buf[0] && strpbrk (buf, "0123456789") == NULL, "no invented number: %s", buf);
  }
  MS_CHECK (!ms_lesson_caption (MS_TOPIC_COUNT, r, -1, buf, sizeof buf), "unknown");
  MS_CHECK (!ms_lesson_caption (MS_TOPIC_REUSE, NULL, -1, buf, sizeof buf) && buf[0], "none");
  /* A size that was not measured is missing too. */
  ms_results_free (r);
  r = NULL;
  add_part (&r, "pageable,pinned", "", NULL);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_PINNED_PAGEABLE, r, 17, buf, sizeof buf), "%s", buf);
  MS_CHECK (!ms_lesson_caption (MS_TOPIC_PINNED_PAGEABLE, r, 12, buf, sizeof buf), "%s", buf);
  /* A failed cell is no number. */
  for (size_t i = 0; i < r->n_cells; i++)
    if (r->cells[i].mode == MS_MODE_PAGEABLE)
      r->cells[i].status = MS_CELL_FAILED;
  MS_CHECK (!ms_lesson_caption (MS_TOPIC_PINNED_PAGEABLE, r, -1, buf, sizeof buf), "%s", buf);
  ms_results_free (r);
}

static void
test_plain_sweep_topics (void)
{
  MsResults *r = NULL;
  char buf[512], expect[64];
  double slow[MS_MODE_COUNT] = { 0 };
  slow[MS_MODE_PAGEABLE] = 3;
  add_part (&r, "pageable,pinned,registered,managed,managed-prefetch", "", slow);
  snprintf (r->device.name, sizeof r->device.name, "Test GPU");
  const MsCell *pin = ms_results_find (r, MS_MODE_PINNED, 18);
  const MsCell *page = ms_results_find (r, MS_MODE_PAGEABLE, 18);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_PINNED_PAGEABLE, r, -1, buf, sizeof buf), "%s", buf);
  snprintf (expect, sizeof expect, "On this Test GPU, pinned copies are %.1fx faster",
            pin->stats.h2d_gbps / page->stats.h2d_gbps);
  MS_CHECK (strstr (buf, expect) && strstr (buf, "at 1 MiB"), "%s", buf);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_REGISTER, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "registered memory run at"), "%s", buf);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_MANAGED, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "prefetching"), "%s", buf);
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic (t);
    MS_CHECK (info && ms_lesson_topic_from_name (info->name) == (MsLessonTopic) t, "topic %d", t);
    MS_CHECK (ms_lesson_topic_matches (t, r) == info->plain, "%s", info->name);
  }
  MS_CHECK (ms_lesson_topic (MS_TOPIC_COUNT) == NULL, "out of range");
  /* Pageable faster: the caption says pinned is not faster. */
  ms_results_free (r);
  r = NULL;
  slow[MS_MODE_PAGEABLE] = 0;
  slow[MS_MODE_PINNED] = 3;
  add_part (&r, "pageable,pinned", "", slow);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_PINNED_PAGEABLE, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "are not faster"), "%s", buf);
  ms_results_free (r);
}

static void
test_experiment_topics (void)
{
  MsResults *r = NULL;
  char buf[512];
  double slow[MS_MODE_COUNT] = { 0 };
  add_part (&r, "pinned", "copy=h2d", NULL);
  add_part (&r, "pinned", "copy=d2h", NULL);
  add_part (&r, "pinned", "copy=duplex", NULL);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_DUPLEX, r, 18, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "2.00x as fast"), "equal times: twice as fast: %s", buf);
  add_part (&r, "streams", "queue=single/order=depth/K=4", NULL);
  slow[MS_MODE_STREAMS] = 0.5;
  add_part (&r, "streams", "queue=single/order=breadth/K=4", slow);
  add_part (&r, "streams", "queue=single/order=breadth/K=8/host=overlap", slow);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_ISSUE_ORDER, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "K = 4 streams") && strstr (buf, "one hardware queue") &&
              !strstr (buf, "default queues"),
            "%s", buf);
  add_part (&r, "write-combined", "stores=streamed", NULL);
  slow[MS_MODE_WRITE_COMBINED] = 2;
  add_part (&r, "write-combined", "stores=ordinary", slow);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_CACHE_STATE, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "after streamed stores") && !strstr (buf, "Fresh"), "%s", buf);
  add_part (&r, "pinned", "cost=malloc-host", NULL);
  add_part (&r, "pageable", "cost=malloc", NULL);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_COSTS, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "Of 2 costs") && strstr (buf, "malloc-host"), "%s", buf);
  ms_results_free (r);
}

/* The managed-touch lesson on the test backend, its counts modelled or
 * refused. */
static MsResults *
run_managed_touch (bool unavailable)
{
  MsTestBackendConfig cfg;
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  ms_test_backend_config_init (&cfg);
  cfg.um_unavailable = unavailable;
  cfg.um_reason = "refused";
  ms_sweep_init_default (&s);
  s.min_exp = 16;
  s.max_exp = 18;
  s.reps = 3;
  s.reps_rule = MS_REPS_FIXED;
  MsBackend *b = ms_backend_new_test (&cfg);
  MS_CHECK (ms_lesson_run ("managed-touch", &s, b, NULL, NULL, NULL, NULL, NULL, &r, err,
                           sizeof err) == MS_RUN_OK && r, "%s", err);
  ms_backend_free (b);
  return r;
}

static void
test_managed_counts (void)
{
  char buf[1024], plain[1024], expect[128], moved[32];
  MsResults *r = run_managed_touch (false);
  if (!r)
    return;
  const MsCell *first = ms_results_find_variant (r, MS_MODE_MANAGED, 18, "touch=first");
  const MsCell *pre = ms_results_find_variant (r, MS_MODE_MANAGED_PREFETCH, 18, "touch=first");
  MS_CHECK (ms_lesson_caption (MS_TOPIC_MANAGED, r, -1, buf, sizeof buf), "%s", buf);
  /* Every count in the sentence is the cell's. */
  ms_format_bytes (first->um.h2d_bytes, moved, sizeof moved);
  snprintf (expect, sizeof expect, "with %llu GPU page faults migrating %s to the device",
            (unsigned long long) first->um.gpu_faults, moved);
  MS_CHECK (first->um.gpu_faults > 1 && strstr (buf, expect), "%s", buf);
  MS_CHECK (strstr (buf, "First touch of 1 MiB took") && strstr (buf, "resident data took") &&
              strstr (buf, "with none."),
            "%s", buf);
  ms_format_bytes (pre->um.h2d_bytes, moved, sizeof moved);
  snprintf (expect, sizeof expect, "With a prefetch, %s moved with none.", moved);
  MS_CHECK (strstr (buf, expect) && !strstr (buf, "Once resident"), "%s", buf);
  /* Without counts (an older file) the caption is the one before. */
  for (size_t i = 0; i < r->n_cells; i++)
    r->cells[i].um.state = MS_UM_NONE;
  MS_CHECK (ms_lesson_caption (MS_TOPIC_MANAGED, r, -1, plain, sizeof plain), "%s", plain);
  MS_CHECK (!strstr (plain, "First touch") && strstr (plain, "Once resident"), "%s", plain);
  ms_results_free (r);
  /* Counts refused: the same caption as without them. */
  r = run_managed_touch (true);
  if (!r)
    return;
  MS_CHECK (ms_lesson_caption (MS_TOPIC_MANAGED, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strcmp (buf, plain) == 0, "'%s' against '%s'", buf, plain);
  ms_results_free (r);
}

/* One GPU: the device and the pinned copies of the run, no other number. */
static void
test_portable_one_gpu (void)
{
  MsResults *r = NULL;
  char buf[1024], expect[160], size[32];
  add_part (&r, "pinned", "", NULL);
  snprintf (r->device.name, sizeof r->device.name, "Test GPU %s", "A1");
  const MsCell *pin = ms_results_find (r, MS_MODE_PINNED, 18);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_PORTABLE, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "With one GPU (Test GPU A1)") && strstr (buf, "cudaHostAllocPortable"),
            "%s", buf);
  ms_format_bytes (pin->elements * sizeof (float), size, sizeof size);
  snprintf (expect, sizeof expect, "reach %.1f GB/s to the device at %s", pin->stats.h2d_gbps,
            size);
  MS_CHECK (strstr (buf, expect), "%s (expected %s)", buf, expect);
  /* No portable result, or one of one GPU: the same sentence. */
  char again[1024];
  MsPortableResults one = { .n_devices = 1 };
  MS_CHECK (ms_lesson_portable_caption (r, NULL, again, sizeof again), "%s", again);
  MS_CHECK (strcmp (again, buf) == 0, "%s", again);
  MS_CHECK (ms_lesson_portable_caption (r, &one, again, sizeof again), "%s", again);
  MS_CHECK (strcmp (again, buf) == 0, "%s", again);
  /* A host that saw more GPUs says so. */
  r->device.count = 4;
  MS_CHECK (ms_lesson_caption (MS_TOPIC_PORTABLE, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "This host has 4 GPUs, but this run used one, the Test GPU A1"), "%s",
            buf);
  /* A failed pinned cell is no number. */
  for (size_t i = 0; i < r->n_cells; i++)
    r->cells[i].status = MS_CELL_FAILED;
  MS_CHECK (!ms_lesson_caption (MS_TOPIC_PORTABLE, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strpbrk (buf, "0123456789") == NULL, "no invented number: %s", buf);
  ms_results_free (r);
}

/* Two GPUs: the second GPU's three buffers, as measured. */
static void
test_portable_two_gpus (void)
{
  MsResults *r = NULL;
  char buf[1024];
  add_part (&r, "pinned", "", NULL);
  snprintf (r->device.name, sizeof r->device.name, "Test GPU");
  MsPortableResults *p = calloc (1, sizeof *p);
  p->n_devices = 2;
  p->bytes = 1u << 20;
  for (int k = 0; k < MS_PORTABLE_COUNT; k++)
    for (int i = 0; i < 2; i++)
      p->cell[k][i] = (MsPortableCell){ .ok = true, .h2d_gbps = 50 + 10 * k + i,
                                        .d2h_gbps = 40, .pinned_path = true };
  p->cell[MS_PORTABLE_FOREIGN][1].h2d_gbps = 12.25;
  p->cell[MS_PORTABLE_FOREIGN][1].pinned_path = false;
  MS_CHECK (ms_lesson_portable_caption (r, p, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "With 2 GPUs (Test GPU), copies of 1 MiB"), "%s", buf);
  MS_CHECK (strstr (buf, "reach 61.0 GB/s from a portable buffer, 51.0 GB/s from a buffer pinned "
                         "for it and 12.2 GB/s from one pinned by the first GPU only"),
            "%s", buf);
  MS_CHECK (strstr (buf, "does not treat"), "%s", buf);
  p->cell[MS_PORTABLE_FOREIGN][1].pinned_path = true;
  MS_CHECK (ms_lesson_portable_caption (r, p, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "changes little"), "%s", buf);
  /* The second GPU failed a buffer: said, not guessed. */
  p->cell[MS_PORTABLE_SHARED][1].ok = false;
  MS_CHECK (!ms_lesson_portable_caption (r, p, buf, sizeof buf), "%s", buf);
  MS_CHECK (strpbrk (buf, "0123456789") == NULL, "no invented number: %s", buf);
  free (p);
  ms_results_free (r);
}

/* An issue-order run at 2^22: one queue, plain repetitions and with an
 * event pair around every step, at K = 1..16; depth-first takes depth_us
 * (timed_depth_us with the timers), breadth-first 100 us. */
static MsResults *
make_issue_order (double depth_us, double timed_depth_us)
{
  MsSweep s;
  ms_sweep_init_default (&s);
  MsResults *r = ms_results_new (&s, &(MsDeviceInfo){ 0 });
  for (int k = 1; k <= 16; k *= 2)
    for (int timers = 0; timers < 2; timers++)
      for (int o = 0; o < 2; o++) {
        char v[MS_VARIANT_LEN];
        ms_lesson_streams_variant (v, sizeof v, true,
                                   o ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST, k);
        if (timers)
          strncat (v, "/timers=per-step", sizeof v - strlen (v) - 1);
        add_synthetic (r, MS_MODE_STREAMS, 22, v,
                       o ? 100 : timers ? timed_depth_us : depth_us);
      }
  snprintf (r->experiment, sizeof r->experiment, "issue-order");
  return r;
}

/* The caption states both ratios from the cells, and says which one the
 * run can tell apart from its spread. */
static void
test_issue_order_timers (void)
{
  char buf[1024];
  /* Only the timers make a difference. */
  MsResults *r = make_issue_order (100, 130);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_ISSUE_ORDER, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "breadth-first is 1.00x (K = 1), 1.00x (K = 2), 1.00x (K = 4), "
                         "1.00x (K = 8), 1.00x (K = 16) as fast"),
            "plain ratios per K: %s", buf);
  MS_CHECK (strstr (buf, "makes breadth-first 1.30x as fast as depth-first at K = 16; without "
                         "them the ratio is 1.00, within the spread"),
            "timers: %s", buf);
  ms_results_free (r);

  /* Neither makes a difference. */
  r = make_issue_order (100, 100);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_ISSUE_ORDER, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "no difference beyond the spread, with an event pair around every "
                         "step (1.00x) or without (1.00x)"),
            "neither: %s", buf);
  MS_CHECK (!strstr (buf, "the timers make the difference"), "%s", buf);
  ms_results_free (r);

  /* Both do: the ratios, no claim about which causes what. */
  r = make_issue_order (120, 150);
  MS_CHECK (ms_lesson_caption (MS_TOPIC_ISSUE_ORDER, r, -1, buf, sizeof buf), "%s", buf);
  MS_CHECK (strstr (buf, "1.50x as fast as depth-first at K = 16; without them the ratio is "
                         "1.20.") && !strstr (buf, "within the spread"),
            "both: %s", buf);
  ms_results_free (r);
}

int
main (void)
{
  MS_RUN (test_reuse_found);
  MS_RUN (test_reuse_not_found);
  MS_RUN (test_missing);
  MS_RUN (test_plain_sweep_topics);
  MS_RUN (test_experiment_topics);
  MS_RUN (test_issue_order_timers);
  MS_RUN (test_managed_counts);
  MS_RUN (test_portable_one_gpu);
  MS_RUN (test_portable_two_gpus);
  return ms_test_finish ();
}
