/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-copy-kinds.c: copy kinds and mapped-memory rules
 * (docs/lessons.md). cudaMemcpy host to host (pinned and pageable), device
 * to device, host to device and back at one size; cudaHostGetDevicePointer
 * on memory from cudaMallocHost and from cudaHostRegister with and without
 * cudaHostRegisterMapped; a zero-copy read of mapped memory with and
 * without write-combining. Each is a fact that held (OK) or did not (its
 * cell UNSUPPORTED or FAILED with the CUDA error); the caption reads
 * them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-copy-kinds.h"
#include "ms-lesson-record.h"
#include "ms-names.h"

#define NAME "copy-kinds"

/* arg[] of the probe, read by kernels/lesson-copy-kinds.cu (its fact). */
enum { ARG_FACT };

static const MsCopyFactInfo facts[MS_COPY_FACT_COUNT] = {
  [MS_COPY_FACT_H2H_PINNED]
  = { MS_MODE_PINNED, "copy=h2h/mem=pinned", MS_N_ ("host to host, pinned"), true },
  [MS_COPY_FACT_H2H_PAGEABLE]
  = { MS_MODE_PAGEABLE, "copy=h2h/mem=pageable", MS_N_ ("host to host, pageable"), true },
  [MS_COPY_FACT_D2D] = { MS_MODE_DEVICE, "copy=d2d", MS_N_ ("device to device"), true },
  [MS_COPY_FACT_H2D]
  = { MS_MODE_PINNED, "copy=h2d/mem=pinned", MS_N_ ("host to device, pinned"), true },
  [MS_COPY_FACT_D2H]
  = { MS_MODE_PINNED, "copy=d2h/mem=pinned", MS_N_ ("device to host, pinned"), true },
  [MS_COPY_FACT_MAP_MALLOC_HOST]
  = { MS_MODE_PINNED, "map=mallochost", MS_N_ ("device pointer of cudaMallocHost memory"), false },
  [MS_COPY_FACT_MAP_REGISTER_MAPPED] = { MS_MODE_REGISTERED, "map=register/flag=mapped",
                                         MS_N_ ("device pointer, registered with Mapped"), false },
  [MS_COPY_FACT_MAP_REGISTER_DEFAULT]
  = { MS_MODE_REGISTERED, "map=register/flag=default",
      MS_N_ ("device pointer, registered without Mapped"), false },
  [MS_COPY_FACT_READ_MAPPED]
  = { MS_MODE_ZERO_COPY, "read=zero-copy/wc=no", MS_N_ ("zero-copy read, mapped"), true },
  [MS_COPY_FACT_READ_WC] = { MS_MODE_WRITE_COMBINED, "read=zero-copy/wc=yes",
                             MS_N_ ("zero-copy read, mapped and write-combined"), true },
};

static const MsLessonOption options[] = {
  { "exp", 24, 10, 27, true, MS_N_ ("the size: 2^exp floats per buffer (24: 64 MiB)") },
  { NULL },
};

MS_DEFINE_LOOKUP (ms_copy_fact_info, const MsCopyFactInfo *, MsCopyFact, MS_COPY_FACT_COUNT,
                  &facts[i], NULL)

const MsCell *
ms_copy_fact_cell (const MsResults *r, MsCopyFact fact)
{
  const MsCopyFactInfo *f = ms_copy_fact_info (fact);
  for (size_t i = 0; f && r && i < r->n_cells; i++)
    if (r->cells[i].mode == f->mode && strcmp (r->cells[i].variant, f->variant) == 0)
      return &r->cells[i];
  return NULL;
}

double
ms_copy_fact_rate (const MsResults *r, MsCopyFact fact)
{
  const MsCell *c = ms_copy_fact_cell (r, fact);
  if (!c || !facts[fact].has_rate || c->status != MS_CELL_OK || c->n_reps < 1
      || !(c->stats.e2e.median > 0))
    return 0;
  return (double) ms_vector_bytes (c->elements) / (c->stats.e2e.median * 1e3);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void)part;
  int exp = (int)ms_lesson_option_in (options, sweep->options, "exp");
  int n = 0;
  for (int f = 0; f < MS_COPY_FACT_COUNT && n < max; f++) {
    MsProbeCell *c = ms_probe_cell_set (&out[n++], facts[f].mode, exp, "%s", facts[f].variant);
    c->arg[ARG_FACT] = f;
    c->instrumented = facts[f].has_rate;
  }
  return n;
}

/* "worked" or "failed (the error)". */
static const char *
held (const MsCell *c, char *buf, size_t len)
{
  if (c->status == MS_CELL_OK)
    return ms_gettext ("worked");
  snprintf (buf, len, ms_gettext ("failed (%s)"), c->message[0] ? c->message : "?");
  return buf;
}

/* Whether two cells' end-to-end times differ by more than their spread:
 * the medians' 95% intervals (min..max below six repetitions) do not
 * overlap. */
static bool
apart (const MsCell *a, const MsCell *b)
{
  const MsStat *x = &a->stats.e2e, *y = &b->stats.e2e;
  double x_lo = x->ci_valid ? x->ci_low : x->min, x_hi = x->ci_valid ? x->ci_high : x->max;
  double y_lo = y->ci_valid ? y->ci_low : y->min, y_hi = y->ci_valid ? y->ci_high : y->max;
  return x_hi < y_lo || y_hi < x_lo;
}

static void
append_mapped_read (const MsResults *r, const double *rate, char *buf, size_t len)
{
  double plain = rate[MS_COPY_FACT_READ_MAPPED], wc = rate[MS_COPY_FACT_READ_WC];
  if (!(plain > 0) || !(wc > 0))
    return;
  if (!apart (ms_copy_fact_cell (r, MS_COPY_FACT_READ_MAPPED),
              ms_copy_fact_cell (r, MS_COPY_FACT_READ_WC))) {
    ms_caption_append (buf, len,
                       ms_gettext ("A kernel reading mapped host memory reached %.1f GB/s "
                                   "(%.1f write-combined, the same within the spread)."),
                       plain, wc);
    return;
  }
  char speed[48];
  ms_caption_append (buf, len,
                     ms_gettext ("A kernel reading mapped host memory reached %.1f GB/s "
                                 "(%.1f write-combined: %s)."),
                     plain, wc, ms_caption_speed (wc / plain, 2, speed, sizeof speed));
}

/* cudaHostGetDevicePointer on the three kinds of pinned memory: one short
 * sentence when all worked, each with its error otherwise. */
static void
append_device_pointers (const MsResults *r, const MsCell *const maps[3], char *buf, size_t len)
{
  bool all = true;
  for (int i = 0; i < 3; i++)
    all &= maps[i]->status == MS_CELL_OK;
  if (all) {
    ms_caption_append (buf, len,
                       r->device.unified_addressing
                         ? ms_gettext ("cudaHostGetDevicePointer worked on every kind of pinned "
                                       "memory, even registered without the Mapped flag "
                                       "(unified addressing, one address space for CPU and GPU, "
                                       "maps it).")
                         : ms_gettext ("cudaHostGetDevicePointer worked on every kind of pinned "
                                       "memory, even registered without the Mapped flag."));
    return;
  }
  char e1[320], e2[320], e3[320];
  ms_caption_append (buf, len,
                     ms_gettext ("cudaHostGetDevicePointer %s on cudaMallocHost memory, %s on "
                                 "memory registered with the Mapped flag and %s without it."),
                     held (maps[0], e1, sizeof e1), held (maps[1], e2, sizeof e2),
                     held (maps[2], e3, sizeof e3));
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  (void)exponent;
  double rate[MS_COPY_FACT_COUNT];
  int n_rates = 0;
  for (int f = 0; f < MS_COPY_FACT_COUNT; f++) {
    rate[f] = ms_copy_fact_rate (r, f);
    n_rates += rate[f] > 0;
  }
  const MsCell *maps[3] = { ms_copy_fact_cell (r, MS_COPY_FACT_MAP_MALLOC_HOST),
                            ms_copy_fact_cell (r, MS_COPY_FACT_MAP_REGISTER_MAPPED),
                            ms_copy_fact_cell (r, MS_COPY_FACT_MAP_REGISTER_DEFAULT) };
  if (n_rates == 0 || !maps[0] || !maps[1] || !maps[2])
    return false;
  /* The finding first: how far device-to-device copies outrun the host
   * link. The figures are one large copy timed alone, not the vector
   * add's copies or its end-to-end rate that the sweep's views show. The
   * host-to-host rates are in the picture. */
  const MsCell *h2d = ms_copy_fact_cell (r, MS_COPY_FACT_H2D);
  if (rate[MS_COPY_FACT_H2D] > 0 && rate[MS_COPY_FACT_D2D] > 0) {
    char size[32];
    ms_caption_append (buf, len,
                       ms_gettext ("Copies within the GPU ran %.0f× as fast as over the host "
                                   "link: %.1f GB/s device to device (each byte counted once, "
                                   "though read and written), %.1f GB/s host to device from "
                                   "pinned memory (one %s cudaMemcpy, median of %d)."),
                       rate[MS_COPY_FACT_D2D] / rate[MS_COPY_FACT_H2D], rate[MS_COPY_FACT_D2D],
                       rate[MS_COPY_FACT_H2D],
                       ms_caption_size (h2d, size, sizeof size), h2d->n_reps);
  }
  append_mapped_read (r, rate, buf, len);
  append_device_pointers (r, maps, buf, len);
  return true;
}

/* Host to host's two rows, pinned and pageable (either 0 where not measured), as one figure for a
 * headline: both rounded alike, "7", else "6–8", one decimal under 2 GB/s. FALSE where neither was
 * measured. */
static bool
host_rates (const double h2h[2], char *buf, size_t len)
{
  double lo = h2h[0] > 0 && h2h[1] > 0 ? fmin (h2h[0], h2h[1]) : fmax (h2h[0], h2h[1]);
  double hi = fmax (h2h[0], h2h[1]);
  if (!(hi > 0))
    return false;
  int d = hi < 2 ? 1 : 0;
  char a[16], b[16];
  snprintf (a, sizeof a, "%.*f", d, lo);
  snprintf (b, sizeof b, "%.*f", d, hi);
  if (strcmp (a, b) == 0)
    snprintf (buf, len, "%s", a);
  else
    snprintf (buf, len, "%s–%s", a, b);
  return true;
}

/* The card's two halves in one line: what copies within the GPU and
 * within the host reach, and whether kernels reach every kind of pinned
 * memory (the caption's first sentence sets the first against the link). */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  double d2d = ms_copy_fact_rate (r, MS_COPY_FACT_D2D);
  double h2d = ms_copy_fact_rate (r, MS_COPY_FACT_H2D);
  const MsCell *maps[3] = { ms_copy_fact_cell (r, MS_COPY_FACT_MAP_MALLOC_HOST),
                            ms_copy_fact_cell (r, MS_COPY_FACT_MAP_REGISTER_MAPPED),
                            ms_copy_fact_cell (r, MS_COPY_FACT_MAP_REGISTER_DEFAULT) };
  if (!(d2d > 0) || !(h2d > 0) || !maps[0] || !maps[1] || !maps[2])
    return MS_TAKEAWAY_MISSING;
  int mapped = 0;
  for (int i = 0; i < 3; i++)
    mapped += maps[i]->status == MS_CELL_OK;
  double h2h[2] = { ms_copy_fact_rate (r, MS_COPY_FACT_H2H_PINNED),
                    ms_copy_fact_rate (r, MS_COPY_FACT_H2H_PAGEABLE) };
  char within[48];
  if (host_rates (h2h, within, sizeof within)) {
    /* TRANSLATORS: one projected line, e.g. "Device → device 1418 GB/s, host → host 7 GB/s; all
     * 3 kinds mapped": the card's three parts in the bars' figures, host to host both its rows
     * at once ("7", or "6–8" where they round apart). "27× … 0.14× host → device" was read as a
     * puzzle (27× of what?), "all 3 map" as cryptic (the kinds are the checklist's under the
     * chart), "1417.5," with its unit at the line's end as falsely precise and unitless, and
     * "host → host 7.2" as the pageable row's figure alone, without a unit. */
    snprintf (buf, len,
              mapped == 3 ? ms_gettext ("Device → device %.*f GB/s, host → host %s GB/s; all %d "
                                        "kinds mapped")
                          : ms_gettext ("Device → device %.*f GB/s, host → host %s GB/s; %d of 3 "
                                        "kinds mapped"),
              d2d >= 100 ? 0 : 1, d2d, within, mapped);
    return MS_TAKEAWAY_DECIDED;
  }
  /* TRANSLATORS: one projected line, e.g. "Device to device: 21× host →
   * device; 3 of 3 listed buffers mapped" (the bar it is against
   * named as the chart names it, the buffers counted as the checklist
   * under the chart, which names them and says what mapped is: "3 of 3
   * pinned buffers" was read against the chart's four kinds of pinned
   * memory, write-combined among them). */
  snprintf (buf, len,
            ms_gettext ("Device to device: %.0f× host → device; %d of 3 listed buffers mapped"),
            d2d / h2d, mapped);
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_copy_kinds = {
  .card = { .name = NAME,
            .modes = "pinned,device,zero-copy",
            .title = MS_N_ ("Copy kinds and mapped memory"),
            .question = MS_N_ ("What do host-to-host and device-to-device copies reach, and which "
                               "host memory can the GPU map?"),
            .reason = MS_N_ ("cudaMemcpy between two pinned host buffers, two pageable ones, two "
                             "device buffers, and from and to the device, at one size: the rate of "
                             "each. Then whether cudaHostGetDevicePointer gives a device pointer "
                             "for memory from cudaMallocHost (default flags) and from "
                             "cudaHostRegister with and without cudaHostRegisterMapped: each is a "
                             "fact that worked, or failed with the CUDA error. Last, a kernel "
                             "reading mapped host memory, plain and write-combined. Look at which "
                             "facts hold on this system and how the rates compare.") },
  .settings = "one size (exp); cudaMemcpy H2H pinned and pageable, D2D, H2D, D2H; "
              "cudaHostGetDevicePointer on cudaMallocHost, cudaHostRegister with and without "
              "Mapped; a zero-copy read of mapped and of write-combined mapped memory",
  MS_PROBE_LESSON_FIELDS,
  .takeaway = takeaway,
  .missing = MS_N_ ("The run lacks the copy rates or the device-pointer facts."),
};
