/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-pin-payoff.c: when does pinning pay off (docs/lessons.md)?
 * Per size, what getting and releasing a buffer costs (pageable with fresh
 * pages: mmap and first touch; pageable from a reused heap: malloc, write,
 * free; pinned: cudaMallocHost; registered: cudaHostRegister on a fresh
 * pageable buffer; a host memory pool's first allocation and its steady
 * state) and one host-to-device copy from each. The caption adds
 * them up for N uses and gives the break-even N, as measured. A second part,
 * in a process of its own, holds a growing share of the host's memory pinned
 * and measures a pinned allocation and a pageable copy at each share. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-pin-payoff.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"

#define NAME "pin-payoff"
#define MIN_EXP 14
/* The second part: 64 MiB buffers, the held share in HELD_LEVELS steps. */
#define HELD_EXP 24
#define HELD_LEVELS 4

/* arg[] of the probe, read by kernels/lesson-pin-payoff.cu. */
enum { ARG_STEP, ARG_MAX_PCT, ARG_KIND, ARG_HELD_PERMILLE };
enum { STEP_SETUP, STEP_RELEASE, STEP_COPY, N_STEPS, STEP_HELD_ALLOC = N_STEPS, STEP_HELD_COPY };

static const char *const step_names[N_STEPS] = { "setup", "release", "copy" };
static const struct {
  MsMode mode;
  const char *name, *label;
} kinds[MS_PIN_KIND_COUNT] = {
  [MS_PIN_PAGEABLE] = { MS_MODE_PAGEABLE, "pageable", MS_N_ ("pageable, fresh pages (mmap)") },
  [MS_PIN_PINNED] = { MS_MODE_PINNED, "pinned", MS_N_ ("pinned (cudaMallocHost)") },
  [MS_PIN_REGISTERED] = { MS_MODE_REGISTERED, "registered",
                          MS_N_ ("registered (cudaHostRegister)") },
  [MS_PIN_PAGEABLE_REUSED] = { MS_MODE_PAGEABLE, "pageable-reused",
                               MS_N_ ("pageable, reused heap (malloc)") },
  [MS_PIN_POOL_FIRST] = { MS_MODE_PINNED, "pool-first",
                          MS_N_ ("host pool, first allocation") },
  [MS_PIN_POOL_KEPT] = { MS_MODE_PINNED, "pool-kept", MS_N_ ("host pool, kept memory") },
};
#define N_KINDS MS_PIN_KIND_COUNT

MsMode
ms_pin_payoff_kind_mode (MsPinKind kind)
{
  return kinds[kind].mode;
}

const char *
ms_pin_payoff_kind_label (MsPinKind kind)
{
  return ms_gettext (kinds[kind].label);
}

static const MsLessonOption options[] = {
  { "max-exp", 26, MIN_EXP, 28, true,
    MS_N_ ("the largest size: 2^max-exp floats (26: 256 MiB, 28: 1 GiB); sizes from 64 KiB "
           "in steps of 4×") },
  { "max-pinned-pct", 25, 1, 50, true,
    MS_N_ ("the most host memory one sample takes, in percent of MemAvailable; larger sizes are "
           "skipped and say so") },
  { "held-max-pct", 10, 1, 25, true,
    MS_N_ ("the most host memory the second part holds pinned, in percent of MemTotal, reached "
           "in four steps from none; it never leaves less than a quarter of MemTotal available") },
  { NULL },
};

/* Part 1 in a process of its own: whatever it pinned goes back with it. */
static void
parts (MsPartList *list)
{
  ms_lesson_add_probe_part (list, 0);
  ms_lesson_isolate (ms_lesson_add_probe_part (list, 1), NULL, NULL);
}

/* Part 1: at each held share, a pinned allocation and a pageable copy. */
static int
held_cells (const MsSweep *sweep, MsProbeCell *out, int max)
{
  int held_pct = (int)ms_lesson_option_in (options, sweep->options, "held-max-pct");
  int pct = (int)ms_lesson_option_in (options, sweep->options, "max-pinned-pct");
  int n = 0;
  for (int l = 0; l <= HELD_LEVELS; l++)
    for (int k = 0; k < 2 && n < max; k++) {
      int permille = held_pct * 10 * l / HELD_LEVELS;
      MsProbeCell *c = ms_probe_cell_set (&out[n++], k ? MS_MODE_PAGEABLE : MS_MODE_PINNED,
                                          HELD_EXP, "held-permille=%d/step=%s", permille,
                                          k ? "pageable-copy" : "pinned-alloc");
      c->arg[ARG_STEP] = k ? STEP_HELD_COPY : STEP_HELD_ALLOC;
      c->arg[ARG_MAX_PCT] = pct;
      c->arg[ARG_KIND] = k ? 0 : 1;
      c->arg[ARG_HELD_PERMILLE] = permille;
    }
  return n;
}

/* A part 0 cell's variant, which the caption looks its cells up by:
 * "mode=pinned/step=setup". */
static void
variant (char *buf, size_t len, MsPinKind kind, int step)
{
  snprintf (buf, len, "mode=%s/step=%s", kinds[kind].name, step_names[step]);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  if (part == 1)
    return held_cells (sweep, out, max);
  int max_exp = (int)ms_lesson_option_in (options, sweep->options, "max-exp");
  int pct = (int)ms_lesson_option_in (options, sweep->options, "max-pinned-pct");
  int n = 0;
  for (int e = MIN_EXP; e <= max_exp; e += 2)
    for (int k = 0; k < N_KINDS; k++)
      for (int s = 0; s < N_STEPS && n < max; s++) {
        MsProbeCell *c = ms_probe_cell_init (&out[n++], kinds[k].mode, e);
        variant (c->variant, sizeof c->variant, k, s);
        c->arg[ARG_STEP] = s;
        c->arg[ARG_MAX_PCT] = pct;
        c->arg[ARG_KIND] = k;
        c->instrumented = s == STEP_COPY;
      }
  return n;
}

/* A step's median (which 0) or the low (< 0) or high (> 0) end of its
 * 95% interval, as the verdicts use (min..max below 6 repetitions); -1
 * when missing. */
static double
stat_of (const MsResults *r, MsPinKind kind, int exponent, int step, int which)
{
  char v[MS_VARIANT_LEN];
  variant (v, sizeof v, kind, step);
  const MsCell *c = ms_caption_measured (r, kinds[kind].mode, exponent, v);
  return !c          ? -1
         : which < 0 ? c->stats.e2e.ci_low
         : which > 0 ? c->stats.e2e.ci_high
                     : c->stats.e2e.median;
}

static bool
cost_at (const MsResults *r, MsPinKind kind, int exponent, int which, MsPinCost *out)
{
  if ((int)kind < 0 || kind >= MS_PIN_KIND_COUNT)
    return false;
  double setup = stat_of (r, kind, exponent, STEP_SETUP, which);
  double release = stat_of (r, kind, exponent, STEP_RELEASE, which);
  double copy = stat_of (r, kind, exponent, STEP_COPY, which);
  if (setup < 0 || release < 0 || !(copy > 0))
    return false;
  out->once_us = setup + release;
  out->copy_us = copy;
  /* Registering needs a pageable buffer first, and gives it back after. */
  MsPinCost pageable;
  if (kind == MS_PIN_REGISTERED && !cost_at (r, MS_PIN_PAGEABLE, exponent, which, &pageable))
    return false;
  out->once_us += kind == MS_PIN_REGISTERED ? pageable.once_us : 0;
  return true;
}

bool
ms_pin_payoff_cost (const MsResults *r, MsPinKind kind, int exponent, MsPinCost *out)
{
  return cost_at (r, kind, exponent, 0, out);
}

/* Where pin's total over n copies meets base's: its extra once-only cost
 * over what a copy saves (pin's copies faster). */
static double
crossing (const MsPinCost *pin, const MsPinCost *base)
{
  return (pin->once_us - base->once_us) / (base->copy_us - pin->copy_us);
}

/* ms_pin_payoff_break_even with kind's costs at which (0 median, < 0
 * fastest, > 0 slowest sample) and base's the other way: N's span over
 * the samples from -1 and 1. */
static int
break_even_at (const MsResults *r, MsPinKind kind, MsPinKind base_kind, int exponent, int which,
               double *n)
{
  MsPinCost base, pin;
  if (!cost_at (r, base_kind, exponent, -which, &base) || !cost_at (r, kind, exponent, which, &pin))
    return -1;
  if (pin.once_us <= base.once_us && pin.copy_us <= base.copy_us) {
    *n = 1;
    return 1;
  }
  if (pin.copy_us >= base.copy_us)
    return 0;
  *n = fmax (1, ceil (crossing (&pin, &base)));
  return 1;
}

double
ms_pin_payoff_cross (const MsResults *r, MsPinKind kind, MsPinKind base_kind, int exponent)
{
  MsPinCost base, pin;
  if (!cost_at (r, base_kind, exponent, 0, &base) || !cost_at (r, kind, exponent, 0, &pin)
      || pin.copy_us >= base.copy_us)
    return -1;
  return fmax (0, crossing (&pin, &base));
}

int
ms_pin_payoff_break_even (const MsResults *r, MsPinKind kind, MsPinKind base_kind, int exponent,
                          double *n)
{
  return break_even_at (r, kind, base_kind, exponent, 0, n);
}

bool
ms_pin_payoff_span (const MsResults *r, MsPinKind kind, MsPinKind base, int exponent, double *lo,
                    double *hi)
{
  if (break_even_at (r, kind, base, exponent, 1, hi) != 1)
    *hi = INFINITY;
  return break_even_at (r, kind, base, exponent, -1, lo) == 1;
}

const char *
ms_pin_payoff_copies (const MsResults *r, MsPinKind kind, MsPinKind base, int exponent, bool unit,
                      bool spread, char *buf, size_t len)
{
  double lo = 0, hi = 0, n = 0;
  char span[32];
  if (!ms_pin_payoff_span (r, kind, base, exponent, &lo, &hi)
      || ms_pin_payoff_break_even (r, kind, base, exponent, &n) != 1)
    return NULL;
  /* The median's count (the dot), or the span the samples allow. */
  snprintf (span, sizeof span,
            !spread ? "%.0f" : isinf (hi) ? "%.0f–∞" : hi > lo ? "%.0f–%.0f" : "%.0f",
            spread ? lo : n, hi);
  snprintf (buf, len,
            !unit ? "%s" : strcmp (span, "1") ? ms_gettext ("%s copies") : ms_gettext ("1 copy"),
            span);
  return buf;
}

const char *
ms_pin_payoff_pool_missing (const MsResults *r)
{
  /* At a size where cudaMallocHost was measured: a size skipped for
   * memory skips every kind, and the caption says so once. */
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->status != MS_CELL_OK && c->message[0] && strncmp (c->variant, "mode=pool-", 10) == 0
        && stat_of (r, MS_PIN_PINNED, c->exponent, STEP_SETUP, 0) >= 0)
      return c->message;
  }
  return NULL;
}

/* Where the level of permille is in out[0..n), adding it when new (in
 * order of permille); -1 when out is full. */
static int
held_level (MsPinHeld *out, int *n, int max, int permille)
{
  int i = 0;
  while (i < *n && out[i].held_pct * 10 < permille - 0.5)
    i++;
  if (i < *n && fabs (out[i].held_pct * 10 - permille) < 0.5)
    return i;
  if (*n >= max)
    return -1;
  memmove (&out[i + 1], &out[i], sizeof *out * (size_t)(*n - i));
  out[i] = (MsPinHeld){ permille / 10.0, -1, -1 };
  (*n)++;
  return i;
}

int
ms_pin_payoff_held (const MsResults *r, MsPinHeld *out, int max)
{
  int n = 0;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    int permille;
    char step[24];
    if (c->status != MS_CELL_OK || !(c->stats.e2e.median > 0)
        || sscanf (c->variant, "held-permille=%d/step=%23s", &permille, step) != 2)
      continue;
    int l = held_level (out, &n, max, permille);
    if (l < 0)
      break;
    if (strcmp (step, "pinned-alloc") == 0)
      out[l].alloc_us = c->stats.e2e.median;
    else if (strcmp (step, "pageable-copy") == 0)
      out[l].copy_gbps = (double) ms_vector_bytes (c->elements) / c->stats.e2e.median * 1e-3;
  }
  return n;
}

/* A break-even in words for the list: with verb "paid off after 91
 * copies", "paid off after one copy" or "never paid off"; without, the
 * same after "and": "after 91 copies", "after one copy" or "never". */
static const char *
paid_off (int found, double n, bool verb, char *buf, size_t len)
{
  if (found == 0)
    return verb ? ms_gettext ("never paid off") : ms_gettext ("never");
  if (n <= 1)
    return verb ? ms_gettext ("paid off after one copy") : ms_gettext ("after one copy");
  snprintf (buf, len,
            verb ? ms_gettext ("paid off after %.0f copies") : ms_gettext ("after %.0f copies"), n);
  return buf;
}

/* One kind's line of the chart in a few words, appended to list: from
 * which size up it pays off after the first copy, and the most it takes
 * below ("pinned vs fresh pageable paid off after one copy from 16 MiB up
 * and after up to 144 copies at smaller sizes (at 256 KiB)"), rather than a
 * sentence a size, or a long one a kind, which buried the picture at
 * 1024x768. Counts the nevers. */
static void
list_kind (const MsResults *r, MsPinKind pin, MsPinKind base, const char *kind, char *list,
           size_t len, int *nevers)
{
  const MsCell *first_from = NULL, *smallest = NULL, *largest = NULL, *most = NULL;
  bool run = true, all_never = true, below_found = true, below_never = true;
  int found = 0, found_largest = 0;
  double n = 0, n_smallest = 0, n_largest = 0, n_most = 0;
  FOR_EACH_EXP (e, -1)
  {
    int f = ms_pin_payoff_break_even (r, pin, base, e, &n);
    /* Any cell of the size names it; the pinned copy is always there. */
    const MsCell *c = ms_caption_measured (r, MS_MODE_PINNED, e, "mode=pinned/step=copy");
    if (f < 0 || c == NULL)
      continue;
    run = run && f == 1 && n <= 1;
    all_never = all_never && f == 0;
    if (run)
      first_from = c;
    /* Below the sizes that pay off at once: the most copies any took,
     * which the line quotes (the smallest size was not always the worst). */
    else if (f == 0)
      below_found = false;
    else {
      below_never = false;
      if (n > n_most)
        most = c, n_most = n;
    }
    if (largest == NULL) {
      largest = c;
      found_largest = f;
      n_largest = n;
    }
    smallest = c;
    found = f;
    n_smallest = n;
  }
  if (smallest == NULL)
    return;
  char s1[32], s2[32], w[48], w1[48], item[256];
  ms_caption_size (smallest, s2, sizeof s2);
  if (first_from == smallest)
    snprintf (item, sizeof item, ms_gettext ("%s paid off after one copy at every size down to %s"),
              kind, s2);
  else if (first_from != NULL && below_found && most != NULL)
    snprintf (item, sizeof item,
              ms_gettext ("%s paid off after one copy from %s up and after up to %.0f copies "
                          "at smaller sizes (at %s)"),
              kind, ms_caption_size (first_from, s1, sizeof s1), n_most,
              ms_caption_size (most, s2, sizeof s2));
  else if (first_from != NULL && below_never)
    /* Every smaller size never paid off: said of them all, where "never
     * at 64 KiB" left out 256 KiB. */
    snprintf (item, sizeof item,
              ms_gettext ("%s paid off after one copy from %s up and never at smaller sizes"),
              kind,
              ms_caption_size (first_from, s1, sizeof s1));
  else if (first_from != NULL)
    snprintf (item, sizeof item, ms_gettext ("%s paid off after one copy from %s up and %s at %s"),
              kind, ms_caption_size (first_from, s1, sizeof s1),
              paid_off (found, n_smallest, false, w, sizeof w), s2);
  else if (all_never && largest != smallest)
    snprintf (item, sizeof item, ms_gettext ("%s never paid off at any size from %s to %s"), kind,
              s2, ms_caption_size (largest, s1, sizeof s1));
  else if (largest == smallest)
    snprintf (item, sizeof item, ms_gettext ("%s %s at %s"), kind,
              paid_off (found, n_smallest, true, w, sizeof w), s2);
  else
    snprintf (item, sizeof item, ms_gettext ("%s %s at %s and %s at %s"), kind,
              paid_off (found_largest, n_largest, true, w1, sizeof w1),
              ms_caption_size (largest, s1, sizeof s1),
              paid_off (found, n_smallest, false, w, sizeof w), s2);
  *nevers += found == 0 || found_largest == 0;
  size_t at = strlen (list);
  snprintf (list + at, len - at, "%s%s", at ? "; " : "", item);
}

/* The slide's size: the smallest from which pinning paid off
 * against fresh pages after one copy at every size above too; NULL
 * without. any: a size compared; never: none paid off. */
static const MsCell *
one_copy_from (const MsResults *r, bool *any, bool *never, int *smallest)
{
  const MsCell *from = NULL;
  bool run = true;
  *any = false, *never = true, *smallest = -1;
  FOR_EACH_EXP (e, -1)
  {
    double n = 0;
    int f = ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE, e, &n);
    const MsCell *c = ms_caption_measured (r, MS_MODE_PINNED, e, "mode=pinned/step=copy");
    if (f < 0 || c == NULL)
      continue;
    *any = true;
    *never = *never && f == 0;
    run = run && f == 1 && n <= 1;
    if (run)
      from = c;
    *smallest = e;
  }
  return from;
}

int
ms_pin_payoff_most_below (const MsResults *r, MsPinKind kind, MsPinKind base, int exponent,
                          double *n)
{
  int most = -1;
  *n = 0;
  for (int e = MS_MIN_EXPONENT; e < exponent; e++) {
    double at = 0;
    if (ms_pin_payoff_break_even (r, kind, base, e, &at) == 1 && at > *n)
      most = e, *n = at;
  }
  return most;
}

int
ms_pin_payoff_slide_exponent (const MsResults *r)
{
  bool any, never;
  int smallest;
  const MsCell *from = one_copy_from (r, &any, &never, &smallest);
  return from ? from->exponent : -1;
}

/* The slide's line: the chart's first line (pinned against newly
 * allocated pageable pages, "fresh" in the legend), from which size it
 * pays off with its first copy, and at that size the second (against a
 * reused heap); the other lines are the details'. Empty (the caption's
 * line) where no size pays off at once. */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  bool any, never;
  int smallest;
  const MsCell *from = one_copy_from (r, &any, &never, &smallest);
  char size[32], fresh_n[48], reused_n[32];
  /* Beside fresh pages, a heap that has served the size before (what a
   * program that frees and mallocs again gets): the card's question has
   * two answers, and the line gave only the first. */
  double reused = 0;
  int reused_found = from ? ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED,
                                                      from->exponent, &reused)
                          : -1;
  if (any && never)
    snprintf (buf, len, "%s",
              ms_gettext ("Pinning never paid off against fresh pageable memory"));
  else if (from && reused_found == 1) {
    ms_caption_size (from, size, sizeof size);
    ms_pin_payoff_copies (r, MS_PIN_PINNED, MS_PIN_PAGEABLE, from->exponent, true, false,
                          fresh_n, sizeof fresh_n);
    ms_pin_payoff_copies (r, MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, from->exponent, true, false,
                          reused_n, sizeof reused_n);
    if (strcmp (fresh_n, reused_n) == 0)
      /* TRANSLATORS: e.g. "Pinning 64 MiB pays off in 1 copy, even vs
       * reused memory": both of the key's lines take as many copies. */
      snprintf (buf, len, ms_gettext ("Pinning %s pays off in %s, even vs reused memory"), size,
                fresh_n);
    else {
      ms_pin_payoff_copies (r, MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, from->exponent, false, false,
                            reused_n, sizeof reused_n);
      /* TRANSLATORS: one projected line, e.g. "Pinning 4 MiB pays back in
       * 1 copy, or 8 if malloc reuses memory": the copies after which a
       * pinned buffer costs no more in all than new pageable memory and
       * than memory malloc reuses, the rings' dots. "1 copy vs costly new
       * pages, 8 vs reused" was read as shorthand to unpack, and the key
       * prices each. */
      snprintf (buf, len, ms_gettext ("Pinning %s pays back in %s, or %s if malloc reuses memory"),
                size, fresh_n, reused_n);
    }
  } else if (from && reused_found == 0)
    snprintf (buf, len,
              ms_gettext ("At %s pinning pays in 1 copy vs fresh pages, never vs reused"),
              ms_caption_size (from, size, sizeof size));
  else if (from && from->exponent == smallest)
    snprintf (buf, len,
              ms_gettext ("Pinning beats fresh pageable memory in one copy down to %s"),
              ms_caption_size (from, size, sizeof size));
  else if (from)
    snprintf (buf, len,
              ms_gettext ("Pinning beats fresh pageable memory in one copy from %s up"),
              ms_caption_size (from, size, sizeof size));
  else
    return MS_TAKEAWAY_MISSING;
  return MS_TAKEAWAY_DECIDED;
}

int
ms_pin_payoff_reused_drop (const MsResults *r, int e)
{
  double n = 0;
  if (ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, e, &n) != 1 || n <= 1)
    return -1;
  while (++e <= MS_MAX_EXPONENT
         && !(ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, e, &n) == 1
              && n <= 1))
    ;
  return e <= MS_MAX_EXPONENT ? e : -1;
}

/* Where the reused line drops to 1 above e (from more there): the size
 * where getting and freeing reused memory cost about as much as new
 * memory, both costs quoted (its cells show it). */
static void
reused_drop (const MsResults *r, int e, char *buf, size_t len)
{
  MsPinCost fresh, reused;
  e = ms_pin_payoff_reused_drop (r, e);
  char z[32], t[2][32];
  if (e < 0 || !ms_pin_payoff_cost (r, MS_PIN_PAGEABLE, e, &fresh)
      || !ms_pin_payoff_cost (r, MS_PIN_PAGEABLE_REUSED, e, &reused))
    return;
  ms_format_bytes (ms_exponent_bytes (e), z, sizeof z);
  ms_caption_append (buf, len,
                     ms_gettext ("At %s the reused line drops to 1: malloc maps new pages "
                                 "there too, so getting and freeing reused memory took %s, new "
                                 "memory %s."),
                     z, ms_caption_time (reused.once_us, t[0], sizeof t[0]),
                     ms_caption_time (fresh.once_us, t[1], sizeof t[1]));
}

/* Slide 1's rates differ (readers checked one against the other): its
 * run writes the data past the CPU's cache and copies the same buffers
 * again and again; here each copy is a buffer's first, just after its
 * pages were written (docs/lessons.md gives what a plain program found
 * of each part). */
bool
ms_pin_payoff_rates (const MsResults *r, int exponent, char *buf, size_t len)
{
  MsPinCost pin, fresh, reused;
  char size[32];
  if (!r || !ms_pin_payoff_cost (r, MS_PIN_PINNED, exponent, &pin)
      || !ms_pin_payoff_cost (r, MS_PIN_PAGEABLE, exponent, &fresh)
      || !ms_pin_payoff_cost (r, MS_PIN_PAGEABLE_REUSED, exponent, &reused))
    return false;
  double bytes = (double)ms_exponent_bytes (exponent);
  ms_format_bytes (ms_exponent_bytes (exponent), size, sizeof size);
  buf[0] = '\0';
  ms_caption_append (buf, len,
                     ms_gettext ("At %s a copy ran at %.1f GB/s from new pageable memory, %.1f "
                                 "reused, %.1f pinned: each buffer's first copy, just after its "
                                 "pages were written. Slide %d writes its data past the CPU's "
                                 "cache and copies the same buffers again and again."),
                     size, bytes / fresh.copy_us / 1e3, bytes / reused.copy_us / 1e3,
                     bytes / pin.copy_us / 1e3, ms_lesson_deck_number (MS_TOPIC_PINNED_PAGEABLE));
  return true;
}

/* What a class compares with slides 4 and 8, as each setup differs (no
 * cause claimed; slide 1's rates are ms_pin_payoff_rates'): pinning's
 * cost at e per MiB, which slides 4 and 8 give for other sizes, and the
 * reused drop. */
static void
other_slides (const MsResults *r, int e, char *buf, size_t len)
{
  MsPinCost c;
  char z[32], t[2][32];
  if (!r || !ms_pin_payoff_cost (r, MS_PIN_PINNED, e, &c))
    return;
  ms_format_bytes (ms_exponent_bytes (e), z, sizeof z);
  ms_caption_append (
      buf, len,
      ms_gettext ("Pinning and freeing %s took %s here (%s per MiB), each call "
                  "timed alone; slide %d times both in one sample, first calls "
                  "included, and slide %d gets three buffers, each with its "
                  "cudaMalloc on the GPU."),
      z, ms_caption_time (c.once_us, t[0], sizeof t[0]),
      ms_caption_time (c.once_us * (1 << 20) / (double)ms_exponent_bytes (e), t[1], sizeof t[1]),
      ms_lesson_deck_number (MS_TOPIC_COSTS), ms_lesson_deck_number (MS_TOPIC_REGISTER));
  reused_drop (r, e, buf, len);
}

/* What getting and releasing took at one size, for each kind measured
 * there, and one copy from pageable and pinned memory. */
static void
caption_once (const MsResults *r, int e, const char *size, char *buf, size_t len)
{
  static const MsPinKind order[] = { MS_PIN_PAGEABLE, MS_PIN_PAGEABLE_REUSED, MS_PIN_PINNED,
                                     MS_PIN_POOL_FIRST, MS_PIN_POOL_KEPT };
  char list[512] = "", t[2][32];
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    MsPinCost c;
    if (!ms_pin_payoff_cost (r, order[i], e, &c))
      continue;
    size_t at = strlen (list);
    snprintf (list + at, sizeof list - at, "%s%s %s", at ? ", " : "",
              ms_pin_payoff_kind_label (order[i]), ms_caption_time (c.once_us, t[0], sizeof t[0]));
  }
  MsPinCost pg, pn;
  ms_pin_payoff_cost (r, MS_PIN_PAGEABLE, e, &pg);
  ms_pin_payoff_cost (r, MS_PIN_PINNED, e, &pn);
  /* The slide's sum's terms, with the rates' direction. */
  double bytes = (double) ms_exponent_bytes (e);
  ms_caption_append (buf, len,
                     ms_gettext ("At %s, getting and releasing the buffer took: %s; one copy to "
                                 "the device, timed on the host up to its end, took %s from fresh "
                                 "pages against %s pinned (%.1f against %.1f GB/s)."),
                     size, list, ms_caption_time (pg.copy_us, t[0], sizeof t[0]),
                     ms_caption_time (pn.copy_us, t[1], sizeof t[1]), bytes / pg.copy_us / 1e3,
                     bytes / pn.copy_us / 1e3);
  other_slides (r, e, buf, len);
}

/* Each kind against the pageable buffer it replaces: fresh pages, and the
 * reused heap a program that repeats its work gets. name for one size's
 * sentences, line for the list of all sizes: the picture's line (its
 * legend says the same words). */
static const struct {
  MsPinKind kind, base;
  const char *name, *line;
} against[] = {
  { MS_PIN_PINNED, MS_PIN_PAGEABLE, MS_N_ ("Pinning, against fresh pageable pages,"),
    MS_N_ ("pinned vs fresh pageable") },
  { MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, MS_N_ ("Pinning, against a reused heap,"),
    MS_N_ ("pinned vs reused heap") },
  { MS_PIN_REGISTERED, MS_PIN_PAGEABLE, MS_N_ ("Registering, against fresh pageable pages,"),
    MS_N_ ("registered vs fresh pageable") },
  { MS_PIN_POOL_KEPT, MS_PIN_PAGEABLE_REUSED,
    MS_N_ ("A host pool that kept its memory, against a reused heap,"),
    MS_N_ ("host pool (kept) vs reused heap") },
};

/* Appends where pinning's N against the two pageable kinds does what the
 * costs do not explain (rises with the size; a reused heap below fresh
 * pages), and whether the samples' spread covers it, with their spans. */
static void
oddity (const MsResults *r, char *buf, size_t len)
{
  /* The two points compared, their lines (0 fresh, 1 reused) and sizes:
   * one line rising from a size to the next, or at one size the reused
   * heap below fresh pages; the first found. */
  int prev[2] = { -1, -1 }, b[2] = { 0, 1 }, at[2] = { -1, -1 };
  double n[2], pn[2] = { 0, 0 }, s[4] = { 0 };
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT && at[1] < 0; e++) {
    int f[2];
    for (int i = 0; i < 2; i++)
      f[i] = ms_pin_payoff_break_even (r, MS_PIN_PINNED, against[i].base, e, &n[i]);
    for (int i = 0; i < 2 && at[1] < 0; i++)
      if (f[i] == 1 && prev[i] >= 0 && n[i] > pn[i])
        b[0] = b[1] = i, at[0] = prev[i], at[1] = e;
      else if (f[i] == 1)
        prev[i] = e, pn[i] = n[i];
    if (at[1] < 0 && f[0] == 1 && f[1] == 1 && n[1] < n[0])
      at[0] = at[1] = e;
  }
  if (at[1] < 0)
    return;
  char z[2][32], hi[2][16];
  /* Each point's span (s[2i]..s[2i+1]; no end where its copies may be
   * no faster); whether the two overlap. */
  bool meet = true;
  for (int i = 0; i < 2; i++) {
    meet = ms_pin_payoff_span (r, MS_PIN_PINNED, against[b[i]].base, at[i], &s[2 * i],
                               &s[2 * i + 1])
           && meet;
    ms_format_bytes (ms_exponent_bytes (at[i]), z[i], sizeof z[i]);
    snprintf (hi[i], sizeof hi[i], isinf (s[2 * i + 1]) ? "∞" : "%.0f", s[2 * i + 1]);
  }
  meet = meet && s[0] <= s[3] && s[2] <= s[1];
  /* Where the spans meet, theirs in the sentence: a sentence of its own
   * for them took the details past a projected screen. */
  if (b[0] == b[1] && meet)
    ms_caption_append (buf, len,
                       ms_gettext ("The rise from %s to %s is within the samples' spread "
                                   "(N %.0f–%s and %.0f–%s)."),
                       z[0], z[1], s[0], hi[0], s[2], hi[1]);
  else if (b[0] == b[1])
    ms_caption_append (buf, len, ms_gettext ("The rise from %s to %s: the run does not show why."),
                       z[0], z[1]);
  else if (meet)
    ms_caption_append (buf, len,
                       ms_gettext ("At %s the reused heap pays off sooner, within the samples' "
                                   "spread (N %.0f–%s against new pages, %.0f–%s against reused)."),
                       z[1], s[0], hi[0], s[2], hi[1]);
  else
    ms_caption_append (buf, len,
                       ms_gettext ("At %s the reused heap pays off sooner: the run does not show "
                                   "why."),
                       z[1]);
}

static void
caption_against (const MsResults *r, int e, const char *size, char *buf, size_t len)
{
  for (size_t i = 0; i < sizeof against / sizeof against[0]; i++) {
    double n = 0;
    char w[48];
    int f = ms_pin_payoff_break_even (r, against[i].kind, against[i].base, e, &n);
    if (f >= 0)
      ms_caption_append (buf, len, ms_gettext ("%s at %s %s."), ms_gettext (against[i].name),
                         size, paid_off (f, n, true, w, sizeof w));
  }
}

/* Every kind's line of the chart in one sentence. */
static void
caption_lines (const MsResults *r, char *buf, size_t len)
{
  char list[1024] = "";
  int nevers = 0;
  for (size_t i = 0; i < sizeof against / sizeof against[0]; i++)
    list_kind (r, against[i].kind, against[i].base, ms_gettext (against[i].line), list,
               sizeof list, &nevers);
  if (!list[0])
    return;
  /* The list opens the sentence: its first kind's name starts with a
   * capital where the script has them. */
  if (list[0] >= 'a' && list[0] <= 'z')
    list[0] = (char) (list[0] - 'a' + 'A');
  /* TRANSLATORS: the break-even list as a sentence of its own. */
  ms_caption_append (buf, len, ms_gettext ("%s."), list);
  if (nevers)
    ms_caption_append (buf, len, ms_gettext ("Never: its copies were not faster."));
}

/* us in ms at digits significant digits, as the sums write it, read
 * back: its sums come out as printed. */
static double
as_written_ms (double us, int digits)
{
  char t[32];
  snprintf (t, sizeof t, "%.*g", digits, us / 1e3);
  return strtod (t, NULL);
}

/* One line's sum from the figures as written: (pinned's cost − the pageable
 * buffer's) ÷ (its copy − the pinned copy); whether at the key's two digits
 * it is the key's quotient and rounding it up gives the line's n. */
static bool
sum_checks (const MsPinCost *pin, const MsPinCost *base, double n, int digits, double *q)
{
  char t[32], key[32];
  *q = (as_written_ms (pin->once_us, digits) - as_written_ms (base->once_us, digits))
       / (as_written_ms (base->copy_us, digits) - as_written_ms (pin->copy_us, digits));
  snprintf (t, sizeof t, "%.2g", *q);
  snprintf (key, sizeof key, "%.2g",
            (pin->once_us - base->once_us) / (base->copy_us - pin->copy_us));
  return fmax (1, ceil (strtod (t, NULL) - 1e-9)) == n && strcmp (t, key) == 0;
}

/* What the slide's counts come from, as one sum a class can redo, at
 * the fewest digits that make every sum give its count (1.005 at 3 digits
 * read as 1) and the key's quotient (0.663 beside 0.69 read as two); then
 * why other slides differ, and pinning's own cost, as the slide says. */
static void
caption_sums (const MsResults *r, char *buf, size_t len)
{
  bool any, never;
  int smallest;
  const MsCell *from = one_copy_from (r, &any, &never, &smallest);
  MsPinCost pin, fresh, reused;
  double n = 0, nf = 0, qf = 0, qu = 0;
  if (!from || !ms_pin_payoff_cost (r, MS_PIN_PINNED, from->exponent, &pin)
      || !ms_pin_payoff_cost (r, MS_PIN_PAGEABLE, from->exponent, &fresh)
      || !ms_pin_payoff_cost (r, MS_PIN_PAGEABLE_REUSED, from->exponent, &reused)
      || ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, from->exponent, &n)
             != 1
      || ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE, from->exponent, &nf) != 1)
    return;
  int d = 3;
  while (d < 6 && !(sum_checks (&pin, &fresh, nf, d, &qf) && sum_checks (&pin, &reused, n, d, &qu)))
    d++;
  char size[32];
#define FIG(us) d, as_written_ms (us, d)
  ms_caption_append (
      buf, len,
      ms_gettext ("The slide, at %s: copies = (pinned − pageable once) ÷ (pageable − pinned "
                  "copy), in ms: fresh (%.*g − %.*g) ÷ (%.*g − %.*g) = %.2g, rounded up: %.0f; "
                  "reused (%.*g − %.*g) ÷ (%.*g − %.*g) = %.2g, rounded up: %.0f."),
      ms_caption_size (from, size, sizeof size), FIG (pin.once_us), FIG (fresh.once_us),
      FIG (fresh.copy_us), FIG (pin.copy_us), qf, nf, FIG (pin.once_us), FIG (reused.once_us),
      FIG (reused.copy_us), FIG (pin.copy_us), qu, n);
#undef FIG
  char rates_text[512];
  if (ms_pin_payoff_rates (r, from->exponent, rates_text, sizeof rates_text))
    ms_caption_append (buf, len, "%s", rates_text);
  other_slides (r, from->exponent, buf, len);
  oddity (r, buf, len);
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  int sizes = 0;
  FOR_EACH_EXP (e, exponent)
  {
    double n_pin = 0, n_reg = 0;
    int pin = ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE, e, &n_pin);
    int reg = ms_pin_payoff_break_even (r, MS_PIN_REGISTERED, MS_PIN_PAGEABLE, e, &n_reg);
    if (pin < 0 || reg < 0)
      continue;
    char size[32];
    const MsCell *c = ms_caption_measured (r, MS_MODE_PINNED, e, "mode=pinned/step=copy");
    ms_caption_size (c, size, sizeof size);
    /* One size: its costs and its break-evens. Every size: the
     * picture's lines in a few words; the costs are the picture's table
     * and the held part its own (a caption of twelve lines left the
     * chart 115 pixels at 1024x768). */
    if (exponent >= 0) {
      caption_once (r, e, size, buf, len);
      caption_against (r, e, size, buf, len);
    }
    sizes++;
  }
  if (sizes && exponent < 0) {
    caption_lines (r, buf, len);
    caption_sums (r, buf, len);
  }
  if (!sizes)
    return false;
  const char *no_pool = ms_pin_payoff_pool_missing (r);
  if (no_pool)
    ms_caption_append (buf, len, ms_gettext ("The host memory pool was not measured: %s."),
                       no_pool);
  if (exponent < 0)
    for (size_t i = 0; i < r->n_cells; i++)
      if (r->cells[i].status == MS_CELL_UNSUPPORTED && r->cells[i].message[0]
          && strncmp (r->cells[i].variant, "mode=pool-", 10) != 0) {
        ms_caption_append (buf, len, ms_gettext ("Not every size was measured: %s."),
                           r->cells[i].message);
        break;
      }
  return true;
}

const MsLesson ms_lesson_pin_payoff = {
  .card = { .name = NAME,
            .modes = "pageable,pinned,registered",
            .title = MS_N_ ("When does pinning pay off?"),
            .question = MS_N_ ("After how many copies does the cost of pinning a buffer come "
                               "back?"),
            .reason = MS_N_ ("For each size from 64 KiB: what it costs to get and release a buffer "
                             "and one host-to-device copy from it, for six kinds of buffer: "
                             "pageable with fresh pages (mmap and the first touch of every page, "
                             "then munmap), pageable from a reused heap (malloc and a write to "
                             "every page, then free, after the same size was allocated and freed "
                             "once, as a program that repeats its work does; from 32 MiB glibc "
                             "maps fresh pages again), pinned (cudaMallocHost and cudaFreeHost), "
                             "registered (cudaHostRegister and cudaHostUnregister on a fresh "
                             "pageable buffer), and pinned memory from a host memory pool "
                             "(cudaMallocFromPoolAsync and cudaFreeAsync, each with a "
                             "synchronisation): a new pool's first allocation, and the steady "
                             "state of a pool that kept what it served. Where the driver has no "
                             "host memory pools, their cells say so and the rest is measured. "
                             "The total for N copies is the once-only cost plus N copies; look at "
                             "the N from which a pinned kind costs less in all than each pageable "
                             "kind, and how it moves with the size. Sizes that would take more "
                             "than a safe share of the available memory are skipped. Then, in a "
                             "process of its own, a growing share of the host's memory (up to "
                             "held-max-pct percent of it, never leaving less than a quarter "
                             "available) is held pinned, and at each share one 64 MiB "
                             "cudaMallocHost and one 64 MiB copy from pageable memory are timed: "
                             "what pinning much memory does to the rest of the machine.") },
  .settings = "sizes 64 KiB..2^max-exp floats in steps of 4x; per size and kind (pageable with "
              "fresh pages, pageable from a reused heap, pinned, registered, host pool first "
              "allocation, host pool kept) the setup, the release and one H2D copy; at most "
              "max-pinned-pct % of MemAvailable per sample; then 64 MiB pinned allocations "
              "and pageable copies with 0..held-max-pct % of MemTotal held pinned in 4 steps",
  MS_PROBE_LESSON_FIELDS,
  .takeaway = takeaway,
  .missing = MS_N_ ("The run lacks a size with the setup, release and copy of pageable, pinned "
                    "and registered memory."),
  .parts = parts,
};
