/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-cache-state.c: the cache-state lesson (docs/lessons.md): how
 * the host last wrote the buffers (streaming stores, ordinary stores,
 * fresh buffers, or not since the first repetition) changes the copy, in
 * pageable, pinned and write-combined memory, and the CPU reading
 * write-combined memory. Every comparative word of the caption follows
 * the sign of the medians and the verdict of ms_verdict_judgement. */
#include <stdio.h>

#include "ms-compare.h"
#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"

#define NAME "cache-state"

static void
cache_state_parts (MsPartList *l)
{
  char v[MS_VARIANT_LEN];
  for (int s = 0; s < MS_STORES_COUNT; s++) {
    snprintf (v, sizeof v, "stores=%s", ms_sweep_stores_name ((MsHostStores) s));
    /* Pageable buffers are malloc'd once: "fresh" is pinned's alone. */
    MsLessonPart *p = ms_lesson_add_part (
        l, s == MS_STORES_FRESH ? "pinned,write-combined" : "pageable,pinned,write-combined", v);
    if (p)
      p->sweep.knobs.stores = (MsHostStores) s;
  }
  /* Written once and sent again as they are: the state a loop of copies
   * of the same buffers meets (clean lines, perhaps still cached). */
  MsLessonPart *p = ms_lesson_add_part (l, "pageable,pinned", "stores=kept");
  if (p)
    p->sweep.knobs.inputs_kept = true;
  p = ms_lesson_add_part (l, "write-combined", "stores=streamed/read=wc");
  if (p)
    p->sweep.knobs.read_wc = true;
}

/* B against A by the repo's verdict rule at the Compare page's default
 * threshold. Both cells come from one run and one process, so the
 * between-process spread is taken as none (known, zero): the verdict rests
 * on the medians' 95% intervals and needs 6 repetitions a side. */
static MsJudgement
judge (const MsStat *a, const MsStat *b)
{
  MsInterval ia = { a->median, a->ci_low, a->ci_high, a->ci_valid, true, 0, 0, false };
  MsInterval ib = { b->median, b->ci_low, b->ci_high, b->ci_valid, true, 0, 0, false };
  return ms_verdict_judgement (&ia, &ib, MS_COMPARE_DEFAULT_THRESHOLD_PCT / 100, true);
}

/* How B's time stands to A's, in words that follow the verdict and, where
 * there is none, the sign of the medians. */
static const char *
time_verdict (MsJudgement j)
{
  switch (j.verdict) {
  case MS_VERDICT_FASTER: return ms_gettext ("shorter, beyond the run's spread");
  case MS_VERDICT_SLOWER: return ms_gettext ("longer, beyond the run's spread");
  case MS_VERDICT_SAME: return ms_gettext ("the same within the run's spread");
  default:
    return j.ratio > 1   ? ms_gettext ("longer in the median, but the run cannot tell them apart")
           : j.ratio < 1 ? ms_gettext ("shorter in the median, but the run cannot tell them "
                                       "apart")
                         : ms_gettext ("equal in the median");
  }
}

/* One comparison of two end-to-end times: what, the two times, their
 * ratio and the verdict's words. */
static void
append_pair (char *buf, size_t len, const char *what, const MsCell *a, const MsCell *b)
{
  if (!a || !b || !(a->stats.e2e.median > 0) || !(b->stats.e2e.median > 0))
    return;
  char t_a[32], t_b[32];
  MsJudgement j = judge (&a->stats.e2e, &b->stats.e2e);
  /* TRANSLATORS: a comparison of the cache-state lesson: what is compared,
   * its two times, their ratio and a verdict such as "longer, beyond the
   * run's spread". */
  ms_caption_append (buf, len, ms_gettext ("%s: %s against %s (%.2f×), %s."), what,
                     ms_caption_time (b->stats.e2e.median, t_b, sizeof t_b),
                     ms_caption_time (a->stats.e2e.median, t_a, sizeof t_a), j.ratio,
                     time_verdict (j));
}

/* The end-to-end medians of the rows the picture draws, each state
 * against streamed stores (the sweep's own state), for every mode. */
static void
append_cache_times (char *buf, size_t len, const MsResults *r, int e)
{
  const MsCell *any = NULL;
  static const MsMode modes[] = { MS_MODE_PAGEABLE, MS_MODE_PINNED, MS_MODE_WRITE_COMBINED };
  for (size_t i = 0; i < sizeof modes / sizeof modes[0] && !any; i++)
    any = ms_caption_measured (r, modes[i], e, "stores=streamed");
  char size[32];
  if (any)
    ms_caption_append (buf, len, ms_gettext ("At %s, each state against streamed stores, end "
                                             "to end."),
                       ms_caption_size (any, size, sizeof size));
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    MsMode m = modes[i];
    const MsCell *streamed = ms_caption_measured (r, m, e, "stores=streamed");
    char what[128];
    snprintf (what, sizeof what, ms_gettext ("%s after ordinary stores"), ms_mode_title (m));
    append_pair (buf, len, what, streamed, ms_caption_measured (r, m, e, "stores=ordinary"));
    snprintf (what, sizeof what, ms_gettext ("%s with new buffers every repetition"),
              ms_mode_title (m));
    append_pair (buf, len, what, streamed, ms_caption_measured (r, m, e, "stores=fresh"));
    snprintf (what, sizeof what, ms_gettext ("%s with inputs not rewritten since the first "
                                             "repetition"),
              ms_mode_title (m));
    append_pair (buf, len, what, streamed, ms_caption_measured (r, m, e, "stores=kept"));
  }
}

/* The CPU's check of the result reads it: from write-combined memory in
 * one row, from ordinary memory in the other. The textbooks warn the
 * first is slower; the words follow what this run measured. */
static void
append_cache_read (char *buf, size_t len, const MsStat *v_wc, const MsStat *v_plain)
{
  char speed[64], t_wc[32], t_plain[32];
  ms_caption_time (v_wc->median, t_wc, sizeof t_wc);
  ms_caption_time (v_plain->median, t_plain, sizeof t_plain);
  MsJudgement j = judge (v_plain, v_wc);
  ms_caption_speed (v_plain->median / v_wc->median, 2, speed, sizeof speed);
  if (j.verdict == MS_VERDICT_SLOWER)
    ms_caption_append (buf, len,
                       ms_gettext ("The CPU reads write-combined memory %s than ordinary "
                                   "memory, as textbooks warn: its check of the result takes %s "
                                   "against %s (the verify bars of the second row and the "
                                   "first)."),
                       speed, t_wc, t_plain);
  else if (j.verdict == MS_VERDICT_FASTER)
    ms_caption_append (buf, len,
                       ms_gettext ("The CPU read write-combined memory %s than ordinary memory, "
                                   "against what textbooks warn: its check of the result took "
                                   "%s against %s (the verify bars of the second row and the "
                                   "first)."),
                       speed, t_wc, t_plain);
  else {
    char lo_wc[32], hi_wc[32], lo_plain[32], hi_plain[32];
    ms_caption_append (buf, len,
                       ms_gettext ("The CPU's check of the result took %.2f× as long when the "
                                   "result lay in write-combined memory: %s (the second row's "
                                   "verify bar) against %s in ordinary memory (the first "
                                   "row's), medians, %s (single checks %s to %s against %s to "
                                   "%s)."),
                       j.ratio, t_wc, t_plain, time_verdict (j),
                       ms_caption_time (v_wc->min, lo_wc, sizeof lo_wc),
                       ms_caption_time (v_wc->max, hi_wc, sizeof hi_wc),
                       ms_caption_time (v_plain->min, lo_plain, sizeof lo_plain),
                       ms_caption_time (v_plain->max, hi_plain, sizeof hi_plain));
    /* The textbooks' warning, said only on the side the medians show and
     * never against a verdict of the same. */
    if (j.verdict == MS_VERDICT_SAME || j.ratio < 1)
      ms_caption_append (buf, len, ms_gettext ("Textbooks warn it is slower; here it was not."));
    else if (j.ratio > 1)
      ms_caption_append (buf, len, ms_gettext ("Longer is what textbooks warn of."));
  }
}

static bool
caption_cache_state (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *wc_stream = ms_caption_measured (r, MS_MODE_WRITE_COMBINED, e, "stores=streamed");
    const MsCell *wc_read
        = ms_caption_measured (r, MS_MODE_WRITE_COMBINED, e, "stores=streamed/read=wc");
    buf[0] = '\0';
    append_cache_times (buf, len, r, e);
    const MsStat *v_wc = wc_read ? &wc_read->stats.phase[MS_PHASE_VERIFY] : NULL;
    const MsStat *v_plain = wc_stream ? &wc_stream->stats.phase[MS_PHASE_VERIFY] : NULL;
    if (v_wc && v_plain && v_wc->n > 0 && v_wc->median > 0 && v_plain->n > 0
        && v_plain->median > 0)
      append_cache_read (buf, len, v_wc, v_plain);
    if (buf[0])
      return true;
  }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run has no pageable, write-combined or pinned cells under the host "
                  "stores settings."));
}

const MsLesson ms_lesson_cache_state = {
  .card = { .name = NAME,
            .experiment = NAME,
            .modes = "pageable,pinned,write-combined",
            .plain = false,
            .title = MS_N_ ("Write-combined memory and the host cache"),
            .question = MS_N_ ("How does the way the host last wrote the buffers change the copy?"),
            .reason = MS_N_ ("The host writes the inputs with streaming stores (the sweep's own "
                             "state), with ordinary stores (dirty lines in the CPU cache), into "
                             "freshly allocated pinned buffers (first use), or only before the "
                             "first repetition, so the copies meet clean lines a loop of copies "
                             "would meet. Pageable copies pass through the CPU, so they show it "
                             "most. The CPU reading write-combined memory, which the material "
                             "warns against, is timed as the verify phase of its own variant.") },
  .settings = "pageable, pinned and write-combined inputs written with streaming stores or "
              "ordinary stores; pinned and write-combined also fresh buffers; pageable and "
              "pinned also inputs kept from the first repetition; write-combined result read by "
              "the CPU",
  .parts = cache_state_parts,
  .caption = caption_cache_state,
};
