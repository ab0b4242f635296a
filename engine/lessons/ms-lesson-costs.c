/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-costs.c: the costs people forget, as cells: context creation,
 * the first cudaMalloc, cudaMallocHost against malloc, cudaHostRegister,
 * the frees, and what stream-ordered allocation does about them:
 * cudaMallocAsync and cudaFreeAsync from the device's default pool, its
 * first allocation and its steady state with the release threshold at 0
 * and at "keep everything", with what the pool keeps. Each sample is one
 * allocating and one freeing call, timed on the host; a cell is one call
 * kind at one size (variant "cost=NAME"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-backend-private.h"
#include "ms-i18n.h"
#include "ms-lesson-costs.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-results.h"
#include "ms-modes.h"
#include "ms-backend.h"
#include "ms-lesson-costs-private.h"

#define NAME "costs"

static const struct {
  const char *variant;
  MsMode mode;           /* whose memory it is */
  MsPhase alloc, release; /* the phases the two calls are filed under */
  bool per_size;          /* false: once, at the smallest size */
} costs[MS_COST_COUNT] = {
  [MS_COST_CONTEXT_FIRST] = { "cost=context-first", MS_MODE_DEVICE, MS_PHASE_ALLOC,
                              MS_PHASE_FREE, false },
  [MS_COST_CONTEXT] = { "cost=context", MS_MODE_DEVICE, MS_PHASE_ALLOC, MS_PHASE_FREE, false },
  [MS_COST_FIRST_MALLOC] = { "cost=first-malloc", MS_MODE_DEVICE, MS_PHASE_ALLOC, MS_PHASE_FREE,
                             true },
  [MS_COST_DEVICE_MALLOC] = { "cost=malloc", MS_MODE_DEVICE, MS_PHASE_ALLOC, MS_PHASE_FREE,
                              true },
  [MS_COST_MALLOC_HOST] = { "cost=malloc-host", MS_MODE_PINNED, MS_PHASE_ALLOC, MS_PHASE_FREE,
                            true },
  [MS_COST_MALLOC] = { "cost=malloc", MS_MODE_PAGEABLE, MS_PHASE_ALLOC, MS_PHASE_FREE, true },
  [MS_COST_REGISTER] = { "cost=register", MS_MODE_REGISTERED, MS_PHASE_REGISTER,
                         MS_PHASE_UNREGISTER, true },
  [MS_COST_POOL_FIRST] = { "cost=pool-first", MS_MODE_DEVICE, MS_PHASE_ALLOC, MS_PHASE_FREE,
                           true },
  [MS_COST_POOL_RELEASE] = { "cost=pool/threshold=0", MS_MODE_DEVICE, MS_PHASE_ALLOC,
                             MS_PHASE_FREE, true },
  [MS_COST_POOL_KEEP] = { "cost=pool/threshold=keep", MS_MODE_DEVICE, MS_PHASE_ALLOC,
                          MS_PHASE_FREE, true },
};

/* A pool cell's message: what the pool held after the last free. */
#define POOL_KEPT_FORMAT "pool after the free: %llu bytes reserved, %llu used"

bool
ms_costs_pool_kept (const MsCell *c, uint64_t *reserved, uint64_t *used)
{
  unsigned long long r = 0, u = 0;
  if (!c || sscanf (c->message, POOL_KEPT_FORMAT, &r, &u) != 2)
    return false;
  *reserved = r;
  *used = u;
  return true;
}

static const MsLessonOption options[] = {
  /* The default, about 977 GiB, is more than any GPU has: the pool keeps
   * everything. (Six digits: the option's messages print it whole.) */
  { "pool-keep-mib", 999999, 1, 999999, true,
    MS_N_ ("the release threshold of the pool that keeps its memory, MiB (the default, 999999, "
           "is more than any GPU has: it keeps everything)") },
  { NULL },
};

static bool
add_sample (MsCell *c, int rep, double alloc_us, double free_us, uint64_t bytes, int what)
{
  MsEvent *ev = realloc (c->events, (c->n_events + 2) * sizeof (MsEvent));
  double *e2e = realloc (c->e2e_us, (rep + 1) * sizeof (double));
  if (ev)
    c->events = ev;
  if (e2e)
    c->e2e_us = e2e;
  if (!ev || !e2e)
    return false;
  /* The calls follow each other on the host lane, from the sample's start. */
  c->events[c->n_events++] = (MsEvent) { .phase = costs[what].alloc, .rep = rep,
                                         .host_us = alloc_us, .gpu_start_us = -1, .gpu_us = -1,
                                         .bytes = bytes };
  c->events[c->n_events++] = (MsEvent) { .phase = costs[what].release, .rep = rep,
                                         .host_start_us = alloc_us, .host_us = free_us,
                                         .gpu_start_us = -1, .gpu_us = -1, .bytes = bytes };
  c->e2e_us[rep] = alloc_us + free_us;
  c->n_reps = rep + 1;
  return true;
}

/* One cell: reps samples (one for the process's first context). */
static void
run_cost_cell (const MsSweep *sweep, MsBackend *backend, int what, int exponent, MsCell *c)
{
  c->mode = costs[what].mode;
  c->exponent = exponent;
  c->elements = 1ull << exponent;
  snprintf (c->variant, sizeof c->variant, "%s", costs[what].variant);
  uint64_t bytes = ms_vector_bytes (c->elements);
  int reps = what == MS_COST_CONTEXT_FIRST ? 1 : sweep->reps;
  char err[256] = "";
  if (!backend->cost_sample) {
    c->status = MS_CELL_UNSUPPORTED;
    snprintf (c->message, sizeof c->message, ms_gettext ("this backend cannot time the calls"));
    return;
  }
  c->status = MS_CELL_OK;
  uint64_t pool[2] = { 0, 0 };
  uint64_t keep = (uint64_t)ms_lesson_option_in (options, sweep->options, "pool-keep-mib") << 20;
  for (int rep = 0; rep < reps; rep++) {
    double alloc_us = 0, free_us = 0;
    if (!backend->cost_sample (backend, sweep->device, what, bytes, keep, &alloc_us, &free_us, pool,
                               err, sizeof err)) {
      /* A device or driver without pools, or a size past the safe share,
       * is no failure: the cell says why. */
      c->status = strncmp (err, "unsupported:", 12) == 0 ? MS_CELL_UNSUPPORTED : MS_CELL_FAILED;
      snprintf (c->message, sizeof c->message, "%s", err);
      break;
    }
    if (what >= MS_COST_POOL_FIRST)
      snprintf (c->message, sizeof c->message, POOL_KEPT_FORMAT, (unsigned long long)pool[0],
                (unsigned long long)pool[1]);
    if (!add_sample (c, rep, alloc_us, free_us, what == MS_COST_CONTEXT_FIRST ||
                                                  what == MS_COST_CONTEXT ? 0 : bytes, what)) {
      c->status = MS_CELL_FAILED;
      snprintf (c->message, sizeof c->message, ms_gettext ("out of host memory"));
      break;
    }
  }
  if (c->status != MS_CELL_OK)
    ms_cell_clear (c);
  ms_cell_compute_stats (c);
}

MsRunStatus
ms_lesson_run_costs (const MsSweep *sweep, MsBackend *backend, atomic_int *cancel,
                     MsResults **out, char *err, size_t errlen)
{
  MsCell first = { 0 };
  MsDeviceInfo info;
  /* Before anything else touches the device: the process's first context. */
  run_cost_cell (sweep, backend, MS_COST_CONTEXT_FIRST, sweep->min_exp, &first);
  bool have_device = ms_backend_query_device (backend, sweep->device, &info);
  *out = ms_results_new (sweep, &info);
  if (!*out || !ms_results_add_cell (*out, &first)) {
    ms_cell_clear (&first);
    snprintf (err, errlen, ms_gettext ("out of memory"));
    return MS_RUN_CANCELLED;
  }
  ms_cell_clear (&first);
  if (!have_device) {
    snprintf (err, errlen, ms_gettext ("no usable CUDA device: %s"), info.error);
    return MS_RUN_NO_DEVICE;
  }
  for (int what = MS_COST_CONTEXT; what < MS_COST_COUNT; what++)
    for (int e = sweep->min_exp; e <= sweep->max_exp; e += sweep->step) {
      if (cancel && atomic_load (cancel)) {
        snprintf (err, errlen, ms_gettext ("cancelled"));
        return MS_RUN_CANCELLED;
      }
      MsCell c = { 0 };
      run_cost_cell (sweep, backend, what, e, &c);
      bool ok = ms_results_add_cell (*out, &c);
      ms_cell_clear (&c);
      if (!ok) {
        snprintf (err, errlen, ms_gettext ("out of memory"));
        return MS_RUN_CANCELLED;
      }
      if (!costs[what].per_size)
        break;
    }
  return MS_RUN_OK;
}

/* ---- the lesson ------------------------------------------------------------ */

static void
costs_parts (MsPartList *l)
{
  MsLessonPart *p = ms_lesson_isolate (ms_lesson_add_part (l, "device", "cost=all"), NULL, NULL);
  if (p)
    p->costs = true;
}

/* The median of the cost cell named variant in mode at exponent e (a
 * context's at the smallest size, where it is filed), or -1; a summary
 * file's cells, without repetitions, have none. */
static double
cost_us (const MsResults *r, MsMode mode, int e, const char *variant)
{
  const MsCell *c = ms_caption_measured (r, mode, e < 0 ? r->sweep.min_exp : e, variant);
  return c ? c->stats.e2e.median : -1;
}

/* Stream-ordered allocation at the caption's size: the pool's first
 * allocation, its steady state at both release thresholds against
 * cudaMalloc, and what the pool kept; or why it was not measured. */
static void
caption_pool (const MsResults *r, int e, const char *size, char *buf, size_t len)
{
  const MsCell *keep = ms_caption_measured (r, MS_MODE_DEVICE, e, "cost=pool/threshold=keep");
  double first = cost_us (r, MS_MODE_DEVICE, e, "cost=pool-first");
  double zero = cost_us (r, MS_MODE_DEVICE, e, "cost=pool/threshold=0");
  double malloc_us = cost_us (r, MS_MODE_DEVICE, e, "cost=malloc");
  uint64_t reserved = 0, used = 0;
  if (!keep || first < 0 || zero < 0 || malloc_us < 0
      || !ms_costs_pool_kept (keep, &reserved, &used)) {
    for (size_t i = 0; i < r->n_cells; i++)
      if (strncmp (r->cells[i].variant, "cost=pool", 9) == 0 && r->cells[i].exponent == e
          && r->cells[i].status != MS_CELL_OK && r->cells[i].message[0]) {
        ms_caption_append (buf, len,
                           ms_gettext ("cudaMallocAsync from the device's pool was not measured: "
                                       "%s."),
                           r->cells[i].message);
        break;
      }
    return;
  }
  char t[4][32], kept[32], threshold[96];
  ms_format_bytes (reserved, kept, sizeof kept);
  uint64_t limit = (uint64_t)ms_lesson_option_in (options, r->sweep.options, "pool-keep-mib") << 20;
  ms_format_bytes (limit, threshold, sizeof threshold);
  /* Above the device's memory the threshold means "keep everything". */
  if (r->device.total_mem > 0 && limit >= r->device.total_mem)
    snprintf (threshold + strlen (threshold), sizeof threshold - strlen (threshold), "%s",
              ms_gettext (", more than the GPU has"));
  ms_caption_append (
      buf, len,
      ms_gettext ("cudaMallocAsync and cudaFreeAsync from the device's pool took %s from an "
                  "empty pool (emptied just before) at %s, then %s with the release threshold "
                  "at 0 (CUDA's default: the pool gives the memory back at each "
                  "synchronisation) and %s with the threshold at "
                  "%s (it then held %s), against %s for cudaMalloc and cudaFree."),
      ms_caption_time (first, t[0], sizeof t[0]), size, ms_caption_time (zero, t[1], sizeof t[1]),
      ms_caption_time (keep->stats.e2e.median, t[2], sizeof t[2]), threshold, kept,
      ms_caption_time (malloc_us, t[3], sizeof t[3]));
}

/* The context first (paid once per process, the largest by far), then
 * each allocation with its free under its API name, as the picture's bars
 * are named. */
static bool
caption_costs (const MsResults *r, int exponent, char *buf, size_t len)
{
  static const struct {
    MsMode mode;
    const char *variant, *name;
  } allocs[] = {
    { MS_MODE_PINNED, "cost=malloc-host", "cudaMallocHost" },
    { MS_MODE_REGISTERED, "cost=register", "cudaHostRegister" },
    { MS_MODE_PAGEABLE, "cost=malloc", MS_N_ ("malloc + memset, unpinned") },
    { MS_MODE_DEVICE, "cost=malloc", "cudaMalloc" },
  };
  char t[2][32];
  double first = cost_us (r, MS_MODE_DEVICE, -1, "cost=context-first");
  double again = cost_us (r, MS_MODE_DEVICE, -1, "cost=context");
  buf[0] = '\0';
  if (first > 0 && again > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Creating the CUDA context (the GPU's state for this process) "
                                   "took %s the first time and %s again, after cudaDeviceReset "
                                   "destroyed it: more than any allocation."),
                       ms_caption_time (first, t[0], sizeof t[0]),
                       ms_caption_time (again, t[1], sizeof t[1]));
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, "cost=malloc-host");
    if (!pin)
      continue;
    char size[32], list[256] = "", tt[32];
    for (size_t k = 0; k < sizeof allocs / sizeof allocs[0]; k++) {
      double us = cost_us (r, allocs[k].mode, e, allocs[k].variant);
      if (us > 0)
        snprintf (list + strlen (list), sizeof list - strlen (list), "%s%s %s", list[0] ? ", " : "",
                  ms_gettext (allocs[k].name), ms_caption_time (us, tt, sizeof tt));
    }
    /* What each of the slide's dots includes, in its words. */
    ms_caption_append (buf, len,
                       ms_gettext ("One %s buffer, each call with its free (cudaHostRegister: its "
                                   "unregister, no malloc): %s."),
                       ms_caption_size (pin, size, sizeof size), list);
    /* Said where a class compares the two lessons' costs, the other
     * named by its number in the deck: its title is on no slide. */
    ms_caption_append (buf, len,
                       ms_gettext ("Each call was repeated in one process, so malloc reused the "
                                   "heap pages its last free kept; every sample counts (no "
                                   "warm-up): cudaMallocHost with its free took %s–%s. Slide %d "
                                   "also times fresh pages (mmap), and cudaMallocHost and "
                                   "cudaFreeHost each alone; slide %d gets three buffers, each "
                                   "with its cudaMalloc on the GPU."),
                       ms_caption_time (pin->stats.e2e.ci_low, t[0], sizeof t[0]),
                       ms_caption_time (pin->stats.e2e.ci_high, t[1], sizeof t[1]),
                       ms_lesson_deck_number (MS_TOPIC_PIN_PAYOFF),
                       ms_lesson_deck_number (MS_TOPIC_REGISTER));
    caption_pool (r, e, size, buf, len);
    return true;
  }
  return buf[0] != '\0';
}

/* The slide's line: a process's first context, the picture's top dot,
 * and what a kept pool saves against cudaMalloc; the other allocations'
 * times are the picture's and the details'. */
static MsTakeaway
takeaway_costs (const MsResults *r, char *buf, size_t len)
{
  char t[32];
  double first = cost_us (r, MS_MODE_DEVICE, -1, "cost=context-first");
  if (!(first > 0))
    return MS_TAKEAWAY_MISSING;
  /* The card's second half, what a pool saves: its reuse against
   * cudaMalloc at the caption's size, the picture's last bar and one
   * above it. */
  FOR_EACH_EXP (e, -1)
  {
    double keep = cost_us (r, MS_MODE_DEVICE, e, "cost=pool/threshold=keep");
    double malloc_us = cost_us (r, MS_MODE_DEVICE, e, "cost=malloc");
    if (!ms_caption_measured (r, MS_MODE_PINNED, e, "cost=malloc-host"))
      continue;
    if (!(keep > 0) || !(malloc_us > 0))
      break;
    /* "Only" where the empty and default pools' rows are both slower
     * than cudaMalloc: the ratio alone left that unsaid. */
    bool only = cost_us (r, MS_MODE_DEVICE, e, "cost=pool-first") >= malloc_us
                && cost_us (r, MS_MODE_DEVICE, e, "cost=pool/threshold=0") >= malloc_us;
    /* TRANSLATORS: one projected line, e.g. "Context 227.8 ms; cudaMalloc
     * 73 µs; only a kept pool faster, 18×": the context's cost and a
     * buffer's, got and given back, as their dots write them (the card
     * asks all three; without the buffer's a teacher found its second
     * part unanswered), the ratio that of the picture's "pool kept" and
     * "cudaMalloc" dots. The pool named by what it does: "pool 18×
     * faster" was taken for the default pool, which gives its memory
     * back and is slower than cudaMalloc. */
    char m[32];
    snprintf (buf, len,
              only ? ms_gettext ("Context %s; cudaMalloc %s; only a kept pool faster, %.0f×")
                   : ms_gettext ("Context %s; cudaMalloc %s; a kept pool faster, %.0f×"),
              ms_caption_time (first, t, sizeof t), ms_caption_time (malloc_us, m, sizeof m),
              malloc_us / keep);
    return MS_TAKEAWAY_DECIDED;
  }
  snprintf (buf, len, ms_gettext ("Creating the CUDA context took %s, more than any allocation"),
            ms_caption_time (first, t, sizeof t));
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_costs = {
  .card = { .name = NAME,
            .modes = "device,pinned,pageable,registered",
            .title = MS_N_ ("Costs people forget"),
            /* Every row times a buffer's call with its free: no free alone. */
            .question = MS_N_ ("What does it cost to create a context, or to get a buffer and "
                               "give it back, and what does a memory pool save?"),
            .reason = MS_N_ ("A profile shows these calls beside the copies: creating the context, "
                             "the first cudaMalloc, cudaMallocHost against malloc, "
                             "cudaHostRegister and the frees, per call and per MiB; then "
                             "cudaMallocAsync and cudaFreeAsync from the device's default pool, "
                             "each with a synchronisation: the first allocation from a pool "
                             "holding nothing, and the steady state with the release threshold "
                             "at 0 (memory given back at every synchronisation) and at keeping "
                             "everything, with what the pool holds after the free. Sizes past "
                             "half the free device memory are skipped and say so.") },
  .settings = "context creation, cudaMalloc, cudaMallocHost, malloc, cudaHostRegister and their "
              "frees, in a fresh process; cudaMallocAsync/cudaFreeAsync from the default pool: "
              "first allocation, release threshold 0 and pool-keep-mib MiB",
  .options = options,
  .parts = costs_parts,
  .caption = caption_costs,
  .missing = MS_N_ ("This run has fewer than two costs measured."),
  .takeaway = takeaway_costs,
  .one_time_costs = true,
};
