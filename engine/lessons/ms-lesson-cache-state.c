/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-cache-state.c: the cache-state lesson (docs/lessons.md): how
 * the host last wrote the buffers (streaming stores, ordinary stores,
 * fresh buffers) changes the copy, and the CPU reading write-combined
 * memory. */
#include <stdio.h>

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
    MsLessonPart *p = ms_lesson_add_part (l, "pinned,write-combined", v);
    if (p)
      p->sweep.knobs.stores = (MsHostStores) s;
  }
  MsLessonPart *p = ms_lesson_add_part (l, "write-combined", "stores=streamed/read=wc");
  if (p)
    p->sweep.knobs.read_wc = true;
}

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

const MsLesson ms_lesson_cache_state = {
  .card = { .name = NAME,
            .experiment = NAME,
            .modes = "pinned,write-combined",
            .plain = false,
            .title = MS_N_ ("Write-combined memory and the host cache"),
            .question = MS_N_ ("How does the way the host last wrote the buffers change the copy?"),
            .reason = MS_N_ ("The host writes the inputs with streaming stores, with ordinary "
                             "stores (dirty lines in the CPU cache) or into freshly allocated "
                             "pinned buffers (first use). The CPU reading write-combined memory, "
                             "which the material warns against, is timed as the verify phase of "
                             "its own variant.") },
  .settings = "pinned and write-combined inputs written with streaming stores, ordinary stores, or "
              "fresh buffers; write-combined result read by the CPU",
  .parts = cache_state_parts,
  .caption = caption_cache_state,
};
