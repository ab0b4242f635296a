/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-managed-touch.c: the managed-touch lesson (docs/lessons.md):
 * managed memory on first touch, on resident pages and prefetched, with
 * the page faults and migrations CUPTI counts. Its card was called
 * managed-prefetch before: that name is its alias. */
#include <stdio.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"

#define NAME "managed-touch"

/* Every cell also gets a counted repetition after its timed ones (CUPTI's
 * unified-memory counters: MsUmCounts). */
static void
managed_parts (MsPartList *l)
{
  MsLessonPart *p = ms_lesson_add_part (l, "managed,managed-prefetch", "touch=first");
  if (p)
    p->sweep.knobs.um_counts = true;
  p = ms_lesson_add_part (l, "managed", "touch=resident");
  if (p) {
    p->sweep.knobs.resident = true;
    p->sweep.knobs.um_counts = true;
  }
}

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
                  /* "median time": the timelines draw one repetition
                   * each, whose ratio a class took for the headline's. */
                  /* The two medians in the headline, as the panels' titles give them: a
                   * bare "3.1-fold" was tied to the 3.1 GB/s of the CPU's reads. */
                  ms_gettext ("At %s, prefetching cut the median %.1f×: %s ÷ %s (managed "
                              "memory end to end, without a prefetch and with one)."),
                  size, ratio, t_man, t_pre);
      else
        snprintf (buf, len,
                  ms_gettext ("At %s, prefetching does not speed managed memory up end to end "
                              "(%s against %s without)."),
                  size, t_pre, t_man);
      if (!append_um_counts (r, e, buf, len))
        append_resident (r, e, buf, len);
      return true;
    }
  return false;
}

/* The command line's finding: the kernel on first touch, on resident
 * pages, after prefetch. */
static void
finding (const MsResults *r, char *buf, size_t len)
{
  double f = ms_finding_phase (r, MS_MODE_MANAGED, "touch=first", MS_PHASE_KERNEL);
  double res = ms_finding_phase (r, MS_MODE_MANAGED, "touch=resident", MS_PHASE_KERNEL);
  double pre = ms_finding_phase (r, MS_MODE_MANAGED_PREFETCH, "touch=first", MS_PHASE_KERNEL);
  if (f > 0 && res > 0)
    ms_caption_append_line (
        buf, len,
        ms_gettext ("The kernel takes %.1f us on first touch, %.1f us on resident pages.\n"), f,
        res);
  if (pre > 0)
    ms_caption_append_line (buf, len, ms_gettext ("After a prefetch it takes %.1f us.\n"), pre);
}

const MsLesson ms_lesson_managed_touch = {
  .card = { .name = NAME,
            .alias = "managed-prefetch",
            .modes = "managed,managed-prefetch",
            .plain = true,
            .title = MS_N_ ("Managed memory with and without prefetch"),
            .question = MS_N_ ("What does prefetching unified (managed) memory save over faulting "
                               "its pages in?"),
            .reason = MS_N_ ("Fresh managed buffers fault every page on first touch; buffers "
                             "already on the device run without faults; prefetching moves the "
                             "pages in bulk before the kernel needs them. Where CUPTI allows, its "
                             "unified-memory counters count the page faults and the bytes migrated "
                             "each way in one extra repetition after the timed ones, since "
                             "counting slows the faults down: the times come from repetitions "
                             "without counters.") },
  .settings = "managed first touch and on resident pages; managed-prefetch; page faults and "
              "migrations counted by CUPTI in one extra repetition per cell",
  .parts = managed_parts,
  .caption = caption_managed,
  .missing = MS_N_ ("This run has no managed and managed-prefetch cells of the same size to "
                    "compare."),
  .finding = finding,
};
