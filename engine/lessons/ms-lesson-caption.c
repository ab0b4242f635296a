/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-caption.c: the lessons' topics and their captions, sentence
 * templates filled from the run shown (docs/lessons.md). Every number in a
 * caption comes from the results; where the results lack a cell the
 * sentence says so instead. */
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-private.h"
#include "ms-utf8.h"

static const MsLessonTopicInfo topics[MS_TOPIC_COUNT] = {
  [MS_TOPIC_PINNED_PAGEABLE]
  = { "pinned-pageable", "", "pageable,pinned", true, MS_N_ ("Pinned against pageable"),
      MS_N_ ("How much faster are copies from page-locked (pinned) memory?") },
  [MS_TOPIC_REUSE]
  = { "reuse", "reuse", "pinned,zero-copy,uva,managed", false,
      MS_N_ ("Zero-copy against copies, and data reuse"),
      MS_N_ ("When does zero-copy stop paying off as the kernel reads its data more often?") },
  [MS_TOPIC_CACHE_STATE]
  = { "cache-state", "cache-state", "pinned,write-combined", false,
      MS_N_ ("Write-combined memory and the host cache"),
      MS_N_ ("How does the way the host last wrote the buffers change the copy?") },
  [MS_TOPIC_REGISTER]
  = { "register-allocate", "", "registered,pinned", true, MS_N_ ("Register against allocate"),
      MS_N_ ("Is pinning existing memory with cudaHostRegister as good as cudaMallocHost?") },
  [MS_TOPIC_MANAGED]
  = { "managed-prefetch", "managed-touch", "managed,managed-prefetch", true,
      MS_N_ ("Managed memory with and without prefetch"),
      MS_N_ ("What does prefetching unified memory save over faulting its pages in?") },
  [MS_TOPIC_ISSUE_ORDER]
  = { "issue-order", "issue-order", "streams", false, MS_N_ ("Streams, overlap and issue order"),
      MS_N_ ("Does depth-first or breadth-first issue order change the overlap of streams?") },
  [MS_TOPIC_DUPLEX]
  = { "duplex", "duplex", "pinned", false, MS_N_ ("Copies in both directions"),
      MS_N_ ("Do host-to-device and device-to-host copies run at the same time?") },
  [MS_TOPIC_COSTS]
  = { "costs", "costs", "device,pinned,pageable,registered", false, MS_N_ ("Costs people forget"),
      MS_N_ ("What do context creation, allocation, registration and freeing cost?") },
  [MS_TOPIC_PORTABLE]
  = { "portable", "", "pinned", true, MS_N_ ("Portable pinned memory (cudaHostAllocPortable)"),
      MS_N_ ("Does one pinned buffer serve every GPU as well as a buffer pinned for each?") },
  [MS_TOPIC_IMPLICIT_SYNC]
  = { "implicit-sync", "implicit-sync", "streams", false, MS_N_ ("Calls that synchronise streams"),
      MS_N_ ("Which calls between two kernels on two streams stop them overlapping?") },
  [MS_TOPIC_DEFAULT_STREAM]
  = { "default-stream", "default-stream", "streams", false,
      MS_N_ ("The default stream: legacy or per thread"),
      MS_N_ ("Do two host threads using the default stream get in each other's way?") },
  [MS_TOPIC_HOST_FUNC]
  = { "host-func", "host-func", "streams", false, MS_N_ ("Host functions in a stream"),
      MS_N_ ("How soon does a host function run, and what does a slow one hold back?") },
  [MS_TOPIC_PRIORITY]
  = { "priority", "priority", "streams", false, MS_N_ ("Stream priorities"),
      MS_N_ ("Do high-priority kernels get in while a long low-priority kernel fills the GPU?") },
  [MS_TOPIC_CONCURRENT]
  = { "concurrent", "concurrent", "streams", false, MS_N_ ("Concurrent kernels"),
      MS_N_ ("Do small kernels on several streams run at the same time, and what stops them?") },
  [MS_TOPIC_SYNC_ASYNC] = { "sync-async", "sync-async", "pageable,pinned", false,
                            MS_N_ ("Synchronous and asynchronous copies"),
                            MS_N_ ("When does a copy call return before the copy is done?") },
  [MS_TOPIC_PIN_PAYOFF]
  = { "pin-payoff", "pin-payoff", "pageable,pinned,registered", false,
      MS_N_ ("When does pinning pay off?"),
      MS_N_ ("After how many copies does the cost of pinning a buffer come back?") },
  [MS_TOPIC_INTENSITY]
  = { "intensity", "intensity", "zero-copy,pinned", false,
      MS_N_ ("Zero-copy and arithmetic intensity"),
      MS_N_ ("How much arithmetic per element hides the link for zero-copy?") },
  [MS_TOPIC_COPY_KINDS]
  = { "copy-kinds", "copy-kinds", "pinned,device,zero-copy", false,
      MS_N_ ("Copy kinds and mapped memory"),
      MS_N_ ("What do host-to-host and device-to-device copies reach, and which host memory "
             "can the GPU map?") },
  [MS_TOPIC_BATCHED]
  = { "batched", "batched", "pinned,pageable", false, MS_N_ ("Batched copies"),
      MS_N_ ("Does submitting many small copies in one call (cudaMemcpyBatchAsync) save time?") },
  [MS_TOPIC_NUMA] = { "numa", "numa", "pinned", false, MS_N_ ("Which socket your buffers live on"),
                      MS_N_ ("Does the NUMA node of the host buffers change the copy rate?") },
};

const MsLessonTopicInfo *
ms_lesson_topic (MsLessonTopic topic)
{
  return (unsigned)topic < MS_TOPIC_COUNT ? &topics[topic] : NULL;
}

bool
ms_lesson_topic_built (MsLessonTopic topic)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (topic);
  return info && (info->plain || !info->experiment[0] || ms_lesson_find (info->experiment));
}

MsLessonTopic
ms_lesson_topic_from_name (const char *name)
{
  for (int t = 0; name && t < MS_TOPIC_COUNT; t++)
    if (strcmp (topics[t].name, name) == 0)
      return t;
  return MS_TOPIC_COUNT;
}

MsLessonTopic
ms_lesson_topic_for_experiment (const char *experiment)
{
  for (int t = 0; experiment && experiment[0] && t < MS_TOPIC_COUNT; t++)
    if (strcmp (topics[t].experiment, experiment) == 0)
      return t;
  return MS_TOPIC_COUNT;
}

static bool
has_mode (const MsResults *r, MsMode mode)
{
  for (size_t i = 0; i < r->n_cells; i++)
    if (r->cells[i].mode == mode)
      return true;
  return false;
}

bool
ms_lesson_topic_matches (MsLessonTopic topic, const MsResults *r)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (topic);
  if (!info || !r)
    return false;
  if (info->experiment[0] && strcmp (r->experiment, info->experiment) == 0)
    return true;
  if (!info->plain || r->experiment[0])
    return false;
  /* A plain sweep with every mode the topic compares. */
  char list[64];
  snprintf (list, sizeof list, "%s", info->modes);
  for (char *save = NULL, *name = strtok_r (list, ",", &save); name;
       name = strtok_r (NULL, ",", &save)) {
    MsMode mode;
    if (!ms_mode_from_name (name, &mode) || !has_mode (r, mode))
      return false;
  }
  return true;
}

/* ---- what every caption shares ------------------------------------------ */

/* A cell with kept repetitions and an end-to-end median, or NULL. */
const MsCell *
ms_caption_measured (const MsResults *r, MsMode mode, int exp, const char *variant)
{
  const MsCell *c = ms_results_find_variant (r, mode, exp, variant);
  if (!c || (c->status != MS_CELL_OK && c->status != MS_CELL_PARTIAL) || c->n_reps < 1
      || !(c->stats.e2e.median > 0))
    return NULL;
  return c;
}

const char *
ms_caption_size (const MsCell *c, char *buf, size_t len)
{
  ms_format_bytes (c->elements * sizeof (float), buf, len);
  return buf;
}

const char *
ms_caption_time (double us, char *buf, size_t len)
{
  /* Milliseconds from 1 ms so that two times in one sentence rarely mix
   * "5000 µs" with "33.9 ms". */
  if (us >= 10000)
    snprintf (buf, len, "%.1f ms", us / 1000);
  else if (us >= 1000)
    snprintf (buf, len, "%.2f ms", us / 1000);
  else if (us >= 10)
    snprintf (buf, len, "%.0f µs", us);
  else
    snprintf (buf, len, "%.2f µs", us);
  return buf;
}

static const char *
device_text (const MsResults *r)
{
  return r->device.name[0] ? r->device.name : ms_gettext ("GPU");
}

/* Appends a formatted sentence to buf (separated by a space). */
void
ms_caption_append (char *buf, size_t len, const char *format, ...)
{
  size_t used = strlen (buf);
  if (used + 2 >= len)
    return;
  if (used)
    buf[used++] = ' ', buf[used] = '\0';
  va_list ap;
  va_start (ap, format);
  vsnprintf (buf + used, len - used, format, ap);
  va_end (ap);
}

/* "1.19× faster", "1.50× slower" or "equally fast" for ratio, how many
 * times as fast one thing is as another: never "0.84× as fast", which
 * reads as faster. */
const char *
ms_caption_speed (double ratio, int digits, char *buf, size_t len)
{
  double scale = pow (10, digits);
  if (round (ratio * scale) == scale)
    snprintf (buf, len, "%s", ms_gettext ("equally fast"));
  else if (ratio > 1)
    snprintf (buf, len, ms_gettext ("%.*f× faster"), digits, ratio);
  else
    snprintf (buf, len, ms_gettext ("%.*f× slower"), digits, 1 / ratio);
  return buf;
}

bool
ms_caption_missing (char *buf, size_t len, const char *sentence)
{
  snprintf (buf, len, "%s", sentence);
  return false;
}

/* ---- pinned against pageable, register against allocate ----------------- */

static bool
caption_pinned_pageable (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, "");
    const MsCell *page = ms_caption_measured (r, MS_MODE_PAGEABLE, e, "");
    if (!pin || !page || !(pin->stats.h2d_gbps > 0) || !(page->stats.h2d_gbps > 0))
      continue;
    char size[32];
    double ratio = pin->stats.h2d_gbps / page->stats.h2d_gbps;
    ms_caption_size (pin, size, sizeof size);
    if (ratio >= 1.05)
      snprintf (buf, len,
                ms_gettext ("On this %s, pinned copies are %.1f× faster than pageable at %s "
                            "(%.1f against %.1f GB/s to the device: the median of the vector "
                            "add's copies in alone, without its kernel and copy out)."),
                device_text (r), ratio, size, pin->stats.h2d_gbps, page->stats.h2d_gbps);
    else
      snprintf (buf, len,
                ms_gettext ("On this %s, pinned copies are not faster than pageable at %s "
                            "(%.1f×: %.1f against %.1f GB/s to the device: the median of the "
                            "vector add's copies in alone, without its kernel and copy out)."),
                device_text (r), size, ratio, pin->stats.h2d_gbps, page->stats.h2d_gbps);
    char t_pin[32], t_page[32];
    /* The figures the timelines' titles lead with. */
    ms_caption_append (buf, len,
                       ms_gettext ("End to end (copies in, kernel, copy out), pinned takes %s and "
                                   "pageable %s."),
                       ms_caption_time (pin->stats.e2e.median, t_pin, sizeof t_pin),
                       ms_caption_time (page->stats.e2e.median, t_page, sizeof t_page));
    return true;
  }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run has no pinned and pageable copies of the same size "
                  "to compare."));
}

int
ms_register_cheaper_from (double reg_us, double reg_e2e_us, double alloc_us, double pin_e2e_us,
                          double *cross)
{
  /* What each repetition costs more registered than pinned. */
  double per_rep = reg_us + reg_e2e_us - pin_e2e_us;
  if (!(per_rep > 0) || !(alloc_us >= 0))
    return 0;
  if (cross)
    *cross = alloc_us / per_rep;
  return (int)floor (alloc_us / per_rep) + 1;
}

static bool
caption_register (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *reg = ms_caption_measured (r, MS_MODE_REGISTERED, e, "");
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, "");
    if (!reg || !pin || !(reg->stats.h2d_gbps > 0) || !(pin->stats.h2d_gbps > 0))
      continue;
    char size[32], total[32], t_reg[32], t_alloc[32], t_e2e[32];
    const MsStat *st_reg = &reg->stats.phase_host[MS_PHASE_REGISTER];
    const MsStat *st_alloc = &pin->stats.phase_host[MS_PHASE_ALLOC];
    /* Both modes hold three vectors of the cell's size. */
    ms_format_bytes (3 * pin->elements * sizeof (float), total, sizeof total);
    snprintf (buf, len,
              ms_gettext ("At %s, copies to the device from registered memory run at %.1f "
                          "GB/s against %.1f GB/s from cudaMallocHost memory (medians of the "
                          "copies alone)."),
              ms_caption_size (pin, size, sizeof size), reg->stats.h2d_gbps, pin->stats.h2d_gbps);
    /* The two costs come at different times (registered memory is pinned
     * and unpinned in every repetition, pinned buffers allocated once per
     * cell) and the pin-payoff lesson times one buffer: the sentence says
     * which and how much memory, so that no figure is read as another. */
    if (st_reg->n > 0 && st_alloc->n > 0)
      ms_caption_append (
          buf, len,
          ms_gettext ("Registering the three %s buffers (%s) took %s in every repetition, "
                      "before and on top of its %s end to end (copies and kernel); "
                      "allocating pinned ones took %s once, for %s of pinned host "
                      "memory and as much device memory."),
          size, total, ms_caption_time (st_reg->median, t_reg, sizeof t_reg),
          ms_caption_time (reg->stats.e2e.median, t_e2e, sizeof t_e2e),
          ms_caption_time (st_alloc->median, t_alloc, sizeof t_alloc), total);
    /* The picture's crossing, from the same medians. */
    int from = st_reg->n > 0 && st_alloc->n > 0
                   ? ms_register_cheaper_from (st_reg->median, reg->stats.e2e.median,
                                               st_alloc->median, pin->stats.e2e.median, NULL)
                   : 0;
    if (from > 0)
      ms_caption_append (
          buf, len,
          ms_gettext ("Registering anew in every repetition costs more than allocating "
                      "once from n = %d repetitions; buffers registered once and reused "
                      "pay the %s only once."),
          from, t_reg);
    return true;
  }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run has no registered and pinned copies of the same size "
                  "to compare."));
}

/* ---- managed memory ------------------------------------------------------- */

static void
append_resident (const MsResults *r, int e, char *buf, size_t len)
{
  const MsCell *first = ms_caption_measured (r, MS_MODE_MANAGED, e, "touch=first");
  const MsCell *resident = ms_caption_measured (r, MS_MODE_MANAGED, e, "touch=resident");
  char speed[64];
  if (first && resident)
    ms_caption_append (buf, len,
                       ms_gettext ("Once resident, its pages run %s than on first touch."),
                       ms_caption_speed (first->stats.e2e.median / resident->stats.e2e.median, 1,
                                         speed, sizeof speed));
}

/* "2048 GPU page faults", or "none" for 0. */
static const char *
faults_text (uint64_t n, char *buf, size_t len)
{
  if (n == 0)
    snprintf (buf, len, "%s", ms_gettext ("none"));
  else
    snprintf (buf, len, ms_ngettext ("%llu GPU page fault", "%llu GPU page faults", n),
              (unsigned long long)n);
  return buf;
}

/* A cell whose counted repetition gave counts: trusted (MS_UM_COUNTED) or
 * not (MS_UM_UNKNOWN, which the caption says instead of a number). */
static const MsCell *
counted (const MsResults *r, MsMode mode, int e, const char *variant)
{
  const MsCell *c = ms_caption_measured (r, mode, e, variant);
  return c && (c->um.state == MS_UM_COUNTED || c->um.state == MS_UM_UNKNOWN) ? c : NULL;
}

/* First touch whose counts cannot be true: its time, and why no number. */
static void
append_first_unknown (const MsCell *first, const MsCell *resident, char *buf, size_t len)
{
  char size[32], t_first[32], t_res[32], faults_res[64];
  ms_caption_append (
      buf, len,
      ms_gettext ("First touch of %s took %s; its page-fault and migration counts are "
                  "unknown (%s)."),
      ms_caption_size (first, size, sizeof size),
      ms_caption_time (first->stats.e2e.median, t_first, sizeof t_first), first->um.reason);
  if (resident && resident->um.state == MS_UM_COUNTED)
    ms_caption_append (buf, len, ms_gettext ("Resident data took %s with %s."),
                       ms_caption_time (resident->stats.e2e.median, t_res, sizeof t_res),
                       faults_text (resident->um.gpu_faults, faults_res, sizeof faults_res));
}

/* Why pages already on the GPU can end slower than a prefetched first
 * touch: without a prefetch the CPU reads the result back through page
 * faults (the host lane's d2h), where the prefetch row moves it back on
 * the stream. Said only when the counts and the phases show it. */
static void
append_read_back (const MsCell *resident, const MsCell *pre, char *buf, size_t len)
{
  if (!resident || !pre || resident->um.state != MS_UM_COUNTED || resident->um.cpu_faults == 0
      || pre->um.state != MS_UM_COUNTED || pre->um.cpu_faults != 0)
    return;
  double res_back = resident->stats.phase[MS_PHASE_D2H].median;
  double pre_back = pre->stats.phase[MS_PHASE_D2H].median;
  if (!(resident->stats.e2e.median > pre->stats.e2e.median) || !(pre_back > 0)
      || !(res_back > pre_back))
    return;
  char t_res[32], t_pre[32];
  unsigned long long n = resident->um.cpu_faults;
  ms_caption_append (
      buf, len,
      ms_ngettext ("Resident data is slower than prefetched because the CPU then reads "
                   "the result through %llu page fault: reading it back took %s, against "
                   "%s prefetched back (medians of the d2h bars, from the repetitions "
                   "with timers; the end-to-end figures come from repetitions without).",
                   "Resident data is slower than prefetched because the CPU then reads "
                   "the result through %llu page faults: reading it back took %s, against "
                   "%s prefetched back (medians of the d2h bars, from the repetitions "
                   "with timers; the end-to-end figures come from repetitions without).",
                   n),
      n, ms_caption_time (res_back, t_res, sizeof t_res),
      ms_caption_time (pre_back, t_pre, sizeof t_pre));
}

/* The unified-memory counts (CUPTI) of the managed-touch lesson, when the
 * run has them; false leaves buf as it was. */
static bool
append_um_counts (const MsResults *r, int e, char *buf, size_t len)
{
  const MsCell *first = counted (r, MS_MODE_MANAGED, e, "touch=first");
  const MsCell *resident = counted (r, MS_MODE_MANAGED, e, "touch=resident");
  const MsCell *pre = counted (r, MS_MODE_MANAGED_PREFETCH, e, "touch=first");
  if (!first)
    return false;
  char size[32], t_first[32], moved[32], faults[64], t_res[32], faults_res[64];
  ms_caption_size (first, size, sizeof size);
  ms_caption_time (first->stats.e2e.median, t_first, sizeof t_first);
  ms_format_bytes (first->um.h2d_bytes, moved, sizeof moved);
  faults_text (first->um.gpu_faults, faults, sizeof faults);
  if (first->um.state == MS_UM_UNKNOWN)
    append_first_unknown (first, resident, buf, len);
  else if (resident && resident->um.state == MS_UM_COUNTED)
    ms_caption_append (buf, len,
                       ms_gettext ("First touch of %s took %s with %s migrating %s to the device; "
                                   "resident data took %s with %s."),
                       size, t_first, faults, moved,
                       ms_caption_time (resident->stats.e2e.median, t_res, sizeof t_res),
                       faults_text (resident->um.gpu_faults, faults_res, sizeof faults_res));
  else
    ms_caption_append (buf, len,
                       ms_gettext ("First touch of %s took %s with %s migrating %s to the device."),
                       size, t_first, faults, moved);
  if (pre && pre->um.state == MS_UM_UNKNOWN) {
    ms_caption_append (buf, len, ms_gettext ("With a prefetch, the counts are unknown (%s)."),
                       pre->um.reason);
  } else if (pre) {
    ms_format_bytes (pre->um.h2d_bytes, moved, sizeof moved);
    ms_caption_append (buf, len, ms_gettext ("With a prefetch, %s moved with %s."), moved,
                       faults_text (pre->um.gpu_faults, faults, sizeof faults));
  }
  append_read_back (resident, pre, buf, len);
  return true;
}

static bool
caption_managed (const MsResults *r, int exponent, char *buf, size_t len)
{
  static const char *variants[] = { "", "touch=first" };
  for (int v = 0; v < 2; v++)
    FOR_EACH_EXP (e, exponent)
    {
      const MsCell *man = ms_caption_measured (r, MS_MODE_MANAGED, e, variants[v]);
      const MsCell *pre = ms_caption_measured (r, MS_MODE_MANAGED_PREFETCH, e, variants[v]);
      if (!man || !pre)
        continue;
      char size[32], t_man[32], t_pre[32];
      double ratio = man->stats.e2e.median / pre->stats.e2e.median;
      ms_caption_size (man, size, sizeof size);
      ms_caption_time (pre->stats.e2e.median, t_pre, sizeof t_pre);
      ms_caption_time (man->stats.e2e.median, t_man, sizeof t_man);
      if (ratio >= 1.05)
        snprintf (buf, len,
                  ms_gettext ("At %s, prefetching makes managed memory %.1f× faster end to "
                              "end (%s against %s without)."),
                  size, ratio, t_pre, t_man);
      else
        snprintf (buf, len,
                  ms_gettext ("At %s, prefetching does not speed managed memory up end to end "
                              "(%s against %s without)."),
                  size, t_pre, t_man);
      if (!append_um_counts (r, e, buf, len))
        append_resident (r, e, buf, len);
      return true;
    }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run has no managed and managed-prefetch cells of the same "
                  "size to compare."));
}

/* ---- data reuse ------------------------------------------------------------ */

/* Zero-copy loses where its median's interval lies wholly above pinned's:
 * a few percent inside the spread is not a loss a class can see. */
static bool
clearly_slower (const MsCell *zc, const MsCell *pin)
{
  return zc->stats.e2e.median > pin->stats.e2e.median
         && zc->stats.e2e.ci_low > pin->stats.e2e.ci_high;
}

int
ms_lesson_reuse_crossover (const MsResults *r, int exponent, int *r_cross, int *r_max)
{
  const char *variants[64];
  int n = ms_results_variants (r, MS_MODE_ZERO_COPY, variants, 64);
  int best_cross = 0, largest = 0;
  for (int i = 0; i < n; i++) {
    int reuse;
    char access[16];
    if (!ms_variant_get_int (variants[i], "R", &reuse)
        || ms_variant_get (variants[i], "access", access, sizeof access))
      continue;
    const MsCell *zc = ms_caption_measured (r, MS_MODE_ZERO_COPY, exponent, variants[i]);
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, exponent, variants[i]);
    if (!zc || !pin)
      continue;
    if (reuse > largest)
      largest = reuse;
    if (clearly_slower (zc, pin) && (!best_cross || reuse < best_cross))
      best_cross = reuse;
  }
  if (!largest)
    return -1;
  *r_cross = best_cross;
  *r_max = largest;
  return best_cross ? 1 : 0;
}

/* The smallest R of the reuse cells at e. */
static int
smallest_reuse (const MsResults *r, int e)
{
  int smallest = 0;
  for (size_t i = 0; i < r->n_cells; i++) {
    int reuse;
    char access[16];
    const MsCell *c = &r->cells[i];
    if (c->mode == MS_MODE_ZERO_COPY && c->exponent == e
        && ms_variant_get_int (c->variant, "R", &reuse)
        && !ms_variant_get (c->variant, "access", access, sizeof access)
        && ms_caption_measured (r, MS_MODE_PINNED, e, c->variant)
        && (!smallest || reuse < smallest))
      smallest = reuse;
  }
  return smallest;
}

/* The smallest R at which zero-copy with the given access ("read" or
 * "write") takes clearly longer than pinned at e, with both times in t_zc
 * and t_pin; 0 when never, -1 when the run has no such cells. */
static int
access_crossover (const MsResults *r, int e, const char *access, char *t_zc, char *t_pin)
{
  int found = -1;
  for (int reuse = 1; reuse <= 1024; reuse *= 2) {
    char v[MS_VARIANT_LEN], plain[MS_VARIANT_LEN];
    snprintf (v, sizeof v, "R=%d/access=%s", reuse, access);
    snprintf (plain, sizeof plain, "R=%d", reuse);
    const MsCell *zc = ms_caption_measured (r, MS_MODE_ZERO_COPY, e, v);
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, plain);
    if (!zc || !pin)
      continue;
    if (clearly_slower (zc, pin)) {
      ms_caption_time (zc->stats.e2e.median, t_zc, 32);
      ms_caption_time (pin->stats.e2e.median, t_pin, 32);
      return reuse;
    }
    found = 0;
  }
  return found;
}

/* Reads only and writes only, each defined in a few words: where each
 * loses to pinned, with the times, since a loss can be a few percent
 * beyond a tight spread. */
static void
append_reuse_access (const MsResults *r, int e, char *buf, size_t len)
{
  char wz[32], wp[32], rz[32], rp[32];
  int writes = access_crossover (r, e, "write", wz, wp);
  int reads = access_crossover (r, e, "read", rz, rp);
  if (writes > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Writes only (a and b made on the GPU, so nothing is copied "
                                   "in; c written to the host R times) loses to pinned's full "
                                   "copies only from R = %d (%s against %s)."),
                       writes, wz, wp);
  else if (writes == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Writes only (a and b made on the GPU, c written to the host "
                                   "R times) is never clearly slower than pinned."));
  if (reads > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Reads only (a and b read R times, c copied back) loses from "
                                   "R = %d (%s against %s, beyond the spread)."),
                       reads, rz, rp);
  else if (reads == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Reads only (a and b read R times, c copied back) is never "
                                   "clearly slower than pinned."));
}

/* Managed memory's line sits far above the others in the picture: its
 * figure against pinned's at the smallest R, so that it is not left
 * unexplained. */
static void
append_reuse_managed (const MsResults *r, int e, char *buf, size_t len)
{
  int reuse = smallest_reuse (r, e);
  char v[MS_VARIANT_LEN], t_m[32], t_p[32];
  snprintf (v, sizeof v, "R=%d", reuse);
  const MsCell *m = reuse ? ms_caption_measured (r, MS_MODE_MANAGED, e, v) : NULL;
  const MsCell *pin = reuse ? ms_caption_measured (r, MS_MODE_PINNED, e, v) : NULL;
  if (!m || !pin || !(pin->stats.e2e.median > 0))
    return;
  ms_caption_append (buf, len,
                     ms_gettext ("Managed memory, drawn for comparison, took %s at R = %d: "
                                 "%.1f× pinned's %s."),
                     ms_caption_time (m->stats.e2e.median, t_m, sizeof t_m), reuse,
                     m->stats.e2e.median / pin->stats.e2e.median,
                     ms_caption_time (pin->stats.e2e.median, t_p, sizeof t_p));
}

static bool
caption_reuse (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    int cross, largest;
    int found = ms_lesson_reuse_crossover (r, e, &cross, &largest);
    if (found < 0)
      continue;
    char size[32], variant[MS_VARIANT_LEN];
    snprintf (variant, sizeof variant, "R=%d", found ? cross : largest);
    const MsCell *zc = ms_caption_measured (r, MS_MODE_ZERO_COPY, e, variant);
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, variant);
    char t_zc[32], t_pin[32];
    ms_caption_size (zc, size, sizeof size);
    ms_caption_time (zc->stats.e2e.median, t_zc, sizeof t_zc);
    ms_caption_time (pin->stats.e2e.median, t_pin, sizeof t_pin);
    if (!found)
      snprintf (buf, len,
                ms_gettext ("Zero-copy is never clearly slower than pinned at the R measured, up "
                            "to %d at %s (%s against %s at R = %d)."),
                largest, size, t_zc, t_pin, largest);
    else if (cross == smallest_reuse (r, e))
      snprintf (buf, len,
                ms_gettext ("Zero-copy loses to pinned at every R measured, from R = %d, at %s "
                            "(%s against %s)."),
                cross, size, t_zc, t_pin);
    else
      snprintf (buf, len,
                ms_ngettext ("Zero-copy loses to pinned from R = %d access per element at %s "
                             "(%s against %s).",
                             "Zero-copy loses to pinned from R = %d accesses per element at %s "
                             "(%s against %s).",
                             (unsigned long)cross),
                cross, size, t_zc, t_pin);
    append_reuse_access (r, e, buf, len);
    append_reuse_managed (r, e, buf, len);
    return true;
  }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run has no zero-copy and pinned cells with an R setting "
                  "to compare."));
}

/* ---- host cache state ------------------------------------------------------ */

/* Whether two medians' 95% intervals are apart: a difference the run can
 * tell from its own spread. */
static bool
stats_apart (const MsStat *a, const MsStat *b)
{
  return a->ci_high < b->ci_low || b->ci_high < a->ci_low;
}

/* The end-to-end medians of the rows the picture draws, as its row titles
 * give them, with the verdict first where the spread cannot tell them
 * apart. */
static void
append_cache_times (char *buf, size_t len, const MsCell *wc_stream, const MsCell *wc_ord,
                    const MsCell *pin_stream, const MsCell *pin_fresh)
{
  char size[32], a[32], b[32];
  if (wc_stream && wc_ord)
    ms_caption_append (buf, len,
                       stats_apart (&wc_stream->stats.e2e, &wc_ord->stats.e2e)
                           ? ms_gettext ("At %s, write-combined memory takes %s end to end after "
                                         "streamed stores and %s after ordinary ones.")
                           : ms_gettext ("At %s, how the host wrote the inputs did not change "
                                         "the copies: write-combined memory takes %s end to end "
                                         "after streamed stores and %s after ordinary ones, the "
                                         "same within the run's spread."),
                       ms_caption_size (wc_stream, size, sizeof size),
                       ms_caption_time (wc_stream->stats.e2e.median, a, sizeof a),
                       ms_caption_time (wc_ord->stats.e2e.median, b, sizeof b));
  if (pin_stream && pin_fresh && stats_apart (&pin_stream->stats.e2e, &pin_fresh->stats.e2e))
    ms_caption_append (buf, len,
                       ms_gettext ("Pinned memory takes %s with new buffers every repetition "
                                   "against %s with buffers reused (%.2f×) at %s."),
                       ms_caption_time (pin_fresh->stats.e2e.median, a, sizeof a),
                       ms_caption_time (pin_stream->stats.e2e.median, b, sizeof b),
                       pin_fresh->stats.e2e.median / pin_stream->stats.e2e.median,
                       ms_caption_size (pin_fresh, size, sizeof size));
  else if (pin_stream && pin_fresh)
    ms_caption_append (buf, len,
                       ms_gettext ("Pinned memory takes %s with new buffers every repetition "
                                   "and %s with buffers reused, the same within the spread."),
                       ms_caption_time (pin_fresh->stats.e2e.median, a, sizeof a),
                       ms_caption_time (pin_stream->stats.e2e.median, b, sizeof b));
}

/* The CPU's check of the result reads it: from write-combined memory in
 * one row, from ordinary memory in the other. Judged by the spread, since
 * on some hosts the slow read the textbooks warn of does not show. */
static void
append_cache_read (char *buf, size_t len, const MsStat *v_wc, const MsStat *v_plain)
{
  char speed[64], t_wc[32], t_plain[32];
  ms_caption_time (v_wc->median, t_wc, sizeof t_wc);
  ms_caption_time (v_plain->median, t_plain, sizeof t_plain);
  if (stats_apart (v_wc, v_plain))
    ms_caption_append (buf, len,
                       ms_gettext ("The CPU reads write-combined memory %s than ordinary "
                                   "memory: its check of the result takes %s against %s "
                                   "(the verify bars of the second row and the first)."),
                       ms_caption_speed (v_plain->median / v_wc->median, 1, speed, sizeof speed),
                       t_wc, t_plain);
  else {
    /* What the bars show first (longer in the median, as the textbooks
     * warn), then the caveat: single checks overlapped. */
    char lo_wc[32], hi_wc[32], lo_plain[32], hi_plain[32];
    ms_caption_append (buf, len,
                       ms_gettext ("The CPU's check of the result took %.2f× as long when the "
                                   "result lay in write-combined memory: %s (the second row's "
                                   "verify bar) against %s in ordinary memory (the first row's), "
                                   "medians, as textbooks warn; single checks overlapped (%s to "
                                   "%s against %s to %s), so this run does not show it beyond "
                                   "doubt."),
                       v_wc->median / v_plain->median, t_wc, t_plain,
                       ms_caption_time (v_wc->min, lo_wc, sizeof lo_wc),
                       ms_caption_time (v_wc->max, hi_wc, sizeof hi_wc),
                       ms_caption_time (v_plain->min, lo_plain, sizeof lo_plain),
                       ms_caption_time (v_plain->max, hi_plain, sizeof hi_plain));
  }
}

static bool
caption_cache_state (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *wc_stream = ms_caption_measured (r, MS_MODE_WRITE_COMBINED, e, "stores=streamed");
    const MsCell *wc_ord = ms_caption_measured (r, MS_MODE_WRITE_COMBINED, e, "stores=ordinary");
    const MsCell *wc_read
        = ms_caption_measured (r, MS_MODE_WRITE_COMBINED, e, "stores=streamed/read=wc");
    const MsCell *pin_stream = ms_caption_measured (r, MS_MODE_PINNED, e, "stores=streamed");
    const MsCell *pin_fresh = ms_caption_measured (r, MS_MODE_PINNED, e, "stores=fresh");
    buf[0] = '\0';
    append_cache_times (buf, len, wc_stream, wc_ord, pin_stream, pin_fresh);
    const MsStat *v_wc = wc_read ? &wc_read->stats.phase[MS_PHASE_VERIFY] : NULL;
    const MsStat *v_plain = wc_stream ? &wc_stream->stats.phase[MS_PHASE_VERIFY] : NULL;
    if (v_wc && v_plain && v_wc->n > 0 && v_wc->median > 0 && v_plain->n > 0)
      append_cache_read (buf, len, v_wc, v_plain);
    if (buf[0])
      return true;
  }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run has no write-combined or pinned cells under the host "
                  "stores settings."));
}

/* ---- issue order, duplex, costs ---------------------------------------------- */

static bool
caption_duplex (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *h2d = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=h2d");
    const MsCell *d2h = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=d2h");
    const MsCell *both = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=duplex");
    if (!h2d || !d2h || !both)
      continue;
    char size[32], t_both[32], t_turns[32], t_h2d[32], t_d2h[32], speed[64];
    double turns = h2d->stats.e2e.median + d2h->stats.e2e.median;
    /* One after the other is the sum of the two copies measured alone
     * (the rows above the one of both at once), said so, so that the sum
     * is read from the figures shown. */
    snprintf (buf, len,
              ms_gettext ("At %s, a copy each way at once takes %s, against %s for the two "
                          "copies one after the other (%s to the GPU alone plus %s back "
                          "alone): %s."),
              ms_caption_size (both, size, sizeof size),
              ms_caption_time (both->stats.e2e.median, t_both, sizeof t_both),
              ms_caption_time (turns, t_turns, sizeof t_turns),
              ms_caption_time (h2d->stats.e2e.median, t_h2d, sizeof t_h2d),
              ms_caption_time (d2h->stats.e2e.median, t_d2h, sizeof t_d2h),
              ms_caption_speed (turns / both->stats.e2e.median, 2, speed, sizeof speed));
    return true;
  }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run lacks one of the copies to the device, to the host and "
                  "both at once of the same size."));
}

/* The median of the cost cell named variant in mode (at exponent e, or at
 * any size when e < 0), or -1. */
static double
cost_us (const MsResults *r, MsMode mode, int e, const char *variant)
{
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->mode == mode && (e < 0 || c->exponent == e) && strcmp (c->variant, variant) == 0
        && ms_caption_measured (r, mode, c->exponent, variant))
      return c->stats.e2e.median;
  }
  return -1;
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
    { MS_MODE_PAGEABLE, "cost=malloc", MS_N_ ("malloc and a touch of every page") },
    { MS_MODE_DEVICE, "cost=malloc", "cudaMalloc" },
  };
  char t[2][32];
  double first = cost_us (r, MS_MODE_DEVICE, -1, "cost=context-first");
  double again = cost_us (r, MS_MODE_DEVICE, -1, "cost=context");
  buf[0] = '\0';
  if (first > 0 && again > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Creating the CUDA context (the GPU's state for this process) "
                                   "took %s the first time and %s again: more than any "
                                   "allocation."),
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
    ms_caption_append (buf, len, ms_gettext ("At %s, each allocation with its free took: %s."),
                       ms_caption_size (pin, size, sizeof size), list);
    return true;
  }
  return buf[0] ? true
                : ms_caption_missing (buf, len,
                                      ms_gettext ("This run has fewer than two costs measured."));
}

/* ---- portable pinned memory ---------------------------------------------------- */

/* One GPU: the flag has no second context to pin the buffer for. */
static bool
caption_portable_one (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, "");
    if (!pin || !(pin->stats.h2d_gbps > 0))
      continue;
    char size[32];
    if (r->device.count >= 2)
      snprintf (buf, len,
                ms_gettext ("This host has %d GPUs, but this run used one, the %s: its pinned "
                            "memory is pinned for the one CUDA context the run has."),
                r->device.count, device_text (r));
    else
      snprintf (buf, len,
                ms_gettext ("With one GPU (%s), pinned memory is pinned for the only CUDA "
                            "context (the GPU's working state in this program) there is."),
                device_text (r));
    ms_caption_append (
        buf, len,
        ms_gettext ("cudaHostAllocPortable changes nothing here: for that one context a "
                    "portable buffer is the same pinned memory as this run's, whose copies "
                    "reach %.1f GB/s to the device at %s. The flag matters once a second GPU "
                    "uses the same buffer: run this lesson on a machine with two or more "
                    "GPUs."),
        pin->stats.h2d_gbps, ms_caption_size (pin, size, sizeof size));
    return true;
  }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run has no pinned copies to speak of the portable flag "
                  "with."));
}

/* The first GPU other than the first with all three buffers measured, or -1. */
static int
portable_other_gpu (const MsPortableResults *p)
{
  for (int i = 1; i < p->n_devices && i < MS_MULTI_MAX_DEVICES; i++)
    if (p->cell[MS_PORTABLE_PER_DEVICE][i].ok && p->cell[MS_PORTABLE_SHARED][i].ok
        && p->cell[MS_PORTABLE_FOREIGN][i].ok)
      return i;
  return -1;
}

bool
ms_lesson_portable_caption (const MsResults *run, const MsPortableResults *p, char *buf, size_t len)
{
  if (!buf || len == 0)
    return false;
  buf[0] = '\0';
  if (!p || p->n_devices < 2)
    return ms_lesson_caption (MS_TOPIC_PORTABLE, run, -1, buf, len);
  int i = portable_other_gpu (p);
  if (i < 0)
    return ms_caption_missing (
        buf, len,
        ms_gettext ("The portable experiment measured no second GPU with all three "
                    "buffers."));
  const MsPortableCell *own = &p->cell[MS_PORTABLE_PER_DEVICE][i];
  const MsPortableCell *shared = &p->cell[MS_PORTABLE_SHARED][i];
  const MsPortableCell *foreign = &p->cell[MS_PORTABLE_FOREIGN][i];
  char size[32];
  ms_format_bytes (p->bytes, size, sizeof size);
  snprintf (buf, len,
            ms_gettext ("With %d GPUs (%s), copies of %s to the second GPU reach %.1f GB/s from "
                        "a portable buffer, %.1f GB/s from a buffer pinned for it and %.1f GB/s "
                        "from one pinned by the first GPU only."),
            p->n_devices, run && run->device.name[0] ? run->device.name : ms_gettext ("GPU"), size,
            shared->h2d_gbps, own->h2d_gbps, foreign->h2d_gbps);
  ms_caption_append (
      buf, len,
      foreign->pinned_path
          ? ms_gettext ("The runtime treats the first GPU's buffer as pinned for the second "
                        "too, so the flag changes little on this system.")
          : ms_gettext ("The runtime does not treat the first GPU's buffer as pinned for the "
                        "second: that is what cudaHostAllocPortable is for."));
  return true;
}

bool
ms_lesson_caption (MsLessonTopic topic, const MsResults *results, int exponent, char *buf,
                   size_t len)
{
  typedef bool (*CaptionFunc) (const MsResults *, int, char *, size_t);
  static const CaptionFunc funcs[MS_TOPIC_COUNT] = {
    [MS_TOPIC_PINNED_PAGEABLE] = caption_pinned_pageable,
    [MS_TOPIC_REUSE] = caption_reuse,
    [MS_TOPIC_CACHE_STATE] = caption_cache_state,
    [MS_TOPIC_REGISTER] = caption_register,
    [MS_TOPIC_MANAGED] = caption_managed,
    [MS_TOPIC_ISSUE_ORDER] = ms_caption_issue_order,
    [MS_TOPIC_DUPLEX] = caption_duplex,
    [MS_TOPIC_COSTS] = caption_costs,
    [MS_TOPIC_PORTABLE] = caption_portable_one,
  };
  if (!buf || len == 0)
    return false;
  buf[0] = '\0';
  if ((unsigned)topic >= MS_TOPIC_COUNT)
    return ms_caption_missing (buf, len, ms_gettext ("Unknown lesson."));
  if (!results || results->n_cells == 0)
    return ms_caption_missing (buf, len, ms_gettext ("No run to describe yet."));
  if (exponent > MS_MAX_EXPONENT)
    exponent = -1;
  const MsProbeLesson *probe = ms_probe_lesson_for_topic (topic);
  CaptionFunc func = funcs[topic] ? funcs[topic] : probe ? probe->caption : NULL;
  if (!func)
    return ms_caption_missing (buf, len, ms_gettext ("This lesson is not built yet."));
  bool stated = func (results, exponent, buf, len);
  /* A sentence longer than buf was cut: before a character, never inside
   * one (translations hold many multi-byte characters). */
  buf[ms_utf8_prefix (buf, strlen (buf))] = '\0';
  return stated;
}
