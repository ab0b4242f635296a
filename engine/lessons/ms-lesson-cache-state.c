/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-cache-state.c: the cache-state lesson (docs/lessons.md): how
 * the host last wrote the buffers (streaming stores, ordinary stores,
 * fresh buffers, or not since the first repetition) changes the copy, in
 * pageable, pinned and write-combined memory, and the CPU reading
 * write-combined memory. The caption says which states differ by the
 * run's own rule (ms_caption_judge) and which do not; the picture
 * draws the same rows (ms_cache_state_rows) with their figures. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-compare-options.h"
#include "ms-i18n.h"
#include "ms-lesson-cache-state.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"
#include "ms-sweep.h"

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

/* Every comparison, in the picture's order: each state against streamed
 * stores in its memory, then the CPU's check of the result. */
static const struct {
  MsMode mode;
  MsCacheState state;
  const char *variant;
} compared[] = {
  { MS_MODE_PAGEABLE, MS_CACHE_STATE_ORDINARY, "stores=ordinary" },
  { MS_MODE_PAGEABLE, MS_CACHE_STATE_KEPT, "stores=kept" },
  { MS_MODE_PINNED, MS_CACHE_STATE_ORDINARY, "stores=ordinary" },
  { MS_MODE_PINNED, MS_CACHE_STATE_FRESH, "stores=fresh" },
  { MS_MODE_PINNED, MS_CACHE_STATE_KEPT, "stores=kept" },
  { MS_MODE_WRITE_COMBINED, MS_CACHE_STATE_ORDINARY, "stores=ordinary" },
  { MS_MODE_WRITE_COMBINED, MS_CACHE_STATE_FRESH, "stores=fresh" },
  { MS_MODE_WRITE_COMBINED, MS_CACHE_STATE_READ_WC, "stores=streamed/read=wc" },
};

/* The figure a row compares: the CPU's check of the result, or the time
 * end to end; NULL where the cell has none. */
static const MsStat *
figure_of (const MsCell *c, MsCacheState state)
{
  if (!c)
    return NULL;
  const MsStat *st = state == MS_CACHE_STATE_READ_WC ? &c->stats.phase[MS_PHASE_VERIFY]
                                                     : &c->stats.e2e;
  return st->n > 0 && st->median > 0 ? st : NULL;
}

static int
rows_at (const MsResults *r, int e, MsCacheStateRow *rows, int max)
{
  int n = 0;
  for (size_t i = 0; i < sizeof compared / sizeof compared[0] && n < max; i++) {
    MsCacheState state = compared[i].state;
    const MsStat *a = figure_of (
        ms_caption_measured (r, compared[i].mode, e, "stores=streamed"), state);
    const MsStat *b = figure_of (ms_caption_measured (r, compared[i].mode, e, compared[i].variant),
                                 state);
    if (a && b)
      rows[n++] = (MsCacheStateRow){ compared[i].mode, state, e, b->median, a->median,
                                     ms_caption_judge (a, b) };
  }
  return n;
}

/* Whether a pageable copy among rows differs from streamed stores by the
 * rule: pageable is the memory the CPU reads for the copy, the question's
 * case. */
static bool
pageable_apart (const MsCacheStateRow *rows, int n)
{
  for (int i = 0; i < n; i++)
    if (rows[i].mode == MS_MODE_PAGEABLE
        && (rows[i].judgement.verdict == MS_VERDICT_FASTER
            || rows[i].judgement.verdict == MS_VERDICT_SLOWER))
      return true;
  return false;
}

/* The largest size with rows, -1 where none. */
static int
largest_size (const MsResults *r, MsCacheStateRow *rows, int max)
{
  FOR_EACH_EXP (e, -1)
  {
    if (r && rows_at (r, e, rows, max) > 0)
      return e;
  }
  return -1;
}

int
ms_cache_state_rows (const MsResults *r, int exponent, MsCacheStateRow *rows, int max)
{
  /* Unasked, the largest size at which a pageable copy differs: at 16 MiB
   * a class was shown "too noisy to say" while the run held the answer
   * at 4 MiB (the largest size's rows go in the note). */
  int largest = -1;
  FOR_EACH_EXP (e, exponent)
  {
    int n = r ? rows_at (r, e, rows, max) : 0;
    if (n > 0 && (exponent >= 0 || pageable_apart (rows, n)))
      return n;
    largest = n > 0 && largest < 0 ? e : largest;
  }
  return largest >= 0 ? rows_at (r, largest, rows, max) : 0;
}

const char *
ms_cache_state_name (MsCacheState state)
{
  switch (state) {
  case MS_CACHE_STATE_ORDINARY: return ms_gettext ("ordinary stores");
  case MS_CACHE_STATE_FRESH: return ms_gettext ("new buffers every repetition");
  case MS_CACHE_STATE_KEPT: return ms_gettext ("sent again, not rewritten");
  case MS_CACHE_STATE_READ_WC: return ms_gettext ("in write-combined memory");
  default: return "";
  }
}

/* A state in a word or two, for the headline; ordinary stores as the
 * slide's row names them, cached (a fresh run's "Pageable at 4 MiB,
 * ordinary stores: 0.67× the uncached time" set the stores against the
 * cache). */
static const char *
short_name (MsCacheState state)
{
  switch (state) {
  case MS_CACHE_STATE_ORDINARY: return ms_gettext ("cached");
  case MS_CACHE_STATE_FRESH: return ms_gettext ("new buffers");
  case MS_CACHE_STATE_KEPT: return ms_gettext ("sent again");
  default: return ms_cache_state_name (state);
  }
}

/* How a copy stands to streamed stores by the rule: apart beyond the
 * run's spread, the same within it, or neither (the run cannot tell). */
typedef enum { APART, SAME, UNTOLD } Standing;

static Standing
standing (const MsCacheStateRow *row)
{
  switch (row->judgement.verdict) {
  case MS_VERDICT_FASTER:
  case MS_VERDICT_SLOWER: return APART;
  case MS_VERDICT_SAME: return SAME;
  default: return UNTOLD;
  }
}

/* Whether every copy of mode's in rows stands so, and there are two or
 * more: the list then names the memory once. */
static bool
whole_mode (const MsCacheStateRow *rows, int n, MsMode mode, Standing which)
{
  int of_mode = 0;
  for (int i = 0; i < n; i++)
    if (rows[i].mode == mode && rows[i].state != MS_CACHE_STATE_READ_WC) {
      if (standing (&rows[i]) != which)
        return false;
      of_mode++;
    }
  return of_mode > 1;
}

/* The copies of one standing, by memory: "Pinned: ordinary stores, new
 * buffers every repetition; Write-combined: ordinary stores", each with
 * its ratio (its range where the run cannot tell) where with_ratio, else
 * "Pinned: every state" where all of a memory's stand so. The count. */
static int
list_copies (char *out, size_t len, const MsCacheStateRow *rows, int n, Standing which,
             bool with_ratio)
{
  int listed = 0;
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (rows[i].state == MS_CACHE_STATE_READ_WC || standing (&rows[i]) != which)
      continue;
    if (!with_ratio && whole_mode (rows, n, rows[i].mode, which)) {
      size_t used = strlen (out);
      if (i > 0 && rows[i - 1].mode == rows[i].mode)
        continue;
      /* TRANSLATORS: a memory whose every state of the host's stores
       * stands so, e.g. "Pinned: every state". */
      snprintf (out + used, len - used, "%s", listed ? "; " : "");
      used = strlen (out);
      snprintf (out + used, len - used, ms_gettext ("%s: every state"),
                ms_mode_title (rows[i].mode));
      listed++;
      continue;
    }
    size_t used = strlen (out);
    bool new_mode = listed == 0 || rows[i].mode != rows[i - 1].mode
                    || standing (&rows[i - 1]) != which;
    if (new_mode)
      snprintf (out + used, len - used, "%s%s: ", listed ? "; " : "", ms_mode_title (rows[i].mode));
    else
      snprintf (out + used, len - used, ", ");
    used = strlen (out);
    const MsJudgement *j = &rows[i].judgement;
    /* The median, as the slide gives it, and the range: "0.85×" alone
     * was read as 15% faster. */
    if (with_ratio && which == UNTOLD && isfinite (j->lo + j->hi) && j->hi - j->lo >= 0.005)
      snprintf (out + used, len - used, "%s (%.2f×, %.2f–%.2f×)",
                ms_cache_state_name (rows[i].state), j->ratio, j->lo, j->hi);
    else if (with_ratio)
      snprintf (out + used, len - used, "%s (%.2f×)", ms_cache_state_name (rows[i].state),
                rows[i].judgement.ratio);
    else
      snprintf (out + used, len - used, "%s", ms_cache_state_name (rows[i].state));
    listed++;
  }
  return listed;
}

bool
ms_cache_state_why_untold (const MsCacheStateRow *rows, int n, MsMode mode, char *buf, size_t len)
{
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < n; i++) {
    if (rows[i].mode != mode || rows[i].state == MS_CACHE_STATE_READ_WC)
      continue;
    if (standing (&rows[i]) != UNTOLD)
      return false;
    lo = fmin (lo, rows[i].judgement.lo);
    hi = fmax (hi, rows[i].judgement.hi);
  }
  if (!isfinite (lo) || !isfinite (hi))
    return false;
  /* TRANSLATORS: why a memory's copies are "cannot tell", in the details
   * and where the slide has no room for their bars, e.g. "Pageable: its
   * ranges run from 0.62× to 1.31×, wider than the ±10% band, so this run
   * cannot tell its copies from those after streaming stores." A "15%
   * difference" here was found nowhere on the slide. */
  snprintf (buf, len,
            ms_gettext ("%s: its ranges run from %.2f× to %.2f×, wider than the ±%g%% band, so "
                        "this run cannot tell its copies from those after streaming stores."),
            mode == MS_MODE_WRITE_COMBINED
                ? ms_gettext ("Write-combined (pinned memory the CPU writes uncached)")
                : ms_mode_title (mode),
            lo, hi, MS_COMPARE_DEFAULT_THRESHOLD_PCT);
  return true;
}

/* Write-combined memory's row stays in a larger view: "meant to be
 * uncached", yet slowed by ordinary stores as pinned memory is, it sent
 * every teacher reading the slide to explain what write-combining is
 * before the lesson's own contrast, pageable against pinned. */
bool
ms_cache_state_on_slide (const MsCacheStateRow *row)
{
  return row->state == MS_CACHE_STATE_ORDINARY && row->mode != MS_MODE_WRITE_COMBINED;
}

/* A row the largest size's note quotes: pageable, as the slide draws it. */
static bool
noted (const MsCacheStateRow *row)
{
  return row->mode == MS_MODE_PAGEABLE && ms_cache_state_on_slide (row);
}

bool
ms_cache_state_largest_note (const MsResults *r, char *buf, size_t len)
{
  MsCacheStateRow rows[MS_CACHE_STATE_MAX_ROWS];
  int shown = ms_cache_state_rows (r, -1, rows, MS_CACHE_STATE_MAX_ROWS) ? rows[0].exponent : -1;
  int e = largest_size (r, rows, MS_CACHE_STATE_MAX_ROWS);
  if (e < 0 || e == shown)
    return false;
  int n = rows_at (r, e, rows, MS_CACHE_STATE_MAX_ROWS), listed = 0, pageable = 0, same = 0;
  char list[384] = "", size[32];
  for (int i = 0; i < n; i++)
    if (noted (&rows[i])) {
      pageable++;
      same += standing (&rows[i]) == SAME;
    }
  /* Each row's own word where they differ: one word for all would call a
   * row that is the same "too noisy". */
  bool mixed = same > 0 && same < pageable;
  for (int i = 0; i < n; i++) {
    if (!noted (&rows[i]))
      continue;
    size_t used = strlen (list);
    snprintf (list + used, sizeof list - used, "%s%s %.2f×", listed++ ? ms_gettext ("; ") : "",
              short_name (rows[i].state), rows[i].judgement.ratio);
    used = strlen (list);
    if (mixed)
      snprintf (list + used, sizeof list - used, " (%s)",
                standing (&rows[i]) == SAME ? ms_gettext ("no change")
                                            : ms_gettext ("too noisy to say"));
  }
  if (!listed)
    return false;
  ms_format_bytes (ms_exponent_bytes (e), size, sizeof size);
  /* TRANSLATORS: the cache-state lesson's pageable copies at its largest
   * size, where the slide shows a smaller one at which they differ, e.g.
   * "At 16 MiB, pageable copies: cached 0.99×: too noisy to say." */
  snprintf (buf, len,
            mixed            ? ms_gettext ("At %s, pageable copies: %s.")
            : same == listed ? ms_gettext ("At %s, pageable copies: %s: no change.")
                             : ms_gettext ("At %s, pageable copies: %s: too noisy to say."),
            size, list);
  return true;
}

bool
ms_cache_state_cached_note (const MsResults *r, char *buf, size_t len)
{
  MsCacheStateRow rows[MS_CACHE_STATE_MAX_ROWS];
  if (ms_cache_state_largest_note (r, buf, len))
    return true;
  int n = ms_cache_state_rows (r, -1, rows, MS_CACHE_STATE_MAX_ROWS), pageable = 0;
  for (int i = 0; i < n; i++)
    if (rows[i].mode == MS_MODE_PAGEABLE && standing (&rows[i]) == APART)
      return false;
    else
      pageable += rows[i].mode == MS_MODE_PAGEABLE;
  /* Measured apart (docs/measurements/2026-11-29-h200-pageable-cache):
   * data still in the cache sped a pageable copy at 4 MiB, not at 16;
   * slide 1's own 4 MiB copies are another run's (this run's are slower
   * at 4 MiB too, so not the size). */
  if (!pageable || ms_exponent_bytes (rows[0].exponent) < 16 << 20)
    return false;
  /* Where it was measured said only on a deck of the GPU it was measured
   * under: a teacher found an H200's figure out of place on the H100's. */
  const char *h200 = strstr (r->device.name, "H200");
  snprintf (buf, len,
            h200 && (h200 == r->device.name || h200[-1] == ' ') /* not a GH200 */
                ? ms_gettext ("A pageable copy starts with a CPU copy, faster from its cache "
                              "(on an H200 at 4 MiB, not at 16 MiB). Slide %d's pageable times: "
                              "another run.")
                : ms_gettext ("A pageable copy starts with a CPU copy, which the CPU's cache "
                              "can speed. Slide %d's pageable times: another run."),
            ms_lesson_deck_number (MS_TOPIC_PINNED_PAGEABLE));
  return true;
}

/* The copies in's time by the GPU's clock (the instrumented repetitions'
 * event pairs) after state, less after streaming stores, at e; NAN where
 * the run lacks either. */
static double
copies_in_added (const MsResults *r, MsMode mode, MsCacheState state, int e)
{
  const char *variant = NULL;
  for (size_t i = 0; i < sizeof compared / sizeof compared[0]; i++)
    if (compared[i].mode == mode && compared[i].state == state)
      variant = compared[i].variant;
  const MsCell *a = ms_caption_measured (r, mode, e, "stores=streamed");
  const MsCell *b = variant ? ms_caption_measured (r, mode, e, variant) : NULL;
  if (!a || !b || a->stats.phase[MS_PHASE_H2D].n == 0 || b->stats.phase[MS_PHASE_H2D].n == 0)
    return NAN;
  return b->stats.phase[MS_PHASE_H2D].median - a->stats.phase[MS_PHASE_H2D].median;
}

/* ms_cache_state_engine_note, and the way of writing it names in *state
 * (the Details add a plain program's finding for ordinary stores alone);
 * of the rows a slide draws alone where slide (a note of a row it leaves
 * out named what is not drawn). */
static bool
engine_note (const MsResults *r, char *buf, size_t len, MsCacheState *state, bool slide)
{
  /* The copy the CPU does not read, slower after the CPU's stores: a
   * class asked why under a name that said the CPU is not involved. */
  MsCacheStateRow rows[MS_CACHE_STATE_MAX_ROWS], at_largest[MS_CACHE_STATE_MAX_ROWS];
  int n = ms_cache_state_rows (r, -1, rows, MS_CACHE_STATE_MAX_ROWS);
  const MsCacheStateRow *far = NULL;
  for (int i = 0; i < n; i++)
    if (rows[i].mode != MS_MODE_PAGEABLE && rows[i].state != MS_CACHE_STATE_READ_WC
        && (!slide || ms_cache_state_on_slide (&rows[i]))
        && rows[i].judgement.verdict == MS_VERDICT_SLOWER
        && (!far || rows[i].judgement.ratio > far->judgement.ratio))
      far = &rows[i];
  if (!far)
    return false;
  /* Only where the copies hold most of the added time: else it went
   * elsewhere, and this sentence would point at the wrong step. */
  double added = copies_in_added (r, far->mode, far->state, far->exponent);
  if (!(added > 0.5 * (far->median_us - far->reference_us)))
    return false;
  *state = far->state;
  char t[32], more[96], whole[32];
  ms_caption_time (added, t, sizeof t);
  /* The repetition's added time as its row writes it (1.20× of 251 µs): a teacher could not
   * place the rest of it beside the copies' alone. */
  double base = ms_caption_time_as_written (far->reference_us);
  ms_caption_time ((round (far->judgement.ratio * 100) / 100 - 1) * base, whole, sizeof whole);
  more[0] = '\0';
  int e = largest_size (r, at_largest, MS_CACHE_STATE_MAX_ROWS);
  double then = e > far->exponent ? copies_in_added (r, far->mode, far->state, e) : NAN;
  if (isfinite (then)) {
    char t2[32], size2[32];
    ms_caption_time (then, t2, sizeof t2);
    ms_format_bytes (ms_exponent_bytes (e), size2, sizeof size2);
    /* TRANSLATORS: the same at the run's largest size, e.g. " (41 µs at
     * 16 MiB)". */
    snprintf (more, sizeof more, ms_gettext (" (%s at %s)"), t2, size2);
  }
  if (far->state == MS_CACHE_STATE_ORDINARY)
    /* TRANSLATORS: the cache-state lesson, where a pinned or write-combined
     * copy is slower after ordinary stores, e.g. "Pinned, cached (ordinary
     * stores): 50 µs more a repetition, 39 µs of it in the copies in (GPU's
     * clock)." The rows' size goes unsaid: the slide's title has it; why it
     * is the cache, the slide's group name and the Details say; the
     * largest size's figure gave way to the whole repetition's, which a
     * teacher could not place beside the copies' alone. "Copies in 39 µs
     * longer" read as garbled to a strict reader. */
    snprintf (buf, len,
              ms_gettext ("%s, cached (ordinary stores): %s more a repetition, %s of it in the "
                          "copies in (GPU's clock)."),
              ms_mode_title (far->mode), whole, t);
  else
    /* TRANSLATORS: the same after another way of writing, e.g. "Pinned,
     * new buffers every repetition: copies in 39 µs longer by the GPU's
     * clock (41 µs at 16 MiB); this run cannot say why": only ordinary
     * stores were measured apart. */
    snprintf (buf, len,
              ms_gettext ("%s, %s: copies in %s longer by the GPU's clock%s; this run cannot say "
                          "why."),
              ms_mode_title (far->mode), ms_cache_state_name (far->state), t, more);
  return true;
}

bool
ms_cache_state_engine_note (const MsResults *r, char *buf, size_t len)
{
  MsCacheState state;
  return engine_note (r, buf, len, &state, true);
}

/* Which copies differ from streamed stores by the run's own rule, which
 * are the same, which the run cannot tell: one sentence each, short, as
 * the whole must fit the Details (the H100's was cut mid-sentence). */
static void
append_copies (char *buf, size_t len, const MsCacheStateRow *rows, int n)
{
  char list[768], size[32];
  ms_format_bytes (ms_exponent_bytes (rows[0].exponent), size, sizeof size);
  if (list_copies (list, sizeof list, rows, n, APART, true))
    /* TRANSLATORS: the cache-state lesson's copies that the verdict rule
     * finds apart, by memory, e.g. "Pageable: ordinary stores (0.72×)";
     * the ratio is their time over streamed stores'. */
    ms_caption_append (buf, len,
                       ms_gettext ("At %s these copies differed from those after streaming "
                                   "stores in the same memory (time as a multiple): %s."),
                       size, list);
  else
    ms_caption_append (buf, len,
                       ms_gettext ("At %s no copy differed from one after streaming stores in "
                                   "the same memory."),
                       size);
  if (list_copies (list, sizeof list, rows, n, SAME, false))
    ms_caption_append (buf, len, ms_gettext ("The same (every range inside the ±%g%% band): %s."),
                       MS_COMPARE_DEFAULT_THRESHOLD_PCT, list);
  if (list_copies (list, sizeof list, rows, n, UNTOLD, true))
    ms_caption_append (buf, len,
                       ms_gettext ("The run cannot tell these from streaming stores (their 95%% "
                                   "range crosses the grey band's edge): %s."),
                       list);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (ms_cache_state_why_untold (rows, n, (MsMode) m, list, sizeof list))
      ms_caption_append (buf, len, "%s", list);
}

/* The CPU's check of the result in write-combined memory against ordinary
 * memory. The textbooks warn the first is slower; the words follow the
 * verdict and, without one, the sign of the medians, and claim no cause:
 * the run does not show one. */
static void
append_check (char *buf, size_t len, const MsCacheStateRow *row)
{
  char t_wc[32], t_plain[32];
  const MsJudgement *j = &row->judgement;
  ms_caption_time (row->median_us, t_wc, sizeof t_wc);
  ms_caption_time (row->reference_us, t_plain, sizeof t_plain);
#define SAY(sentence) ms_caption_append (buf, len, sentence, j->ratio, t_wc, t_plain)
  if (j->verdict == MS_VERDICT_SLOWER)
    SAY (ms_gettext (
        "The CPU's check of the result took %.2f× as long in write-combined memory as in "
        "ordinary memory (%s against %s, medians), beyond the run's spread, as textbooks warn."));
  else if (j->verdict == MS_VERDICT_FASTER)
    SAY (ms_gettext (
        "The CPU's check of the result took %.2f× as long in write-combined memory as in "
        "ordinary memory (%s against %s, medians), beyond the run's spread: the opposite of the "
        "textbook warning, on this machine."));
  else if (j->verdict == MS_VERDICT_SAME)
    SAY (ms_gettext (
        "The CPU's check of the result took %.2f× as long in write-combined memory as in "
        "ordinary memory (%s against %s, medians), the same within the run's spread, though "
        "textbooks warn it is slower."));
  else if (isfinite (j->lo) && isfinite (j->hi) && j->ratio != 1)
    /* Undecided: the interval says how little the run saw, so that a
     * median on the textbook's side is not read as the textbook's effect. */
    ms_caption_append (buf, len,
                       ms_gettext ("The CPU's check of the result took %.2f× as long in "
                                   "write-combined as in ordinary memory (%s against %s), but "
                                   "could be %.2f× to %.2f×: too noisy to show the slowdown "
                                   "textbooks warn of, or its absence."),
                       j->ratio, t_wc, t_plain, j->lo, j->hi);
  else
    SAY (ms_gettext (
        "The CPU's check of the result took %.2f× as long in write-combined memory as in "
        "ordinary memory (%s against %s, medians)."));
#undef SAY
}

static bool
caption_cache_state (const MsResults *r, int exponent, char *buf, size_t len)
{
  MsCacheStateRow rows[MS_CACHE_STATE_MAX_ROWS];
  int n = ms_cache_state_rows (r, exponent, rows, MS_CACHE_STATE_MAX_ROWS);
  int copies = 0;
  for (int i = 0; i < n; i++)
    copies += rows[i].state != MS_CACHE_STATE_READ_WC;
  if (copies)
    append_copies (buf, len, rows, n);
  char note[512];
  if (exponent < 0 && ms_cache_state_cached_note (r, note, sizeof note))
    ms_caption_append (buf, len, "%s", note);
  /* Measured apart (docs/measurements/2026-11-30-h200-stores-gated, at 4
   * MiB, the copies queued behind a kernel so that the GPU's event pair
   * held them alone): ordinary stores +31.8-42.7 µs in 9 of 13 processes,
   * pinned and write-combined; flushed first, -0.9 to +2.3 µs in all 13. */
  MsCacheState state = MS_CACHE_STATE_COUNT;
  if (exponent < 0 && engine_note (r, note, sizeof note, &state, false))
    ms_caption_append (buf, len, "%s", note);
  /* The plain program's finding where the note names ordinary stores, the
   * one state it measured. */
  if (state == MS_CACHE_STATE_ORDINARY)
    ms_caption_append (buf, len, "%s",
                       ms_gettext ("A plain program on an H200's host, its copies timed alone, "
                                   "found them 32-43 µs longer at 4 MiB after ordinary stores in "
                                   "9 of 13 processes, and in none with the lines flushed from "
                                   "the CPU's cache first: the GPU reading lines the cache still "
                                   "holds written is what costs."));
  for (int i = 0; i < n; i++)
    if (rows[i].state == MS_CACHE_STATE_READ_WC)
      append_check (buf, len, &rows[i]);
  return buf[0] != '\0';
}

/* The command line's finding: the copy rate per way of writing, and
 * reading WC memory. */
static void
finding (const MsResults *r, char *buf, size_t len)
{
  double s = ms_finding_h2d_gbps (r, MS_MODE_PINNED, "stores=streamed");
  double o = ms_finding_h2d_gbps (r, MS_MODE_PINNED, "stores=ordinary");
  double f = ms_finding_h2d_gbps (r, MS_MODE_PINNED, "stores=fresh");
  double v = ms_finding_phase (r, MS_MODE_WRITE_COMBINED, "stores=streamed", MS_PHASE_VERIFY);
  double vwc
      = ms_finding_phase (r, MS_MODE_WRITE_COMBINED, "stores=streamed/read=wc", MS_PHASE_VERIFY);
  if (s > 0 && o > 0 && f > 0)
    ms_caption_append_line (
        buf, len,
        ms_gettext ("Pinned copies to the device: %.2f GB/s after streaming stores, "
                    "%.2f after ordinary stores, %.2f from fresh buffers.\n"),
        s, o, f);
  if (v > 0 && vwc > 0)
    /* A ratio, not "slower": in the lent VMs it came out below 1. */
    ms_caption_append_line (
        buf, len,
        ms_gettext ("The CPU reading the result from write-combined memory takes %.2f "
                    "of the time it takes from cached memory (the material expects "
                    "far more than 1).\n"),
        vwc / v);
}

/* Whether every copy row of mode came out the same as after streamed
 * stores. */
static bool
all_same (const MsCacheStateRow *rows, int n, MsMode mode)
{
  bool any = false, same = true;
  for (int j = 0; j < n; j++)
    if (rows[j].mode == mode && ms_cache_state_on_slide (&rows[j])) {
      any = true;
      same = same && standing (&rows[j]) == SAME;
    }
  return any && same;
}

/* Each word's capital initial in s lowered (ASCII: the memories' names),
 * the first word's too where first. */
static void
lower_words (char *s, bool first)
{
  for (char *p = s; *p; p++)
    if (*p >= 'A' && *p <= 'Z' && (p == s ? first : p[-1] == ' '))
      *p = (char)(*p - 'A' + 'a');
}

/* The memories of the copy rows, each once in row order, split by
 * whether all their rows came out the same: "Pinned and write-combined",
 * "pageable". */
static void
memory_lists (const MsCacheStateRow *rows, int n, char *same, char *other, size_t len)
{
  bool seen[MS_MODE_COUNT] = { false };
  int n_same = 0, n_other = 0;
  same[0] = other[0] = '\0';
  for (int i = 0; i < n; i++) {
    MsMode m = rows[i].mode;
    if (!ms_cache_state_on_slide (&rows[i]) || seen[m])
      continue;
    seen[m] = true;
    bool s = all_same (rows, n, m);
    char *list = s ? same : other;
    int *count = s ? &n_same : &n_other;
    size_t used = strlen (list);
    /* TRANSLATORS: joins two memories' names, e.g. "Pinned and
     * write-combined". */
    if (*count)
      snprintf (list + used, len - used, "%s", ms_gettext (" and "));
    used = strlen (list);
    snprintf (list + used, len - used, "%s", ms_mode_title (m));
    ++*count;
  }
  /* Lower case after the first word of the line. */
  lower_words (same, false);
  lower_words (other, true);
}

/* How far a row's time lies from its 1×, in per cent of it, from its
 * ratio as the row writes it (0.71×: 29), so that the headline's share
 * and the row's figure agree. */
static int
percent_off (const MsCacheStateRow *row)
{
  return (int) lround (fabs (round (row->judgement.ratio * 100) - 100));
}

/* Ordinary stores' two ways at once, where they moved pageable copies
 * and a pinned memory's apart in opposite directions: the slide holds
 * both, and a headline naming one left readers asking about the other
 * (H200, 2026-11-30: pageable 0.71×, pinned 1.20×); at size, the rows'. */
static bool
both_ways (const MsCacheStateRow *rows, int n, const char *size, char *buf, size_t len)
{
  const MsCacheStateRow *pageable = NULL, *pinned = NULL;
  for (int i = 0; i < n; i++) {
    const MsCacheStateRow *row = &rows[i];
    if (!ms_cache_state_on_slide (row) || standing (row) != APART)
      continue;
    if (row->mode == MS_MODE_PAGEABLE)
      pageable = row;
    else if (!pinned || fabs (log (row->judgement.ratio)) > fabs (log (pinned->judgement.ratio)))
      pinned = row;
  }
  if (!pageable || !pinned || (pageable->judgement.ratio - 1) * (pinned->judgement.ratio - 1) >= 0)
    return false;
  char names[2][64];
  const MsCacheStateRow *both[2] = { pageable, pinned };
  for (int k = 0; k < 2; k++) {
    snprintf (names[k], sizeof names[k], "%s", ms_mode_title (both[k]->mode));
    lower_words (names[k], true);
  }
  /* TRANSLATORS: the cache-state headline where ordinary stores made one
   * memory's copies shorter and another's longer, e.g. "4 MiB, cached:
   * pageable took 29% less time, pinned 20% more" (cached: after ordinary
   * stores, as the rows gloss them; less and more than uncached, their
   * 1×); one projected line. The size: the note says the pageable gain
   * goes at 16 MiB, and without it a reader took the line for every size;
   * two bare ratios ("0.71× the uncached time, pinned 1.20×") left a
   * teacher to find which was faster, "faster (0.71×)" was read as 0.71
   * times as fast, and "in 0.71× the time" left a teacher asking the time
   * of what. */
  snprintf (buf, len,
            pageable->judgement.ratio < 1
                ? ms_gettext ("%s, cached: %s took %d%% less time, %s %d%% more")
                : ms_gettext ("%s, cached: %s took %d%% more time, %s %d%% less"),
            size, names[0], percent_off (pageable), names[1], percent_off (pinned));
  return true;
}

static MsTakeaway
takeaway_cache_state (const MsResults *r, char *buf, size_t len)
{
  MsCacheStateRow rows[MS_CACHE_STATE_MAX_ROWS];
  int n = ms_cache_state_rows (r, -1, rows, MS_CACHE_STATE_MAX_ROWS);
  const MsCacheStateRow *far = NULL;
  int copies = 0, untold = 0;
  /* The rows the slide draws alone. */
  for (int i = 0; i < n; i++) {
    if (!ms_cache_state_on_slide (&rows[i]))
      continue;
    copies++;
    untold += standing (&rows[i]) == UNTOLD;
    if (standing (&rows[i]) == APART
        && (!far || fabs (log (rows[i].judgement.ratio)) > fabs (log (far->judgement.ratio))))
      far = &rows[i];
  }
  if (!copies)
    return MS_TAKEAWAY_MISSING;
  char size[32];
  ms_format_bytes (ms_exponent_bytes (rows[0].exponent), size, sizeof size);
  if (far && both_ways (rows, n, size, buf, len))
    return MS_TAKEAWAY_DECIDED;
  if (far) {
    /* TRANSLATORS: the cache-state headline, one projected line of about
     * 60 characters at most, e.g. "Pageable at 4 MiB, cached: 33% less
     * time than uncached" (uncached: after streaming stores, the 1×, as
     * its row names it; "streamed" was read as CUDA's streams); the share
     * from the ratio as the row writes it (0.67×): its inverse, "1.4×
     * faster", had to be worked out and was rounded from the medians; the
     * size, as the effect may hold at it alone; at 70 characters the line
     * shrank under a back row's size. */
    snprintf (buf, len,
              far->judgement.ratio < 1 ? ms_gettext ("%s at %s, %s: %d%% less time than uncached")
                                       : ms_gettext ("%s at %s, %s: %d%% more time than uncached"),
              ms_mode_title (far->mode), size, short_name (far->state), percent_off (far));
    return MS_TAKEAWAY_DECIDED;
  }
  /* A memory whose every state came out the same is decided; the ones
   * the run cannot tell are named after it, short: left to the picture,
   * the line read as the answer for every memory. "This run", not "this
   * GPU": it is the run's spread that cannot decide. */
  char same[128], other[128];
  memory_lists (rows, n, same, other, sizeof same);
  if (untold && same[0]) {
    /* TRANSLATORS: one projected line (as drawn, at 1024x768): the
     * memories whose copies came out the same, e.g. "Pinned and
     * write-combined: no change; pageable: too noisy to say" (however the
     * inputs were written, as the question asks; "cannot tell" had to be
     * taught as a noisy range, not a difference). */
    snprintf (buf, len, ms_gettext ("%s: no change; %s: too noisy to say"), same, other);
    return MS_TAKEAWAY_DECIDED;
  }
  if (untold) {
    snprintf (buf, len,
              ms_gettext ("This run cannot tell how host stores change copies at %s"),
              size);
    return MS_TAKEAWAY_UNDECIDED;
  }
  /* Of ordinary stores alone, the rows weighed: another way of writing,
   * in the details, may still have moved a copy. */
  snprintf (buf, len, ms_gettext ("Ordinary stores (cached) left the copies unchanged at %s"),
            size);
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_cache_state = {
  .card = { .name = NAME,
            .modes = "pageable,pinned,write-combined",
            /* Named for what every run answers: the slide of a run that
             * could tell only pinned memory's copies sat under a title
             * about write-combined memory. */
            .title = MS_N_ ("How the CPU's last stores change a copy"),
            /* In the cache's words, as the slide's rows and headline are:
             * "the way the host last wrote the buffers" had a teacher
             * explain the stores before the question; of the work timed, a
             * repetition with its copies ("a copy" was set against the
             * repetition the slide times). */
            .question = MS_N_ ("Is a vector add with its copies faster or slower when the CPU's "
                               "cache still holds its inputs?"),
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
  .missing = MS_N_ ("This run has no pageable, write-combined or pinned cells under the host "
                    "stores settings."),
  .takeaway = takeaway_cache_state,
  .finding = finding,
};
